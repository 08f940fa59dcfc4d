/* hyph.h - hyphenation points by Liang's rule, from Debian's patterns.
 *
 * A cv_hyph holds one pattern file (Debian's hyphen-en-us by default), read
 * at its first use and kept for the life of the engine that owns it.  On a
 * plain pattern file (Debian's, made by libhyphen's substrings.pl) the
 * points are computed directly by Liang's rule from a hash table of the
 * patterns' keys, which is exactly what libhyphen's automaton gives on such
 * a file and costs a few hundred lookups a word instead of loading a
 * dictionary.  Any other file goes to libhyphen, with a dictionary made of
 * just the patterns that can match the words asked about (hyph.c explains
 * both).
 */
#ifndef CV_HYPH_H
#define CV_HYPH_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

typedef struct cv_hyph cv_hyph;

/* Patterns from `path`; NULL or "" for $CVPDF_HYPHEN_DICT or else
 * /usr/share/hyphen/hyph_en_US.dic.  Nothing is read yet.  When the file
 * cannot be read, the first cv_hyphenate() says so once, as a note through
 * `diag` (which must outlive the cv_hyph; NULL: silently). */
cv_hyph *cv_hyph_new(const char *path, const cv_diag *diag);
void cv_hyph_free(cv_hyph *h);
/* The pattern file's path. */
const char *cv_hyph_path(const cv_hyph *h);

/* Hyphenate `n` words (lower-case ASCII letters, NUL-terminated, shorter
 * than 64 bytes).  out[i][k] is true when a hyphen may follow letter k of
 * word i, with at least `left` letters before it and `right` after.
 * Returns false when there are no patterns; then nothing is hyphenated. */
bool cv_hyphenate(cv_hyph *h, const char *const *words, size_t n, bool (*out)[64], int left,
                  int right);

/* As cv_hyphenate(), with each point's level: out[i][k] is 0 where there
 * is no point, else the pattern digit that made it (odd, 1 to 9); in a
 * two-level file (German's) the second level's digit where that is
 * higher, which marks the joints of compounds (lösungs5ansätze).  The
 * stronger points are the surer ones. */
bool cv_hyphenate_levels(cv_hyph *h, const char *const *words, size_t n,
                         unsigned char (*out)[64], int left, int right);

#endif
