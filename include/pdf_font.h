/* pdf_font.h - a face embedded as a Type0 font of cvpdf's own making.
 *
 * The face is subset with hb-subset to the code points the document draws,
 * each code point gets its own CID (the subset's glyph id, or 1, 2, ... in
 * code-point order when two code points share a glyph, with a CIDToGIDMap
 * to the glyphs), one byte per code when all are below 256, and the font
 * carries a /W array of exactly the advances the layout measured (from the
 * shaper), a one-to-one ToUnicode map, a CIDSet for PDF/A (every CID the
 * subset program holds, read from the program), CapHeight and
 * the other descriptor entries PDF/A-1 asks for.  libharu's own Type0
 * fonts scan all 65,536 BMP codes per font, write a 128 KB CIDToGIDMap and
 * a malformed ToUnicode map (LIBHARU-NOTES §3, §8); these are built through
 * its object API instead.
 *
 * A face with CFF outlines (fontset.h: cv_face.cff) is embedded as a
 * CIDFontType0 (FontFile3 /CIDFontType0C) whose codes are the CIDs of the
 * subset's CFF charset (pdf_font.c), with the same ToUnicode, /W and
 * CIDSet.
 */
#ifndef CV_PDF_FONT_H
#define CV_PDF_FONT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hpdf.h>

#include "display.h"
#include "error.h"
#include "fontset.h"

/* One face as embedded in one document. */
typedef struct cv_pdffont {
    const cv_face *face; /* glyphs and widths: the face's own (fontset.h) */
    int id;
    cv_cluster *cl;      /* the complex-script glyphs drawn (display.h), by
                            code point once sealed; their texts owned */
    size_t ncl, ccl;
    uint32_t *cps;       /* sorted code points drawn */
    unsigned char **seen; /* bitmap of cps in pages, until sealed */
    unsigned *code;      /* the code (= CID) of each, after embedding */
    uint32_t **bmp;      /* once sealed: 1 + the index in cps of each BMP
                            code point, in pages of 256 (NULL: none drawn);
                            0: not drawn */
    size_t n, cap;
    bool cidset;         /* write a CIDSet (PDF/A-1 asks for one) */
    bool one_byte;       /* codes are one byte (n < 256), else two */
    HPDF_Dict font;      /* the Type0 font dictionary (indirect) */
    int16_t wide;        /* the twin's extra width (0: no twin) */
    uint32_t *wcps;      /* code points drawn from the twin, as noted */
    unsigned char **wseen;
    size_t wn, wcap;
    HPDF_Dict wide_font; /* the twin: the same codes and ToUnicode, a program
                            of just the glyphs drawn wider, each `wide` more
                            in the program and in /W */
} cv_pdffont;

/* Note that `cp` is drawn in `pf`: an ordinary character, the face's glyph
 * for it, or (`cl` not NULL) a complex script's glyph as the display list
 * carries it. */
void cv_pdffont_use(cv_pdffont *pf, uint32_t cp, const cv_cluster *cl);
/* Is `cp` noted in `pf` already (before cv_pdffont_seal())?  A test
 * cheap enough for every glyph drawn, most of which are. */
static inline bool cv_pdffont_noted(const cv_pdffont *pf, uint32_t cp)
{
    const unsigned char *pg = pf->seen && cp <= 0x10FFFF ? pf->seen[cp >> 11] : NULL;
    return pg && (pg[(cp >> 3) & 255] >> (cp & 7) & 1);
}
/* Note that `cp` is drawn in `pf` with `wide` thousandths of an em more
 * in its box (wrap.h: cv_gl.wide), from the twin font.  A face has one
 * twin: the first width asked for; cv_pdffont_twin() says whether a glyph
 * is drawn from it. */
void cv_pdffont_use_wide(cv_pdffont *pf, uint32_t cp, const cv_cluster *cl, int16_t wide);
/* The glyph of a code point noted in `pf`, in its face. */
unsigned cv_pdffont_glyph(const cv_pdffont *pf, uint32_t cp);
/* Whether a glyph `wide` more is drawn from the twin (after embedding). */
bool cv_pdffont_twin(const cv_pdffont *pf, int16_t wide);
/* Sort the code points; call once all are noted. */
void cv_pdffont_seal(cv_pdffont *pf);
/* The code (a CID) of a code point noted before cv_pdffont_seal(), once
 * embedded (0 if not noted). */
unsigned cv_pdffont_cid(const cv_pdffont *pf, uint32_t cp);
/* Was `cp` noted (is it in the subset), after cv_pdffont_seal()? */
bool cv_pdffont_has(const cv_pdffont *pf, uint32_t cp);
/* Subset the face and build its font objects in `pdf`.  `*cmap1` caches
 * the document's one-byte encoding CMap (start with NULL).  Returns false
 * with err set when HarfBuzz rejects the face or libharu fails. */
bool cv_pdffont_embed(HPDF_Doc pdf, cv_pdffont *pf, HPDF_Dict *cmap1, cv_error *err);
void cv_pdffont_free(cv_pdffont *pf);

#endif
