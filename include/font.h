/* font.h - finding, opening and measuring faces.
 *
 * A cv_fontset owns every face it has opened (FreeType face, HarfBuzz font,
 * the mapped file) and lives across documents: in a batch, each file is
 * opened and parsed once.  Faces are found by family name, first among the
 * font files in the fontset's directories (the project's fonts/), then
 * through fontconfig; only TrueType-outline (glyf) faces are accepted, since
 * libharu cannot embed anything else.
 *
 * Metrics follow what libharu will write: a glyph's advance is
 * floor(hmtx_advance * 1000 / unitsPerEm) in thousandths of an em (the
 * value in the PDF's /W array), and HarfBuzz kerning is added as separate
 * whole thousandths that the PDF backend writes into the TJ array, so what
 * is measured is exactly what is drawn.
 */
#ifndef CV_FONT_H
#define CV_FONT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef struct cv_face {
    char *path;
    int index;              /* face index in a .ttc */
    char *family, *style;
    char *psname;           /* PostScript name (libharu dedups by it) */
    bool bold, italic;
    int upem;
    /* In thousandths of an em. */
    int ascender, descender, cap_height, x_height;
    /* Owned handles. */
    const unsigned char *data;   /* mapped file */
    size_t size;
    void *ft;                    /* FT_Face */
    void *hb;                    /* hb_font_t */
    void *hb_face;               /* hb_face_t (for subsetting) */
    /* Private to font.c: glyph, advance and shaping caches (see there). */
    struct cv_face_cache *cache;
} cv_face;

typedef struct cv_fontset cv_fontset;

/* New fontset searching `dirs` (NULL-terminated; missing dirs are fine).
 * Returns NULL with err set when FreeType cannot start. */
cv_fontset *cv_fontset_new(const char *const *dirs, cv_error *err);
void cv_fontset_free(cv_fontset *fs);

/* Index of the face for `family` in the wanted style, opening it on first
 * use.  When the family lacks that style the nearest style is used and
 * *synth_bold says whether bold must be synthesised.  Returns -1 with err
 * set (at `pos`) when no such family exists or it is not embeddable. */
int cv_fontset_find(cv_fontset *fs, const char *family, bool bold, bool italic,
                    bool *synth_bold, cv_pos pos, cv_error *err);
/* Open a face from an explicit file (a path in the layout). */
int cv_fontset_open_file(cv_fontset *fs, const char *path, int index,
                         cv_pos pos, cv_error *err);

cv_face *cv_fontset_face(const cv_fontset *fs, int id);
size_t cv_fontset_count(const cv_fontset *fs);

/* Glyph id for a code point (0 when the face lacks it). */
unsigned cv_face_glyph(const cv_face *f, uint32_t cp);
/* libharu's advance for a glyph in thousandths of an em (truncated). */
int cv_face_advance(const cv_face *f, unsigned gid);

/* Shape `n` code points (all in face `f`) with HarfBuzz, no ligatures, and
 * write each glyph's advance (as cv_face_advance) into w[i] and the kerning
 * to add after it into kern[i], both in thousandths of an em.  Results are
 * cached per face, word by word where the font allows it (see font.c), so
 * the same text is shaped once per process; the answer is always exactly
 * HarfBuzz's for the whole run. */
void cv_face_shape(const cv_face *f, const uint32_t *cps, size_t n,
                   int16_t *w, int16_t *kern);

#endif
