/* batch.c - rendering every profile of a run, in worker processes (batch.h).
 *
 * The parent never renders in a batch: it hands out profiles and reports.
 * Each worker slot holds one process and three descriptors:
 *
 *   ctl       a SOCK_SEQPACKET socket: the parent sends a profile's index
 *             (an int), the worker renders it and answers with one byte, 1
 *             for a PDF written, 0 for a failure it has reported itself.
 *             While profiles remain, the parent sends the next index ahead,
 *             before the answer, so that a worker goes from one profile to
 *             the next without waiting for the parent; a worker holds at
 *             most two: the one it renders and the next.
 *   err[2]    the read ends of the worker's two stderr pipes.  The worker
 *             writes a profile's messages on one and the next profile's on
 *             the other, alternately (the k-th profile it is sent on pipe
 *             k % 2).  It answers only after its messages, and the parent
 *             sends the profile after next only once it has read the
 *             answer and the pipe: everything in a pipe then belongs to the
 *             profile that just ended.  The parent reads both while the
 *             worker renders (so a long report never blocks the worker) and
 *             prints a profile's messages, as one block, when it ends.
 *
 * A worker's end shows as end-of-file on ctl: waitpid() says how it died,
 * and the profile it was rendering is reported as crashed (or, for an
 * exit before its answer, as ended, unless it said an error); the one sent
 * ahead, which it had not begun, is handed out again.  A profile past
 * --timeout has its worker killed with SIGKILL.  Either way the slot is
 * empty, and the main loop starts a fresh worker in it while profiles
 * remain.  At the end the parent closes each ctl; a worker reads
 * end-of-file and exits.
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

/* What a worker wrote on one of its stderr pipes for the profile there. */
typedef struct said {
    int fd;             /* the pipe's read end (non-blocking), or -1 at its end */
    char *msg;
    size_t len, cap;
} said;

typedef struct worker {
    pid_t pid;          /* 0: no process in this slot */
    int ctl;            /* socket: profile indices out, answers back */
    said err[2];        /* its two stderr pipes, for alternate profiles */
    int job[2];         /* the profile it renders, the one sent ahead; -1: none */
    unsigned answered;  /* profiles it has answered: job[0]'s messages are on
                           err[answered % 2], job[1]'s on the other */
    double start;       /* when it began job[0] */
} worker;

typedef struct pool {
    const cv_renderer *r;
    const cv_plan *plan;
    char **profiles;
    worker *ws;
    long nw;
    int next, done, failed;   /* profiles handed out, ended, failed */
    int *again;               /* profiles to hand out again (sent ahead to a */
    int nagain;               /* worker that ended before it began them) */
    struct pollfd *fds;       /* wait_events()' scratch: 3 per worker */
    long *who;                /* the slot of each */
} pool;

/* Set when the process is continued after a stop (Ctrl-Z, then fg): the
 * time a worker was stopped is not its profile's (wait_events()). */
static volatile sig_atomic_t continued;

static void on_cont(int sig)
{
    (void)sig;
    continued = 1;
}

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
    char shown[2][1024];
    if (o->progress)
        fprintf(stderr, "[%d/%d] %s %s%s%s\n", p->done, p->plan->n, ok ? "ok  " : "FAIL",
                cv_escape(p->profiles[job], shown[0], sizeof shown[0]),
                ok && !o->dump ? " -> " : "",
                ok && !o->dump ? cv_escape(p->plan->outs[job], shown[1], sizeof shown[1]) : "");
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
 * closes the socket, the k-th profile's messages on errw[k % 2]. */
static _Noreturn void work(const pool *p, long self, int ctl, const int errw[2],
                           pid_t parent, const sigset_t *mask)
{
    /* Die with the parent, cleanly (stop.h); if it is gone already, the
     * signal came too late.  The signals spawn() held back come now, with
     * the parent's workers forgotten. */
    cv_stop_forget_workers();
    sigprocmask(SIG_SETMASK, mask, NULL);
    signal(SIGCONT, SIG_DFL);
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
        _exit(1);
    for (long k = 0; k < p->nw; k++)
        if (k != self && p->ws[k].pid) {
            close(p->ws[k].ctl);
            for (int i = 0; i < 2; i++)
                if (p->ws[k].err[i].fd >= 0)
                    close(p->ws[k].err[i].fd);
        }
    int job;
    for (unsigned k = 0; recv(ctl, &job, sizeof job, 0) == (ssize_t)sizeof job; k++) {
        dup2(errw[k % 2], STDERR_FILENO);
        const char *prof = p->profiles[job];
        test_fault(prof);
        bool ok = cv_render_one(p->r, prof, p->plan->outs[job]);
        /* --dump and --explain: the text is out before the answer. */
        if (fflush(stdout) != 0 || ferror(stdout)) {
            char shown[1024];
            fprintf(stderr, "%s: error: cannot write the standard output: %s\n",
                    cv_escape(prof, shown, sizeof shown), strerror(errno));
            clearerr(stdout);
            ok = false;
        }
        fflush(stderr);
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
    int sv[2], ep[2][2] = {{-1, -1}, {-1, -1}};
    if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0)
        return false;
    if (pipe(ep[0]) != 0 || pipe(ep[1]) != 0) {
        int e = errno;
        close(sv[0]), close(sv[1]);
        for (int i = 0; i < 2; i++)
            if (ep[i][0] >= 0)
                close(ep[i][0]), close(ep[i][1]);
        errno = e;
        return false;
    }
    fflush(NULL);
    pid_t parent = getpid();
    /* No stopping signal between the fork and the worker's being listed
     * (stop.h): a worker not yet listed would outlive the run. */
    sigset_t old;
    cv_out_block_signals(&old);
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]), close(ep[0][0]), close(ep[1][0]);
        int errw[2] = {ep[0][1], ep[1][1]};
        work(p, w - p->ws, sv[1], errw, parent, &old);
    }
    int e = errno;
    if (pid > 0)
        cv_stop_worker(pid, 1);
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(sv[1]), close(ep[0][1]), close(ep[1][1]);
    if (pid < 0) {
        close(sv[0]), close(ep[0][0]), close(ep[1][0]);
        errno = e;
        return false;
    }
    w->pid = pid;
    w->ctl = sv[0];
    for (int i = 0; i < 2; i++) {
        fcntl(ep[i][0], F_SETFL, O_NONBLOCK);
        w->err[i].fd = ep[i][0];
        w->err[i].len = 0;
    }
    w->job[0] = w->job[1] = -1;
    w->answered = 0;
    return true;
}

/* Read what the worker has written on pipe e so far; at its end-of-file,
 * close it. */
static void drain(said *e)
{
    while (e->fd >= 0) {
        if (e->cap - e->len < 4096) {
            e->cap = e->cap ? e->cap * 2 : 8192;
            e->msg = cv_xrealloc(e->msg, e->cap);
        }
        ssize_t got = read(e->fd, e->msg + e->len, e->cap - e->len);
        if (got > 0) {
            e->len += (size_t)got;
        } else if (got < 0 && errno == EINTR) {
            continue;
        } else {
            if (got == 0 || errno != EAGAIN) {
                close(e->fd);
                e->fd = -1;
            }
            return;
        }
    }
}

/* Print what the worker wrote on pipe e for its profile, as one block. */
static void relay(said *e)
{
    if (e->len)
        fwrite(e->msg, 1, e->len, stderr);
    e->len = 0;
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

/* A worker that ended during profile `job`, before its answer, did not
 * render it: say how it ended, unless it said an error itself (`spoke`:
 * libbtparse's last guard, for one, names the .bib).
 * An exit without a word is an ending too: a library's exit(), or a
 * sanitizer's report, which names no profile. */
static void verdict(const pool *p, int job, pid_t pid, int status, bool timed_out,
                    bool spoke)
{
    const cv_options *o = p->r->opt;
    char shown[1024];
    const char *prof = cv_escape(p->profiles[job], shown, sizeof shown);
    if (timed_out)
        fprintf(stderr, "%s: error: gave up after %g s (--timeout); nothing written\n", prof,
                o->timeout);
    else if (WIFSIGNALED(status))
        fprintf(stderr, "%s: error: cvpdf crashed on this profile (%s); nothing written\n",
                prof, strsignal(WTERMSIG(status)));
    else if (!spoke)
        fprintf(stderr, "%s: error: cvpdf ended on this profile (exit status %d) before "
                "rendering it; nothing written\n", prof,
                WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    if (!o->dump)
        remove_leftovers(p->plan->outs[job], pid);
}

/* The worker in w has ended (or is ending), or cannot be talked to, or has
 * run out of time (both: killed now): wait for it, print what it wrote,
 * report the profile it was rendering, hand the one sent ahead out again,
 * and empty the slot. */
static void bury(pool *p, worker *w, ending how)
{
    if (how != ENDED)
        kill(w->pid, SIGKILL);
    int status = 0;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    cv_stop_worker(w->pid, 0);
    said *now_e = &w->err[w->answered % 2], *ahead_e = &w->err[(w->answered + 1) % 2];
    for (int i = 0; i < 2; i++) {
        drain(&w->err[i]);           /* to its end: every writer is gone */
        if (w->err[i].fd >= 0)
            close(w->err[i].fd);
    }
    close(w->ctl);
    bool spoke = now_e->len && memmem(now_e->msg, now_e->len, ": error: ", 9);
    relay(now_e);
    if (w->job[0] >= 0) {
        verdict(p, w->job[0], w->pid, status, how == TIMED_OUT, spoke);
        report(p, w->job[0], false);
    }
    if (w->job[1] >= 0) {
        /* Not begun (its answer would have come first), unless the worker
         * was killed in between: then what it left goes too. */
        if (how != ENDED && !p->r->opt->dump)
            remove_leftovers(p->plan->outs[w->job[1]], w->pid);
        p->again[p->nagain++] = w->job[1];
    }
    ahead_e->len = 0;
    *w = (worker){.err = {{-1, now_e->msg, 0, now_e->cap}, {-1, ahead_e->msg, 0, ahead_e->cap}},
                  .job = {-1, -1}};
}

/* The worker answered for its profile: print its messages, report it; the
 * one sent ahead is now the one it renders. */
static void finish(pool *p, worker *w, bool ok)
{
    said *e = &w->err[w->answered % 2];
    drain(e);
    relay(e);
    int job = w->job[0];
    w->job[0] = w->job[1];
    w->job[1] = -1;
    w->answered++;
    w->start = now();
    report(p, job, ok);
}

/* Read the worker's answer, or learn that it has ended. */
static void hear(pool *p, worker *w, int flags)
{
    char answer;
    ssize_t got = recv(w->ctl, &answer, 1, flags);
    if (got == 1 && w->job[0] >= 0)
        finish(p, w, answer != 0);
    else if (got == 0)
        bury(p, w, ENDED);
    else if (got < 0 && errno != EAGAIN && errno != EINTR)
        bury(p, w, BROKEN);
}

/* How many profiles are still to be handed out. */
static int waiting(const pool *p)
{
    return p->nagain + (p->plan->n - p->next);
}

/* The next profile to hand out. */
static int take(pool *p)
{
    return p->nagain ? p->again[--p->nagain] : p->next++;
}

/* Give worker w the next profile: to render now, or to render next. */
static void hand_out(pool *p, worker *w)
{
    int job = take(p);
    if (w->job[0] < 0) {
        w->job[0] = job;
        w->start = now();
    } else {
        w->job[1] = job;
    }
    if (send(w->ctl, &job, sizeof job, MSG_NOSIGNAL) != (ssize_t)sizeof job)
        bury(p, w, BROKEN);   /* reported as ending on the profile it had */
}

/* Milliseconds until the first worker's time is up, or -1: no limit. */
static int next_deadline(const pool *p)
{
    double timeout = p->r->opt->timeout, first = -1;
    for (long k = 0; timeout > 0 && k < p->nw; k++) {
        const worker *w = &p->ws[k];
        if (w->pid && w->job[0] >= 0) {
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
        for (int i = 0; i < 2; i++)
            if (p->ws[k].err[i].fd >= 0) {
                who[nfds] = k;
                fds[nfds++] = (struct pollfd){.fd = p->ws[k].err[i].fd, .events = POLLIN};
            }
    }
    if (poll(fds, nfds, next_deadline(p)) > 0)
        for (nfds_t i = 0; i < nfds; i++) {
            worker *w = &p->ws[who[i]];
            if (!fds[i].revents || !w->pid)
                continue;
            if (fds[i].fd == w->ctl)
                hear(p, w, MSG_DONTWAIT);
            else
                for (int e = 0; e < 2; e++)
                    if (fds[i].fd == w->err[e].fd)
                        drain(&w->err[e]);
        }
    double timeout = p->r->opt->timeout;
    if (continued) {
        /* Stopped with its workers, and continued: their clocks start
         * again, so that a stop longer than --timeout costs nothing. */
        continued = 0;
        for (long k = 0; k < p->nw; k++)
            p->ws[k].start = now();
    }
    for (long k = 0; timeout > 0 && k < p->nw; k++) {
        worker *w = &p->ws[k];
        if (!w->pid || w->job[0] < 0 || now() - w->start < timeout)
            continue;
        hear(p, w, MSG_DONTWAIT);         /* an answer just in time counts */
        if (w->pid && w->job[0] >= 0 && now() - w->start >= timeout)
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
    struct sigaction cont = {.sa_handler = on_cont, .sa_flags = SA_RESTART}, old_cont;
    sigemptyset(&cont.sa_mask);
    sigaction(SIGCONT, &cont, &old_cont);
    while (p->done < n) {
        for (long k = 0; k < p->nw && waiting(p) > 0; k++) {
            worker *w = &p->ws[k];
            if (!w->pid && !spawn(p, w)) {
                /* A limit on processes (ulimit -u, a container's pids.max)
                 * reached: the workers there are render the rest.  Only
                 * with none can a profile not be rendered. */
                bool others = false;
                for (long i = 0; i < p->nw && !others; i++)
                    others = p->ws[i].pid != 0;
                if (others)
                    continue;
                int job = take(p);
                char shown[1024];
                fprintf(stderr, "%s: error: cannot start a worker: %s\n",
                        cv_escape(p->profiles[job], shown, sizeof shown), strerror(errno));
                p->failed++, p->done++;
                continue;
            }
            if (w->job[0] < 0)
                hand_out(p, w);
        }
        /* Then, every worker busy, one sent ahead to each while there are
         * more than the workers can begin, so that the last ones go to
         * whichever is free. */
        for (long k = 0; k < p->nw && waiting(p) > p->nw; k++) {
            worker *w = &p->ws[k];
            if (w->pid && w->job[0] >= 0 && w->job[1] < 0)
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
    sigaction(SIGCONT, &old_cont, NULL);
    return p->failed;
}

int cv_batch_run(const cv_renderer *r, const cv_plan *plan)
{
    const cv_options *o = r->opt;
    int n = plan->n;
    /* Under --watch a profile past --timeout must not end the process: it
     * is rendered in a worker, however many there are. */
    bool isolate = o->watch && o->timeout > 0;
    if (!isolate && (n == 1 || o->jobs == 0)) {
        int failed = 0;
        for (int i = 0; i < n; i++) {
            cv_stop_timeout(o->timeout, o->profiles[i]);
            test_fault(o->profiles[i]);
            bool ok = cv_render_one(r, o->profiles[i], plan->outs[i]);
            cv_stop_timeout(0, NULL);
            failed += !ok;
            char shown[1024];
            if (o->progress && n > 1)
                fprintf(stderr, "[%d/%d] %s %s\n", i + 1, n, ok ? "ok  " : "FAIL",
                        cv_escape(o->profiles[i], shown, sizeof shown));
        }
        return failed;
    }
    pool p = {.r = r, .plan = plan, .profiles = o->profiles, .nw = o->jobs > n ? n : o->jobs};
    if (p.nw < 1)
        p.nw = 1;
    /* Text on one stdout (--dump, --explain) comes one profile after another. */
    if (o->dump || o->explain)
        p.nw = 1;
    p.ws = cv_xrealloc(NULL, (size_t)p.nw * sizeof *p.ws);
    p.fds = cv_xrealloc(NULL, 3 * (size_t)p.nw * sizeof *p.fds);
    p.who = cv_xrealloc(NULL, 3 * (size_t)p.nw * sizeof *p.who);
    p.again = cv_xrealloc(NULL, (size_t)p.nw * sizeof *p.again);
    for (long k = 0; k < p.nw; k++)
        p.ws[k] = (worker){.err = {{.fd = -1}, {.fd = -1}}, .job = {-1, -1}};
    int failed = in_workers(&p);
    for (long k = 0; k < p.nw; k++)
        free(p.ws[k].err[0].msg), free(p.ws[k].err[1].msg);
    free(p.again);
    free(p.ws);
    free(p.fds);
    free(p.who);
    return failed;
}
