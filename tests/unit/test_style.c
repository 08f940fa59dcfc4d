/* Unit tests for style.c's checks of a layout: every out-of-range value is
 * refused at the place that wrote it, before anything is drawn. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "engine.h"
#include "markup.h"
#include "style.h"
#include "yml.h"

static cv_engine *eng;
#include "errcheck.h"

/* Load a layout written to build/san/t-style.yaml (and, when base is not
 * NULL, the layout it extends written to build/san/t-style-base.yaml). */
static bool load2(const char *base, const char *text, cv_style *s)
{
    if (base) {
        FILE *f = fopen("build/san/t-style-base.yaml", "w");
        fputs(base, f);
        fclose(f);
    }
    FILE *f = fopen("build/san/t-style.yaml", "w");
    fputs(text, f);
    fclose(f);
    cv_error_init(&E);
    E.quiet = true;
    cv_arena *a = cv_arena_new();
    bool ok = cv_style_load(a, "build/san/t-style.yaml", eng, s, &E);
    cv_arena_free(a);
    return ok;
}

static bool load(const char *text)
{
    cv_style s;
    return load2(NULL, text, &s);
}

TEST(type_sizes_in_range)
{
    CHECK(!load("font:\n  size: 0\n"));
    CHECK(has(errstr(), "2:9: font.size must be 4-72pt (a type size), not 0pt"));
    CHECK(!load("header:\n  name_size: 3000pt\n"));
    CHECK(has(errstr(), "2:14: header.name_size must be 4-144pt"));
    CHECK(!load("page_footer:\n  size: 100pt\n"));
    CHECK(has(errstr(), "page_footer.size must be 4-72pt"));
    CHECK(load("font:\n  size: 10.5pt\nheader:\n  name_size: 30pt\n"));
}

TEST(lengths_bounded)
{
    CHECK(!load("photo:\n  width: 14400pt\n"));
    CHECK(has(errstr(), "2:10: photo.width must be at most 400pt"));
    CHECK(!load("entry:\n  space_between: 1m\n") || true);   /* not a unit: its own error */
    CHECK(!load("section_title:\n  space_before: 20cm\n"));
    CHECK(has(errstr(), "2:17: section_title.space_before must be at most"));
    CHECK(load("photo:\n  width: 3cm\n"));
}

TEST(page_size_blamed_where_written)
{
    cv_style s;
    /* A tiny page: the size is at fault, not the base's margins. */
    CHECK(!load2("page:\n  margins: 2cm\n",
                 "extends: t-style-base.yaml\npage:\n  size: [1mm, 1mm]\n", &s));
    CHECK(has(errstr(), "3:10: a page width must be 3-200 inches"));
    CHECK(E.pos.file && strstr(E.pos.file, "t-style.yaml") && !strstr(E.pos.file, "base"));
    /* Margins too wide for a page this layout sets: blame the page size. */
    CHECK(!load2("page:\n  margins: 4cm\n",
                 "extends: t-style-base.yaml\npage:\n  size: [3in, 3in]\n", &s));
    CHECK(has(errstr(), "the margins leave less than one inch of page"));
    CHECK(E.pos.file && !strstr(E.pos.file, "base"));
    CHECK(!load("page:\n  size: [10in, 2in]\n"));
    CHECK(has(errstr(), "a page height must be 3-200 inches"));
    CHECK(load2(NULL, "page:\n  size: [5in, 7in]\n  margins: 1cm\n", &s));
    CHECK_NUM(s.page_w, 360, 0.01);
}

TEST(strings_bounded)
{
    char *big = malloc(3000);
    strcpy(big, "pdf:\n  title: \"");
    size_t n = strlen(big);
    memset(big + n, 'x', 2000);
    strcpy(big + n + 2000, "\"\n");
    CHECK(!load(big));
    CHECK(has(errstr(), "2:10: pdf.title is longer than 1024 bytes"));
    free(big);
    CHECK(load("pdf:\n  title: \"NAME, CV\"\n"));
}

/* header.name_font and the other parts' families: faces of their own, put
 * first in the chain of the style that sets the part. */
TEST(role_fonts)
{
    cv_style s;
    cv_ctx base, buf;
    CHECK(load2(NULL, "font: {family: Lato}\nheader: {name_font: Gentium Book Plus}\n"
                      "section_title: {font: DejaVu Serif}\n", &s));
    const cv_fontset *fs = eng->fonts;
    CHECK(s.role_face[CV_ROLE_NAME][0] >= 0 && s.role_face[CV_ROLE_TITLE][CV_STYLE_BOLD] >= 0);
    CHECK_STR(cv_fontset_family(fs, s.role_face[CV_ROLE_NAME][CV_STYLE_BOLD]),
              "Gentium Book Plus");
    CHECK(cv_fontset_face(fs, s.role_face[CV_ROLE_NAME][CV_STYLE_BOLD])->bold);
    CHECK(s.role_face[CV_ROLE_HEADLINE][0] == -1 && s.role_face[CV_ROLE_CONTACT][3] == -1);
    cv_ctx_init(&base, eng, &s, NULL, false);
    const cv_ctx *r = cv_ctx_role(&base, CV_ROLE_NAME, &buf);
    CHECK(r == &buf && buf.nchain == s.nchain + 1 && buf.lay == &s);
    CHECK(buf.chain[CV_STYLE_BOLD][0] == s.role_face[CV_ROLE_NAME][CV_STYLE_BOLD]);
    CHECK(buf.chain[0][1] == s.chain[0][0]);       /* then the body's face */
    CHECK(cv_ctx_role(&base, CV_ROLE_HEADLINE, &buf) == &base);
    CHECK(!load2(NULL, "header: {name_font: No Such Family Anywhere}\n", &s));
    CHECK(has(errstr(), "no font of family 'No Such Family Anywhere'"));
    CHECK(E.pos.line == 1 && E.pos.col == 21);
    /* Laid over a layout by a profile's design:, a family that is not
     * installed is a warning, and the layout's own stays. */
    FILE *f = fopen("build/san/t-style.yaml", "w");
    fputs("font: {family: Lato}\nheader: {name_font: Gentium Book Plus}\n", f);
    fclose(f);
    const char *design = "header: {name_font: No Such Family Anywhere}\n";
    cv_arena *a = cv_arena_new();
    cv_error_init(&E);
    E.quiet = true;
    cv_yml *over = cv_yml_load(a, "p.yaml", design, strlen(design), &E);
    CHECK(over && cv_style_load_over(a, "build/san/t-style.yaml", over, eng, &s, &E));
    CHECK(!E.set && E.nwarnings == 1);
    CHECK_STR(cv_fontset_family(fs, s.role_face[CV_ROLE_NAME][0]), "Gentium Book Plus");
    cv_arena_free(a);
    CHECK(!load2(NULL, "section_title: {font: [Lato]}\n", &s));
    CHECK(has(errstr(), "1:23:"));
}

int main(void)
{
    cv_error err;
    cv_error_init(&err);
    const char *dirs[] = {"fonts", NULL};
    eng = cv_engine_new(dirs, &err);
    if (!eng)
        return 1;
    RUN(type_sizes_in_range);
    RUN(lengths_bounded);
    RUN(page_size_blamed_where_written);
    RUN(strings_bounded);
    RUN(role_fonts);
    cv_engine_free(eng);
    return harness_report("style");
}
