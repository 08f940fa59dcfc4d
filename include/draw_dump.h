/* draw_dump.h - the display list as text: what the tests read.
 *
 * One line per page, region, bookmark, rule, picture, run and link, with
 * coordinates, so that layout is tested without parsing a PDF (--dump).
 */
#ifndef CV_DRAW_DUMP_H
#define CV_DRAW_DUMP_H

#include <stdio.h>

#include "display.h"
#include "fontset.h"

/* Print the display list as text: one line per page, run, rule and link. */
void cv_draw_dump(const cv_display *d, const cv_fontset *fs, FILE *out);
/* The same, and after each run a line `  at X0 X1 ...` giving the x of every
 * glyph's origin as the PDF backend places it (--dump=glyphs). */
void cv_draw_dump_glyphs(const cv_display *d, const cv_fontset *fs, FILE *out);

#endif
