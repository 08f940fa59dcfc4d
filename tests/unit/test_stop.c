/* Unit tests for stop.c, each in a child process: --timeout ends a hung
 * render with its message and status 1; SIGTERM removes the named
 * temporary files and stops the workers, and the process ends by the
 * signal. */
#include "harness.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "output.h"
#include "stop.h"

/* Run fn in a child with stderr into a pipe; its status and stderr. */
static int child(void (*fn)(void), char *err, size_t size)
{
    int p[2];
    if (pipe(p) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(p[1], STDERR_FILENO);
        close(p[0]);
        fn();
        _exit(99);
    }
    close(p[1]);
    size_t n = 0;
    for (ssize_t k; n + 1 < size && (k = read(p[0], err + n, size - 1 - n)) > 0;)
        n += (size_t)k;
    err[n] = 0;
    close(p[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

static void hang_past_timeout(void)
{
    cv_stop_install();
    cv_stop_timeout(0.2, "slow\n.yaml");
    for (;;)
        pause();
}

TEST(timeout_gives_up)
{
    char err[512];
    int status = child(hang_past_timeout, err, sizeof err);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    /* The name's line feed cannot start a forged line. */
    CHECK_STR(err, "slow?.yaml: error: gave up after 0.2 s (--timeout); nothing written\n");
}

static void disarmed(void)
{
    cv_stop_install();
    cv_stop_timeout(0.1, "x.yaml");
    cv_stop_timeout(0, NULL);
    usleep(300000);
    _exit(0);
}

TEST(timeout_disarmed)
{
    char err[64];
    int status = child(disarmed, err, sizeof err);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0 && !err[0]);
}

static char dir[64];

/* A worker that sleeps, an unfinished output (through the named fallback
 * there is none here: O_TMPFILE leaves nothing anyway), then SIGTERM. */
static void terminated(void)
{
    cv_stop_install();
    pid_t w = fork();
    if (w == 0) {
        for (;;)
            pause();
    }
    cv_stop_worker(w, 1);
    char path[128];
    snprintf(path, sizeof path, "%s/out.pdf", dir);
    cv_error err;
    cv_error_init(&err);
    cv_out *o = cv_out_open(path, NULL, &err);
    if (!o || !cv_out_write(o, "%PDF", 4, &err))
        _exit(3);
    /* Tell the parent the worker's pid on stderr, then be killed. */
    fprintf(stderr, "%d\n", (int)w);
    fflush(stderr);
    kill(getpid(), SIGTERM);
    for (;;)
        pause();
}

TEST(sigterm_cleans_up)
{
    char err[64];
    int status = child(terminated, err, sizeof err);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    pid_t w = (pid_t)atoi(err);
    CHECK(w > 0 && kill(w, 0) != 0);                 /* the worker is gone */
    char cmd[160];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", dir);
    CHECK(system(cmd) == 0);                         /* nothing left behind */
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/cvpdf-stop-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    RUN(timeout_gives_up);
    RUN(timeout_disarmed);
    RUN(sigterm_cleans_up);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? harness_report("stop") : 1;
}
