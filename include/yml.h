/* yml.h - the one place that touches libyaml.
 *
 * cv_yml_load() parses a whole YAML stream into a small tree of cv_yml nodes
 * allocated in the arena.  Every node carries its 1-based source position, so
 * later stages report semantic errors (unknown key, bad date) at the node.
 *
 * The loader is strict where YAML is lax and a résumé should not be:
 * duplicate keys in a mapping are an error, non-scalar mapping keys are an
 * error, an empty document is an error, more than one document is an error,
 * and aliases are expanded by sharing the anchored node (never copied), with
 * a cap on nesting depth (CV_YML_MAX_DEPTH) and on total alias references
 * (CV_YML_MAX_ALIASES) so a "billion laughs" file cannot blow up later walks.
 */
#ifndef CV_YML_H
#define CV_YML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "arena.h"
#include "error.h"

#define CV_YML_MAX_DEPTH 64
#define CV_YML_MAX_ALIASES 1000

typedef enum { CV_YML_SCALAR, CV_YML_SEQ, CV_YML_MAP } cv_yml_kind;

typedef struct cv_yml cv_yml;
struct cv_yml {
    cv_yml_kind kind;
    cv_pos pos;           /* where the node starts */
    /* CV_YML_SCALAR: NUL-terminated UTF-8 value; `plain` is true for an
     * unquoted scalar (so `2020` and `null`/`~`/empty can be told apart
     * from "2020" and "null"). */
    const char *str;
    size_t len;
    bool plain;
    /* CV_YML_SEQ: items[0..n).  CV_YML_MAP: keys[i] -> items[i]; keys are
     * always scalars. */
    cv_yml **items;
    cv_yml **keys;
    size_t n;
};

/* Parse `len` bytes of `buf` (need not be NUL-terminated) named `file`.
 * Returns the root node, valid until cv_arena_free(), or NULL with `err` set
 * (`file:line:col: error: ...` for syntax errors, using libyaml's problem
 * text made readable). */
cv_yml *cv_yml_load(cv_arena *a, const char *file, const char *buf, size_t len,
                    cv_error *err);
/* The same with the scalars' values in `strings` and everything else (the
 * nodes, their arrays, the loader's tables) in `a`: a caller that keeps
 * only the values (doc.c) can free `a` once it has read the tree. */
cv_yml *cv_yml_load_in(cv_arena *a, cv_arena *strings, const char *file, const char *buf,
                       size_t len, cv_error *err);

/* Read a whole file into the arena (NUL-terminated); NULL + err on failure
 * (error message names the file and strerror; its position points to
 * `path`, which must outlive the error). */
/* cv_yml_load_in() for a profile: a plain value that starts with `*` is
 * text, as RenderCV 2.7+ reads it (`headline: *Researcher*`), unless it is
 * an alias of an anchor defined before it.  Layouts keep YAML's aliases. */
cv_yml *cv_yml_load_profile(cv_arena *a, cv_arena *strings, const char *file, const char *buf,
                            size_t len, cv_error *err);

/* cv_yml_load_in() for a JSON file (checked by jsonsyntax.h first): a
 * duplicate key is a warning and its last value wins, as JSON.parse has
 * it. */
cv_yml *cv_yml_load_json(cv_arena *a, cv_arena *strings, const char *file, const char *buf,
                         size_t len, cv_error *err);

char *cv_yml_read_file(cv_arena *a, const char *path, size_t *len, cv_error *err);
/* The same for an input that must be a regular file (a layout, a locale
 * file, --defaults, a profile's .bib): opened without blocking, and a FIFO,
 * socket or device is refused with an error instead of waited on. */
char *cv_yml_read_regular(cv_arena *a, const char *path, size_t *len, cv_error *err);

/* `over` laid over `under` (a profile over --defaults, a layout over the
 * layout it extends): where both are mappings, the
 * result has over's keys, in its order, each merged with under's value for
 * the same key, then the keys only under has; an empty (null) `over` read
 * from a file is `under` (one from --set, at line 0, is `over`); anything
 * else is `over`.
 * Nodes are shared, not copied; positions still name their own files. */
const cv_yml *cv_yml_merge(cv_arena *a, const cv_yml *under, const cv_yml *over);

/* Mapping lookup by key (NULL when absent or when `map` is not a mapping). */
cv_yml *cv_yml_get(const cv_yml *map, const char *key);
/* True for a plain scalar that YAML calls null: empty, `~`, `null`, `Null`, `NULL`. */
bool cv_yml_is_null(const cv_yml *node);
/* Name of a node kind for messages: "a string", "a list", "a mapping". */
const char *cv_yml_kind_name(cv_yml_kind kind);

/* Typed getters: they record an error at the node's position when the node
 * has the wrong shape ("expected a number, got a list") and return false. */
bool cv_yml_str(const cv_yml *node, const char **out, cv_error *err);
bool cv_yml_num(const cv_yml *node, double *out, cv_error *err);
bool cv_yml_bool(const cv_yml *node, bool *out, cv_error *err);
/* Colour as "#rrggbb" / "#rgb" / "rgb(r, g, b)" -> 0xRRGGBB. */
bool cv_yml_color(const cv_yml *node, unsigned *out, cv_error *err);

/* Check that every key of `map` is in the NULL-terminated `allowed` list;
 * otherwise record `unknown key 'emial' in <what> (did you mean 'email'?)`
 * at the key.  The suggestion is the closest allowed key by edit distance
 * when it is close enough.  Returns false on the first unknown key. */
bool cv_yml_check_keys(const cv_yml *map, const char *const *allowed,
                       const char *what, cv_error *err);
/* Closest candidate to `word` by Damerau-Levenshtein distance, or NULL when
 * none is within max(1, strlen(word)/3). */
const char *cv_suggest(const char *word, const char *const *candidates);

/* Trees made rather than read (a design: translated into layout keys, an
 * older RenderCV file into 2.8's), in arena `a`; nothing is copied but
 * what is said.  A scalar of `s` (kept, not copied); an empty mapping; a
 * key and value added to a mapping (grown by one: for small mappings). */
cv_yml *cv_yml_scalar(cv_arena *a, const char *s, cv_pos pos, bool plain);
cv_yml *cv_yml_map(cv_arena *a, cv_pos pos);
void cv_yml_map_add(cv_arena *a, cv_yml *m, const char *key, cv_pos kpos, cv_yml *v);
/* Set the dotted `path` ("page.margins.top") of mapping `root` to v: a key
 * there already takes the new value in its place; mappings on the way are
 * made (at kpos), and one that exists is copied before it is changed, so
 * that a tree it was shared with stays as it was. */
void cv_yml_put(cv_arena *a, cv_yml *root, const char *path, cv_pos kpos, cv_yml *v);

/* `s` written to `out` as a double-quoted YAML scalar: quotes, backslashes,
 * control characters and the line breaks YAML knows (NEL, U+2028, U+2029)
 * escaped, so that any reader reads `s` back (cvpdf import, cvpdf migrate). */
void cv_yml_put_quoted(FILE *out, const char *s);

/* Parse a length ("18mm", "10pt", "0.75in", "2cm", "12") into points: at
 * least 0, at most PDF's 200 inches. */
bool cv_parse_length(const char *s, float *out);

#endif
