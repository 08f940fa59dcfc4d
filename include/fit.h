/* fit.h - fit a résumé to N pages (--fit-pages, the layout's fit_pages:).
 *
 * cv_fit() shrinks the spacing, then the type (down to the layout's
 * floors), then the margins, until the résumé fits.  Each try composes and
 * paginates in a scratch arena of its own, freed before returning; nothing
 * is drawn, and warnings of the tries are not reported (the real
 * composition reports them).
 */
#ifndef CV_FIT_H
#define CV_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "doc.h"
#include "display.h"
#include "error.h"
#include "style.h"

/* Fit `doc`, with `photo` (or NULL), in `pages` pages.  On success `*out`
 * is the style to render with and `*what` says what changed ("spacing at
 * 80%, font size 10pt -> 9.4pt"), or is NULL when the résumé fits as it
 * is; `*what` is allocated in `a`, valid until cv_arena_free(), and `*out`
 * shares `st`'s strings.  On failure returns false and err says how many
 * lines overflow and in which sections. */
bool cv_fit(cv_arena *a, const cv_doc *doc, const cv_style *st, const cv_image *photo,
            size_t pages, cv_style *out, const char **what, cv_error *err);

#endif
