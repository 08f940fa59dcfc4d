/* test_fit.c - fitting a résumé to N pages: the gentlest knob that does,
 * what it reports, and a résumé that cannot fit. */
#include "fit.h"

#include <stdio.h>
#include <string.h>
#include "harness.h"

#include "compose.h"
#include "fixture.h"
#include "flow.h"

static cv_style st;

/* A profile of n bullets in one section. */
static const char *bullets(cv_arena *a, int n)
{
    const char *s = "cv:\n  name: Ada Lovelace\n  sections:\n    awards:\n";
    for (int i = 0; i < n; i++)
        s = cv_arena_printf(a, "%s      - bullet: Award number %d for work on the analytical "
                               "engine and its programs\n", s, i);
    return s;
}

/* Pages `doc` takes in style s. */
static size_t pages(const cv_doc *doc, const cv_style *s)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    err.quiet = true;
    cv_composed c;
    cv_fit_compose(a, doc, fx_ctx(s), NULL, &c, &err);
    size_t *page_of[CV_NCOLS];
    size_t n = cv_flow_pages(a, &c, s, page_of, NULL);
    cv_arena_free(a);
    return n;
}

/* The fewest bullets that make two pages. */
static int just_over_a_page(void)
{
    for (int n = 10; n < 200; n++) {
        cv_arena *a = cv_arena_new();
        size_t p = pages(fx_doc(a, bullets(a, n)), &st);
        cv_arena_free(a);
        if (p > 1)
            return n;
    }
    return -1;
}

TEST(fit_as_it_is)
{
    cv_arena *a = cv_arena_new();
    cv_doc *d = fx_doc(a, bullets(a, 5));
    cv_style out;
    const char *what = "x";
    cv_error err;
    cv_error_init(&err);
    CHECK(cv_fit(a, d, fx_ctx(&st), NULL, 1, &out, &what, &err));
    CHECK(what == NULL);
    CHECK(out.size == st.size && out.entry_gap == st.entry_gap);
    cv_arena_free(a);
}

TEST(fit_spacing_first)
{
    int n = just_over_a_page();
    CHECK(n > 0);
    cv_arena *a = cv_arena_new();
    cv_doc *d = fx_doc(a, bullets(a, n));
    cv_style out;
    const char *what = NULL;
    cv_error err;
    cv_error_init(&err);
    CHECK(cv_fit(a, d, fx_ctx(&st), NULL, 1, &out, &what, &err));
    /* One bullet over: the spacing gives, the type and margins do not. */
    CHECK(what && !strncmp(what, "spacing at ", 11) && !strstr(what, "font"));
    CHECK(out.size == st.size && out.margin_left == st.margin_left);
    CHECK(out.bullet_gap < st.bullet_gap);
    CHECK(pages(d, &out) == 1);
    cv_arena_free(a);
}

TEST(fit_type_then_margins)
{
    int n = just_over_a_page();
    cv_arena *a = cv_arena_new();
    cv_doc *d = fx_doc(a, bullets(a, n + n / 3));
    cv_style out;
    const char *what = NULL;
    cv_error err;
    cv_error_init(&err);
    CHECK(cv_fit(a, d, fx_ctx(&st), NULL, 1, &out, &what, &err));
    /* A third more: the type or the margins had to give too, and what
     * says so with the numbers. */
    bool font = out.size < st.size, margins = out.margin_left < st.margin_left;
    CHECK(font || margins);
    CHECK(!font || (what && strstr(what, cv_arena_printf(a, "font size %gpt -> ", st.size))));
    CHECK(!margins || (what && strstr(what, "margins")));
    CHECK(out.size >= st.size * st.fit_font_floor - 0.01f);
    CHECK(pages(d, &out) == 1);
    cv_arena_free(a);
}

TEST(fit_impossible)
{
    cv_arena *a = cv_arena_new();
    cv_doc *d = fx_doc(a, bullets(a, 300));
    cv_style out;
    const char *what = NULL;
    cv_error err;
    cv_error_init(&err);
    CHECK(!cv_fit(a, d, fx_ctx(&st), NULL, 1, &out, &what, &err));
    CHECK(err.set && strstr(err.msg, "does not fit in 1 page even with spacing at 40%"));
    CHECK(strstr(err.msg, "lines overflow, in 'Awards'") != NULL);
    cv_arena_free(a);
}

/* Two lines set alike: the same runs of the same glyphs, advances and
 * adjustments, at the same places, with the same links. */
static bool same_line(const cv_line *x, const cv_line *y)
{
    if (x->nruns != y->nruns || x->nlinks != y->nlinks || x->width != y->width)
        return false;
    for (size_t r = 0; r < x->nruns; r++) {
        const cv_run *a = &x->runs[r], *b = &y->runs[r];
        if (a->n != b->n || a->x != b->x || a->y != b->y || a->size != b->size ||
            a->face != b->face || a->width != b->width || a->color != b->color)
            return false;
        for (size_t g = 0; g < a->n; g++)
            if (a->g[g].cp != b->g[g].cp || a->g[g].w != b->g[g].w ||
                a->g[g].adj != b->g[g].adj || a->g[g].wide != b->g[g].wide)
                return false;
    }
    for (size_t k = 0; k < x->nlinks; k++)
        if (strcmp(x->links[k].uri, y->links[k].uri) || x->links[k].x0 != y->links[k].x0 ||
            x->links[k].x1 != y->links[k].x1)
            return false;
    return true;
}

/* Two compositions that differ in their spacing alone: the same items
 * with the same pieces, set alike.  With `shared`, the very same lines. */
static bool same_lines(const cv_composed *x, const cv_composed *y, bool shared)
{
    if (x->ncols != y->ncols || x->head.n != y->head.n)
        return false;
    for (size_t c = 0; c <= x->ncols; c++) {
        const cv_vlist *u = c < x->ncols ? &x->col[c] : &x->head;
        const cv_vlist *v = c < x->ncols ? &y->col[c] : &y->head;
        if (u->n != v->n)
            return false;
        for (size_t i = 0; i < u->n; i++) {
            if (u->items[i].npieces != v->items[i].npieces)
                return false;
            for (size_t k = 0; k < u->items[i].npieces; k++) {
                const cv_line *l = u->items[i].pieces[k].line, *m = v->items[i].pieces[k].line;
                if (shared ? l != m : !same_line(l, m))
                    return false;
            }
        }
    }
    return true;
}

/* A profile with a summary, a link (its icon drawn small) and n bullets. */
static const char *linked(cv_arena *a, int n)
{
    const char *s = cv_arena_printf(a, "%s", bullets(a, n));
    return cv_arena_printf(a, "%s    experience:\n      - company: Analytical Engine Ltd\n"
                              "        position: Programmer\n        date: 1843\n"
                              "        summary: Notes on [the engine](https://example.org/ae) "
                              "by Menabrea, translated and extended with notes A to G\n"
                              "        highlights:\n          - The first published program, "
                              "for Bernoulli numbers\n", s);
}

/* Set once: a composition with other spacing sets no paragraph again and
 * gives the same lines (the cache's); the last-page rule's tries set
 * nothing; other type sets again. */
TEST(fit_sets_each_paragraph_once)
{
    cv_arena *a = cv_arena_new();
    cv_doc *d = fx_doc(a, linked(a, just_over_a_page()));
    cv_setcache *sc = cv_setcache_new(a);
    cv_ctx pc = *fx_ctx(&st), tb, sb;
    pc.sc = sc;
    cv_error err;
    cv_error_init(&err);
    err.quiet = true;
    cv_composed c1, c2, plain;
    cv_fit_compose(a, d, &pc, NULL, &c1, &err);
    cv_setstats s1 = cv_setcache_stats(sc);
    CHECK(s1.sets > 0 && s1.entries > 0 && s1.bytes > 0);
    /* Tighter spacing, as the spacing knob makes it. */
    cv_style tight = st;
    tight.entry_gap *= 0.5f, tight.bullet_gap *= 0.5f, tight.block_gap *= 0.5f;
    tight.title_space_before *= 0.5f, tight.title_space_after *= 0.5f;
    tight.line_spacing = 1.15f;
    cv_fit_compose(a, d, cv_ctx_with(&pc, &tight, &tb), NULL, &c2, &err);
    cv_setstats s2 = cv_setcache_stats(sc);
    CHECK(s2.sets == s1.sets);            /* nothing set again */
    CHECK(s2.hits > s1.hits && s2.entries == s1.entries);
    CHECK(same_lines(&c1, &c2, true));
    /* ... and those lines are what setting them anew gives. */
    cv_fit_compose(a, d, cv_ctx_with(fx_ctx(&st), &tight, &tb), NULL, &plain, &err);
    CHECK(same_lines(&c2, &plain, false));
    CHECK(cv_setcache_stats(sc).sets == s1.sets);
    /* The last-page rule bisects the spacing: many tries, nothing set. */
    cv_style out;
    const char *what = NULL;
    cv_fit_pull_back(a, d, &pc, NULL, &c1, &out, &what);
    CHECK(what != NULL);                  /* it did look at the last page */
    CHECK(cv_setcache_stats(sc).sets == s1.sets);
    CHECK(cv_setcache_stats(sc).hits > s2.hits);
    /* Smaller type is other lines: set again. */
    cv_style small = st;
    small.size *= 0.9f;
    cv_fit_compose(a, d, cv_ctx_with(&pc, &small, &sb), NULL, &c2, &err);
    CHECK(cv_setcache_stats(sc).sets > s1.sets);
    /* A cache told to keep nothing more keeps nothing more, and still
     * finds what it kept. */
    cv_setstats s3 = cv_setcache_stats(sc);
    cv_setcache_keep(sc, false);
    cv_style big = st;
    big.size *= 1.1f;
    cv_fit_compose(a, d, cv_ctx_with(&pc, &big, &sb), NULL, &c2, &err);
    CHECK(cv_setcache_stats(sc).entries == s3.entries);
    CHECK(cv_setcache_stats(sc).sets > s3.sets);
    cv_fit_compose(a, d, cv_ctx_with(&pc, &small, &sb), NULL, &c2, &err);
    CHECK(cv_setcache_stats(sc).entries == s3.entries);
    cv_setcache_keep(sc, true);
    cv_arena_free(a);
}

/* What a composition says through its diagnostics: its warnings, printed
 * into a temporary file, and how many. */
static char *composed_says(cv_arena *a, cv_setcache *sc, const cv_doc *d, bool quiet, int *n)
{
    FILE *f = tmpfile();
    cv_error err;
    cv_error_init(&err);
    err.quiet = quiet;
    err.out = f;
    cv_composed c;
    cv_ctx pc = *fx_ctx(&st);
    pc.sc = sc;
    cv_fit_compose(a, d, &pc, NULL, &c, &err);
    *n = err.nwarnings;
    long len = ftell(f);
    char *s = cv_arena_alloc(a, (size_t)len + 1);
    rewind(f);
    s[fread(s, 1, (size_t)len, f)] = 0;
    fclose(f);
    return s;
}

/* A paragraph whose setting warns warns at every composition that is not
 * quiet, however many quiet ones set it before: the cache loses no warning
 * and repeats none. */
TEST(fit_set_once_keeps_warnings)
{
    cv_arena *a = cv_arena_new();
    /* U+10FFFD: no font has it. */
    cv_doc *d = fx_doc(a, "cv:\n  name: Ada Lovelace\n  sections:\n    awards:\n"
                          "      - bullet: A prize for \xF4\x8F\xBF\xBD and more\n"
                          "      - bullet: Another prize\n");
    int n0, n1, n2, n3;
    const char *fresh = composed_says(a, NULL, d, false, &n0);
    CHECK(n0 == 1 && strstr(fresh, "no font has U+10FFFD") != NULL);
    cv_setcache *sc = cv_setcache_new(a);
    CHECK_STR(composed_says(a, sc, d, true, &n1), "");     /* a quiet try */
    CHECK(n1 == n0);
    CHECK_STR(composed_says(a, sc, d, false, &n2), fresh);
    CHECK(n2 == n0);
    CHECK_STR(composed_says(a, sc, d, false, &n3), fresh);
    CHECK(n3 == n0);
    /* The paragraph without a warning was set once. */
    CHECK(cv_setcache_stats(sc).hits > 0);
    cv_arena_free(a);
}


int main(void)
{
    fx_setup();
    fx_style("layouts/onecolumn.yaml", &st);
    RUN(fit_as_it_is);
    RUN(fit_spacing_first);
    RUN(fit_type_then_margins);
    RUN(fit_impossible);
    RUN(fit_sets_each_paragraph_once);
    RUN(fit_set_once_keeps_warnings);
    fx_teardown();
    return harness_report("fit");
}
