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
typedef int (*check_fn)(const char *);

/* The module's two functions. */
typedef struct {
    shim_fn format;
    check_fn check;
} module;

/* Why the module is not there, for the message (empty while it is). */
static char missing[PATH_MAX + 512];

static module open_at(const char *dir)
{
    module m = {NULL, NULL};
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/" MODULE, dir) >= sizeof path)
        return m;
    if (access(path, F_OK) != 0)
        return m;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h) {
        *(void **)&m.format = dlsym(h, "cv_phone_shim_format");
        *(void **)&m.check = dlsym(h, "cv_phone_shim_check");
        if (m.format && m.check)
            return m;              /* the module stays open for the process */
    }
    /* There, but it cannot be opened: most likely libphonenumber is not
     * installed.  The first such module found is the one named. */
    if (!missing[0] && h)
        snprintf(missing, sizeof missing, "%s is not a cvpdf phone module (build it with "
                 "make, or install cvpdf with make install)", path);
    else if (!missing[0]) {
        const char *e = dlerror();
        snprintf(missing, sizeof missing,
                 "cannot open the phone module %s: %s (it needs libphonenumber: install the "
                 "Debian package libphonenumber8)", path, e ? e : "unknown error");
    }
    if (h)
        dlclose(h);
    return (module){NULL, NULL};
}

/* The shim, found once: next to the binary (build/ for ./cvpdf, the same
 * directory or the one above for build/san's binaries), ../lib/cvpdf for
 * an installed one, then CV_LIBDIR; NULL when there is none, and then
 * `missing` says why. */
static const module *shim(void)
{
#ifdef CV_PHONE_LINKED
    /* The sanitizer builds link the shim in: LeakSanitizer (GCC 12's, on
     * glibc 2.36) can crash walking the thread-local storage of a library
     * opened with dlopen, and libphonenumber's C++ libraries have some.
     * tests/phone.py tests the release binary's dlopen. */
    static const module linked = {cv_phone_shim_format, cv_phone_shim_check};
    return &linked;
#endif
    static bool tried;
    static module m;
    if (tried)
        return m.format ? &m : NULL;
    tried = true;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        const char *d = dirname(exe);
        static const char *const rel[] = {"%s/build", "%s", "%s/..", "%s/../lib/cvpdf"};
        for (size_t i = 0; !m.format && i < sizeof rel / sizeof *rel; i++) {
            char dir[PATH_MAX];
            if ((size_t)snprintf(dir, sizeof dir, rel[i], d) < sizeof dir)
                m = open_at(dir);
        }
    }
    if (!m.format)
        m = open_at(CV_LIBDIR);
    if (m.format)
        missing[0] = 0;
    else if (!missing[0])
        snprintf(missing, sizeof missing,
                 "cvpdf's phone module " MODULE " is neither beside the binary nor in "
                 CV_LIBDIR " (build it with make, or install cvpdf with make install; it needs "
                 "the Debian package libphonenumber8)");
    return m.format ? &m : NULL;
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
    const module *m = shim();
    char out[128];
    if (!m || !m->format(number, f, out, sizeof out))
        return number;
    return cv_arena_strdup(a, out);
}

const char *cv_phone_missing(void)
{
    return shim() ? NULL : missing;
}

bool cv_phone_valid(const char *number, const char **why)
{
    *why = "";
    const module *m = shim();
    if (!m) {
        *why = missing;
        return false;
    }
    int r = m->check(number);
    *why = r == 1 ? "write it with its country code, like +1 609 555 0100"
                  : "no such number exists in that country's numbering plan";
    return r == 0;
}
