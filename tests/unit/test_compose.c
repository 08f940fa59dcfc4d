/* test_compose.c - vertical lists: what items an entry makes, the keep
 * rules on them, columns, and what outlives the scratch memory. */
#include "compose.h"
#include "fit.h"
#include "harness.h"

#include "fixture.h"

static cv_style onecol, sidebar;

/* A long paragraph: about a dozen lines at onecolumn's measure. */
#define LONG "Designed and implemented a distributed training system for large language " \
             "models that overlaps computation with communication and reduces the memory " \
             "footprint by sharding parameters, gradients and optimizer states across data " \
             "parallel workers; it trains models ten times larger on the same hardware, and " \
             "its scheduler, written from scratch, keeps every device busy while the next " \
             "layer's parameters arrive, which took a year of careful measurement on real " \
             "clusters of many hundreds of accelerators, and it is now used by several teams " \
             "for production training runs that last for weeks at a time without a restart " \
             "and whose checkpoints are written while the training continues unhindered."

static const char *profile =
    "settings:\n"
    "  keep_together: [Awards]\n"
    "  page_break_before: [awards, nothing_like_this]\n"
    "cv:\n"
    "  name: Ada Lovelace\n"
    "  headline: Analyst of engines\n"
    "  email: ada@example.com\n"
    "  website: https://ada.example.com/\n"
    "  sections:\n"
    "    experience:\n"
    "      - company: Analytical Engines\n"
    "        position: Programmer\n"
    "        start_date: 1842-09\n"
    "        highlights:\n"
    "          - Wrote the [first program](https://example.com/note-g)\n"
    "      - company: Babbage & Co\n"
    "        position: Analyst\n"
    "        summary: \"" LONG "\"\n"
    "    awards:\n"
    "      - bullet: A medal\n"
    "      - bullet: Another medal\n"
    "    skills:\n"
    "      - label: Languages\n"
    "        details: Note G\n";

typedef struct run {
    cv_arena *a;
    cv_doc *doc;
    cv_composed c;
    cv_error err;
} run;

static void compose(run *r, const char *yaml, const cv_style *st)
{
    r->a = cv_arena_new();
    r->doc = fx_doc(r->a, yaml);
    cv_error_init(&r->err);
    r->err.quiet = true;
    cv_fit_compose(r->a, r->doc, fx_ctx(st), NULL, &r->c, &r->err);
}

static bool vl_has_keep(const cv_vitem *it, cv_keep k)
{
    return it->keep >= k;
}

/* The items of entry `entry` of section `sec` in list vl: [*first, *end). */
static void entry_items(const cv_vlist *vl, int sec, int entry, size_t *first, size_t *end)
{
    *first = *end = 0;
    for (size_t i = 0; i < vl->n; i++)
        if (vl->items[i].section == sec && vl->items[i].entry == entry) {
            if (*end == 0)
                *first = i;
            *end = i + 1;
        }
}

TEST(compose_keep_rules)
{
    run r;
    compose(&r, profile, &onecol);
    CHECK(!r.err.set);
    CHECK(r.c.ncols == 1);
    /* The document header: never split, and a break allowed after it. */
    const cv_vlist *head = &r.c.head;
    CHECK(head->n >= 3);
    for (size_t i = 0; i + 1 < head->n; i++)
        CHECK(head->items[i].keep == CV_KEEP_HEAD);
    CHECK(head->items[head->n - 1].keep == CV_KEEP_NONE);

    const cv_vlist *vl = &r.c.col[CV_COL_MAIN];
    /* The section title: a header, with its first entry. */
    CHECK(vl->items[0].section == 0 && vl->items[0].entry == -1 && vl->items[0].is_header);
    CHECK(vl->items[0].keep == CV_KEEP_TITLE);
    CHECK_STR(vl->items[0].section_title, "Experience");

    /* A short entry: header, one bullet line; never split, and the header
     * stays with the bullet. */
    size_t f, e;
    entry_items(vl, 0, 0, &f, &e);
    CHECK(e - f == 2);
    CHECK(vl->items[f].is_header && vl->items[f].nlines == 2);
    CHECK(vl->items[f].keep >= CV_KEEP_HEADER);
    CHECK(vl->items[f + 1].npieces == 2);          /* the line and its bullet */

    /* A long summary: widows and orphans, and the middle free to break. */
    entry_items(vl, 0, 1, &f, &e);
    size_t lines = e - f - 1;
    CHECK(lines >= 5);
    /* The title keeps two lines of its section: entry 1's bullet and this
     * entry's first line, across the entries. */
    CHECK(vl->items[f - 1].keep == CV_KEEP_TITLE);
    CHECK(vl->items[f].keep == CV_KEEP_TITLE);
    CHECK(vl->items[f + 1].keep == CV_KEEP_LINES);            /* line 1 */
    CHECK(vl->items[f + lines / 2].keep == CV_KEEP_NONE);
    CHECK(vl->items[e - 2].keep == CV_KEEP_LINES);            /* the last but one */
    CHECK(vl->items[e - 1].keep == CV_KEEP_NONE);             /* the end of the section */
    CHECK(vl->items[f + 1].space_before > 0 && vl->items[f + 2].space_before == 0);

    /* keep_together and page_break_before from the profile's settings,
     * matched by title or key; a name of no section is a warning. */
    entry_items(vl, 1, 1, &f, &e);
    size_t title = 0;
    while (vl->items[title].section != 1)
        title++;
    CHECK(vl->items[title].break_before);
    for (size_t i = title; i + 1 < e; i++)
        CHECK(vl->items[i].keep >= CV_KEEP_SECTION);
    CHECK(vl->items[e - 1].keep == CV_KEEP_NONE);
    CHECK(r.err.nwarnings == 1);
    cv_arena_free(r.a);
}

/* The title keeps two lines of its section across short entries (a header
 * alone counts as a line), and the section's last two lines stay together:
 * no "SOCIAL SERVICES" over one one-line entry at a page's foot, no lone
 * "Spoken" overleaf; a section of four lines or fewer is not split. */
TEST(compose_keeps_across_entries)
{
    run r;
    compose(&r, "cv:\n  name: Ada\n  sections:\n"
                "    honors:\n      - bullet: A medal\n      - bullet: Another medal\n"
                "    skills:\n      - label: Languages\n        details: C, Ada\n"
                "      - label: Tools\n        details: Make\n"
                "      - label: Spoken\n        details: English\n"
                "    service:\n      - name: Volunteer A\n      - name: Volunteer B\n"
                "      - name: Volunteer C\n      - name: Volunteer D\n",
            &onecol);
    CHECK(!r.err.set);
    const cv_vlist *vl = &r.c.col[CV_COL_MAIN];
    size_t f, e;
    entry_items(vl, 0, 0, &f, &e);
    CHECK(e - f == 1 && vl->items[f - 1].keep == CV_KEEP_TITLE);
    CHECK(vl->items[f].keep == CV_KEEP_TITLE);       /* the first bullet keeps the second */
    entry_items(vl, 1, 0, &f, &e);
    CHECK(e - f == 1);
    CHECK(vl->items[f].keep == CV_KEEP_TITLE);       /* Languages, Tools: with the title */
    CHECK(vl->items[f + 1].keep == CV_KEEP_LINES);   /* Tools, Spoken: the section's end */
    CHECK(vl->items[f + 2].keep == CV_KEEP_NONE);
    entry_items(vl, 2, 0, &f, &e);
    CHECK(e - f == 1 && vl->items[f].is_header);
    CHECK(vl->items[f].keep == CV_KEEP_TITLE);       /* header-only entries count */
    CHECK(vl->items[f + 1].keep == CV_KEEP_LINES);   /* four lines in all: a short list */
    CHECK(vl->items[f + 2].keep == CV_KEEP_LINES);
    CHECK(vl->items[f + 3].keep == CV_KEEP_NONE);
    cv_arena_free(r.a);
}

/* An entry header's rows: when the title wraps, the place sits beside its
 * second line, not below the whole title. */
TEST(compose_header_rows_align)
{
    run r;
    compose(&r, "cv:\n  name: Ada\n  sections:\n    experience:\n"
                "      - company: Building the Deep Learning Training System for the Sunway "
                "TaihuLight Supercomputer of the National Centre\n"
                "        position: Engineer\n        start_date: 2016-04\n"
                "        end_date: 2019-08\n        location: Wuxi, China\n",
            &onecol);
    CHECK(!r.err.set);
    const cv_vlist *vl = &r.c.col[CV_COL_MAIN];
    size_t f, e;
    entry_items(vl, 0, 0, &f, &e);
    const cv_vitem *h = &vl->items[f];
    float main_dy[8], side_dy[8];
    size_t nm = 0, ns = 0;
    for (size_t i = 0; i < h->npieces; i++) {
        if (h->pieces[i].dx == 0 && nm < 8)
            main_dy[nm++] = h->pieces[i].dy;
        else if (h->pieces[i].dx > 0 && ns < 8)
            side_dy[ns++] = h->pieces[i].dy;
    }
    CHECK(nm == 3 && ns == 2);     /* the title on two lines, the position; date, place */
    CHECK(ns == 2 && side_dy[0] == main_dy[0] && side_dy[1] == main_dy[1]);
    CHECK(h->nlines == 3);
    cv_arena_free(r.a);
}

TEST(compose_keep_rule_text)
{
    CHECK_STR(cv_keep_rule(CV_KEEP_ENTRY), "a short entry is never split");
    CHECK_STR(cv_keep_rule(CV_KEEP_NONE), "no rule");
    CHECK_STR(cv_keep_rule(CV_NKEEPS), "?");
}

/* The link in a highlight outlives the scratch memory its text was set
 * from (ASan would see a read of freed memory). */
TEST(compose_links_outlive_the_scratch)
{
    run r;
    compose(&r, profile, &onecol);
    const cv_vlist *vl = &r.c.col[CV_COL_MAIN];
    const char *uri = NULL;
    for (size_t i = 0; i < vl->n && !uri; i++)
        for (size_t p = 0; p < vl->items[i].npieces; p++)
            if (vl->items[i].pieces[p].line->nlinks)
                uri = vl->items[i].pieces[p].line->links[0].uri;
    CHECK_STR(uri, "https://example.com/note-g");
    cv_arena_free(r.a);
}

TEST(compose_sidebar)
{
    run r;
    compose(&r, profile, &sidebar);
    CHECK(r.c.ncols == 2);
    float width = sidebar.page_w - sidebar.margin_left - sidebar.margin_right;
    CHECK_NUM(r.c.col_w[CV_COL_MAIN] + r.c.col_w[CV_COL_SIDE] + sidebar.sidebar_gap, width,
              0.01);
    /* The sidebar: the contact details first, then the skills and awards
     * the layout sends there; experience stays in the main column. */
    const cv_vlist *side = &r.c.col[CV_COL_SIDE];
    CHECK(side->n > 2 && side->items[0].section == -1);
    bool skills = false, experience = false;
    for (size_t i = 0; i < side->n; i++) {
        skills |= side->items[i].section == 2;
        experience |= side->items[i].section == 0;
    }
    CHECK(skills && !experience);
    cv_arena_free(r.a);
}

/* The sidebar: a section title has space above it (a baseline step of two
 * lines of the body size: more would split pdftotext's block), and an
 * entry's first line (its year) stays with the rest of it. */
TEST(compose_sidebar_rhythm)
{
    run r;
    /* (With a section of the main column: a profile whose every section
     * the sidebar names has them in the main column.) */
    compose(&r, "cv:\n  name: Ada\n  email: ada@example.com\n  sections:\n"
                "    experience:\n      - company: Engines Ltd\n        position: Analyst\n"
                "    awards:\n      - label: '2016'\n        details: A medal for a long and "
                "careful piece of work on engines of many kinds\n"
                "      - label: '2015'\n        details: Another medal\n"
                "    skills:\n      - label: Languages\n        details: Ada\n",
            &sidebar);
    CHECK(!r.err.set);
    const cv_vlist *side = &r.c.col[CV_COL_SIDE];
    /* The grid: the sidebar's line spacing, at most 1.45 lines. */
    float ls = sidebar.sidebar_line_spacing < 1.45f ? sidebar.sidebar_line_spacing : 1.45f;
    float grid = ls * sidebar.size;
    int titles = 0;
    for (size_t i = 1; i < side->n; i++) {
        const cv_vitem *prev = &side->items[i - 1], *it = &side->items[i];
        if (!prev->npieces || !it->npieces)
            continue;
        float step = prev->height - prev->pieces[0].dy + it->space_before + it->pieces[0].dy;
        if (it->entry < 0 && it->section != prev->section) {
            titles++;
            CHECK_NUM(step, 2 * sidebar.size, 0.01);   /* AWARDS, SKILLS */
        } else {
            CHECK(step >= grid - 0.01 && step <= 1.45f * sidebar.size + 0.01f);
        }
    }
    CHECK(titles == 2);
    size_t f, e;
    entry_items(side, 1, 0, &f, &e);     /* awards (section 1) */
    CHECK(e - f >= 3 && vl_has_keep(&side->items[f], CV_KEEP_HEADER));
    cv_arena_free(r.a);
}

/* Numbers are right-aligned in a column as wide as the largest. */
TEST(compose_numbers_align)
{
    const char *s = "cv:\n  name: Ada\n  sections:\n    talks:\n";
    for (int i = 0; i < 12; i++)
        s = cv_arena_printf(fx_arena, "%s      - number: Talk %d\n", s, i);
    run r;
    compose(&r, s, &onecol);
    const cv_vlist *vl = &r.c.col[CV_COL_MAIN];
    float right[2];
    int k = 0;
    for (size_t i = 0; i < vl->n && k < 2; i++)
        if (vl->items[i].entry == 0 || vl->items[i].entry == 11) {
            const cv_piece *lead = &vl->items[i].pieces[1];
            right[k++] = lead->dx + lead->line->width;
        }
    CHECK(k == 2);
    CHECK_NUM(right[0], right[1], 0.01);
    cv_arena_free(r.a);
}

/* An entry header taller than a page (a title of 60 long words, one a
 * line) is cut into an item a line, each no taller than a line, in the
 * order of its lines, with the layout's orphans and widows; nothing is said
 * (whole, it ran off its page with a warning), also under --strict. */
TEST(compose_cuts_a_tall_header)
{
    const char *s = "cv:\n  name: Ada\n  sections:\n    papers:\n      - title: \"";
    for (int i = 0; i < 60; i++)
        s = cv_arena_printf(fx_arena, "%s%s ", s, LONG);
    s = cv_arena_printf(fx_arena, "%s\"\n        authors: [Ada]\n", s);
    run r;
    compose(&r, s, &onecol);
    CHECK(r.err.nwarnings == 0 && !r.err.set);
    const cv_vlist *vl = &r.c.col[CV_COL_MAIN];
    size_t lines = 0, pieces = 0;
    float full = onecol.page_h - onecol.margin_top - onecol.margin_bottom;
    for (size_t i = 0; i < vl->n; i++)
        if (vl->items[i].section == 0 && vl->items[i].entry == 0 && vl->items[i].is_header) {
            CHECK(vl->items[i].height < 30 && vl->items[i].height <= full);
            lines++;
            pieces += vl->items[i].npieces;
        }
    CHECK(lines >= 60 && pieces >= 60);
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    err.quiet = err.strict = true;
    cv_composed c;
    CHECK(cv_fit_compose(a, fx_doc(a, s), fx_ctx(&onecol), NULL, &c, &err) && !err.set);
    cv_arena_free(a);
    cv_arena_free(r.a);
}

int main(void)
{
    fx_setup();
    fx_style("layouts/onecolumn.yaml", &onecol);
    fx_style("layouts/sidebar.yaml", &sidebar);
    RUN(compose_keep_rules);
    RUN(compose_keeps_across_entries);
    RUN(compose_header_rows_align);
    RUN(compose_keep_rule_text);
    RUN(compose_links_outlive_the_scratch);
    RUN(compose_sidebar);
    RUN(compose_sidebar_rhythm);
    RUN(compose_numbers_align);
    RUN(compose_cuts_a_tall_header);
    fx_teardown();
    return harness_report("compose");
}
