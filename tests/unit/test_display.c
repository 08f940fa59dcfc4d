/* Unit tests for display.c: pages, lines put on pages, regions, and the
 * TJ number the PDF and the dump share. */
#include "harness.h"

#include <string.h>

#include "display.h"

TEST(pages_and_lines)
{
    cv_arena *a = cv_arena_new();
    cv_display d = {.width = 100, .height = 200};
    cv_page *p1 = cv_display_page(a, &d);
    CHECK(d.npages == 1 && p1 == &d.pages[0] && p1->nruns == 0);
    cv_gl g[2] = {{.cp = 'a', .w = 500}, {.cp = 'b', .w = 500}};
    cv_run runs[2] = {{.x = 0, .g = g, .n = 1, .size = 10}, {.x = 5, .g = g + 1, .n = 1}};
    cv_link links[1] = {{0, -2, 10, 8, "https://x.org", 0}};
    cv_line ln = {.runs = runs, .nruns = 2, .links = links, .nlinks = 1, .width = 10};
    cv_page_put_line(a, p1, &ln, 20, 150);
    CHECK(p1->nruns == 2 && p1->runs[0].x == 20 && p1->runs[1].x == 25);
    CHECK(p1->runs[0].y == 150 && p1->runs[1].y == 150);
    CHECK(p1->nlinks == 1 && p1->links[0].x0 == 20 && p1->links[0].y0 == 148 &&
          p1->links[0].y1 == 158 && !strcmp(p1->links[0].uri, "https://x.org"));
    /* The line itself is not changed. */
    CHECK(runs[1].x == 5 && links[0].x0 == 0);
    cv_display_page(a, &d);
    CHECK(d.npages == 2 && d.pages[0].nruns == 2);
    cv_arena_free(a);
}

TEST(regions_are_bounded)
{
    cv_page pg = {0};
    for (int i = 0; i < CV_MAX_REGIONS + 3; i++)
        cv_page_add_region(&pg, "main", 0, 0, 1, 1);
    CHECK(pg.nregions == CV_MAX_REGIONS);
}

TEST(tj_as_the_pdf_writes_it)
{
    cv_gl g[5] = {{.cp = 'a', .w = 1, .adj = 0.0499f}, {.cp = 'b', .w = 1, .adj = 0.05f},
                  {.cp = 'c', .w = 1, .adj = -0.26f}, {.cp = 'd', .w = 1, .adj = 12.5f},
                  {.cp = 'e', .w = 1, .adj = 7}};
    cv_run r = {.g = g, .n = 5};
    CHECK(cv_run_tj(&r, 0) == 0);           /* below a twentieth: nothing */
    CHECK_NUM(cv_run_tj(&r, 1), 0.1, 1e-9);  /* a tenth, rounded half away */
    CHECK_NUM(cv_run_tj(&r, 2), -0.3, 1e-9);
    CHECK_NUM(cv_run_tj(&r, 3), 12.5, 1e-9);
    CHECK(cv_run_tj(&r, 4) == 0);           /* after the last glyph: nothing */
}

int main(void)
{
    RUN(pages_and_lines);
    RUN(regions_are_bounded);
    RUN(tj_as_the_pdf_writes_it);
    return harness_report("display");
}
