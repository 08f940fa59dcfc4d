/* fuzz_bib.c - BibTeX: a .bib file through cv_bib_read() (bib.c's own scan
 * of entries, macros and limits, then libbtparse, then crossref, names and
 * TeX), and a field's value through cv_bib_tex() and cv_bib_tex_plain().
 *
 * The first byte chooses: even, the rest is a .bib file (written to a
 * file of this process's own, as cv_bib_read() reads a path); odd, the rest
 * is one field's TeX.  Besides not crashing, hanging or ending the process
 * (libbtparse calls exit() on some inputs; bib.c keeps it from those it
 * knows, and reads each file in a child process first for the rest),
 * it checks what bib.h promises: every text it returns is valid UTF-8 (for
 * TeX that is: a field's value always is by then), and cv_bib_tex()'s
 * markup parses.  A broken promise aborts, which the fuzzer
 * reports like a crash.
 */
#include "fuzz.h"

#include <unistd.h>

#include "bib.h"
#include "markup.h"
#include "unicode.h"

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_bib: %s\n", what);
        abort();
    }
}

static bool is_utf8(const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t step = cv_utf8_decode(s + i, n - i, &cp);
        if (!step || (cp == 0xFFFD && (n - i < 3 || memcmp(s + i, "\xEF\xBF\xBD", 3))))
            return false;
        i += step;
    }
    return true;
}

static void valid(const char *s, const char *what)
{
    check(!s || is_utf8(s), what);
}

/* The file the .bib inputs are written to, made once, removed at exit. */
static char bib_path[64];

static void remove_bib(void)
{
    if (*bib_path)
        unlink(bib_path);
}

static bool write_bib(const uint8_t *data, size_t size)
{
    if (!*bib_path) {
        snprintf(bib_path, sizeof bib_path, "/tmp/cvpdf-fuzz-bib-%ld.bib", (long)getpid());
        atexit(remove_bib);
    }
    FILE *f = fopen(bib_path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

/* Set while cv_bib_read() runs: should the process end then (libbtparse's
 * exit(), which bib.c's guard turns into exit status 1), this handler,
 * registered after the guard and so run before it, aborts, so that the
 * fuzzer keeps the input. */
static volatile bool reading;
static pid_t fuzzer;        /* this process (bib.c reads a file first in a child) */

static void ended_while_reading(void)
{
    if (reading && getpid() == fuzzer) {
        fprintf(stderr, "fuzz_bib: the process was ended while a .bib file was read\n");
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool watching;
    if (size < 1)
        return 0;
    cv_arena *a = cv_arena_new();
    if (data[0] & 1) {
        /* A field's value is UTF-8 by then (bib.c reads a file that is
         * not as Latin-1): only such a value is the contract's. */
        const char *tex = cv_arena_strndup(a, (const char *)data + 1, size - 1);
        if (!is_utf8(tex)) {
            cv_arena_free(a);
            return 0;
        }
        const char *unknown = NULL;
        char *m = cv_bib_tex(a, tex, &unknown);
        valid(m, "cv_bib_tex() returned bytes that are not UTF-8");
        valid(unknown, "cv_bib_tex()'s unknown commands are not UTF-8");
        if (m) {
            cv_span *sp;
            size_t n = cv_markup_parse(a, m, 0, &sp);
            for (size_t i = 0; i < n; i++)
                check(sp[i].len > 0 && strlen(sp[i].text) == sp[i].len,
                      "cv_bib_tex()'s markup parses to a bad span");
        }
        valid(cv_bib_tex_plain(a, tex, NULL), "cv_bib_tex_plain() returned bytes that are "
                                              "not UTF-8");
    } else if (write_bib(data + 1, size - 1)) {
        cv_error err = fuzz_err();
        cv_entry *e = NULL;
        size_t n = 0;
        reading = true;
        bool ok = cv_bib_read(a, bib_path, &e, &n, &err);
        reading = false;
        if (!watching) {
            fuzzer = getpid();
            watching = atexit(ended_while_reading) == 0;
        }
        if (ok)
            for (size_t i = 0; i < n; i++) {
                valid(e[i].title.s, "an entry's title is not UTF-8");
                valid(e[i].journal.s, "an entry's journal is not UTF-8");
                for (size_t k = 0; k < e[i].nauthors; k++)
                    valid(e[i].authors[k].s, "an author is not UTF-8");
            }
        else
            fuzz_format_error(&err);
    }
    cv_arena_free(a);
    return 0;
}
