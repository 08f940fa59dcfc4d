/* woff2_shim.h - the C face of woff2_shim.cc (Debian's libwoff2 is C++).
 * Private to html.c (and render.c's noting of the module).  The shim is
 * built as the module cvpdf-woff2.so, which woff2.c opens the first time
 * a face is converted (the sanitizer builds link it in). */
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

/* NULL when the module is there (found and opened on the first call); else
 * why not, naming what to install.  Without it cv_woff2_encode() is false. */
const char *cv_woff2_missing(void);

/* Note the module, at every place it may be opened from, as an input of
 * the run (output.h): no output may replace it. */
struct cv_inputs;
void cv_woff2_note_module(struct cv_inputs *in);

/* The module's one function (woff2_shim.cc): cv_woff2_encode()'s work. */
bool cv_woff2_shim_encode(const unsigned char *ttf, size_t n, int quality, unsigned char **out,
                          size_t *outlen);

#ifdef __cplusplus
}
#endif

#endif
