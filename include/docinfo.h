/* docinfo.h - the PDF's document information, from the profile and layout.
 *
 * Title (the layout's pdf.title template, `NAME` replaced by the owner's
 * name), author, subject (the headline), keywords (the section titles),
 * language and PDF/A: what draw_hpdf.c writes into the Info dictionary and
 * the XMP metadata.
 */
#ifndef CV_DOCINFO_H
#define CV_DOCINFO_H

#include "arena.h"
#include "doc.h"
#include "display.h"
#include "style.h"

/* Fill d's title, author, subject, keywords, lang and pdfa.  The strings
 * are allocated in `a` or point into doc and st: valid until
 * cv_arena_free(). */
void cv_display_set_info(cv_arena *a, cv_display *d, const cv_doc *doc,
                         const cv_style *st);

#endif
