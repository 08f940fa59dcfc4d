/* text.c - profile strings and their readers.  See text.h. */
#include "text.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

bool cv_text_absent(const cv_yml *n)
{
    return !n || cv_yml_is_null(n);
}

const char *cv_text_article(const char *word)
{
    /* "a one-line entry": an o sounded as w */
    if (!strncasecmp(word, "one", 3))
        return "a";
    return strchr("aeio", tolower((unsigned char)word[0])) ? "an" : "a";
}

bool cv_text_has_space(const char *s)
{
    for (; *s; s++)
        if (isspace((unsigned char)*s))
            return true;
    return false;
}

/* The fields whose whole value becomes one PDF string. */
static bool one_pdf_string(const char *field)
{
    static const char *const fields[] = {"name", "native_name", "headline", "email", "phone",
                                         "website", "url", "doi", "username", NULL};
    for (size_t i = 0; fields[i]; i++)
        if (!strcmp(field, fields[i]))
            return true;
    return false;
}

bool cv_text_read(cv_arena *a, const cv_yml *n, const char *field, cv_text *out,
                  cv_error *err)
{
    out->s = NULL;
    if (cv_text_absent(n))
        return true;
    if (n->kind != CV_YML_SCALAR)
        return cv_error_at(err, n->pos, "'%s' must be a string, not %s", field,
                           cv_yml_kind_name(n->kind));
    /* Block scalars (`|`, `>`) end in a line break we do not want. */
    size_t len = n->len;
    while (len && (n->str[len - 1] == '\n' || n->str[len - 1] == '\r'))
        len--;
    out->s = len == n->len ? n->str : cv_arena_strndup(a, n->str, len);
    out->pos = n->pos;
    if (len > CV_MAX_PDF_STRING && one_pdf_string(field))
        return cv_error_at(err, n->pos, "'%s' is longer than %d bytes", field,
                           CV_MAX_PDF_STRING);
    /* The URL of a [link](url) in the text: up to the first ' ' or ')',
     * found once for all the "](" before it ("](](](..." would otherwise
     * read each URL's 8 KB again for every one of them). */
    if (len > CV_MAX_PDF_STRING) {
        const char *stop = out->s;
        for (const char *p = strstr(out->s, "]("); p; p = strstr(p + 2, "](")) {
            if (stop < p + 2)
                stop = p + 2 + strcspn(p + 2, " )");
            if ((size_t)(stop - (p + 2)) > CV_MAX_PDF_STRING)
                return cv_error_at(err, n->pos, "a link in '%s' has a URL longer than %d "
                                   "bytes", field, CV_MAX_PDF_STRING);
        }
    }
    return true;
}

/* YAML 1.2's core schema: an int (decimal, 0o, 0x), a float or a bool. */
static const char *yaml_type(const char *s)
{
    static const char *const bools[] = {"true", "True", "TRUE", "false", "False", "FALSE", NULL};
    static const char *const floats[] = {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF",
                                         "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN",
                                         NULL};
    for (size_t i = 0; bools[i]; i++)
        if (!strcmp(s, bools[i]))
            return "the boolean";
    for (size_t i = 0; floats[i]; i++)
        if (!strcmp(s, floats[i]))
            return "the number";
    const char *p = s;
    if ((p[0] == '0' && p[1] == 'x' && p[2]) || (p[0] == '0' && p[1] == 'o' && p[2])) {
        bool hex = p[1] == 'x';
        for (p += 2; *p; p++)
            if (!(hex ? isxdigit((unsigned char)*p) : (*p >= '0' && *p <= '7')))
                return NULL;
        return "the number";
    }
    if (*p == '-' || *p == '+')
        p++;
    size_t digits = 0;
    while (isdigit((unsigned char)*p))
        p++, digits++;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++)
            digits++;
    if (!digits)
        return NULL;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '-' || *p == '+')
            p++;
        if (!isdigit((unsigned char)*p))
            return NULL;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return *p ? NULL : "the number";
}

bool cv_text_string_only(const cv_yml *n, const char *field, cv_error *err)
{
    const char *what;
    if (!n || n->kind != CV_YML_SCALAR || !n->plain || cv_text_absent(n) ||
        !(what = yaml_type(n->str)))
        return true;
    return cv_error_at(err, n->pos, "'%s' must be a string, not %s %s (put it in quotes: "
                       "\"%s\")", field, what, n->str, n->str);
}

bool cv_text_need(const cv_text *t, const char *field, const char *what, cv_pos where,
                  cv_error *err)
{
    if (!t->s)
        return cv_error_at(err, where, "%s needs %s '%s'", what, cv_text_article(field), field);
    if (!*t->s)
        return cv_error_at(err, t->pos, "'%s' must not be empty", field);
    return true;
}

bool cv_text_list(cv_arena *a, const cv_yml *n, const char *field, cv_text **out,
                  size_t *count, cv_error *err)
{
    *out = NULL;
    *count = 0;
    if (cv_text_absent(n))
        return true;
    if (n->kind == CV_YML_MAP)
        return cv_error_at(err, n->pos, "'%s' must be a list of strings, not a mapping",
                           field);
    size_t k = n->kind == CV_YML_SEQ ? n->n : 1;
    *out = cv_arena_alloc(a, sizeof **out * (k ? k : 1));
    for (size_t i = 0; i < k; i++) {
        const cv_yml *item = n->kind == CV_YML_SEQ ? n->items[i] : n;
        if (cv_text_absent(item))
            return cv_error_at(err, item->pos, "empty item in '%s'", field);
        if (!cv_text_read(a, item, field, &(*out)[i], err))
            return false;
    }
    *count = k;
    return true;
}

bool cv_text_check_url(const cv_text *t, const char *field, cv_error *err)
{
    if (!t->s)
        return true;
    const char *rest = strncmp(t->s, "https://", 8) == 0 ? t->s + 8
                       : strncmp(t->s, "http://", 7) == 0 ? t->s + 7
                                                           : NULL;
    if (!rest || !*rest || cv_text_has_space(t->s))
        return cv_error_at(err, t->pos,
                           "invalid %s '%s': write a full URL starting with http:// or https://",
                           field, t->s);
    return true;
}

bool cv_text_check_email(const cv_text *t, cv_error *err)
{
    if (!t->s)
        return true;
    const char *at = strchr(t->s, '@');
    const char *dot = at ? strrchr(at, '.') : NULL;
    /* The domain a host name (letters, digits, '-', '.', or UTF-8 for an
     * international one): "a@b.com?cc=x" made a mailto: link with a
     * query.  The local part without RFC 5322's specials, which need
     * quotes ("javascript:a@b.com"). */
    bool bad = false;
    for (const unsigned char *p = (const unsigned char *)(at ? at + 1 : ""); *p && !bad; p++)
        bad = !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                *p == '-' || *p == '.' || *p >= 0x80);
    for (const char *p = t->s; at && p < at && !bad; p++)
        bad = strchr("()<>[]:;,\\\"", *p) != NULL;
    if (!at || at == t->s || strchr(at + 1, '@') || cv_text_has_space(t->s) || !dot ||
        dot == at + 1 || !dot[1] || bad)
        return cv_error_at(err, t->pos,
                           "invalid email '%s': expected an address like name@example.com",
                           t->s);
    return true;
}
