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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "authors.h"
#include "fields.h"

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The length of the text at p that keyword kw (of length n) matches, or 0:
 * a space of the keyword matches a no-break space too (the names of an
 * author list are joined by them, authors.h). */
static size_t kw_match(const char *p, const char *kw, size_t n)
{
    size_t i = 0, k = 0;
    for (; k < n; k++) {
        if (kw[k] == ' ' && p[i] == '\xC2' && p[i + 1] == '\xA0')
            i += 2;
        else if (p[i] == kw[k])
            i++;
        else
            return 0;
    }
    return ident_char(p[i]) ? 0 : i;
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
    /* The keywords by first byte, each list longest first (as RenderCV
     * tries them: "C++" before "C"), so that a position costs only the
     * keywords that start with its byte. */
    size_t nk = doc->nbold_keywords;
    size_t *len = cv_xmalloc(2 * nk * sizeof *len), *next = len + nk;
    size_t head[256];
    for (size_t b = 0; b < 256; b++)
        head[b] = SIZE_MAX;
    for (size_t k = 0; k < nk; k++) {
        const char *kw = doc->bold_keywords[k].s;
        len[k] = kw ? strlen(kw) : 0;
        next[k] = SIZE_MAX;
        if (!len[k])
            continue;
        unsigned char b = (unsigned char)kw[0];
        size_t *at = &head[b];
        while (*at != SIZE_MAX && len[*at] >= len[k])
            at = &next[*at];
        next[k] = *at;
        *at = k;
    }
    cv_span *o = NULL;
    size_t no = 0, co = 0;
    for (size_t i = 0; i < n; i++) {
        const char *t = sp[i].text, *lit = t;
        for (const char *p = t; *p;) {
            size_t hit = 0;
            if (p == t || !ident_char(p[-1]))
                for (size_t k = head[(unsigned char)*p]; k != SIZE_MAX && !hit; k = next[k])
                    hit = kw_match(p, doc->bold_keywords[k].s, len[k]);
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
    free(len);
    *out = o;
    return no;
}


/* Placeholders of the running header and footer that are not entry
 * fields (NAME and LOCATION are both).  Every template knows every
 * placeholder: one that has no value where it is used is empty. */
static const char *const page_placeholders[] = {
    "PAGE_NUMBER", "TOTAL_PAGES", "CURRENT_DATE", "LAST_UPDATED", "EMAIL", "PHONE", "WEBSITE",
    "LINK", NULL};

/* The length of the placeholder at p, or 0: a whole word (template.h).
 * The upper-cased extra keys of the profile's entries are placeholders
 * too (`revenue:` is REVENUE), as in RenderCV. */
static size_t placeholder_at(const char *p, const cv_doc *doc)
{
    size_t n = 0;
    while (ident_char(p[n]))
        n++;
    if (cv_field_by_placeholder(p, n))
        return n;
    for (size_t k = 0; doc && k < doc->nextra_phs; k++)
        if (strlen(doc->extra_phs[k]) == n && !strncmp(p, doc->extra_phs[k], n))
            return n;
    for (size_t k = 0; page_placeholders[k]; k++)
        if (strlen(page_placeholders[k]) == n && !strncmp(p, page_placeholders[k], n))
            return n;
    return 0;
}

const char *cv_template_link(cv_arena *a, const char *shown, const char *url)
{
    /* The destination with '(', ')' and '\\' escaped, so that a URL with
     * an unbalanced parenthesis ("https://x.org/)](javascript:...") is one
     * link, all of it, and never closes the markup early. */
    size_t n = 0;
    for (const char *u = url; *u; u++)
        n += 1 + (*u == '(' || *u == ')' || *u == '\\');
    char *d = cv_arena_alloc(a, n + 1), *o = d;
    for (const char *u = url; *u; u++) {
        if (*u == '(' || *u == ')' || *u == '\\')
            *o++ = '\\';
        *o++ = *u;
    }
    *o = 0;
    return cv_arena_printf(a, "[%s](%s)", cv_markup_escape(a, shown), d);
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

/* The value of a running header or footer's placeholder, as markup; NULL
 * or "" when empty. */
static const char *page_value(cv_arena *a, const char *ph, const cv_doc *doc,
                              const cv_pagevars *pv)
{
    if (!strcmp(ph, "NAME"))
        return doc->name.s;
    if (!strcmp(ph, "PAGE_NUMBER"))
        return cv_arena_printf(a, "%zu", pv->page);
    if (!strcmp(ph, "TOTAL_PAGES"))
        return cv_arena_printf(a, "%zu", pv->pages);
    if (!strcmp(ph, "CURRENT_DATE"))
        return pv->date;
    if (!strcmp(ph, "LAST_UPDATED"))
        return pv->date ? cv_markup_escape(a, doc->locale.last_updated) : NULL;
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

/* The authors, the owner's name in bold. */
static const char *authors_value(cv_arena *a, const cv_entry *e, const cv_doc *doc)
{
    if (!e->nauthors)
        return NULL;
    cv_owner o;
    cv_authors_owner(&o, a, doc);
    return cv_authors_markup(a, e->authors, e->nauthors, &o);
}

/* The value of an entry's placeholder (fields.h), as markup; NULL or ""
 * when empty. */
static const char *entry_value(cv_arena *a, const char *ph, const cv_entry *e,
                               const cv_doc *doc)
{
    const cv_field *f = cv_field_by_placeholder(ph, strlen(ph));
    /* LINK is RenderCV's URL: the DOI, bare, linked to doi.org when the
     * entry has one, else the URL without its scheme. */
    if (!f && e && !strcmp(ph, "LINK")) {
        if (e->doi.s)
            return cv_template_link(a, e->doi.s, cv_arena_printf(a, "https://doi.org/%s",
                                                                 e->doi.s));
        return e->url.s ? cv_template_link(a, cv_template_url_shown(a, e->url.s), e->url.s)
                        : NULL;
    }
    if (!f) {                     /* an extra key, or a page's placeholder */
        for (size_t i = 0; e && i < e->nextras; i++)
            if (!strcmp(e->extras[i].ph, ph))
                return e->extras[i].value.s;
        return NULL;
    }
    const cv_text *t = cv_field_text(e, f);
    const cv_date *d = cv_field_date(e, f);
    switch (f->type) {
    case CV_FIELD_TEXT:
        return t->s;
    case CV_FIELD_DATE:
        if (f->flags & CV_FIELD_RANGE) {
            const char *r = cv_entry_date_range(a, e, &doc->locale);
            return r ? cv_markup_escape(a, r) : NULL;
        }
        return d->kind ? cv_markup_escape(a, cv_date_format(a, d, &doc->locale)) : NULL;
    case CV_FIELD_SPAN: {
        /* An ongoing entry lasts until settings.current_date, else today. */
        cv_date today = {0};
        int y, m, dd;
        if (doc->current_date.s &&
            cv_date_shape(doc->current_date.s, &y, &m, &dd) >= CV_DATE_MONTH) {
            today = (cv_date){.kind = CV_DATE_MONTH, .year = y, .month = m};
        } else {
            time_t now = time(NULL);
            struct tm tm;
            if (gmtime_r(&now, &tm))
                today = (cv_date){.kind = CV_DATE_MONTH, .year = tm.tm_year + 1900,
                                  .month = tm.tm_mon + 1};
        }
        const char *s = cv_date_span(a, &e->start_date, &e->end_date, &today, &doc->locale);
        return s ? cv_markup_escape(a, s) : NULL;
    }
    case CV_FIELD_AUTHORS:
        return authors_value(a, e, doc);
    case CV_FIELD_DOI:
        return t->s ? cv_template_link(a, cv_arena_printf(a, "doi:%s", t->s),
                                       cv_arena_printf(a, "https://doi.org/%s", t->s))
                    : NULL;
    case CV_FIELD_URL:
        if (!t->s || e->doi.s)      /* as RenderCV: a DOI replaces the URL */
            return NULL;
        return cv_template_link(a, cv_template_url_shown(a, t->s), t->s);
    default:
        return NULL;
    }
}

/* Where a template line's text comes from, for diagnostics: the first of
 * its placeholders that has a value, else the entry. */
cv_pos cv_template_pos(const char *tmpl, const cv_entry *e)
{
    for (const char *p = tmpl; *p;) {
        if (!(*p >= 'A' && *p <= 'Z')) {
            p++;
            continue;
        }
        const char *q = p;
        while ((*q >= 'A' && *q <= 'Z') || *q == '_')
            q++;
        const cv_field *f = cv_field_by_placeholder(p, (size_t)(q - p));
        const cv_text *t = f ? cv_field_text(e, f) : NULL;
        const cv_date *d = f ? cv_field_date(e, f) : NULL;
        if (t && t->s && *t->s)
            return t->pos;
        if (f && f->type == CV_FIELD_AUTHORS && e->nauthors)
            return e->authors[0].pos;
        if (d && (f->flags & CV_FIELD_RANGE) && !d->kind)
            d = &e->start_date;   /* DATE shows the range */
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

typedef struct toks {
    tok *t;
    size_t n, cap;
    size_t nph, nfull;       /* placeholders; those with a value */
} toks;

/* Cut the spans of a parsed template line into literal text and
 * placeholders, each placeholder with its value. */
static void tokenize(cv_arena *a, const cv_span *ts, size_t nts, const cv_entry *e,
                     const cv_doc *doc, const cv_pagevars *pv, toks *out)
{
    for (size_t i = 0; i < nts; i++) {
        const char *s = ts[i].text, *lit = s;
        for (const char *p = s; *p;) {
            size_t hit = isupper((unsigned char)*p) && (p == s || !ident_char(p[-1]))
                             ? placeholder_at(p, doc)
                             : 0;
            if (!hit) {
                p++;
                continue;
            }
            if (p > lit)
                CV_PUSH(a, out->t, out->n, out->cap, ((tok){lit, (size_t)(p - lit), false,
                                                            false, ts[i].style, ts[i].link}));
            char ph[64];          /* the longest field's is 12 bytes */
            if (hit >= sizeof ph) {
                p += hit;
                continue;
            }
            memcpy(ph, p, hit);
            ph[hit] = 0;
            const char *v = pv ? page_value(a, ph, doc, pv) : entry_value(a, ph, e, doc);
            /* A value of blanks alone (`area: " "`) is as empty as "":
             * "BS in" never dangles before nothing. */
            bool empty = !v || !v[strspn(v, " \t\r\n")];
            CV_PUSH(a, out->t, out->n, out->cap, ((tok){v ? v : "", v ? strlen(v) : 0, true,
                                                        empty, ts[i].style, ts[i].link}));
            out->nph++;
            out->nfull += !empty;
            p += hit;
            lit = p;
        }
        if (*lit)
            CV_PUSH(a, out->t, out->n, out->cap, ((tok){lit, strlen(lit), false, false,
                                                        ts[i].style, ts[i].link}));
    }
}

/* Is literal token t kept?  Not when it separates an empty placeholder
 * from the rest (the rule in template.h). */
static bool keep_literal(const tok *tk, size_t nt, size_t t)
{
    long pp = -1, np = -1, L = -1, R = -1;     /* placeholders before and after; filled ones */
    for (long j = (long)t - 1; j >= 0; j--)
        if (tk[j].ph) {
            if (pp < 0)
                pp = j;
            if (!tk[j].empty) {
                L = j;
                break;
            }
        }
    for (size_t j = t + 1; j < nt; j++)
        if (tk[j].ph) {
            if (np < 0)
                np = (long)j;
            if (!tk[j].empty) {
                R = (long)j;
                break;
            }
        }
    if (pp < 0 && np < 0)
        return true;
    if (pp < 0)
        return np == R;
    if (np < 0)
        return pp == L;
    return L >= 0 && R >= 0 && pp == L;
}

static bool all_of(const char *s, size_t n, const char *set)
{
    for (size_t i = 0; i < n; i++)
        if (!strchr(set, s[i]))
            return false;
    return n > 0;
}

static bool blank(const tok *k)
{
    return !k->ph && all_of(k->text, k->len, " ");
}

/* A word set apart by markup of its own between spaces (sb2nov's
 * "*DEGREE* *in* *AREA*"): text, not a separator, so it stays when a
 * placeholder beside it is empty, as in RenderCV. */
static bool own_word(const tok *tk, size_t nt, size_t t)
{
    const tok *k = &tk[t];
    if (k->ph || !k->len || memchr(k->text, ' ', k->len) || t == 0 || t + 1 >= nt)
        return false;
    return blank(&tk[t - 1]) && blank(&tk[t + 1]) && tk[t - 1].style != k->style &&
           tk[t + 1].style != k->style;
}

/* Which literal tokens stay: keep_literal()'s rule, with RenderCV's two
 * refinements: a word of its own markup stays (own_word), with the space
 * between it and a value; and an opening bracket written against a value
 * that is shown stays with it ("URL (JOURNAL)" without a URL is
 * "(JOURNAL)"), as a closing one does.  part[t]: 0 dropped, 1 kept whole,
 * 2 its tail after the last space, 3 its head before the first space. */
static void kept_literals(const tok *tk, size_t nt, unsigned char *part)
{
    for (size_t t = 0; t < nt; t++)
        part[t] = !tk[t].ph && keep_literal(tk, nt, t);
    for (size_t t = 0; t < nt; t++)
        if (!part[t] && own_word(tk, nt, t))
            part[t] = 1;
    for (size_t t = 0; t < nt; t++) {
        if (tk[t].ph || part[t] || !blank(&tk[t]))
            continue;
        /* A space between a kept own word and a shown value (or word). */
        const tok *l = t ? &tk[t - 1] : NULL, *r = t + 1 < nt ? &tk[t + 1] : NULL;
        bool lk = l && ((l->ph && !l->empty) || (!l->ph && part[t - 1]));
        bool rk = r && ((r->ph && !r->empty) || (!r->ph && part[t + 1]));
        if (lk && rk && (own_word(tk, nt, t - 1) || own_word(tk, nt, t + 1)))
            part[t] = 1;
    }
    for (size_t t = 0; t < nt; t++) {
        const tok *k = &tk[t];
        if (k->ph || part[t])
            continue;
        size_t sp = k->len;
        while (sp > 0 && k->text[sp - 1] != ' ')
            sp--;
        size_t hd = 0;
        while (hd < k->len && k->text[hd] != ' ')
            hd++;
        if (t + 1 < nt && tk[t + 1].ph && !tk[t + 1].empty &&
            all_of(k->text + sp, k->len - sp, "([{\"'\xE2\x80\x9C\x98"))
            part[t] = 2;
        else if (t > 0 && tk[t - 1].ph && !tk[t - 1].empty &&
                 all_of(k->text, hd, ")]}\"'\xE2\x80\x9D\x99"))
            part[t] = 3;
    }
}

static size_t expand(cv_arena *a, const char *tmpl, const cv_entry *e, const cv_doc *doc,
                     const cv_pagevars *pv, cv_span **out)
{
    /* The language's phrase for a degree in an area ("AREA DEGREE" in
     * Chinese) where the layout writes English's. */
    const char *en = cv_locale_english()->degree_with_area, *dp = strstr(tmpl, en);
    if (dp && doc->locale.degree_with_area && doc->locale.degree_with_area != en)
        tmpl = cv_arena_printf(a, "%.*s%s%s", (int)(dp - tmpl), tmpl,
                               doc->locale.degree_with_area, dp + strlen(en));
    /* sb2nov's italic words (RenderCV's "*DEGREE* *in* *AREA*") too. */
    static const char sb[] = "*DEGREE* *in* *AREA*";
    if ((dp = strstr(tmpl, sb)) && doc->locale.degree_with_area &&
        doc->locale.degree_with_area != en)
        tmpl = cv_arena_printf(a, "%.*s*%s*%s", (int)(dp - tmpl), tmpl,
                               doc->locale.degree_with_area, dp + sizeof sb - 1);
    /* Markup of the template first, then placeholders inside each span. */
    cv_span *ts;
    size_t nts = cv_markup_parse(a, tmpl, 0, &ts);
    toks tk = {0};
    tokenize(a, ts, nts, e, doc, pv, &tk);
    *out = NULL;
    if (tk.nph && !tk.nfull)
        return 0;

    cv_span *sp = NULL;
    size_t ns = 0, cs = 0;
    unsigned char *part = cv_arena_alloc(a, tk.n ? tk.n : 1);
    kept_literals(tk.t, tk.n, part);
    for (size_t t = 0; t < tk.n; t++) {
        const tok *k = &tk.t[t];
        if (!k->ph) {
            const char *s = k->text;
            size_t n = k->len;
            if (part[t] == 2) {         /* the tail after the last space */
                while (n > 0 && s[n - 1] != ' ')
                    n--;
                s += n;
                n = k->len - n;
            } else if (part[t] == 3) {  /* the head before the first space */
                n = 0;
                while (n < k->len && s[n] != ' ')
                    n++;
            }
            if (part[t])
                CV_PUSH(a, sp, ns, cs, ((cv_span){cv_arena_strndup(a, s, n), n, k->style,
                                                  k->link}));
            continue;
        }
        if (k->empty)
            continue;
        /* A value is markup itself; it inherits the template's style/link.
         * bold_keywords are for the profile's text, not the running header
         * and footer (the owner's name among them would set it in bold). */
        cv_span *vs;
        size_t nv = pv ? cv_markup_parse(a, k->text, k->style, &vs)
                       : cv_template_text(a, doc, k->text, k->style, &vs);
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

