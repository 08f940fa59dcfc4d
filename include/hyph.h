/* hyph.h - hyphenation points from libhyphen and Debian's en-US patterns.
 *
 * libhyphen needs about 7 ms to load all 11,000 patterns, as long as a
 * whole résumé takes to set.  But a word is hyphenated only by patterns
 * whose letters occur in it, and a paragraph's words contain a hundred or
 * two of them.  So the pattern file is read once as text, and for each
 * call libhyphen gets a dictionary made of just the patterns that occur
 * in the words asked about -- the same points, at a fiftieth of the cost.
 */
#ifndef CV_HYPH_H
#define CV_HYPH_H

#include <stdbool.h>
#include <stddef.h>

/* Hyphenate `n` words (lower-case ASCII letters, NUL-terminated, shorter
 * than 64 bytes).  out[i][k] is true when a hyphen may follow letter k of
 * word i, with at least `left` letters before it and `right` after.
 * Returns false (after a note on stderr, once) when there are no patterns;
 * then nothing is hyphenated.  The pattern file is $CVPDF_HYPHEN_DICT or
 * /usr/share/hyphen/hyph_en_US.dic (Debian's hyphen-en-us). */
bool cv_hyphenate(const char *const *words, size_t n, bool (*out)[64], int left, int right);

#endif
