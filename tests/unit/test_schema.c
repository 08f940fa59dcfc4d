/* test_schema.c - the JSON Schemas: every key the loaders' tables hold is
 * in them with a type, and the committed schema/profile.json and
 * schema/layout.json are what cvpdf makes now.  (That the loaders accept
 * exactly the schemas' keys, and that the shipped profiles and layouts
 * validate, is tests/newuser.py's, with python3-jsonschema.)  Every key
 * has its own description, and no two keys share one unless they are the
 * same key in different places (an entry's `location` in experience and
 * in education). */
#include <json-c/json.h>
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

/* ---- Descriptions ---------------------------------------------------------- */

/* A property of a schema: where, its name, and what its hover shows. */
typedef struct prop {
    const char *path, *key, *about;
} prop;

typedef struct props {
    prop *p;
    size_t n, cap;
} props;

/* The description a property shows: its own, or that of the $defs entry
 * it refers to when that entry is this key's own (#/$defs/start_date for
 * start_date); a reference to a shared type (#/$defs/text) is no
 * description of the key. */
static const char *about_of(json_object *v, const char *key, json_object *defs)
{
    json_object *d, *ref;
    if (json_object_object_get_ex(v, "description", &d))
        return json_object_get_string(d);
    if (json_object_object_get_ex(v, "$ref", &ref)) {
        const char *r = json_object_get_string(ref);
        const char *name = strrchr(r, '/');
        json_object *def;
        if (name && !strcmp(name + 1, key) && defs &&
            json_object_object_get_ex(defs, key, &def) &&
            json_object_object_get_ex(def, "description", &d))
            return json_object_get_string(d);
    }
    return NULL;
}

/* Every property under `o`, at `path`, into `out`. */
static void collect(json_object *o, const char *path, json_object *defs, props *out)
{
    if (json_object_is_type(o, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(o); i++)
            collect(json_object_array_get_idx(o, i), path, defs, out);
        return;
    }
    if (!json_object_is_type(o, json_type_object))
        return;
    json_object_object_foreach(o, k, v) {
        if (!strcmp(k, "properties") && json_object_is_type(v, json_type_object)) {
            json_object_object_foreach(v, name, pv) {
                const char *at = *path ? cv_arena_printf(A, "%s.%s", path, name) : name;
                if (out->n == out->cap) {
                    out->cap = out->cap ? 2 * out->cap : 256;
                    out->p = realloc(out->p, out->cap * sizeof *out->p);
                }
                out->p[out->n++] = (prop){at, cv_arena_strdup(A, name),
                                          about_of(pv, name, defs)};
                collect(pv, at, defs, out);
            }
        } else if (!strcmp(k, "$defs")) {
            json_object_object_foreach(v, name, dv)
                collect(dv, cv_arena_printf(A, "$defs.%s", name), defs, out);
        } else {
            collect(v, path, defs, out);
        }
    }
}

/* The texts that say what sort of value a key takes, not what it is: a
 * key whose description is one of these, or starts with one (a layout
 * key's description is its own phrase, then "; " and its type's), has
 * none of its own. */
static bool generic(const char *s, json_object *defs)
{
    static const char *const types[] = {"a length", "a number", "a whole number",
                                        "a fraction", "a width in em", "true or false",
                                        "a colour", "a string", "section names", "a font family",
                                        "font families", "template lines", "text, with"};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (!strncmp(s, types[i], strlen(types[i])))
            return true;
    if (!defs)
        return false;
    json_object_object_foreach(defs, name, dv) {
        json_object *d;
        (void)name;
        if (json_object_object_get_ex(dv, "description", &d) &&
            !strcmp(s, json_object_get_string(d)))
            return true;
    }
    return false;
}

TEST(every_key_described)
{
    const char *which[] = {"profile", "layout"};
    for (int w = 0; w < 2; w++) {
        json_object *root = json_tokener_parse(cv_schema_json(A, which[w]));
        CHECK(root != NULL);
        if (!root)
            continue;
        json_object *defs = NULL;
        json_object_object_get_ex(root, "$defs", &defs);
        props ps = {0};
        collect(root, "", defs, &ps);
        CHECK(ps.n > 100);
        for (size_t i = 0; i < ps.n; i++) {
            const prop *p = &ps.p[i];
            bool own = p->about && *p->about && p->about[0] != ';' && !generic(p->about, defs);
            if (!own)
                fprintf(stderr, "  %s schema: %s has no description of its own (%s)\n",
                        which[w], p->path, p->about ? p->about : "none");
            CHECK(own);
            /* The same words for two keys: only for one key in two places. */
            for (size_t j = 0; j < i && p->about; j++)
                if (ps.p[j].about && !strcmp(p->about, ps.p[j].about) &&
                    strcmp(p->key, ps.p[j].key)) {
                    fprintf(stderr, "  %s schema: %s and %s share a description\n", which[w],
                            ps.p[j].path, p->path);
                    CHECK(false);
                }
        }
        free(ps.p);
        json_object_put(root);
    }
}

/* The layout's loader table gives every key its own phrase, and a phrase is
 * one key's. */
TEST(every_layout_key_has_its_phrase)
{
    const cv_layout_key *k;
    size_t n = cv_style_keys(A, &k);
    for (size_t i = 0; i < n; i++) {
        if (!k[i].about || !*k[i].about)
            fprintf(stderr, "  layout key %s has no phrase\n", k[i].path);
        CHECK(k[i].about && *k[i].about);
        for (size_t j = 0; j < i && k[i].about; j++)
            CHECK(!k[j].about || strcmp(k[i].about, k[j].about));
    }
    const char *maps[] = {"page", "font", "colors", "text", "header", "section_title", "entry",
                          "bullets", "templates", "pdf", "pagination", "columns", "page_header",
                          "page_footer", "photo", "fit", "links", "templates.experience"};
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
        CHECK(cv_style_map_about(A, maps[i]) != NULL);
    CHECK(cv_style_map_about(A, "nonsense") == NULL);
    CHECK(cv_style_map_about(A, "templates.nonsense") == NULL);
}

int main(void)
{
    A = cv_arena_new();
    RUN(every_layout_key_typed);
    RUN(every_profile_key_typed);
    RUN(committed_files_current);
    RUN(every_key_described);
    RUN(every_layout_key_has_its_phrase);
    cv_arena_free(A);
    return harness_report("schema");
}
