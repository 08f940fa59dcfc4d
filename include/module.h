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

#define CV_MODULE_MAX_SYMS 4

typedef struct cv_module {
    /* Said by the user of the module: */
    const char *file;          /* "cvpdf-phone.so" */
    const char *kind;          /* "phone": "cvpdf's phone module" */
    const char *input;         /* what cv_inputs names it: "the phone module" */
    const char *library;       /* what the module needs: "libphonenumber" */
    const char *package;       /* and Debian's package of it: "libphonenumber8" */
    const char *syms[CV_MODULE_MAX_SYMS + 1];     /* its functions, NULL-terminated */
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

/* ---- System libraries opened when first needed ---------------------------
 *
 * A library that only some runs need (json-c for .json profiles, libjpeg
 * for JPEG photos, libbtparse for .bib files...) is opened with dlopen the
 * first time it is needed rather than linked: linked, each costs every run
 * its dynamic loading, 0.2 to 1.3 M instructions.  Its user lists the
 * functions it calls once, in an X macro, and gets typed pointers:
 *
 *     #define JSONC_FUNCTIONS(X) X(json_tokener_new_ex) X(json_object_put)
 *     static struct { JSONC_FUNCTIONS(CV_LIB_POINTER) } J;
 *     static const char *const jsonc_names[] = {JSONC_FUNCTIONS(CV_LIB_NAME) NULL};
 *     static cv_lib jsonc = {.soname = "libjson-c.so.5", .package = "libjson-c5",
 *                            .names = jsonc_names, .fn = &J, .size = sizeof J};
 *
 *     if (!cv_lib_open(&jsonc)) ... an error naming jsonc.soname and jsonc.package
 *     J.json_object_put(o);
 *
 * A name is taken after macro expansion (ICU's udat_open is udat_open_72). */
#define CV_LIB_POINTER(f) __typeof__(f) *f;
#define CV_LIB_NAME_(f) #f
#define CV_LIB_NAME(f) CV_LIB_NAME_(f),

typedef struct cv_lib {
    const char *soname;        /* what dlopen opens: "libjson-c.so.5" */
    const char *package;       /* Debian's package of it: "libjson-c5" */
    const char *const *names;  /* its functions, NULL-terminated */
    void *fn;                  /* a struct of as many function pointers, in order */
    size_t size;               /* the struct's size */
    int state;                 /* 0 not tried, 1 open, 2 missing */
} cv_lib;

/* Open `l` and fill its pointers, once; false when it cannot be opened or
 * lacks a function (every later call says the same at once).  The
 * library stays open for the process. */
bool cv_lib_open(cv_lib *l);

#endif
