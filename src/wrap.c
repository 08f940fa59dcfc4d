/* wrap.c - from styled text to lines.  See wrap.h.
 *
 * The passes over a paragraph:
 *
 *  1. Itemise.  Decode the spans' UTF-8 and give each code point a face:
 *     the first face of the style's fallback chain that has a glyph for it
 *     (libass's ass_font_get_index does the same walk).  Spaces take the
 *     chain's first face, so a space between Chinese and Latin words is a
 *     Latin space, not a wide CJK one.  A character no face has is dropped
 *     with a warning naming it -- never an empty box.
 *  2. Shape.  Consecutive code points in one face are shaped together with
 *     HarfBuzz; each glyph gets libharu's truncated advance plus kerning.
 *  3. Find where lines may end.  libunibreak classifies every position
 *     (UAX #14): after spaces, between Chinese and Japanese characters,
 *     after hyphens.  Then our own rules on top:
 *       - kinsoku: never before closing punctuation (，。）」 and ,.;:!?) ),
 *         never after opening punctuation (（「《 and ([{ );
 *       - URLs, e-mail addresses and DOIs break only after / . - @ _;
 *       - a piece wider than the whole measure may break between any two
 *         grapheme clusters, with a warning, so no line is ever overfull;
 *       - Latin words get hyphenation points from libhyphen (Debian's
 *         en-US patterns), never in capitalised words (names, acronyms),
 *         words with capitals inside, or URLs; a soft hyphen is one too.
 *  4. Choose the breaks (kp.c): Knuth-Plass total fit, as TeX does it --
 *     first without hyphenation at a strict tolerance, then with it, then
 *     accepting any line that is not overfull.  Or first fit, if the
 *     layout asks for greedy breaking.
 *  5. Set.  A justified line shares its slack among its spaces and the gaps
 *     between CJK characters, in proportion to their stretch (or takes it
 *     from their shrink); a line that would need more than twice the
 *     stretch is left ragged instead.  A hyphenated line gets its hyphen.
 */
#include "wrap.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hb.h>
#include <linebreak.h>

#include "hyph.h"
#include "kp.h"
#include "utf8.h"

/* Stretch and shrink of the glue, as fractions of a space or an em. */
#define SPACE_STRETCH 0.8f   /* of the space: Lato's space is narrow (0.19 em) */
#define SPACE_SHRINK 0.3f
#define CJK_STRETCH 0.12f    /* em, between two CJK characters */
#define RAGGED_STRETCH 6.0f  /* em at the end of every ragged line */
#define MAX_RATIO 2.0f       /* looser than this: set ragged */
#define RUNT 2.5f            /* em: a last line narrower than this is a runt */

/* Penalties for the kinds of break. */
#define PEN_HYPHEN 50.0f
#define PEN_URL 30.0f
#define PEN_EMERGENCY 1000.0f

#define HYPHEN_LEFT 2        /* letters before a hyphen, at least */
#define HYPHEN_RIGHT 3       /* after it */
#define HYPHEN_WORD 5        /* the shortest word hyphenated */

enum brk_kind {
    B_NONE,                  /* no break after this item */
    B_SPACE,                 /* the item is a space a line may end at */
    B_PLAIN,                 /* between CJK characters, after a dash or slash */
    B_DASH,                  /* after an explicit hyphen: counts as hyphenated */
    B_URL,                   /* inside a URL, e-mail or DOI */
    B_HYPH,                  /* hyphenation point: a hyphen is added */
    B_EMERGENCY,             /* inside a word wider than the measure */
    B_FORCED,                /* a line feed */
};

typedef struct item {
    uint32_t cp;
    int face;
    bool synth;
    bool ctrl;               /* a line feed or other control: never drawn */
    bool shy;                /* a soft hyphen (a control) */
    bool url;                /* part of a URL, e-mail address or DOI */
    bool compound;           /* the hyphen of a compound: a break only if it must */
    float size;
    unsigned color;
    const char *link;
    int16_t w, kern;
    char brk;                /* libunibreak's verdict for after this item */
    unsigned char kind;      /* enum brk_kind, after our rules */
    bool hyph;               /* a hyphenation point after this item */
    float stretch, shrink;   /* of the glue after this item (or of the space itself) */
} item;

typedef struct para {
    item *it;
    size_t n;
} para;

/* ---- Characters ---------------------------------------------------------- */

static bool is_lower(uint32_t c) { return c >= 'a' && c <= 'z'; }
static bool is_letter(uint32_t c) { return is_lower(c) || (c >= 'A' && c <= 'Z'); }

static bool is_space(uint32_t cp)
{
    return cp == ' ' || cp == 0xA0 || cp == 0x3000;
}

/* Han, kana, Hangul, CJK punctuation and full-width forms. */
static bool is_cjk(uint32_t cp)
{
    return (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF) ||
           (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
           (cp >= 0xFF00 && cp <= 0xFFEF);
}

static bool in_list(uint32_t cp, const uint32_t *list)
{
    for (; *list; list++)
        if (*list == cp)
            return true;
    return false;
}

/* No line begins with these (kinsoku shori). */
static bool is_closing(uint32_t cp)
{
    if (cp < 0x80)
        return cp == ',' || cp == '.' || cp == ';' || cp == ':' || cp == '!' || cp == '?' ||
               cp == ')' || cp == ']' || cp == '}';
    if (cp < 0x2000)
        return cp == 0xBB;
    static const uint32_t list[] = {
        0x2019, 0x201D, 0x2026,
        0x2025, 0x203A, 0x3001, 0x3002, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011,
        0x3015, 0x3017, 0x3019, 0x301B, 0x301E, 0x301F, 0x3005, 0x309D, 0x309E,
        0x30FC, 0x30FD, 0x30FE, 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063,
        0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096, 0x30A1, 0x30A3, 0x30A5,
        0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6,
        0xFF01, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF3D, 0xFF5D,
        0xFF60, 0xFF61, 0xFF63, 0xFF64, 0};
    return in_list(cp, list);
}

/* No line ends with these. */
static bool is_opening(uint32_t cp)
{
    if (cp < 0x80)
        return cp == '(' || cp == '[' || cp == '{';
    if (cp < 0x2000)
        return cp == 0xAB;
    static const uint32_t list[] = {
        0x2018, 0x201C, 0x2039, 0x3008, 0x300A, 0x300C,
        0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0x301D, 0xFF08, 0xFF3B,
        0xFF5B, 0xFF5F, 0xFF62, 0};
    return in_list(cp, list);
}

/* A break between a and b would split a grapheme cluster: b is a combining
 * mark, a variation selector or a zero-width joiner, or follows one. */
static bool joins(uint32_t a, uint32_t b)
{
    if (a == 0x200D || b == 0x200D)
        return true;
    hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
    hb_unicode_general_category_t c = hb_unicode_general_category(uf, b);
    return c == HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK ||
           c == HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK ||
           c == HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK;
}

/* Full-width punctuation drawn in the left half of its em (its blank is on
 * the right), and in the right half. */
static bool ink_left(uint32_t cp)
{
    if (cp < 0x2000)
        return false;
    static const uint32_t list[] = {0xFF0C, 0x3002, 0x3001, 0xFF09, 0x300D, 0x300F,
                                    0x300B, 0x3011, 0x3015, 0x3009, 0x3017, 0x2019,
                                    0x201D, 0};
    return in_list(cp, list);
}

static bool ink_right(uint32_t cp)
{
    if (cp < 0x2000)
        return false;
    static const uint32_t list[] = {0xFF08, 0x300C, 0x300E, 0x300A, 0x3010, 0x3014,
                                    0x3008, 0x3016, 0x2018, 0x201C, 0};
    return in_list(cp, list);
}

static float adv(const item *it)
{
    return (it->w + it->kern) * it->size / 1000.0f;
}

static float glyph_w(const item *it)
{
    return it->w * it->size / 1000.0f;
}

/* The advance of a hyphen in face `f`, thousandths of an em. */
static int16_t hyphen_w(const cv_style *st, int face)
{
    uint32_t cp = '-';
    int16_t w = 0, k = 0;
    if (cv_shape_glyph(st->eng->shaper, face, cp))
        cv_shape_run(st->eng->shaper, face, &cp, 1, &w, &k);
    return w;
}

/* ---- Passes 1 and 2: itemise and shape ----------------------------------- */

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
    cv_shaper *sh = st->eng->shaper;
    enum { MAX_MISSING = 16 };
    uint32_t missing[MAX_MISSING];
    size_t nmissing = 0, more = 0;
    for (size_t si = 0; si < nspans; si++) {
        const cv_span *sp = &spans[si];
        unsigned style = (sp->style | fmt->style) & 3;
        const unsigned char *s = (const unsigned char *)sp->text;
        for (size_t k = 0; k < sp->len;) {
            uint32_t cp;
            size_t len = cv_utf8_decode((const char *)s + k, sp->len - k, &cp);
            const unsigned char *ch_at = s + k;
            k += len;
            item x = {.cp = cp, .size = fmt->size,
                      .color = sp->link ? fmt->link_color : fmt->color,
                      .link = sp->link, .face = -1};
            if (cp == '\t')
                x.cp = cp = ' ';
            if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x200B ||
                cp == 0xAD || cp == 0xFEFF) {
                x.ctrl = true;          /* line feeds break; others vanish */
                x.shy = cp == 0xAD;
                x.face = prev_face >= 0 ? prev_face : st->chain[style][0];
                it[n++] = x;
                continue;
            }
            int first = st->chain[style][0];
            if (is_space(cp) && first >= 0 && cv_shape_glyph(sh, first, cp)) {
                x.face = first;
                x.synth = st->synth[style][0];
            } else if (is_space(cp) && prev_face >= 0 && cv_shape_glyph(sh, prev_face, cp)) {
                x.face = prev_face;
                x.synth = n > 0 && it[n - 1].synth;
            } else {
                for (size_t c = 0; c < st->nchain; c++) {
                    int f = st->chain[style][c];
                    if (f >= 0 && cv_shape_glyph(sh, f, cp)) {
                        x.face = f;
                        x.synth = st->synth[style][c];
                        break;
                    }
                }
            }
            if (x.face < 0) {
                /* One warning per character the text lacks, not per
                 * occurrence: 20,000 Thai letters are a few dozen. */
                bool seen = false;
                for (size_t m = 0; m < nmissing && !seen; m++)
                    seen = missing[m] == cp;
                if (!seen && nmissing < MAX_MISSING) {
                    char ch[5] = {0};
                    memcpy(ch, ch_at, len < 4 ? len : 4);
                    cv_warn(err, pos, "no font has U+%04X '%s'", cp, ch);
                    missing[nmissing++] = cp;
                } else if (!seen) {
                    more++;
                }
                continue;
            }
            prev_face = x.face;
            it[n++] = x;
        }
    }

    if (more)
        cv_warn(err, pos, "no font has %zu more character%s of this text either", more,
                more == 1 ? "" : "s");

    /* Quotes, dashes and dots that Chinese and Latin share follow the
     * text around them: beside a CJK character they come from its face
     * (full-width “ ” in Chinese), elsewhere from the Latin one. */
    for (size_t i = 0; i < n; i++) {
        uint32_t c = it[i].cp;
        if (!(c == 0x2018 || c == 0x2019 || c == 0x201C || c == 0x201D || c == 0x2014 ||
              c == 0x2026 || c == 0xB7))
            continue;
        const item *nb = i > 0 && is_cjk(it[i - 1].cp)       ? &it[i - 1]
                         : i + 1 < n && is_cjk(it[i + 1].cp) ? &it[i + 1]
                                                              : NULL;
        if (nb && nb->face != it[i].face && cv_shape_glyph(sh, nb->face, c)) {
            it[i].face = nb->face;
            it[i].synth = nb->synth;
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
        cv_shape_run(sh, it[i].face, cps, j - i, w, kern);
        for (size_t k = i; k < j; k++) {
            it[k].w = w[k - i];
            it[k].kern = (int16_t)(kern[k - i] + (k + 1 < j ? fmt->tracking : 0));
        }
        i = j;
    }

    /* Two full-width punctuation marks side by side ("），" "。「") would
     * leave a whole em of blank between their inks: take half of it out,
     * as Chinese typesetting does. */
    for (size_t i = 0; i + 1 < n; i++) {
        uint32_t c = it[i].cp, d = it[i + 1].cp;
        bool squeeze = ink_left(c) ? ink_left(d) || ink_right(d) : ink_right(c) && ink_right(d);
        if (squeeze && it[i].w >= 900 && it[i + 1].w >= 900)
            it[i].kern = (int16_t)(it[i].kern - it[i].w / 2);
    }
    *out = it;
    return n;
}

/* ---- Pass 3: where lines may end ----------------------------------------- */

static bool cp_at(const item *it, size_t n, size_t i, uint32_t cp)
{
    return i < n && it[i].cp == cp;
}

/* [b, e) looks like a URL, an e-mail address or a DOI. */
static bool looks_like_url(const item *it, size_t b, size_t e)
{
    bool at = false, dot_after_at = false, slash = false;
    for (size_t i = b; i < e; i++) {
        if (it[i].cp == ':' && cp_at(it, e, i + 1, '/') && cp_at(it, e, i + 2, '/'))
            return true;
        if (it[i].cp == '@' && i > b)
            at = true;
        else if (it[i].cp == '.' && at && i + 1 < e)
            dot_after_at = true;
        slash |= it[i].cp == '/';
    }
    if (at && dot_after_at)
        return true;
    if (e - b > 4 && it[b].cp == 'w' && it[b + 1].cp == 'w' && it[b + 2].cp == 'w' &&
        it[b + 3].cp == '.')
        return true;
    if (e - b > 4 && (it[b].cp == 'd' || it[b].cp == 'D') && it[b + 1].cp == 'o' &&
        it[b + 2].cp == 'i' && it[b + 3].cp == ':')
        return true;
    if (e - b > 4 && it[b].cp == '1' && it[b + 1].cp == '0' && it[b + 2].cp == '.' &&
        slash)
        return true;                 /* a DOI: 10.1145/… */
    return slash && it[b].link != NULL;   /* link text such as github.com/ada */
}

/* What ends an address: a space, or a CJK character or full-width
 * punctuation ("邮箱：ygw@tsinghua.edu.cn" has no space before it). */
static bool url_delim(const item *x)
{
    return is_space(x->cp) || x->ctrl || x->cp >= 0x2E80;
}

static void mark_urls(item *it, size_t n)
{
    for (size_t b = 0; b < n;) {
        if (url_delim(&it[b])) {
            b++;
            continue;
        }
        size_t e = b;
        while (e < n && !url_delim(&it[e]))
            e++;
        /* Trailing sentence punctuation is not part of the address. */
        size_t te = e;
        while (te > b && (it[te - 1].cp == '.' || it[te - 1].cp == ',' ||
                          it[te - 1].cp == ';' || it[te - 1].cp == ')'))
            te--;
        if (te > b && looks_like_url(it, b, te)) {
            for (size_t i = b; i < te; i++) {
                it[i].url = true;
                uint32_t c = it[i].cp;
                bool after = c == '/' || c == '.' || c == '-' || c == '@' || c == '_';
                if (i + 1 >= te || it[i].brk == LINEBREAK_MUSTBREAK)
                    continue;
                /* "//" stays together, and nothing breaks before the first
                 * character after the scheme's colon. */
                if (after && it[i + 1].cp != '/' && !(c == '/' && i > b && it[i - 1].cp == ':'))
                    it[i].kind = B_URL;
                else
                    it[i].kind = B_NONE;
                /* After a '-' only if it must: pdftotext would drop it. */
                if (c == '-' && it[i].kind == B_URL) {
                    it[i].kind = B_NONE;
                    it[i].compound = true;
                }
                it[i].brk = LINEBREAK_NOBREAK;
            }
        }
        b = e;
    }
}

static void find_breaks(cv_arena *a, item *it, size_t n)
{
    if (n == 0)
        return;
    uint32_t *cps = cv_arena_alloc(a, n * sizeof *cps);
    char *brks = cv_arena_alloc(a, n);
    for (size_t i = 0; i < n; i++)
        cps[i] = it[i].cp == 0xAD ? 0x200B : it[i].cp;   /* SHY: handled by us */
    set_linebreaks_utf32(cps, n, NULL, brks);
    for (size_t i = 0; i < n; i++) {
        it[i].brk = brks[i];
        it[i].kind = B_NONE;
    }

    /* Kinsoku, on top of UAX #14. */
    for (size_t i = 0; i + 1 < n; i++) {
        if (it[i].brk == LINEBREAK_MUSTBREAK)
            continue;
        if (is_closing(it[i + 1].cp) || is_opening(it[i].cp))
            it[i].brk = LINEBREAK_NOBREAK;
    }

    /* No break inside a number range: 921–931, 2019-2022. */
    for (size_t i = 1; i + 1 < n; i++) {
        uint32_t c = it[i].cp, p = it[i - 1].cp, q = it[i + 1].cp;
        if ((c == '-' || c == 0x2010 || c == 0x2013) && p >= '0' && p <= '9' && q >= '0' &&
            q <= '9' && it[i].brk != LINEBREAK_MUSTBREAK)
            it[i].brk = LINEBREAK_NOBREAK;
    }

    /* A Chinese or Japanese paragraph never ends with a line of one
     * character (and its punctuation): no break before its last one. */
    for (size_t e = 0; e < n; e++) {
        if (e + 1 < n && it[e].brk != LINEBREAK_MUSTBREAK)
            continue;
        size_t j = e + 1;
        while (j > 0 && (it[j - 1].ctrl || is_space(it[j - 1].cp) ||
                         is_closing(it[j - 1].cp)))
            j--;
        if (j >= 2 && is_cjk(it[j - 1].cp) && is_cjk(it[j - 2].cp) &&
            it[j - 2].brk == LINEBREAK_ALLOWBREAK)
            it[j - 2].brk = LINEBREAK_NOBREAK;
    }

    for (size_t i = 0; i < n; i++) {
        item *x = &it[i];
        bool dash = x->cp == '-' || x->cp == 0x2010;
        if (x->brk == LINEBREAK_MUSTBREAK && i + 1 < n)
            x->kind = B_FORCED;
        else if (x->brk != LINEBREAK_ALLOWBREAK)
            x->kind = B_NONE;
        else if (is_space(x->cp))
            x->kind = B_SPACE;
        else if (!dash)
            x->kind = B_PLAIN;
        /* Not after the hyphen of a compound ("next-generation"): pdftotext
         * takes a hyphen at a line's end for a hyphenation and drops it,
         * and an applicant-tracking system would read "nextgeneration".
         * Its parts may still be hyphenated (gen-eration), which reads
         * back right. */
        else if (i > 0 && i + 1 < n && is_letter(it[i - 1].cp) && is_letter(it[i + 1].cp))
            x->kind = B_NONE, x->compound = true;
        else
            x->kind = B_DASH;
    }
    mark_urls(it, n);
}

/* The pieces between break opportunities, in turn. */
static size_t piece_end(const item *it, size_t n, size_t b, float *width)
{
    float w = 0;
    size_t e = b;
    for (; e < n; e++) {
        if (!it[e].ctrl)
            w += e + 1 < n && it[e].kind == B_NONE ? adv(&it[e]) : glyph_w(&it[e]);
        if (it[e].kind != B_NONE || is_space(it[e].cp))
            break;
    }
    *width = w;
    return e < n ? e + 1 : e;
}

/* A piece wider than the whole measure may break at the hyphens of a
 * compound after all, and where that is not enough, between any two
 * grapheme clusters (used only in the last pass, and warned about when a
 * line ends there). */
static void mark_emergency(item *it, size_t n, float width)
{
    for (int round = 0; round < 2; round++) {
        for (size_t b = 0; b < n;) {
            while (b < n && (is_space(it[b].cp) || it[b].ctrl))
                b++;
            float w;
            size_t e = piece_end(it, n, b, &w);
            if (w > width + 0.01f)
                for (size_t i = b; i + 1 < e; i++) {
                    if (round == 0 && it[i].compound)
                        it[i].kind = B_DASH;
                    else if (round == 1 && it[i].kind == B_NONE && !it[i].ctrl &&
                             !joins(it[i].cp, it[i + 1].cp))
                        it[i].kind = B_EMERGENCY;
                }
            b = e > b ? e : b + 1;
        }
    }
}

/* Say which word had to be broken between characters at item i. */
static void warn_emergency(const item *it, size_t n, size_t i, float width, cv_pos pos,
                           cv_error *err)
{
    size_t b = i, e = i;
    while (b > 0 && !is_space(it[b - 1].cp) && !it[b - 1].ctrl)
        b--;
    while (e < n && !is_space(it[e].cp) && !it[e].ctrl)
        e++;
    char word[64];
    size_t k = 0;
    for (size_t j = b; j < e && k + 4 < 40; j++)
        k += cv_utf8_encode(it[j].cp, word + k);
    word[k] = 0;
    cv_warn(err, pos, "'%s%s' is wider than the %.0fpt measure; it is broken between "
            "characters", word, k + 4 >= 40 ? "..." : "", width);
}

/* ---- Hyphenation --------------------------------------------------------- */


/* Can a word end next to item i?  Not beside digits or other letters, nor
 * beside the punctuation of identifiers and addresses (snake_case,
 * a@b.org, example.com). */
static bool word_edge(const item *it, size_t n, size_t i, bool after)
{
    if (i >= n || it[i].ctrl || is_space(it[i].cp))
        return true;
    uint32_t c = it[i].cp;
    if (is_letter(c) || (c >= '0' && c <= '9'))
        return false;
    if (c >= 0x80)           /* dashes and curly quotes only */
        return c == 0x2013 || c == 0x2014 || c == 0x2018 || c == 0x2019 ||
               c == 0x201C || c == 0x201D;
    if (strchr("_@/\\#=+&%$<>|~^`*", (int)c))
        return false;
    if (c == '.')
        return after && !(i + 1 < n && is_letter(it[i + 1].cp));
    return true;
}

/* Mark hyphenation points; returns how many.  All the paragraph's
 * candidate words go to libhyphen in one call (see hyph.h). */
static size_t hyphenate(cv_arena *a, cv_hyph *hy, item *it, size_t n)
{
    /* Words are at least HYPHEN_WORD letters and one apart. */
    size_t nw = 0, most = n / (HYPHEN_WORD + 1) + 1;
    size_t *at = cv_arena_alloc(a, most * sizeof *at);
    const char **words = cv_arena_alloc(a, most * sizeof *words);
    for (size_t b = 0; b < n;) {
        if (!is_letter(it[b].cp)) {
            b++;
            continue;
        }
        size_t e = b;
        bool ok = is_lower(it[b].cp);
        while (e < n && is_letter(it[e].cp)) {
            ok &= is_lower(it[e].cp) && !it[e].url;
            e++;
        }
        size_t len = e - b;
        if (ok && len >= HYPHEN_WORD && len < 60 &&
            (b == 0 || word_edge(it, n, b - 1, false)) && word_edge(it, n, e, true)) {
            char *w = cv_arena_alloc(a, len + 1);
            for (size_t i = 0; i < len; i++)
                w[i] = (char)it[b + i].cp;
            words[nw] = w;
            at[nw++] = b;
        }
        b = e;
    }
    if (!nw)
        return 0;
    bool (*pts)[64] = cv_arena_alloc(a, nw * sizeof *pts);
    if (!cv_hyphenate(hy, words, nw, pts, HYPHEN_LEFT, HYPHEN_RIGHT))
        return 0;
    size_t count = 0;
    for (size_t i = 0; i < nw; i++)
        for (size_t k = 0; words[i][k]; k++)
            if (pts[i][k] && it[at[i] + k].kind == B_NONE) {
                it[at[i] + k].hyph = true;
                count++;
            }
    return count;
}

/* ---- Pass 4: choosing breaks --------------------------------------------- */

static void set_glue(item *it, size_t n, bool justify)
{
    for (size_t i = 0; i < n; i++) {
        item *x = &it[i];
        x->stretch = x->shrink = 0;
        if (!justify || x->ctrl)
            continue;
        if (x->cp == ' ') {
            x->stretch = SPACE_STRETCH * glyph_w(x);
            x->shrink = SPACE_SHRINK * glyph_w(x);
        } else if (!is_space(x->cp) && i + 1 < n && !it[i + 1].ctrl &&
                   !is_space(it[i + 1].cp) && (is_cjk(x->cp) || is_cjk(it[i + 1].cp))) {
            x->stretch = CJK_STRETCH * x->size;
        }
    }
}

typedef struct kpbuf {
    cv_kp_item *k;
    size_t *src;             /* the item each KP item came from */
    size_t n, cap;
} kpbuf;

static void kp_push(cv_arena *a, kpbuf *b, cv_kp_item x, size_t src)
{
    if (b->n == b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 64;
        b->k = cv_arena_realloc(a, b->k, b->cap * sizeof *b->k, nc * sizeof *b->k);
        b->src = cv_arena_realloc(a, b->src, b->cap * sizeof *b->src, nc * sizeof *b->src);
        b->cap = nc;
    }
    b->k[b->n] = x;
    b->src[b->n++] = src;
}

static void build(cv_arena *a, const cv_style *st, const item *it, size_t n, bool hyphens,
                  bool emergency, kpbuf *kb)
{
    kb->n = 0;
    const cv_kp_item never = {.type = CV_KP_PENALTY, .penalty = CV_KP_INF};
    int16_t hw = 0;
    int hw_face = -1;
    for (size_t i = 0; i < n; i++) {
        const item *x = &it[i];
        if (x->ctrl) {
            if (x->kind == B_FORCED) {
                kp_push(a, kb, (cv_kp_item){.type = CV_KP_GLUE, .stretch = CV_KP_FIL}, i);
                kp_push(a, kb, (cv_kp_item){.type = CV_KP_PENALTY, .penalty = -CV_KP_INF}, i);
            } else if (x->shy && i > 0 && !it[i - 1].ctrl && !it[i - 1].url) {
                if (it[i - 1].face != hw_face)
                    hw = hyphen_w(st, hw_face = it[i - 1].face);
                kp_push(a, kb, (cv_kp_item){.type = CV_KP_PENALTY, .flagged = true,
                                            .width = hw * it[i - 1].size / 1000.0f,
                                            .penalty = PEN_HYPHEN}, i);
            } else if (x->kind != B_NONE) {
                kp_push(a, kb, (cv_kp_item){.type = CV_KP_PENALTY}, i);
            }
            continue;
        }
        if (is_space(x->cp)) {
            if (x->kind != B_SPACE)
                kp_push(a, kb, never, i);
            kp_push(a, kb, (cv_kp_item){.type = CV_KP_GLUE, .width = adv(x),
                                        .stretch = x->stretch, .shrink = x->shrink}, i);
            continue;
        }
        unsigned kind = x->kind;
        if (kind == B_NONE && hyphens && x->hyph)
            kind = B_HYPH;
        if (i + 1 == n)
            kind = B_NONE;   /* the paragraph's end follows */
        float kern = x->kern * x->size / 1000.0f;
        if (kind == B_NONE && x->stretch == 0) {
            kp_push(a, kb, (cv_kp_item){.type = CV_KP_BOX, .width = adv(x)}, i);
            continue;
        }
        kp_push(a, kb, (cv_kp_item){.type = CV_KP_BOX, .width = glyph_w(x)}, i);
        cv_kp_item p = {.type = CV_KP_PENALTY};
        switch (kind) {
        case B_NONE:
            p = never;
            break;
        case B_DASH:
            p.flagged = true;
            p.penalty = PEN_HYPHEN;
            break;
        case B_URL:
            p.penalty = PEN_URL;
            break;
        case B_HYPH:
            if (x->face != hw_face)
                hw = hyphen_w(st, hw_face = x->face);
            p.flagged = true;
            p.width = hw * x->size / 1000.0f;
            p.penalty = PEN_HYPHEN;
            break;
        case B_EMERGENCY:
            p = emergency ? (cv_kp_item){.type = CV_KP_PENALTY, .penalty = PEN_EMERGENCY}
                          : never;
            break;
        default:
            break;
        }
        kp_push(a, kb, p, i);
        if (kern != 0 || x->stretch > 0)
            kp_push(a, kb, (cv_kp_item){.type = CV_KP_GLUE, .width = kern,
                                        .stretch = x->stretch}, i);
    }
    kp_push(a, kb, (cv_kp_item){.type = CV_KP_GLUE, .stretch = CV_KP_FIL}, n);
    kp_push(a, kb, (cv_kp_item){.type = CV_KP_PENALTY, .penalty = -CV_KP_INF}, n);
}

/* ---- Pass 5: setting a line ---------------------------------------------- */

/* Line [b, e) of a paragraph; `hyphen` > 0 adds a hyphen of that advance. */
static cv_line set_line(cv_arena *a, item *it, size_t b, size_t e, float width,
                        bool justify, int16_t hyphen)
{
    cv_line ln = {0};
    /* Trailing spaces and controls hang outside the measure. */
    while (e > b && (is_space(it[e - 1].cp) || it[e - 1].ctrl))
        e--;
    float natural = 0, stretch = 0, shrink = 0;
    for (size_t i = b; i < e; i++) {
        if (it[i].ctrl)
            continue;
        natural += i + 1 < e ? adv(&it[i]) : glyph_w(&it[i]);
        if (i + 1 < e) {
            stretch += it[i].stretch;
            shrink += it[i].shrink;
        }
    }
    if (hyphen > 0 && e > b)
        natural += hyphen * it[e - 1].size / 1000.0f;
    float r = 0, slack = width - natural;
    if (slack < -0.005f && shrink > 0)
        r = fmaxf(slack / shrink, -1.0f);
    else if (justify && slack > 0 && stretch > 0 && slack / stretch <= MAX_RATIO)
        r = slack / stretch;

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
            cv_run rn = {.x = x, .y = 0, .face = g->face, .synth_bold = g->synth,
                         .size = g->size, .color = g->color};
            rn.g = cv_arena_alloc(a, (e - i + 1) * sizeof *rn.g);
            CV_PUSH(a, ln.runs, ln.nruns, cap_runs, rn);
            run = &ln.runs[ln.nruns - 1];
        }
        float adj = 0;
        if (i + 1 < e) {
            adj = g->kern;
            float glue = r > 0 ? r * g->stretch : r * g->shrink;
            adj += glue * 1000.0f / g->size;
        }
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
            link->x1 = x + glyph_w(g);
        }
        x += step;
    }
    if (hyphen > 0 && run) {
        run->g[run->n++] = (cv_gl){'-', hyphen, 0};
        float step = hyphen * run->size / 1000.0f;
        run->width += step;
        if (link)
            link->x1 = x + step;
        x += step;
    }
    ln.width = x;
    return ln;
}

/* ---- The whole ----------------------------------------------------------- */

/* Items, breaks and Knuth-Plass nodes are needed only while a paragraph
 * is set: they go in the engine's scratch arena, emptied at each call,
 * which keeps them out of the caller's arena (a long publication list
 * would otherwise hold every paragraph's items until the end). */
static cv_arena *scratch(const cv_style *st)
{
    cv_arena_reset(st->eng->scratch);
    return st->eng->scratch;
}

size_t cv_wrap(cv_arena *a, const cv_style *st, const cv_span *spans, size_t nspans,
               const cv_textfmt *fmt, float width, cv_pos pos, cv_line **out,
               cv_error *err)
{
    cv_arena *tmp = scratch(st);
    item *it;
    size_t n = itemise(tmp, st, spans, nspans, fmt, pos, &it, err);
    *out = NULL;
    if (n == 0)
        return 0;
    find_breaks(tmp, it, n);
    set_glue(it, n, fmt->justify);
    mark_emergency(it, n, width);

    cv_kp_params p = cv_kp_defaults(width);
    if (!fmt->justify)
        p.line_stretch = RAGGED_STRETCH * fmt->size;
    /* A paragraph of several lines should not end with a scrap of a word
     * ("as:"): it costs as much as a loose line next to a tight one. */
    p.short_last_width = fminf(RUNT * fmt->size, width / 4);
    p.short_last_demerits = 10000;
    kpbuf kb = {.cap = 2 * n + 8};
    kb.k = cv_arena_alloc(tmp, kb.cap * sizeof *kb.k);
    kb.src = cv_arena_alloc(tmp, kb.cap * sizeof *kb.src);
    size_t *brk = NULL, nb = 0;
    if (fmt->greedy) {
        build(tmp, st, it, n, fmt->hyphenate && hyphenate(tmp, st->eng->hyph, it, n) > 0, true, &kb);
        nb = cv_kp_first_fit(tmp, kb.k, kb.n, &p, &brk);
    } else {
        /* TeX's passes: without hyphens at the pretolerance, with them at the
         * tolerance, then anything that is not overfull. */
        build(tmp, st, it, n, false, false, &kb);
        p.tolerance = 100;
        nb = cv_kp_total_fit(tmp, kb.k, kb.n, &p, &brk);
        bool hyphens = false;
        if (!nb && fmt->hyphenate && hyphenate(tmp, st->eng->hyph, it, n) > 0) {
            hyphens = true;
            build(tmp, st, it, n, true, false, &kb);
            p.tolerance = 200;
            nb = cv_kp_total_fit(tmp, kb.k, kb.n, &p, &brk);
        }
        if (!nb) {
            build(tmp, st, it, n, hyphens, true, &kb);
            p.tolerance = -1;
            nb = cv_kp_total_fit(tmp, kb.k, kb.n, &p, &brk);
        }
        if (!nb)             /* cannot happen; first fit always answers */
            nb = cv_kp_first_fit(tmp, kb.k, kb.n, &p, &brk);
    }

    size_t nlines = 0, cap = 0;
    cv_line *lines = NULL;
    size_t start = 0;
    bool warned = false;
    for (size_t k = 0; k < nb; k++) {
        const cv_kp_item *bk = &kb.k[brk[k]];
        size_t src = kb.src[brk[k]];
        if (!warned && src < n && it[src].kind == B_EMERGENCY && bk->type == CV_KP_PENALTY) {
            warn_emergency(it, n, src, width, pos, err);
            warned = true;
        }
        size_t end = src >= n ? n : src + 1;
        bool forced = bk->type == CV_KP_PENALTY && bk->penalty <= -CV_KP_INF;
        int16_t hy = 0;
        if (bk->type == CV_KP_PENALTY && bk->flagged && bk->width > 0) {
            size_t last = it[src].ctrl && src > 0 ? src - 1 : src;
            hy = hyphen_w(st, it[last].face);
        }
        while (start < end && is_space(it[start].cp))
            start++;
        if (start < end) {
            cv_line ln = set_line(a, it, start, end, width, fmt->justify && !forced, hy);
            if (ln.nruns > 0 || end < n)
                CV_PUSH(a, lines, nlines, cap, ln);
        } else if (forced && end < n) {
            cv_line ln = {0};            /* an empty line between two line feeds */
            CV_PUSH(a, lines, nlines, cap, ln);
        }
        start = end;
    }
    *out = lines;
    return nlines;
}

float cv_measure(cv_arena *a, const cv_style *st, const cv_span *spans,
                 size_t nspans, const cv_textfmt *fmt)
{
    item *it;
    size_t n = itemise(scratch(st), st, spans, nspans, fmt, (cv_pos){0}, &it, NULL);
    while (n > 0 && (is_space(it[n - 1].cp) || it[n - 1].ctrl))
        n--;
    float x = 0;
    for (size_t i = 0; i < n; i++)
        if (!it[i].ctrl)
            x += i + 1 < n ? adv(&it[i]) : glyph_w(&it[i]);
    return x;
}
