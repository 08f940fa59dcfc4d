/* script.h - which writing system a character belongs to: the one place
 * that answers it, from Unicode's own tables (ICU's Scripts.txt and
 * ScriptExtensions.txt), not from hand-written ranges.
 *
 * Layout asks three kinds of question, and each has its function:
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
 * Pure functions: no allocation, no state, thread-safe.
 */
#ifndef CV_SCRIPT_H
#define CV_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>

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

#endif
