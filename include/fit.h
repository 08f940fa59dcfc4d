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
#include "compose.h"
#include "ctx.h"
#include "doc.h"
#include "display.h"
#include "error.h"
#include "style.h"

/* Fit `doc`, with `photo` (or NULL), in `pages` pages.  On success `*out`
 * is the layout to render with (pc->lay's, scaled) and `*what` says what changed ("spacing at
 * 80%, font size 10pt -> 9.4pt"), or is NULL when the résumé fits as it
 * is; `*what` is allocated in `a`, valid until cv_arena_free(), and `*out`
 * shares pc->lay's strings.  On failure returns false and err says how many
 * lines overflow and in which sections. */
bool cv_fit(cv_arena *a, const cv_doc *doc, const cv_ctx *pc, const cv_image *photo,
            size_t pages, cv_style *out, const char **what, cv_error *err);

/* The last-page rule: when `doc` takes two to twelve pages and its last page
 * is less than st->pull_back_below full (its fullest column), try to set
 * it in one page fewer by tightening the spacing alone, down to the
 * layout's fit.spacing_floor (never the type nor the margins).  Returns
 * true and `*out` and `*what` as cv_fit() does when that works ("last page
 * 12% full: 4 pages -> 3, spacing at 86%"); false, with `*what` saying why
 * not (or NULL when the last page is full enough), and *out = *pc->lay, when
 * it does not.  Nothing is reported.  `have`, when not NULL, is `doc` already
 * composed in `pc` (the common case, where the last page is full enough,
 * then costs a pagination, not another composition). */
bool cv_fit_pull_back(cv_arena *a, const cv_doc *doc, const cv_ctx *pc,
                      const cv_image *photo, const cv_composed *have, cv_style *out,
                      const char **what);

#endif
