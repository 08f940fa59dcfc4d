/* test_text.c - profile strings: absent and null, scalars as written, block
 * scalars, lists, required fields, URL and e-mail checks, PDF string limits. */
#include "harness.h"
#include "text.h"

static cv_arena *A;
#include "errcheck.h"

/* The node under key `v` in `yaml` (NULL when absent). */
static const cv_yml *node(const char *yaml)
{
    cv_error_init(&E);
    cv_yml *root = cv_yml_load(A, "t.yaml", yaml, strlen(yaml), &E);
    return root ? cv_yml_get(root, "v") : NULL;
}

TEST(absent)
{
    CHECK(cv_text_absent(NULL));
    CHECK(cv_text_absent(node("v: ~\n")));
    CHECK(cv_text_absent(node("v:\n")));
    CHECK(cv_text_absent(node("v: null\n")));
    CHECK(!cv_text_absent(node("v: 'null'\n")));
    CHECK(!cv_text_absent(node("v: ''\n")));
    CHECK(!cv_text_absent(node("v: [a]\n")));
}

TEST(read)
{
    cv_text t = {"x", {0}};
    CHECK(cv_text_read(A, node("w: 1\n"), "v", &t, &E) && t.s == NULL);
    CHECK(cv_text_read(A, node("v: ~\n"), "v", &t, &E) && t.s == NULL);
    CHECK(cv_text_read(A, node("v: Ada\n"), "v", &t, &E));
    CHECK_STR(t.s, "Ada");
    CHECK(t.pos.line == 1 && t.pos.col == 4);
    /* Numbers are taken as written. */
    CHECK(cv_text_read(A, node("v: 2020.10\n"), "v", &t, &E));
    CHECK_STR(t.s, "2020.10");
    /* A block scalar loses its final line breaks, not its inner ones. */
    CHECK(cv_text_read(A, node("v: |\n  one\n  two\n\n"), "v", &t, &E));
    CHECK_STR(t.s, "one\ntwo");
    CHECK(!cv_text_read(A, node("v: [a, b]\n"), "headline", &t, &E));
    CHECK_STR(errstr(), "1:4: 'headline' must be a string, not a list");
    CHECK(!cv_text_read(A, node("v: {a: b}\n"), "headline", &t, &E));
    CHECK_STR(E.msg, "'headline' must be a string, not a mapping");
}

/* The node of "v: PREFIX" + n x's + "SUFFIX". */
static const cv_yml *long_node(const char *prefix, size_t n, const char *suffix)
{
    cv_strbuf b = {0};
    cv_strbuf_put(A, &b, "v: ", 3);
    cv_strbuf_put(A, &b, prefix, strlen(prefix));
    for (size_t i = 0; i < n; i++)
        cv_strbuf_put(A, &b, "x", 1);
    cv_strbuf_put(A, &b, suffix, strlen(suffix));
    cv_strbuf_put(A, &b, "\n", 1);
    return node(b.s);
}

TEST(pdf_string_limits)
{
    cv_text t;
    CHECK(cv_text_read(A, long_node("", CV_MAX_PDF_STRING, ""), "name", &t, &E));
    CHECK(strlen(t.s) == CV_MAX_PDF_STRING);
    CHECK(!cv_text_read(A, long_node("", CV_MAX_PDF_STRING + 1, ""), "name", &t, &E));
    CHECK_STR(E.msg, "'name' is longer than 8192 bytes");
    CHECK(!cv_text_read(A, long_node("", CV_MAX_PDF_STRING + 1, ""), "username", &t, &E));
    /* Other fields may be long, unless a link in them has a long URL. */
    CHECK(cv_text_read(A, long_node("", CV_MAX_PDF_STRING + 1, ""), "summary", &t, &E));
    CHECK(!cv_text_read(A, long_node("'[a](", CV_MAX_PDF_STRING + 1, ")'"), "summary", &t, &E));
    CHECK_STR(E.msg, "a link in 'summary' has a URL longer than 8192 bytes");
}

TEST(lists)
{
    cv_text *t;
    size_t n = 99;
    CHECK(cv_text_list(A, node("v: ~\n"), "v", &t, &n, &E) && n == 0 && t == NULL);
    CHECK(cv_text_list(A, node("v: Python\n"), "v", &t, &n, &E) && n == 1);
    CHECK_STR(t[0].s, "Python");
    CHECK(cv_text_list(A, node("v: [Python, 3, C]\n"), "v", &t, &n, &E) && n == 3);
    CHECK_STR(n == 3 ? t[1].s : NULL, "3");
    CHECK_STR(n == 3 ? t[2].s : NULL, "C");
    CHECK(cv_text_list(A, node("v: []\n"), "v", &t, &n, &E) && n == 0);
    CHECK(!cv_text_list(A, node("v: {a: b}\n"), "authors", &t, &n, &E));
    CHECK_STR(E.msg, "'authors' must be a list of strings, not a mapping");
    CHECK(!cv_text_list(A, node("v: [a, ~]\n"), "authors", &t, &n, &E));
    CHECK_STR(errstr(), "1:8: empty item in 'authors'");
    CHECK(!cv_text_list(A, node("v: [a, [b]]\n"), "authors", &t, &n, &E));
    CHECK(has(errstr(), "1:8: 'authors' must be a string, not a list"));
}

TEST(need)
{
    cv_text absent = {NULL, {0}}, empty = {"", {"t.yaml", 3, 5}}, full = {"Ada", {0}};
    cv_pos owner = {"t.yaml", 1, 1};
    cv_error_init(&E);
    CHECK(cv_text_need(&full, "name", "'cv'", owner, &E) && !E.set);
    CHECK(!cv_text_need(&absent, "name", "'cv'", owner, &E));
    CHECK_STR(errstr(), "1:1: 'cv' needs a 'name'");
    cv_error_init(&E);
    CHECK(!cv_text_need(&absent, "area", "education entry", owner, &E));
    CHECK_STR(E.msg, "education entry needs an 'area'");
    cv_error_init(&E);
    CHECK(!cv_text_need(&empty, "name", "'cv'", owner, &E));
    CHECK_STR(errstr(), "3:5: 'name' must not be empty");
}

/* Check `s` as a URL (email: as an e-mail address) with a fresh error. */
static bool url(const char *s)
{
    cv_text t = {s, {"t.yaml", 2, 3}};
    cv_error_init(&E);
    return cv_text_check_url(&t, "website", &E);
}

static bool email(const char *s)
{
    cv_text t = {s, {"t.yaml", 2, 3}};
    cv_error_init(&E);
    return cv_text_check_email(&t, &E);
}

TEST(urls_and_emails)
{
    CHECK(url(NULL));
    CHECK(url("https://ada.example.com/"));
    CHECK(url("http://x"));
    CHECK(!url("ada.example.com"));
    CHECK_STR(errstr(), "2:3: invalid website 'ada.example.com': write a full URL starting with "
                        "http:// or https://");
    CHECK(!url("https://"));
    CHECK(!url("https://a b"));
    CHECK(!url("ftp://a"));

    CHECK(email(NULL));
    CHECK(email("ada@example.com"));
    CHECK(email("a.b+c@mail.example.co.uk"));
    CHECK(!email("ada"));
    CHECK_STR(E.msg, "invalid email 'ada': expected an address like name@example.com");
    CHECK(!email("@example.com"));
    CHECK(!email("ada@example"));
    CHECK(!email("ada@.com"));
    CHECK(!email("ada@example."));
    CHECK(!email("ada@b@example.com"));
    CHECK(!email("ada lovelace@example.com"));
    /* The domain is a host name (a mailto: link's query would follow it:
     * "a@b.com?cc=x" prefilled a copy to x), and the local part holds none
     * of RFC 5322's specials unquoted. */
    CHECK(!email("ada@example.com?cc=eve"));
    CHECK(!email("ada@example.com&body=hi"));
    CHECK(!email("ada@exa_mple.com"));
    CHECK(!email("ada@example.com/x"));
    CHECK(!email("javascript:ada@example.com"));
    CHECK(!email("\"ada lovelace\"@example.com"));
    CHECK(!email("ada,b@example.com"));
    CHECK(email("o'brien+cv@example.com"));
    CHECK(email("ada@xn--bcher-kva.example"));
    CHECK(email("ada@bücher.example"));
    CHECK(email("a-b_c@mail-1.example.com"));
}

TEST(words)
{
    CHECK(cv_text_has_space("a b"));
    CHECK(cv_text_has_space("a\tb"));
    CHECK(cv_text_has_space("ab\n"));
    CHECK(!cv_text_has_space("ab"));
    CHECK(!cv_text_has_space(""));
    CHECK_STR(cv_text_article("name"), "a");
    CHECK_STR(cv_text_article("area"), "an");
    CHECK_STR(cv_text_article("Education"), "an");
    CHECK_STR(cv_text_article("one-line entry"), "a");     /* an o sounded as w */
    CHECK_STR(cv_text_article("One-line"), "a");
    CHECK_STR(cv_text_article("order"), "an");
    CHECK_STR(cv_text_article("username"), "a");
}

int main(void)
{
    A = cv_arena_new();
    RUN(absent);
    RUN(read);
    RUN(pdf_string_limits);
    RUN(lists);
    RUN(need);
    RUN(urls_and_emails);
    RUN(words);
    cv_arena_free(A);
    return harness_report("text");
}
