/* unicode.c - UTF-8, scripts, widths and case through ICU.  See unicode.h.
 *
 * ICU's uscript_getScript() is Unicode's Script property and
 * uscript_hasScript() its Script_Extensions (a character without any has
 * its Script as its one extension), so the tables follow the Unicode
 * version of the ICU cvpdf is built with, and nothing here is a range.
 *
 * The script answers of one code point are packed in one 32-bit word
 * (facts()), computed on the first question and kept: for the BMP in a
 * table of 65,536 words (256 KB of zero pages until touched), beyond it in
 * a direct-mapped cache of 1,024 (code point, word) pairs.  A word is
 * written whole with a relaxed atomic store; two threads that miss the
 * same code point compute and store the same word.
 */
#include "unicode.h"

#include <stdatomic.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/ucasemap.h>
#include <unicode/uscript.h>
#include <unicode/ustring.h>

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

/* ---- Scripts, uncached -------------------------------------------------- */

/* ICU's code for a script named here. */
static UScriptCode icu_code(cv_script s)
{
    switch (s) {
    case CV_SCRIPT_LATIN: return USCRIPT_LATIN;
    case CV_SCRIPT_GREEK: return USCRIPT_GREEK;
    case CV_SCRIPT_CYRILLIC: return USCRIPT_CYRILLIC;
    case CV_SCRIPT_HEBREW: return USCRIPT_HEBREW;
    case CV_SCRIPT_ARABIC: return USCRIPT_ARABIC;
    case CV_SCRIPT_DEVANAGARI: return USCRIPT_DEVANAGARI;
    case CV_SCRIPT_HAN: return USCRIPT_HAN;
    case CV_SCRIPT_KANA: return USCRIPT_KATAKANA;   /* and USCRIPT_HIRAGANA */
    case CV_SCRIPT_HANGUL: return USCRIPT_HANGUL;
    default: return USCRIPT_INVALID_CODE;
    }
}

/* Our name for ICU's script `s`. */
static cv_script ours(UScriptCode s)
{
    switch (s) {
    case USCRIPT_COMMON:
    case USCRIPT_INHERITED: return CV_SCRIPT_COMMON;
    case USCRIPT_LATIN: return CV_SCRIPT_LATIN;
    case USCRIPT_GREEK: return CV_SCRIPT_GREEK;
    case USCRIPT_CYRILLIC: return CV_SCRIPT_CYRILLIC;
    case USCRIPT_HEBREW: return CV_SCRIPT_HEBREW;
    case USCRIPT_ARABIC: return CV_SCRIPT_ARABIC;
    case USCRIPT_DEVANAGARI: return CV_SCRIPT_DEVANAGARI;
    case USCRIPT_HAN: return CV_SCRIPT_HAN;
    case USCRIPT_HIRAGANA:
    case USCRIPT_KATAKANA: return CV_SCRIPT_KANA;
    case USCRIPT_HANGUL: return CV_SCRIPT_HANGUL;
    default: return CV_SCRIPT_OTHER;
    }
}

static UScriptCode icu_script(uint32_t cp)
{
    UErrorCode st = U_ZERO_ERROR;
    if (cp > 0x10FFFF)
        return USCRIPT_INVALID_CODE;
    UScriptCode s = uscript_getScript((UChar32)cp, &st);
    return U_FAILURE(st) ? USCRIPT_INVALID_CODE : s;
}

cv_script cv_script_of_uncached(uint32_t cp)
{
    return ours(icu_script(cp));
}

cv_script cv_script_resolve_uncached(uint32_t cp)
{
    cv_script s = cv_script_of_uncached(cp);
    if (s != CV_SCRIPT_COMMON)
        return s;
    UScriptCode ext[32];
    UErrorCode st = U_ZERO_ERROR;
    int n = uscript_getScriptExtensions((UChar32)cp, ext, 32, &st);
    if (U_FAILURE(st))
        return s;
    cv_script one = CV_SCRIPT_COMMON;
    for (int i = 0; i < n; i++) {
        cv_script e = ours(ext[i]);
        if (e == CV_SCRIPT_OTHER || e == CV_SCRIPT_COMMON || e == one)
            continue;
        if (one != CV_SCRIPT_COMMON)
            return CV_SCRIPT_COMMON;       /* two of ours: shared */
        one = e;
    }
    return one;
}

bool cv_script_in_uncached(uint32_t cp, cv_script s)
{
    UScriptCode c = icu_code(s);
    if (c == USCRIPT_INVALID_CODE || cp > 0x10FFFF)
        return false;
    if (uscript_hasScript((UChar32)cp, c))
        return true;
    return s == CV_SCRIPT_KANA && uscript_hasScript((UChar32)cp, USCRIPT_HIRAGANA);
}

bool cv_script_rtl_uncached(uint32_t cp)
{
    UScriptCode s = icu_script(cp);
    if (s == USCRIPT_INVALID_CODE || s == USCRIPT_UNKNOWN)
        return false;
    if (s != USCRIPT_COMMON && s != USCRIPT_INHERITED)
        return uscript_isRightToLeft(s);
    /* A shared character: right to left if a script it is used with is. */
    UScriptCode ext[32];
    UErrorCode st = U_ZERO_ERROR;
    int n = uscript_getScriptExtensions((UChar32)cp, ext, 32, &st);
    if (U_FAILURE(st))
        return false;
    for (int i = 0; i < n; i++)
        if (ext[i] != USCRIPT_COMMON && ext[i] != USCRIPT_INHERITED && uscript_isRightToLeft(ext[i]))
            return true;
    return false;
}

static bool wide_uncached(uint32_t cp)
{
    if (cp > 0x10FFFF)
        return false;
    int w = u_getIntPropertyValue((UChar32)cp, UCHAR_EAST_ASIAN_WIDTH);
    return (w == U_EA_WIDE || w == U_EA_FULLWIDTH) &&
           !u_hasBinaryProperty((UChar32)cp, UCHAR_EXTENDED_PICTOGRAPHIC) &&
           !u_hasBinaryProperty((UChar32)cp, UCHAR_EMOJI_MODIFIER);
}

/* ---- Scripts, cached ---------------------------------------------------- */

bool cv_unicode_letter(uint32_t cp);

/* One code point's facts in a word: Script in bits 0-3, the resolved
 * script in 4-7, right to left in 8, wide in 9, ideograph in 10, CJK in
 * 11, Latin (cv_unicode_latin) in 24, "in script s" in bit IN_BIT + s,
 * and FILLED so that a word is never 0. */
enum {
    OF_SHIFT = 0, RESOLVE_SHIFT = 4, RTL_BIT = 1u << 8, WIDE_BIT = 1u << 9,
    IDEO_BIT = 1u << 10, CJK_BIT = 1u << 11, IN_BIT = 12, LATIN_BIT = 1u << 24
};
#define FILLED (1u << 31)

static uint32_t facts(uint32_t cp)
{
    uint32_t w = FILLED | (uint32_t)cv_script_of_uncached(cp) << OF_SHIFT |
                 (uint32_t)cv_script_resolve_uncached(cp) << RESOLVE_SHIFT;
    if (cv_script_rtl_uncached(cp))
        w |= RTL_BIT;
    if (wide_uncached(cp))
        w |= WIDE_BIT;
    for (int s = CV_SCRIPT_LATIN; s < CV_SCRIPT_COUNT; s++)
        if (cv_script_in_uncached(cp, (cv_script)s))
            w |= 1u << (IN_BIT + s);
    cv_script r = (cv_script)(w >> RESOLVE_SHIFT & 0xF);
    if (r == CV_SCRIPT_HAN || r == CV_SCRIPT_KANA || r == CV_SCRIPT_HANGUL)
        w |= IDEO_BIT;
    if ((w & WIDE_BIT) || (w >> (IN_BIT + CV_SCRIPT_HAN) & 1) ||
        (w >> (IN_BIT + CV_SCRIPT_KANA) & 1) || (w >> (IN_BIT + CV_SCRIPT_HANGUL) & 1))
        w |= CJK_BIT;
    if ((cp >= '0' && cp <= '9') ||
        ((w >> OF_SHIFT & 0xF) == CV_SCRIPT_LATIN && cv_unicode_letter(cp) && !(w & WIDE_BIT)))
        w |= LATIN_BIT;
    return w;
}

#define ASTRAL_SLOTS 1024

static _Atomic uint32_t bmp[0x10000];
static _Atomic uint64_t astral[ASTRAL_SLOTS];    /* cp << 32 | word; 0 empty */

static inline uint32_t lookup(uint32_t cp)
{
    if (cp < 0x10000) {
        uint32_t w = atomic_load_explicit(&bmp[cp], memory_order_relaxed);
        if (w)
            return w;
        w = facts(cp);
        atomic_store_explicit(&bmp[cp], w, memory_order_relaxed);
        return w;
    }
    if (cp > 0x10FFFF)
        return facts(cp);
    _Atomic uint64_t *slot = &astral[(cp ^ cp >> 10) % ASTRAL_SLOTS];
    uint64_t e = atomic_load_explicit(slot, memory_order_relaxed);
    if (e && (uint32_t)(e >> 32) == cp)
        return (uint32_t)e;
    uint32_t w = facts(cp);
    atomic_store_explicit(slot, (uint64_t)cp << 32 | w, memory_order_relaxed);
    return w;
}

cv_script cv_script_of(uint32_t cp)
{
    return (cv_script)(lookup(cp) >> OF_SHIFT & 0xF);
}

cv_script cv_script_resolve(uint32_t cp)
{
    return (cv_script)(lookup(cp) >> RESOLVE_SHIFT & 0xF);
}

bool cv_script_in(uint32_t cp, cv_script s)
{
    if (s <= CV_SCRIPT_COMMON || s >= CV_SCRIPT_COUNT)
        return false;
    return lookup(cp) >> (IN_BIT + s) & 1;
}

bool cv_script_rtl(uint32_t cp)
{
    return lookup(cp) & RTL_BIT;
}

/* ---- CJK classes -------------------------------------------------------- */

bool cv_unicode_ideograph(uint32_t cp)
{
    return lookup(cp) & IDEO_BIT;
}

bool cv_unicode_latin(uint32_t cp)
{
    return lookup(cp) & LATIN_BIT;
}

bool cv_unicode_wide(uint32_t cp)
{
    return lookup(cp) & WIDE_BIT;
}

bool cv_unicode_cjk(uint32_t cp)
{
    return lookup(cp) & CJK_BIT;
}

/* ---- Letters and case ----------------------------------------------------- */

bool cv_unicode_letter(uint32_t cp)
{
    return cp <= 0x10FFFF && u_isalpha((UChar32)cp);
}

bool cv_unicode_upper(uint32_t cp)
{
    return cp <= 0x10FFFF && u_isupper((UChar32)cp);
}

bool cv_unicode_lower(uint32_t cp)
{
    return cp <= 0x10FFFF && u_islower((UChar32)cp);
}

uint32_t cv_unicode_tolower(uint32_t cp)
{
    return cp <= 0x10FFFF ? (uint32_t)u_tolower((UChar32)cp) : cp;
}

bool cv_unicode_word(uint32_t cp)
{
    return cp <= 0x10FFFF &&
           (U_GET_GC_MASK((UChar32)cp) & (U_GC_L_MASK | U_GC_M_MASK | U_GC_ND_MASK));
}

bool cv_unicode_punct(uint32_t cp)
{
    return cp <= 0x10FFFF && (U_GET_GC_MASK((UChar32)cp) &
                              (U_GC_PS_MASK | U_GC_PE_MASK | U_GC_PI_MASK | U_GC_PF_MASK |
                               U_GC_PO_MASK));
}

bool cv_unicode_space(uint32_t cp)
{
    return cp <= 0x10FFFF && u_charType((UChar32)cp) == U_SPACE_SEPARATOR;
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

/* Run ICU's UTF-8 case mapper `map` (upper or title) over s[0..n) into the
 * arena; NULL if ICU fails. */
static char *map_utf8(cv_arena *a, const char *s, size_t n, const char *lang, uint32_t options,
                      bool title)
{
    char loc[9];
    case_locale(lang, loc);
    UErrorCode st = U_ZERO_ERROR;
    UCaseMap *cm = ucasemap_open(loc, options, &st);
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
        len = title ? ucasemap_utf8ToTitle(cm, out, cap, s, (int32_t)n, &st)
                    : ucasemap_utf8ToUpper(cm, out, cap, s, (int32_t)n, &st);
        if (st != U_BUFFER_OVERFLOW_ERROR)
            break;
        cap = len;
    }
    ucasemap_close(cm);
    if (U_FAILURE(st) || len > cap)
        return NULL;
    out[len] = 0;
    return out;
}

const char *cv_upper(cv_arena *a, const char *s, const char *lang)
{
    size_t n = strlen(s);
    const char *o = map_utf8(a, s, n, lang, 0, false);
    return o && strcmp(o, s) != 0 ? o : s;
}

const char *cv_title(cv_arena *a, const char *s, size_t n, const char *lang)
{
    const char *o = map_utf8(a, s, n, lang,
                             U_TITLECASE_WHOLE_STRING | U_TITLECASE_NO_LOWERCASE |
                                 U_TITLECASE_NO_BREAK_ADJUSTMENT,
                             true);
    return o ? o : cv_arena_strndup(a, s, n);
}

/* The one character `cp` maps to by ICU's full mapping to upper
 * (`upper`) or lower case for locale `loc`; 0 if not one character. */
static uint32_t map_char(uint32_t cp, const char *loc, bool upper)
{
    UChar in[2], out[8];
    int32_t n = 0;
    U16_APPEND_UNSAFE(in, n, (UChar32)cp);
    UErrorCode st = U_ZERO_ERROR;
    int32_t m = upper ? u_strToUpper(out, 8, in, n, loc, &st)
                      : u_strToLower(out, 8, in, n, loc, &st);
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
