/* stop.h - stopping cleanly: SIGINT, SIGTERM, SIGHUP and --timeout.
 *
 * When cvpdf is interrupted, terminated or hung up on, it leaves nothing
 * behind: every temporary file is removed (output.h's cv_out_cleanup()),
 * every batch worker is told to stop (and continued, should it be
 * stopped, so that it can) and waited for, and only then does
 * the process end, by the same signal, so that the shell sees the
 * conventional status (130 for SIGINT).  Workers stop the same way; they
 * also die with their parent (batch.c sets PR_SET_PDEATHSIG to SIGTERM).
 *
 * --timeout applies to every profile, in a worker or in this process: a
 * profile rendered here that runs past it ends the process with
 * `PROFILE: error: gave up after N s (--timeout); nothing written` and exit
 * status 1 (the worker pool instead kills the worker and goes on).
 *
 * The handlers can only reach file-scope state: the list of live workers,
 * the prepared timeout message and the descriptor it goes to are the one
 * such state of the program besides output.c's temporary names.
 */
#ifndef CV_STOP_H
#define CV_STOP_H

#include <sys/types.h>

/* Install the handlers in this process (once, early in main). */
void cv_stop_install(void);
/* A batch worker (or bib.c's child reading a .bib) started or ended:
 * stop it with the parent. */
void cv_stop_worker(pid_t pid, int started);
/* In a new worker: it has no workers of its own. */
void cv_stop_forget_workers(void);
/* Give `profile` `seconds` (0: disarm) before the process gives up. */
void cv_stop_timeout(double seconds, const char *profile);
/* The timer armed by cv_stop_timeout() goes on, but the message names
 * `what`, the file now being read (a FIFO, the standard input), so that
 * a run that gives up while loading says which input it waited for. */
void cv_stop_timeout_about(const char *what);
/* While descriptor 2 is pointed elsewhere (bib.c, while libbtparse
 * parses), the timeout's message goes to `fd`, the real standard error;
 * -1: to descriptor 2 again. */
void cv_stop_diag_fd(int fd);

#endif
