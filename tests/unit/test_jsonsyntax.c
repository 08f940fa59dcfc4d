/* test_jsonsyntax.c - JSON's syntax checked strictly, errors at line and column. */
#include "harness.h"
#include "jsonsyntax.h"

#include <stdio.h>
#include <string.h>

static cv_error E;

static bool ok(const char *text)
{
    cv_error_init(&E);
    E.quiet = true;
    return cv_json_check("r.json", text, strlen(text), &E);
}

static const char *where(void)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "%d:%d", E.pos.line, E.pos.col);
    return buf;
}

TEST(detection)
{
    CHECK(cv_json_is("resume.json", "", 0));
    CHECK(cv_json_is("RESUME.JSON", "x", 1));
    CHECK(cv_json_is("-", " \n{ \"basics\": {}}", 16));
    CHECK(!cv_json_is("cv.yaml", "{cv: {name: A}}", 15));
    CHECK(!cv_json_is("cv.yaml", "cv:\n  name: A\n", 14));
    CHECK(!cv_json_is("cv.yaml", "{", 1));
}

TEST(well_formed)
{
    CHECK(ok("{}"));
    CHECK(ok("{\"basics\": {\"name\": \"Zo\xC3\xAB\"}, \"work\": []}\n\n"));
    CHECK(ok("  [1, 2.5, true, null, \"x\"]  "));
}

TEST(errors_at_their_place)
{
    CHECK(!ok("{\n  \"work\": [],\n}\n"));
    CHECK_STR(where(), "3:1");
    CHECK(strstr(E.msg, "invalid JSON") != NULL);
    CHECK(!ok("{\n  \"a\": 'b'\n}"));
    CHECK_STR(where(), "2:8");
    CHECK(!ok("{\"a\": 1} {\"b\": 2}"));
    CHECK_STR(where(), "1:10");
    CHECK(!ok("{\n  \"a\": [1, 2\n"));
    CHECK_STR(where(), "2:13");
    CHECK(strstr(E.msg, "ends too early") != NULL);
    CHECK(!ok("{\"\xC3\xA9t\xC3\xA9\": tru}"));
    CHECK_STR(E.pos.file, "r.json");
    CHECK(E.pos.line == 1 && E.pos.col >= 9);
    CHECK(!ok("{\"a\": 1 /* no */}"));
    CHECK(!ok("\"a\0b\""));
}

TEST(byte_order_mark)
{
    CHECK(cv_json_is("r.yaml", "\xEF\xBB\xBF{\"basics\": {}}", 17));
    CHECK(ok("\xEF\xBB\xBF{\"basics\": {}}"));
    CHECK(!ok("\xEF\xBB\xBF{\"a\": 1,}"));
    CHECK_STR(where(), "1:9");
}

TEST(depth)
{
    char deep[300];
    size_t n = 0;
    for (int i = 0; i < 100; i++)
        deep[n++] = '[';
    for (int i = 0; i < 100; i++)
        deep[n++] = ']';
    deep[n] = 0;
    CHECK(!ok(deep));
}

/* Issue 25: escaped surrogate pairs as YAML's \U escapes; an escaped
 * backslash and a lone surrogate left as they are. */
TEST(surrogate_pairs)
{
    cv_arena *a = cv_arena_new();
    size_t n;
    const char *in = "{\"n\": \"A \\ud83d\\ude00 B \\\\ud83d\\ude00 \\ud83d x\"}";
    const char *out = cv_json_unpair(a, in, strlen(in), &n);
    CHECK_STR(out, "{\"n\": \"A \\U0001F600 B \\\\ud83d\\ude00 \\ud83d x\"}");
    CHECK(n == strlen(out));
    const char *plain = "{\"n\": \"\\u00e9\"}";
    CHECK(cv_json_unpair(a, plain, strlen(plain), &n) == plain && n == strlen(plain));
    cv_arena_free(a);
}

int main(void)
{
    RUN(detection);
    RUN(well_formed);
    RUN(errors_at_their_place);
    RUN(byte_order_mark);
    RUN(depth);
    RUN(surrogate_pairs);
    return harness_report("jsonsyntax");
}
