/* unicode.c - UTF-8, scripts, widths and case.  See unicode.h.
 *
 * A code point's scripts, width and classes are one 32-bit word of ICU's
 * answers (tools/ucd_icu.h), asked of ICU for every code point when cvpdf
 * is built (tools/gen_ucd.c) and looked up here in build/ucd_table.h's two
 * stages: a row for each block of 256 code points, a word index in the
 * row.  So the answers follow the Unicode version of the ICU cvpdf is
 * built with, nothing here is a range, and a run that maps no case beyond
 * ASCII never loads ICU: its common library and the C++ runtime it needs
 * cost every run 2 M instructions of dynamic loading and 2.7 MB of memory.
 * Case mapping asks ICU, opened with dlopen (syslib.h's cv_lib) the first
 * time a string or a character beyond ASCII is mapped.
 */
#include "unicode.h"

#include <stdio.h>
#include <string.h>

#include <unicode/ucasemap.h>
#include <unicode/uchar.h>
#include <unicode/uidna.h>
#include <unicode/ustring.h>

#include "syslib.h"
#include "ucd_table.h"

#ifndef CV_ICU_UC_SONAME
#define CV_ICU_UC_SONAME "libicuuc.so.72"
#endif
#define UC_FUNCTIONS(X) \
    X(ucasemap_open) X(ucasemap_close) X(ucasemap_utf8ToUpper) X(ucasemap_utf8ToTitle) \
    X(u_strToUpper) X(u_strToLower) X(u_tolower) \
    X(uidna_openUTS46) X(uidna_nameToASCII_UTF8) X(uidna_close)
CV_LIB_DEFINE(uc_lib, U, UC_FUNCTIONS, CV_ICU_UC_SONAME, "libicu72");

/* ICU's common library, opened once; false (said once on stderr) when it
 * cannot be, and the case mappers keep ASCII's rules. */
static bool icu(void)
{
    if (cv_lib_open(&uc_lib))
        return true;
    static bool said;
    if (!said)
        fprintf(stderr, "cvpdf: warning: cannot open %s (Debian package %s): letters beyond "
                "ASCII keep their case\n", uc_lib.soname, uc_lib.package);
    said = true;
    return false;
}

/* ---- UTF-8 -------------------------------------------------------------- */

size_t cv_utf8_decode(const char *str, size_t len, uint32_t *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    unsigned c = s[0];
    size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (c >= 0x80 && (c < 0xC2 || c > 0xF4 || n > len)) {
        *cp = 0xFFFD;
        return 1;
    }
    uint32_t v = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t i = 1; i < n; i++) {
        if (!cv_utf8_is_cont(s[i])) {
            *cp = 0xFFFD;
            return i;
        }
        v = (v << 6) | (s[i] & 0x3F);
    }
    *cp = v;
    return n;
}

uint32_t cv_utf8_last(const char *str, size_t len)
{
    /* The walk steps on every byte that is no continuation byte (a step
     * stops before one); after the last such byte, one step, then each
     * continuation byte left over alone, as U+FFFD. */
    const unsigned char *s = (const unsigned char *)str;
    size_t k = len;
    while (k > 0 && len - k < CV_UTF8_MAX && cv_utf8_is_cont(s[k - 1]))
        k--;
    if (k == 0 || cv_utf8_is_cont(s[k - 1]))
        return 0xFFFD;             /* only continuation bytes in reach */
    k--;
    uint32_t cp;
    return cv_utf8_decode(str + k, len - k, &cp) == len - k ? cp : 0xFFFD;
}

size_t cv_utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    if (cp > 0x10FFFF)
        return cv_utf8_encode(0xFFFD, out);
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t cv_utf8_prev(const char *str, size_t i)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t j = i - 1;
    while (j > 0 && cv_utf8_is_cont(s[j]) && i - j < CV_UTF8_MAX)
        j--;
    return j;
}

size_t cv_utf8_next(const char *str, size_t len, size_t i)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t j = i + 1;
    while (j < len && cv_utf8_is_cont(s[j]) && j - i < CV_UTF8_MAX)
        j++;
    return j;
}

size_t cv_utf8_count(const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t k = 0;
    for (size_t i = 0; i < len; i++)
        k += !cv_utf8_is_cont(s[i]);
    return k;
}

bool cv_utf8_valid(const char *str, size_t len, size_t *bad)
{
    const unsigned char *s = (const unsigned char *)str;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = cv_utf8_decode(str + i, len - i, &cp);
        /* U+FFFD decoded from anything but its own three bytes, an
         * overlong form, a surrogate or a value past U+10FFFF. */
        bool ok = !(cp == 0xFFFD && !(n == 3 && s[i] == 0xEF)) &&
                  !(n == 3 && cp < 0x800) && !(n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) &&
                  !(cp >= 0xD800 && cp <= 0xDFFF);
        if (!ok) {
            if (bad)
                *bad = i;
            return false;
        }
        i += n;
    }
    return true;
}

/* ---- Scripts -------------------------------------------------------- */

/* The word of `cp` (tools/ucd_icu.h); 0 above U+10FFFF. */
static inline uint32_t lookup(uint32_t cp)
{
    if (cp > 0x10FFFF)
        return 0;
    return cv_ucd_words[cv_ucd_row[cv_ucd_block[cp >> 8]][cp & 0xFF]];
}

cv_script cv_script_of(uint32_t cp)
{
    return (cv_script)(lookup(cp) >> CV_UCD_OF_SHIFT & 0xF);
}

cv_script cv_script_resolve(uint32_t cp)
{
    return (cv_script)(lookup(cp) >> CV_UCD_RESOLVE_SHIFT & 0xF);
}

bool cv_script_in(uint32_t cp, cv_script s)
{
    if (s <= CV_SCRIPT_COMMON || s >= CV_SCRIPT_COUNT)
        return false;
    return lookup(cp) >> (CV_UCD_IN_SHIFT + s) & 1;
}

bool cv_script_rtl(uint32_t cp)
{
    return lookup(cp) & CV_UCD_RTL;
}

/* ---- CJK classes -------------------------------------------------------- */

bool cv_unicode_ideograph(uint32_t cp)
{
    return lookup(cp) & CV_UCD_IDEO;
}

bool cv_unicode_latin(uint32_t cp)
{
    return lookup(cp) & CV_UCD_LATIN;
}

bool cv_unicode_wide(uint32_t cp)
{
    return lookup(cp) & CV_UCD_WIDE;
}

bool cv_unicode_cjk(uint32_t cp)
{
    return lookup(cp) & CV_UCD_CJK;
}

/* ---- Letters and case ----------------------------------------------------- */

bool cv_unicode_letter(uint32_t cp)
{
    return lookup(cp) & CV_UCD_LETTER;
}

bool cv_unicode_upper(uint32_t cp)
{
    return lookup(cp) & CV_UCD_UPPER;
}

bool cv_unicode_lower(uint32_t cp)
{
    return lookup(cp) & CV_UCD_LOWER;
}

uint32_t cv_unicode_tolower(uint32_t cp)
{
    if (cp < 0x80)
        return cp >= 'A' && cp <= 'Z' ? cp | 0x20 : cp;
    if (cp > 0x10FFFF || !icu())
        return cp;
    return (uint32_t)U.u_tolower((UChar32)cp);
}

bool cv_unicode_word(uint32_t cp)
{
    return lookup(cp) & CV_UCD_WORD;
}

bool cv_unicode_punct(uint32_t cp)
{
    return lookup(cp) & CV_UCD_PUNCT;
}

bool cv_unicode_space(uint32_t cp)
{
    return lookup(cp) & CV_UCD_SPACE;
}

/* ICU's locale for the case rules of BCP 47 language `lang`: its primary
 * language subtag, lower-cased ("tr-TR" -> "tr"); "" for none.  The case
 * rules depend on nothing else. */
static void case_locale(const char *lang, char out[9])
{
    size_t n = 0;
    for (; lang && n < 8; n++) {
        char c = lang[n];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c < 'a' || c > 'z')
            break;
        out[n] = c;
    }
    out[n] = 0;
}

/* Does language `loc` (case_locale()) map an ASCII letter to one beyond
 * ASCII: Turkish and Azeri "i" -> "İ", "I" -> "ı"; and for title case
 * Dutch "ij" -> "IJ"? */
static bool ascii_special(const char *loc, bool title)
{
    return !strcmp(loc, "tr") || !strcmp(loc, "az") || (title && !strcmp(loc, "nl"));
}

static bool all_ascii(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80)
            return false;
    return true;
}

static char ascii_upper(char c)
{
    return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* Run ICU's UTF-8 case mapper (upper or title) over s[0..n) into the
 * arena; NULL if ICU fails or cannot be opened. */
static char *map_utf8(cv_arena *a, const char *s, size_t n, const char *loc, uint32_t options,
                      bool title)
{
    if (!icu())
        return NULL;
    UErrorCode st = U_ZERO_ERROR;
    UCaseMap *cm = U.ucasemap_open(loc, options, &st);
    if (U_FAILURE(st))
        return NULL;
    /* A character's full mapping is at most three characters, each at
     * most as long as a 4-byte one: 3n + 8 is room enough, and ICU says
     * what it needed if not. */
    int32_t cap = (int32_t)(3 * n + 8), len = 0;
    char *out = NULL;
    for (int round = 0; round < 2; round++) {
        out = cv_arena_alloc(a, (size_t)cap + 1);
        st = U_ZERO_ERROR;
        len = title ? U.ucasemap_utf8ToTitle(cm, out, cap, s, (int32_t)n, &st)
                    : U.ucasemap_utf8ToUpper(cm, out, cap, s, (int32_t)n, &st);
        if (st != U_BUFFER_OVERFLOW_ERROR)
            break;
        cap = len;
    }
    U.ucasemap_close(cm);
    if (U_FAILURE(st) || len > cap)
        return NULL;
    out[len] = 0;
    return out;
}

const char *cv_upper(cv_arena *a, const char *s, const char *lang)
{
    size_t n = strlen(s);
    char loc[9];
    case_locale(lang, loc);
    const char *o = NULL;
    bool ascii = all_ascii(s, n);
    if (!ascii || ascii_special(loc, false))
        o = map_utf8(a, s, n, loc, 0, false);
    if (!o) {
        /* ASCII by ASCII's rules (ICU's own answer there), or ICU missing. */
        size_t i = 0;
        while (i < n && ascii_upper(s[i]) == s[i])
            i++;
        if (i == n)
            return s;
        char *u = cv_arena_strndup(a, s, n);
        for (; i < n; i++)
            u[i] = ascii_upper(u[i]);
        return u;
    }
    return strcmp(o, s) != 0 ? o : s;
}

const char *cv_title(cv_arena *a, const char *s, size_t n, const char *lang)
{
    char loc[9];
    case_locale(lang, loc);
    const char *o = NULL;
    if (!all_ascii(s, n) || ascii_special(loc, true))
        o = map_utf8(a, s, n, loc,
                     U_TITLECASE_WHOLE_STRING | U_TITLECASE_NO_LOWERCASE |
                         U_TITLECASE_NO_BREAK_ADJUSTMENT,
                     true);
    if (!o) {
        /* The first character in capitals, the rest as it is. */
        char *t = cv_arena_strndup(a, s, n);
        if (n)
            t[0] = ascii_upper(t[0]);
        return t;
    }
    return o;
}

/* The one character `cp` maps to by ICU's full mapping to upper
 * (`upper`) or lower case for locale `loc`; 0 if not one character (or
 * ICU is missing). */
static uint32_t map_char(uint32_t cp, const char *loc, bool upper)
{
    if (cp < 0x80 && !ascii_special(loc, false)) {
        if (upper)
            return cp >= 'a' && cp <= 'z' ? cp - 'a' + 'A' : cp;
        return cp >= 'A' && cp <= 'Z' ? cp - 'A' + 'a' : cp;
    }
    if (!icu())
        return 0;
    UChar in[2], out[8];
    int32_t n = 0;
    U16_APPEND_UNSAFE(in, n, (UChar32)cp);
    UErrorCode st = U_ZERO_ERROR;
    int32_t m = upper ? U.u_strToUpper(out, 8, in, n, loc, &st)
                      : U.u_strToLower(out, 8, in, n, loc, &st);
    if (U_FAILURE(st) || m < 1 || m > 2)
        return 0;
    UChar32 c;
    int32_t i = 0;
    U16_NEXT(out, i, m, c);
    return i == m ? (uint32_t)c : 0;
}

uint32_t cv_upper_char(uint32_t cp, const char *lang)
{
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    char loc[9];
    case_locale(lang, loc);
    /* The language's mapping first ("i" in Turkish), then the root's where
     * the language's does not lower back (Greek drops an accent). */
    for (int i = 0; i < 2; i++) {
        const char *l = i ? "" : loc;
        if (i && !*loc)
            break;
        uint32_t up = map_char(cp, l, true);
        if (up && up != cp && map_char(up, l, false) == cp)
            return up;
    }
    return 0;
}

uint32_t cv_caps_char(uint32_t cp, const char *lang)
{
    char loc[9];
    case_locale(lang, loc);
    /* Greek capitals lose their accents (ά -> Α, ΐ -> Ϊ) and have one sigma
     * (ς -> Σ): the language's own mapping, though it does not lower back. */
    if (!strcmp(loc, "el") && cp >= 0x80 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF)) {
        uint32_t up = map_char(cp, loc, true);
        if (up && up != cp && map_char(cp, loc, false) == cp)      /* a small letter */
            return up;
    }
    return cv_upper_char(cp, lang);
}

const char *cv_idna_ascii(cv_arena *a, const char *host, size_t n)
{
    if (all_ascii(host, n))
        return cv_arena_strndup(a, host, n);
    if (n > 1000 || !icu())
        return NULL;
    UErrorCode st = U_ZERO_ERROR;
    UIDNA *idna = U.uidna_openUTS46(UIDNA_NONTRANSITIONAL_TO_ASCII, &st);
    if (U_FAILURE(st))
        return NULL;
    char *out = cv_arena_alloc(a, 1024);
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    int32_t m = U.uidna_nameToASCII_UTF8(idna, host, (int32_t)n, out, 1023, &info, &st);
    U.uidna_close(idna);
    if (U_FAILURE(st) || info.errors || m < 1 || m > 1023)
        return NULL;
    out[m] = 0;
    return out;
}
