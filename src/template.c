/* template.c - entry templates and profile text as spans.  See template.h.
 *
 * A template line is parsed as markup first; then each span's text is cut
 * into literal text and placeholders (tokens).  Literal text next to an
 * empty placeholder is a separator and goes with it (the rule in
 * template.h); each value, markup itself, is parsed in the style and link
 * of the span it fills.
 */
#include "template.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "authors.h"

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Profile text: markup, then settings.bold_keywords (RenderCV's): every
 * whole-word occurrence of a keyword is set in bold. */
size_t cv_template_text(cv_arena *a, const cv_doc *doc, const char *s, unsigned style,
                        cv_span **out)
{
    cv_span *sp;
    size_t n = cv_markup_parse(a, s, style, &sp);
    if (!doc->nbold_keywords) {
        *out = sp;
        return n;
    }
    cv_span *o = NULL;
    size_t no = 0, co = 0;
    for (size_t i = 0; i < n; i++) {
        const char *t = sp[i].text, *lit = t;
        for (const char *p = t; *p;) {
            size_t hit = 0;
            for (size_t k = 0; k < doc->nbold_keywords && !hit; k++) {
                const char *kw = doc->bold_keywords[k].s;
                size_t kl = kw ? strlen(kw) : 0;
                if (kl && !strncmp(p, kw, kl) && (p == t || !ident_char(p[-1])) &&
                    !ident_char(p[kl]))
                    hit = kl;
            }
            if (!hit) {
                p++;
                continue;
            }
            if (p > lit)
                CV_PUSH(a, o, no, co, ((cv_span){cv_arena_strndup(a, lit, (size_t)(p - lit)),
                                                 (size_t)(p - lit), sp[i].style, sp[i].link}));
            CV_PUSH(a, o, no, co, ((cv_span){cv_arena_strndup(a, p, hit), hit,
                                             sp[i].style | CV_STYLE_BOLD, sp[i].link}));
            p += hit;
            lit = p;
        }
        if (*lit)
            CV_PUSH(a, o, no, co, ((cv_span){lit, strlen(lit), sp[i].style, sp[i].link}));
    }
    *out = o;
    return no;
}


static const char *const placeholders[] = {
    "START_DATE", "END_DATE", "INSTITUTION", "POSITION", "COMPANY", "LOCATION",
    "SUMMARY", "JOURNAL", "AUTHORS", "DETAILS", "DEGREE", "LABEL", "TITLE", "AREA",
    "NAME", "DATE", "TEXT", "DOI", "URL", "PAGE_NUMBER", "TOTAL_PAGES", "CURRENT_DATE",
    "LAST_UPDATED", "EMAIL", "PHONE", "WEBSITE", NULL};

const char *cv_template_link(cv_arena *a, const char *shown, const char *url)
{
    return cv_arena_printf(a, "[%s](%s)", cv_markup_escape(a, shown), url);
}

static const char *strip_scheme(const char *url)
{
    if (!strncmp(url, "https://", 8))
        return url + 8;
    if (!strncmp(url, "http://", 7))
        return url + 7;
    return url;
}

const char *cv_template_url_shown(cv_arena *a, const char *url)
{
    const char *shown = strip_scheme(url);
    size_t n = strlen(shown);
    if (n && shown[n - 1] == '/')
        shown = cv_arena_strndup(a, shown, n - 1);
    return shown;
}

/* The value of a placeholder for an entry, as markup; NULL or "" when empty. */
static const char *ph_value(cv_arena *a, const char *ph, const cv_entry *e,
                            const cv_doc *doc, const cv_pagevars *fu)
{
    if (fu) {
        if (!strcmp(ph, "NAME"))
            return doc->name.s;
        if (!strcmp(ph, "PAGE_NUMBER"))
            return cv_arena_printf(a, "%zu", fu->page);
        if (!strcmp(ph, "TOTAL_PAGES"))
            return cv_arena_printf(a, "%zu", fu->pages);
        if (!strcmp(ph, "CURRENT_DATE"))
            return fu->date;
        if (!strcmp(ph, "LAST_UPDATED"))
            return fu->date ? cv_markup_escape(a, doc->locale.last_updated) : NULL;
        if (!strcmp(ph, "EMAIL"))
            return doc->email.s ? cv_markup_escape(a, doc->email.s) : NULL;
        if (!strcmp(ph, "PHONE"))
            return doc->phone.s ? cv_markup_escape(a, doc->phone.s) : NULL;
        if (!strcmp(ph, "WEBSITE"))
            return doc->website.s ? cv_markup_escape(a, strip_scheme(doc->website.s)) : NULL;
        if (!strcmp(ph, "LOCATION"))
            return doc->location.s ? cv_markup_escape(a, doc->location.s) : NULL;
        return NULL;
    }
#define F(NAME, field) if (!strcmp(ph, NAME)) return e->field.s
    F("COMPANY", company); F("POSITION", position); F("INSTITUTION", institution);
    F("AREA", area); F("DEGREE", degree); F("NAME", name); F("TITLE", title);
    F("LABEL", label); F("DETAILS", details); F("LOCATION", location);
    F("SUMMARY", summary); F("JOURNAL", journal); F("TEXT", text);
#undef F
    if (!strcmp(ph, "DATE")) {
        const char *d = cv_entry_date_range(a, e, &doc->locale);
        return d ? cv_markup_escape(a, d) : NULL;
    }
    if (!strcmp(ph, "START_DATE") || !strcmp(ph, "END_DATE")) {
        const cv_date *d = ph[0] == 'S' ? &e->start_date : &e->end_date;
        return d->kind ? cv_markup_escape(a, cv_date_format(a, d, &doc->locale)) : NULL;
    }
    if (!strcmp(ph, "AUTHORS")) {
        if (!e->nauthors)
            return NULL;
        const char *s = "";
        for (size_t i = 0; i < e->nauthors; i++) {
            const char *au = e->authors[i].s;
            const char *plain = cv_markup_strip(a, au);
            /* Already marked up by hand ("**J. Fang**"): left as written. */
            bool mine = !strcmp(plain, au) && cv_authors_is_owner(plain, doc, a);
            s = cv_arena_printf(a, "%s%s%s%s%s", s, i ? ", " : "", mine ? "**" : "",
                                au, mine ? "**" : "");
        }
        return s;
    }
    if (!strcmp(ph, "DOI"))
        return e->doi.s ? cv_template_link(a, cv_arena_printf(a, "doi:%s", e->doi.s),
                                      cv_arena_printf(a, "https://doi.org/%s", e->doi.s))
                        : NULL;
    if (!strcmp(ph, "URL")) {
        if (!e->url.s || e->doi.s)      /* as RenderCV: a DOI replaces the URL */
            return NULL;
        return cv_template_link(a, cv_template_url_shown(a, e->url.s), e->url.s);
    }
    return NULL;
}

/* Where a template line's text comes from, for diagnostics: the first of
 * its placeholders that has a value, else the entry. */
cv_pos cv_template_pos(const char *tmpl, const cv_entry *e)
{
    static const struct { const char *ph; size_t off; } fields[] = {
#define F(NAME, field) {NAME, offsetof(cv_entry, field)}
        F("COMPANY", company), F("POSITION", position), F("INSTITUTION", institution),
        F("AREA", area), F("DEGREE", degree), F("NAME", name), F("TITLE", title),
        F("LABEL", label), F("DETAILS", details), F("LOCATION", location),
        F("SUMMARY", summary), F("JOURNAL", journal), F("TEXT", text), F("DOI", doi),
        F("URL", url),
#undef F
    };
    for (const char *p = tmpl; *p;) {
        if (!(*p >= 'A' && *p <= 'Z')) {
            p++;
            continue;
        }
        const char *q = p;
        while ((*q >= 'A' && *q <= 'Z') || *q == '_')
            q++;
        size_t n = (size_t)(q - p);
        for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
            const cv_text *t = (const cv_text *)((const char *)e + fields[i].off);
            if (strlen(fields[i].ph) == n && !strncmp(p, fields[i].ph, n) && t->s && *t->s)
                return t->pos;
        }
        if (n == 7 && !strncmp(p, "AUTHORS", 7) && e->nauthors)
            return e->authors[0].pos;
        const cv_date *d = NULL;
        if (n == 4 && !strncmp(p, "DATE", 4))
            d = e->date.kind ? &e->date : &e->start_date;
        else if (n == 10 && !strncmp(p, "START_DATE", 10))
            d = &e->start_date;
        else if (n == 8 && !strncmp(p, "END_DATE", 8))
            d = &e->end_date;
        if (d && d->kind)
            return d->pos;
        p = q;
    }
    return e->pos;
}

typedef struct tok {
    const char *text;        /* literal text, or the placeholder's value */
    size_t len;
    bool ph, empty;
    unsigned style;
    const char *link;
} tok;

static size_t expand(cv_arena *a, const char *tmpl, const cv_entry *e, const cv_doc *doc,
                     const cv_pagevars *fu, cv_span **out)
{
    /* Markup of the template first, then placeholders inside each span. */
    cv_span *ts;
    size_t nts = cv_markup_parse(a, tmpl, 0, &ts);
    tok *toks = NULL;
    size_t nt = 0, ct = 0, nph = 0, nfull = 0;
    for (size_t i = 0; i < nts; i++) {
        const char *s = ts[i].text, *lit = s;
        for (const char *p = s; *p;) {
            const char *hit = NULL;
            if (isupper((unsigned char)*p) && (p == s || !ident_char(p[-1])))
                for (size_t k = 0; placeholders[k]; k++) {
                    size_t kl = strlen(placeholders[k]);
                    if (!strncmp(p, placeholders[k], kl) && !ident_char(p[kl])) {
                        hit = placeholders[k];
                        break;
                    }
                }
            if (!hit) {
                p++;
                continue;
            }
            if (p > lit)
                CV_PUSH(a, toks, nt, ct, ((tok){lit, (size_t)(p - lit), false, false,
                                                 ts[i].style, ts[i].link}));
            const char *v = ph_value(a, hit, e, doc, fu);
            bool empty = !v || !*v;
            CV_PUSH(a, toks, nt, ct, ((tok){v ? v : "", v ? strlen(v) : 0, true, empty,
                                             ts[i].style, ts[i].link}));
            nph++;
            nfull += !empty;
            p += strlen(hit);
            lit = p;
        }
        if (*lit)
            CV_PUSH(a, toks, nt, ct, ((tok){lit, strlen(lit), false, false, ts[i].style,
                                             ts[i].link}));
    }
    if (nph && !nfull) {
        *out = NULL;
        return 0;
    }

    /* Drop separators next to empty placeholders (see the file comment). */
    cv_span *sp = NULL;
    size_t ns = 0, cs = 0;
    for (size_t t = 0; t < nt; t++) {
        tok *k = &toks[t];
        if (!k->ph) {
            long pp = -1, np = -1, L = -1, R = -1;
            for (long j = (long)t - 1; j >= 0; j--)
                if (toks[j].ph) {
                    if (pp < 0)
                        pp = j;
                    if (!toks[j].empty) {
                        L = j;
                        break;
                    }
                }
            for (size_t j = t + 1; j < nt; j++)
                if (toks[j].ph) {
                    if (np < 0)
                        np = (long)j;
                    if (!toks[j].empty) {
                        R = (long)j;
                        break;
                    }
                }
            bool keep;
            if (pp < 0 && np < 0)
                keep = true;
            else if (pp < 0)
                keep = np == R;
            else if (np < 0)
                keep = pp == L;
            else
                keep = L >= 0 && R >= 0 && pp == L;
            if (keep)
                CV_PUSH(a, sp, ns, cs, ((cv_span){cv_arena_strndup(a, k->text, k->len),
                                                  k->len, k->style, k->link}));
            continue;
        }
        if (k->empty)
            continue;
        /* A value is markup itself; it inherits the template's style/link. */
        cv_span *vs;
        size_t nv = cv_template_text(a, doc, k->text, k->style, &vs);
        for (size_t j = 0; j < nv; j++) {
            if (!vs[j].link)
                vs[j].link = k->link;
            CV_PUSH(a, sp, ns, cs, vs[j]);
        }
    }
    *out = sp;
    return ns;
}

size_t cv_template_expand(cv_arena *a, const char *tmpl, const cv_entry *e,
                          const cv_doc *doc, cv_span **out)
{
    return expand(a, tmpl, e, doc, NULL, out);
}

size_t cv_template_expand_page(cv_arena *a, const char *tmpl, const cv_doc *doc,
                               const cv_pagevars *pv, cv_span **out)
{
    return expand(a, tmpl, NULL, doc, pv, out);
}

