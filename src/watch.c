/* watch.c - waiting until an input changes (watch.h).
 *
 * One inotify instance; one watch per directory (the kernel gives a
 * directory watched twice the same descriptor) and a list of the names
 * followed in each.  An event names the directory by its watch descriptor
 * and the file by its name within it, which is all that is matched: the
 * file's inode may be new at every save.
 */
#include "watch.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#include "arena.h"

#define EVENTS (IN_CLOSE_WRITE | IN_MOVED_TO | IN_ATTRIB)

typedef struct followed {
    int wd;             /* its directory's watch */
    char *name;         /* its name in that directory */
    const char *path;   /* as the caller gave it (one of the copies in `paths`) */
} followed;

struct cv_watch {
    int fd;
    followed *v;
    size_t n, cap;
    char **paths;       /* each path given, copied */
    size_t npaths, cpaths;
};

cv_watch *cv_watch_new(cv_error *err)
{
    int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    if (fd < 0) {
        cv_error_at(err, (cv_pos){"cvpdf", 0, 0}, "cannot watch files for --watch: %s",
                    strerror(errno));
        return NULL;
    }
    cv_watch *w = cv_xcalloc(1, sizeof *w);
    w->fd = fd;
    return w;
}

void cv_watch_free(cv_watch *w)
{
    if (!w)
        return;
    close(w->fd);
    for (size_t i = 0; i < w->n; i++)
        free(w->v[i].name);
    for (size_t i = 0; i < w->npaths; i++)
        free(w->paths[i]);
    free(w->v);
    free(w->paths);
    free(w);
}

/* Follow the file `file` (a path) on behalf of `path`. */
static bool follow(cv_watch *w, const char *file, const char *path)
{
    const char *slash = strrchr(file, '/');
    const char *name = slash ? slash + 1 : file;
    if (!*name)
        return false;
    char dir[PATH_MAX];
    if (!slash)
        strcpy(dir, ".");
    else if (slash == file)
        strcpy(dir, "/");
    else if ((size_t)(slash - file) < sizeof dir)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - file), file);
    else
        return false;
    int wd = inotify_add_watch(w->fd, dir, EVENTS | IN_ONLYDIR);
    if (wd < 0)
        return false;
    for (size_t i = 0; i < w->n; i++)
        if (w->v[i].wd == wd && !strcmp(w->v[i].name, name))
            return true;
    if (w->n == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 16;
        w->v = cv_xrealloc(w->v, w->cap * sizeof *w->v);
    }
    w->v[w->n++] = (followed){wd, cv_xstrdup(name), path};
    return true;
}

bool cv_watch_add(cv_watch *w, const char *path)
{
    char *copy = NULL;
    for (size_t i = 0; i < w->npaths && !copy; i++)
        if (!strcmp(w->paths[i], path))
            copy = w->paths[i];
    bool ok = true;
    if (!copy) {
        if (w->npaths == w->cpaths) {
            w->cpaths = w->cpaths ? 2 * w->cpaths : 16;
            w->paths = cv_xrealloc(w->paths, w->cpaths * sizeof *w->paths);
        }
        copy = cv_xstrdup(path);
        w->paths[w->npaths++] = copy;
        ok = follow(w, copy, copy);
    }
    /* A symlink: where it leads is watched too, and again whenever it is
     * added (a save may have made the file a symlink, or moved the link). */
    char *real = realpath(path, NULL);
    if (real && strcmp(real, path))
        ok = follow(w, real, copy) || ok;
    free(real);
    return ok;
}

size_t cv_watch_count(const cv_watch *w)
{
    return w->npaths;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read the events waiting; the first followed file they change, or NULL.
 * *failed is set when inotify cannot be read. */
static const char *drain(cv_watch *w, bool *failed)
{
    const char *hit = NULL;
    _Alignas(struct inotify_event) char buf[16384];
    for (;;) {
        ssize_t got = read(w->fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            *failed = got == 0 || errno != EAGAIN;
            return hit;
        }
        for (char *p = buf; p < buf + got;) {
            const struct inotify_event *e = (const struct inotify_event *)(void *)p;
            p += sizeof *e + e->len;
            if (!e->len || !(e->mask & EVENTS))
                continue;
            for (size_t i = 0; i < w->n && !hit; i++)
                if (w->v[i].wd == e->wd && !strcmp(w->v[i].name, e->name))
                    hit = w->v[i].path;
        }
    }
}

const char *cv_watch_wait(cv_watch *w, int timeout_ms, int settle_ms)
{
    const char *hit = NULL;
    long long start = now_ms(), first = 0;
    for (;;) {
        int wait_ms = timeout_ms;
        if (hit) {
            /* Until quiet for settle_ms, within 10 x settle_ms of the first. */
            long long left = first + 10LL * settle_ms - now_ms();
            wait_ms = left <= 0 ? 0 : left < settle_ms ? (int)left : settle_ms;
        } else if (timeout_ms >= 0) {
            long long left = start + timeout_ms - now_ms();
            wait_ms = left <= 0 ? 0 : (int)left;
        }
        struct pollfd pfd = {w->fd, POLLIN, 0};
        int r = poll(&pfd, 1, wait_ms);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return hit;            /* quiet (or, without a change, timed out) */
        bool failed = false;
        const char *h = drain(w, &failed);
        if (failed)
            return hit;
        if (h && !hit) {
            hit = h;
            first = now_ms();
        }
    }
}
