/* shape.h - measuring text in a face: the shaper and its caches.
 *
 * A cv_shaper shapes runs of code points with HarfBuzz in the faces of one
 * fontset (fontset.h), named by face id, and keeps what layout asks for
 * again and again: each face's glyph ids and advances, and its shaped words
 * (shape.c explains the shaping cache).  It is libass's ASS_Shaper: the
 * fontset is what the fonts are, the shaper is what has been measured in
 * them.  All the mutable state lives here, so faces stay immutable.
 *
 * Ownership and lifetime: the engine (engine.h) makes one shaper over its
 * fontset and frees it before the fontset.  A shaper only reads the
 * fontset; faces opened after the shaper was made are picked up on first
 * use.  Its caches last as long as it does (each face's shaping cache
 * starts over when it holds a few megabytes), and live across documents:
 * in a batch, a word is shaped once per process.  A shaper is used by one
 * thread at a time.
 *
 * Units: advances and kerning are in thousandths of an em, as the PDF
 * backend writes them: a glyph's advance is cv_face_advance()'s truncated
 * floor(hmtx_advance * 1000 / unitsPerEm) (the PDF's /W array), and
 * HarfBuzz kerning is added as separate whole thousandths that go into the
 * TJ array, so what is measured is exactly what is drawn.  Itemising and
 * line breaking (wrap.c) and the PDF backend's glyphs and /W widths
 * (pdf_font.c) all read them through the engine's one shaper.
 *
 * Errors: none.  A face id that names no face has no glyphs.
 */
#ifndef CV_SHAPE_H
#define CV_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fontset.h"

typedef struct cv_shaper cv_shaper;

/* A new shaper over `fs`, which must outlive it.  Never NULL (out of
 * memory aborts, arena.h). */
cv_shaper *cv_shaper_new(const cv_fontset *fs);
/* Free the shaper and its caches; NULL is fine.  The fontset is not freed. */
void cv_shaper_free(cv_shaper *sh);

/* Glyph id for a code point in face `face` (0 when the face lacks it, or
 * there is no such face): cv_face_glyph(), cached. */
unsigned cv_shape_glyph(cv_shaper *sh, int face, uint32_t cp);
/* The advance of glyph `gid` of face `face` in thousandths of an em (0 when
 * there is no such face): cv_face_advance(), cached. */
int cv_shape_advance(cv_shaper *sh, int face, unsigned gid);

/* Shape `n` code points, all in face `face` (a face of the fontset), with
 * HarfBuzz, no ligatures, and write each glyph's advance (as
 * cv_face_advance) into w[i] and the kerning to add after it into kern[i],
 * both in thousandths of an em.  Results are cached per face, word by word
 * where the font allows it (see shape.c), so the same text is shaped once
 * per shaper; the answer is always exactly HarfBuzz's for the whole run.
 * A run that HarfBuzz does not set one glyph per code point gets no
 * kerning (the PDF backend draws code points, not glyphs). */
void cv_shape_run(cv_shaper *sh, int face, const uint32_t *cps, size_t n, int16_t *w,
                  int16_t *kern);

/* Complex scripts (Devanagari, Arabic): the PDF backend draws code points, so a
 * glyph that HarfBuzz substitutes (a conjunct, a reordered matra) is named
 * by a private code point from CV_CLUSTER_BASE on, which stands for one
 * glyph of one face and the text it carries.  cv_shape_glyph() and
 * cv_shape_run() know them; cv_shape_cluster_text() gives the text. */
#define CV_CLUSTER_BASE 0x100000u
#define CV_CLUSTER_MAX 0xFFFDu

/* Shape `n` code points in face `face` with HarfBuzz, every lookup on, and
 * write for each a code point to draw instead: a cluster's glyphs in
 * order, one per character, each standing for its character (the last for
 * the rest of the cluster), and U+FEFF for a character left without a
 * glyph (to be dropped).  False, with out[] undefined, when a cluster
 * has more glyphs than characters or the font lacks one. */
bool cv_shape_complex(cv_shaper *sh, int face, const uint32_t *cps, size_t n, uint32_t *out);

/* Right-to-left scripts that join (Arabic, Persian, Urdu): shape the `n`
 * code points text[at, at + n) of one script (Common and Inherited ones
 * beside them) in face `face`, the rest of text[0, len) their context (a
 * letter joins one set in another face), right to left, with the script's
 * every lookup -- initial,
 * medial, final and isolated forms, lam-alef and the font's other
 * ligatures, marks (harakat) placed by GPOS -- for language `lang` (BCP
 * 47, as HarfBuzz takes it, NULL: none), and write out[] as
 * cv_shape_complex does, in the order of the text.  ZWNJ and ZWJ do their
 * work and are drawn as nothing.  Every code point written stands for one
 * character: a character HarfBuzz left without a glyph of its own (a
 * joiner, the alef of lam-alef) gets a ghost, the face's space glyph with
 * no advance, so that readers never see one glyph for several
 * right-to-left letters (poppler reads those backwards).  Each glyph's cluster code point carries where HarfBuzz placed
 * it: its advance (the difference from the glyph's own is the kerning
 * cv_shape_run() gives) and its offset from the pen
 * (cv_shape_cluster_offset()), which the PDF backend draws.  False, with
 * out[] undefined, as cv_shape_complex. */
bool cv_shape_rtl(cv_shaper *sh, int face, const uint32_t *text, size_t len, size_t at,
                  size_t n, const char *lang, uint32_t *out);

/* The offset of a cluster code point's glyph from the pen, in thousandths
 * of an em, x to the right and y up (a mark's GPOS position); true when it
 * is not (0, 0).  (0, 0) and false for any other code point. */
bool cv_shape_cluster_offset(const cv_shaper *sh, uint32_t cp, int *dx, int *dy);

/* Does cluster code point `cp` stand for a combining mark (a haraka: its
 * text begins with one)?  False for any other code point. */
bool cv_shape_cluster_mark(const cv_shaper *sh, uint32_t cp);

/* The cluster code point of glyph `gid` of face `face` standing for
 * `text` (UTF-8), made on first use; 0 when the table is full. */
uint32_t cv_shape_cluster(cv_shaper *sh, int face, unsigned gid, const char *text);

/* The small capital (OpenType `smcp`) that face `face` sets for code point
 * `cp`, or 0 when it has none (no smcp feature, or none for `cp`). */
unsigned cv_shape_small_cap(cv_shaper *sh, int face, uint32_t cp);

/* The lining figure (OpenType `lnum`) that face `face` sets for code point
 * `cp`, or 0 when it has none, or sets the same glyph without it. */
unsigned cv_shape_lining_figure(cv_shaper *sh, int face, uint32_t cp);

/* The text a cluster code point stands for (UTF-8), or NULL for any other
 * code point. */
const char *cv_shape_cluster_text(const cv_shaper *sh, uint32_t cp);

#endif
