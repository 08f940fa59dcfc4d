/* test_fit.c - fitting a résumé to N pages: the gentlest knob that does,
 * what it reports, and a résumé that cannot fit. */
#include "fit.h"
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
    cv_compose(a, doc, fx_ctx(s), NULL, &c, &err);
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

int main(void)
{
    fx_setup();
    fx_style("layouts/onecolumn.yaml", &st);
    RUN(fit_as_it_is);
    RUN(fit_spacing_first);
    RUN(fit_type_then_margins);
    RUN(fit_impossible);
    fx_teardown();
    return harness_report("fit");
}
