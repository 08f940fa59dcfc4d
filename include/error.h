/* error.h - positioned diagnostics.
 *
 * Fallible functions take a `cv_error *` and return false on failure.  The
 * first error recorded wins; later ones are ignored, so a caller can check
 * once at the end of a stage.  Warnings never stop a run: they go through
 * cv_warn(), which prints `file:line:col: warning: msg` on stderr unless the
 * diagnostics object is quiet, and counts them (for --strict later on).
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
    int nwarnings;
} cv_error;

void cv_error_init(cv_error *err);
/* Record an error at `pos` (first one wins).  Always returns false so that
 * `return cv_error_at(err, pos, "...")` reads naturally. */
bool cv_error_at(cv_error *err, cv_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cv_warn(cv_error *err, cv_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Print the recorded error as `file:line:col: error: msg` on stderr. */
void cv_error_print(const cv_error *err);
/* Format `pos` into buf as "file:line:col" (or "file" when line is 0). */
const char *cv_pos_str(cv_pos pos, char *buf, int size);

#endif
