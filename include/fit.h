/* fit.h - fit a résumé to N pages (--fit-pages, the layout's fit_pages:).
 *
 * cv_fit() shrinks the spacing, then the type (down to the layout's
 * floors), then the margins, until the résumé fits.  Each try composes and
 * paginates in a scratch arena of its own, freed before returning; nothing
 * is drawn, and warnings of the tries are not reported (the real
 * composition reports them).  The tries set their paragraphs through the
 * profile's paragraph cache (pc->sc, wrap.h), so a try that changes the
 * spacing alone sets nothing again.
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

/* Compose `doc` in `pc` (compose.h), and where the layout widens the main
 * column after the sidebar (columns.sidebar.widen_main), paginate both
 * columns (flow.h) to find where, and end the composition with
 * cv_compose_widen().  What every composition that is paginated is made
 * with.  Returns false when err is set. */
bool cv_fit_compose(cv_arena *a, const cv_doc *doc, const cv_ctx *pc, const cv_image *photo,
                    cv_composed *out, cv_error *err);

/* cv_fit_compose() as a trial, silently (cv_error_init_silent()): for a
 * composition that is measured, not drawn (the tries below), or whose
 * warnings an earlier composition of the same profile gave (render.c's
 * after the last-page rule).  False when it fails. */
bool cv_fit_trial(cv_arena *a, const cv_doc *doc, const cv_ctx *pc, const cv_image *photo,
                  cv_composed *out);

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
