/* module.c - cvpdf's own modules and the system libraries only some runs
 * need, opened when first needed.  See module.h. */
#include "module.h"

#include <dlfcn.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef CV_LIBDIR
#define CV_LIBDIR "/usr/local/lib/cvpdf"
#endif

/* The module in `dir`, if it is there: true with m->fn filled.  One that
 * is there but cannot be opened (most likely its library is not
 * installed) is said in m->missing, the first such found. */
static bool open_at(cv_module *m, const char *dir)
{
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, m->file) >= sizeof path ||
        access(path, F_OK) != 0)
        return false;
    void *h = dlopen(path, (m->lazy ? RTLD_LAZY : RTLD_NOW) | RTLD_LOCAL);
    bool all = h != NULL;
    for (size_t i = 0; all && m->syms[i]; i++)
        all = (m->fn[i] = dlsym(h, m->syms[i])) != NULL;
    if (all)
        return true;
    if (!m->missing[0] && h)
        snprintf(m->missing, sizeof m->missing, "%s is not a cvpdf %s module (build it with "
                 "make, or install cvpdf with make install)", path, m->kind);
    else if (!m->missing[0]) {
        const char *e = dlerror();
        snprintf(m->missing, sizeof m->missing,
                 "cannot open the %s module %s: %s (it needs %s: install the Debian package "
                 "%s)", m->kind, path, e ? e : "unknown error", m->library, m->package);
    }
    if (h)
        dlclose(h);
    memset(m->fn, 0, sizeof m->fn);
    return false;
}

/* The directories a module may be in, beside the binary at `d`. */
static const char *const beside[] = {"%s/build", "%s", "%s/..", "%s/../lib/cvpdf"};

bool cv_module_open(cv_module *m)
{
    if (m->tried)
        return m->fn[0] != NULL;
    m->tried = true;
    bool ok = false;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        const char *d = dirname(exe);
        for (size_t i = 0; !ok && i < sizeof beside / sizeof *beside; i++) {
            char dir[PATH_MAX];
            if ((size_t)snprintf(dir, sizeof dir, beside[i], d) < sizeof dir)
                ok = open_at(m, dir);
        }
    }
    if (!ok)
        ok = open_at(m, CV_LIBDIR);
    if (ok)
        m->missing[0] = 0;
    else if (!m->missing[0])
        snprintf(m->missing, sizeof m->missing,
                 "cvpdf's %s module %s is neither beside the binary nor in " CV_LIBDIR
                 " (build it with make, or install cvpdf with make install; it needs the "
                 "Debian package %s)", m->kind, m->file, m->package);
    return ok;
}

void cv_module_note(const cv_module *m, cv_inputs *in)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        const char *d = dirname(exe);
        for (size_t i = 0; i < sizeof beside / sizeof *beside; i++) {
            char dir[PATH_MAX], path[PATH_MAX];
            if ((size_t)snprintf(dir, sizeof dir, beside[i], d) < sizeof dir &&
                (size_t)snprintf(path, sizeof path, "%s/%s", dir, m->file) < sizeof path)
                cv_inputs_add_installed(in, path, m->input);
        }
    }
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", CV_LIBDIR, m->file) < sizeof path)
        cv_inputs_add_installed(in, path, m->input);
}
