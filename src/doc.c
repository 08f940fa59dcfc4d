/* doc.c - a profile's YAML tree to a cv_doc, in RenderCV's `cv:` vocabulary.
 *
 * The loader walks the tree once, top-down, and checks as it goes: every
 * mapping's keys against the keys its place allows (with a did-you-mean for
 * typos), every value's shape, dates, e-mail addresses and URLs.  The first
 * problem is recorded with the position of the node that caused it - the
 * key for an unknown key, the value for a bad value, the entry for a
 * missing field - and loading stops.
 *
 * Entry types are not written in the profile; as in RenderCV they are
 * inferred from the keys an entry has.  Each type owns a few keys that no
 * other type has (its "characteristic" keys: `institution`, `area` and
 * `degree` for education, `company` and `position` for experience, ...);
 * a section's type is that of its first entry that tells one (the first
 * type, in RenderCV's order, owning one of its keys; a bare string is a
 * text entry), and every entry of the section is read as that type, the
 * keys of other types being extras.  fields.h is the table of every
 * type's keys.
 *
 * The parts with rules of their own have modules of their own: dates
 * (date.h), `locale:` and section titles (lang.h), social networks
 * (social.h), and the readers every part uses for its strings (text.h).
 *
 * Strings are kept raw: inline markup is parsed later by markup.h, so every
 * string keeps its source position for later diagnostics.
 */
#include "doc.h"

#include <libgen.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bib.h"
#include "fields.h"
#include "jsonresume.h"
#include "jsonsyntax.h"
#include "markup.h"
#include "phone.h"
#include "rcvold.h"

typedef struct ctx {
    cv_arena *a;
    cv_error *err;
    const char *file;
    cv_doc *d;
    bool noted_url;          /* said once that a doi hides a publication's url */
    bool check_phones;       /* as RenderCV; not a JSON Resume's (any format there) */
    bool json_resume;        /* a resume.json, read as the profile it stands for */
    bool old_era;            /* a RenderCV file, which 1.13 to 2.6 may have read
                                (rcvold.h): a key of its own in cv is a warning */
} ctx;

/* ---- Small helpers ----------------------------------------------------- */

/* The walk carries the arena and the error in a ctx; these hand them to
 * text.h's readers. */
static bool is_null(const cv_yml *n)
{
    return cv_text_absent(n);
}

static const char *article(const char *word)
{
    return cv_text_article(word);
}

static bool has_space(const char *s)
{
    return cv_text_has_space(s);
}

/* ---- Math as text ------------------------------------------------------ */

/* LaTeX math, which RenderCV hands to LaTeX (1.x: $...$) or to Typst's
 * LaTeX math package (2.x: $$...$$), as the text it reads as: commands of
 * symbols as their characters (\times ×, \leq ≤, Greek letters), function
 * names as words (\log n: log n), \mathcal{O} and its kind as their
 * content, ^ and _ as superscript and subscript characters where Unicode
 * has every one (n^2: n²; else "^" and the content), braces dropped:
 * $$\mathcal{O}(n^2)$$ reads "O(n²)" (a RenderCV 1.x file's $...$ is
 * made $$...$$ by rcvold.h). */
static const char *const math_syms[][2] = {
    {"times", "\xC3\x97"}, {"cdot", "\xC2\xB7"}, {"pm", "\xC2\xB1"}, {"mp", "\xE2\x88\x93"},
    {"leq", "\xE2\x89\xA4"}, {"le", "\xE2\x89\xA4"}, {"geq", "\xE2\x89\xA5"},
    {"ge", "\xE2\x89\xA5"}, {"neq", "\xE2\x89\xA0"}, {"ne", "\xE2\x89\xA0"},
    {"approx", "\xE2\x89\x88"}, {"sim", "\xE2\x88\xBC"}, {"equiv", "\xE2\x89\xA1"},
    {"infty", "\xE2\x88\x9E"}, {"to", "\xE2\x86\x92"}, {"rightarrow", "\xE2\x86\x92"},
    {"leftarrow", "\xE2\x86\x90"}, {"Rightarrow", "\xE2\x87\x92"}, {"in", "\xE2\x88\x88"},
    {"sum", "\xE2\x88\x91"}, {"prod", "\xE2\x88\x8F"}, {"sqrt", "\xE2\x88\x9A"},
    {"partial", "\xE2\x88\x82"}, {"nabla", "\xE2\x88\x87"}, {"ldots", "\xE2\x80\xA6"},
    {"dots", "\xE2\x80\xA6"}, {"cdots", "\xE2\x8B\xAF"}, {"degree", "\xC2\xB0"},
    {"circ", "\xE2\x88\x98"}, {"alpha", "\xCE\xB1"}, {"beta", "\xCE\xB2"},
    {"gamma", "\xCE\xB3"}, {"delta", "\xCE\xB4"}, {"epsilon", "\xCE\xB5"},
    {"varepsilon", "\xCE\xB5"}, {"zeta", "\xCE\xB6"}, {"eta", "\xCE\xB7"},
    {"theta", "\xCE\xB8"}, {"kappa", "\xCE\xBA"}, {"lambda", "\xCE\xBB"}, {"mu", "\xCE\xBC"},
    {"nu", "\xCE\xBD"}, {"xi", "\xCE\xBE"}, {"pi", "\xCF\x80"}, {"rho", "\xCF\x81"},
    {"sigma", "\xCF\x83"}, {"tau", "\xCF\x84"}, {"phi", "\xCF\x86"}, {"varphi", "\xCF\x86"},
    {"chi", "\xCF\x87"}, {"psi", "\xCF\x88"}, {"omega", "\xCF\x89"}, {"Gamma", "\xCE\x93"},
    {"Delta", "\xCE\x94"}, {"Theta", "\xCE\x98"}, {"Lambda", "\xCE\x9B"}, {"Pi", "\xCE\xA0"},
    {"Sigma", "\xCE\xA3"}, {"Phi", "\xCE\xA6"}, {"Psi", "\xCE\xA8"}, {"Omega", "\xCE\xA9"},
    {"quad", " "}, {"qquad", " "}};
static const char *const math_words[] = {"log", "ln", "exp", "sin", "cos", "tan", "max",
                                         "min", "lim", "det", "dim", "arg", "sup", "inf",
                                         "mod", NULL};
static const char *const math_fonts[] = {"mathcal", "mathrm", "mathbf", "mathit", "mathsf",
                                         "mathtt", "mathbb", "text", "textrm", "textbf",
                                         "textit", "operatorname", "boldsymbol", NULL};

/* The superscript (sup) or subscript form of ASCII c, or NULL. */
static const char *math_script(char c, bool sup)
{
    static const char digits_sup[10][4] = {"\xE2\x81\xB0", "\xC2\xB9", "\xC2\xB2",
                                           "\xC2\xB3", "\xE2\x81\xB4", "\xE2\x81\xB5",
                                           "\xE2\x81\xB6", "\xE2\x81\xB7", "\xE2\x81\xB8",
                                           "\xE2\x81\xB9"};
    static const char digits_sub[10][4] = {"\xE2\x82\x80", "\xE2\x82\x81", "\xE2\x82\x82",
                                           "\xE2\x82\x83", "\xE2\x82\x84", "\xE2\x82\x85",
                                           "\xE2\x82\x86", "\xE2\x82\x87", "\xE2\x82\x88",
                                           "\xE2\x82\x89"};
    if (c >= '0' && c <= '9')
        return sup ? digits_sup[c - '0'] : digits_sub[c - '0'];
    switch (c) {
    case '+': return sup ? "\xE2\x81\xBA" : "\xE2\x82\x8A";
    case '-': return sup ? "\xE2\x81\xBB" : "\xE2\x82\x8B";
    case '=': return sup ? "\xE2\x81\xBC" : "\xE2\x82\x8C";
    case '(': return sup ? "\xE2\x81\xBD" : "\xE2\x82\x8D";
    case ')': return sup ? "\xE2\x81\xBE" : "\xE2\x82\x8E";
    case 'n': return sup ? "\xE2\x81\xBF" : "\xE2\x82\x99";
    case 'i': return sup ? "\xE2\x81\xB1" : "\xE1\xB5\xA2";
    case 'k': return sup ? "\xE1\xB5\x8F" : "\xE2\x82\x96";
    case 'x': return sup ? "\xCB\xA3" : "\xE2\x82\x93";
    default: return NULL;
    }
}

static void math_text(cv_arena *a, cv_strbuf *b, const char *p, const char *e);

/* The group at *pp ({...} or one character or one command), its end in
 * *end: what ^, _ and the font commands take. */
static const char *math_group(const char *p, const char *e, const char **end)
{
    if (p < e && *p == '{') {
        int depth = 0;
        for (const char *q = p; q < e; q++) {
            depth += *q == '{' ? 1 : *q == '}' ? -1 : 0;
            if (!depth) {
                *end = q + 1;
                return p + 1;
            }
        }
        *end = e;
        return p + 1;
    }
    if (p < e && *p == '\\') {
        const char *q = p + 1;
        while (q < e && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')))
            q++;
        *end = q > p + 1 ? q : (q < e ? q + 1 : q);
        return p;
    }
    *end = p < e ? p + 1 : p;
    return p;
}

static void math_text(cv_arena *a, cv_strbuf *b, const char *p, const char *e)
{
    while (p < e) {
        if (*p == '{' || *p == '}') {
            p++;
            continue;
        }
        if ((*p == '^' || *p == '_') && p + 1 < e) {
            bool sup = *p == '^';
            const char *end, *g = math_group(p + 1, e, &end);
            const char *ge = end > g && end[-1] == '}' && *(p + 1) == '{' ? end - 1 : end;
            cv_strbuf inner = {0};
            math_text(a, &inner, g, ge);
            bool all = inner.n > 0;
            for (size_t i = 0; all && i < inner.n; i++)
                all = math_script(inner.s[i], sup) != NULL;
            if (all) {
                for (size_t i = 0; i < inner.n; i++) {
                    const char *t = math_script(inner.s[i], sup);
                    cv_strbuf_put(a, b, t, strlen(t));
                }
            } else {
                cv_strbuf_put(a, b, p, 1);
                if (inner.n)
                    cv_strbuf_put(a, b, inner.s, inner.n);
            }
            p = end;
            continue;
        }
        if (*p == '\\' && p + 1 < e) {
            const char *q = p + 1;
            while (q < e && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')))
                q++;
            size_t n = (size_t)(q - p - 1);
            if (!n) {           /* \, \; \! \{ \% \$ ... */
                char c = p[1];
                if (strchr(",;:! ", c)) {
                    if (b->n && b->s[b->n - 1] != ' ')
                        cv_strbuf_put(a, b, " ", 1);
                }
                else
                    cv_strbuf_put(a, b, &p[1], 1);
                p += 2;
                continue;
            }
            bool done = false;
            for (size_t i = 0; math_fonts[i] && !done; i++)
                if (strlen(math_fonts[i]) == n && !strncmp(math_fonts[i], p + 1, n)) {
                    const char *s = q;
                    while (s < e && *s == ' ')
                        s++;
                    const char *end, *g = math_group(s, e, &end);
                    math_text(a, b, g, end > g && s < e && *s == '{' ? end - 1 : end);
                    p = end;
                    done = true;
                }
            for (size_t i = 0; math_words[i] && !done; i++)
                if (strlen(math_words[i]) == n && !strncmp(math_words[i], p + 1, n)) {
                    cv_strbuf_put(a, b, p + 1, n);
                    p = q;
                    done = true;
                }
            for (size_t i = 0; i < sizeof math_syms / sizeof *math_syms && !done; i++)
                if (strlen(math_syms[i][0]) == n && !strncmp(math_syms[i][0], p + 1, n)) {
                    if (math_syms[i][1][0] != ' ' || (b->n && b->s[b->n - 1] != ' '))
                        cv_strbuf_put(a, b, math_syms[i][1], strlen(math_syms[i][1]));
                    p = q;
                    done = true;
                }
            if (!done) {        /* unknown: as written */
                cv_strbuf_put(a, b, p, (size_t)(q - p));
                p = q;
            }
            continue;
        }
        /* Spaces: one, never two, none at the start. */
        if (*p == ' ' && (!b->n || b->s[b->n - 1] == ' ')) {
            p++;
            continue;
        }
        cv_strbuf_put(a, b, p, 1);
        p++;
    }
}

/* RenderCV passes Typst through: math between $$ and $$, and commands
 * `#name(args)[content]` (what its Markdown becomes: #emph[...],
 * #strong[...], #link("url")[...]).  cvpdf sets them as plain text - the
 * math as written, a command's content without the command - with one
 * warning naming what it met.  A `#word` with neither arguments nor
 * content is a hashtag, not a command, and stays. */
static void typst_plain(ctx *c, cv_text *t)
{
    const char *s = t->s;
    if (!s || (!strstr(s, "$$") && !strchr(s, '#')))
        return;
    cv_strbuf b = {0};
    const char *met = NULL, *met_end = NULL;
    for (const char *p = s; *p;) {
        if (p[0] == '$' && p[1] == '$') {
            const char *e = strstr(p + 2, "$$");
            if (e) {
                if (!met)
                    met = p, met_end = e + 2;
                math_text(c->a, &b, p + 2, e);
                p = e + 2;
                continue;
            }
        }

        if (p[0] == '#' && ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z')) &&
            (p == s || p[-1] != '\\')) {
            const char *q = p + 1;
            while (*q && !strchr(" \t\n()[", *q))
                q++;
            const char *args = NULL, *body = NULL, *body_end = NULL, *e = q;
            if (*e == '(' && strchr(e, ')'))
                args = e, e = strchr(e, ')') + 1;
            if (*e == '[' && strchr(e, ']'))
                body = e + 1, body_end = strchr(e, ']'), e = body_end + 1;
            if (args || body) {
                if (!met)
                    met = p, met_end = e;
                if (body)
                    cv_strbuf_put(c->a, &b, body, (size_t)(body_end - body));
                p = e;
                continue;
            }
        }
        cv_strbuf_put(c->a, &b, p, 1);
        p++;
    }
    if (!met)
        return;
    int n = (int)(met_end - met);
    cv_warn(c->err, t->pos, "Typst markup '%.*s%s' is not supported: set as plain text",
            n > 40 ? 40 : n, met, n > 40 ? "..." : "");
    t->s = b.s ? b.s : "";
}

/* A Markdown link whose destination is not a web address (javascript:,
 * file:, a relative path) is set as its text alone, in every format
 * (markup.h's cv_markup_web_link()): said once for the text. */
static void web_links(ctx *c, const cv_text *t)
{
    if (!t->s || !strstr(t->s, "]("))
        return;
    cv_span *sp;
    size_t n = cv_markup_parse(c->a, t->s, 0, &sp);
    for (size_t i = 0; i < n; i++)
        if (sp[i].link && !cv_markup_web_link(sp[i].link)) {
            cv_warn(c->err, t->pos, "link to '%.60s%s' is set as text alone: a link must be "
                    "an http:, https:, mailto: or tel: address", sp[i].link,
                    strlen(sp[i].link) > 60 ? "..." : "");
            return;
        }
}

static bool text(ctx *c, const cv_yml *n, const char *field, cv_text *out)
{
    /* As RenderCV's str fields: a plain number or boolean is refused (a
     * phone number like +15551234567 is one to YAML, and taken). */
    if ((strcmp(field, "phone") != 0 && !cv_text_string_only(n, field, c->err)) ||
        !cv_text_read(c->a, n, field, out, c->err))
        return false;
    typst_plain(c, out);
    web_links(c, out);
    return true;
}

/* A required field: present.  As in RenderCV, an empty string is present
 * (and shown as nothing: *t is then absent). */
static bool need(ctx *c, cv_text *t, const char *field, const char *what, cv_pos where)
{
    if (t->s && !*t->s) {
        t->s = NULL;
        return true;
    }
    return cv_text_need(t, field, what, where, c->err);
}

/* A list of strings (authors, bold_keywords): as in RenderCV, one string
 * is not a list, and each item is a string. */
static bool texts(ctx *c, const cv_yml *n, const char *field, cv_text **out, size_t *count)
{
    if (!is_null(n) && n->kind != CV_YML_SEQ)
        return cv_error_at(c->err, n->pos, "'%s' must be a list of strings, not %s (write "
                           "[%s])", field, n->kind == CV_YML_SCALAR ? "one string"
                           : cv_yml_kind_name(n->kind), n->kind == CV_YML_SCALAR ? n->str
                           : "...");
    for (size_t i = 0; n && n->kind == CV_YML_SEQ && i < n->n; i++)
        if (!cv_text_string_only(n->items[i], field, c->err))
            return false;
    return cv_text_list(c->a, n, field, out, count, c->err);
}

static bool check_url(ctx *c, const cv_text *t, const char *field)
{
    return cv_text_check_url(t, field, c->err);
}

/* Appends to a growing string in the arena. */
typedef cv_strbuf buf;

/* +CC then only zeros (at least seven): a placeholder, not a number. */
static bool placeholder_phone(const char *s)
{
    char d[32];
    size_t n = 0;
    if (*s != '+')
        return false;
    for (const char *p = s; *p && n < sizeof d - 1; p++)
        if (*p >= '0' && *p <= '9')
            d[n++] = *p;
    d[n] = 0;
    for (size_t k = 1; k <= 3 && k < n; k++)
        if (d[0] != '0' && n - k >= 7 && strspn(d + k, "0") == n - k)
            return true;
    return false;
}

/* A field RenderCV allows as one value or a list (email, phone, website):
 * every value, each read and checked; *first is the first. */
static bool all_of(ctx *c, const cv_yml *n, const char *field, cv_text *first,
                   cv_text **all, size_t *count)
{
    *all = NULL;
    *count = 0;
    if (is_null(n))
        return true;
    size_t m = n->kind == CV_YML_SEQ ? n->n : 1;
    *all = cv_arena_alloc(c->a, sizeof **all * (m ? m : 1));
    for (size_t i = 0; i < m; i++) {
        cv_text *t = &(*all)[*count];
        if (!text(c, n->kind == CV_YML_SEQ ? n->items[i] : n, field, t))
            return false;
        if (!t->s)
            continue;
        if (!strcmp(field, "email") && !cv_text_check_email(t, c->err))
            return false;
        if (!strcmp(field, "website") && !check_url(c, t, field))
            return false;
        const char *why;
        if (!strcmp(field, "phone") && c->check_phones && !cv_phone_valid(t->s, &why)) {
            if (cv_phone_missing())
                return cv_error_at(c->err, t->pos, "cannot check the phone number '%s': %s",
                                   t->s, why);
            /* A placeholder (+1 000-000-0000): RenderCV before 2.0 rendered
             * it as written; taken so, with a warning. */
            if (!placeholder_phone(t->s))
                return cv_error_at(c->err, t->pos, "invalid phone number '%s': %s", t->s, why);
            cv_warn(c->err, t->pos, "phone number '%s' is a placeholder, which no numbering "
                    "plan has: shown as written (RenderCV 1.x rendered it; 2.x refuses it)",
                    t->s);
        }
        ++*count;
    }
    if (*count)
        *first = (*all)[0];
    return true;
}

/* cv.custom_connections: [{placeholder, url, fontawesome_icon}]. */
static bool connections(ctx *c, const cv_yml *n, cv_doc *d)
{
    static const char *const keys[] = {"placeholder", "url", "fontawesome_icon", NULL};
    if (is_null(n))
        return true;
    if (n->kind != CV_YML_SEQ)
        return cv_error_at(c->err, n->pos, "'custom_connections' must be a list of "
                           "{placeholder, url, fontawesome_icon}, not %s",
                           cv_yml_kind_name(n->kind));
    if (n->n > 30)
        return cv_error_at(c->err, n->items[30]->pos, "at most 30 custom connections");
    d->connections = cv_arena_alloc(c->a, sizeof *d->connections * (n->n ? n->n : 1));
    for (size_t i = 0; i < n->n; i++) {
        const cv_yml *m = n->items[i];
        struct cv_connection *k = &d->connections[d->nconnections];
        if (m->kind != CV_YML_MAP)
            return cv_error_at(c->err, m->pos, "a custom connection is a mapping of "
                               "placeholder, url and fontawesome_icon, not %s",
                               cv_yml_kind_name(m->kind));
        if (!cv_yml_check_keys(m, keys, "custom connection", c->err) ||
            !text(c, cv_yml_get(m, "placeholder"), "placeholder", &k->text) ||
            !need(c, &k->text, "placeholder", "a custom connection", m->pos) ||
            !text(c, cv_yml_get(m, "fontawesome_icon"), "fontawesome_icon", &k->icon) ||
            !need(c, &k->icon, "fontawesome_icon", "a custom connection", m->pos) ||
            !text(c, cv_yml_get(m, "url"), "url", &k->url) || !check_url(c, &k->url, "url"))
            return false;
        if (k->text.s)           /* an empty placeholder shows nothing */
            d->nconnections++;
    }
    return true;
}

/* ---- Entries ----------------------------------------------------------- */

/* The kind an entry's key tells (fields.h), or -1. */
static int told_kind(const char *key)
{
    const cv_field *f = cv_field_by_key(key);
    if (!f || !(f->flags & CV_FIELD_TELLS))
        return -1;
    for (int k = 0; k < CV_ENTRY_NKINDS; k++)
        if (cv_field_in(f, (cv_entry_kind)k))
            return k;
    return -1;
}

/* The entry type its keys point to.  As RenderCV, the first type in its
 * order (one-line, normal, experience, education, publication, bullet,
 * numbered, reversed) that owns one of the keys: an entry with keys of two
 * types is of the first, and the other type's keys are extras. */
static bool infer(ctx *c, const cv_yml *n, cv_entry_kind *out)
{
    static const cv_entry_kind order[] = {
        CV_ENTRY_ONELINE, CV_ENTRY_NORMAL, CV_ENTRY_EXPERIENCE, CV_ENTRY_EDUCATION,
        CV_ENTRY_PUBLICATION, CV_ENTRY_BULLET, CV_ENTRY_NUMBERED, CV_ENTRY_REVERSED};
    int found = -1;
    for (size_t o = 0; o < sizeof order / sizeof *order && found < 0; o++)
        for (size_t i = 0; i < n->n && found < 0; i++)
            if (told_kind(n->keys[i]->str) == (int)order[o])
                found = (int)order[o];
    if (found >= 0) {
        *out = (cv_entry_kind)found;
        return true;
    }

    /* None: perhaps a typo of a telling key (a key some type has is none). */
    const char *telling[CV_MAX_FIELDS + 1];
    cv_field_keys(CV_ENTRY_NKINDS, CV_FIELD_TELLS, telling);
    for (size_t i = 0; i < n->n; i++) {
        const char *s = cv_suggest(n->keys[i]->str, telling);
        if (s && !cv_field_by_key(n->keys[i]->str))
            return cv_error_at(c->err, n->keys[i]->pos,
                               "unknown key '%s' in entry (did you mean '%s'?)",
                               n->keys[i]->str, s);
    }
    return cv_error_at(c->err, n->pos,
                       "cannot tell the entry type: an entry needs 'name' (normal), "
                       "'company' and 'position' (experience), 'institution' and 'area' "
                       "(education), 'title' and 'authors' (publication), 'label' and "
                       "'details' (one-line), 'bullet', 'number' or 'reversed_number'");
}

/* "text - sub - sub" (RenderCV >= 2.4: every " - " in a highlight starts a
 * sub-bullet; a YAML plain scalar folds "text\n  - sub" to that) or
 * "text\n- sub\n- sub" (a block scalar): nested bullets inside one
 * highlight string. */
static bool split_subs(ctx *c, cv_highlight *h, const char *s, cv_pos pos)
{
    if (strstr(s, " - ")) {
        cv_strbuf b = {0};
        for (const char *p = s; *p;) {
            const char *q = strstr(p, " - ");
            size_t n = q ? (size_t)(q - p) : strlen(p);
            cv_strbuf_put(c->a, &b, p, n);
            if (!q)
                break;
            cv_strbuf_put(c->a, &b, "\n- ", 3);
            p = q + 3;
        }
        s = b.s;
    }
    bool has = false;
    for (const char *p = strchr(s, '\n'); p && !has; p = strchr(p + 1, '\n')) {
        const char *q = p + 1;
        while (*q == ' ' || *q == '\t')
            q++;
        has = q[0] == '-' && (q[1] == ' ' || q[1] == '\n' || q[1] == '\r' || !q[1]);
    }
    if (!has) {
        h->text = (cv_text){s, pos};
        return true;
    }

    /* The first line is the bullet; "- " lines are sub-bullets; other
     * lines continue whatever came before them. */
    buf main = {0}, *subs = NULL;
    size_t nsub = 0, cap = 0;
    bool in_sub = false;
    for (const char *line = s; line;) {
        const char *end = strchr(line, '\n');
        const char *p = line, *q = end ? end : line + strlen(line);
        while (p < q && (*p == ' ' || *p == '\t'))
            p++;
        while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
            q--;
        if (line != s && p < q && p[0] == '-' && (p + 1 == q || p[1] == ' ')) {
            buf nb = {0};
            CV_PUSH(c->a, subs, nsub, cap, nb);
            in_sub = true;
            for (p++; p < q && *p == ' '; p++)
                ;
        }
        buf *to = in_sub ? &subs[nsub - 1] : &main;
        if (p < q) {
            if (to->n)
                cv_strbuf_put(c->a, to, " ", 1);
            cv_strbuf_put(c->a, to, p, (size_t)(q - p));
        }
        line = end ? end + 1 : NULL;
    }
    h->text = (cv_text){main.s ? main.s : "", pos};
    h->sub = cv_arena_alloc(c->a, sizeof *h->sub * (nsub ? nsub : 1));
    for (size_t i = 0; i < nsub; i++)
        if (subs[i].s)
            h->sub[h->nsub++] = (cv_highlight){{subs[i].s, pos}, NULL, 0};
    return true;
}

/* A list of highlights; a list inside it nests under the string before,
 * at most MAX_HIGHLIGHT_LEVELS deep (each level narrows the column). */
#define MAX_HIGHLIGHT_LEVELS 8

static bool highlights(ctx *c, const cv_yml *n, cv_highlight **out, size_t *count, int level)
{
    *out = NULL;
    *count = 0;
    if (is_null(n))
        return true;
    if (n->kind != CV_YML_SEQ)
        return cv_error_at(c->err, n->pos, "'highlights' must be a list of strings, not %s",
                           cv_yml_kind_name(n->kind));
    /* At most one highlight per item.  The lists that follow a highlight
     * are added to its sub-highlights in room grown by doubling (subcap):
     * "[a, [x], [x], ...]" copied them all again for every list. */
    cv_highlight *hs = n->n ? cv_arena_alloc(c->a, sizeof *hs * n->n) : NULL;
    size_t nh = 0, subcap = 0;
    for (size_t i = 0; i < n->n; i++) {
        const cv_yml *item = n->items[i];
        if (item->kind == CV_YML_SEQ) {
            if (nh == 0)
                return cv_error_at(c->err, item->pos,
                                   "a nested list of highlights must follow the highlight it "
                                   "belongs to");
            if (level + 1 >= MAX_HIGHLIGHT_LEVELS)
                return cv_error_at(c->err, item->pos, "highlights nest more than %d levels deep",
                                   MAX_HIGHLIGHT_LEVELS);
            cv_highlight *prev = &hs[nh - 1], *subs;
            size_t nsub;
            if (!highlights(c, item, &subs, &nsub, level + 1))
                return false;
            size_t total = prev->nsub + nsub;
            if (total > subcap) {
                size_t nc = subcap ? 2 * subcap : 4;
                while (nc < total)
                    nc *= 2;
                cv_highlight *all = cv_arena_alloc(c->a, sizeof *all * nc);
                if (prev->nsub)
                    memcpy(all, prev->sub, sizeof *all * prev->nsub);
                prev->sub = all;
                subcap = nc;
            }
            if (nsub)
                memcpy(prev->sub + prev->nsub, subs, sizeof *subs * nsub);
            prev->nsub = total;
            continue;
        }
        if (item->kind == CV_YML_MAP)
            return cv_error_at(c->err, item->pos,
                               "a highlight must be a string, not a mapping (put a highlight "
                               "that contains ': ' in quotes)");
        if (is_null(item))
            return cv_error_at(c->err, item->pos, "empty highlight");
        cv_highlight h = {{NULL, {0}}, NULL, 0};
        cv_text t;
        if (!text(c, item, "highlights", &t) || !split_subs(c, &h, t.s, t.pos))
            return false;
        hs[nh++] = h;
        subcap = h.nsub;     /* split_subs' array holds that many at least */
    }
    *out = hs;
    *count = nh;
    return true;
}

static bool load_dates(ctx *c, const cv_yml *n, cv_entry *e)
{
    return cv_date_read_entry(n, &e->date, &e->start_date, &e->end_date, c->err);
}

/* A DOI as cvpdf keeps it: bare ("10.1145/..."), without a resolver's
 * address or "doi:" before it. */
static bool bare_doi(ctx *c, cv_text *doi, const char *key)
{
    static const char *const prefixes[] = {"https://doi.org/", "http://doi.org/",
                                           "https://dx.doi.org/", "http://dx.doi.org/",
                                           "doi:", NULL};
    for (size_t i = 0; prefixes[i]; i++)
        if (strncasecmp(doi->s, prefixes[i], strlen(prefixes[i])) == 0) {
            doi->s += strlen(prefixes[i]);
            break;
        }
    while (*doi->s == ' ')
        doi->s++;
    if (strncmp(doi->s, "10.", 3) != 0 || has_space(doi->s))
        return cv_error_at(c->err, doi->pos, "invalid %s '%s': a DOI looks like 10.1234/abcd",
                           key, doi->s);
    return true;
}

/* The string fields of the entry's kind (fields.h), then the required
 * ones among them. */
static bool load_texts(ctx *c, const cv_yml *n, cv_entry *e)
{
    const cv_field *f;
    for (f = cv_field_next(e->kind, NULL); f; f = cv_field_next(e->kind, f)) {
        const cv_yml *v = cv_field_text(e, f) ? cv_yml_get(n, f->key) : NULL;
        if (v && !text(c, v, f->key, cv_field_slot(e, f)))
            return false;
    }
    for (f = cv_field_next(e->kind, NULL); f; f = cv_field_next(e->kind, f))
        if ((f->flags & CV_FIELD_REQUIRED) && cv_field_text(e, f) &&
            !need(c, cv_field_slot(e, f), f->key, cv_entry_kind_name(e->kind), n->pos))
            return false;
    return true;
}

/* The other fields of the entry's kind: authors, DOI, URL, dates and
 * highlights, each checked as its type asks. */
static bool load_others(ctx *c, const cv_yml *n, cv_entry *e)
{
    for (const cv_field *f = cv_field_next(e->kind, NULL); f; f = cv_field_next(e->kind, f)) {
        bool ok = true;
        switch (f->type) {
        case CV_FIELD_AUTHORS:
            ok = texts(c, cv_yml_get(n, f->key), f->key, &e->authors, &e->nauthors);
            if (ok && !e->nauthors && (f->flags & CV_FIELD_REQUIRED))
                ok = cv_error_at(c->err, n->pos, "%s needs '%s'",
                                 cv_entry_kind_name(e->kind), f->key);
            break;
        case CV_FIELD_DOI: {
            cv_text *doi = cv_field_slot(e, f);
            ok = !doi->s || bare_doi(c, doi, f->key);
            break;
        }
        case CV_FIELD_URL:
            ok = check_url(c, cv_field_text(e, f), f->key);
            /* As in RenderCV, a DOI is the publication's link (template.c). */
            if (ok && e->doi.s && cv_field_text(e, f)->s && !c->noted_url) {
                cv_note(c->err, cv_field_text(e, f)->pos, "a publication with a 'doi' links to "
                        "the DOI; its 'url' is not shown (as in RenderCV; said once)");
                c->noted_url = true;
            }
            break;
        case CV_FIELD_DATE:        /* `date` reads all three */
            ok = !(f->flags & CV_FIELD_RANGE) || load_dates(c, n, e);
            break;
        case CV_FIELD_HIGHLIGHTS:
            ok = highlights(c, cv_yml_get(n, f->key), &e->highlights, &e->nhighlights, 0);
            break;
        default:
            break;
        }
        if (!ok)
            return false;
    }
    return true;
}

/* The keys beyond the kind's fields: RenderCV keeps them for templates
 * (REVENUE for `revenue:`).  One close to a field's name is likely a typo
 * and gets a warning; a list or mapping has no text to show and a note. */
static bool load_extras(ctx *c, const cv_yml *n, cv_entry *e, const char *const *allowed)
{
    size_t cap = 0;
    for (size_t i = 0; i < n->n; i++) {
        const cv_yml *k = n->keys[i], *v = n->items[i];
        bool known = false;
        for (size_t j = 0; allowed[j] && !known; j++)
            known = !strcmp(allowed[j], k->str);
        if (known)
            continue;
        const char *s = cv_suggest(k->str, allowed);
        if (s && !cv_field_by_key(k->str))
            cv_warn(c->err, k->pos, "'%s' is not a field of %s %s (did you mean '%s'?); kept "
                    "for templates only", k->str, article(cv_entry_kind_name(e->kind)),
                    cv_entry_kind_name(e->kind), s);
        if (is_null(v))
            continue;
        if (v->kind != CV_YML_SCALAR) {
            cv_note(c->err, k->pos, "'%s' is %s, which templates cannot show; ignored", k->str,
                    cv_yml_kind_name(v->kind));
            continue;
        }
        cv_extra x = {k->str, NULL, {NULL, v->pos}};
        char *ph = cv_arena_strdup(c->a, k->str);
        for (char *p = ph; *p; p++)
            *p = (*p >= 'a' && *p <= 'z') ? (char)(*p - 32)
               : ((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')) ? *p : '_';
        x.ph = ph;
        if (!cv_text_read(c->a, v, k->str, &x.value, c->err))   /* any scalar */
            return false;
        typst_plain(c, &x.value);
        CV_PUSH(c->a, e->extras, e->nextras, cap, x);
        bool seen = false;
        for (size_t j = 0; j < c->d->nextra_phs && !seen; j++)
            seen = !strcmp(c->d->extra_phs[j], ph);
        if (!seen) {
            size_t pcap = c->d->nextra_phs;       /* grows by one: few distinct keys */
            CV_PUSH(c->a, c->d->extra_phs, c->d->nextra_phs, pcap, ph);
        }
    }
    return true;
}

/* An entry of a section whose type is `kind` (the type of its first
 * entry that tells one, as RenderCV decides it): a string in a section of
 * text entries, a mapping in any other.  A mapping is read as that type
 * whatever other type's keys it has: those are extras, as in RenderCV. */
static bool load_entry(ctx *c, const cv_yml *n, cv_entry *e, cv_entry_kind kind,
                       const char *section)
{
    memset(e, 0, sizeof *e);
    e->pos = n->pos;

    if (is_null(n))
        return cv_error_at(c->err, n->pos, "empty entry");
    if (n->kind == CV_YML_SEQ)
        return cv_error_at(c->err, n->pos,
                           "an entry is a string or a mapping, not a list (check the "
                           "indentation)");
    /* A bare string. */
    if (n->kind == CV_YML_SCALAR) {
        if (kind != CV_ENTRY_TEXT)
            return cv_error_at(c->err, n->pos, "this entry is a string, but section '%s' is "
                               "of %.*s entries (its first entry is one): a string is a "
                               "text entry, and a section's entries all have one type",
                               section, (int)strlen(cv_entry_kind_name(kind)) - 6,
                               cv_entry_kind_name(kind));
        e->kind = CV_ENTRY_TEXT;
        return text(c, n, "text", &e->text);
    }
    if (kind == CV_ENTRY_TEXT)
        return cv_error_at(c->err, n->pos, "this entry is a mapping, but section '%s' is of "
                           "text entries (its first entry is a string), and a section's "
                           "entries all have one type", section);

    /* A mapping: read as the section's type.  One with none of that
     * type's telling keys but another type's (a bullet entry among
     * publications) would only be told it lacks the section type's keys;
     * say why they are wanted. */
    bool own = false;
    for (size_t i = 0; i < n->n && !own; i++) {
        const cv_field *f = cv_field_by_key(n->keys[i]->str);
        own = f && (f->flags & CV_FIELD_TELLS) && cv_field_in(f, kind);
    }
    cv_entry_kind other;
    cv_error quiet;
    cv_error_init(&quiet);
    ctx q = *c;
    q.err = &quiet;
    if (!own && infer(&q, n, &other) && other != kind) {
        const char *name = cv_entry_kind_name(kind), *oname = cv_entry_kind_name(other);
        const char *keys = "";
        for (const cv_field *f = cv_field_next(kind, NULL); f; f = cv_field_next(kind, f))
            if (f->flags & CV_FIELD_REQUIRED)
                keys = cv_arena_printf(c->a, "%s%s'%s'", keys, *keys ? " and " : "", f->key);
        return cv_error_at(c->err, n->pos, "this entry has the keys of %s %s, but section "
                           "'%s' is of %.*s entries (its first entry is one), which need %s, "
                           "and a section's entries all have one type",
                           strchr("aei", oname[0]) ? "an" : "a", oname, section,
                           (int)strlen(name) - 6, name, keys);
    }
    e->kind = kind;
    const char *allowed[CV_MAX_FIELDS + 1];
    cv_field_keys(e->kind, 0, allowed);
    return load_extras(c, n, e, allowed) && load_texts(c, n, e) && load_others(c, n, e);
}

/* The type of a section: its first entry's that tells one (a string is a
 * text entry; a null, or a mapping with no type's key, tells none).  When
 * none tells, the error for its first mapping (or its first entry). */
static bool section_kind(ctx *c, const cv_yml *n, cv_entry_kind *out)
{
    cv_error quiet;
    for (size_t i = 0; i < n->n; i++) {
        const cv_yml *it = n->items[i];
        if (it->kind == CV_YML_SCALAR && !is_null(it)) {
            *out = CV_ENTRY_TEXT;
            return true;
        }
        cv_error_init(&quiet);
        ctx q = *c;
        q.err = &quiet;
        if (it->kind == CV_YML_MAP && infer(&q, it, out))
            return true;
    }
    for (size_t i = 0; i < n->n; i++)
        if (n->items[i]->kind == CV_YML_MAP)
            return infer(c, n->items[i], out);
    cv_entry e;
    return load_entry(c, n->items[0], &e, CV_ENTRY_TEXT, "");
}

static bool load_section(ctx *c, const cv_yml *key, const cv_yml *n, cv_section *s)
{
    memset(s, 0, sizeof *s);
    if (key->len > CV_MAX_PDF_STRING)      /* a bookmark */
        return cv_error_at(c->err, key->pos, "a section's title is longer than %d bytes",
                           CV_MAX_PDF_STRING);
    s->key = key->str;
    s->title = cv_section_title(c->a, key->str, c->d->locale.language);
    s->pos = key->pos;
    /* RenderCV: a section is a list; an empty one shows its title alone. */
    if (is_null(n))
        return cv_error_at(c->err, key->pos, "section '%s' has no value: a section is a list "
                           "of entries (write '%s: []' for a section without entries)",
                           key->str, key->str);
    if (n->kind != CV_YML_SEQ)
        return cv_error_at(c->err, n->pos, "expected a list of entries for section '%s', got %s",
                           key->str, cv_yml_kind_name(n->kind));
    if (n->n == 0) {
        s->kind = CV_ENTRY_TEXT;
        return true;
    }
    if (!section_kind(c, n, &s->kind))
        return false;
    s->entries = cv_arena_alloc(c->a, sizeof *s->entries * n->n);
    for (size_t i = 0; i < n->n; i++)
        if (!load_entry(c, n->items[i], &s->entries[i], s->kind, key->str))
            return false;
    s->nentries = n->n;
    return true;
}

/* ---- The profile ------------------------------------------------------- */

/* The keys of `cv` and of `settings` (cv_doc_keys()). */
static const char *const cv_keys[] = {
    "name", "native_name", "headline", "location", "email", "phone", "website", "photo",
    "photo_alt", "social_networks", "sections", "custom_connections", NULL};
static const char *const settings_keys[] = {"bold_keywords", "current_date", "render_command",
                                            "pdf_title", "page_break_before", "keep_together",
                                            NULL};

static bool load_cv(ctx *c, const cv_yml *n, cv_doc *d)
{
    const char *const *keys = cv_keys;
    if (n->kind != CV_YML_MAP)
        return cv_error_at(c->err, n->pos, "'cv' must be a mapping, not %s",
                           cv_yml_kind_name(n->kind));
    /* RenderCV 1.13 to 2.6 took keys of their own in cv (for a custom
     * theme's templates: `title`); in a RenderCV file such a key is a
     * warning, one that looks like a misspelling still an error, as an
     * unknown top-level key is (rcvold.h). */
    if (c->old_era) {
        cv_yml *kept = NULL;
        for (size_t i = 0; i < n->n; i++) {
            const char *k = n->keys[i]->str;
            bool known = false;
            for (size_t j = 0; keys[j] && !known; j++)
                known = !strcmp(keys[j], k);
            if (known || cv_suggest(k, keys)) {
                if (kept)
                    cv_yml_map_add(c->a, kept, k, n->keys[i]->pos, n->items[i]);
                continue;
            }
            cv_warn(c->err, n->keys[i]->pos, "unknown key '%s' in cv: ignored, as RenderCV "
                    "1.13 to 2.6 ignored it (2.7 and later refuse it)", k);
            if (!kept) {
                kept = cv_yml_map(c->a, n->pos);
                for (size_t j = 0; j < i; j++)
                    cv_yml_map_add(c->a, kept, n->keys[j]->str, n->keys[j]->pos, n->items[j]);
            }
        }
        if (kept)
            n = kept;
    }
    if (!cv_yml_check_keys(n, keys, "cv", c->err))
        return false;

    /* The header. */
    /* The header; as in RenderCV, even the name may be left out. */
    if (!text(c, cv_yml_get(n, "name"), "name", &d->name) ||
        !text(c, cv_yml_get(n, "native_name"), "native_name", &d->native_name) ||
        !text(c, cv_yml_get(n, "headline"), "headline", &d->headline) ||
        !text(c, cv_yml_get(n, "location"), "location", &d->location) ||
        !all_of(c, cv_yml_get(n, "email"), "email", &d->email, &d->emails, &d->nemails) ||
        !all_of(c, cv_yml_get(n, "phone"), "phone", &d->phone, &d->phones, &d->nphones) ||
        !all_of(c, cv_yml_get(n, "website"), "website", &d->website, &d->websites,
                &d->nwebsites) ||
        !text(c, cv_yml_get(n, "photo"), "photo", &d->photo) ||
        !text(c, cv_yml_get(n, "photo_alt"), "photo_alt", &d->photo_alt) ||
        !connections(c, cv_yml_get(n, "custom_connections"), d))
        return false;
    if (d->name.s && !*d->name.s)
        d->name.s = NULL;
    /* RenderCV shows the connections in the order the cv has their keys
     * (the list's order is cvpdf's own, CV_CONTACT_*).  A key that comes
     * from --defaults (another file) takes its place in cvpdf's order. */
    static const char *const contact_keys[] = {"location", "email", "phone", "website",
                                               "custom_connections", "social_networks"};
    for (int own = 1; own >= 0; own--)
        for (size_t i = 0; i < n->n; i++)
            for (unsigned char k = 0; k < 6; k++) {
                const cv_yml *key = n->keys[i];
                if (strcmp(key->str, contact_keys[k]) || is_null(n->items[i]) ||
                    (key->pos.file && c->file && strcmp(key->pos.file, c->file)) == own)
                    continue;
                size_t at = d->ncontact_order;
                if (!own)                    /* before the first of a later rank */
                    for (at = 0; at < d->ncontact_order && d->contact_order[at] < k; at++)
                        ;
                memmove(d->contact_order + at + 1, d->contact_order + at,
                        d->ncontact_order - at);
                d->contact_order[at] = k;
                d->ncontact_order++;
            }
    /* RenderCV downloads a photo given as a URL; cvpdf reads files only. */
    if (d->photo.s && (!strncasecmp(d->photo.s, "https://", 8) ||
                       !strncasecmp(d->photo.s, "http://", 7))) {
        if (!check_url(c, &d->photo, "photo"))
            return false;
        cv_warn(c->err, d->photo.pos, "the photo is a URL: cvpdf does not download it, and "
                "the résumé has no photo (save it beside the profile and name the file)");
        d->photo.s = NULL;
    }
    /* A JSON Resume's image is often a path on its author's web site
     * ("images/me.jpg"): one that is no file here is a warning, as the
     * themes show a broken picture and the rest. */
    if (d->photo.s && c->json_resume) {
        const char *path = d->photo.s;
        if (path[0] != '/' && c->file && strchr(c->file, '/'))
            path = cv_arena_printf(c->a, "%s/%s", dirname(cv_arena_strdup(c->a, c->file)),
                                   path);
        if (access(path, F_OK) != 0) {
            cv_warn(c->err, d->photo.pos, "basics.image '%s' is no file here: the résumé has "
                    "no photo", d->photo.s);
            d->photo.s = NULL;
        }
    }

    /* Social networks. */
    const cv_yml *sn = cv_yml_get(n, "social_networks");
    if (!is_null(sn)) {
        if (sn->kind != CV_YML_SEQ)
            return cv_error_at(c->err, sn->pos,
                               "'social_networks' must be a list of {network, username}, not %s",
                               cv_yml_kind_name(sn->kind));
        /* The header has room for 64 contact details: these and location,
         * email, phone and website. */
        if (sn->n > 60)
            return cv_error_at(c->err, sn->items[60]->pos, "at most 60 social networks");
        d->socials = cv_arena_alloc(c->a, sizeof *d->socials * (sn->n ? sn->n : 1));
        for (size_t i = 0; i < sn->n; i++)
            if (!cv_social_read(c->a, sn->items[i], &d->socials[i], c->err))
                return false;
        d->nsocials = sn->n;
    }

    /* Sections, in the order written. */
    const cv_yml *secs = cv_yml_get(n, "sections");
    if (is_null(secs))
        return true;
    if (secs->kind != CV_YML_MAP)
        return cv_error_at(c->err, secs->pos,
                           "'sections' must be a mapping from section titles to lists of "
                           "entries, not %s", cv_yml_kind_name(secs->kind));
    /* A section from a .bib (bib.h) may make several (grouped). */
    size_t cap = secs->n ? secs->n : 1;
    d->sections = cv_arena_alloc(c->a, sizeof *d->sections * cap);
    for (size_t i = 0; i < secs->n; i++) {
        /* A key YAML reads as null (null, ~, or nothing before the colon)
         * names no section: RenderCV refuses it, as a title must be text. */
        if (cv_yml_is_null(secs->keys[i]))
            return cv_error_at(c->err, secs->keys[i]->pos,
                               "a section's title is null (YAML reads '%s' as no value): "
                               "write the title in quotes, or give it words",
                               secs->keys[i]->str);
        if (cv_bib_is_source(secs->items[i])) {
            if (!cv_bib_sections(c->a, secs->keys[i], secs->items[i], c->file,
                                 c->d->locale.language, &d->sections,
                                 &d->nsections, &cap, c->err) || c->err->set)
                return false;
            continue;
        }
        if (d->nsections == cap) {
            d->sections = cv_arena_realloc(c->a, d->sections, sizeof *d->sections * cap,
                                           sizeof *d->sections * cap * 2);
            cap *= 2;
        }
        if (!load_section(c, secs->keys[i], secs->items[i], &d->sections[d->nsections]))
            return false;
        d->nsections++;
    }
    return true;
}

/* settings.render_command: RenderCV's command-line options.  Its output
 * paths are RenderCV's (cvpdf writes where -o says); its `design` and
 * `locale` files are read by overlay(). */
static bool render_command(ctx *c, const cv_yml *n)
{
    static const char *const keys[] = {
        "output_folder", "design", "locale", "typst_path", "pdf_path", "markdown_path",
        "html_path", "png_path", "dont_generate_markdown", "dont_generate_html",
        "dont_generate_typst", "dont_generate_pdf", "dont_generate_png", NULL};
    if (is_null(n))
        return true;
    if (n->kind != CV_YML_MAP)
        return cv_error_at(c->err, n->pos, "'render_command' must be a mapping, not %s",
                           cv_yml_kind_name(n->kind));
    return cv_yml_check_keys(n, keys, "render_command", c->err);
}

static bool load_settings(ctx *c, const cv_yml *n, const char *what, cv_doc *d)
{
    const char *const *keys = settings_keys;
    if (is_null(n))
        return true;
    if (n->kind != CV_YML_MAP)
        return cv_error_at(c->err, n->pos, "'%s' must be a mapping, not %s", what,
                           cv_yml_kind_name(n->kind));
    if (strcmp(what, "settings") == 0 && !cv_yml_check_keys(n, keys, what, c->err))
        return false;
    if (strcmp(what, "settings") == 0) {
        const cv_yml *v = cv_yml_get(n, "page_break_before");
        if (v && !cv_text_list(c->a, v, "page_break_before", &d->break_before,
                               &d->nbreak_before, c->err))
            return false;
        v = cv_yml_get(n, "keep_together");
        if (v && !cv_text_list(c->a, v, "keep_together", &d->keep_together,
                               &d->nkeep_together, c->err))
            return false;
        if (!render_command(c, cv_yml_get(n, "render_command")) ||
            !text(c, cv_yml_get(n, "pdf_title"), "pdf_title", &d->pdf_title))
            return false;
        v = cv_yml_get(n, "current_date");
        if (v && !text(c, v, "current_date", &d->current_date))
            return false;
        /* RenderCV's `today` is the day of the run: --date or
         * SOURCE_DATE_EPOCH when given, else the clock (render.c). */
        if (d->current_date.s && strcasecmp(d->current_date.s, "today") == 0) {
            d->current_date.s = NULL;
            d->date_today = true;
        }
        if (d->current_date.s) {
            int y, m, day;
            cv_date cd;
            if (cv_date_shape(d->current_date.s, &y, &m, &day) != CV_DATE_DAY)
                return cv_error_at(c->err, v->pos, "invalid current_date '%s': use YYYY-MM-DD "
                                   "(or today)", d->current_date.s);
            if (!cv_date_read(v, "current_date", false, &cd, c->err))
                return false;
        }
    }
    const cv_yml *bk = cv_yml_get(n, "bold_keywords");
    if (!bk || d->nbold_keywords)
        return true;
    return texts(c, bk, "bold_keywords", &d->bold_keywords, &d->nbold_keywords);
}

/* settings.render_command's `design` and `locale` files (RenderCV's
 * --design and --locale): each a YAML file, relative to the profile, whose
 * `design:` or `locale:` replaces the profile's.  Returns the root to read,
 * or NULL with err set. */
static const cv_yml *overlay(ctx *c, const cv_yml *root)
{
    const cv_yml *st = cv_yml_get(root, "settings");
    const cv_yml *rc = st && st->kind == CV_YML_MAP ? cv_yml_get(st, "render_command") : NULL;
    if (!rc || rc->kind != CV_YML_MAP)
        return root;
    static const char *const parts[] = {"design", "locale"};
    for (size_t p = 0; p < 2; p++) {
        const cv_yml *v = cv_yml_get(rc, parts[p]);
        const char *name;
        if (is_null(v))
            continue;
        if (!cv_yml_str(v, &name, c->err))
            return NULL;
        const char *slash = strrchr(c->file, '/');
        const char *path = name[0] == '/' || !slash
                               ? name
                               : cv_arena_printf(c->a, "%.*s/%s", (int)(slash - c->file),
                                                 c->file, name);
        cv_error sub;
        cv_error_init(&sub);
        size_t len;
        char *data = cv_yml_read_regular(c->a, path, &len, &sub);
        cv_yml *o = data ? cv_yml_load_profile(c->a, c->a, path, data, len, &sub) : NULL;
        if (!o) {
            if (sub.pos.line == 0)
                cv_error_at(c->err, v->pos, "%s", sub.msg);
            else
                *c->err = (cv_error){.set = true, .pos = sub.pos, .quiet = c->err->quiet,
                                     .strict = c->err->strict, .out = c->err->out},
                memcpy(c->err->msg, sub.msg, sizeof c->err->msg);
            return NULL;
        }
        const cv_yml *part = o->kind == CV_YML_MAP ? cv_yml_get(o, parts[p]) : NULL;
        if (!part) {
            cv_error_at(c->err, o->pos, "the %s file named by settings.render_command needs "
                        "a '%s' key", parts[p], parts[p]);
            return NULL;
        }
        /* A copy of the root with that part replaced (or added). */
        cv_yml *r = cv_arena_alloc(c->a, sizeof *r);
        *r = *root;
        r->keys = cv_arena_alloc(c->a, sizeof *r->keys * (root->n + 1));
        r->items = cv_arena_alloc(c->a, sizeof *r->items * (root->n + 1));
        r->n = 0;
        bool put = false;
        for (size_t i = 0; i < root->n; i++) {
            bool same = !strcmp(root->keys[i]->str, parts[p]);
            r->keys[r->n] = root->keys[i];
            r->items[r->n++] = same ? (cv_yml *)part : root->items[i];
            put |= same;
        }
        if (!put) {
            for (size_t i = 0; i < o->n; i++)
                if (!strcmp(o->keys[i]->str, parts[p]))
                    r->keys[r->n] = o->keys[i];
            r->items[r->n++] = (cv_yml *)part;
        }
        root = r;
    }
    return root;
}

/* A profile's top-level keys (doc.h), for profiles and --defaults alike. */
static const char *const profile_keys[] = {"cv", "locale", "settings", "design",
                                           "rendercv_settings", NULL};

const char *const *cv_doc_keys(const char *part)
{
    return !strcmp(part, "") ? profile_keys : !strcmp(part, "cv") ? cv_keys
           : !strcmp(part, "settings") ? settings_keys : NULL;
}

static cv_doc *doc_load(cv_arena *a, const cv_yml *root, const char *file, bool translated,
                        cv_rcv_era read_as, cv_error *err);

cv_doc *cv_doc_load(cv_arena *a, const cv_yml *root, const char *file, cv_error *err)
{
    return doc_load(a, root, file, false, CV_RCV_CURRENT, err);
}

/* `translated`: root is a JSON Resume already read as a profile (its phone
 * numbers, written any way, are not checked as RenderCV's).  `read_as`:
 * the version the profile's own file was read as, when it was brought to
 * RenderCV 2.8's shape before the defaults were laid under it. */
static cv_doc *doc_load(cv_arena *a, const cv_yml *root, const char *file, bool translated,
                        cv_rcv_era read_as, cv_error *err)
{
    ctx c = {a, err, file, NULL, false, !translated, translated, false};
    if (!root) {
        cv_error_at(err, (cv_pos){file, 1, 1}, "the profile is empty");
        return NULL;
    }
    if (root->kind != CV_YML_MAP) {
        cv_error_at(err, root->pos, "a profile is a mapping with a 'cv' key, not %s",
                    cv_yml_kind_name(root->kind));
        return NULL;
    }
    /* A JSON Resume (resume.json) is read as the RenderCV profile it
     * translates to (jsonresume.h). */
    if (cv_jsonresume_is(root)) {
        if (!(root = cv_jsonresume_translate(a, root, err)))
            return NULL;
        c.check_phones = false;
        c.json_resume = true;
    }
    /* An older RenderCV's file is read as RenderCV 2.8's (rcvold.h). */
    cv_rcv_era era;
    if (!(root = cv_rcv_upgrade(a, root, false, &era, err)))
        return NULL;
    if (era == CV_RCV_CURRENT)
        era = read_as;
    const cv_yml *own = root;
    if (!cv_yml_check_keys(root, profile_keys, "the profile", err) ||
        !(root = overlay(&c, root)))
        return NULL;
    /* A design or locale file of an older RenderCV, named by
     * settings.render_command, is read as RenderCV 2.8's too. */
    cv_rcv_era era2 = CV_RCV_CURRENT;
    if (root != own && !(root = cv_rcv_upgrade(a, root, false, &era2, err)))
        return NULL;
    if (era == CV_RCV_CURRENT)
        era = era2;
    /* A RenderCV file: of an older version, or with design:, locale: or
     * settings: beside its cv: (as rcvold.h tells an ignorable key). */
    c.old_era = era != CV_RCV_CURRENT || cv_yml_get(own, "design") ||
                cv_yml_get(own, "locale") || cv_yml_get(own, "settings");
    cv_doc *d = cv_arena_alloc(a, sizeof *d);
    c.d = d;
    d->file = file;
    static const char *const rcv_settings[] = {"current_date", "render_command",
                                               "bold_keywords", "pdf_title", NULL};
    const cv_yml *stg = cv_yml_get(root, "settings");
    d->rendercv_file = era != CV_RCV_CURRENT;
    for (size_t i = 0; stg && stg->kind == CV_YML_MAP && rcv_settings[i]; i++)
        d->rendercv_file |= cv_yml_get(stg, rcv_settings[i]) != NULL;
    d->locale = *cv_locale_english();

    /* The parts RenderCV uses for its own look: design: becomes layout
     * keys over its theme's layout (design.h). */
    for (size_t i = 0; i < root->n; i++) {
        const cv_yml *k = root->keys[i], *v = root->items[i];
        if (strcmp(k->str, "design") == 0) {
            if (!cv_design_read(a, v, &d->design, err))
                return NULL;
        }
    }

    const cv_yml *cvn = cv_yml_get(root, "cv");
    if (!cvn) {
        /* RenderCV takes an empty CV: a page with nothing on it. */
        cv_warn(err, root->pos, "the profile has no 'cv': the résumé is empty");
        cv_yml *empty = cv_arena_alloc(a, sizeof *empty);
        *empty = (cv_yml){.kind = CV_YML_MAP, .pos = root->pos};
        cvn = empty;
    }
    if (is_null(cvn)) {
        cv_error_at(err, cvn->pos, "'cv' is empty; it needs at least a 'name'");
        return NULL;
    }
    if (!cv_locale_read(a, cv_yml_get(root, "locale"), &d->locale, err) ||
        !load_settings(&c, cv_yml_get(root, "settings"), "settings", d) ||
        !load_settings(&c, cv_yml_get(root, "rendercv_settings"), "rendercv_settings", d) ||
        !load_cv(&c, cvn, d))
        return NULL;
    return d;
}

cv_doc *cv_doc_load_file(cv_arena *a, const char *path, cv_error *err)
{
    return cv_doc_load_with(a, path, NULL, err);
}

cv_doc *cv_doc_load_text(cv_arena *a, const char *file, const char *text, size_t len,
                         const cv_yml *defaults, cv_error *err)
{
    return cv_doc_load_text_over(a, file, text, len, defaults, NULL, err);
}

/* The profile's tree with the defaults under it and --set over it. */
static const cv_yml *layered(cv_arena *tree, const cv_yml *defaults, const cv_yml *root,
                             const cv_yml *over)
{
    const cv_yml *t = defaults ? cv_yml_merge(tree, defaults, root) : root;
    return over ? cv_yml_merge(tree, t, over) : t;
}

/* The document of the file's tree `root` with the defaults under it and
 * the --set values `over` over it.  A JSON Resume is translated first,
 * with the --set values of its own keys (basics.name): the defaults and
 * the --set values of a profile's keys (cv.phone) are RenderCV's, so they
 * go over what it translates to.  (Merged into the JSON Resume, a
 * defaults file's cv: made it no JSON Resume: its every key was ignored
 * and the résumé came out empty, without an error.) */
static cv_doc *load_layered(cv_arena *a, cv_arena *tree, const cv_yml *root,
                            const cv_yml *defaults, const cv_yml *over, const char *file,
                            cv_error *err)
{
    if (!cv_jsonresume_is(root)) {
        /* The file with its --set values ("as if written there") in
         * RenderCV 2.8's shape before the defaults (brought to it when
         * read) go under it: a RenderCV 1.x design: merged with a 2.8 one
         * was neither, and refused at the defaults' key. */
        cv_rcv_era era = CV_RCV_CURRENT;
        const cv_yml *own = over ? cv_yml_merge(tree, root, over) : root;
        if (defaults && !(own = cv_rcv_upgrade(a, own, false, &era, err)))
            return NULL;
        return doc_load(a, defaults ? cv_yml_merge(tree, defaults, own) : own, file, false,
                        era, err);
    }
    cv_yml *own = NULL, *profile = NULL;
    for (size_t i = 0; over && over->kind == CV_YML_MAP && i < over->n; i++) {
        bool theirs = false;
        for (size_t k = 0; profile_keys[k] && !theirs; k++)
            theirs = !strcmp(over->keys[i]->str, profile_keys[k]);
        cv_yml **m = theirs ? &profile : &own;
        if (!*m)
            *m = cv_yml_map(tree, over->pos);
        cv_yml_map_add(tree, *m, over->keys[i]->str, over->keys[i]->pos, over->items[i]);
    }
    /* The defaults' locale under the résumé's own, for the language
     * the translation writes country names in. */
    const cv_yml *src = root;
    for (size_t i = 0; defaults && defaults->kind == CV_YML_MAP && i < defaults->n; i++)
        if (!strcmp(defaults->keys[i]->str, "locale")) {
            cv_yml *m = cv_yml_map(tree, defaults->pos);
            cv_yml_map_add(tree, m, "locale", defaults->keys[i]->pos, defaults->items[i]);
            src = cv_yml_merge(tree, m, src);
        }
    if (own)
        src = cv_yml_merge(tree, src, own);
    const cv_yml *t = cv_jsonresume_translate(a, src, err);
    return t ? doc_load(a, layered(tree, defaults, t, profile), file, true, CV_RCV_CURRENT, err)
             : NULL;
}

cv_doc *cv_doc_load_text_over(cv_arena *a, const char *file, const char *text, size_t len,
                              const cv_yml *defaults, const cv_yml *over, cv_error *err)
{
    cv_arena *tree = cv_arena_new();
    cv_doc *d = NULL;
    bool json = cv_json_is(file, text, len);
    if (json && cv_json_check(file, text, len, err))
        text = cv_json_unpair(tree, text, len, &len);
    cv_yml *root = !json ? cv_yml_load_profile(tree, a, file, text, len, err)
                   : !err->set ? cv_yml_load_json(tree, a, file, text, len, err) : NULL;
    if (root)
        d = load_layered(a, tree, root, defaults, over, file, err);
    cv_arena_free(tree);
    return d;
}

cv_doc *cv_doc_load_with(cv_arena *a, const char *path, const cv_yml *defaults, cv_error *err)
{
    return cv_doc_load_over(a, path, defaults, NULL, err);
}

cv_doc *cv_doc_load_over(cv_arena *a, const char *path, const cv_yml *defaults,
                         const cv_yml *over, cv_error *err)
{
    /* The file and the tree live only while the document is read: a cv_doc
     * keeps the scalars' values (in `a`), never the nodes.  For a long
     * publication list that is a sixth of the résumé's memory. */
    cv_arena *tree = cv_arena_new();
    cv_doc *d = NULL;
    size_t len;
    char *data = cv_yml_read_file(tree, path, &len, err);
    const char *file = cv_arena_strdup(a, path);
    /* JSON (a resume.json) is YAML to libyaml, which takes what JSON
     * refuses: its own syntax is checked first (jsonsyntax.h). */
    bool json = data && cv_json_is(file, data, len);
    const char *text = data;
    if (json)
        text = cv_json_check(file, data, len, err) ? cv_json_unpair(tree, data, len, &len)
                                                   : NULL;
    cv_yml *root = !text ? NULL
                   : json ? cv_yml_load_json(tree, a, file, text, len, err)
                          : cv_yml_load_profile(tree, a, file, text, len, err);
    if (root)
        d = load_layered(a, tree, root, defaults, over, file, err);
    cv_arena_free(tree);
    return d;
}

/* The keys of the defaults' `lab:`. */
static const char *const lab_keys[] = {"name", "address", "url", NULL};

static bool read_lab(cv_arena *a, const cv_yml *n, cv_lab *lab, cv_error *err)
{
    memset(lab, 0, sizeof *lab);
    if (cv_yml_is_null(n))
        return true;
    if (n->kind != CV_YML_MAP)
        return cv_error_at(err, n->pos, "'lab' in the defaults is a mapping (name:, address:, "
                           "url:), not %s", cv_yml_kind_name(n->kind));
    return cv_yml_check_keys(n, lab_keys, "lab", err) &&
           cv_text_read(a, cv_yml_get(n, "name"), "name", &lab->name, err) &&
           cv_text_read(a, cv_yml_get(n, "address"), "address", &lab->address, err) &&
           cv_text_read(a, cv_yml_get(n, "url"), "url", &lab->url, err) &&
           cv_text_check_url(&lab->url, "url", err);
}

bool cv_doc_load_lab(cv_arena *a, const char *path, cv_lab *lab, cv_error *err)
{
    memset(lab, 0, sizeof *lab);
    size_t len;
    char *text = cv_yml_read_regular(a, path, &len, err);
    cv_yml *root = text ? cv_yml_load_profile(a, a, path, text, len, err) : NULL;
    if (!root)
        return false;
    return root->kind != CV_YML_MAP || read_lab(a, cv_yml_get(root, "lab"), lab, err);
}

cv_yml *cv_doc_load_defaults(cv_arena *a, const char *path, cv_error *err)
{
    size_t len;
    char *text = cv_yml_read_regular(a, path, &len, err);
    cv_yml *root = text ? cv_yml_load_profile(a, a, path, text, len, err) : NULL;
    /* `lab:` is the defaults' own (--site's lab page, cv_doc_load_lab()):
     * checked here, never merged under a profile. */
    cv_lab lab;
    if (root && root->kind == CV_YML_MAP && cv_yml_get(root, "lab")) {
        if (!read_lab(a, cv_yml_get(root, "lab"), &lab, err))
            return NULL;
        size_t k = 0;
        for (size_t i = 0; i < root->n; i++)
            if (strcmp(root->keys[i]->str, "lab"))
                root->keys[k] = root->keys[i], root->items[k++] = root->items[i];
        root->n = k;
    }
    if (root && root->kind != CV_YML_MAP)
        cv_error_at(err, root->pos, "defaults are a mapping like a profile's (cv:, "
                    "locale:, settings:), not %s", cv_yml_kind_name(root->kind));
    else if (root && cv_yml_check_keys(root, profile_keys, "the defaults", err))
        /* Each part is merged under a profile's: a mapping, as there. */
        for (size_t i = 0; i < root->n; i++) {
            const cv_yml *v = root->items[i];
            if (v->kind != CV_YML_MAP && !cv_yml_is_null(v)) {
                cv_error_at(err, v->pos, "'%s' in the defaults must be a mapping, as in a "
                            "profile, not %s", root->keys[i]->str, cv_yml_kind_name(v->kind));
                break;
            }
        }
    /* Every value is checked now, as a profile's, even those that each
     * profile will override: under a stand-in name, in a scratch arena. */
    /* In RenderCV 2.8's shape, as each profile is before it goes over
     * them (a 1.x design: under a 2.8 one would be neither). */
    if (root && !err->set) {
        const cv_yml *up = cv_rcv_upgrade(a, root, false, NULL, err);
        root = up ? (cv_yml *)up : NULL;
    }
    if (root && !err->set) {
        static const char stand_in[] = "cv:\n  name: x\n";
        cv_arena *t = cv_arena_new();
        const cv_yml *under = cv_yml_load(t, path, stand_in, sizeof stand_in - 1, err);
        cv_error quiet = *err;
        quiet.quiet = true;             /* warnings come again with each profile */
        if (under && !cv_doc_load(t, cv_yml_merge(t, under, root), path, &quiet) && quiet.set)
            *err = (cv_error){.set = true, .pos = quiet.pos, .quiet = err->quiet,
                              .strict = err->strict, .out = err->out},
            memcpy(err->msg, quiet.msg, sizeof err->msg);
        cv_arena_free(t);
    }
    return root && !err->set ? root : NULL;
}

const char *cv_entry_date_range(cv_arena *a, const cv_entry *e, const cv_locale *loc)
{
    return cv_date_range(a, &e->date, &e->start_date, &e->end_date, loc);
}
