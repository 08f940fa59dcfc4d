/* output.c - writing an output file without ever losing one (output.h).
 *
 * cv_out_open() finds where the bytes go before anything is written:
 *
 *   "-"                      the standard output, as it is (not a terminal);
 *   a device, FIFO, socket   the path itself, opened for writing, never
 *                            created or replaced (/dev/null stays a device);
 *   a path through /proc     written straight through too: /dev/stdout and
 *                            /dev/fd/N lead to /proc/self/fd/N, whose link
 *                            text is no path to rename onto;
 *   a symlink                followed, link by link, to the file it names,
 *                            which is then replaced like any regular file;
 *   a regular file or none   an unnamed temporary file in the same directory
 *                            (O_TMPFILE), linked to a name and renamed over
 *                            the target only at cv_out_commit().
 *
 * The one piece of state at file scope is the list of named temporary
 * files (only where O_TMPFILE is not supported, and for the instant between
 * linking an unnamed file to a name and renaming it), which the signal
 * handlers of the driver clear through cv_out_cleanup().  It is written
 * with the signals it serves blocked.
 */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "arena.h"

/* ---- Inputs ---------------------------------------------------------- */

typedef struct input {
    dev_t dev;
    ino_t ino;
    const char *what;
    char *path;              /* as first noted (a copy) */
    bool installed;          /* cvpdf's own (cv_inputs_add_installed()) */
} input;

struct cv_inputs {
    input *v;
    size_t n, cap;
};

cv_inputs *cv_inputs_new(void)
{
    return cv_xcalloc(1, sizeof(cv_inputs));
}

void cv_inputs_free(cv_inputs *in)
{
    for (size_t i = 0; in && i < in->n; i++)
        free(in->v[i].path);
    if (in)
        free(in->v);
    free(in);
}

static void add(cv_inputs *in, const char *path, const char *what, bool installed)
{
    struct stat st;
    if (!in || !path || stat(path, &st) != 0)
        return;
    for (size_t i = 0; i < in->n; i++)
        if (in->v[i].dev == st.st_dev && in->v[i].ino == st.st_ino)
            return;
    if (in->n == in->cap) {
        in->cap = in->cap ? in->cap * 2 : 16;
        in->v = cv_xrealloc(in->v, in->cap * sizeof *in->v);
    }
    in->v[in->n++] = (input){st.st_dev, st.st_ino, what, cv_xstrdup(path), installed};
}

void cv_inputs_add(cv_inputs *in, const char *path, const char *what)
{
    add(in, path, what, false);
}

void cv_inputs_add_installed(cv_inputs *in, const char *path, const char *what)
{
    add(in, path, what, true);
}

bool cv_inputs_installed(const cv_inputs *in, size_t i)
{
    return in->v[i].installed;
}

size_t cv_inputs_count(const cv_inputs *in)
{
    return in ? in->n : 0;
}

const char *cv_inputs_path(const cv_inputs *in, size_t i, const char **what)
{
    if (what)
        *what = in->v[i].what;
    return in->v[i].path;
}

/* The input that is the file `st`.  An input is matched only while its
 * path still leads to it: a file saved again under the same name (a new
 * inode, --watch) frees the old one's inode number, which an output may
 * then be given. */
static const char *find_stat(const cv_inputs *in, const struct stat *st)
{
    for (size_t i = 0; in && i < in->n; i++) {
        struct stat now;
        if (in->v[i].dev == st->st_dev && in->v[i].ino == st->st_ino &&
            stat(in->v[i].path, &now) == 0 && now.st_dev == st->st_dev &&
            now.st_ino == st->st_ino)
            return in->v[i].what;
    }
    return NULL;
}

/* Is the file `path` leads to a font, by its name (its links followed)?
 * The faces a worker finds through fontconfig when a script needs one
 * (engine.h: Noto Sans Hebrew, a CJK collection's region) are opened only
 * then, after the outputs are planned: a font is never an output. */
static bool is_font_file(const char *path)
{
    static const char *const ext[] = {".ttf", ".otf", ".ttc", ".otc", ".pfb", ".pfa",
                                      ".woff", ".woff2", ".dfont", ".pcf", ".bdf"};
    char real[PATH_MAX];
    if (!realpath(path, real))
        return false;
    const char *dot = strrchr(real, '.');
    for (size_t i = 0; dot && i < sizeof ext / sizeof *ext; i++)
        if (!strcasecmp(dot, ext[i]))
            return true;
    return false;
}

const char *cv_inputs_find(const cv_inputs *in, const char *path)
{
    struct stat st;
    if (!in || stat(path, &st) != 0)
        return NULL;
    const char *what = find_stat(in, &st);
    if (!what && S_ISREG(st.st_mode) && is_font_file(path))
        what = "a font file";
    return what;
}

/* ---- Named temporary files, for the signal handlers ---------------------- */

/* The list grows (with the signals blocked) as pages are parked: a set of
 * PNG pages may hold a name per page.  The handler reads `named` and
 * `max_named` only. */
static char *volatile *volatile named;
static volatile size_t max_named;

void cv_out_block_signals(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGHUP);
    sigaddset(&s, SIGALRM);
    sigprocmask(SIG_BLOCK, &s, old);
}

/* Remember `name` for cv_out_cleanup(); false when the list is full. */
static bool name_add(char *name)
{
    sigset_t old;
    cv_out_block_signals(&old);
    bool ok = false;
    for (size_t i = 0; i < max_named && !ok; i++)
        if (!named[i]) {
            named[i] = name;
            ok = true;
        }
    if (!ok && max_named < (1u << 20)) {
        size_t n = max_named ? max_named * 2 : 64;
        char *volatile *v = calloc(n, sizeof *v);
        if (v) {
            for (size_t i = 0; i < max_named; i++)
                v[i] = named[i];
            v[max_named] = name;
            char *volatile *old_v = named;
            named = v;
            max_named = n;
            free((void *)old_v);
            ok = true;
        }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return ok;
}

static void name_drop(const char *name)
{
    sigset_t old;
    cv_out_block_signals(&old);
    for (size_t i = 0; i < max_named; i++)
        if (named[i] == name)
            named[i] = NULL;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void cv_out_cleanup(void)
{
    for (size_t i = 0; i < max_named; i++) {
        char *name = named[i];
        if (name)
            unlink(name);
    }
}

/* ---- Opening ------------------------------------------------------------- */

typedef enum { THROUGH, UNNAMED, NAMED } kind;

struct cv_out {
    kind kind;
    int fd;
    bool is_stdout;
    const char *path;        /* as given, for messages */
    char *target;            /* the file replaced (after links) */
    char *temp;              /* NAMED: the temporary file's name */
    bool failed;
};

static bool fail_at(cv_error *err, const char *path, int e)
{
    char shown[CV_SHORT_MAX + 4];
    return cv_error_at(err, (cv_pos){path, 0, 0}, "cannot write '%s': %s",
                       cv_short(path, shown, sizeof shown), strerror(e));
}

/* The directory part of `path` ("." for none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return cv_xstrdup(".");
    if (slash == path)
        return cv_xstrdup("/");
    size_t n = (size_t)(slash - path);
    char *d = cv_xmalloc(n + 1);
    memcpy(d, path, n);
    d[n] = 0;
    return d;
}

/* Follow the symlinks of the last component of `path` to the file they
 * name (which may not exist yet).  *through is set when a link leads into
 * /proc (a file descriptor's magic link).  NULL with errno set on a loop
 * or an unreadable link. */
static char *resolve(const char *path, bool *through)
{
    char *t = cv_xstrdup(path);
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(t, &st) != 0 || !S_ISLNK(st.st_mode))
            return t;
        if (hops == 40) {
            free(t);
            errno = ELOOP;
            return NULL;
        }
        char link[PATH_MAX];
        ssize_t k = readlink(t, link, sizeof link - 1);
        if (k < 0) {
            free(t);
            return NULL;
        }
        link[k] = 0;
        if (!strncmp(link, "/proc/", 6) || !strncmp(t, "/proc/", 6))
            *through = true;
        char *next;
        if (link[0] == '/') {
            next = cv_xstrdup(link);
        } else {
            char *d = dir_of(t);
            next = cv_xmalloc(strlen(d) + strlen(link) + 2);
            sprintf(next, "%s/%s", d, link);
            free(d);
        }
        free(t);
        t = next;
    }
}

char *cv_out_landing(const char *path)
{
    bool through = false;
    char *t = resolve(path, &through);
    if (!t)
        return NULL;
    char *d = dir_of(t), real[PATH_MAX], *out = NULL;
    const char *slash = strrchr(t, '/');
    if (realpath(d, real)) {
        const char *name = slash ? slash + 1 : t;
        out = cv_xmalloc(strlen(real) + strlen(name) + 2);
        sprintf(out, "%s/%s", real, name);
    }
    free(d);
    free(t);
    return out;
}

/* A named temporary file in `dir`, mode 0666 less the umask. */
static int open_named(cv_out *o, const char *dir)
{
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    size_t n = strlen(dir) + 40;
    o->temp = cv_xmalloc(n);
    unsigned long r = (unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16) ^
                      (unsigned long)(size_t)o;
    for (int tries = 0; tries < 100; tries++) {
        char x[7];
        for (int i = 0; i < 6; i++) {
            r = r * 6364136223846793005UL + 1442695040888963407UL;
            x[i] = digits[(r >> 33) % 36];
        }
        x[6] = 0;
        snprintf(o->temp, n, "%s/" CV_TEMP_PREFIX "%ld-%s", dir, (long)getpid(), x);
        sigset_t old;
        cv_out_block_signals(&old);
        int fd = open(o->temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        bool listed = fd >= 0 && name_add(o->temp);
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (fd >= 0 && !listed) {
            unlink(o->temp);
            close(fd);
            errno = EMFILE;
            return -1;
        }
        if (fd >= 0)
            return fd;
        if (errno != EEXIST)
            break;
    }
    int e = errno;
    free(o->temp);
    o->temp = NULL;
    errno = e;
    return -1;
}

/* Give the temporary file the mode (and owner) of the file it replaces. */
static void keep_mode(int fd, const char *target)
{
    struct stat st;
    if (stat(target, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    /* The owner first: chown may clear set-id bits that fchmod then sets. */
    if (fchown(fd, st.st_uid, st.st_gid) != 0 && fchown(fd, (uid_t)-1, st.st_gid) != 0) {
        /* Not allowed: the runner owns the new file. */
    }
    if (fchmod(fd, st.st_mode & 07777) != 0) {
        /* The temporary file is the runner's, so this does not fail. */
    }
}

/* The descriptor a path names through /proc/self/fd (/dev/stdout,
 * /dev/fd/1, /proc/self/fd/1), or -1. */
static int descriptor_of(const char *path)
{
    char buf[PATH_MAX];
    const char *p = path;
    for (int hops = 0; hops < 8; hops++) {
        if (!strncmp(p, "/proc/self/fd/", 14) || !strncmp(p, "/dev/fd/", 8)) {
            const char *n = p + (p[1] == 'p' ? 14 : 8);
            char *end;
            long fd = strtol(n, &end, 10);
            return *n && !*end && fd >= 0 && fd < 1024 ? (int)fd : -1;
        }
        ssize_t k = readlink(p, buf, sizeof buf - 1);
        if (k < 0 || buf[0] != '/')
            return -1;
        buf[k] = 0;
        p = buf;
    }
    return -1;
}

static cv_out *open_stdout(cv_out *o, const char *what, cv_error *err)
{
    if (what && isatty(STDOUT_FILENO)) {
        cv_error_at(err, (cv_pos){"-", 0, 0}, "will not write %s to a terminal; redirect "
                    "the standard output to a file or a pipe, or give -o FILE", what);
        free(o);
        return NULL;
    }
    o->fd = STDOUT_FILENO;
    o->is_stdout = true;
    return o;
}

cv_out *cv_out_open(const char *path, const cv_inputs *in, cv_error *err)
{
    return cv_out_open_as(path, in, "a PDF", err);
}

cv_out *cv_out_open_as(const char *path, const cv_inputs *in, const char *noun,
                       cv_error *err)
{
    cv_out *o = cv_xcalloc(1, sizeof *o);
    o->fd = -1;
    o->path = path;
    o->kind = THROUGH;
    if (!strcmp(path, "-"))
        return open_stdout(o, noun, err);

    struct stat st;
    bool exists = stat(path, &st) == 0;
    const char *what = exists ? find_stat(in, &st) : NULL;
    if (what) {
        cv_error_at(err, (cv_pos){path, 0, 0}, "this is an input (%s); it will not be "
                    "overwritten with a PDF", what);
        free(o);
        return NULL;
    }
    if (exists && S_ISDIR(st.st_mode)) {
        fail_at(err, path, EISDIR);
        free(o);
        return NULL;
    }
    bool through = exists && !S_ISREG(st.st_mode);
    o->target = resolve(path, &through);
    if (!o->target) {
        fail_at(err, path, errno);
        free(o);
        return NULL;
    }
    int fdn = descriptor_of(path);
    if (through && fdn >= 0) {
        /* /dev/stdout, /dev/fd/N: the descriptor itself, which this
         * process may write even where it may not open the file again (a
         * pipe another user made). */
        o->fd = fcntl(fdn, F_DUPFD_CLOEXEC, 3);
        if (o->fd < 0) {
            fail_at(err, path, errno);
            cv_out_abort(o);
            return NULL;
        }
        if (exists && S_ISREG(st.st_mode) && ftruncate(o->fd, 0) != 0 && errno != EINVAL) {
            /* A file opened for appending keeps what it holds. */
        }
        return o;
    }
    if (through) {
        /* Never created, never truncated unless a regular file. */
        int fl = O_WRONLY | O_CLOEXEC | O_NOCTTY | (exists && S_ISREG(st.st_mode) ? O_TRUNC : 0);
        o->fd = open(path, fl);
        if (o->fd < 0) {
            fail_at(err, path, errno);
            cv_out_abort(o);
            return NULL;
        }
        return o;
    }

    char *dir = dir_of(o->target);
    o->kind = UNNAMED;
    o->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (o->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
        o->kind = NAMED;
        o->fd = open_named(o, dir);
    }
    free(dir);
    if (o->fd < 0) {
        fail_at(err, path, errno);
        cv_out_abort(o);
        return NULL;
    }
    keep_mode(o->fd, o->target);
    return o;
}

/* ---- Writing ------------------------------------------------------------- */

bool cv_out_write(cv_out *o, const void *p, size_t n, cv_error *err)
{
    const char *s = p;
    while (n > 0 && !o->failed) {
        ssize_t w = write(o->fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            o->failed = true;
            return fail_at(err, o->path, w < 0 ? errno : EIO);
        }
        s += w;
        n -= (size_t)w;
    }
    return !o->failed;
}

/* Link the unnamed file to a fresh name beside the target. */
static bool link_unnamed(cv_out *o)
{
    char *dir = dir_of(o->target);
    size_t n = strlen(dir) + 40;
    o->temp = cv_xmalloc(n);
    char fdpath[64];
    snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", o->fd);
    bool ok = false;
    /* Numbered on from the last name this process took: a set of a
     * thousand parked pages has a thousand names beside each other. */
    static unsigned long next;
    for (int tries = 0; tries < 100 && !ok; tries++) {
        snprintf(o->temp, n, "%s/" CV_TEMP_PREFIX "%ld-%lu", dir, (long)getpid(), next++);
        if (!name_add(o->temp))
            break;
        ok = linkat(AT_FDCWD, fdpath, AT_FDCWD, o->temp, AT_SYMLINK_FOLLOW) == 0;
        /* Without /proc: by the descriptor itself (privileged). */
        if (!ok && errno == ENOENT)
            ok = linkat(o->fd, "", AT_FDCWD, o->temp, AT_EMPTY_PATH) == 0;
        if (!ok)
            name_drop(o->temp);
        if (!ok && errno != EEXIST)
            break;
    }
    free(dir);
    return ok;
}

bool cv_out_park(cv_out *o, cv_error *err)
{
    if (o->failed || o->is_stdout || o->kind == THROUGH || o->fd < 0)
        return !o->failed;
    int e = 0;
    sigset_t old;
    cv_out_block_signals(&old);
    bool ok = o->kind != UNNAMED || link_unnamed(o);
    if (!ok)
        e = errno;
    if (ok)
        o->kind = NAMED;            /* from now on a name to rename or remove */
    if (close(o->fd) != 0 && ok)
        ok = false, e = errno;
    o->fd = -1;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (!ok) {
        o->failed = true;
        fail_at(err, o->path, e ? e : EIO);
    }
    return ok;
}

static void release(cv_out *o)
{
    if (o->temp)
        name_drop(o->temp);
    free(o->temp);
    free(o->target);
    free(o);
}

bool cv_out_commit(cv_out *o, cv_error *err)
{
    const char *path = o->path;
    bool ok = !o->failed;
    int e = 0;
    /* The link and the rename must not be cut off by SIGINT half-way: the
     * target is either the old file or the new one. */
    sigset_t old;
    cv_out_block_signals(&old);
    if (!o->is_stdout) {
        if (ok && o->kind == UNNAMED && !link_unnamed(o))
            ok = false, e = errno;
        if (o->fd >= 0 && close(o->fd) != 0 && ok)
            ok = false, e = errno;
        if (ok && o->kind != THROUGH && rename(o->temp, o->target) != 0)
            ok = false, e = errno;
        if (!ok && o->temp)
            unlink(o->temp);
    }
    release(o);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (!ok && e)
        fail_at(err, path, e);
    return ok;
}

void cv_out_abort(cv_out *o)
{
    if (!o)
        return;
    if (o->fd >= 0 && !o->is_stdout)
        close(o->fd);
    if (o->temp && o->kind == NAMED)
        unlink(o->temp);
    release(o);
}
