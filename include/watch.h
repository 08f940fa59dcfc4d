/* watch.h - --watch: waiting until an input changes.
 *
 * A cv_watch follows files by name, not by inode.  It watches the
 * directory of each file with inotify and matches the names of what
 * happens there, so an editor that saves by writing a new file and
 * renaming it over the old one (vim, Emacs, VS Code, most others) is seen
 * just like one that writes in place.  For a symlink, the directory of the
 * file it leads to is watched too.
 *
 * These events count as a change: a file written and closed
 * (IN_CLOSE_WRITE), a file renamed to a followed name (IN_MOVED_TO), and
 * its metadata changed (IN_ATTRIB, so `touch FILE` renders again).  A file
 * that is only deleted, or renamed away, is not a change: the editors that
 * do this write the new file right after.  An editor's save is several
 * events in quick succession, so cv_watch_wait() returns only once the
 * directory has been quiet for `settle_ms`.
 *
 * The driver (main.c) renders, follows every input the engine noted
 * (output.h's cv_inputs) and the files named on the command line, waits,
 * and renders again.
 */
#ifndef CV_WATCH_H
#define CV_WATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

typedef struct cv_watch cv_watch;

/* A new watch, following nothing yet.  NULL with err set when inotify
 * cannot start (too many instances: fs.inotify.max_user_instances). */
cv_watch *cv_watch_new(cv_error *err);
/* Stop watching; NULL is fine. */
void cv_watch_free(cv_watch *w);

/* Follow `path` (copied); following it again follows only where it leads
 * now, when it has become a symlink (or leads elsewhere).  False when its
 * directory cannot be watched (it does not exist, or the limit of watches
 * is reached); nothing is said. */
bool cv_watch_add(cv_watch *w, const char *path);
/* How many files are followed (a symlink and its target count once). */
size_t cv_watch_count(const cv_watch *w);

/* Wait for a change of a followed file, then until `settle_ms` pass with no
 * further change (at most 10 times `settle_ms` in all).  Returns the path,
 * as given to cv_watch_add(), of the first file that changed (valid until
 * cv_watch_free()), or NULL when `timeout_ms` (-1: no limit) passed first
 * or inotify failed. */
const char *cv_watch_wait(cv_watch *w, int timeout_ms, int settle_ms);

#endif
