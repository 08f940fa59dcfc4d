/* Unit tests for script.c: the script of letters, of shared characters by
 * their extensions, and the direction of scripts. */
#include "harness.h"

#include "unicode.h"

TEST(letters_by_script)
{
    CHECK(cv_script_of('a') == CV_SCRIPT_LATIN && cv_script_of(0xE9) == CV_SCRIPT_LATIN);
    CHECK(cv_script_of(0x3B1) == CV_SCRIPT_GREEK && cv_script_of(0x1F00) == CV_SCRIPT_GREEK);
    CHECK(cv_script_of(0x416) == CV_SCRIPT_CYRILLIC);                  /* Ж */
    CHECK(cv_script_of(0x5D0) == CV_SCRIPT_HEBREW && cv_script_of(0xFB2A) == CV_SCRIPT_HEBREW);
    CHECK(cv_script_of(0x627) == CV_SCRIPT_ARABIC && cv_script_of(0x6CC) == CV_SCRIPT_ARABIC);
    CHECK(cv_script_of(0xFEFB) == CV_SCRIPT_ARABIC);                   /* lam-alef form */
    CHECK(cv_script_of(0x6F4) == CV_SCRIPT_ARABIC);                    /* Persian four */
    CHECK(cv_script_of(0x915) == CV_SCRIPT_DEVANAGARI && cv_script_of(0xA8F2) == CV_SCRIPT_DEVANAGARI);
    CHECK(cv_script_of(0x4E2D) == CV_SCRIPT_HAN && cv_script_of(0x20BB7) == CV_SCRIPT_HAN);
    CHECK(cv_script_of(0x3005) == CV_SCRIPT_HAN);                      /* 々 */
    CHECK(cv_script_of(0x3042) == CV_SCRIPT_KANA && cv_script_of(0x30AB) == CV_SCRIPT_KANA);
    CHECK(cv_script_of(0xFF76) == CV_SCRIPT_KANA);                     /* half-width カ */
    CHECK(cv_script_of(0xAC00) == CV_SCRIPT_HANGUL && cv_script_of(0x1100) == CV_SCRIPT_HANGUL);
    CHECK(cv_script_of(0xE01) == CV_SCRIPT_OTHER);                     /* Thai */
}

TEST(shared_characters)
{
    /* Common and Inherited are no one script... */
    CHECK(cv_script_of('1') == CV_SCRIPT_COMMON && cv_script_of(' ') == CV_SCRIPT_COMMON);
    CHECK(cv_script_of(0x60C) == CV_SCRIPT_COMMON && cv_script_of(0x64E) == CV_SCRIPT_COMMON);
    CHECK(cv_script_of(0x30FC) == CV_SCRIPT_COMMON && cv_script_of(0x3001) == CV_SCRIPT_COMMON);
    CHECK(cv_script_of(0x200C) == CV_SCRIPT_COMMON);
    /* ...but their extensions say where they are used. */
    CHECK(cv_script_in(0x60C, CV_SCRIPT_ARABIC));      /* Arabic comma */
    CHECK(cv_script_in(0x640, CV_SCRIPT_ARABIC));      /* tatweel */
    CHECK(cv_script_in(0x64E, CV_SCRIPT_ARABIC));      /* fatha */
    CHECK(!cv_script_in(0x64E, CV_SCRIPT_HEBREW));
    CHECK(cv_script_in(0x964, CV_SCRIPT_DEVANAGARI));  /* danda */
    CHECK(cv_script_in(0x30FC, CV_SCRIPT_KANA) && !cv_script_in(0x30FC, CV_SCRIPT_HAN));
    CHECK(cv_script_in(0x3001, CV_SCRIPT_HAN) && cv_script_in(0x3001, CV_SCRIPT_KANA));
    /* A letter is in its own script only. */
    CHECK(cv_script_in(0x627, CV_SCRIPT_ARABIC) && !cv_script_in(0x627, CV_SCRIPT_HEBREW));
    CHECK(cv_script_in(0x3042, CV_SCRIPT_KANA) && cv_script_in(0x30AB, CV_SCRIPT_KANA));
    CHECK(!cv_script_in('1', CV_SCRIPT_ARABIC) && !cv_script_in('a', CV_SCRIPT_COMMON));
    CHECK(!cv_script_in('a', CV_SCRIPT_OTHER));
}

TEST(one_script)
{
    CHECK(cv_script_resolve(0x30FC) == CV_SCRIPT_KANA);       /* ー */
    CHECK(cv_script_resolve(0x3099) == CV_SCRIPT_KANA);       /* combining dakuten */
    CHECK(cv_script_resolve(0x60C) == CV_SCRIPT_ARABIC);      /* Arabic comma */
    CHECK(cv_script_resolve(0x64E) == CV_SCRIPT_ARABIC);      /* fatha */
    CHECK(cv_script_resolve(0x964) == CV_SCRIPT_DEVANAGARI);  /* danda */
    CHECK(cv_script_resolve(0x3001) == CV_SCRIPT_COMMON);     /* 、 Han, kana, Hangul */
    CHECK(cv_script_resolve(0x30FB) == CV_SCRIPT_COMMON);     /* ・ */
    CHECK(cv_script_resolve(0x951) == CV_SCRIPT_COMMON);      /* Devanagari and Latin */
    CHECK(cv_script_resolve('7') == CV_SCRIPT_COMMON && cv_script_resolve(0x200C) == CV_SCRIPT_COMMON);
    CHECK(cv_script_resolve(0x4E2D) == CV_SCRIPT_HAN && cv_script_resolve('q') == CV_SCRIPT_LATIN);
}

TEST(direction)
{
    CHECK(cv_script_rtl(0x5D0) && cv_script_rtl(0x627) && cv_script_rtl(0xFEFB));
    CHECK(cv_script_rtl(0x710));                       /* Syriac */
    CHECK(cv_script_rtl(0x780));                       /* Thaana */
    CHECK(cv_script_rtl(0x1E900));                     /* Adlam */
    CHECK(cv_script_rtl(0x60C) && cv_script_rtl(0x64E) && cv_script_rtl(0x640));
    CHECK(!cv_script_rtl('a') && !cv_script_rtl('1') && !cv_script_rtl(','));
    CHECK(!cv_script_rtl(0x4E2D) && !cv_script_rtl(0x915) && !cv_script_rtl(0x200C));
    CHECK(!cv_script_rtl(0x110000) && !cv_script_of(0x110000) && !cv_script_in(0x110000, CV_SCRIPT_HAN));
}

int main(void)
{
    RUN(letters_by_script);
    RUN(shared_characters);
    RUN(one_script);
    RUN(direction);
    return harness_report("script");
}
