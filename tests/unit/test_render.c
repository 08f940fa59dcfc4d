/* Unit tests for render.c: one profile through the pipeline to pages, to a
 * PDF, and a CV book; the inputs of the run are never outputs. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"
#include "output.h"
#include "render.h"

static cv_style st;
static cv_options opt;
static cv_renderer R;

TEST(lays_out_a_profile)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    err.quiet = true;
    cv_display *d = cv_render_lay_out(a, &R, "profiles/he.yaml", &err);
    CHECK(d && !err.set && d->npages >= 2);
    CHECK(d && d->title && strstr(d->title, "Jiaao He"));
    CHECK(d && d->nmarks > 3);
    /* A broken profile: NULL, the error at its place. */
    FILE *f = fopen("build/san/t-render.yaml", "w");
    fputs("cv:\n  name: X\n  emial: y\n", f);
    fclose(f);
    cv_error_init(&err);
    CHECK(!cv_render_lay_out(a, &R, "build/san/t-render.yaml", &err));
    CHECK(err.set && err.pos.line == 3 && strstr(err.msg, "did you mean 'email'"));
    cv_arena_free(a);
}

static long size_of(const char *path)
{
    struct stat s;
    return stat(path, &s) == 0 ? (long)s.st_size : -1;
}

TEST(renders_pdfs_and_books)
{
    unlink("build/san/t-render.pdf");
    CHECK(cv_render_one(&R, "profiles/li.yaml", "build/san/t-render.pdf"));
    CHECK(size_of("build/san/t-render.pdf") > 1000);
    /* The profile itself is an input of the run now: never an output. */
    CHECK(cv_inputs_find(fx_eng->inputs, "profiles/li.yaml") != NULL);
    CHECK(cv_inputs_find(fx_eng->inputs, "fonts/Lato-Regular.ttf") != NULL);
    FILE *keep = fopen("profiles/li.yaml", "r");
    char before[64] = {0};
    CHECK(keep && fread(before, 1, sizeof before - 1, keep) > 0);
    fclose(keep);
    CHECK(!cv_render_one(&R, "profiles/he.yaml", "profiles/li.yaml"));
    keep = fopen("profiles/li.yaml", "r");
    char after[64] = {0};
    CHECK(keep && fread(after, 1, sizeof after - 1, keep) > 0);
    fclose(keep);
    CHECK(!strcmp(before, after));

    char *two[] = {"profiles/he.yaml", "profiles/li.yaml"};
    opt.merge = "build/san/t-book.pdf";
    unlink(opt.merge);
    CHECK(cv_render_book(&R, two, 2) == 0);
    CHECK(size_of(opt.merge) > size_of("build/san/t-render.pdf"));
    opt.merge = NULL;
}

int main(void)
{
    fx_setup();
    fx_style("layouts/onecolumn.yaml", &st);
    opt = (cv_options){.fit_pages = -1, .quiet = true};
    fx_eng->diag.quiet = true;
    R = (cv_renderer){.opt = &opt, .eng = fx_eng, .style = &st};
    RUN(lays_out_a_profile);
    RUN(renders_pdfs_and_books);
    fx_teardown();
    return harness_report("render");
}
