/* kp.h - choosing line breaks: Knuth and Plass's total fit, and first fit.
 *
 * A paragraph is a list of boxes (material that is never broken), glue
 * (space that can stretch and shrink, and where a line may end) and
 * penalties (places a line may end at a cost, such as a hyphenation
 * point, which then adds a hyphen's width).  This is the model of
 * "Breaking Paragraphs into Lines" (Knuth and Plass, 1981) and of TeX.
 *
 * The list must end with a forced break (penalty <= -CV_KP_INF), normally
 * preceded by glue of infinite stretch (CV_KP_FIL) so that the last line is
 * set at its natural width.  Glue is a legal break only when a box comes
 * right before it; a penalty of CV_KP_INF or more is never a break.
 *
 * Both functions return the number of lines and set (*breaks)[k] to the
 * index of the item that ends line k, or return 0 when no set of breaks
 * keeps every line's badness within the tolerance.  They allocate from
 * the arena only.
 */
#ifndef CV_KP_H
#define CV_KP_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

#define CV_KP_INF 10000.0f
/* Stretch at least this large is infinite ("fil"): it absorbs any slack. */
#define CV_KP_FIL 1e6f

enum { CV_KP_BOX, CV_KP_GLUE, CV_KP_PENALTY };

typedef struct cv_kp_item {
    unsigned char type;
    bool flagged;            /* penalties: a hyphen break */
    float width;             /* penalties: the width added if the line ends here */
    float stretch, shrink;   /* glue */
    float penalty;           /* penalties */
} cv_kp_item;

typedef struct cv_kp_params {
    float width;             /* the measure */
    float tolerance;         /* largest badness accepted; negative: any line that is not overfull */
    float line_penalty;      /* added to every line's badness (TeX's \linepenalty, 10) */
    float flagged_demerits;  /* two hyphenated lines in a row (\doublehyphendemerits) */
    float fitness_demerits;  /* a tight line next to a loose one (\adjdemerits) */
    float final_hyphen_demerits; /* the last full line hyphenated */
    float line_stretch;      /* stretch every line has at its end: ragged right */
    int max_flagged_run;     /* at most this many hyphenated lines in a row (0: no limit) */
    float short_last_width;  /* a last line narrower than this (a runt) ... */
    float short_last_demerits; /* ... costs this much */
    int hyphen_window;       /* 2..5: no more than hyphens_in_window hyphenated lines */
    int hyphens_in_window;   /* in any hyphen_window lines in a row, within the
                                tolerance (0: no such rule) */
    bool no_runts;           /* a last line that is only the tail of a word hyphenated
                                before it, or narrower than short_last_width after a
                                hyphen, is outside any tolerance (the last pass takes
                                it only if nothing else answers) */
} cv_kp_params;

/* TeX's defaults for justified text of width `width`. */
cv_kp_params cv_kp_defaults(float width);

/* Total fit: the breaks with the least total demerits. */
size_t cv_kp_total_fit(cv_arena *a, const cv_kp_item *it, size_t n,
                       const cv_kp_params *p, size_t **breaks);

/* First fit: each line takes as much as fits (shrinking glue if it must),
 * then ends at the last legal break.  Tolerance is not consulted, so this
 * never fails unless one piece between two breaks is wider than the
 * measure. */
size_t cv_kp_first_fit(cv_arena *a, const cv_kp_item *it, size_t n,
                       const cv_kp_params *p, size_t **breaks);

/* The badness of a line of natural width `natural` with `stretch`, `shrink`
 * and `fil` infinite stretches set to `width`: 0 for a perfect fit, 100 for
 * a line stretched or shrunk by all it can, capped at 10000; larger than
 * CV_KP_INF when it would have to shrink more than it can.  *ratio gets the
 * adjustment ratio (1 = all the stretch used, -1 = all the shrink). */
float cv_kp_badness(float width, float natural, float stretch, float shrink,
                    int fil, float *ratio);

#endif
