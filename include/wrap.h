/* wrap.h - from styled text to lines.
 *
 * cv_wrap() itemises spans into glyphs (choosing a face per code point
 * along the context's fallback chain, ctx.h: the layout's faces, localised
 * for the profile's language, or a part's), shapes each run with HarfBuzz for
 * kerning, finds break opportunities with libunibreak (UAX #14, so Chinese
 * breaks between characters) plus kinsoku, URL and hyphenation rules, and
 * chooses the breaks with Knuth-Plass total fit (kp.h) or first fit.  Lines
 * are justified or ragged as asked; none is ever wider than the measure.
 *
 * Cost: time and memory in proportion to the text.  A paragraph of more
 * than some 16,000 characters is broken a window at a time (wrap.c), and
 * needs 16 bytes a character while it is set, beside the lines it returns.
 */
#ifndef CV_WRAP_H
#define CV_WRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "error.h"
#include "markup.h"
#include "ctx.h"
#include "display.h"

typedef struct cv_textfmt {
    float size;
    unsigned color;
    unsigned link_color;
    unsigned style;          /* base CV_STYLE_* bits */
    bool justify;
    bool hyphenate;          /* words may be hyphenated (libhyphen) */
    const char *hyphenation; /* the language's patterns (engine.h); NULL: en-US */
    bool greedy;             /* first fit instead of Knuth-Plass total fit */
    float tracking;          /* extra space between letters, thousandths of an em */
    bool small_caps;         /* lowercase letters as small capitals: the face's own
                                (OpenType smcp), else its capitals at
                                CV_SMALL_CAPS_SCALE of the size, a little spaced;
                                the text still reads in its own case */
} cv_textfmt;

#define CV_SMALL_CAPS_SCALE 0.8f


/* Break `spans` into lines no wider than `width` points, set in the faces,
 * language and direction of `cx` (its layout gives the gap between Han and
 * Latin and lining figures).  A word wider than
 * the measure is broken between grapheme clusters with a warning at `pos`; a
 * character no face in the chain has is warned about at `pos`.  Returns the
 * number of lines; *out is valid until cv_arena_free(). */
size_t cv_wrap(cv_arena *a, const cv_ctx *cx, const cv_span *spans, size_t nspans,
               const cv_textfmt *fmt, float width, cv_pos pos, cv_line **out,
               cv_error *err);

/* Width of `spans` set on one line, in points. */
float cv_measure(cv_arena *a, const cv_ctx *cx, const cv_span *spans,
                 size_t nspans, const cv_textfmt *fmt);

/* The complex-script glyphs of every run of `d` (cv_cluster: the glyph,
 * its text, its offset), from what the shaper made of them, into
 * d->clusters (allocated in `a`), so that back ends read them from the
 * display list. */
void cv_wrap_clusters(cv_arena *a, const cv_ctx *cx, cv_display *d);

#endif
