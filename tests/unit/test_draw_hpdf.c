/* Unit tests for draw_hpdf.c: a display list written as a PDF, the same
 * bytes every time, through cv_out (never over an input), to the standard
 * output with "-", and a book of two. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "draw_hpdf.h"
#include "fixture.h"

static cv_display D;
static cv_page P;
static cv_run R;
static cv_gl G[5];

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = malloc(1 << 20);
    *n = fread(b, 1, 1 << 20, f);
    fclose(f);
    return b;
}

static void make_display(void)
{
    bool synth;
    cv_error err;
    cv_error_init(&err);
    int face = cv_fontset_find(fx_eng->fonts, "Lato", false, false, &synth, (cv_pos){0}, &err);
    const char *text = "Hello";
    for (int i = 0; i < 5; i++) {
        unsigned gid = cv_shape_glyph(fx_eng->shaper, face, (uint32_t)text[i]);
        G[i] = (cv_gl){.cp = (uint32_t)text[i], .w = (int16_t)cv_shape_advance(fx_eng->shaper, face, gid)};
    }
    R = (cv_run){.x = 72, .y = 700, .face = face, .size = 12, .g = G, .n = 5};
    P = (cv_page){.runs = &R, .nruns = 1};
    D = (cv_display){.width = 595, .height = 842, .pages = &P, .npages = 1,
                     .title = "Test — Résumé", .author = "Test", .lang = "en"};
}

/* The objects of a packed PDF (object streams) written out plainly, by
 * qpdf's QDF mode (the command, a reader of its own): what a reader sees.
 * malloc'd. */
static char *unpack(const char *a, size_t n, size_t *m)
{
    *m = 0;
    FILE *f = fopen("build/san/t-hpdf-in.pdf", "wb");
    if (!f)
        return NULL;
    bool ok = fwrite(a, 1, n, f) == n;
    ok = !fclose(f) && ok;
    remove("build/san/t-hpdf-qdf.pdf");
    if (!ok || system("qpdf --qdf --object-streams=disable build/san/t-hpdf-in.pdf "
                      "build/san/t-hpdf-qdf.pdf") != 0)
        return NULL;
    return slurp("build/san/t-hpdf-qdf.pdf", m);
}

TEST(writes_the_same_bytes)
{
    cv_error err;
    cv_error_init(&err);
    CHECK(cv_draw_pdf(&D, fx_eng->fonts, "build/san/t-hpdf1.pdf", NULL, &err));
    CHECK(cv_draw_pdf(&D, fx_eng->fonts, "build/san/t-hpdf2.pdf", NULL, &err));
    size_t n1 = 0, n2 = 0;
    char *a = slurp("build/san/t-hpdf1.pdf", &n1), *b = slurp("build/san/t-hpdf2.pdf", &n2);
    CHECK(a && b && n1 > 500 && n1 == n2 && !memcmp(a, b, n1));
    CHECK(a && !memcmp(a, "%PDF-1.7", 8) && memmem(a, n1, "%%EOF", 5));
    /* Packed: object streams and a cross-reference stream (pdf_meta.h). */
    CHECK(a && memmem(a, n1, "/ObjStm", 7) && memmem(a, n1, "/XRef", 5) &&
          !memmem(a, n1, "\ntrailer", 8));
    size_t m = 0;
    char *u = a ? unpack(a, n1, &m) : NULL;
    CHECK(u && memmem(u, m, "/FontFile2", 10) && memmem(u, m, "/ToUnicode", 10));
    free(u);
    /* PDF/A-1 is not packed. */
    D.pdfa = true;
    CHECK(cv_draw_pdf(&D, fx_eng->fonts, "build/san/t-hpdf3.pdf", NULL, &err));
    D.pdfa = false;
    size_t n3 = 0;
    char *c = slurp("build/san/t-hpdf3.pdf", &n3);
    CHECK(c && !memcmp(c, "%PDF-1.4", 8) && !memmem(c, n3, "/ObjStm", 7) &&
          memmem(c, n3, "/FontFile2", 10) && memmem(c, n3, "/CIDSet", 7));
    free(c);
    free(a);
    free(b);
}

TEST(refuses_inputs)
{
    cv_error err;
    cv_error_init(&err);
    cv_inputs *in = cv_inputs_new();
    cv_inputs_add(in, "build/san/t-hpdf1.pdf", "the layout");
    size_t n0 = 0, n1 = 0;
    char *before = slurp("build/san/t-hpdf1.pdf", &n0);
    D.title = "Another";
    CHECK(!cv_draw_pdf(&D, fx_eng->fonts, "build/san/t-hpdf1.pdf", in, &err));
    CHECK(err.set && strstr(err.msg, "this is an input (the layout)"));
    char *after = slurp("build/san/t-hpdf1.pdf", &n1);
    CHECK(before && after && n0 == n1 && !memcmp(before, after, n0));
    D.title = "Test — Résumé";
    free(before);
    free(after);
    cv_inputs_free(in);
}

TEST(to_standard_output)
{
    int p[2];
    CHECK(pipe(p) == 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(p[1], STDOUT_FILENO);
        close(p[0]);
        cv_error err;
        cv_error_init(&err);
        _exit(cv_draw_pdf(&D, fx_eng->fonts, "-", NULL, &err) ? 0 : 1);
    }
    close(p[1]);
    char buf[1 << 16];
    size_t n = 0;
    for (ssize_t k; n < sizeof buf && (k = read(p[0], buf + n, sizeof buf - n)) > 0;)
        n += (size_t)k;
    close(p[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    size_t n1 = 0;
    char *file = slurp("build/san/t-hpdf2.pdf", &n1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(file && n == n1 && !memcmp(buf, file, n));
    free(file);
}

TEST(a_book_of_two)
{
    cv_error err;
    cv_error_init(&err);
    cv_book *k = cv_book_new(fx_eng->fonts, true);
    cv_book_note(k, &D);
    cv_book_note(k, &D);
    CHECK(cv_book_add(k, &D, &err) && cv_book_add(k, &D, &err));
    CHECK(cv_book_write(k, "Two", "build/san/t-hpdf-book.pdf", NULL, &err));
    cv_book_free(k);
    size_t n = 0;
    char *b = slurp("build/san/t-hpdf-book.pdf", &n);
    size_t m = 0;
    char *u = b ? unpack(b, n, &m) : NULL;
    CHECK(u && memmem(u, m, "/Count 2", 8));
    free(u);
    free(b);
}

int main(void)
{
    fx_setup();
    make_display();
    RUN(writes_the_same_bytes);
    RUN(refuses_inputs);
    RUN(to_standard_output);
    RUN(a_book_of_two);
    fx_teardown();
    return harness_report("draw_hpdf");
}
