/* phone.c - phone numbers in RenderCV's formats.  See phone.h.
 *
 * libphonenumber is C++ and brings protobuf, Abseil and ICU's C++ side
 * with it: linked into cvpdf, loading them would cost every run a couple
 * of milliseconds, phone numbers or none.  So the shim (phone_shim.cc) is
 * a module of its own, cvpdf-phone.so, opened the first time a number is
 * formatted: beside the binary in the source tree (build/), or in
 * PREFIX/lib/cvpdf once installed (CV_LIBDIR). */
#include "phone.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "phone_shim.h"

#ifndef CV_LIBDIR
#define CV_LIBDIR "/usr/local/lib/cvpdf"
#endif
#define MODULE "cvpdf-phone.so"

typedef bool (*shim_fn)(const char *, int, char *, size_t);

static shim_fn open_at(const char *dir)
{
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/" MODULE, dir) >= sizeof path)
        return NULL;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return NULL;
    shim_fn f;
    *(void **)&f = dlsym(h, "cv_phone_shim_format");
    if (!f)
        dlclose(h);
    return f;                      /* the module stays open for the process */
}

/* The shim, found once: next to the binary (build/ for ./cvpdf, the same
 * directory or the one above for build/san's binaries), ../lib/cvpdf for
 * an installed one, then CV_LIBDIR; NULL when there is none. */
static shim_fn shim(void)
{
    static bool tried;
    static shim_fn fn;
    if (tried)
        return fn;
    tried = true;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        const char *d = dirname(exe);
        static const char *const rel[] = {"%s/build", "%s", "%s/..", "%s/../lib/cvpdf"};
        for (size_t i = 0; !fn && i < sizeof rel / sizeof *rel; i++) {
            char dir[PATH_MAX];
            if ((size_t)snprintf(dir, sizeof dir, rel[i], d) < sizeof dir)
                fn = open_at(dir);
        }
    }
    if (!fn)
        fn = open_at(CV_LIBDIR);
    return fn;
}

bool cv_phone_available(void)
{
    return shim() != NULL;
}

const char *cv_phone_format(cv_arena *a, const char *number, const char *format)
{
    if (!number || !format)
        return number;
    int f = !strcmp(format, "national") ? CV_PHONE_NATIONAL
          : !strcmp(format, "international") ? CV_PHONE_INTERNATIONAL
          : !strcmp(format, "E164") ? CV_PHONE_E164 : -1;
    if (f < 0)
        return number;
    shim_fn fn = shim();
    char out[128];
    if (!fn || !fn(number, f, out, sizeof out))
        return number;
    return cv_arena_strdup(a, out);
}
