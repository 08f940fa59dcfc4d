/* Unit tests for kp.c: Knuth-Plass total fit and first fit on small
 * paragraphs whose best breaks were worked out by hand (the sums are in the
 * comments). */
#include "harness.h"

#include "kp.h"

#define BOX(w) {.type = CV_KP_BOX, .width = (w)}
#define GLUE(w, y, z) {.type = CV_KP_GLUE, .width = (w), .stretch = (y), .shrink = (z)}
#define HYPH(w) {.type = CV_KP_PENALTY, .flagged = true, .width = (w), .penalty = 50}
#define END GLUE(0, CV_KP_FIL, 0), {.type = CV_KP_PENALTY, .penalty = -CV_KP_INF}

static bool same(const size_t *got, size_t n, const size_t *want, size_t m)
{
    if (n != m) {
        fprintf(stderr, "  %zu lines, want %zu\n", n, m);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "  break %zu at item %zu, want %zu\n", i, got[i], want[i]);
            return false;
        }
    return true;
}

TEST(badness)
{
    float r;
    CHECK_NUM(cv_kp_badness(10, 10, 2, 1, 0, &r), 0, 1e-6);
    CHECK_NUM(r, 0, 1e-6);
    CHECK_NUM(cv_kp_badness(10, 9, 2, 1, 0, &r), 12.5, 1e-3);   /* r = 1/2: 100/8 */
    CHECK_NUM(r, 0.5, 1e-6);
    CHECK_NUM(cv_kp_badness(10, 11, 2, 1, 0, &r), 100, 1e-3);   /* all the shrink */
    CHECK_NUM(r, -1, 1e-6);
    CHECK(cv_kp_badness(10, 11.5f, 2, 1, 0, &r) > CV_KP_INF);   /* overfull */
    CHECK_NUM(cv_kp_badness(10, 5, 0, 0, 0, &r), CV_KP_INF, 1e-3); /* cannot stretch */
    CHECK_NUM(cv_kp_badness(10, 2, 0, 0, 1, &r), 0, 1e-6);      /* fil absorbs it */
}

/* Nine words, widths 3 3 3 3 3 3 3 7 8; spaces 1 wide with stretch 2; a
 * measure of 20.
 *
 * First fit puts five words on line 1 (natural 19: ratio 1/8, badness 0.2)
 * and leaves "3 3 7" for line 2 (natural 15, slack 5 over two spaces:
 * ratio 1.25, badness 195.3, very loose).  Demerits: 10.2^2 + 205.3^2
 * + 10000 (decent next to very loose) + 10000 (very loose next to the
 * decent last line) + 10^2 = 62,352.
 *
 * Total fit moves a word down: four words on line 1 (natural 15, ratio
 * 5/6, badness 57.9, loose), "3 3 3 7" on line 2 (natural 19, ratio 1/6,
 * badness 0.46, decent), "8" last.  Demerits 67.9^2 + 10.46^2 + 10^2 =
 * 4,820: the better paragraph. */
static const cv_kp_item nine[] = {
    BOX(3), GLUE(1, 2, 0), BOX(3), GLUE(1, 2, 0), BOX(3), GLUE(1, 2, 0),
    BOX(3), GLUE(1, 2, 0), BOX(3), GLUE(1, 2, 0), BOX(3), GLUE(1, 2, 0),
    BOX(3), GLUE(1, 2, 0), BOX(7), GLUE(1, 2, 0), BOX(8), END};
#define NNINE (sizeof nine / sizeof *nine)

TEST(total_fit_beats_first_fit)
{
    cv_arena *a = cv_arena_new();
    cv_kp_params p = cv_kp_defaults(20);
    size_t *b, n;
    n = cv_kp_first_fit(a, nine, NNINE, &p, &b);
    CHECK(same(b, n, (size_t[]){9, 15, 18}, 3));
    n = cv_kp_total_fit(a, nine, NNINE, &p, &b);
    CHECK(same(b, n, (size_t[]){7, 15, 18}, 3));
    /* At tolerance 100 first fit's second line (195) is out, and the answer
     * is the same; at 50 nothing fits (line 1 of the best set is 57.9). */
    p.tolerance = 100;
    n = cv_kp_total_fit(a, nine, NNINE, &p, &b);
    CHECK(same(b, n, (size_t[]){7, 15, 18}, 3));
    p.tolerance = 50;
    CHECK(cv_kp_total_fit(a, nine, NNINE, &p, &b) == 0);
    /* "Anything not overfull" always answers. */
    p.tolerance = -1;
    n = cv_kp_total_fit(a, nine, NNINE, &p, &b);
    CHECK(same(b, n, (size_t[]){7, 15, 18}, 3));
    cv_arena_free(a);
}

/* Four words of width 4 on a measure of 5.  After each of the first three,
 * a line may end at a hyphen (width 1: the line is exactly 5, badness 0,
 * flagged) or at zero-width glue with no stretch (the line is 4 and cannot
 * stretch: badness 10000).
 *
 * With no limit on hyphens in a row, three hyphens win: the glue's badness
 * costs (10 + 10000)^2 = 1e8 per line against 10000 per pair of hyphenated
 * lines.  With at most two in a row, one line must end at glue; every
 * choice pays 2 x 10000 for a very loose line between decent ones, so the
 * cheapest puts it second -- no two hyphens in a row (0) and a hyphenated
 * last full line (5000) -- ahead of third (two in a row: 10000) and first
 * (two in a row and the final hyphen: 15000). */
static const cv_kp_item hyph4[] = {
    BOX(4), GLUE(0, 0, 0), HYPH(1), BOX(4), GLUE(0, 0, 0), HYPH(1),
    BOX(4), GLUE(0, 0, 0), HYPH(1), BOX(4), END};
#define NHYPH4 (sizeof hyph4 / sizeof *hyph4)

TEST(hyphens_in_a_row)
{
    cv_arena *a = cv_arena_new();
    cv_kp_params p = cv_kp_defaults(5);
    p.tolerance = -1;
    size_t *b, n;
    p.max_flagged_run = 0;
    n = cv_kp_total_fit(a, hyph4, NHYPH4, &p, &b);
    CHECK(same(b, n, (size_t[]){2, 5, 8, 11}, 4));
    p.max_flagged_run = 2;
    n = cv_kp_total_fit(a, hyph4, NHYPH4, &p, &b);
    CHECK(same(b, n, (size_t[]){2, 4, 8, 11}, 4));
    /* First fit takes hyphens while it may, then the glue. */
    n = cv_kp_first_fit(a, hyph4, NHYPH4, &p, &b);
    CHECK(same(b, n, (size_t[]){2, 5, 7, 11}, 4));
    p.max_flagged_run = 1;
    n = cv_kp_first_fit(a, hyph4, NHYPH4, &p, &b);
    CHECK(same(b, n, (size_t[]){2, 4, 8, 11}, 4));
    cv_arena_free(a);
}

/* A forced break in the middle ends a line there whatever it costs, and
 * the glue after it does not start the next line. */
TEST(forced_break)
{
    static const cv_kp_item it[] = {
        BOX(3), GLUE(1, 1, 0), BOX(3), GLUE(0, CV_KP_FIL, 0),
        {.type = CV_KP_PENALTY, .penalty = -CV_KP_INF}, GLUE(1, 1, 0),
        BOX(5), GLUE(1, 1, 0), BOX(5), END};
    cv_arena *a = cv_arena_new();
    cv_kp_params p = cv_kp_defaults(100);
    size_t *b, n = cv_kp_total_fit(a, it, sizeof it / sizeof *it, &p, &b);
    CHECK(same(b, n, (size_t[]){4, 10}, 2));
    n = cv_kp_first_fit(a, it, sizeof it / sizeof *it, &p, &b);
    CHECK(same(b, n, (size_t[]){4, 10}, 2));
    cv_arena_free(a);
}

/* One box wider than the measure: the last pass still answers (an overfull
 * line, TeX's artificial demerits); the stricter passes do not. */
TEST(overfull_box)
{
    static const cv_kp_item it[] = {BOX(3), GLUE(1, 1, 0), BOX(30), GLUE(1, 1, 0),
                                    BOX(3), END};
    cv_arena *a = cv_arena_new();
    cv_kp_params p = cv_kp_defaults(10);
    size_t *b;
    CHECK(cv_kp_total_fit(a, it, sizeof it / sizeof *it, &p, &b) == 0);
    p.tolerance = -1;
    size_t n = cv_kp_total_fit(a, it, sizeof it / sizeof *it, &p, &b);
    CHECK(n == 3);
    n = cv_kp_first_fit(a, it, sizeof it / sizeof *it, &p, &b);
    CHECK(n == 3);
    cv_arena_free(a);
}

/* Ragged right: spaces do not stretch, every line may end short by up to
 * line_stretch at badness 100.  "3 3 3 3" on 10 with 1-wide spaces: first
 * fit takes "3 3" (7) then "3 3"; so does total fit -- any other split has
 * a one-word line short by 7. */
TEST(ragged)
{
    static const cv_kp_item it[] = {BOX(3), GLUE(1, 0, 0), BOX(3), GLUE(1, 0, 0),
                                    BOX(3), GLUE(1, 0, 0), BOX(3), END};
    cv_arena *a = cv_arena_new();
    cv_kp_params p = cv_kp_defaults(10);
    p.line_stretch = 10;
    size_t *b, n = cv_kp_total_fit(a, it, sizeof it / sizeof *it, &p, &b);
    CHECK(same(b, n, (size_t[]){3, 8}, 2));
    cv_arena_free(a);
}

/* A runt last line: "3 3 3 3 1" on 15 (spaces 1 wide, stretch 2) fits
 * four boxes on line 1 exactly, leaving "1" alone: demerits 10^2 + 10^2.
 * Moving one box down costs line 1 a ratio of 4/4 (badness 100): 110^2 +
 * 10^2 = 12,200.  With a runt costing 20,000 the second is cheaper. */
TEST(runt)
{
    static const cv_kp_item it[] = {BOX(3), GLUE(1, 2, 0), BOX(3), GLUE(1, 2, 0),
                                    BOX(3), GLUE(1, 2, 0), BOX(3), GLUE(1, 2, 0),
                                    BOX(1), END};
    cv_arena *a = cv_arena_new();
    cv_kp_params p = cv_kp_defaults(15);
    size_t *b, n = cv_kp_total_fit(a, it, sizeof it / sizeof *it, &p, &b);
    CHECK(same(b, n, (size_t[]){7, 10}, 2));
    p.short_last_width = 2;
    p.short_last_demerits = 20000;
    n = cv_kp_total_fit(a, it, sizeof it / sizeof *it, &p, &b);
    CHECK(same(b, n, (size_t[]){5, 10}, 2));
    p.short_last_demerits = 10000;              /* not worth it here */
    n = cv_kp_total_fit(a, it, sizeof it / sizeof *it, &p, &b);
    CHECK(same(b, n, (size_t[]){7, 10}, 2));
    cv_arena_free(a);
}

/* no_runts: "4 3-/2" on 9.  "4 3-" fits exactly, but leaves the tail
 * "2" alone on the last line: refused within the tolerance, where nothing
 * else fits ("4" alone cannot stretch); the last pass takes "4" / "32",
 * the very loose line, rather than the runt. */
TEST(no_runts)
{
    static const cv_kp_item it[] = {BOX(4), GLUE(1, 1, 0), BOX(3), HYPH(1), BOX(2), END};
    cv_arena *a = cv_arena_new();
    cv_kp_params p = cv_kp_defaults(9);
    size_t *b, n = cv_kp_total_fit(a, it, sizeof it / sizeof *it, &p, &b);
    CHECK(same(b, n, (size_t[]){3, 6}, 2));
    p.no_runts = true;
    n = cv_kp_total_fit(a, it, sizeof it / sizeof *it, &p, &b);
    CHECK(n == 0);
    p.tolerance = -1;
    n = cv_kp_total_fit(a, it, sizeof it / sizeof *it, &p, &b);
    CHECK(same(b, n, (size_t[]){1, 6}, 2));
    cv_arena_free(a);
}

/* hyphen_window: hyph4 (see above), any line within the tolerance, at
 * most two hyphens in a row, takes {2, 4, 8, 11}: hyphens after lines 1
 * and 3.  With at most one hyphen in any three lines, lines 1 to 3 hold
 * one hyphen at most; two in three allows the first answer again. */
static int flagged_in(const size_t *b, size_t n)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += b[i] == 2 || b[i] == 5 || b[i] == 8;
    return k;
}

TEST(hyphen_window)
{
    cv_arena *a = cv_arena_new();
    cv_kp_params p = cv_kp_defaults(5);
    p.tolerance = 10000;
    size_t *b, n = cv_kp_total_fit(a, hyph4, NHYPH4, &p, &b);
    CHECK(same(b, n, (size_t[]){2, 4, 8, 11}, 4));
    p.hyphen_window = 3;
    p.hyphens_in_window = 1;
    n = cv_kp_total_fit(a, hyph4, NHYPH4, &p, &b);
    CHECK(n == 4 && flagged_in(b, 3) <= 1);
    p.hyphens_in_window = 2;
    n = cv_kp_total_fit(a, hyph4, NHYPH4, &p, &b);
    CHECK(same(b, n, (size_t[]){2, 4, 8, 11}, 4));
    cv_arena_free(a);
}

int main(void)
{
    RUN(badness);
    RUN(total_fit_beats_first_fit);
    RUN(hyphens_in_a_row);
    RUN(no_runts);
    RUN(hyphen_window);
    RUN(forced_break);
    RUN(overfull_box);
    RUN(ragged);
    RUN(runt);
    return harness_report("kp");
}
