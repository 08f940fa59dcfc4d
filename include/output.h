/* output.h - writing an output file without ever losing one.
 *
 * Every PDF cvpdf writes goes through a cv_out, which keeps four promises:
 *
 *   - Never over an input.  Every file read for the run (profiles, layouts
 *     and the layouts they extend, fonts, photos, defaults, hyphenation
 *     patterns) is noted in a cv_inputs by device and inode; an output
 *     whose target is one of them is refused, whatever name reaches it
 *     (a symlink, "./x", a hard link).
 *   - Atomic.  A regular file (or a new one) is written to an unnamed
 *     temporary file (O_TMPFILE) in the target's directory and only linked
 *     into place, by rename(), once every byte is written: a failed or
 *     killed run leaves the previous file as it was and nothing beside it,
 *     even under SIGKILL.  Where the file system has no O_TMPFILE, a named
 *     temporary file (.cvpdf-PID-XXXXXX) is used and removed on failure and
 *     on SIGINT, SIGTERM and SIGHUP (cv_out_cleanup()).
 *   - Through links, not over them.  A symlink output writes its target
 *     (atomically, beside the target); the link stays a link.  A device, a
 *     FIFO or a socket (/dev/null, /dev/stdout when it is a pipe) is written
 *     straight through, never renamed over; "-" is the standard output,
 *     refused when it is a terminal.
 *   - Modes kept.  A replaced file keeps its mode, and its owner and group
 *     where the runner may set them; a new file is 0666 less the umask.
 */
#ifndef CV_OUTPUT_H
#define CV_OUTPUT_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>

#include "error.h"

/* A named temporary file is DIR/.cvpdf-PID-XXXXXX beside its target. */
#define CV_TEMP_PREFIX ".cvpdf-"

/* The files read for a run, by device and inode. */
typedef struct cv_inputs cv_inputs;

cv_inputs *cv_inputs_new(void);
void cv_inputs_free(cv_inputs *in);
/* Note `path` as an input, `what` saying what it is ("the layout", "a
 * font"; kept, not copied: a string that outlives `in`).  A path that does
 * not exist is ignored. */
void cv_inputs_add(cv_inputs *in, const char *path, const char *what);
/* The same for a file of cvpdf's installation rather than the user's (a
 * font, the hyphenation patterns, a file of the data directory, a
 * module): never an output either, but --watch does not follow it.  A file
 * noted twice keeps what it was noted as first. */
void cv_inputs_add_installed(cv_inputs *in, const char *path, const char *what);
/* What `path` is when it (or the file its links lead to) is an input, or
 * a font file (by its name: a face a worker may open later), else NULL. */
const char *cv_inputs_find(const cv_inputs *in, const char *path);
/* The inputs noted so far, 0 <= i < cv_inputs_count(in), by the path first
 * given for each file (a copy, valid until cv_inputs_free()), and what it
 * is in *what (when not NULL).  --watch follows those not installed.  A
 * file saved again under the same name is a new file, noted again. */
size_t cv_inputs_count(const cv_inputs *in);
const char *cv_inputs_path(const cv_inputs *in, size_t i, const char **what);
/* Was input i noted by cv_inputs_add_installed()? */
bool cv_inputs_installed(const cv_inputs *in, size_t i);

typedef struct cv_out cv_out;

/* Where writing `path` lands, as cv_out_open() writes it: the symbolic
 * links of its last component followed (to a file that may not exist
 * yet), then its directory's real path and the name (malloc'd); NULL when
 * that cannot be told (a directory not made yet, a loop).  Two names for
 * one file (a link, a doubled slash, "./") land in one place. */
char *cv_out_landing(const char *path);

/* Start writing `path` ("-": the standard output).  Returns NULL with err
 * set (at `path`) when it is an input of `in` (may be NULL), a directory, a
 * terminal, or cannot be created. */
cv_out *cv_out_open(const char *path, const cv_inputs *in, cv_error *err);
/* The same for an output that is `noun` ("an HTML page"), refused on a
 * terminal as a PDF is; `noun` NULL: text a terminal shows (Markdown),
 * written to it. */
cv_out *cv_out_open_as(const char *path, const cv_inputs *in, const char *noun,
                       cv_error *err);
/* Append n bytes; false with err set when the write fails. */
bool cv_out_write(cv_out *o, const void *p, size_t n, cv_error *err);
/* Every byte is written, the file is not yet in place: give up its
 * descriptor, keeping it as a named temporary file beside its target
 * (removed by cv_out_abort() and on SIGINT, SIGTERM, SIGHUP), so that a
 * set of many files (PNG pages) holds no descriptor per file.  Nothing
 * more may be written.  Files written straight through (a device, "-")
 * keep their descriptor.  False with err set. */
bool cv_out_park(cv_out *o, cv_error *err);
/* Put the file in place and free `o`: false with err set (and nothing
 * changed at the target, unless it is written straight through) when the
 * last writes, the link or the rename fail. */
bool cv_out_commit(cv_out *o, cv_error *err);
/* Give up: remove what was written (a temporary file) and free `o`. */
void cv_out_abort(cv_out *o);

/* Block SIGINT, SIGTERM, SIGHUP and SIGALRM (the signals whose handlers
 * call cv_out_cleanup()), saving the old mask in *old for sigprocmask(). */
void cv_out_block_signals(sigset_t *old);

/* Remove every named temporary file still open.  Async-signal-safe: for
 * the handlers of SIGINT, SIGTERM and SIGHUP before the process ends. */
void cv_out_cleanup(void);

#endif
