/* display.h - the display list: what a résumé looks like, page by page.
 *
 * The display list is the seam between layout and output: pages of
 * positioned glyph runs (wrap.h's cv_run), rules, pictures and link
 * rectangles, in PDF points with the origin at the bottom-left of the
 * page, plus the document's bookmarks and information.  flow.c and
 * furniture.c make it (with cv_display_page(), cv_page_put_line() and
 * cv_page_add_region()); draw_hpdf.c writes it as a PDF and draw_dump.c
 * prints it as text for the tests.  Everything in it lives in the arena it
 * was made in, until cv_arena_free().
 */
#ifndef CV_DISPLAY_H
#define CV_DISPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "image.h"
#include "wrap.h"

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
    unsigned nlines;        /* lines placed so far (cv_run.line) */
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
    /* The shaper whose cluster code points (shape.h) the runs may hold,
     * for the text they stand for; NULL: none. */
    struct cv_shaper *shaper;
} cv_display;

/* A new, empty page at the end of `d`. */
cv_page *cv_display_page(cv_arena *a, cv_display *d);
/* Put a line's runs and links on a page with its origin at (x, y). */
void cv_page_put_line(cv_arena *a, cv_page *pg, const cv_line *ln, float x, float y);
/* Name a rectangle of the page where content goes (cv_region). */
void cv_page_add_region(cv_page *pg, const char *name, float x0, float y0, float x1, float y1);

/* The number the PDF's TJ array holds after glyph k of run r, in
 * thousandths of an em (positive: more space), as the PDF backend writes
 * it: the adjustment rounded to a tenth, none (0) below 0.05 or after the
 * last glyph.  The dump places glyphs with it, so that its positions are
 * the drawn ones. */
double cv_run_tj(const cv_run *r, size_t k);

#endif
