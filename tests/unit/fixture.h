/* fixture.h - what the layout tests share: one engine on the fonts in
 * fonts/, layouts loaded from layouts/ or from text, profiles from text.
 *
 *   fx_setup(); ... fx_style("layouts/onecolumn.yaml", &st) ...
 *   cv_doc *d = fx_doc(a, "cv:\n  name: Ada\n");  ... fx_teardown();
 *
 * Layouts and the engine live in fx_arena until fx_teardown(); a profile
 * lives in the arena it is loaded into.  Tests run from the repository's
 * top directory (make check does).
 */
#ifndef CV_FIXTURE_H
#define CV_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "ctx.h"
#include "doc.h"
#include "engine.h"
#include "error.h"
#include "style.h"
#include "yml.h"

static cv_engine *fx_eng;
static cv_arena *fx_arena;

static inline void fx_setup(void)
{
    cv_error err;
    cv_error_init(&err);
    const char *dirs[] = {"fonts", NULL};
    fx_eng = cv_engine_new(dirs, &err);
    if (!fx_eng) {
        cv_error_print(&err);
        exit(1);
    }
    fx_arena = cv_arena_new();
}

static inline void fx_teardown(void)
{
    cv_engine_free(fx_eng);
    cv_arena_free(fx_arena);
}

/* A context setting text in layout `st` with the fixture's engine, in no
 * language, left to right (ctx.h); valid until the fourth call after. */
static inline const cv_ctx *fx_ctx(const cv_style *st)
{
    static cv_ctx cx[4];
    static unsigned k;
    cv_ctx *c = &cx[k++ % 4];
    cv_ctx_init(c, fx_eng, st, NULL, false);
    return c;
}

/* The layout at `path`; exits when it does not load (the test is broken). */
static inline void fx_style(const char *path, cv_style *st)
{
    cv_error err;
    cv_error_init(&err);
    if (!cv_style_load(fx_arena, path, fx_eng, st, &err)) {
        cv_error_print(&err);
        exit(1);
    }
}

/* A layout written as YAML text (it may `extends:` a layout by its path
 * from the top directory, e.g. "../../layouts/onecolumn.yaml" from the
 * build/san directory the text is written to). */
static inline void fx_style_text(const char *name, const char *yaml, cv_style *st)
{
    char path[256];
    snprintf(path, sizeof path, "build/san/%s.yaml", name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(yaml, f);
    fclose(f);
    fx_style(cv_arena_strdup(fx_arena, path), st);
}

/* A profile from YAML text, as if read from `tests/data/t.yaml`; NULL with
 * err set when it does not load. */
static inline cv_doc *fx_doc_err(cv_arena *a, const char *yaml, cv_error *err)
{
    cv_yml *root = cv_yml_load(a, "tests/data/t.yaml", yaml, strlen(yaml), err);
    return root ? cv_doc_load(a, root, "tests/data/t.yaml", err) : NULL;
}

/* The same, exiting when it does not load (the test is broken). */
static inline cv_doc *fx_doc(cv_arena *a, const char *yaml)
{
    cv_error err;
    cv_error_init(&err);
    cv_doc *d = fx_doc_err(a, yaml, &err);
    if (!d) {
        cv_error_print(&err);
        exit(1);
    }
    return d;
}

#endif
