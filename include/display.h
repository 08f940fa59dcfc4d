/* display.h - the display list: what a résumé looks like, page by page.
 *
 * The display list is the seam between layout and output: pages of
 * positioned glyph runs (cv_run, set by wrap.h), rules, pictures and link
 * rectangles, in PDF points with the origin at the bottom-left of the
 * page, plus the document's bookmarks and information.  flow.c and
 * furniture.c make it (with cv_display_page(), cv_page_put_line() and
 * cv_page_add_region()); draw_hpdf.c writes it as a PDF and draw_dump.c
 * prints it as text for the tests.  Runs and pictures carry the id of the
 * structure node (tags.h) they belong to, for the tagged PDF; the tree is
 * d->tags.  Everything in it lives in the arena it was made in, until
 * cv_arena_free().
 */
#ifndef CV_DISPLAY_H
#define CV_DISPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "image.h"
#include "tags.h"

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
    bool hyphen;      /* its last glyph is a hyphen the line break added (wrap.h),
                         not one of the text */
    bool wrapped;     /* its paragraph goes on on the next line (wrap.h): the
                         line is not the last of its text */
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

/* A line as set: its runs and links, relative to its origin on the
 * baseline; placed on a page by cv_page_put_line(). */
typedef struct cv_line {
    cv_run *runs;            /* x relative to the line start, y = 0 */
    size_t nruns;
    cv_link *links;          /* relative to the line's origin and baseline */
    size_t nlinks;
    float width;             /* as set (justified lines: the measure) */
} cv_line;

/* A glyph of a complex script (Devanagari, Arabic) that HarfBuzz chose,
 * as the display list carries it: the code point its cv_gl holds (a
 * cluster code point, shape.h's CV_CLUSTER_BASE on) stands for glyph
 * `gid` of the run's face and for `text`, drawn (dx, dy) thousandths of an
 * em off the pen; `mark` when the text begins with a combining mark. */
typedef struct cv_cluster {
    uint32_t cp;
    unsigned gid;
    const char *text;        /* UTF-8 */
    int dx, dy;
    bool mark;
} cv_cluster;

/* A picture placed on a page: (x, y) is its bottom-left corner. */
typedef struct cv_img {
    float x, y, w, h;
    const cv_image *im;
    int tag;                /* its structure node (tags.h): a Figure; 0: an artifact */
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
    bool pdfa;               /* write PDF/A: */
    int pdfa_part;           /*   1 (PDF/A-1b, also 0) or 2 (--pdfa=2b, 2u, 2a) */
    char pdfa_conformance;   /*   'b', 'u' or 'a' (2a: tagged, as pdfua) */
    /* The complex-script glyphs the runs hold (cv_cluster), by code
     * point, ascending: what they stand for, so that no back end asks the
     * shaper (cv_display_cluster()). */
    const cv_cluster *clusters;
    size_t nclusters;
    bool pdfua;              /* write PDF/UA-1 */
    bool untagged;           /* pdf: tagged: false (ignored with pdfua) */
    /* The logical structure (tags.h) the runs' and pictures' tags name;
     * NULL: an untagged PDF. */
    const cv_tags *tags;
} cv_display;

/* A new, empty page at the end of `d`. */
cv_page *cv_display_page(cv_arena *a, cv_display *d);
/* Put a line's runs and links on a page with its origin at (x, y). */
void cv_page_put_line(cv_arena *a, cv_page *pg, const cv_line *ln, float x, float y);
/* Name a rectangle of the page where content goes (cv_region). */
void cv_page_add_region(cv_page *pg, const char *name, float x0, float y0, float x1, float y1);

/* qsort()'s order of clusters: by code point. */
int cv_cluster_order(const void *a, const void *b);
/* The cluster of code point `cp` among cl[0..n), sorted by code point, or
 * NULL. */
const cv_cluster *cv_cluster_find(const cv_cluster *cl, size_t n, uint32_t cp);
/* The cluster code point `cp` of d's runs (cv_cluster), or NULL when `cp`
 * is none (an ordinary character). */
const cv_cluster *cv_display_cluster(const cv_display *d, uint32_t cp);

/* The number the PDF's TJ array holds after glyph k of run r, in
 * thousandths of an em (positive: more space), as the PDF backend writes
 * it: the adjustment rounded to a tenth, none (0) below 0.05 or after the
 * last glyph.  The dump places glyphs with it, so that its positions are
 * the drawn ones. */
double cv_run_tj(const cv_run *r, size_t k);

#endif
