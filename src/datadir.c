/* datadir.c - where cvpdf's data lives, and the shipped layouts by name.
 * See datadir.h. */
#include "datadir.h"

#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "yml.h"

bool cv_datadir_ok(cv_arena *a, const char *dir)
{
    return access(cv_arena_printf(a, "%s/layouts/onecolumn.yaml", dir), R_OK) == 0;
}

const char *cv_datadir(cv_arena *a)
{
    static const char *const sub[] = {"", "/share/cvpdf"};
    const char *env = getenv("CVPDF_DATADIR");
    if (env && *env)
        return cv_arena_strdup(a, env);
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return CV_DATADIR;
    exe[n] = 0;
    char *d = dirname(exe);
    for (int up = 0; up < 3; up++, d = dirname(d))
        for (int k = 0; k < 2; k++) {
            char *dir = cv_arena_printf(a, "%s%s", strcmp(d, "/") ? d : "", sub[k]);
            if (*dir && cv_datadir_ok(a, dir))
                return dir;
        }
    return CV_DATADIR;
}

/* Every regular file under `dir` (a few levels deep, a bounded number) as
 * an input; a FIFO or device there is never opened. */
static void note_tree(cv_inputs *in, const char *dir, int depth, int *budget)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) && *budget > 0;) {
        if (e->d_name[0] == '.')
            continue;
        char path[PATH_MAX];
        struct stat st;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path ||
            stat(path, &st) != 0)
            continue;
        if (S_ISREG(st.st_mode)) {
            cv_inputs_add_installed(in, path, "a file of the data directory");
            --*budget;
        } else if (S_ISDIR(st.st_mode) && depth < 3) {
            note_tree(in, path, depth + 1, budget);
        }
    }
    if (d)
        closedir(d);
}

void cv_datadir_note(cv_arena *a, cv_inputs *in)
{
    static const char *const parts[] = {"fonts", "layouts", "locales", "schema"};
    const char *dir = cv_datadir(a);
    int budget = 20000;
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
        note_tree(in, cv_arena_printf(a, "%s/%s", dir, parts[i]), 0, &budget);
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

bool cv_layout_is_name(const char *s)
{
    return *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..") &&
           !has_suffix(s, ".yaml") && !has_suffix(s, ".yml");
}

const char *cv_layout_shipped(cv_arena *a, const char *name)
{
    return cv_arena_printf(a, "%s/layouts/%s.yaml", cv_datadir(a), name);
}

const char *cv_layout_find(cv_arena *a, const char *name, const char **why)
{
    *why = NULL;
    if (!cv_layout_is_name(name))
        return NULL;
    const char *shipped = cv_layout_shipped(a, name);
    if (access(shipped, F_OK) == 0)
        return shipped;
    *why = cv_layout_missing(a, name);
    return NULL;
}

const char *cv_layout_arg(cv_arena *a, const char *arg)
{
    struct stat sb;
    if (!cv_layout_is_name(arg) || stat(arg, &sb) == 0)
        return arg;
    return cv_layout_shipped(a, arg);
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

const char **cv_layout_names(cv_arena *a)
{
    size_t n = 0, cap = 0;
    const char **names = NULL;
    DIR *d = opendir(cv_arena_printf(a, "%s/layouts", cv_datadir(a)));
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.' || !has_suffix(e->d_name, ".yaml"))
            continue;
        CV_PUSH(a, names, n, cap, cv_arena_strndup(a, e->d_name, strlen(e->d_name) - 5));
    }
    if (d)
        closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_str);
    CV_PUSH(a, names, n, cap, NULL);
    return names;
}

/* `line` without a leading "NAME — ", "NAME - " or "NAME: ". */
static const char *after_name(const char *line, const char *name)
{
    size_t nl = strlen(name);
    if (!*name || strncmp(line, name, nl))
        return line;
    static const char *const seps[] = {" \xE2\x80\x94 ", " \xE2\x80\x93 ", " - ", ": ", NULL};
    for (size_t i = 0; seps[i]; i++)
        if (!strncmp(line + nl, seps[i], strlen(seps[i])))
            return line + nl + strlen(seps[i]);
    return line;
}

const char *cv_layout_description(cv_arena *a, const char *path)
{
    cv_file f;
    if (!cv_file_read(a, path, 64 * 1024, true, &f))
        return "";
    /* The layout's name, from its file name. */
    char *base = basename(cv_arena_strdup(a, path));
    char *dot = strrchr(base, '.');
    if (dot)
        *dot = 0;
    /* The first paragraph of comment lines, joined, up to its first
     * sentence's end. */
    cv_strbuf b = {0};
    const char *p = f.data, *end = f.data + f.len;
    bool started = false;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *line = p;
        p += len + (nl != NULL);
        while (len && (*line == ' ' || *line == '\t'))
            line++, len--;
        if (len && line[len - 1] == '\r')
            len--;
        if (!len && !started)
            continue;
        if (!len || *line != '#')
            break;
        line++, len--;
        while (len && *line == ' ')
            line++, len--;
        if (!len && started)
            break;
        if (!len)
            continue;
        char *text = cv_arena_strndup(a, line, len);
        const char *t = started ? text : after_name(text, base);
        if (started)
            cv_strbuf_put(a, &b, " ", 1);
        cv_strbuf_put(a, &b, t, strlen(t));
        started = true;
        for (const char *q = b.s; q && *q; q++)
            if (*q == '.' && (q[1] == ' ' || !q[1]))
                return cv_arena_strndup(a, b.s, (size_t)(q + 1 - b.s));
    }
    return b.s ? b.s : "";
}

const char *cv_layout_missing(cv_arena *a, const char *name)
{
    const char *dir = cv_datadir(a);
    if (!cv_datadir_ok(a, dir))
        return cv_arena_printf(a, "cvpdf's data directory '%s' has no layouts; set "
                               "CVPDF_DATADIR to the directory that holds fonts/ and "
                               "layouts/ (cvpdf --datadir prints the one in use)", dir);
    const char **names = cv_layout_names(a);
    cv_strbuf b = {0};
    for (size_t i = 0; names[i]; i++) {
        const char *sep = !i ? "" : names[i + 1] ? ", " : " and ";
        cv_strbuf_put(a, &b, sep, strlen(sep));
        cv_strbuf_put(a, &b, names[i], strlen(names[i]));
    }
    const char *close = cv_suggest(name, (const char *const *)names);
    return cv_arena_printf(a, "there is no layout named '%s'%s%s%s: cvpdf ships %s (cvpdf "
                           "--list-layouts); a file of your own is a path, such as "
                           "./%s.yaml", name, close ? " (did you mean '" : "",
                           close ? close : "", close ? "'?)" : "", b.s ? b.s : "none", name);
}

bool cv_layout_list(cv_arena *a, FILE *out, FILE *diag)
{
    const char *dir = cv_datadir(a);
    const char **names = cv_layout_names(a);
    if (!names[0]) {
        fprintf(diag, "cvpdf: no layouts in '%s/layouts'; set CVPDF_DATADIR to the directory "
                "that holds fonts/ and layouts/\n", dir);
        return false;
    }
    size_t w = 0;
    for (size_t i = 0; names[i]; i++)
        w = strlen(names[i]) > w ? strlen(names[i]) : w;
    for (size_t i = 0; names[i]; i++)
        fprintf(out, "%-*s  %s\n", (int)w, names[i],
                cv_layout_description(a, cv_arena_printf(a, "%s/layouts/%s.yaml", dir,
                                                         names[i])));
    return true;
}
