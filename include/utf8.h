/* utf8.h - the one place that reads and writes UTF-8.
 *
 * Profile and layout text arrives as UTF-8 that libyaml has already
 * checked, but a decoder must still be total: every byte sequence decodes,
 * a malformed one to U+FFFD, one byte at a time, so that no caller can loop
 * or read past the end.  The encoder covers every scalar value, including
 * those above U+FFFF (four bytes).
 */
#ifndef CV_UTF8_H
#define CV_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The most bytes one code point takes. */
#define CV_UTF8_MAX 4

/* Decode the code point at s[0..len) (len >= 1) into *cp and return the
 * bytes it takes (1-4).  A malformed or truncated sequence gives U+FFFD and
 * the length of its malformed prefix (at least 1). */
size_t cv_utf8_decode(const char *s, size_t len, uint32_t *cp);

/* Encode cp into out (room for CV_UTF8_MAX bytes, not NUL-terminated) and
 * return the number of bytes written. */
size_t cv_utf8_encode(uint32_t cp, char *out);

/* The index of the first byte of the code point that ends just before
 * s[i] (i > 0), looking back at most CV_UTF8_MAX - 1 continuation bytes. */
size_t cv_utf8_prev(const char *s, size_t i);

#endif
