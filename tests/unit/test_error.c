/* Unit tests for error.c, the diagnostics sink: first error wins, strict
 * warnings, quiet, notes, and control characters escaped in every line. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"

static FILE *F;

/* What the sink wrote to F since the last call. */
static const char *said(void)
{
    static char buf[4096];
    fflush(F);
    long n = ftell(F);
    rewind(F);
    size_t k = fread(buf, 1, n > 0 && (size_t)n < sizeof buf ? (size_t)n : 0, F);
    buf[k] = 0;
    rewind(F);
    if (ftruncate(fileno(F), 0) != 0)
        buf[0] = 0;
    return buf;
}

TEST(first_error_wins)
{
    cv_diag d = {F, false, false};
    cv_error e;
    cv_error_init_for(&e, &d);
    cv_error_at(&e, (cv_pos){"a.yaml", 3, 5}, "first %d", 1);
    cv_error_at(&e, (cv_pos){"a.yaml", 4, 1}, "second");
    cv_error_print(&e);
    CHECK_STR(said(), "a.yaml:3:5: error: first 1\n");
}

TEST(warnings_quiet_and_strict)
{
    cv_diag d = {F, false, false};
    cv_error e;
    cv_error_init_for(&e, &d);
    cv_warn(&e, (cv_pos){"p.yaml", 2, 0}, "w");
    CHECK_STR(said(), "p.yaml:2:1: warning: w\n");
    CHECK(!e.set && e.nwarnings == 1);

    d.quiet = true;
    cv_error_init_for(&e, &d);
    cv_warn(&e, (cv_pos){"p.yaml", 2, 1}, "w");
    cv_note(&e, (cv_pos){"p.yaml", 2, 1}, "n");
    CHECK_STR(said(), "");
    CHECK(e.nwarnings == 1);

    /* --strict: the warning is an error, said once, even when quiet. */
    d.strict = true;
    cv_error_init_for(&e, &d);
    cv_warn(&e, (cv_pos){"p.yaml", 5, 2}, "w");
    cv_error_print(&e);
    CHECK_STR(said(), "p.yaml:5:2: error: w\n");
    CHECK(e.set);
}

TEST(notes)
{
    cv_diag d = {F, false, false};
    cv_diag_note(&d, (cv_pos){0}, "no %s", "file");
    CHECK_STR(said(), "cvpdf: note: no file\n");
    cv_diag_say(&d, (cv_pos){"x.pdf", 0, 0}, "error", "cannot write '%s'", "x.pdf");
    CHECK_STR(said(), "x.pdf: error: cannot write 'x.pdf'\n");
    d.quiet = true;
    cv_diag_say(&d, (cv_pos){"x.pdf", 0, 0}, "warning", "hidden");
    cv_diag_say(&d, (cv_pos){"x.pdf", 0, 0}, "error", "shown");
    CHECK_STR(said(), "x.pdf: error: shown\n");
}

/* A file name, key or value cannot forge a second line or send an escape
 * sequence to the terminal. */
TEST(controls_escaped)
{
    cv_diag d = {F, false, false};
    cv_error e;
    cv_error_init_for(&e, &d);
    cv_error_at(&e, (cv_pos){"a\nb.yaml", 1, 1},
                "unknown key 'email\nfake.yaml:1:1: error: injected' \x1b[2J\x07 \xc2\x85 ok é");
    cv_error_print(&e);
    CHECK_STR(said(), "a\\nb.yaml:1:1: error: unknown key 'email\\nfake.yaml:1:1: error: "
                      "injected' \\e[2J\\x07 \\u0085 ok é\n");
}

/* Issue 25: U+2028, U+2029 and bytes of no character escaped; a long name
 * shortened so that the reason after it stays. */
TEST(separators_and_long_names)
{
    char out[128];
    CHECK_STR(cv_escape("a\xE2\x80\xA8" "b\xE2\x80\xA9" "c\xFF" "d\xC3\xA9", out, sizeof out),
              "a\\u2028b\\u2029c\\xFFd\xC3\xA9");
    char name[5001], shown[CV_SHORT_MAX + 4];
    memset(name, 'a', 5000);
    name[5000] = 0;
    const char *s = cv_short(name, shown, sizeof shown);
    CHECK(strlen(s) <= CV_SHORT_MAX && strstr(s, "...") != NULL);
    CHECK(cv_short("short.pdf", shown, sizeof shown)[0] == 's');
}

int main(void)
{
    F = tmpfile();
    if (!F)
        return 1;
    RUN(first_error_wins);
    RUN(warnings_quiet_and_strict);
    RUN(notes);
    RUN(controls_escaped);
    RUN(separators_and_long_names);
    fclose(F);
    return harness_report("error");
}
