/* date.h - résumé dates: reading them from a profile, comparing them, and
 * writing them out in the profile's language.
 *
 * A date is what RenderCV accepts: YYYY, YYYY-MM or YYYY-MM-DD (a month or
 * a day may have one digit), the word `present`, or - in an entry's `date`
 * only - free text such as "Fall 2023".  A date is checked when it is read
 * (month 1-12, the day within its month, leap years) and shown at its own
 * precision: a day shows as its month unless the date template has DAY.
 *
 * Strings returned are static, the YAML tree's, or in the arena: valid
 * until cv_arena_free().  Readers record the first problem in `err` at the
 * node at fault and return false.
 */
#ifndef CV_DATE_H
#define CV_DATE_H

#include <stdbool.h>

#include "arena.h"
#include "error.h"
#include "lang.h"
#include "yml.h"

typedef enum {
    CV_DATE_NONE = 0,
    CV_DATE_YEAR,     /* 2020 */
    CV_DATE_MONTH,    /* 2020-07 */
    CV_DATE_DAY,      /* 2020-07-15 */
    CV_DATE_PRESENT,  /* present */
    CV_DATE_TEXT      /* free text, only allowed in `date:` ("Fall 2023") */
} cv_date_kind;

typedef struct cv_date {
    cv_date_kind kind;
    int year, month, day;
    const char *text;   /* CV_DATE_TEXT: the text as written */
    cv_pos pos;
} cv_date;

/* The shape of `s` alone, values unchecked: CV_DATE_YEAR for four digits,
 * CV_DATE_MONTH for YYYY-M(M), CV_DATE_DAY for YYYY-M(M)-D(D), with the
 * numbers read into *year, *month, *day; CV_DATE_NONE for anything else. */
cv_date_kind cv_date_shape(const char *s, int *year, int *month, int *day);

/* Read the date field `field` from node `n` into *out (zeroed first;
 * absent or null leaves CV_DATE_NONE).  `free_text`: the field is an
 * entry's `date`, which also takes text that does not look like a date
 * ("Fall 2023", a year range "2019-2021").  `present` is refused in a
 * start_date.  Errors name the field and the value:
 *   invalid date '2023-13': month must be between 1 and 12
 *   invalid end_date 'soon': use YYYY, YYYY-MM, YYYY-MM-DD or present */
bool cv_date_read(const cv_yml *n, const char *field, bool free_text, cv_date *out,
                  cv_error *err);

/* Read an entry mapping's `date`, `start_date` and `end_date` and settle
 * them as RenderCV does: `date` wins (start and end are cleared); an end
 * alone becomes the single `date`; a start alone is ongoing (its end
 * becomes present).  An end before its start is an error at the end. */
bool cv_date_read_entry(const cv_yml *entry, cv_date *date, cv_date *start, cv_date *end,
                        cv_error *err);

/* <0, 0 or >0 as `a` is before, at or after `b`, compared at the precision
 * both have ("2020" is neither before nor after "2020-05"); present is
 * after every date.  Only for exact dates and present (not text, not none). */
int cv_date_cmp(const cv_date *a, const cv_date *b);

/* Format a date with the locale (NULL: English): "Jul 2019", "2019",
 * "Jul 15, 2019" (CV_DATE_DAY shows like MONTH unless the template has
 * DAY), the locale's "present", or the free text; NULL for CV_DATE_NONE.
 * The template's placeholders are RenderCV's: MONTH_ABBREVIATION,
 * MONTH_NAME (FULL_MONTH_NAME), MONTH, MONTH_IN_TWO_DIGITS, YEAR,
 * YEAR_IN_TWO_DIGITS, DAY, DAY_IN_TWO_DIGITS.  A date without a day drops
 * DAY and the text written right after it ("YEAR年MONTH月DAY日" ->
 * "2019年7月"). */
const char *cv_date_format(cv_arena *a, const cv_date *d, const cv_locale *loc);
/* The one expander of date placeholders: `tmpl` with MONTH_NAME,
 * MONTH_ABBREVIATION, MONTH, MONTH_IN_TWO_DIGITS, YEAR, YEAR_IN_TWO_DIGITS,
 * DAY, DAY_IN_TWO_DIGITS (and RenderCV 1's FULL_MONTH_NAME) replaced for
 * `d`, a month or a day, in loc's month names (NULL: English).  A month
 * without a day drops DAY with the text written right after it, up to a
 * space or the next placeholder (the 日 of "YEAR年MONTH月DAY日"); with `d`
 * NULL (or of another kind) every placeholder is empty.  `extra`, when not
 * NULL, is a list of {name, value} pairs ended by {NULL, NULL}, looked for
 * first ("NAME", "CURRENT_DATE" in a PDF title).  Allocated in `a`. */
const char *cv_date_expand(cv_arena *a, const char *tmpl, const cv_date *d,
                           const cv_locale *loc, const char *const (*extra)[2]);

/* The dates of an entry as shown: `date` when it has one; otherwise
 * "start – end" with the locale's separator (an empty one gives
 * "start end"), a missing end shown as present, or, when the locale has a
 * range of its own shape (loc->range, the layout's dates.range: "END_DATE
 * (since START_DATE)"), that with START_DATE and END_DATE filled in; an
 * end alone shown alone.  NULL when there is no date at all. */
const char *cv_date_range(cv_arena *a, const cv_date *date, const cv_date *start,
                          const cv_date *end, const cv_locale *loc);

/* How long `start` to `end` lasts, as RenderCV's TIME_SPAN: "3 years 2
 * months", "1 year", "5 months", in the locale's words (year, years,
 * month, months; no space before a CJK word: "3年2个月").  An ongoing end
 * (CV_DATE_PRESENT) is `today`.  Years only when either date has no month.
 * NULL when a date is missing, free text, or the end is before the start.
 * The string is the arena's. */
const char *cv_date_span(cv_arena *a, const cv_date *start, const cv_date *end,
                         const cv_date *today, const cv_locale *loc);

/* RenderCV's time span of start - end ("2 years 10 months", the layout's
 * dates.show_time_spans_in) through `tmpl` (dates.time_span; NULL:
 * "HOW_MANY_YEARS YEARS HOW_MANY_MONTHS MONTHS"): years of 365 days,
 * months of 30, the month begun counted.  `present` is `today`
 * (YYYY-MM-DD); NULL when there is no span, no today for a present end, or
 * the template leaves nothing.  The words are the locale's (year, years,
 * month, months; English when `loc` is NULL), as RenderCV takes them from
 * `locale:`.  The string is the arena's. */
const char *cv_date_time_span(cv_arena *a, const char *tmpl, const cv_date *start,
                              const cv_date *end, const char *today, const cv_locale *loc);

#endif
