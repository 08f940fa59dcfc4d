/* draw_raster.h - PNG and SVG pages: cvpdf's own PDF, drawn by poppler.
 *
 * The format of an output follows its name: "cv.pdf" is a PDF, "cv.png" a
 * PNG per page and "cv.svg" an SVG per page, written as cv-1.png,
 * cv-2.png... (always numbered, a single page too, so that a script or an
 * image viewer finds the same name whatever the page count).
 *
 * PNG and SVG pages are not drawn from the display list a second time: the
 * PDF that cvpdf would write is made in memory (draw_hpdf.h), opened with
 * poppler-glib and drawn with cairo, page by page, on a cairo image surface
 * (PNG, white paper, at --dpi) or a cairo SVG surface (vector, text as
 * glyph outlines).  What the preview shows is therefore what prints,
 * subset fonts, images and all, and no second drawing backend can drift
 * from the first.
 *
 * The files of one output are written as a set, through output.h: every
 * page goes to an unnamed temporary file first, and only when every page is
 * drawn and written are they renamed into place, one after another with
 * SIGINT, SIGTERM and SIGHUP held off, so that a failure or an interrupt
 * leaves the earlier set untouched (only SIGKILL or a failing rename can
 * leave it half-replaced).  No page may be an input of the run.  Pages of
 * an earlier, longer run (cv-3.png after a résumé shrank to two pages) are
 * removed afterwards, in order from the first page after the new last one,
 * but only while each is a regular file that cvpdf made (a PNG with
 * cvpdf's Software chunk, an SVG with cvpdf's comment) and no input; the
 * first that is not stops the sweep, with a note.
 */
#ifndef CV_DRAW_RASTER_H
#define CV_DRAW_RASTER_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "error.h"
#include "output.h"

typedef enum cv_format {
    CV_FORMAT_NONE,          /* the name has no extension cvpdf writes; none given */
    CV_FORMAT_PDF,
    CV_FORMAT_PNG,
    CV_FORMAT_SVG,
    CV_FORMAT_HTML,          /* one self-contained HTML5 page (html.h) */
    CV_FORMAT_MD             /* CommonMark (md.h) */
} cv_format;

/* The resolutions --dpi accepts, and its default. */
#define CV_DPI_MIN 18
#define CV_DPI_MAX 600
#define CV_DPI_DEFAULT 144

/* The format `path`'s extension names (".pdf", ".png", ".svg", in any
 * case), or CV_FORMAT_NONE. */
cv_format cv_format_of(const char *path);
/* "pdf", "png", "svg" (NULL for CV_FORMAT_NONE). */
const char *cv_format_ext(cv_format f);
/* The format called `name` ("pdf", "png", "svg", in any case), or
 * CV_FORMAT_NONE. */
cv_format cv_format_named(const char *name);

/* The file of page `page` (from 1) of the output `path`: "out/cv.png", 3
 * -> "out/cv-3.png" (a name without an extension gets "-3" at its end).
 * Valid until cv_arena_free(a). */
char *cv_raster_page_name(cv_arena *a, const char *path, size_t page);

/* Draw every page of the PDF `pdf` (`len` bytes, as cv_draw_pdf_bytes()
 * makes it) as `fmt` (CV_FORMAT_PNG at `dpi` dots per inch, or
 * CV_FORMAT_SVG) into the page files of `path`, as the set described
 * above, never over a file of `inputs` (may be NULL).  Notes (stale pages
 * left) go through err; the names of the pages, which err may point to,
 * are allocated in `a`.  Returns false with err set, at `path`, and nothing
 * changed. */
bool cv_raster_write(cv_arena *a, const void *pdf, size_t len, cv_format fmt, double dpi,
                     const char *path, const cv_inputs *inputs, cv_error *err);

#endif
