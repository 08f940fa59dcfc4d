/* test_datadir.c - the data directory, layout names, descriptions and the
 * messages for a missing layout or data directory. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datadir.h"
#include "harness.h"

static cv_arena *A;
static char dir[64];

static void put_file(const char *name, const char *text)
{
    FILE *f = fopen(cv_arena_printf(A, "%s/%s", dir, name), "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

TEST(names_and_paths)
{
    CHECK(cv_layout_is_name("sidebar"));
    CHECK(cv_layout_is_name("onecolumn-letter"));
    CHECK(!cv_layout_is_name("sidebar.yaml"));
    CHECK(!cv_layout_is_name("my.yml"));
    CHECK(!cv_layout_is_name("./sidebar"));
    CHECK(!cv_layout_is_name("layouts/sidebar"));
    CHECK(!cv_layout_is_name(""));
    CHECK(!cv_layout_is_name(".."));
    setenv("CVPDF_DATADIR", dir, 1);
    CHECK_STR(cv_datadir(A), dir);
    CHECK_STR(cv_layout_shipped(A, "zz"), cv_arena_printf(A, "%s/layouts/zz.yaml", dir));
    /* -l: a path stays a path; a name is the shipped layout unless a file
     * has exactly that name. */
    CHECK_STR(cv_layout_arg(A, "x/y.yaml"), "x/y.yaml");
    CHECK_STR(cv_layout_arg(A, "nosuchfile-zz"),
              cv_arena_printf(A, "%s/layouts/nosuchfile-zz.yaml", dir));
    CHECK_STR(cv_layout_arg(A, "Makefile"), "Makefile");
}

TEST(listing)
{
    setenv("CVPDF_DATADIR", dir, 1);
    const char **names = cv_layout_names(A);
    CHECK(names[0] == NULL);
    CHECK(!cv_datadir_ok(A, dir));
    /* A data directory without layouts says how to set it. */
    const char *m = cv_layout_missing(A, "sidebar");
    CHECK(strstr(m, "has no layouts; set CVPDF_DATADIR") != NULL);
    FILE *devnull = fopen("/dev/null", "w");
    char *buf = NULL;
    size_t len = 0;
    FILE *diag = open_memstream(&buf, &len);
    CHECK(!cv_layout_list(A, devnull, diag));
    fclose(diag);
    CHECK(buf && strstr(buf, "CVPDF_DATADIR") != NULL);
    free(buf);

    mkdir(cv_arena_printf(A, "%s/layouts", dir), 0777);
    put_file("layouts/onecolumn.yaml", "# onecolumn \xE2\x80\x94 the plain one. More.\n{}\n");
    put_file("layouts/sidebar.yaml", "\n# sidebar: two columns,\n# side by side.\n"
                                    "# Not this.\nextends: onecolumn\n");
    put_file("layouts/bare.yaml", "page: {size: a4}\n# a comment after a key\n");
    put_file("layouts/.hidden.yaml", "{}\n");
    put_file("layouts/notes.txt", "x\n");
    names = cv_layout_names(A);
    CHECK_STR(names[0], "bare");
    CHECK_STR(names[1], "onecolumn");
    CHECK_STR(names[2], "sidebar");
    CHECK(names[3] == NULL);
    CHECK(cv_datadir_ok(A, dir));
    CHECK_STR(cv_layout_description(A, cv_layout_shipped(A, "onecolumn")), "the plain one.");
    CHECK_STR(cv_layout_description(A, cv_layout_shipped(A, "sidebar")),
              "two columns, side by side.");
    CHECK_STR(cv_layout_description(A, cv_layout_shipped(A, "bare")), "");
    CHECK_STR(cv_layout_description(A, "/nonexistent/x.yaml"), "");
    /* engine.h's find_layout: a shipped layout by name, the names there
     * are when it is missing, nothing for a path. */
    const char *why = "x";
    CHECK_STR(cv_layout_find(A, "sidebar", &why), cv_layout_shipped(A, "sidebar"));
    CHECK(why == NULL);
    CHECK(cv_layout_find(A, "sidebr", &why) == NULL && why && strstr(why, "sidebar"));
    CHECK(cv_layout_find(A, "sub/x.yaml", &why) == NULL && why == NULL);

    buf = NULL;
    FILE *out = open_memstream(&buf, &len);
    CHECK(cv_layout_list(A, out, stderr));
    fclose(out);
    CHECK_STR(buf, "bare       \nonecolumn  the plain one.\nsidebar    two columns, side by "
                   "side.\n");
    free(buf);
    fclose(devnull);

    /* A name not shipped: the names there are, and the closest. */
    m = cv_layout_missing(A, "sidebr");
    CHECK(strstr(m, "there is no layout named 'sidebr' (did you mean 'sidebar'?)") != NULL);
    CHECK(strstr(m, "cvpdf ships bare, onecolumn and sidebar") != NULL);
    CHECK(strstr(m, "./sidebr.yaml") != NULL);
}

TEST(found_beside_the_executable)
{
    /* Without CVPDF_DATADIR, the tests' binary (build/san/) finds the
     * repository's layouts two levels up. */
    unsetenv("CVPDF_DATADIR");
    const char *d = cv_datadir(A);
    CHECK(cv_datadir_ok(A, d));
    CHECK(access(cv_arena_printf(A, "%s/layouts/sidebar.yaml", d), R_OK) == 0);
    setenv("CVPDF_DATADIR", "", 1);
    CHECK_STR(cv_datadir(A), d);
}

int main(void)
{
    A = cv_arena_new();
    snprintf(dir, sizeof dir, "/tmp/cvpdf-test-datadir-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    RUN(names_and_paths);
    RUN(listing);
    RUN(found_beside_the_executable);
    if (system(cv_arena_printf(A, "rm -rf '%s'", dir)) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    cv_arena_free(A);
    return harness_report("datadir");
}
