/* fontset.h - finding and opening faces: the font catalogue.
 *
 * A cv_fontset owns every face it has opened (FreeType face, HarfBuzz font
 * and face, the mapped file) and lives across documents: in a batch, each
 * file is opened and parsed once.  Faces are found by family name, first
 * among the font files in the fontset's directories (the project's fonts/),
 * then through fontconfig; only faces with TrueType (glyf) or OpenType CFF
 * outlines are accepted (pdf_font.h embeds them), in .ttf, .otf, .ttc and
 * .otc files; a family found only in another format (Type 1, bitmap, CFF2)
 * is an error that names the format.  A face is named by its id, a
 * small integer: ids count up from 0 in the order faces are opened and stay
 * valid until cv_fontset_free().
 *
 * A cv_face is immutable once opened: its names, metrics and handles never
 * change, and nothing is cached in it.  Shaping, and the glyph and advance
 * caches layout needs, live in a cv_shaper (shape.h) made over the fontset.
 *
 * Metrics follow what libharu will write: a glyph's advance is
 * floor(hmtx_advance * 1000 / unitsPerEm) in thousandths of an em (the value
 * in the PDF's /W array), so what is measured is exactly what is drawn.
 *
 * Errors: the functions that can fail return NULL or -1 with the first
 * error recorded in `err` (error.h), at the position given.  Font files in
 * the directories that FreeType cannot read are skipped with a warning.
 */
#ifndef CV_FONTSET_H
#define CV_FONTSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* The most faces a fallback chain (ctx.h, style.h) holds. */
#define CV_MAX_CHAIN 8

typedef struct cv_face {
    char *path;
    int index;              /* face index in a .ttc / .otc collection */
    bool cff;               /* CFF outlines (OpenType), not TrueType glyf */
    bool pending;           /* found, to be opened on first use (fontset.c) */
    bool broken;            /* could not be opened when first used */
    char *family;
    char *psname;           /* PostScript name (libharu dedups by it) */
    bool bold, italic;
    int upem;
    unsigned nglyphs;
    /* In thousandths of an em. */
    int ascender, descender, cap_height, x_height;
    /* In font units, for the PDF's font descriptor: the head table's box,
     * OS/2's weight class (-1 without an OS/2 table), the post table's
     * italic angle (16.16 fixed point) and fixed pitch. */
    int bbox[4];
    int weight;
    int32_t italic_angle;
    bool fixed_pitch;
    /* Owned by the fontset; read them, never free or replace them. */
    const unsigned char *data;   /* mapped file */
    size_t size;
    void *hb;                    /* hb_font_t, scaled to font units */
    void *hb_face;               /* hb_face_t (for subsetting) */
    int second;                  /* > 0: the id of its second opening (cv_fontset_second) */
    bool is_second;              /* a second opening of another face */
} cv_face;

typedef struct cv_fontset cv_fontset;

/* New fontset searching `dirs` (NULL-terminated; missing dirs are fine),
 * whose .ttf, .otf, .ttc and .otc files are catalogued now (families and styles read,
 * faces not opened yet).  Returns NULL with err set when FreeType cannot
 * start.  Free it with cv_fontset_free(), after any cv_shaper made over it. */
cv_fontset *cv_fontset_new(const char *const *dirs, cv_error *err);
/* Close every face and free the fontset; NULL is fine. */
void cv_fontset_free(cv_fontset *fs);

/* Index of the face for `family` (any case) in the wanted style, opening it
 * on first use.  When the family lacks that style the nearest style is used
 * (the same weight first, then the same slant) and *synth_bold says whether
 * bold must be synthesised.  Returns -1 with err set (at `pos`) when no
 * such family exists or it exists only in a format cvpdf cannot embed
 * (the error names the format). */
int cv_fontset_find(cv_fontset *fs, const char *family, bool bold, bool italic,
                    bool *synth_bold, cv_pos pos, cv_error *err);
/* cv_fontset_find(), but the face is only found, not opened: it is opened
 * by the first cv_fontset_face() that asks for it (a fallback face for
 * characters a document may never use: Noto Sans CJK takes milliseconds to
 * open).  Errors as cv_fontset_find()'s, except that a face that cannot be
 * opened when it is first used has no glyphs (cv_fontset_face() gives
 * NULL). */
int cv_fontset_find_lazy(cv_fontset *fs, const char *family, bool bold, bool italic,
                         bool *synth_bold, cv_pos pos, cv_error *err);
/* Open face `index` of an explicit file (a path in the layout); a face
 * already open is not opened twice.  Returns -1 with err set (at `pos`)
 * when the file cannot be read, is not a font, has neither TrueType nor CFF
 * outlines (the error names its format) or no Unicode character map. */
int cv_fontset_open_file(cv_fontset *fs, const char *path, int index,
                         cv_pos pos, cv_error *err);

/* A second opening of face `id`'s file: the same glyphs under a face id of
 * its own, which the PDF backend embeds as a font of its own.  A glyph
 * drawn there for other text than in the first (a capital standing for a
 * lowercase letter: synthesised small capitals) then has a code of its own,
 * which a CFF font cannot give two texts (pdf_font.h).  Made once per face;
 * -1 when `id` is no face or the file cannot be opened again. */
int cv_fontset_second(cv_fontset *fs, int id);

/* The face with id `id`, or NULL when there is none (or it was found
 * lazily and cannot be opened).  A face found lazily is opened by the first
 * call.  Valid until cv_fontset_free(). */
const cv_face *cv_fontset_face(const cv_fontset *fs, int id);
/* Is face `id` open (found lazily and not yet asked for: not)? */
bool cv_fontset_opened(const cv_fontset *fs, int id);
/* The file of face `id` (NULL when there is none), without opening it. */
const char *cv_fontset_path(const cv_fontset *fs, int id);
/* The family of face `id` (NULL when there is none), without opening it:
 * the face's own name once open, the name it was found by before. */
const char *cv_fontset_family(const cv_fontset *fs, int id);
/* How many faces are open: ids are 0 .. count - 1. */
size_t cv_fontset_count(const cv_fontset *fs);

/* Glyph id for a code point (0 when the face lacks it), read from the
 * font's character map; nothing is cached (cv_shape_glyph() caches). */
unsigned cv_face_glyph(const cv_face *f, uint32_t cp);
/* A glyph's advance in font units, from the font's hmtx table; 0 when it
 * cannot be read (a glyph id out of range). */
long cv_face_advance_units(const cv_face *f, unsigned gid);
/* libharu's advance for a glyph in thousandths of an em (truncated). */
int cv_face_advance(const cv_face *f, unsigned gid);

#endif
