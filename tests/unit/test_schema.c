/* test_schema.c - the JSON Schemas: every key the loaders' tables hold is
 * in them with a type, and the committed schema/profile.json and
 * schema/layout.json are what cvpdf makes now.  (That the loaders accept
 * exactly the schemas' keys, and that the shipped profiles and layouts
 * validate, is tests/newuser.py's, with python3-jsonschema.) */
#include <stdlib.h>

#include "doc.h"
#include "fields.h"
#include "harness.h"
#include "lang.h"
#include "schema.h"
#include "social.h"
#include "style.h"

static cv_arena *A;

/* Whether `json` has the property "key". */
static bool has_key(const char *json, const char *key)
{
    return strstr(json, cv_arena_printf(A, "\"%s\": ", key)) != NULL;
}

TEST(every_layout_key_typed)
{
    const cv_layout_key *k;
    size_t n = cv_style_keys(A, &k);
    CHECK(n > 100);
    const char *json = cv_schema_json(A, "layout");
    CHECK(json && !strstr(json, "untyped"));
    for (size_t i = 0; i < n; i++) {
        if (k[i].type == CV_LT_UNKNOWN)
            fprintf(stderr, "  untyped layout key %s\n", k[i].path);
        CHECK(k[i].type != CV_LT_UNKNOWN);
        CHECK(k[i].type != CV_LT_CHOICE || (k[i].words && k[i].words[0]));
        const char *last = strrchr(k[i].path, '.');
        CHECK(json && has_key(json, last ? last + 1 : k[i].path));
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(k[i].path, k[j].path));
    }
}

TEST(every_profile_key_typed)
{
    const char *json = cv_schema_json(A, "profile");
    CHECK(json && !strstr(json, "untyped"));
    if (!json)
        return;
    const char *parts[] = {"", "cv", "settings"};
    for (size_t p = 0; p < 3; p++)
        for (const char *const *k = cv_doc_keys(parts[p]); *k; k++)
            CHECK(has_key(json, *k));
    for (const char *const *k = cv_locale_keys(); *k; k++)
        CHECK(has_key(json, *k));
    for (const char *const *k = cv_social_keys(); *k; k++)
        CHECK(has_key(json, *k));
    size_t n;
    const cv_field *f = cv_fields(&n);
    for (size_t i = 0; i < n; i++)
        CHECK(!f[i].key || has_key(json, f[i].key));
    for (size_t i = 0; cv_social_network_at(i); i++)
        CHECK(strstr(json, cv_arena_printf(A, "\"%s\"", cv_social_network_at(i))));
    CHECK(cv_doc_keys("nonsense") == NULL);
    CHECK(cv_schema_json(A, "nonsense") == NULL);
}

/* schema/NAME.json, as committed, is what cvpdf makes (make schema). */
TEST(committed_files_current)
{
    const char *which[] = {"profile", "layout"};
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(cv_arena_printf(A, "schema/%s.json", which[i]), "r");
        CHECK(f != NULL);
        if (!f)
            continue;
        static char buf[1 << 20];
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = 0;
        const char *now = cv_schema_json(A, which[i]);
        if (strcmp(buf, now))
            fprintf(stderr, "  schema/%s.json is stale: run make schema\n", which[i]);
        CHECK(!strcmp(buf, now));
    }
}

int main(void)
{
    A = cv_arena_new();
    RUN(every_layout_key_typed);
    RUN(every_profile_key_typed);
    RUN(committed_files_current);
    cv_arena_free(A);
    return harness_report("schema");
}
