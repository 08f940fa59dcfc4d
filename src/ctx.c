/* ctx.c - the per-profile context.  See ctx.h. */
#include "ctx.h"

#include <string.h>

#include "cjk.h"

void cv_ctx_init(cv_ctx *cx, cv_engine *eng, const cv_style *lay, const char *lang, bool rtl)
{
    memset(cx, 0, sizeof *cx);
    cx->eng = eng;
    cx->lay = lay;
    cx->lang = lang;
    cx->rtl = rtl;
    memcpy(cx->chain, lay->chain, sizeof cx->chain);
    memcpy(cx->synth, lay->synth, sizeof cx->synth);
    cx->nchain = lay->nchain;
    cx->mono = lay->mono;
    cv_cjk_localize(eng->fonts, lang, cx->chain, cx->synth, cx->nchain);
}

const cv_ctx *cv_ctx_with(const cv_ctx *cx, const cv_style *lay, cv_ctx *buf)
{
    *buf = *cx;
    buf->lay = lay;
    return buf;
}

const cv_ctx *cv_ctx_role(const cv_ctx *cx, int role, cv_ctx *buf)
{
    const cv_style *st = cx->lay;
    if (role < 0 || role >= CV_NROLES || st->role_face[role][0] < 0)
        return cx;
    *buf = *cx;
    size_t n = cx->nchain < CV_MAX_CHAIN ? cx->nchain : CV_MAX_CHAIN - 1;
    for (int s = 0; s < 4; s++) {
        buf->chain[s][0] = st->role_face[role][s];
        buf->synth[s][0] = st->role_synth[role][s];
        for (size_t i = 0; i < n; i++) {
            buf->chain[s][i + 1] = cx->chain[s][i];
            buf->synth[s][i + 1] = cx->synth[s][i];
        }
    }
    buf->nchain = n + 1;
    return buf;
}
