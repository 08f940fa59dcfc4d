/* file.c - reading whole files (file.h). */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Grow a buffer from the arena, or with realloc() when there is none. */
static char *grow(cv_arena *a, char *buf, size_t old, size_t size)
{
    return a ? cv_arena_realloc(a, buf, old, size) : cv_xrealloc(buf, size);
}

static bool fail(cv_file *f, cv_file_status status, int e)
{
    f->status = status;
    f->err = e;
    return false;
}

bool cv_file_read(cv_arena *a, const char *path, size_t limit, bool regular_only, cv_file *f)
{
    *f = (cv_file){.size = -1};
    /* With regular_only, opening a FIFO must not hang waiting for a writer:
     * O_NONBLOCK, and the FIFO is refused below. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | (regular_only ? O_NONBLOCK : 0));
    if (fd < 0)
        return fail(f, CV_FILE_OPEN, errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return fail(f, CV_FILE_READ, e);
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return fail(f, CV_FILE_DIR, EISDIR);
    }
    if (regular_only && !S_ISREG(st.st_mode)) {
        close(fd);
        return fail(f, CV_FILE_NOT_REGULAR, 0);
    }
    if (S_ISREG(st.st_mode)) {
        f->size = (long long)st.st_size;
        if ((unsigned long long)st.st_size > limit) {
            close(fd);
            return fail(f, CV_FILE_TOO_BIG, 0);
        }
    }
    if (regular_only) {
        int flags = fcntl(fd, F_GETFL);
        if (flags >= 0)
            fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    }
    bool ok = cv_file_read_fd(a, fd, limit, f);
    close(fd);
    return ok;
}

bool cv_file_read_fd(cv_arena *a, int fd, size_t limit, cv_file *f)
{
    *f = (cv_file){.size = -1};
    struct stat st;
    size_t cap = 64 * 1024;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        f->size = (long long)st.st_size;
        /* The size, a byte to see that the file has not grown, the NUL. */
        if ((unsigned long long)st.st_size < limit)
            cap = (size_t)st.st_size + 2;
    }

    /* Read to the end, which may have moved since fstat() (pipes report no
     * size), never keeping more than the limit plus one byte. */
    char *buf = grow(a, NULL, 0, cap);
    size_t n = 0;
    for (;;) {
        if (n + 1 >= cap) {
            size_t nc = cap * 2;
            buf = grow(a, buf, cap, nc);
            cap = nc;
        }
        ssize_t k = read(fd, buf + n, cap - 1 - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            int e = errno;
            if (!a)
                free(buf);
            return fail(f, CV_FILE_READ, e);
        }
        if (k == 0)
            break;
        n += (size_t)k;
        if (n > limit) {
            if (!a)
                free(buf);
            return fail(f, CV_FILE_TOO_BIG, 0);
        }
    }
    buf[n] = '\0';
    f->data = buf;
    f->len = n;
    f->status = CV_FILE_OK;
    return true;
}
