/* social.h - social networks in a profile's header: RenderCV's
 * `social_networks` items, each {network, username} (and optionally url).
 *
 * cvpdf knows RenderCV's networks and builds each profile URL as RenderCV
 * does (https://github.com/USERNAME, https://orcid.org/ID, ...).  A network
 * it does not know is accepted with an explicit `url`.  Network names are
 * matched loosely: case, spaces, '_' and '-' do not count ("google_scholar"
 * is "Google Scholar"), and "Twitter" is "X".
 *
 * Strings are static, the YAML tree's, or in the arena: valid until
 * cv_arena_free().
 */
#ifndef CV_SOCIAL_H
#define CV_SOCIAL_H

#include <stdbool.h>

#include "arena.h"
#include "error.h"
#include "text.h"
#include "yml.h"

typedef struct cv_social {
    cv_text network;     /* canonical spelling: "GitHub", "Google Scholar" */
    cv_text username;
    const char *url;     /* profile URL built as RenderCV builds it */
    const char *label;   /* what is shown: the username ("feifeibear"), or
                            "Google Scholar" for Google Scholar */
} cv_social;

/* RenderCV's spelling of a network cvpdf knows ("github" -> "GitHub",
 * "twitter" -> "X"), or NULL. */
const char *cv_social_network(const char *name);

/* The icon RenderCV shows before a connection, as the UTF-8 of its
 * character in Fork Awesome (Font Awesome 4's codepoints, TrueType in
 * Debian's fonts-fork-awesome): for a network ("GitHub"), or for
 * "location", "email", "phone", "website" and "link" (a custom
 * connection).  NULL when there is none. */
const char *cv_social_icon(const char *network);

/* Read one `social_networks` item `n` into *out (zeroed first).  The URL is
 * the item's `url` when given, else built from the username; the label is
 * the username ("Google Scholar" for Google Scholar, whose IDs mean nothing
 * to a reader).  Errors (false, `err` set at the node): not a mapping, an
 * unknown key, a missing network or username, an invalid url, an unknown
 * network without a url (with a did-you-mean), a username with spaces
 * (WhatsApp numbers may have them), an ORCID iD not shaped
 * 0000-0002-1825-0097, a Mastodon handle not shaped @name@server. */
bool cv_social_read(cv_arena *a, const cv_yml *n, cv_social *out, cv_error *err);
/* The keys cv_social_read() accepts: NULL-terminated, constant. */
const char *const *cv_social_keys(void);
/* The i-th network cvpdf knows, in RenderCV's spelling; NULL past the last. */
const char *cv_social_network_at(size_t i);

#endif
