/* sfnt.h - what the font catalogue and an open face need of an sfnt
 * (TrueType or OpenType) file, read from its tables without FreeType.
 *
 * The catalogue (fontset.c) learns the family, weight, slant and width of
 * every face in fonts/ before it opens any; FreeType costs some 60,000
 * instructions a face for that (it checks every character map, reads the
 * kerning table, ...), this reader a few hundred.  Opening a face, fontset.c
 * reads its metrics and PostScript name here too (cv_sfnt_measure()):
 * FreeType's opening of a CJK face costs 3 million instructions and half
 * a megabyte, for the charset of its 65,535 glyphs.  It answers only for a
 * well-formed file of the ordinary kind and gives what FreeType would:
 * the family is FT_Face's family_name (the same name record, converted to
 * ASCII the same way), bold and italic its style flags and OS/2 weight.
 * Anything else (a bare CFF, a Mac or bitmap font, a variable font, a
 * format-1 name table, a table out of the file, a table too short for
 * what FreeType reads of it) is not vouched for, and the caller asks
 * FreeType.
 *
 * Nothing is allocated; the file is only read, each offset checked against
 * its size.
 */
#ifndef CV_SFNT_H
#define CV_SFNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cv_sfnt_face {
    bool named;          /* it has a family name (FreeType's family_name is not NULL) */
    char family[256];    /* the name; "" when it has none */
    bool bold;           /* OS/2 usWeightClass >= 600, or fsSelection's bold when 0 */
    bool italic;         /* fsSelection's italic or oblique bit */
    bool narrow;         /* OS/2 usWidthClass set and not medium (5) */
    bool cff;            /* CFF outlines ('CFF '), not TrueType ones (glyf) */
} cv_sfnt_face;

/* How many faces the `size` bytes at `data` hold (1 for a single font, a
 * collection's count); 0 when it is not a file this reader vouches for. */
int cv_sfnt_count(const unsigned char *data, size_t size);

/* Does face `index` list outlines ('glyf' or 'CFF ') that run past the
 * end of the `size` bytes?  (FreeType drops such a table, so a file cut
 * short looks like a font with no outlines: the error says what it is.) */
bool cv_sfnt_outlines_cut(const unsigned char *data, size_t size, int index);

/* Face `index` of the file described into *out; false when this reader
 * does not vouch for it (then FreeType must be asked). */
bool cv_sfnt_describe(const unsigned char *data, size_t size, int index, cv_sfnt_face *out);

/* What fontset.c reads of a face it opens, as FreeType 2.12 gives it
 * (FT_Face's units_per_EM, bbox, ascender and descender, num_glyphs for
 * TrueType, FT_Get_Postscript_Name(), the OS/2 and post tables), in font
 * units.  Vouched for under the conditions above, and only when the face
 * has a Unicode cmap subtable of format 4 or 12 (FreeType would refuse it,
 * or check the subtable itself), a 'post' table of 32 bytes or none, and
 * a PostScript name of ASCII PostScript characters or none. */
typedef struct cv_sfnt_metrics {
    int upem;
    int bbox[4];               /* head's xMin, yMin, xMax, yMax */
    int ascender, descender;
    unsigned nglyphs;          /* maxp's (FreeType counts a CFF's CharStrings) */
    int os2_version, weight, typo_ascender, typo_descender;
    int cap_height, x_height;  /* 0 before OS/2 version 2 */
    int32_t italic_angle;      /* post's, 16.16 fixed point */
    bool fixed_pitch;
    bool has_psname;
    char psname[64];
    const unsigned char *cff;  /* the 'CFF ' table, or NULL */
    size_t cff_len;
} cv_sfnt_metrics;

/* Face `index` measured into *out; false when this reader does not vouch
 * for it (then FreeType must open it). */
bool cv_sfnt_measure(const unsigned char *data, size_t size, int index, cv_sfnt_metrics *out);

#endif
