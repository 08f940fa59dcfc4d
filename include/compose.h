/* compose.h - a document and a style become vertical lists.
 *
 * cv_compose() turns a document and a style into vertical lists: the
 * header across the top of page 1, then one column, or two when the layout
 * has a sidebar.  A list holds unbreakable items (a line of text, an
 * entry's header block, a line of a section title with its rule), each
 * with the space above it and the rule, if any, that forbids a page break
 * after it.  flow.h cuts the lists into pages.
 *
 * Keep rules set by cv_compose(), strongest last (the layout's
 * `pagination:` tunes the numbers):
 *   - keep_together: no break inside a section the layout or profile names
 *     (ignored for a section taller than a page);
 *   - an entry of at most `entry_lines` lines (4) is never split;
 *   - a paragraph or bullet keeps `orphans` lines (2) at the foot of a page
 *     and `widows` lines (2) at the head of the next, so bullets split
 *     between bullets or inside a long bullet only; a section's last
 *     `widows` lines stay together, across entries;
 *   - an entry's header stays with the first line of its content;
 *   - a section title stays with its first entry's header and `title_lines`
 *     lines (2) of its section, across entries;
 *   - the document header is never split.
 * `page_break_before:` sections start a new page.
 *
 * With a sidebar (and columns.sidebar.widen_main), once the sidebar has
 * ended the main column goes on at the full measure.  Where that is takes
 * paginating, which is flow.h's, above this module: cv_compose() leaves
 * the main column narrow and out->widen set, its caller (fit.h's
 * cv_fit_compose()) paginates both columns and finds the first paragraph
 * on the page after the sidebar's last, and cv_compose_widen() sets the
 * rest of the main column again at the full width from there, putting
 * those items (marked `wide`, the first with `break_before`) in place of
 * the narrow ones.  An empty sidebar (nothing of the profile goes there)
 * gives the main column the full measure from its first item, with no
 * sidebar region on any page.
 *
 * Paragraphs are set through the profile's paragraph cache (pc->sc,
 * wrap.h) when it has one: composing again with other vertical spacing
 * sets nothing again, and the lines are shared with the cache.
 *
 * cv_compose() also builds the résumé's logical structure (tags.h,
 * out->tags): each piece of a line names the node its text belongs to,
 * each picture its Figure.
 *
 * Everything composed is allocated in the arena given and valid until
 * cv_arena_free(); the lists point into the document and the style, which
 * must live as long.
 */
#ifndef CV_COMPOSE_H
#define CV_COMPOSE_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "doc.h"
#include "display.h"
#include "error.h"
#include "ctx.h"
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

/* "an entry of up to 4 lines is never split", for --explain: a static
 * string ("?" for a value that is no rule). */
const char *cv_keep_rule(cv_keep k);

enum { CV_COL_MAIN, CV_COL_SIDE, CV_NCOLS };

typedef struct cv_piece {
    const cv_line *line;
    float dx, dy;            /* line origin: right of the column's left edge, below the item top */
    int tag;                 /* the structure node of its text (tags.h) */
} cv_piece;

typedef struct cv_vrule {
    float x0, x1, dy, width; /* horizontal rule, dy below the item top */
    unsigned color;
} cv_vrule;

typedef struct cv_vimg {
    float dx, dy, w, h;      /* top-left corner below the item top */
    const cv_image *im;
    int tag;                 /* its Figure (tags.h) */
} cv_vimg;

typedef struct cv_vitem {
    float height, space_before;
    unsigned char keep;      /* cv_keep: the rule forbidding a break after this item */
    bool break_before;       /* the title of a page_break_before section */
    bool is_header;          /* an entry's header block, a title: not content */
    bool wide;               /* main column set at the full measure (after the sidebar) */
    unsigned short block, line;  /* paragraph (or header, title) in its entry; line in it */
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

/* A composed résumé: what flow.h paginates. */
typedef struct cv_composed {
    const cv_doc *doc;
    cv_vlist head;                 /* name, headline, contact: page 1, full width */
    float head_gap;                /* between the header and the columns */
    cv_vlist col[CV_NCOLS];        /* main column; sidebar (empty without one) */
    float col_x[CV_NCOLS], col_w[CV_NCOLS];  /* from the left margin */
    size_t ncols;
    cv_tags *tags;                 /* the logical structure: what the pieces' tags name */
    bool widen;                    /* cv_compose_widen() is still to come */
    int *sec_tag0, *sec_tag1;      /* the nodes each section made: [tag0, tag1) */
} cv_composed;

/* Compose `doc` in context `pc` (its layout, faces, language), with `photo` (from cv_photo_load(), or NULL).
 * Warnings (missing glyphs, overlong words, an item taller than a page, a
 * profile's keep_together or page_break_before naming no section) are
 * reported through err; returns false when err is set (an error, or a
 * warning under --strict).  With out->widen set, the composition ends
 * with cv_compose_widen() (which warns about tall items then); fit.h's
 * cv_fit_compose() does both, and cv_fit_trial() both silently. */
bool cv_compose(cv_arena *a, const cv_doc *doc, const cv_ctx *pc, const cv_image *photo,
                cv_composed *out, cv_error *err);

/* The end of a composition with out->widen set: from item `b` of the main
 * column on (the first item of a paragraph on the sidebar's last page that
 * a page break may come before; 0: none, the column stays narrow -- unless
 * the sidebar is empty, when the whole column is set wide), the
 * main sections set again at the full width in place of the narrow items.
 * `a` and `pc` are cv_compose()'s.  Returns false when err is set. */
bool cv_compose_widen(cv_arena *a, const cv_ctx *pc, cv_composed *out, size_t b,
                      cv_error *err);

/* The header's connections as markup, each a link where it can be one
 * (`[email](mailto:...)`, the phone formatted as the layout says, the
 * website shown without its scheme, social networks), in the order the
 * profile writes them, with the layout's icons when it shows them; at
 * most CV_MAX_CONTACTS into items[], their positions into pos[].  The
 * Markdown and HTML writers show the same connections.  Strings are
 * allocated in `a`; an unknown icon name warns through `err` (may be
 * NULL). */
#define CV_MAX_CONTACTS 128
size_t cv_compose_contacts(cv_arena *a, const cv_ctx *pc, const cv_doc *doc,
                           const char **items, cv_pos *pos, cv_error *err);

/* RenderCV's time span of entry `e` of section `sec` ("2 years 10
 * months"), shown under its dates where the layout's
 * dates.show_time_spans_in names the section and the entry has a start
 * and end rather than one date; NULL otherwise.  The PDF, Markdown and HTML
 * writers show the same. Allocated in `a`. */
const char *cv_compose_time_span(cv_arena *a, const cv_style *st, const cv_doc *doc,
                                 const cv_section *sec, const cv_entry *e);

/* A one-line entry's label colon after Chinese or Japanese made the
 * full-width one ("**LABEL:** DETAILS" with LABEL 英语 reads "英语："),
 * whatever the layout: *spp replaced by a copy in `a` when it changes. */
void cv_compose_label_colon(cv_arena *a, cv_span **spp, size_t n);

/* The photo's alternate text: the profile's photo_alt, else "Photo of
 * NAME" in its language (the name alone would repeat the heading). */
const char *cv_compose_photo_alt(cv_arena *a, const cv_doc *doc);

/* Does the layout put section `s` of `doc` in its sidebar?  It does when
 * columns.sidebar's sections name it, unless they name every section of
 * the profile: then all of them are in the main column, which is never
 * left empty beside a full sidebar. */
bool cv_compose_in_sidebar(const cv_style *st, const cv_doc *doc, size_t s);

#endif
