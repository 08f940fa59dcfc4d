/* template.h - entry templates and profile text as spans.
 *
 * A layout restyles entries without code through templates: lines of
 * markup with upper-case placeholders (`**COMPANY**, POSITION`), which
 * cv_template_expand() fills from an entry's fields (fields.h names them)
 * and the running header and footer fill from the page (PAGE_NUMBER,
 * TOTAL_PAGES, ...).  A placeholder is a whole word: the characters beside
 * it are not letters, digits or `_`.
 *
 * Empty placeholders disappear together with the separator text around
 * them: "*DEGREE in AREA*" without a degree becomes "*AREA*" (but an
 * opening bracket against a shown value stays: "URL (JOURNAL)" is
 * "(JOURNAL)"; and a word of its own markup stays: "*DEGREE* *in* *AREA*"
 * is "*in* *AREA*", as RenderCV has them), and a line
 * whose placeholders are all empty disappears (docs/layouts.md, "Empty
 * placeholders", gives the rule).  A value is markup itself; it takes the
 * style and link of the place it fills.
 *
 * Everything returned is allocated in the arena given and valid until
 * cv_arena_free().  Nothing here fails or reports anything.
 */
#ifndef CV_TEMPLATE_H
#define CV_TEMPLATE_H

#include <stddef.h>

#include "arena.h"
#include "doc.h"
#include "error.h"
#include "markup.h"

/* What the running header and footer show besides the profile. */
typedef struct cv_pagevars {
    size_t page, pages;      /* PAGE_NUMBER (1-based), TOTAL_PAGES */
    const char *date;        /* CURRENT_DATE as markup, or NULL (LAST_UPDATED is then empty too) */
} cv_pagevars;

/* Expand one template line for entry `e` into spans.  Returns the number
 * of spans; 0 (and *out NULL) when every placeholder was empty. */
size_t cv_template_expand(cv_arena *a, const char *tmpl, const cv_entry *e,
                          const cv_doc *doc, cv_span **out);

/* The same for a running header or footer slot: NAME is the owner's name,
 * EMAIL, PHONE, WEBSITE and LOCATION the profile's, and the page's values. */
size_t cv_template_expand_page(cv_arena *a, const char *tmpl, const cv_doc *doc,
                               const cv_pagevars *pv, cv_span **out);

/* Where a template line's text comes from, for diagnostics: the position
 * of the first of its placeholders that has a value, else the entry's. */
cv_pos cv_template_pos(const char *tmpl, const cv_entry *e);

/* Profile text as spans: its markup, then settings.bold_keywords (each
 * whole-word occurrence of a keyword set in bold), over `style`. */
size_t cv_template_text(cv_arena *a, const cv_doc *doc, const char *s, unsigned style,
                        cv_span **out);

/* Markup for a link: `[shown](url)`, `shown` escaped. */
const char *cv_template_link(cv_arena *a, const char *shown, const char *url);

/* A URL as shown: without `http://` or `https://`, without a trailing `/`. */
const char *cv_template_url_shown(cv_arena *a, const char *url);

#endif
