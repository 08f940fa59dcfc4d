/* main.c - the cvpdf command line.
 *
 * The driver reads like the pipeline: load the layout (and --defaults)
 * once, then for each profile: load -> compose -> flow -> draw (PDF or
 * text dump).  Fonts are opened once and shared by every document of the
 * run.
 *
 * A batch (several profiles) renders each profile in its own worker
 * process, forked from the one that loaded the layout and fonts, at most
 * -j at a time: a crash or a hang (past --timeout) costs that profile
 * alone, and what the worker left half-written is removed.  -j 0 renders
 * in this process instead, and --merge renders here into one CV book.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arena.h"
#include "compose.h"
#include "doc.h"
#include "docinfo.h"
#include "engine.h"
#include "draw_dump.h"
#include "draw_hpdf.h"
#include "error.h"
#include "fit.h"
#include "flow.h"
#include "fontset.h"
#include "furniture.h"
#include "photo.h"
#include "style.h"
#include "yml.h"

static const char usage[] =
    "Usage: cvpdf PROFILE... [-l LAYOUT] [-o FILE|DIR/] [--dump[=glyphs]]\n"
    "                        [--fit-pages N] [--explain] [--date DATE]\n"
    "                        [--pdfa] [--defaults FILE] [-j N] [--timeout S]\n"
    "                        [--merge FILE] [--strict] [-q]\n"
    "Typeset résumés: YAML profiles (RenderCV's cv: format) to PDF.\n"
    "\n"
    "  -l, --layout FILE   layout YAML (default: layouts/onecolumn.yaml)\n"
    "  -o, --output PATH   output PDF; with several profiles a directory,\n"
    "                      written as DIR/<profile name>.pdf (default: the\n"
    "                      current directory)\n"
    "      --dump          print the laid-out pages as text instead of a PDF\n"
    "      --dump=glyphs   the same, and after each text line the x position\n"
    "                      of every glyph of it, as drawn in the PDF\n"
    "      --strict        treat every warning as an error: exit 1, no PDF\n"
    "                      written\n"
    "      --fit-pages N   shrink spacing, then type, then margins until the\n"
    "                      résumé fits in N pages (exit 1 when it cannot)\n"
    "      --explain       print every page break and the rule that placed it\n"
    "      --date DATE     the \"last updated\" date (YYYY-MM-DD) for the\n"
    "                      running header or footer; default SOURCE_DATE_EPOCH\n"
    "      --pdfa          write PDF/A-1b (also the layout's pdf: pdfa: true)\n"
    "      --defaults FILE a profile merged under every profile (a lab's\n"
    "                      address, locale:, settings:); the profile wins\n"
    "  -j, --jobs N        render a batch N profiles at a time, each in its own\n"
    "                      process (default: the number of cores; 0: all in\n"
    "                      this process, without isolation)\n"
    "      --timeout S     give up on a profile of a batch after S seconds\n"
    "                      (default 10; 0: never)\n"
    "      --merge FILE    write every profile into one PDF, in the order given,\n"
    "                      with a bookmark per person (instead of one PDF each)\n"
    "  -q, --quiet         no warnings or notes, errors only\n"
    "  -h, --help          show this help\n"
    "  -V, --version       show the version\n"
    "\n"
    "The PDF's creation date is SOURCE_DATE_EPOCH when set; otherwise it has\n"
    "none, and the same input always gives the same bytes.\n"
    "\n"
    "Exit status: 0 all rendered, 1 an input failed, 2 usage error.\n";

/* The directory holding fonts/ and layouts/: next to the executable or up
 * to two levels above it (a build tree), or share/cvpdf there (an install,
 * wherever it was moved), else the data dir compiled in. */
static const char *data_dir(void)
{
    static char dir[PATH_MAX];
    const char *env = getenv("CVPDF_DATADIR");
    if (env && *env)
        return env;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *d = dirname(exe);
        for (int up = 0; up < 3; up++) {
            static const char *const sub[] = {"", "/share/cvpdf"};
            for (int k = 0; k < 2; k++) {
                char probe[PATH_MAX + 48];
                snprintf(probe, sizeof probe, "%s%s/layouts/onecolumn.yaml", d, sub[k]);
                if (access(probe, R_OK) == 0) {
                    snprintf(dir, sizeof dir, "%s%s", d, sub[k]);
                    return dir;
                }
            }
            d = dirname(d);
        }
    }
    return CV_DATADIR;
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "profiles/he.yaml" -> "he" */
static char *stem(cv_arena *a, const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    return cv_arena_strndup(a, b, dot && dot != b ? (size_t)(dot - b) : strlen(b));
}

typedef struct options {
    int dump;               /* 0 PDF, 1 --dump, 2 --dump=glyphs */
    bool quiet, strict, explain, pdfa;
    bool has_epoch;         /* SOURCE_DATE_EPOCH */
    long long epoch;
    long fit_pages;         /* -1: the layout's fit_pages */
    const char *date;       /* "last updated", or NULL */
    const cv_yml *defaults; /* --defaults, or NULL */
    long jobs;              /* worker processes; 0: in this process */
    double timeout;         /* seconds per profile of a batch; 0: none */
    const char *merge;      /* --merge FILE */
    bool progress;          /* a line per finished profile (a terminal) */
} options;

static void explain(const char *profile, const cv_display *d, const cv_composed *c,
                    const cv_flowlog *log)
{
    static const char *const cols[] = {"main column", "sidebar"};
    printf("%s: %zu page%s\n", profile, d->npages, d->npages == 1 ? "" : "s");
    for (size_t i = 0; i < log->nbreaks; i++) {
        const cv_break *b = &log->breaks[i];
        printf("  page %zu%s%s: starts with %s: %s\n", b->page + 1, c->ncols > 1 ? ", " : "",
               c->ncols > 1 ? cols[b->col] : "", c->col[b->col].items[b->item].what,
               b->reason);
    }
    for (size_t i = 0; i < log->nnotes; i++)
        printf("  note: %s\n", log->notes[i]);
}

/* Load, fit, compose, paginate and furnish one profile in `a`.  Returns
 * its pages, or NULL with err set (a warning under --strict counts). */
static cv_display *lay_out(cv_arena *a, const char *profile, const options *o,
                           const cv_style *st, cv_error *err)
{
    /* A stage may succeed with err set: a warning under --strict.  Nothing
     * is drawn or written then. */
    cv_doc *doc = cv_doc_load_with(a, profile, o->defaults, err);
    const cv_image *photo = doc && !err->set ? cv_photo_load(a, doc, st, err) : NULL;
    cv_composed c;
    cv_style fitted;
    long pages = o->fit_pages >= 0 ? o->fit_pages : (long)st->fit_pages;
    if (doc && !err->set && pages > 0) {
        const char *what;
        if (cv_fit(a, doc, st, photo, (size_t)pages, &fitted, &what, err)) {
            if (what && !o->quiet)
                fprintf(stderr, "%s: note: fitted to %ld page%s: %s\n", profile, pages,
                        pages == 1 ? "" : "s", what);
            st = &fitted;
        }
    }
    cv_flowlog log = {0};
    if (!doc || err->set || !cv_compose(a, doc, st, photo, &c, err) || err->set)
        return NULL;
    cv_display *d = cv_flow(a, &c, st, o->explain ? &log : NULL);
    if (o->explain)
        explain(profile, d, &c, &log);
    /* "Last updated": --date, the profile's settings.current_date, or
     * SOURCE_DATE_EPOCH, so that output never depends on the clock. */
    const char *date = o->date ? o->date : doc->current_date.s;
    char epoch_date[16];
    time_t tt = (time_t)o->epoch;
    struct tm tm;
    if (!date && o->has_epoch && gmtime_r(&tt, &tm) &&
        strftime(epoch_date, sizeof epoch_date, "%Y-%m-%d", &tm))
        date = epoch_date;
    cv_furnish(a, d, doc, st, date, err);
    cv_display_set_info(a, d, doc, st);
    d->pdfa = d->pdfa || o->pdfa;
    d->has_date = o->has_epoch;
    d->epoch = o->epoch;
    return err->set ? NULL : d;
}

static void error_init(cv_error *err, const options *o)
{
    cv_error_init(err);
    err->quiet = o->quiet;
    err->strict = o->strict;
}

/* Render one profile to `out` (or the dump to stdout), in this process. */
static bool render(const char *profile, const char *out, const options *o,
                   const cv_style *st)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    error_init(&err, o);
    bool ok = false;
    cv_display *d = lay_out(a, profile, o, st, &err);
    if (d && o->dump) {
        if (o->dump > 1)
            cv_draw_dump_glyphs(d, st->eng->fonts, stdout);
        else
            cv_draw_dump(d, st->eng->fonts, stdout);
        ok = true;
    } else if (d) {
        ok = cv_draw_pdf(d, st->eng, out, NULL, &err) && !err.set;
    }
    if (!ok)
        cv_error_print(&err);
    cv_arena_free(a);
    return ok;
}

/* --merge: every profile into one PDF.  A profile that fails is reported
 * and left out; the book holds the others.  Two passes, so that only one
 * résumé is in memory at a time: the first lays each out and notes the
 * characters it draws (each face is subset once, for everyone), the second
 * lays it out again and draws it.  Returns the failures. */
static int render_book(char **profiles, int n, const options *o, const cv_style *st)
{
    bool *good = calloc((size_t)n, sizeof *good);
    cv_book *k = cv_book_new(st->eng, true);
    if (!good || !k)
        abort();
    int failed = 0, ngood = 0;
    /* "Résumés: Jiaao He, Shen Li, ...", at most about 1,000 bytes. */
    char title[1100] = "R\xC3\xA9sum\xC3\xA9s: ";
    size_t tl = strlen(title);
    for (int i = 0; i < n; i++) {
        cv_arena *a = cv_arena_new();
        cv_error err;
        error_init(&err, o);
        const cv_display *d = lay_out(a, profiles[i], o, st, &err);
        if (d) {
            cv_book_note(k, d);
            good[i] = true;
            const char *who = d->author ? d->author : "";
            if (tl < 1000 && tl + strlen(who) < 1000)
                tl += (size_t)snprintf(title + tl, sizeof title - tl, "%s%s", ngood ? ", " : "", who);
            else if (tl < 1000)
                tl = 1000 + (size_t)snprintf(title + tl, sizeof title - tl, "%s...",
                                             ngood ? ", " : "");
            ngood++;
        } else {
            cv_error_print(&err);
            failed++;
        }
        if (o->progress)
            fprintf(stderr, "[%d/%d] %s %s\n", i + 1, n, d ? "ok  " : "FAIL", profiles[i]);
        cv_arena_free(a);
    }
    cv_error err;
    error_init(&err, o);
    bool ok = ngood > 0;
    for (int i = 0; ok && i < n; i++) {
        if (!good[i])
            continue;
        cv_arena *a = cv_arena_new();
        cv_error again;
        error_init(&again, o);
        again.quiet = true;             /* its warnings were printed already */
        const cv_display *d = lay_out(a, profiles[i], o, st, &again);
        ok = d && cv_book_add(k, d, &err);
        cv_arena_free(a);
    }
    if (ngood && (!ok || !cv_book_write(k, title, o->merge, NULL, &err))) {
        cv_error_print(&err);
        failed = n;
    } else if (!ngood) {
        fprintf(stderr, "%s: error: nothing to write: no profile rendered\n", o->merge);
    }
    cv_book_free(k);
    free(good);
    return failed;
}

/* ---- Batches: one worker process per profile ---------------------------- */

typedef struct worker {
    pid_t pid;
    int job;
    double start;
} worker;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Remove the temporary file a dead worker may have left beside `out`. */
static void remove_leftovers(const char *out, pid_t pid)
{
    char *copy = strdup(out);
    if (!copy)
        return;
    const char *dir = dirname(copy);
    char prefix[64];
    int np = snprintf(prefix, sizeof prefix, CV_TEMP_PREFIX "%ld-", (long)pid);
    DIR *dp = opendir(dir);
    for (struct dirent *e; dp && (e = readdir(dp));)
        if (!strncmp(e->d_name, prefix, (size_t)np)) {
            char path[PATH_MAX];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (dp)
        closedir(dp);
    free(copy);
}

/* How a worker ended: true when it rendered its profile. */
static bool reap(const worker *w, int status, bool timed_out, char **profiles, char **outs,
                 const options *o)
{
    const char *p = profiles[w->job];
    if (!timed_out && WIFEXITED(status))
        return WEXITSTATUS(status) == 0;
    if (timed_out)
        fprintf(stderr, "%s: error: gave up after %g s (--timeout); nothing written\n", p,
                o->timeout);
    else if (WIFSIGNALED(status))
        fprintf(stderr, "%s: error: cvpdf crashed on this profile (%s); nothing written\n", p,
                strsignal(WTERMSIG(status)));
    if (!o->dump)
        remove_leftovers(outs[w->job], w->pid);
    return false;
}

/* For the tests of batch mode (tests/batch.py): CVPDF_TEST_FAULT=crash:P or
 * hang:P makes the worker for profile P crash or hang, as a bug would. */
static void test_fault(const char *profile)
{
    const char *t = getenv("CVPDF_TEST_FAULT");
    if (!t)
        return;
    if (!strncmp(t, "crash:", 6) && !strcmp(t + 6, profile))
        raise(SIGSEGV);
    if (!strncmp(t, "hang:", 5) && !strcmp(t + 5, profile))
        for (;;)
            pause();
}

/* Render profiles[0..n) in worker processes, o->jobs at a time.  Returns
 * the number that failed. */
static int render_batch(char **profiles, char **outs, int n, const options *o,
                        const cv_style *st)
{
    long nw = o->jobs < 1 ? 1 : o->jobs > n ? n : o->jobs;
    /* Output goes to one stdout: print it one profile after another. */
    if (o->dump || o->explain)
        nw = 1;
    worker *ws = calloc((size_t)nw, sizeof *ws);
    if (!ws)
        abort();
    /* What every document needs and each worker would otherwise make again
     * (hyphenation patterns, each face's shaping analysis), once here. */
    cv_engine_warm(st->eng, st->hyphenate);
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old);
    int next = 0, running = 0, done = 0, failed = 0;
    while (next < n || running) {
        /* Start workers while there are free slots. */
        for (long k = 0; k < nw && next < n; k++) {
            if (ws[k].pid)
                continue;
            fflush(NULL);
            pid_t pid = fork();
            if (pid == 0) {
                sigprocmask(SIG_SETMASK, &old, NULL);
                test_fault(profiles[next]);
                bool ok = render(profiles[next], outs[next], o, st);
                if (fflush(stdout) != 0 || ferror(stdout)) {
                    fprintf(stderr, "%s: error: cannot write the standard output: %s\n",
                            profiles[next], strerror(errno));
                    ok = false;
                }
                fflush(NULL);
                _exit(ok ? 0 : 1);
            }
            if (pid < 0) {
                fprintf(stderr, "%s: error: cannot start a worker: %s\n", profiles[next],
                        strerror(errno));
                failed++, done++, next++;
                continue;
            }
            ws[k] = (worker){pid, next++, now()};
            running++;
        }
        /* Wait for one to end, or for the next deadline. */
        double wait = 1.0;
        if (o->timeout > 0)
            for (long k = 0; k < nw; k++)
                if (ws[k].pid) {
                    double left = ws[k].start + o->timeout - now();
                    if (left < wait)
                        wait = left > 0 ? left : 0;
                }
        struct timespec ts = {(time_t)wait, (long)((wait - (time_t)wait) * 1e9)};
        sigtimedwait(&chld, NULL, &ts);
        for (long k = 0; k < nw; k++) {
            if (!ws[k].pid)
                continue;
            int status = 0;
            bool timed_out = false;
            pid_t r = waitpid(ws[k].pid, &status, WNOHANG);
            if (r == 0 && o->timeout > 0 && now() - ws[k].start >= o->timeout) {
                kill(ws[k].pid, SIGKILL);
                waitpid(ws[k].pid, &status, 0);
                timed_out = true;
            } else if (r == 0 || (r < 0 && errno == EINTR)) {
                continue;
            }
            bool ok = reap(&ws[k], status, timed_out, profiles, outs, o);
            done++;
            failed += !ok;
            if (o->progress)
                fprintf(stderr, "[%d/%d] %s %s%s%s\n", done, n, ok ? "ok  " : "FAIL",
                        profiles[ws[k].job], ok && !o->dump ? " -> " : "",
                        ok && !o->dump ? outs[ws[k].job] : "");
            ws[k].pid = 0;
            running--;
        }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    free(ws);
    return failed;
}

int main(int argc, char **argv)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    /* A file size limit is a write error to report, not a signal. */
    signal(SIGXFSZ, SIG_IGN);
    static const struct option opts[] = {
        {"layout", required_argument, NULL, 'l'}, {"output", required_argument, NULL, 'o'},
        {"dump", optional_argument, NULL, 'd'},   {"strict", no_argument, NULL, 'S'},
        {"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},      {"fit-pages", required_argument, NULL, 'F'},
        {"explain", no_argument, NULL, 'E'},      {"date", required_argument, NULL, 'D'},
        {"pdfa", no_argument, NULL, 'A'},         {"jobs", required_argument, NULL, 'j'},
        {"timeout", required_argument, NULL, 'T'}, {"merge", required_argument, NULL, 'M'},
        {"defaults", required_argument, NULL, 'P'}, {NULL, 0, NULL, 0}};
    const char *layout = NULL, *output = NULL, *defaults = NULL;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    options o = {.fit_pages = -1, .jobs = ncpu > 0 ? ncpu : 1, .timeout = 10};
    for (int c; (c = getopt_long(argc, argv, "l:o:j:qhV", opts, NULL)) != -1;) {
        switch (c) {
        case 'l': layout = optarg; break;
        case 'o': output = optarg; break;
        case 'd':
            if (optarg && strcmp(optarg, "glyphs")) {
                fprintf(stderr, "cvpdf: --dump=%s: the only value is 'glyphs'\n"
                        "Try 'cvpdf --help'.\n", optarg);
                return 2;
            }
            o.dump = optarg ? 2 : 1;
            break;
        case 'S': o.strict = true; break;
        case 'E': o.explain = true; break;
        case 'A': o.pdfa = true; break;
        case 'M': o.merge = optarg; break;
        case 'P': defaults = optarg; break;
        case 'j': {
            char *end;
            o.jobs = strtol(optarg, &end, 10);
            if (*end || end == optarg || o.jobs < 0 || o.jobs > 1024) {
                fprintf(stderr, "cvpdf: -j %s: expected a number of jobs from 0 to 1024\n"
                        "Try 'cvpdf --help'.\n", optarg);
                return 2;
            }
            break;
        }
        case 'T': {
            char *end;
            o.timeout = strtod(optarg, &end);
            if (*end || end == optarg || !(o.timeout >= 0) || o.timeout > 86400) {
                fprintf(stderr, "cvpdf: --timeout %s: expected seconds, from 0 (none) to "
                        "86400\nTry 'cvpdf --help'.\n", optarg);
                return 2;
            }
            break;
        }
        case 'F': {
            char *end;
            o.fit_pages = strtol(optarg, &end, 10);
            if (*end || end == optarg || o.fit_pages < 1 || o.fit_pages > 100) {
                fprintf(stderr, "cvpdf: --fit-pages %s: expected a number of pages from 1 "
                        "to 100\nTry 'cvpdf --help'.\n", optarg);
                return 2;
            }
            break;
        }
        case 'D': {
            int y, m, dd, n = 0;
            static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
            if (sscanf(optarg, "%4d-%2d-%2d%n", &y, &m, &dd, &n) != 3 || optarg[n] ||
                m < 1 || m > 12 || dd < 1 || dd > mdays[m - 1] ||
                (m == 2 && dd == 29 && (y % 4 || (y % 100 == 0 && y % 400)))) {
                fprintf(stderr, "cvpdf: --date %s: expected YYYY-MM-DD\n"
                        "Try 'cvpdf --help'.\n", optarg);
                return 2;
            }
            o.date = optarg;
            break;
        }
        case 'q': o.quiet = true; break;
        case 'h': fputs(usage, stdout); return 0;
        case 'V': printf("cvpdf %s\n", CV_VERSION); return 0;
        default: fputs("Try 'cvpdf --help'.\n", stderr); return 2;
        }
    }
    /* SOURCE_DATE_EPOCH (reproducible-builds.org): seconds since 1970. */
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    if (sde && *sde) {
        char *end;
        errno = 0;
        long long t = strtoll(sde, &end, 10);
        if (*end || errno || t < 0 || t > 253402300799LL) {
            fprintf(stderr, "cvpdf: SOURCE_DATE_EPOCH=%s: expected a number of seconds "
                    "since 1970-01-01\n", sde);
            return 2;
        }
        o.has_epoch = true;
        o.epoch = t;
    }
    int nprof = argc - optind;
    if (nprof < 1) {
        fprintf(stderr, "cvpdf: no profile given\n%s", usage);
        return 2;
    }

    if (o.merge && (output || o.dump)) {
        fprintf(stderr, "cvpdf: --merge writes one PDF; it does not go with %s\n"
                "Try 'cvpdf --help'.\n", output ? "-o" : "--dump");
        return 2;
    }
    o.progress = !o.quiet && isatty(STDERR_FILENO);

    /* Where each PDF goes; refuse before rendering anything if two
     * profiles would write the same file. */
    cv_arena *a = cv_arena_new();
    size_t olen = output ? strlen(output) : 0;
    bool out_is_dir = output && (output[olen - 1] == '/' || is_dir(output));
    if (output && !out_is_dir && nprof > 1 && !o.dump) {
        fprintf(stderr, "cvpdf: -o %s names one file but %d profiles were given; "
                "use -o DIR/\n", output, nprof);
        cv_arena_free(a);
        return 2;
    }
    if (out_is_dir && !o.dump && !is_dir(output) && mkdir(output, 0777) != 0) {
        fprintf(stderr, "cvpdf: cannot create directory '%s': %s\n", output, strerror(errno));
        cv_arena_free(a);
        return 1;
    }
    char **outs = cv_arena_alloc(a, (size_t)nprof * sizeof *outs);
    for (int i = 0; i < nprof; i++) {
        const char *p = argv[optind + i];
        if (output && !out_is_dir)
            outs[i] = (char *)output;
        else
            outs[i] = cv_arena_printf(a, "%s%s%s.pdf", out_is_dir ? output : "",
                                      out_is_dir && output[olen - 1] != '/' ? "/" : "",
                                      stem(a, p));
        for (int j = 0; j < i && !o.dump; j++)
            if (!strcmp(outs[i], outs[j])) {
                fprintf(stderr, "cvpdf: %s and %s would both be written to %s\n",
                        argv[optind + j], p, outs[i]);
                cv_arena_free(a);
                return 1;
            }
    }

    /* A PDF must not overwrite an input: `-o he.yaml` is a slip of the
     * fingers, not a wish. */
    if (!o.dump) {
        const char *inputs[3] = {layout, defaults, NULL};
        for (int i = 0; i < nprof + 1; i++) {
            const char *out = i < nprof ? outs[i] : o.merge;
            struct stat so, si;
            if (!out || stat(out, &so) != 0)
                continue;
            for (int j = -2; j < nprof; j++) {
                const char *in = j < 0 ? inputs[j + 2] : argv[optind + j];
                if (in && stat(in, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
                    fprintf(stderr, "%s: error: this is an input; it will not be "
                            "overwritten with a PDF\n", out);
                    cv_arena_free(a);
                    return 2;
                }
            }
        }
    }

    /* Fonts and layout, once for the whole run. */
    const char *data = data_dir();
    const char *font_dirs[] = {cv_arena_printf(a, "%s/fonts", data), NULL};
    if (!layout)
        layout = cv_arena_printf(a, "%s/layouts/onecolumn.yaml", data);
    cv_error err;
    cv_error_init(&err);
    err.quiet = o.quiet;
    err.strict = o.strict;
    cv_engine *eng = cv_engine_new(font_dirs, &err);
    if (eng)
        eng->diag = (cv_diag){NULL, o.quiet, o.strict};
    cv_style st;
    bool ok = eng && cv_style_load(a, layout, eng, &st, &err) && !err.set;
    /* --defaults: a profile's top-level keys, merged under each profile. */
    if (ok && defaults) {
        static const char *const keys[] = {"cv", "locale", "settings", "design",
                                           "rendercv_settings", NULL};
        size_t len;
        char *text = cv_yml_read_file(a, defaults, &len, &err);
        cv_yml *root = text ? cv_yml_load(a, defaults, text, len, &err) : NULL;
        if (root && root->kind != CV_YML_MAP)
            cv_error_at(&err, root->pos, "defaults are a mapping like a profile's (cv:, "
                        "locale:, settings:), not %s", cv_yml_kind_name(root->kind));
        else if (root)
            cv_yml_check_keys(root, keys, "the defaults", &err);
        o.defaults = root;
        ok = root && !err.set;
    }
    if (!ok) {
        cv_error_print(&err);
        cv_engine_free(eng);
        cv_arena_free(a);
        return 1;
    }

    int failed = 0;
    char **profiles = argv + optind;
    if (o.merge)
        failed = render_book(profiles, nprof, &o, &st);
    else if (nprof == 1 || o.jobs == 0)
        for (int i = 0; i < nprof; i++) {
            bool done = render(profiles[i], outs[i], &o, &st);
            failed += !done;
            if (o.progress && nprof > 1)
                fprintf(stderr, "[%d/%d] %s %s\n", i + 1, nprof, done ? "ok  " : "FAIL",
                        profiles[i]);
        }
    else
        failed = render_batch(profiles, outs, nprof, &o, &st);
    /* --dump and --explain write to stdout: a full disk or a closed pipe
     * is a failure too. */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "cvpdf: error: cannot write the standard output: %s\n",
                strerror(errno));
        failed = failed ? failed : 1;
    }
    if ((nprof > 1 || o.merge) && !o.quiet)
        fprintf(stderr, "cvpdf: %d rendered, %d failed\n", nprof - failed, failed);
    cv_engine_free(eng);
    cv_arena_free(a);
    return failed ? 1 : 0;
}
