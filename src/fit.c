/* fit.c - fit a résumé to N pages.  See fit.h.
 *
 * Three knobs, turned in order, each only as far as needed:
 *   1. spacing: the gaps between sections, entries, blocks and bullets, and
 *      the line spacing (down to 1.15), scaled down to fit.spacing_floor;
 *   2. type: every font size and the indents that go with it, down to
 *      fit.font_floor of the layout's sizes;
 *   3. margins: towards fit.margin_floor.
 * For each knob a bisection finds the gentlest setting that fits, so a
 * résumé a line too long loses a little space, not its whole design; when
 * the type or the margins had to give, the spacing is bisected again, as
 * smaller type may leave room for some of it.  A try
 * is compose + paginate, in a scratch arena that is reset between tries.
 *
 * The last-page rule (cv_fit_pull_back) turns the first knob alone: a
 * last page less than a quarter full is pulled back when the spacing,
 * within its floor, can do it.
 *
 * Every try sets its paragraphs through the profile's paragraph cache
 * (wrap.h, the context's): a try that changes only the spacing finds every
 * line set, and costs the flow of the items, not their setting.
 */
#include "fit.h"

#include <math.h>
#include <string.h>

#include "compose.h"
#include "flow.h"

/* The last-page rule applies to documents of at most this many pages. */
#define PULL_BACK_MAX_PAGES 12

typedef struct knobs {
    float spacing, font, margin;   /* 1 = the layout's own; 0 = the floor (margin) */
} knobs;

static void apply(const cv_style *st, knobs k, cv_style *o)
{
    *o = *st;
    float s = k.spacing, f = k.font;
    /* (name_gap, headline_gap and summary_gap are < 0 when unset: still so.) */
    float *gaps[] = {&o->title_space_before, &o->title_space_after, &o->entry_gap,
                     &o->block_gap, &o->bullet_gap, &o->header_gap, &o->name_gap,
                     &o->headline_gap, &o->summary_gap};
    for (size_t i = 0; i < sizeof gaps / sizeof *gaps; i++)
        *gaps[i] *= s;
    if (st->line_spacing > 1.15f) {
        float t = st->fit_spacing_floor < 1 ? (1 - s) / (1 - st->fit_spacing_floor) : 0;
        o->line_spacing = st->line_spacing - (st->line_spacing - 1.15f) * t;
    }
    float *sizes[] = {&o->size, &o->side_size, &o->title_size, &o->name_size,
                      &o->headline_size, &o->contact_size, &o->bullet_indent,
                      &o->bullet_text_indent, &o->sub_indent, &o->side_gap, &o->rule_gap};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        *sizes[i] *= f;
    /* (bullet_size 0 and bullet_text_gap < 0 are unset: still so.) */
    o->bullet_size *= f;
    o->bullet_raise *= f;
    if (o->bullet_text_gap > 0)
        o->bullet_text_gap *= f;
    float *m[] = {&o->margin_top, &o->margin_bottom, &o->margin_left, &o->margin_right};
    for (int i = 0; i < 4; i++)
        if (*m[i] > st->fit_margin_floor)
            *m[i] = st->fit_margin_floor + (*m[i] - st->fit_margin_floor) * k.margin;
}

typedef struct overflow {
    size_t lines;
    const char *sections;
} overflow;

static float vl_height(const cv_vlist *vl)
{
    float h = 0;
    for (size_t i = 0; i < vl->n; i++)
        h += (i ? vl->items[i].space_before : 0) + vl->items[i].height;
    return h;
}

/* columns.sidebar.widen_main: where the sidebar ends before the main
 * column, the main column goes on at the full measure from the first page
 * without sidebar.  The page break before it is moved back to the start of
 * a paragraph (a header, a title) that a break may come before, on the
 * sidebar's last page: that item of the main column, or 0 for none. */
static size_t wide_from(cv_arena *a, const cv_composed *out, const cv_style *st)
{
    const cv_vlist *main = &out->col[CV_COL_MAIN];
    const cv_vlist *side = &out->col[CV_COL_SIDE];
    float full = st->page_h - st->margin_top - st->margin_bottom;
    float first = full - (out->head.n ? vl_height(&out->head) + out->head_gap : 0);
    size_t *ps = cv_arena_alloc(a, (side->n + 1) * sizeof *ps);
    size_t *pm = cv_arena_alloc(a, (main->n + 1) * sizeof *pm);
    size_t ns = cv_paginate(a, side, CV_COL_SIDE, first, full, ps, NULL);
    size_t nm = cv_paginate(a, main, CV_COL_MAIN, first, full, pm, NULL);
    if (!ns || nm <= ns)
        return 0;
    size_t b = 0;
    while (pm[b] < ns)
        b++;                       /* the first item of page ns + 1 */
    while (b > 0 && pm[b - 1] == ns - 1 &&
           (main->items[b].line || main->items[b - 1].keep != CV_KEEP_NONE))
        b--;
    if (b == 0 || pm[b - 1] != ns - 1 || main->items[b].line)
        return 0;                  /* no such paragraph on that page */
    return b;
}

bool cv_fit_compose(cv_arena *a, const cv_doc *doc, const cv_ctx *pc, const cv_image *photo,
                    cv_composed *out, cv_error *err)
{
    cv_compose(a, doc, pc, photo, out, err);
    if (!out->widen)
        return !err->set;
    cv_arena *tmp = cv_arena_new();
    size_t b = wide_from(tmp, out, pc->lay);
    cv_arena_free(tmp);
    return cv_compose_widen(a, pc, out, b, err);
}

bool cv_fit_trial(cv_arena *a, const cv_doc *doc, const cv_ctx *pc, const cv_image *photo,
                  cv_composed *out)
{
    cv_error silent;
    cv_error_init_silent(&silent);
    return cv_fit_compose(a, doc, pc, photo, out, &silent) && !silent.set;
}

/* Pages `doc` takes with knobs `k`; with `ov`, what falls past `limit`. */
static size_t try_fit(cv_arena *scratch, const cv_doc *doc, const cv_ctx *pc,
                      const cv_image *photo, knobs k, size_t limit, overflow *ov,
                      cv_arena *keep)
{
    cv_style s;
    apply(pc->lay, k, &s);
    cv_ctx sb;
    cv_composed c;
    cv_arena_reset(scratch);
    cv_fit_trial(scratch, doc, cv_ctx_with(pc, &s, &sb), photo, &c);
    size_t *page_of[CV_NCOLS];
    size_t n = cv_flow_pages(scratch, &c, &s, page_of, NULL);
    if (ov) {
        ov->lines = 0;
        ov->sections = "";
        int last = -2;
        for (size_t col = 0; col < c.ncols; col++)
            for (size_t i = 0; i < c.col[col].n; i++) {
                const cv_vitem *it = &c.col[col].items[i];
                if (page_of[col][i] < limit)
                    continue;
                ov->lines += it->nlines;
                if (it->section != last && it->section >= 0) {
                    const char *t = doc->sections[it->section].title;
                    if (!strstr(ov->sections, t))
                        ov->sections = cv_arena_printf(keep, "%s%s'%s'", ov->sections,
                                                       *ov->sections ? ", " : "", t);
                    last = it->section;
                }
            }
    }
    return n;
}

/* The largest value of *knob in [lo, hi] for which the résumé fits, given
 * that it fits at lo. */
static void bisect(cv_arena *scratch, const cv_doc *doc, const cv_ctx *pc,
                   const cv_image *photo, knobs *k, float *knob, float lo, float hi,
                   size_t pages)
{
    for (int i = 0; i < 7; i++) {
        float mid = (lo + hi) / 2;
        *knob = mid;
        if (try_fit(scratch, doc, pc, photo, *k, pages, NULL, NULL) <= pages)
            lo = mid;
        else
            hi = mid;
    }
    *knob = lo;
}

bool cv_fit(cv_arena *a, const cv_doc *doc, const cv_ctx *pc, const cv_image *photo,
            size_t pages, cv_style *out, const char **what, cv_error *err)
{
    const cv_style *st = pc->lay;
    cv_arena *scratch = cv_arena_new();
    knobs k = {1, 1, 1};
    *out = *st;
    *what = NULL;
    bool ok = true;
    if (try_fit(scratch, doc, pc, photo, k, pages, NULL, NULL) <= pages) {
        cv_arena_free(scratch);
        return true;             /* fits as it is */
    }
    float sf = st->fit_spacing_floor, ff = st->fit_font_floor;
    k.spacing = sf;
    if (try_fit(scratch, doc, pc, photo, k, pages, NULL, NULL) <= pages) {
        bisect(scratch, doc, pc, photo, &k, &k.spacing, sf, 1, pages);
    } else {
        /* Each try of the type or the margins sets every paragraph at a
         * size or width no other try has: the cache keeps none of them
         * (only those of the spacing tries that follow, at the size and
         * width found, which the résumé is then set at). */
        cv_setcache_keep(pc->sc, false);
        k.font = ff;
        if (try_fit(scratch, doc, pc, photo, k, pages, NULL, NULL) <= pages) {
            bisect(scratch, doc, pc, photo, &k, &k.font, ff, 1, pages);
            /* Smaller type may leave room for some of the spacing back. */
            cv_setcache_keep(pc->sc, true);
            bisect(scratch, doc, pc, photo, &k, &k.spacing, sf, 1, pages);
        } else {
            k.margin = 0;
            overflow ov;
            if (try_fit(scratch, doc, pc, photo, k, pages, &ov, a) <= pages) {
                bisect(scratch, doc, pc, photo, &k, &k.margin, 0, 1, pages);
                cv_setcache_keep(pc->sc, true);
                bisect(scratch, doc, pc, photo, &k, &k.spacing, sf, 1, pages);
            } else {
                ok = cv_error_at(err, (cv_pos){doc->file, 0, 0},
                                 "does not fit in %zu page%s even with spacing at %.0f%%, "
                                 "type at %.0f%% and %.0fmm margins: %zu line%s overflow, "
                                 "in %s", pages, pages == 1 ? "" : "s", sf * 100, ff * 100,
                                 st->fit_margin_floor * 25.4 / 72, ov.lines,
                                 ov.lines == 1 ? "" : "s", ov.sections);
            }
        }
    }
    cv_setcache_keep(pc->sc, true);
    if (ok) {
        apply(st, k, out);
        const char *w = cv_arena_printf(a, "spacing at %.0f%%", k.spacing * 100);
        if (k.font < 1)
            w = cv_arena_printf(a, "%s, font size %gpt -> %.3gpt", w, st->size, out->size);
        if (k.margin < 1)
            w = cv_arena_printf(a, "%s, margins %.1fmm (were %.1fmm)", w,
                                out->margin_left * 25.4 / 72, st->margin_left * 25.4 / 72);
        *what = w;
    }
    cv_arena_free(scratch);
    return ok;
}

/* How full the last of `n` pages is: its fullest column's items, over the
 * height a column has there. */
static float last_fill(const cv_composed *c, const cv_style *st, size_t *const *page_of,
                       size_t n)
{
    float full = st->page_h - st->margin_top - st->margin_bottom, most = 0;
    for (size_t k = 0; k < c->ncols; k++) {
        const cv_vlist *vl = &c->col[k];
        float used = 0;
        bool first = true;
        for (size_t i = 0; i < vl->n; i++) {
            if (page_of[k][i] + 1 != n)
                continue;
            used += (first ? 0 : vl->items[i].space_before) + vl->items[i].height;
            first = false;
        }
        if (used / full > most)
            most = used / full;
    }
    return most;
}

bool cv_fit_pull_back(cv_arena *a, const cv_doc *doc, const cv_ctx *pc,
                      const cv_image *photo, const cv_composed *have, cv_style *out,
                      const char **what)
{
    const cv_style *st = pc->lay;
    *out = *st;
    *what = NULL;
    if (!st->pull_back)
        return false;
    cv_arena *scratch = cv_arena_new();
    cv_composed mine;
    const cv_composed *c = have;
    if (!c) {
        cv_fit_trial(scratch, doc, pc, photo, &mine);
        c = &mine;
    }
    size_t *page_of[CV_NCOLS];
    size_t n = cv_flow_pages(scratch, c, st, page_of, NULL);
    float fill = n > 1 ? last_fill(c, st, page_of, n) : 1;
    bool ok = false;
    if (fill < st->pull_back_below && n > PULL_BACK_MAX_PAGES) {
        /* Each try sets the whole document again: worth it for a résumé,
         * not for a long list of publications. */
        *what = cv_arena_printf(a, "the last page is %.0f%% full, but a document of more "
                                "than %d pages is not tightened to save one",
                                fill * 100, PULL_BACK_MAX_PAGES);
    } else if (fill < st->pull_back_below) {
        knobs k = {st->fit_spacing_floor, 1, 1};
        if (try_fit(scratch, doc, pc, photo, k, n - 1, NULL, NULL) <= n - 1) {
            bisect(scratch, doc, pc, photo, &k, &k.spacing, st->fit_spacing_floor, 1, n - 1);
            apply(st, k, out);
            *what = cv_arena_printf(a, "the last page was %.0f%% full: %zu pages -> %zu, "
                                    "spacing at %.0f%%", fill * 100, n, n - 1,
                                    k.spacing * 100);
            ok = true;
        } else {
            *what = cv_arena_printf(a, "the last page is %.0f%% full, but the spacing cannot "
                                    "tighten enough to pull it back (fit.spacing_floor %.0f%%)",
                                    fill * 100, st->fit_spacing_floor * 100);
        }
    }
    cv_arena_free(scratch);
    return ok;
}
