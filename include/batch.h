/* batch.h - rendering every profile of a run, in worker processes.
 *
 * cv_batch_run() renders each profile to its planned output.  A single
 * profile, or any number with -j 0, is rendered in this process, one after
 * another.  Otherwise each profile is rendered in a worker process of its
 * own, forked from this one after the engine is warmed, at most -j at a
 * time (one under --dump and --explain, whose text goes to one stdout in
 * order): a crash or a hang (past --timeout) costs that profile alone, and
 * what the worker left half-written is removed.
 *
 * For the tests of batch mode (tests/batch.py), CVPDF_TEST_FAULT=crash:P or
 * hang:P makes the worker for profile P crash or hang, as a bug would.
 *
 * With r->opt->progress, a line "[k/n] ok   PROFILE -> OUT" (or FAIL)
 * follows each profile.
 */
#ifndef CV_BATCH_H
#define CV_BATCH_H

#include "plan.h"
#include "render.h"

/* Render the profiles of r->opt to the outputs of `p`.  Returns the number
 * that failed; each failure has been reported on stderr. */
int cv_batch_run(const cv_renderer *r, const cv_plan *p);

#endif
