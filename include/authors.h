/* authors.h - the profile's owner in author lists.
 *
 * A publication's AUTHORS placeholder sets the owner's name in bold,
 * whichever usual form the list gives it: for `name: Jiarui Fang` (or
 * `native_name: 方佳瑞`), "Jiarui Fang", "J. Fang", "Fang, J.", "Fang,
 * Jiarui", "Fang Jiarui", "Jia-Rui Fang" and "方佳瑞", with footnote marks
 * (* † ‡ digits) or without; for `name: Jia-Rui Fang` also "J.-R. Fang"
 * (initials stand for the parts the owner's given name has).  "Jun Fang"
 * and "J. Fan" are other people.  Letters are compared without regard to
 * ASCII case; dots, hyphens and spaces do not count.
 */
#ifndef CV_AUTHORS_H
#define CV_AUTHORS_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "doc.h"

/* A name split into its parts, each squashed to lower-case ASCII letters
 * without dots, hyphens or spaces ("Jia-Rui Fang": given "jiarui",
 * initials "jr", family "fang", whole "jiaruifang"). */
typedef struct cv_person {
    char given[64], initials[16], family[64], whole[160];
} cv_person;

/* The profile's owner, as `name` and `native_name` (split once, matched
 * against every author). */
typedef struct cv_owner {
    cv_person names[2];
    bool present[2];         /* the profile has this name */
    bool split[2];           /* ... and it has a family and a given name */
} cv_owner;

/* Split `s` (plain text): "Family, Given" or "Given Family", or, when
 * `family_first`, "Family Given" (the Chinese order).  Footnote marks are
 * dropped.  Returns whether both a family and a given name were found (a
 * one-word name has only `whole`). */
bool cv_authors_split(const char *s, bool family_first, cv_person *p);

/* The owner of `doc`; `a` holds the plain text of a name written with
 * markup (a few bytes, once). */
void cv_authors_owner(cv_owner *o, cv_arena *a, const cv_doc *doc);

/* Is `author` (plain text, no markup) the owner? */
bool cv_authors_match(const cv_owner *o, const char *author);

/* The authors joined with ", " as markup, the owner in bold (an author
 * written with markup, "**Zilin Zhu**", is left as written), the spaces
 * inside each name no-break spaces (U+00A0), so that no name is split
 * between lines.  One string
 * allocated in `a`, valid until cv_arena_free(); NULL when n is 0. */
const char *cv_authors_markup(cv_arena *a, const cv_text *authors, size_t n,
                              const cv_owner *o);

#endif
