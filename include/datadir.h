/* datadir.h - where cvpdf's data lives, and the shipped layouts by name.
 *
 * The data directory holds fonts/, layouts/ and schema/.  It is found in
 * this order:
 *
 *   1. $CVPDF_DATADIR, when set and not empty (used as given, even when
 *      it does not hold a layouts/ directory: the messages then say so);
 *   2. beside the executable, or one or two directories above it (a build
 *      tree: ./cvpdf, build/san/cvpdf), or share/cvpdf there (an install,
 *      wherever its prefix was moved): the first that holds
 *      layouts/onecolumn.yaml;
 *   3. the directory compiled in: $(PREFIX)/share/cvpdf.
 *
 * A layout name is a value with no '/' and no .yaml or .yml ending
 * ("sidebar", "onecolumn-letter"): it names DATADIR/layouts/NAME.yaml.
 * Anything else is a path.  On the command line (-l) a file by exactly
 * that name in the current directory still wins, so a path keeps working
 * as a path; a layout's own `extends: NAME` looks for NAME.yaml beside the
 * layout first (style.h), then here.
 *
 * A layout's description is its first comment line, without the
 * "NAME — " (or "NAME:") that starts it.
 *
 * Strings returned are valid until cv_arena_free(a).
 */
#ifndef CV_DATADIR_H
#define CV_DATADIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "arena.h"

/* The data directory, as above. */
const char *cv_datadir(cv_arena *a);

/* Whether `dir` holds the shipped layouts (layouts/onecolumn.yaml). */
bool cv_datadir_ok(cv_arena *a, const char *dir);

/* Whether `s` is a layout name rather than a path. */
bool cv_layout_is_name(const char *s);

/* The shipped layout `name` (a layout name): DATADIR/layouts/NAME.yaml,
 * whether it exists or not. */
const char *cv_layout_shipped(cv_arena *a, const char *name);

/* What -l's value `arg` stands for: the file `arg` when it exists or is
 * not a name, else the shipped layout of that name. */
/* The shipped layout `name` (a name, not a path: cv_layout_is_name()), as
 * engine.h's find_layout: its path when it exists, else NULL with *why
 * naming the layouts there are (cv_layout_missing()); NULL with *why NULL
 * when `name` is a path. */
const char *cv_layout_find(cv_arena *a, const char *name, const char **why);
const char *cv_layout_arg(cv_arena *a, const char *arg);

/* The names of the shipped layouts, sorted, NULL-terminated (none: an
 * array holding only NULL). */
const char **cv_layout_names(cv_arena *a);

/* The one-line description of the layout file at `path` ("" when it has
 * no comment line before its first key). */
const char *cv_layout_description(cv_arena *a, const char *path);

/* What a missing shipped layout `name` says: the names there are, or,
 * when the data directory itself is missing, how to set CVPDF_DATADIR.
 * One sentence, no trailing period. */
const char *cv_layout_missing(cv_arena *a, const char *name);

/* `cvpdf --list-layouts`: "NAME  description" a line, to `out`.  Returns
 * false (after saying why on `diag`) when there are none. */
bool cv_layout_list(cv_arena *a, FILE *out, FILE *diag);

#endif
