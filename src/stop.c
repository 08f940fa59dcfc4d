/* stop.c - stopping cleanly (stop.h). */
#include "stop.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "output.h"

/* Signal-handler state (stop.h): the live workers, and the message to say
 * when the profile rendered in this process runs out of time. */
#define MAX_WORKERS 1024
static volatile pid_t workers[MAX_WORKERS];
static char timeout_msg[1024];
static volatile sig_atomic_t timeout_len;
static volatile sig_atomic_t diag_fd = STDERR_FILENO;   /* cv_stop_diag_fd() */

static void stop_workers(void)
{
    for (size_t i = 0; i < MAX_WORKERS; i++)
        if (workers[i] > 0) {
            kill(workers[i], SIGTERM);
            kill(workers[i], SIGCONT);        /* a stopped one would never end */
        }
    for (size_t i = 0; i < MAX_WORKERS; i++)
        if (workers[i] > 0) {
            while (waitpid(workers[i], NULL, 0) < 0 && errno == EINTR)
                ;
            workers[i] = 0;
        }
}

static void on_signal(int sig)
{
    int saved = errno;
    stop_workers();
    cv_out_cleanup();
    if (sig == SIGALRM) {
        if (timeout_len > 0 && write(diag_fd, timeout_msg, (size_t)timeout_len) < 0) {
            /* Nothing more can be said. */
        }
        _exit(1);
    }
    /* End by the same signal: the default action, once this returns. */
    signal(sig, SIG_DFL);
    raise(sig);
    errno = saved;
}

/* Ctrl-Z: the time stopped is not the profile's.  The timer is paused
 * for the stop (an ITIMER_REAL runs on while the process is stopped, and
 * would end the run the moment it is continued), then resumed. */
static void on_tstp(int sig)
{
    int saved = errno;
    struct itimerval zero = {{0, 0}, {0, 0}}, left;
    setitimer(ITIMER_REAL, &zero, &left);
    signal(sig, SIG_DFL);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, sig);
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    raise(sig);                               /* stopped here until SIGCONT */
    sigprocmask(SIG_BLOCK, &s, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_tstp;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGALRM);
    sigaction(sig, &sa, NULL);
    if (left.it_value.tv_sec || left.it_value.tv_usec)
        setitimer(ITIMER_REAL, &left, NULL);
    errno = saved;
}

void cv_stop_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGALRM};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaddset(&sa.sa_mask, sigs[i]);
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old;
        /* A signal ignored when cvpdf started (nohup) stays ignored. */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN &&
            sigs[i] != SIGALRM)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
    struct sigaction old, tstp;
    memset(&tstp, 0, sizeof tstp);
    tstp.sa_handler = on_tstp;
    tstp.sa_flags = SA_RESTART;
    sigemptyset(&tstp.sa_mask);
    sigaddset(&tstp.sa_mask, SIGALRM);        /* not while the timer is paused */
    if (sigaction(SIGTSTP, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
        sigaction(SIGTSTP, &tstp, NULL);
}

void cv_stop_worker(pid_t pid, int started)
{
    sigset_t old;
    cv_out_block_signals(&old);
    for (size_t i = 0; i < MAX_WORKERS; i++)
        if (started ? workers[i] == 0 : workers[i] == pid) {
            workers[i] = started ? pid : 0;
            break;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void cv_stop_forget_workers(void)
{
    for (size_t i = 0; i < MAX_WORKERS; i++)
        workers[i] = 0;
}

/* The message the handler writes when `profile` runs out of `seconds`. */
static void prepare(double seconds, const char *profile)
{
    int n = snprintf(timeout_msg, sizeof timeout_msg,
                     "%s: error: gave up after %g s (--timeout); nothing written\n", profile,
                     seconds);
    int len = n < 0 ? 0 : n >= (int)sizeof timeout_msg ? (int)sizeof timeout_msg - 1 : n;
    /* Nothing in a file name may forge a line or reach the terminal. */
    for (int i = 0; i + 1 < len; i++)
        if ((unsigned char)timeout_msg[i] < 0x20 || timeout_msg[i] == 0x7F)
            timeout_msg[i] = '?';
    timeout_len = len;
}

static double timeout_seconds;

void cv_stop_timeout(double seconds, const char *profile)
{
    struct itimerval it = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &it, NULL);
    timeout_len = 0;
    timeout_seconds = 0;
    if (seconds <= 0 || !profile)
        return;
    prepare(seconds, profile);
    timeout_seconds = seconds;
    it.it_value.tv_sec = (time_t)seconds;
    it.it_value.tv_usec = (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6);
    setitimer(ITIMER_REAL, &it, NULL);
}

void cv_stop_timeout_about(const char *what)
{
    if (timeout_seconds <= 0 || !what)
        return;
    sigset_t alrm, old;
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    sigprocmask(SIG_BLOCK, &alrm, &old);
    prepare(timeout_seconds, what);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void cv_stop_diag_fd(int fd)
{
    diag_fd = fd >= 0 ? fd : STDERR_FILENO;
}
