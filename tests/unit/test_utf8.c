/* Unit tests for utf8.c: every length, malformed input, round trips. */
#include "harness.h"

#include <stdint.h>
#include <string.h>

#include "unicode.h"

TEST(decodes_every_length)
{
    uint32_t cp;
    CHECK(cv_utf8_decode("A", 1, &cp) == 1 && cp == 'A');
    CHECK(cv_utf8_decode("é", 2, &cp) == 2 && cp == 0xE9);
    CHECK(cv_utf8_decode("方", 3, &cp) == 3 && cp == 0x65B9);
    CHECK(cv_utf8_decode("𠮷", 4, &cp) == 4 && cp == 0x20BB7);
}

TEST(malformed_is_replacement_and_advances)
{
    uint32_t cp;
    CHECK(cv_utf8_decode("\x80", 1, &cp) == 1 && cp == 0xFFFD);     /* lone continuation */
    CHECK(cv_utf8_decode("\xC0\xAF", 2, &cp) == 1 && cp == 0xFFFD); /* overlong lead */
    CHECK(cv_utf8_decode("\xE6\x96", 2, &cp) == 1 && cp == 0xFFFD); /* truncated */
    CHECK(cv_utf8_decode("\xE6" "A", 2, &cp) == 1 && cp == 0xFFFD);
    CHECK(cv_utf8_decode("\xE6\x96" "A", 3, &cp) == 2 && cp == 0xFFFD);
    CHECK(cv_utf8_decode("\xF5\x80\x80\x80", 4, &cp) == 1 && cp == 0xFFFD);
}

TEST(encodes_round_trip)
{
    static const uint32_t cps[] = {0, 'z', 0x7F, 0x80, 0x7FF, 0x800, 0x65B9, 0xFFFF,
                                   0x10000, 0x1F600, 0x10FFFF};
    for (size_t i = 0; i < sizeof cps / sizeof *cps; i++) {
        char b[CV_UTF8_MAX];
        size_t n = cv_utf8_encode(cps[i], b);
        uint32_t back;
        CHECK(cv_utf8_decode(b, n, &back) == n);
        CHECK(back == cps[i]);
    }
    char b[CV_UTF8_MAX];
    CHECK(cv_utf8_encode(0x20BB7, b) == 4 && memcmp(b, "𠮷", 4) == 0);
    CHECK(cv_utf8_encode(0x110000, b) == 3 && memcmp(b, "\xEF\xBF\xBD", 3) == 0);
}

TEST(steps_back)
{
    const char *s = "a方𠮷é";
    CHECK(cv_utf8_prev(s, 1) == 0);
    CHECK(cv_utf8_prev(s, 4) == 1);
    CHECK(cv_utf8_prev(s, 8) == 4);
    CHECK(cv_utf8_prev(s, 10) == 8);
}

int main(void)
{
    RUN(decodes_every_length);
    RUN(malformed_is_replacement_and_advances);
    RUN(encodes_round_trip);
    RUN(steps_back);
    return harness_report("utf8");
}
