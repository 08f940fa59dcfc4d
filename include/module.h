/* module.h - what is opened with dlopen when first needed: cvpdf's own
 * modules, and the system libraries only some runs need (below).
 *
 * cvpdf's own modules are the C++ shims (phone_shim.cc for
 * libphonenumber, woff2_shim.cc for libwoff2), each built as a shared
 * object, build/cvpdf-NAME.so, installed in PREFIX/lib/cvpdf (CV_LIBDIR),
 * and opened with dlopen the first time it is needed, so that the C++
 * libraries behind it cost nothing to a run that does not use them.
 *
 * A module is looked for beside the binary (build/ for ./cvpdf, the same
 * directory or the one above for build/san's binaries), in ../lib/cvpdf
 * for an installed binary, then in CV_LIBDIR.  Every one of those paths is
 * an input of the run (output.h): no output may replace a module. */
#ifndef CV_MODULE_H
#define CV_MODULE_H

#include <limits.h>
#include <stdbool.h>

#include "output.h"
#include "syslib.h"

#define CV_MODULE_MAX_SYMS 4

typedef struct cv_module {
    /* Said by the user of the module: */
    const char *file;          /* "cvpdf-phone.so" */
    const char *kind;          /* "phone": "cvpdf's phone module" */
    const char *input;         /* what cv_inputs names it: "the phone module" */
    const char *library;       /* what the module needs: "libphonenumber" */
    const char *package;       /* and Debian's package of it: "libphonenumber8" */
    const char *syms[CV_MODULE_MAX_SYMS + 1];     /* its functions, NULL-terminated */
    bool lazy;                 /* bind its calls when first made (RTLD_LAZY), not at
                                  dlopen: for a module over a large C++ library of
                                  which it calls little (the symbol versions it needs
                                  are still checked at dlopen) */
    /* Found by cv_module_open(): */
    bool tried;
    void *fn[CV_MODULE_MAX_SYMS];                  /* syms' addresses, in order */
    char missing[PATH_MAX + 512];                  /* why not, naming what to install */
} cv_module;

/* Open `m` and find its functions, once; false (m->missing says why) when
 * it is nowhere or cannot be opened.  The module stays open for the
 * process. */
bool cv_module_open(cv_module *m);

/* Note every path `m` may be opened from as an input of the run. */
void cv_module_note(const cv_module *m, cv_inputs *in);

/* System libraries opened when first needed: syslib.h's cv_lib. */

#endif
