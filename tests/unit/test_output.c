/* Unit tests for output.c: atomic replacement, modes kept, the umask
 * honoured, links followed, devices and FIFOs written through, inputs
 * refused, nothing left behind.  Everything happens in a fresh temporary
 * directory; the device is one made there with mknod (as root), never a
 * real one. */
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "output.h"

static char dir[64];
#include "errcheck.h"

static const char *at(const char *name)
{
    static char buf[8][256];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static bool put(const char *path, const char *text, const cv_inputs *in)
{
    cv_error_init(&E);
    cv_out *o = cv_out_open(path, in, &E);
    if (!o)
        return false;
    if (!cv_out_write(o, text, strlen(text), &E)) {
        cv_out_abort(o);
        return false;
    }
    return cv_out_commit(o, &E);
}

static char *slurp(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* Entries of the directory other than those listed (NULL-terminated). */
static int others(const char *const *keep)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        bool known = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
        for (const char *const *k = keep; *k && !known; k++)
            known = !strcmp(e->d_name, *k);
        n += !known;
    }
    closedir(d);
    return n;
}

TEST(new_file_honours_umask)
{
    mode_t old = umask(077);
    CHECK(put(at("a.pdf"), "one", NULL));
    umask(old);
    struct stat st;
    CHECK(stat(at("a.pdf"), &st) == 0 && (st.st_mode & 0777) == 0600);
    CHECK_STR(slurp(at("a.pdf")), "one");
    old = umask(022);
    CHECK(put(at("b.pdf"), "two", NULL));
    umask(old);
    CHECK(stat(at("b.pdf"), &st) == 0 && (st.st_mode & 0777) == 0644);
}

TEST(replace_keeps_mode_and_leaves_nothing)
{
    CHECK(put(at("c.pdf"), "old", NULL));
    chmod(at("c.pdf"), 0640);
    struct stat before, after;
    stat(at("c.pdf"), &before);
    CHECK(put(at("c.pdf"), "new", NULL));
    CHECK(stat(at("c.pdf"), &after) == 0 && (after.st_mode & 0777) == 0640);
    CHECK(after.st_ino != before.st_ino);             /* replaced, not rewritten */
    CHECK_STR(slurp(at("c.pdf")), "new");
    static const char *const keep[] = {"a.pdf", "b.pdf", "c.pdf", NULL};
    CHECK(others(keep) == 0);
}

TEST(abort_keeps_the_old_file)
{
    CHECK(put(at("d.pdf"), "good", NULL));
    cv_error_init(&E);
    cv_out *o = cv_out_open(at("d.pdf"), NULL, &E);
    CHECK(o && cv_out_write(o, "half", 4, &E));
    cv_out_abort(o);
    CHECK_STR(slurp(at("d.pdf")), "good");
    static const char *const keep[] = {"a.pdf", "b.pdf", "c.pdf", "d.pdf", NULL};
    CHECK(others(keep) == 0);
}

TEST(symlinks_write_their_target)
{
    mkdir(at("sub"), 0755);
    CHECK(put(at("sub/t.pdf"), "target", NULL));
    CHECK(symlink("sub/t.pdf", at("link.pdf")) == 0);
    CHECK(symlink("link.pdf", at("link2.pdf")) == 0);
    CHECK(put(at("link2.pdf"), "through", NULL));
    struct stat st;
    CHECK(lstat(at("link.pdf"), &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(lstat(at("link2.pdf"), &st) == 0 && S_ISLNK(st.st_mode));
    CHECK_STR(slurp(at("sub/t.pdf")), "through");
    /* A dangling link: its target is created. */
    CHECK(symlink("sub/new.pdf", at("dangling.pdf")) == 0);
    CHECK(put(at("dangling.pdf"), "made", NULL));
    CHECK_STR(slurp(at("sub/new.pdf")), "made");
    CHECK(lstat(at("dangling.pdf"), &st) == 0 && S_ISLNK(st.st_mode));
    /* A loop is an error, not a hang. */
    CHECK(symlink("loop2", at("loop1")) == 0 && symlink("loop1", at("loop2")) == 0);
    CHECK(!put(at("loop1"), "x", NULL));
    CHECK(has(E.msg, "cannot write") && has(E.msg, "Too many levels of symbolic links"));
}

TEST(inputs_refused_by_inode)
{
    CHECK(put(at("layout.yaml"), "page: {}\n", NULL));
    cv_inputs *in = cv_inputs_new();
    cv_inputs_add(in, at("layout.yaml"), "the layout");
    cv_inputs_add(in, at("missing.yaml"), "nothing");
    CHECK(!put(at("layout.yaml"), "PDF", in));
    CHECK(has(E.msg, "this is an input (the layout)"));
    CHECK(link(at("layout.yaml"), at("hard.pdf")) == 0);
    CHECK(!put(at("hard.pdf"), "PDF", in));
    CHECK(symlink("layout.yaml", at("soft.pdf")) == 0);
    CHECK(!put(at("soft.pdf"), "PDF", in));
    CHECK(cv_inputs_find(in, at("soft.pdf")) != NULL && !cv_inputs_find(in, at("a.pdf")));
    CHECK_STR(slurp(at("layout.yaml")), "page: {}\n");
    cv_inputs_free(in);
}

/* An input saved again under its name (a new file, as --watch sees every
 * save) is no longer the old file: the old one, still reachable through a
 * hard link, may be written, and its paths are listed for --watch. */
TEST(inputs_saved_again)
{
    CHECK(put(at("prof.yaml"), "cv:\n", NULL));
    CHECK(link(at("prof.yaml"), at("old.pdf")) == 0);
    cv_inputs *in = cv_inputs_new();
    cv_inputs_add(in, at("prof.yaml"), "a profile");
    CHECK(cv_inputs_find(in, at("old.pdf")) != NULL);
    CHECK(put(at("prof.new"), "cv:\n  name: B\n", NULL));
    CHECK(rename(at("prof.new"), at("prof.yaml")) == 0);
    CHECK(cv_inputs_find(in, at("old.pdf")) == NULL);
    CHECK(put(at("old.pdf"), "%PDF-", in));
    cv_inputs_add(in, at("prof.yaml"), "a profile");
    CHECK(cv_inputs_find(in, at("prof.yaml")) != NULL);
    CHECK(cv_inputs_count(in) == 2);
    const char *what = NULL;
    CHECK_STR(cv_inputs_path(in, 1, &what), at("prof.yaml"));
    CHECK_STR(what, "a profile");
    cv_inputs_free(in);
}

/* An input of the installation (a font, a module) is refused as an
 * output like any other but is not followed by --watch; a file noted twice
 * keeps what it was noted as first. */
TEST(inputs_installed)
{
    CHECK(put(at("face.ttf"), "not a font", NULL));
    CHECK(put(at("me.yaml"), "cv:\n", NULL));
    cv_inputs *in = cv_inputs_new();
    cv_inputs_add_installed(in, at("face.ttf"), "a font");
    cv_inputs_add(in, at("me.yaml"), "a profile");
    cv_inputs_add(in, at("face.ttf"), "a layout");
    cv_inputs_add_installed(in, at("me.yaml"), "a font");
    CHECK(cv_inputs_count(in) == 2);
    CHECK(cv_inputs_installed(in, 0) && !cv_inputs_installed(in, 1));
    const char *what = NULL;
    CHECK_STR(cv_inputs_path(in, 0, &what), at("face.ttf"));
    CHECK_STR(what, "a font");
    CHECK_STR(cv_inputs_find(in, at("face.ttf")), "a font");
    CHECK(!put(at("face.ttf"), "%PDF-", in));
    cv_inputs_free(in);
}

TEST(directory_refused)
{
    CHECK(!put(at("sub"), "x", NULL));
    CHECK(has(errstr(), "Is a directory"));
    CHECK(!put(at("nodir/x.pdf"), "x", NULL));
    CHECK(has(E.msg, "No such file or directory"));
}

/* A character device made here (as root): written through, still a
 * device afterwards. */
TEST(device_written_through)
{
    if (geteuid() != 0)
        return;
    CHECK(mknod(at("null"), S_IFCHR | 0666, makedev(1, 3)) == 0);
    CHECK(put(at("null"), "into the void", NULL));
    struct stat st;
    CHECK(lstat(at("null"), &st) == 0 && S_ISCHR(st.st_mode));
    /* Through a symlink too. */
    CHECK(symlink("null", at("nul-link")) == 0);
    CHECK(put(at("nul-link"), "again", NULL));
    CHECK(lstat(at("null"), &st) == 0 && S_ISCHR(st.st_mode));
    CHECK(lstat(at("nul-link"), &st) == 0 && S_ISLNK(st.st_mode));
}

TEST(fifo_written_through)
{
    CHECK(mkfifo(at("fifo"), 0600) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(at("fifo"), O_RDONLY);
        char buf[64];
        ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf);
        _exit(n == 4 && !memcmp(buf, "pipe", 4) ? 0 : 1);
    }
    CHECK(put(at("fifo"), "pipe", NULL));
    int status = 1;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct stat st;
    CHECK(lstat(at("fifo"), &st) == 0 && S_ISFIFO(st.st_mode));
}

/* Issue 25: a page set parks each written page as a named temporary file,
 * holding no descriptor; commit puts each in place, abort removes it. */
TEST(parked_files_hold_no_descriptor)
{
    enum { N = 200 };
    cv_out *o[N];
    int fds_before = 0, fds_parked = 0;
    DIR *d = opendir("/proc/self/fd");
    for (struct dirent *e; d && (e = readdir(d));)
        fds_before++;
    if (d)
        closedir(d);
    bool ok = true;
    for (int i = 0; i < N; i++) {
        char name[32];
        snprintf(name, sizeof name, "page-%d.png", i + 1);
        cv_error_init(&E);
        o[i] = cv_out_open(at(name), NULL, &E);
        ok = ok && o[i] && cv_out_write(o[i], "page", 4, &E) && cv_out_park(o[i], &E);
    }
    CHECK(ok);
    d = opendir("/proc/self/fd");
    for (struct dirent *e; d && (e = readdir(d));)
        fds_parked++;
    if (d)
        closedir(d);
    CHECK(fds_parked <= fds_before + 1);
    for (int i = 0; i < N / 2; i++)
        CHECK(o[i] && cv_out_commit(o[i], &E));
    for (int i = N / 2; i < N; i++)
        cv_out_abort(o[i]);
    CHECK_STR(slurp(at("page-1.png")), "page");
    CHECK_STR(slurp(at("page-100.png")), "page");
    CHECK(access(at("page-101.png"), F_OK) != 0);
    DIR *dd = opendir(dir);
    int temps = 0;
    for (struct dirent *e; dd && (e = readdir(dd));)
        temps += !strncmp(e->d_name, CV_TEMP_PREFIX, strlen(CV_TEMP_PREFIX));
    if (dd)
        closedir(dd);
    CHECK(temps == 0);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/cvpdf-out-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    RUN(new_file_honours_umask);
    RUN(replace_keeps_mode_and_leaves_nothing);
    RUN(abort_keeps_the_old_file);
    RUN(symlinks_write_their_target);
    RUN(inputs_refused_by_inode);
    RUN(inputs_saved_again);
    RUN(inputs_installed);
    RUN(directory_refused);
    RUN(device_written_through);
    RUN(fifo_written_through);
    RUN(parked_files_hold_no_descriptor);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    return harness_report("output");
}
