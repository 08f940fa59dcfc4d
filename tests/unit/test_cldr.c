/* test_cldr.c - month names and date order from CLDR through ICU: the
 * patterns turned into RenderCV's placeholders, and the data of a few
 * languages whose dates are written differently. */
#include "harness.h"
#include "cldr.h"

static cv_arena *A;

TEST(templates_from_patterns)
{
    CHECK_STR(cv_cldr_template(A, "MMM y"), "MONTH_ABBREVIATION YEAR");
    CHECK_STR(cv_cldr_template(A, "y年M月"), "YEAR年MONTH月");
    CHECK_STR(cv_cldr_template(A, "LLLL y"), "MONTH_NAME YEAR");
    CHECK_STR(cv_cldr_template(A, "MM/yy"), "MONTH_IN_TWO_DIGITS/YEAR_IN_TWO_DIGITS");
    CHECK_STR(cv_cldr_template(A, "MMM 'de' y"), "MONTH_ABBREVIATION de YEAR");
    CHECK_STR(cv_cldr_template(A, "y 'o''clock' G"), "YEAR o'clock ");
    CHECK_STR(cv_cldr_template(A, ""), "");
}

TEST(languages)
{
    cv_cldr c;
    CHECK(cv_cldr_dates(A, "en", &c));
    CHECK_STR(c.month_abbr[10], "Nov");
    CHECK_STR(c.month_full[0], "January");
    CHECK_STR(c.date_template, "MONTH_ABBREVIATION YEAR");
    CHECK(cv_cldr_dates(A, "zh", &c));
    CHECK_STR(c.date_template, "YEAR年MONTH月");
    CHECK(cv_cldr_dates(A, "de", &c));
    CHECK_STR(c.month_full[2], "März");
    CHECK(cv_cldr_dates(A, "hu", &c));
    CHECK_STR(c.date_template, "YEAR. MONTH_ABBREVIATION");
    /* Persian: the Gregorian months, not the solar hijri calendar's. */
    CHECK(cv_cldr_dates(A, "fa", &c));
    CHECK(strncmp(c.month_full[0], "ژانویه", strlen("ژانویه")) == 0);
    CHECK(cv_cldr_dates(A, "pt-BR", &c));
    CHECK_STR(c.month_full[0], "janeiro");
    /* Nothing for what ICU does not know. */
    c.date_template = "unchanged";
    CHECK(!cv_cldr_dates(A, "xx", &c));
    CHECK(!cv_cldr_dates(A, "", &c));
    CHECK_STR(c.date_template, "unchanged");
}

int main(void)
{
    A = cv_arena_new();
    RUN(templates_from_patterns);
    RUN(languages);
    cv_arena_free(A);
    return harness_report("cldr");
}
