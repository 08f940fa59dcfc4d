/* Unit tests for tags.c: the structure tree's nodes, the role map and the
 * language a script implies. */
#include "harness.h"

#include <string.h>

#include "tags.h"

TEST(tree)
{
    cv_arena *a = cv_arena_new();
    cv_tags *t = cv_tags_new(a, "en");
    CHECK(t->n == 2 && !strcmp(t->nodes[CV_TAG_ROOT].type, "Document"));
    CHECK_STR(t->nodes[CV_TAG_ROOT].lang, "en");
    CHECK(t->nodes[CV_TAG_ROOT].parent == 0);
    int s = cv_tags_add(a, t, CV_TAG_ROOT, "Sect");
    int h = cv_tags_add(a, t, s, "H2");
    CHECK(s == 2 && h == 3 && t->nodes[h].parent == s && !t->nodes[h].last);
    CHECK(!t->nodes[h].alt && !t->nodes[h].lang);
    /* Many nodes: ids stay dense and parents stay put. */
    for (int i = 0; i < 1000; i++)
        cv_tags_add(a, t, h, "Span");
    CHECK(t->n == 1004 && t->nodes[1003].parent == h && t->nodes[s].parent == CV_TAG_ROOT);
    cv_arena_free(a);
}

TEST(roles)
{
    CHECK(cv_tags_standard("Sect") && cv_tags_standard("LBody") && cv_tags_standard("Link"));
    CHECK(!cv_tags_standard("Sidebar") && !cv_tags_standard("sect") && !cv_tags_standard(NULL));
    CHECK_STR(cv_tags_role("H1"), "H1");
    CHECK_STR(cv_tags_role("Sidebar"), "Sect");
    CHECK_STR(cv_tags_role("Header"), "Sect");
    CHECK_STR(cv_tags_role("Entry"), "Div");
    CHECK(cv_tags_role("Nonsense") == NULL);
    /* Every one of cvpdf's own maps to a standard type. */
    const char *own[] = {"Header", "Sidebar", "Entry"};
    for (size_t i = 0; i < 3; i++)
        CHECK(cv_tags_standard(cv_tags_role(own[i])));
}

static const char *lang_of(const char *doc, const uint32_t *cp, size_t n)
{
    return cv_tags_lang_of(cp, n, doc);
}

TEST(languages)
{
    const uint32_t han[] = {0x65B9, 0x4F73, 0x745E};            /* 方佳瑞 */
    const uint32_t kana[] = {0x5C71, 0x7530, 0x3055, 0x3093};   /* 山田さん */
    const uint32_t hangul[] = {0xAE40, 0xCCA0};
    const uint32_t cyr[] = {' ', 0x0418, 0x0432};
    const uint32_t greek[] = {0x0391};
    const uint32_t latin[] = {'A', 'b', ' ', '1', 0x00E9};
    CHECK_STR(lang_of("en", han, 3), "zh");
    CHECK_STR(lang_of("en-US", han, 3), "zh");
    CHECK(lang_of("zh", han, 3) == NULL);
    CHECK(lang_of("zh-Hans", han, 3) == NULL);
    CHECK(lang_of("ja", han, 3) == NULL);
    CHECK_STR(lang_of("en", kana, 4), "ja");
    CHECK(lang_of("ja", kana, 4) == NULL);
    CHECK_STR(lang_of("zh", kana, 4), "ja");
    CHECK_STR(lang_of("en", hangul, 2), "ko");
    CHECK_STR(lang_of("de", cyr, 3), "ru");
    CHECK(lang_of("uk", cyr, 3) == NULL);
    CHECK_STR(lang_of("fr", greek, 1), "el");
    CHECK(lang_of("en", latin, 5) == NULL);
    CHECK(lang_of("zh", latin, 5) == NULL);
    CHECK(lang_of(NULL, latin, 0) == NULL);
    CHECK_STR(lang_of(NULL, han, 3), "zh");
    /* "zhx" is not "zh". */
    CHECK_STR(lang_of("zhx", han, 3), "zh");
}

int main(void)
{
    RUN(tree);
    RUN(roles);
    RUN(languages);
    return harness_report("tags");
}
