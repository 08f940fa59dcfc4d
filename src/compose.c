/* compose.c - a document and a style become vertical lists.  See compose.h.
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
 * paragraphs with the right indent.  Templates are expanded by
 * template.h.
 */
#include "compose.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>
#include <wctype.h>

#include "markup.h"
#include "photo.h"
#include "template.h"

/* ---- vertical list helpers ------------------------------------------- */

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


static cv_vitem *vl_add(cv_arena *a, cv_vlist *vl, float space_before, const char *what)
{
    cv_vitem it = {.space_before = space_before, .what = what, .nlines = 1, .section = -1,
                   .entry = -1};
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
    const cv_face *f = cv_fontset_face(st->eng->fonts, st->chain[0][0]);
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
    keep_block(vl, st, first, n);
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

/* ---- header ------------------------------------------------------------ */

static float align_dx(const cv_style *st, float width, float line_w)
{
    if (st->header_align == CV_ALIGN_CENTER)
        return (width - line_w) / 2;
    if (st->header_align == CV_ALIGN_RIGHT)
        return width - line_w;
    return 0;
}

/* The contact details as markup, each a link where it can be one. */
#define MAX_CONTACTS 64
static size_t contact_items(cv_arena *a, const cv_doc *doc, const char **items, cv_pos *pos)
{
    size_t ni = 0;
    if (doc->location.s)
        pos[ni] = doc->location.pos, items[ni++] = cv_markup_escape(a, doc->location.s);
    if (doc->email.s)
        pos[ni] = doc->email.pos,
        items[ni++] = cv_template_link(a, doc->email.s, cv_arena_printf(a, "mailto:%s", doc->email.s));
    if (doc->phone.s) {
        char *tel = cv_arena_strdup(a, doc->phone.s), *q = tel;
        for (const char *p = doc->phone.s; *p; p++)
            if (isdigit((unsigned char)*p) || (*p == '+' && q == tel))
                *q++ = *p;
        *q = 0;
        pos[ni] = doc->phone.pos,
        items[ni++] = cv_template_link(a, doc->phone.s, cv_arena_printf(a, "tel:%s", tel));
    }
    if (doc->website.s) {
        const char *shown = cv_template_url_shown(a, doc->website.s);
        pos[ni] = doc->website.pos, items[ni++] = cv_template_link(a, shown, doc->website.s);
    }
    for (size_t i = 0; i < doc->nsocials && ni < MAX_CONTACTS; i++) {
        const cv_social *s = &doc->socials[i];
        const char *shown = s->label ? s->label : s->username.s;
        pos[ni] = s->username.pos;
        /* "GitHub: feifeibear"; a network shown by name alone stays so. */
        const char *text = strcmp(shown, s->network.s)
                               ? cv_arena_printf(a, "%s: %s", s->network.s, shown)
                               : shown;
        items[ni++] = cv_template_link(a, text, s->url);
    }
    return ni;
}

/* The header: name, headline and (unless the sidebar has them) the contact
 * details, `width` wide from `dx`. */
static void add_header(cv_arena *a, cv_vlist *vl, const cv_doc *doc, const cv_style *st,
                       float dx, float width, bool contact, cv_error *err)
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
        it->keep = CV_KEEP_HEAD;
        put_line(a, it, &lines[i], dx + align_dx(st, width, lines[i].width), base);
    }

    /* Headline. */
    if (doc->headline.s) {
        cv_textfmt hf = {.size = st->headline_size, .color = st->muted_color,
                         .link_color = st->link_color};
        n = cv_template_text(a, doc, doc->headline.s, 0, &sp);
        nl = cv_wrap(a, st, sp, n, &hf, width, doc->headline.pos, &lines, err);
        line_box(st, st->headline_size, &h, &base);
        for (size_t i = 0; i < nl; i++) {
            cv_vitem *it = vl_add(a, vl, i ? 0 : 2, "the headline");
            it->height = h;
            it->keep = CV_KEEP_HEAD;
            put_line(a, it, &lines[i], dx + align_dx(st, width, lines[i].width), base);
        }
    }

    /* Contact line: items packed greedily, never split, each its own link. */
    const char *items[MAX_CONTACTS];
    cv_pos pos[MAX_CONTACTS];
    size_t ni = contact ? contact_items(a, doc, items, pos) : 0;
    cv_textfmt cf = {.size = st->contact_size, .color = st->text_color,
                     .link_color = st->text_color};
    cv_span *sep_sp;
    size_t nsep = cv_markup_parse(a, cv_markup_escape(a, st->contact_separator), 0, &sep_sp);
    float sep_w = ni ? cv_measure(a, st, sep_sp, nsep, &cf) : 0;
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
            it->keep = CV_KEEP_HEAD;
            put_line(a, it, &lines[k], dx + align_dx(st, width, lines[k].width), base);
            first_line = false;
        }
        i = j;
    }
    if (vl->n)
        vl->items[vl->n - 1].keep = CV_KEEP_NONE;
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
        it->keep = CV_KEEP_TITLE;
        it->is_header = true;
        put_line(a, it, &lines[i], 0, base);
        if (i + 1 == nl && st->title_rule) {
            const cv_face *f = cv_fontset_face(st->eng->fonts, st->chain[0][0]);
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
    /* Deep nesting in a narrow column must not squeeze the text to
     * nothing: indents stop where a measure of four ems would be left. */
    float least = 4 * st->size;
    float indent = width - st->bullet_text_indent >= least ? st->bullet_text_indent
                   : width > least                          ? width - least
                                                            : 0;
    float sub = width - st->sub_indent >= least ? st->sub_indent : 0;
    for (size_t i = 0; i < n; i++) {
        cv_span *sp;
        size_t nsp = cv_template_text(a, doc, hl[i].text.s, 0, &sp);
        add_para(a, vl, st, sp, nsp, &f, dx + indent, width - indent, bullet,
                 dx + (st->bullet_indent < indent ? st->bullet_indent : 0),
                 i ? st->bullet_gap : first_gap, hl[i].text.pos, what, err);
        if (hl[i].nsub)
            add_highlights(a, vl, doc, st, hl[i].sub, hl[i].nsub, dx + sub, width - sub,
                           depth + 1, st->bullet_gap, what, err);
    }
}

static void add_entry(cv_arena *a, cv_vlist *vl, const cv_doc *doc, const cv_style *st,
                      const cv_section *sec, size_t idx, float width, bool stack,
                      float space_before, cv_error *err)
{
    const cv_entry *e = &sec->entries[idx];
    const cv_template *tp = &st->tmpl[e->kind];
    const char *what = cv_arena_printf(a, "entry %zu of section '%s'", idx + 1, sec->title);
    size_t first = vl->n;
    cv_textfmt f = body_fmt(st);

    switch (e->kind) {
    case CV_ENTRY_TEXT:
    case CV_ENTRY_ONELINE: {
        /* Each template line a paragraph ("**LABEL**" over "DETAILS" in a
         * narrow column); the entry keep below holds short ones together. */
        size_t nm = tp->nmain ? tp->nmain : 1;
        for (size_t i = 0; i < nm; i++) {
            cv_span *sp;
            size_t n = cv_template_expand(a, tp->nmain ? tp->main[i] : "TEXT", e, doc, &sp);
            if (!n)
                continue;
            add_para(a, vl, st, sp, n, &f, 0, width, NULL, 0,
                     vl->n > first ? 0 : space_before, e->pos, what, err);
        }
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
        /* Stacked (a narrow column): the side lines go under the main ones. */
        if (stack)
            sf.link_color = st->side_color;
        for (size_t i = 0; i < tp->nside; i++) {
            side_n[nside] = cv_template_expand(a, tp->side[i], e, doc, &side_sp[nside]);
            if (!side_n[nside])
                continue;
            side_pos[nside] = cv_template_pos(tp->side[i], e);
            float w = cv_measure(a, st, side_sp[nside], side_n[nside], &sf);
            if (w > side_w)
                side_w = w;
            nside++;
        }
        if (side_w > width * 0.4f)
            side_w = width * 0.4f;
        if (stack)
            side_w = width;
        float main_w = nside && !stack ? width - side_w - st->side_gap : width;
        cv_span *main_sp[CV_MAX_TMPL];
        size_t main_n[CV_MAX_TMPL], nmain = 0;
        for (size_t i = 0; i < tp->nmain; i++) {
            main_n[nmain] = cv_template_expand(a, tp->main[i], e, doc, &main_sp[nmain]);
            if (main_n[nmain])
                main_pos[nmain++] = cv_template_pos(tp->main[i], e);
        }
        /* One item holds the whole header: rows of main and side lines
         * sharing a baseline grid. */
        cv_vitem *it = vl_add(a, vl, space_before, what);
        float mh, mb, sh, sb;
        line_box(st, st->size, &mh, &mb);
        line_box(st, st->side_size, &sh, &sb);
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
            if (r < nside && !stack) {
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
        if (stack)
            for (size_t r = 0; r < nside; r++) {
                cv_line *ls;
                size_t nl = cv_wrap(a, st, side_sp[r], side_n[r], &sf, width, side_pos[r], &ls,
                                   err);
                for (size_t k = 0; k < nl; k++, y += sh)
                    put_line(a, it, &ls[k], 0, y + sb);
            }
        it->height = y;
        it->is_header = true;
        it->nlines = (unsigned short)(y / mh + 0.5f);
        if (e->summary.s) {
            cv_span *sp;
            size_t n = cv_template_text(a, doc, e->summary.s, 0, &sp);
            add_para(a, vl, st, sp, n, &f, 0, width, NULL, 0, st->block_gap, e->summary.pos,
                     what, err);
        }
        if (e->nhighlights)
            add_highlights(a, vl, doc, st, e->highlights, e->nhighlights, 0, width, 0,
                           st->block_gap, what, err);
        /* The header travels with the first line of what follows. */
        if (vl->n > first + 1)
            keep_at(&vl->items[first], CV_KEEP_HEADER);
        break;
    }
    }
    /* Short entries are never split. */
    float lines = 0;
    for (size_t i = first; i < vl->n; i++)
        lines += vl->items[i].nlines;
    if (lines <= st->entry_lines)
        for (size_t i = first; i + 1 < vl->n; i++)
            keep_at(&vl->items[i], CV_KEEP_ENTRY);
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
 * section titles. */
#define SIDEBAR_MAX_STEP 1.45f
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
    o->title_space_before = (SIDEBAR_MAX_STEP - o->line_spacing) * st->size;
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

/* No baseline step in the list wider than SIDEBAR_MAX_STEP lines: take
 * space from above the items that would make one. */
static void tighten(cv_vlist *vl, const cv_style *st)
{
    float limit = SIDEBAR_MAX_STEP * st->size;
    for (size_t i = 1; i < vl->n; i++) {
        cv_vitem *prev = &vl->items[i - 1], *it = &vl->items[i];
        float pf, pl, f, l;
        item_baselines(prev, &pf, &pl);
        item_baselines(it, &f, &l);
        if (!prev->npieces || !it->npieces)
            continue;             /* the photo: the text starts below it */
        float step = prev->height - pl + it->space_before + f;
        if (step > limit) {
            it->space_before -= step - limit;
            if (it->space_before < 0)
                it->space_before = 0;
        }
    }
}

/* The contact details as a block of the sidebar. */
static void add_contact_block(cv_arena *a, cv_vlist *vl, const cv_doc *doc,
                              const cv_style *st, float width, cv_error *err)
{
    const char *items[MAX_CONTACTS];
    cv_pos pos[MAX_CONTACTS];
    size_t ni = contact_items(a, doc, items, pos);
    if (!ni)
        return;
    cv_section sec = {.key = "contact", .title = st->contact_title, .pos = doc->name.pos};
    if (sec.title && *sec.title)
        add_title(a, vl, st, &sec, width, false, err);
    cv_textfmt cf = {.size = st->contact_size, .color = st->text_color,
                     .link_color = st->text_color};
    for (size_t i = 0; i < ni; i++) {
        cv_span *sp;
        size_t n = cv_markup_parse(a, items[i], 0, &sp);
        add_para(a, vl, st, sp, n, &cf, 0, width, NULL, 0,
                 i ? st->bullet_gap : st->title_space_after, pos[i], "the contact details",
                 err);
    }
}

/* A section title (from item `title`) travels with its first entry's
 * header and `title_lines` lines of the entry's content (or all of it). */
static void keep_title(cv_vlist *vl, const cv_style *st, size_t title)
{
    size_t k = title;
    while (k < vl->n && vl->items[k].entry < 0)
        k++;                       /* past the title's own lines */
    if (k == title)
        return;                    /* a title that set no line (key "" or " ") */
    float lines = 0;
    for (; k < vl->n && vl->items[k].entry == 0 && lines < st->title_lines; k++) {
        keep_at(&vl->items[k - 1], CV_KEEP_TITLE);
        if (!vl->items[k].is_header)
            lines += vl->items[k].nlines;
    }
}

/* The photo at the top of the sidebar, as wide as the layout says (at most
 * the column), centred. */
static void add_side_photo(cv_arena *a, cv_vlist *vl, const cv_style *st,
                           const cv_image *photo, float width)
{
    float w, h;
    cv_photo_size(st, photo, st->photo_w < width ? st->photo_w : width, &w, &h);
    cv_vitem *it = vl_add(a, vl, 0, "the photo");
    it->height = h;
    it->nlines = 0;
    it->keep = CV_KEEP_HEAD;
    it->is_header = true;
    cv_vimg im = {(width - w) / 2, 0, w, h, photo};
    CV_PUSH(a, it->imgs, it->nimgs, it->cimgs, im);
}

bool cv_compose(cv_arena *a, const cv_doc *doc, const cv_style *st, const cv_image *photo,
                cv_composed *out, cv_error *err)
{
    memset(out, 0, sizeof *out);
    out->doc = doc;
    float width = st->page_w - st->margin_left - st->margin_right;
    out->ncols = st->sidebar ? 2 : 1;
    out->col_w[CV_COL_MAIN] = width;
    if (st->sidebar) {
        float sw = st->sidebar_w, gap = st->sidebar_gap;
        if (sw > width * 0.6f)
            sw = width * 0.6f;
        out->col_w[CV_COL_SIDE] = sw;
        out->col_w[CV_COL_MAIN] = width - sw - gap;
        out->col_x[st->sidebar_left ? CV_COL_MAIN : CV_COL_SIDE] =
            st->sidebar_left ? sw + gap : width - sw;
    }
    cv_style side_st;
    sidebar_style(st, &side_st);
    bool side_contact = st->sidebar && st->sidebar_contact;
    bool side_photo = photo && st->sidebar && st->photo_where == CV_PHOTO_SIDEBAR;
    if (photo && !side_photo) {
        /* Beside the header: the header's text takes the rest of the width. */
        float w, h;
        cv_photo_size(st, photo, st->photo_w, &w, &h);
        bool left = st->photo_where == CV_PHOTO_LEFT;
        add_header(a, &out->head, doc, st, left ? w + st->photo_gap : 0,
                   width - w - st->photo_gap, !side_contact, err);
        if (!out->head.n)
            vl_add(a, &out->head, 0, "the photo");
        cv_vitem *it = &out->head.items[0];
        cv_vimg im = {left ? 0 : width - w, 0, w, h, photo};
        CV_PUSH(a, it->imgs, it->nimgs, it->cimgs, im);
        float hh = 0;
        for (size_t i = 0; i < out->head.n; i++)
            hh += out->head.items[i].space_before + out->head.items[i].height;
        if (hh < h)
            out->head.items[out->head.n - 1].height += h - hh;
    } else {
        add_header(a, &out->head, doc, st, 0, width, !side_contact, err);
    }
    out->head_gap = st->header_gap + st->title_space_before / 2;
    if (side_photo)
        add_side_photo(a, &out->col[CV_COL_SIDE], st, photo, out->col_w[CV_COL_SIDE]);
    if (side_contact)
        add_contact_block(a, &out->col[CV_COL_SIDE], doc, &side_st, out->col_w[CV_COL_SIDE],
                          err);
    check_names(doc->keep_together, doc->nkeep_together, doc, "keep_together", err);
    check_names(doc->break_before, doc->nbreak_before, doc, "page_break_before", err);
    for (size_t s = 0; s < doc->nsections; s++) {
        const cv_section *sec = &doc->sections[s];
        if (!sec->nentries)
            continue;
        int c = st->sidebar && named(&st->sidebar_sections, sec) ? CV_COL_SIDE : CV_COL_MAIN;
        const cv_style *cst = c == CV_COL_SIDE ? &side_st : st;
        cv_vlist *vl = &out->col[c];
        float w = out->col_w[c];
        size_t title = vl->n;
        add_title(a, vl, cst, sec, w, false, err);
        for (size_t i = 0; i < sec->nentries; i++) {
            size_t first = vl->n;
            add_entry(a, vl, doc, cst, sec, i, w, c == CV_COL_SIDE && st->sidebar_stack,
                      i ? entry_gap(st, sec->kind) : st->title_space_after, err);
            for (size_t k = first; k < vl->n; k++)
                vl->items[k].entry = (int)i;
        }
        keep_title(vl, st, title);
        for (size_t i = title; i < vl->n; i++) {
            vl->items[i].section = (int)s;
            vl->items[i].section_title = sec->title;
        }
        if (named(&st->keep_together, sec) || named_texts(doc->keep_together, doc->nkeep_together, sec))
            for (size_t i = title; i + 1 < vl->n; i++)
                keep_at(&vl->items[i], CV_KEEP_SECTION);
        if (title < vl->n &&       /* the section set something */
            (named(&st->break_before, sec) || named_texts(doc->break_before, doc->nbreak_before, sec)))
            vl->items[title].break_before = true;
    }
    if (st->sidebar && st->sidebar_single_block)
        tighten(&out->col[CV_COL_SIDE], &side_st);
    /* An item taller than a page (a publication with a 900-word title)
     * cannot be set whole: say so rather than let it run off the page. */
    float full = st->page_h - st->margin_top - st->margin_bottom;
    for (size_t c = 0; c < out->ncols; c++)
        for (size_t i = 0; i < out->col[c].n; i++)
            if (out->col[c].items[i].height > full + 0.01f)
                cv_warn(err, (cv_pos){doc->file, 0, 0}, "%s is taller than a page; it runs "
                        "past the foot of its page", out->col[c].items[i].what);
    return !err->set;
}
