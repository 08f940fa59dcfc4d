/* woff2.c - cv_woff2_encode() (woff2_shim.h) through the module
 * cvpdf-woff2.so.
 *
 * libwoff2's encoder is C++ and brings Brotli with it: linked into cvpdf,
 * loading them cost every run some 2 M instructions of dynamic linking,
 * HTML page or none.  So the shim (woff2_shim.cc) is a module of its own,
 * opened the first time a face is converted: beside the binary in the
 * source tree (build/), or in PREFIX/lib/cvpdf once installed (CV_LIBDIR),
 * looked for where phone.c looks for the phone module. */
#include "woff2_shim.h"

#include "output.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef CV_LIBDIR
#define CV_LIBDIR "/usr/local/lib/cvpdf"
#endif
#define MODULE "cvpdf-woff2.so"

typedef bool (*encode_fn)(const unsigned char *, size_t, int, unsigned char **, size_t *);

/* Why the module is not there (empty while it is). */
static char missing[PATH_MAX + 512];

static encode_fn open_at(const char *dir)
{
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/" MODULE, dir) >= sizeof path ||
        access(path, F_OK) != 0)
        return NULL;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    encode_fn f = NULL;
    if (h) {
        *(void **)&f = dlsym(h, "cv_woff2_shim_encode");
        if (f)
            return f;              /* the module stays open for the process */
    }
    if (!missing[0] && h)
        snprintf(missing, sizeof missing, "%s is not a cvpdf WOFF2 module (build it with "
                 "make, or install cvpdf with make install)", path);
    else if (!missing[0]) {
        const char *e = dlerror();
        snprintf(missing, sizeof missing,
                 "cannot open the WOFF2 module %s: %s (it needs libwoff2: install the Debian "
                 "package libwoff1)", path, e ? e : "unknown error");
    }
    if (h)
        dlclose(h);
    return NULL;
}

/* The shim's function, found once; NULL when there is none (`missing`
 * says why). */
static encode_fn shim(void)
{
#ifdef CV_WOFF2_LINKED
    /* The sanitizer builds link the shim in, as they do the phone shim
     * (phone.c says why). */
    return cv_woff2_shim_encode;
#endif
    static bool tried;
    static encode_fn f;
    if (tried)
        return f;
    tried = true;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        const char *d = dirname(exe);
        static const char *const rel[] = {"%s/build", "%s", "%s/..", "%s/../lib/cvpdf"};
        for (size_t i = 0; !f && i < sizeof rel / sizeof *rel; i++) {
            char dir[PATH_MAX];
            if ((size_t)snprintf(dir, sizeof dir, rel[i], d) < sizeof dir)
                f = open_at(dir);
        }
    }
    if (!f)
        f = open_at(CV_LIBDIR);
    if (f)
        missing[0] = 0;
    else if (!missing[0])
        snprintf(missing, sizeof missing,
                 "cvpdf's WOFF2 module " MODULE " is neither beside the binary nor in "
                 CV_LIBDIR " (build it with make, or install cvpdf with make install; it needs "
                 "the Debian package libwoff1)");
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
    return shim() ? NULL : missing;
}

void cv_woff2_note_module(cv_inputs *in)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        const char *d = dirname(exe);
        static const char *const rel[] = {"%s/build/" MODULE, "%s/" MODULE, "%s/../" MODULE,
                                          "%s/../lib/cvpdf/" MODULE};
        for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
            char path[PATH_MAX];
            if ((size_t)snprintf(path, sizeof path, rel[i], d) < sizeof path)
                cv_inputs_add(in, path, "the WOFF2 module");
        }
    }
    cv_inputs_add(in, CV_LIBDIR "/" MODULE, "the WOFF2 module");
}
