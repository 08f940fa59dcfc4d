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
    cv_setcache *sc = cv_setcache_new(a, NULL);
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
    cv_setcache *sc = cv_setcache_new(a, NULL);
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

/* Set once for every profile: a second profile finds every paragraph the
 * first set, in the shared cache, after the first profile's memory is
 * gone; the lines are what setting them anew gives. */
TEST(fit_shared_across_profiles)
{
    cv_setcache *shared = cv_setcache_new_shared();
    cv_arena *a1 = cv_arena_new();
    cv_setcache *sc1 = cv_setcache_new(a1, shared);
    cv_ctx pc = *fx_ctx(&st);
    pc.sc = sc1;
    cv_error err;
    cv_error_init(&err);
    err.quiet = true;
    cv_composed c1, c2, plain;
    cv_fit_compose(a1, fx_doc(a1, linked(a1, 12)), &pc, NULL, &c1, &err);
    cv_setstats p1 = cv_setcache_stats(sc1), s1 = cv_setcache_stats(shared);
    CHECK(p1.sets > 0);
    CHECK(s1.entries > 0 && s1.bytes > 0);   /* kept for every profile */
    cv_arena_free(a1);                       /* the first profile is done */
    cv_setcache_trim(shared);                /* under its budget: kept */
    CHECK(cv_setcache_stats(shared).entries == s1.entries);

    cv_arena *a2 = cv_arena_new();
    cv_setcache *sc2 = cv_setcache_new(a2, shared);
    pc.sc = sc2;
    cv_doc *d2 = fx_doc(a2, linked(a2, 12));
    cv_fit_compose(a2, d2, &pc, NULL, &c2, &err);
    CHECK(cv_setcache_stats(sc2).sets == 0);   /* every paragraph found */
    CHECK(cv_setcache_stats(sc2).hits >= p1.sets);
    CHECK(cv_setcache_stats(shared).entries == s1.entries);
    cv_fit_compose(a2, d2, fx_ctx(&st), NULL, &plain, &err);
    CHECK(same_lines(&c2, &plain, false));
    cv_arena_free(a2);

    /* Past its budget the shared cache keeps nothing more (a profile keeps
     * its own), and trimming empties it. */
    cv_arena *a3 = cv_arena_new();
    cv_setcache *sc3 = cv_setcache_new(a3, shared);
    pc.sc = sc3;
    cv_textfmt fmt = {.size = 10, .justify = true};
    cv_line *out;
    for (int i = 0; cv_setcache_stats(shared).bytes <= CV_SETCACHE_BUDGET && i < 200000; i++) {
        const char *t = cv_arena_printf(a3, "Paragraph %d of many, set once and kept for "
                                            "every profile of the run", i);
        cv_span sp = {.text = t, .len = strlen(t)};
        cv_wrap_once(a3, &pc, &sp, 1, &fmt, 200, (cv_pos){0}, &out, &err);
    }
    cv_setstats full = cv_setcache_stats(shared);
    CHECK(full.bytes > CV_SETCACHE_BUDGET);
    cv_span last = {.text = "Set when the shared cache is full", .len = 33};
    cv_wrap_once(a3, &pc, &last, 1, &fmt, 200, (cv_pos){0}, &out, &err);
    CHECK(cv_setcache_stats(shared).entries == full.entries);
    CHECK(cv_setcache_stats(sc3).entries == 1);
    size_t sets = cv_setcache_stats(sc3).sets;
    cv_wrap_once(a3, &pc, &last, 1, &fmt, 200, (cv_pos){0}, &out, &err);
    CHECK(cv_setcache_stats(sc3).sets == sets);   /* found in the profile's */
    cv_arena_free(a3);
    cv_setcache_trim(shared);
    CHECK(cv_setcache_stats(shared).entries == 0 && cv_setcache_stats(shared).bytes == 0);
    cv_setcache_free(shared);
}

/* A paragraph that warns warns for each profile, at that profile's
 * position, although a shared cache has seen it. */
TEST(fit_shared_keeps_each_profiles_warnings)
{
    cv_setcache *shared = cv_setcache_new_shared();
    const char *one = "cv:\n  name: Ada Lovelace\n  sections:\n    awards:\n"
                      "      - bullet: A prize for \xF4\x8F\xBF\xBD and more\n"
                      "      - bullet: Another prize\n";
    const char *two = "cv:\n  name: Ada Lovelace\n  sections:\n    awards:\n"
                      "      - bullet: Another prize\n"
                      "      - bullet: A prize for \xF4\x8F\xBF\xBD and more\n";
    int n1, n2;
    cv_arena *a1 = cv_arena_new();
    const char *said1 = composed_says(a1, cv_setcache_new(a1, shared), fx_doc(a1, one),
                                      false, &n1);
    CHECK(n1 == 1 && strstr(said1, ":5:") != NULL);
    cv_arena_free(a1);
    cv_arena *a2 = cv_arena_new();
    cv_setcache *sc2 = cv_setcache_new(a2, shared);
    const char *said2 = composed_says(a2, sc2, fx_doc(a2, two), false, &n2);
    CHECK(n2 == 1 && strstr(said2, ":6:") != NULL && strstr(said2, "no font has U+10FFFD"));
    CHECK(cv_setcache_stats(sc2).hits > 0);   /* "Another prize": found */
    cv_arena_free(a2);
    cv_setcache_free(shared);
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
    RUN(fit_shared_across_profiles);
    RUN(fit_shared_keeps_each_profiles_warnings);
    fx_teardown();
    return harness_report("fit");
}
