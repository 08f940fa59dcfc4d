/* sets.h - --set PATH=VALUE: a value of the profile or the layout given on
 * the command line, checked as if it were in the file.
 *
 *   --set cv.phone="+1 415 555 0132"      the profile's cv: phone:
 *   --set layout.page.size=letter         the layout's page: size:
 *
 * PATH is the value's keys, dotted; its first key `layout` says the rest
 * is the layout's, anything else is the profile's (cv, settings, locale,
 * design).  VALUE is a plain YAML scalar as written (letter, 11pt, true,
 * +1 415 555 0132, #1f4e79: no quoting needed, nothing is a comment); one
 * that starts with [ { " or ' is read as flow YAML (a list, a mapping, a
 * quoted string).  Each --set becomes a small YAML tree, and the trees,
 * later ones winning, are laid over the file's tree (yml.h's
 * cv_yml_merge()) before the loaders read it: the loaders check them as
 * they check the file, and their messages name the option, at
 * "--set layout.page.size=b9: error: ...".  A list is set whole.  An
 * empty VALUE is a null, which replaces the file's value (`--set cv.email=`
 * leaves the email out, as `email:` in the file does).
 */
#ifndef CV_SETS_H
#define CV_SETS_H

#include <stdbool.h>
#include <stdio.h>

#include "arena.h"
#include "yml.h"

/* Is `arg` a well-formed PATH=VALUE (keys not empty)?  Says why not on
 * `diag` (a usage error) and returns false. */
bool cv_sets_check(const char *arg, FILE *diag);

/* The trees of the n --set arguments `sets` (each checked by
 * cv_sets_check()) for the layout (`layout` true: those whose PATH starts
 * with "layout.", without it) or for the profile (the others), merged in
 * order, in `a`; NULL when there is none.  NULL with err set when a VALUE
 * is no YAML. */
const cv_yml *cv_sets_tree(cv_arena *a, char *const *sets, int n, bool layout,
                           cv_error *err);

#endif
