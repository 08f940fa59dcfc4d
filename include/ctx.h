/* ctx.h - what one profile is set with: the per-profile context.
 *
 * Three lifetimes, three objects (as libass keeps ASS_Library,
 * ASS_Renderer and RenderContext apart):
 *
 *   - the engine (engine.h) lives for the run: fonts, shaper, caches,
 *     hyphenation patterns, the diagnostics sink's settings;
 *   - the layout (style.h's cv_style) is what the layout file says,
 *     resolved once per run and shared by every profile and every worker;
 *     nothing writes to it after cv_style_load(), and it holds no pointer
 *     to the engine;
 *   - a cv_ctx is what one profile adds: the engine to set with, the
 *     layout in effect (the run's, the profile's design:, or one fit.h
 *     derived from them), the profile's language and direction, and the
 *     faces of each part of the page, localised for the profile's
 *     language (the JP face of a CJK collection for a résumé in Japanese,
 *     cjk.h).
 *
 * A cv_ctx is small (a few hundred bytes) and plain: copy it to change
 * the layout in effect (cv_ctx_with()) or the faces a part is set in
 * (cv_ctx_role()); copies share the engine and the layout.  It owns
 * nothing, and is valid while its engine and layout are.
 */
#ifndef CV_CTX_H
#define CV_CTX_H

#include <stdbool.h>
#include <stddef.h>

#include "engine.h"
#include "style.h"

typedef struct cv_ctx {
    cv_engine *eng;          /* fonts, shaper, patterns, scratch arena */
    const cv_style *lay;     /* the layout in effect: read only */
    const char *lang;        /* the profile's language (BCP 47) for shaping and
                                case mapping; NULL: none */
    bool rtl;                /* the résumé is written right to left (bidi.h) */
    /* The faces text is set in: chain[s][0..nchain) are face ids for style
     * s (CV_STYLE_* bits), synth[s][k] says face k must be emboldened;
     * mono is the face of `code` (-1: the text's own).  The layout's,
     * localised, or a part's (cv_ctx_role()). */
    int chain[4][CV_MAX_CHAIN];
    bool synth[4][CV_MAX_CHAIN];
    size_t nchain;
    int mono;
} cv_ctx;

/* The context of a profile set with `eng` in layout `lay`, in language
 * `lang` (NULL: none), right to left when `rtl`: the layout's faces,
 * those of a CJK collection taken in the language's region (cjk.h). */
void cv_ctx_init(cv_ctx *cx, cv_engine *eng, const cv_style *lay, const char *lang, bool rtl);

/* `cx` with layout `lay` in effect (a layout derived from cx->lay by
 * fit.h or compose.c's sidebar, whose faces are cx->lay's), in *buf. */
const cv_ctx *cv_ctx_with(const cv_ctx *cx, const cv_style *lay, cv_ctx *buf);

/* The context that sets part `role` (CV_ROLE_*): `cx` itself when the
 * layout gives the part no family of its own, else a copy in *buf whose
 * chain starts with the part's faces, then the body's (a character the
 * part's face lacks comes from the body's face, not from a fallback). */
const cv_ctx *cv_ctx_role(const cv_ctx *cx, int role, cv_ctx *buf);

#endif
