/* kp.c - choosing line breaks.  See kp.h.
 *
 * Total fit walks the items once, keeping a list of "active" breaks: those
 * from which a line could still reach the current position without being
 * overfull.  At each legal break it tries a line from every active break,
 * computes its badness and demerits, and remembers for each fitness class
 * (tight, decent, loose, very loose) and each count of hyphenated lines in
 * a row the cheapest way to get here.  Those become new active breaks.  An
 * active break is dropped once a line from it would be overfull, or at a
 * forced break.  The work is linear in the paragraph times the number of
 * breaks one line can span.
 *
 * Demerits follow TeX: (line_penalty + badness)^2, plus or minus the
 * penalty squared, plus extra for two hyphenated lines in a row, for a
 * hyphenated second-last line, and for lines of very different tightness
 * next to each other.  With no_runts, a last line that is only the tail of
 * a word hyphenated on the line before, or narrower than short_last_width
 * after a hyphen (a runt), is outside any tolerance;
 * the last pass takes it only when nothing else answers.
 */
#include "kp.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define RUNS 4                /* run-of-hyphens slots per fitness class */
#define HISTS 16              /* with hyphen_window: the last four lines' hyphens */
_Static_assert(4 * HISTS <= 64, "a bit for each fitness class and slot");

typedef struct node {
    size_t pos;               /* the break's item; SIZE_MAX for the start */
    size_t start;             /* first item of the line after the break */
    double demerits;
    int fitness, run;
    unsigned hist;            /* bit k: the line k before this break's is hyphenated */
    bool flagged;
    struct node *prev;        /* the break before, for reading the result */
    struct node *next;        /* the active list */
} node;

typedef struct sums {
    double *w, *y, *z;        /* widths, stretch, shrink of items [0, i) */
    size_t *fil;              /* infinite stretches in [0, i) */
    size_t *spaces;           /* glue a line may end at (word spaces) in [0, i) */
} sums;

cv_kp_params cv_kp_defaults(float width)
{
    return (cv_kp_params){.width = width, .tolerance = 200, .line_penalty = 10,
                          .flagged_demerits = 10000, .fitness_demerits = 10000,
                          .final_hyphen_demerits = 5000, .line_stretch = 0,
                          .max_flagged_run = 2};
}

float cv_kp_badness(float width, float natural, float stretch, float shrink,
                    int fil, float *ratio)
{
    const float eps = 0.005f;
    float slack = width - natural, r;
    if (slack >= 0)
        r = fil > 0 ? 0 : stretch > 0 ? slack / stretch : slack > eps ? 1e4f : 0;
    else
        r = shrink > 0 ? slack / shrink : slack < -eps ? -1e4f : 0;
    if (r < -1 && slack >= -eps)
        r = -1;               /* overfull by a rounding error only */
    *ratio = r;
    if (r < -1)
        return 2 * CV_KP_INF;
    double b = 100.0 * fabs((double)r) * r * r;
    return b > CV_KP_INF ? CV_KP_INF : (float)b;
}

static bool is_forced(const cv_kp_item *x)
{
    return x->type == CV_KP_PENALTY && x->penalty <= -CV_KP_INF;
}

/* A line may end at item b. */
static bool legal(const cv_kp_item *it, size_t b)
{
    if (it[b].type == CV_KP_GLUE)
        return b > 0 && it[b - 1].type == CV_KP_BOX;
    return it[b].type == CV_KP_PENALTY && it[b].penalty < CV_KP_INF;
}

/* The first item of a line that starts at j: glue and penalties there are
 * discarded, up to the next box or forced break. */
static size_t skip(const cv_kp_item *it, size_t n, size_t j)
{
    while (j < n && it[j].type != CV_KP_BOX && !is_forced(&it[j]))
        j++;
    return j;
}

static void make_sums(cv_arena *a, const cv_kp_item *it, size_t n, sums *s)
{
    s->w = cv_arena_alloc(a, (n + 1) * sizeof *s->w);
    s->y = cv_arena_alloc(a, (n + 1) * sizeof *s->y);
    s->z = cv_arena_alloc(a, (n + 1) * sizeof *s->z);
    s->fil = cv_arena_alloc(a, (n + 1) * sizeof *s->fil);
    s->spaces = cv_arena_alloc(a, (n + 1) * sizeof *s->spaces);
    s->w[0] = s->y[0] = s->z[0] = 0;
    s->fil[0] = s->spaces[0] = 0;
    for (size_t i = 0; i < n; i++) {
        bool counts = it[i].type != CV_KP_PENALTY;
        bool fil = it[i].type == CV_KP_GLUE && it[i].stretch >= CV_KP_FIL;
        s->w[i + 1] = s->w[i] + (counts ? it[i].width : 0);
        s->y[i + 1] = s->y[i] + (counts && !fil ? it[i].stretch : 0);
        s->z[i + 1] = s->z[i] + (counts ? it[i].shrink : 0);
        s->fil[i + 1] = s->fil[i] + fil;
        s->spaces[i + 1] = s->spaces[i] + (it[i].type == CV_KP_GLUE && !fil && legal(it, i));
    }
}

/* Badness of the line [start, b) ending at break b. */
static float line_badness(const cv_kp_item *it, const sums *s, const cv_kp_params *p,
                          size_t start, size_t b, float *ratio)
{
    double natural = s->w[b] - s->w[start];
    if (it[b].type == CV_KP_PENALTY)
        natural += it[b].width;
    return cv_kp_badness(p->width, (float)natural,
                         (float)(s->y[b] - s->y[start]) + p->line_stretch,
                         (float)(s->z[b] - s->z[start]), (int)(s->fil[b] - s->fil[start]),
                         ratio);
}

/* The line [start, b) is certainly looser than `loose` allows (its slack
 * more than `loose` times its stretch, with a margin for rounding), so its
 * badness exceeds the tolerance: known without working it out.  Most of
 * the breaks a long active list is tried against are such lines, and CJK
 * text, which may break anywhere, keeps about a line's worth of breaks
 * active. */
static bool too_loose(const cv_kp_item *it, const sums *s, const cv_kp_params *p,
                      double loose, size_t start, size_t b)
{
    if (s->fil[b] != s->fil[start])
        return false;
    double natural = s->w[b] - s->w[start];
    if (it[b].type == CV_KP_PENALTY)
        natural += it[b].width;
    double stretch = s->y[b] - s->y[start] + p->line_stretch;
    return stretch > 0 && p->width - natural > stretch * loose * 1.0001 + 0.01;
}

static int bits(unsigned x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static int fitness_class(float r)
{
    return r < -0.5f ? 0 : r <= 0.5f ? 1 : r <= 1.0f ? 2 : 3;
}

static size_t read_breaks(cv_arena *a, const node *last, size_t **breaks)
{
    size_t nl = 0;
    for (const node *x = last; x && x->pos != SIZE_MAX; x = x->prev)
        nl++;
    size_t *out = cv_arena_alloc(a, (nl ? nl : 1) * sizeof *out);
    size_t k = nl;
    for (const node *x = last; x && x->pos != SIZE_MAX; x = x->prev)
        out[--k] = x->pos;
    *breaks = out;
    return nl;
}

size_t cv_kp_total_fit(cv_arena *a, const cv_kp_item *it, size_t n,
                       const cv_kp_params *p, size_t **breaks)
{
    *breaks = NULL;
    if (n == 0 || !is_forced(&it[n - 1]))
        return 0;
    sums s;
    make_sums(a, it, n, &s);
    const int maxrun = p->max_flagged_run > 0 ? p->max_flagged_run : RUNS - 1;

    /* Badness 100 r^3 is within the tolerance up to this ratio r. */
    const double loose = p->tolerance >= 0 ? cbrt(p->tolerance / 100.0) : HUGE_VAL;

    node *active = cv_arena_alloc(a, sizeof *active);
    *active = (node){.pos = SIZE_MAX, .start = skip(it, n, 0), .fitness = 1};

    for (size_t b = 0; b < n; b++) {
        if (!legal(it, b))
            continue;
        bool forced = is_forced(&it[b]);
        bool flagged = it[b].type == CV_KP_PENALTY && it[b].flagged;
        /* The best way here for each fitness class and slot: those with
         * a bit in `has` (bit c * HISTS + slot) are set. */
        double best[4][HISTS];
        node *from[4][HISTS];
        unsigned hist_of[4][HISTS];
        uint64_t has = 0;
        int ncand = 0;
        node *dropped = NULL;

        node **link = &active;
        for (node *x = active; x;) {
            node *next = x->next;
            bool drop = forced;
            if (x->start < b && !too_loose(it, &s, p, loose, x->start, b)) {
                float r;
                float bad = line_badness(it, &s, p, x->start, b, &r);
                if (r < -1)
                    drop = true;
                int run = flagged ? x->run + 1 : 0;
                /* A runt: the last line only the tail of a hyphenated
                 * word ("ker- / nels.", no space in it) or narrower than
                 * short_last_width after a hyphen; never within the
                 * tolerance. */
                bool runt = p->no_runts && forced && x->flagged && b == n - 1 &&
                            (s.w[b] - s.w[x->start] < p->short_last_width ||
                             s.spaces[b] == s.spaces[x->start]);
                /* Hyphens in this line and the hyphen_window - 1 before. */
                unsigned hist = ((x->hist << 1) | flagged) & 0x1F;
                bool crowded = p->hyphen_window > 1 &&
                               bits(hist & ((1u << p->hyphen_window) - 1)) >
                                   p->hyphens_in_window;
                bool ok = r >= -1 && (p->tolerance < 0 || bad <= p->tolerance) &&
                          !(p->max_flagged_run > 0 && run > p->max_flagged_run) &&
                          !((runt || crowded) && p->tolerance >= 0);
                if (ok) {
                    if (run > maxrun)
                        run = maxrun;
                    double d = p->line_penalty + bad;
                    d *= d;
                    if (it[b].type == CV_KP_PENALTY && !forced)
                        d += it[b].penalty >= 0 ? (double)it[b].penalty * it[b].penalty
                                                : -(double)it[b].penalty * it[b].penalty;
                    if (flagged && x->flagged)
                        d += p->flagged_demerits;
                    if (b == n - 1 && x->flagged)
                        d += p->final_hyphen_demerits;
                    if (forced && s.w[b] - s.w[x->start] < p->short_last_width)
                        d += p->short_last_demerits;
                    if (runt)
                        d += 1e9;     /* the last pass: only if nothing else answers */
                    if (crowded)
                        d += 1e8;
                    int c = fitness_class(r);
                    if (abs(c - x->fitness) > 1)
                        d += p->fitness_demerits;
                    d += x->demerits;
                    int slot = p->hyphen_window > 1 ? (int)(hist & 0xF) : run;
                    uint64_t bit = (uint64_t)1 << (c * HISTS + slot);
                    if (!(has & bit) || d < best[c][slot]) {
                        best[c][slot] = d;
                        from[c][slot] = x;
                        hist_of[c][slot] = hist & 0xF;
                        has |= bit;
                        ncand++;
                    }
                }
            }
            if (drop) {
                *link = next;
                if (!dropped || x->start > dropped->start)
                    dropped = x;      /* the latest break: the shortest overfull line */
            } else {
                link = &x->next;
            }
            x = next;
        }

        /* Nothing can reach this break and nothing is left: in the last
         * pass, accept an overfull line from the latest break dropped rather
         * than fail (TeX's "artificial demerits"). */
        if (!ncand && !active && dropped && p->tolerance < 0 && dropped->start < b) {
            from[1][0] = dropped;
            best[1][0] = dropped->demerits;
            has |= (uint64_t)1 << (1 * HISTS + 0);
            hist_of[1][0] = ((dropped->hist << 1) | flagged) & 0xF;
            ncand = 1;
        }
        /* In the order of c, then r (the active list's order decides
         * between equal demerits later). */
        for (uint64_t m = has; m; m &= m - 1) {
            int c = __builtin_ctzll(m) / HISTS, r = __builtin_ctzll(m) % HISTS;
            int run = p->hyphen_window > 1 ? 0 : r;
            if (p->hyphen_window > 1)         /* the run: the hyphens at the end of hist */
                for (unsigned h = hist_of[c][r]; (h & 1) && run < maxrun; h >>= 1)
                    run++;
            node *y = cv_arena_alloc(a, sizeof *y);
            *y = (node){.pos = b, .start = skip(it, n, b + 1), .demerits = best[c][r],
                        .fitness = c, .run = run, .hist = hist_of[c][r],
                        .flagged = flagged, .prev = from[c][r],
                        .next = active};
            active = y;
        }
        if (!active)
            return 0;
    }

    node *bestn = NULL;
    for (node *x = active; x; x = x->next)
        if (x->pos == n - 1 && (!bestn || x->demerits < bestn->demerits))
            bestn = x;
    if (!bestn)
        return 0;
    return read_breaks(a, bestn, breaks);
}

size_t cv_kp_first_fit(cv_arena *a, const cv_kp_item *it, size_t n,
                       const cv_kp_params *p, size_t **breaks)
{
    *breaks = NULL;
    if (n == 0 || !is_forced(&it[n - 1]))
        return 0;
    sums s;
    make_sums(a, it, n, &s);
    size_t cap = 8, nl = 0;
    size_t *out = cv_arena_alloc(a, cap * sizeof *out);
    size_t start = skip(it, n, 0), last = SIZE_MAX;
    int run = 0, last_run = 0;
    for (size_t b = 0; b < n; b++) {
        if (!legal(it, b) || start >= b) {
            if (start >= b && is_forced(&it[b]))
                start = skip(it, n, b + 1);   /* an empty line: nothing to end */
            continue;
        }
        bool flagged = it[b].type == CV_KP_PENALTY && it[b].flagged;
        float r;
        line_badness(it, &s, p, start, b, &r);
        bool fits = r >= -1;
        bool allowed = !(flagged && p->max_flagged_run > 0 && run >= p->max_flagged_run);
        size_t brk = SIZE_MAX;
        if (fits && is_forced(&it[b])) {
            brk = b;
        } else if (fits) {
            if (allowed) {
                last = b;
                last_run = flagged ? run + 1 : 0;
            }
            continue;
        } else {
            brk = last != SIZE_MAX ? last : b;   /* b: one piece wider than the measure */
            if (last == SIZE_MAX)
                last_run = flagged ? run + 1 : 0;
        }
        CV_PUSH(a, out, nl, cap, brk);
        run = brk == b && is_forced(&it[b]) ? 0 : last_run;
        start = skip(it, n, brk + 1);
        last = SIZE_MAX;
        if (brk != b)
            b = brk;          /* look again at the breaks after the one taken */
        else if (is_forced(&it[b]))
            run = 0;
    }
    *breaks = out;
    return nl;
}
