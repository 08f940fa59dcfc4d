/* flow.h - from document to pages.
 *
 * Two stages.  cv_compose() turns a document and a style into vertical
 * lists: the header across the top of page 1, then one column, or two when
 * the layout has a sidebar.  A list holds unbreakable items (a line of
 * text, an entry's header block, a line of a section title with its rule),
 * each with the space above it and the rule, if any, that forbids a page
 * break after it.  cv_flow() cuts each column into pages and places
 * everything, producing the display list.
 *
 * Keep rules set by cv_compose(), strongest last (the layout's
 * `pagination:` tunes the numbers):
 *   - keep_together: no break inside a section the layout or profile names
 *     (ignored for a section taller than a page);
 *   - an entry of at most `entry_lines` lines (4) is never split;
 *   - a paragraph or bullet keeps `orphans` lines (2) at the foot of a page
 *     and `widows` lines (2) at the head of the next, so bullets split
 *     between bullets or inside a long bullet only;
 *   - an entry's header stays with the first line of its content;
 *   - a section title stays with its first entry's header and `title_lines`
 *     lines (2) of it;
 *   - the document header is never split.
 * `page_break_before:` sections start a new page.  When no break on a page
 * is allowed, the weakest rule gives way first.  Space above an item is
 * dropped when the item starts a page, and gaps are never stretched.
 */
#ifndef CV_FLOW_H
#define CV_FLOW_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "doc.h"
#include "draw.h"
#include "error.h"
#include "style.h"
#include "wrap.h"

typedef enum cv_keep {
    CV_KEEP_NONE,        /* a page may break after this item */
    CV_KEEP_SECTION,
    CV_KEEP_ENTRY,
    CV_KEEP_LINES,
    CV_KEEP_HEADER,
    CV_KEEP_TITLE,
    CV_KEEP_HEAD,
    CV_NKEEPS
} cv_keep;

/* "an entry of up to 4 lines is never split", for --explain. */
const char *cv_keep_rule(cv_keep k);

enum { CV_COL_MAIN, CV_COL_SIDE, CV_NCOLS };

typedef struct cv_piece {
    const cv_line *line;
    float dx, dy;            /* line origin: right of the column's left edge, below the item top */
} cv_piece;

typedef struct cv_vrule {
    float x0, x1, dy, width; /* horizontal rule, dy below the item top */
    unsigned color;
} cv_vrule;

typedef struct cv_vimg {
    float dx, dy, w, h;      /* top-left corner below the item top */
    const cv_image *im;
} cv_vimg;

typedef struct cv_vitem {
    float height, space_before;
    unsigned char keep;      /* cv_keep: the rule forbidding a break after this item */
    bool break_before;       /* the title of a page_break_before section */
    bool is_header;          /* an entry's header block, a title: not content */
    unsigned short nlines;   /* lines of text in it (an entry header has several) */
    int section;             /* index in doc->sections; -1 for the header */
    int entry;               /* index in the section's entries; -1 for its title */
    const char *section_title;
    cv_piece *pieces;
    size_t npieces, cpieces;
    cv_vrule *rules;
    size_t nrules, crules;
    cv_vimg *imgs;
    size_t nimgs, cimgs;
    const char *what;        /* "the title of section 'Experience'", for messages */
} cv_vitem;

typedef struct cv_vlist {
    cv_vitem *items;
    size_t n, cap;
} cv_vlist;

/* A composed résumé: what cv_flow() paginates. */
typedef struct cv_composed {
    const cv_doc *doc;
    cv_vlist head;                 /* name, headline, contact: page 1, full width */
    float head_gap;                /* between the header and the columns */
    cv_vlist col[CV_NCOLS];        /* main column; sidebar (empty without one) */
    float col_x[CV_NCOLS], col_w[CV_NCOLS];  /* from the left margin */
    size_t ncols;
} cv_composed;

/* Why each page of a column starts where it does (--explain), and where
 * every item went (--fit-pages counts what overflows). */
typedef struct cv_break {
    int col;
    size_t page;             /* 0-based page the item starts */
    size_t item;             /* first item of that page */
    const char *reason;
} cv_break;

typedef struct cv_flowlog {
    cv_break *breaks;
    size_t nbreaks, cbreaks;
    size_t *page_of[CV_NCOLS];   /* page of each item of each column */
    const char **notes;          /* rules that had to give way */
    size_t nnotes, cnotes;
} cv_flowlog;

/* The profile's photo (a path relative to the profile), decoded and
 * scaled to about 300 dpi of the size the layout gives it; NULL with err
 * set when it cannot be read, NULL alone when there is no photo. */
const cv_image *cv_photo_load(cv_arena *a, const cv_doc *doc, const cv_style *st,
                              cv_error *err);

/* Compose `doc` in `st`, with `photo` (from cv_photo_load(), or NULL).
 * Warnings (missing glyphs, overlong words) are reported through err;
 * returns false on an error. */
bool cv_compose(cv_arena *a, const cv_doc *doc, const cv_style *st, const cv_image *photo,
                cv_composed *out, cv_error *err);

/* Paginate one list: out[i] is the page of item i.  `first` is the height
 * available on the first page, `full` on the others.  Fills `log` when it
 * is not NULL.  Returns the number of pages. */
size_t cv_paginate(cv_arena *a, const cv_vlist *vl, int col, float first, float full,
                   size_t *out, cv_flowlog *log);

/* Paginate every column of `c` without placing anything: page_of[k][i] is
 * the page of item i of column k.  Returns the number of pages. */
size_t cv_flow_pages(cv_arena *a, const cv_composed *c, const cv_style *st,
                     size_t **page_of, cv_flowlog *log);

/* Paginate and place the composed résumé; never fails (an item taller than
 * a page is placed alone on its page).  `log` may be NULL. */
cv_display *cv_flow(cv_arena *a, const cv_composed *c, const cv_style *st, cv_flowlog *log);

/* Put a line's runs and links on a page with its origin at (x, y). */
void cv_page_put_line(cv_arena *a, cv_page *pg, const cv_line *ln, float x, float y);
/* Name a rectangle of the page where content goes (draw.h's cv_region). */
void cv_page_add_region(cv_page *pg, const char *name, float x0, float y0, float x1, float y1);

/* The running header and footer of every page (needs the page count, so
 * after cv_flow()).  `date` is the "last updated" date or NULL. */
void cv_furnish(cv_arena *a, cv_display *d, const cv_doc *doc, const cv_style *st,
                const char *date, cv_error *err);

/* Fit to pages (--fit-pages): shrink the spacing, then the type (down to
 * the layout's floors), then the margins, until `doc` fits in `pages`
 * pages.  Each try composes and paginates in a scratch arena; nothing is
 * drawn.  On success `*out` is the style to render with and `what` says
 * what changed ("spacing 80%, font 10pt -> 9.4pt"); on failure err says
 * how many lines overflow and in which sections. */
bool cv_fit(cv_arena *a, const cv_doc *doc, const cv_style *st, const cv_image *photo,
            size_t pages, cv_style *out, const char **what, cv_error *err);

/* Document information for the PDF from the profile and layout. */
void cv_display_set_info(cv_arena *a, cv_display *d, const cv_doc *doc,
                         const cv_style *st);

/* Expand one template line for an entry into spans (exposed for tests).
 * Returns the number of spans; 0 when every placeholder was empty. */
size_t cv_template_expand(cv_arena *a, const char *tmpl, const cv_entry *e,
                          const cv_doc *doc, cv_span **out);

#endif
