/* compose.c - a document and a style become a vertical list.  See flow.h.
 *
 * Every entry is laid out the same way, whatever its type:
 *
 *     MAIN LINE 1 (template) ..................... SIDE LINE 1 (right-aligned)
 *     MAIN LINE 2 ................................ SIDE LINE 2
 *     summary paragraph, full measure
 *       •  highlight, hanging indent
 *            –  nested highlight
 *
 * The main and side lines come from the layout's per-type templates
 * (`**COMPANY**`, `DATE`, ...), so a layout restyles entries without code.
 * The side column is as wide as its widest line; the main column takes the
 * rest.  Bare strings, bullets, numbered and one-line entries are
 * paragraphs with the right indent.
 *
 * Template placeholders whose field is empty disappear together with the
 * separator text around them ("*DEGREE in AREA*" without a degree becomes
 * "*AREA*"; a line whose placeholders are all empty disappears).
 */
#include "flow.h"

#include <ctype.h>
#include <math.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>
#include <wctype.h>

/* ---- vertical list helpers ------------------------------------------- */

static cv_vitem *vl_add(cv_arena *a, cv_vlist *vl, float space_before, const char *what)
{
    cv_vitem it = {.space_before = space_before, .what = what};
    CV_PUSH(a, vl->items, vl->n, vl->cap, it);
    return &vl->items[vl->n - 1];
}

static void put_line(cv_arena *a, cv_vitem *it, const cv_line *ln, float dx, float dy)
{
    cv_piece p = {ln, dx, dy};
    CV_PUSH(a, it->pieces, it->npieces, it->cpieces, p);
}

/* Line box: height and baseline offset for text of `size`, from the
 * primary face's ascender and descender, leading split above and below. */
static void line_box(const cv_style *st, float size, float *height, float *baseline)
{
    const cv_face *f = cv_fontset_face(st->fonts, st->chain[0][0]);
    float asc = f->ascender * size / 1000.0f, desc = -f->descender * size / 1000.0f;
    *height = size * st->line_spacing;
    if (*height < asc + desc)
        *height = asc + desc;
    *baseline = (*height - asc - desc) / 2 + asc;
}

static cv_textfmt body_fmt(const cv_style *st)
{
    return (cv_textfmt){.size = st->size, .color = st->text_color,
                        .link_color = st->link_color, .justify = st->justify,
                        .hyphenate = st->hyphenate, .greedy = st->greedy};
}

/* Mark the items [first, last] of a block with the keep rules of flow.h. */
static void keep_block(cv_vlist *vl, size_t first, size_t n)
{
    if (n <= 3) {
        for (size_t i = first; i + 1 < first + n; i++)
            vl->items[i].keep_with_next = true;
        return;
    }
    vl->items[first].keep_with_next = true;          /* no orphan */
    vl->items[first + n - 2].keep_with_next = true;  /* no widow */
}

/* A paragraph: one item per line, with `lead` drawn left of the first
 * line (a bullet or a number) at `lead_dx`. */
static size_t add_para(cv_arena *a, cv_vlist *vl, const cv_style *st, const cv_span *sp,
                       size_t nsp, const cv_textfmt *fmt, float dx, float width,
                       const cv_line *lead, float lead_dx, float space_before,
                       cv_pos pos, const char *what, cv_error *err)
{
    cv_line *lines;
    size_t n = cv_wrap(a, st, sp, nsp, fmt, width, pos, &lines, err);
    float h, base;
    line_box(st, fmt->size, &h, &base);
    size_t first = vl->n;
    for (size_t i = 0; i < n; i++) {
        cv_vitem *it = vl_add(a, vl, i ? 0 : space_before, what);
        it->height = h;
        put_line(a, it, &lines[i], dx, base);
        if (i == 0 && lead)
            put_line(a, it, lead, lead_dx, base);
    }
    keep_block(vl, first, n);
    return n;
}

static cv_line *one_line(cv_arena *a, const cv_style *st, const char *markup,
                         unsigned style, const cv_textfmt *fmt, cv_pos pos, cv_error *err)
{
    cv_span *sp;
    size_t n = cv_markup_parse(a, markup, style, &sp);
    cv_line *lines;
    size_t nl = cv_wrap(a, st, sp, n, fmt, 1e6f, pos, &lines, err);
    return nl ? &lines[0] : NULL;
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* ---- templates --------------------------------------------------------- */

/* Profile text: markup, then settings.bold_keywords (RenderCV's): every
 * whole-word occurrence of a keyword is set in bold. */
static size_t parse_text(cv_arena *a, const cv_doc *doc, const char *s, unsigned style,
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
    "NAME", "DATE", "TEXT", "DOI", "URL", NULL};

/* ---- The owner's name in author lists ----------------------------------- */

typedef struct pname {
    char given[64], initials[16], family[64], whole[160];
} pname;

/* Lower-case ASCII letters of s[0..n), dropping '.', '-' and spaces. */
static void squash(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '.' || c == '-' || c == ' ' || c == 0xE2)
            continue;            /* 0xE2: the lead byte of the marks below */
        out[k++] = (char)tolower(c);
    }
    out[k] = 0;
}

/* Split a name into family name, given names and their initials: "Family,
 * Given" or "Given Family" -- or, when `family_first`, "Family Given" (the
 * Chinese order).  Footnote marks (* † ‡ digits) are dropped. */
static bool split_name(const char *s, bool family_first, pname *pn)
{
    char buf[160];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 1 < sizeof buf; p++) {
        if (*p == '*' || *p == '#' || isdigit(*p) || *p == '^')
            continue;
        if (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA0 || p[2] == 0xA1)) {
            p += 2;               /* † ‡ */
            continue;
        }
        buf[n++] = (char)(*p == '\t' ? ' ' : *p);
    }
    while (n && buf[n - 1] == ' ')
        n--;
    buf[n] = 0;
    char *b = buf;
    while (*b == ' ')
        b++;
    memset(pn, 0, sizeof *pn);
    squash(b, strlen(b), pn->whole, sizeof pn->whole);
    const char *comma = strchr(b, ',');
    const char *fam, *giv;
    size_t fl, gl;
    if (comma) {
        fam = b, fl = (size_t)(comma - b);
        giv = comma + 1, gl = strlen(giv);
    } else {
        const char *sp = family_first ? strchr(b, ' ') : strrchr(b, ' ');
        if (!sp)
            return false;         /* one word: only the whole name can match */
        if (family_first) {
            fam = b, fl = (size_t)(sp - b);
            giv = sp + 1, gl = strlen(giv);
        } else {
            fam = sp + 1, fl = strlen(fam);
            giv = b, gl = (size_t)(sp - b);
        }
    }
    squash(fam, fl, pn->family, sizeof pn->family);
    squash(giv, gl, pn->given, sizeof pn->given);
    /* Initials: the first letter of each part of the given names, where
     * parts are separated by spaces, dots or hyphens ("Jia-Rui", "J.-R."). */
    size_t k = 0;
    bool start = true;
    for (size_t i = 0; i < gl && k + 1 < sizeof pn->initials; i++) {
        char c = giv[i];
        if (c == ' ' || c == '.' || c == '-') {
            start = true;
        } else if (start) {
            pn->initials[k++] = (char)tolower((unsigned char)c);
            start = false;
        }
    }
    return pn->family[0] && pn->given[0];
}

/* Is `author` (plain text) the profile's owner, by `name` or `native_name`,
 * in any usual form: "Jiarui Fang", "J. Fang", "Fang, J.", "Fang Jiarui",
 * "Jia-Rui Fang", "J.-R. Fang", "方佳瑞", with footnote marks or not. */
static bool same_person(const char *author, const cv_doc *doc, cv_arena *a)
{
    const char *names[2] = {doc->name.s, doc->native_name.s};
    for (int i = 0; i < 2; i++) {
        if (!names[i])
            continue;
        pname me, au, au_rev;
        bool me_ok = split_name(cv_markup_strip(a, names[i]), false, &me);
        bool au_ok = split_name(author, false, &au);
        if (me.whole[0] && !strcmp(me.whole, au.whole))
            return true;          /* also 方佳瑞, where there are no parts */
        if (!me_ok || !au_ok)
            continue;
        bool rev_ok = !strchr(author, ',') && split_name(author, true, &au_rev);
        for (int r = 0; r < 1 + rev_ok; r++) {
            const pname *x = r ? &au_rev : &au;
            if (strcmp(x->family, me.family))
                continue;
            if (!strcmp(x->given, me.given))
                return true;
            /* Initials only ("J." or "J. R." or "J.-R." for Jia-Rui): each
             * part of the given names is one letter. */
            bool initials = strlen(x->initials) == strlen(x->given);
            if (initials && (!strcmp(x->given, me.initials) ||
                             (!x->given[1] && x->given[0] == me.initials[0])))
                return true;
        }
    }
    return false;
}

static const char *link_markup(cv_arena *a, const char *shown, const char *url)
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

/* The value of a placeholder for an entry, as markup; NULL or "" when empty. */
static const char *ph_value(cv_arena *a, const char *ph, const cv_entry *e,
                            const cv_doc *doc)
{
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
            bool mine = !strcmp(plain, au) && same_person(plain, doc, a);
            s = cv_arena_printf(a, "%s%s%s%s%s", s, i ? ", " : "", mine ? "**" : "",
                                au, mine ? "**" : "");
        }
        return s;
    }
    if (!strcmp(ph, "DOI"))
        return e->doi.s ? link_markup(a, cv_arena_printf(a, "doi:%s", e->doi.s),
                                      cv_arena_printf(a, "https://doi.org/%s", e->doi.s))
                        : NULL;
    if (!strcmp(ph, "URL")) {
        if (!e->url.s || e->doi.s)      /* as RenderCV: a DOI replaces the URL */
            return NULL;
        const char *shown = strip_scheme(e->url.s);
        size_t n = strlen(shown);
        if (n && shown[n - 1] == '/')
            shown = cv_arena_strndup(a, shown, n - 1);
        return link_markup(a, shown, e->url.s);
    }
    return NULL;
}

/* Where a template line's text comes from, for diagnostics: the first of
 * its placeholders that has a value, else the entry. */
static cv_pos template_pos(const char *tmpl, const cv_entry *e)
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

size_t cv_template_expand(cv_arena *a, const char *tmpl, const cv_entry *e,
                          const cv_doc *doc, cv_span **out)
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
            const char *v = ph_value(a, hit, e, doc);
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
        size_t nv = parse_text(a, doc, k->text, k->style, &vs);
        for (size_t j = 0; j < nv; j++) {
            if (!vs[j].link)
                vs[j].link = k->link;
            CV_PUSH(a, sp, ns, cs, vs[j]);
        }
    }
    *out = sp;
    return ns;
}

/* ---- header ------------------------------------------------------------ */

typedef struct contact {
    const char *markup;
} contact;

static float align_dx(const cv_style *st, float width, float line_w)
{
    if (st->header_align == CV_ALIGN_CENTER)
        return (width - line_w) / 2;
    if (st->header_align == CV_ALIGN_RIGHT)
        return width - line_w;
    return 0;
}

static void add_header(cv_arena *a, cv_vlist *vl, const cv_doc *doc, const cv_style *st,
                       float width, cv_error *err)
{
    /* Name, with the native-script name beside it. */
    cv_textfmt nf = {.size = st->name_size, .color = st->name_color,
                     .link_color = st->name_color,
                     .style = st->name_bold ? CV_STYLE_BOLD : 0};
    const char *name = cv_markup_escape(a, cv_markup_strip(a, doc->name.s));
    if (doc->native_name.s && st->native_name_beside)
        name = cv_arena_printf(a, "%s\xE2\x80\x82%s", name,     /* en space */
                               cv_markup_escape(a, doc->native_name.s));
    cv_span *sp;
    size_t n = cv_markup_parse(a, name, 0, &sp);
    cv_line *lines;
    size_t nl = cv_wrap(a, st, sp, n, &nf, width, doc->name.pos, &lines, err);
    float h, base;
    line_box(st, st->name_size, &h, &base);
    h = st->name_size * 1.2f;
    for (size_t i = 0; i < nl; i++) {
        cv_vitem *it = vl_add(a, vl, 0, "the name");
        it->height = h;
        it->keep_with_next = true;
        put_line(a, it, &lines[i], align_dx(st, width, lines[i].width), base);
    }

    /* Headline. */
    if (doc->headline.s) {
        cv_textfmt hf = {.size = st->headline_size, .color = st->muted_color,
                         .link_color = st->link_color};
        n = parse_text(a, doc, doc->headline.s, 0, &sp);
        nl = cv_wrap(a, st, sp, n, &hf, width, doc->headline.pos, &lines, err);
        line_box(st, st->headline_size, &h, &base);
        for (size_t i = 0; i < nl; i++) {
            cv_vitem *it = vl_add(a, vl, i ? 0 : 2, "the headline");
            it->height = h;
            it->keep_with_next = true;
            put_line(a, it, &lines[i], align_dx(st, width, lines[i].width), base);
        }
    }

    /* Contact line: items packed greedily, never split, each its own link. */
    const char *items[64];
    cv_pos pos[64];
    size_t ni = 0;
    if (doc->location.s)
        pos[ni] = doc->location.pos, items[ni++] = cv_markup_escape(a, doc->location.s);
    if (doc->email.s)
        pos[ni] = doc->email.pos,
        items[ni++] = link_markup(a, doc->email.s, cv_arena_printf(a, "mailto:%s", doc->email.s));
    if (doc->phone.s) {
        char *tel = cv_arena_strdup(a, doc->phone.s), *q = tel;
        for (const char *p = doc->phone.s; *p; p++)
            if (isdigit((unsigned char)*p) || (*p == '+' && q == tel))
                *q++ = *p;
        *q = 0;
        pos[ni] = doc->phone.pos,
        items[ni++] = link_markup(a, doc->phone.s, cv_arena_printf(a, "tel:%s", tel));
    }
    if (doc->website.s) {
        const char *shown = strip_scheme(doc->website.s);
        size_t l = strlen(shown);
        if (l && shown[l - 1] == '/')
            shown = cv_arena_strndup(a, shown, l - 1);
        pos[ni] = doc->website.pos, items[ni++] = link_markup(a, shown, doc->website.s);
    }
    for (size_t i = 0; i < doc->nsocials && ni < 64; i++) {
        const cv_social *s = &doc->socials[i];
        const char *shown = s->label ? s->label : s->username.s;
        pos[ni] = s->username.pos;
        /* "GitHub: feifeibear"; a network shown by name alone stays so. */
        const char *text = strcmp(shown, s->network.s)
                               ? cv_arena_printf(a, "%s: %s", s->network.s, shown)
                               : shown;
        items[ni++] = link_markup(a, text, s->url);
    }
    if (!ni)
        return;
    cv_textfmt cf = {.size = st->contact_size, .color = st->text_color,
                     .link_color = st->text_color};
    cv_span *sep_sp;
    size_t nsep = cv_markup_parse(a, cv_markup_escape(a, st->contact_separator), 0, &sep_sp);
    float sep_w = cv_measure(a, st, sep_sp, nsep, &cf);
    line_box(st, st->contact_size, &h, &base);
    bool first_line = true;
    for (size_t i = 0; i < ni;) {
        /* Take items while they fit. */
        float w = 0;
        size_t j = i;
        cv_span *all = NULL;
        size_t na = 0, ca = 0;
        while (j < ni) {
            cv_span *is;
            size_t nis = cv_markup_parse(a, items[j], 0, &is);
            float iw = cv_measure(a, st, is, nis, &cf);
            if (j > i && w + sep_w + iw > width)
                break;
            if (j > i)
                for (size_t k = 0; k < nsep; k++)
                    CV_PUSH(a, all, na, ca, sep_sp[k]);
            for (size_t k = 0; k < nis; k++)
                CV_PUSH(a, all, na, ca, is[k]);
            w += (j > i ? sep_w : 0) + iw;
            j++;
        }
        cv_textfmt one = cf;
        nl = cv_wrap(a, st, all, na, &one, width, pos[i], &lines, err);
        for (size_t k = 0; k < nl; k++) {
            cv_vitem *it = vl_add(a, vl, first_line ? 4 : 0, "the contact line");
            it->height = h;
            it->keep_with_next = true;
            put_line(a, it, &lines[k], align_dx(st, width, lines[k].width), base);
            first_line = false;
        }
        i = j;
    }
    vl->items[vl->n - 1].keep_with_next = false;
}

/* ---- sections and entries --------------------------------------------- */

static const char *upper(cv_arena *a, const char *s)
{
    /* Decode, upper-case each code point, re-encode. */
    size_t n = strlen(s);
    char *o = cv_arena_alloc(a, n * 2 + 1), *q = o;
    mbstate_t ps = {0};
    for (const char *p = s; *p;) {
        wchar_t wc;
        size_t k = mbrtowc(&wc, p, n - (size_t)(p - s), &ps);
        if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
            *q++ = *p++;
            memset(&ps, 0, sizeof ps);
            continue;
        }
        char buf[8];
        mbstate_t ws = {0};
        size_t m = wcrtomb(buf, (wchar_t)towupper((wint_t)wc), &ws);
        if (m == (size_t)-1 || m > (size_t)k * 2) {
            memcpy(q, p, k);
            q += k;
        } else {
            memcpy(q, buf, m);
            q += m;
        }
        p += k;
    }
    *q = 0;
    return o;
}

static void add_title(cv_arena *a, cv_vlist *vl, const cv_style *st, const cv_section *sec,
                      float width, bool first, cv_error *err)
{
    cv_textfmt tf = {.size = st->title_size, .color = st->title_color,
                     .link_color = st->title_color,
                     .style = st->title_bold ? CV_STYLE_BOLD : 0, .tracking = 0};
    const char *t = cv_markup_escape(a, sec->title);
    if (st->title_uppercase) {
        t = upper(a, t);
        tf.tracking = 40;               /* letter-spaced capitals */
    }
    cv_span *sp;
    size_t n = cv_markup_parse(a, t, 0, &sp);
    cv_line *lines;
    size_t nl = cv_wrap(a, st, sp, n, &tf, width, sec->pos, &lines, err);
    float h, base;
    line_box(st, st->title_size, &h, &base);
    const char *what = cv_arena_printf(a, "the title of section '%s'", sec->title);
    for (size_t i = 0; i < nl; i++) {
        cv_vitem *it = vl_add(a, vl, i ? 0 : (first ? 0 : st->title_space_before), what);
        it->height = h;
        it->keep_with_next = true;
        put_line(a, it, &lines[i], 0, base);
        if (i + 1 == nl && st->title_rule) {
            const cv_face *f = cv_fontset_face(st->fonts, st->chain[0][0]);
            float below = -f->descender * st->title_size / 1000.0f;
            float dy = base + st->rule_gap + st->rule_width / 2;
            if (dy < base + below * 0.6f)
                dy = base + below * 0.6f;
            cv_vrule r = {0, width, dy, st->rule_width, st->rule_color};
            CV_PUSH(a, it->rules, it->nrules, it->crules, r);
            if (it->height < dy + st->rule_width)
                it->height = dy + st->rule_width;
        }
    }
}

static void add_highlights(cv_arena *a, cv_vlist *vl, const cv_doc *doc,
                           const cv_style *st, const cv_highlight *hl, size_t n, float dx, float width,
                           int depth, float first_gap, const char *what, cv_error *err)
{
    cv_textfmt f = body_fmt(st);
    cv_line *bullet = one_line(a, st, cv_markup_escape(a, depth ? st->sub_bullet : st->bullet),
                               0, &f, depth ? st->sub_bullet_pos : st->bullet_pos, err);
    for (size_t i = 0; i < n; i++) {
        cv_span *sp;
        size_t nsp = parse_text(a, doc, hl[i].text.s, 0, &sp);
        float text_dx = dx + st->bullet_text_indent;
        add_para(a, vl, st, sp, nsp, &f, text_dx, width - st->bullet_text_indent, bullet,
                 dx + st->bullet_indent, i ? st->bullet_gap : first_gap, hl[i].text.pos,
                 what, err);
        if (hl[i].nsub)
            add_highlights(a, vl, doc, st, hl[i].sub, hl[i].nsub, dx + st->sub_indent,
                           width - st->sub_indent, depth + 1, st->bullet_gap, what, err);
    }
}

static void add_entry(cv_arena *a, cv_vlist *vl, const cv_doc *doc, const cv_style *st,
                      const cv_section *sec, size_t idx, float width, float space_before,
                      cv_error *err)
{
    const cv_entry *e = &sec->entries[idx];
    const cv_template *tp = &st->tmpl[e->kind];
    const char *what = cv_arena_printf(a, "entry %zu of section '%s'", idx + 1, sec->title);
    size_t first = vl->n;
    cv_textfmt f = body_fmt(st);

    switch (e->kind) {
    case CV_ENTRY_TEXT:
    case CV_ENTRY_ONELINE: {
        cv_span *sp;
        size_t n = cv_template_expand(a, tp->nmain ? tp->main[0] : "TEXT", e, doc, &sp);
        add_para(a, vl, st, sp, n, &f, 0, width, NULL, 0, space_before, e->pos, what, err);
        break;
    }
    case CV_ENTRY_BULLET: {
        cv_span *sp;
        size_t n = cv_template_expand(a, tp->nmain ? tp->main[0] : "TEXT", e, doc, &sp);
        cv_line *bullet = one_line(a, st, cv_markup_escape(a, st->bullet), 0, &f,
                                   st->bullet_pos, err);
        add_para(a, vl, st, sp, n, &f, st->bullet_text_indent, width - st->bullet_text_indent,
                 bullet, st->bullet_indent, space_before, e->pos, what, err);
        break;
    }
    case CV_ENTRY_NUMBERED:
    case CV_ENTRY_REVERSED: {
        size_t num = e->kind == CV_ENTRY_NUMBERED ? idx + 1 : sec->nentries - idx;
        const char *label = cv_arena_printf(a, "%zu.", num);
        cv_line *lead = one_line(a, st, label, 0, &f, e->pos, err);
        /* Numbers right-aligned in a column wide enough for the largest. */
        cv_line *widest = one_line(a, st, cv_arena_printf(a, "%zu.", sec->nentries), 0, &f,
                                   e->pos, err);
        float col = widest ? widest->width : 0;
        float indent = col + st->size * 0.6f;
        if (indent < st->bullet_text_indent)
            indent = st->bullet_text_indent;
        cv_span *sp;
        size_t n = cv_template_expand(a, tp->nmain ? tp->main[0] : "TEXT", e, doc, &sp);
        add_para(a, vl, st, sp, n, &f, indent, width - indent, lead,
                 indent - st->size * 0.6f - (lead ? lead->width : 0), space_before, e->pos,
                 what, err);
        break;
    }
    default: {
        /* Side column first: its width decides the main column's. */
        cv_textfmt sf = {.size = st->side_size, .color = st->side_color,
                         .link_color = st->link_color};
        cv_span *side_sp[CV_MAX_TMPL];
        size_t side_n[CV_MAX_TMPL], nside = 0;
        cv_pos side_pos[CV_MAX_TMPL], main_pos[CV_MAX_TMPL];
        float side_w = 0;
        for (size_t i = 0; i < tp->nside; i++) {
            side_n[nside] = cv_template_expand(a, tp->side[i], e, doc, &side_sp[nside]);
            if (!side_n[nside])
                continue;
            side_pos[nside] = template_pos(tp->side[i], e);
            float w = cv_measure(a, st, side_sp[nside], side_n[nside], &sf);
            if (w > side_w)
                side_w = w;
            nside++;
        }
        if (side_w > width * 0.4f)
            side_w = width * 0.4f;
        float main_w = nside ? width - side_w - st->side_gap : width;
        cv_span *main_sp[CV_MAX_TMPL];
        size_t main_n[CV_MAX_TMPL], nmain = 0;
        for (size_t i = 0; i < tp->nmain; i++) {
            main_n[nmain] = cv_template_expand(a, tp->main[i], e, doc, &main_sp[nmain]);
            if (main_n[nmain])
                main_pos[nmain++] = template_pos(tp->main[i], e);
        }
        /* One item holds the whole header: rows of main and side lines
         * sharing a baseline grid. */
        cv_vitem *it = vl_add(a, vl, space_before, what);
        float mh, mb, sh, sb;
        line_box(st, st->size, &mh, &mb);
        line_box(st, st->side_size, &sh, &sb);
        (void)sb;
        float y = 0;
        cv_textfmt hf = f;
        hf.justify = false;
        for (size_t r = 0; r < nmain || r < nside; r++) {
            float ym = y, ys = y;
            if (r < nmain) {
                cv_line *ls;
                size_t nl = cv_wrap(a, st, main_sp[r], main_n[r], &hf, main_w, main_pos[r], &ls,
                                   err);
                for (size_t k = 0; k < nl; k++, ym += mh)
                    put_line(a, it, &ls[k], 0, ym + mb);
            }
            if (r < nside) {
                cv_line *ls;
                size_t nl = cv_wrap(a, st, side_sp[r], side_n[r], &sf, side_w, side_pos[r], &ls,
                                   err);
                for (size_t k = 0; k < nl; k++)
                    put_line(a, it, &ls[k], width - ls[k].width, y + mb + k * sh);
                if (nl)
                    ys = y + mh + (nl - 1) * sh;
            }
            y = ym > ys ? ym : ys;
        }
        it->height = y;
        if (e->summary.s) {
            cv_span *sp;
            size_t n = parse_text(a, doc, e->summary.s, 0, &sp);
            add_para(a, vl, st, sp, n, &f, 0, width, NULL, 0, st->block_gap, e->summary.pos,
                     what, err);
        }
        if (e->nhighlights)
            add_highlights(a, vl, doc, st, e->highlights, e->nhighlights, 0, width, 0,
                           st->block_gap, what, err);
        /* The header travels with the first line of what follows. */
        if (vl->n > first + 1)
            vl->items[first].keep_with_next = true;
        break;
    }
    }
    /* Short entries are never split. */
    if (vl->n - first <= CV_KEEP_ENTRY_LINES)
        for (size_t i = first; i + 1 < vl->n; i++)
            vl->items[i].keep_with_next = true;
}

static float entry_gap(const cv_style *st, cv_entry_kind k)
{
    switch (k) {
    case CV_ENTRY_BULLET:
    case CV_ENTRY_NUMBERED:
    case CV_ENTRY_REVERSED:
        return st->bullet_gap;
    case CV_ENTRY_ONELINE:
        return st->bullet_gap * 2;
    case CV_ENTRY_TEXT:
        return st->entry_gap * 0.6f;
    default:
        return st->entry_gap;
    }
}

bool cv_compose(cv_arena *a, const cv_doc *doc, const cv_style *st, cv_vlist *out,
                cv_error *err)
{
    memset(out, 0, sizeof *out);
    float width = st->page_w - st->margin_left - st->margin_right;
    if (doc->photo.s)
        cv_warn(err, doc->photo.pos, "'photo' is not placed yet by cvpdf; it is ignored");
    add_header(a, out, doc, st, width, err);
    bool placed = false;
    for (size_t s = 0; s < doc->nsections; s++) {
        const cv_section *sec = &doc->sections[s];
        if (!sec->nentries)
            continue;
        size_t title = out->n;
        add_title(a, out, st, sec, width, title == 0, err);
        /* Below the header, the first title gets the header's gap. */
        if (!placed && title > 0)
            out->items[title].space_before = st->header_gap + st->title_space_before / 2;
        placed = true;
        for (size_t i = 0; i < sec->nentries; i++)
            add_entry(a, out, doc, st, sec, i, width,
                      i ? entry_gap(st, sec->kind) : st->title_space_after, err);
    }
    return !err->set;
}
