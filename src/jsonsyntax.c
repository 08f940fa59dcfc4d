/* jsonsyntax.c - JSON's syntax checked with json-c's strict tokenizer.  See
 * jsonsyntax.h. */
#include "jsonsyntax.h"

#include <string.h>
#include <strings.h>

#include <json-c/json_object.h>
#include <json-c/json_tokener.h>

#include "unicode.h"

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
    struct json_tokener *tok = json_tokener_new_ex(CV_JSON_MAX_DEPTH);
    if (!tok)
        return cv_error_at(err, (cv_pos){file, 1, 1}, "out of memory reading the JSON text");
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
    /* A byte-order mark (Windows editors write one) is not JSON's, but
     * libyaml takes it, and so does cvpdf. */
    size_t bom = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    struct json_object *obj = json_tokener_parse_ex(tok, text + bom, (int)(len - bom));
    enum json_tokener_error e = json_tokener_get_error(tok);
    size_t end = bom + json_tokener_get_parse_end(tok);
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
                         json_tokener_error_desc(e), c > ' ' && c < 127 ? " at '" : "",
                         c > ' ' && c < 127 ? 1 : 0, &c, c > ' ' && c < 127 ? "'" : "",
                         c == '}' || c == ']' ? " (a comma before it?)" : "");
    }
    json_object_put(obj);
    json_tokener_free(tok);
    return ok;
}
