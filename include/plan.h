/* plan.h - where each PDF goes, decided before anything is rendered.
 *
 * cv_plan_make() turns the command line into one output path per profile
 * and refuses, before a single profile is read, a run that would go wrong
 * half-way:
 *
 *   -o FILE       one profile: that file.  Several: a usage error (exit 2).
 *   -o DIR/       (or an existing directory) DIR/<stem>.pdf, where <stem> is
 *                 the profile's file name without its extension; DIR is made
 *                 when missing (exit 1 when it cannot be).
 *   no -o         <stem>.pdf beside the profile (sub/me.yaml -> sub/me.pdf,
 *                 as Typst does; me.yaml -> me.pdf in the current directory).
 *   --dump        nothing is written; no output is checked.
 *   --merge FILE  the book is FILE (cv_options.merge); the per-profile paths
 *                 are planned, and checked, all the same.
 *
 * The format follows the name (draw_raster.h): -o FILE and --merge FILE
 * must end in .pdf, .png or .svg (any other extension, or none, is a usage
 * error, exit 2), and --format, if given, must agree with it.  A directory
 * and no -o take --format (default pdf), DIR/<stem>.png; so do "-" and an
 * existing device, FIFO or socket (or a name under /dev or /proc), which
 * take only a PDF, PNG and SVG pages being files of their own.
 *
 * Two profiles whose PDFs would be one file are an error (exit 1), and so is
 * an output that is one of the run's inputs (exit 2): `-o he.yaml` is a slip
 * of the fingers, not a wish.  Inputs and outputs are compared by device and
 * inode, not by name.
 *
 * Every rule about what an output may be belongs here, so that each later
 * one (an output that is a symlink or a device, a file the layout reads) is
 * one more check in plan.c rather than a test scattered over the writers.
 *
 * Paths are allocated in the arena (or point into argv) and are valid until
 * cv_arena_free().
 */
#ifndef CV_PLAN_H
#define CV_PLAN_H

#include <stdio.h>

#include "arena.h"
#include "cli.h"
#include "output.h"

typedef struct cv_plan {
    cv_format format;    /* of every output: CV_FORMAT_PDF, _PNG or _SVG */
    int n;               /* the profiles, as cv_options.nprofiles */
    const char **outs;   /* outs[i]: where the PDF of profile i goes */
} cv_plan;

/* Plan the outputs of the run `o` describes.  Returns 0, or the status to
 * exit with after saying why on `diag`: 2 for a usage error (-o FILE with
 * several profiles, an output that is an input), 1 when the output
 * directory cannot be made or two profiles would write one file. */
int cv_plan_make(cv_arena *a, const cv_options *o, cv_plan *p, FILE *diag);

/* Once every input of the run is noted in `in` (the layouts, defaults,
 * profiles, photos, .bib files, fonts, the data directory, the phone
 * module: render.h's cv_render_note_all()), and before anything is
 * written: refuse an output that is one of them, by device and inode,
 * whatever name leads to it; with PNG or SVG pages, also an existing page
 * name (OUT-N.png) that is an input or no regular file (a FIFO, a device).
 * Returns 0, or 2 after saying why on `diag`. */
int cv_plan_check(cv_arena *a, const cv_options *o, const cv_plan *p, const cv_inputs *in,
                  FILE *diag);

/* "profiles/he.yaml" -> "he"; ".hidden" stays ".hidden". */
const char *cv_plan_stem(cv_arena *a, const char *path);

#endif
