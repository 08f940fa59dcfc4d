/* batch.c - rendering every profile of a run, in worker processes (batch.h). */
#include "batch.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"

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
static bool reap(const worker *w, int status, bool timed_out, char **profiles, const char **outs,
                 const cv_options *o)
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
static int render_batch(char **profiles, const char **outs, int n, const cv_renderer *rr)
{
    const cv_options *o = rr->opt;
    const cv_style *st = rr->style;
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
                bool ok = cv_render_one(rr, profiles[next], outs[next]);
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


int cv_batch_run(const cv_renderer *r, const cv_plan *plan)
{
    const cv_options *o = r->opt;
    int n = plan->n;
    if (n == 1 || o->jobs == 0) {
        int failed = 0;
        for (int i = 0; i < n; i++) {
            bool ok = cv_render_one(r, o->profiles[i], plan->outs[i]);
            failed += !ok;
            if (o->progress && n > 1)
                fprintf(stderr, "[%d/%d] %s %s\n", i + 1, n, ok ? "ok  " : "FAIL",
                        o->profiles[i]);
        }
        return failed;
    }
    return render_batch(o->profiles, plan->outs, n, r);
}
