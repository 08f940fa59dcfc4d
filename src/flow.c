/* flow.c - cutting the vertical lists into pages.  See flow.h.
 *
 * Each column is paginated on its own, greedily: items are added while
 * they fit; when one does not, the page ends at the last break on it that
 * no keep rule forbids.  If every break on the page is forbidden (a keep
 * chain taller than a page, which only absurd inputs make), the weakest
 * rule gives way: section keeps first, the document header last.  A
 * keep_together section taller than a page is not kept at all.  Space
 * above the first item of a page is dropped, as TeX discards glue at a
 * break; no gap is ever stretched.
 *
 * Page 1 has the header across the top; the columns start below it.  The
 * résumé has as many pages as its longer column needs.
 */
#include "flow.h"

#include <math.h>
#include <string.h>

static void place(cv_arena *a, cv_page *pg, const cv_vitem *it, float left, float top)
{
    for (size_t i = 0; i < it->nimgs; i++) {
        const cv_vimg *v = &it->imgs[i];
        cv_img im = {left + v->dx, top - v->dy - v->h, v->w, v->h, v->im, v->tag};
        CV_PUSH(a, pg->imgs, pg->nimgs, pg->cimgs, im);
    }
    size_t first = pg->nruns;
    for (size_t i = 0; i < it->npieces; i++) {
        const cv_piece *p = &it->pieces[i];
        size_t from = pg->nruns;
        cv_page_put_line(a, pg, p->line, left + p->dx, top - p->dy);
        for (size_t r = from; r < pg->nruns; r++)
            pg->runs[r].tag = p->tag;
    }
    /* Draw order is reading order, which readers that follow the content
     * stream (MuPDF, PDFBox) print as is: within an item, line by line
     * from the top, each from the left, so a bullet comes before its text
     * and a date on a heading's first line before the heading's second;
     * the runs of one line of text in the order of the text (bidi.h: an
     * Arabic phrase's words, right to left). */
    for (size_t i = first + 1; i < pg->nruns; i++) {
        cv_run r = pg->runs[i];
        size_t j = i;
        while (j > first && (pg->runs[j - 1].y < r.y - 0.01f ||
                             (fabsf(pg->runs[j - 1].y - r.y) <= 0.01f &&
                              (pg->runs[j - 1].line == r.line ? pg->runs[j - 1].logical > r.logical
                                                              : pg->runs[j - 1].x > r.x)))) {
            pg->runs[j] = pg->runs[j - 1];
            j--;
        }
        pg->runs[j] = r;
    }
    for (size_t i = 0; i < it->nrules; i++) {
        const cv_vrule *r = &it->rules[i];
        cv_rule rule = {left + r->x0, top - r->dy, left + r->x1, top - r->dy, r->width,
                        r->color};
        CV_PUSH(a, pg->rules, pg->nrules, pg->crules, rule);
    }
}

static void note(cv_arena *a, cv_flowlog *log, const char *fmt, const char *what)
{
    if (!log)
        return;
    const char *s = cv_arena_printf(a, fmt, what);
    for (size_t i = 0; i < log->nnotes; i++)
        if (!strcmp(log->notes[i], s))
            return;
    CV_PUSH(a, log->notes, log->nnotes, log->cnotes, s);
}

/* The keep rule after each item, but none for a keep_together section
 * taller than a page (`full`): it cannot be kept. */
static unsigned char *keeps(cv_arena *a, const cv_vlist *vl, float full, cv_flowlog *log)
{
    int nsec = 0;
    for (size_t i = 0; i < vl->n; i++)
        if (vl->items[i].section >= nsec)
            nsec = vl->items[i].section + 1;
    float *sec_h = cv_arena_alloc(a, (size_t)(nsec + 1) * sizeof *sec_h);
    for (size_t i = 0; i < vl->n; i++)
        if (vl->items[i].section >= 0)
            sec_h[vl->items[i].section] += vl->items[i].space_before + vl->items[i].height;
    unsigned char *keep = cv_arena_alloc(a, vl->n);
    for (size_t i = 0; i < vl->n; i++) {
        const cv_vitem *it = &vl->items[i];
        keep[i] = it->keep;
        if (it->keep == CV_KEEP_SECTION && it->section >= 0 && sec_h[it->section] > full) {
            keep[i] = CV_KEEP_NONE;
            note(a, log, "keep_together ignored for section '%s': it is taller than a page",
                 it->section_title);
        }
    }
    return keep;
}

/* Item j, from a page that starts at item i, does not fit: the page ends
 * at the latest break the weakest possible set of rules allows.  Returns
 * the first item of the next page; *reason says why. */
static size_t break_before(cv_arena *a, const cv_vlist *vl, const unsigned char *keep, size_t i,
                           size_t j, const char **reason, cv_flowlog *log)
{
    size_t b = j;
    int level = 0;
    for (; level < CV_NKEEPS; level++) {
        for (b = j; b > i && keep[b - 1] > level; b--)
            ;
        if (b > i)
            break;
    }
    if (level > 0) {
        *reason = cv_arena_printf(a, "no break allowed on the page; gave way: %s",
                                  cv_keep_rule((cv_keep)level));
        note(a, log, "a keep rule gave way before %s: no break on the page was allowed",
             vl->items[b].what);
    } else if (b == j) {
        *reason = "the page is full";
    } else {
        *reason = cv_arena_printf(a, "the page is full; %zu item%s moved over: %s", j - b,
                                  j - b == 1 ? "" : "s", cv_keep_rule((cv_keep)keep[j - 1]));
    }
    return b;
}

size_t cv_paginate(cv_arena *a, const cv_vlist *vl, int col, float first, float full,
                   size_t *out, cv_flowlog *log)
{
    if (!vl->n)
        return 0;
    unsigned char *keep = keeps(a, vl, full, log);
    size_t page = 0;
    for (size_t i = 0; i < vl->n; page++) {
        /* Items while they fit; the page's first always does. */
        float avail = page ? full : first, y = 0;
        size_t end = vl->n;
        const char *reason = NULL;
        for (size_t j = i; j < vl->n; j++) {
            const cv_vitem *it = &vl->items[j];
            if (j > i && it->break_before) {
                end = j;
                reason = it->wide && !vl->items[j - 1].wide
                             ? "the sidebar has ended, so the main column takes the full width"
                             : cv_arena_printf(a, "page_break_before %s", it->what);
                break;
            }
            float h = (j > i ? it->space_before : 0) + it->height;
            if (j > i && !(y + h <= avail + 0.01f)) {
                end = break_before(a, vl, keep, i, j, &reason, log);
                break;
            }
            y += h;
        }
        for (size_t k = i; k < end; k++)
            out[k] = page;
        if (log && end < vl->n) {
            cv_break br = {col, page + 1, end, reason};
            CV_PUSH(a, log->breaks, log->nbreaks, log->cbreaks, br);
        }
        i = end;
    }
    return page;
}

static float list_height(const cv_vlist *vl)
{
    float h = 0;
    for (size_t i = 0; i < vl->n; i++)
        h += (i ? vl->items[i].space_before : 0) + vl->items[i].height;
    return h;
}

size_t cv_flow_pages(cv_arena *a, const cv_composed *c, const cv_style *st,
                     size_t **page_of, cv_flowlog *log)
{
    float full = st->page_h - st->margin_top - st->margin_bottom;
    float head_h = c->head.n ? list_height(&c->head) + c->head_gap : 0;
    size_t npages = 1;
    for (size_t k = 0; k < c->ncols; k++) {
        page_of[k] = cv_arena_alloc(a, (c->col[k].n + 1) * sizeof(size_t));
        size_t np = cv_paginate(a, &c->col[k], (int)k, full - head_h, full, page_of[k], log);
        if (np > npages)
            npages = np;
        if (log)
            log->page_of[k] = page_of[k];
    }
    return npages;
}

/* pagination.fill_pages: on every page of a column but its last, the gaps
 * between items grow by the same factor (at most FILL_MAX times) so that
 * the page ends at the bottom margin.  A page cut short by
 * page_break_before is left as it is.  Returns the factor of each page. */
#define FILL_MAX 2.0f
static float *fill_factors(cv_arena *a, const cv_vlist *vl, const size_t *page_of, float full,
                           float head_h, bool fill)
{
    size_t np = vl->n ? page_of[vl->n - 1] + 1 : 0;
    float *f = cv_arena_alloc(a, (np + 1) * sizeof *f);
    if (!fill || np < 2)
        return f;
    float *used = cv_arena_alloc(a, np * sizeof *used), *gaps = cv_arena_alloc(a, np * sizeof *gaps);
    bool *forced = cv_arena_alloc(a, np + 1);
    for (size_t i = 0; i < vl->n; i++) {
        size_t p = page_of[i];
        bool first = !i || page_of[i - 1] != p;
        used[p] += (first ? 0 : vl->items[i].space_before) + vl->items[i].height;
        if (!first)
            gaps[p] += vl->items[i].space_before;
        if (first && vl->items[i].break_before && p)
            forced[p - 1] = true;
    }
    for (size_t p = 0; p + 1 < np; p++) {
        float slack = (p ? full : full - head_h) - used[p];
        if (forced[p] || slack <= 0 || gaps[p] <= 0)
            continue;
        f[p] = slack / gaps[p];
        if (f[p] > FILL_MAX)
            f[p] = FILL_MAX;
    }
    return f;
}

/* Column k on its pages, items at the heights `page_of` gives, with a
 * bookmark at the first line of each section title. */
static void place_column(cv_arena *a, cv_display *d, const cv_composed *c, const cv_style *st,
                         size_t k, const size_t *page_of, float head_h)
{
    static const char *const names[CV_NCOLS] = {"main", "sidebar"};
    const cv_vlist *vl = &c->col[k];
    float top = st->page_h - st->margin_top;
    float full = st->page_h - st->margin_top - st->margin_bottom;
    float left = st->margin_left + c->col_x[k];
    /* After the sidebar (compose.h's widen_main): the main column's pages
     * from its first wide item take the full width; the sidebar has no
     * region there. */
    size_t wide_from = d->npages, side_pages = d->npages;
    for (size_t i = 0; i < c->col[CV_COL_MAIN].n; i++)
        if (c->col[CV_COL_MAIN].items[i].wide) {
            if (k == CV_COL_MAIN)
                wide_from = page_of[i];
            else
                side_pages = vl->n ? page_of[vl->n - 1] + 1 : 0;   /* empty: no region */
            break;
        }
    for (size_t p = 0; p < d->npages; p++) {
        if (k == CV_COL_SIDE && p >= side_pages)
            continue;
        bool wide = k == CV_COL_MAIN && p >= wide_from;
        cv_page_add_region(&d->pages[p], names[k], wide ? st->margin_left : left,
                           st->margin_bottom,
                           wide ? st->page_w - st->margin_right : left + c->col_w[k],
                           p ? top : top - head_h);
    }
    float *stretch = fill_factors(a, vl, page_of, full, head_h, st->fill_pages);
    size_t cur = (size_t)-1;
    float y = 0;
    for (size_t i = 0; i < vl->n; i++) {
        const cv_vitem *it = &vl->items[i];
        if (page_of[i] != cur) {
            cur = page_of[i];
            y = cur ? 0 : head_h;
        } else {
            y += it->space_before * (1 + stretch[cur]);
        }
        place(a, &d->pages[cur], it, it->wide ? st->margin_left : left, top - y);
        if (it->entry < 0 && it->section >= 0 && it->section_title &&
            (!i || vl->items[i - 1].section != it->section)) {
            cv_mark m = {cv_markup_strip(a, it->section_title), cur, top - y, it->section};
            CV_PUSH(a, d->marks, d->nmarks, d->cmarks, m);
        }
        y += it->height;
    }
}

/* A rule between the columns on every page, where the sidebar has
 * something. */
static void column_rule(cv_arena *a, cv_display *d, const cv_composed *c, const cv_style *st,
                        float head_h, size_t pages)
{
    if (c->ncols < 2 || !(st->sidebar_rule_width > 0) || !c->col[CV_COL_SIDE].n)
        return;
    float top = st->page_h - st->margin_top;
    float x = st->sidebar_left ? st->margin_left + c->col_w[CV_COL_SIDE] + st->sidebar_gap / 2
                               : st->margin_left + c->col_w[CV_COL_MAIN] + st->sidebar_gap / 2;
    for (size_t p = 0; p < pages; p++) {
        cv_page *pg = &d->pages[p];
        cv_rule r = {x, p ? top : top - head_h + st->sidebar_gap / 4, x, st->margin_bottom,
                     st->sidebar_rule_width, st->sidebar_rule_color};
        CV_PUSH(a, pg->rules, pg->nrules, pg->crules, r);
    }
}

cv_display *cv_flow(cv_arena *a, const cv_composed *c, const cv_style *st, cv_flowlog *log)
{
    cv_display *d = cv_arena_alloc(a, sizeof *d);
    d->width = st->page_w;
    d->height = st->page_h;
    d->tags = c->tags;
    float top = st->page_h - st->margin_top;
    float head_h = c->head.n ? list_height(&c->head) + c->head_gap : 0;
    size_t *page_of[CV_NCOLS] = {0};
    size_t npages = cv_flow_pages(a, c, st, page_of, log);
    for (size_t p = 0; p < npages; p++)
        cv_display_page(a, d);

    /* The header, then each column, page by page. */
    float y = 0;
    for (size_t i = 0; i < c->head.n; i++) {
        const cv_vitem *it = &c->head.items[i];
        y += i ? it->space_before : 0;
        place(a, &d->pages[0], it, st->margin_left, top - y);
        y += it->height;
    }
    if (c->head.n)
        cv_page_add_region(&d->pages[0], "head", st->margin_left, top - y,
                           st->page_w - st->margin_right, top);
    for (size_t k = 0; k < c->ncols; k++)
        place_column(a, d, c, st, k, page_of[k], head_h);
    /* Bookmarks in the profile's order of sections, whatever column. */
    for (size_t i = 1; i < d->nmarks; i++)
        for (size_t j = i; j > 0 && d->marks[j - 1].section > d->marks[j].section; j--) {
            cv_mark t = d->marks[j];
            d->marks[j] = d->marks[j - 1];
            d->marks[j - 1] = t;
        }
    /* The rule runs down every page, but past the sidebar's last page
     * when the main column takes the full width there. */
    size_t rule_pages = npages;
    const cv_vlist *m = &c->col[CV_COL_MAIN], *s = &c->col[CV_COL_SIDE];
    if (c->ncols > 1 && s->n && m->n && m->items[m->n - 1].wide)
        rule_pages = page_of[CV_COL_SIDE][s->n - 1] + 1;
    column_rule(a, d, c, st, head_h, rule_pages);
    return d;
}
