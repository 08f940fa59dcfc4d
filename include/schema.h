/* schema.h - JSON Schemas (draft 2020-12) for profiles and layouts.
 *
 * Both are made from the loaders' own tables, so they cannot drift from
 * what the loaders accept:
 *
 *   profile   the top-level, cv, settings and locale keys (doc.h's
 *             cv_doc_keys(), lang.h's cv_locale_keys()), the social
 *             network keys and names (social.h), and every entry type's
 *             fields (fields.h): a section is a list of entries of one
 *             type, and an entry of a type has exactly that type's keys,
 *             its required ones required;
 *   layout    every key style.c checks (style.h's cv_style_keys()).
 *
 * Every mapping is closed (additionalProperties: false), as the loaders
 * refuse unknown keys.  Values are described as YAML gives them: a value
 * the loaders read as text may also be a number (`date: 2020`).  What a
 * schema cannot say (dates that exist, an end before a start, a font that
 * is installed) is left to cvpdf's own messages.
 *
 * `cvpdf --schema profile|layout` prints them; `make schema` writes
 * schema/profile.json and schema/layout.json, which make install puts in
 * the data directory and `cvpdf new` names in its first line for a YAML
 * language server.
 */
#ifndef CV_SCHEMA_H
#define CV_SCHEMA_H

#include <stdbool.h>
#include <stdio.h>

#include "arena.h"

/* The schema `which` ("profile" or "layout") as JSON text, ending in a
 * newline; NULL for any other `which`.  Valid until cv_arena_free(a). */
const char *cv_schema_json(cv_arena *a, const char *which);

/* The same, written to `out`.  Returns false for an unknown `which`. */
bool cv_schema_write(cv_arena *a, const char *which, FILE *out);

#endif
