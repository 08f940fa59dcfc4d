/* Unit tests for bidi.c: strong directions, a line put in visual order, a
 * page mirrored. */
#include "harness.h"

#include <string.h>

#include "bidi.h"

TEST(directions)
{
    CHECK(cv_bidi_strong(0x05D0) == -1 && cv_bidi_strong('a') == 1);
    CHECK(cv_bidi_strong('1') == 0 && cv_bidi_strong(' ') == 0);
}

/* The text of a line as drawn, left to right. */
static const char *visual(const cv_line *ln)
{
    static char buf[64];
    size_t n = 0;
    for (size_t r = 0; r < ln->nruns; r++)
        for (size_t k = 0; k < ln->runs[r].n && n < 63; k++) {
            uint32_t cp = ln->runs[r].g[k].cp;
            buf[n++] = cp == 0x05D0 ? 'A' : cp == 0x05D1 ? 'B' : cp == 0x05D2 ? 'C' : (char)cp;
        }
    buf[n] = 0;
    return buf;
}

/* A line of one run per face change: 'ABC xy(' in logical order, where A,
 * B, C are Hebrew letters, each glyph 500/1000 em at 10pt. */
static cv_line line_of(cv_arena *a, const uint32_t *cps, size_t n)
{
    cv_gl *g = cv_arena_alloc(a, n * sizeof *g);
    for (size_t i = 0; i < n; i++)
        g[i] = (cv_gl){cps[i], 500, 0, 0};
    cv_run *r = cv_arena_alloc(a, sizeof *r);
    *r = (cv_run){.x = 0, .size = 10, .g = g, .n = n, .width = 5.0f * (float)n};
    return (cv_line){.runs = r, .nruns = 1, .width = 5.0f * (float)n};
}

TEST(lines_in_visual_order)
{
    cv_arena *a = cv_arena_new();
    /* Hebrew then Latin in a right-to-left paragraph: the Latin word
     * stays in order, to the left of the Hebrew. */
    uint32_t s1[] = {0x05D0, 0x05D1, 0x05D2, ' ', 'x', 'y'};
    cv_line ln = line_of(a, s1, 6);
    cv_bidi_line(a, &ln, true, NULL);
    CHECK_STR(visual(&ln), "xy CBA");
    CHECK(ln.nruns >= 2);
    float end = ln.runs[ln.nruns - 1].x + ln.runs[ln.nruns - 1].width;
    CHECK_NUM(ln.runs[0].x, 0, 1e-4);
    CHECK_NUM(end, 30, 1e-3);            /* as wide as before */
    bool rtl_run = false;
    for (size_t r = 0; r < ln.nruns; r++)
        rtl_run |= ln.runs[r].rtl && ln.runs[r].g[ln.runs[r].n - 1].cp == 0x05D0;
    CHECK(rtl_run);
    /* A link over "xy" (logically last) follows it to the left. */
    ln = line_of(a, s1, 6);
    cv_link lk = {20, -2, 30, 8, "https://x.org", 0};
    ln.links = &lk;
    ln.nlinks = 1;
    cv_bidi_line(a, &ln, true, NULL);
    CHECK(ln.nlinks == 1 && ln.links != &lk);
    CHECK_NUM(ln.links[0].x0, 0, 1e-3);
    CHECK_NUM(ln.links[0].x1, 10, 1e-3);
    CHECK(lk.x0 == 20);                  /* the line's own is not changed */
    /* The same in a left-to-right paragraph: only the Hebrew turns. */
    ln = line_of(a, s1, 6);
    cv_bidi_line(a, &ln, false, NULL);
    CHECK_STR(visual(&ln), "CBA xy");
    /* A Hebrew phrase of two words in a left-to-right paragraph, a run a
     * word (as faces make them): drawn right to left in its place, the
     * runs in the order of the text. */
    {
        static const uint32_t words[5][2] = {{'x', ' '}, {0x05D0, 0x05D1}, {' ', 0}, {0x05D2, 0},
                                             {' ', 'y'}};
        static const size_t lens[5] = {2, 2, 1, 1, 2};
        cv_run *rs = cv_arena_alloc(a, 5 * sizeof *rs);
        float x = 0;
        for (size_t r = 0; r < 5; r++) {
            cv_gl *g = cv_arena_alloc(a, 2 * sizeof *g);
            for (size_t k = 0; k < lens[r]; k++)
                g[k] = (cv_gl){words[r][k], 500, 0, 0};
            rs[r] = (cv_run){.x = x, .size = 10, .g = g, .n = lens[r], .width = 5.0f * lens[r]};
            x += rs[r].width;
        }
        ln = (cv_line){.runs = rs, .nruns = 5, .width = x};
        cv_bidi_line(a, &ln, false, NULL);
        CHECK(ln.nruns == 5);
        bool in_order = true;
        for (size_t r = 1; r < ln.nruns; r++)
            in_order &= ln.runs[r - 1].logical < ln.runs[r].logical;
        CHECK(in_order);
        CHECK(ln.runs[1].g[0].cp == 0x05D1 && ln.runs[3].g[0].cp == 0x05D2);
        CHECK(ln.runs[3].x < ln.runs[1].x);  /* the second word left of the first */
    }
    /* Brackets in right-to-left text are mirrored. */
    uint32_t s2[] = {0x05D0, '(', 0x05D1, ')'};
    ln = line_of(a, s2, 4);
    cv_bidi_line(a, &ln, true, NULL);
    CHECK_STR(visual(&ln), "(B)A");
    /* Spaces at the line's end take no place. */
    uint32_t s3[] = {0x05D0, 0x05D1, ' ', ' '};
    ln = line_of(a, s3, 4);
    cv_bidi_line(a, &ln, true, NULL);
    CHECK_STR(visual(&ln), "BA");
    /* A phone number reads left to right in right-to-left text. */
    uint32_t s5[] = {0x05D0, ' ', '+', '9', '7', '2', ' ', '4', ' ', '5', '5', '5', '0', '1'};
    ln = line_of(a, s5, 14);
    cv_bidi_line(a, &ln, true, NULL);
    CHECK_STR(visual(&ln), "+972 4 55501 A");
    /* Latin only, left to right: untouched (the same runs). */
    uint32_t s4[] = {'a', 'b'};
    ln = line_of(a, s4, 2);
    const cv_run *before = ln.runs;
    cv_bidi_line(a, &ln, false, NULL);
    CHECK(ln.runs == before);
    cv_arena_free(a);
}

TEST(pages_mirrored)
{
    cv_arena *a = cv_arena_new();
    cv_display d = {.width = 100, .height = 100};
    cv_page *pg = cv_display_page(a, &d);
    cv_gl g[3] = {{'a', 500, 0, 0}, {'b', 500, 0, 0}, {'c', 500, 0, 0}};
    /* A line of two runs from x = 10 (widths 5 and 5), a date at 80. */
    cv_run r2[2] = {{.x = 0, .size = 10, .g = g, .n = 1, .width = 5},
                    {.x = 5, .size = 10, .g = g + 1, .n = 1, .width = 5}};
    cv_line ln = {.runs = r2, .nruns = 2, .width = 10};
    cv_page_put_line(a, pg, &ln, 10, 50);
    cv_run r1 = {.x = 0, .size = 10, .g = g + 2, .n = 1, .width = 5};
    cv_line date = {.runs = &r1, .nruns = 1, .width = 5};
    cv_page_put_line(a, pg, &date, 80, 50);
    cv_rule rule = {10, 40, 90, 40, 1, 0};
    CV_PUSH(a, pg->rules, pg->nrules, pg->crules, rule);
    cv_page_add_region(pg, "main", 10, 0, 60, 100);
    cv_bidi_mirror(&d);
    /* The line keeps its order and hangs from the right: 80..90; the date
     * moves to 15..20 and, being left now, is read after the line. */
    CHECK(pg->nruns == 3);
    CHECK(pg->runs[0].g[0].cp == 'a' && pg->runs[1].g[0].cp == 'b');
    CHECK_NUM(pg->runs[0].x, 80, 1e-4);
    CHECK_NUM(pg->runs[1].x, 85, 1e-4);
    CHECK(pg->runs[2].g[0].cp == 'c');
    CHECK_NUM(pg->runs[2].x, 15, 1e-4);
    CHECK_NUM(pg->rules[0].x0, 10, 1e-4);
    CHECK_NUM(pg->rules[0].x1, 90, 1e-4);
    CHECK_NUM(pg->regions[0].x0, 40, 1e-4);
    CHECK_NUM(pg->regions[0].x1, 90, 1e-4);
    cv_arena_free(a);
}

int main(void)
{
    RUN(directions);
    RUN(lines_in_visual_order);
    RUN(pages_mirrored);
    return harness_report("bidi");
}
