/* flow.h - from document to pages.
 *
 * Two stages.  cv_compose() turns a document and a style into a vertical
 * list: unbreakable items (a line of text, an entry's header block, a
 * section title with its rule), each with the space above it and whether a
 * page may break after it.  cv_flow() cuts that list into pages and places
 * everything, producing the display list.
 *
 * Keep rules set by cv_compose():
 *   - a section title stays with its first entry's header;
 *   - an entry's header stays with the first line of its content;
 *   - an entry of at most CV_KEEP_ENTRY_LINES items is never split;
 *   - a paragraph or bullet of two or three lines is never split, and a
 *     longer one keeps at least two lines on each side of a break (no
 *     widows or orphans).
 * Space above an item is dropped when the item starts a page.
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

#define CV_KEEP_ENTRY_LINES 4

typedef struct cv_piece {
    const cv_line *line;
    float dx, dy;            /* line origin: right of the left margin, below the item top */
} cv_piece;

typedef struct cv_vrule {
    float x0, x1, dy, width; /* horizontal rule, dy below the item top */
    unsigned color;
} cv_vrule;

typedef struct cv_vitem {
    float height, space_before;
    bool keep_with_next;
    cv_piece *pieces;
    size_t npieces, cpieces;
    cv_vrule *rules;
    size_t nrules, crules;
    const char *what;        /* "title of section 'Experience'", for messages */
} cv_vitem;

typedef struct cv_vlist {
    cv_vitem *items;
    size_t n, cap;
} cv_vlist;

/* Compose `doc` in `st` into `out`.  Warnings (missing glyphs, overlong
 * words) are reported through err; returns false on an error. */
bool cv_compose(cv_arena *a, const cv_doc *doc, const cv_style *st, cv_vlist *out,
                cv_error *err);

/* Paginate and place; never fails (an item taller than a page is placed
 * alone on its page). */
cv_display *cv_flow(cv_arena *a, const cv_vlist *vl, const cv_style *st);

/* Document information for the PDF from the profile and layout. */
void cv_display_set_info(cv_arena *a, cv_display *d, const cv_doc *doc,
                         const cv_style *st);

/* Expand one template line for an entry into spans (exposed for tests).
 * Returns the number of spans; 0 when every placeholder was empty. */
size_t cv_template_expand(cv_arena *a, const char *tmpl, const cv_entry *e,
                          const cv_doc *doc, cv_span **out);

#endif
