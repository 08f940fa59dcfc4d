/* Unit tests for output planning (plan.h): names, directories, collisions,
 * and outputs that are inputs.  Works in a temporary directory. */
#include "harness.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan.h"

static char tmp[64];

/* tmp/name, in the arena. */
static char *at(cv_arena *a, const char *name)
{
    return cv_arena_printf(a, "%s/%s", tmp, name);
}

static void touch(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f)
        fclose(f);
}

/* One plan: its status and what it printed. */
static int plan(cv_arena *a, const cv_options *o, cv_plan *p, char *diag, size_t size)
{
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    int status = cv_plan_make(a, o, p, f);
    fclose(f);
    snprintf(diag, size, "%s", buf);
    free(buf);
    return status;
}

TEST(plan_stem)
{
    cv_arena *a = cv_arena_new();
    CHECK_STR(cv_plan_stem(a, "profiles/he.yaml"), "he");
    CHECK_STR(cv_plan_stem(a, "he.yaml"), "he");
    CHECK_STR(cv_plan_stem(a, "he"), "he");
    CHECK_STR(cv_plan_stem(a, "a.b.yaml"), "a.b");
    CHECK_STR(cv_plan_stem(a, "dir.d/file"), "file");
    CHECK_STR(cv_plan_stem(a, ".hidden"), ".hidden");
    CHECK_STR(cv_plan_stem(a, "x/.hidden.yaml"), ".hidden");
    cv_arena_free(a);
}

TEST(plan_names)
{
    cv_arena *a = cv_arena_new();
    char *profiles[] = {"profiles/he.yaml", "li.yaml"};
    char diag[1024];
    cv_plan p;
    /* No -o: <stem>.pdf beside each profile. */
    cv_options o = {.profiles = profiles, .nprofiles = 2};
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0);
    CHECK(p.n == 2);
    CHECK_STR(p.outs[0], "profiles/he.pdf");
    CHECK_STR(p.outs[1], "li.pdf");
    CHECK_STR(diag, "");
    /* -o FILE with one profile: that file. */
    o.nprofiles = 1;
    o.output = at(a, "cv.pdf");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0);
    CHECK_STR(p.outs[0], o.output);
    /* -o DIR/ (made when missing), or an existing directory without '/'. */
    o.nprofiles = 2;
    o.output = at(a, "out/");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0);
    CHECK_STR(p.outs[0], at(a, "out/he.pdf"));
    CHECK_STR(p.outs[1], at(a, "out/li.pdf"));
    struct stat st;
    CHECK(stat(at(a, "out"), &st) == 0 && S_ISDIR(st.st_mode));
    o.output = at(a, "out");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0);
    CHECK_STR(p.outs[1], at(a, "out/li.pdf"));
    /* -o "" is a file name, not a directory, and names no format. */
    o.output = "";
    o.nprofiles = 1;
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 2);
    cv_arena_free(a);
}

/* The format follows the name; --format names it where there is none. */
TEST(plan_formats)
{
    cv_arena *a = cv_arena_new();
    char *profiles[] = {"profiles/he.yaml", "li.yaml"};
    char diag[1024];
    cv_plan p;
    cv_options o = {.profiles = profiles, .nprofiles = 1};
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0 && p.format == CV_FORMAT_PDF);
    static const struct { const char *name; int status; cv_format f; } names[] = {
        {"cv.pdf", 0, CV_FORMAT_PDF}, {"cv.PNG", 0, CV_FORMAT_PNG}, {"cv.svg", 0, CV_FORMAT_SVG},
        {"cv.txt", 2, 0}, {"cv", 2, 0}, {"cv.pdf.bak", 2, 0}, {".png", 2, 0},
        {"/dev/null", 0, CV_FORMAT_PDF}, {"-", 0, CV_FORMAT_PDF}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        o.output = names[i].name[0] == '/' || names[i].name[0] == '-' ? (char *)names[i].name
                                                                        : at(a, names[i].name);
        int status = plan(a, &o, &p, diag, sizeof diag);
        CHECK(status == names[i].status);
        CHECK(status || p.format == names[i].f);
        CHECK(!status || (strstr(diag, ".pdf, .png") && strstr(diag, ": error: ")));
    }
    /* --format: for a directory, no -o, "-" (a PDF only); agreeing with a name. */
    o.format = CV_FORMAT_PNG;
    o.output = NULL;
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0 && p.format == CV_FORMAT_PNG);
    CHECK_STR(p.outs[0], "profiles/he.png");
    o.nprofiles = 2;
    o.output = at(a, "fmt/");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0 && p.format == CV_FORMAT_PNG);
    CHECK_STR(p.outs[1], at(a, "fmt/li.png"));
    o.nprofiles = 1;
    o.output = "-";
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 2 && strstr(diag, "files of their own"));
    o.output = at(a, "cv.svg");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 2 && strstr(diag, "does not agree"));
    o.output = at(a, "cv.png");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0 && p.format == CV_FORMAT_PNG);
    /* --merge follows its name the same way. */
    o.format = CV_FORMAT_NONE;
    o.output = NULL;
    o.merge = at(a, "book.svg");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0 && p.format == CV_FORMAT_SVG);
    o.merge = at(a, "book.txt");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 2 && strstr(diag, "book.txt: error: "));
    /* --fit-pages fits pages: an HTML page or Markdown has none to fit
     * (it was ignored, exit 0, where the PDF would not fit and exit 1). */
    o.merge = NULL;
    o.fit_pages = 1;
    o.output = at(a, "cv.html");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 2 && strstr(diag, "--fit-pages") &&
          strstr(diag, "an HTML page"));
    o.output = at(a, "cv.md");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 2 && strstr(diag, "Markdown"));
    o.output = NULL;
    o.format = CV_FORMAT_HTML;
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 2 && strstr(diag, "an HTML page"));
    o.format = CV_FORMAT_NONE;
    o.output = at(a, "cv.png");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0 && p.format == CV_FORMAT_PNG);
    o.fit_pages = 0;
    /* --pdfa and --pdfua make a PDF: with pages, a web page or Markdown
     * they were ignored (exit 0); a PDF takes them. */
    o.pdfa = true;
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 2 && strstr(diag, "--pdfa") &&
          strstr(diag, "PNG pages"));
    o.pdfa = false;
    o.pdfua = true;
    o.output = at(a, "cv.md");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 2 && strstr(diag, "--pdfua") &&
          strstr(diag, "Markdown"));
    o.output = at(a, "cv.pdf");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0 && p.format == CV_FORMAT_PDF);
    o.pdfua = false;
    /* --dump writes nothing: no name is checked. */
    o.output = at(a, "cv.txt");
    o.dump = 1;
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0);
    cv_arena_free(a);
}

TEST(plan_refusals)
{
    cv_arena *a = cv_arena_new();
    char *profiles[] = {"profiles/he.yaml", "li.yaml"};
    char diag[1024], want[1024];
    cv_plan p;
    /* -o FILE for two profiles: a usage error, unless nothing is written. */
    cv_options o = {.profiles = profiles, .nprofiles = 2, .output = at(a, "one.pdf")};
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 2);
    snprintf(want, sizeof want, "cvpdf: -o %s names one file but 2 profiles were given; "
             "use -o DIR/\n", o.output);
    CHECK_STR(diag, want);
    o.dump = 1;
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0);
    /* A directory that cannot be made: its parent is a file. */
    o.dump = 0;
    touch(at(a, "afile"));
    o.output = at(a, "afile/sub/");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 1);
    snprintf(want, sizeof want, "%s: error: cannot create directory '%s': %s\n", o.output,
             o.output, strerror(ENOTDIR));
    CHECK_STR(diag, want);
    /* Missing parents are made, as mkdir -p makes them (-o out/2024/). */
    o.output = at(a, "missing/sub/");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0);
    struct stat st;
    CHECK(stat(at(a, "missing/sub"), &st) == 0 && S_ISDIR(st.st_mode));
    CHECK_STR(p.outs[1], at(a, "missing/sub/li.pdf"));
    cv_arena_free(a);
}

TEST(plan_collisions)
{
    cv_arena *a = cv_arena_new();
    char *profiles[] = {"x/li.yaml", "a/he.yaml", "b/he.yml"};
    char diag[1024], want[1024];
    cv_plan p;
    cv_options o = {.profiles = profiles, .nprofiles = 3, .output = at(a, "c/")};
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 1);
    snprintf(want, sizeof want, "cvpdf: error: a/he.yaml and b/he.yml would both be written "
             "to %s/c/he.pdf; give one of them another name, or use --merge\n", tmp);
    CHECK_STR(diag, want);
    /* --dump writes nothing: no collision. */
    o.dump = 1;
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0);
    /* --merge writes one file: the names do not matter. */
    o.dump = 0;
    o.merge = at(a, "book.pdf");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0);
    /* No -o: beside each profile, so that the same stem in two
     * directories is no collision, and in one directory is. */
    o.merge = NULL;
    o.output = NULL;
    o.nprofiles = 2;
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0);
    CHECK_STR(p.outs[0], "x/li.pdf");
    CHECK_STR(p.outs[1], "a/he.pdf");
    char *same[] = {"a/he.yaml", "a/he.yml"};
    o.profiles = same;
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 1);
    CHECK_STR(diag, "cvpdf: error: a/he.yaml and a/he.yml would both be written to a/he.pdf; "
              "give one of them another name, or use --merge\n");
    /* Nothing is made before the checks pass. */
    struct stat st;
    CHECK(stat(at(a, "c"), &st) != 0);
    cv_arena_free(a);
}

TEST(plan_inputs)
{
    cv_arena *a = cv_arena_new();
    char *prof = at(a, "p.yaml"), *layout = at(a, "l.yaml"), *defs = at(a, "d.yaml");
    touch(prof), touch(layout), touch(defs);
    char *hard = at(a, "hard.pdf");
    CHECK(link(prof, hard) == 0);
    char *profiles[] = {prof};
    char diag[1024], want[1024];
    cv_plan p;
    /* The profile itself, by name or through a hard link. */
    cv_options o = {.profiles = profiles, .nprofiles = 1, .output = prof};
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 2);
    snprintf(want, sizeof want, "%s: error: this is an input (a profile); it will not be "
             "overwritten with a PDF\n", prof);
    CHECK_STR(diag, want);
    o.output = hard;
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 2);
    /* The layout, the defaults, the book. */
    o.layout = layout;
    o.output = layout;
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 2);
    o.defaults = defs;
    o.output = NULL;
    o.merge = defs;
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 2);
    /* A new file, or --dump, is fine. */
    o.merge = NULL;
    o.output = at(a, "new.pdf");
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0);
    o.output = prof;
    o.dump = 1;
    CHECK(plan(a, &o, &p, diag, sizeof diag) == 0);
    CHECK_STR(diag, "");
    unlink(prof), unlink(layout), unlink(defs), unlink(hard);
    cv_arena_free(a);
}

int main(void)
{
    snprintf(tmp, sizeof tmp, "%s", "/tmp/cvpdf-plan-XXXXXX");
    if (!mkdtemp(tmp))
        return 1;
    RUN(plan_stem);
    RUN(plan_names);
    RUN(plan_formats);
    RUN(plan_refusals);
    RUN(plan_collisions);
    RUN(plan_inputs);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", tmp);
    return harness_report("plan");
}
