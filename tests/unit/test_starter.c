/* test_starter.c - `cvpdf new`: the file name, the starter profile (every
 * entry type, loaded without a warning), the starter layout, and never
 * writing over a file. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doc.h"
#include "harness.h"
#include "schema.h"
#include "starter.h"
#include "yml.h"

static cv_arena *A;
#include "errcheck.h"

static char dir[64], top[4096];

static const char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    static char buf[16384];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

TEST(file_names)
{
    CHECK_STR(cv_starter_file_name(A, "Meiling Zhou"), "Meiling_Zhou_CV.yaml");
    CHECK_STR(cv_starter_file_name(A, "Ada"), "Ada_CV.yaml");
    CHECK_STR(cv_starter_file_name(A, "张伟"), "张伟_CV.yaml");
    CHECK_STR(cv_starter_file_name(A, "Jean-Luc  Picard"), "Jean-Luc__Picard_CV.yaml");
    CHECK(cv_starter_file_name(A, "") == NULL);
    CHECK(cv_starter_file_name(A, "   ") == NULL);          /* no name: not "____CV.yaml" */
    CHECK_STR(cv_starter_file_name(A, " Ada"), "_Ada_CV.yaml");
    CHECK(cv_starter_file_name(A, "a/b") == NULL);
    CHECK(cv_starter_file_name(A, "a\nb") == NULL);
    CHECK(cv_starter_file_name(A, "..") == NULL);
    char long_name[300];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = 0;
    CHECK(cv_starter_file_name(A, long_name) == NULL);
}

TEST(profile_has_every_type)
{
    const char *names[] = {"Meiling Zhou", "Jo \"JJ\" O'Neil \\ 2", "张伟"};
    for (size_t n = 0; n < sizeof names / sizeof *names; n++) {
        const char *text = cv_starter_profile(A, names[n], "/x/schema/profile.json");
        CHECK(!strncmp(text, "# yaml-language-server: $schema=/x/schema/profile.json\n", 55));
        capture();
        cv_doc *d = cv_doc_load_text(A, "new.yaml", text, strlen(text), NULL, &E);
        CHECK(d != NULL);
        CHECK_STR(said(), "");          /* no warning, no note */
        if (!d) {
            fprintf(stderr, "  %s\n", errstr());
            continue;
        }
        CHECK_STR(d->name.s, names[n]);
        bool kinds[CV_ENTRY_NKINDS] = {0};
        for (size_t i = 0; i < d->nsections; i++)
            kinds[d->sections[i].kind] = true;
        for (int k = 0; k < CV_ENTRY_NKINDS; k++)
            CHECK(kinds[k]);
        CHECK(d->nsocials == 2);
    }
    /* No schema: no schema line. */
    CHECK(!strncmp(cv_starter_profile(A, "Ada", NULL), "# Ada's", 7));
}

TEST(layout_extends)
{
    const char *text = cv_starter_layout(A, "Ada", "sidebar", "/x/layout.json");
    cv_error_init(&E);
    cv_yml *root = cv_yml_load(A, "l.yaml", text, strlen(text), &E);
    CHECK(root && root->kind == CV_YML_MAP && root->n == 1);
    cv_yml *ext = root ? cv_yml_get(root, "extends") : NULL;
    CHECK_STR(ext ? ext->str : NULL, "sidebar");
    CHECK(!strncmp(text, "# yaml-language-server: $schema=/x/layout.json\n", 47));
}

/* cvpdf new ARGS in the scratch directory, with CVPDF_DATADIR the
 * repository's: the exit status, stdout and stderr. */
static int run_new(const char *a1, const char *a2, const char *a3, char **out, char **err)
{
    char *argv[] = {"new", (char *)a1, (char *)a2, (char *)a3, NULL};
    int argc = 1 + (a1 != NULL) + (a2 != NULL) + (a3 != NULL);
    size_t ol, el;
    FILE *o = open_memstream(out, &ol), *e = open_memstream(err, &el);
    int st = cv_starter_main(argc, argv, o, e);
    fclose(o);
    fclose(e);
    return st;
}

TEST(writes_never_over)
{
    char *out, *err;
    if (chdir(dir) != 0)
        return;
    CHECK(run_new("Meiling Zhou", NULL, NULL, &out, &err) == 0);
    CHECK(strstr(out, "Wrote Meiling_Zhou_CV.yaml") != NULL);
    CHECK_STR(err, "");
    free(out), free(err);
    const char *text = slurp("Meiling_Zhou_CV.yaml");
    CHECK(text && strstr(text, "  name: \"Meiling Zhou\"\n"));
    /* The modeline names the user's copy of the schema, written now. */
    const char *copy = cv_arena_printf(A, "%s/xdg/cvpdf/schema/profile.json", dir);
    CHECK(text && strstr(text, cv_arena_printf(A, "$schema=%s\n", copy)));
    /* (A schema is larger than slurp()'s buffer.) */
    FILE *sf = fopen(copy, "r");
    const char *want = cv_schema_json(A, "profile");
    size_t wlen = strlen(want);
    char *json = cv_arena_alloc(A, wlen + 2);
    size_t got = sf ? fread(json, 1, wlen + 1, sf) : 0;
    if (sf)
        fclose(sf);
    CHECK(got == wlen && !memcmp(json, want, wlen));

    /* Again: refused, the file as it was. */
    FILE *f = fopen("Meiling_Zhou_CV.yaml", "w");
    fputs("mine\n", f);
    fclose(f);
    CHECK(run_new("Meiling Zhou", NULL, NULL, &out, &err) == 1);
    CHECK(strstr(err, "'Meiling_Zhou_CV.yaml' exists; cvpdf new never writes over a file"));
    free(out), free(err);
    CHECK_STR(slurp("Meiling_Zhou_CV.yaml"), "mine\n");
    /* With a layout: neither written when the profile exists. */
    CHECK(run_new("Meiling Zhou", "--layout", "sidebar", &out, &err) == 1);
    free(out), free(err);
    CHECK(access("Meiling_Zhou_layout.yaml", F_OK) != 0);
    /* ... nor when the layout exists. */
    f = fopen("Ada_layout.yaml", "w");
    fclose(f);
    CHECK(run_new("Ada", "-l", "sidebar", &out, &err) == 1);
    free(out), free(err);
    CHECK(access("Ada_CV.yaml", F_OK) != 0);
    CHECK(run_new("Bo Li", "--layout", "sidebar", &out, &err) == 0);
    CHECK(strstr(out, "cvpdf Bo_Li_CV.yaml -l Bo_Li_layout.yaml"));
    free(out), free(err);
    text = slurp("Bo_Li_layout.yaml");
    CHECK(text && strstr(text, "\nextends: sidebar\n"));
    /* A dangling symlink is not followed. */
    CHECK(symlink("/nonexistent/target", "Cy_CV.yaml") == 0);
    CHECK(run_new("Cy", NULL, NULL, &out, &err) == 1);
    free(out), free(err);
    CHECK(access("/nonexistent/target", F_OK) != 0);
    if (chdir(top) != 0)
        return;
}

/* A data directory whose path has a space: the modeline names a file: URI. */
TEST(schema_uri)
{
    char *out, *err;
    const char *data = cv_arena_printf(A, "%s/da ta", dir);
    mkdir(data, 0777);
    mkdir(cv_arena_printf(A, "%s/schema", data), 0777);
    FILE *f = fopen(cv_arena_printf(A, "%s/schema/profile.json", data), "w");
    fputs("{}\n", f);
    fclose(f);
    setenv("CVPDF_DATADIR", data, 1);
    /* No user copy can be written (XDG_DATA_HOME is under a file): the
     * data directory's schema, as a file: URI. */
    const char *file = cv_arena_printf(A, "%s/a-file", dir);
    fclose(fopen(file, "w"));
    setenv("XDG_DATA_HOME", file, 1);
    if (chdir(dir) != 0)
        return;
    CHECK(run_new("Uri Test", NULL, NULL, &out, &err) == 0);
    free(out), free(err);
    const char *text = slurp("Uri_Test_CV.yaml");
    const char *want = cv_arena_printf(A, "# yaml-language-server: $schema=file://%s"
                                       "/da%%20ta/schema/profile.json\n", dir);
    CHECK(text && !strncmp(text, want, strlen(want)));
    /* The user's copy under a path with a space: a file: URI too. */
    setenv("XDG_DATA_HOME", cv_arena_printf(A, "%s/x dg", dir), 1);
    CHECK(run_new("Uri Two", NULL, NULL, &out, &err) == 0);
    free(out), free(err);
    text = slurp("Uri_Two_CV.yaml");
    want = cv_arena_printf(A, "# yaml-language-server: $schema=file://%s"
                           "/x%%20dg/cvpdf/schema/profile.json\n", dir);
    CHECK(text && !strncmp(text, want, strlen(want)));
    setenv("XDG_DATA_HOME", cv_arena_printf(A, "%s/xdg", dir), 1);
    setenv("CVPDF_DATADIR", top, 1);
    if (chdir(top) != 0)
        return;
}

TEST(usage_errors)
{
    char *out, *err;
    CHECK(run_new(NULL, NULL, NULL, &out, &err) == 2);
    CHECK(has(err, "cvpdf new: no name given"));
    free(out), free(err);
    CHECK(run_new("A", "B", NULL, &out, &err) == 2);
    CHECK(strstr(err, "quote a name with spaces"));
    free(out), free(err);
    CHECK(run_new("a/b", NULL, NULL, &out, &err) == 2);
    free(out), free(err);
    CHECK(run_new("Ada", "--layout", "sidebr", &out, &err) == 2);
    CHECK(strstr(err, "did you mean 'sidebar'?"));
    free(out), free(err);
    CHECK(run_new("Ada", "--layout", "x/sidebar.yaml", &out, &err) == 2);
    free(out), free(err);
    CHECK(run_new("--bogus", NULL, NULL, &out, &err) == 2);
    free(out), free(err);
    CHECK(run_new("--help", NULL, NULL, &out, &err) == 0);
    CHECK(strstr(out, "Usage: cvpdf new"));
    free(out), free(err);
    CHECK(access("Ada_CV.yaml", F_OK) != 0);
}

int main(void)
{
    A = cv_arena_new();
    if (!getcwd(top, sizeof top))
        return 1;
    setenv("CVPDF_DATADIR", top, 1);
    snprintf(dir, sizeof dir, "/tmp/cvpdf-test-starter-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    /* cvpdf new writes the user's copy of the schema there, not in $HOME. */
    setenv("XDG_DATA_HOME", cv_arena_printf(A, "%s/xdg", dir), 1);
    RUN(file_names);
    RUN(profile_has_every_type);
    RUN(layout_extends);
    RUN(writes_never_over);
    RUN(schema_uri);
    RUN(usage_errors);
    if (system(cv_arena_printf(A, "rm -rf '%s'", dir)) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    cv_arena_free(A);
    return harness_report("starter");
}
