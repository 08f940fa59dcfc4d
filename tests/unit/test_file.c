/* Unit tests for file.c: whole files within a limit, into an arena or
 * malloc'd; directories, FIFOs and missing files refused with a reason. */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"

static char dir[64];

static const char *at(const char *name)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

TEST(reads_whole_files)
{
    put(at("a.txt"), "hello\nworld\n");
    cv_arena *a = cv_arena_new();
    cv_file f;
    CHECK(cv_file_read(a, at("a.txt"), 100, false, &f));
    CHECK(f.status == CV_FILE_OK && f.len == 12 && f.size == 12);
    CHECK_STR(f.data, "hello\nworld\n");
    /* malloc'd without an arena. */
    CHECK(cv_file_read(NULL, at("a.txt"), 100, true, &f));
    CHECK_STR(f.data, "hello\nworld\n");
    free(f.data);
    /* Empty. */
    put(at("e.txt"), "");
    CHECK(cv_file_read(a, at("e.txt"), 100, false, &f) && f.len == 0 && f.data[0] == 0);
    cv_arena_free(a);
}

TEST(limits_and_refusals)
{
    cv_arena *a = cv_arena_new();
    cv_file f;
    CHECK(!cv_file_read(a, at("a.txt"), 11, false, &f) && f.status == CV_FILE_TOO_BIG);
    CHECK(f.size == 12);
    CHECK(cv_file_read(a, at("a.txt"), 12, false, &f));
    CHECK(!cv_file_read(a, at("missing"), 100, false, &f) && f.status == CV_FILE_OPEN &&
          f.err == ENOENT);
    CHECK(!cv_file_read(a, dir, 100, false, &f) && f.status == CV_FILE_DIR);
    /* A FIFO with no writer: refused at once with regular_only, not a hang. */
    CHECK(mkfifo(at("fifo"), 0600) == 0);
    CHECK(!cv_file_read(a, at("fifo"), 100, true, &f) && f.status == CV_FILE_NOT_REGULAR);
    cv_arena_free(a);
}

TEST(reads_pipes_to_the_end)
{
    int p[2];
    CHECK(pipe(p) == 0);
    char big[100000];
    memset(big, 'x', sizeof big);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        for (size_t off = 0; off < sizeof big;) {
            ssize_t w = write(p[1], big + off, sizeof big - off);
            if (w <= 0)
                _exit(1);
            off += (size_t)w;
        }
        _exit(0);
    }
    close(p[1]);
    cv_arena *a = cv_arena_new();
    cv_file f;
    CHECK(cv_file_read_fd(a, p[0], 1 << 20, &f) && f.len == sizeof big && f.size == -1);
    close(p[0]);
    cv_arena_free(a);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/cvpdf-file-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    RUN(reads_whole_files);
    RUN(limits_and_refusals);
    RUN(reads_pipes_to_the_end);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? harness_report("file") : 1;
}
