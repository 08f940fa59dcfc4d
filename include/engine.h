/* engine.h - what every render shares: one context, made once in main.
 *
 * A cv_engine holds everything that outlives one résumé: the font set (every
 * face opened, with its file mapped), the shaper with its glyph, advance and
 * shaping caches, and, as the pipeline is restructured, the hyphenation
 * patterns and the diagnostics sink.  main() makes one with cv_engine_new()
 * and passes it down; a resolved style (style.h) keeps a pointer to the
 * engine whose faces it names.  In a batch, cv_engine_warm() fills the
 * caches once before the workers fork, so every worker starts warm.
 * Nothing in src/ keeps mutable state at file scope: what would be cached
 * there lives here.
 *
 * An engine is used by one thread at a time.
 */
#ifndef CV_ENGINE_H
#define CV_ENGINE_H

#include <stdbool.h>

#include "arena.h"
#include "error.h"
#include "fontset.h"
#include "hyph.h"
#include "output.h"
#include "shape.h"

typedef struct cv_engine {
    cv_diag diag;            /* the diagnostics sink's settings (-q, --strict) */
    cv_fontset *fonts;       /* every face, found in `font_dirs` or by fontconfig */
    cv_hyph *hyph;           /* hyphenation patterns, read at first use */
    cv_arena *scratch;       /* measuring passes: emptied at each use (wrap.c) */
    cv_inputs *inputs;       /* every file read for the run: never an output */
    cv_shaper *shaper;       /* shapes text in `fonts`, with every cache */
    const char *locales;     /* cvpdf's locale files (lang.h); NULL: none */
    /* The shipped layout `name` names (`extends: NAME`, style.h), which the
     * driver knows (datadir.h's cv_layout_find); NULL: none.  Returns its
     * path, or NULL with *why saying what is missing (NULL when `name` is
     * not a layout's name but a path). */
    const char *(*find_layout)(cv_arena *a, const char *name, const char **why);
    cv_hyph *hyph_lang[8];   /* other languages' patterns (cv_engine_hyph) */
    char *hyph_dict[8];
    /* Noto faces for scripts the layout's fonts lack (cv_engine_script_face),
     * by script and style: 0 not looked for yet, -1 none, else id + 1. */
    int script_face[3][4];
    bool script_synth[3][4];
} cv_engine;

/* A new engine finding fonts in `font_dirs` (NULL-terminated; missing
 * directories are fine) before fontconfig, speaking through a default sink
 * (stderr, warnings on: set eng->diag to change it).  Returns NULL with err
 * set when FreeType cannot start. */
cv_engine *cv_engine_new(const char *const *font_dirs, cv_error *err);
/* Free the engine and everything it owns; NULL is fine. */
void cv_engine_free(cv_engine *eng);

/* The hyphenation patterns named `dict` ("de_DE": Debian's
 * /usr/share/hyphen/hyph_de_DE.dic), read at first use and kept; NULL or
 * "en_US" for the default `hyph`; "" (a language without patterns): NULL. */
cv_hyph *cv_engine_hyph(cv_engine *eng, const char *dict);

/* A face for `cp` in style `style` (CV_STYLE_* bits) when the layout's
 * font chain has none: Debian's Noto Sans Hebrew, Arabic or Devanagari
 * (fonts-noto-core), found through fontconfig and opened on first use, so
 * a résumé without those scripts never opens them.  *synth says whether
 * bold is synthesised.  -1 when no such face has the character. */
int cv_engine_script_face(cv_engine *eng, uint32_t cp, unsigned style, bool *synth);

/* Note every font file opened so far, and the hyphenation patterns, as
 * inputs of the run (so that no output replaces them). */
void cv_engine_note_fonts(cv_engine *eng);

/* Fill the caches every document needs (hyphenation patterns when
 * `hyphenate`, the shaper's analysis of each open face for Latin and Han
 * text; a fallback face not yet opened stays so), so that processes
 * forked afterwards start with them. */
void cv_engine_warm(cv_engine *eng, bool hyphenate);

#endif
