/* wrap.c - from styled text to lines.  See wrap.h.
 *
 * Four passes over a paragraph:
 *
 *  1. Itemise.  Decode the spans' UTF-8 and give each code point a face:
 *     the first face of the style's fallback chain that has a glyph for it
 *     (libass's ass_font_get_index does the same walk).  Spaces keep the
 *     face of the text before them so runs stay long.  A character no face
 *     has is dropped with a warning naming it -- never an empty box.
 *  2. Shape.  Consecutive code points in one face are shaped together with
 *     HarfBuzz; each glyph gets libharu's truncated advance plus kerning.
 *  3. Break.  libunibreak classifies every position (UAX #14): spaces,
 *     hyphens and slashes in Latin text, and between Chinese/Japanese
 *     characters, with the kinsoku rules of the standard.  Lines are filled
 *     greedily: a line takes material until the next piece would cross the
 *     measure, then breaks at the last opportunity.  A piece longer than the
 *     whole measure is cut between characters, with a warning, so no line is
 *     ever overfull.
 *  4. Set.  Justified lines (all but the last of a paragraph and those
 *     ending in a forced break) share the slack between their spaces, or
 *     between all characters when a line has no spaces (CJK).  A line that
 *     would need more than 0.3 em extra per space (a space about twice its
 *     natural width) is left ragged: a loose line is worse than a short one.
 */
#include "wrap.h"

#include <math.h>
#include <string.h>

#include <linebreak.h>

typedef struct item {
    uint32_t cp;
    int face;
    bool synth;
    bool ctrl;               /* a line feed or other control: never drawn */
    float size;
    unsigned color;
    const char *link;
    int16_t w, kern;
    char brk;                /* libunibreak's verdict for after this item */
} item;

static size_t utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    unsigned c = s[0];
    size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (c >= 0x80 && (c < 0xC2 || c > 0xF4 || n > len)) {
        *cp = 0xFFFD;
        return 1;
    }
    uint32_t v = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = 0xFFFD;
            return i;
        }
        v = (v << 6) | (s[i] & 0x3F);
    }
    *cp = v;
    return n;
}

static bool is_space(uint32_t cp)
{
    return cp == ' ' || cp == 0xA0 || cp == 0x3000;
}

static float adv(const item *it)
{
    return (it->w + it->kern) * it->size / 1000.0f;
}

/* Passes 1 and 2. */
static size_t itemise(cv_arena *a, const cv_style *st, const cv_span *spans,
                      size_t nspans, const cv_textfmt *fmt, cv_pos pos,
                      item **out, cv_error *err)
{
    size_t cap = 0;
    for (size_t i = 0; i < nspans; i++)
        cap += spans[i].len;
    item *it = cv_arena_alloc(a, (cap + 1) * sizeof *it);
    size_t n = 0;
    int prev_face = -1;
    for (size_t si = 0; si < nspans; si++) {
        const cv_span *sp = &spans[si];
        unsigned style = (sp->style | fmt->style) & 3;
        const unsigned char *s = (const unsigned char *)sp->text;
        for (size_t k = 0; k < sp->len;) {
            uint32_t cp;
            k += utf8_decode(s + k, sp->len - k, &cp);
            item x = {.cp = cp, .size = fmt->size,
                      .color = sp->link ? fmt->link_color : fmt->color,
                      .link = sp->link, .face = -1};
            if (cp == '\t')
                x.cp = cp = ' ';
            if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x200B ||
                cp == 0xAD || cp == 0xFEFF) {
                x.ctrl = true;          /* line feeds break; others vanish */
                x.face = prev_face >= 0 ? prev_face : st->chain[style][0];
                it[n++] = x;
                continue;
            }
            if (cp > 0xFFFF) {
                cv_error_at(err, pos, "character U+%04X cannot be written to "
                            "the PDF (libharu handles only U+0000-U+FFFF)", cp);
                continue;
            }
            if (is_space(cp) && prev_face >= 0 &&
                cv_face_glyph(cv_fontset_face(st->fonts, prev_face), cp)) {
                x.face = prev_face;
                x.synth = n > 0 && it[n - 1].synth;
            } else {
                for (size_t c = 0; c < st->nchain; c++) {
                    int f = st->chain[style][c];
                    if (f >= 0 && cv_face_glyph(cv_fontset_face(st->fonts, f), cp)) {
                        x.face = f;
                        x.synth = st->synth[style][c];
                        break;
                    }
                }
            }
            if (x.face < 0) {
                char ch[5] = {0};
                memcpy(ch, s + k - (cp < 0x80 ? 1 : cp < 0x800 ? 2 : 3),
                       cp < 0x80 ? 1 : cp < 0x800 ? 2 : 3);
                cv_warn(err, pos, "no font has U+%04X '%s'; it is left out", cp, ch);
                continue;
            }
            prev_face = x.face;
            it[n++] = x;
        }
    }

    /* Shape each stretch of one face. */
    uint32_t *cps = cv_arena_alloc(a, (n + 1) * sizeof *cps);
    int16_t *w = cv_arena_alloc(a, (n + 1) * sizeof *w);
    int16_t *kern = cv_arena_alloc(a, (n + 1) * sizeof *kern);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && it[j].face == it[i].face && !it[j].ctrl)
            j++;
        if (j == i) {            /* a control item: no width */
            i++;
            continue;
        }
        for (size_t k = i; k < j; k++)
            cps[k - i] = it[k].cp;
        cv_face_shape(cv_fontset_face(st->fonts, it[i].face), cps, j - i, w, kern);
        for (size_t k = i; k < j; k++) {
            it[k].w = w[k - i];
            it[k].kern = (int16_t)(kern[k - i] + (k + 1 < j ? fmt->tracking : 0));
        }
        i = j;
    }
    *out = it;
    return n;
}

static void find_breaks(cv_arena *a, item *it, size_t n)
{
    if (n == 0)
        return;
    uint32_t *cps = cv_arena_alloc(a, n * sizeof *cps);
    char *brks = cv_arena_alloc(a, n);
    for (size_t i = 0; i < n; i++)
        cps[i] = it[i].cp;
    set_linebreaks_utf32(cps, n, NULL, brks);
    for (size_t i = 0; i < n; i++)
        it[i].brk = brks[i];
}

/* Pass 4 for one line [b, e): runs and link boxes. */
static cv_line set_line(cv_arena *a, const cv_fontset *fs, item *it, size_t b,
                        size_t e, float width, bool justify)
{
    cv_line ln = {0};
    /* Trailing spaces and controls hang outside the measure. */
    while (e > b && (is_space(it[e - 1].cp) || it[e - 1].ctrl))
        e--;
    float natural = 0;
    size_t nspaces = 0, nglyphs = 0;
    for (size_t i = b; i < e; i++) {
        if (it[i].ctrl)
            continue;
        natural += i + 1 < e ? adv(&it[i]) : it[i].w * it[i].size / 1000.0f;
        nspaces += it[i].cp == ' ';
        nglyphs++;
    }
    float extra_space = 0, extra_glyph = 0;
    if (justify && width > natural) {
        float slack = width - natural;
        if (nspaces && slack / nspaces <= 0.3f * it[b].size)
            extra_space = slack / nspaces;
        else if (!nspaces && nglyphs > 1 && slack / (nglyphs - 1) <= 0.25f * it[b].size)
            extra_glyph = slack / (nglyphs - 1);
    }

    size_t cap_runs = 4, cap_links = 0;
    ln.runs = cv_arena_alloc(a, cap_runs * sizeof *ln.runs);
    float x = 0;
    cv_run *run = NULL;
    cv_link *link = NULL;
    const char *cur_link = NULL;
    for (size_t i = b; i < e; i++) {
        item *g = &it[i];
        if (g->ctrl)
            continue;
        if (!run || run->face != g->face || run->size != g->size ||
            run->color != g->color || run->synth_bold != g->synth) {
            cv_run r = {.x = x, .y = 0, .face = g->face, .synth_bold = g->synth,
                        .size = g->size, .color = g->color};
            r.g = cv_arena_alloc(a, (e - i) * sizeof *r.g);
            CV_PUSH(a, ln.runs, ln.nruns, cap_runs, r);
            run = &ln.runs[ln.nruns - 1];
        }
        float adj = i + 1 < e ? g->kern : 0;
        if (g->cp == ' ')
            adj += extra_space * 1000.0f / g->size;
        if (extra_glyph > 0 && i + 1 < e)
            adj += extra_glyph * 1000.0f / g->size;
        run->g[run->n++] = (cv_gl){g->cp, g->w, adj};
        float step = (g->w + adj) * g->size / 1000.0f;
        run->width += step;

        /* Link boxes: one per stretch of the same target on this line. */
        if (g->link != cur_link || !g->link) {
            link = NULL;
            cur_link = g->link;
        }
        if (g->link) {
            if (!link) {
                cv_link l = {.x0 = x, .x1 = x, .y0 = -0.25f * g->size,
                             .y1 = 0.9f * g->size, .uri = g->link};
                CV_PUSH(a, ln.links, ln.nlinks, cap_links, l);
                link = &ln.links[ln.nlinks - 1];
            }
            link->x1 = x + g->w * g->size / 1000.0f;
        }
        x += step;
    }
    ln.width = x;
    (void)fs;
    return ln;
}

size_t cv_wrap(cv_arena *a, const cv_style *st, const cv_span *spans, size_t nspans,
               const cv_textfmt *fmt, float width, cv_pos pos, cv_line **out,
               cv_error *err)
{
    item *it;
    size_t n = itemise(a, st, spans, nspans, fmt, pos, &it, err);
    find_breaks(a, it, n);

    size_t nlines = 0, cap = 0;
    cv_line *lines = NULL;
    bool warned = false;
    size_t start = 0;
    while (start < n) {
        /* Spaces at the start of a line (after a break) are dropped. */
        while (start < n && is_space(it[start].cp))
            start++;
        if (start >= n)
            break;
        float x = 0;
        size_t end = n, last_brk = SIZE_MAX;
        bool forced = true;     /* the line ends the paragraph or at a forced break */
        for (size_t i = start; i < n; i++) {
            float w = it[i].w * it[i].size / 1000.0f;
            if (!is_space(it[i].cp) && !it[i].ctrl && i > start && x + w > width + 0.01f) {
                if (last_brk != SIZE_MAX) {
                    end = last_brk + 1;
                } else {
                    end = i;
                    if (!warned)
                        cv_warn(err, pos, "a word is wider than the %.0fpt "
                                "measure; it is broken between characters", width);
                    warned = true;
                }
                forced = false;
                break;
            }
            x += adv(&it[i]);
            if (it[i].brk == LINEBREAK_MUSTBREAK && i + 1 < n) {
                end = i + 1;
                break;
            }
            if (it[i].brk == LINEBREAK_ALLOWBREAK)
                last_brk = i;
        }
        cv_line ln = set_line(a, st->fonts, it, start, end, width,
                              fmt->justify && !forced);
        if (ln.nruns > 0 || end < n)
            CV_PUSH(a, lines, nlines, cap, ln);
        start = end;
    }
    *out = lines;
    return nlines;
}

float cv_measure(cv_arena *a, const cv_style *st, const cv_span *spans,
                 size_t nspans, const cv_textfmt *fmt)
{
    item *it;
    size_t n = itemise(a, st, spans, nspans, fmt, (cv_pos){0}, &it, NULL);
    while (n > 0 && (is_space(it[n - 1].cp) || it[n - 1].ctrl))
        n--;
    float x = 0;
    for (size_t i = 0; i < n; i++)
        if (!it[i].ctrl)
            x += i + 1 < n ? adv(&it[i]) : it[i].w * it[i].size / 1000.0f;
    return x;
}
