/* pdf.h - pieces of the PDF backend (draw_hpdf.c), built on libharu's
 * object API where libharu's own fonts and metadata fall short.
 *
 * pdf_font.c embeds a face as a Type0 font of our own making: the face is
 * subset with hb-subset to the code points the document draws, each code
 * point gets its own CID (the subset's glyph id, or 1, 2, ... in
 * code-point order when two code points share a glyph, with a
 * CIDToGIDMap to the glyphs), one byte per code when all are below 256,
 * and the font carries a /W array of exactly the
 * advances the layout measured, a one-to-one ToUnicode map, a CIDSet for PDF/A,
 * CapHeight and the other descriptor entries PDF/A-1 asks for.  libharu's
 * own Type0 fonts scan all 65,536 BMP codes per font, write a 128 KB
 * CIDToGIDMap and a malformed ToUnicode map (LIBHARU-NOTES §3, §8).
 *
 * pdf_meta.c writes the document's information: the Info dictionary, the
 * XMP packet, /ID, /Lang, DisplayDocTitle and, for PDF/A-1b, the sRGB
 * output intent.
 */
#ifndef CV_PDF_H
#define CV_PDF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hpdf.h>

#include "draw.h"
#include "error.h"
#include "fontset.h"

/* One face as embedded in one document. */
typedef struct cv_pdffont {
    const cv_face *face;
    cv_shaper *shaper;   /* glyphs and widths as measured: face `id` there */
    int id;
    uint32_t *cps;       /* sorted code points drawn */
    unsigned char *seen; /* bitmap of cps, until sealed */
    unsigned *code;      /* the code (= CID) of each, after embedding */
    size_t n, cap;
    bool cidset;         /* write a CIDSet (PDF/A-1 asks for one) */
    bool one_byte;       /* codes are one byte (n < 256), else two */
    HPDF_Dict font;      /* the Type0 font dictionary (indirect) */
} cv_pdffont;

/* Note that `cp` is drawn in `pf`. */
void cv_pdffont_use(cv_pdffont *pf, uint32_t cp);
/* Sort the code points; call once all are noted. */
void cv_pdffont_seal(cv_pdffont *pf);
/* The code (a CID) of a code point noted before cv_pdffont_seal(), once
 * embedded (0 if not noted). */
unsigned cv_pdffont_cid(const cv_pdffont *pf, uint32_t cp);
/* Subset the face and build its font objects in `pdf`.  `*cmap1` caches
 * the document's one-byte encoding CMap (start with NULL).  Returns false
 * with err set when HarfBuzz rejects the face or libharu fails. */
bool cv_pdffont_embed(HPDF_Doc pdf, cv_pdffont *pf, HPDF_Dict *cmap1, cv_error *err);
void cv_pdffont_free(cv_pdffont *pf);

/* Document metadata. */
typedef struct cv_pdfmeta {
    const char *title, *author, *subject, *keywords, *creator;
    const char *lang;        /* BCP 47 ("en", "zh"), or NULL */
    bool has_date;           /* SOURCE_DATE_EPOCH */
    long long epoch;
    bool pdfa;               /* PDF/A-1b */
    const unsigned char *id; /* 16 bytes for /ID */
} cv_pdfmeta;

/* Set Info, /Lang, ViewerPreferences, /ID and, with m->pdfa, the XMP
 * packet and the sRGB output intent.  Returns false with err set. */
bool cv_pdfmeta_write(HPDF_Doc pdf, const cv_pdfmeta *m, cv_error *err);

/* Escape `s` for XML text (the XMP packet); exposed for the unit tests.
 * Returns a malloc'd string. */
char *cv_xml_escape(const char *s);

#endif
