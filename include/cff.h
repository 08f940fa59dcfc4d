/* cff.h - reading the little of a CFF font program that embedding needs.
 *
 * A PDF CIDFontType0 finds its glyphs by CID, through the CFF program's own
 * charset: a CID-keyed CFF (one whose Top DICT has the ROS operator, as Noto
 * Sans CJK's has) maps each glyph to a CID in its charset, and hb-subset
 * keeps those CIDs when it subsets; a name-keyed CFF's CIDs are its glyph
 * ids.  cv_cff_cids() reads that map from the bare 'CFF ' table, so the
 * codes a page draws are exactly the CIDs the font program expects.
 *
 * Nothing is allocated; the table is only read, with every offset checked
 * against its length.
 */
#ifndef CV_CFF_H
#define CV_CFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Fill cid[0 .. nglyphs) with the CID of each glyph of the CFF table
 * `cff` (`len` bytes): the charset's CIDs when the font is CID-keyed, the
 * glyph ids when it is not (*cid_keyed says which; NULL is fine).  Returns
 * false when the table is damaged, or its CharStrings count is not
 * `nglyphs`. */
bool cv_cff_cids(const unsigned char *cff, size_t len, unsigned nglyphs, uint16_t *cid,
                 bool *cid_keyed);

/* The count of the CharStrings INDEX of the CFF table `cff` (`len`
 * bytes), its number of glyphs, into *n; false when the table is damaged. */
bool cv_cff_glyph_count(const unsigned char *cff, size_t len, unsigned *n);

/* A copy of the CFF table `cff` whose every glyph is `delta` font units
 * wider: new Private DICTs (defaultWidthX and nominalWidthX moved by
 * delta) after the program, the DICTs that name them pointed at them in
 * place.  For the twin font of glyphs drawn wider (pdf_font.h).  Returns
 * false (and *out NULL) when the program is damaged or not as hb-subset
 * writes it (offsets of five bytes, no local subroutines, integer widths);
 * *out is malloc'd. */
bool cv_cff_widen(const unsigned char *cff, size_t len, long delta, unsigned char **out,
                  size_t *outlen);

#endif
