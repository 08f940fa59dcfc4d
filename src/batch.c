/* batch.c - rendering every profile of a run, in worker processes (batch.h).
 *
 * The parent never renders in a batch: it hands out profiles and reports.
 * Each worker slot holds one process and two descriptors:
 *
 *   ctl    a SOCK_SEQPACKET socket: the parent sends a profile's index (an
 *          int), the worker renders it and answers with one byte, 1 for a
 *          PDF written, 0 for a failure it has reported itself.  The parent
 *          sends the next index only after the answer, so the worker is
 *          always either rendering one known profile or waiting.
 *   errfd  the read end of the worker's stderr.  The parent reads it while
 *          the worker renders (so a long report never blocks the worker)
 *          and prints it when the profile ends.  The worker writes its
 *          answer only after its messages, and the next profile comes only
 *          after the answer has been read: everything in the pipe then
 *          belongs to the profile that just ended.
 *
 * A worker's end shows as end-of-file on ctl: waitpid() says how it died,
 * and the profile it had is reported as crashed.  A profile past --timeout
 * has its worker killed with SIGKILL.  Either way the slot is empty, and
 * the main loop starts a fresh worker in it while profiles remain.  At the
 * end the parent closes each ctl; a worker reads end-of-file and exits.
 *
 * Workers are forked from the parent, which holds the warmed engine and
 * never renders, so every worker, the first or a replacement, starts warm.
 */
#include "batch.h"
#include "stop.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arena.h"
#include "engine.h"

typedef struct worker {
    pid_t pid;          /* 0: no process in this slot */
    int ctl;            /* socket: profile indices out, answers back */
    int errfd;          /* its stderr (read end, non-blocking), or -1 at its end */
    int job;            /* the profile it is rendering, or -1: waiting */
    double start;       /* when it was given that profile */
    char *msg;          /* what it wrote on stderr for that profile */
    size_t len, cap;
} worker;

typedef struct pool {
    const cv_renderer *r;
    const cv_plan *plan;
    char **profiles;
    worker *ws;
    long nw;
    int next, done, failed;   /* profiles handed out, ended, failed */
    struct pollfd *fds;       /* wait_events()' scratch: 2 per worker */
    long *who;                /* the slot of each */
} pool;

/* How bury() finds a worker. */
typedef enum { ENDED, BROKEN, TIMED_OUT } ending;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A profile has ended: count it, and with --progress say so. */
static void report(pool *p, int job, bool ok)
{
    const cv_options *o = p->r->opt;
    p->done++;
    p->failed += !ok;
    if (o->progress)
        fprintf(stderr, "[%d/%d] %s %s%s%s\n", p->done, p->plan->n, ok ? "ok  " : "FAIL",
                p->profiles[job], ok && !o->dump ? " -> " : "",
                ok && !o->dump ? p->plan->outs[job] : "");
}

/* ---- In a worker ---------------------------------------------------------- */

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

/* The worker in slot `self`: render each profile the parent sends until it
 * closes the socket. */
static _Noreturn void work(const pool *p, long self, int ctl, int errw, pid_t parent)
{
    /* Die with the parent, cleanly (stop.h); if it is gone already, the
     * signal came too late. */
    cv_stop_forget_workers();
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
        _exit(1);
    for (long k = 0; k < p->nw; k++)
        if (k != self && p->ws[k].pid) {
            close(p->ws[k].ctl);
            if (p->ws[k].errfd >= 0)
                close(p->ws[k].errfd);
        }
    dup2(errw, STDERR_FILENO);
    close(errw);
    for (int job; recv(ctl, &job, sizeof job, 0) == (ssize_t)sizeof job;) {
        const char *prof = p->profiles[job];
        test_fault(prof);
        bool ok = cv_render_one(p->r, prof, p->plan->outs[job]);
        /* --dump and --explain: the text is out before the answer. */
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "%s: error: cannot write the standard output: %s\n", prof,
                    strerror(errno));
            clearerr(stdout);
            ok = false;
        }
        char answer = ok;
        if (send(ctl, &answer, 1, MSG_NOSIGNAL) != 1)
            break;
    }
    fflush(NULL);
    _exit(0);
}

/* ---- In the parent -------------------------------------------------------- */

/* Start a worker in the empty slot w.  Returns false (errno set) when it
 * cannot be started. */
static bool spawn(pool *p, worker *w)
{
    int sv[2], ep[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0)
        return false;
    if (pipe(ep) != 0) {
        int e = errno;
        close(sv[0]), close(sv[1]);
        errno = e;
        return false;
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]), close(ep[0]);
        work(p, w - p->ws, sv[1], ep[1], parent);
    }
    int e = errno;
    close(sv[1]), close(ep[1]);
    if (pid < 0) {
        close(sv[0]), close(ep[0]);
        errno = e;
        return false;
    }
    fcntl(ep[0], F_SETFL, O_NONBLOCK);
    cv_stop_worker(pid, 1);
    w->pid = pid;
    w->ctl = sv[0];
    w->errfd = ep[0];
    w->job = -1;
    w->len = 0;
    return true;
}

/* Read what the worker has written on stderr so far; at its end-of-file,
 * close the pipe. */
static void drain(worker *w)
{
    while (w->errfd >= 0) {
        if (w->cap - w->len < 4096) {
            w->cap = w->cap ? w->cap * 2 : 8192;
            w->msg = cv_xrealloc(w->msg, w->cap);
        }
        ssize_t got = read(w->errfd, w->msg + w->len, w->cap - w->len);
        if (got > 0) {
            w->len += (size_t)got;
        } else if (got < 0 && errno == EINTR) {
            continue;
        } else {
            if (got == 0 || errno != EAGAIN) {
                close(w->errfd);
                w->errfd = -1;
            }
            return;
        }
    }
}

/* Print what the worker wrote for its profile, as one block. */
static void relay(worker *w)
{
    if (w->len)
        fwrite(w->msg, 1, w->len, stderr);
    w->len = 0;
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

/* How a worker that ended during profile `job` ended: true when it had
 * rendered it after all. */
static bool verdict(const pool *p, int job, pid_t pid, int status, bool timed_out)
{
    const cv_options *o = p->r->opt;
    const char *prof = p->profiles[job];
    if (!timed_out && WIFEXITED(status))
        return WEXITSTATUS(status) == 0;
    if (timed_out)
        fprintf(stderr, "%s: error: gave up after %g s (--timeout); nothing written\n", prof,
                o->timeout);
    else if (WIFSIGNALED(status))
        fprintf(stderr, "%s: error: cvpdf crashed on this profile (%s); nothing written\n",
                prof, strsignal(WTERMSIG(status)));
    if (!o->dump)
        remove_leftovers(p->plan->outs[job], pid);
    return false;
}

/* The worker in w has ended (or is ending), or cannot be talked to, or has
 * run out of time (both: killed now): wait for it, print what it wrote,
 * report its profile, and empty the slot. */
static void bury(pool *p, worker *w, ending how)
{
    if (how != ENDED)
        kill(w->pid, SIGKILL);
    int status = 0;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    cv_stop_worker(w->pid, 0);
    drain(w);                 /* to its end: every writer is gone */
    if (w->errfd >= 0)
        close(w->errfd);
    close(w->ctl);
    relay(w);
    if (w->job >= 0)
        report(p, w->job, verdict(p, w->job, w->pid, status, how == TIMED_OUT));
    *w = (worker){.errfd = -1, .job = -1, .msg = w->msg, .cap = w->cap};
}

/* The worker answered for its profile: print its messages, report it. */
static void finish(pool *p, worker *w, bool ok)
{
    drain(w);
    relay(w);
    int job = w->job;
    w->job = -1;
    report(p, job, ok);
}

/* Read the worker's answer, or learn that it has ended. */
static void hear(pool *p, worker *w, int flags)
{
    char answer;
    ssize_t got = recv(w->ctl, &answer, 1, flags);
    if (got == 1 && w->job >= 0)
        finish(p, w, answer != 0);
    else if (got == 0)
        bury(p, w, ENDED);
    else if (got < 0 && errno != EAGAIN && errno != EINTR)
        bury(p, w, BROKEN);
}

/* Give the waiting worker w the next profile. */
static void hand_out(pool *p, worker *w)
{
    int job = p->next++;
    w->job = job;
    w->start = now();
    if (send(w->ctl, &job, sizeof job, MSG_NOSIGNAL) != (ssize_t)sizeof job)
        bury(p, w, BROKEN);   /* reported as ending on this profile */
}

/* Milliseconds until the first worker's time is up, or -1: no limit. */
static int next_deadline(const pool *p)
{
    double timeout = p->r->opt->timeout, first = -1;
    for (long k = 0; timeout > 0 && k < p->nw; k++) {
        const worker *w = &p->ws[k];
        if (w->pid && w->job >= 0) {
            double left = w->start + timeout - now();
            if (first < 0 || left < first)
                first = left > 0 ? left : 0;
        }
    }
    return first < 0 ? -1 : (int)(first * 1000) + 1;
}

/* Wait until a worker answers, writes, ends or runs out of time, and deal
 * with it. */
static void wait_events(pool *p)
{
    struct pollfd *fds = p->fds;
    long *who = p->who;
    nfds_t nfds = 0;
    for (long k = 0; k < p->nw; k++) {
        if (!p->ws[k].pid)
            continue;
        who[nfds] = k;
        fds[nfds++] = (struct pollfd){.fd = p->ws[k].ctl, .events = POLLIN};
        if (p->ws[k].errfd >= 0) {
            who[nfds] = k;
            fds[nfds++] = (struct pollfd){.fd = p->ws[k].errfd, .events = POLLIN};
        }
    }
    if (poll(fds, nfds, next_deadline(p)) > 0)
        for (nfds_t i = 0; i < nfds; i++) {
            worker *w = &p->ws[who[i]];
            if (!fds[i].revents || !w->pid)
                continue;
            if (fds[i].fd == w->errfd)
                drain(w);
            else if (fds[i].fd == w->ctl)
                hear(p, w, MSG_DONTWAIT);
        }
    double timeout = p->r->opt->timeout;
    for (long k = 0; timeout > 0 && k < p->nw; k++) {
        worker *w = &p->ws[k];
        if (!w->pid || w->job < 0 || now() - w->start < timeout)
            continue;
        hear(p, w, MSG_DONTWAIT);         /* an answer just in time counts */
        if (w->pid && w->job >= 0)
            bury(p, w, TIMED_OUT);
    }
}

/* The batch in worker processes.  Returns the number of failures. */
static int in_workers(pool *p)
{
    int n = p->plan->n;
    /* What every document needs and each worker would otherwise make again
     * (hyphenation patterns, each face's shaping analysis), once here. */
    cv_engine_warm(p->r->eng, p->r->style->hyphenate);
    /* waitpid() must see how each worker ended, even if whoever started
     * cvpdf left SIGCHLD ignored. */
    signal(SIGCHLD, SIG_DFL);
    while (p->done < n) {
        for (long k = 0; k < p->nw && p->next < n; k++) {
            worker *w = &p->ws[k];
            if (!w->pid && !spawn(p, w)) {
                fprintf(stderr, "%s: error: cannot start a worker: %s\n",
                        p->profiles[p->next], strerror(errno));
                p->failed++, p->done++, p->next++;
                continue;
            }
            if (w->job < 0)
                hand_out(p, w);
        }
        if (p->done < n)
            wait_events(p);
    }
    /* Every profile has ended: let the waiting workers go. */
    for (long k = 0; k < p->nw; k++)
        if (p->ws[k].pid) {
            shutdown(p->ws[k].ctl, SHUT_WR);
            bury(p, &p->ws[k], ENDED);
        }
    return p->failed;
}

int cv_batch_run(const cv_renderer *r, const cv_plan *plan)
{
    const cv_options *o = r->opt;
    int n = plan->n;
    if (n == 1 || o->jobs == 0) {
        int failed = 0;
        for (int i = 0; i < n; i++) {
            cv_stop_timeout(o->timeout, o->profiles[i]);
            test_fault(o->profiles[i]);
            bool ok = cv_render_one(r, o->profiles[i], plan->outs[i]);
            cv_stop_timeout(0, NULL);
            failed += !ok;
            if (o->progress && n > 1)
                fprintf(stderr, "[%d/%d] %s %s\n", i + 1, n, ok ? "ok  " : "FAIL",
                        o->profiles[i]);
        }
        return failed;
    }
    pool p = {.r = r, .plan = plan, .profiles = o->profiles, .nw = o->jobs > n ? n : o->jobs};
    /* Text on one stdout (--dump, --explain) comes one profile after another. */
    if (o->dump || o->explain)
        p.nw = 1;
    p.ws = cv_xrealloc(NULL, (size_t)p.nw * sizeof *p.ws);
    p.fds = cv_xrealloc(NULL, 2 * (size_t)p.nw * sizeof *p.fds);
    p.who = cv_xrealloc(NULL, 2 * (size_t)p.nw * sizeof *p.who);
    for (long k = 0; k < p.nw; k++)
        p.ws[k] = (worker){.errfd = -1, .job = -1};
    int failed = in_workers(&p);
    for (long k = 0; k < p.nw; k++)
        free(p.ws[k].msg);
    free(p.ws);
    free(p.fds);
    free(p.who);
    return failed;
}
