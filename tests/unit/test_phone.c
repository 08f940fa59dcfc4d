/* test_phone.c - phone numbers in RenderCV's three formats (libphonenumber). */
#include "harness.h"
#include "phone.h"

#include <string.h>

static cv_arena *A;

TEST(formats)
{
    CHECK_STR(cv_phone_format(A, "+1 415 555 0132", "national"), "(415) 555-0132");
    CHECK_STR(cv_phone_format(A, "+1 415 555 0132", "international"), "+1 415-555-0132");
    CHECK_STR(cv_phone_format(A, "+1 (415) 555-0132", "E164"), "+14155550132");
    CHECK_STR(cv_phone_format(A, "+44 20 7946 0958", "national"), "020 7946 0958");
    CHECK_STR(cv_phone_format(A, "+44 20 7946 0958", "E164"), "+442079460958");
    /* No country code: a US number, as RenderCV assumes. */
    CHECK_STR(cv_phone_format(A, "415-555-0132", "international"), "+1 415-555-0132");
}

TEST(as_written)
{
    const char *s = "+1 415 555 0132";
    CHECK(cv_phone_format(A, s, NULL) == s);
    CHECK(cv_phone_format(A, s, "local") == s);
    CHECK_STR(cv_phone_format(A, "call me", "national"), "call me");
    CHECK(cv_phone_format(A, NULL, "national") == NULL);
}

TEST(validity)
{
    const char *why;
    CHECK(cv_phone_valid("+1 609 555 0100", &why));
    CHECK(cv_phone_valid("+44 20 7946 0958", &why));
    CHECK(cv_phone_valid("tel:+90-541-999-9999", &why));
    /* As RenderCV: the country code is needed, and the number must exist. */
    CHECK(!cv_phone_valid("609 555 0100", &why));
    CHECK(strstr(why, "country code") != NULL);
    CHECK(!cv_phone_valid("+1 555 555 5555", &why));
    CHECK(strstr(why, "numbering plan") != NULL);
    CHECK(!cv_phone_valid("call me", &why));
    CHECK(!cv_phone_valid("", &why));
}

int main(void)
{
    A = cv_arena_new();
    RUN(formats);
    RUN(as_written);
    RUN(validity);
    cv_arena_free(A);
    return harness_report("phone");
}
