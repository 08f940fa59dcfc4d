/* social.c - social networks: RenderCV's table, checks and profile URLs.
 *
 * The table holds each network RenderCV knows, in RenderCV's spelling,
 * with the prefix its profile URL takes.  Names are compared "squashed"
 * (lower case, without spaces, '_' and '-'), so RenderCV 1's
 * "Google_Scholar" and a hand-typed "google scholar" find the same entry.
 * A few networks need more than a prefix: Mastodon's URL is on the user's
 * server (@name@server -> https://server/@name), WhatsApp's wa.me link
 * takes the number's digits alone, a YouTube handle may be written with
 * its '@', and an ORCID iD is checked digit by digit.
 */
#include "social.h"

#include "phone.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

typedef struct network {
    const char *name; /* RenderCV's spelling */
    const char *url;  /* URL prefix (Mastodon builds its own) */
} network;

static const network networks[] = {
    {"LinkedIn", "https://linkedin.com/in/"},
    {"GitHub", "https://github.com/"},
    {"GitLab", "https://gitlab.com/"},
    {"IMDB", "https://imdb.com/name/"},
    {"Instagram", "https://instagram.com/"},
    {"ORCID", "https://orcid.org/"},
    {"Mastodon", NULL},
    {"StackOverflow", "https://stackoverflow.com/users/"},
    {"ResearchGate", "https://researchgate.net/profile/"},
    {"YouTube", "https://youtube.com/@"},
    {"Google Scholar", "https://scholar.google.com/citations?user="},
    {"Telegram", "https://t.me/"},
    {"WhatsApp", "https://wa.me/"},
    {"Leetcode", "https://leetcode.com/u/"},
    {"X", "https://x.com/"},
    {"Bluesky", "https://bsky.app/profile/"},
    {"Reddit", "https://reddit.com/user/"},
};
#define NNETWORKS (sizeof networks / sizeof *networks)

/* Lowercase with spaces, '_' and '-' dropped: "Google_Scholar" and
 * "google scholar" are one name. */
static void squash(const char *s, char *out, size_t size)
{
    size_t n = 0;
    for (; *s && n + 1 < size; s++)
        if (*s != ' ' && *s != '_' && *s != '-')
            out[n++] = (char)tolower((unsigned char)*s);
    out[n] = '\0';
}

/* The network `name` stands for, or NULL. */
static const network *find_network(const char *name)
{
    char want[64], have[64];
    squash(name, want, sizeof want);
    if (strcmp(want, "twitter") == 0)
        return &networks[14];
    for (size_t i = 0; i < NNETWORKS; i++) {
        squash(networks[i].name, have, sizeof have);
        if (strcmp(want, have) == 0)
            return &networks[i];
    }
    return NULL;
}

/* ORCID iDs: 0000-0002-1825-0097 (the last character may be X). */
static bool is_orcid(const char *s)
{
    if (strlen(s) != 19)
        return false;
    for (int i = 0; i < 19; i++) {
        if (i % 5 == 4 ? s[i] != '-'
                       : !(isdigit((unsigned char)s[i]) || (i == 18 && s[i] == 'X')))
            return false;
    }
    return true;
}

/* RenderCV's username rules for the networks that have one (beyond
 * ORCID and Mastodon, checked below): NULL when `u` passes, else what
 * the username must look like. */
static const char *username_rule(const char *net, const char *u)
{
    size_t n = strlen(u);
    if (!strcmp(net, "StackOverflow")) {          /* \d+/[^/]+ */
        size_t d = strspn(u, "0123456789");
        return d && u[d] == '/' && u[d + 1] && !strchr(u + d + 1, '/')
                   ? NULL : "a user id and name, like 1234567/jane-doe";
    }
    if (!strcmp(net, "YouTube"))
        return u[0] == '@' ? "the handle without its '@'" : NULL;
    if (!strcmp(net, "IMDB"))                     /* nm\d{7} */
        return n == 9 && u[0] == 'n' && u[1] == 'm' && strspn(u + 2, "0123456789") == 7
                   ? NULL : "nm and seven digits, like nm0000123";
    if (!strcmp(net, "Reddit")) {                 /* [a-zA-Z0-9_-]{3,23} */
        size_t k = 0;
        while (isalnum((unsigned char)u[k]) || u[k] == '_' || u[k] == '-')
            k++;
        return k == n && n >= 3 && n <= 23 ? NULL
               : "3 to 23 letters, digits, underscores and hyphens";
    }
    if (!strcmp(net, "Bluesky")) {
        /* Dot-separated labels of letters, digits and inner hyphens, at
         * most 63 characters each, at least two labels. */
        size_t labels = 0;
        for (const char *p = u;;) {
            size_t k = 0;
            while (isalnum((unsigned char)p[k]) || p[k] == '-')
                k++;
            if (!k || k > 63 || p[0] == '-' || p[k - 1] == '-')
                return "a handle without '@', like name.bsky.social";
            labels++;
            if (p[k] == 0)
                break;
            if (p[k] != '.')
                return "a handle without '@', like name.bsky.social";
            p += k + 1;
        }
        return labels >= 2 ? NULL : "a handle without '@', like name.bsky.social";
    }
    if (!strcmp(net, "WhatsApp")) {
        const char *why;
        return cv_phone_valid(u, &why) ? NULL
               : cv_phone_missing() ? why
               : "a phone number with its country code, like +1 609 555 0100";
    }
    return NULL;
}

const char *cv_social_network(const char *name)
{
    const network *nw = find_network(name);
    return nw ? nw->name : NULL;
}

/* A network cvpdf does not know: fine with a url of its own, else an error
 * that names the closest known network, or all of them. */
static bool unknown_network(const cv_text *net, const cv_text *url, cv_social *out,
                            cv_error *err)
{
    if (url->s) {
        out->network = *net;
        out->url = url->s;
        return true;
    }
    const char *names[NNETWORKS + 2];
    for (size_t i = 0; i < NNETWORKS; i++)
        names[i] = networks[i].name;
    names[NNETWORKS] = "Twitter";
    names[NNETWORKS + 1] = NULL;
    const char *s = cv_suggest(net->s, names);
    if (s)
        return cv_error_at(err, net->pos, "unknown social network '%s' (did you mean '%s'?)",
                           net->s, strcmp(s, "Twitter") == 0 ? "X" : s);
    return cv_error_at(err, net->pos,
                       "unknown social network '%s': cvpdf knows LinkedIn, GitHub, GitLab, "
                       "IMDB, Instagram, ORCID, Mastodon, StackOverflow, ResearchGate, "
                       "YouTube, Google Scholar, Telegram, WhatsApp, Leetcode, X, Bluesky "
                       "and Reddit; give a 'url' for any other", net->s);
}

/* `s` without "https://", "http://" and "www.": NULL when it has no
 * scheme and does not start with `host`. */
static const char *without_scheme(const char *s, const char *host)
{
    bool scheme = false;
    if (!strncasecmp(s, "https://", 8) || !strncasecmp(s, "http://", 7))
        s += s[4] == ':' ? 7 : 8, scheme = true;
    if (!strncasecmp(s, "www.", 4))
        s += 4;
    return scheme || (host && !strncasecmp(s, host, strlen(host))) ? s : NULL;
}

/* A username written as the profile's URL (https://github.com/ab), reduced
 * to the username (ab) with a note; a URL that is not the network's
 * profile is an error.  Mastodon's https://server/@name is @name@server.
 * Returns false with err set; *u is the username. */
static bool from_url(cv_arena *a, const network *nw, const cv_text *user, const char **u,
                     cv_error *err)
{
    const char *p;
    if (!strcmp(nw->name, "Mastodon")) {
        if ((*u)[0] == '@' || !(p = without_scheme(*u, NULL)))
            return true;
        const char *slash = strstr(p, "/@");
        size_t rest = slash ? strcspn(slash + 2, "/?#") : 0;
        if (!slash || !rest || (slash[2 + rest] && strcmp(slash + 2 + rest, "/")))
            return cv_error_at(err, user->pos, "Mastodon username '%s' is a URL: write it as "
                               "@name@server", *u);
        *u = cv_arena_printf(a, "@%.*s@%.*s", (int)rest, slash + 2, (int)(slash - p), p);
    } else {
        const char *prefix = nw->url + 8;       /* past https:// */
        size_t pl = strlen(prefix);
        if (!(p = without_scheme(*u, prefix)))
            return true;
        size_t n = strncasecmp(p, prefix, pl) ? 0 : strcspn(p + pl, "/?#&");
        const char *end = p + pl + n;
        if (!n || (*end && strcmp(end, "/") && *end != '?' && *end != '#' && *end != '&'))
            return cv_error_at(err, user->pos, "%s username '%s' is a URL, not a username: "
                               "write the username alone (for a link elsewhere, give it as "
                               "'url')", nw->name, *u);
        *u = cv_arena_strndup(a, p + pl, n);
    }
    cv_note(err, user->pos, "%s username given as a URL: cvpdf uses '%s'", nw->name, *u);
    return true;
}

/* The username checked for network `nw` and its profile URL built (unless
 * the item gave a url). */
static bool known_network(cv_arena *a, const network *nw, cv_text *user,
                          const cv_text *url, cv_social *out, cv_error *err)
{
    const char *u = user->s;
    if (!from_url(a, nw, user, &u, err))
        return false;
    if (u != user->s)
        user->s = out->username.s = out->label = u;

    const char *rule = username_rule(nw->name, u);
    if (rule)
        return cv_error_at(err, user->pos, "invalid %s username '%s': RenderCV wants %s",
                           nw->name, u, rule);

    /* A space makes an odd link; RenderCV takes it (its URL escaped), and
     * so does cvpdf, with a warning.  In a Mastodon server it cannot be. */
    if (!strcmp(nw->name, "Mastodon") && cv_text_has_space(u))
        return cv_error_at(err, user->pos, "%s username '%s' must not contain spaces", nw->name,
                           u);
    for (const char *p = u; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7F)
            return cv_error_at(err, user->pos, "%s username '%s' must not contain a line break "
                               "or a control character", nw->name, u);
    if (strcmp(nw->name, "WhatsApp") != 0 && cv_text_has_space(u))
        cv_warn(err, user->pos, "%s username '%s' contains a space: its link has %%20 there",
                nw->name, u);
    if (strcmp(nw->name, "ORCID") == 0 && !is_orcid(u))
        return cv_error_at(err, user->pos,
                           "ORCID iD '%s' must look like 0000-0002-1825-0097", u);
    if (strcmp(nw->name, "Mastodon") == 0) {
        const char *at = u[0] == '@' ? strchr(u + 1, '@') : NULL;
        if (!at || at == u + 1 || !at[1] || strchr(at + 1, '@'))
            return cv_error_at(err, user->pos,
                               "Mastodon username '%s' must look like @name@server", u);
        /* The server is the link's host: RenderCV refuses a URL whose host
         * has a character no host name can have. */
        if (at[1 + strcspn(at + 1, "<>\"#%/?[\\]^|`{}")])
            return cv_error_at(err, user->pos, "Mastodon username '%s': '%s' cannot be a "
                               "server's name", u, at + 1);
        out->url = url->s ? url->s
                          : cv_arena_printf(a, "https://%s/@%.*s", at + 1, (int)(at - u - 1),
                                            u + 1);
    } else if (strcmp(nw->name, "WhatsApp") == 0) {
        /* wa.me takes the number as digits only. */
        cv_strbuf b = {0};
        cv_strbuf_put(a, &b, nw->url, strlen(nw->url));
        for (const char *p = u; *p; p++)
            if (isdigit((unsigned char)*p))
                cv_strbuf_put(a, &b, p, 1);
        out->url = url->s ? url->s : b.s;
    } else {
        /* A handle written with its '@' (@ab): the URL takes the name alone. */
        const char *name = u;
        if (name[0] == '@' && nw->url[strlen(nw->url) - 1] == '/')
            name++;
        else if (strcmp(nw->name, "YouTube") == 0 && name[0] == '@')
            name++;
        cv_strbuf b = {0};
        cv_strbuf_put(a, &b, nw->url, strlen(nw->url));
        for (const char *p = name; *p; p++)
            cv_strbuf_put(a, &b, *p == ' ' ? "%20" : p, *p == ' ' ? 3 : 1);
        out->url = url->s ? url->s : b.s;
    }
    if (strcmp(nw->name, "Google Scholar") == 0)
        out->label = "Google Scholar";
    return true;
}

static const char *const social_keys[] = {"network", "username", "url", "fontawesome_icon",
                                          NULL};

const char *const *cv_social_keys(void)
{
    return social_keys;
}

const char *cv_social_network_at(size_t i)
{
    return i < NNETWORKS ? networks[i].name : NULL;
}

bool cv_social_read(cv_arena *a, const cv_yml *n, cv_social *out, cv_error *err)
{
    const char *const *keys = social_keys;
    memset(out, 0, sizeof *out);
    if (n->kind != CV_YML_MAP)
        return cv_error_at(err, n->pos,
                           "a social network is a mapping with 'network' and 'username', not %s",
                           cv_yml_kind_name(n->kind));
    if (!cv_yml_check_keys(n, keys, "social network", err))
        return false;
    cv_text net, user, url;
    if (!cv_text_string_only(cv_yml_get(n, "network"), "network", err) ||
        !cv_text_string_only(cv_yml_get(n, "username"), "username", err) ||
        !cv_text_read(a, cv_yml_get(n, "network"), "network", &net, err) ||
        !cv_text_read(a, cv_yml_get(n, "username"), "username", &user, err) ||
        !cv_text_read(a, cv_yml_get(n, "url"), "url", &url, err) ||
        !cv_text_need(&net, "network", "a social network", n->pos, err) ||
        !cv_text_need(&user, "username", "a social network", n->pos, err) ||
        !cv_text_check_url(&url, "url", err))
        return false;
    out->username = user;
    out->label = user.s;

    /* A network RenderCV does not know needs its own url. */
    const network *nw = find_network(net.s);
    if (!nw)
        return unknown_network(&net, &url, out, err);
    out->network = (cv_text){nw->name, net.pos};
    return known_network(a, nw, &user, &url, out, err);
}

const char *cv_social_icon(const char *name)
{
    /* Fork Awesome codepoints (its fork-awesome.css), as UTF-8. */
    static const char *const icons[][2] = {
        {"location", "\xEF\x81\x81"},       /* U+F041 map-marker */
        {"email", "\xEF\x80\x83"},          /* U+F003 envelope-o: RenderCV's is Font
                                               Awesome's outlined ("regular") envelope */
        {"phone", "\xEF\x82\x95"},          /* U+F095 phone */
        {"website", "\xEF\x83\x81"},        /* U+F0C1 link */
        {"link", "\xEF\x83\x81"},
        {"LinkedIn", "\xEF\x82\x8C"},       /* U+F08C linkedin-square: Font Awesome 6's
                                               linkedin is the square */
        {"GitHub", "\xEF\x82\x9B"},         /* U+F09B */
        {"GitLab", "\xEF\x8A\x96"},         /* U+F296 */
        {"IMDB", "\xEF\x8B\x98"},           /* U+F2D8 */
        {"Instagram", "\xEF\x85\xAD"},      /* U+F16D */
        {"ORCID", "\xEF\x8C\xB7"},          /* U+F337 */
        {"Mastodon", "\xEF\x8B\xA1"},       /* U+F2E1 */
        {"StackOverflow", "\xEF\x85\xAC"},  /* U+F16C */
        {"ResearchGate", "\xEF\x8C\xB8"},   /* U+F338 */
        {"YouTube", "\xEF\x85\xA7"},        /* U+F167 */
        {"Google Scholar", "\xEF\x86\x9D"}, /* U+F19D graduation-cap */
        {"Telegram", "\xEF\x8B\x86"},       /* U+F2C6 */
        {"WhatsApp", "\xEF\x88\xB2"},       /* U+F232 */
        {"Leetcode", "\xEF\x84\xA1"},       /* U+F121 code */
        {"X", "\xEF\x82\x99"},              /* U+F099 twitter */
        {"Reddit", "\xEF\x86\xA1"},         /* U+F1A1 */
        {"Bluesky", "\xEF\x83\x81"},        /* link: no butterfly in Fork Awesome */
    };
    for (size_t i = 0; name && i < sizeof icons / sizeof *icons; i++)
        if (!strcmp(icons[i][0], name))
            return icons[i][1];
    return NULL;
}
