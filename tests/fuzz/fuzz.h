/* fuzz.h - what the fuzz targets share.
 *
 * Each tests/fuzz/fuzz_<name>.c defines LLVMFuzzerTestOneInput() and is
 * built three ways:
 *   - with clang -fsanitize=fuzzer,address,undefined into build/fuzz/ by
 *     `make fuzz`, which runs it from seed corpora (tests/fuzz/run.sh);
 *   - with the project's compiler, ASan and UBSan, and tests/fuzz/driver.c
 *     (a main() feeding each file argument to the target) into
 *     build/san/fuzz_<name>, to replay a crash without clang; and, renamed
 *     (-DLLVMFuzzerTestOneInput=cv_fuzz_<name>), into build/san/test_regress,
 *     which replays every file of tests/regress/<name>/ under `make check`.
 *
 * The project's rule is that bad input never crashes, hangs or leaks, so
 * every input is fed to the real entry points with diagnostics quiet, and
 * the target returns 0 whatever they say.  Fonts, layouts and the photo in
 * tests/data are found relative to CVPDF_DATADIR, else the current
 * directory (the repository root, where make runs them).  With
 * FUZZ_VERBOSE set, errors and warnings go to stderr and the dump of a
 * render to stdout (build/san/fuzz_render FILE, to see what an input does).
 */
#ifndef CV_FUZZ_H
#define CV_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "compose.h"
#include "ctx.h"
#include "doc.h"
#include "docinfo.h"
#include "draw_dump.h"
#include "draw_hpdf.h"
#include "engine.h"
#include "error.h"
#include "fit.h"
#include "flow.h"
#include "fontset.h"
#include "furniture.h"
#include "photo.h"
#include "style.h"
#include "wrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The repository root (fonts/, layouts/, tests/data/). */
static inline const char *fuzz_root(void)
{
    const char *d = getenv("CVPDF_DATADIR");
    return d && *d ? d : ".";
}

/* One engine for the whole process, like a batch run of cvpdf: faces are
 * opened once and their caches outlive each input.  Freed at exit, as
 * main.c frees it (fontconfig's state goes with FcFini() then, which
 * LeakSanitizer would otherwise report).  (A libFuzzer target has no other
 * place to keep it: this is test code, not src/.) */
static cv_engine *fuzz_eng;
static inline void fuzz_engine_free(void)
{
    cv_engine_free(fuzz_eng);
    fuzz_eng = NULL;
}

static inline cv_engine *fuzz_engine(void)
{
    cv_engine *eng = fuzz_eng;
    if (!eng) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/fonts", fuzz_root());
        const char *dirs[] = {dir, NULL};
        cv_error err;
        cv_error_init(&err);
        eng = cv_engine_new(dirs, &err);
        if (!eng) {
            fprintf(stderr, "fuzz: cannot open the fonts in %s: %s\n", dir, err.msg);
            abort();
        }
        fuzz_eng = eng;
        atexit(fuzz_engine_free);
    }
    return eng;
}

/* A quiet diagnostics object: warnings are counted, not printed. */
static inline cv_error fuzz_err(void)
{
    cv_error err;
    cv_error_init(&err);
    err.quiet = !getenv("FUZZ_VERBOSE");
    return err;
}

/* Format the recorded error as cvpdf would print it (to catch a bad
 * position or message), on stderr only with FUZZ_VERBOSE set. */
static inline void fuzz_format_error(const cv_error *err)
{
    char where[600], line[1200];
    snprintf(line, sizeof line, "%s: error: %s", cv_pos_str(err->pos, where, sizeof where),
             err->set ? err->msg : "unknown error");
    if (getenv("FUZZ_VERBOSE"))
        fprintf(stderr, "%s\n", line);
}

/* How fuzz_render() runs: cvpdf's options (cli.h). */
typedef struct fuzz_opts {
    long fit_pages;          /* 0: the layout's fit_pages */
    bool strict, glyphs, explain;
    const char *date;        /* --date */
} fuzz_opts;

/* What cv_render_lay_out() (render.c) does, to the dump backend: photo,
 * fit to pages, compose, flow, furnish, document information, dump (to
 * /dev/null). */
static inline void fuzz_render(cv_arena *a, const cv_doc *doc, const cv_style *st,
                               const fuzz_opts *o, cv_error *err)
{
    static FILE *null;       /* FUZZ_VERBOSE: the dump on stdout */
    if (!null && !(null = getenv("FUZZ_VERBOSE") ? stdout : fopen("/dev/null", "w")))
        abort();
    err->strict = o->strict;
    const cv_image *photo = cv_photo_load(a, doc, st, err);
    if (err->set)
        return;
    cv_ctx own, fit_cx;
    cv_ctx_init(&own, fuzz_engine(), st, doc->locale.language, doc->locale.rtl);
    own.sc = cv_setcache_new(a, NULL);  /* as render.c: each paragraph set once */
    const cv_ctx *pc = &own;
    cv_style fitted;
    long pages = o->fit_pages > 0 ? o->fit_pages : (long)st->fit_pages;
    if (pages > 0) {
        const char *what;
        if (cv_fit(a, doc, pc, photo, (size_t)pages, &fitted, &what, err))
            pc = cv_ctx_with(pc, st = &fitted, &fit_cx);
        if (err->set)
            return;
    }
    cv_composed c;
    cv_flowlog log = {0};
    if (!cv_fit_compose(a, doc, pc, photo, &c, err) || err->set)
        return;
    cv_display *d = cv_flow(a, &c, st, o->explain ? &log : NULL);
    if (o->explain) {
        for (size_t i = 0; i < log.nbreaks; i++) {
            const cv_break *b = &log.breaks[i];
            fprintf(null, "page %zu %d: %s: %s\n", b->page + 1, b->col,
                    c.col[b->col].items[b->item].what, b->reason);
        }
        for (size_t i = 0; i < log.nnotes; i++)
            fprintf(null, "note: %s\n", log.notes[i]);
    }
    cv_furnish(a, d, doc, pc, o->date ? o->date : doc->current_date.s, err);
    cv_display_set_info(a, d, doc, st);
    cv_wrap_clusters(a, pc, d);
    if (o->glyphs)
        cv_draw_dump_glyphs(d, pc->eng->fonts, null);
    else
        cv_draw_dump(d, pc->eng->fonts, null);
}

#endif
