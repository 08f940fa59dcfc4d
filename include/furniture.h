/* furniture.h - the running header and footer of every page.
 *
 * The layout's page_header: and page_footer: each have three template
 * slots (left, centre, right) set in the top or bottom margin.  Their
 * placeholders (NAME, PAGE_NUMBER, TOTAL_PAGES, CURRENT_DATE, LAST_UPDATED,
 * EMAIL, PHONE, WEBSITE, LOCATION: template.h) need the page count, so the
 * furniture goes on after cv_flow().
 */
#ifndef CV_FURNITURE_H
#define CV_FURNITURE_H

#include "arena.h"
#include "doc.h"
#include "ctx.h"
#include "display.h"
#include "error.h"
#include "style.h"

/* Add the running header and footer to the pages of `d`.  `date` is the
 * "last updated" date as YYYY-MM-DD, or NULL (CURRENT_DATE and
 * LAST_UPDATED are then empty).  What is added is allocated in `a`, valid
 * until cv_arena_free().  Warnings (a glyph no font has) are reported
 * through err, once, for page 1's furniture. */
void cv_furnish(cv_arena *a, cv_display *d, const cv_doc *doc, const cv_ctx *pc,
                const char *date, cv_error *err);

#endif
