/* file.h - the one whole-file reader.
 *
 * Profiles, layouts, defaults, photos and hyphenation patterns are read
 * whole, through cv_file_read(), which never reads past a size limit, never
 * blocks opening a FIFO it will refuse, and says why it failed so that each
 * caller can word its own message ("cannot open photo 'me.png': ...").
 */
#ifndef CV_FILE_H
#define CV_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

typedef enum cv_file_status {
    CV_FILE_OK,
    CV_FILE_OPEN,        /* open() failed: errno in `err` */
    CV_FILE_DIR,         /* a directory */
    CV_FILE_NOT_REGULAR, /* a FIFO, socket or device, with `regular_only` */
    CV_FILE_TOO_BIG,     /* larger than the limit (`size` says how large when known) */
    CV_FILE_READ,        /* read() failed: errno in `err` */
} cv_file_status;

typedef struct cv_file {
    char *data;          /* the bytes and a NUL after them */
    size_t len;
    long long size;      /* the size fstat() gave, or -1 (a pipe) */
    cv_file_status status;
    int err;             /* errno for CV_FILE_OPEN and CV_FILE_READ */
} cv_file;

/* Read the file at `path`, at most `limit` bytes, into memory from `a` (valid
 * until cv_arena_free()), or from malloc() when `a` is NULL (the caller
 * frees data).  With `regular_only`, anything but a regular file is
 * refused without reading it.  Returns false with f->status saying why; a
 * file that grows past the limit while it is read is CV_FILE_TOO_BIG. */
bool cv_file_read(cv_arena *a, const char *path, size_t limit, bool regular_only, cv_file *f);

/* The same from an open descriptor (not closed), e.g. the standard input:
 * read to its end.  f->size is set for a regular file only. */
bool cv_file_read_fd(cv_arena *a, int fd, size_t limit, cv_file *f);

#endif
