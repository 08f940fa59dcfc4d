/* run.c - replay every input kept in tests/regress/ (make check).
 *
 * tests/regress/<target>/<name> is an input that once crashed, hung, leaked
 * or tripped a sanitizer in fuzz target <target> (tests/fuzz/fuzz_<target>.c),
 * kept after the fix so the bug stays fixed.  This program links the six
 * targets (each built with -DLLVMFuzzerTestOneInput=cv_fuzz_<target>) with
 * ASan and UBSan, and runs each file through its target in a child process
 * of its own, with a time limit, so that one crash is reported with its
 * file and the rest still run.  It ends with "regress: N passed, M failed",
 * the line tests/run.sh counts.  Run it from the repository root.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int cv_fuzz_profile(const uint8_t *data, size_t size);
int cv_fuzz_layout(const uint8_t *data, size_t size);
int cv_fuzz_markup(const uint8_t *data, size_t size);
int cv_fuzz_render(const uint8_t *data, size_t size);
int cv_fuzz_font(const uint8_t *data, size_t size);
int cv_fuzz_bib(const uint8_t *data, size_t size);

static const struct {
    const char *name;
    int (*run)(const uint8_t *, size_t);
} targets[] = {
    {"profile", cv_fuzz_profile},
    {"layout", cv_fuzz_layout},
    {"markup", cv_fuzz_markup},
    {"render", cv_fuzz_render},
    {"font", cv_fuzz_font},
    {"bib", cv_fuzz_bib},
};

#define TIME_LIMIT 60   /* seconds per input, sanitizers included */

static int cmp(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* In the child: read the file into an exact-size buffer and run it. */
static void child(int (*run)(const uint8_t *, size_t), const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        _exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
        perror(path);
        _exit(2);
    }
    fclose(f);
    alarm(TIME_LIMIT);
    run(buf, (size_t)n);
    free(buf);
    exit(0);        /* exit(), not _exit(): LeakSanitizer checks at exit */
}

static bool replay(int (*run)(const uint8_t *, size_t), const char *path)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return false;
    }
    if (pid == 0)
        child(run, path);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            perror("waitpid");
            return false;
        }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return true;
    if (WIFSIGNALED(status))
        fprintf(stderr, "FAIL %s: %s\n", path,
                WTERMSIG(status) == SIGALRM ? "took longer than the time limit"
                                            : strsignal(WTERMSIG(status)));
    else
        fprintf(stderr, "FAIL %s: exit status %d\n", path, WEXITSTATUS(status));
    return false;
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : "tests/regress";
    int passed = 0, failed = 0;
    for (size_t t = 0; t < sizeof targets / sizeof *targets; t++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", root, targets[t].name);
        DIR *d = opendir(dir);
        if (!d)
            continue;
        char **files = NULL;
        size_t n = 0;
        for (struct dirent *e; (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            files = realloc(files, (n + 1) * sizeof *files);
            files[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
            sprintf(files[n++], "%s/%s", dir, e->d_name);
        }
        closedir(d);
        qsort(files, n, sizeof *files, cmp);
        for (size_t i = 0; i < n; i++) {
            if (replay(targets[t].run, files[i]))
                passed++;
            else
                failed++;
            free(files[i]);
        }
        free(files);
    }
    printf("regress: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
