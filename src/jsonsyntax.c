/* jsonsyntax.c - JSON's syntax checked with json-c's strict tokenizer.  See
 * jsonsyntax.h. */
#include "jsonsyntax.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <json-c/json_object.h>
#include <json-c/json_tokener.h>

#include "module.h"
#include "unicode.h"

/* json-c is opened with dlopen when a .json profile is first checked, not
 * linked: linked, it costs every run 0.25 M instructions of dynamic
 * loading, and a YAML profile never calls it. */
#ifndef CV_JSONC_SONAME
#define CV_JSONC_SONAME "libjson-c.so.5"
#endif
#define JSONC_FUNCTIONS(X) \
    X(json_tokener_new_ex) X(json_tokener_set_flags) X(json_tokener_parse_ex) \
    X(json_tokener_get_error) X(json_tokener_get_parse_end) X(json_tokener_error_desc) \
    X(json_object_put) X(json_tokener_free)
CV_LIB_DEFINE(jsonc_lib, J, JSONC_FUNCTIONS, CV_JSONC_SONAME, "libjson-c5");

bool cv_json_is(const char *file, const char *text, size_t len)
{
    size_t n = file ? strlen(file) : 0;
    if (n >= 5 && strcasecmp(file + n - 5, ".json") == 0)
        return true;
    size_t i = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;     /* a BOM */
    while (i < len && strchr(" \t\r\n", text[i]))
        i++;
    if (i >= len || text[i] != '{')
        return false;
    for (i++; i < len && strchr(" \t\r\n", text[i]); i++)
        ;
    return i < len && text[i] == '"';
}

/* The 1-based line and column (in characters) of byte `at`. */
static cv_pos position(const char *file, const char *text, size_t at)
{
    cv_pos p = {file, 1, 1};
    size_t from = at >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;    /* not a column */
    for (size_t i = from; i < at; i++) {
        if (text[i] == '\n')
            p.line++, p.col = 1;
        else if (!cv_utf8_is_cont((unsigned char)text[i]))
            p.col++;
    }
    return p;
}

bool cv_json_check(const char *file, const char *text, size_t len, cv_error *err)
{
    if (len > (size_t)0x7fffffff)
        return cv_error_at(err, (cv_pos){file, 1, 1}, "the JSON text is too long");
    if (memchr(text, 0, len))
        return cv_error_at(err, position(file, text, (size_t)((const char *)memchr(text, 0, len) -
                                                              text)),
                           "a NUL byte in the JSON text");
    if (!cv_lib_open(&jsonc_lib))
        return cv_error_at(err, (cv_pos){file, 0, 0}, "a JSON profile needs json-c, which "
                           "cannot be loaded (%s); install the Debian package %s",
                           jsonc_lib.soname, jsonc_lib.package);
    struct json_tokener *tok = J.json_tokener_new_ex(CV_JSON_MAX_DEPTH);
    if (!tok)
        return cv_error_at(err, (cv_pos){file, 1, 1}, "out of memory reading the JSON text");
    J.json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
    /* A byte-order mark (Windows editors write one) is not JSON's, but
     * libyaml takes it, and so does cvpdf. */
    size_t bom = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    struct json_object *obj = J.json_tokener_parse_ex(tok, text + bom, (int)(len - bom));
    enum json_tokener_error e = J.json_tokener_get_error(tok);
    size_t end = bom + J.json_tokener_get_parse_end(tok);
    bool ok = true;
    if (obj && e == json_tokener_success) {
        /* Only blanks may follow the value. */
        size_t i = end;
        while (i < len && strchr(" \t\r\n", text[i]))
            i++;
        if (i < len)
            ok = cv_error_at(err, position(file, text, i), "unexpected text after the JSON "
                             "value (one object, {...}, is the whole file)");
    } else if (e == json_tokener_continue || (!obj && e == json_tokener_success)) {
        size_t at = len;
        while (at > 0 && strchr(" \t\r\n", text[at - 1]))
            at--;
        ok = cv_error_at(err, position(file, text, at), "the JSON text ends too early (an "
                         "unclosed '{', '[' or string)");
    } else {
        /* json-c stops at the byte it could not take; point at it (or at
         * the last byte, when it stopped at the end). */
        size_t at = end < len ? end : len ? len - 1 : 0;
        char c = len ? text[at] : 0;
        ok = cv_error_at(err, position(file, text, at), "invalid JSON: %s%s%.*s%s%s",
                         J.json_tokener_error_desc(e), c > ' ' && c < 127 ? " at '" : "",
                         c > ' ' && c < 127 ? 1 : 0, &c, c > ' ' && c < 127 ? "'" : "",
                         c == '}' || c == ']' ? " (a comma before it?)" : "");
    }
    J.json_object_put(obj);
    J.json_tokener_free(tok);
    return ok;
}

/* The 4 hex digits at p as a number, or -1. */
static long hex4(const char *p, const char *end)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        if (p + i >= end)
            return -1;
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

const char *cv_json_unpair(cv_arena *a, const char *text, size_t len, size_t *out_len)
{
    const char *end = text + len;
    char *out = NULL;
    size_t n = 0;
    for (const char *p = text; p < end;) {
        long hi = -1, lo = -1;
        if (*p == '\\' && p + 12 <= end && p[1] == 'u' && p[6] == '\\' && p[7] == 'u') {
            hi = hex4(p + 2, end);
            lo = hex4(p + 8, end);
        }
        if (hi >= 0xD800 && hi <= 0xDBFF && lo >= 0xDC00 && lo <= 0xDFFF) {
            if (!out) {
                out = cv_arena_alloc(a, len + 1);
                n = (size_t)(p - text);
                memcpy(out, text, n);
            }
            long cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
            n += (size_t)snprintf(out + n, 11, "\\U%08lX", cp);
            p += 12;
            continue;
        }
        size_t k = *p == '\\' && p + 1 < end ? 2 : 1;
        if (out)
            memcpy(out + n, p, k);
        n += k;
        p += k;
    }
    if (!out) {
        *out_len = len;
        return text;
    }
    out[n] = 0;
    *out_len = n;
    return out;
}
