/* cjk.h - Chinese, Japanese and Korean typesetting rules that layout needs.
 *
 * Two things, each small (which script or class a character is in is
 * unicode.h's):
 *
 *  - Regional faces.  A CJK collection such as Noto Sans CJK holds one face
 *    per region (SC, TC, HK, JP, KR), each with its region's glyphs for the
 *    same characters (and its own cmap: "“" is full-width in SC, narrow in
 *    JP).  cv_cjk_localize() gives a profile in Japanese the JP face where
 *    the layout names the SC one, and so on.  HarfBuzz's `locl` feature
 *    cannot do it: the PDF draws each character's cmap glyph (shape.h).
 *  - Punctuation (clreq, JIS X 4051).  Which characters are full-width
 *    punctuation whose blank half may be taken out beside another, and
 *    where a glyph's ink lies in its em.
 *
 * Nothing here allocates but cv_cjk_localize(), which may find (lazily,
 * fontset.h) the faces it swaps in.
 */
#ifndef CV_CJK_H
#define CV_CJK_H

#include <stdbool.h>
#include <stdint.h>

#include "fontset.h"

/* The region of a CJK collection for a language code (cv_locale.language):
 * "SC" for zh (zh-Hans, zh-CN, zh-SG), "TC" for zh-Hant, zh-TW and zh-MO,
 * "HK" for zh-HK, "JP" for ja, "KR" for ko; NULL for any other language
 * (the layout's faces stay). */
const char *cv_cjk_region(const char *lang);

/* The faces for a profile in `lang`: in chain[s][0..n) (with synth[s],
 * as ctx.h's), each regional CJK face of another region ("Noto Sans CJK
 * SC", "Noto Serif CJK JP", "Source Han Sans KR", ...) is replaced by the
 * face of the language's region, where the system has it; nothing changes
 * for a language without a region. */
void cv_cjk_localize(cv_fontset *fs, const char *lang, int chain[][CV_MAX_CHAIN],
                     bool synth[][CV_MAX_CHAIN], size_t n);


/* Punctuation that may lose a blank half beside another when set
 * full-width: brackets, quotes, 。，、：；！？ and the like, not dashes or
 * ellipses (whose runs are drawn unbroken). */
bool cv_cjk_squeezable(uint32_t cp);
/* Dashes and ellipses whose runs ("——", "……") are one line of ink. */
bool cv_cjk_is_run_mark(uint32_t cp);

/* Where the ink of glyph `gid` of face `f` lies along its advance, in
 * thousandths of an em: [*lo, *hi].  False for a glyph without ink. */
bool cv_cjk_ink(const cv_face *f, unsigned gid, int *lo, int *hi);

/* How far below the baseline the ink of glyph `gid` of face `f` reaches,
 * thousandths of an em (negative: it stays above).  False for a glyph
 * without ink. */
bool cv_cjk_ink_depth(const cv_face *f, unsigned gid, int *depth);

#endif
