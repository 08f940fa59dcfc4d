/* compose.c - a document and a style become vertical lists.  See compose.h.
 *
 * Every entry is laid out the same way, whatever its type:
 *
 *     MAIN LINE 1 (template) ..................... SIDE LINE 1 (right-aligned)
 *     MAIN LINE 2 ................................ SIDE LINE 2
 *     (row by row: side line k beside main line k, as they wrap)
 *     summary paragraph, full measure
 *       •  highlight, hanging indent
 *            –  nested highlight
 *
 * The main and side lines come from the layout's per-type templates
 * (`**COMPANY**`, `DATE`, ...), so a layout restyles entries without code.
 * The side column is as wide as its widest line; the main column takes the
 * rest.  Bare strings, bullets, numbered and one-line entries are
 * paragraphs with the right indent.  Templates are expanded by
 * template.h.
 *
 * Memory: what is composed (items, lines, glyphs) goes into the caller's
 * arena; an entry's text before it is set (expanded templates, parsed
 * markup, an author list of 60 names) into a scratch arena emptied after
 * each entry.  Lines keep no pointer into their spans but their links'
 * targets, which set() copies into the caller's arena.
 */
#include "compose.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "cjk.h"
#include "ctx.h"
#include "icons.h"
#include "markup.h"
#include "photo.h"
#include "quotes.h"
#include "phone.h"
#include "template.h"
#include "unicode.h"

const char *cv_keep_rule(cv_keep k)
{
    static const char *const rules[CV_NKEEPS] = {
        [CV_KEEP_NONE] = "no rule",
        [CV_KEEP_SECTION] = "keep_together: the section stays on one page",
        [CV_KEEP_ENTRY] = "a short entry is never split",
        [CV_KEEP_LINES] = "widows and orphans: a paragraph keeps two lines on each side",
        [CV_KEEP_HEADER] = "an entry's header stays with its first line",
        [CV_KEEP_TITLE] = "a section title stays with its first entry",
        [CV_KEEP_HEAD] = "the header is not split",
    };
    return k < CV_NKEEPS ? rules[k] : "?";
}

/* What every step of composing needs. */
typedef struct cx {
    cv_arena *a;             /* the composed lists: the caller's arena */
    cv_arena *tmp;           /* text before it is set: emptied after each entry */
    cv_setcache *sc;         /* the profile's paragraphs and text, kept (wrap.h); or NULL */
    const cv_doc *doc;
    cv_error *err;
    unsigned short block;    /* paragraphs begun in the current entry or title */
    unsigned short line;     /* lines of the current paragraph */
    /* The logical structure (tags.h): the node the next lines belong to,
     * and the containers being filled. */
    cv_tags *tags;
    int tag;                 /* the node put_line() gives a line */
    int head, side;          /* the header; the sidebar (0: none) */
    int parent;              /* where the next section goes */
    int cont;                /* the section being set */
    int list;                /* its list (bullet, numbered, publication entries) */
    int entry;               /* the entry being set: what holds its parts */
    int lbl;                 /* its list item's label (bullet, number entries) */
    int *sec_tag0, *sec_tag1;   /* the nodes each section made: [tag0, tag1) */
    /* Links: underlined (links.underline) and with an external-link icon
     * after them (links.external_icon), except while `plain` (the
     * connections, which RenderCV leaves bare). */
    bool ul, icon, plain, unlinked;
    unsigned ul_color;
    float sec_dw;            /* the section's degree column (degree_col()) */
    cv_quotes quotes;        /* the language's quotes at a paragraph's start */
    bool have_quotes;        /* quotes is made */
} cx;

/* A paragraph (a header, a title) begins: its items are numbered from 0. */
static void begin_block(cx *c)
{
    c->block++;
    c->line = 0;
}

/* A new structure node of `type` under `parent` (tags.h). */
static int tag(cx *c, int parent, const char *type)
{
    return cv_tags_add(c->a, c->tags, parent, type);
}

/* "Photo of NAME" in the profile's language, where we know its words
 * (the language's primary subtag); English otherwise. */
static const char *photo_of(cv_arena *a, const char *lang, const char *name)
{
    static const struct {
        const char *lang, *before, *after;
    } words[] = {
        {"de", "Foto von ", ""},   {"fr", "Photo de ", ""}, {"es", "Foto de ", ""},
        {"pt", "Foto de ", ""},    {"it", "Foto di ", ""},  {"nl", "Foto van ", ""},
        {"zh", "", "的照片"},      {"ja", "", "の写真"},    {"ko", "", "의 사진"},
        {"he", "תמונה של ", ""},   {"ar", "صورة ", ""},     {"fa", "عکس ", ""},
        {"hi", "", " की तस्वीर"},  {"ru", "Фото: ", ""},
    };
    size_t n = lang ? strcspn(lang, "-_") : 0;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (n == strlen(words[i].lang) && !strncmp(lang, words[i].lang, n))
            return cv_arena_printf(a, "%s%s%s", words[i].before, name, words[i].after);
    return cv_arena_printf(a, "Photo of %s", name);
}

/* A Figure for the photo: its alternate text is the profile's photo_alt,
 * or says it is a photo of the person ("Photo of Jiaao He"): the name
 * alone would repeat the H1 beside it. */
static int figure(cx *c, int parent)
{
    int f = tag(c, parent, "Figure");
    const cv_doc *doc = c->doc;
    c->tags->nodes[f].alt = cv_compose_photo_alt(c->a, doc);
    return f;
}

const char *cv_compose_photo_alt(cv_arena *a, const cv_doc *doc)
{
    if (doc->photo_alt.s)
        return doc->photo_alt.s;
    return photo_of(a, doc->locale.language, doc->name.s ? cv_markup_strip(a, doc->name.s) : "");
}

/* ---- vertical list helpers ------------------------------------------- */

static cv_vitem *vl_add(cx *c, cv_vlist *vl, float space_before, const char *what)
{
    cv_vitem it = {.space_before = space_before, .what = what, .nlines = 1, .section = -1,
                   .entry = -1, .block = c->block, .line = c->line++};
    CV_PUSH(c->a, vl->items, vl->n, vl->cap, it);
    return &vl->items[vl->n - 1];
}

static void put_line(cx *c, cv_vitem *it, const cv_line *ln, float dx, float dy)
{
    cv_piece p = {ln, dx, dy, c->tag};
    CV_PUSH(c->a, it->pieces, it->npieces, it->cpieces, p);
    /* links.underline: a rule under each link, a tenth of an em below the
     * baseline, a twentieth of an em thick. */
    for (size_t k = 0; c->ul && !c->plain && k < ln->nlinks; k++) {
        float size = ln->nruns ? ln->runs[0].size : 10;
        float x1 = ln->links[k].x1;
        /* Not under the external-link icon, nor the thin space before it. */
        for (size_t r = 0; c->icon && r < ln->nruns; r++) {
            const cv_run *rn = &ln->runs[r];
            float gx = rn->x;
            for (size_t g = 0; g < rn->n; g++) {
                if ((rn->g[g].cp == 0x2009 || rn->g[g].cp == 0xF08E) &&
                    gx >= ln->links[k].x0 - 0.01f && gx < x1)
                    x1 = gx;
                gx += (rn->g[g].w + rn->g[g].adj) * rn->size / 1000.0f;
            }
        }
        cv_vrule r = {dx + ln->links[k].x0, dx + x1, dy + 0.1f * size, 0.05f * size,
                      c->ul_color};
        CV_PUSH(c->a, it->rules, it->nrules, it->crules, r);
    }
}

/* Line box: height and baseline offset for text of `size`, from the
 * primary face's ascender and descender, leading split above and below;
 * the height is size x line_spacing, and with font.fit_ascenders never
 * less than the ascender plus the descender. */
static void line_box(const cv_ctx *pc, float size, float *height, float *baseline)
{
    const cv_style *st = pc->lay;
    const cv_face *f = cv_fontset_face(pc->eng->fonts, pc->chain[0][0]);
    float asc = f->ascender * size / 1000.0f, desc = -f->descender * size / 1000.0f;
    *height = size * st->line_spacing;
    if (st->fit_ascenders && *height < asc + desc)
        *height = asc + desc;
    *baseline = (*height - asc - desc) / 2 + asc;
}

static cv_textfmt body_fmt(const cv_style *st, const cv_doc *doc)
{
    return (cv_textfmt){.size = st->size, .color = st->text_color,
                        .link_color = st->link_color, .justify = st->justify,
                        .hyphenate = st->hyphenate, .greedy = st->greedy,
                        .hyphenation = doc->locale.hyphenation};
}

static void keep_at(cv_vitem *it, cv_keep k)
{
    if (it->keep < k)
        it->keep = (unsigned char)k;
}

/* A paragraph's n lines from `first`: a break after line k (1-based) needs
 * `orphans` lines above it and `widows` below. */
static void keep_block(cv_vlist *vl, const cv_style *st, size_t first, size_t n)
{
    for (size_t k = 1; k < n; k++)
        if ((float)k < st->orphans || (float)(n - k) < st->widows)
            keep_at(&vl->items[first + k - 1], CV_KEEP_LINES);
}

/* The spans with typographic quotes for the profile's language
 * (text.smart_quotes), as one paragraph; `sp` itself when off. */
static const cv_span *smart(cx *c, const cv_ctx *pc, const cv_span *sp, size_t n)
{
    const cv_style *st = pc->lay;
    if (!st->smart_quotes || !n)
        return sp;
    if (!c->have_quotes) {
        cv_quotes_init(&c->quotes, c->doc->locale.language);
        c->have_quotes = true;
    }
    const cv_span *q = cv_quotes_spans(c->tmp, c->quotes, sp, n);
    if (q == sp)
        return sp;
    /* An address keeps its quotes (markup.h): pat.o'brien@example.com. */
    for (size_t i = 0; i < n; i++)
        if (cv_markup_is_address(&sp[i]))
            ((cv_span *)q)[i] = sp[i];
    return q;
}

/* links.external_icon: after each link, a thin space and Fork Awesome's
 * external-link icon (U+F08E), both part of the link.  The connections
 * (c->plain) get none, and no links at all with header.contact_links:
 * false (c->unlinked). */
static const cv_span *link_icons(cx *c, const cv_span *sp, size_t *n)
{
    if (c->plain && c->unlinked) {
        cv_span *o = cv_arena_alloc(c->tmp, (*n ? *n : 1) * sizeof *o);
        for (size_t i = 0; i < *n; i++)
            o[i] = sp[i], o[i].link = NULL;
        return o;
    }
    if (!c->icon || c->plain)
        return sp;
    size_t links = 0;
    for (size_t i = 0; i < *n; i++)
        links += sp[i].link && (i + 1 == *n || sp[i + 1].link != sp[i].link);
    if (!links)
        return sp;
    cv_span *o = cv_arena_alloc(c->tmp, (*n + links) * sizeof *o);
    size_t k = 0;
    for (size_t i = 0; i < *n; i++) {
        o[k++] = sp[i];
        if (sp[i].link && (i + 1 == *n || sp[i + 1].link != sp[i].link))
            o[k++] = (cv_span){"\xE2\x80\x89\xEF\x82\x8E", 6, 0, sp[i].link};
    }
    *n = k;
    return o;
}

/* ---- text expanded once ------------------------------------------------ */

/* What is kept of a profile's text in its cache (wrap.h's slots), so that
 * a composition with other spacing expands nothing again. */
enum { KEEP_EXPAND = 1, KEEP_TEXT, KEEP_WHAT, KEEP_TITLE };

typedef struct kept {
    cv_span *sp;
    size_t n;
    const char *what, *actual;   /* a section title's (title_once()) */
    cv_pos pos;                  /* a template line's (expand_once()) */
} kept;

/* Spans copied into the cache's arena; adjacent spans of one link keep
 * sharing its target (set() and wrap.c tell links apart by pointer). */
static kept *keep_spans(cv_arena *a, const cv_span *sp, size_t n)
{
    kept *k = cv_arena_alloc(a, sizeof *k);
    k->n = n;
    k->sp = n ? cv_arena_alloc(a, n * sizeof *k->sp) : NULL;
    for (size_t i = 0; i < n; i++) {
        k->sp[i] = sp[i];
        k->sp[i].text = cv_arena_strndup(a, sp[i].text, sp[i].len);
        k->sp[i].link = NULL;
        for (size_t j = 0; sp[i].link && j < i && !k->sp[i].link; j++)
            if (sp[j].link == sp[i].link)
                k->sp[i].link = k->sp[j].link;
        if (sp[i].link && !k->sp[i].link)
            k->sp[i].link = cv_arena_strdup(a, sp[i].link);
    }
    return k;
}

/* cv_template_expand() of template line `tmpl` for entry `e`, and its
 * cv_template_pos() into *pos when pos is not NULL, once per profile: the
 * template and the entry live as long as the profile. */
static size_t expand_once(cx *c, const char *tmpl, const cv_entry *e, cv_span **sp,
                          cv_pos *pos)
{
    void **slot = cv_setcache_slot(c->sc, KEEP_EXPAND, tmpl, e);
    if (!slot || !*slot) {
        size_t n = cv_template_expand(c->tmp, tmpl, e, c->doc, sp);
        if (!slot) {
            if (pos)
                *pos = cv_template_pos(tmpl, e);
            return n;
        }
        kept *k = keep_spans(cv_setcache_arena(c->sc), *sp, n);
        k->pos = cv_template_pos(tmpl, e);
        *slot = k;
    }
    const kept *k = *slot;
    *sp = k->sp;
    if (pos)
        *pos = k->pos;
    return k->n;
}

/* cv_template_text() of the profile's text `s` (no base style), once per
 * profile. */
static size_t text_once(cx *c, const char *s, cv_span **sp)
{
    void **slot = cv_setcache_slot(c->sc, KEEP_TEXT, s, NULL);
    if (!slot || !*slot) {
        size_t n = cv_template_text(c->tmp, c->doc, s, 0, sp);
        if (!slot)
            return n;
        *slot = keep_spans(cv_setcache_arena(c->sc), *sp, n);
    }
    const kept *k = *slot;
    *sp = k->sp;
    return k->n;
}

/* A section title's spans (in capitals when `upper`), its "the title of
 * section '...'" and its words as written, once per profile: the section
 * lives as long as the profile. */
static const kept *title_once(cx *c, const cv_section *sec, bool upper)
{
    void **slot = cv_setcache_slot(c->sc, KEEP_TITLE, sec, upper ? sec : NULL);
    if (slot && *slot)
        return *slot;
    cv_arena *a = slot ? cv_setcache_arena(c->sc) : c->a;
    const char *t = cv_markup_escape(c->tmp, sec->title);
    if (upper)
        t = cv_upper(c->tmp, t, c->doc->locale.language);
    cv_span *sp;
    size_t n = cv_markup_parse(c->tmp, t, 0, &sp);
    kept *k = slot ? keep_spans(a, sp, n) : cv_arena_alloc(a, sizeof *k);
    if (!slot)
        k->sp = sp, k->n = n;
    k->what = cv_arena_printf(a, "the title of section '%s'", sec->title);
    k->actual = cv_markup_strip(a, cv_markup_escape(c->tmp, sec->title));
    if (slot)
        *slot = k;
    return k;
}

/* cv_measure of what set() sets. */
static float measure(cx *c, const cv_ctx *pc, const cv_span *sp, size_t n,
                     const cv_textfmt *fmt)
{
    sp = link_icons(c, smart(c, pc, sp, n), &n);
    return cv_measure_once(pc, sp, n, fmt);
}

/* Set spans (from either arena) into lines, through the profile's
 * paragraph cache (set once: shared lines, never changed here) or into the
 * caller's arena; their links point to copies of their targets that live
 * as long.  The external-link icon is drawn small (wrap.h). */
static size_t set(cx *c, const cv_ctx *pc, const cv_span *sp, size_t n,
                  const cv_textfmt *fmt, float width, cv_pos pos, cv_line **lines)
{
    sp = link_icons(c, smart(c, pc, sp, n), &n);
    cv_textfmt f = *fmt;
    f.link_icon = c->icon && !c->plain;
    return cv_wrap_once(c->a, pc, sp, n, &f, width, pos, lines, c->err);
}

/* Markup set on one line (a bullet, a number); NULL when it sets nothing. */
static cv_line *one_line(cx *c, const cv_ctx *pc, const char *markup,
                         const cv_textfmt *fmt, cv_pos pos)
{
    cv_span *sp;
    size_t n = cv_markup_parse(c->tmp, markup, 0, &sp);
    cv_line *lines;
    size_t nl = set(c, pc, sp, n, fmt, 1e6f, pos, &lines);
    return nl ? &lines[0] : NULL;
}

/* `l`'s copy, its runs too (the line may be the paragraph cache's). */
static cv_line *line_copy(cx *c, const cv_line *l)
{
    cv_line *m = cv_arena_alloc(c->a, sizeof *m);
    *m = *l;
    m->runs = cv_arena_alloc(c->a, l->nruns * sizeof *m->runs);
    memcpy(m->runs, l->runs, l->nruns * sizeof *m->runs);
    m->nlinks = 0;
    return m;
}

/* A bullet mark wider than BULLET_MAX ems (a "●" that the theme's face
 * lacks, from a fallback face: 0.87 em, nearly touching its text) is set
 * smaller, that wide, and raised to sit where the smaller mark's centre
 * would: a mark, as the theme draws it, not a disc.  A top-level mark of
 * its own size (bullets.size: RenderCV's "●", a 13pt "•") is set at that
 * size instead, and placed as Typst places a list marker: the tops of its
 * capitals level with those of the text's face (so a larger mark sits
 * lower), then raised by bullets.raise. */
#define BULLET_MAX 0.62f

static cv_line *bullet_line(cx *c, const cv_ctx *pc, const char *glyph, bool top,
                            const cv_textfmt *fmt, cv_pos pos)
{
    const cv_style *st = pc->lay;
    if (top && st->bullet_size > 0) {
        cv_textfmt mf = *fmt;
        mf.size = st->bullet_size;
        cv_line *l = one_line(c, pc, cv_markup_escape(c->tmp, glyph), &mf, pos);
        if (!l)
            return l;
        cv_line *m = line_copy(c, l);
        const cv_face *text = cv_fontset_face(pc->eng->fonts, pc->chain[0][0]);
        for (size_t r = 0; r < m->nruns; r++) {
            const cv_face *own = cv_fontset_face(pc->eng->fonts, m->runs[r].face);
            m->runs[r].y -= (own->cap_height * m->runs[r].size - text->cap_height * fmt->size) /
                            1000.0f - st->bullet_raise;
        }
        return m;
    }
    cv_line *l = one_line(c, pc, cv_markup_escape(c->tmp, glyph), fmt, pos);
    if (!l || (!(l->width > BULLET_MAX * fmt->size) && !(top && st->bullet_raise > 0)))
        return l;
    cv_line *m = line_copy(c, l);
    float k = l->width > BULLET_MAX * fmt->size ? BULLET_MAX * fmt->size / l->width : 1;
    for (size_t r = 0; r < m->nruns; r++) {
        m->runs[r].x *= k;
        m->runs[r].width *= k;
        m->runs[r].y += (1 - k) * m->runs[r].size * 0.33f;   /* a disc's centre */
        m->runs[r].size *= k;
        if (top)
            m->runs[r].y += st->bullet_raise;
    }
    m->width = l->width * k;
    return m;
}

/* Where a bullet's text starts, from its block's left edge: bullets.text_gap
 * after its mark `mark`, or at bullets.text_indent. */
static float text_start(const cv_style *st, const cv_line *mark)
{
    return st->bullet_text_gap >= 0 && mark ? st->bullet_indent + mark->width + st->bullet_text_gap
                                            : st->bullet_text_indent;
}

/* A paragraph: its text, where it goes, and what leads its first line. */
typedef struct para {
    const cv_span *sp;
    size_t nsp;
    const cv_textfmt *fmt;
    float dx, width;         /* the measure, from the column's left edge */
    const cv_line *lead;     /* a bullet or a number left of the first line, or NULL */
    float lead_dx;
    int lead_tag;            /* the lead's structure node (an Lbl); 0: the text's */
    float space_before;
    cv_pos pos;              /* for warnings about the text */
    const char *what;        /* "entry 3 of section 'Awards'" */
} para;

/* A paragraph: one item per line.  Returns the number of lines. */
static size_t add_para(cx *c, cv_vlist *vl, const cv_ctx *pc, const para *p)
{
    const cv_style *st = pc->lay;
    begin_block(c);
    cv_line *lines;
    size_t n = set(c, pc, p->sp, p->nsp, p->fmt, p->width, p->pos, &lines);
    float h, base;
    line_box(pc, p->fmt->size, &h, &base);
    size_t first = vl->n;
    for (size_t i = 0; i < n; i++) {
        cv_vitem *it = vl_add(c, vl, i ? 0 : p->space_before, p->what);
        it->height = h;
        put_line(c, it, &lines[i], p->dx, base);
        if (i == 0 && p->lead) {
            int text = c->tag;
            c->tag = p->lead_tag ? p->lead_tag : text;
            put_line(c, it, p->lead, p->lead_dx, base);
            c->tag = text;
        }
    }
    keep_block(vl, st, first, n);
    return n;
}

/* ---- header ------------------------------------------------------------ */

static float align_dx(const cv_style *st, float width, float line_w)
{
    if (st->header_align == CV_ALIGN_CENTER)
        return (width - line_w) / 2;
    if (st->header_align == CV_ALIGN_RIGHT)
        return width - line_w;
    return 0;
}

/* Lines of the header, aligned as the layout says in `width` from `dx`,
 * never split from what follows; the first `space` below what precedes. */
static void add_head_lines(cx *c, cv_vlist *vl, const cv_ctx *pc, const cv_line *lines,
                           size_t n, float dx, float width, float h, float base, float space,
                           const char *what)
{
    const cv_style *st = pc->lay;
    begin_block(c);
    for (size_t i = 0; i < n; i++) {
        cv_vitem *it = vl_add(c, vl, i ? 0 : space, what);
        it->height = h;
        it->keep = CV_KEEP_HEAD;
        put_line(c, it, &lines[i], dx + align_dx(st, width, lines[i].width), base);
    }
}

#define MAX_CONTACTS CV_MAX_CONTACTS
/* `text` (markup) after the connection's icon when the layout shows icons
 * (header.icons; the icon face must be in font.fallback). */
static const char *iconed(cv_arena *a, const cv_style *st, const char *what, const char *text)
{
    const char *icon = st->contact_icons ? cv_social_icon(what) : NULL;
    return icon ? cv_arena_printf(a, "%s\xC2\xA0%s", icon, text) : text;   /* no-break space */
}

/* The icon a custom connection names (`fontawesome_icon`), looked up in the
 * icon face of the layout's chain (icons.h), as UTF-8; an unknown name gets
 * the link icon and a warning naming it. */
static const char *custom_icon(cv_arena *a, const cv_ctx *pc, const cv_text *name,
                               cv_error *err)
{
    const char *link = cv_social_icon("link");
    cv_fontset *fs = pc->eng->fonts;
    int face = -1;
    for (size_t i = 0; i < pc->nchain && face < 0; i++) {
        const char *fam = cv_fontset_family(fs, pc->chain[0][i]);
        if (fam && !strcasecmp(fam, "forkawesome"))
            face = pc->chain[0][i];
    }
    if (!name->s || face < 0)
        return link;
    uint32_t cp = cv_icon_lookup(fs, face, name->s);
    if (!cp) {
        if (err)
            cv_warn(err, name->pos, "no icon named '%s' in Fork Awesome (Font Awesome 4.7's "
                    "icons and the Font Awesome 6 names cvpdf maps to them): the link icon "
                    "stands in", name->s);
        return link;
    }
    char *u = cv_arena_alloc(a, 5);
    u[cv_utf8_encode(cp, u)] = 0;
    return u;
}

size_t cv_compose_contacts(cv_arena *a, const cv_ctx *pc, const cv_doc *doc,
                           const char **items, cv_pos *pos, cv_error *err)
{
    const cv_style *st = pc->lay;
    size_t ni = 0;
    /* Every email, phone and website (doc.h keeps the first of each in
     * email, phone and website too: a profile made in code may set only
     * those). */
    const cv_text *emails = doc->nemails ? doc->emails : &doc->email;
    const cv_text *phones = doc->nphones ? doc->phones : &doc->phone;
    const cv_text *webs = doc->nwebsites ? doc->websites : &doc->website;
    size_t ne = doc->nemails ? doc->nemails : doc->email.s != NULL;
    size_t np = doc->nphones ? doc->nphones : doc->phone.s != NULL;
    size_t nw = doc->nwebsites ? doc->nwebsites : doc->website.s != NULL;
    /* In the order the cv writes them, as RenderCV (doc.h). */
    static const unsigned char own_order[] = {CV_CONTACT_LOCATION, CV_CONTACT_EMAIL,
                                              CV_CONTACT_PHONE, CV_CONTACT_WEBSITE,
                                              CV_CONTACT_CUSTOM, CV_CONTACT_SOCIAL};
    const unsigned char *order = doc->ncontact_order ? doc->contact_order : own_order;
    size_t norder = doc->ncontact_order ? doc->ncontact_order : 6;
    for (size_t o = 0; o < norder; o++) {
        switch (order[o]) {
        case CV_CONTACT_LOCATION:
            if (doc->location.s && ni < MAX_CONTACTS)
                pos[ni] = doc->location.pos,
                items[ni++] = iconed(a, st, "location", cv_markup_escape(a, doc->location.s));
            break;
        case CV_CONTACT_EMAIL:
            for (size_t i = 0; i < ne && ni < MAX_CONTACTS; i++)
                pos[ni] = emails[i].pos,
                items[ni++] = cv_template_link(a, iconed(a, st, "email", emails[i].s),
                                               cv_arena_printf(a, "mailto:%s", emails[i].s));
            break;
        case CV_CONTACT_PHONE:
            for (size_t i = 0; i < np && ni < MAX_CONTACTS; i++) {
                static const char *const formats[] = {NULL, "national", "international",
                                                      "E164"};
                const char *shown = cv_phone_format(a, phones[i].s, formats[st->phone_format]);
                char *tel = cv_arena_strdup(a, phones[i].s), *q = tel;
                for (const char *p = phones[i].s; *p; p++)
                    if (isdigit((unsigned char)*p) || (*p == '+' && q == tel))
                        *q++ = *p;
                *q = 0;
                pos[ni] = phones[i].pos,
                items[ni++] = cv_template_link(a, iconed(a, st, "phone", shown),
                                               cv_arena_printf(a, "tel:%s", tel));
            }
            break;
        case CV_CONTACT_WEBSITE:
            for (size_t i = 0; i < nw && ni < MAX_CONTACTS; i++) {
                const char *shown = cv_template_url_shown(a, webs[i].s);
                pos[ni] = webs[i].pos,
                items[ni++] = cv_template_link(a, iconed(a, st, "website", shown), webs[i].s);
            }
            break;
        case CV_CONTACT_CUSTOM:
            for (size_t i = 0; i < doc->nconnections && ni < MAX_CONTACTS; i++) {
                const struct cv_connection *k = &doc->connections[i];
                pos[ni] = k->text.pos;
                const char *text = k->url.s ? k->text.s : cv_markup_escape(a, k->text.s);
                if (st->contact_icons)
                    text = cv_arena_printf(a, "%s\xC2\xA0%s", custom_icon(a, pc, &k->icon, err),
                                           text);
                items[ni++] = k->url.s ? cv_template_link(a, text, k->url.s) : text;
            }
            break;
        case CV_CONTACT_SOCIAL:
            for (size_t i = 0; i < doc->nsocials && ni < MAX_CONTACTS; i++) {
                const cv_social *s = &doc->socials[i];
                const char *shown = s->label ? s->label : s->username.s;
                if (st->contact_urls)      /* "linkedin.com/in/ada", no network name */
                    shown = cv_template_url_shown(a, s->url);
                pos[ni] = s->username.pos;
                /* "GitHub: feifeibear"; a network shown by name alone stays
                 * so.  With icons, the icon names the network. */
                const char *icon = st->contact_icons ? cv_social_icon(s->network.s) : NULL;
                const char *text = icon ? cv_arena_printf(a, "%s\xC2\xA0%s", icon, shown)
                                   : st->contact_urls ? shown
                                   : strcmp(shown, s->network.s) && st->contact_network_names
                                       ? cv_arena_printf(a, "%s: %s", s->network.s, shown)
                                       : shown;
                items[ni++] = cv_template_link(a, text, s->url);
            }
            break;
        }
    }
    return ni;
}

/* `s` with its spaces made no-break spaces: a name is split between lines
 * only when it is wider than the line (wrap.h). */
static const char *unbroken(cv_arena *a, const char *s)
{
    size_t n = 0;
    for (const char *p = s; *p; p++)
        n += *p == ' ' ? 2 : 1;
    char *o = cv_arena_alloc(a, n + 1), *q = o;
    for (const char *p = s; *p; p++)
        if (*p == ' ')
            memcpy(q, "\xC2\xA0", 2), q += 2;
        else
            *q++ = *p;
    *q = 0;
    return o;
}

/* The name, with the native-script name beside it, and the headline. */
static void add_name(cx *c, cv_vlist *vl, const cv_ctx *pc, float dx, float width)
{
    const cv_style *st = pc->lay;
    const cv_doc *doc = c->doc;
    cv_textfmt nf = {.size = st->name_size, .color = st->name_color,
                     .link_color = st->name_color,
                     .style = st->name_bold ? CV_STYLE_BOLD : 0,
                     .small_caps = st->name_small_caps};
    cv_ctx name_buf, head_buf;
    const cv_ctx *body = pc;
    const cv_ctx *nst = cv_ctx_role(pc, CV_ROLE_NAME, &name_buf);
    const cv_ctx *hst = cv_ctx_role(pc, CV_ROLE_HEADLINE, &head_buf);
    cv_span *sp;
    size_t n;
    cv_line *lines;
    size_t nl;
    float h, base;
    if (doc->name.s) {           /* RenderCV lets a cv go without a name */
        const char *plain = cv_markup_strip(c->tmp, doc->name.s);
        const char *name = unbroken(c->tmp, cv_markup_escape(c->tmp, plain));
        if (doc->native_name.s && st->native_name_beside)
            name = cv_arena_printf(c->tmp, "%s\xE2\x80\x82%s", name,     /* en space */
                                   cv_markup_escape(c->tmp, doc->native_name.s));
        n = cv_markup_parse(c->tmp, name, 0, &sp);
        nl = set(c, nst, sp, n, &nf, width, doc->name.pos, &lines);
        line_box(body, st->name_size, &h, &base);
        c->tag = tag(c, c->head, "H1");
        add_head_lines(c, vl, pc, lines, nl, dx, width, st->name_size * 1.2f, base, 0,
                       "the name");
    }
    if (doc->headline.s) {
        cv_textfmt hf = {.size = st->headline_size, .color = st->muted_color,
                         .link_color = st->link_color,
                         .style = st->headline_bold ? CV_STYLE_BOLD : 0,
                         .small_caps = st->headline_small_caps};
        n = text_once(c, doc->headline.s, &sp);
        nl = set(c, hst, sp, n, &hf, width, doc->headline.pos, &lines);
        line_box(body, st->headline_size, &h, &base);
        c->tag = tag(c, c->head, "P");
        add_head_lines(c, vl, pc, lines, nl, dx, width, h, base,
                       st->name_gap >= 0 ? st->name_gap : 2, "the headline");
    }
}

/* header.contact_gap: the contact line's items set one by one, with the
 * separator (its own spaces trimmed) in the middle of a gap this wide
 * between them, RenderCV's space_between_connections. */
static void add_contact_spaced(cx *c, cv_vlist *vl, const cv_ctx *pc, const char **items,
                               const cv_pos *pos, size_t ni, const cv_textfmt *cf, float dx,
                               float width, float gap0)
{
    const cv_style *st = pc->lay;
    const char *sep = st->contact_separator ? st->contact_separator : "";
    while (*sep == ' ')
        sep++;
    size_t sn = strlen(sep);
    while (sn && sep[sn - 1] == ' ')
        sn--;
    cv_line *sl = sn ? one_line(c, pc, cv_markup_escape(c->tmp, cv_arena_strndup(c->tmp, sep,
                                                                                  sn)),
                                cf, pos[0])
                     : NULL;
    float sw = (sl ? sl->width : 0) + st->contact_gap;
    float h, base;
    line_box(pc, st->contact_size, &h, &base);
    begin_block(c);
    const cv_line *ln[MAX_CONTACTS];
    for (size_t i = 0; i < ni;) {
        float w = 0;
        size_t j = i;
        for (; j < ni; j++) {
            ln[j] = one_line(c, pc, items[j], cf, pos[j]);
            float iw = ln[j] ? ln[j]->width : 0;
            if (j > i && w + sw + iw > width)
                break;
            w += (j > i ? sw : 0) + iw;
        }
        cv_vitem *it = vl_add(c, vl, i ? 0 : gap0, "the contact line");
        it->height = h;
        it->keep = CV_KEEP_HEAD;
        float x = dx + align_dx(st, width, w);
        for (size_t k = i; k < j; k++) {
            if (k > i) {
                if (sl)
                    put_line(c, it, sl, x + st->contact_gap / 2, base);
                x += sw;
            }
            if (ln[k]) {
                put_line(c, it, ln[k], x, base);
                x += ln[k]->width;
            }
        }
        i = j;
    }
}

/* The contact line: items packed greedily, never split (their spaces are
 * no-break spaces: "GitHub: ada" moves whole), each its own link, with the
 * layout's separator between them. */
static void add_contact_line(cx *c, cv_vlist *vl, const cv_ctx *pc, float dx, float width)
{
    const cv_style *st = pc->lay;
    const char *items[MAX_CONTACTS];
    cv_pos pos[MAX_CONTACTS];
    size_t ni = cv_compose_contacts(c->tmp, pc, c->doc, items, pos, c->err);
    unsigned cc = st->contact_color <= 0xFFFFFF ? st->contact_color : st->text_color;
    cv_textfmt cf = {.size = st->contact_size, .color = cc, .link_color = cc,
                     .style = st->contact_bold ? CV_STYLE_BOLD : 0,
                     .small_caps = st->contact_small_caps};
    cv_ctx role_buf;
    const cv_ctx *body = pc;
    pc = cv_ctx_role(pc, CV_ROLE_CONTACT, &role_buf);
    c->plain = true;
    if (st->contact_gap >= 0 && ni) {
        c->tag = tag(c, c->head, "P");
        float below = c->doc->headline.s ? st->headline_gap : st->name_gap;
        add_contact_spaced(c, vl, pc, items, pos, ni, &cf, dx, width, below >= 0 ? below : 4);
        c->plain = false;
        return;
    }
    cv_span *sep_sp;
    size_t nsep = cv_markup_parse(c->tmp, cv_markup_escape(c->tmp, st->contact_separator), 0,
                                  &sep_sp);
    /* The separator's width with its trailing spaces, which cv_measure
     * leaves out at the end of a text: measured before an item's "x". */
    cv_span *x_sp;
    size_t nx = cv_markup_parse(c->tmp, "x", 0, &x_sp);
    cv_span *sepx = cv_arena_alloc(c->tmp, (nsep + 1) * sizeof *sepx);
    memcpy(sepx, sep_sp, nsep * sizeof *sepx);
    if (nx)
        sepx[nsep] = x_sp[0];
    float sep_w = ni && nx ? measure(c, pc, sepx, nsep + 1, &cf) -
                                 measure(c, pc, x_sp, nx, &cf)
                           : 0;
    float h, base;
    line_box(body, st->contact_size, &h, &base);
    c->tag = ni ? tag(c, c->head, "P") : 0;
    bool first_line = true;
    /* header.space_below_headline (or _name, without a headline). */
    float below = c->doc->headline.s ? st->headline_gap : st->name_gap;
    float gap0 = below >= 0 ? below : 4;
    for (size_t i = 0; i < ni;) {
        /* Take items while they fit. */
        float w = 0;
        size_t j = i;
        cv_span *all = NULL;
        size_t na = 0, ca = 0;
        for (; j < ni; j++) {
            cv_span *is;
            size_t nis = cv_markup_parse(c->tmp, items[j], 0, &is);
            for (size_t k = 0; k < nis; k++) {
                is[k].text = unbroken(c->tmp, is[k].text);
                is[k].len = strlen(is[k].text);
            }
            float iw = measure(c, pc, is, nis, &cf);
            if (j > i && w + sep_w + iw > width)
                break;
            if (j > i)
                for (size_t k = 0; k < nsep; k++)
                    CV_PUSH(c->tmp, all, na, ca, sep_sp[k]);
            for (size_t k = 0; k < nis; k++)
                CV_PUSH(c->tmp, all, na, ca, is[k]);
            w += (j > i ? sep_w : 0) + iw;
        }
        cv_line *lines;
        size_t nl = set(c, pc, all, na, &cf, width, pos[i], &lines);
        add_head_lines(c, vl, pc, lines, nl, dx, width, h, base, first_line ? gap0 : 0,
                       "the contact line");
        first_line = first_line && !nl;
        i = j;
    }
    c->plain = false;
}

/* The header: name, headline and (unless the sidebar has them) the contact
 * details, `width` wide from `dx`. */
static void add_header(cx *c, cv_vlist *vl, const cv_ctx *pc, float dx, float width,
                       bool contact)
{
    add_name(c, vl, pc, dx, width);
    if (contact)
        add_contact_line(c, vl, pc, dx, width);
    if (vl->n)
        vl->items[vl->n - 1].keep = CV_KEEP_NONE;
}

/* ---- sections and entries --------------------------------------------- */

/* entry.side_left with entry.side_width: the side column is on the left
 * and every entry's content starts this far right of the column's edge
 * (its side lines are drawn back in the gap); 0 otherwise. */
static float side_left_width(const cv_style *st, float width)
{
    if (!st->side_left || st->side_width <= 0)
        return 0;
    return (st->side_width < width * 0.5f ? st->side_width : width * 0.5f) + st->side_gap;
}

/* A title's rule leaves at least this much (ems) between the lowest ink
 * of its title and its top. */
#define RULE_CLEAR 0.05f

/* How far below its baseline the ink of a line reaches, in points (0 at
 * least): the glyphs' own extents, in each run's face -- the runs in faces
 * other than the first of pc's chain, in any style (the font the layout's
 * rule_gap was chosen for): other scripts' fallback faces. */
static float ink_depth(const cv_ctx *pc, const cv_line *ln)
{
    float deepest = 0;
    for (size_t r = 0; r < ln->nruns; r++) {
        const cv_run *rn = &ln->runs[r];
        bool own = false;
        for (int s = 0; s < 4; s++)
            own |= rn->face == pc->chain[s][0];
        if (own)
            continue;
        const cv_face *f = cv_fontset_face(pc->eng->fonts, rn->face);
        for (size_t k = 0; k < rn->n; k++) {
            int d;
            if (cv_cjk_ink_depth(f, cv_shape_glyph(pc->eng->shaper, rn->face, rn->g[k].cp), &d) &&
                d * rn->size / 1000.0f - rn->y > deepest)
                deepest = d * rn->size / 1000.0f - rn->y;
        }
    }
    return deepest;
}

static void add_title(cx *c, cv_vlist *vl, const cv_ctx *pc, const cv_section *sec,
                      float width)
{
    const cv_style *st = pc->lay;
    cv_textfmt tf = {.size = st->title_size, .color = st->title_color,
                     .link_color = st->title_color,
                     .style = st->title_bold ? CV_STYLE_BOLD : 0, .tracking = 0,
                     .small_caps = st->title_small_caps};
    if (st->title_uppercase)
        tf.tracking = 40;               /* letter-spaced capitals */
    const kept *k = title_once(c, sec, st->title_uppercase);
    cv_line *lines;
    cv_ctx title_buf;
    const cv_ctx *tst = cv_ctx_role(pc, CV_ROLE_TITLE, &title_buf);
    size_t nl = set(c, tst, k->sp, k->n, &tf, width, sec->pos, &lines);
    float h, base;
    line_box(pc, st->title_size, &h, &base);
    const char *what = k->what;
    const cv_face *f = cv_fontset_face(pc->eng->fonts, tst->chain[0][0]);   /* the title's */
    c->block = 0;
    begin_block(c);
    c->tag = tag(c, c->cont, "H2");
    /* Capitals (or small capitals) drawn: the words as written, for
     * readers of the structure (ISO 32000-1, 14.9.4). */
    if (st->title_uppercase || st->title_small_caps)
        c->tags->nodes[c->tag].actual = k->actual;
    for (size_t i = 0; i < nl; i++) {
        cv_vitem *it = vl_add(c, vl, i ? 0 : st->title_space_before, what);
        it->height = h;
        it->keep = CV_KEEP_TITLE;
        it->is_header = true;
        float lw = lines[i].width;
        float x = st->title_align == CV_ALIGN_CENTER  ? (width - lw) / 2
                  : st->title_align == CV_ALIGN_RIGHT ? width - lw
                                                      : 0;
        /* entry.side_left: the title starts where the entries' main
         * column does, and a rule beside it fills the side column
         * (moderncv). */
        float col = side_left_width(st, width);
        if (col > 0 && st->title_rule_beside && st->title_align == CV_ALIGN_LEFT)
            x = col;
        put_line(c, it, &lines[i], x, base);
        if (i + 1 == nl && st->title_rule && st->title_rule_beside && x == col && col > 0) {
            float dy = base - f->x_height * st->title_size / 1000.0f / 2;
            cv_vrule r = {0, col - st->side_gap, dy, st->rule_width, st->rule_color};
            CV_PUSH(c->a, it->rules, it->nrules, it->crules, r);
        } else if (i + 1 == nl && st->title_rule && st->title_rule_beside) {
            /* The rule runs on from the title to the measure's edge, at
             * half the x-height (RenderCV's partial line). */
            float gap = st->title_size * 0.4f;
            float dy = base - f->x_height * st->title_size / 1000.0f / 2;
            if (st->rule_baseline)          /* section_title.rule_baseline: on it */
                dy = base - st->rule_width / 2;
            float x0 = st->title_align == CV_ALIGN_LEFT ? x + lw + gap : 0;
            float x1 = st->title_align == CV_ALIGN_LEFT ? width : x - gap;
            if (st->title_align == CV_ALIGN_CENTER) {
                /* A centred title: a line on each side, 0.3em from it. */
                gap = st->title_size * 0.3f;
                x1 = x - gap;
                if (x1 > gap) {
                    cv_vrule r = {0, x1, dy, st->rule_width, st->rule_color};
                    CV_PUSH(c->a, it->rules, it->nrules, it->crules, r);
                }
                x0 = x + lw + gap, x1 = width;
            }
            if (x1 - x0 > gap) {
                cv_vrule r = {x0, x1, dy, st->rule_width, st->rule_color};
                CV_PUSH(c->a, it->rules, it->nrules, it->crules, r);
            }
        } else if (i + 1 == nl && st->title_rule) {
            float below = -f->descender * st->title_size / 1000.0f;
            float dy = base + st->rule_gap + st->rule_width / 2;
            if (dy < base + below * 0.6f)
                dy = base + below * 0.6f;
            /* Below the ink of the glyphs of other scripts' faces too
             * ("专利" sits lower than Latin, "ק" descends), by RULE_CLEAR. */
            float ink = ink_depth(tst, &lines[i]);
            float clear = base + ink + RULE_CLEAR * st->title_size + st->rule_width / 2;
            if (dy < clear)
                dy = clear;
            cv_vrule r = {0, width, dy, st->rule_width, st->rule_color};
            CV_PUSH(c->a, it->rules, it->nrules, it->crules, r);
            if (it->height < dy + st->rule_width)
                it->height = dy + st->rule_width;
        }
    }
}

static void add_highlights(cx *c, cv_vlist *vl, const cv_ctx *pc, const cv_highlight *hl,
                           size_t n, float dx, float width, int depth, float first_gap,
                           const char *what, int parent)
{
    const cv_style *st = pc->lay;
    /* A list: each highlight an LI of its bullet (Lbl) and text (LBody),
     * a nested list inside the LBody after the text's P. */
    int list = tag(c, parent, "L");
    cv_textfmt f = body_fmt(st, c->doc);
    cv_line *bullet = bullet_line(c, pc, depth ? st->sub_bullet : st->bullet, !depth, &f,
                                  depth ? st->sub_bullet_pos : st->bullet_pos);
    /* Deep nesting in a narrow column must not squeeze the text to
     * nothing: indents stop where a measure of four ems would be left. */
    float least = 4 * st->size;
    float start = text_start(st, bullet);
    float indent = width - start >= least ? start : width > least ? width - least : 0;
    float sub = width - st->sub_indent >= least ? st->sub_indent : 0;
    for (size_t i = 0; i < n; i++) {
        cv_span *sp;
        size_t nsp = text_once(c, hl[i].text.s, &sp);
        int li = tag(c, list, "LI"), lbl = tag(c, li, "Lbl"), body = tag(c, li, "LBody");
        c->tag = hl[i].nsub ? tag(c, body, "P") : body;
        add_para(c, vl, pc, &(para){.sp = sp, .nsp = nsp, .fmt = &f, .dx = dx + indent,
                                    .width = width - indent, .lead = bullet, .lead_tag = lbl,
                                    .lead_dx = dx + (st->bullet_indent < indent
                                                         ? st->bullet_indent : 0),
                                    .space_before = i ? st->bullet_gap : first_gap,
                                    .pos = hl[i].text.pos, .what = what});
        if (hl[i].nsub)
            add_highlights(c, vl, pc, hl[i].sub, hl[i].nsub, dx + sub, width - sub, depth + 1,
                           st->bullet_gap, what, body);
    }
}

/* An entry being composed. */
typedef struct entry {
    const cv_section *sec;
    size_t idx;                  /* in the section */
    const cv_entry *e;
    const cv_template *tp;       /* the layout's template for its kind */
    float width;
    bool stack;                  /* side lines under the main ones (a narrow column) */
    float space_before;
    const char *what;            /* "entry 3 of section 'Awards'" */
    float dw;                    /* its degree column, gap included; 0: none */
} entry;

/* The template's first main line, or TEXT. */
static size_t expand_first(cx *c, const entry *en, cv_span **sp)
{
    const char *tmpl = en->tp->nmain ? en->tp->main[0] : "TEXT";
    return expand_once(c, tmpl, en->e, sp, NULL);
}

/* The code point that ends the n bytes at s (0 if none). */
static uint32_t last_cp(const char *s, size_t n)
{
    if (!n)
        return 0;
    size_t b = cv_utf8_prev(s, n);
    uint32_t cp = 0;
    cv_utf8_decode(s + b, n - b, &cp);
    return cp;
}

/* A label's colon after Chinese or Japanese ("**LABEL:** DETAILS" with
 * LABEL 英语) is the full-width one, with no space after it -- "英语：",
 * as the zh layout's template writes it -- whatever the layout: the first
 * ASCII colon of the line, when a CJK character comes before it and a
 * space or nothing after it. */
void cv_compose_label_colon(cv_arena *a, cv_span **spp, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const cv_span *sp = *spp;
        const char *q = memchr(sp[i].text, ':', sp[i].len);
        if (!q)
            continue;
        size_t at = (size_t)(q - sp[i].text);
        uint32_t before = at ? last_cp(sp[i].text, at)
                             : i ? last_cp(sp[i - 1].text, sp[i - 1].len) : 0;
        bool end = at + 1 == sp[i].len;
        if (!cv_unicode_cjk(before) || (!end && q[1] != ' '))
            return;
        size_t rest = end ? 0 : sp[i].len - at - 2;     /* after ": " */
        char *t = cv_arena_alloc(a, at + 3 + rest + 1);
        memcpy(t, sp[i].text, at);
        memcpy(t + at, "\xEF\xBC\x9A", 3);           /* U+FF1A */
        memcpy(t + at + 3, q + 2 - end, rest);
        t[at + 3 + rest] = 0;
        /* The spans may be the profile's cache's (expand_once): a copy. */
        cv_span *cp = cv_arena_alloc(a, n * sizeof *cp);
        memcpy(cp, sp, n * sizeof *cp);
        cp[i].text = t;
        cp[i].len = at + 3 + rest;
        if (end && i + 1 < n && cp[i + 1].len && cp[i + 1].text[0] == ' ') {
            cp[i + 1].text++;                          /* the space in the next span */
            cp[i + 1].len--;
        }
        *spp = cp;
        return;
    }
}

/* A text or one-line entry: each template line a paragraph ("**LABEL**"
 * over "DETAILS" in a narrow column); the entry keep holds short ones
 * together, and the first line (a year, a label) stays with what follows
 * it as a header does. */
static void add_lines_entry(cx *c, cv_vlist *vl, const cv_ctx *pc, const entry *en)
{
    const cv_style *st = pc->lay;
    cv_textfmt f = body_fmt(st, c->doc);
    size_t first = vl->n;
    size_t nm = en->tp->nmain ? en->tp->nmain : 1;
    size_t head = 0;                 /* the first paragraph's last item, plus one */
    for (size_t i = 0; i < nm; i++) {
        if (!head && vl->n > first)
            head = vl->n;
        cv_span *sp;
        size_t n = expand_once(c, en->tp->nmain ? en->tp->main[i] : "TEXT", en->e, &sp, NULL);
        if (n && en->e->kind == CV_ENTRY_ONELINE)
            cv_compose_label_colon(c->tmp, &sp, n);
        if (n)
            add_para(c, vl, pc, &(para){.sp = sp, .nsp = n, .fmt = &f, .width = en->width,
                                        .space_before = vl->n > first ? 0 : en->space_before,
                                        .pos = en->e->pos, .what = en->what});
    }
    if (head && vl->n > head)
        keep_at(&vl->items[head - 1], CV_KEEP_HEADER);
}

static void add_bullet_entry(cx *c, cv_vlist *vl, const cv_ctx *pc, const entry *en)
{
    const cv_style *st = pc->lay;
    cv_textfmt f = body_fmt(st, c->doc);
    cv_span *sp;
    size_t n = expand_first(c, en, &sp);
    cv_line *bullet = bullet_line(c, pc, st->bullet, true, &f, st->bullet_pos);
    float start = text_start(st, bullet);
    add_para(c, vl, pc, &(para){.sp = sp, .nsp = n, .fmt = &f, .dx = start,
                                .width = en->width - start, .lead = bullet,
                                .lead_dx = st->bullet_indent, .lead_tag = c->lbl,
                                .space_before = en->space_before,
                                .pos = en->e->pos, .what = en->what});
}

/* Numbers right-aligned in a column wide enough for the largest. */
static void add_numbered_entry(cx *c, cv_vlist *vl, const cv_ctx *pc, const entry *en)
{
    const cv_style *st = pc->lay;
    cv_textfmt f = body_fmt(st, c->doc);
    size_t count = en->sec->nentries;
    size_t num = en->e->kind == CV_ENTRY_NUMBERED ? en->idx + 1 : count - en->idx;
    cv_line *lead = one_line(c, pc, cv_arena_printf(c->tmp, "%zu.", num), &f, en->e->pos);
    cv_line *widest = one_line(c, pc, cv_arena_printf(c->tmp, "%zu.", count), &f, en->e->pos);
    float col = widest ? widest->width : 0;
    float indent = col + st->size * 0.6f;
    if (indent < st->bullet_text_indent)
        indent = st->bullet_text_indent;
    cv_span *sp;
    size_t n = expand_first(c, en, &sp);
    add_para(c, vl, pc, &(para){.sp = sp, .nsp = n, .fmt = &f, .dx = indent,
                                .width = en->width - indent, .lead = lead,
                                .lead_tag = c->lbl,
                                .lead_dx = indent - st->size * 0.6f - (lead ? lead->width : 0),
                                .space_before = en->space_before, .pos = en->e->pos,
                                .what = en->what});
}

/* An entry's template lines, expanded; the empty ones left out. */
typedef struct tlines {
    cv_span *sp[CV_MAX_TMPL];
    size_t nsp[CV_MAX_TMPL];
    cv_pos pos[CV_MAX_TMPL];
    size_t n;
} tlines;

static void expand_lines(cx *c, const char *const *tmpl, size_t n, const cv_entry *e,
                         tlines *out)
{
    out->n = 0;
    for (size_t i = 0; i < n; i++) {
        out->nsp[out->n] = expand_once(c, tmpl[i], e, &out->sp[out->n], &out->pos[out->n]);
        if (out->nsp[out->n])
            out->n++;
    }
}

/* Where a side line `lw` wide goes in the side column [x0, x0 + cw]
 * (entry.side_align). */
static float side_x(const cv_style *st, float x0, float cw, float lw)
{
    return st->side_align == CV_ALIGN_LEFT     ? x0
           : st->side_align == CV_ALIGN_CENTER ? x0 + (cw - lw) / 2
                                               : x0 + cw - lw;
}

/* The degree column a section's entries need: entry.degree_width, widened
 * for a degree that does not fit (a word is never broken there:
 * "Promotion" takes what it needs, plus a gap of 0.1cm); 0 when the layout
 * has none.  Every entry of the section gets the same column, as in
 * RenderCV, where an entry without a degree has an empty one. */
static float degree_col(cx *c, const cv_ctx *pc, const cv_section *sec)
{
    const cv_style *st = pc->lay;
    float w = 0;
    cv_textfmt hf = body_fmt(st, c->doc);
    for (size_t i = 0; st->degree_width > 0 && i < sec->nentries; i++) {
        const cv_template *tp = &st->tmpl[sec->entries[i].kind];
        if (!tp->ndegree)
            continue;
        if (w < st->degree_width)
            w = st->degree_width;
        tlines deg;
        expand_lines(c, tp->degree, tp->ndegree, &sec->entries[i], &deg);
        for (size_t r = 0; r < deg.n; r++) {
            float lw = measure(c, pc, deg.sp[r], deg.nsp[r], &hf) + 2.835f;
            if (lw > w)
                w = lw;
        }
    }
    return w;
}

/* The degree column's lines, from the top of the entry's header item;
 * returns their height. */
static float put_degree(cx *c, cv_vitem *it, const cv_ctx *pc, const entry *en,
                        const cv_textfmt *hf, float mh, float mb)
{
    float dw = en->dw, y = 0;
    if (dw <= 0)
        return 0;
    tlines deg;
    expand_lines(c, en->tp->degree, en->tp->ndegree, en->e, &deg);
    cv_line *ls;
    for (size_t r = 0; r < deg.n; r++) {
        size_t nl = set(c, pc, deg.sp[r], deg.nsp[r], hf, dw, deg.pos[r], &ls);
        for (size_t k = 0; k < nl; k++, y += mh)
            put_line(c, it, &ls[k], 0, y + mb);
    }
    return y;
}

/* Does dates.show_time_spans_in name the section `key`?  As RenderCV, it
 * compares snake_case titles: case is ignored, a space is an underscore. */
static bool time_span_in(const cv_names *l, const char *key)
{
    for (size_t i = 0; i < l->n; i++) {
        const char *p = l->s[i], *q = key;
        for (; *p && *q; p++, q++) {
            char x = *p == ' ' ? '_' : (char)tolower((unsigned char)*p);
            char y = *q == ' ' ? '_' : (char)tolower((unsigned char)*q);
            if (x != y)
                break;
        }
        if (!*p && !*q)
            return true;
    }
    return false;
}

const char *cv_compose_time_span(cv_arena *a, const cv_style *st, const cv_doc *doc,
                                 const cv_section *sec, const cv_entry *e)
{
    if (!st->time_spans_in.n || e->date.kind || !time_span_in(&st->time_spans_in, sec->key))
        return NULL;
    return cv_date_time_span(a, st->time_span, &e->start_date, &e->end_date, doc->today,
                             &doc->locale);
}

/* An entry's header: one item of rows of main and side lines sharing a
 * baseline grid, row by row: the side column's k-th line sits beside the
 * main column's k-th line, however the main template lines wrap (a title
 * on two lines has the date beside its first and the place beside its
 * second).  The side column comes first: its width decides the main
 * column's. */
/* The header item vl->items[at], taller than a page (a publication with a
 * 900-word title), cut into an item a line, as a paragraph is set, with
 * the layout's orphans and widows: its main lines (and what goes with one:
 * a link's underline) sit on the line grid y = k * mh + their offset, so
 * item k takes what begins in row k, moved up to its top (the few side
 * lines, the dates beside or under the title, go with the rows they begin
 * in).
 * Whole, the header ran off the foot of its page, its text lost. */
static void split_tall_header(cx *c, cv_vlist *vl, const cv_style *st, size_t at, float mh)
{
    cv_vitem whole = vl->items[at];
    if (mh <= 0 || whole.height <= st->page_h - st->margin_top - st->margin_bottom + 0.01f)
        return;
    size_t rows = (size_t)(whole.height / mh + 0.5f);
    if (rows < 2)
        return;
    vl->n = at;                       /* the whole item is replaced */
    for (size_t j = 0; j < rows; j++) {
        float top = j * mh, bottom = j + 1 == rows ? whole.height + mh : top + mh;
        cv_vitem *it = vl_add(c, vl, j ? 0 : whole.space_before, whole.what);
        *it = (cv_vitem){.space_before = j ? 0 : whole.space_before, .what = whole.what,
                         .is_header = whole.is_header, .section = whole.section,
                         .entry = whole.entry, .section_title = whole.section_title,
                         .block = whole.block, .line = it->line, .wide = whole.wide,
                         .nlines = 1};
        for (size_t k = 0; k < whole.npieces; k++)
            if (whole.pieces[k].dy >= top && whole.pieces[k].dy < bottom) {
                cv_piece p = whole.pieces[k];
                p.dy -= top;
                CV_PUSH(c->a, it->pieces, it->npieces, it->cpieces, p);
            }
        for (size_t k = 0; k < whole.nrules; k++)
            if (whole.rules[k].dy >= top && whole.rules[k].dy < bottom) {
                cv_vrule r = whole.rules[k];
                r.dy -= top;
                CV_PUSH(c->a, it->rules, it->nrules, it->crules, r);
            }
        for (size_t k = 0; k < whole.nimgs; k++)
            if (whole.imgs[k].dy >= top && whole.imgs[k].dy < bottom) {
                cv_vimg m = whole.imgs[k];
                m.dy -= top;
                CV_PUSH(c->a, it->imgs, it->nimgs, it->cimgs, m);
            }
        it->height = j + 1 == rows ? whole.height - top : mh;
    }
    vl->items[vl->n - 1].keep = whole.keep;
    keep_block(vl, st, at, rows);
}

static float add_entry_header(cx *c, cv_vlist *vl, const cv_ctx *pc, const entry *en)
{
    const cv_style *st = pc->lay;
    cv_textfmt sf = {.size = st->side_size, .color = st->side_color,
                     .link_color = en->stack ? st->side_color : st->link_color};
    tlines side, mains;
    expand_lines(c, en->tp->side, en->tp->nside, en->e, &side);
    /* RenderCV's time span ("2 years 10 months") under the dates, in the
     * sections the layout's dates.show_time_spans_in names. */
    const char *ts = side.n < CV_MAX_TMPL
                         ? cv_compose_time_span(c->tmp, st, c->doc, en->sec, en->e)
                         : NULL;
    if (ts) {
        side.nsp[side.n] = cv_template_text(c->tmp, c->doc, cv_markup_escape(c->tmp, ts), 0,
                                            &side.sp[side.n]);
        side.pos[side.n++] = en->e->start_date.pos;
    }
    float side_w = 0, width = en->width;
    for (size_t r = 0; r < side.n; r++) {
        float w = measure(c, pc, side.sp[r], side.nsp[r], &sf);
        if (w > side_w)
            side_w = w;
    }
    if (side_w > width * 0.4f)
        side_w = width * 0.4f;
    bool beside = st->side_width > 0 && !en->stack && en->tp->nside;
    if (beside)
        side_w = st->side_width < width * 0.5f ? st->side_width : width * 0.5f;
    if (en->stack)
        side_w = width;
    bool left = beside && st->side_left;      /* the content is already shifted right */
    float main_w = left                               ? width
                   : (side.n || beside) && !en->stack ? width - side_w - st->side_gap
                                                      : width;
    float dw = en->dw;              /* the degree column, left of the main lines */
    main_w -= dw;
    expand_lines(c, en->tp->main, en->tp->nmain, en->e, &mains);

    begin_block(c);
    cv_vitem *it = vl_add(c, vl, en->space_before, en->what);
    float mh, mb, sh, sb, y = 0;
    line_box(pc, st->size, &mh, &mb);
    line_box(pc, st->side_size, &sh, &sb);
    cv_textfmt hf = body_fmt(st, c->doc);
    hf.justify = false;
    hf.hyphenate = false;            /* a title or a position is not hyphenated */
    cv_line *ls;
    /* The main lines (title, organisation) one paragraph, the side lines
     * (dates, location) another, both in the entry. */
    int tmain = tag(c, c->entry, "P"), tside = side.n ? tag(c, c->entry, "P") : 0;
    /* entry.side_width: the side column runs beside the whole entry (as
     * RenderCV's date and location column does); the header is as tall as
     * its main lines, and what the side column needs beyond them is
     * returned for the body to make room for. */
    if (beside) {
        float ym = 0, ys = 0;
        c->tag = tmain;
        float yd = put_degree(c, it, pc, en, &hf, mh, mb);
        for (size_t r = 0; r < mains.n; r++) {
            size_t nl = set(c, pc, mains.sp[r], mains.nsp[r], &hf, main_w, mains.pos[r], &ls);
            for (size_t k = 0; k < nl; k++, ym += mh)
                put_line(c, it, &ls[k], dw, ym + mb);
        }
        if (yd > ym)
            ym = yd;
        c->tag = tside;
        for (size_t r = 0; r < side.n; r++) {
            size_t nl = set(c, pc, side.sp[r], side.nsp[r], &sf, side_w, side.pos[r], &ls);
            for (size_t k = 0; k < nl; k++, ys += sh)
                put_line(c, it, &ls[k],
                         side_x(st, left ? -st->side_gap - side_w : width - side_w, side_w,
                                ls[k].width),
                         ys + mb);
        }
        if (ys > 0)
            ys += mh - sh;
        bool body = en->e->summary.s || en->e->nhighlights;
        it->height = body && ym > 0 ? ym : (ym > ys ? ym : ys);
        it->is_header = true;
        it->nlines = (unsigned short)(it->height / mh + 0.5f);
        float overhang = ys > it->height ? ys - it->height : 0;
        split_tall_header(c, vl, st, (size_t)(it - vl->items), mh);
        return overhang;
    }
    size_t nm = 0, ns = 0;           /* main and side lines set so far */
    c->tag = tmain;
    float yd = put_degree(c, it, pc, en, &hf, mh, mb);
    for (size_t r = 0; r < mains.n; r++) {
        size_t nl = set(c, pc, mains.sp[r], mains.nsp[r], &hf, main_w, mains.pos[r], &ls);
        for (size_t k = 0; k < nl; k++, nm++)
            put_line(c, it, &ls[k], dw, nm * mh + mb);
    }
    y = nm * mh > yd ? nm * mh : yd;
    c->tag = tside;
    for (size_t r = 0; r < side.n && !en->stack; r++) {
        size_t nl = set(c, pc, side.sp[r], side.nsp[r], &sf, side_w, side.pos[r], &ls);
        for (size_t k = 0; k < nl; k++, ns++) {
            /* Beside main line ns, or where it would be. */
            put_line(c, it, &ls[k], side_x(st, width - side_w, side_w, ls[k].width),
                     ns * mh + mb);
            if ((ns + 1) * mh > y)
                y = (ns + 1) * mh;
        }
    }
    for (size_t r = 0; en->stack && r < side.n; r++) {
        size_t nl = set(c, pc, side.sp[r], side.nsp[r], &sf, width, side.pos[r], &ls);
        c->tag = tside;
        for (size_t k = 0; k < nl; k++, y += sh)
            put_line(c, it, &ls[k], 0, y + sb);
    }
    it->height = y;
    it->is_header = true;
    it->nlines = (unsigned short)(y / mh + 0.5f);
    split_tall_header(c, vl, st, (size_t)(it - vl->items), mh);
    return 0;
}

/* An entry with a header (education, experience, publication, normal):
 * the header, the summary, the highlights. */
static void add_full_entry(cx *c, cv_vlist *vl, const cv_ctx *pc, const entry *en)
{
    const cv_style *st = pc->lay;
    float overhang = add_entry_header(c, vl, pc, en);
    size_t first = vl->n - 1;        /* the header, or the last item it was cut into */
    const cv_entry *e = en->e;
    /* Beside a side column (entry.side_width) the body is narrower. */
    float bw = en->width;
    if (st->side_width > 0 && !st->side_left && !en->stack && en->tp->nside)
        bw -= (st->side_width < en->width * 0.5f ? st->side_width : en->width * 0.5f) +
              st->side_gap;
    /* Under a degree column, the body starts where the main lines do. */
    float dw = en->dw;
    bw -= dw;
    if (e->summary.s) {
        cv_textfmt f = body_fmt(st, c->doc);
        cv_span *sp;
        size_t n = text_once(c, e->summary.s, &sp);
        c->tag = tag(c, c->entry, "P");
        /* entry.summary_indent, entry.summary_space_before (RenderCV's
         * entries.summary). */
        float in = st->summary_indent < bw * 0.5f ? st->summary_indent : 0;
        add_para(c, vl, pc, &(para){.sp = sp, .nsp = n, .fmt = &f, .dx = dw + in,
                                    .width = bw - in,
                                    .space_before = st->summary_gap >= 0 ? st->summary_gap
                                                                         : st->block_gap,
                                    .pos = e->summary.pos, .what = en->what});
    }
    if (e->nhighlights)
        add_highlights(c, vl, pc, e->highlights, e->nhighlights, dw, bw, 0, st->block_gap,
                       en->what, c->entry);
    /* Room for side lines longer than the header and body together. */
    float body = 0;
    for (size_t i = first + 1; i < vl->n; i++)
        body += vl->items[i].space_before + vl->items[i].height;
    if (overhang > body && vl->n > first + 1)
        vl->items[vl->n - 1].height += overhang - body;
    /* The header travels with the first line of what follows. */
    if (vl->n > first + 1)
        keep_at(&vl->items[first], CV_KEEP_HEADER);
}

/* The structure of entry `idx` of `sec` in the section c->cont: a P for a
 * text or one-line entry; an LI of a list for a bullet or a number (its
 * Lbl c->lbl, its text an LBody) or a publication (its LBody holding the
 * entry); an Entry (a Div) for the others.  c->entry is what holds the
 * entry's parts, c->tag the node of its text where it is one. */
static void entry_tags(cx *c, const cv_section *sec, size_t idx)
{
    cv_entry_kind k = sec->entries[idx].kind;
    bool listed = k == CV_ENTRY_BULLET || k == CV_ENTRY_NUMBERED || k == CV_ENTRY_REVERSED ||
                  k == CV_ENTRY_PUBLICATION;
    if (listed && (!idx || !c->list))
        c->list = tag(c, c->cont, "L");
    if (k == CV_ENTRY_TEXT || k == CV_ENTRY_ONELINE) {
        c->entry = c->tag = tag(c, c->cont, "P");
    } else if (k == CV_ENTRY_PUBLICATION) {
        c->entry = tag(c, tag(c, c->list, "LI"), "LBody");
    } else if (listed) {
        int li = tag(c, c->list, "LI");
        c->lbl = tag(c, li, "Lbl");
        c->entry = c->tag = tag(c, li, "LBody");
    } else {
        c->entry = tag(c, c->cont, "Entry");
    }
}

/* Entry `idx` of `sec`, its items marked with their entry; a short entry
 * is never split.  Its text's scratch memory is emptied after it. */
static void add_entry(cx *c, cv_vlist *vl, const cv_ctx *pc, const cv_section *sec,
                      size_t idx, float width, bool stack, float space_before)
{
    const cv_style *st = pc->lay;
    const cv_entry *e = &sec->entries[idx];
    /* entry.side_space: the entry inset on both sides. */
    float inset = st->side_space < width * 0.25f ? st->side_space : 0;
    float bx = (stack ? 0 : side_left_width(st, width)) + inset;
    /* "entry 3 of section 'Awards'", made once per profile (sec is the
     * document's) */
    void **what = cv_setcache_slot(c->sc, KEEP_WHAT, sec, e);
    if (what && !*what)
        *what = cv_arena_printf(cv_setcache_arena(c->sc), "entry %zu of section '%s'", idx + 1,
                                sec->title);
    entry en = {sec, idx, e, &st->tmpl[e->kind], width - bx - inset, stack, space_before,
                what ? *what
                     : cv_arena_printf(c->a, "entry %zu of section '%s'", idx + 1, sec->title),
                0};
    size_t first = vl->n;
    c->block = 0;
    if (!stack && en.tp->ndegree && st->degree_width > 0)   /* the degree column */
        en.dw = c->sec_dw < en.width * 0.3f ? c->sec_dw : en.width * 0.3f;
    entry_tags(c, sec, idx);
    switch (e->kind) {
    case CV_ENTRY_TEXT:
    case CV_ENTRY_ONELINE:
        add_lines_entry(c, vl, pc, &en);
        break;
    case CV_ENTRY_BULLET:
        add_bullet_entry(c, vl, pc, &en);
        break;
    case CV_ENTRY_NUMBERED:
    case CV_ENTRY_REVERSED:
        add_numbered_entry(c, vl, pc, &en);
        break;
    default:
        add_full_entry(c, vl, pc, &en);
        break;
    }
    float lines = 0;
    for (size_t i = first; i < vl->n; i++)
        lines += vl->items[i].nlines;
    if (lines <= st->entry_lines || st->keep_entries)   /* pagination.keep_entries */
        for (size_t i = first; i + 1 < vl->n; i++)
            keep_at(&vl->items[i], CV_KEEP_ENTRY);
    for (size_t i = first; i < vl->n; i++) {
        vl->items[i].entry = (int)idx;
        for (size_t k = 0; bx > 0 && k < vl->items[i].npieces; k++)
            vl->items[i].pieces[k].dx += bx;
        for (size_t k = 0; bx > 0 && k < vl->items[i].nrules; k++)
            vl->items[i].rules[k].x0 += bx, vl->items[i].rules[k].x1 += bx;
    }
    cv_arena_reset(c->tmp);
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
        return st->text_gap >= 0 ? st->text_gap : st->entry_gap * 0.6f;
    default:
        return st->entry_gap;
    }
}

/* Does a layout list of section names name this section? */
static bool named(const cv_names *l, const cv_section *sec)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcasecmp(l->s[i], sec->key) || !strcasecmp(l->s[i], sec->title))
            return true;
    return false;
}

static bool named_texts(const cv_text *t, size_t n, const cv_section *sec)
{
    for (size_t i = 0; i < n; i++)
        if (!strcasecmp(t[i].s, sec->key) || !strcasecmp(t[i].s, sec->title))
            return true;
    return false;
}

/* Warn about names in the profile's own lists that match no section (a
 * layout's lists are for every profile: they may name sections one lacks). */
static void check_names(const cv_text *t, size_t n, const cv_doc *doc, const char *what,
                        cv_error *err)
{
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        for (size_t s = 0; s < doc->nsections && !found; s++)
            found = !strcasecmp(t[i].s, doc->sections[s].key) ||
                    !strcasecmp(t[i].s, doc->sections[s].title);
        if (!found)
            cv_warn(err, t[i].pos, "%s: there is no section '%s'", what, t[i].s);
    }
}

/* The sidebar's style.  A narrow column is set ragged unless the layout
 * says otherwise.  With columns.sidebar.single_block (the default), all of
 * its text is one size on a baseline grid no coarser than 1.45 lines of
 * that size: poppler's pdftotext (TextOutputDev) then reads each page of
 * the sidebar as a single block, and it can never pair a sidebar line with
 * a main-column line that happens to share its baseline as a "table" and
 * interleave the columns.  Bold, colour, capitals and rules still mark the
 * section titles, and space above each: a baseline step of
 * SIDEBAR_TITLE_STEP lines, the most that still reads as one block. */
#define SIDEBAR_MAX_STEP 1.45f
/* Above a section title: two lines of the body size from the line before.
 * Measured: poppler's pdftotext starts a new block, and may then
 * interleave the columns, past some 2.3 lines; a blank line of a 1.4 grid
 * (2.8 lines) is too much. */
#define SIDEBAR_TITLE_STEP 2.0f
static void sidebar_style(const cv_style *st, cv_style *o)
{
    *o = *st;
    o->justify = st->sidebar_justify;
    if (!st->sidebar_single_block)
        return;
    o->title_size = o->contact_size = o->side_size = st->size;
    o->line_spacing = st->sidebar_line_spacing;
    if (o->line_spacing > SIDEBAR_MAX_STEP)
        o->line_spacing = SIDEBAR_MAX_STEP;
    o->title_space_after = o->block_gap = o->bullet_gap = o->entry_gap = 0;
    o->title_space_before = (SIDEBAR_TITLE_STEP - o->line_spacing) * st->size;
    o->rule_gap = 1;
}

/* Baselines of an item: of its first and last line, below its top. */
static void item_baselines(const cv_vitem *it, float *first, float *last)
{
    *first = 1e9f, *last = 0;
    for (size_t i = 0; i < it->npieces; i++) {
        if (it->pieces[i].dy < *first)
            *first = it->pieces[i].dy;
        if (it->pieces[i].dy > *last)
            *last = it->pieces[i].dy;
    }
}

/* No baseline step in the list wider than SIDEBAR_MAX_STEP lines, nor
 * SIDEBAR_TITLE_STEP above a section title's first line: take space from
 * above the items that would make one. */
static void tighten(cv_vlist *vl, const cv_style *st)
{
    for (size_t i = 1; i < vl->n; i++) {
        cv_vitem *prev = &vl->items[i - 1], *it = &vl->items[i];
        float pf, pl, f, l;
        item_baselines(prev, &pf, &pl);
        item_baselines(it, &f, &l);
        if (!prev->npieces || !it->npieces)
            continue;             /* the photo: the text starts below it */
        bool title = it->entry < 0 && it->section != prev->section;
        float limit = (title ? SIDEBAR_TITLE_STEP : SIDEBAR_MAX_STEP) * st->size;
        float step = prev->height - pl + it->space_before + f;
        if (step > limit) {
            it->space_before -= step - limit;
            if (it->space_before < 0)
                it->space_before = 0;
        }
    }
}

/* The contact details as a block of the sidebar. */
static void add_contact_block(cx *c, cv_vlist *vl, const cv_ctx *pc, float width)
{
    const cv_style *st = pc->lay;
    const char *items[MAX_CONTACTS];
    cv_pos pos[MAX_CONTACTS];
    size_t ni = cv_compose_contacts(c->tmp, pc, c->doc, items, pos, c->err);
    if (!ni)
        return;
    cv_section sec = {.key = "contact",
                      .title = cv_locale_layout_text(c->tmp, &c->doc->locale, st->contact_title),
                      .pos = c->doc->name.pos};
    c->cont = tag(c, c->side, "Sect");
    if (sec.title && *sec.title)
        add_title(c, vl, pc, &sec, width);
    cv_textfmt cf = {.size = st->contact_size, .color = st->text_color,
                     .link_color = st->text_color};
    c->plain = true;
    for (size_t i = 0; i < ni; i++) {
        cv_span *sp;
        size_t n = cv_markup_parse(c->tmp, items[i], 0, &sp);
        c->tag = tag(c, c->cont, "P");
        add_para(c, vl, pc, &(para){.sp = sp, .nsp = n, .fmt = &cf, .width = width,
                                    .space_before = i ? st->bullet_gap : st->title_space_after,
                                    .pos = pos[i], .what = "the contact details"});
    }
    c->plain = false;
}

/* A section title (from item `title`) travels with its first entry's
 * header and `title_lines` lines of the section's content, across entries
 * when the first is shorter ("SOCIAL SERVICES" and a one-line entry do
 * not end a page while the section goes on overleaf).  An entry header
 * counts as content when it is all its entry has. */
static void keep_title(cv_vlist *vl, const cv_style *st, size_t title)
{
    size_t k = title;
    while (k < vl->n && vl->items[k].entry < 0)
        k++;                       /* past the title's own lines */
    if (k == title)
        return;                    /* a title that set no line (key "" or " ") */
    float lines = 0;
    for (; k < vl->n && lines < st->title_lines; k++) {
        keep_at(&vl->items[k - 1], CV_KEEP_TITLE);
        const cv_vitem *it = &vl->items[k];
        if (!it->is_header || k + 1 == vl->n || vl->items[k + 1].entry != it->entry)
            lines += it->nlines;
    }
}

/* The end of a section (items after `title`) leaves no fewer than
 * `widows` lines at the head of a page, across entries: a one-line entry
 * ("Spoken: ...") never goes overleaf alone.  A section of SHORT_LIST
 * lines or fewer is not split. */
#define SHORT_LIST 4
static void keep_tail(cv_vlist *vl, const cv_style *st, size_t title)
{
    /* A short list (SHORT_LIST lines or fewer in all) is not split at all,
     * as a paragraph that short is not: never two of four talks overleaf. */
    float all = 0;
    for (size_t k = title + 1; k < vl->n; k++)
        all += vl->items[k].nlines;
    if (all <= SHORT_LIST) {
        for (size_t k = title + 1; k + 1 < vl->n; k++)
            keep_at(&vl->items[k], CV_KEEP_LINES);
        return;
    }
    float lines = 0;
    for (size_t k = vl->n; k > title + 1; k--) {
        lines += vl->items[k - 1].nlines;
        if (lines >= st->widows)
            return;
        if (vl->items[k - 2].entry >= 0)
            keep_at(&vl->items[k - 2], CV_KEEP_LINES);
    }
}

/* The photo at the top of the sidebar, as wide as the layout says (at most
 * the column), centred. */
static void add_side_photo(cx *c, cv_vlist *vl, const cv_ctx *pc, const cv_image *photo,
                           float width)
{
    const cv_style *st = pc->lay;
    float w, h;
    cv_photo_size(st, photo, st->photo_w < width ? st->photo_w : width, &w, &h);
    begin_block(c);
    cv_vitem *it = vl_add(c, vl, 0, "the photo");
    it->height = h;
    it->nlines = 0;
    it->keep = CV_KEEP_HEAD;
    it->is_header = true;
    cv_vimg im = {(width - w) / 2, 0, w, h, photo, figure(c, c->side)};
    CV_PUSH(c->a, it->imgs, it->nimgs, it->cimgs, im);
}

/* The header across page 1, with the photo beside it (unless it goes to
 * the sidebar): the header's text then takes the rest of the width. */
static void add_head(cx *c, cv_composed *out, const cv_ctx *pc, const cv_image *photo,
                     bool contact)
{
    const cv_style *st = pc->lay;
    float width = st->page_w - st->margin_left - st->margin_right;
    cv_vlist *vl = &out->head;
    out->head_gap = st->header_gap + st->title_space_before / 2;
    if (!photo) {
        add_header(c, vl, pc, 0, width, contact);
        return;
    }
    float w, h;
    cv_photo_size(st, photo, st->photo_w, &w, &h);
    bool left = st->photo_where == CV_PHOTO_LEFT;
    /* photo.space_left: room left of the photo (between the header's text
     * and a photo on the right). */
    float sl = st->photo_space_left < width * 0.25f ? st->photo_space_left : 0;
    add_header(c, vl, pc, left ? sl + w + st->photo_gap : 0, width - sl - w - st->photo_gap,
               contact);
    if (!vl->n)
        vl_add(c, vl, 0, "the photo");
    cv_vitem *it = &vl->items[0];
    cv_vimg im = {left ? sl : width - w, 0, w, h, photo, figure(c, c->head)};
    CV_PUSH(c->a, it->imgs, it->nimgs, it->cimgs, im);
    float hh = 0;
    for (size_t i = 0; i < vl->n; i++)
        hh += vl->items[i].space_before + vl->items[i].height;
    if (hh < h)
        vl->items[vl->n - 1].height += h - hh;
}

/* The columns' widths and places: the sidebar at most 60% of the measure. */
static void set_columns(cv_composed *out, const cv_style *st)
{
    float width = st->page_w - st->margin_left - st->margin_right;
    out->ncols = st->sidebar ? 2 : 1;
    out->col_w[CV_COL_MAIN] = width;
    if (!st->sidebar)
        return;
    float sw = st->sidebar_w, gap = st->sidebar_gap;
    if (sw > width * 0.6f)
        sw = width * 0.6f;
    out->col_w[CV_COL_SIDE] = sw;
    out->col_w[CV_COL_MAIN] = width - sw - gap;
    out->col_x[st->sidebar_left ? CV_COL_MAIN : CV_COL_SIDE] =
        st->sidebar_left ? sw + gap : width - sw;
}

/* Section s at the end of list vl, set in `cpc` (the sidebar's or `pc`):
 * its title, its entries, and the keep and break rules the layout and the
 * profile give it.  Gaps between entries and the title keep follow `st`. */
static void add_section(cx *c, cv_vlist *vl, const cv_ctx *pc, const cv_ctx *cpc,
                        size_t s, float width, bool stack)
{
    const cv_style *st = pc->lay;
    const cv_doc *doc = c->doc;
    const cv_section *sec = &doc->sections[s];
    size_t title = vl->n;
    c->sec_tag0[s] = (int)c->tags->n;
    c->cont = tag(c, c->parent, "Sect");
    c->list = 0;
    c->sec_dw = degree_col(c, cpc, sec);
    add_title(c, vl, cpc, sec, width);
    for (size_t i = 0; i < sec->nentries; i++)
        add_entry(c, vl, cpc, sec, i, width, stack,
                  i ? entry_gap(st, sec->kind) : st->title_space_after);
    c->sec_tag1[s] = (int)c->tags->n;
    keep_title(vl, st, title);
    keep_tail(vl, st, title);
    for (size_t i = title; i < vl->n; i++) {
        vl->items[i].section = (int)s;
        vl->items[i].section_title = sec->title;
    }
    if (st->keep_sections || named(&st->keep_together, sec) ||
        named_texts(doc->keep_together, doc->nkeep_together, sec))
        for (size_t i = title; i + 1 < vl->n; i++)
            keep_at(&vl->items[i], CV_KEEP_SECTION);
    if (title < vl->n &&       /* the section set something */
        (named(&st->break_before, sec) ||
         named_texts(doc->break_before, doc->nbreak_before, sec)))
        vl->items[title].break_before = true;
}

/* An item taller than a page (a publication with a 900-word title) cannot
 * be set whole: say so rather than let it run off the page. */
static void warn_tall(const cv_composed *out, const cv_style *st, cv_error *err)
{
    float full = st->page_h - st->margin_top - st->margin_bottom;
    for (size_t c = 0; c < out->ncols; c++)
        for (size_t i = 0; i < out->col[c].n; i++) {
            const cv_vitem *it = &out->col[c].items[i];
            if (it->height <= full + 0.01f)
                continue;
            /* At the entry (or section) in the profile, so that --strict's
             * error says where. */
            cv_pos at = {out->doc->file, 0, 0};
            const cv_doc *doc = out->doc;
            if (it->section >= 0 && (size_t)it->section < doc->nsections) {
                const cv_section *s = &doc->sections[it->section];
                at = it->entry >= 0 && (size_t)it->entry < s->nentries
                         ? s->entries[it->entry].pos : s->pos;
            }
            if (!at.file)
                at.file = out->doc->file;
            cv_warn(err, at, "%s is taller than a page; it runs past the foot of its page",
                    it->what);
        }
}

/* columns.sidebar.widen_main: from item b of the main column on, the main
 * sections are set again at the full width (quietly: their warnings were
 * given) and take the place of the narrow items; b = 0 (an empty sidebar):
 * all of them, from the first page. */
static void widen(cx *c, cv_composed *out, const cv_ctx *pc, size_t b)
{
    const cv_style *st = pc->lay;
    cv_vlist *main = &out->col[CV_COL_MAIN];
    const cv_vitem *at = &main->items[b];

    cv_error quiet;
    cv_error_init_silent(&quiet);
    /* The wide pass makes its structure nodes in a scratch tree, in the
     * order the narrow pass made them for the same section; its pieces then
     * name the narrow pass's nodes, so that the tree holds each section
     * once however its lines were set. */
    size_t nsec = c->doc->nsections;
    cx w = *c;
    w.err = &quiet;
    w.tags = cv_tags_new(c->a, NULL);
    w.sec_tag0 = cv_arena_alloc(c->a, (nsec + 1) * sizeof *w.sec_tag0);
    w.sec_tag1 = cv_arena_alloc(c->a, (nsec + 1) * sizeof *w.sec_tag1);
    cv_vlist wide = {0};
    float width = st->page_w - st->margin_left - st->margin_right;
    /* The sections before the one of item b are not set again: none of
     * their items is taken, and which nodes a section makes does not
     * depend on the width (each section's are renumbered alone). */
    for (size_t s = (size_t)at->section; s < nsec; s++)
        if (!cv_compose_in_sidebar(st, c->doc, s)) {
            add_section(&w, &wide, pc, pc, s, width, false);
            if (w.sec_tag1[s] - w.sec_tag0[s] != c->sec_tag1[s] - c->sec_tag0[s])
                return;            /* not the same structure: keep the narrow column */
        }
    size_t w0 = 0;
    while (w0 < wide.n && !(wide.items[w0].section == at->section &&
                            wide.items[w0].entry == at->entry &&
                            wide.items[w0].block == at->block && wide.items[w0].line == 0))
        w0++;
    if (w0 == wide.n)
        return;
    main->n = b;
    for (size_t i = w0; i < wide.n; i++) {
        cv_vitem it = wide.items[i];
        int s = it.section;
        for (size_t k = 0; k < it.npieces; k++)
            if (it.pieces[k].tag >= w.sec_tag0[s] && it.pieces[k].tag < w.sec_tag1[s])
                it.pieces[k].tag += c->sec_tag0[s] - w.sec_tag0[s];
        it.wide = true;
        it.break_before = (i == w0 && b > 0) || it.break_before;
        CV_PUSH(c->a, main->items, main->n, main->cap, it);
    }
}

/* The context of a composition of `doc` in `pc`, in arena a. */
static cx context(cv_arena *a, const cv_doc *doc, const cv_ctx *pc, cv_error *err)
{
    const cv_style *st = pc->lay;
    return (cx){.a = a, .tmp = cv_arena_new(), .sc = pc->sc, .doc = doc, .err = err,
                .ul = st->link_underline, .icon = st->link_icon, .ul_color = st->link_color,
                .unlinked = !st->contact_links};
}

bool cv_compose_in_sidebar(const cv_style *st, const cv_doc *doc, size_t s)
{
    if (!st->sidebar || !named(&st->sidebar_sections, &doc->sections[s]))
        return false;
    for (size_t k = 0; k < doc->nsections; k++)
        if (!named(&st->sidebar_sections, &doc->sections[k]))
            return true;           /* the main column has a section */
    return false;
}

bool cv_compose(cv_arena *a, const cv_doc *doc, const cv_ctx *pc, const cv_image *photo,
                cv_composed *out, cv_error *err)
{
    const cv_style *st = pc->lay;
    memset(out, 0, sizeof *out);
    out->doc = doc;
    cx c = context(a, doc, pc, err);
    /* The structure: the header, then the sidebar (read after the main
     * column when it stands right of it) and the sections. */
    c.tags = out->tags = cv_tags_new(a, doc->locale.language);
    c.head = tag(&c, CV_TAG_ROOT, "Header");
    if (st->sidebar) {
        c.side = tag(&c, CV_TAG_ROOT, "Sidebar");
        c.tags->nodes[c.side].last = !st->sidebar_left;
    }
    c.sec_tag0 = cv_arena_alloc(a, (doc->nsections + 1) * sizeof *c.sec_tag0);
    c.sec_tag1 = cv_arena_alloc(a, (doc->nsections + 1) * sizeof *c.sec_tag1);
    set_columns(out, st);
    cv_style side_st;
    sidebar_style(st, &side_st);
    cv_ctx side_buf;
    const cv_ctx *side_pc = cv_ctx_with(pc, &side_st, &side_buf);
    bool side_contact = st->sidebar && st->sidebar_contact;
    bool side_photo = photo && st->sidebar && st->photo_where == CV_PHOTO_SIDEBAR;
    cv_vlist *side = &out->col[CV_COL_SIDE];
    add_head(&c, out, pc, side_photo ? NULL : photo, !side_contact);
    if (side_photo)
        add_side_photo(&c, side, pc, photo, out->col_w[CV_COL_SIDE]);
    if (side_contact)
        add_contact_block(&c, side, side_pc, out->col_w[CV_COL_SIDE]);
    check_names(doc->keep_together, doc->nkeep_together, doc, "keep_together", err);
    check_names(doc->break_before, doc->nbreak_before, doc, "page_break_before", err);
    for (size_t s = 0; s < doc->nsections; s++) {
        bool in_side = cv_compose_in_sidebar(st, doc, s);
        int col = in_side ? CV_COL_SIDE : CV_COL_MAIN;
        c.parent = in_side ? c.side : CV_TAG_ROOT;
        add_section(&c, &out->col[col], pc, in_side ? side_pc : pc, s, out->col_w[col],
                    in_side && st->sidebar_stack);
    }
    if (st->sidebar && st->sidebar_single_block)
        tighten(side, &side_st);
    out->sec_tag0 = c.sec_tag0;
    out->sec_tag1 = c.sec_tag1;
    /* An empty sidebar (nothing the profile has goes there) widens the
     * main column from its first item (cv_compose_widen with b = 0). */
    out->widen = st->sidebar && st->sidebar_widen && out->col[CV_COL_MAIN].n;
    if (!out->widen)
        warn_tall(out, st, err);
    cv_arena_free(c.tmp);
    return !err->set;
}

bool cv_compose_widen(cv_arena *a, const cv_ctx *pc, cv_composed *out, size_t b,
                      cv_error *err)
{
    if (!out->widen)
        return !err->set;
    out->widen = false;
    if (b < out->col[CV_COL_MAIN].n && (b > 0 || !out->col[CV_COL_SIDE].n)) {
        cx c = context(a, out->doc, pc, err);
        c.tags = out->tags;
        c.sec_tag0 = out->sec_tag0;
        c.sec_tag1 = out->sec_tag1;
        widen(&c, out, pc, b);
        cv_arena_free(c.tmp);
    }
    warn_tall(out, pc->lay, err);
    return !err->set;
}
