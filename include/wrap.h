/* wrap.h - from styled text to lines.
 *
 * cv_wrap() itemises spans into glyphs (choosing a face per code point
 * along the style's fallback chain), shapes each run with HarfBuzz for
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

/* A glyph as set: its code point (the PDF backend maps it to the font's
 * glyph), its advance `w` in thousandths of an em as the PDF's /W array
 * holds it, and the extra advance `adj` after it (kerning, justification)
 * that goes into the TJ array.  Glyph i advances by (w + adj) / 1000 * size
 * points, so what is measured is what is drawn. */
typedef struct cv_gl {
    uint32_t cp;
    int16_t w;        /* thousandths of an em, as libharu's /W */
    int16_t wide;     /* part of adj that belongs to the glyph's box: the gap
                         between Han and Latin, drawn from a twin font whose
                         /W is wider by this (pdf_font.h), so that a text
                         extractor sees no blank, hence no space */
    float adj;        /* extra advance after this glyph, thousandths of an em */
} cv_gl;

typedef struct cv_run {
    float x, y;       /* baseline origin */
    int face;
    bool synth_bold;
    float size;
    unsigned color;   /* 0xRRGGBB */
    cv_gl *g;
    size_t n;
    float width;      /* sum of advances, points */
    unsigned line;    /* on a page: which cv_page_put_line() call placed it (1, 2 ...) */
    unsigned logical; /* its first glyph's place in the line's text (bidi.h) */
    bool rtl;         /* right to left: g[] in visual order, drawn in logical */
    int tag;          /* its structure node (tags.h); 0: an artifact */
} cv_run;

typedef struct cv_rule {
    float x0, y0, x1, y1, width;
    unsigned color;
} cv_rule;

typedef struct cv_link {
    float x0, y0, x1, y1;
    const char *uri;
    unsigned line;    /* as cv_run's: 0 for a link of no line */
} cv_link;

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

typedef struct cv_line {
    cv_run *runs;            /* x relative to the line start, y = 0 */
    size_t nruns;
    cv_link *links;          /* relative to the line's origin and baseline */
    size_t nlinks;
    float width;             /* as set (justified lines: the measure) */
} cv_line;

/* Break `spans` into lines no wider than `width` points.  A word wider than
 * the measure is broken between grapheme clusters with a warning at `pos`; a
 * character no face in the chain has is warned about at `pos`.  Returns the
 * number of lines; *out is valid until cv_arena_free(). */
size_t cv_wrap(cv_arena *a, const cv_ctx *cx, const cv_span *spans, size_t nspans,
               const cv_textfmt *fmt, float width, cv_pos pos, cv_line **out,
               cv_error *err);

/* Width of `spans` set on one line, in points. */
float cv_measure(cv_arena *a, const cv_ctx *cx, const cv_span *spans,
                 size_t nspans, const cv_textfmt *fmt);

#endif
