/* pdf_meta.h - the document's information in a libharu document: the Info
 * dictionary, the XMP packet, /ID, /Lang, DisplayDocTitle and, for
 * PDF/A-1b, the sRGB output intent (LIBHARU-NOTES §4, §6).
 */
#ifndef CV_PDF_META_H
#define CV_PDF_META_H

#include <stdbool.h>

#include <hpdf.h>

#include "error.h"

/* Document metadata. */
typedef struct cv_pdfmeta {
    const char *title, *author, *subject, *keywords, *creator;
    const char *lang;        /* BCP 47 ("en", "zh"), or NULL */
    bool has_date;           /* SOURCE_DATE_EPOCH */
    long long epoch;
    bool pdfa;               /* PDF/A: */
    int pdfa_part;           /*   1 (also 0: PDF/A-1b) or 2, PDF 1.7 */
    char pdfa_conformance;   /*   'b' (also 0), 'u' or 'a' */
    bool pdfua;              /* PDF/UA-1: XMP with pdfuaid, a title */
    const unsigned char *id; /* 16 bytes for /ID */
} cv_pdfmeta;

/* Set Info, /Lang, ViewerPreferences, /ID and, with m->pdfa, the XMP
 * packet and the sRGB output intent.  Returns false with err set. */
bool cv_pdfmeta_write(HPDF_Doc pdf, const cv_pdfmeta *m, cv_error *err);

/* A PDF text string (UTF-8 `s`) as a new libharu object: a plain string
 * when it is ASCII, else the bytes libharu's UTF-8 encoder writes -- <FEFF
 * and the UTF-16BE code units in hex> -- as a binary string made without
 * the encoder, whose tables cost 1.4 M instructions to build; through the
 * encoder only where that cannot be done (beyond the BMP, malformed, or
 * too long).  NULL when libharu is out of memory. */
void *cv_pdfmeta_text(HPDF_Doc pdf, const char *s);

/* Escape `s` for XML text (the XMP packet); exposed for the unit tests.
 * Returns a malloc'd string. */
char *cv_xml_escape(const char *s);

/* An integer in decimal as libharu writes it (HPDF_IToA), its digits
 * ending just before `end` (room for 21 bytes before it); returns where
 * they begin. */
static inline char *cv_pdf_int(char *end, long v)
{
    char *p = end;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    return p;
}

#endif
