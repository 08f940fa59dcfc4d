/* ucd_icu.c - the Unicode facts of a code point, asked of ICU.  See
 * ucd_icu.h.
 *
 * ICU's uscript_getScript() is Unicode's Script property and
 * uscript_hasScript() its Script_Extensions (a character without any has
 * its Script as its one extension), so the answers follow the Unicode
 * version of the ICU cvpdf is built with, and nothing here is a range.
 */
#include "ucd_icu.h"

#include <unicode/uchar.h>
#include <unicode/uscript.h>

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

cv_script cv_ucd_icu_script_of(uint32_t cp)
{
    return ours(icu_script(cp));
}

cv_script cv_ucd_icu_script_resolve(uint32_t cp)
{
    cv_script s = cv_ucd_icu_script_of(cp);
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

bool cv_ucd_icu_script_in(uint32_t cp, cv_script s)
{
    UScriptCode c = icu_code(s);
    if (c == USCRIPT_INVALID_CODE || cp > 0x10FFFF)
        return false;
    if (uscript_hasScript((UChar32)cp, c))
        return true;
    return s == CV_SCRIPT_KANA && uscript_hasScript((UChar32)cp, USCRIPT_HIRAGANA);
}

bool cv_ucd_icu_script_rtl(uint32_t cp)
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

static bool wide(uint32_t cp)
{
    int w = u_getIntPropertyValue((UChar32)cp, UCHAR_EAST_ASIAN_WIDTH);
    return (w == U_EA_WIDE || w == U_EA_FULLWIDTH) &&
           !u_hasBinaryProperty((UChar32)cp, UCHAR_EXTENDED_PICTOGRAPHIC) &&
           !u_hasBinaryProperty((UChar32)cp, UCHAR_EMOJI_MODIFIER);
}

uint32_t cv_ucd_icu(uint32_t cp)
{
    if (cp > 0x10FFFF)
        return 0;
    UChar32 c = (UChar32)cp;
    uint32_t w = (uint32_t)cv_ucd_icu_script_of(cp) << CV_UCD_OF_SHIFT |
                 (uint32_t)cv_ucd_icu_script_resolve(cp) << CV_UCD_RESOLVE_SHIFT;
    if (cv_ucd_icu_script_rtl(cp))
        w |= CV_UCD_RTL;
    if (wide(cp))
        w |= CV_UCD_WIDE;
    for (int s = CV_SCRIPT_LATIN; s < CV_SCRIPT_COUNT; s++)
        if (cv_ucd_icu_script_in(cp, (cv_script)s))
            w |= 1u << (CV_UCD_IN_SHIFT + s);
    cv_script r = (cv_script)(w >> CV_UCD_RESOLVE_SHIFT & 0xF);
    if (r == CV_SCRIPT_HAN || r == CV_SCRIPT_KANA || r == CV_SCRIPT_HANGUL)
        w |= CV_UCD_IDEO;
    if ((w & CV_UCD_WIDE) || (w >> (CV_UCD_IN_SHIFT + CV_SCRIPT_HAN) & 1) ||
        (w >> (CV_UCD_IN_SHIFT + CV_SCRIPT_KANA) & 1) ||
        (w >> (CV_UCD_IN_SHIFT + CV_SCRIPT_HANGUL) & 1))
        w |= CV_UCD_CJK;
    if (u_isalpha(c))
        w |= CV_UCD_LETTER;
    if ((cp >= '0' && cp <= '9') || ((w >> CV_UCD_OF_SHIFT & 0xF) == CV_SCRIPT_LATIN &&
                                     (w & CV_UCD_LETTER) && !(w & CV_UCD_WIDE)))
        w |= CV_UCD_LATIN;
    if (u_isupper(c))
        w |= CV_UCD_UPPER;
    if (u_islower(c))
        w |= CV_UCD_LOWER;
    if (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_M_MASK | U_GC_ND_MASK))
        w |= CV_UCD_WORD;
    if (U_GET_GC_MASK(c) & (U_GC_PS_MASK | U_GC_PE_MASK | U_GC_PI_MASK | U_GC_PF_MASK |
                            U_GC_PO_MASK))
        w |= CV_UCD_PUNCT;
    if (u_charType(c) == U_SPACE_SEPARATOR)
        w |= CV_UCD_SPACE;
    return w;
}
