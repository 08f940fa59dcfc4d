/* cldr.h - month names and the order of a month-and-year date, from CLDR.
 *
 * The Unicode CLDR, as the system's ICU carries it (libicu), knows every
 * language's month names and how a date of a month and a year is written
 * ("Nov. 2023", "2023年11月", "nov. 2023").  cvpdf types none of them:
 * cv_cldr_dates() asks ICU for the Gregorian calendar's names (also in
 * Persian, whose default calendar is another) and for the best pattern for
 * the skeleton "yMMM", and turns that pattern into RenderCV's placeholders
 * (YEAR, MONTH_ABBREVIATION, MONTH_NAME, MONTH, MONTH_IN_TWO_DIGITS).
 *
 * Strings are the arena's: valid until cv_arena_free().
 */
#ifndef CV_CLDR_H
#define CV_CLDR_H

#include <stdbool.h>

#include "arena.h"

typedef struct cv_cldr {
    const char *month_abbr[12];    /* as the pattern shows them: "Nov." */
    const char *month_full[12];    /* "November" */
    const char *date_template;     /* "MONTH_ABBREVIATION YEAR", "YEAR年MONTH月" */
} cv_cldr;

/* The dates of language `lang` (an ISO 639 code, optionally with subtags:
 * "de", "zh-Hans", "pt_BR").  False when ICU has no data of its own for
 * the language (it would fall back to its root locale) or fails; *out is
 * then untouched. */
bool cv_cldr_dates(cv_arena *a, const char *lang, cv_cldr *out);

/* ICU's pattern (UTF-8, CLDR's letters: y, M, L, quotes) as RenderCV's
 * date template: "y年M月" -> "YEAR年MONTH月", "MMM y" ->
 * "MONTH_ABBREVIATION YEAR".  Letters other than y, M and L are left out. */
const char *cv_cldr_template(cv_arena *a, const char *pattern);

/* The name of the country or region of ISO 3166 code `code` ("IN", any
 * case) in language `lang` ("en", "de"; NULL: English): "India",
 * "Indien".  NULL for a code CLDR does not know. */
const char *cv_cldr_country(cv_arena *a, const char *code, const char *lang);

#endif
