/* test_flow.c - placing composed lists on pages: regions, bookmarks, the
 * rule between the columns, the header's room on page 1.  (Breaking
 * pages under the keep rules is tested in test_engine.c.) */
#include "flow.h"
#include "harness.h"

#include "compose.h"
#include "fixture.h"

static cv_style onecol, sidebar;

static const char *profile =
    "cv:\n"
    "  name: Ada Lovelace\n"
    "  email: ada@example.com\n"
    "  sections:\n"
    "    experience:\n"
    "      - company: Analytical Engines\n"
    "        position: Programmer\n"
    "    awards:\n"
    "      - bullet: A medal\n"
    "    '**Bold** notes':\n"
    "      - Some text.\n"
    "    skills:\n"
    "      - label: Languages\n"
    "        details: Note G\n";

static cv_display *flow(cv_arena *a, const char *yaml, const cv_style *st, cv_composed *c)
{
    cv_error err;
    cv_error_init(&err);
    err.quiet = true;
    cv_compose(a, fx_doc(a, yaml), fx_ctx(st), NULL, c, &err);
    return cv_flow(a, c, st, NULL);
}

static const cv_region *region(const cv_page *pg, const char *name)
{
    for (size_t i = 0; i < pg->nregions; i++)
        if (!strcmp(pg->regions[i].name, name))
            return &pg->regions[i];
    return NULL;
}

TEST(flow_bookmarks_in_profile_order)
{
    cv_arena *a = cv_arena_new();
    cv_composed c;
    cv_display *d = flow(a, profile, &sidebar, &c);
    /* Awards and skills are in the sidebar, placed after the main column:
     * the bookmarks are still in the profile's order, without markup. */
    CHECK(d->nmarks == 4);
    for (size_t i = 0; i < d->nmarks; i++)
        CHECK(d->marks[i].section == (int)i);
    CHECK_STR(d->marks[2].title, "Bold notes");
    CHECK(d->marks[0].page == 0);
    cv_arena_free(a);
}

TEST(flow_regions_and_column_rule)
{
    cv_arena *a = cv_arena_new();
    cv_composed c;
    cv_display *d = flow(a, profile, &sidebar, &c);
    CHECK(d->npages == 1);
    const cv_page *pg = &d->pages[0];
    const cv_region *head = region(pg, "head"), *main = region(pg, "main"),
                    *side = region(pg, "sidebar");
    CHECK(head && main && side);
    if (head && main && side) {
        float top = sidebar.page_h - sidebar.margin_top;
        CHECK_NUM(head->y1, top, 0.01);
        /* The columns start under the header and its gap. */
        CHECK(main->y1 < head->y0 && side->y1 < head->y0);
        CHECK_NUM(main->y1, top - (top - head->y0) - c.head_gap, 0.01);
        CHECK(side->x1 <= main->x0);                    /* the sidebar is on the left */
        /* A hairline between them, down to the bottom margin. */
        bool rule = false;
        for (size_t i = 0; i < pg->nrules; i++)
            rule |= pg->rules[i].x0 == pg->rules[i].x1 && pg->rules[i].x0 > side->x1 &&
                    pg->rules[i].x0 < main->x0 && pg->rules[i].y1 == sidebar.margin_bottom;
        CHECK(rule);
    }
    /* One column: no sidebar region and no rule between columns. */
    d = flow(a, profile, &onecol, &c);
    CHECK(region(&d->pages[0], "sidebar") == NULL && region(&d->pages[0], "main") != NULL);
    for (size_t i = 0; i < d->pages[0].nrules; i++)
        CHECK(d->pages[0].rules[i].y0 == d->pages[0].rules[i].y1);   /* title rules only */
    cv_arena_free(a);
}

TEST(flow_put_line)
{
    cv_arena *a = cv_arena_new();
    cv_run runs[2] = {{.x = 0, .n = 0}, {.x = 30, .n = 0}};
    cv_link link = {1, -2, 10, 8, "https://x.y", 0};
    cv_line ln = {runs, 2, &link, 1, 50};
    cv_page pg = {0};
    cv_page_put_line(a, &pg, &ln, 100, 700);
    CHECK(pg.nruns == 2 && pg.nlinks == 1);
    CHECK_NUM(pg.runs[1].x, 130, 0.001);
    CHECK_NUM(pg.runs[1].y, 700, 0.001);
    CHECK_NUM(pg.links[0].x0, 101, 0.001);
    CHECK_NUM(pg.links[0].y1, 708, 0.001);
    for (int i = 0; i < CV_MAX_REGIONS + 2; i++)
        cv_page_add_region(&pg, "r", 0, 0, 1, 1);
    CHECK(pg.nregions == CV_MAX_REGIONS);
    cv_arena_free(a);
}

int main(void)
{
    fx_setup();
    fx_style("layouts/onecolumn.yaml", &onecol);
    fx_style("layouts/sidebar.yaml", &sidebar);
    RUN(flow_bookmarks_in_profile_order);
    RUN(flow_regions_and_column_rule);
    RUN(flow_put_line);
    fx_teardown();
    return harness_report("flow");
}
