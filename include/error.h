/* error.h - positioned diagnostics: the one sink every message goes through.
 *
 * error.c is the only file of the library that writes diagnostics: errors
 * (cv_error_print), warnings (cv_warn), notes (cv_note) and running out of
 * memory (cv_oom).  Where they go and how loud they are is a cv_diag, made
 * once from the command line (-q, --strict) and held by the engine; each
 * stage's cv_error is started from it with cv_error_init_for(), and a
 * trial whose messages are not wanted from cv_error_init_silent().
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
#include <stddef.h>

/* A place in an input file.  `file` points to a string that outlives the run
 * (argv or the arena). */
typedef struct cv_pos {
    const char *file;
    int line, col;
} cv_pos;

/* The sink's settings: the stream (NULL: stderr), -q and --strict. */
typedef struct cv_diag {
    void *out;               /* a FILE *; NULL for stderr */
    bool quiet;              /* no warnings or notes */
    bool strict;             /* warnings are errors */
} cv_diag;

typedef struct cv_error {
    bool set;
    cv_pos pos;
    char msg[1024];
    /* Warnings. */
    bool quiet;
    bool strict;             /* warnings are errors */
    bool printed;            /* the recorded error came from a strict warning
                                and is already on stderr */
    int nwarnings;
    void *out;               /* a FILE *; NULL for stderr */
} cv_error;

/* A stage's error, with the sink's stream and loudness `d` (the engine's
 * diag: every stage takes its settings from there; NULL: stderr, warnings
 * on, not strict). */
void cv_error_init_for(cv_error *err, const cv_diag *d);
/* The same with the default settings (cv_error_init_for(err, NULL)). */
void cv_error_init(cv_error *err);
/* A silent sink, for a trial run whose messages are not wanted: a
 * composition fit.h tries, the main column set again wider, a face looked
 * for where its absence is fine.  It records the first error and says
 * nothing, and no warning is an error. */
void cv_error_init_silent(cv_error *err);
/* Record an error at `pos` (first one wins).  Always returns false so that
 * `return cv_error_at(err, pos, "...")` reads naturally. */
bool cv_error_at(cv_error *err, cv_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cv_warn(cv_error *err, cv_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A note: `file:line:col: note: msg` (or `cvpdf: note: msg` without a
 * file), unless quiet; never an error, even under strict.  `err` may be
 * NULL: nothing is said. */
void cv_note(const cv_error *err, cv_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same through the sink's settings alone (no stage error at hand). */
void cv_diag_note(const cv_diag *d, cv_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Any other line through the sink: `file:line:col: LEVEL: msg` ("error",
 * "warning", "note"); with `d` quiet only errors are said.  Control
 * characters in the position and message are escaped, as in every line
 * the sink writes. */
void cv_diag_say(const cv_diag *d, cv_pos pos, const char *level, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* `s` with its control characters escaped (\n, \e, \x07, \u0085), into
 * out[size] (truncated to fit); returns out.  For messages written other
 * than through the sink. */
const char *cv_escape(const char *s, char *out, size_t size);
/* Out of memory: say so and abort (nothing sensible can go on). */
_Noreturn void cv_oom(size_t bytes);
/* Print the recorded error as `file:line:col: error: msg` on stderr (unless
 * cv_warn() already did, under strict). */
void cv_error_print(const cv_error *err);
/* Format `pos` into buf as "file:line:col" (or "file" when line is 0). */
const char *cv_pos_str(cv_pos pos, char *buf, int size);

#endif
