/* jsonresume.c - a JSON Resume as a RenderCV profile.  See jsonresume.h.
 *
 * Each part of a resume.json becomes the section a reader of a résumé
 * expects, with RenderCV's entry types:
 *
 *   basics        the header: name, label (headline), email, phone, url
 *                 (website), location (city, region, country), profiles
 *                 (custom connections, each a link); summary -> "Summary"
 *   work          "Experience": experience entries (company, position)
 *   volunteer     "Volunteering": the same, organization as the company
 *   education     "Education": education entries (studyType as degree;
 *                 score and courses as highlights)
 *   awards        "Awards": normal entries (awarder as summary)
 *   certificates  "Certificates": normal entries (issuer as summary)
 *   publications  "Publications": normal entries (JSON Resume has no
 *                 authors; publisher as summary)
 *   skills        "Skills": one-line entries (name: level, keywords)
 *   languages     "Languages": one-line entries (language: fluency)
 *   interests     "Interests": one-line entries (name: keywords)
 *   references    "References": normal entries (the reference as summary)
 *   projects      "Projects": normal entries (description as summary,
 *                 entity as the place; roles, keywords and type as
 *                 highlights)
 *
 * A work or education item without what RenderCV's type needs (a
 * position, an area) makes its section normal entries instead, so that
 * every entry of a section has one type.  JSON Resume's text is plain, so
 * it is escaped for markup.py; a `url` makes the entry's name a link.
 * The new nodes carry the position of the JSON they come from.
 */
#include "jsonresume.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cldr.h"
#include "lang.h"
#include "markup.h"

static const char *const parts[] = {
    "basics", "work", "volunteer", "education", "awards", "certificates", "publications",
    "skills", "languages", "interests", "references", "projects", "meta", "$schema", NULL};

bool cv_jsonresume_is(const cv_yml *root)
{
    if (!root || root->kind != CV_YML_MAP || cv_yml_get(root, "cv"))
        return false;
    if (cv_yml_get(root, "basics"))
        return true;
    /* Without basics: two parts, with no more keys of other kinds than
     * parts (a foreign JSON file with an "education" and a "skills" among
     * ten keys of its own is not a résumé with no name), or one part and
     * nothing else. */
    size_t known = 0, own = 0;      /* parts; of them, meta and $schema */
    for (size_t i = 0; parts[i]; i++)
        if (cv_yml_get(root, parts[i])) {
            known++;
            own += !strcmp(parts[i], "meta") || !strcmp(parts[i], "$schema");
        }
    size_t n = known - own;
    return (n >= 2 && root->n - known <= n) || (n == 1 && root->n == 1);
}

/* ---- Building the tree ------------------------------------------------- */

typedef struct jr {
    cv_arena *a;
    cv_error *err;
    const char *lang;        /* the résumé's language, for country names; NULL: English */
    const char *noted[16];   /* "work.technologies": extra keys already named */
    size_t nnoted;
} jr;

/* JSON Resume's text as cvpdf markup: a backslash before punctuation is
 * Markdown's escape, which the themes' Markdown removes (`\_gopal\_`
 * shows `_gopal_`); the rest is escaped for markup.h. */
static const char *unmd(jr *j, const char *s)
{
    if (strchr(s, '\\')) {
        char *o = cv_arena_strdup(j->a, s), *q = o;
        for (const char *p = s; *p; p++) {
            if (*p == '\\' && p[1] && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", p[1]))
                p++;
            *q++ = *p;
        }
        *q = 0;
        s = o;
    }
    return s;
}

static const char *esc(jr *j, const char *s)
{
    return cv_markup_escape(j->a, unmd(j, s));
}

static cv_yml *str_node(jr *j, const char *s, cv_pos pos)
{
    cv_yml *n = cv_arena_alloc(j->a, sizeof *n);
    n->kind = CV_YML_SCALAR;
    n->pos = pos;
    n->str = s;
    n->len = strlen(s);
    return n;
}

static cv_yml *node(jr *j, cv_yml_kind k, cv_pos pos)
{
    cv_yml *n = cv_arena_alloc(j->a, sizeof *n);
    n->kind = k;
    n->pos = pos;
    return n;
}

/* The room of a list or mapping of n items made by node() and add():
 * the next power of two from 4, so that appending costs amortised constant
 * time and memory (60,000 highlights: no copy per item). */
static size_t room(size_t n)
{
    size_t r = 4;
    while (r < n)
        r *= 2;
    return n ? r : 0;
}

/* Append to a mapping (key, value) or a list (value, key NULL). */
static void add(jr *j, cv_yml *to, const char *key, cv_yml *v)
{
    if (!v)
        return;
    if (to->n == room(to->n)) {
        size_t cap = to->n ? 2 * to->n : 4;
        cv_yml **items = cv_arena_alloc(j->a, sizeof *items * cap);
        if (to->n)
            memcpy(items, to->items, sizeof *items * to->n);
        to->items = items;
        if (to->kind == CV_YML_MAP) {
            cv_yml **keys = cv_arena_alloc(j->a, sizeof *keys * cap);
            if (to->n)
                memcpy(keys, to->keys, sizeof *keys * to->n);
            to->keys = keys;
        }
    }
    to->items[to->n] = v;
    if (to->kind == CV_YML_MAP)
        to->keys[to->n] = str_node(j, key, v->pos);
    to->n++;
}

/* A string member of `m`, or NULL when absent or empty; a number or
 * boolean is taken as written. */
static const cv_yml *get_str(jr *j, const cv_yml *m, const char *key)
{
    /* The names JSON Resume's drafts before 1.0.0 used, which many
     * resume.json files still have: work.company, website, education.gpa,
     * awards.awardDate, basics.picture, location.state. */
    static const char *const older[][2] = {{"name", "company"}, {"url", "website"},
                                           {"score", "gpa"}, {"date", "awardDate"},
                                           {"image", "picture"}, {"region", "state"}};
    const cv_yml *v = cv_yml_get(m, key);
    for (size_t i = 0; !v && i < sizeof older / sizeof *older; i++)
        if (!strcmp(key, older[i][0]))
            v = cv_yml_get(m, older[i][1]);
    if (!v || cv_yml_is_null(v))
        return NULL;
    if (v->kind != CV_YML_SCALAR) {
        cv_error_at(j->err, v->pos, "'%s' must be a string, not %s", key,
                    cv_yml_kind_name(v->kind));
        return NULL;
    }
    return *v->str ? v : NULL;
}

/* Plain text, escaped for markup, at the position of `v`. */
static cv_yml *text(jr *j, const cv_yml *v)
{
    return v ? str_node(j, esc(j, v->str), v->pos) : NULL;
}

static bool is_url(const char *s)
{
    return !strncasecmp(s, "https://", 8) || !strncasecmp(s, "http://", 7);
}

/* A host name with an optional path, written without http:// or https://
 * (`example.com`, `www.example.com/me`): a label of letters, digits and
 * hyphens, a dot, more labels; no spaces, no @, no scheme. */
static bool bare_host(const char *s)
{
    if (!isalnum((unsigned char)*s) || strstr(s, "://") || strpbrk(s, " \t\n@"))
        return false;
    bool dot = false;
    const char *p = s;
    for (; *p && *p != '/'; p++) {
        if (*p == '.') {
            if (p[-1] == '.' || !isalnum((unsigned char)p[1]))
                return false;
            dot = true;
        } else if (!isalnum((unsigned char)*p) && *p != '-' && *p != ':') {
            return false;
        }
    }
    return dot;
}

/* A network's name as an icon's ("Stack Overflow" -> stack-overflow, the
 * Font Awesome name): lower case, words joined by hyphens. */
static const char *icon_name(jr *j, const char *net)
{
    cv_strbuf b = {0};
    for (const char *p = net; *p; p++) {
        if (*p == ' ' || *p == '_') {
            if (b.n && b.s[b.n - 1] != '-')
                cv_strbuf_put(j->a, &b, "-", 1);
            continue;
        }
        char c = (char)tolower((unsigned char)*p);
        cv_strbuf_put(j->a, &b, &c, 1);
    }
    while (b.n && b.s[b.n - 1] == '-')
        b.s[--b.n] = 0;
    return b.n ? b.s : "link";
}

/* A URL as JSON Resume's themes take it: one written without http:// or
 * https:// (`example.com`), which they print, is linked as https://, with
 * a warning; anything else as it is. */
static const cv_yml *web(jr *j, const cv_yml *u)
{
    if (!u || is_url(u->str) || !bare_host(u->str))
        return u;
    cv_warn(j->err, u->pos, "'%s' has no http:// or https://: linked as https://%s", u->str,
            u->str);
    return str_node(j, cv_arena_printf(j->a, "https://%s", u->str), u->pos);
}

/* `name`, a link to `url` when there is one. */
static cv_yml *linked(jr *j, const cv_yml *name, const cv_yml *url)
{
    if (!name)
        return NULL;
    url = web(j, url);
    if (!url || !is_url(url->str))
        return text(j, name);
    return str_node(j, cv_arena_printf(j->a, "[%s](%s)", esc(j, name->str),
                                       url->str), name->pos);
}

/* The strings of list member `key`, escaped, each a node; NULL when none. */
static cv_yml *strings(jr *j, const cv_yml *m, const char *key)
{
    const cv_yml *v = cv_yml_get(m, key);
    if (!v || cv_yml_is_null(v))
        return NULL;
    if (v->kind != CV_YML_SEQ) {
        cv_error_at(j->err, v->pos, "'%s' must be a list of strings, not %s", key,
                    cv_yml_kind_name(v->kind));
        return NULL;
    }
    cv_yml *seq = node(j, CV_YML_SEQ, v->pos);
    for (size_t i = 0; i < v->n; i++) {
        if (v->items[i]->kind != CV_YML_SCALAR) {
            cv_error_at(j->err, v->items[i]->pos, "'%s' must be a list of strings, not %s",
                        key, cv_yml_kind_name(v->items[i]->kind));
            return NULL;
        }
        if (!cv_yml_is_null(v->items[i]) && *v->items[i]->str)
            add(j, seq, NULL, text(j, v->items[i]));
    }
    return seq->n ? seq : NULL;
}

/* "a, b, c" from a list member, escaped; NULL when none. */
static const char *joined(jr *j, const cv_yml *m, const char *key)
{
    cv_yml *seq = strings(j, m, key);
    if (!seq)
        return NULL;
    cv_strbuf b = {0};
    for (size_t i = 0; i < seq->n; i++) {
        if (i)
            cv_strbuf_put(j->a, &b, ", ", 2);
        cv_strbuf_put(j->a, &b, seq->items[i]->str, seq->items[i]->len);
    }
    return b.s;
}

/* "first, second" of two optional texts (escaped), or NULL. */
static const char *pair(jr *j, const cv_yml *a, const char *b, const char *sep)
{
    const char *x = a ? esc(j, a->str) : NULL;
    if (x && b)
        return cv_arena_printf(j->a, "%s%s%s", x, sep, b);
    return x ? x : b;
}

/* The list `key` of the resume, checked: NULL when absent or empty. */
static const cv_yml *part(jr *j, const cv_yml *root, const char *key)
{
    const cv_yml *v = cv_yml_get(root, key);
    if (!v || cv_yml_is_null(v))
        return NULL;
    if (v->kind != CV_YML_SEQ) {
        cv_error_at(j->err, v->pos, "'%s' must be a list, not %s", key,
                    cv_yml_kind_name(v->kind));
        return NULL;
    }
    for (size_t i = 0; i < v->n; i++)
        if (v->items[i]->kind != CV_YML_MAP) {
            cv_error_at(j->err, v->items[i]->pos, "each item of '%s' must be an object, not %s",
                        key, cv_yml_kind_name(v->items[i]->kind));
            return NULL;
        }
    return v->n ? v : NULL;
}

/* A date of the resume as the profile's date: JSON's strings are quoted,
 * and a quoted year is January of it in RenderCV ("2021" -> Jan 2021); a
 * resume.json's "2021" means the year, as a plain 2021 does. */
static const cv_yml *date_node(jr *j, const cv_yml *v)
{
    if (!v)
        return NULL;
    cv_yml *n = cv_arena_alloc(j->a, sizeof *n);
    *n = *v;
    n->plain = true;
    /* A month or day of one digit (2023-9-28): the themes print such a
     * date as written; it is read as 2023-09-28, with a warning. */
    int y, m, d = 0, k = 0;
    char tail;
    if ((sscanf(v->str, "%4d-%2d-%2d%n%c", &y, &m, &d, &k, &tail) == 3 ||
         (d = 0, sscanf(v->str, "%4d-%2d%n%c", &y, &m, &k, &tail) == 2)) &&
        k == (int)v->len && strlen(v->str) < (d ? 10u : 7u) && v->str[4] == '-' &&
        m >= 1 && m <= 12 && d >= 0 && d <= 31) {
        n->str = d ? cv_arena_printf(j->a, "%04d-%02d-%02d", y, m, d)
                   : cv_arena_printf(j->a, "%04d-%02d", y, m);
        n->len = strlen(n->str);
        cv_warn(j->err, v->pos, "date '%s' read as %s (JSON Resume's dates have two-digit "
                "months and days)", v->str, n->str);
    }
    return n;
}

/* Does s look like a date (YYYY, YYYY-M(M), YYYY-M(M)-D(D))?  Its values
 * are checked later, at the profile's dates. */
static bool date_shaped(const char *s)
{
    int n = 0, k = 0;
    for (; isdigit((unsigned char)s[n]); n++)
        ;
    if (n != 4)
        return false;
    for (int part = 0; part < 2 && s[n] == '-'; part++) {
        for (k = 0, n++; isdigit((unsigned char)s[n]); n++, k++)
            ;
        if (k < 1 || k > 2)
            return false;
    }
    return !s[n];
}

/* An endDate that says "now" in words ("Present", "current"), which the
 * themes print: the schema's way is to leave it out. */
static bool now_word(const char *s)
{
    static const char *const words[] = {"present", "current", "currently", "now", "ongoing",
                                        "today", "till date", "to date", NULL};
    for (size_t i = 0; words[i]; i++)
        if (!strcasecmp(s, words[i]))
            return true;
    return false;
}

/* Dates: startDate, endDate (none: ongoing), or one `date` key. */
static void dates(jr *j, cv_yml *e, const cv_yml *m, const char *single)
{
    const cv_yml *end = get_str(j, m, "endDate");
    if (end && now_word(end->str)) {
        cv_warn(j->err, end->pos, "endDate '%s' read as ongoing (JSON Resume leaves out the "
                "endDate of what goes on)", end->str);
        end = NULL;
    }
    const cv_yml *start = get_str(j, m, "startDate");
    /* Text that is no date ("2020-03 (9 months)", "Summer 2019"), which
     * the themes print: the dates as written, RenderCV's free `date`. */
    const cv_yml *text_at = start && !date_shaped(start->str) ? start
                            : end && !date_shaped(end->str)   ? end
                                                              : NULL;
    if (text_at && !single) {
        cv_warn(j->err, text_at->pos, "%s '%s' is not a date: the dates shown as written",
                text_at == start ? "startDate" : "endDate", text_at->str);
        const char *t = start && end ? cv_arena_printf(j->a, "%s \xE2\x80\x93 %s", start->str,
                                                       end->str)
                        : start      ? start->str
                                     : end->str;
        add(j, e, "date", str_node(j, esc(j, t), text_at->pos));
        return;
    }
    const cv_yml *s = date_node(j, start), *en = date_node(j, end);
    const cv_yml *one = single ? date_node(j, get_str(j, m, single)) : NULL;
    if (one)
        add(j, e, "date", (cv_yml *)one);
    if (s)
        add(j, e, "start_date", (cv_yml *)s);
    if (s && en)
        add(j, e, "end_date", (cv_yml *)en);
    else if (!s && en)
        add(j, e, "date", (cv_yml *)en);
}

/* Keys JSON Resume 1.0.0 names in each part's items (and its drafts'
 * older names); the schema allows others, which the themes show. */
static const char *const known_keys[][16] = {
    {"work", "name", "location", "description", "position", "url", "startDate", "endDate",
     "summary", "highlights", "company", "website", NULL},
    {"volunteer", "organization", "position", "url", "startDate", "endDate", "summary",
     "highlights", "website", "location", NULL},
    {"education", "institution", "url", "area", "studyType", "startDate", "endDate", "score",
     "courses", "gpa", "website", "location", NULL},
    {"awards", "title", "date", "awarder", "summary", "awardDate", "url", NULL},
    {"certificates", "name", "date", "url", "issuer", NULL},
    {"publications", "name", "publisher", "releaseDate", "url", "summary", "website", NULL},
    {"references", "name", "reference", NULL},
    {"projects", "name", "description", "highlights", "keywords", "startDate", "endDate",
     "url", "roles", "entity", "type", NULL},
};

/* "technologies" -> "Technologies", "startYear" -> "Start year". */
static const char *key_label(jr *j, const char *k)
{
    cv_strbuf b = {0};
    for (const char *p = k; *p; p++) {
        char c = *p == '_' ? ' ' : *p;
        if (p == k && c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        else if (p > k && c >= 'A' && c <= 'Z' && p[-1] >= 'a' && p[-1] <= 'z') {
            cv_strbuf_put(j->a, &b, " ", 1);
            c = (char)(c - 'A' + 'a');
        }
        cv_strbuf_put(j->a, &b, &c, 1);
    }
    return b.s ? b.s : k;
}

/* The keys of item `m` of `part` that JSON Resume does not name
 * (work[].technologies), each a line "Technologies: C, Go" added to `hl`
 * (a new list when NULL), and named once per part in a note. */
static cv_yml *extras(jr *j, const char *part, const cv_yml *m, cv_yml *hl)
{
    const char *const *known = NULL;
    for (size_t i = 0; i < sizeof known_keys / sizeof *known_keys; i++)
        if (!strcmp(known_keys[i][0], part))
            known = known_keys[i] + 1;
    if (!known)
        return hl;
    for (size_t i = 0; i < m->n; i++) {
        const char *k = m->keys[i]->str;
        const cv_yml *v = m->items[i];
        bool is_known = false;
        for (size_t q = 0; known[q] && !is_known; q++)
            is_known = !strcmp(known[q], k);
        if (is_known || cv_yml_is_null(v))
            continue;
        const char *shown = NULL;
        if (v->kind == CV_YML_SCALAR && *v->str)
            shown = esc(j, v->str);
        else if (v->kind == CV_YML_SEQ) {
            bool flat = true;
            for (size_t q = 0; q < v->n; q++)
                flat &= v->items[q]->kind == CV_YML_SCALAR;
            if (flat)
                shown = joined(j, m, k);
        }
        const char *path = cv_arena_printf(j->a, "%s.%s", part, k);
        bool said = false;
        for (size_t q = 0; q < j->nnoted && !said; q++)
            said = !strcmp(j->noted[q], path);
        if (!said && j->nnoted < 16) {
            j->noted[j->nnoted++] = path;
            if (shown)
                cv_note(j->err, m->keys[i]->pos, "'%s' is not one of JSON Resume's keys for "
                        "%s: shown as a line '%s: ...' under the entry", k, part,
                        key_label(j, k));
            else
                cv_note(j->err, m->keys[i]->pos, "'%s' is not one of JSON Resume's keys for "
                        "%s, and not text or a list of texts: not shown", k, part);
        }
        if (!shown)
            continue;
        if (!hl)
            hl = node(j, CV_YML_SEQ, m->pos);
        add(j, hl, NULL, str_node(j, cv_arena_printf(j->a, "%s: %s", key_label(j, k), shown),
                                  v->pos));
    }
    return hl;
}

/* ---- The parts --------------------------------------------------------- */

static void basics(jr *j, const cv_yml *b, cv_yml *cv, cv_yml *sections)
{
    if (!b || cv_yml_is_null(b))
        return;
    if (b->kind != CV_YML_MAP) {
        cv_error_at(j->err, b->pos, "'basics' must be an object, not %s",
                    cv_yml_kind_name(b->kind));
        return;
    }
    add(j, cv, "name", text(j, get_str(j, b, "name")));
    add(j, cv, "headline", text(j, get_str(j, b, "label")));
    const cv_yml *loc = cv_yml_get(b, "location");
    if (loc && loc->kind == CV_YML_MAP) {
        static const char *const keys[] = {"address", "city", "region", "postalCode",
                                           "countryCode"};
        cv_strbuf s = {0};
        for (size_t i = 0; i < 5; i++) {
            const cv_yml *v = get_str(j, loc, keys[i]);
            if (!v)
                continue;
            /* The country's name in the résumé's language (CLDR). */
            const char *w = i == 4 ? cv_cldr_country(j->a, v->str, j->lang) : NULL;
            if (!w)
                w = v->str;
            if (s.n)
                cv_strbuf_put(j->a, &s, i == 3 ? " " : ", ", i == 3 ? 1 : 2);
            cv_strbuf_put(j->a, &s, w, strlen(w));
        }
        if (s.n)
            add(j, cv, "location", str_node(j, unmd(j, s.s), loc->pos));   /* plain text */
    }
    const cv_yml *email = get_str(j, b, "email"), *phone = get_str(j, b, "phone");
    const cv_yml *url = get_str(j, b, "url");
    add(j, cv, "email", (cv_yml *)email);
    add(j, cv, "phone", (cv_yml *)phone);
    add(j, cv, "website", (cv_yml *)web(j, url));
    const cv_yml *img = get_str(j, b, "image");
    if (img && !is_url(img->str))
        add(j, cv, "photo", (cv_yml *)img);
    else if (img)
        cv_note(j->err, img->pos, "basics.image is a URL; cvpdf shows a photo only from a "
                "file");

    /* Profiles: custom connections, each "Network: username" and a link. */
    const cv_yml *pr = cv_yml_get(b, "profiles");
    if (pr && pr->kind == CV_YML_SEQ && pr->n) {
        cv_yml *cc = node(j, CV_YML_SEQ, pr->pos);
        for (size_t i = 0; i < pr->n && i < 30; i++) {
            const cv_yml *p = pr->items[i];
            if (p->kind != CV_YML_MAP)
                continue;
            const cv_yml *net = get_str(j, p, "network"), *user = get_str(j, p, "username");
            const cv_yml *u = get_str(j, p, "url");
            const char *shown = net && user ? cv_arena_printf(j->a, "%s: %s", net->str,
                                                              user->str)
                              : user ? user->str : u ? u->str : net ? net->str : NULL;
            if (!shown)
                continue;
            cv_yml *c = node(j, CV_YML_MAP, p->pos);
            /* A connection's text is shown as written: not escaped. */
            add(j, c, "placeholder", str_node(j, unmd(j, shown), p->pos));
            u = web(j, u);
            if (u && is_url(u->str))
                add(j, c, "url", (cv_yml *)u);
            add(j, c, "fontawesome_icon", str_node(j, net ? icon_name(j, net->str) : "link",
                                                   p->pos));
            add(j, cc, NULL, c);
        }
        if (cc->n)
            add(j, cv, "custom_connections", cc);
    }

    const cv_yml *sum = get_str(j, b, "summary");
    if (sum) {
        cv_yml *seq = node(j, CV_YML_SEQ, sum->pos);
        add(j, seq, NULL, text(j, sum));
        add(j, sections, "Summary", seq);
    }
}

/* work and volunteer: experience entries, or normal ones when an item
 * lacks the company or the position. */
static void jobs(jr *j, const cv_yml *list, const char *org, const char *title,
                 cv_yml *sections)
{
    if (!list)
        return;
    bool all = true;
    for (size_t i = 0; i < list->n; i++)
        all &= get_str(j, list->items[i], org) && get_str(j, list->items[i], "position");
    cv_yml *seq = node(j, CV_YML_SEQ, list->pos);
    for (size_t i = 0; i < list->n; i++) {
        const cv_yml *m = list->items[i];
        cv_yml *e = node(j, CV_YML_MAP, m->pos);
        const cv_yml *name = get_str(j, m, org), *pos = get_str(j, m, "position");
        const cv_yml *url = get_str(j, m, "url");
        if (all) {
            add(j, e, "company", linked(j, name, url));
            add(j, e, "position", text(j, pos));
        } else {
            const char *n = pair(j, name, pos ? esc(j, pos->str) : NULL, ", ");
            add(j, e, "name", str_node(j, n ? n : "\xE2\x80\x94", m->pos));
        }
        add(j, e, "location", text(j, get_str(j, m, "location")));
        dates(j, e, m, NULL);
        const cv_yml *sum = get_str(j, m, "summary"), *desc = get_str(j, m, "description");
        /* "Family estate with a cooperative cellar" and "Runs the
         * laboratory.": two sentences, the first closed with a full stop
         * unless it ends in punctuation of its own. */
        const char *sep = " ";
        if (desc && sum) {
            size_t dl = strlen(desc->str);
            static const char *const ends[] = {".", "!", "?", ":", ";", "\xE2\x80\xA6",
                                               "\xE3\x80\x82", "\xEF\xBC\x81",
                                               "\xEF\xBC\x9F"};
            sep = ". ";
            for (size_t k = 0; k < sizeof ends / sizeof *ends; k++) {
                size_t el = strlen(ends[k]);
                if (dl >= el && !memcmp(desc->str + dl - el, ends[k], el))
                    sep = " ";
            }
        }
        const char *s = pair(j, desc, sum ? esc(j, sum->str) : NULL, sep);
        if (s)
            add(j, e, "summary", str_node(j, s, (desc ? desc : sum)->pos));
        add(j, e, "highlights", extras(j, org[0] == 'n' ? "work" : "volunteer", m,
                                       strings(j, m, "highlights")));
        add(j, seq, NULL, e);
    }
    add(j, sections, title, seq);
}

static void education(jr *j, const cv_yml *list, cv_yml *sections)
{
    if (!list)
        return;
    bool all = true;
    for (size_t i = 0; i < list->n; i++)
        all &= get_str(j, list->items[i], "institution") && get_str(j, list->items[i], "area");
    cv_yml *seq = node(j, CV_YML_SEQ, list->pos);
    for (size_t i = 0; i < list->n; i++) {
        const cv_yml *m = list->items[i];
        cv_yml *e = node(j, CV_YML_MAP, m->pos);
        const cv_yml *inst = get_str(j, m, "institution"), *area = get_str(j, m, "area");
        const cv_yml *deg = get_str(j, m, "studyType"), *url = get_str(j, m, "url");
        if (all) {
            add(j, e, "institution", linked(j, inst, url));
            add(j, e, "area", text(j, area));
            add(j, e, "degree", text(j, deg));
        } else {
            const char *what = pair(j, deg, area ? esc(j, area->str) : NULL,
                                    " in ");
            const char *n = pair(j, inst, what, ", ");
            add(j, e, "name", str_node(j, n ? n : "\xE2\x80\x94", m->pos));
        }
        dates(j, e, m, NULL);
        cv_yml *hl = node(j, CV_YML_SEQ, m->pos);
        const cv_yml *score = get_str(j, m, "score");
        if (score)
            add(j, hl, NULL, str_node(j, cv_arena_printf(j->a, "Score: %s",
                                                         esc(j, score->str)),
                                      score->pos));
        const char *courses = joined(j, m, "courses");
        if (courses)
            add(j, hl, NULL, str_node(j, cv_arena_printf(j->a, "Courses: %s", courses),
                                      cv_yml_get(m, "courses")->pos));
        hl = extras(j, "education", m, hl);
        if (hl->n)
            add(j, e, "highlights", hl);
        add(j, seq, NULL, e);
    }
    add(j, sections, "Education", seq);
}

/* awards, certificates, publications, references, projects: normal
 * entries; `name` the name key, `by` the key shown as the summary. */
static void normals(jr *j, const cv_yml *list, const char *title, const char *name,
                    const char *date, const char *by, cv_yml *sections)
{
    if (!list)
        return;
    cv_yml *seq = node(j, CV_YML_SEQ, list->pos);
    for (size_t i = 0; i < list->n; i++) {
        const cv_yml *m = list->items[i];
        cv_yml *e = node(j, CV_YML_MAP, m->pos);
        cv_yml *n = linked(j, get_str(j, m, name), get_str(j, m, "url"));
        add(j, e, "name", n ? n : str_node(j, "\xE2\x80\x94", m->pos));
        dates(j, e, m, date);
        const cv_yml *b = by ? get_str(j, m, by) : NULL;
        const cv_yml *sum = get_str(j, m, "summary");
        if (!strcmp(title, "Projects"))
            sum = get_str(j, m, "description");
        const char *s = pair(j, b, sum ? esc(j, sum->str) : NULL, ". ");
        if (s)
            add(j, e, "summary", str_node(j, s, (b ? b : sum)->pos));
        cv_yml *hl = strings(j, m, "highlights");
        if (!strcmp(title, "Projects")) {
            static const char *const more[][2] = {{"roles", "Roles"}, {"keywords", "Keywords"}};
            for (size_t k = 0; k < 2; k++) {
                const char *l = joined(j, m, more[k][0]);
                if (!l)
                    continue;
                if (!hl)
                    hl = node(j, CV_YML_SEQ, m->pos);
                add(j, hl, NULL, str_node(j, cv_arena_printf(j->a, "%s: %s", more[k][1], l),
                                          cv_yml_get(m, more[k][0])->pos));
            }
            const cv_yml *type = get_str(j, m, "type");
            if (type) {
                if (!hl)
                    hl = node(j, CV_YML_SEQ, m->pos);
                add(j, hl, NULL, str_node(j, cv_arena_printf(j->a, "Type: %s",
                                                             esc(j, type->str)),
                                          type->pos));
            }
            add(j, e, "location", text(j, get_str(j, m, "entity")));
        }
        char part[16];
        snprintf(part, sizeof part, "%s", title);
        part[0] = (char)(part[0] - 'A' + 'a');
        hl = extras(j, part, m, hl);
        add(j, e, "highlights", hl);
        add(j, seq, NULL, e);
    }
    add(j, sections, title, seq);
}

/* skills, languages, interests: one-line entries "label: details", or
 * bullets when an item has nothing to put after its label. */
static void lines(jr *j, const cv_yml *list, const char *title, const char *label,
                  const char *level, const char *keywords, cv_yml *sections)
{
    if (!list)
        return;
    const char **details = cv_arena_alloc(j->a, sizeof *details * list->n);
    bool all = true;
    for (size_t i = 0; i < list->n; i++) {
        const cv_yml *m = list->items[i];
        const char *kw = keywords ? joined(j, m, keywords) : NULL;
        const cv_yml *lv = level ? get_str(j, m, level) : NULL;
        details[i] = kw && lv ? cv_arena_printf(j->a, "%s (%s)", kw,
                                                esc(j, lv->str))
                              : pair(j, lv, kw, "");
        all &= details[i] && get_str(j, m, label);
    }
    cv_yml *seq = node(j, CV_YML_SEQ, list->pos);
    for (size_t i = 0; i < list->n; i++) {
        const cv_yml *m = list->items[i];
        cv_yml *e = node(j, CV_YML_MAP, m->pos);
        const cv_yml *l = get_str(j, m, label);
        if (all) {
            add(j, e, "label", text(j, l));
            add(j, e, "details", str_node(j, details[i], m->pos));
        } else {
            const char *s = pair(j, l, details[i], ": ");
            if (!s)
                continue;
            add(j, e, "bullet", str_node(j, s, m->pos));
        }
        add(j, seq, NULL, e);
    }
    if (seq->n)
        add(j, sections, title, seq);
}

const cv_yml *cv_jsonresume_translate(cv_arena *a, const cv_yml *root, cv_error *err)
{
    jr j = {a, err, NULL, {0}, 0};
    /* The résumé's language, for the country's name: a locale: (cvpdf's and
     * RenderCV's, which a resume.json may carry and which then sets the
     * whole profile's language), else meta.language, else English. */
    const cv_yml *locale = cv_yml_get(root, "locale");
    const cv_yml *lang = cv_yml_get(locale, "language");
    if (!lang || lang->kind != CV_YML_SCALAR || !lang->str || !*lang->str)
        lang = cv_yml_get(cv_yml_get(root, "meta"), "language");
    if (lang && lang->kind == CV_YML_SCALAR && lang->str && *lang->str) {
        const char *code = cv_locale_language(lang->str);
        j.lang = code ? code : lang->str;
    }
    for (size_t i = 0; i < root->n; i++) {
        bool known = !strcmp(root->keys[i]->str, "locale");
        for (size_t k = 0; parts[k] && !known; k++)
            known = !strcmp(parts[k], root->keys[i]->str);
        if (!known)
            cv_note(err, root->keys[i]->pos, "'%s' is not part of JSON Resume 1.0.0; ignored",
                    root->keys[i]->str);
    }
    cv_yml *out = node(&j, CV_YML_MAP, root->pos);
    cv_yml *cv = node(&j, CV_YML_MAP, root->pos);
    cv_yml *sections = node(&j, CV_YML_MAP, root->pos);
    basics(&j, cv_yml_get(root, "basics"), cv, sections);
    jobs(&j, part(&j, root, "work"), "name", "Experience", sections);
    jobs(&j, part(&j, root, "volunteer"), "organization", "Volunteering", sections);
    education(&j, part(&j, root, "education"), sections);
    normals(&j, part(&j, root, "projects"), "Projects", "name", NULL, NULL, sections);
    normals(&j, part(&j, root, "publications"), "Publications", "name", "releaseDate",
            "publisher", sections);
    normals(&j, part(&j, root, "awards"), "Awards", "title", "date", "awarder", sections);
    normals(&j, part(&j, root, "certificates"), "Certificates", "name", "date", "issuer",
            sections);
    lines(&j, part(&j, root, "skills"), "Skills", "name", "level", "keywords", sections);
    lines(&j, part(&j, root, "languages"), "Languages", "language", "fluency", NULL, sections);
    lines(&j, part(&j, root, "interests"), "Interests", "name", NULL, "keywords", sections);
    normals(&j, part(&j, root, "references"), "References", "name", NULL, "reference",
            sections);
    if (err->set)
        return NULL;
    if (sections->n)
        add(&j, cv, "sections", sections);
    if (!cv->n) {
        cv_error_at(err, root->pos, "this JSON Resume has nothing to show");
        return NULL;
    }
    add(&j, out, "cv", cv);
    if (locale)
        add(&j, out, "locale", (cv_yml *)locale);
    return out;
}
