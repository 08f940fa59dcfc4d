/* test_module.c - cvpdf's modules (module.h): a missing one says what to
 * install; one that is there but cannot be opened, or lacks the module's
 * functions, says which file and why; every place a module may be opened
 * from is an input.  The files the test puts beside its binary are its
 * own, with names no module of cvpdf's has, and are removed. */
#include "harness.h"
#include "module.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char here[PATH_MAX];     /* the directory of this test's binary */

/* Put `bytes` (or a copy of the file `from`) beside the binary as `name`. */
static void put_beside(const char *name, const char *bytes, const char *from)
{
    char path[PATH_MAX + 64], cmd[2 * PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", here, name);
    if (from) {
        snprintf(cmd, sizeof cmd, "cp '%s' '%s'", from, path);
        CHECK(system(cmd) == 0);
    } else {
        FILE *f = fopen(path, "w");
        CHECK(f != NULL);
        if (f) {
            fputs(bytes, f);
            fclose(f);
        }
    }
}

static void remove_beside(const char *name)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", here, name);
    unlink(path);
}

TEST(missing_says_what_to_install)
{
    cv_module m = {.file = "cvpdf-unittest-none.so", .kind = "test", .input = "the test module",
                   .library = "libtest", .package = "libtest9", .syms = {"f", NULL}};
    CHECK(!cv_module_open(&m));
    CHECK(strstr(m.missing, "cvpdf's test module cvpdf-unittest-none.so is neither beside "
                            "the binary nor in") != NULL);
    CHECK(strstr(m.missing, "Debian package libtest9") != NULL);
    CHECK(!cv_module_open(&m));           /* asked once: the same answer */
    CHECK(m.fn[0] == NULL);
}

TEST(not_a_shared_object)
{
    put_beside("cvpdf-unittest-bad.so", "not an ELF file\n", NULL);
    cv_module m = {.file = "cvpdf-unittest-bad.so", .kind = "test", .input = "the test module",
                   .library = "libtest", .package = "libtest9", .syms = {"f", NULL}};
    CHECK(!cv_module_open(&m));
    CHECK(strstr(m.missing, "cannot open the test module ") != NULL);
    CHECK(strstr(m.missing, "cvpdf-unittest-bad.so") != NULL);
    CHECK(strstr(m.missing, "(it needs libtest: install the Debian package libtest9)") != NULL);
    remove_beside("cvpdf-unittest-bad.so");
}

TEST(without_its_functions)
{
    /* A real shared object (the maths library this test is linked with,
     * wherever it is), without the module's function. */
    Dl_info info;
    double (*volatile pcos)(double) = cos;
    CHECK(dladdr(*(void **)&pcos, &info) && info.dli_fname);
    put_beside("cvpdf-unittest-nosym.so", NULL, info.dli_fname);
    cv_module m = {.file = "cvpdf-unittest-nosym.so", .kind = "test",
                   .input = "the test module", .library = "libtest", .package = "libtest9",
                   .syms = {"cos", "cv_no_such_function", NULL}};
    CHECK(!cv_module_open(&m));
    CHECK(strstr(m.missing, "is not a cvpdf test module") != NULL);
    CHECK(m.fn[0] == NULL && m.fn[1] == NULL);
    /* With functions it has, it opens and finds them in order. */
    cv_module ok = {.file = "cvpdf-unittest-nosym.so", .kind = "test",
                    .input = "the test module", .library = "libtest", .package = "libtest9",
                    .syms = {"cos", "sin", NULL}};
    CHECK(cv_module_open(&ok));
    CHECK(ok.fn[0] != NULL && ok.fn[1] != NULL && ok.fn[0] != ok.fn[1]);
    CHECK(ok.missing[0] == 0);
    remove_beside("cvpdf-unittest-nosym.so");
}

TEST(every_place_is_an_input)
{
    put_beside("cvpdf-unittest-in.so", "x\n", NULL);
    cv_module m = {.file = "cvpdf-unittest-in.so", .kind = "test", .input = "the test module",
                   .library = "libtest", .package = "libtest9", .syms = {"f", NULL}};
    cv_inputs *in = cv_inputs_new();
    cv_module_note(&m, in);
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/cvpdf-unittest-in.so", here);
    const char *what = cv_inputs_find(in, path);
    CHECK(what && !strcmp(what, "the test module"));
    cv_inputs_free(in);
    remove_beside("cvpdf-unittest-in.so");
}

int main(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 1;
    exe[n] = 0;
    snprintf(here, sizeof here, "%s", dirname(exe));
    RUN(missing_says_what_to_install);
    RUN(not_a_shared_object);
    RUN(without_its_functions);
    RUN(every_place_is_an_input);
    return harness_report("module");
}
