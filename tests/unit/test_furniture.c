/* test_furniture.c - the running header and footer: on which pages, what
 * they show, where they go in the reading order. */
#include "furniture.h"
#include "harness.h"

#include "compose.h"
#include "fixture.h"
#include "flow.h"

static cv_style st;

/* A run's text (ASCII and Latin-1 are enough here). */
static const char *text(cv_arena *a, const cv_run *r)
{
    char *s = cv_arena_alloc(a, r->n * 2 + 1), *q = s;
    for (size_t i = 0; i < r->n; i++) {
        uint32_t cp = r->g[i].cp;
        if (cp < 0x80) {
            *q++ = (char)cp;
        } else {
            *q++ = (char)(0xC0 | cp >> 6);
            *q++ = (char)(0x80 | (cp & 0x3F));
        }
    }
    return s;
}

/* Does page p have a run whose text contains `s`? */
static bool shows(cv_arena *a, const cv_page *pg, const char *s)
{
    for (size_t i = 0; i < pg->nruns; i++)
        if (strstr(text(a, &pg->runs[i]), s))
            return true;
    return false;
}

static bool has_region(const cv_page *pg, const char *name)
{
    for (size_t i = 0; i < pg->nregions; i++)
        if (!strcmp(pg->regions[i].name, name))
            return true;
    return false;
}

/* A résumé of `n` bullets, laid out. */
static cv_display *lay_out(cv_arena *a, int n, const cv_doc **doc)
{
    const char *s = "cv:\n  name: Ada Lovelace\n  sections:\n    awards:\n";
    for (int i = 0; i < n; i++)
        s = cv_arena_printf(a, "%s      - bullet: Award %d\n", s, i);
    *doc = fx_doc(a, s);
    cv_error err;
    cv_error_init(&err);
    cv_composed c;
    cv_compose(a, *doc, fx_ctx(&st), NULL, &c, &err);
    return cv_flow(a, &c, &st, NULL);
}

/* The same, furnished for `date`; *before is page 1's runs before. */
static cv_display *furnished(cv_arena *a, int n, const char *date, size_t *before)
{
    const cv_doc *doc;
    cv_display *d = lay_out(a, n, &doc);
    *before = d->pages[0].nruns;
    cv_error err;
    cv_error_init(&err);
    cv_furnish(a, d, doc, fx_ctx(&st), date, &err);
    CHECK(!err.set);
    return d;
}

TEST(furniture_on_every_page)
{
    cv_arena *a = cv_arena_new();
    size_t before;
    cv_display *d = furnished(a, 120, "2026-11-21", &before);
    CHECK(d->npages == 3);
    /* onecolumn: the name at the head of pages 2 and 3 (page 1 has it),
     * "N  /  3" and the date at the foot of every page. */
    CHECK(!has_region(&d->pages[0], "page_header") && has_region(&d->pages[0], "page_footer"));
    CHECK(d->pages[0].nruns > before);
    for (size_t p = 1; p < 3; p++) {
        CHECK(has_region(&d->pages[p], "page_header") && has_region(&d->pages[p], "page_footer"));
        /* The running header is read first: its runs lead the page. */
        CHECK_STR(text(a, &d->pages[p].runs[0]), "Ada Lovelace");
        CHECK(d->pages[p].runs[0].y > st.page_h - st.margin_top);
    }
    CHECK(shows(a, &d->pages[1], "2  /  3"));
    CHECK(shows(a, &d->pages[2], "Last updated in Nov 2026"));
    cv_arena_free(a);
}

TEST(furniture_not_on_a_single_page)
{
    cv_arena *a = cv_arena_new();
    size_t before;
    cv_display *d = furnished(a, 3, "2026-11-21", &before);
    CHECK(d->npages == 1);
    CHECK(d->pages[0].nruns == before && d->pages[0].nregions == 2);   /* head, main */
    cv_arena_free(a);
}

TEST(furniture_without_a_date)
{
    cv_arena *a = cv_arena_new();
    size_t before;
    cv_display *d = furnished(a, 120, NULL, &before);
    CHECK(shows(a, &d->pages[1], "2  /  3"));
    CHECK(!shows(a, &d->pages[1], "Last updated"));
    /* A malformed date is no date. */
    d = furnished(a, 120, "2026-13-01", &before);
    CHECK(!shows(a, &d->pages[1], "Last updated"));
    cv_arena_free(a);
}

int main(void)
{
    fx_setup();
    fx_style("layouts/onecolumn.yaml", &st);
    RUN(furniture_on_every_page);
    RUN(furniture_not_on_a_single_page);
    RUN(furniture_without_a_date);
    fx_teardown();
    return harness_report("furniture");
}
