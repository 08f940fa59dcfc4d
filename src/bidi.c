/* bidi.c - right-to-left text through FriBidi.  See bidi.h.
 *
 * Lines are reordered after breaking, as UAX #9 asks (the levels are those
 * of the paragraph's text; reordering is per line, rule L2): the glyphs of
 * a line are flattened into one string, FriBidi gives each its embedding
 * level and the visual order, and runs are rebuilt in that order, a new
 * run wherever the source run or the level changes.  Each glyph keeps the
 * advance it had (its kerning or justification), so a line is exactly as
 * wide after reordering as before.
 *
 * Mirroring a page (cv_bidi_mirror) moves each line as a unit: its box
 * [x0, x1] becomes [W - x1, W - x0] and its runs shift by the same amount,
 * so the line reads the same but now hangs from the right.  Lines are told
 * apart by the number cv_page_put_line() gives each (cv_run.line).
 */
#include "bidi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fribidi.h>

#include "syslib.h"
#include "unicode.h"

/* FriBidi is opened with dlopen when a line first needs it (one with a
 * right-to-left character, or in a right-to-left paragraph), not linked:
 * linked, it costs every run 0.04 M instructions of dynamic loading, and
 * most résumés are left to right throughout. */
#ifndef CV_FRIBIDI_SONAME
#define CV_FRIBIDI_SONAME "libfribidi.so.0"
#endif
#define FRIBIDI_FUNCTIONS(X) \
    X(fribidi_get_bidi_type) X(fribidi_get_bidi_types) X(fribidi_get_bracket_types) \
    X(fribidi_get_par_embedding_levels_ex) X(fribidi_reorder_line) X(fribidi_get_mirror_char)
CV_LIB_DEFINE(fribidi_lib, F, FRIBIDI_FUNCTIONS, CV_FRIBIDI_SONAME, "libfribidi0");
static char missing[160];
static bool lacked;             /* a line needed it since cv_bidi_missing() */

/* Open FriBidi, once; false (and cv_bidi_missing() says so) when it
 * cannot be. */
static bool open_fribidi(void)
{
    if (cv_lib_open(&fribidi_lib))
        return true;
    snprintf(missing, sizeof missing, "right-to-left text needs FriBidi, which cannot be "
             "loaded (%s); install the Debian package %s", fribidi_lib.soname,
             fribidi_lib.package);
    lacked = true;
    return false;
}

const char *cv_bidi_missing(void)
{
    bool was = lacked;
    lacked = false;
    return was ? missing : NULL;
}

int cv_bidi_strong(uint32_t cp)
{
    if (!open_fribidi())
        return 0;
    FriBidiCharType t = F.fribidi_get_bidi_type(cp);
    if (t == FRIBIDI_TYPE_RTL || t == FRIBIDI_TYPE_AL)
        return -1;
    if (t == FRIBIDI_TYPE_LTR)
        return 1;
    return 0;
}

/* A glyph of the line with where it came from. */
typedef struct src {
    cv_gl g;
    size_t run;
    float adv;      /* its advance as set, points */
    float at, to;   /* where it was, where it goes */
} src;

/* What the bidi algorithm takes `cp` for: a cluster code point is its
 * text's first character. */
static uint32_t bidi_char(const cv_shaper *sh, uint32_t cp)
{
    const char *t = cp >= CV_CLUSTER_BASE && sh ? cv_shape_cluster_text(sh, cp) : NULL;
    if (t && *t)
        cv_utf8_decode(t, strlen(t), &cp);
    return cp;
}

/* A phone number ("+972 4 555 0142") reads left to right whatever the
 * paragraph: UAX #9 alone would turn its groups of digits round in
 * right-to-left text, so its characters are taken for strong left-to-right
 * ones.  A number is a run of digits, spaces and + - ( ) . / with at
 * least seven digits, starting with + or a digit. */
static void phone_numbers(const FriBidiChar *s, size_t n, FriBidiCharType *types)
{
    for (size_t i = 0; i < n;) {
        if (!(s[i] == '+' || (s[i] >= '0' && s[i] <= '9'))) {
            i++;
            continue;
        }
        size_t j = i, digits = 0, last = i;
        for (; j < n && s[j] > 0 && s[j] < 0x80 &&
               (strchr("+-()./ ", (int)s[j]) || (s[j] >= '0' && s[j] <= '9'));
             j++)
            if (s[j] >= '0' && s[j] <= '9')
                digits++, last = j;
        if (digits >= 7)
            for (size_t k = i; k <= last; k++)
                types[k] = FRIBIDI_TYPE_LTR;
        i = j > i ? j : i + 1;
    }
}

/* Runs of one line by their place in its text. */
static int by_logical(const void *pa, const void *pb)
{
    const cv_run *a = pa, *b = pb;
    return (a->logical > b->logical) - (a->logical < b->logical);
}

void cv_bidi_line(cv_arena *a, cv_line *ln, bool rtl, const cv_shaper *sh)
{
    size_t n = 0;
    bool any = rtl;
    for (size_t r = 0; r < ln->nruns; r++) {
        n += ln->runs[r].n;
        for (size_t k = 0; k < ln->runs[r].n && !any; k++)
            any = cv_script_rtl(bidi_char(sh, ln->runs[r].g[k].cp));
    }
    if (!any || n == 0 || n > 1u << 30 || !open_fribidi())
        return;

    /* The line flattened, each glyph with its advance as drawn: inside a
     * run its width and TJ number, the last of a run up to the next run. */
    src *g = cv_xmalloc(n * sizeof *g);
    FriBidiChar *s = cv_xmalloc(n * sizeof *s);
    size_t i = 0;
    for (size_t r = 0; r < ln->nruns; r++) {
        const cv_run *run = &ln->runs[r];
        for (size_t k = 0; k < run->n; k++, i++) {
            g[i].g = run->g[k];
            g[i].run = r;
            float em = run->size / 1000.0f;
            if (k + 1 < run->n)
                g[i].adv = (float)(run->g[k].w + cv_run_tj(run, k)) * em;
            else if (r + 1 < ln->nruns) {
                float at = run->x;
                for (size_t j = 0; j < k; j++)
                    at += (float)(run->g[j].w + cv_run_tj(run, j)) * em;
                g[i].adv = ln->runs[r + 1].x - at;
            } else {
                g[i].adv = run->g[k].w * em;
            }
            g[i].g.adj = g[i].adv / em - run->g[k].w;
            g[i].at = i && g[i - 1].run == r ? g[i - 1].at + g[i - 1].adv : run->x;
            s[i] = bidi_char(sh, run->g[k].cp);
        }
    }
    /* Spaces at the line's end take no place (UAX #9 L1 would put them
     * at its visual start). */
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == 0xA0 || s[n - 1] == 0x3000))
        n--;
    if (n == 0) {
        free(g);
        free(s);
        return;
    }

    FriBidiStrIndex len = (FriBidiStrIndex)n;
    FriBidiCharType *types = cv_xmalloc(n * sizeof *types);
    FriBidiBracketType *br = cv_xmalloc(n * sizeof *br);
    FriBidiLevel *lv = cv_xmalloc(n * sizeof *lv);
    FriBidiStrIndex *map = cv_xmalloc(n * sizeof *map);
    F.fribidi_get_bidi_types(s, len, types);
    F.fribidi_get_bracket_types(s, len, types, br);
    phone_numbers(s, n, types);
    FriBidiParType base = rtl ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR;
    for (FriBidiStrIndex k = 0; k < len; k++)
        map[k] = k;
    bool ok = F.fribidi_get_par_embedding_levels_ex(types, br, len, &base, lv);
    /* A mark HarfBuzz placed (a cluster code point, shape.h) stays before
     * its letter in visual order, where HarfBuzz put it: its offset is
     * from the letter's pen.  (UAX #9 L3, which FriBidi applies to marks,
     * would put it after.) */
    for (size_t k = 0; ok && k < n; k++)
        if (g[k].g.cp >= CV_CLUSTER_BASE && types[k] == FRIBIDI_TYPE_NSM)
            types[k] = FRIBIDI_TYPE_ON;
    ok = ok && F.fribidi_reorder_line(FRIBIDI_FLAGS_DEFAULT, types, len, 0, base, lv, NULL, map);
    if (ok) {
        /* Runs in visual order: a new one where the source run or the
         * level changes. */
        cv_run *runs = cv_arena_alloc(a, n * sizeof *runs);
        cv_gl *gl = cv_arena_alloc(a, n * sizeof *gl);
        size_t nr = 0;
        float x = ln->nruns ? ln->runs[0].x : 0;
        for (size_t v = 0; v < n; v++) {
            size_t l = (size_t)map[v];
            const cv_run *from = &ln->runs[g[l].run];
            if (v == 0 || g[l].run != g[map[v - 1]].run || lv[l] != lv[map[v - 1]]) {
                runs[nr] = *from;
                runs[nr].x = x;
                runs[nr].g = gl + v;
                runs[nr].n = 0;
                runs[nr].width = 0;
                runs[nr].rtl = lv[l] & 1;
                runs[nr].logical = (unsigned)l;
                nr++;
            }
            cv_run *to = &runs[nr - 1];
            if (l < to->logical)
                to->logical = (unsigned)l;
            gl[v] = g[l].g;
            if ((lv[l] & 1) && gl[v].cp < CV_CLUSTER_BASE)
                gl[v].cp = F.fribidi_get_mirror_char(gl[v].cp, &s[l]) ? s[l] : gl[v].cp;
            to->n++;
            to->width += g[l].adv;
            g[l].to = x;
            x += g[l].adv;
        }
        /* In a left-to-right paragraph, the runs are drawn in the order of
         * the text, each where it shows, as a right-to-left page's are
         * (cv_bidi_mirror): readers that follow the content stream (MuPDF)
         * read an Arabic or Hebrew phrase's words in order. */
        if (!rtl)
            qsort(runs, nr, sizeof *runs, by_logical);
        ln->runs = runs;
        ln->nruns = nr;
        /* A link covers where its glyphs went. */
        cv_link *lk = ln->nlinks ? cv_arena_alloc(a, ln->nlinks * sizeof *lk) : NULL;
        for (size_t k = 0; k < ln->nlinks; k++) {
            lk[k] = ln->links[k];
            float x0 = 1e30f, x1 = -1e30f;
            for (size_t j = 0; j < n; j++)
                if (g[j].at >= ln->links[k].x0 - 0.01f && g[j].at < ln->links[k].x1 - 0.01f) {
                    x0 = fminf(x0, g[j].to);
                    x1 = fmaxf(x1, g[j].to + g[j].adv);
                }
            if (x0 <= x1)
                lk[k].x0 = x0, lk[k].x1 = x1;
        }
        ln->links = lk;
    }
    free(g);
    free(s);
    free(types);
    free(br);
    free(lv);
    free(map);
}

/* Reading order on a mirrored page, which readers that follow the content
 * stream (MuPDF, PDFBox) print as is: top to bottom, then right to left by
 * line, each line's runs in the order of its text. */
static int by_reading(const void *pa, const void *pb)
{
    const cv_run *a = pa, *b = pb;
    if (a->y > b->y + 0.01f || a->y < b->y - 0.01f)
        return a->y > b->y ? -1 : 1;
    if (a->line != b->line)
        return a->x > b->x ? -1 : 1;
    return (a->logical > b->logical) - (a->logical < b->logical);
}

void cv_bidi_mirror(cv_display *d)
{
    float w = d->width;
    for (size_t p = 0; p < d->npages; p++) {
        cv_page *pg = &d->pages[p];
        /* Each line's box, then every run shifted with its line. */
        size_t nl = 0;
        for (size_t i = 0; i < pg->nruns; i++)
            if (pg->runs[i].line > nl)
                nl = pg->runs[i].line;
        float *x0 = cv_xmalloc((nl + 1) * 2 * sizeof *x0), *x1 = x0 + nl + 1;
        for (size_t l = 0; l <= nl; l++)
            x0[l] = 1e30f, x1[l] = -1e30f;
        for (size_t i = 0; i < pg->nruns; i++) {
            const cv_run *r = &pg->runs[i];
            if (r->x < x0[r->line])
                x0[r->line] = r->x;
            if (r->x + r->width > x1[r->line])
                x1[r->line] = r->x + r->width;
        }
        for (size_t i = 0; i < pg->nruns; i++) {
            cv_run *r = &pg->runs[i];
            r->x += r->line ? w - x1[r->line] - x0[r->line] : w - 2 * r->x - r->width;
        }
        for (size_t i = 0; i < pg->nlinks; i++) {
            cv_link *k = &pg->links[i];
            float dx = k->line && k->line <= nl && x1[k->line] >= x0[k->line]
                           ? w - x1[k->line] - x0[k->line]
                           : w - k->x1 - k->x0;
            k->x0 += dx;
            k->x1 += dx;
        }
        free(x0);
        qsort(pg->runs, pg->nruns, sizeof *pg->runs, by_reading);
        for (size_t i = 0; i < pg->nrules; i++) {
            cv_rule *r = &pg->rules[i];
            float a0 = r->x0, a1 = r->x1;
            r->x0 = w - a1;
            r->x1 = w - a0;
            if (r->x0 > r->x1) {     /* a rule drawn right to left stays so */
                float t = r->x0;
                r->x0 = r->x1;
                r->x1 = t;
            }
        }
        for (size_t i = 0; i < pg->nimgs; i++)
            pg->imgs[i].x = w - pg->imgs[i].x - pg->imgs[i].w;
        for (size_t i = 0; i < pg->nregions; i++) {
            cv_region *r = &pg->regions[i];
            float a0 = r->x0;
            r->x0 = w - r->x1;
            r->x1 = w - a0;
        }
    }
}
