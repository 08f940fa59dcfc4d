/* error.h - positioned diagnostics.
 *
 * Fallible functions take a `cv_error *` and return false on failure.  The
 * first error recorded wins; later ones are ignored, so a caller can check
 * once at the end of a stage.  Warnings go through cv_warn(), which prints
 * `file:line:col: warning: msg` on stderr unless the diagnostics object is
 * quiet, and counts them; they never stop a run.  With a NULL diagnostics
 * object both cv_error_at() and cv_warn() say nothing (a measuring pass
 * whose text is set again, with diagnostics, later).
 *
 * Under `strict` (--strict, like -Werror) every warning is an error: cv_warn()
 * prints `file:line:col: error: msg` (quiet or not) and marks the error set,
 * so the stage's caller stops as for any other error.  Such an error is
 * already on stderr; cv_error_print() does not repeat it, and a real error
 * recorded after it (cv_error_at) replaces it so that it is printed too.
 *
 * Lines and columns are 1-based.  A position with line 0 prints as `file:`
 * alone (for errors about a whole file, e.g. it cannot be opened).
 */
#ifndef CV_ERROR_H
#define CV_ERROR_H

#include <stdbool.h>

/* A place in an input file.  `file` points to a string that outlives the run
 * (argv or the arena). */
typedef struct cv_pos {
    const char *file;
    int line, col;
} cv_pos;

typedef struct cv_error {
    bool set;
    cv_pos pos;
    char msg[512];
    /* Warnings. */
    bool quiet;
    bool strict;             /* warnings are errors */
    bool printed;            /* the recorded error came from a strict warning
                                and is already on stderr */
    int nwarnings;
} cv_error;

void cv_error_init(cv_error *err);
/* Record an error at `pos` (first one wins).  Always returns false so that
 * `return cv_error_at(err, pos, "...")` reads naturally. */
bool cv_error_at(cv_error *err, cv_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cv_warn(cv_error *err, cv_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Print `file:line:col: note: msg` on stderr, unless `err` is quiet (a NULL
 * `err` prints).  A note says what cvpdf does with an input it accepts but
 * does not use; it is not counted and never stops a run, even under strict. */
void cv_note(const cv_error *err, cv_pos pos, const char *msg);
/* Print the recorded error as `file:line:col: error: msg` on stderr (unless
 * cv_warn() already did, under strict). */
void cv_error_print(const cv_error *err);
/* Format `pos` into buf as "file:line:col" (or "file" when line is 0). */
const char *cv_pos_str(cv_pos pos, char *buf, int size);

#endif
