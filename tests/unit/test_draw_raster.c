/* Unit tests for draw_raster.c: formats by name, page names, PNG and SVG
 * pages of a PDF made in memory (sizes, cvpdf's mark), the set written
 * all or nothing, never over an input, and the pages of a longer run swept
 * only when cvpdf wrote them.  Files go to a fresh temporary directory. */
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "draw_hpdf.h"
#include "draw_raster.h"
#include "fixture.h"

static char dir[64];
static cv_display D;
static cv_page P[2];
static cv_run R[2];
static cv_gl G[5];

static const char *at(const char *name)
{
    static char buf[8][256];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static char *slurp(const char *path, size_t *n)
{
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = malloc(1 << 22);
    *n = fread(b, 1, 1 << 22, f);
    fclose(f);
    return b;
}

static void spit(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(p, 1, n, f);
        fclose(f);
    }
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Two pages of "Hello" in Lato, A4. */
static void make_display(void)
{
    bool synth;
    cv_error err;
    cv_error_init(&err);
    int face = cv_fontset_find(fx_eng->fonts, "Lato", false, false, &synth, (cv_pos){0}, &err);
    const char *text = "Hello";
    for (int i = 0; i < 5; i++) {
        unsigned gid = cv_shape_glyph(fx_eng->shaper, face, (uint32_t)text[i]);
        G[i] = (cv_gl){(uint32_t)text[i], (int16_t)cv_shape_advance(fx_eng->shaper, face, gid), 0, 0};
    }
    for (int p = 0; p < 2; p++) {
        R[p] = (cv_run){.x = 72, .y = 700, .face = face, .size = 24, .g = G, .n = 5};
        P[p] = (cv_page){.runs = &R[p], .nruns = 1};
    }
    D = (cv_display){.width = 595.276f, .height = 841.89f, .pages = P, .npages = 2,
                     .title = "Test", .author = "Test", .lang = "en"};
}

/* Write D's pages as `fmt` to `path`; the arena keeps the names err may
 * point to until the caller frees it. */
static bool write_pages(cv_arena *a, cv_format fmt, double dpi, const char *path,
                        const cv_inputs *in, cv_error *err)
{
    char *pdf;
    size_t len;
    if (!cv_draw_pdf_bytes(&D, fx_eng->fonts, path, &pdf, &len, err))
        return false;
    bool ok = cv_raster_write(a, pdf, len, fmt, dpi, path, in, err);
    free(pdf);
    return ok;
}

TEST(formats_by_name)
{
    CHECK(cv_format_of("cv.pdf") == CV_FORMAT_PDF);
    CHECK(cv_format_of("out/cv.PNG") == CV_FORMAT_PNG);
    CHECK(cv_format_of("a.b/cv.svg") == CV_FORMAT_SVG);
    CHECK(cv_format_of("cv.pdf.bak") == CV_FORMAT_NONE);
    CHECK(cv_format_of("cv") == CV_FORMAT_NONE);
    CHECK(cv_format_of("a.png/cv") == CV_FORMAT_NONE);
    CHECK(cv_format_of(".png") == CV_FORMAT_NONE);       /* a hidden file, no extension */
    CHECK(cv_format_of("") == CV_FORMAT_NONE);
    CHECK(cv_format_named("SVG") == CV_FORMAT_SVG && cv_format_named("jpg") == CV_FORMAT_NONE);
    CHECK_STR(cv_format_ext(CV_FORMAT_PNG), "png");
    CHECK(cv_format_ext(CV_FORMAT_NONE) == NULL);
}

TEST(page_names)
{
    cv_arena *a = cv_arena_new();
    CHECK_STR(cv_raster_page_name(a, "cv.png", 1), "cv-1.png");
    CHECK_STR(cv_raster_page_name(a, "out/he.svg", 12), "out/he-12.svg");
    CHECK_STR(cv_raster_page_name(a, "a.b/cv", 2), "a.b/cv-2");
    CHECK_STR(cv_raster_page_name(a, "x.y.png", 3), "x.y-3.png");
    cv_arena_free(a);
}

TEST(png_pages)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    CHECK(write_pages(a, CV_FORMAT_PNG, 144, at("p.png"), NULL, &err));
    CHECK(!exists(at("p.png")) && exists(at("p-1.png")) && exists(at("p-2.png")) &&
          !exists(at("p-3.png")));
    size_t n;
    unsigned char *b = (unsigned char *)slurp(at("p-1.png"), &n);
    CHECK(b && n > 100 && !memcmp(b, "\x89PNG\r\n\x1a\n", 8) && !memcmp(b + 12, "IHDR", 4));
    /* As pdftoppm sizes a page: 595.276 x 841.89 pt at 144 dpi. */
    CHECK(b && be32(b + 16) == 1191 && be32(b + 20) == 1684);
    CHECK(b && b[24] == 8 && b[25] == 2);                 /* 8-bit RGB */
    CHECK(b && memmem(b, n, "tEXtSoftware\0cvpdf " CV_VERSION, 19 + strlen(CV_VERSION)));
    free(b);
    /* Another resolution. */
    CHECK(write_pages(a, CV_FORMAT_PNG, 72, at("q.png"), NULL, &err));
    b = (unsigned char *)slurp(at("q-2.png"), &n);
    CHECK(b && be32(b + 16) == 596 && be32(b + 20) == 842);
    free(b);
    /* The same bytes every time. */
    size_t n1, n2;
    char *x = slurp(at("p-1.png"), &n1);
    CHECK(write_pages(a, CV_FORMAT_PNG, 144, at("p.png"), NULL, &err));
    char *y = slurp(at("p-1.png"), &n2);
    CHECK(x && y && n1 == n2 && !memcmp(x, y, n1));
    free(x);
    free(y);
    CHECK(!err.set);
    cv_arena_free(a);
}

TEST(svg_pages)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    CHECK(write_pages(a, CV_FORMAT_SVG, 144, at("s.svg"), NULL, &err));
    size_t n;
    char *b = slurp(at("s-2.svg"), &n);
    CHECK(b && !strncmp(b, "<?xml", 5));
    CHECK(b && memmem(b, n, "\n<!-- made by cvpdf " CV_VERSION " -->\n", 21 + strlen(CV_VERSION)));
    CHECK(b && memmem(b, n, "width=\"595.276pt\"", 17));
    /* "Hello": five glyphs placed, four distinct outlines. */
    size_t uses = 0;
    for (char *p = b; p && (p = memmem(p, n - (size_t)(p - b), "<use xlink:href=\"#glyph", 23));
         p++)
        uses++;
    CHECK(uses == 5);
    CHECK(b && memmem(b, n, "</svg>", 6));
    free(b);
    CHECK(!exists(at("s-3.svg")));
    cv_arena_free(a);
}

TEST(stale_pages_swept)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    CHECK(write_pages(a, CV_FORMAT_PNG, 36, at("t.png"), NULL, &err));
    /* An earlier run of four pages and a file of the user's after them. */
    size_t n;
    char *page = slurp(at("t-1.png"), &n);
    spit(at("t-3.png"), page, n);
    spit(at("t-4.png"), page, n);
    spit(at("t-5.png"), "mine", 4);
    spit(at("t-7.png"), page, n);
    free(page);
    CHECK(write_pages(a, CV_FORMAT_PNG, 36, at("t.png"), NULL, &err));
    CHECK(exists(at("t-2.png")) && !exists(at("t-3.png")) && !exists(at("t-4.png")));
    CHECK(exists(at("t-5.png")) && exists(at("t-7.png")));   /* not ours; after a gap */
    /* A page of an earlier run that is an input stays too. */
    page = slurp(at("t-1.png"), &n);
    spit(at("t-3.png"), page, n);
    free(page);
    cv_inputs *in = cv_inputs_new();
    cv_inputs_add(in, at("t-3.png"), "a photo");
    CHECK(write_pages(a, CV_FORMAT_PNG, 36, at("t.png"), in, &err));
    CHECK(exists(at("t-3.png")));
    cv_inputs_free(in);
    cv_arena_free(a);
}

TEST(all_or_nothing)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    spit(at("u-1.png"), "old one", 7);
    spit(at("u-2.png"), "old two", 7);
    /* Page 2 is an input: nothing is written, page 1 included. */
    cv_inputs *in = cv_inputs_new();
    cv_inputs_add(in, at("u-2.png"), "the layout");
    CHECK(!write_pages(a, CV_FORMAT_PNG, 36, at("u.png"), in, &err));
    CHECK(err.set && strstr(err.msg, "this is an input (the layout)"));
    size_t n;
    char *b = slurp(at("u-1.png"), &n);
    CHECK(b && n == 7 && !memcmp(b, "old one", 7));
    free(b);
    /* The name itself is an input: a slip, refused though not written. */
    cv_error_init(&err);
    cv_inputs_add(in, at("me.png"), "a photo");
    spit(at("me.png"), "photo", 5);
    cv_inputs_free(in);
    in = cv_inputs_new();
    cv_inputs_add(in, at("me.png"), "a photo");
    CHECK(!write_pages(a, CV_FORMAT_PNG, 36, at("me.png"), in, &err));
    CHECK(err.set && strstr(err.msg, "this is an input (a photo)"));
    CHECK(!exists(at("me-1.png")));
    cv_inputs_free(in);
    /* A page too large for a PNG: an error, nothing written. */
    cv_error_init(&err);
    D.width = D.height = 14400;
    CHECK(!write_pages(a, CV_FORMAT_PNG, 600, at("big.png"), NULL, &err));
    CHECK(err.set && strstr(err.msg, "lower --dpi"));
    CHECK(!exists(at("big-1.png")));
    D.width = 595.276f, D.height = 841.89f;
    /* Not to the standard output, not in another format. */
    cv_error_init(&err);
    CHECK(!write_pages(a, CV_FORMAT_PNG, 36, "-", NULL, &err) && strstr(err.msg, "standard"));
    cv_error_init(&err);
    CHECK(!write_pages(a, CV_FORMAT_PDF, 36, at("v.pdf"), NULL, &err));
    cv_arena_free(a);
}

TEST(bytes_are_the_pdf)
{
    cv_error err;
    cv_error_init(&err);
    char *pdf;
    size_t len, n;
    CHECK(cv_draw_pdf_bytes(&D, fx_eng->fonts, "x", &pdf, &len, &err));
    CHECK(cv_draw_pdf(&D, fx_eng->fonts, at("same.pdf"), NULL, &err));
    char *file = slurp(at("same.pdf"), &n);
    CHECK(file && n == len && !memcmp(file, pdf, n));
    free(file);
    free(pdf);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s", "/tmp/cvpdf-raster-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    fx_setup();
    make_display();
    RUN(formats_by_name);
    RUN(page_names);
    RUN(png_pages);
    RUN(svg_pages);
    RUN(stale_pages_swept);
    RUN(all_or_nothing);
    RUN(bytes_are_the_pdf);
    fx_teardown();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    return harness_report("draw_raster");
}
