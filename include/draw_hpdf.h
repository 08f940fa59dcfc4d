/* draw_hpdf.h - the PDF backend: a display list written with libharu.
 *
 * Fonts are subset with hb-subset and embedded as Type0 fonts of cvpdf's
 * own (pdf_font.h), text as one TJ array per run, links without border
 * boxes, bookmarks, page labels, document information (pdf_meta.h) and,
 * with d->pdfa, PDF/A-1b.  The same display list always gives the same
 * bytes.  The bytes go through a cv_out (output.h): atomically into place,
 * never over an input.
 */
#ifndef CV_DRAW_HPDF_H
#define CV_DRAW_HPDF_H

#include <stdbool.h>

#include "display.h"
#include "fontset.h"
#include "error.h"
#include "output.h"

/* Write the display list as a PDF at `path` ("-": the standard output).
 * `fs` is the fontset whose faces the runs name: each face comes from
 * there, with the glyphs of its characters and their widths, as the layout
 * measured them; a complex script's glyphs come from the display list
 * (cv_cluster).  The file goes through cv_out_open(path, inputs) (see
 * output.h), so a failure never leaves a partial PDF or clobbers an
 * existing one, and an input of the run is never overwritten.  Returns
 * false with err set. */
bool cv_draw_pdf(const cv_display *d, const cv_fontset *fs, const char *path,
                 const cv_inputs *inputs, cv_error *err);
/* Several résumés in one PDF (a CV book), made a résumé at a time so that
 * only one display list need be in memory:
 *   k = cv_book_new(fs, true);
 *   cv_book_note(k, d) for every résumé (the code points each face draws:
 *     each face is subset and embedded once, for all of them);
 *   cv_book_add(k, d, err) for every résumé again, in order (its pages, a
 *     bookmark for the person with their sections beneath, page labels
 *     "Name 1", "Name 2"...);
 *   cv_book_write(k, title, path, inputs, err); cv_book_free(k).
 * The book's author is everyone in it; PDF/A and the dates follow the
 * first résumé.  With `book` false it is cv_draw_pdf() by steps. */
typedef struct cv_book cv_book;
cv_book *cv_book_new(const cv_fontset *fs, bool book);
void cv_book_note(cv_book *k, const cv_display *d);
bool cv_book_add(cv_book *k, const cv_display *d, cv_error *err);
bool cv_book_write(cv_book *k, const char *title, const char *path, const cv_inputs *inputs,
                   cv_error *err);
void cv_book_free(cv_book *k);

/* The same PDFs in memory rather than in a file (for draw_raster.h, which
 * draws their pages as PNG or SVG): *bytes is malloc'd, *len long, the
 * caller's to free(); NULL with err set (at `path`, the name the pages will
 * be written under) on failure.  The bytes are those cv_draw_pdf() and
 * cv_book_write() would write. */
bool cv_draw_pdf_bytes(const cv_display *d, const cv_fontset *fs, const char *path, char **bytes,
                       size_t *len, cv_error *err);
bool cv_book_bytes(cv_book *k, const char *title, const char *path, char **bytes,
                   size_t *len, cv_error *err);

#endif
