/* design.h - RenderCV's `design:` as cvpdf layout keys.
 *
 * A RenderCV profile chooses its look with `design:`: a `theme` (classic,
 * engineeringresumes, engineeringclassic, sb2nov, moderncv, harvard, ink,
 * opal, ember) and options over it (page, colors, typography, links,
 * header, section_titles, sections, entries, templates).  cvpdf has one
 * model of a look, the layout (style.h): each theme is a shipped layout,
 * layouts/THEME.yaml, and cv_design_read() translates the options into a
 * layout tree laid over it (the same merge as `extends:`).  Nothing else
 * reads `design:`.
 *
 * The keys are checked as RenderCV checks them (an unknown key is an error
 * with a suggestion); values are checked when the layout is resolved
 * (style.c), at their position in the profile.  Options that the layout
 * model cannot express are named in one note.  docs/rendercv.md lists the
 * mapping.
 *
 * Everything is allocated in the arena and valid until cv_arena_free().
 */
#ifndef CV_DESIGN_H
#define CV_DESIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "date.h"
#include "error.h"
#include "yml.h"

/* The parts of `design:` that are not layout keys but change the text. */
typedef struct cv_design {
    const char *theme;              /* "classic" unless the profile names one */
    cv_pos pos;                     /* of `design:` */
    const cv_yml *layout;           /* layout keys over layouts/THEME.yaml */
    const char **time_spans;        /* sections.show_time_spans_in */
    size_t ntime_spans;
    const char *single_date, *date_range, *time_span;   /* templates; NULL: the locale's */
} cv_design;

/* The themes, in RenderCV's order, NULL-terminated. */
extern const char *const cv_design_themes[];

/* Read `design` (a mapping, or NULL/null for none) into *out.  Returns
 * false with err set for a key RenderCV would reject or a value of the
 * wrong shape. */
bool cv_design_read(cv_arena *a, const cv_yml *design, cv_design *out, cv_error *err);

/* Does `section` (a key or title) appear in show_time_spans_in?  RenderCV
 * compares snake_case titles: case and spaces are ignored. */
bool cv_design_time_span_in(const cv_design *d, const char *section);

/* RenderCV's time span of start - end ("2 years 10 months"), through
 * templates.time_span (HOW_MANY_YEARS YEARS HOW_MANY_MONTHS MONTHS):
 * years of 365 days, months of 30, the month begun counted.  `present`
 * is `today` (YYYY-MM-DD); NULL when there is no span or no today for a
 * present end.  The words are the locale's (year, years, month, months;
 * English when `loc` is NULL), as RenderCV takes them from `locale:`. */
const char *cv_design_time_span(cv_arena *a, const cv_design *d, const cv_date *start,
                                const cv_date *end, const char *today, const cv_locale *loc);

/* An entry's date range through design: templates: date_range when it is
 * of another shape than "START_DATE x END_DATE" (which is the locale's
 * `to`, doc.c): START_DATE and END_DATE replaced by the dates in `loc`
 * (END_DATE `present` for an ongoing one).  NULL when there is no such
 * template or the entry has no start date. */
const char *cv_design_date_range(cv_arena *a, const cv_design *d, const cv_date *start,
                                 const cv_date *end, const cv_locale *loc);

#endif
