/* phone.c - phone numbers in RenderCV's formats.  See phone.h.
 *
 * libphonenumber is C++ and brings protobuf, Abseil and ICU's C++ side
 * with it: linked into cvpdf, loading them would cost every run a couple
 * of milliseconds, phone numbers or none.  So the shim (phone_shim.cc) is
 * a module of its own, cvpdf-phone.so, opened the first time a number is
 * formatted: beside the binary in the source tree (build/), or in
 * PREFIX/lib/cvpdf once installed (module.h). */
#include "phone.h"

#include <string.h>

#include "module.h"
#include "phone_shim.h"

typedef bool (*shim_fn)(const char *, int, char *, size_t);
typedef int (*check_fn)(const char *);

/* The module's two functions. */
typedef struct {
    shim_fn format;
    check_fn check;
} module;

static cv_module M = {
    .file = "cvpdf-phone.so", .kind = "phone", .input = "the phone module",
    .library = "libphonenumber", .package = "libphonenumber8",
    .syms = {"cv_phone_shim_format", "cv_phone_shim_check", NULL}, .lazy = true};

/* The shim, found once (module.h); NULL when there is none, and then
 * M.missing says why. */
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
    static module m;
    if (!m.format && cv_module_open(&M)) {
        *(void **)&m.format = M.fn[0];
        *(void **)&m.check = M.fn[1];
    }
    return m.format ? &m : NULL;
}

void cv_phone_note_module(cv_inputs *in)
{
    cv_module_note(&M, in);
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
    return shim() ? NULL : M.missing;
}

bool cv_phone_valid(const char *number, const char **why)
{
    *why = "";
    const module *m = shim();
    if (!m) {
        *why = M.missing;
        return false;
    }
    int r = m->check(number);
    *why = r == 1 ? "write it with its country code, like +1 609 555 0100"
                  : "no such number exists in that country's numbering plan";
    return r == 0;
}
