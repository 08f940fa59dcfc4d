/* starter.h - `cvpdf new "Full Name"`: a profile to start from.
 *
 *   cvpdf new "Meiling Zhou"                  -> Meiling_Zhou_CV.yaml
 *   cvpdf new "Meiling Zhou" --layout sidebar -> also Meiling_Zhou_layout.yaml
 *
 * The file name is RenderCV's: the name with each space made '_', then
 * "_CV.yaml".  The profile is RenderCV's cv: format with every entry type
 * cvpdf knows, each with a comment saying what it is, and it renders as it
 * is (with --strict: no warning).  Its first line points a YAML language
 * server at the user's own copy of the profile schema, written afresh at
 * every cvpdf new so that the line outlives a move or a reinstall
 * (`# yaml-language-server: $schema=$XDG_DATA_HOME/cvpdf/schema/profile.json`,
 * by default under ~/.local/share; the data directory's schema/ when no
 * copy can be written).  Its comments point to cvpdf-profile(5) and the
 * docs.  The command it prints is quoted for a POSIX shell.  With
 * --layout NAME, a small layout that `extends: NAME` (a shipped layout,
 * datadir.h) is written beside it, its common knobs commented out.
 *
 * Nothing is ever written over: when a file to write exists, nothing is
 * written at all; each file is created with O_EXCL and removed again when
 * it cannot be written whole.
 */
#ifndef CV_STARTER_H
#define CV_STARTER_H

#include <stdio.h>

#include "arena.h"

/* The profile's file name for `name` ("Meiling_Zhou_CV.yaml"), or NULL
 * when the name cannot make one (empty, a '/', a control character, or
 * more than 200 bytes). */
const char *cv_starter_file_name(cv_arena *a, const char *name);

/* The starter profile for `name`, its schema line naming `schema` (NULL:
 * no schema line). */
const char *cv_starter_profile(cv_arena *a, const char *name, const char *schema);

/* The starter layout extending `base`, for `name`'s profile, its schema
 * line naming `schema` (NULL: none). */
const char *cv_starter_layout(cv_arena *a, const char *name, const char *base,
                              const char *schema);

/* `cvpdf new ...`: argv[0] is "new".  Writes the files in the current
 * directory, says what it wrote on `out` and problems on `diag`.  Returns
 * the exit status: 0 written, 1 a file exists or cannot be written, 2 a
 * usage error. */
int cv_starter_main(int argc, char **argv, FILE *out, FILE *diag);

#endif
