/* main.c - the cvpdf command line: the driver.
 *
 *   `cvpdf new NAME`: write a profile to start from (starter.h), and stop
 *   parse the options (cli.h); --list-layouts, --datadir, --schema: print
 *     that (datadir.h, schema.h), and stop
 *   plan where each PDF goes, refusing a bad run before any work (plan.h)
 *   make the engine: fonts and caches, once for the run (engine.h)
 *   load the layout (style.h) and --defaults (doc.h), once for the run
 *   render: the CV book (--merge, render.h), or each profile, in this
 *     process or in worker processes (batch.h)
 *   report: "N rendered, M failed", and the exit status
 *
 * Exit status: 0 all rendered, 1 an input failed, 2 a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arena.h"
#include "batch.h"
#include "bib.h"
#include "cli.h"
#include "datadir.h"
#include "doc.h"
#include "engine.h"
#include "error.h"
#include "file.h"
#include "migrate.h"
#include "plan.h"
#include "render.h"
#include "schema.h"
#include "site.h"
#include "sets.h"
#include "starter.h"
#include "stop.h"
#include "style.h"
#include "watch.h"
#include "wrap.h"

/* --watch: an editor's save is done when its directory has been quiet this
 * long (watch.h). */
#define WATCH_SETTLE_MS 10

/* What every profile shares, once for the run: the engine (fonts found in
 * the data directory first), and the layout's path in *layout.  Returns
 * false with err set. */
static bool set_up(cv_arena *a, const cv_options *o, cv_engine **eng, const char **layout,
                   cv_error *err)
{
    const char *data = cv_datadir(a);
    const char *font_dirs[] = {cv_arena_printf(a, "%s/fonts", data), NULL};
    *layout = o->layout ? cv_layout_arg(a, o->layout) : cv_layout_shipped(a, "onecolumn");
    /* A layout named (or the default) that the data directory lacks. */
    if (*layout != o->layout && access(*layout, F_OK) != 0)
        return cv_error_at(err, (cv_pos){NULL, 0, 0}, "%s",
                           cv_layout_missing(a, o->layout ? o->layout : "onecolumn"));
    *eng = cv_engine_new(font_dirs, err);
    if (*eng) {
        (*eng)->diag = (cv_diag){NULL, o->quiet, o->strict};
        (*eng)->locales = cv_arena_printf(a, "%s/locales", data);
        (*eng)->find_layout = cv_layout_find;
    }
    return *eng != NULL;
}

/* The layout and the defaults, into `a` (again at each change, --watch).
 * Returns false with err set. */
static bool load(cv_arena *a, const cv_options *o, cv_engine *eng, const char *layout,
                 const cv_yml *layout_sets, cv_style *st, const cv_yml **defaults,
                 cv_error *err)
{
    if (!cv_style_load_over(a, layout, layout_sets, eng, st, err) || err->set)
        return false;
    if (o->defaults && !(*defaults = cv_doc_load_defaults(a, o->defaults, err)))
        return false;
    cv_inputs_add(eng->inputs, o->defaults, "the defaults");
    return !err->set;
}

/* The profile '-': the standard input, read once (a book reads each
 * profile twice).  Returns false with err set. */
static bool read_stdin(cv_arena *a, const cv_options *o, cv_renderer *r, cv_error *err)
{
    bool wanted = false;
    for (int i = 0; i < o->nprofiles; i++)
        wanted = wanted || !strcmp(o->profiles[i], "-");
    if (!wanted)
        return true;
    cv_file f;
    cv_stop_timeout_about("<stdin>");
    bool got = cv_file_read_fd(a, STDIN_FILENO, 16u * 1024 * 1024, &f);
    cv_stop_timeout_about("cvpdf");
    if (!got)
        return cv_error_at(err, (cv_pos){"<stdin>", 0, 0}, f.status == CV_FILE_TOO_BIG
                           ? "the standard input holds more than 16 MB, the limit for an input"
                           : "cannot read the standard input: %s", strerror(f.err));
    r->stdin_text = f.data;
    r->stdin_len = f.len;
    return !err->set;
}

/* Render every profile; returns how many failed. */
static int run(const cv_renderer *r, const cv_plan *plan)
{
    const cv_options *o = r->opt;
    int failed = o->merge ? cv_render_book(r, o->profiles, o->nprofiles)
                          : cv_batch_run(r, plan);
    /* --dump and --explain write to stdout: a full disk or a closed pipe
     * is a failure too. */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "cvpdf: error: cannot write the standard output: %s\n",
                strerror(errno));
        failed = failed ? failed : 1;
    }
    if ((o->nprofiles > 1 || o->merge) && !o->quiet)
        fprintf(stderr, "cvpdf: %d rendered, %d failed\n", o->nprofiles - failed, failed);
    return failed;
}

/* --open: the output (its first page, for PNG and SVG pages) opened in the
 * desktop's viewer with xdg-open, in a process of its own that outlives
 * cvpdf (started through a child that exits at once, so that no zombie is
 * left under --watch).  Returns false after saying why it could not. */
static bool open_output(const cv_options *o, const cv_plan *plan)
{
    cv_arena *a = cv_arena_new();
    const char *out = o->merge ? o->merge : plan->outs[0];
    if (plan->format == CV_FORMAT_PNG || plan->format == CV_FORMAT_SVG)
        out = cv_raster_page_name(a, out, 1);
    int p[2] = {-1, -1};        /* the exec's errno, or EOF once it ran */
    pid_t pid = -1;
    if (pipe2(p, O_CLOEXEC) == 0 && (pid = fork()) == 0) {
        close(p[0]);
        setsid();
        if (fork() == 0) {
            int null = open("/dev/null", O_RDWR);
            if (null >= 0) {
                dup2(null, STDIN_FILENO);
                dup2(null, STDOUT_FILENO);
            }
            execlp("xdg-open", "xdg-open", out, (char *)NULL);
            int e = errno;
            ssize_t w = write(p[1], &e, sizeof e);
            (void)w;
        }
        _exit(0);
    }
    int e = errno;
    if (pid > 0) {
        close(p[1]);
        waitpid(pid, NULL, 0);
        ssize_t got;
        while ((got = read(p[0], &e, sizeof e)) < 0 && errno == EINTR)
            ;
        e = got == (ssize_t)sizeof e ? e : 0;
        close(p[0]);
    } else if (pid < 0 && p[0] >= 0) {
        close(p[0]);
        close(p[1]);
    }
    if (e) {
        char shown[512];
        fprintf(stderr, "cvpdf: error: --open: cannot run xdg-open %s: %s\n",
                cv_escape(out, shown, sizeof shown), strerror(e));
    }
    cv_arena_free(a);
    return e == 0;
}

/* --watch: after the first render (which ended with `status`), render
 * again at every change of an input, until a signal ends the process
 * (stop.c: temporary files removed, exit 130 for Ctrl-C).  Each render
 * reads the layout and the defaults again; the engine, with its fonts and
 * caches, stays.  A failure is reported and the last good output stays as
 * it is (output.h).  Returns only when the files cannot be watched. */
static int watch(const cv_options *o, const cv_plan *plan, cv_engine *eng, const char *layout,
                 const cv_renderer *sets, bool *opened, int status)
{
    cv_error err;
    cv_cli_error_init(o, &err);
    cv_watch *w = cv_watch_new(&err);
    if (!w) {
        cv_error_print(&err);
        return 1;
    }
    const cv_diag talk = {NULL, o->quiet, false};
    for (bool first = true;; first = false) {
        /* Follow the files named on the command line, and every profile,
         * layout, photo and defaults file the engine has read so far. */
        size_t watched = 0;
        for (int i = 0; i < o->nprofiles; i++)
            watched += cv_watch_add(w, o->profiles[i]);
        watched += cv_watch_add(w, layout);
        if (o->defaults)
            watched += cv_watch_add(w, o->defaults);
        for (size_t i = 0; i < cv_inputs_count(eng->inputs); i++) {
            if (!cv_inputs_installed(eng->inputs, i))   /* not the fonts, modules, ... */
                watched += cv_watch_add(w, cv_inputs_path(eng->inputs, i, NULL));
        }
        if (!watched) {
            fprintf(stderr, "cvpdf: error: --watch cannot watch any input (too many "
                    "inotify watches? fs.inotify.max_user_watches)\n");
            break;
        }
        if (first)
            cv_diag_say(&talk, (cv_pos){"cvpdf", 0, 0}, "note", "%s; watching %zu file%s for "
                        "changes (Ctrl-C to stop)", status ? "failed" : "rendered",
                        cv_watch_count(w), cv_watch_count(w) == 1 ? "" : "s");
        const char *changed = cv_watch_wait(w, -1, WATCH_SETTLE_MS);
        if (!changed) {
            fprintf(stderr, "cvpdf: error: cannot watch the inputs any longer\n");
            break;
        }
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        cv_arena *a = cv_arena_new();
        cv_style st;
        cv_renderer r = {.opt = o, .eng = eng, .style = &st, .format = plan->format,
                         .shared = sets->shared};
        cv_cli_error_init(o, &err);
        int failed;
        r.sets = sets->sets;
        r.layout_sets = sets->layout_sets;
        if (!load(a, o, eng, layout, r.layout_sets, &st, &r.defaults, &err)) {
            cv_error_print(&err);
            failed = 1;
        } else if (cv_render_note_all(&r), cv_plan_check(a, o, plan, eng->inputs, stderr)) {
            failed = 1;
        } else {
            failed = run(&r, plan);
        }
        cv_arena_free(a);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
                    (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
        if (!failed && o->open && !*opened)
            *opened = true, open_output(o, plan);
        if (failed)
            cv_diag_say(&talk, (cv_pos){changed, 0, 0}, "note", "changed; not rendered, "
                        "the last good output is kept");
        else
            cv_diag_say(&talk, (cv_pos){changed, 0, 0}, "note", "changed; rendered again in "
                        "%.0f ms", ms);
    }
    cv_watch_free(w);
    return 1;
}

/* --list-layouts, --datadir, --schema: print what was asked.  Returns the
 * exit status. */
static int print_info(const cv_options *o)
{
    cv_arena *a = cv_arena_new();
    int status = 0;
    if (o->print_datadir) {
        const char *dir = cv_datadir(a);
        printf("%s\n", dir);
        if (!cv_datadir_ok(a, dir)) {
            fprintf(stderr, "cvpdf: warning: '%s' has no layouts/; set CVPDF_DATADIR to the "
                    "directory that holds fonts/ and layouts/\n", dir);
            status = 1;
        }
    }
    if (o->list_layouts && !cv_layout_list(a, stdout, stderr))
        status = 1;
    if (o->schema)
        cv_schema_write(a, o->schema, stdout);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "cvpdf: error: cannot write the standard output: %s\n",
                strerror(errno));
        status = 1;
    }
    cv_arena_free(a);
    return status;
}

int main(int argc, char **argv)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    /* A file size limit is a write error to report, not a signal. */
    signal(SIGXFSZ, SIG_IGN);
    /* `cvpdf new "Full Name"`: a profile to start from (starter.h).  A
     * profile named new is ./new. */
    if (argc > 1 && !strcmp(argv[1], "new"))
        return cv_starter_main(argc - 1, argv + 1, stdout, stderr);
    /* `cvpdf import FILE.bib`: its entries as YAML (cli.h). */
    if (argc > 1 && !strcmp(argv[1], "import"))
        return cv_cli_import(argc - 1, argv + 1, stdout, stderr);
    cv_options o;
    int status = cv_cli_parse(argc, argv, &o, stdout, stderr);
    if (status != CV_CLI_GO)
        return status;
    if (o.import) {                 /* cvpdf import FILE.bib */
        cv_error ierr;
        cv_cli_error_init(&o, &ierr);
        bool ok = cv_bib_import(o.import, NULL, stdout, &ierr) && !ierr.set;
        if (!ok)
            cv_error_print(&ierr);
        return ok ? 0 : 1;
    }
    if (o.migrate) {                /* cvpdf migrate FILE */
        cv_error merr;
        cv_cli_error_init(&o, &merr);
        bool ok = cv_migrate(o.migrate, stdout, &merr);
        if (!ok)
            cv_error_print(&merr);
        return ok ? 0 : 1;
    }
    if (o.list_layouts || o.print_datadir || o.schema)
        return print_info(&o);
    cv_stop_install();
    cv_arena *a = cv_arena_new();
    cv_plan plan;
    cv_engine *eng = NULL;
    cv_style st;
    cv_renderer r = {.opt = &o, .style = &st};
    cv_error err;
    cv_cli_error_init(&o, &err);
    status = cv_plan_make(a, &o, &plan, stderr);
    r.format = plan.format;
    const char *layout = NULL;
    /* --timeout bounds loading too: the layout, the defaults, the standard
     * input, every profile read for its inputs. */
    if (status == 0)
        cv_stop_timeout(o.timeout, "cvpdf");
    if (status == 0 && (!set_up(a, &o, &eng, &layout, &err) ||
                        !(r.sets = cv_sets_tree(a, o.sets, o.nsets, false, &err), !err.set) ||
                        !(r.layout_sets = cv_sets_tree(a, o.sets, o.nsets, true, &err),
                          !err.set) ||
                        !load(a, &o, eng, layout, r.layout_sets, &st, &r.defaults, &err) ||
                        !read_stdin(a, &o, &r, &err))) {
        cv_error_print(&err);
        status = 1;
    }
    r.eng = eng;
    /* Paragraphs set for one profile are found set for the next, for
     * --merge's second pass and for each render under --watch. */
    r.shared = cv_setcache_new_shared();
    /* Every input known, in this process, before any output is opened. */
    if (status == 0 && !o.watch)         /* pipes: read once, here (not under --watch) */
        cv_render_read_pipes(a, &r);
    if (status == 0 && (!o.dump || o.watch)) {     /* --watch follows them */
        cv_render_note_all(&r);
        status = cv_plan_check(a, &o, &plan, eng->inputs, stderr);
        if (status == 0 && o.site)
            status = cv_site_check(a, &o, &plan, stderr);
    }
    cv_stop_timeout(0, NULL);
    if (status == 0)
        status = (o.site ? cv_site_run(&r, &plan) : run(&r, &plan)) ? 1 : 0;
    /* --open: once, after the first render that wrote it. */
    bool opened = false;
    if (status == 0 && o.open) {
        opened = true;
        if (!open_output(&o, &plan) && !o.watch)
            status = 1;
    }
    /* --watch goes on after a failure too: its input is being edited. */
    if (o.watch && eng)
        status = watch(&o, &plan, eng, layout, &r, &opened, status);
    cv_setcache_free(r.shared);
    cv_engine_free(eng);
    cv_arena_free(a);
    return status;
}
