/* tags.h - the logical structure of a résumé, for tagged PDF.
 *
 * compose.c builds a tree of structure nodes as it sets the résumé: the
 * document, its header (the name as H1, the headline, the contact
 * details), each section (Sect, with its title as H2) and in it each entry,
 * paragraph, list and list item.  Every line it sets carries the id of the
 * node its text belongs to (cv_piece.tag, then cv_run.tag in the display
 * list); 0 means "no node": an artifact (running headers and footers,
 * rules, decoration).  The PDF backend (pdf_tags.h) turns the tree into a
 * StructTreeRoot and the ids into marked-content sequences.
 *
 * Node types are PDF 1.7's standard structure types ("Sect", "H2", "LI")
 * or cvpdf's own names, which cv_tags_role() maps to a standard one for
 * the PDF's /RoleMap.  A node's children are read in the order they were
 * added, except that a node marked `last` is read after its siblings (the
 * sidebar, when it stands right of the main column).
 *
 * Everything lives in the arena given, until cv_arena_free().
 */
#ifndef CV_TAGS_H
#define CV_TAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

/* The document's root is node 1; node 0 is no node (an artifact). */
enum { CV_TAG_ARTIFACT = 0, CV_TAG_ROOT = 1 };

typedef struct cv_snode {
    const char *type;        /* a static string: "Sect", "H1", "Sidebar"... */
    int parent;              /* 0 for the root */
    const char *alt;         /* alternate text (a Figure), or NULL */
    const char *actual;      /* replacement text (a title drawn in capitals: the
                                words as written), or NULL */
    const char *lang;        /* BCP 47 ("zh"), or NULL: its parent's */
    bool last;               /* read after its siblings */
} cv_snode;

typedef struct cv_tags {
    cv_snode *nodes;         /* nodes[0] unused */
    size_t n, cap;
} cv_tags;

/* A tree holding only its root, a "Document" in language `lang` (NULL: none
 * said). */
cv_tags *cv_tags_new(cv_arena *a, const char *lang);
/* A new node of `type` (a static string) under `parent`, after the
 * parent's other children; returns its id. */
int cv_tags_add(cv_arena *a, cv_tags *t, int parent, const char *type);

/* The standard type a type stands for: itself when it is one of PDF 1.7's
 * standard structure types, the standard type cvpdf's own name is mapped
 * to ("Sidebar" -> "Sect"), NULL for a type nobody knows. */
const char *cv_tags_role(const char *type);
/* Is `type` one of PDF 1.7's standard structure types (ISO 32000-1,
 * 14.8.4)? */
bool cv_tags_standard(const char *type);

/* The language a script implies, when text in it is not in the document's
 * language `doc_lang`: "zh" for Han in an English résumé, "ja" for kana,
 * "ko" for Hangul, "ru" for Cyrillic, "el" for Greek; NULL when the text
 * is in the document's language or says nothing (Latin, digits, spaces,
 * punctuation).  `cps` are `n` code points; the first letter of a script
 * decides, except that kana anywhere makes Han Japanese. */
const char *cv_tags_lang_of(const uint32_t *cps, size_t n, const char *doc_lang);

#endif
