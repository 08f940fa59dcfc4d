/* doc.c - a profile's YAML tree to a cv_doc, in RenderCV's `cv:` vocabulary.
 *
 * The loader walks the tree once, top-down, and checks as it goes: every
 * mapping's keys against the keys its place allows (with a did-you-mean for
 * typos), every value's shape, dates, e-mail addresses and URLs.  The first
 * problem is recorded with the position of the node that caused it - the
 * key for an unknown key, the value for a bad value, the entry for a
 * missing field - and loading stops.
 *
 * Entry types are not written in the profile; as in RenderCV they are
 * inferred from the keys an entry has.  Each type owns a few keys that no
 * other type has (its "characteristic" keys: `institution`, `area` and
 * `degree` for education, `company` and `position` for experience, ...);
 * an entry whose keys belong to one type is of that type, an entry with
 * keys of two types is an error, and so is an entry with none.  A bare
 * string is a text entry.  Every entry of a section must have the type of
 * the section's first entry.
 *
 * Dates follow RenderCV too (entry_with_complex_fields.py in rendercv):
 * `date` wins over `start_date`/`end_date`; an `end_date` alone is shown as
 * a single date; a `start_date` alone means the entry is ongoing, so its
 * end becomes "present".  `date` also takes free text ("Fall 2023") unless
 * it looks like a malformed date (digits and dashes, such as `2023-13`).
 *
 * Strings are kept raw: inline markup is parsed later by markup.h, so every
 * string keeps its source position for later diagnostics.
 */
#include "doc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct ctx {
    cv_arena *a;
    cv_error *err;
    const char *file;
} ctx;

/* ---- Small helpers ----------------------------------------------------- */

static bool is_null(const cv_yml *n)
{
    return !n || cv_yml_is_null(n);
}

/* "a 'name'" / "an 'area'" */
static const char *article(const char *word)
{
    return strchr("aeio", tolower((unsigned char)word[0])) ? "an" : "a";
}

/* Values that become one string in the PDF (a link's URL; the title,
 * author and subject; a bookmark) are refused past MAX_PDF_STRING bytes,
 * here where their place is known: libharu cannot write a string over
 * 65,535 bytes, and a PDF reader need not read one over 32,767. */
#define MAX_PDF_STRING 8192

static bool one_pdf_string(const char *field)
{
    static const char *const fields[] = {"name", "native_name", "headline", "email", "phone",
                                         "website", "url", "doi", "username", NULL};
    for (size_t i = 0; fields[i]; i++)
        if (!strcmp(field, fields[i]))
            return true;
    return false;
}

/* A string field: absent or null leaves out->s NULL; any scalar (numbers
 * included) is taken as written; a list or mapping is an error. */
static bool text(ctx *c, const cv_yml *n, const char *field, cv_text *out)
{
    out->s = NULL;
    if (is_null(n))
        return true;
    if (n->kind != CV_YML_SCALAR)
        return cv_error_at(c->err, n->pos, "'%s' must be a string, not %s", field,
                           cv_yml_kind_name(n->kind));
    /* Block scalars (`|`, `>`) end in a line break we do not want. */
    size_t len = n->len;
    while (len && (n->str[len - 1] == '\n' || n->str[len - 1] == '\r'))
        len--;
    out->s = len == n->len ? n->str : cv_arena_strndup(c->a, n->str, len);
    out->pos = n->pos;
    if (len > MAX_PDF_STRING && one_pdf_string(field))
        return cv_error_at(c->err, n->pos, "'%s' is longer than %d bytes", field,
                           MAX_PDF_STRING);
    /* The URL of a [link](url) in the text. */
    if (len > MAX_PDF_STRING)
        for (const char *p = strstr(out->s, "]("); p; p = strstr(p + 2, "]("))
            if (strcspn(p + 2, " )") > MAX_PDF_STRING)
                return cv_error_at(c->err, n->pos, "a link in '%s' has a URL longer than %d "
                                   "bytes", field, MAX_PDF_STRING);
    return true;
}

/* A field that must be present and not empty. */
static bool need(ctx *c, const cv_text *t, const char *field, const char *what, cv_pos where)
{
    if (!t->s)
        return cv_error_at(c->err, where, "%s needs %s '%s'", what, article(field), field);
    if (!*t->s)
        return cv_error_at(c->err, t->pos, "'%s' must not be empty", field);
    return true;
}

/* A string or a list of strings, as an array of cv_text. */
static bool texts(ctx *c, const cv_yml *n, const char *field, cv_text **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    if (is_null(n))
        return true;
    if (n->kind == CV_YML_MAP)
        return cv_error_at(c->err, n->pos, "'%s' must be a list of strings, not a mapping",
                           field);
    size_t k = n->kind == CV_YML_SEQ ? n->n : 1;
    *out = cv_arena_alloc(c->a, sizeof **out * (k ? k : 1));
    for (size_t i = 0; i < k; i++) {
        const cv_yml *item = n->kind == CV_YML_SEQ ? n->items[i] : n;
        if (is_null(item))
            return cv_error_at(c->err, item->pos, "empty item in '%s'", field);
        if (!text(c, item, field, &(*out)[i]))
            return false;
    }
    *count = k;
    return true;
}

static bool has_space(const char *s)
{
    for (; *s; s++)
        if (isspace((unsigned char)*s))
            return true;
    return false;
}

static bool check_url(ctx *c, const cv_text *t, const char *field)
{
    if (!t->s)
        return true;
    const char *rest = strncmp(t->s, "https://", 8) == 0 ? t->s + 8
                       : strncmp(t->s, "http://", 7) == 0 ? t->s + 7
                                                           : NULL;
    if (!rest || !*rest || has_space(t->s))
        return cv_error_at(c->err, t->pos,
                           "invalid %s '%s': write a full URL starting with http:// or https://",
                           field, t->s);
    return true;
}

static bool check_email(ctx *c, const cv_text *t)
{
    if (!t->s)
        return true;
    const char *at = strchr(t->s, '@');
    const char *dot = at ? strrchr(at, '.') : NULL;
    if (!at || at == t->s || strchr(at + 1, '@') || has_space(t->s) || !dot ||
        dot == at + 1 || !dot[1])
        return cv_error_at(c->err, t->pos,
                           "invalid email '%s': expected an address like name@example.com",
                           t->s);
    return true;
}

/* One value from a field RenderCV allows as a list (email, phone, website):
 * cvpdf shows the first and says so. */
static const cv_yml *first_of(ctx *c, const cv_yml *n, const char *field)
{
    if (!n || n->kind != CV_YML_SEQ)
        return n;
    if (n->n == 0)
        return NULL;
    if (n->n > 1)
        cv_warn(c->err, n->items[1]->pos, "cvpdf shows one '%s'; the others are ignored", field);
    return n->items[0];
}

static void note(const cv_error *err, cv_pos pos, const char *msg)
{
    if (err && err->quiet)
        return;
    char where[600];
    fprintf(stderr, "%s: note: %s\n", cv_pos_str(pos, where, sizeof where), msg);
}

/* ---- Locale and dates -------------------------------------------------- */

static const cv_locale english = {
    "en",
    {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"},
    {"January", "February", "March", "April", "May", "June", "July", "August", "September",
     "October", "November", "December"},
    "present",
    "\xE2\x80\x93", /* en dash */
    "national",
    "MONTH_ABBREVIATION YEAR",
    "Last updated in",
};

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

/* YYYY, YYYY-M(M), YYYY-M(M)-D(D): the shape only (0 when not a date). */
static cv_date_kind date_shape(const char *s, int *y, int *m, int *d)
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

/* Parse a date field.  `free_text`: the field is `date`, which may hold
 * any text that does not look like a date. */
static bool parse_date(ctx *c, const cv_yml *n, const char *field, bool free_text, cv_date *out)
{
    memset(out, 0, sizeof *out);
    if (is_null(n))
        return true;
    if (n->kind != CV_YML_SCALAR)
        return cv_error_at(c->err, n->pos, "'%s' must be a date, not %s", field,
                           cv_yml_kind_name(n->kind));
    const char *s = n->str;
    out->pos = n->pos;

    /* present */
    if (strcasecmp(s, "present") == 0) {
        if (strcmp(field, "start_date") == 0)
            return cv_error_at(c->err, n->pos,
                               "invalid start_date '%s': a start date must be a date "
                               "(leave out end_date, or write end_date: present)", s);
        out->kind = CV_DATE_PRESENT;
        return true;
    }

    /* A well-formed date: check its month and day. */
    int y = 0, m = 0, d = 0;
    cv_date_kind k = date_shape(s, &y, &m, &d);
    if (k != CV_DATE_NONE) {
        if (y < 1000)
            return cv_error_at(c->err, n->pos,
                               "invalid %s '%s': year must be between 1000 and 9999", field, s);
        if (k >= CV_DATE_MONTH && (m < 1 || m > 12))
            return cv_error_at(c->err, n->pos,
                               "invalid %s '%s': month must be between 1 and 12", field, s);
        if (k == CV_DATE_DAY && (d < 1 || d > days_in_month(y, m)))
            return cv_error_at(c->err, n->pos,
                               "invalid %s '%s': day must be between 1 and %d for %s %d", field,
                               s, days_in_month(y, m), english.month_full[m - 1], y);
        out->kind = k;
        out->year = y;
        out->month = k >= CV_DATE_MONTH ? m : 0;
        out->day = k == CV_DATE_DAY ? d : 0;
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
        return cv_error_at(c->err, n->pos, "invalid %s '%s': use YYYY, YYYY-MM or YYYY-MM-DD",
                           field, s);
    return cv_error_at(c->err, n->pos, "invalid %s '%s': use %s", field, s,
                       strcmp(field, "start_date") == 0 ? "YYYY, YYYY-MM or YYYY-MM-DD"
                                                        : "YYYY, YYYY-MM, YYYY-MM-DD or present");
}

/* Compare two exact dates at the precision both have ("2020" is neither
 * before nor after "2020-05"); present is after every date. */
static int date_cmp(const cv_date *a, const cv_date *b)
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

/* Appends to a growing string in the arena. */
typedef cv_strbuf buf;

static void puts_(cv_arena *a, buf *b, const char *s)
{
    cv_strbuf_put(a, b, s, strlen(s));
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
    if (!loc)
        loc = &english;
    switch (d->kind) {
    case CV_DATE_NONE:
        return NULL;
    case CV_DATE_YEAR:
        return cv_arena_printf(a, "%d", d->year);
    case CV_DATE_PRESENT:
        return loc->present ? loc->present : english.present;
    case CV_DATE_TEXT:
        return d->text ? d->text : "";
    default:
        break;
    }

    /* Substitute the template's placeholders, longest name first. */
    int m = d->month >= 1 && d->month <= 12 ? d->month : 1;
    bool day = d->kind == CV_DATE_DAY;
    char num[5][16];
    snprintf(num[0], sizeof num[0], "%d", m);
    snprintf(num[1], sizeof num[1], "%02d", m);
    snprintf(num[2], sizeof num[2], "%d", d->year);
    snprintf(num[3], sizeof num[3], "%02d", d->year % 100);
    const char *abbr = loc->month_abbr[m - 1] ? loc->month_abbr[m - 1] : english.month_abbr[m - 1];
    const char *full = loc->month_full[m - 1] ? loc->month_full[m - 1] : english.month_full[m - 1];
    char dd[2][16];
    snprintf(dd[0], sizeof dd[0], "%d", d->day);
    snprintf(dd[1], sizeof dd[1], "%02d", d->day);
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
    const char *t = loc->date_template ? loc->date_template : english.date_template;
    size_t n = sizeof ph / sizeof *ph;
    buf b = {0};
    while (*t) {
        size_t i;
        for (i = 0; i < n; i++)
            if (strncmp(t, ph[i].name, strlen(ph[i].name)) == 0)
                break;
        if (i == n) {
            cv_strbuf_put(a, &b, t++, 1);
            continue;
        }
        puts_(a, &b, ph[i].value);
        t += strlen(ph[i].name);
        /* A missing day takes the text written right after it along, up to
         * a space or the next placeholder: the 日 of "YEAR年MONTH月DAY日",
         * the "/" of "MONTH/DAY/YEAR". */
        if (!day && strncmp(ph[i].name, "DAY", 3) == 0)
            while (*t && *t != ' ') {
                size_t k = 0;
                while (k < n && strncmp(t, ph[k].name, strlen(ph[k].name)) != 0)
                    k++;
                if (k < n)
                    break;
                t++;
            }
    }
    if (!b.s)
        return "";
    return day ? b.s : tidy(b.s);
}

const char *cv_entry_date_range(cv_arena *a, const cv_entry *e, const cv_locale *loc)
{
    if (!loc)
        loc = &english;
    if (e->date.kind != CV_DATE_NONE)
        return cv_date_format(a, &e->date, loc);
    if (e->start_date.kind == CV_DATE_NONE)
        return e->end_date.kind != CV_DATE_NONE ? cv_date_format(a, &e->end_date, loc) : NULL;
    const char *from = cv_date_format(a, &e->start_date, loc);
    const char *to = e->end_date.kind != CV_DATE_NONE
                         ? cv_date_format(a, &e->end_date, loc)
                         : (loc->present ? loc->present : english.present);
    const char *sep = loc->to ? loc->to : english.to;
    if (!*sep)
        return cv_arena_printf(a, "%s %s", from, to);
    return cv_arena_printf(a, "%s %s %s", from, sep, to);
}

/* RenderCV's language names (locale.language) and their ISO 639-1 codes. */
static const char *const languages[][2] = {
    {"english", "en"}, {"danish", "da"}, {"dutch", "nl"}, {"french", "fr"},
    {"german", "de"}, {"hindi", "hi"}, {"italian", "it"}, {"indonesian", "id"},
    {"indonesia", "id"}, {"japanese", "ja"}, {"korean", "ko"}, {"mandarin_chinese", "zh"},
    {"norwegian_bokm\xC3\xA5l", "nb"}, {"norwegian_nynorsk", "nn"}, {"polish", "pl"},
    {"portuguese", "pt"}, {"russian", "ru"}, {"spanish", "es"}, {"swedish", "sv"},
    {"turkish", "tr"}, {"arabic", "ar"}, {"hebrew", "he"}, {"persian", "fa"},
};

/* An ISO 639 code with optional subtags: "en", "zh-Hans", "pt_BR". */
static bool is_lang_code(const char *s)
{
    size_t n = 0;
    while (s[n] >= 'a' && s[n] <= 'z')
        n++;
    if (n < 2 || n > 3)
        return false;
    for (s += n; *s;) {
        if (*s != '-' && *s != '_')
            return false;
        size_t k = 0;
        for (s++; isalnum((unsigned char)s[k]); k++)
            ;
        if (k < 2 || k > 8)
            return false;
        s += k;
    }
    return true;
}

static bool months(ctx *c, const cv_yml *n, const char *field, const char **out)
{
    if (is_null(n))
        return true;
    if (n->kind != CV_YML_SEQ || n->n != 12)
        return cv_error_at(c->err, n->pos, "'%s' must be a list of 12 names, got %s%s", field,
                           n->kind == CV_YML_SEQ ? "" : cv_yml_kind_name(n->kind),
                           n->kind == CV_YML_SEQ ? cv_arena_printf(c->a, "%zu", n->n) : "");
    for (size_t i = 0; i < 12; i++) {
        cv_text t;
        if (!text(c, n->items[i], field, &t))
            return false;
        if (!t.s)
            return cv_error_at(c->err, n->items[i]->pos, "empty month name in '%s'", field);
        out[i] = t.s;
    }
    return true;
}

static bool load_locale(ctx *c, const cv_yml *n, cv_locale *loc)
{
    static const char *const keys[] = {
        "language", "present", "to", "date_template", "phone_number_format",
        "month_abbreviations", "abbreviations_for_months", "month_names",
        "full_names_of_months", "month", "months", "year", "years", "last_updated",
        "phrases", "page_numbering_template", "last_updated_date_template", NULL};
    *loc = english;
    if (is_null(n))
        return true;
    if (n->kind != CV_YML_MAP)
        return cv_error_at(c->err, n->pos, "'locale' must be a mapping, not %s",
                           cv_yml_kind_name(n->kind));
    if (!cv_yml_check_keys(n, keys, "locale", c->err))
        return false;

    /* Month names under RenderCV 2's keys or RenderCV 1's. */
    if (!months(c, cv_yml_get(n, "month_abbreviations"), "month_abbreviations", loc->month_abbr) ||
        !months(c, cv_yml_get(n, "abbreviations_for_months"), "abbreviations_for_months",
                loc->month_abbr) ||
        !months(c, cv_yml_get(n, "month_names"), "month_names", loc->month_full) ||
        !months(c, cv_yml_get(n, "full_names_of_months"), "full_names_of_months",
                loc->month_full))
        return false;

    /* Words and templates; `to` may be empty (no separator). */
    const struct {
        const char *key;
        const char **field;
    } words[] = {{"present", &loc->present},
                 {"to", &loc->to},
                 {"date_template", &loc->date_template},
                 {"phone_number_format", &loc->phone_format},
                 {"last_updated", &loc->last_updated}};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        const cv_yml *v = cv_yml_get(n, words[i].key);
        cv_text t;
        if (!text(c, v, words[i].key, &t))
            return false;
        if (t.s)
            *words[i].field = t.s;
        else if (v && strcmp(words[i].key, "to") == 0)
            *words[i].field = "";
    }

    /* The language, as an ISO code or one of RenderCV's names. */
    const cv_yml *lang = cv_yml_get(n, "language");
    cv_text t;
    if (!text(c, lang, "language", &t))
        return false;
    if (!t.s)
        return true;
    size_t nl = sizeof languages / sizeof *languages;
    bool named = false;
    for (size_t i = 0; i < nl && !named; i++)
        if (strcasecmp(t.s, languages[i][0]) == 0) {
            loc->language = languages[i][1];
            named = true;
        }
    if (!named) {
        if (!is_lang_code(t.s)) {
            const char *names[sizeof languages / sizeof *languages + 1];
            for (size_t i = 0; i < nl; i++)
                names[i] = languages[i][0];
            names[nl] = NULL;
            const char *s = cv_suggest(t.s, names);
            return cv_error_at(c->err, t.pos,
                               "unknown language '%s'%s%s%s: use an ISO 639 code such as 'de' "
                               "or a RenderCV language name", t.s, s ? " (did you mean '" : "",
                               s ? s : "", s ? "'?)" : "");
        }
        loc->language = t.s;
    }

    /* RenderCV ships translations; cvpdf takes them from the profile, so
     * say so when an English word would show. */
    const char *tmpl = loc->date_template;
    bool english_words =
        loc->present == english.present ||
        (strstr(tmpl, "MONTH_ABBREVIATION") && loc->month_abbr[0] == english.month_abbr[0]) ||
        ((strstr(tmpl, "MONTH_NAME") || strstr(tmpl, "FULL_MONTH_NAME")) &&
         loc->month_full[0] == english.month_full[0]);
    if (strcmp(loc->language, "en") != 0 && english_words) {
        char msg[300];
        snprintf(msg, sizeof msg,
                 "cvpdf has no built-in translations; dates stay in English unless "
                 "'locale' gives month_names, month_abbreviations and present for '%s'", t.s);
        note(c->err, t.pos, msg);
    }
    return true;
}

/* ---- Social networks --------------------------------------------------- */

typedef struct network {
    const char *name; /* RenderCV's spelling */
    const char *url;  /* URL prefix (Mastodon builds its own) */
} network;

static const network networks[] = {
    {"LinkedIn", "https://linkedin.com/in/"},
    {"GitHub", "https://github.com/"},
    {"GitLab", "https://gitlab.com/"},
    {"IMDB", "https://imdb.com/name/"},
    {"Instagram", "https://instagram.com/"},
    {"ORCID", "https://orcid.org/"},
    {"Mastodon", NULL},
    {"StackOverflow", "https://stackoverflow.com/users/"},
    {"ResearchGate", "https://researchgate.net/profile/"},
    {"YouTube", "https://youtube.com/@"},
    {"Google Scholar", "https://scholar.google.com/citations?user="},
    {"Telegram", "https://t.me/"},
    {"WhatsApp", "https://wa.me/"},
    {"Leetcode", "https://leetcode.com/u/"},
    {"X", "https://x.com/"},
    {"Bluesky", "https://bsky.app/profile/"},
    {"Reddit", "https://reddit.com/user/"},
};
#define NNETWORKS (sizeof networks / sizeof *networks)

/* Lowercase with spaces, '_' and '-' dropped: "Google_Scholar" and
 * "google scholar" are one name. */
static void squash(const char *s, char *out, size_t size)
{
    size_t n = 0;
    for (; *s && n + 1 < size; s++)
        if (*s != ' ' && *s != '_' && *s != '-')
            out[n++] = (char)tolower((unsigned char)*s);
    out[n] = '\0';
}

static const network *find_network(const char *name)
{
    char want[64], have[64];
    squash(name, want, sizeof want);
    if (strcmp(want, "twitter") == 0)
        return &networks[14];
    for (size_t i = 0; i < NNETWORKS; i++) {
        squash(networks[i].name, have, sizeof have);
        if (strcmp(want, have) == 0)
            return &networks[i];
    }
    return NULL;
}

/* ORCID iDs: 0000-0002-1825-0097 (the last character may be X). */
static bool is_orcid(const char *s)
{
    if (strlen(s) != 19)
        return false;
    for (int i = 0; i < 19; i++) {
        if (i % 5 == 4 ? s[i] != '-'
                       : !(isdigit((unsigned char)s[i]) || (i == 18 && s[i] == 'X')))
            return false;
    }
    return true;
}

static bool load_social(ctx *c, const cv_yml *n, cv_social *out)
{
    static const char *const keys[] = {"network", "username", "url", "fontawesome_icon", NULL};
    memset(out, 0, sizeof *out);
    if (n->kind != CV_YML_MAP)
        return cv_error_at(c->err, n->pos,
                           "a social network is a mapping with 'network' and 'username', not %s",
                           cv_yml_kind_name(n->kind));
    if (!cv_yml_check_keys(n, keys, "social network", c->err))
        return false;
    cv_text net, user, url;
    if (!text(c, cv_yml_get(n, "network"), "network", &net) ||
        !text(c, cv_yml_get(n, "username"), "username", &user) ||
        !text(c, cv_yml_get(n, "url"), "url", &url) ||
        !need(c, &net, "network", "a social network", n->pos) ||
        !need(c, &user, "username", "a social network", n->pos) || !check_url(c, &url, "url"))
        return false;
    out->username = user;
    out->label = user.s;

    /* A network RenderCV does not know needs its own url. */
    const network *nw = find_network(net.s);
    if (!nw) {
        if (url.s) {
            out->network = net;
            out->url = url.s;
            return true;
        }
        const char *names[NNETWORKS + 2];
        for (size_t i = 0; i < NNETWORKS; i++)
            names[i] = networks[i].name;
        names[NNETWORKS] = "Twitter";
        names[NNETWORKS + 1] = NULL;
        const char *s = cv_suggest(net.s, names);
        if (s)
            return cv_error_at(c->err, net.pos, "unknown social network '%s' (did you mean '%s'?)",
                               net.s, strcmp(s, "Twitter") == 0 ? "X" : s);
        return cv_error_at(c->err, net.pos,
                           "unknown social network '%s': cvpdf knows LinkedIn, GitHub, GitLab, "
                           "IMDB, Instagram, ORCID, Mastodon, StackOverflow, ResearchGate, "
                           "YouTube, Google Scholar, Telegram, WhatsApp, Leetcode, X, Bluesky "
                           "and Reddit; give a 'url' for any other", net.s);
    }
    out->network = (cv_text){nw->name, net.pos};
    const char *u = user.s;

    /* Usernames that would make a broken link. */
    if (strcmp(nw->name, "WhatsApp") != 0 && has_space(u))
        return cv_error_at(c->err, user.pos, "%s username '%s' must not contain spaces", nw->name,
                           u);
    if (strcmp(nw->name, "ORCID") == 0 && !is_orcid(u))
        return cv_error_at(c->err, user.pos,
                           "ORCID iD '%s' must look like 0000-0002-1825-0097", u);
    if (strcmp(nw->name, "Mastodon") == 0) {
        const char *at = u[0] == '@' ? strchr(u + 1, '@') : NULL;
        if (!at || at == u + 1 || !at[1] || strchr(at + 1, '@'))
            return cv_error_at(c->err, user.pos,
                               "Mastodon username '%s' must look like @name@server", u);
        out->url = url.s ? url.s
                         : cv_arena_printf(c->a, "https://%s/@%.*s", at + 1, (int)(at - u - 1),
                                           u + 1);
    } else if (strcmp(nw->name, "WhatsApp") == 0) {
        /* wa.me takes the number as digits only. */
        buf b = {0};
        puts_(c->a, &b, nw->url);
        for (const char *p = u; *p; p++)
            if (isdigit((unsigned char)*p))
                cv_strbuf_put(c->a, &b, p, 1);
        out->url = url.s ? url.s : b.s;
    } else {
        const char *name = u;
        if (strcmp(nw->name, "YouTube") == 0 && name[0] == '@')
            name++;
        out->url = url.s ? url.s : cv_arena_printf(c->a, "%s%s", nw->url, name);
    }
    if (strcmp(nw->name, "Google Scholar") == 0)
        out->label = "Google Scholar";
    return true;
}

/* ---- Entries ----------------------------------------------------------- */

typedef struct kind_def {
    const char *name;                /* "education entry" */
    const char *const *own;          /* keys no other type has */
    const char *const *required;
    const char *const *allowed;
} kind_def;

#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})

static const kind_def kinds[CV_ENTRY_NKINDS] = {
    [CV_ENTRY_TEXT] = {"text entry", LIST(NULL), LIST(NULL), LIST(NULL)},
    [CV_ENTRY_BULLET] = {"bullet entry", LIST("bullet"), LIST("bullet"), LIST("bullet", "tags")},
    [CV_ENTRY_NUMBERED] = {"numbered entry", LIST("number"), LIST("number"),
                           LIST("number", "tags")},
    [CV_ENTRY_REVERSED] = {"reversed numbered entry", LIST("reversed_number"),
                           LIST("reversed_number"), LIST("reversed_number", "tags")},
    [CV_ENTRY_ONELINE] = {"one-line entry", LIST("label", "details"), LIST("label", "details"),
                          LIST("label", "details", "tags")},
    [CV_ENTRY_EDUCATION] = {"education entry", LIST("institution", "area", "degree"),
                            LIST("institution", "area"),
                            LIST("institution", "area", "degree", "location", "date",
                                 "start_date", "end_date", "summary", "highlights", "tags")},
    [CV_ENTRY_EXPERIENCE] = {"experience entry", LIST("company", "position"),
                             LIST("company", "position"),
                             LIST("company", "position", "location", "date", "start_date",
                                  "end_date", "summary", "highlights", "tags")},
    [CV_ENTRY_PUBLICATION] = {"publication entry", LIST("title", "authors", "journal", "doi"),
                              LIST("title", "authors"),
                              LIST("title", "authors", "journal", "doi", "url", "date",
                                   "summary", "tags")},
    [CV_ENTRY_NORMAL] = {"normal entry", LIST("name"), LIST("name"),
                         LIST("name", "location", "date", "start_date", "end_date", "summary",
                              "highlights", "tags")},
};

static bool in_list(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return true;
    return false;
}

/* The entry type its keys point to. */
static bool infer(ctx *c, const cv_yml *n, cv_entry_kind *out)
{
    int found = -1;
    const cv_yml *found_key = NULL;
    for (size_t i = 0; i < n->n; i++) {
        for (int k = CV_ENTRY_BULLET; k < CV_ENTRY_NKINDS; k++) {
            if (!in_list(n->keys[i]->str, kinds[k].own))
                continue;
            if (found >= 0 && found != k)
                return cv_error_at(c->err, n->keys[i]->pos,
                                   "this entry mixes %s %s's '%s' with %s %s's '%s'",
                                   article(kinds[found].name), kinds[found].name, found_key->str,
                                   article(kinds[k].name), kinds[k].name, n->keys[i]->str);
            found = k;
            found_key = n->keys[i];
        }
    }
    if (found >= 0) {
        *out = (cv_entry_kind)found;
        return true;
    }

    /* None: perhaps a typo of a telling key. */
    static const char *const telling[] = {"bullet", "number", "reversed_number", "label",
                                          "details", "institution", "area", "degree",
                                          "company", "position", "title", "authors", "journal",
                                          "doi", "name", NULL};
    for (size_t i = 0; i < n->n; i++) {
        const char *s = cv_suggest(n->keys[i]->str, telling);
        if (s && !in_list(n->keys[i]->str, kinds[CV_ENTRY_EDUCATION].allowed) &&
            !in_list(n->keys[i]->str, kinds[CV_ENTRY_PUBLICATION].allowed))
            return cv_error_at(c->err, n->keys[i]->pos,
                               "unknown key '%s' in entry (did you mean '%s'?)",
                               n->keys[i]->str, s);
    }
    return cv_error_at(c->err, n->pos,
                       "cannot tell the entry type: an entry needs 'name' (normal), "
                       "'company' and 'position' (experience), 'institution' and 'area' "
                       "(education), 'title' and 'authors' (publication), 'label' and "
                       "'details' (one-line), 'bullet', 'number' or 'reversed_number'");
}

/* "text\n- sub\n- sub": the RenderCV way of writing nested bullets inside
 * one highlight string. */
static bool split_subs(ctx *c, cv_highlight *h, const char *s, cv_pos pos)
{
    bool has = false;
    for (const char *p = strchr(s, '\n'); p && !has; p = strchr(p + 1, '\n')) {
        const char *q = p + 1;
        while (*q == ' ' || *q == '\t')
            q++;
        has = q[0] == '-' && (q[1] == ' ' || q[1] == '\n' || q[1] == '\r' || !q[1]);
    }
    if (!has) {
        h->text = (cv_text){s, pos};
        return true;
    }

    /* The first line is the bullet; "- " lines are sub-bullets; other
     * lines continue whatever came before them. */
    buf main = {0}, *subs = NULL;
    size_t nsub = 0, cap = 0;
    bool in_sub = false;
    for (const char *line = s; line;) {
        const char *end = strchr(line, '\n');
        const char *p = line, *q = end ? end : line + strlen(line);
        while (p < q && (*p == ' ' || *p == '\t'))
            p++;
        while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
            q--;
        if (line != s && p < q && p[0] == '-' && (p + 1 == q || p[1] == ' ')) {
            buf nb = {0};
            CV_PUSH(c->a, subs, nsub, cap, nb);
            in_sub = true;
            for (p++; p < q && *p == ' '; p++)
                ;
        }
        buf *to = in_sub ? &subs[nsub - 1] : &main;
        if (p < q) {
            if (to->n)
                cv_strbuf_put(c->a, to, " ", 1);
            cv_strbuf_put(c->a, to, p, (size_t)(q - p));
        }
        line = end ? end + 1 : NULL;
    }
    h->text = (cv_text){main.s ? main.s : "", pos};
    h->sub = cv_arena_alloc(c->a, sizeof *h->sub * (nsub ? nsub : 1));
    for (size_t i = 0; i < nsub; i++)
        if (subs[i].s)
            h->sub[h->nsub++] = (cv_highlight){{subs[i].s, pos}, NULL, 0};
    return true;
}

/* A list of highlights; a list inside it nests under the string before,
 * at most MAX_HIGHLIGHT_LEVELS deep (each level narrows the column). */
#define MAX_HIGHLIGHT_LEVELS 8

static bool highlights(ctx *c, const cv_yml *n, cv_highlight **out, size_t *count, int level)
{
    *out = NULL;
    *count = 0;
    if (is_null(n))
        return true;
    if (n->kind != CV_YML_SEQ)
        return cv_error_at(c->err, n->pos, "'highlights' must be a list of strings, not %s",
                           cv_yml_kind_name(n->kind));
    cv_highlight *hs = NULL;
    size_t nh = 0, cap = 0;
    for (size_t i = 0; i < n->n; i++) {
        const cv_yml *item = n->items[i];
        if (item->kind == CV_YML_SEQ) {
            if (nh == 0)
                return cv_error_at(c->err, item->pos,
                                   "a nested list of highlights must follow the highlight it "
                                   "belongs to");
            if (level + 1 >= MAX_HIGHLIGHT_LEVELS)
                return cv_error_at(c->err, item->pos, "highlights nest more than %d levels deep",
                                   MAX_HIGHLIGHT_LEVELS);
            cv_highlight *prev = &hs[nh - 1], *subs;
            size_t nsub;
            if (!highlights(c, item, &subs, &nsub, level + 1))
                return false;
            size_t total = prev->nsub + nsub;
            cv_highlight *all = cv_arena_alloc(c->a, sizeof *all * (total ? total : 1));
            if (prev->nsub)
                memcpy(all, prev->sub, sizeof *all * prev->nsub);
            if (nsub)
                memcpy(all + prev->nsub, subs, sizeof *all * nsub);
            prev->sub = all;
            prev->nsub = total;
            continue;
        }
        if (item->kind == CV_YML_MAP)
            return cv_error_at(c->err, item->pos,
                               "a highlight must be a string, not a mapping (put a highlight "
                               "that contains ': ' in quotes)");
        if (is_null(item))
            return cv_error_at(c->err, item->pos, "empty highlight");
        cv_highlight h = {{NULL, {0}}, NULL, 0};
        cv_text t;
        if (!text(c, item, "highlights", &t) || !split_subs(c, &h, t.s, t.pos))
            return false;
        CV_PUSH(c->a, hs, nh, cap, h);
    }
    *out = hs;
    *count = nh;
    return true;
}

static bool load_dates(ctx *c, const cv_yml *n, cv_entry *e)
{
    const cv_yml *sn = cv_yml_get(n, "start_date"), *en = cv_yml_get(n, "end_date");
    if (!parse_date(c, cv_yml_get(n, "date"), "date", true, &e->date) ||
        !parse_date(c, sn, "start_date", false, &e->start_date) ||
        !parse_date(c, en, "end_date", false, &e->end_date))
        return false;

    /* As RenderCV: `date` wins; an end alone is a single date; a start
     * alone is ongoing. */
    if (e->date.kind != CV_DATE_NONE) {
        memset(&e->start_date, 0, sizeof e->start_date);
        memset(&e->end_date, 0, sizeof e->end_date);
    } else if (e->start_date.kind == CV_DATE_NONE && e->end_date.kind != CV_DATE_NONE) {
        e->date = e->end_date;
        memset(&e->end_date, 0, sizeof e->end_date);
    } else if (e->start_date.kind != CV_DATE_NONE && e->end_date.kind == CV_DATE_NONE) {
        e->end_date.kind = CV_DATE_PRESENT;
        e->end_date.pos = e->start_date.pos;
    } else if (e->start_date.kind != CV_DATE_NONE &&
               date_cmp(&e->end_date, &e->start_date) < 0) {
        return cv_error_at(c->err, e->end_date.pos, "end_date '%s' is before start_date '%s'",
                           en->str, sn->str);
    }
    return true;
}

static bool load_entry(ctx *c, const cv_yml *n, cv_entry *e)
{
    memset(e, 0, sizeof *e);
    e->pos = n->pos;

    /* A bare string. */
    if (n->kind == CV_YML_SCALAR) {
        if (is_null(n))
            return cv_error_at(c->err, n->pos, "empty entry");
        e->kind = CV_ENTRY_TEXT;
        return text(c, n, "text", &e->text);
    }
    if (n->kind == CV_YML_SEQ)
        return cv_error_at(c->err, n->pos,
                           "an entry is a string or a mapping, not a list (check the "
                           "indentation)");

    /* A mapping: its keys tell its type and what else it may have. */
    if (!infer(c, n, &e->kind))
        return false;
    const kind_def *k = &kinds[e->kind];
    if (!cv_yml_check_keys(n, k->allowed, k->name, c->err))
        return false;
    struct {
        const char *key;
        cv_text *field;
    } fields[] = {
        {"bullet", &e->text},         {"number", &e->text},
        {"reversed_number", &e->text}, {"label", &e->label},
        {"details", &e->details},     {"institution", &e->institution},
        {"area", &e->area},           {"degree", &e->degree},
        {"company", &e->company},     {"position", &e->position},
        {"title", &e->title},         {"journal", &e->journal},
        {"doi", &e->doi},             {"url", &e->url},
        {"name", &e->name},           {"location", &e->location},
        {"summary", &e->summary},
    };
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        const cv_yml *v = cv_yml_get(n, fields[i].key);
        if (v && !text(c, v, fields[i].key, fields[i].field))
            return false;
    }
    for (const char *const *r = k->required; *r; r++) {
        if (strcmp(*r, "authors") == 0)
            continue;
        for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
            if (strcmp(fields[i].key, *r) == 0 && !need(c, fields[i].field, *r, k->name, n->pos))
                return false;
    }

    /* Publications: authors, a bare DOI, a URL. */
    if (e->kind == CV_ENTRY_PUBLICATION) {
        if (!texts(c, cv_yml_get(n, "authors"), "authors", &e->authors, &e->nauthors))
            return false;
        if (!e->nauthors)
            return cv_error_at(c->err, n->pos, "publication entry needs 'authors'");
        if (e->doi.s) {
            static const char *const prefixes[] = {"https://doi.org/", "http://doi.org/",
                                                   "https://dx.doi.org/", "http://dx.doi.org/",
                                                   "doi:", NULL};
            for (size_t i = 0; prefixes[i]; i++)
                if (strncasecmp(e->doi.s, prefixes[i], strlen(prefixes[i])) == 0) {
                    e->doi.s += strlen(prefixes[i]);
                    break;
                }
            while (*e->doi.s == ' ')
                e->doi.s++;
            if (strncmp(e->doi.s, "10.", 3) != 0 || has_space(e->doi.s))
                return cv_error_at(c->err, e->doi.pos,
                                   "invalid doi '%s': a DOI looks like 10.1234/abcd", e->doi.s);
        }
        if (!check_url(c, &e->url, "url"))
            return false;
    }

    /* Dates and highlights where the type has them. */
    if (in_list("date", k->allowed) && !load_dates(c, n, e))
        return false;
    if (in_list("highlights", k->allowed) &&
        !highlights(c, cv_yml_get(n, "highlights"), &e->highlights, &e->nhighlights, 0))
        return false;
    return true;
}

static bool load_section(ctx *c, const cv_yml *key, const cv_yml *n, cv_section *s)
{
    memset(s, 0, sizeof *s);
    if (key->len > MAX_PDF_STRING)      /* a bookmark */
        return cv_error_at(c->err, key->pos, "a section's title is longer than %d bytes",
                           MAX_PDF_STRING);
    s->key = key->str;
    s->title = cv_section_title(c->a, key->str);
    s->pos = key->pos;
    if (is_null(n))
        return cv_error_at(c->err, key->pos, "section '%s' has no entries", key->str);
    if (n->kind != CV_YML_SEQ)
        return cv_error_at(c->err, n->pos, "expected a list of entries for section '%s', got %s",
                           key->str, cv_yml_kind_name(n->kind));
    if (n->n == 0)
        return cv_error_at(c->err, n->pos, "section '%s' has no entries", key->str);
    s->entries = cv_arena_alloc(c->a, sizeof *s->entries * n->n);
    for (size_t i = 0; i < n->n; i++) {
        cv_entry *e = &s->entries[i];
        if (!load_entry(c, n->items[i], e))
            return false;
        if (i == 0)
            s->kind = e->kind;
        else if (e->kind != s->kind)
            return cv_error_at(c->err, e->pos,
                               "this entry is %s %s, but section '%s' began with %s %s (the "
                               "entries of a section all have one type)",
                               article(kinds[e->kind].name), kinds[e->kind].name, key->str,
                               article(kinds[s->kind].name), kinds[s->kind].name);
    }
    s->nentries = n->n;
    return true;
}

/* ---- The profile ------------------------------------------------------- */

static bool load_cv(ctx *c, const cv_yml *n, cv_doc *d)
{
    static const char *const keys[] = {
        "name", "native_name", "headline", "location", "email", "phone", "website", "photo",
        "social_networks", "sections", "custom_connections", NULL};
    if (n->kind != CV_YML_MAP)
        return cv_error_at(c->err, n->pos, "'cv' must be a mapping, not %s",
                           cv_yml_kind_name(n->kind));
    if (!cv_yml_check_keys(n, keys, "cv", c->err))
        return false;

    /* The header. */
    if (!text(c, cv_yml_get(n, "name"), "name", &d->name) ||
        !need(c, &d->name, "name", "'cv'", n->pos) ||
        !text(c, cv_yml_get(n, "native_name"), "native_name", &d->native_name) ||
        !text(c, cv_yml_get(n, "headline"), "headline", &d->headline) ||
        !text(c, cv_yml_get(n, "location"), "location", &d->location) ||
        !text(c, first_of(c, cv_yml_get(n, "email"), "email"), "email", &d->email) ||
        !text(c, first_of(c, cv_yml_get(n, "phone"), "phone"), "phone", &d->phone) ||
        !text(c, first_of(c, cv_yml_get(n, "website"), "website"), "website", &d->website) ||
        !text(c, cv_yml_get(n, "photo"), "photo", &d->photo) || !check_email(c, &d->email) ||
        !check_url(c, &d->website, "website"))
        return false;
    const cv_yml *cc = cv_yml_get(n, "custom_connections");
    if (!is_null(cc))
        cv_warn(c->err, cc->pos, "'custom_connections' is not supported yet and is ignored");

    /* Social networks. */
    const cv_yml *sn = cv_yml_get(n, "social_networks");
    if (!is_null(sn)) {
        if (sn->kind != CV_YML_SEQ)
            return cv_error_at(c->err, sn->pos,
                               "'social_networks' must be a list of {network, username}, not %s",
                               cv_yml_kind_name(sn->kind));
        /* The header has room for 64 contact details: these and location,
         * email, phone and website. */
        if (sn->n > 60)
            return cv_error_at(c->err, sn->items[60]->pos, "at most 60 social networks");
        d->socials = cv_arena_alloc(c->a, sizeof *d->socials * (sn->n ? sn->n : 1));
        for (size_t i = 0; i < sn->n; i++)
            if (!load_social(c, sn->items[i], &d->socials[i]))
                return false;
        d->nsocials = sn->n;
    }

    /* Sections, in the order written. */
    const cv_yml *secs = cv_yml_get(n, "sections");
    if (is_null(secs))
        return true;
    if (secs->kind != CV_YML_MAP)
        return cv_error_at(c->err, secs->pos,
                           "'sections' must be a mapping from section titles to lists of "
                           "entries, not %s", cv_yml_kind_name(secs->kind));
    d->sections = cv_arena_alloc(c->a, sizeof *d->sections * (secs->n ? secs->n : 1));
    for (size_t i = 0; i < secs->n; i++)
        if (!load_section(c, secs->keys[i], secs->items[i], &d->sections[i]))
            return false;
    d->nsections = secs->n;
    return true;
}

static bool load_settings(ctx *c, const cv_yml *n, const char *what, cv_doc *d)
{
    static const char *const keys[] = {"bold_keywords", "current_date", "render_command",
                                       "page_break_before", "keep_together", NULL};
    if (is_null(n))
        return true;
    if (n->kind != CV_YML_MAP)
        return cv_error_at(c->err, n->pos, "'%s' must be a mapping, not %s", what,
                           cv_yml_kind_name(n->kind));
    if (strcmp(what, "settings") == 0 && !cv_yml_check_keys(n, keys, what, c->err))
        return false;
    if (strcmp(what, "settings") == 0) {
        const cv_yml *v = cv_yml_get(n, "page_break_before");
        if (v && !texts(c, v, "page_break_before", &d->break_before, &d->nbreak_before))
            return false;
        v = cv_yml_get(n, "keep_together");
        if (v && !texts(c, v, "keep_together", &d->keep_together, &d->nkeep_together))
            return false;
        v = cv_yml_get(n, "current_date");
        if (v && !text(c, v, "current_date", &d->current_date))
            return false;
        /* RenderCV's `today` is the day of the run: for us SOURCE_DATE_EPOCH. */
        if (d->current_date.s && strcasecmp(d->current_date.s, "today") == 0)
            d->current_date.s = NULL;
        if (d->current_date.s) {
            int y, m, day;
            cv_date cd;
            if (date_shape(d->current_date.s, &y, &m, &day) != CV_DATE_DAY)
                return cv_error_at(c->err, v->pos, "invalid current_date '%s': use YYYY-MM-DD "
                                   "(or today)", d->current_date.s);
            if (!parse_date(c, v, "current_date", false, &cd))
                return false;
        }
    }
    const cv_yml *bk = cv_yml_get(n, "bold_keywords");
    if (!bk || d->nbold_keywords)
        return true;
    return texts(c, bk, "bold_keywords", &d->bold_keywords, &d->nbold_keywords);
}

/* A profile's top-level keys (doc.h), for profiles and --defaults alike. */
static const char *const profile_keys[] = {"cv", "locale", "settings", "design",
                                           "rendercv_settings", NULL};

cv_doc *cv_doc_load(cv_arena *a, const cv_yml *root, const char *file, cv_error *err)
{
    ctx c = {a, err, file};
    if (!root) {
        cv_error_at(err, (cv_pos){file, 1, 1}, "the profile is empty");
        return NULL;
    }
    if (root->kind != CV_YML_MAP) {
        cv_error_at(err, root->pos, "a profile is a mapping with a 'cv' key, not %s",
                    cv_yml_kind_name(root->kind));
        return NULL;
    }
    if (!cv_yml_check_keys(root, profile_keys, "the profile", err))
        return NULL;
    cv_doc *d = cv_arena_alloc(a, sizeof *d);
    d->file = file;
    d->locale = english;

    /* The parts RenderCV uses for its own look. */
    for (size_t i = 0; i < root->n; i++) {
        const cv_yml *k = root->keys[i], *v = root->items[i];
        if (strcmp(k->str, "design") == 0)
            note(err, k->pos, "'design' is ignored; cvpdf takes its look from the layout (-l)");
        else if (strcmp(k->str, "rendercv_settings") == 0 && v->kind == CV_YML_MAP &&
                 (v->n > 1 || (v->n == 1 && strcmp(v->keys[0]->str, "bold_keywords") != 0)))
            note(err, k->pos, "'rendercv_settings' is ignored, apart from its bold_keywords");
    }

    const cv_yml *cvn = cv_yml_get(root, "cv");
    if (!cvn) {
        cv_error_at(err, root->pos, "the profile needs a 'cv' mapping");
        return NULL;
    }
    if (is_null(cvn)) {
        cv_error_at(err, cvn->pos, "'cv' is empty; it needs at least a 'name'");
        return NULL;
    }
    if (!load_locale(&c, cv_yml_get(root, "locale"), &d->locale) ||
        !load_settings(&c, cv_yml_get(root, "settings"), "settings", d) ||
        !load_settings(&c, cv_yml_get(root, "rendercv_settings"), "rendercv_settings", d) ||
        !load_cv(&c, cvn, d))
        return NULL;
    return d;
}

cv_doc *cv_doc_load_file(cv_arena *a, const char *path, cv_error *err)
{
    return cv_doc_load_with(a, path, NULL, err);
}

cv_doc *cv_doc_load_with(cv_arena *a, const char *path, const cv_yml *defaults, cv_error *err)
{
    size_t len;
    char *data = cv_yml_read_file(a, path, &len, err);
    if (!data)
        return NULL;
    const char *file = cv_arena_strdup(a, path);
    cv_yml *root = cv_yml_load(a, file, data, len, err);
    if (!root)
        return NULL;
    return cv_doc_load(a, defaults ? cv_yml_merge(a, defaults, root) : root, file, err);
}

cv_yml *cv_doc_load_defaults(cv_arena *a, const char *path, cv_error *err)
{
    size_t len;
    char *text = cv_yml_read_file(a, path, &len, err);
    cv_yml *root = text ? cv_yml_load(a, path, text, len, err) : NULL;
    if (root && root->kind != CV_YML_MAP)
        cv_error_at(err, root->pos, "defaults are a mapping like a profile's (cv:, "
                    "locale:, settings:), not %s", cv_yml_kind_name(root->kind));
    else if (root)
        cv_yml_check_keys(root, profile_keys, "the defaults", err);
    return root && !err->set ? root : NULL;
}

/* ---- Section titles ---------------------------------------------------- */

/* The code point at s (2-byte UTF-8 only; others as -1) and its length. */
static int cp2(const unsigned char *s, int *len)
{
    if (s[0] >= 0xC2 && s[0] <= 0xDF && (s[1] & 0xC0) == 0x80) {
        *len = 2;
        return (s[0] & 0x1F) << 6 | (s[1] & 0x3F);
    }
    *len = 1;
    return -1;
}

/* Simple case mapping for Latin-1, Latin Extended-A, Greek and Cyrillic:
 * enough for the first letter of a section title. */
static int upper_of(int c)
{
    if ((c >= 0xE0 && c <= 0xFE && c != 0xF7) || (c >= 0x3B1 && c <= 0x3C9 && c != 0x3C2) ||
        (c >= 0x430 && c <= 0x44F))
        return c - 0x20;
    if (c >= 0x450 && c <= 0x45F)
        return c - 0x50;
    if (((c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177)) && (c & 1))
        return c - 1;
    if (((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) && !(c & 1))
        return c - 1;
    return c;
}

static bool is_upper(int c)
{
    if (c < 0)
        return false;
    if ((c >= 0xC0 && c <= 0xDE && c != 0xD7) || (c >= 0x391 && c <= 0x3A9) ||
        (c >= 0x400 && c <= 0x42F))
        return true;
    if ((c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177))
        return !(c & 1);
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E))
        return c & 1;
    return false;
}

const char *cv_section_title(cv_arena *a, const char *key)
{
    /* Words RenderCV leaves in lower case inside a title. */
    static const char *const small[] = {
        "a", "and", "as", "at", "but", "by", "for", "from", "if", "in", "into", "like",
        "near", "nor", "of", "off", "on", "onto", "or", "over", "so", "than", "that", "to",
        "upon", "when", "with", "yet", NULL};

    /* A key with a space or a capital is a title already. */
    const unsigned char *u = (const unsigned char *)key;
    for (size_t i = 0; u[i];) {
        int len;
        int cp = cp2(u + i, &len);
        if (u[i] == ' ' || isupper(u[i]) || is_upper(cp))
            return key;
        i += (size_t)len;
    }

    /* snake_case: words split on '_', each capitalised but the small ones
     * (the first word always is). */
    buf b = {0};
    const char *w = key;
    bool first = true;
    for (;;) {
        const char *end = strchr(w, '_');
        size_t n = end ? (size_t)(end - w) : strlen(w);
        if (n) {
            if (b.n)
                cv_strbuf_put(a, &b, " ", 1);
            char word[32];
            bool is_small = false;
            if (n < sizeof word) {
                memcpy(word, w, n);
                word[n] = '\0';
                is_small = !first && in_list(word, small);
            }
            int len;
            int cp = cp2((const unsigned char *)w, &len);
            if (is_small) {
                cv_strbuf_put(a, &b, w, n);
            } else if (cp >= 0 && upper_of(cp) != cp && (size_t)len <= n) {
                int up = upper_of(cp);
                char enc[2] = {(char)(0xC0 | up >> 6), (char)(0x80 | (up & 0x3F))};
                cv_strbuf_put(a, &b, enc, 2);
                cv_strbuf_put(a, &b, w + len, n - (size_t)len);
            } else {
                char c0 = (char)toupper((unsigned char)w[0]);
                cv_strbuf_put(a, &b, &c0, 1);
                cv_strbuf_put(a, &b, w + 1, n - 1);
            }
            first = false;
        }
        if (!end)
            break;
        w = end + 1;
    }
    return b.s ? b.s : key;
}
