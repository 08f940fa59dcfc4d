/* fuzz_markup.c - the inline-markup parser: bytes (up to the first NUL) ->
 * cv_markup_parse, cv_markup_strip and cv_markup_escape.
 *
 * Besides not crashing, it checks what markup.h promises: spans are
 * non-empty, NUL-terminated at their length, and never two neighbours with
 * the same style and link; and escaping is exact, so that any string put
 * through cv_markup_escape() parses back to itself as plain text.  A broken
 * promise aborts, which the fuzzer reports like a crash.
 */
#include "fuzz.h"

#include "markup.h"

static void check(bool ok, const char *what, const char *s)
{
    if (!ok) {
        fprintf(stderr, "fuzz_markup: %s for \"%s\"\n", what, s);
        abort();
    }
}

static bool same_link(const char *x, const char *y)
{
    return x == y || (x && y && !strcmp(x, y));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cv_arena *a = cv_arena_new();
    char *s = cv_arena_strndup(a, (const char *)data, size);
    unsigned base = size ? data[size - 1] & 3 : 0;

    cv_span *sp;
    size_t n = cv_markup_parse(a, s, base, &sp);
    for (size_t i = 0; i < n; i++) {
        check(sp[i].len > 0 && strlen(sp[i].text) == sp[i].len, "bad span length", s);
        check((sp[i].style & base) == base, "span lost the base style", s);
        check(i == 0 || sp[i].style != sp[i - 1].style || !same_link(sp[i].link, sp[i - 1].link),
              "neighbouring spans not merged", s);
    }
    char *plain = cv_markup_strip(a, s);
    check(strlen(plain) <= strlen(s), "strip made the text longer", s);

    char *esc = cv_markup_escape(a, s);
    check(!strcmp(cv_markup_strip(a, esc), s), "escape does not round-trip", s);
    n = cv_markup_parse(a, esc, 0, &sp);
    for (size_t i = 0; i < n; i++)
        check(sp[i].style == 0 && !sp[i].link, "escaped text has markup", s);

    cv_arena_free(a);
    return 0;
}
