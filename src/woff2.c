/* woff2.c - cv_woff2_encode() (woff2_shim.h) through the module
 * cvpdf-woff2.so.
 *
 * libwoff2's encoder is C++ and brings Brotli with it: linked into cvpdf,
 * loading them cost every run some 2 M instructions of dynamic linking,
 * HTML page or none.  So the shim (woff2_shim.cc) is a module of its own,
 * opened the first time a face is converted: beside the binary in the
 * source tree (build/), or in PREFIX/lib/cvpdf once installed (CV_LIBDIR),
 * looked for as every module of cvpdf's is (module.h). */
#include "woff2_shim.h"

#include "module.h"
#include "output.h"

typedef bool (*encode_fn)(const unsigned char *, size_t, int, unsigned char **, size_t *);

static cv_module M = {
    .file = "cvpdf-woff2.so", .kind = "WOFF2", .input = "the WOFF2 module",
    .library = "libwoff2", .package = "libwoff1", .syms = {"cv_woff2_shim_encode", NULL},
    /* Bound at dlopen, libwoff2enc, Brotli and the C++ runtime cost 1.7 M
     * instructions more, of symbols a conversion never calls. */
    .lazy = true};

/* The shim's function, found once; NULL when there is none (M.missing
 * says why). */
static encode_fn shim(void)
{
#ifdef CV_WOFF2_LINKED
    /* The sanitizer builds link the shim in, as they do the phone shim
     * (phone.c says why). */
    return cv_woff2_shim_encode;
#endif
    encode_fn f = NULL;
    if (cv_module_open(&M))
        *(void **)&f = M.fn[0];
    return f;
}

bool cv_woff2_encode(const unsigned char *ttf, size_t n, int quality, unsigned char **out,
                     size_t *outlen)
{
    *out = NULL;
    *outlen = 0;
    encode_fn f = shim();
    return f && f(ttf, n, quality, out, outlen);
}

const char *cv_woff2_missing(void)
{
    return shim() ? NULL : M.missing;
}

void cv_woff2_note_module(cv_inputs *in)
{
    cv_module_note(&M, in);
}
