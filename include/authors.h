/* authors.h - the profile's owner in author lists.
 *
 * A publication's AUTHORS placeholder sets the owner's name in bold,
 * whichever usual form the list gives it: for `name: Jiarui Fang` (or
 * `native_name: 方佳瑞`), "Jiarui Fang", "J. Fang", "Fang, J.", "Fang,
 * Jiarui", "Fang Jiarui", "Jia-Rui Fang", "J.-R. Fang" and "方佳瑞", with
 * footnote marks (* † ‡ digits) or without.  "Jun Fang" and "J. Fan" are
 * other people.  Letters are compared without regard to ASCII case; dots,
 * hyphens and spaces do not count.
 */
#ifndef CV_AUTHORS_H
#define CV_AUTHORS_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "doc.h"

/* Is `author` (plain text, no markup) the profile's owner, by `name` or
 * `native_name`?  Scratch memory comes from `a`. */
bool cv_authors_is_owner(const char *author, const cv_doc *doc, cv_arena *a);

#endif
