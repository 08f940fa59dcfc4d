/* draw.h - the display list and its two backends.
 *
 * The display list is the seam between layout and output: pages of
 * positioned glyph runs, rules and link rectangles, in PDF points with the
 * origin at the bottom-left of the page.  cv_draw_pdf() writes it with
 * libharu; cv_draw_dump() prints it as text for the tests.
 *
 * A run's glyphs are code points (the PDF backend writes them as UTF-16
 * codes; libharu maps them to glyphs).  Glyph i advances by
 * (w + adj) / 1000 * size points: `w` is the advance libharu writes in the
 * font's /W array and `adj` the extra (kerning, justification) that goes
 * into the TJ array, so the dump's positions are the drawn positions.
 */
#ifndef CV_DRAW_H
#define CV_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"
#include "error.h"
#include "fontset.h"

typedef struct cv_gl {
    uint32_t cp;
    int16_t w;        /* thousandths of an em, as libharu's /W */
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
} cv_run;

typedef struct cv_rule {
    float x0, y0, x1, y1, width;
    unsigned color;
} cv_rule;

typedef struct cv_link {
    float x0, y0, x1, y1;
    const char *uri;
} cv_link;

/* A decoded picture (image.h): 8-bit samples, gray (1 channel) or RGB (3),
 * rows top to bottom, any alpha already flattened on white. */
typedef struct cv_image {
    const char *path;
    unsigned width, height, channels;
    const unsigned char *pixels;    /* width * height * channels bytes */
} cv_image;

/* A picture placed on a page: (x, y) is its bottom-left corner. */
typedef struct cv_img {
    float x, y, w, h;
    const cv_image *im;
} cv_img;

/* A named rectangle of a page where content may go ("main", "sidebar",
 * "head", "page_header", "page_footer"): the tests check nothing leaves it. */
typedef struct cv_region {
    const char *name;
    float x0, y0, x1, y1;
} cv_region;

#define CV_MAX_REGIONS 6

/* A bookmark: a section title's top on a page (0-based). */
typedef struct cv_mark {
    const char *title;      /* UTF-8, no markup */
    size_t page;
    float y;
    int section;            /* its index in the profile */
} cv_mark;

typedef struct cv_page {
    cv_region regions[CV_MAX_REGIONS];
    size_t nregions;
    cv_run *runs;
    size_t nruns, cruns;
    cv_rule *rules;
    size_t nrules, crules;
    cv_link *links;
    size_t nlinks, clinks;
    cv_img *imgs;
    size_t nimgs, cimgs;
} cv_page;

typedef struct cv_display {
    float width, height;
    cv_page *pages;
    size_t npages, cpages;
    /* Bookmarks, in document order. */
    cv_mark *marks;
    size_t nmarks, cmarks;
    /* Document information (UTF-8, no markup). */
    const char *title, *author, *subject, *keywords;
    const char *lang;        /* BCP 47 language of the text ("en", "zh") */
    /* The PDF's dates (SOURCE_DATE_EPOCH); none when has_date is false. */
    bool has_date;
    long long epoch;
    bool pdfa;               /* write PDF/A-1b */
} cv_display;

/* Write the display list as a PDF at `path`: fonts subset with hb-subset
 * and embedded as Type0 fonts of our own (pdf.h), text as one TJ array per
 * run, links without border boxes, bookmarks, page labels, document
 * information and, with d->pdfa, PDF/A-1b.  The same display list always
 * gives the same bytes.  `eng` is the engine whose faces the runs name:
 * each face comes from its fontset, and its glyphs and widths from its
 * shaper, as the layout measured them.  The file is written to a temporary
 * file beside `path` and renamed into place, so a failure never leaves a
 * partial PDF or clobbers an existing one.  Returns false with err set. */
bool cv_draw_pdf(const cv_display *d, cv_engine *eng, const char *path, cv_error *err);
/* The temporary file is DIR/.cvpdf-PID-XXXXXX beside the target. */
#define CV_TEMP_PREFIX ".cvpdf-"
/* Several résumés in one PDF (a CV book), made a résumé at a time so that
 * only one display list need be in memory:
 *   k = cv_book_new(eng, true);
 *   cv_book_note(k, d) for every résumé (the code points each face draws:
 *     each face is subset and embedded once, for all of them);
 *   cv_book_add(k, d, err) for every résumé again, in order (its pages, a
 *     bookmark for the person with their sections beneath, page labels
 *     "Name 1", "Name 2"...);
 *   cv_book_write(k, title, path, err); cv_book_free(k).
 * The book's author is everyone in it; PDF/A and the dates follow the
 * first résumé.  With `book` false it is cv_draw_pdf() by steps. */
typedef struct cv_book cv_book;
cv_book *cv_book_new(cv_engine *eng, bool book);
void cv_book_note(cv_book *k, const cv_display *d);
bool cv_book_add(cv_book *k, const cv_display *d, cv_error *err);
bool cv_book_write(cv_book *k, const char *title, const char *path, cv_error *err);
void cv_book_free(cv_book *k);

/* Print the display list as text: one line per page, run, rule and link. */
void cv_draw_dump(const cv_display *d, const cv_fontset *fs, FILE *out);
/* The same, and after each run a line `  at X0 X1 ...` giving the x of every
 * glyph's origin as the PDF backend places it (--dump=glyphs). */
void cv_draw_dump_glyphs(const cv_display *d, const cv_fontset *fs, FILE *out);

#endif
