/* engine.c - the context every render shares (engine.h). */
#include "engine.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "unicode.h"

cv_engine *cv_engine_new(const char *const *font_dirs, cv_error *err)
{
    cv_engine *eng = cv_xrealloc(NULL, sizeof *eng);
    *eng = (cv_engine){0};
    eng->fonts = cv_fontset_new(font_dirs, err);
    if (!eng->fonts) {
        free(eng);
        return NULL;
    }
    eng->shaper = cv_shaper_new(eng->fonts);
    eng->hyph = cv_hyph_new(NULL, &eng->diag);
    eng->scratch = cv_arena_new();
    eng->inputs = cv_inputs_new();
    return eng;
}

void cv_engine_free(cv_engine *eng)
{
    if (!eng)
        return;
    cv_shaper_free(eng->shaper);
    cv_fontset_free(eng->fonts);
    cv_hyph_free(eng->hyph);
    for (size_t i = 0; i < sizeof eng->hyph_lang / sizeof *eng->hyph_lang; i++) {
        cv_hyph_free(eng->hyph_lang[i]);
        free(eng->hyph_dict[i]);
    }
    cv_arena_free(eng->scratch);
    cv_inputs_free(eng->inputs);
    free(eng);
}

void cv_engine_note_fonts(cv_engine *eng)
{
    for (size_t f = 0; f < cv_fontset_count(eng->fonts); f++)
        cv_inputs_add_installed(eng->inputs, cv_fontset_path(eng->fonts, (int)f), "a font");
    cv_inputs_add_installed(eng->inputs, cv_hyph_path(eng->hyph), "the hyphenation patterns");
}

void cv_engine_warm(cv_engine *eng, bool hyphenate)
{
    if (hyphenate) {
        const char *w[] = {"typesetting"};
        bool out[1][64];
        cv_hyphenate(eng->hyph, w, 1, out, 2, 3);
    }
    static const uint32_t latin[] = {'W', 'a', 'r', 'm', ' ', 'u', 'p'};
    static const uint32_t han[] = {0x6587, 0x5B57, ' ', 0x6392, 0x7248};
    int16_t w[8], k[8];
    /* The faces open: a fallback face found for characters no profile may
     * have (Noto Sans CJK in a lab of Latin résumés) is opened by the
     * first worker that needs it. */
    for (size_t f = 0; f < cv_fontset_count(eng->fonts); f++) {
        if (!cv_fontset_opened(eng->fonts, (int)f))
            continue;
        cv_shape_run(eng->shaper, (int)f, latin, sizeof latin / sizeof *latin, w, k);
        cv_shape_run(eng->shaper, (int)f, han, sizeof han / sizeof *han, w, k);
    }
}

cv_hyph *cv_engine_hyph(cv_engine *eng, const char *dict)
{
    if (!dict || !strcmp(dict, "en_US"))
        return eng->hyph;
    if (!*dict)
        return NULL;
    size_t n = sizeof eng->hyph_lang / sizeof *eng->hyph_lang, i;
    for (i = 0; i < n && eng->hyph_dict[i]; i++)
        if (!strcmp(eng->hyph_dict[i], dict))
            return eng->hyph_lang[i];
    if (i == n)
        return NULL;        /* more languages in one run than slots: none */
    char path[256];
    snprintf(path, sizeof path, "/usr/share/hyphen/hyph_%s.dic", dict);
    eng->hyph_dict[i] = cv_xstrdup(dict);
    eng->hyph_lang[i] = cv_hyph_new(path, &eng->diag);
    return eng->hyph_lang[i];
}

int cv_engine_script_face(cv_engine *eng, uint32_t cp, unsigned style, bool *synth)
{
    static const char *const family[] = {"Noto Sans Hebrew", "Noto Sans Arabic",
                                         "Noto Sans Devanagari"};
    /* By the scripts a character is written in (script.h): the Arabic
     * comma and the harakat want the Arabic face too. */
    int script = cv_script_in(cp, CV_SCRIPT_HEBREW)       ? 0
               : cv_script_in(cp, CV_SCRIPT_ARABIC)       ? 1
               : cv_script_in(cp, CV_SCRIPT_DEVANAGARI)   ? 2 : -1;
    if (script < 0)
        return -1;
    style &= 3;
    int *slot = &eng->script_face[script][style];
    if (!*slot) {
        cv_error quiet;
        cv_error_init_silent(&quiet);
        bool s = false;
        int id = cv_fontset_find(eng->fonts, family[script], style & 1, style & 2, &s,
                                 (cv_pos){0}, &quiet);
        *slot = id >= 0 ? id + 1 : -1;
        eng->script_synth[script][style] = s;
    }
    if (*slot < 0 || !cv_shape_glyph(eng->shaper, *slot - 1, cp))
        return -1;
    *synth = eng->script_synth[script][style];
    return *slot - 1;
}
