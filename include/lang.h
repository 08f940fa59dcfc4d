/* lang.h - the language a résumé is written in: RenderCV's `locale:` and
 * its section titles.
 *
 * A cv_locale holds the words cvpdf writes itself (month names, "present",
 * the date separator, "Last updated in") and the template that lays a date
 * out (date.h formats with it).  cvpdf ships no translations: a profile
 * that is not in English gives its words under `locale:`, and every word
 * it leaves out stays English.
 *
 * (The module is not called locale.h: with -Iinclude that name would hide
 * the C library's <locale.h>.)
 *
 * Strings in a cv_locale are either static or the YAML tree's / the
 * arena's: valid until cv_arena_free().
 */
#ifndef CV_LANG_H
#define CV_LANG_H

#include <stdbool.h>

#include "arena.h"
#include "error.h"
#include "yml.h"

/* RenderCV's `locale:` keys (defaults are English). */
typedef struct cv_locale {
    const char *language;          /* "en" */
    const char *month_abbr[12];    /* "Jan" ... "Dec" */
    const char *month_full[12];    /* "January" ... */
    const char *present;           /* "present" */
    const char *to;                /* "–" (between start and end dates) */
    const char *phone_format;      /* unused for now */
    const char *date_template;     /* "MONTH_ABBREVIATION YEAR" */
    const char *last_updated;      /* "Last updated in" (LAST_UPDATED) */
} cv_locale;

/* The English defaults, the locale of a profile without `locale:` (static,
 * never NULL).  Readers of a cv_locale fall back to these words for any
 * field that is NULL. */
const cv_locale *cv_locale_english(void);

/* The ISO 639 code for `name`: one of RenderCV's language names, in any
 * case ("mandarin_chinese" -> "zh", "German" -> "de"), or `name` itself
 * when it is a code with optional subtags ("de", "zh-Hans", "pt_BR").
 * NULL for anything else. */
const char *cv_locale_language(const char *name);

/* Read a profile's `locale:` mapping `n` into *out: English first, then
 * what `n` gives (RenderCV 2's keys and RenderCV 1's).  Absent or null `n`
 * leaves English.  Errors (false, `err` set at the node): not a mapping, an
 * unknown key (with a did-you-mean), a month list that is not 12 names, an
 * unknown language.  When the language is not English but an English word
 * would still show, prints one note (cv_note(), silent when `err` is
 * quiet). */
bool cv_locale_read(cv_arena *a, const cv_yml *n, cv_locale *out, cv_error *err);
/* The keys cv_locale_read() accepts: NULL-terminated, constant. */
const char *const *cv_locale_keys(void);

/* Section key -> title as RenderCV does: a key made of lowercase letters,
 * digits and underscores becomes words with the first letter of each
 * capitalised, short function words ("and", "of", ...) but the first left
 * lower case ("selected_honors" -> "Selected Honors"); any other key (with
 * a space or a capital) is returned as written.  The result is `key` or a
 * string in the arena. */
const char *cv_section_title(cv_arena *a, const char *key);

#endif
