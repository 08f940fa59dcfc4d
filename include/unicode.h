/* unicode.h - the one place that knows Unicode: UTF-8, the script and
 * width of a character, and case.  Everything is ICU's (Scripts.txt,
 * ScriptExtensions.txt, EastAsianWidth.txt, SpecialCasing.txt), so the
 * answers follow the Unicode version of the ICU cvpdf is built with; no
 * other module classifies code point ranges or decodes bytes.  Nothing
 * here reads the C library's locale: the answers are the same under
 * LC_ALL=C as under any other setlocale().
 *
 * UTF-8.  Profile and layout text arrives as UTF-8 that libyaml has
 * already checked, but a decoder must still be total: every byte sequence
 * decodes, a malformed one to U+FFFD, one byte at a time, so that no
 * caller can loop or read past the end.  The encoder covers every scalar
 * value, including those above U+FFFF (four bytes).
 *
 * Scripts.  Layout asks four kinds of question, and each has its function:
 *
 *  - "What script is this letter?" (cv_script_of): the character's Script
 *    property.  Punctuation, digits and marks that several scripts share
 *    (Script=Common or Inherited: "、", "ー", "٫", "َ") are CV_SCRIPT_COMMON:
 *    they belong to no one script.
 *  - "Which one script is it written in?" (cv_script_resolve): the same,
 *    but a shared character whose extensions name only one of the scripts
 *    below is taken for that one: "ー" is kana, "،" Arabic, "、" (Han, kana
 *    and Hangul) stays shared.  Tagging a run's language and the CJK-Latin
 *    gap ask this.
 *  - "Is it used in script S?" (cv_script_in): its Script_Extensions, which
 *    name the scripts a shared character is written with: the Arabic comma
 *    and tatweel, the harakat (Arabic), the danda (Devanagari and other
 *    Indic scripts), "ー" (kana).  Font fallback asks this: the Arabic
 *    comma wants the Arabic face.
 *  - "Is it written right to left?" (cv_script_rtl): its script, or for a
 *    shared character one of the scripts it extends to, runs right to left.
 *
 * Scripts cvpdf treats apart are named; every other is CV_SCRIPT_OTHER.
 * Hiragana and Katakana are one script here, kana (so are the characters
 * both share).  Code points that are not characters (unassigned,
 * surrogates, above U+10FFFF) are CV_SCRIPT_OTHER and in no script.
 *
 * Layout asks these per character, so the answers are a table lookup: a
 * table of ICU's answers for every code point, made when cvpdf is built
 * (tools/gen_ucd.c writes build/ucd_table.h), so that classifying text
 * never loads ICU; test_unicode compares the table with ICU's answers,
 * code point by code point.
 *
 * Case.  cv_upper() and cv_title() are ICU's full case mapping with the
 * profile's language (BCP 47, "tr", "de-CH", "el"): Turkish and Azeri
 * "i" become "İ", German "ß" becomes "SS", Greek capitals lose their
 * accents, Dutch "ij" is title-cased "IJ".  cv_upper_char() maps one
 * character to one, for small capitals.  Text that is all ASCII, in a
 * language whose rules do not reach beyond ASCII for it, is mapped by
 * ASCII's rules, which are ICU's answer there; anything else by ICU's
 * common library, opened with dlopen the first time (when it cannot be,
 * a warning says so once, and letters beyond ASCII keep their case).
 *
 * Everything but the case mappers is a pure function of its arguments:
 * no allocation, thread-safe.  The case mappers allocate their result in
 * the arena (valid until cv_arena_free).
 */
#ifndef CV_UNICODE_H
#define CV_UNICODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

/* ---- UTF-8 -------------------------------------------------------------- */

/* The most bytes one code point takes. */
#define CV_UTF8_MAX 4

/* Decode the code point at s[0..len) (len >= 1) into *cp and return the
 * bytes it takes (1-4).  A malformed or truncated sequence gives U+FFFD and
 * the length of its malformed prefix (at least 1). */
size_t cv_utf8_decode(const char *s, size_t len, uint32_t *cp);

/* The last code point of s[0..len) (len >= 1) as decoding from the start
 * with cv_utf8_decode() would end, read from the end: every byte that is
 * no continuation byte begins one of that walk's steps. */
uint32_t cv_utf8_last(const char *s, size_t len);

/* Encode cp into out (room for CV_UTF8_MAX bytes, not NUL-terminated) and
 * return the number of bytes written. */
size_t cv_utf8_encode(uint32_t cp, char *out);

/* The index of the first byte of the code point that ends just before
 * s[i] (i > 0), looking back at most CV_UTF8_MAX - 1 continuation bytes. */
size_t cv_utf8_prev(const char *s, size_t i);

/* The index just past the code point that starts at s[i] (i < len): i + 1
 * for an ASCII byte or a malformed one, past its continuation bytes
 * (at most CV_UTF8_MAX - 1 of them, and not past len) otherwise. */
size_t cv_utf8_next(const char *s, size_t len, size_t i);

/* Is byte `c` a continuation byte (10xxxxxx), one that begins no code
 * point? */
static inline bool cv_utf8_is_cont(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

/* Is byte `c` the lead byte of a sequence of two to four bytes (11xxxxxx)? */
static inline bool cv_utf8_is_lead(unsigned char c)
{
    return c >= 0xC0;
}

/* The number of code points in s[0..len): every byte but the
 * continuation bytes counts. */
size_t cv_utf8_count(const char *s, size_t len);

/* Is s[0..len) well-formed UTF-8 (no overlong form, surrogate or value
 * above U+10FFFF)?  If not and bad is not NULL, *bad is the offset of the
 * first malformed sequence. */
bool cv_utf8_valid(const char *s, size_t len, size_t *bad);

/* ---- Scripts ------------------------------------------------------------ */

typedef enum cv_script {
    CV_SCRIPT_OTHER,      /* a script not named here, or no character */
    CV_SCRIPT_COMMON,     /* Script=Common or Inherited: shared by several */
    CV_SCRIPT_LATIN,
    CV_SCRIPT_GREEK,
    CV_SCRIPT_CYRILLIC,
    CV_SCRIPT_HEBREW,
    CV_SCRIPT_ARABIC,
    CV_SCRIPT_DEVANAGARI,
    CV_SCRIPT_HAN,
    CV_SCRIPT_KANA,       /* Hiragana and Katakana */
    CV_SCRIPT_HANGUL,
    CV_SCRIPT_COUNT
} cv_script;

/* The script of `cp` by its Script property (CV_SCRIPT_COMMON for a
 * character of Script=Common or Inherited). */
cv_script cv_script_of(uint32_t cp);

/* The script `cp` is written in: its Script, or for a shared character
 * the one script named here among its Script_Extensions ("ー" is kana,
 * the Arabic comma Arabic, the danda Devanagari); CV_SCRIPT_COMMON when
 * they name none or several ("、" is Han, kana and Hangul; a digit is
 * every script's). */
cv_script cv_script_resolve(uint32_t cp);

/* Is `cp` written in script `s`: its Script, or one of its
 * Script_Extensions?  U+060C ARABIC COMMA is in CV_SCRIPT_ARABIC, U+30FC
 * "ー" in CV_SCRIPT_KANA, U+0964 DEVANAGARI DANDA in CV_SCRIPT_DEVANAGARI.
 * Nothing is in CV_SCRIPT_OTHER or CV_SCRIPT_COMMON. */
bool cv_script_in(uint32_t cp, cv_script s);

/* Is `cp` a character of a right-to-left script (Hebrew, Arabic, Syriac,
 * Thaana, N'Ko, Adlam ...), or a shared one used with one (the Arabic
 * comma, the harakat)?  Digits and Latin punctuation are not. */
bool cv_script_rtl(uint32_t cp);

/* ---- CJK classes ---------------------------------------------------------- */

/* Han, kana and Hangul by their script ("ー" included, shared punctuation
 * such as "、" and "・" not): what a quarter-em gap separates from Latin
 * text. */
bool cv_unicode_ideograph(uint32_t cp);

/* Latin letters (not the full-width ones, "Ａ", which sit among Han) and
 * the ASCII digits: what a quarter-em gap separates from an ideograph. */
bool cv_unicode_latin(uint32_t cp);

/* East Asian Width Wide or Fullwidth: the ideographs, kana and Hangul
 * syllables, CJK punctuation ("、", "「"), full-width forms ("！", "Ａ").
 * Emoji (Extended_Pictographic) and their skin tones, wide as they are,
 * are not. */
bool cv_unicode_wide(uint32_t cp);

/* CJK text for line breaking and quotes: wide (above), or written in Han,
 * kana or Hangul (half-width katakana, the half-width "｡" and "｢"). */
bool cv_unicode_cjk(uint32_t cp);

/* ---- Letters and case ------------------------------------------------------ */

/* General category L*, Lu, Ll (ICU's u_isalpha, u_isupper, u_islower). */
bool cv_unicode_letter(uint32_t cp);
bool cv_unicode_upper(uint32_t cp);
bool cv_unicode_lower(uint32_t cp);

/* The simple (one-character, language-independent) lower case of `cp`:
 * "É" -> "é", "Ж" -> "ж"; `cp` itself when it has none. */
uint32_t cv_unicode_tolower(uint32_t cp);

/* A letter, a mark or a decimal digit: a character of a word. */
bool cv_unicode_word(uint32_t cp);

/* Punctuation but dashes and connectors: brackets, quotes, and the
 * commas, stops and marks (general category Ps, Pe, Pi, Pf, Po). */
bool cv_unicode_punct(uint32_t cp);

/* A space separator (Zs): " ", no-break space, the spaces U+2000-U+200A,
 * narrow no-break space, ideographic space. */
bool cv_unicode_space(uint32_t cp);

/* `s` (NUL-terminated UTF-8) in capitals by ICU's full case mapping for
 * language `lang` (BCP 47; NULL or "" for the root rules): "Straße" ->
 * "STRASSE", "istanbul" in "tr" -> "İSTANBUL", "Ένα" in "el" -> "ΕΝΑ".
 * Malformed bytes are kept as they are.  Returns `s` itself when nothing
 * changes, else a string in the arena. */
const char *cv_upper(cv_arena *a, const char *s, const char *lang);

/* s[0..n) with its first character title-cased for `lang` and the rest as
 * it is ("éducation" -> "Éducation", "istanbul" in "tr" -> "İstanbul",
 * "ijsland" in "nl" -> "IJsland"), NUL-terminated in the arena. */
const char *cv_title(cv_arena *a, const char *s, size_t n, const char *lang);

/* The capital of a lower-case letter that has one, one character (the
 * full mapping for `lang` when it is one character: "i" in "tr" is "İ"),
 * and lowers back to `cp`; 0 for any other code point ("ß", whose capital
 * is "SS", an upper-case letter, a digit). */
uint32_t cv_upper_char(uint32_t cp, const char *lang);

/* The capital a lower-case letter is drawn as in capitals or small
 * capitals, one character: cv_upper_char(), except in Greek, whose
 * capitals lose their accents ("ά" -> "Α") and whose final sigma is "Σ";
 * 0 for any other code point. */
uint32_t cv_caps_char(uint32_t cp, const char *lang);

/* Host name `host` (n bytes) as DNS writes it: each label beyond ASCII in
 * Punycode, by UTS #46 ("bücher.de" -> "xn--bcher-kva.de"); an ASCII name
 * as it is.  NULL when it is not a valid name (or ICU is missing). */
const char *cv_idna_ascii(cv_arena *a, const char *host, size_t n);

#endif
