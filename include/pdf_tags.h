/* pdf_tags.h - the structure tree of a tagged PDF, written with libharu's
 * object API (libharu 2.3.0 has no marked-content or structure calls).
 *
 * The PDF backend (draw_hpdf.c) tells it what it draws: each page begun,
 * each marked-content sequence of text or picture with the structure node
 * (tags.h) it belongs to, the link or the other language it is in, and
 * each link annotation.  cv_pdftags_mc() returns the sequence's MCID and
 * the tag to write before it ("/P <</MCID 3>> BDC"); what is drawn outside
 * of them is marked as an artifact by the backend.  cv_pdftags_finish()
 * then builds the tree: /StructTreeRoot with the elements in their logical
 * order (each node of tags.h an element, elements with nothing in them
 * left out), a /ParentTree (number tree) for pages and annotations, a
 * /RoleMap for cvpdf's own types, /StructParents and /Tabs /S on pages,
 * /StructParent and /Contents on link annotations, and the catalog's
 * /MarkInfo <</Marked true>>.
 *
 * Several résumés can go into one tree (a CV book): each résumé's root
 * then becomes a Part of one Document.  The tree is held in memory of its
 * own (node types are static strings; alternate texts and languages are
 * copied), so a résumé's arena may be freed once it is drawn.
 */
#ifndef CV_PDF_TAGS_H
#define CV_PDF_TAGS_H

#include <stdbool.h>

#include <hpdf.h>

#include "tags.h"

typedef struct cv_pdftags cv_pdftags;

/* A tree for `pdf`; `book`: each résumé is a Part of one Document. */
cv_pdftags *cv_pdftags_new(HPDF_Doc pdf, bool book);
/* Leave out what is optional in every element (/Type /StructElem): for
 * PDF/A-1, whose objects are not packed into object streams, where it
 * would cost some 18 bytes an element. */
void cv_pdftags_lean(cv_pdftags *pt);
/* A résumé begins: its structure `t` (whose root gets /Lang `lang` in a
 * book). */
void cv_pdftags_begin(cv_pdftags *pt, const cv_tags *t, const char *lang);
/* A page of the résumé begins; links are numbered from 0 on each page. */
void cv_pdftags_page(cv_pdftags *pt, HPDF_Page page);
/* A marked-content sequence of node `node` of the current résumé, inside
 * the page's link `link` (-1: none) and in language `lang` (NULL: the
 * node's): returns its MCID and sets *type to the tag to write (the type
 * of the element it belongs to: the node's, a Link's or a Span's). */
int cv_pdftags_mc(cv_pdftags *pt, int node, int link, const char *lang, const char **type);
/* Node `node`'s (a Figure's) bounding box on the page, in points: its
 * /A <</O /Layout /BBox [...]>> attribute. */
void cv_pdftags_bbox(cv_pdftags *pt, int node, float x0, float y0, float x1, float y1);
/* The annotation of the page's link `link`, with `contents` (UTF-8) as
 * its description: put in its Link element (one under the résumé's root
 * if no text of it was drawn). */
bool cv_pdftags_annot(cv_pdftags *pt, int link, HPDF_Annotation an, const char *contents);
/* Write the tree into the document.  Returns false when libharu failed. */
bool cv_pdftags_finish(cv_pdftags *pt);
void cv_pdftags_free(cv_pdftags *pt);

#endif
