/* date.c - dates as RenderCV reads and writes them.
 *
 * Reading follows RenderCV (entry_with_complex_fields.py in rendercv):
 * `date` wins over `start_date`/`end_date`; an `end_date` alone is shown as
 * a single date; a `start_date` alone means the entry is ongoing, so its
 * end becomes "present".  `date` also takes free text ("Fall 2023") unless
 * it looks like a malformed date (digits and dashes, such as `2023-13`).
 * A date's shape is checked first (four digits, then up to two, then up
 * to two), its values next, so that a message says what is wrong: the
 * year's range, the month's, or the day's for that month and year.
 *
 * Writing substitutes RenderCV's placeholders in the locale's date
 * template, longest name first (MONTH_ABBREVIATION before MONTH).  A date
 * without a day leaves DAY empty and takes along what was written after it
 * (the 日 of "YEAR年MONTH月DAY日", the "/" of "MONTH/DAY/YEAR"); tidy() then
 * removes the doubled spaces and stray separators that remain.
 */
#include "date.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "text.h"
#include "unicode.h"

static int days_in_month(int year, int month)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : days[month - 1];
}

/* Digits and dashes only, with at least one digit: meant as a date. */
static bool looks_like_date(const char *s)
{
    bool digit = false;
    for (; *s; s++) {
        if (isdigit((unsigned char)*s))
            digit = true;
        else if (*s != '-')
            return false;
    }
    return digit;
}

/* Up to `max` digits into *v; returns how many were read. */
static int digits(const char **p, int max, int *v)
{
    int n = 0;
    *v = 0;
    while (n < max && isdigit((unsigned char)**p)) {
        *v = *v * 10 + (**p - '0');
        (*p)++;
        n++;
    }
    return n;
}

cv_date_kind cv_date_shape(const char *s, int *y, int *m, int *d)
{
    const char *p = s;
    if (digits(&p, 4, y) != 4)
        return CV_DATE_NONE;
    if (!*p)
        return CV_DATE_YEAR;
    if (*p++ != '-' || digits(&p, 2, m) == 0)
        return CV_DATE_NONE;
    if (!*p)
        return CV_DATE_MONTH;
    if (*p++ != '-' || digits(&p, 2, d) == 0 || *p)
        return CV_DATE_NONE;
    return CV_DATE_DAY;
}

bool cv_date_read(const cv_yml *n, const char *field, bool free_text, cv_date *out,
                  cv_error *err)
{
    memset(out, 0, sizeof *out);
    if (cv_text_absent(n))
        return true;
    if (n->kind != CV_YML_SCALAR)
        return cv_error_at(err, n->pos, "'%s' must be a date, not %s", field,
                           cv_yml_kind_name(n->kind));
    const char *s = n->str;
    out->pos = n->pos;
    /* A date may be a YAML integer (2020) but not another number or a
     * boolean (2020.5, true), as RenderCV's int | str. */
    const char *digits_at = s + (*s == '-' || *s == '+');
    if (n->plain && (!*digits_at || digits_at[strspn(digits_at, "0123456789")]) &&
        !cv_text_string_only(n, field, err))
        return false;

    /* present: lower case, as RenderCV wants it ("Present" is text in a
     * `date`, an error in end_date). */
    if (strcasecmp(s, "present") == 0 && strcmp(s, "present") != 0 && !free_text)
        return cv_error_at(err, n->pos, "invalid %s '%s': write present in lower case", field,
                           s);
    if (strcmp(s, "present") == 0) {
        if (strcmp(field, "start_date") == 0)
            return cv_error_at(err, n->pos,
                               "invalid start_date '%s': a start date must be a date "
                               "(leave out end_date, or write end_date: present)", s);
        out->kind = CV_DATE_PRESENT;
        return true;
    }

    /* A well-formed date: check its month and day. */
    int y = 0, m = 0, d = 0;
    cv_date_kind k = cv_date_shape(s, &y, &m, &d);
    /* RenderCV's forms have two-digit months and days: "2020-7" is text in
     * a `date`, an error in start_date and end_date. */
    size_t len = strlen(s);
    if ((k == CV_DATE_MONTH && len != 7) || (k == CV_DATE_DAY && len != 10)) {
        if (free_text) {
            out->kind = CV_DATE_TEXT;
            out->text = s;
            return true;
        }
        return cv_error_at(err, n->pos, "invalid %s '%s': use YYYY, YYYY-MM or YYYY-MM-DD, "
                           "with two-digit months and days", field, s);
    }
    if (k != CV_DATE_NONE) {
        if (y < 1)
            return cv_error_at(err, n->pos,
                               "invalid %s '%s': year must be between 0001 and 9999", field, s);
        if (k >= CV_DATE_MONTH && (m < 1 || m > 12))
            return cv_error_at(err, n->pos,
                               "invalid %s '%s': month must be between 1 and 12", field, s);
        if (k == CV_DATE_DAY && (d < 1 || d > days_in_month(y, m)))
            return cv_error_at(err, n->pos,
                               "invalid %s '%s': day must be between 1 and %d for %s %d", field,
                               s, days_in_month(y, m), cv_locale_english()->month_full[m - 1],
                               y);
        out->kind = k;
        out->year = y;
        out->month = k >= CV_DATE_MONTH ? m : 0;
        out->day = k == CV_DATE_DAY ? d : 0;
        /* As RenderCV: a plain 2021 is a year, but a quoted "2021" is a
         * string it reads as 2021-01-01, shown "Jan 2021". */
        if (k == CV_DATE_YEAR && !n->plain) {
            out->kind = CV_DATE_MONTH;
            out->month = 1;
        }
        return true;
    }

    /* Free text, unless it looks like a date gone wrong.  A year range
     * written as one string ("2019-2021") is text, as in RenderCV. */
    bool year_range = strlen(s) == 9 && s[4] == '-' && looks_like_date(s) &&
                      !strchr(s + 5, '-');
    if (free_text && (!looks_like_date(s) || year_range)) {
        out->kind = CV_DATE_TEXT;
        out->text = s;
        return true;
    }
    if (looks_like_date(s))
        return cv_error_at(err, n->pos, "invalid %s '%s': use YYYY, YYYY-MM or YYYY-MM-DD",
                           field, s);
    return cv_error_at(err, n->pos, "invalid %s '%s': use %s", field, s,
                       strcmp(field, "start_date") == 0 ? "YYYY, YYYY-MM or YYYY-MM-DD"
                                                        : "YYYY, YYYY-MM, YYYY-MM-DD or present");
}

int cv_date_cmp(const cv_date *a, const cv_date *b)
{
    if (a->kind == CV_DATE_PRESENT || b->kind == CV_DATE_PRESENT)
        return (a->kind == CV_DATE_PRESENT) - (b->kind == CV_DATE_PRESENT);
    if (a->year != b->year)
        return a->year < b->year ? -1 : 1;
    if (a->kind == CV_DATE_YEAR || b->kind == CV_DATE_YEAR)
        return 0;
    if (a->month != b->month)
        return a->month < b->month ? -1 : 1;
    if (a->kind == CV_DATE_MONTH || b->kind == CV_DATE_MONTH)
        return 0;
    return (a->day > b->day) - (a->day < b->day);
}

/* Remove what a missing DAY leaves behind: doubled spaces, and separators
 * at either end ("July , 2019" -> "July 2019", "2019-07-" -> "2019-07"). */
static char *tidy(char *s)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        if (*r == ' ' && (w == s || w[-1] == ' '))
            continue;
        if ((*r == ',' || *r == '.') && w > s && w[-1] == ' ' && (r[1] == ' ' || !r[1]))
            continue;
        *w++ = *r;
    }
    *w = '\0';
    while (w > s && strchr(" ,./-", w[-1]))
        *--w = '\0';
    char *start = s;
    while (*start && strchr(" ,./-", *start))
        start++;
    return start;
}

const char *cv_date_format(cv_arena *a, const cv_date *d, const cv_locale *loc)
{
    const cv_locale *en = cv_locale_english();
    if (!loc)
        loc = en;
    switch (d->kind) {
    case CV_DATE_NONE:
        return NULL;
    case CV_DATE_YEAR:
        return cv_arena_printf(a, "%d", d->year);
    case CV_DATE_PRESENT:
        return loc->present ? loc->present : en->present;
    case CV_DATE_TEXT:
        return d->text ? d->text : "";
    default:
        break;
    }

    const char *t = loc->date_template ? loc->date_template : en->date_template;
    const char *out = cv_date_expand(a, t, d, loc, NULL);
    /* Only a template with a day has separators to tidy after it ("Nov.
     * 2023" and Hungarian's "2023. nov." keep their dots). */
    return d->kind == CV_DATE_DAY || !strstr(t, "DAY") || !*out ? out : tidy((char *)out);
}

const char *cv_date_expand(cv_arena *a, const char *tmpl, const cv_date *d,
                           const cv_locale *loc, const char *const (*extra)[2])
{
    const cv_locale *en = cv_locale_english();
    if (!loc)
        loc = en;
    /* The placeholders, each before any that begins it. */
    int m = d && d->month >= 1 && d->month <= 12 ? d->month : 1;
    bool known = d && (d->kind == CV_DATE_MONTH || d->kind == CV_DATE_DAY);
    bool day = known && d->kind == CV_DATE_DAY;
    char num[4][16], dd[2][16];
    snprintf(num[0], sizeof num[0], "%d", m);
    snprintf(num[1], sizeof num[1], "%02d", m);
    snprintf(num[2], sizeof num[2], "%d", known ? d->year : 0);
    snprintf(num[3], sizeof num[3], "%02d", known ? d->year % 100 : 0);
    snprintf(dd[0], sizeof dd[0], "%d", day ? d->day : 0);
    snprintf(dd[1], sizeof dd[1], "%02d", day ? d->day : 0);
    const char *abbr = loc->month_abbr[m - 1] ? loc->month_abbr[m - 1] : en->month_abbr[m - 1];
    const char *full = loc->month_full[m - 1] ? loc->month_full[m - 1] : en->month_full[m - 1];
    const struct {
        const char *name, *value;
    } ph[] = {
        {"MONTH_ABBREVIATION", abbr},
        {"MONTH_IN_TWO_DIGITS", num[1]},
        {"YEAR_IN_TWO_DIGITS", num[3]},
        {"DAY_IN_TWO_DIGITS", day ? dd[1] : ""},
        {"FULL_MONTH_NAME", full}, /* RenderCV 1.x */
        {"MONTH_NAME", full},
        {"MONTH", num[0]},
        {"YEAR", num[2]},
        {"DAY", day ? dd[0] : ""},
    };
    size_t n = sizeof ph / sizeof *ph;
    cv_strbuf b = {0};
    const char *t = tmpl;
    while (*t) {
        size_t x = 0;
        while (extra && extra[x][0] && strncmp(t, extra[x][0], strlen(extra[x][0])))
            x++;
        if (extra && extra[x][0]) {
            cv_strbuf_put(a, &b, extra[x][1], strlen(extra[x][1]));
            t += strlen(extra[x][0]);
            continue;
        }
        size_t i;
        for (i = 0; i < n; i++)
            if (strncmp(t, ph[i].name, strlen(ph[i].name)) == 0)
                break;
        if (i == n) {
            cv_strbuf_put(a, &b, t++, 1);
            continue;
        }
        if (known)
            cv_strbuf_put(a, &b, ph[i].value, strlen(ph[i].value));
        t += strlen(ph[i].name);
        /* A missing day takes the text written right after it along, up to
         * a space or the next placeholder: the 日 of "YEAR年MONTH月DAY日",
         * the "/" of "MONTH/DAY/YEAR". */
        if (known && !day && strncmp(ph[i].name, "DAY", 3) == 0)
            while (*t && *t != ' ') {
                size_t k = 0;
                while (k < n && strncmp(t, ph[k].name, strlen(ph[k].name)) != 0)
                    k++;
                if (k < n)
                    break;
                t++;
            }
    }
    return b.s ? b.s : "";
}

/* s with its spaces no-break spaces (U+00A0). */
static const char *unbroken(cv_arena *a, const char *s)
{
    if (!strchr(s, ' '))
        return s;
    cv_strbuf b = {0};
    for (; *s; s++)
        if (*s == ' ')
            cv_strbuf_put(a, &b, "\xC2\xA0", 2);
        else
            cv_strbuf_put(a, &b, s, 1);
    return b.s;
}

const char *cv_date_range(cv_arena *a, const cv_date *date, const cv_date *start,
                          const cv_date *end, const cv_locale *loc)
{
    const cv_locale *en = cv_locale_english();
    if (!loc)
        loc = en;
    if (date->kind != CV_DATE_NONE)
        return cv_date_format(a, date, loc);
    if (start->kind == CV_DATE_NONE)
        return end->kind != CV_DATE_NONE ? cv_date_format(a, end, loc) : NULL;
    const char *from = cv_date_format(a, start, loc);
    const char *to = end->kind != CV_DATE_NONE ? cv_date_format(a, end, loc)
                                               : (loc->present ? loc->present : en->present);
    if (loc->range) {
        /* A range of its own shape: START_DATE and END_DATE filled in. */
        cv_strbuf b = {0};
        for (const char *p = loc->range; *p;) {
            if (!strncmp(p, "START_DATE", 10)) {
                cv_strbuf_put(a, &b, from, strlen(from));
                p += 10;
            } else if (!strncmp(p, "END_DATE", 8)) {
                cv_strbuf_put(a, &b, to, strlen(to));
                p += 8;
            } else {
                cv_strbuf_put(a, &b, p++, 1);
            }
        }
        return b.s ? b.s : "";
    }
    /* Each date whole, and the dash with the first: a line ends after the
     * dash if anywhere ("май 2019 г. –" / "настоящее время", never
     * "май 2019 г. – настоящее" / "время").  No-break spaces, which a line
     * breaks at only when a date is wider than it, and which are drawn and
     * read as spaces. */
    from = unbroken(a, from);
    to = unbroken(a, to);
    const char *sep = loc->to ? loc->to : en->to;
    if (!*sep)
        return cv_arena_printf(a, "%s %s", from, to);
    return cv_arena_printf(a, "%s\xC2\xA0%s %s", from, sep, to);
}

bool cv_date_read_entry(const cv_yml *entry, cv_date *date, cv_date *start, cv_date *end,
                        cv_error *err)
{
    const cv_yml *sn = cv_yml_get(entry, "start_date"), *en = cv_yml_get(entry, "end_date");
    if (!cv_date_read(cv_yml_get(entry, "date"), "date", true, date, err) ||
        !cv_date_read(sn, "start_date", false, start, err) ||
        !cv_date_read(en, "end_date", false, end, err))
        return false;

    /* As RenderCV: `date` wins; an end alone is a single date; a start
     * alone is ongoing. */
    if (date->kind != CV_DATE_NONE) {
        memset(start, 0, sizeof *start);
        memset(end, 0, sizeof *end);
    } else if (start->kind == CV_DATE_NONE && end->kind != CV_DATE_NONE) {
        *date = *end;
        memset(end, 0, sizeof *end);
    } else if (start->kind != CV_DATE_NONE && end->kind == CV_DATE_NONE) {
        end->kind = CV_DATE_PRESENT;
        end->pos = start->pos;
    } else if (start->kind != CV_DATE_NONE && end->kind != CV_DATE_PRESENT &&
               (start->year * 10000 + (start->month ? start->month : 1) * 100 +
                (start->day ? start->day : 1)) >
                   (end->year * 10000 + (end->month ? end->month : 1) * 100 +
                    (end->day ? end->day : 1))) {
        /* As RenderCV: a missing month or day is the first (2020 is
         * 2020-01-01), so 2020-05 to 2020 ends before it starts. */
        return cv_error_at(err, end->pos, "end_date '%s' is before start_date '%s'", en->str,
                           sn->str);
    }
    return true;
}

/* "3 years": the number and its word; no space before or after a CJK
 * word ("3年2个月"). */
static void span_part(cv_arena *a, cv_strbuf *b, int n, const char *one, const char *many)
{
    const char *w = n == 1 ? one : many;
    uint32_t cp = 0;
    cv_utf8_decode(w, strlen(w), &cp);
    bool cjk = cv_unicode_cjk(cp);
    if (b->n && !cjk)
        cv_strbuf_put(a, b, " ", 1);
    char num[16];
    int k = snprintf(num, sizeof num, "%d", n);
    cv_strbuf_put(a, b, num, (size_t)k);
    if (!cjk)
        cv_strbuf_put(a, b, " ", 1);
    cv_strbuf_put(a, b, w, strlen(w));
}

const char *cv_date_span(cv_arena *a, const cv_date *start, const cv_date *end,
                         const cv_date *today, const cv_locale *loc)
{
    const cv_locale *en = cv_locale_english();
    if (!loc)
        loc = en;
    const cv_date *e = end->kind == CV_DATE_PRESENT ? today : end;
    if (start->kind < CV_DATE_YEAR || start->kind > CV_DATE_DAY || !e ||
        e->kind < CV_DATE_YEAR || e->kind > CV_DATE_DAY)
        return NULL;
    bool months = start->kind != CV_DATE_YEAR && e->kind != CV_DATE_YEAR;
    int total = months ? (e->year * 12 + e->month) - (start->year * 12 + start->month)
                       : 12 * (e->year - start->year);
    if (total < 0)
        return NULL;
    cv_strbuf b = {0};
    if (total / 12)
        span_part(a, &b, total / 12, loc->year ? loc->year : en->year,
                  loc->years ? loc->years : en->years);
    if (months && (total % 12 || !total))
        span_part(a, &b, total % 12, loc->month ? loc->month : en->month,
                  loc->months ? loc->months : en->months);
    return b.s;
}

/* Days since 0000-03-01 (proleptic Gregorian), for differences. */
static long days(int y, int m, int d)
{
    if (m < 3)
        y--, m += 12;
    return 365L * y + y / 4 - y / 100 + y / 400 + (153 * (m - 3) + 2) / 5 + d - 1;
}

/* The time span template `tmpl` with its placeholders filled in. */
static const char *fill(cv_arena *a, const char *tmpl, const char *ny, const char *wy,
                        const char *nm, const char *wm)
{
    static const char *const ph[] = {"HOW_MANY_YEARS", "HOW_MANY_MONTHS", "YEARS", "MONTHS"};
    const char *val[] = {ny, nm, wy, wm};
    cv_strbuf b = {0};
    for (const char *p = tmpl; *p;) {
        size_t k = 0;
        while (k < 4 && strncmp(p, ph[k], strlen(ph[k])))
            k++;
        if (k < 4) {
            cv_strbuf_put(a, &b, val[k], strlen(val[k]));
            p += strlen(ph[k]);
        } else {
            cv_strbuf_put(a, &b, p++, 1);
        }
    }
    /* Spaces left by empty parts collapse. */
    char *o = b.s ? b.s : cv_arena_strdup(a, ""), *q = o;
    for (const char *p = o; *p; p++)
        if (!(*p == ' ' && (q == o || q[-1] == ' ')))
            *q++ = *p;
    while (q > o && q[-1] == ' ')
        q--;
    *q = 0;
    return *o ? o : NULL;
}

const char *cv_date_time_span(cv_arena *a, const char *tmpl, const cv_date *start,
                              const cv_date *end, const char *today, const cv_locale *loc)
{
    const cv_locale *en = cv_locale_english();
    if (!loc)
        loc = en;
    const char *year = loc->year ? loc->year : en->year;
    const char *years = loc->years ? loc->years : en->years;
    const char *month = loc->month ? loc->month : en->month;
    const char *months = loc->months ? loc->months : en->months;
    if (!tmpl)
        tmpl = "HOW_MANY_YEARS YEARS HOW_MANY_MONTHS MONTHS";
    int ty = 0, tm = 0, td = 0;
    if (!start->kind || start->kind == CV_DATE_TEXT || start->kind == CV_DATE_PRESENT ||
        !end->kind || end->kind == CV_DATE_TEXT)
        return NULL;
    if (end->kind == CV_DATE_PRESENT &&
        (!today || cv_date_shape(today, &ty, &tm, &td) != CV_DATE_DAY))
        return NULL;
    int ey = end->kind == CV_DATE_PRESENT ? ty : end->year;
    if (start->kind == CV_DATE_YEAR || end->kind == CV_DATE_YEAR) {
        int n = ey - start->year;
        return fill(a, tmpl, n < 2 ? "1" : cv_arena_printf(a, "%d", n), n < 2 ? year : years,
                    "", "");
    }
    int em = end->kind == CV_DATE_PRESENT ? tm : end->month;
    int ed = end->kind == CV_DATE_PRESENT ? td : end->kind == CV_DATE_DAY ? end->day : 1;
    int sd = start->kind == CV_DATE_DAY ? start->day : 1;
    long span = days(ey, em, ed) - days(start->year, start->month, sd);
    if (span < 0)
        return NULL;
    long y = span / 365, m = (span % 365) / 30 + 1;
    y += m / 12;
    m %= 12;
    return fill(a, tmpl, y ? cv_arena_printf(a, "%ld", y) : "", y == 1 ? year : y ? years : "",
                m ? cv_arena_printf(a, "%ld", m) : "", m == 1 ? month : m ? months : "");
}
