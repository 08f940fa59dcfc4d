/* batch.h - rendering every profile of a run, in worker processes.
 *
 * cv_batch_run() renders each profile to its planned output.  A single
 * profile, or any number with -j 0, is rendered in this process, one after
 * another.  Otherwise the profiles are rendered by -j long-lived worker
 * processes (fewer when there are fewer profiles; one under --dump and
 * --explain, whose text goes to one stdout in order):
 *
 *   - The engine is warmed first (cv_engine_warm()), then each worker is
 *     forked from this process and renders profile after profile, keeping
 *     its caches.  Profiles are handed out one at a time over a socket; the
 *     worker answers with the result.
 *   - A worker that crashes, or spends more than --timeout seconds on one
 *     profile (it is killed), costs that profile alone: it is reported
 *     ("cvpdf crashed on this profile (Segmentation fault)", "gave up after
 *     S s (--timeout)"), the temporary file it left beside the output is
 *     removed, an existing PDF there is untouched, and a fresh worker takes
 *     its place for the profiles that remain.
 *   - Each worker's stderr is a pipe to this process, which prints what a
 *     profile wrote as one block when that profile ends, followed by its
 *     progress line: the messages of two profiles never interleave.
 *   - Workers die with this process (PR_SET_PDEATHSIG), even when it is
 *     killed with SIGKILL.
 *
 * For the tests of batch mode (tests/batch.py), CVPDF_TEST_FAULT=crash:P or
 * hang:P makes the worker given profile P crash or hang, as a bug would.
 *
 * The bytes written are the same with any -j.  With r->opt->progress, a
 * line "[k/n] ok   PROFILE -> OUT" (or FAIL) follows each profile.
 */
#ifndef CV_BATCH_H
#define CV_BATCH_H

#include "plan.h"
#include "render.h"

/* Render the profiles of r->opt to the outputs of `p`.  Returns the number
 * that failed; each failure has been reported on stderr. */
int cv_batch_run(const cv_renderer *r, const cv_plan *p);

#endif
