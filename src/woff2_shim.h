/* woff2_shim.h - the C face of woff2_shim.cc (Debian's libwoff2 is C++).
 * Private to html.c. */
#ifndef CV_WOFF2_SHIM_H
#define CV_WOFF2_SHIM_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The TrueType or OpenType font `ttf` (n bytes) as WOFF2, compressed by
 * Brotli at `quality` (0-11): *out (malloc'd, the caller frees it) and
 * *outlen.  False (and *out NULL) when libwoff2 cannot convert it. */
bool cv_woff2_encode(const unsigned char *ttf, size_t n, int quality, unsigned char **out,
                     size_t *outlen);

#ifdef __cplusplus
}
#endif

#endif
