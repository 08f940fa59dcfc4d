/* test_authors.c - the profile's owner in author lists. */
#include "authors.h"
#include "harness.h"

#include <stdio.h>
#include <string.h>

static cv_arena *A;

static cv_owner owner(const char *name, const char *native)
{
    cv_doc d = {0};
    d.name.s = name;
    d.native_name.s = native;
    cv_owner o;
    cv_authors_owner(&o, A, &d);
    return o;
}

TEST(authors_split)
{
    cv_person p;
    CHECK(cv_authors_split("Jia-Rui Fang", false, &p));
    CHECK_STR(p.family, "fang");
    CHECK_STR(p.given, "jiarui");
    CHECK_STR(p.initials, "jr");
    CHECK_STR(p.whole, "jiaruifang");
    CHECK(cv_authors_split("Fang, J.-R.", false, &p));
    CHECK_STR(p.family, "fang");
    CHECK_STR(p.given, "jr");
    CHECK_STR(p.initials, "jr");
    /* Family name first, the Chinese order, only when asked. */
    CHECK(cv_authors_split("Fang Jiarui", true, &p));
    CHECK_STR(p.family, "fang");
    CHECK_STR(p.given, "jiarui");
    CHECK(cv_authors_split("Fang Jiarui", false, &p));
    CHECK_STR(p.family, "jiarui");
    /* Footnote marks go; one word has no parts, only the whole. */
    CHECK(cv_authors_split("*Jiarui Fang\xE2\x80\xA0" "1", false, &p));
    CHECK_STR(p.family, "fang");
    CHECK(!cv_authors_split("\xE6\x96\xB9\xE4\xBD\xB3\xE7\x91\x9E", false, &p));   /* 方佳瑞 */
    CHECK_STR(p.whole, "\xE6\x96\xB9\xE4\xBD\xB3\xE7\x91\x9E");
    CHECK(!cv_authors_split("Fang", false, &p));
}

TEST(authors_match_the_usual_forms)
{
    cv_owner o = owner("Jiarui Fang", "方佳瑞");
    const char *same[] = {"Jiarui Fang", "J. Fang", "Fang, J.", "Fang, Jiarui", "Fang Jiarui",
                          "Jia-Rui Fang", "方佳瑞", "Jiarui Fang*",
                          "J. Fang\xE2\x80\xA0", "FANG, J.", "fang, jiarui", "J Fang", NULL};
    const char *other[] = {"Jun Fang", "J. Fan", "Fang", "Jiarui", "Jiarui Feng", "K. Fang",
                           "Fang, K.", "方佳", "Shenggui Li", "", NULL};
    for (size_t i = 0; same[i]; i++) {
        CHECK(cv_authors_match(&o, same[i]));
        if (!cv_authors_match(&o, same[i]))
            fprintf(stderr, "  '%s' is the owner\n", same[i]);
    }
    for (size_t i = 0; other[i]; i++) {
        CHECK(!cv_authors_match(&o, other[i]));
        if (cv_authors_match(&o, other[i]))
            fprintf(stderr, "  '%s' is not the owner\n", other[i]);
    }
    /* Initials of a given name in parts: "J.-R." is Jia-Rui, whose name
     * says it has two parts, but not Jiarui (one part, initial "J."). */
    CHECK(!cv_authors_match(&o, "J.-R. Fang"));
    o = owner("Jia-Rui Fang", NULL);
    CHECK(cv_authors_match(&o, "J.-R. Fang"));
    CHECK(cv_authors_match(&o, "J. R. Fang"));
    CHECK(cv_authors_match(&o, "Jiarui Fang"));
    CHECK(cv_authors_match(&o, "J. Fang"));
}

TEST(authors_owner_forms)
{
    /* The owner's name may itself be written with markup, or "Family,
     * Given"; the native name alone matches only whole. */
    cv_owner o = owner("**Jiarui** Fang", NULL);
    CHECK(cv_authors_match(&o, "J. Fang"));
    o = owner("Fang, Jiarui", NULL);
    CHECK(cv_authors_match(&o, "Jiarui Fang"));
    CHECK(cv_authors_match(&o, "J.-R. Fang") == false);   /* "jr" is not "j" ... */
    CHECK(cv_authors_match(&o, "J. Fang"));               /* ... but "J." is */
    o = owner("方佳瑞", NULL);
    CHECK(cv_authors_match(&o, "方佳瑞"));
    CHECK(!cv_authors_match(&o, "J. Fang"));
    o = owner(NULL, NULL);
    CHECK(!cv_authors_match(&o, "J. Fang"));
}

static const char *markup(cv_owner *o, const char *const *names, size_t n)
{
    cv_text *t = cv_arena_alloc(A, (n + 1) * sizeof *t);
    for (size_t i = 0; i < n; i++)
        t[i].s = names[i];
    return cv_authors_markup(A, t, n, o);
}

TEST(authors_markup)
{
    cv_owner o = owner("Jiarui Fang", NULL);
    const char *names[] = {"Shenggui Li", "J. Fang", "**Zilin Zhu**", "Yang You"};
    /* Names are joined by no-break spaces (NBSP): never split between lines. */
#define NBSP "\xC2\xA0"
    CHECK_STR(markup(&o, names, 4),
              "Shenggui" NBSP "Li, **J." NBSP "Fang**, **Zilin" NBSP "Zhu**, Yang" NBSP "You");
    /* An author marked up by hand is left as written, even the owner. */
    const char *hand[] = {"*J. Fang*", "[Jiarui Fang](https://x.org)"};
    CHECK_STR(markup(&o, hand, 2), "*J." NBSP "Fang*, [Jiarui" NBSP "Fang](https://x.org)");
    const char *one[] = {"Jiarui Fang"};
    CHECK_STR(markup(&o, one, 1), "**Jiarui" NBSP "Fang**");
    CHECK(markup(&o, one, 0) == NULL);
}

/* 60 authors cost about the joined string, not 60 growing copies of it
 * (2,000 such publications took 79 MB when they did). */
TEST(authors_markup_memory)
{
    cv_owner o = owner("Ada Lovelace", NULL);
    const char *names[60];
    size_t total = 0;
    for (int i = 0; i < 60; i++) {
        names[i] = i == 30 ? "Ada Lovelace" : cv_arena_printf(A, "Author%02d Surname%02d", i, i);
        total += strlen(names[i]) + 2;
    }
    cv_arena *a = cv_arena_new();
    cv_text t[60];
    for (int i = 0; i < 60; i++)
        t[i] = (cv_text){names[i], {0}};
    const char *s = cv_authors_markup(a, t, 60, &o);
    CHECK(s && strstr(s, ", **Ada" NBSP "Lovelace**, ") != NULL);
    CHECK(s && strlen(s) == total - 2 + 4 + 60);        /* a 2-byte NBSP a name */
    CHECK(cv_arena_used(a) < total + 200);
    cv_arena_free(a);
}

int main(void)
{
    A = cv_arena_new();
    RUN(authors_split);
    RUN(authors_match_the_usual_forms);
    RUN(authors_owner_forms);
    RUN(authors_markup);
    RUN(authors_markup_memory);
    cv_arena_free(A);
    return harness_report("authors");
}
