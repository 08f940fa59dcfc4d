/* Unit tests for cjk.c: regions by language, the character classes, and
 * where the ink of full-width punctuation lies in the faces cvpdf uses. */
#include "harness.h"

#include <string.h>

#include "cjk.h"
#include "fontset.h"
#include "unicode.h"

TEST(regions_by_language)
{
    CHECK_STR(cv_cjk_region("zh"), "SC");
    CHECK_STR(cv_cjk_region("zh-Hans"), "SC");
    CHECK_STR(cv_cjk_region("zh-CN"), "SC");
    CHECK_STR(cv_cjk_region("zh-Hant"), "TC");
    CHECK_STR(cv_cjk_region("zh_TW"), "TC");
    CHECK_STR(cv_cjk_region("zh-Hant-HK"), "TC");
    CHECK_STR(cv_cjk_region("zh-HK"), "HK");
    CHECK_STR(cv_cjk_region("ja"), "JP");
    CHECK_STR(cv_cjk_region("ko-KR"), "KR");
    CHECK(cv_cjk_region("en") == NULL && cv_cjk_region("zhx") == NULL &&
          cv_cjk_region(NULL) == NULL && cv_cjk_region("jav") == NULL);
}

TEST(character_classes)
{
    CHECK(cv_unicode_ideograph(0x4E2D) && cv_unicode_ideograph(0x3042) &&   /* 中 あ */
          cv_unicode_ideograph(0x30AB) && cv_unicode_ideograph(0xAC00) &&   /* カ 가 */
          cv_unicode_ideograph(0x20BB7));
    CHECK(!cv_unicode_ideograph(0x3002) && !cv_unicode_ideograph(0xFF09) &&  /* 。） */
          !cv_unicode_ideograph(0x30FB) && !cv_unicode_ideograph('A'));
    CHECK(cv_unicode_latin('a') && cv_unicode_latin('Z') && cv_unicode_latin('7') &&
          cv_unicode_latin(0xE9));
    CHECK(!cv_unicode_latin(' ') && !cv_unicode_latin('+') && !cv_unicode_latin(0xD7) &&
          !cv_unicode_latin(0x4E2D));
    /* Squeezable: brackets, 。，、 and quotes; never dashes, ellipses, letters. */
    static const uint32_t yes[] = {0xFF08, 0xFF09, 0x3002, 0xFF0C, 0x3001, 0x300C, 0x300D,
                                   0x201C, 0x201D, 0xFF1A, 0x30FB, 0};
    static const uint32_t no[] = {0x2014, 0x2026, 0x4E2D, '(', ',', 0x3000, 0xFF21, 0};
    for (size_t i = 0; yes[i]; i++)
        CHECK(cv_cjk_squeezable(yes[i]));
    for (size_t i = 0; no[i]; i++)
        CHECK(!cv_cjk_squeezable(no[i]));
    CHECK(cv_cjk_is_run_mark(0x2014) && cv_cjk_is_run_mark(0x2026) && !cv_cjk_is_run_mark('-'));
}

TEST(ink_of_punctuation)
{
    cv_error err;
    cv_error_init(&err);
    const char *dirs[] = {"fonts", NULL};
    cv_fontset *fs = cv_fontset_new(dirs, &err);
    bool synth;
    int sc = fs ? cv_fontset_find(fs, "Noto Sans CJK SC", false, false, &synth, (cv_pos){0},
                                  &err) : -1;
    int tc = fs ? cv_fontset_find(fs, "Noto Sans CJK TC", false, false, &synth, (cv_pos){0},
                                  &err) : -1;
    int wqy = fs ? cv_fontset_find(fs, "WenQuanYi Micro Hei", false, false, &synth,
                                   (cv_pos){0}, &err) : -1;
    CHECK(sc >= 0 && tc >= 0 && wqy >= 0);
    if (sc < 0 || tc < 0 || wqy < 0) {
        cv_fontset_free(fs);
        return;
    }
    const cv_face *fsc = cv_fontset_face(fs, sc), *ftc = cv_fontset_face(fs, tc),
                  *fw = cv_fontset_face(fs, wqy);
    int lo, hi;
    /* 。 in the corner in simplified Chinese, in the middle in traditional. */
    CHECK(cv_cjk_ink(fsc, cv_face_glyph(fsc, 0x3002), &lo, &hi) && hi < 400);
    CHECK(cv_cjk_ink(ftc, cv_face_glyph(ftc, 0x3002), &lo, &hi) && lo > 300 && hi < 700);
    /* ） on the left in Noto, centred in WenQuanYi. */
    CHECK(cv_cjk_ink(fsc, cv_face_glyph(fsc, 0xFF09), &lo, &hi) && hi < 400);
    CHECK(cv_cjk_ink(fw, cv_face_glyph(fw, 0xFF09), &lo, &hi) && lo > 200 && hi > 500);
    /* A space has no ink; no glyph has none either. */
    CHECK(!cv_cjk_ink(fsc, cv_face_glyph(fsc, ' '), &lo, &hi));
    CHECK(!cv_cjk_ink(fsc, 0, &lo, &hi) && !cv_cjk_ink(NULL, 1, &lo, &hi));
    cv_fontset_free(fs);
}

int main(void)
{
    RUN(regions_by_language);
    RUN(character_classes);
    RUN(ink_of_punctuation);
    return harness_report("cjk");
}
