/* lang.h - the language a résumé is written in: RenderCV's `locale:` and
 * its section titles.
 *
 * A cv_locale holds the words cvpdf writes itself (month names, "present",
 * the date separator, "Last updated in", the "in" of "DEGREE in AREA", the
 * layout's "Contact" and "Résumé") and the template that lays a date out
 * (date.h formats with it).  A profile's `locale:` gives the language and
 * may set any of the words; cv_locale_localize() then fills every word the
 * profile left out for its language: month names and the date order from
 * CLDR (cldr.h, through ICU), the words only RenderCV has from cvpdf's
 * locale file for the language (locales/NAME.yaml in the data directory,
 * docs/languages.md).  Whatever neither knows stays English, with a note.
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
    const char *range;             /* a date range of another shape than
                                      START_DATE x END_DATE, filled in as
                                      written ("END_DATE (since START_DATE)",
                                      layout's dates.range); NULL: none */
    const char *last_updated;      /* "Last updated in" (LAST_UPDATED) */
    const char *degree_with_area;  /* "DEGREE in AREA" (a template's phrase) */
    const char *contact;           /* the layout's "Contact" */
    const char *resume;            /* the layout's "Résumé" (pdf.title) */
    const char *year, *years;      /* "year", "years" (time spans) */
    const char *month, *months;    /* "month", "months" */
    const char *hyphenation;       /* libhyphen dictionary: "en_US"; "" none */
    bool rtl;                      /* written right to left */
    cv_pos pos;                    /* where the language was named */
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

/* RenderCV's name for language code `code` ("de" -> "german",
 * "zh-Hans" -> "mandarin_chinese"), or NULL. */
const char *cv_locale_name(const char *code);

/* Read a profile's `locale:` mapping `n` into *out: English first, then
 * what `n` gives (RenderCV 2's keys and RenderCV 1's, and cvpdf's own:
 * degree_with_area, contact, resume).  Absent or null `n` leaves English.
 * Errors (false, `err` set at the node): not a mapping, an unknown key
 * (with a did-you-mean), a month list that is not 12 names.  A language
 * cvpdf does not know is a note (cv_note(), silent when `err` is quiet),
 * and the résumé stays English. */
bool cv_locale_read(cv_arena *a, const cv_yml *n, cv_locale *out, cv_error *err);
/* The keys cv_locale_read() accepts: NULL-terminated, constant. */
const char *const *cv_locale_keys(void);

/* Fill every word of `loc` that is still English (the profile did not set
 * it) for loc->language: the month names and date template from CLDR,
 * the other words from `dir`/NAME.yaml (NAME as cv_locale_name(); `dir`
 * NULL: no locale files).  Nothing to do for English.  When a word would
 * still show in English, one note.  False with `err` set when the locale
 * file exists but is malformed. */
bool cv_locale_localize(cv_arena *a, cv_locale *loc, const char *dir, cv_error *err);

/* The layout's date forms (style.h's dates.*; NULL each for none, and a
 * `single` of "" too) laid over a profile's locale before cv_locale_localize(), so that
 * localising keeps them: `single` is the date template and `range` the
 * range's, each unless the profile's locale: gives its own (a range
 * "START_DATE x END_DATE" sets `to`, unless locale: gives it; another
 * shape is loc->range, whatever locale: says); `english_abbr` (NULL or
 * twelve names) the month abbreviations of a profile in English
 * (language "en") whose locale: gives none. */
void cv_locale_dates(cv_arena *a, cv_locale *loc, const char *single, const char *range,
                     const char *const *english_abbr);

/* `s`, a layout's text, with its English words in the locale's language:
 * "Contact" (the whole string) and "Résumé" (anywhere).  `s` itself when
 * nothing changes (English, or none of the words).  NULL stays NULL. */
const char *cv_locale_layout_text(cv_arena *a, const cv_locale *loc, const char *s);

/* Section key -> title as RenderCV does: a key made of lowercase letters,
 * digits and underscores becomes words with the first letter of each
 * capitalised by the rules of language `lang` (BCP 47; unicode.h), short
 * function words ("and", "of", ...) but the first left lower case
 * ("selected_honors" -> "Selected Honors", "iletişim" in "tr" ->
 * "İletişim"); any other key (with a space or a capital) is returned as
 * written.  The result is `key` or a string in the arena. */
const char *cv_section_title(cv_arena *a, const char *key, const char *lang);

#endif
