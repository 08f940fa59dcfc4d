/* Unit tests for unicode.c: the case mappers with a language (Turkish,
 * German, Greek, French under the C locale), the script cache against ICU
 * asked afresh, the CJK classes and the UTF-8 helpers. */
#include "harness.h"

#include <locale.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "lang.h"
#include "unicode.h"
#include "ucd_icu.h"

#include <unicode/ucasemap.h>
#include <unicode/uchar.h>
#include <unicode/ustring.h>

static cv_arena *A;

TEST(turkish_dotted_capital_i)
{
    CHECK_STR(cv_upper(A, "istanbul iletişim", "tr"), "İSTANBUL İLETİŞİM");
    CHECK_STR(cv_upper(A, "ılık", "tr"), "ILIK");                 /* dotless ı -> I */
    CHECK_STR(cv_upper(A, "istanbul", "tr-TR"), "İSTANBUL");      /* a region too */
    CHECK_STR(cv_upper(A, "istanbul", "az"), "İSTANBUL");         /* Azeri's rule */
    /* Any other language: the dot goes. */
    CHECK_STR(cv_upper(A, "istanbul iletişim", "en"), "ISTANBUL ILETIŞIM");
    CHECK_STR(cv_upper(A, "istanbul", NULL), "ISTANBUL");
    CHECK_STR(cv_title(A, "istanbul", 8, "tr"), "İstanbul");
    CHECK_STR(cv_title(A, "istanbul", 8, "en"), "Istanbul");
    CHECK(cv_upper_char('i', "tr") == 0x130 && cv_upper_char(0x131, "tr") == 'I');
    CHECK(cv_upper_char('i', "de") == 'I' && cv_upper_char(0x131, "de") == 0);
}

TEST(german_sharp_s_is_two_capitals)
{
    CHECK_STR(cv_upper(A, "Straße", "de"), "STRASSE");
    CHECK_STR(cv_upper(A, "Straße", "de-CH"), "STRASSE");
    CHECK_STR(cv_upper(A, "Straße", "en"), "STRASSE");           /* full mapping anywhere */
    /* One character to one only: small capitals leave ß as it is. */
    CHECK(cv_upper_char(0xDF, "de") == 0);
}

TEST(greek_capitals_lose_accents)
{
    CHECK_STR(cv_upper(A, "ΆΈΉ", "el"), "ΑΕΗ");
    CHECK_STR(cv_upper(A, "άέή", "el"), "ΑΕΗ");
    CHECK_STR(cv_upper(A, "Εμπειρία", "el"), "ΕΜΠΕΙΡΙΑ");
    /* Outside Greek, the root rules keep them. */
    CHECK_STR(cv_upper(A, "άέή", "en"), "ΆΈΉ");
    /* A small capital keeps its accent (the root's one-to-one capital). */
    CHECK(cv_upper_char(0x3AC, "el") == 0x386);
    CHECK(cv_upper_char(0x3C2, "el") == 0);            /* final sigma: Σ lowers to σ */
    /* Drawn in capitals or small capitals: without the accent, one sigma. */
    CHECK(cv_caps_char(0x3AC, "el") == 0x391 && cv_caps_char(0x3AD, "el") == 0x395);
    CHECK(cv_caps_char(0x3C2, "el") == 0x3A3 && cv_caps_char(0x3C3, "el") == 0x3A3);
    CHECK(cv_caps_char(0x390, "el") == 0x3AA);         /* ΐ: the dialytika stays */
    CHECK(cv_caps_char(0x391, "el") == 0 && cv_caps_char(0x386, "el") == 0);
    CHECK(cv_caps_char('a', "el") == 'A');
    CHECK(cv_caps_char(0x3AC, "en") == 0x386 && cv_caps_char('i', "tr") == 0x130);
}

TEST(french_under_the_c_locale)
{
    /* The answers do not come from the C library's locale. */
    const char *was = setlocale(LC_ALL, NULL);
    char saved[64];
    snprintf(saved, sizeof saved, "%s", was ? was : "C");
    setlocale(LC_ALL, "C");
    CHECK_STR(cv_upper(A, "expérience à l’étranger", "fr"), "EXPÉRIENCE À L’ÉTRANGER");
    CHECK_STR(cv_title(A, "éducation", strlen("éducation"), "fr"), "Éducation");
    CHECK(cv_upper_char(0xE9, "fr") == 0xC9);
    CHECK(cv_unicode_upper(0xC9) && cv_unicode_lower(0xE9) && cv_unicode_letter(0x4E2D));
    setlocale(LC_ALL, saved);
}

TEST(upper_keeps_what_has_no_case)
{
    const char *s = "ABC 123 — 中文";
    CHECK(cv_upper(A, s, "en") == s);                 /* nothing changes: s itself */
    CHECK_STR(cv_upper(A, "", "tr"), "");
    /* Malformed bytes pass through. */
    CHECK_STR(cv_upper(A, "a\xFF" "b", "en"), "A\xFF" "B");
    /* Title case: the first character only, the rest as written. */
    CHECK_STR(cv_title(A, "xML", 3, "en"), "XML");
    CHECK_STR(cv_title(A, "top_10", 3, "en"), "Top");
    CHECK_STR(cv_title(A, "10x", 3, "en"), "10x");
    CHECK(cv_upper_char('A', "en") == 0 && cv_upper_char('1', "en") == 0);
    CHECK(cv_upper_char(0x110000, "en") == 0 && cv_upper_char(0xD800, "en") == 0);
}

TEST(section_titles_by_language)
{
    CHECK_STR(cv_section_title(A, "iletişim_bilgileri", "tr"), "İletişim Bilgileri");
    CHECK_STR(cv_section_title(A, "iletişim_bilgileri", "en"), "Iletişim Bilgileri");
    CHECK_STR(cv_section_title(A, "éducation", "fr"), "Éducation");
    /* A key with a capital of any script is a title already. */
    const char *k = "İletişim_x";
    CHECK(cv_section_title(A, k, "tr") == k);
}

/* Every answer of the table made when cvpdf was built, for every code
 * point and beyond, is ICU's answer now (tools/ucd_icu.c asks it). */
TEST(table_equals_icu_for_every_code_point)
{
    size_t bad = 0;
    for (uint32_t cp = 0; cp <= 0x110001; cp++) {
        uint32_t w = cv_ucd_icu(cp);
        bool ok = cv_script_of(cp) == cv_ucd_icu_script_of(cp) &&
                  cv_script_resolve(cp) == cv_ucd_icu_script_resolve(cp) &&
                  cv_script_rtl(cp) == cv_ucd_icu_script_rtl(cp) &&
                  cv_unicode_ideograph(cp) == !!(w & CV_UCD_IDEO) &&
                  cv_unicode_cjk(cp) == !!(w & CV_UCD_CJK) &&
                  cv_unicode_wide(cp) == !!(w & CV_UCD_WIDE) &&
                  cv_unicode_latin(cp) == !!(w & CV_UCD_LATIN) &&
                  cv_unicode_letter(cp) == (cp <= 0x10FFFF && u_isalpha((UChar32)cp)) &&
                  cv_unicode_upper(cp) == (cp <= 0x10FFFF && u_isupper((UChar32)cp)) &&
                  cv_unicode_lower(cp) == (cp <= 0x10FFFF && u_islower((UChar32)cp)) &&
                  cv_unicode_word(cp) == !!(w & CV_UCD_WORD) &&
                  cv_unicode_punct(cp) == !!(w & CV_UCD_PUNCT) &&
                  cv_unicode_space(cp) ==
                      (cp <= 0x10FFFF && u_charType((UChar32)cp) == U_SPACE_SEPARATOR);
        for (int sc = 0; sc <= CV_SCRIPT_COUNT; sc++)
            ok &= cv_script_in(cp, (cv_script)sc) == cv_ucd_icu_script_in(cp, (cv_script)sc);
        if (cp <= 0x10FFFF && cp >= 0x80)
            ok &= cv_unicode_tolower(cp) == (uint32_t)u_tolower((UChar32)cp);
        if (!ok && bad++ < 5)
            fprintf(stderr, "  U+%04X differs from ICU\n", (unsigned)cp);
    }
    CHECK(bad == 0);
    CHECK(cv_script_of(0xFFFFFFFF) == CV_SCRIPT_OTHER && !cv_unicode_letter(0xFFFFFFFF));
    CHECK(cv_script_of(0x20BB7) == CV_SCRIPT_HAN && cv_script_rtl(0x1E900));  /* 𠮷, Adlam */
    /* ICU's words say what the header says they do. */
    CHECK(cv_ucd_icu(0x4E2D) & CV_UCD_IDEO && cv_ucd_icu('a') & CV_UCD_LATIN);
    CHECK(cv_ucd_icu(0x3000) & CV_UCD_SPACE && cv_ucd_icu(0x3001) & CV_UCD_PUNCT);
}

/* Case mapping of ASCII text, done without ICU where the language's rules
 * stay in ASCII, is ICU's own answer, in every language whose rules
 * differ and a few that do not. */
TEST(ascii_case_as_icu)
{
    static const char *const langs[] = {"", "en", "de", "fr", "tr", "az", "nl", "lt", "el",
                                        "tr-TR", "NL"};
    char s[24];
    unsigned long long r = 12345;
    size_t bad = 0;
    for (size_t l = 0; l < sizeof langs / sizeof *langs; l++) {
        char loc[9] = "";
        for (size_t i = 0; langs[l][i] && langs[l][i] != '-' && i < 8; i++)
            loc[i] = (char)(langs[l][i] | 0x20), loc[i + 1] = 0;
        for (int t = 0; t < 3000; t++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            size_t n = 1 + (size_t)(r >> 40) % 20;
            for (size_t i = 0; i < n; i++) {
                r = r * 6364136223846793005ull + 1442695040888963407ull;
                static const char pool[] = "aijIJ sSzZ0-._'\"(xyQ";
                s[i] = (r >> 33) % 3 ? pool[(r >> 35) % (sizeof pool - 1)]
                                     : (char)(32 + (r >> 40) % 95);
            }
            s[n] = 0;
            char want[96];
            UErrorCode st = U_ZERO_ERROR;
            UCaseMap *cm = ucasemap_open(loc, 0, &st);
            int32_t m = ucasemap_utf8ToUpper(cm, want, sizeof want, s, (int32_t)n, &st);
            want[m] = 0;
            ucasemap_close(cm);
            bad += strcmp(cv_upper(A, s, langs[l]), want) != 0;
            st = U_ZERO_ERROR;
            cm = ucasemap_open(loc, U_TITLECASE_WHOLE_STRING | U_TITLECASE_NO_LOWERCASE |
                                        U_TITLECASE_NO_BREAK_ADJUSTMENT, &st);
            m = ucasemap_utf8ToTitle(cm, want, sizeof want, s, (int32_t)n, &st);
            want[m] = 0;
            ucasemap_close(cm);
            bad += strcmp(cv_title(A, s, n, langs[l]), want) != 0;
        }
        for (uint32_t c = 0; c < 0x80; c++) {
            UChar in[1] = {(UChar)c}, up[4], down[4];
            UErrorCode st = U_ZERO_ERROR;
            int32_t m = u_strToUpper(up, 4, in, 1, loc, &st);
            int32_t k = m == 1 ? u_strToLower(down, 4, up, 1, loc, &st) : 0;
            uint32_t want = m == 1 && up[0] != c && k == 1 && down[0] == c ? up[0] : 0;
            if (!want && *loc) {          /* the root's, as cv_upper_char() goes on */
                st = U_ZERO_ERROR;
                m = u_strToUpper(up, 4, in, 1, "", &st);
                k = m == 1 ? u_strToLower(down, 4, up, 1, "", &st) : 0;
                want = m == 1 && up[0] != c && k == 1 && down[0] == c ? up[0] : 0;
            }
            bad += cv_upper_char(c, langs[l]) != want;
        }
    }
    CHECK(bad == 0);
    CHECK_STR(cv_upper(A, "istanbul", "tr"), "İSTANBUL");
    CHECK_STR(cv_title(A, "ijsland", 7, "nl"), "IJsland");
    CHECK(cv_upper_char('i', "tr") == 0x130 && cv_upper_char('i', "en") == 'I');
}

TEST(cjk_classes)
{
    CHECK(cv_unicode_ideograph(0x4E2D) && cv_unicode_ideograph(0x30FC));    /* 中 ー */
    CHECK(!cv_unicode_ideograph(0x3001) && !cv_unicode_ideograph('A'));    /* 、 */
    CHECK(cv_unicode_cjk(0x4E2D) && cv_unicode_cjk(0x3001) && cv_unicode_cjk(0xFF01));
    CHECK(cv_unicode_cjk(0xAC00) && cv_unicode_cjk(0x1100) && cv_unicode_cjk(0x20BB7));
    CHECK(cv_unicode_cjk(0xFF61) && cv_unicode_cjk(0xFF76));       /* half-width ｡ ｶ */
    CHECK(!cv_unicode_cjk('A') && !cv_unicode_cjk(0xE9) && !cv_unicode_cjk(0x2014));
    CHECK(!cv_unicode_cjk(0x1F600) && !cv_unicode_wide(0x1F600));  /* an emoji */
    CHECK(cv_unicode_wide(0xFF21) && !cv_unicode_wide('A') && !cv_unicode_wide(0xFF76));
    CHECK(cv_unicode_space(0xA0) && cv_unicode_space(0x3000) && cv_unicode_space(0x202F));
    CHECK(!cv_unicode_space('\n') && !cv_unicode_space('a'));
    CHECK(cv_unicode_word(0xE9) && cv_unicode_word(0x301) && cv_unicode_word('7'));
    CHECK(!cv_unicode_word('-') && !cv_unicode_word(0x2019));
    CHECK(cv_unicode_latin('a') && cv_unicode_latin('7') && cv_unicode_latin(0x1EA1)); /* ạ */
    CHECK(!cv_unicode_latin(0xFF21) && !cv_unicode_latin(0xD7) && !cv_unicode_latin(0x3B1));
    CHECK(cv_unicode_punct(0x3002) && cv_unicode_punct(0xFF08) && cv_unicode_punct(0x201C));
    CHECK(!cv_unicode_punct(0x2014) && !cv_unicode_punct('_') && !cv_unicode_punct('a'));
    CHECK(cv_unicode_tolower(0xC9) == 0xE9 && cv_unicode_tolower(0x416) == 0x436);
}

TEST(utf8_helpers)
{
    const char *s = "aé方𠮷";
    size_t n = strlen(s);
    CHECK(cv_utf8_count(s, n) == 4);
    CHECK(cv_utf8_next(s, n, 0) == 1 && cv_utf8_next(s, n, 1) == 3);
    CHECK(cv_utf8_next(s, n, 3) == 6 && cv_utf8_next(s, n, 6) == 10);
    CHECK(cv_utf8_next("\xE6\x96", 2, 0) == 2);                  /* stops at the end */
    CHECK(cv_utf8_next("\x80\x80\x80\x80\x80", 5, 0) == 4);     /* at most 3 more */
    CHECK(cv_utf8_is_cont(0x80) && !cv_utf8_is_cont('a') && cv_utf8_is_lead(0xE6));
    size_t bad = 99;
    CHECK(cv_utf8_valid(s, n, &bad) && bad == 99);
    CHECK(cv_utf8_valid("\xEF\xBF\xBD", 3, NULL));               /* U+FFFD itself */
    CHECK(!cv_utf8_valid("ab\xC3", 3, &bad) && bad == 2);       /* truncated */
    CHECK(!cv_utf8_valid("a\xE0\x80\x80", 4, &bad) && bad == 1); /* overlong */
    CHECK(!cv_utf8_valid("\xED\xA0\x80", 3, &bad) && bad == 0); /* a surrogate */
    CHECK(!cv_utf8_valid("\xE9t\xE9", 3, &bad) && bad == 0);     /* Latin-1 */
}

/* cv_utf8_last() ends where decoding from the start ends, on every string
 * of up to six bytes drawn from bytes that matter (ASCII, continuation
 * bytes, leads of each length, bytes no sequence starts with). */
TEST(utf8_last_is_the_walks_end)
{
    static const unsigned char bytes[] = {'a', 0x80, 0xBF, 0xC2, 0xC3, 0xE6, 0xF0, 0xF4,
                                          0xC0, 0xF8, 0xFF, 0x96, 0x9F};
    const size_t nb = sizeof bytes;
    char s[6];
    size_t tried = 0, wrong = 0;
    for (size_t len = 1; len <= 6; len++) {
        size_t total = 1;
        for (size_t i = 0; i < len; i++)
            total *= len <= 4 ? nb : 5;          /* longer strings: the first five bytes */
        for (size_t code = 0; code < total; code++) {
            size_t c = code;
            for (size_t i = 0; i < len; i++) {
                size_t base = len <= 4 ? nb : 5;
                s[i] = (char)bytes[c % base];
                c /= base;
            }
            uint32_t walk = 0;
            for (size_t k = 0; k < len;)
                k += cv_utf8_decode(s + k, len - k, &walk);
            tried++;
            wrong += cv_utf8_last(s, len) != walk;
        }
    }
    CHECK(tried > 30000 && wrong == 0);
    CHECK(cv_utf8_last("a\xE6\x96\xB9", 4) == 0x65B9);           /* 方 */
    CHECK(cv_utf8_last("\xF0\xA0\xAE\xB7", 4) == 0x20BB7);        /* 𠮷 */
    CHECK(cv_utf8_last("\xE6\x96", 2) == 0xFFFD);                  /* truncated */
}

int main(void)
{
    A = cv_arena_new();
    RUN(turkish_dotted_capital_i);
    RUN(german_sharp_s_is_two_capitals);
    RUN(greek_capitals_lose_accents);
    RUN(french_under_the_c_locale);
    RUN(upper_keeps_what_has_no_case);
    RUN(section_titles_by_language);
    RUN(table_equals_icu_for_every_code_point);
    RUN(ascii_case_as_icu);
    RUN(cjk_classes);
    RUN(utf8_helpers);
    RUN(utf8_last_is_the_walks_end);
    cv_arena_free(A);
    return harness_report("unicode");
}
