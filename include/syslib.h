/* syslib.h - system libraries opened with dlopen when first needed.
 *
 * A library that only some runs need (json-c for .json profiles, libjpeg
 * for JPEG photos, libbtparse for .bib files, ICU for case mapping beyond
 * ASCII...) is opened the first time it is needed rather than linked:
 * linked, each costs every run its dynamic loading, 0.2 to 2 M
 * instructions.  Its user lists the functions it calls once, in an X
 * macro, and gets typed pointers:
 *
 *     #define JSONC_FUNCTIONS(X) X(json_tokener_new_ex) X(json_object_put)
 *     CV_LIB_DEFINE(jsonc, J, JSONC_FUNCTIONS, "libjson-c.so.5", "libjson-c5");
 *
 *     if (!cv_lib_open(&jsonc)) ... an error naming jsonc.soname and jsonc.package
 *     J.json_object_put(o);
 *
 * A name is taken after macro expansion (ICU's udat_open is udat_open_72).
 * This header needs no other of cvpdf's, so that any module may use it
 * (unicode.c, which nearly every module reads, does). */
#ifndef CV_SYSLIB_H
#define CV_SYSLIB_H

#include <stdbool.h>
#include <stddef.h>

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

/* The static cv_lib `lib` of the functions FUNCTIONS lists, their pointers
 * in the static struct `fns` (see above). */
#define CV_LIB_DEFINE(lib, fns, FUNCTIONS, soname_, package_)                               \
    static struct {                                                                         \
        FUNCTIONS(CV_LIB_POINTER)                                                           \
    } fns;                                                                                  \
    static const char *const lib##_names[] = {FUNCTIONS(CV_LIB_NAME) NULL};                 \
    static cv_lib lib = {.soname = soname_, .package = package_, .names = lib##_names,      \
                         .fn = &fns, .size = sizeof fns}

/* Open `l` and fill its pointers, once; false when it cannot be opened or
 * lacks a function (every later call says the same at once).  The
 * library stays open for the process. */
bool cv_lib_open(cv_lib *l);

#endif
