/* bidi.h - right-to-left text: the Unicode bidirectional algorithm,
 * through FriBidi.
 *
 * Arabic is shaped before the line breaker (shape.h's cv_shape_rtl: HarfBuzz
 * joins, ligates and places marks, and each glyph is a cluster code point
 * in the order of the text); around it, right-to-left text is handled in
 * two steps:
 *
 *  - once a paragraph is broken, cv_bidi_line() puts each line's glyphs in
 *    visual order by the Unicode bidi algorithm (UAX #9) with the
 *    paragraph's base direction, mirroring brackets in right-to-left runs;
 *  - a résumé in a right-to-left language is mirrored as a whole by
 *    cv_bidi_mirror(): columns, dates, bullets, rules and pictures change
 *    sides, and each line keeps its own visual order and becomes flush
 *    right.
 *
 * FriBidi is opened with dlopen the first time a line needs it (syslib.h);
 * a renderer asks cv_bidi_missing() whether it could not be.
 *
 * The PDF's text stays logical: each glyph's ToUnicode entry is the text it
 * stands for (pdf_font.h), and a right-to-left run is drawn in the order of
 * its text (draw_hpdf.c).
 */
#ifndef CV_BIDI_H
#define CV_BIDI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "display.h"
#include "shape.h"

/* The base direction of a paragraph by its first strong character (UAX #9
 * P2, P3): +1 left to right, -1 right to left, 0 none (and 0 when FriBidi
 * cannot be loaded). */
int cv_bidi_strong(uint32_t cp);

/* FriBidi is opened with dlopen by the first line that needs it.  When a
 * line (or cv_bidi_strong()) has needed it since the last call and it could
 * not be opened, the error to give, naming the Debian package to install
 * (those lines were left in logical order); NULL otherwise. */
const char *cv_bidi_missing(void);

/* Line `ln` (runs in logical order, as cv_wrap sets them) in visual order:
 * runs cut where the direction changes, glyphs of right-to-left runs
 * reversed and their brackets mirrored, x positions laid anew from the
 * line's start.  `rtl`: the paragraph's base direction is right to left.
 * A line with no right-to-left character in a left-to-right paragraph is
 * left as it is.  A cluster code point (shape.h, from `sh`) takes the
 * direction of the text it stands for.  New runs are allocated in `a`. */
void cv_bidi_line(cv_arena *a, cv_line *ln, bool rtl, const cv_shaper *sh);

/* Mirror every page of `d` left for right: each line (the runs one
 * cv_page_put_line() call placed) moves as a whole, so that it stays in
 * visual order; rules, pictures, links and regions change sides; each
 * page's runs are then put in reading order from the right. */
void cv_bidi_mirror(cv_display *d);

#endif
