/* test_fields.c - the one table of entry fields: its own consistency, the
 * loader reading entries through it, and the docs describing every row. */
#include "fields.h"
#include "harness.h"

#include <stdlib.h>

#include "doc.h"
#include "yml.h"

static cv_arena *A;
#include "errcheck.h"

static const cv_field *table(size_t *n)
{
    return cv_fields(n);
}

/* The keys of kind k, joined with ", " (as the loader lists them). */
static const char *keys_of(cv_entry_kind k, unsigned flags)
{
    const char *keys[CV_MAX_FIELDS + 1];
    size_t n = cv_field_keys(k, flags, keys);
    const char *s = "";
    for (size_t i = 0; i < n; i++)
        s = cv_arena_printf(A, "%s%s%s", s, i ? ", " : "", keys[i]);
    return s;
}

TEST(fields_table_is_consistent)
{
    size_t n;
    const cv_field *f = table(&n);
    CHECK(n > 20 && n <= CV_MAX_FIELDS);
    for (size_t i = 0; i < n; i++) {
        /* A key that tells the kind belongs to exactly one kind. */
        if (f[i].flags & CV_FIELD_TELLS) {
            int kinds = 0;
            for (int k = 0; k < CV_ENTRY_NKINDS; k++)
                kinds += cv_field_in(&f[i], (cv_entry_kind)k);
            CHECK(kinds == 1);
        }
        CHECK(f[i].kinds != 0);
        CHECK(!(f[i].kinds & ~(CV_KIND(CV_ENTRY_NKINDS) - 1)));
        /* Keys are unique; a placeholder names one member of cv_entry. */
        for (size_t j = 0; j < i; j++) {
            CHECK(!f[i].key || !f[j].key || strcmp(f[i].key, f[j].key));
            if (f[i].placeholder && f[j].placeholder &&
                !strcmp(f[i].placeholder, f[j].placeholder))
                CHECK(f[i].offset == f[j].offset && f[i].type == f[j].type);
        }
        /* Placeholders are upper-case words; values have a place. */
        for (const char *p = f[i].placeholder; p && *p; p++)
            CHECK((*p >= 'A' && *p <= 'Z') || *p == '_');
        bool stored = f[i].type == CV_FIELD_TEXT || f[i].type == CV_FIELD_DOI ||
                      f[i].type == CV_FIELD_URL || f[i].type == CV_FIELD_DATE;
        CHECK(stored == (f[i].offset != 0));
        CHECK(!(f[i].flags & CV_FIELD_RANGE) || f[i].type == CV_FIELD_DATE);
    }
    /* Every kind but the bare string has a key that tells it. */
    for (int k = CV_ENTRY_BULLET; k < CV_ENTRY_NKINDS; k++)
        CHECK(strcmp(keys_of((cv_entry_kind)k, CV_FIELD_TELLS), "") != 0);
    CHECK_STR(keys_of(CV_ENTRY_TEXT, 0), "");
}

TEST(fields_lookups)
{
    const cv_field *f = cv_field_by_key("company");
    CHECK(f && !strcmp(f->placeholder, "COMPANY") && cv_field_in(f, CV_ENTRY_EXPERIENCE));
    CHECK(f && !cv_field_in(f, CV_ENTRY_NORMAL));
    CHECK(cv_field_by_key("compnay") == NULL);
    CHECK(cv_field_by_placeholder("DATE_X", 4) == cv_field_by_key("date"));
    CHECK(cv_field_by_placeholder("DAT", 3) == NULL);
    CHECK(cv_field_by_placeholder("PAGE_NUMBER", 11) == NULL);  /* the page's, not a field */
    f = cv_field_by_placeholder("TEXT", 4);
    CHECK(f && f->key == NULL);                /* the bare string's row comes first */

    cv_entry e = {0};
    e.company = (cv_text){"Tencent", {0}};
    e.end_date.kind = CV_DATE_PRESENT;
    CHECK_STR(cv_field_text(&e, cv_field_by_key("company"))->s, "Tencent");
    CHECK(cv_field_date(&e, cv_field_by_key("end_date")) == &e.end_date);
    CHECK(cv_field_text(&e, cv_field_by_key("end_date")) == NULL);
    CHECK(cv_field_text(&e, cv_field_by_key("authors")) == NULL);
    CHECK(cv_field_slot(&e, cv_field_by_key("highlights")) == NULL);
    CHECK_STR(cv_entry_kind_name(CV_ENTRY_ONELINE), "one-line entry");
    /* cv_field_next() walks the keys cv_field_keys() lists. */
    const char *keys[CV_MAX_FIELDS + 1];
    size_t n = cv_field_keys(CV_ENTRY_PUBLICATION, 0, keys), k = 0;
    cv_entry_kind pub = CV_ENTRY_PUBLICATION;
    for (f = cv_field_next(pub, NULL); f; f = cv_field_next(pub, f))
        CHECK(k < n && !strcmp(f->key, keys[k++]));
    CHECK(k == n && n == 8);
    CHECK(cv_field_next(CV_ENTRY_TEXT, NULL) == NULL);
}

/* The loader's lists, whose order its messages show ("expected one of"). */
TEST(fields_keys_in_loader_order)
{
    CHECK_STR(keys_of(CV_ENTRY_EDUCATION, 0),
              "institution, area, degree, location, date, start_date, end_date, summary, "
              "highlights, tags");
    CHECK_STR(keys_of(CV_ENTRY_PUBLICATION, 0),
              "title, authors, journal, doi, url, date, summary, tags");
    CHECK_STR(keys_of(CV_ENTRY_BULLET, 0), "bullet, tags");
    CHECK_STR(keys_of(CV_ENTRY_EXPERIENCE, CV_FIELD_REQUIRED), "company, position");
    CHECK_STR(keys_of(CV_ENTRY_NKINDS, CV_FIELD_TELLS),
              "bullet, number, reversed_number, label, details, institution, area, degree, "
              "company, position, title, authors, journal, doi, name");
}

/* ---- The loader reads entries through the table -------------------------- */

static cv_doc *load(const char *yaml)
{
    cv_error_init(&E);
    E.quiet = true;
    cv_yml *root = cv_yml_load(A, "p.yaml", yaml, strlen(yaml), &E);
    return root ? cv_doc_load(A, root, "p.yaml", &E) : NULL;
}

/* A value for field f of an entry in YAML; "" for none. */
static const char *sample(const cv_field *f, cv_entry_kind k)
{
    switch (f->type) {
    case CV_FIELD_TEXT:
        return cv_arena_printf(A, "v_%s", f->key);
    case CV_FIELD_DOI:
        return "10.1000/xyz";
    case CV_FIELD_URL:
        return "https://example.com/x";
    case CV_FIELD_DATE:
        /* `date` would win over start_date and end_date: one or the other. */
        if ((f->flags & CV_FIELD_RANGE) && cv_field_in(cv_field_by_key("start_date"), k))
            return "";
        return (f->flags & CV_FIELD_RANGE) ? "2020" : !strcmp(f->key, "start_date") ? "2019-07"
                                                                                     : "2021";
    case CV_FIELD_AUTHORS:
        return "[Ada Lovelace, B. Babbage]";
    case CV_FIELD_HIGHLIGHTS:
        return "[one, two]";
    default:
        return "[t]";
    }
}

/* An entry of kind k with every key the table gives it, except `skip`. */
static const char *entry_yaml(cv_entry_kind k, const char *skip)
{
    size_t n;
    const cv_field *f = table(&n);
    const char *s = "cv:\n  name: Ada\n  sections:\n    s:\n";
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (!f[i].key || !cv_field_in(&f[i], k) || (skip && !strcmp(skip, f[i].key)))
            continue;
        const char *v = sample(&f[i], k);
        if (!*v)
            continue;
        s = cv_arena_printf(A, "%s      %s %s: %s\n", s, first ? "-" : " ", f[i].key, v);
        first = false;
    }
    return s;
}

TEST(fields_loader_fills_every_field)
{
    size_t n;
    const cv_field *f = table(&n);
    for (int k = CV_ENTRY_BULLET; k < CV_ENTRY_NKINDS; k++) {
        cv_doc *d = load(entry_yaml((cv_entry_kind)k, NULL));
        CHECK(d != NULL);
        if (!d) {
            fprintf(stderr, "  %s: %s\n", cv_entry_kind_name((cv_entry_kind)k), errstr());
            continue;
        }
        const cv_entry *e = &d->sections[0].entries[0];
        CHECK(e->kind == (cv_entry_kind)k);
        for (size_t i = 0; i < n; i++) {
            if (!f[i].key || !cv_field_in(&f[i], (cv_entry_kind)k))
                continue;
            const cv_text *t = cv_field_text(e, &f[i]);
            const cv_date *dt = cv_field_date(e, &f[i]);
            const char *v = sample(&f[i], (cv_entry_kind)k);
            if (t)
                CHECK_STR(t->s, v);
            else if (dt && *v)
                CHECK(dt->kind != CV_DATE_NONE);
            else if (f[i].type == CV_FIELD_AUTHORS)
                CHECK(e->nauthors == 2);
            else if (f[i].type == CV_FIELD_HIGHLIGHTS)
                CHECK(e->nhighlights == 2);
        }
    }
}

TEST(fields_loader_requires_and_tells)
{
    size_t n;
    const cv_field *f = table(&n);
    for (size_t i = 0; i < n; i++) {
        if (!(f[i].flags & CV_FIELD_REQUIRED))
            continue;
        /* Without a required key: an error naming it (or, for the only key
         * that tells the kind, no kind at all). */
        for (int k = CV_ENTRY_BULLET; k < CV_ENTRY_NKINDS; k++) {
            if (!cv_field_in(&f[i], (cv_entry_kind)k))
                continue;
            CHECK(load(entry_yaml((cv_entry_kind)k, f[i].key)) == NULL);
            CHECK(has(E.msg, cv_arena_printf(A, "'%s'", f[i].key)) ||
                  has(E.msg, "cannot tell the entry type"));
        }
    }
    /* A key that tells another kind: the entry mixes two kinds. */
    const char *y = cv_arena_printf(A, "%s        company: X\n",
                                    entry_yaml(CV_ENTRY_NORMAL, NULL));
    cv_doc *d = load(y);
    CHECK(d && d->sections[0].kind == CV_ENTRY_NORMAL);   /* RenderCV's first match */
    /* A key of no kind near a telling one: a suggestion from the table. */
    CHECK(load("cv:\n  name: Ada\n  sections:\n    s:\n      - instituton: X\n") == NULL);
    CHECK(has(E.msg, "did you mean 'institution'"));
}

/* ---- The docs describe every row -------------------------------------- */

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *s = cv_arena_alloc(A, 1 << 20);
    size_t n = fread(s, 1, (1 << 20) - 1, fp);
    s[n] = 0;
    fclose(fp);
    return s;
}

/* The heading of a kind's paragraph at p ("**Education** –", the dash
 * perhaps on the next line): its length, or 0. */
static size_t heading_at(const char *p)
{
    if (strncmp(p, "**", 2) != 0)
        return 0;
    const char *q = strstr(p + 2, "**");
    if (!q || q == p + 2 || memchr(p + 2, '`', (size_t)(q - p - 2)))
        return 0;
    q += 2;
    while (*q == ' ' || *q == '\n')
        q++;
    return strncmp(q, "\xE2\x80\x93", 3) == 0 ? (size_t)(q + 3 - p) : 0;
}

/* The paragraph of docs/profiles.md about kind k: from its heading
 * ("**Education** –") to the next heading or the end of the paragraph. */
static const char *paragraph(const char *md, cv_entry_kind k)
{
    char title[64];
    snprintf(title, sizeof title, "**%s", cv_entry_kind_name(k));
    *strstr(title, " entry") = 0;
    title[2] = (char)(title[2] - 'a' + 'A');
    strcat(title, "**");
    const char *p = md;
    while ((p = strstr(p, title)) && !heading_at(p))
        p++;
    if (!p)
        return NULL;
    const char *end = p + heading_at(p);
    while (*end && strncmp(end, "\n\n", 2) != 0 && !heading_at(end))
        end++;
    return cv_arena_strndup(A, p, (size_t)(end - p));
}

TEST(fields_documented_in_profiles_md)
{
    const char *md = slurp("docs/profiles.md");
    CHECK(md != NULL);
    if (!md)
        return;
    size_t n;
    const cv_field *f = table(&n);
    for (int k = 0; k < CV_ENTRY_NKINDS; k++) {
        const char *para = paragraph(md, (cv_entry_kind)k);
        CHECK(para != NULL);
        if (!para) {
            fprintf(stderr, "  no paragraph for the %s\n", cv_entry_kind_name((cv_entry_kind)k));
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            if (!f[i].key || !cv_field_in(&f[i], (cv_entry_kind)k))
                continue;
            if (f[i].type == CV_FIELD_TAGS) {      /* said once for every type */
                CHECK(has(md, cv_arena_printf(A, "`%s:`", f[i].key)));
                continue;
            }
            const char *code = cv_arena_printf(A, "`%s`", f[i].key);
            const char *bold = cv_arena_printf(A, "**`%s`**", f[i].key);
            bool ok = has(para, code) && has(para, bold) == !!(f[i].flags & CV_FIELD_TELLS);
            CHECK(ok);
            if (!ok)
                fprintf(stderr, "  %s: %s%s\n", cv_entry_kind_name((cv_entry_kind)k),
                        code, f[i].flags & CV_FIELD_TELLS ? " in bold" : "");
        }
        /* ... and names no telling key the table does not give the kind. */
        for (const char *p = strstr(para, "**`"); p; p = strstr(p + 3, "**`")) {
            const char *key = cv_arena_strndup(A, p + 3, strcspn(p + 3, "`"));
            const cv_field *kf = cv_field_by_key(key);
            CHECK(kf && (kf->flags & CV_FIELD_TELLS) && cv_field_in(kf, (cv_entry_kind)k));
        }
    }
}

TEST(fields_placeholders_documented_in_layouts_md)
{
    const char *md = slurp("docs/layouts.md");
    CHECK(md != NULL);
    const char *table_start = md ? strstr(md, "| placeholder | value |") : NULL;
    CHECK(table_start != NULL);
    if (!table_start)
        return;
    size_t n;
    const cv_field *f = table(&n);
    for (size_t i = 0; i < n; i++)
        if (f[i].placeholder)
            CHECK(has(table_start, cv_arena_printf(A, "`%s`", f[i].placeholder)));
}

int main(void)
{
    A = cv_arena_new();
    RUN(fields_table_is_consistent);
    RUN(fields_lookups);
    RUN(fields_keys_in_loader_order);
    RUN(fields_loader_fills_every_field);
    RUN(fields_loader_requires_and_tells);
    RUN(fields_documented_in_profiles_md);
    RUN(fields_placeholders_documented_in_layouts_md);
    cv_arena_free(A);
    return harness_report("fields");
}
