/* migrate.h - `cvpdf migrate FILE`: a RenderCV file of any version (or a
 * JSON Resume) written as RenderCV 2.8 writes it (rcvold.h translates it;
 * this writes it).
 */
#ifndef CV_MIGRATE_H
#define CV_MIGRATE_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"
#include "yml.h"

/* Write `root` as YAML (block style, strings quoted where YAML would read
 * them otherwise, several lines as a literal block) to `out`. */
void cv_yaml_write(FILE *out, const cv_yml *root);

/* FILE checked as for rendering, then written to `out` as RenderCV 2.8
 * writes it.  False with err set when it is refused or cannot be
 * written. */
bool cv_migrate(const char *path, FILE *out, cv_error *err);

#endif
