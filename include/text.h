/* text.h - a string from the profile, with where it was written, and the
 * readers that take one from a YAML node.
 *
 * Every module that reads part of a profile (doc.h's schema, date.h,
 * lang.h's `locale:`, social.h) reads its strings through these, so that a
 * value means the same everywhere: absent or YAML null is "not given", any
 * scalar (numbers included) is taken as written, a list or a mapping where
 * a string belongs is an error at that node.
 *
 * Readers record the first problem in `err` (error.h) with the position of
 * the node at fault and return false; they never print.  Strings are the
 * YAML tree's own (or, when trimmed, copies in the arena): valid until
 * cv_arena_free().
 */
#ifndef CV_TEXT_H
#define CV_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "error.h"
#include "yml.h"

/* A string from the profile with its position.  s == NULL: field absent. */
typedef struct cv_text {
    const char *s;
    cv_pos pos;
} cv_text;

/* Values that become one string in the PDF (a link's URL; the title,
 * author and subject; a bookmark) are refused past this many bytes where
 * their place is known: libharu cannot write a string over 65,535 bytes,
 * and a PDF reader need not read one over 32,767. */
#define CV_MAX_PDF_STRING 8192

/* True when `n` gives no value: missing (NULL) or YAML null (`~`, empty). */
bool cv_text_absent(const cv_yml *n);

/* The string field `field` from `n` into *out.  Absent or null leaves
 * out->s NULL and succeeds; a block scalar's final line breaks are dropped.
 * Errors: "'F' must be a string, not a list"; past CV_MAX_PDF_STRING bytes,
 * a field that is one PDF string (name, native_name, headline, email, phone,
 * website, url, doi, username) or a [link](url) whose URL is that long. */
bool cv_text_read(cv_arena *a, const cv_yml *n, const char *field, cv_text *out,
                  cv_error *err);

/* RenderCV's strings are strings: a plain scalar that YAML 1.2 reads as a
 * number or a boolean (`2020`, `3.9`, `0x1F`, `.inf`, `true`) is refused
 * with "'F' must be a string, not the number 3.9 (put it in quotes: ...)".
 * Anything else (absent, quoted, text) passes. */
bool cv_text_string_only(const cv_yml *n, const char *field, cv_error *err);

/* A string or a list of strings as an array of cv_text (allocated in the
 * arena) and its length; absent or null gives none.  Errors: a mapping, an
 * empty item, or an item cv_text_read() refuses. */
bool cv_text_list(cv_arena *a, const cv_yml *n, const char *field, cv_text **out,
                  size_t *count, cv_error *err);

/* A field that must be present and not empty.  `what` names the owner in
 * the message ("'cv' needs a 'name'", recorded at `where`); an empty value
 * is an error at its own position. */
bool cv_text_need(const cv_text *t, const char *field, const char *what, cv_pos where,
                  cv_error *err);

/* An absent value passes; otherwise a full http:// or https:// URL with no
 * spaces ("invalid F '...': write a full URL ..."). */
bool cv_text_check_url(const cv_text *t, const char *field, cv_error *err);

/* An absent value passes; otherwise one '@' with a name before it and a
 * dotted domain after, no spaces ("invalid email '...': ..."). */
bool cv_text_check_email(const cv_text *t, cv_error *err);

/* True when `s` holds any white space. */
bool cv_text_has_space(const char *s);

/* The English article for `word` in messages: "a" ('name') or "an" ('area'). */
const char *cv_text_article(const char *word);

#endif
