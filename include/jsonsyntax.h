/* jsonsyntax.h - JSON's own syntax, checked strictly (json-c) before libyaml reads it.
 *
 * A resume.json (or a RenderCV file written as JSON) is read into the
 * profile's tree by yml.h, since JSON is YAML; but libyaml takes what JSON
 * refuses (a trailing comma, a comment, a single-quoted string, a bare
 * word).  cv_json_check() runs json-c's strict tokenizer over the text
 * first, so a broken JSON file gets JSON's error at its line and column.
 */
#ifndef CV_JSONSYNTAX_H
#define CV_JSONSYNTAX_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "error.h"

/* Nesting deeper than this is refused, as yml.h refuses it. */
#define CV_JSON_MAX_DEPTH 64

/* Is this text JSON rather than YAML: a name ending in ".json", or text
 * whose first two non-blank characters are '{' and '"'? */
bool cv_json_is(const char *file, const char *text, size_t len);

/* True when `text` is one well-formed JSON value (strict: no trailing
 * commas, comments or single quotes; nothing after it but blanks);
 * otherwise false with `file:line:col: error: ...` in err, at the byte
 * where json-c stopped.  `file` must outlive the error. */
bool cv_json_check(const char *file, const char *text, size_t len, cv_error *err);

/* JSON writes a character past U+FFFF as an escaped surrogate pair
 * ("\ud83d\ude00", as Python's json.dumps does), which YAML refuses: each
 * such pair as YAML's "\U0001F600" instead, in a copy in `a` (or `text`
 * itself when it has none), its length in *out_len.  Lines stay as they
 * were; a column after a pair, on its line, moves 2 to the left. */
const char *cv_json_unpair(cv_arena *a, const char *text, size_t len, size_t *out_len);

#endif
