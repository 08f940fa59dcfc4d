/* test_date.c - dates: shapes, checks, RenderCV's entry rules, comparison,
 * formatting with English and Chinese templates, ranges. */
#include "date.h"
#include "harness.h"

static cv_arena *A;
#include "errcheck.h"

/* The root mapping of `yaml`, with a fresh error state. */
static cv_yml *map(const char *yaml)
{
    cv_error_init(&E);
    return cv_yml_load(A, "d.yaml", yaml, strlen(yaml), &E);
}

/* Read `value` as the date field `field` (free text allowed in `date`). */
static bool read(const char *field, const char *value, cv_date *out)
{
    char yaml[256];
    snprintf(yaml, sizeof yaml, "%s: %s\n", field, value);
    cv_yml *root = map(yaml);
    if (!root)
        return false;
    return cv_date_read(cv_yml_get(root, field), field, strcmp(field, "date") == 0, out, &E);
}

static cv_date date_of(cv_date_kind kind, int year, int month, int day)
{
    return (cv_date){kind, year, month, day, NULL, {0}};
}

TEST(shapes)
{
    int y, m, d;
    CHECK(cv_date_shape("2020", &y, &m, &d) == CV_DATE_YEAR && y == 2020);
    CHECK(cv_date_shape("2020-07", &y, &m, &d) == CV_DATE_MONTH && y == 2020 && m == 7);
    CHECK(cv_date_shape("2020-7", &y, &m, &d) == CV_DATE_MONTH && m == 7);
    CHECK(cv_date_shape("2020-07-15", &y, &m, &d) == CV_DATE_DAY && m == 7 && d == 15);
    CHECK(cv_date_shape("2020-7-5", &y, &m, &d) == CV_DATE_DAY && m == 7 && d == 5);
    /* Shape only: values are checked by cv_date_read(). */
    CHECK(cv_date_shape("2020-13-99", &y, &m, &d) == CV_DATE_DAY && m == 13 && d == 99);
    CHECK(cv_date_shape("202", &y, &m, &d) == CV_DATE_NONE);
    CHECK(cv_date_shape("20201", &y, &m, &d) == CV_DATE_NONE);
    CHECK(cv_date_shape("2020-", &y, &m, &d) == CV_DATE_NONE);
    CHECK(cv_date_shape("2020-07-", &y, &m, &d) == CV_DATE_NONE);
    CHECK(cv_date_shape("2020-123", &y, &m, &d) == CV_DATE_NONE);
    CHECK(cv_date_shape("2020/07", &y, &m, &d) == CV_DATE_NONE);
    CHECK(cv_date_shape("2020-07-15x", &y, &m, &d) == CV_DATE_NONE);
    CHECK(cv_date_shape("Fall 2023", &y, &m, &d) == CV_DATE_NONE);
}

TEST(read_forms)
{
    cv_date d;
    CHECK(read("date", "2019", &d) && d.kind == CV_DATE_YEAR && d.year == 2019 && d.month == 0);
    CHECK(read("date", "2019-07", &d) && d.kind == CV_DATE_MONTH && d.month == 7 && d.day == 0);
    CHECK(read("start_date", "2019-07-15", &d) && d.kind == CV_DATE_DAY && d.year == 2019 &&
          d.month == 7 && d.day == 15);
    CHECK(d.pos.line == 1 && d.pos.col == 13);
    CHECK_STR(d.pos.file, "d.yaml");
    CHECK(read("end_date", "present", &d) && d.kind == CV_DATE_PRESENT);
    /* RenderCV's present is lower case; its forms have two-digit months. */
    CHECK(!read("end_date", "Present", &d));
    CHECK(read("date", "Present", &d) && d.kind == CV_DATE_TEXT);
    CHECK(!read("start_date", "2020-7", &d));
    CHECK(read("date", "2020-7", &d) && d.kind == CV_DATE_TEXT);
    CHECK(!read("end_date", "2020-07-5", &d));
    CHECK(read("date", "Fall 2023", &d) && d.kind == CV_DATE_TEXT);
    CHECK_STR(d.text, "Fall 2023");
    /* A year range written as one string is text, as in RenderCV. */
    CHECK(read("date", "2019-2021", &d) && d.kind == CV_DATE_TEXT);
    /* Absent and null give no date. */
    CHECK(read("date", "~", &d) && d.kind == CV_DATE_NONE);
    cv_date none = date_of(CV_DATE_YEAR, 1, 1, 1);
    CHECK(cv_date_read(NULL, "date", true, &none, &E) && none.kind == CV_DATE_NONE &&
          none.year == 0);
}

TEST(read_errors)
{
    cv_date d;
    CHECK(!read("date", "2023-13", &d));
    CHECK_STR(errstr(), "1:7: invalid date '2023-13': month must be between 1 and 12");
    CHECK(!read("date", "2023-00", &d));
    CHECK(has(E.msg, "month must be between 1 and 12"));
    /* A year below 1000 is a date, as in RenderCV (Python's dates start
     * at year 1); year 0 is not. */
    CHECK(read("date", "0999-05", &d));
    CHECK(d.kind == CV_DATE_MONTH && d.year == 999 && d.month == 5);
    CHECK(!read("date", "0000-05", &d));
    CHECK(has(E.msg, "year must be between 0001 and 9999"));
    CHECK(!read("date", "2023-04-31", &d));
    CHECK(has(E.msg, "day must be between 1 and 30 for April 2023"));
    CHECK(!read("date", "2023-01-00", &d));
    CHECK(has(E.msg, "day must be between 1 and 31 for January 2023"));
    CHECK(!read("date", "20233", &d));
    CHECK_STR(E.msg, "invalid date '20233': use YYYY, YYYY-MM or YYYY-MM-DD");
    CHECK(!read("start_date", "2019-2021", &d));
    CHECK_STR(E.msg, "invalid start_date '2019-2021': use YYYY, YYYY-MM or YYYY-MM-DD");
    CHECK(!read("start_date", "present", &d));
    CHECK(has(E.msg, "invalid start_date 'present': a start date must be a date"));
    CHECK(!read("start_date", "spring", &d));
    CHECK_STR(E.msg, "invalid start_date 'spring': use YYYY, YYYY-MM or YYYY-MM-DD");
    CHECK(!read("end_date", "soon", &d));
    CHECK_STR(E.msg, "invalid end_date 'soon': use YYYY, YYYY-MM, YYYY-MM-DD or present");
    CHECK(!read("date", "[2020]", &d));
    CHECK_STR(errstr(), "1:7: 'date' must be a date, not a list");
}

TEST(leap_years)
{
    cv_date d;
    CHECK(read("date", "2024-02-29", &d) && d.day == 29);   /* divisible by 4 */
    CHECK(read("date", "2000-02-29", &d) && d.day == 29);   /* by 400 */
    CHECK(!read("date", "1900-02-29", &d));                  /* by 100, not 400 */
    CHECK(has(E.msg, "day must be between 1 and 28 for February 1900"));
    CHECK(!read("date", "2023-02-29", &d));
    CHECK(has(E.msg, "between 1 and 28 for February 2023"));
    CHECK(!read("date", "2024-02-30", &d));
    CHECK(has(E.msg, "between 1 and 29 for February 2024"));
}

/* Read the dates of the entry mapping `yaml`; false on an error (in E). */
static bool entry(const char *yaml, cv_date *date, cv_date *start, cv_date *end)
{
    cv_yml *root = map(yaml);
    return root && cv_date_read_entry(root, date, start, end, &E);
}

TEST(entry_rules)
{
    cv_date d, s, e;
    /* `date` wins over start and end. */
    CHECK(entry("date: 2019\nstart_date: 2010\nend_date: 2011\n", &d, &s, &e));
    CHECK(d.kind == CV_DATE_YEAR && d.year == 2019);
    CHECK(s.kind == CV_DATE_NONE && e.kind == CV_DATE_NONE);
    /* An end alone is a single date. */
    CHECK(entry("end_date: 2020-02\n", &d, &s, &e));
    CHECK(d.kind == CV_DATE_MONTH && d.month == 2 && e.kind == CV_DATE_NONE);
    /* A start alone is ongoing: its end is present, at the start's place. */
    CHECK(entry("start_date: 2020\n", &d, &s, &e));
    CHECK(d.kind == CV_DATE_NONE && e.kind == CV_DATE_PRESENT && e.pos.line == s.pos.line);
    /* An end before its start. */
    CHECK(!entry("start_date: 2021-05\nend_date: 2020-01\n", &d, &s, &e));
    CHECK_STR(errstr(), "2:11: end_date '2020-01' is before start_date '2021-05'");
    CHECK(!entry("start_date: 2021-05-02\nend_date: 2021-05-01\n", &d, &s, &e));
    /* As RenderCV, a missing month or day is the first: 2020 is 2020-01-01. */
    CHECK(!entry("start_date: 2020-05\nend_date: 2020\n", &d, &s, &e));
    CHECK(!entry("start_date: 2020-05-03\nend_date: 2020-05\n", &d, &s, &e));
    CHECK(entry("start_date: 2020\nend_date: 2020-05\n", &d, &s, &e));
    CHECK(entry("start_date: 2020-05\nend_date: 2020-05-01\n", &d, &s, &e));
    CHECK(entry("start_date: 2020\nend_date: present\n", &d, &s, &e));
    /* No dates at all. */
    CHECK(entry("name: x\n", &d, &s, &e) && d.kind == CV_DATE_NONE &&
          s.kind == CV_DATE_NONE && e.kind == CV_DATE_NONE);
}

TEST(compare)
{
    cv_date y2020 = date_of(CV_DATE_YEAR, 2020, 0, 0);
    cv_date may = date_of(CV_DATE_MONTH, 2020, 5, 0), june = date_of(CV_DATE_MONTH, 2020, 6, 0);
    cv_date d1 = date_of(CV_DATE_DAY, 2020, 5, 1), d2 = date_of(CV_DATE_DAY, 2020, 5, 2);
    cv_date now = date_of(CV_DATE_PRESENT, 0, 0, 0);
    cv_date far = date_of(CV_DATE_DAY, 9999, 12, 31);
    CHECK(cv_date_cmp(&may, &june) < 0 && cv_date_cmp(&june, &may) > 0);
    CHECK(cv_date_cmp(&d1, &d2) < 0 && cv_date_cmp(&d2, &d1) > 0);
    CHECK(cv_date_cmp(&d1, &d1) == 0);
    CHECK(cv_date_cmp(&y2020, &may) == 0 && cv_date_cmp(&may, &d2) == 0);
    CHECK(cv_date_cmp(&y2020, &far) < 0);
    CHECK(cv_date_cmp(&far, &now) < 0 && cv_date_cmp(&now, &far) > 0);
    CHECK(cv_date_cmp(&now, &now) == 0);
}

TEST(format_english)
{
    const cv_locale *en = cv_locale_english();
    cv_date m = date_of(CV_DATE_MONTH, 2019, 7, 0), day = date_of(CV_DATE_DAY, 2019, 7, 5);
    CHECK_STR(cv_date_format(A, &m, en), "Jul 2019");
    CHECK_STR(cv_date_format(A, &m, NULL), "Jul 2019");
    /* The default template has no DAY: a day shows as its month. */
    CHECK_STR(cv_date_format(A, &day, en), "Jul 2019");
    cv_date y = date_of(CV_DATE_YEAR, 2019, 0, 0);
    CHECK_STR(cv_date_format(A, &y, en), "2019");
    cv_date now = date_of(CV_DATE_PRESENT, 0, 0, 0);
    CHECK_STR(cv_date_format(A, &now, en), "present");
    cv_date text = {CV_DATE_TEXT, 0, 0, 0, "Summer 2020", {0}};
    CHECK_STR(cv_date_format(A, &text, en), "Summer 2020");
    cv_date none = date_of(CV_DATE_NONE, 0, 0, 0);
    CHECK(cv_date_format(A, &none, en) == NULL);

    cv_locale loc = *en;
    loc.date_template = "MONTH_NAME DAY, YEAR";
    CHECK_STR(cv_date_format(A, &day, &loc), "July 5, 2019");
    CHECK_STR(cv_date_format(A, &m, &loc), "July 2019");     /* no "July , 2019" */
    loc.date_template = "YEAR-MONTH_IN_TWO_DIGITS-DAY_IN_TWO_DIGITS";
    CHECK_STR(cv_date_format(A, &day, &loc), "2019-07-05");
    CHECK_STR(cv_date_format(A, &m, &loc), "2019-07");
    loc.date_template = "MONTH/DAY/YEAR_IN_TWO_DIGITS";
    CHECK_STR(cv_date_format(A, &day, &loc), "7/5/19");
    CHECK_STR(cv_date_format(A, &m, &loc), "7/19");
    /* Words a locale leaves out are English. */
    loc.month_abbr[6] = NULL;
    loc.present = NULL;
    loc.date_template = NULL;
    CHECK_STR(cv_date_format(A, &m, &loc), "Jul 2019");
    CHECK_STR(cv_date_format(A, &now, &loc), "present");
}

/* RenderCV 2's Chinese locale. */
static cv_locale chinese(void)
{
    static const char *const abbr[12] = {"1月", "2月", "3月", "4月", "5月", "6月",
                                         "7月", "8月", "9月", "10月", "11月", "12月"};
    cv_locale loc = *cv_locale_english();
    loc.language = "zh";
    for (int i = 0; i < 12; i++)
        loc.month_abbr[i] = abbr[i];
    loc.present = "至今";
    loc.date_template = "YEAR年MONTH_ABBREVIATION";
    return loc;
}

TEST(format_chinese)
{
    cv_locale loc = chinese();
    cv_date m = date_of(CV_DATE_MONTH, 2019, 7, 0), day = date_of(CV_DATE_DAY, 2019, 11, 5);
    CHECK_STR(cv_date_format(A, &m, &loc), "2019年7月");
    CHECK_STR(cv_date_format(A, &day, &loc), "2019年11月");
    cv_date now = date_of(CV_DATE_PRESENT, 0, 0, 0);
    CHECK_STR(cv_date_format(A, &now, &loc), "至今");
    /* A missing day takes its 日 along. */
    loc.date_template = "YEAR年MONTH月DAY日";
    CHECK_STR(cv_date_format(A, &day, &loc), "2019年11月5日");
    CHECK_STR(cv_date_format(A, &m, &loc), "2019年7月");
}

/* Each date whole and the dash with the first: no-break spaces there (a
 * line breaks after the dash), a space after the dash. */
#define NB "\xC2\xA0"

TEST(ranges)
{
    const cv_locale *en = cv_locale_english();
    cv_date none = date_of(CV_DATE_NONE, 0, 0, 0);
    cv_date from = date_of(CV_DATE_MONTH, 2019, 7, 0), to = date_of(CV_DATE_MONTH, 2022, 2, 0);
    cv_date now = date_of(CV_DATE_PRESENT, 0, 0, 0), y = date_of(CV_DATE_YEAR, 2018, 0, 0);
    CHECK_STR(cv_date_range(A, &none, &from, &to, en), "Jul" NB "2019" NB "\xE2\x80\x93 Feb" NB "2022");
    CHECK_STR(cv_date_range(A, &none, &from, &now, NULL), "Jul" NB "2019" NB "\xE2\x80\x93 present");
    /* A start without an end is ongoing; an end alone is shown alone. */
    CHECK_STR(cv_date_range(A, &none, &from, &none, en), "Jul" NB "2019" NB "\xE2\x80\x93 present");
    CHECK_STR(cv_date_range(A, &none, &none, &to, en), "Feb 2022");
    /* `date` wins. */
    CHECK_STR(cv_date_range(A, &y, &from, &to, en), "2018");
    CHECK(cv_date_range(A, &none, &none, &none, en) == NULL);

    cv_locale zh = chinese();
    CHECK_STR(cv_date_range(A, &none, &from, &now, &zh), "2019年7月" NB "\xE2\x80\x93 至今");
    CHECK_STR(cv_date_range(A, &none, &from, &none, &zh), "2019年7月" NB "\xE2\x80\x93 至今");
    zh.to = "";     /* no separator */
    CHECK_STR(cv_date_range(A, &none, &from, &to, &zh), "2019年7月 2022年2月");
    zh.to = "bis";
    CHECK_STR(cv_date_range(A, &none, &from, &to, &zh), "2019年7月" NB "bis 2022年2月");
}

TEST(time_spans)
{
    cv_date s = {.kind = CV_DATE_MONTH, .year = 2019, .month = 10};
    cv_date e = {.kind = CV_DATE_MONTH, .year = 2023, .month = 11};
    cv_date today = {.kind = CV_DATE_MONTH, .year = 2024, .month = 1};
    CHECK_STR(cv_date_span(A, &s, &e, &today, NULL), "4 years 1 month");
    e.year = 2020, e.month = 3;
    CHECK_STR(cv_date_span(A, &s, &e, &today, NULL), "5 months");
    e.year = 2020, e.month = 10;
    CHECK_STR(cv_date_span(A, &s, &e, &today, NULL), "1 year");
    cv_date now = {.kind = CV_DATE_PRESENT};
    CHECK_STR(cv_date_span(A, &s, &now, &today, NULL), "4 years 3 months");
    CHECK_STR(cv_date_span(A, &s, &s, &today, NULL), "0 months");
    cv_date y1 = {.kind = CV_DATE_YEAR, .year = 2015}, y2 = {.kind = CV_DATE_YEAR, .year = 2018};
    CHECK_STR(cv_date_span(A, &y1, &y2, &today, NULL), "3 years");
    CHECK(cv_date_span(A, &e, &s, &today, NULL) == NULL);          /* backwards */
    cv_date none = {0};
    CHECK(cv_date_span(A, &none, &e, &today, NULL) == NULL);
    /* The locale's words; none of a space before a CJK one. */
    cv_locale zh = *cv_locale_english();
    zh.year = zh.years = "年";
    zh.month = zh.months = "个月";
    e.year = 2023, e.month = 11;
    CHECK_STR(cv_date_span(A, &s, &e, &today, &zh), "4年1个月");
}

/* A range of its own shape (the locale's `range`, from the layout's
 * dates.range): START_DATE and END_DATE filled in, END_DATE present for an
 * ongoing one; `date` still wins, and an end alone is shown alone. */
TEST(range_shapes)
{
    cv_locale loc = *cv_locale_english();
    cv_date none = date_of(CV_DATE_NONE, 0, 0, 0), y = date_of(CV_DATE_YEAR, 2018, 0, 0);
    cv_date a = date_of(CV_DATE_MONTH, 2021, 2, 0), b = date_of(CV_DATE_PRESENT, 0, 0, 0);
    cv_date c = date_of(CV_DATE_YEAR, 2023, 0, 0);
    loc.range = "END_DATE (since START_DATE)";
    CHECK_STR(cv_date_range(A, &none, &a, &b, &loc), "present (since Feb 2021)");
    CHECK_STR(cv_date_range(A, &none, &a, &none, &loc), "present (since Feb 2021)");
    loc.range = "from START_DATE to END_DATE";
    CHECK_STR(cv_date_range(A, &none, &a, &c, &loc), "from Feb 2021 to 2023");
    CHECK_STR(cv_date_range(A, &y, &a, &c, &loc), "2018");
    CHECK_STR(cv_date_range(A, &none, &none, &c, &loc), "2023");
    loc.range = "";
    CHECK_STR(cv_date_range(A, &none, &a, &c, &loc), "");
}

static const char *rcv_span(const char *tmpl, cv_date s, cv_date e, const char *today)
{
    return cv_date_time_span(A, tmpl, &s, &e, today, NULL);
}

/* RenderCV's time spans (dates.show_time_spans_in): years of 365 days,
 * months of 30, the month begun counted, through dates.time_span. */
TEST(rendercv_time_spans)
{
    cv_date now = date_of(CV_DATE_PRESENT, 0, 0, 0);
    CHECK_STR(rcv_span(NULL, date_of(CV_DATE_MONTH, 2023, 6, 0), now, "2026-03-15"),
              "2 years 10 months");
    CHECK_STR(rcv_span(NULL, date_of(CV_DATE_MONTH, 2022, 5, 0),
                       date_of(CV_DATE_MONTH, 2022, 8, 0), NULL), "4 months");
    CHECK_STR(rcv_span(NULL, date_of(CV_DATE_MONTH, 2020, 1, 0),
                       date_of(CV_DATE_MONTH, 2020, 1, 0), NULL), "1 month");
    CHECK_STR(rcv_span(NULL, date_of(CV_DATE_MONTH, 2019, 1, 0),
                       date_of(CV_DATE_MONTH, 2020, 1, 0), NULL), "1 year 1 month");
    CHECK_STR(rcv_span(NULL, date_of(CV_DATE_YEAR, 2015, 0, 0),
                       date_of(CV_DATE_YEAR, 2020, 0, 0), NULL), "5 years");
    CHECK_STR(rcv_span(NULL, date_of(CV_DATE_YEAR, 2019, 0, 0),
                       date_of(CV_DATE_YEAR, 2020, 0, 0), NULL), "1 year");
    CHECK(rcv_span(NULL, date_of(CV_DATE_MONTH, 2023, 6, 0), now, NULL) == NULL);
    /* The template: its own words; empty parts and an empty template. */
    CHECK_STR(rcv_span("(HOW_MANY_YEARS YEARS, HOW_MANY_MONTHS MONTHS)",
                       date_of(CV_DATE_MONTH, 2019, 1, 0), date_of(CV_DATE_MONTH, 2020, 1, 0),
                       NULL), "(1 year, 1 month)");
    CHECK_STR(rcv_span("HOW_MANY_YEARS YEARS HOW_MANY_MONTHS MONTHS",
                       date_of(CV_DATE_MONTH, 2022, 5, 0), date_of(CV_DATE_MONTH, 2022, 8, 0),
                       NULL), "4 months");
    CHECK(rcv_span("", date_of(CV_DATE_MONTH, 2019, 1, 0), date_of(CV_DATE_MONTH, 2020, 1, 0),
                   NULL) == NULL);
}

/* The one expander of date placeholders (the PDF title's too): extra
 * placeholders first, a month drops DAY with what follows it, no date
 * leaves every placeholder empty, RenderCV 1's FULL_MONTH_NAME. */
TEST(expand)
{
    cv_date day = {.kind = CV_DATE_DAY, .year = 2024, .month = 3, .day = 7};
    cv_date month = {.kind = CV_DATE_MONTH, .year = 2024, .month = 3};
    const char *const extra[][2] = {{"NAME", "Ada YEAR"}, {"CURRENT_DATE", "now"},
                                    {NULL, NULL}};
    CHECK_STR(cv_date_expand(A, "NAME - CV (CURRENT_DATE, DAY_IN_TWO_DIGITS.MONTH_IN_TWO_DIGITS."
                             "YEAR_IN_TWO_DIGITS)", &day, NULL, extra),
              "Ada YEAR - CV (now, 07.03.24)");
    CHECK_STR(cv_date_expand(A, "FULL_MONTH_NAME MONTH_ABBREVIATION DAY, YEAR", &day, NULL,
                             NULL), "March Mar 7, 2024");
    CHECK_STR(cv_date_expand(A, "YEAR年MONTH月DAY日", &month, NULL, NULL), "2024年3月");
    CHECK_STR(cv_date_expand(A, "MONTH/DAY/YEAR", &month, NULL, NULL), "3/2024");
    CHECK_STR(cv_date_expand(A, "NAME (MONTH_NAME YEAR)", NULL, NULL, extra),
              "Ada YEAR ( )");
}

int main(void)
{
    A = cv_arena_new();
    RUN(expand);
    RUN(shapes);
    RUN(read_forms);
    RUN(read_errors);
    RUN(leap_years);
    RUN(entry_rules);
    RUN(compare);
    RUN(format_english);
    RUN(time_spans);
    RUN(format_chinese);
    RUN(ranges);
    RUN(range_shapes);
    RUN(rendercv_time_spans);
    cv_arena_free(A);
    return harness_report("date");
}
