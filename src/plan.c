/* plan.c - where each PDF goes (plan.h). */
#include "plan.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>

#include "error.h"
#include "output.h"

/* A line through the sink's escaping (names may hold any byte). */
#define SAY(diag, file, ...) cv_diag_say(&(cv_diag){(diag), false, false}, (cv_pos){(file), 0, 0}, \
                                         "error", __VA_ARGS__)

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *cv_plan_stem(cv_arena *a, const char *path)
{
    if (!strcmp(path, "-"))
        return "stdin";
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    return cv_arena_strndup(a, b, dot && dot != b ? (size_t)(dot - b) : strlen(b));
}

/* Make the output directory (and nothing above it) once every check has
 * passed; another run making it at the same moment is fine. */
static int make_dir(const char *dir, FILE *diag)
{
    /* Its missing parents first, as mkdir -p makes them (-o out/2024/). */
    char path[4096];
    size_t len = strlen(dir);
    if (len < sizeof path) {
        memcpy(path, dir, len + 1);
        for (size_t i = 1; i < len; i++)
            if (path[i] == '/' && path[i - 1] != '/') {
                path[i] = 0;
                (void)mkdir(path, 0777);        /* an error shows at the last */
                path[i] = '/';
            }
    }
    if (mkdir(dir, 0777) == 0 || errno == EEXIST) {
        struct stat st;
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
            return 0;
        SAY(diag, dir, "cannot create directory '%s': %s", dir,
            strerror(errno == EEXIST ? ENOTDIR : errno));
        return 1;
    }
    SAY(diag, dir, "cannot create directory '%s': %s", dir, strerror(errno));
    return 1;
}

/* A name that is no regular file to replace: "-", a device, a FIFO, a
 * socket, or what lives under /dev and /proc (/dev/stdout, /dev/fd/3). */
static bool is_stream(const char *p)
{
    struct stat st;
    return !strcmp(p, "-") || !strncmp(p, "/dev/", 5) || !strncmp(p, "/proc/", 6) ||
           (stat(p, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode));
}

/* The format of the run's outputs: the extension of -o FILE (or --merge
 * FILE), else --format, else a PDF.  Returns 0 or 2 after a usage error. */
static int choose_format(const cv_options *o, bool out_is_dir, cv_format *f, FILE *diag)
{
    const char *opt = o->merge ? "--merge" : "-o";
    const char *name = o->merge ? o->merge : out_is_dir ? NULL : o->output;
    char shown[512];
    *f = o->format != CV_FORMAT_NONE ? o->format : CV_FORMAT_PDF;
    cv_format by_name = name ? cv_format_of(name) : CV_FORMAT_NONE;
    if (o->merge && (*f == CV_FORMAT_HTML || *f == CV_FORMAT_MD || by_name == CV_FORMAT_HTML ||
                     by_name == CV_FORMAT_MD)) {
        fprintf(diag, "cvpdf: --merge makes one PDF (or PNG or SVG pages) of every profile; "
                "%s is a file per profile: use -o DIR/ instead\nTry 'cvpdf --help'.\n",
                *f == CV_FORMAT_MD || by_name == CV_FORMAT_MD ? "Markdown" : "HTML");
        return 2;
    }
    if (!name)
        return 0;
    cv_escape(name, shown, sizeof shown);
    if (is_stream(name) && (by_name == CV_FORMAT_PNG || by_name == CV_FORMAT_SVG)) {
        fprintf(diag, "cvpdf: %s %s: a device, FIFO or socket named like %s pages; %s pages "
                "are files of their own, never written into one\nTry 'cvpdf --help'.\n",
                opt, shown, by_name == CV_FORMAT_PNG ? "PNG" : "SVG",
                by_name == CV_FORMAT_PNG ? "PNG" : "SVG");
        return 2;
    }
    if (is_stream(name)) {
        /* A PDF, an HTML page or a Markdown file is one stream. */
        if (*f == CV_FORMAT_PDF || *f == CV_FORMAT_HTML || *f == CV_FORMAT_MD)
            return 0;
        fprintf(diag, "cvpdf: %s %s: %s pages are files of their own; give a file name "
                "ending in .%s, or a directory\nTry 'cvpdf --help'.\n", opt, shown,
                *f == CV_FORMAT_PNG ? "PNG" : "SVG", cv_format_ext(*f));
        return 2;
    }
    size_t nl = strlen(name);
    if (by_name == CV_FORMAT_NONE && o->merge && (is_dir(name) || name[nl - 1] == '/')) {
        fprintf(diag, "cvpdf: --merge %s: a directory; --merge writes one file, the CV book "
                "of every profile: name it, as in --merge %s%sbook.pdf\nTry 'cvpdf --help'.\n",
                shown, shown, name[nl - 1] == '/' ? "" : "/");
        return 2;
    }
    if (by_name == CV_FORMAT_NONE) {
        SAY(diag, name, "the name's extension says what to write: .pdf, .png (a PNG per "
            "page), %s.svg (an SVG per page)%s", o->merge ? "or " : "", o->merge ? ""
            : ", .html (a web page) or .md (Markdown); a directory ends with /");
        return 2;
    }
    if (o->format != CV_FORMAT_NONE && o->format != by_name) {
        fprintf(diag, "cvpdf: --format %s does not agree with %s %s\nTry 'cvpdf --help'.\n",
                cv_format_ext(o->format), opt, shown);
        return 2;
    }
    *f = by_name;
    return 0;
}

/* How much of the profile's path names its directory ("sub/" of
 * "sub/me.yaml"; none for "me.yaml" and "-"). */
static int beside(const char *prof)
{
    const char *slash = strrchr(prof, '/');
    return slash ? (int)(slash - prof + 1) : 0;
}

/* Where writing `path` lands (output.h's cv_out_landing()), in the arena. */
static const char *landing(cv_arena *a, const char *path)
{
    char *l = cv_out_landing(path);
    const char *r = l ? cv_arena_strdup(a, l) : NULL;
    free(l);
    return r;
}

/* Are outputs a and b (landing where la and lb say) one file?  Two hard
 * links are not: each name is replaced by a file of its own. */
static bool same_output(const char *a, const char *b, const char *la, const char *lb)
{
    return !strcmp(a, b) || (la && lb && !strcmp(la, lb));
}

/* One path per profile: -o FILE, or DIR/<stem>.pdf, or <stem>.pdf beside
 * the profile.
 * Two profiles for one path are refused.  With --merge nothing of this is
 * written: the book is the one output. */
static int name_outputs(cv_arena *a, const cv_options *o, cv_plan *p, bool *mkdir_out,
                        FILE *diag)
{
    const char *output = o->site ? o->site : o->output;    /* --site DIR: DIR/NAME.pdf */
    size_t olen = output ? strlen(output) : 0;
    bool slash = olen > 0 && output[olen - 1] == '/';
    bool out_is_dir = output && (o->site || slash || is_dir(output));
    /* -o cv.html where cv.html is a directory: a file was meant, or the
     * directory?  Asked, not guessed (a PDF written into it, named after
     * the profile, surprised). */
    if (output && !o->site && !slash && out_is_dir && !o->dump &&
        cv_format_of(output) != CV_FORMAT_NONE) {
        char shown[512];
        cv_escape(output, shown, sizeof shown);
        fprintf(diag, "cvpdf: -o %s: a directory, named like a file; to write into it, "
                "say -o %s/\nTry 'cvpdf --help'.\n", shown, shown);
        return 2;
    }
    if (output && !out_is_dir && o->nprofiles > 1 && !o->dump) {
        char shown[512];
        fprintf(diag, "cvpdf: -o %s names one file but %d profiles were given; "
                "use -o DIR/\n", cv_escape(output, shown, sizeof shown), o->nprofiles);
        return 2;
    }
    /* Named by --format; -o FILE keeps its own name (choose_format()). */
    const char *ext = cv_format_ext(o->format != CV_FORMAT_NONE ? o->format : CV_FORMAT_PDF);
    *mkdir_out = out_is_dir && !o->dump && !o->merge && !is_dir(output);
    p->n = o->nprofiles;
    p->outs = cv_arena_alloc(a, (size_t)p->n * sizeof *p->outs);
    const char **lands = cv_arena_alloc(a, (size_t)p->n * sizeof *lands);
    for (int i = 0; i < p->n; i++) {
        const char *prof = o->profiles[i];
        if (output && !out_is_dir)
            p->outs[i] = output;
        else if (output)
            p->outs[i] = cv_arena_printf(a, "%s%s%s.%s", output, slash ? "" : "/",
                                         cv_plan_stem(a, prof), ext);
        else            /* beside the profile, as Typst does: sub/me.yaml -> sub/me.pdf */
            p->outs[i] = cv_arena_printf(a, "%.*s%s.%s", beside(prof), prof,
                                         cv_plan_stem(a, prof), ext);
        lands[i] = o->dump || o->merge || p->n == 1 ? NULL : landing(a, p->outs[i]);
        for (int j = 0; j < i && !o->dump && !o->merge; j++)
            if (!strcmp(p->outs[i], p->outs[j])) {
                SAY(diag, "cvpdf", "%s and %s would both be written to %s; give one of them "
                    "another name, or use --merge", o->profiles[j], prof, p->outs[i]);
                return 1;
            } else if (same_output(p->outs[i], p->outs[j], lands[i], lands[j])) {
                SAY(diag, "cvpdf", "%s and %s would both be written to one file: %s and %s "
                    "are the same file (a link, or another name for it); give one of them "
                    "another name, or use --merge", o->profiles[j], prof, p->outs[j],
                    p->outs[i]);
                return 1;
            }
    }
    return 0;
}

/* A PDF must not overwrite an input: the files named on the command line,
 * by device and inode (output.h's cv_inputs, which cv_out checks again
 * with every file the run reads). */
static int refuse_inputs(const cv_options *o, const cv_plan *p, FILE *diag)
{
    cv_inputs *in = cv_inputs_new();
    cv_inputs_add(in, o->layout, "the layout");
    cv_inputs_add(in, o->defaults, "the defaults");
    for (int j = 0; j < o->nprofiles; j++)
        cv_inputs_add(in, o->profiles[j], "a profile");
    int status = 0;
    for (int i = o->merge ? p->n : 0; i < p->n + 1 && !status; i++) {
        const char *out = i < p->n ? p->outs[i] : o->merge;
        const char *what = out ? cv_inputs_find(in, out) : NULL;
        if (what) {
            SAY(diag, out, "this is an input (%s); it will not be overwritten with a PDF", what);
            status = 2;
        }
    }
    cv_inputs_free(in);
    return status;
}

/* The output among p's one of whose pages (OUT-N.EXT) is `name`
 * ("dir/x-2.png" for "dir/x.png"), or NULL. */
static const char *page_of(const cv_plan *p, const char *name)
{
    const char *dot = strrchr(name, '.'), *q = dot;
    if (!dot)
        return NULL;
    while (q > name && q[-1] >= '0' && q[-1] <= '9')
        q--;
    if (q == dot || q == name || q[-1] != '-')
        return NULL;
    size_t stem = (size_t)(q - 1 - name);
    for (int i = 0; i < p->n; i++) {
        const char *out = p->outs[i], *odot = strrchr(out, '.');
        if (odot && !strchr(odot, '/') && (size_t)(odot - out) == stem &&
            !strncmp(out, name, stem) && !strcasecmp(odot, dot))
            return out;
    }
    return NULL;
}

/* The directory part of `path` (".": none), in `a`. */
static const char *dir_part(cv_arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    return !slash ? "." : slash == path ? "/" : cv_arena_strndup(a, path, (size_t)(slash - path));
}

/* PNG and SVG pages: every existing file named like a page of an output
 * (OUT-N.png) that is an input, or no regular file (a FIFO would block the
 * run, a device would be written into), is refused now. */
static int check_pages(cv_arena *a, const cv_plan *p, const cv_inputs *in, FILE *diag)
{
    const char **seen = cv_arena_alloc(a, ((size_t)p->n + 1) * sizeof *seen);
    size_t nseen = 0;
    int status = 0;
    for (int i = 0; i < p->n && !status; i++) {
        const char *dir = dir_part(a, p->outs[i]);
        bool again = false;
        for (size_t k = 0; k < nseen && !again; k++)
            again = !strcmp(seen[k], dir);
        if (again)
            continue;
        seen[nseen++] = dir;
        bool here = !strchr(p->outs[i], '/');
        DIR *d = opendir(dir);
        for (struct dirent *e; d && !status && (e = readdir(d));) {
            const char *ext = strrchr(e->d_name, '.');
            if (!ext || (strcasecmp(ext, ".png") && strcasecmp(ext, ".svg")))
                continue;
            const char *name = here ? cv_arena_strdup(a, e->d_name)
                                    : cv_arena_printf(a, "%s/%s", !strcmp(dir, "/") ? "" : dir,
                                                      e->d_name);
            struct stat st;
            if (stat(name, &st) != 0)
                continue;
            const char *what = cv_inputs_find(in, name);
            if (!what && S_ISREG(st.st_mode))
                continue;
            const char *out = page_of(p, name);
            if (!out)
                continue;
            if (what)
                SAY(diag, name, "this is an input (%s), and a page of %s would be written "
                    "over it; give the output another name", what, out);
            else
                SAY(diag, name, "this is %s named like a page of %s; pages are files of "
                    "their own, never written into one: remove it or give the output "
                    "another name", S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode)
                    ? "a directory" : "a device or socket", out);
            status = 2;
        }
        if (d)
            closedir(d);
    }
    return status;
}

int cv_plan_check(cv_arena *a, const cv_options *o, const cv_plan *p, const cv_inputs *in,
                  FILE *diag)
{
    if (o->dump)
        return 0;
    for (int i = o->merge ? p->n : 0; i < p->n + 1; i++) {
        const char *out = i < p->n ? p->outs[i] : o->merge;
        const char *what = out ? cv_inputs_find(in, out) : NULL;
        if (what) {
            SAY(diag, out, "this is an input (%s); it will not be overwritten", what);
            return 2;
        }
    }
    if (p->format != CV_FORMAT_PNG && p->format != CV_FORMAT_SVG)
        return 0;
    if (o->merge) {
        cv_plan one = {.format = p->format, .n = 1, .outs = (const char *[]){o->merge}};
        return check_pages(a, &one, in, diag);
    }
    return check_pages(a, p, in, diag);
}

int cv_plan_make(cv_arena *a, const cv_options *o, cv_plan *p, FILE *diag)
{
    *p = (cv_plan){.format = CV_FORMAT_PDF};
    bool mkdir_out = false;
    int status = name_outputs(a, o, p, &mkdir_out, diag);
    /* An output that is an input first: `-o p.yaml` is that, not a format. */
    if (status == 0 && !o->dump)
        status = refuse_inputs(o, p, diag);
    if (status == 0 && !o->dump) {
        const char *output = o->output;
        size_t olen = output ? strlen(output) : 0;
        bool out_is_dir = output && ((olen && output[olen - 1] == '/') || is_dir(output));
        status = choose_format(o, out_is_dir, &p->format, diag);
    }
    /* --fit-pages shrinks a résumé to N pages; a web page or Markdown has
     * none, and would be written as if it had fitted.  (--site fits its
     * PDFs.) */
    if (status == 0 && !o->dump && !o->site && o->fit_pages > 0 &&
        (p->format == CV_FORMAT_HTML || p->format == CV_FORMAT_MD)) {
        fprintf(diag, "cvpdf: --fit-pages fits PDF, PNG or SVG pages; %s has no pages to fit\n"
                "Try 'cvpdf --help'.\n",
                p->format == CV_FORMAT_HTML ? "an HTML page" : "Markdown");
        status = 2;
    }
    /* --pdfa and --pdfua make the PDF a PDF/A or PDF/UA file; a page, a
     * picture or Markdown is none, and would be written as if it were.
     * (--site's PDFs take them.) */
    if (status == 0 && !o->dump && !o->site && (o->pdfa || o->pdfua) &&
        p->format != CV_FORMAT_PDF) {
        static const char *const what[] = {[CV_FORMAT_PNG] = "PNG pages",
                                           [CV_FORMAT_SVG] = "SVG pages",
                                           [CV_FORMAT_HTML] = "an HTML page",
                                           [CV_FORMAT_MD] = "Markdown"};
        const char *w = (size_t)p->format < sizeof what / sizeof *what && what[p->format]
                            ? what[p->format]
                            : "not a PDF";
        fprintf(diag, "cvpdf: %s writes a PDF; the output is %s\nTry 'cvpdf --help'.\n",
                o->pdfa ? "--pdfa" : "--pdfua", w);
        status = 2;
    }
    /* --dpi is the resolution of PNG pages; a PDF, an SVG, a web page or
     * Markdown has none, and would be written as if it had been heeded. */
    if (status == 0 && !o->dump && o->dpi_given && (o->site || p->format != CV_FORMAT_PNG)) {
        fprintf(diag, "cvpdf: --dpi sets the resolution of PNG pages; the output is %s\n"
                "Try 'cvpdf --help'.\n", o->site ? "a website of PDFs and HTML pages"
                : p->format == CV_FORMAT_SVG ? "SVG pages (vector graphics, which have no resolution)"
                : p->format == CV_FORMAT_HTML ? "an HTML page"
                : p->format == CV_FORMAT_MD ? "Markdown" : "a PDF");
        status = 2;
    }
    if (status == 0 && mkdir_out)
        status = make_dir(o->site ? o->site : o->output, diag);
    return status;
}
