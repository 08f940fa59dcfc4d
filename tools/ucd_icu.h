/* ucd_icu.h - the Unicode facts src/unicode.c answers with, asked of ICU.
 *
 * cvpdf does not ask ICU at run time: tools/gen_ucd.c asks it once per code
 * point when cvpdf is built and writes the answers into build/ucd_table.h,
 * which src/unicode.c looks them up in.  test_unicode asks ICU again, for
 * every code point, and compares.  One code point's answers are one 32-bit
 * word, laid out as below.
 */
#ifndef CV_UCD_ICU_H
#define CV_UCD_ICU_H

#include <stdbool.h>
#include <stdint.h>

#include "unicode.h"

enum {
    CV_UCD_OF_SHIFT = 0,          /* bits 0-3: cv_script_of() */
    CV_UCD_RESOLVE_SHIFT = 4,     /* bits 4-7: cv_script_resolve() */
    CV_UCD_RTL = 1u << 8,         /* cv_script_rtl() */
    CV_UCD_WIDE = 1u << 9,        /* cv_unicode_wide() */
    CV_UCD_IDEO = 1u << 10,       /* cv_unicode_ideograph() */
    CV_UCD_CJK = 1u << 11,        /* cv_unicode_cjk() */
    CV_UCD_IN_SHIFT = 12,         /* bit 12 + s: cv_script_in(cp, s) */
    CV_UCD_LATIN = 1u << 24,      /* cv_unicode_latin() */
    CV_UCD_LETTER = 1u << 25,     /* cv_unicode_letter() */
    CV_UCD_UPPER = 1u << 26,      /* cv_unicode_upper() */
    CV_UCD_LOWER = 1u << 27,      /* cv_unicode_lower() */
    CV_UCD_WORD = 1u << 28,       /* cv_unicode_word() */
    CV_UCD_PUNCT = 1u << 29,      /* cv_unicode_punct() */
    CV_UCD_SPACE = 1u << 30       /* cv_unicode_space() */
};

/* The word of `cp` (any value; above U+10FFFF nothing is set), from ICU. */
uint32_t cv_ucd_icu(uint32_t cp);

/* The four script answers, from ICU. */
cv_script cv_ucd_icu_script_of(uint32_t cp);
cv_script cv_ucd_icu_script_resolve(uint32_t cp);
bool cv_ucd_icu_script_in(uint32_t cp, cv_script s);
bool cv_ucd_icu_script_rtl(uint32_t cp);

#endif
