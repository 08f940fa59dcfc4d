/* jsonresume.h - a JSON Resume (resume.json, schema 1.0.0) read as a
 * RenderCV profile.
 *
 * JSON is YAML (libyaml reads it, yml.h keeps every node's line and
 * column), so a resume.json arrives at doc.c as a tree like any profile's.
 * cv_jsonresume_is() tells one by its content: a mapping with no `cv` and
 * with `basics`, or two or more of JSON Resume's top-level keys, or one of
 * its parts (`work`, `education`...) and nothing else.
 * cv_jsonresume_translate() builds the RenderCV tree it stands for
 * (`cv:` with its header and sections), sharing the scalars so every
 * message still points into the .json file.  docs/profiles.md has the
 * mapping, part by part.
 *
 * The tree is allocated in the arena and valid until cv_arena_free().
 */
#ifndef CV_JSONRESUME_H
#define CV_JSONRESUME_H

#include <stdbool.h>

#include "arena.h"
#include "error.h"
#include "yml.h"

bool cv_jsonresume_is(const cv_yml *root);

/* The RenderCV profile `root` stands for, or NULL with err set (a part of
 * the wrong shape: "'work' must be a list, not a string"). */
const cv_yml *cv_jsonresume_translate(cv_arena *a, const cv_yml *root, cv_error *err);

#endif
