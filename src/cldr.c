/* cldr.c - month names and date order from ICU.  See cldr.h.
 *
 * ICU's C API: udat_open() for the language's date symbols (the month
 * names, in the "format" or "stand-alone" context the pattern asks for) and
 * udatpg_getBestPattern() for how a month and a year are written.  The
 * locale asked for is the language with "@calendar=gregorian", since
 * résumé dates are Gregorian in every language (Persian's default calendar
 * is the solar hijri one).  A language ICU has no data of its own for
 * (uloc_getAvailable does not list it, nor its language part) is refused,
 * so that its root locale's "M01" never reaches a résumé.
 */
#include "cldr.h"

#include <stdio.h>
#include <string.h>

#include <unicode/udat.h>
#include <unicode/udatpg.h>
#include <unicode/uloc.h>
#include <unicode/ustring.h>

#include "module.h"

/* ICU's i18n library (dates) is opened with dlopen when a language other
 * than English first asks for its months, not linked: linked, it costs
 * every run 1.3 M instructions of dynamic loading, and an English résumé
 * never calls it.  ICU's names carry its version (udat_open_72): the
 * headers' macros give them. */
#ifndef CV_ICU_I18N_SONAME
#define CV_ICU_I18N_SONAME "libicui18n.so.72"
#endif
#define I18N_FUNCTIONS(X) \
    X(udat_open) X(udat_close) X(udat_getSymbols) X(udatpg_open) X(udatpg_close) \
    X(udatpg_getBestPattern) X(u_strToUTF8) X(u_uastrcpy) X(uloc_getLanguage) \
    X(uloc_countAvailable) X(uloc_getAvailable) X(uloc_getDisplayCountry)
/* (The last six are ICU's common library's, which the i18n library
 * depends on: found through it, as cvpdf does not link ICU.) */
CV_LIB_DEFINE(i18n_lib, I, I18N_FUNCTIONS, CV_ICU_I18N_SONAME, "libicu72");

/* UTF-16 from ICU as UTF-8 in the arena; NULL when it cannot convert. */
static const char *utf8(cv_arena *a, const UChar *s, int32_t n)
{
    UErrorCode st = U_ZERO_ERROR;
    int32_t len = 0;
    I.u_strToUTF8(NULL, 0, &len, s, n, &st);
    if (st != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(st))
        return NULL;
    char *out = cv_arena_alloc(a, (size_t)len + 1);
    st = U_ZERO_ERROR;
    I.u_strToUTF8(out, len + 1, NULL, s, n, &st);
    return U_FAILURE(st) ? NULL : out;
}

/* Does ICU carry data for the language of `loc` itself? */
static bool known(const char *loc)
{
    char lang[16];
    UErrorCode st = U_ZERO_ERROR;
    I.uloc_getLanguage(loc, lang, sizeof lang, &st);
    if (U_FAILURE(st) || !*lang)
        return false;
    int32_t n = I.uloc_countAvailable();
    for (int32_t i = 0; i < n; i++) {
        const char *av = I.uloc_getAvailable(i);
        size_t l = strlen(lang);
        if (strncmp(av, lang, l) == 0 && (av[l] == 0 || av[l] == '_'))
            return true;
    }
    return false;
}

/* The 12 names of one kind of month symbol into out[]. */
static bool month_names(cv_arena *a, UDateFormat *df, UDateFormatSymbolType type,
                        const char **out)
{
    for (int m = 0; m < 12; m++) {
        UChar buf[64];
        UErrorCode st = U_ZERO_ERROR;
        int32_t n = I.udat_getSymbols(df, type, m, buf, 64, &st);
        if (U_FAILURE(st) || n <= 0 || n >= 64 || !(out[m] = utf8(a, buf, n)))
            return false;
    }
    return true;
}

const char *cv_cldr_template(cv_arena *a, const char *p)
{
    cv_strbuf b = {0};
    while (*p) {
        if (*p == '\'') {
            /* 'literal', with '' for a quote. */
            if (p[1] == '\'') {
                cv_strbuf_put(a, &b, "'", 1);
                p += 2;
                continue;
            }
            for (p++; *p && !(*p == '\'' && p[1] != '\''); p++) {
                cv_strbuf_put(a, &b, p, 1);
                if (*p == '\'')
                    p++;
            }
            if (*p)
                p++;
            continue;
        }
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
            char c = *p;
            size_t n = 0;
            while (p[n] == c)
                n++;
            const char *ph = NULL;
            if (c == 'y' || c == 'u')
                ph = n == 2 ? "YEAR_IN_TWO_DIGITS" : "YEAR";
            else if (c == 'M' || c == 'L')
                ph = n == 1 ? "MONTH" : n == 2 ? "MONTH_IN_TWO_DIGITS"
                   : n == 3 ? "MONTH_ABBREVIATION" : "MONTH_NAME";
            if (ph)
                cv_strbuf_put(a, &b, ph, strlen(ph));
            p += n;
            continue;
        }
        cv_strbuf_put(a, &b, p++, 1);
    }
    return b.s ? b.s : "";
}

bool cv_cldr_dates(cv_arena *a, const char *lang, cv_cldr *out)
{
    char loc[64], canon[96];
    snprintf(loc, sizeof loc, "%s", lang);
    for (char *c = loc; *c; c++)
        if (*c == '-')
            *c = '_';
    if (!cv_lib_open(&i18n_lib) || !known(loc))
        return false;
    UErrorCode st = U_ZERO_ERROR;
    snprintf(canon, sizeof canon, "%s@calendar=gregorian", loc);

    /* The pattern for a month and a year. */
    UDateTimePatternGenerator *gen = I.udatpg_open(canon, &st);
    if (U_FAILURE(st))
        return false;
    UChar skel[8], pat[64];
    I.u_uastrcpy(skel, "yMMM");
    int32_t n = I.udatpg_getBestPattern(gen, skel, -1, pat, 64, &st);
    I.udatpg_close(gen);
    if (U_FAILURE(st) || n <= 0 || n >= 64)
        return false;
    const char *pattern = utf8(a, pat, n);
    if (!pattern)
        return false;

    /* The names, stand-alone when the pattern has them so (L). */
    st = U_ZERO_ERROR;
    UDateFormat *df = I.udat_open(UDAT_PATTERN, UDAT_PATTERN, canon, NULL, 0, pat, n, &st);
    if (U_FAILURE(st))
        return false;
    bool alone = strchr(pattern, 'L') != NULL;
    cv_cldr c;
    bool ok = month_names(a, df, alone ? UDAT_STANDALONE_SHORT_MONTHS : UDAT_SHORT_MONTHS,
                          c.month_abbr) &&
              month_names(a, df, alone ? UDAT_STANDALONE_MONTHS : UDAT_MONTHS, c.month_full);
    I.udat_close(df);
    if (!ok)
        return false;
    c.date_template = cv_cldr_template(a, pattern);
    *out = c;
    return true;
}

const char *cv_cldr_country(cv_arena *a, const char *code, const char *lang)
{
    size_t n = strlen(code);
    if (n != 2 || code[0] < 'A' || (code[0] > 'Z' && code[0] < 'a') || code[0] > 'z' ||
        code[1] < 'A' || (code[1] > 'Z' && code[1] < 'a') || code[1] > 'z')
        return NULL;
    if (!cv_lib_open(&i18n_lib))
        return NULL;
    char loc[8];
    snprintf(loc, sizeof loc, "und_%c%c", code[0] & ~0x20, code[1] & ~0x20);
    UChar buf[128];
    UErrorCode st = U_ZERO_ERROR;
    int32_t len = I.uloc_getDisplayCountry(loc, lang && *lang ? lang : "en", buf, 128, &st);
    if (U_FAILURE(st) || len <= 0 || st == U_USING_DEFAULT_WARNING)
        return NULL;
    const char *name = utf8(a, buf, len);
    /* ICU answers an unknown region with its code. */
    return name && strcmp(name, loc + 4) ? name : NULL;
}
