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
 *       - URLs, e-mail addresses and DOIs do not break, unless wider than
 *         the measure: then only after / . @ _ or before - (never after
 *         it: pdftotext would drop a hyphen that ends a line);
 *       - ties (see ties()): "pp. 921", "PPoPP 2021", "C++", no line that
 *         starts with a dash, no-break spaces (names); in a résumé not in
 *         Chinese, Japanese or Korean, a short CJK word among its words
 *         (tie_cjk_words: 王建国, 普通话);
 *       - a piece wider than the whole measure may break between any two
 *         grapheme clusters, with a warning, so no line is ever overfull;
 *       - Latin words get hyphenation points from libhyphen (Debian's
 *         en-US patterns), never in capitalised words (names, acronyms),
 *         words with capitals inside, compounds that have a hyphen
 *         already, bold text, or URLs; a soft hyphen is one too.  The
 *         patterns' strongest points (compound joints) cost least, those
 *         that leave a scrap of a word most (STRONG_LEVEL, PEN_WEAK).
 *  4. Choose the breaks (kp.c): Knuth-Plass total fit, as TeX does it --
 *     first without hyphenation at a strict tolerance, then with it, then
 *     (justified text) with emergency stretch, then accepting any line
 *     that is not overfull.  Or first fit, if the
 *     layout asks for greedy breaking.  A paragraph of more than
 *     LONG_PARA items (three pages of text or more) is broken WINDOW
 *     items at a time: each window is broken as if the paragraph ended
 *     there, its lines up to its last quarter are kept, and the next
 *     window starts after them.  A window that needs the last pass takes
 *     first fit instead (a word broken between letters keeps a line's
 *     worth of breaks active).  So a long paragraph's breaks are nearly,
 *     not exactly, those of one total fit, at a window's cost per window.
 *  5. Set.  A justified line shares its slack among its spaces and the gaps
 *     between CJK characters, in proportion to their stretch (or takes it
 *     from their shrink), loose as that may make it: a short line in a
 *     justified paragraph reads as the paragraph's end, a loose one only
 *     as loose: a line looser than the tolerance (1.26 times its
 *     stretch) widens its word spaces alone, each by up to SPACE_MAX ems.
 *     Only a line that would need more (one or two spaces on a line before
 *     a long address, a list of patent numbers) is left short rather than
 *     gaping.  A hyphenated line gets its hyphen.
 */
#include "wrap.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hb.h>
#include <linebreak.h>

#include "bidi.h"
#include "unicode.h"
#include "cjk.h"
#include "hyph.h"
#include "kp.h"
#include "markup.h"

/* Stretch and shrink of the glue, as fractions of a space or an em. */
#define SPACE_STRETCH 0.8f   /* of the space: Lato's space is narrow (0.19 em) */
#define SPACE_SHRINK 0.3f
#define CJK_STRETCH 0.12f    /* em, between two CJK characters */
#define RAGGED_STRETCH 6.0f  /* em at the end of every ragged line */
#define MAX_RATIO 1.26f      /* badness 200, the tolerance */
#define SPACE_MAX 0.8f       /* ems a word space may widen in a line looser than that */
#define RUNT 4.0f            /* em: a last line narrower than this is a runt */

/* Penalties for the kinds of break. */
#define PEN_HYPHEN 50.0f
#define PEN_URL 30.0f
#define PEN_EMERGENCY 1000.0f

/* Emergency stretch (TeX's \emergencystretch), ems a line of justified
 * text is taken to stretch beyond its spaces when no breaks are within the
 * tolerance: the looseness is spread, not heaped on one line. */
#define EMERGENCY_STRETCH 3.0f

#define HYPHEN_LEFT 2        /* letters before a hyphen, at least */
#define HYPHEN_RIGHT 3       /* after it */
#define HYPHEN_WORD 5        /* the shortest word hyphenated */

/* Not every hyphenation point is as good.  The patterns' surest points
 * (level STRONG_LEVEL and up: German's compound joints, lösungs-ansätze)
 * cost PEN_STRONG; a point that leaves fewer than WEAK_LEFT letters before
 * it or WEAK_RIGHT after (Datenban-ken, not Daten-banken; in-dustry) costs
 * PEN_WEAK; any other PEN_HYPHEN. */
#define STRONG_LEVEL 5
#define NARROW 40.0f         /* ems: a column narrower than this takes at most two
                                hyphens in any five lines (kp.h's hyphen_window) */
#define WEAK_LEFT 3
#define WEAK_RIGHT 4
#define PEN_STRONG 30.0f
#define PEN_WEAK 100.0f

/* HarfBuzz gets at most SHAPE_PIECE code points of one run at a time, with
 * SHAPE_CONTEXT more on either side: exact for any font whose lookups reach
 * fewer than SHAPE_CONTEXT glyphs, and for every run of an ordinary
 * paragraph, which is shorter than a piece. */
#define SHAPE_PIECE 4096
#define SHAPE_CONTEXT 32

/* A paragraph of more than LONG_PARA items (three pages or more) is
 * broken WINDOW items at a time (cv_wrap): nearly always the breaks of the
 * whole paragraph, at a cost in proportion to it, not to its square, and
 * never the memory of all its breaks at once. */
#define LONG_PARA 16384
#define WINDOW 8192

/* Synthesised small capitals are spaced this much, thousandths of an em of
 * their size. */
#define SMALL_CAPS_TRACKING 30

enum brk_kind {
    B_NONE,                  /* no break after this item */
    B_SPACE,                 /* the item is a space a line may end at */
    B_PLAIN,                 /* between CJK characters, after a dash or slash */
    B_DASH,                  /* after an explicit hyphen, or before an address's */
    B_URL,                   /* inside a URL, e-mail or DOI */
    B_HYPH,                  /* hyphenation point: a hyphen is added */
    B_EMERGENCY,             /* inside a word wider than the measure */
    B_FORCED,                /* a line feed */
};

/* One code point of a paragraph, in 16 bytes: a paragraph may hold
 * millions.  What all the items of a paragraph share (the size, the
 * colours) is the paragraph's, a span's link is the span's, and the glue
 * after an item is worked out when it is needed (stretch_of, shrink_of). */
typedef struct item {
    uint32_t cp : 21;        /* cv_utf8_decode gives at most 0x13FFFF */
    uint32_t kind : 3;       /* enum brk_kind, after our rules */
    uint32_t brk : 2;        /* libunibreak's verdict for after this item */
    uint32_t synth : 1;
    uint32_t ctrl : 1;       /* a line feed or other control: never drawn */
    uint32_t shy : 1;        /* a soft hyphen (a control) */
    uint32_t url : 1;        /* part of a URL, e-mail address or DOI */
    uint32_t compound : 1;   /* the hyphen of a compound: a break only if it must */
    uint32_t hyph : 1;       /* a hyphenation point after this item */
    int32_t face;
    uint32_t span : 27;      /* the span it came from: its link */
    uint32_t cjkword : 1;    /* in a short CJK word among other words: no
                                stretch inside or beside it (tie_cjk_words) */
    uint32_t strong : 1;     /* a hyphenation point of level 5 or more (a compound's joint) */
    uint32_t weak : 1;       /* one that leaves a scrap: under 3 letters before, 4 after */
    uint32_t small : 1;      /* a capital standing for a lowercase letter, set at
                                CV_SMALL_CAPS_SCALE of the size (small_caps) */
    uint32_t gap : 1;        /* the gap between Han and Latin follows (cjk_latin_space) */
    int16_t w, kern;         /* thousandths of an em of the item's own size */
} item;

/* A paragraph: its items and what they share. */
typedef struct para {
    item *it;
    size_t n;
    const cv_span *spans;    /* it[i].span indexes these */
    const cv_textfmt *fmt;   /* the size, the colours, justification */
    int16_t cjk_gap;         /* thousandths of an em between Han and Latin */
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
    return cv_unicode_cjk(cp);
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

/* The size item i is set at. */
static float size_of(const para *p, size_t i)
{
    return p->it[i].small ? p->fmt->size * CV_SMALL_CAPS_SCALE : p->fmt->size;
}

static float adv(const para *p, size_t i)
{
    return (p->it[i].w + p->it[i].kern) * size_of(p, i) / 1000.0f;
}

static float glyph_w(const para *p, size_t i)
{
    return p->it[i].w * size_of(p, i) / 1000.0f;
}

static const char *link_of(const para *p, size_t i)
{
    return p->spans[p->it[i].span].link;
}

static unsigned color_of(const para *p, size_t i)
{
    return link_of(p, i) ? p->fmt->link_color : p->fmt->color;
}

/* The stretch and shrink of the glue after item i (or of the space i
 * itself): a space's share of its width, and between two CJK characters
 * a little of the em; none in text set ragged. */
static inline float stretch_of(const para *p, size_t i)
{
    const item *x = &p->it[i];
    if (!p->fmt->justify || x->ctrl)
        return 0;
    if (x->cp == ' ' || x->cp == 0xA0)
        return SPACE_STRETCH * glyph_w(p, i);
    if (i + 1 >= p->n || (x->cp < 0x80 && x[1].cp < 0x80))
        return 0;            /* ASCII on both sides: no CJK character (is_cjk) */
    if (x->cjkword || x[1].cjkword)
        return 0;            /* 王建国 in an English line is not letter-spaced,
                                nor spaced from its comma: "王建国, Ada" */
    if (!is_space(x->cp) && !x[1].ctrl && !is_space(x[1].cp) &&
        (is_cjk(x->cp) || is_cjk(x[1].cp)))
        return CJK_STRETCH * p->fmt->size;
    return 0;
}

static inline float shrink_of(const para *p, size_t i)
{
    const item *x = &p->it[i];
    if (!p->fmt->justify || x->ctrl || (x->cp != ' ' && x->cp != 0xA0))
        return 0;
    return SPACE_SHRINK * glyph_w(p, i);
}

/* The advance of a hyphen in face `f`, thousandths of an em. */
static int16_t hyphen_w(const cv_ctx *cx, int face)
{
    uint32_t cp = '-';
    int16_t w = 0, k = 0;
    if (cv_shape_glyph(cx->eng->shaper, face, cp))
        cv_shape_run(cx->eng->shaper, face, &cp, 1, &w, &k);
    return w;
}

/* ---- Passes 1 and 2: itemise and shape ----------------------------------- */

/* The face of style `style` at the place in the fallback chain where face
 * `face` is for style `of` (-1 when it is in none). */
static int chain_face(const cv_ctx *cx, int face, unsigned of, unsigned style, bool *synth)
{
    for (size_t c = 0; c < cx->nchain; c++)
        if (cx->chain[of][c] == face) {
            *synth = cx->synth[style][c];
            return cx->chain[style][c];
        }
    return -1;
}

/* Quotes, dashes and dots that Chinese and Latin share follow the text
 * around them: beside a CJK character they come from its face (full-width
 * “ ” in Chinese), elsewhere from the Latin one.  A run of them ("——",
 * "……") is decided as one, by the characters on either side of the run,
 * and takes that face in its own weight (the bold of "**奖项**——" closes
 * before the dashes): one face, one weight, one line of ink. */
static void shared_punctuation(item *it, size_t n, const cv_ctx *cx, const cv_span *spans,
                               const cv_textfmt *fmt)
{
    cv_shaper *sh = cx->eng->shaper;
    for (size_t i = 0; i < n;) {
        uint32_t c = it[i].cp;
        if (!(c == 0x2018 || c == 0x2019 || c == 0x201C || c == 0x201D || c == 0x2014 ||
              c == 0x2026 || c == 0xB7)) {
            i++;
            continue;
        }
        size_t j = i + 1;
        while (cv_cjk_is_run_mark(c) && j < n && it[j].cp == c)
            j++;
        const item *nb = i > 0 && is_cjk(it[i - 1].cp)       ? &it[i - 1]
                         : j < n && is_cjk(it[j].cp)          ? &it[j]
                                                              : NULL;
        for (size_t k = i; nb && k < j; k++) {
            unsigned style = (spans[it[k].span].style | fmt->style) & 3;
            unsigned nstyle = (spans[nb->span].style | fmt->style) & 3;
            bool synth = nb->synth;
            int f = chain_face(cx, nb->face, nstyle, style, &synth);
            if (f < 0)
                f = nb->face, synth = nb->synth;
            if (f != it[k].face && cv_shape_glyph(sh, f, c)) {
                it[k].face = f;
                it[k].synth = synth;
            }
        }
        /* A run the text set in two faces or weights: all as its first. */
        for (size_t k = i + 1; k < j; k++)
            if (cv_shape_glyph(sh, it[i].face, c)) {
                it[k].face = it[i].face;
                it[k].synth = it[i].synth;
            }
        i = j;
    }
}

/* Shape each stretch of one face.  A stretch longer than SHAPE_PIECE (a
 * whole page of text in one face, a word of a million letters) is shaped a
 * piece at a time, each with SHAPE_CONTEXT code points of the text around
 * it, so that HarfBuzz never holds more than that. */
/* Letters of scripts that join (Arabic, Devanagari's headline) or are
 * never letter-spaced (Hebrew): no tracking after them (script.h). */
static bool joined(uint32_t cp)
{
    return cv_script_rtl(cp) || cv_script_in(cp, CV_SCRIPT_DEVANAGARI) || cp >= CV_CLUSTER_BASE;
}

static void shape_items(cv_arena *a, item *it, size_t n, cv_shaper *sh, const cv_textfmt *fmt)
{
    size_t bufn = n < SHAPE_PIECE + 2 * SHAPE_CONTEXT ? n : SHAPE_PIECE + 2 * SHAPE_CONTEXT;
    uint32_t *cps = cv_arena_alloc(a, (bufn + 1) * sizeof *cps);
    int16_t *w = cv_arena_alloc(a, (bufn + 1) * sizeof *w);
    int16_t *kern = cv_arena_alloc(a, (bufn + 1) * sizeof *kern);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && it[j].face == it[i].face && !it[j].ctrl)
            j++;
        if (j == i) {            /* a control item: no width */
            i++;
            continue;
        }
        for (size_t b = i; b < j; b += SHAPE_PIECE) {
            size_t e = j - b > SHAPE_PIECE ? b + SHAPE_PIECE : j;
            size_t cb = b - i > SHAPE_CONTEXT ? b - SHAPE_CONTEXT : i;
            size_t ce = j - e > SHAPE_CONTEXT ? e + SHAPE_CONTEXT : j;
            for (size_t k = cb; k < ce; k++)
                cps[k - cb] = it[k].cp;
            cv_shape_run(sh, it[i].face, cps, ce - cb, w, kern);
            for (size_t k = b; k < e; k++) {
                it[k].w = w[k - cb];
                it[k].kern = (int16_t)(kern[k - cb] +
                                       (k + 1 < j && fmt->tracking && !joined(it[k].cp)
                                            ? fmt->tracking : 0) +
                                       (k + 1 < j && it[k].small ? SMALL_CAPS_TRACKING : 0));
            }
        }
        i = j;
    }
}

/* The least blank left between two inks when punctuation is squeezed,
 * thousandths of an em. */
#define SQUEEZE_GAP 60

/* Two full-width punctuation marks side by side ("），" "。「") leave a
 * whole em of blank between their inks: half of it is taken out, as
 * Chinese and Japanese typesetting do (clreq 3.1.6, JIS X 4051 §4.2) --
 * exactly half an em a pair, from the blank side of the first mark's em
 * (or, as kerning can only move what follows, from the second's left
 * blank).  Where the inks lie is read from the glyphs, not assumed: the
 * same "。" sits in the corner in a simplified Chinese or Japanese face and
 * in the middle in a traditional one, and WenQuanYi centres its "）".  A
 * pair whose inks would come nearer than SQUEEZE_GAP is left alone, so the
 * glyphs never touch.  In a run of three, each pair is judged after the
 * pair before it.  A full-width closing mark before Latin punctuation
 * ("）;") loses the blank half of its em the same way. */
static void squeeze_punctuation(item *it, size_t n, const cv_ctx *cx)
{
    cv_shaper *sh = cx->eng->shaper;
    const cv_fontset *fs = cx->eng->fonts;
    for (size_t i = 0; i + 1 < n; i++) {
        item *x = &it[i], *y = &it[i + 1];
        if (x->cp >= 0x3000 && is_closing(x->cp) && cv_cjk_squeezable(x->cp) && x->w >= 900 &&
            y->cp < 0x80 && is_closing(y->cp) && x->kern >= -x->w / 4) {
            /* "）;": Latin punctuation after a full-width closing mark
             * follows its ink, not the blank half of its em. */
            int lo, hi;
            if (cv_cjk_ink(cv_fontset_face(fs, x->face), cv_shape_glyph(sh, x->face, x->cp),
                           &lo, &hi) &&
                x->w + x->kern - hi - 500 >= SQUEEZE_GAP)
                x->kern = (int16_t)(x->kern - 500);
            continue;
        }
        if (!cv_cjk_squeezable(x->cp) || !cv_cjk_squeezable(y->cp) || x->w < 900 ||
            y->w < 900 || x->face != y->face || x->kern < -x->w / 4)
            continue;
        const cv_face *f = cv_fontset_face(fs, x->face);
        int xlo, xhi, ylo, yhi;
        if (!cv_cjk_ink(f, cv_shape_glyph(sh, x->face, x->cp), &xlo, &xhi) ||
            !cv_cjk_ink(f, cv_shape_glyph(sh, y->face, y->cp), &ylo, &yhi))
            continue;
        /* The blank between the inks as set, and with half an em less. */
        int blank = x->w + x->kern - xhi + ylo;
        if (blank - 500 >= SQUEEZE_GAP)
            x->kern = (int16_t)(x->kern - 500);
    }
}

/* Characters no font has, warned about a run at a time: a Thai word is one
 * warning, not one per letter, and each different run once, up to
 * MAX_MISSING of them (20,000 Thai letters are a few dozen warnings). */
enum { MAX_MISSING = 16 };
typedef struct missing {
    cv_pos pos;
    const char *run;                 /* the run being read, or NULL */
    size_t len;                      /* its bytes */
    uint32_t first;                  /* its first character */
    int nchars;
    const char *seen[MAX_MISSING];   /* the runs warned about */
    size_t seen_len[MAX_MISSING], nseen, more;
} missing;

/* The run read so far ends: warn about it unless it was seen. */
static void missing_end(missing *m, cv_error *err)
{
    if (!m->run)
        return;
    bool seen = false;
    for (size_t i = 0; i < m->nseen && !seen; i++)
        seen = m->seen_len[i] == m->len && !memcmp(m->seen[i], m->run, m->len);
    if (!seen && m->nseen < MAX_MISSING) {
        m->seen[m->nseen] = m->run;
        m->seen_len[m->nseen++] = m->len;
        char ch[5] = {0};
        if (m->nchars == 1) {
            memcpy(ch, m->run, m->len < 4 ? m->len : 4);
            cv_warn(err, m->pos, "no font has U+%04X '%s'", m->first, ch);
        } else {
            /* At most 60 bytes of it, cut between characters. */
            int shown = m->len > 60 ? 60 : (int)m->len;
            while (shown > 0 && shown < (int)m->len &&
                   cv_utf8_is_cont((unsigned char)m->run[shown]))
                shown--;
            cv_warn(err, m->pos, "no font has the characters of '%.*s%s' (U+%04X...): add a "
                    "font that has them to font.fallback in the layout", shown, m->run,
                    shown < (int)m->len ? "..." : "", m->first);
        }
    } else if (!seen) {
        m->more++;
    }
    m->run = NULL;
}

/* The character at `s` (`len` bytes, code point cp) has no font. */
static void missing_char(missing *m, const char *s, size_t len, uint32_t cp, cv_error *err)
{
    if (m->run && m->run + m->len == s) {
        m->len += len;
        m->nchars++;
        return;
    }
    missing_end(m, err);
    m->run = s;
    m->len = len;
    m->first = cp;
    m->nchars = 1;
}

/* A run of dashes ("——", a Chinese dash of two ems) is one unbroken line:
 * where a face leaves a blank between two dashes' inks (Noto Sans CJK's is
 * 0.09 em), kerning closes it, overlapping the inks a little. */
static void join_dashes(item *it, size_t n, const cv_ctx *cx)
{
    cv_shaper *sh = cx->eng->shaper;
    const cv_fontset *fs = cx->eng->fonts;
    for (size_t i = 0; i + 1 < n; i++) {
        item *x = &it[i], *y = &it[i + 1];
        if (x->cp != y->cp || x->face != y->face ||
            !(x->cp == 0x2014 || x->cp == 0x2015 || x->cp == 0x2E3A || x->cp == 0x2E3B))
            continue;
        const cv_face *f = cv_fontset_face(fs, x->face);
        int lo, hi;
        if (!cv_cjk_ink(f, cv_shape_glyph(sh, x->face, x->cp), &lo, &hi))
            continue;
        int blank = x->w + x->kern - hi + lo;
        if (blank > -10)
            x->kern = (int16_t)(x->kern - blank - 10);
    }
}

/* Whether the gap between Han and Latin follows item i. */
static bool cjk_gap_after(const para *p, size_t i)
{
    if (p->cjk_gap <= 0 || i + 1 >= p->n)
        return false;
    uint32_t c = p->it[i].cp, d = p->it[i + 1].cp;
    return (cv_unicode_ideograph(c) && cv_unicode_latin(d)) ||
           (cv_unicode_latin(c) && cv_unicode_ideograph(d));
}

/* Han or kana beside a Latin letter or digit with no space typed between
 * them ("在GPU与", "使用C++"): a gap of the style's cjk_latin_space (a
 * quarter of an em unless the layout says otherwise), as kerning after the
 * first -- layout only: no character is added, the gap goes at a line's
 * end with the glue, and a text extractor reads the words as typed. */
static void cjk_latin_space(para *p)
{
    for (size_t i = 0; p->cjk_gap > 0 && i + 1 < p->n; i++)
        if (cjk_gap_after(p, i)) {
            p->it[i].kern = (int16_t)(p->it[i].kern + p->cjk_gap);
            p->it[i].gap = true;
        }
}

/* The glyph `get` gives for item x's character in its face; where that
 * face is bold and has none, the regular face's, emboldened (EB Garamond's
 * bold has neither small capitals nor lining figures): then *face and
 * *synth say so.  0 when neither face has one. */
static unsigned variant_glyph(const cv_ctx *cx, const item *x, const cv_span *spans,
                              const cv_textfmt *fmt,
                              unsigned (*get)(cv_shaper *, int, uint32_t), int *face,
                              bool *synth)
{
    cv_shaper *sh = cx->eng->shaper;
    *face = x->face;
    *synth = x->synth;
    unsigned g = get(sh, x->face, x->cp);
    unsigned style = (spans[x->span].style | fmt->style) & 3;
    if (!g && (style & CV_STYLE_BOLD)) {
        bool rsynth = false;
        int reg = chain_face(cx, x->face, style, style & ~(unsigned)CV_STYLE_BOLD, &rsynth);
        if (reg >= 0 && reg != x->face && (g = get(sh, reg, x->cp)) != 0)
            *face = reg, *synth = true;
    }
    return g;
}

/* fmt->small_caps: each lowercase letter drawn as the face's small capital
 * (smcp), or where the face has none as its capital at CV_SMALL_CAPS_SCALE
 * of the size (item.small), a little spaced.  Either is a cluster code point
 * (shape.h) that carries the letter itself, so the text reads as written. */
static void small_caps(item *it, size_t n, const cv_ctx *cx, const cv_span *spans,
                       const cv_textfmt *fmt)
{
    cv_shaper *sh = cx->eng->shaper;
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = it[i].cp;
        if (it[i].ctrl || cp >= CV_CLUSTER_BASE || it[i].face < 0)
            continue;
        uint32_t up = cv_caps_char(cp, cx->lang);
        if (!up)
            continue;               /* not a lowercase letter with one capital */
        char text[8];
        text[cv_utf8_encode(cp, text)] = 0;
        /* A bold face without small capitals: the regular face's,
         * emboldened, look more like them than capitals do. */
        int face;
        bool synth;
        unsigned g = variant_glyph(cx, &it[i], spans, fmt, cv_shape_small_cap, &face, &synth);
        bool small = false;
        if (!g) {
            /* The capital, smaller.  In a CFF face, from a second opening
             * of it: its code there is its own, and reads as the letter. */
            g = cv_shape_glyph(sh, face, up);
            small = true;
            const cv_face *f = cv_fontset_face(cx->eng->fonts, face);
            int second = g && f && f->cff ? cv_fontset_second(cx->eng->fonts, face) : -1;
            if (second >= 0)
                face = second;
        }
        uint32_t cl = g ? cv_shape_cluster(sh, face, g, text) : 0;
        if (cl) {
            it[i].cp = cl;
            it[i].face = face;
            it[i].synth = synth;
            it[i].small = small;
        }
    }
}

/* font.lining_figures: each digit drawn as the face's lining figure (lnum),
 * a cluster code point that carries the digit.  A bold face without them
 * (EB Garamond's) borrows the regular face's, emboldened, so that the
 * figures of a line agree. */
static void lining_figures(item *it, size_t n, const cv_ctx *cx, const cv_span *spans,
                           const cv_textfmt *fmt)
{
    cv_shaper *sh = cx->eng->shaper;
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = it[i].cp;
        if (it[i].ctrl || cp < '0' || cp > '9' || it[i].face < 0)
            continue;
        int face;
        bool synth;
        unsigned g = variant_glyph(cx, &it[i], spans, fmt, cv_shape_lining_figure, &face,
                                   &synth);
        char text[2] = {(char)cp, 0};
        uint32_t cl = g ? cv_shape_cluster(sh, face, g, text) : 0;
        if (cl) {
            it[i].cp = cl;
            it[i].face = face;
            it[i].synth = synth;
        }
    }
}

/* Devanagari: a word's characters in one face, with the joiners. */
static bool is_indic(uint32_t cp)
{
    return cv_script_in(cp, CV_SCRIPT_DEVANAGARI) || cp == 0x200C || cp == 0x200D;
}

/* Arabic (Persian, Urdu ...): a word's letters in one face with the
 * shared characters among them (tatweel, the Arabic comma, harakat,
 * ZWNJ), but no space and no bracket, which HarfBuzz would mirror
 * whatever the bidi level turns out to be. */
static bool in_arabic_run(uint32_t cp)
{
    if (cp >= CV_CLUSTER_BASE || is_space(cp))
        return false;
    if (cv_script_in(cp, CV_SCRIPT_ARABIC) || cp == 0x200C || cp == 0x200D)
        return true;
    hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
    return cv_script_of(cp) == CV_SCRIPT_COMMON && hb_unicode_mirroring(uf, cp) == cp;
}

/* Devanagari, shaped left to right; Arabic, shaped right to left in the
 * profile's language (shape.h: joining forms, ligatures, marks where GPOS
 * puts them).  Each run in one face becomes cluster code points (shape.h);
 * a character left without a glyph (the alef of lam-alef, a ZWNJ)
 * vanishes like a control.  A face that draws an Arabic letter with more
 * glyphs than one (Nastaliq's dots) cannot be drawn so: its letters stay
 * unjoined, with a warning. */
static void shape_complex(cv_arena *a, item *it, size_t n, const cv_ctx *cx, cv_pos pos,
                          cv_error *err)
{
    cv_shaper *sh = cx->eng->shaper;
    bool warned = false;
    uint32_t *text = NULL;          /* the paragraph as typed: context */
    for (size_t i = 0; i < n;) {
        bool deva = cv_script_in(it[i].cp, CV_SCRIPT_DEVANAGARI);
        bool arab = !deva && cv_script_of(it[i].cp) == CV_SCRIPT_ARABIC;
        if (!(deva || arab) || it[i].ctrl) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < n && (deva ? is_indic(it[j].cp) : in_arabic_run(it[j].cp)) &&
               it[j].face == it[i].face && !it[j].ctrl)
            j++;
        uint32_t *cps = cv_arena_alloc(a, 2 * (j - i) * sizeof *cps), *out = cps + (j - i);
        for (size_t k = i; k < j; k++)
            cps[k - i] = it[k].cp;
        if (arab && !text) {
            text = cv_arena_alloc(a, n * sizeof *text);
            for (size_t k = 0; k < n; k++)
                text[k] = it[k].cp;
        }
        if (deva ? cv_shape_complex(sh, it[i].face, cps, j - i, out)
                 : cv_shape_rtl(sh, it[i].face, text, n, i, j - i, cx->lang, out)) {
            for (size_t k = i; k < j; k++) {
                it[k].cp = out[k - i];
                it[k].ctrl = out[k - i] == 0xFEFF;
            }
        } else if (arab && !warned) {
            const cv_face *f = cv_fontset_face(cx->eng->fonts, it[i].face);
            cv_warn(err, pos, "%s draws Arabic letters with more glyphs than one, which cvpdf "
                    "cannot place: its letters are set unjoined (choose another font in "
                    "font.fallback)", f ? f->psname : "a font");
            warned = true;
        }
        i = j;
    }
}

/* The items of `spans` into *p, which then points into the arena. */
/* `spans`, or a copy of them in `a` without the links a PDF may not carry:
 * only http:, https:, mailto: and tel: destinations are links
 * (markup.h's cv_markup_web_link(), the web formats' rule); any other
 * (javascript:, file:, a relative path) is set as text, in the text's
 * colour (doc.c warns of it). */
static const cv_span *web_links_only(cv_arena *a, const cv_span *spans, size_t nspans)
{
    cv_span *copy = NULL;
    for (size_t i = 0; i < nspans; i++)
        if (spans[i].link && !cv_markup_web_link(spans[i].link)) {
            if (!copy) {
                copy = cv_arena_alloc(a, nspans * sizeof *copy);
                memcpy(copy, spans, nspans * sizeof *copy);
            }
            copy[i].link = NULL;
        }
    return copy ? copy : spans;
}

static void itemise(cv_arena *a, const cv_ctx *cx, const cv_span *spans,
                    size_t nspans, const cv_textfmt *fmt, cv_pos pos, para *p,
                    cv_error *err)
{
    spans = web_links_only(a, spans, nspans);
    /* An item per byte at most; in a long text, count the code points
     * first: Chinese takes three bytes a character, and items are what a
     * long paragraph costs. */
    size_t cap = 0;
    for (size_t si = 0; si < nspans; si++)
        cap += spans[si].len;
    if (cap > LONG_PARA) {
        cap = 0;
        for (size_t si = 0; si < nspans; si++)
            for (size_t k = 0; k < spans[si].len; cap++) {
                uint32_t cp;
                k += cv_utf8_decode(spans[si].text + k, spans[si].len - k, &cp);
            }
    }
    item *it = cv_arena_alloc(a, (cap + 1) * sizeof *it);
    size_t n = 0;
    int prev_face = -1;
    cv_shaper *sh = cx->eng->shaper;
    missing miss = {.pos = pos};
    for (size_t si = 0; si < nspans; si++) {
        const cv_span *sp = &spans[si];
        missing_end(&miss, err);
        unsigned style = (sp->style | fmt->style) & 3;
        /* `code`: the layout's monospace face first (font.mono), where it
         * has the character. */
        int mono = (sp->style & CV_STYLE_CODE) ? cx->mono : -1;
        const unsigned char *s = (const unsigned char *)sp->text;
        for (size_t k = 0; k < sp->len;) {
            uint32_t cp;
            size_t len = cv_utf8_decode((const char *)s + k, sp->len - k, &cp);
            const unsigned char *ch_at = s + k;
            k += len;
            item x = {.cp = cp, .span = (uint32_t)si, .face = -1};
            if (cp == '\t')
                x.cp = cp = ' ';
            if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x200B ||
                cp == 0xAD || cp == 0xFEFF || cp == 0x2028 || cp == 0x2029) {
                /* Line feeds, and the line and paragraph separators a word
                 * processor pastes, break (libunibreak's mandatory breaks);
                 * the others vanish. */
                x.ctrl = true;
                x.shy = cp == 0xAD;
                x.face = prev_face >= 0 ? prev_face : cx->chain[style][0];
                it[n++] = x;
                continue;
            }
            int first = mono >= 0 ? mono : cx->chain[style][0];
            bool joiner = cp == 0x200C || cp == 0x200D;
            if (joiner && n > 0 && !it[n - 1].ctrl && it[n - 1].face >= 0 &&
                (cv_script_in(it[n - 1].cp, CV_SCRIPT_ARABIC) ||
                 cv_script_in(it[n - 1].cp, CV_SCRIPT_DEVANAGARI))) {
                /* A joiner or non-joiner does its work in the face of the
                 * letter before it (shape_complex), drawn as nothing. */
                x.face = it[n - 1].face;
                x.synth = it[n - 1].synth;
            } else if (n > 0 && !it[n - 1].ctrl && it[n - 1].face >= 0 &&
                       cv_script_in(it[n - 1].cp, CV_SCRIPT_ARABIC) &&
                       (cp == 0x200E || cp == 0x200F || cp == 0x061C ||
                        (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069))) {
                /* Inside an Arabic word, a bidi mark is shaped with the
                 * letters (shape_complex), which join across it, and
                 * drawn as nothing, as HarfBuzz has it. */
                x.face = it[n - 1].face;
                x.synth = it[n - 1].synth;
            } else if (cp == 0x200E || cp == 0x200F || cp == 0x061C ||
                       (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
                /* A bidi mark or embedding (C++<LRM> in Hebrew) orders
                 * the line (bidi.c reads it) but is drawn as nothing: the
                 * glyph HarfBuzz hides it as, of no width, in the face of
                 * the text before it, where a face's own glyph for it is
                 * a visible mark (Lato's) or there is none at all. */
                x.face = prev_face >= 0 ? prev_face : cx->chain[style][0];
                uint32_t g;
                if (x.face >= 0 && cv_shape_complex(sh, x.face, &cp, 1, &g))
                    x.cp = g;
                else
                    x.ctrl = true;
                it[n++] = x;
                continue;
            } else if (joiner) {
                /* Elsewhere (Latin, between emoji no face has) it joins
                 * nothing cvpdf shapes, and a face's own glyph for it is
                 * a visible box or mark (Lato's): it vanishes. */
                x.ctrl = true;
                x.face = prev_face >= 0 ? prev_face : cx->chain[style][0];
                it[n++] = x;
                continue;
            } else if (mono >= 0 && cv_shape_glyph(sh, mono, cp)) {
                x.face = mono;
                x.synth = (style & CV_STYLE_BOLD) != 0;
            } else if (is_space(cp) && first >= 0 && cv_shape_glyph(sh, first, cp)) {
                x.face = first;
                x.synth = cx->synth[style][0];
            } else if (is_space(cp) && prev_face >= 0 && cv_shape_glyph(sh, prev_face, cp)) {
                x.face = prev_face;
                x.synth = n > 0 && it[n - 1].synth;
            } else {
                for (size_t c = 0; c < cx->nchain; c++) {
                    int f = cx->chain[style][c];
                    if (f >= 0 && cv_shape_glyph(sh, f, cp)) {
                        x.face = f;
                        x.synth = cx->synth[style][c];
                        break;
                    }
                    /* A bold face with fewer characters than its family's
                     * regular one (Debian's EB Garamond Bold has no "ğ"):
                     * the regular face's, emboldened. */
                    int r = cx->chain[style & ~(unsigned)CV_STYLE_BOLD][c];
                    if ((style & CV_STYLE_BOLD) && r >= 0 && r != f &&
                        cv_shape_glyph(sh, r, cp)) {
                        x.face = r;
                        x.synth = true;
                        break;
                    }
                }
            }
            if (x.face < 0) {
                /* Scripts the layout's fonts lack: Noto's (engine.h). */
                bool synth = false;
                x.face = cv_engine_script_face(cx->eng, cp, style, &synth);
                x.synth = synth;
            }
            if (x.face < 0) {
                missing_char(&miss, (const char *)ch_at, len, cp, err);
                continue;
            }
            missing_end(&miss, err);
            prev_face = x.face;
            it[n++] = x;
        }
    }

    missing_end(&miss, err);
    if (miss.more)
        cv_warn(err, pos, "no font has %zu more word%s of this text either", miss.more,
                miss.more == 1 ? "" : "s");

    shape_complex(a, it, n, cx, pos, err);
    shared_punctuation(it, n, cx, spans, fmt);
    if (fmt->small_caps)
        small_caps(it, n, cx, spans, fmt);
    if (cx->lay->lining_figures)
        lining_figures(it, n, cx, spans, fmt);
    shape_items(a, it, n, sh, fmt);
    squeeze_punctuation(it, n, cx);
    join_dashes(it, n, cx);
    *p = (para){.it = it, .n = n, .spans = spans, .fmt = fmt,
                .cjk_gap = (int16_t)lroundf(cx->lay->cjk_latin_space * 1000.0f)};
    cjk_latin_space(p);
}

/* ---- Pass 3: where lines may end ----------------------------------------- */

static bool cp_at(const item *it, size_t n, size_t i, uint32_t cp)
{
    return i < n && it[i].cp == cp;
}

/* [b, e) looks like a URL, an e-mail address or a DOI. */
static bool looks_like_url(const para *p, size_t b, size_t e)
{
    const item *it = p->it;
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
    return slash && link_of(p, b) != NULL;   /* link text such as github.com/ada */
}

/* What ends an address: a space, or a CJK character or full-width
 * punctuation ("邮箱：ygw@tsinghua.edu.cn" has no space before it). */
static bool url_delim(const item *x)
{
    return is_space(x->cp) || x->ctrl || is_cjk(x->cp);
}

static void mark_urls(para *p)
{
    item *it = p->it;
    size_t n = p->n;
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
        if (te > b && looks_like_url(p, b, te)) {
            for (size_t i = b; i < te; i++) {
                it[i].url = true;
                uint32_t c = it[i].cp;
                bool after = c == '/' || c == '.' || c == '@' || c == '_';
                if (i + 1 >= te || it[i].brk == LINEBREAK_MUSTBREAK)
                    continue;
                /* "//" stays together, and nothing breaks before the first
                 * character after the scheme's colon.  An address is
                 * broken only if it must (wider than the measure:
                 * mark_emergency); before a '-', never after it: pdftotext
                 * takes a hyphen at a line's end for a hyphenation and
                 * drops it, and the address would read back wrong
                 * ("first-" / "last@x.org" as "firstlast@x.org"). */
                it[i].kind = B_NONE;
                it[i].compound = false;   /* not as a word's compound hyphen */
                if ((after && it[i + 1].cp != '/' && !(c == '/' && i > b && it[i - 1].cp == ':')) ||
                    (c != '-' && it[i + 1].cp == '-'))
                    it[i].compound = true;
                it[i].brk = LINEBREAK_NOBREAK;
            }
        }
        b = e;
    }
}

/* What may follow a paragraph's last character: controls, spaces and
 * closing punctuation. */
static bool trails(const item *x)
{
    return x->ctrl || is_space(x->cp) || is_closing(x->cp);
}

/* The word that ends at item e (exclusive), back to a space: [*b, e). */
static size_t word_before(const item *it, size_t e)
{
    size_t b = e;
    while (b > 0 && !is_space(it[b - 1].cp) && !it[b - 1].ctrl)
        b--;
    return b;
}

static bool is_digit(uint32_t c) { return c >= '0' && c <= '9'; }

/* Does [b, e) name what a number follows: an abbreviation such as "pp."
 * "Vol." "No." "§", or an acronym of two capitals or more ("PPoPP 2021",
 * "SC 2020")?  An opening bracket before it does not count. */
static bool ties_number(const item *it, size_t b, size_t e)
{
    while (b < e && is_opening(it[b].cp))
        b++;
    if (b == e || e - b > 12)
        return false;
    if (e - b == 1 && (it[b].cp == 0xA7 || it[b].cp == 0xB6))      /* § ¶ */
        return true;
    static const char *const abbrev[] = {"p.", "pp.", "no.", "nos.", "vol.", "vols.",
                                         "fig.", "figs.", "eq.", "sec.", "ch.", "art.",
                                         "nr.", "ed.", "iss.", "chap.", "tab.", NULL};
    for (size_t k = 0; abbrev[k]; k++) {
        size_t len = strlen(abbrev[k]), j = 0;
        if (len != e - b)
            continue;
        while (j < len && it[b + j].cp < 0x80 &&
               (uint32_t)tolower((int)it[b + j].cp) == (uint32_t)abbrev[k][j])
            j++;
        if (j == len)
            return true;
    }
    size_t caps = 0;
    for (size_t i = b; i < e; i++) {
        if (it[i].cp >= 'A' && it[i].cp <= 'Z')
            caps++;
        else if (!is_lower(it[i].cp) && !(i + 1 == e && it[i].cp == '\''))
            return false;
    }
    return caps >= 2;
}

/* Places where UAX #14 allows a break that a typographer would not take:
 *   - "pp. 921", "Vol. 3", "§ 4", "PPoPP 2021": an abbreviation or an
 *     acronym stays with the short number (four digits at most) after it;
 *   - "C++", "C#", "F#": no break inside a name made with + or #;
 *   - no line starts with a dash ("– 2022)"), and a range of numbers with
 *     spaces round its dash ("2019 – 2022") is not broken at all;
 *   - a no-break space (the names of an author list, the owner's name)
 *     holds, unless what it joins is wider than the measure
 *     (mark_emergency). */
static void ties(item *it, size_t n)
{
    for (size_t i = 1; i + 1 < n; i++) {
        if (it[i].brk == LINEBREAK_MUSTBREAK)
            continue;
        uint32_t c = it[i].cp, q = it[i + 1].cp;
        if (c == ' ' && is_digit(q) && ties_number(it, word_before(it, i), i)) {
            size_t d = i + 1;
            while (d < n && is_digit(it[d].cp))
                d++;
            if (d - i - 1 <= 4)
                it[i].brk = LINEBREAK_NOBREAK;
        }
        if ((c == '+' || c == '#') && (is_letter(it[i - 1].cp) || it[i - 1].cp == '+') &&
            it[i - 1].brk != LINEBREAK_MUSTBREAK)
            it[i - 1].brk = LINEBREAK_NOBREAK;
        if ((c == '+' || c == '#') && (q == '+' || q == '#'))
            it[i].brk = LINEBREAK_NOBREAK;
        if (is_space(c) && (q == 0x2013 || q == 0x2014)) {
            it[i].brk = LINEBREAK_NOBREAK;
            /* "2019 – 2022": the space after the dash too. */
            if (i + 3 < n && is_space(it[i + 2].cp) && is_digit(it[i - 1].cp) &&
                is_digit(it[i + 3].cp) && it[i + 2].brk != LINEBREAK_MUSTBREAK)
                it[i + 2].brk = LINEBREAK_NOBREAK;
        }
    }
}

static bool ascii_letter(uint32_t c)
{
    return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

static bool regional_indicator(uint32_t c)
{
    return c >= 0x1F1E6 && c <= 0x1F1FF;
}

void cv_wrap_linebreaks(const uint32_t *cps, size_t n, char *brks)
{
    /* libunibreak's index into its property table: without it each
     * character's class is searched for from the table's start (the same
     * classes, a seventh more work). */
    static bool indexed;
    if (!indexed) {
        init_linebreak();
        indexed = true;
    }
    /* A run of ASCII letters (class AL) is one letter to UAX #14's pair
     * table: no break between two of them, and after each the state is
     * AL again.  libunibreak is given one letter for each run (most of a
     * Latin paragraph is letters); each letter but the run's last is
     * told "no break".
     *
     * Regional indicators (flags) abort libunibreak 1.1, which has no
     * class RI in its pair table: a flag's first letter is given to it as
     * an ideograph-like emoji (U+1F600, class ID), its second as a
     * combining mark (U+0301, which joins what it follows), so that lines
     * break between flags, never inside one (UAX #14's LB30a). */
    uint32_t *c = cv_xmalloc(n * sizeof *c);
    char *b = cv_xmalloc(n);
    size_t m = 0;
    bool second = false;            /* the next indicator ends a pair */
    bool prev = false;              /* cps[i - 1] is an ASCII letter */
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = cps[i];
        bool letter = ascii_letter(cp);
        if (letter && prev)
            continue;
        prev = letter;
        if (regional_indicator(cp)) {
            cp = second ? 0x0301 : 0x1F600;
            second = !second;
        } else {
            second = false;
        }
        c[m++] = cp;
    }
    set_linebreaks_utf32(c, m, NULL, b);
    size_t k = 0;
    bool here = n && ascii_letter(cps[0]);
    for (size_t i = 0; i < n; i++) {
        bool next = i + 1 < n && ascii_letter(cps[i + 1]);
        brks[i] = here && next ? LINEBREAK_NOBREAK : b[k++];
        here = next;
    }
    free(c);
    free(b);
}

/* A run of at most CJK_WORD letters of Chinese, Japanese or Korean. */
#define CJK_WORD 4

/* In a résumé in a language written with spaces, a short run of Chinese,
 * Japanese or Korean letters standing among that language's words -- a
 * name (王建国, 陳雨婷), a word (普通话) -- is a word: no break inside it
 * ("Mandarin 普通" / "话 (basic)"), unless it is wider than the measure
 * (mark_emergency); nor does a justified line stretch between its letters
 * (pdftotext would read "王 建 国", three words).  A run beside CJK
 * punctuation is part of a CJK sentence and keeps its breaks and stretch. */
static void tie_cjk_words(item *it, size_t n)
{
    for (size_t b = 0; b < n;) {
        if (!cv_unicode_ideograph(it[b].cp)) {
            b++;
            continue;
        }
        size_t e = b;
        while (e < n && cv_unicode_ideograph(it[e].cp))
            e++;
        bool alone = (b == 0 || !cv_unicode_wide(it[b - 1].cp)) &&
                     (e == n || !cv_unicode_wide(it[e].cp));
        if (alone && e - b <= CJK_WORD)
            for (size_t i = b; i < e; i++) {
                it[i].cjkword = true;
                if (i + 1 < e && it[i].brk == LINEBREAK_ALLOWBREAK)
                    it[i].brk = LINEBREAK_NOBREAK;
            }
        b = e;
    }
}

static void find_breaks(para *pp, bool cjk_lang)
{
    item *it = pp->it;
    size_t n = pp->n;
    if (n == 0)
        return;
    /* libunibreak's input and output, freed at once rather than kept in
     * the scratch arena with the items: 5 bytes a character. */
    uint32_t *cps = cv_xmalloc(n * sizeof *cps);
    char *brks = cv_xmalloc(n);
    for (size_t i = 0; i < n; i++)
        cps[i] = it[i].cp == 0xAD ? 0x200B : it[i].cp;   /* SHY: handled by us */
    cv_wrap_linebreaks(cps, n, brks);
    for (size_t i = 0; i < n; i++) {
        it[i].brk = (unsigned char)brks[i] & 3;
        it[i].kind = B_NONE;
    }
    free(cps);
    free(brks);

    /* Kinsoku, on top of UAX #14; and a run of dashes or dots ("——",
     * "……") is never broken. */
    for (size_t i = 0; i + 1 < n; i++) {
        if (it[i].brk == LINEBREAK_MUSTBREAK)
            continue;
        if (is_closing(it[i + 1].cp) || is_opening(it[i].cp) ||
            (cv_cjk_is_run_mark(it[i].cp) && it[i + 1].cp == it[i].cp))
            it[i].brk = LINEBREAK_NOBREAK;
    }

    /* No break inside a number range: 921–931, 2019-2022. */
    for (size_t i = 1; i + 1 < n; i++) {
        uint32_t c = it[i].cp, p = it[i - 1].cp, q = it[i + 1].cp;
        if ((c == '-' || c == 0x2010 || c == 0x2013) && p >= '0' && p <= '9' && q >= '0' &&
            q <= '9' && it[i].brk != LINEBREAK_MUSTBREAK)
            it[i].brk = LINEBREAK_NOBREAK;
    }

    ties(it, n);
    if (!cjk_lang)
        tie_cjk_words(it, n);

    /* A Chinese or Japanese paragraph never ends with a line of one
     * character (and its punctuation): no break before its last one.  The
     * look back from a mandatory break stops at the one before: past it,
     * it would go where the look back from there went (a run of line
     * feeds would cost its square). */
    for (size_t e = 0, stop = 0; e < n; e++) {
        if (e + 1 < n && it[e].brk != LINEBREAK_MUSTBREAK)
            continue;
        size_t j = e + 1;
        while (j > stop && trails(&it[j - 1]))
            j--;
        bool seen = j == stop && stop > 0 && trails(&it[stop - 1]);
        stop = e + 1;
        if (!seen && j >= 2 && is_cjk(it[j - 1].cp) && is_cjk(it[j - 2].cp) &&
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
    mark_urls(pp);
}

/* The pieces between break opportunities, in turn. */
static size_t piece_end(const para *p, size_t b, float *width)
{
    const item *it = p->it;
    size_t n = p->n;
    float w = 0;
    size_t e = b;
    for (; e < n; e++) {
        if (is_space(it[e].cp) && it[e].kind != B_NONE)
            break;               /* a line ending here leaves the space out */
        if (!it[e].ctrl)
            w += e + 1 < n && it[e].kind == B_NONE ? adv(p, e) : glyph_w(p, e);
        if (it[e].kind != B_NONE)
            break;
    }
    *width = w;
    return e < n ? e + 1 : e;
}

/* A piece wider than the whole measure may break at the hyphens of a
 * compound, at its tied and no-break spaces and inside its address after all, and
 * where that is not enough, between any two grapheme clusters (used only
 * in the last pass, and warned about when a line ends there). */
static void mark_emergency(para *p, float width)
{
    item *it = p->it;
    size_t n = p->n;
    for (int round = 0; round < 2; round++) {
        for (size_t b = 0; b < n;) {
            while (b < n && (is_space(it[b].cp) || it[b].ctrl))
                b++;
            float w;
            size_t e = piece_end(p, b, &w);
            if (w > width + 0.01f)
                for (size_t i = b; i + 1 < e; i++) {
                    if (round == 0 && is_space(it[i].cp) && it[i].kind == B_NONE &&
                        it[i].brk != LINEBREAK_MUSTBREAK && it[i + 1].cp != 0x2013 &&
                        it[i + 1].cp != 0x2014)
                        it[i].kind = B_SPACE;   /* a tie gives way; never before a dash */
                    else if (round == 0 && it[i].compound &&
                             !(it[i].cp == '-' && link_of(p, i)))
                        /* Before an address's hyphen: as dear as after
                         * a word's (B_DASH), so a slash is still preferred. */
                        it[i].kind = it[i].url && it[i].cp != '-' && it[i + 1].cp != '-'
                                         ? B_URL : B_DASH;
                    else if (round == 0 && it[i + 1].cp == '-' && it[i + 1].compound &&
                             link_of(p, i + 1) && it[i].kind == B_NONE && it[i].cp != '-')
                        it[i].kind = B_DASH;  /* linked text (a user name) breaks
                                                 before its hyphen, as an address */
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
 * a@b.org, example.com), nor beside a hyphen: a compound is hyphenated
 * already ("mixed-precision", not "mixed-preci-sion"). */
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
    if (strchr("_@/\\#=+&%$<>|~^`*-", (int)c))
        return false;
    if (c == '.')
        return after && !(i + 1 < n && is_letter(it[i + 1].cp));
    return true;
}

/* Mark the hyphenation points of the words that begin in [from, to);
 * returns how many.  All their candidates go to libhyphen in one call (see
 * hyph.h).  *next gets where the last word ended: the words before it are
 * done (a word may run past `to`, and is read only once). */
/* Letters of words other languages' patterns hyphenate (wide): the Latin
 * and Cyrillic letters (unicode.h) beside ASCII's, not the full-width ones. */
static bool wide_letter(uint32_t c)
{
    if (c < 0x80)
        return is_letter(c);
    cv_script s = cv_script_of(c);
    return (s == CV_SCRIPT_LATIN || s == CV_SCRIPT_CYRILLIC) && cv_unicode_letter(c) &&
           !cv_unicode_wide(c);
}
static bool wide_lower(uint32_t c)
{
    return c < 0x80 ? is_lower(c) : cv_unicode_lower(c) && wide_letter(c);
}

/* The lower case of an upper-case letter wide_letter() knows (c itself
 * for any other). */
static uint32_t wide_fold(uint32_t c)
{
    return cv_unicode_upper(c) && wide_letter(c) ? cv_unicode_tolower(c) : c;
}

/* `caps`: a word may start with a capital (German nouns). */
static size_t hyphenate(cv_arena *a, cv_hyph *hy, bool wide, bool caps, para *p,
                        size_t from, size_t to, size_t *next)
{
    item *it = p->it;
    size_t n = p->n;
    if (!hy) {
        *next = to;
        return 0;
    }
    bool (*letter)(uint32_t) = wide ? wide_letter : is_letter;
    bool (*lower)(uint32_t) = wide ? wide_lower : is_lower;
    /* Words are at least HYPHEN_WORD letters and one apart. */
    size_t nw = 0, most = (to - from) / (HYPHEN_WORD + 1) + 1;
    size_t *at = cv_arena_alloc(a, most * sizeof *at);
    const char **words = cv_arena_alloc(a, most * sizeof *words);
    size_t b = from;
    while (b < to) {
        if (!letter(it[b].cp)) {
            b++;
            continue;
        }
        size_t e = b;
        bool ok = lower(it[b].cp) || (caps && lower(wide_fold(it[b].cp)));
        for (e = b; e < n && letter(it[e].cp); e++)
            ok &= (e == b || lower(it[e].cp)) && !it[e].url &&
                  !((p->spans[it[e].span].style | p->fmt->style) & CV_STYLE_BOLD);
        size_t len = e - b;
        if (ok && len >= HYPHEN_WORD && len < 30 &&
            (b == 0 || word_edge(it, n, b - 1, false)) && word_edge(it, n, e, true)) {
            /* UTF-8 (ASCII but for other languages' words). */
            char *w = cv_arena_alloc(a, CV_UTF8_MAX * len + 1), *q = w;
            for (size_t i = 0; i < len; i++)
                q += cv_utf8_encode(i ? it[b + i].cp : wide_fold(it[b].cp), q);
            *q = 0;
            words[nw] = w;
            at[nw++] = b;
        }
        b = e;
    }
    *next = b;
    if (!nw)
        return 0;
    unsigned char (*pts)[64] = cv_arena_alloc(a, nw * sizeof *pts);
    if (!cv_hyphenate_levels(hy, words, nw, pts, HYPHEN_LEFT, HYPHEN_RIGHT))
        return 0;
    size_t count = 0;
    for (size_t i = 0; i < nw; i++) {
        size_t len = 0;
        while (len < 64 && at[i] + len < n && letter(it[at[i] + len].cp))
            len++;
        for (size_t k = 0; k < len; k++)
            if (pts[i][k] && it[at[i] + k].kind == B_NONE) {
                item *x = &it[at[i] + k];
                x->hyph = true;
                x->strong = pts[i][k] >= STRONG_LEVEL;
                x->weak = !x->strong && (k + 1 < WEAK_LEFT || len - k - 1 < WEAK_RIGHT);
                count++;
            }
    }
    return count;
}

/* ---- Pass 4: choosing breaks --------------------------------------------- */

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

/* The Knuth-Plass items for items [b, e) of a paragraph, ending as a
 * paragraph ends (with glue of infinite stretch and a forced break, whose
 * source is e).  `hyphens`: 0, no hyphenation points; 1, all but the weak
 * ones; 2, all. */
static void build(cv_arena *a, const cv_ctx *cx, const para *pp, size_t b, size_t e,
                  int hyphens, bool emergency, kpbuf *kb)
{
    const item *it = pp->it;
    const float size = pp->fmt->size;
    kb->n = 0;
    const cv_kp_item never = {.type = CV_KP_PENALTY, .penalty = CV_KP_INF};
    int16_t hw = 0;
    int hw_face = -1;
    for (size_t i = b; i < e; i++) {
        const item *x = &it[i];
        if (x->ctrl) {
            if (x->kind == B_FORCED) {
                kp_push(a, kb, (cv_kp_item){.type = CV_KP_GLUE, .stretch = CV_KP_FIL}, i);
                kp_push(a, kb, (cv_kp_item){.type = CV_KP_PENALTY, .penalty = -CV_KP_INF}, i);
            } else if (x->shy && i > 0 && !it[i - 1].ctrl && !it[i - 1].url) {
                if (it[i - 1].face != hw_face)
                    hw = hyphen_w(cx, hw_face = it[i - 1].face);
                kp_push(a, kb, (cv_kp_item){.type = CV_KP_PENALTY, .flagged = true,
                                            .width = hw * size / 1000.0f,
                                            .penalty = PEN_HYPHEN}, i);
            } else if (x->kind != B_NONE) {
                kp_push(a, kb, (cv_kp_item){.type = CV_KP_PENALTY}, i);
            }
            continue;
        }
        float stretch = stretch_of(pp, i);
        if (is_space(x->cp)) {
            if (x->kind != B_SPACE)
                kp_push(a, kb, never, i);
            kp_push(a, kb, (cv_kp_item){.type = CV_KP_GLUE, .width = adv(pp, i),
                                        .stretch = stretch, .shrink = shrink_of(pp, i)}, i);
            continue;
        }
        unsigned kind = x->kind;
        if (kind == B_NONE && hyphens && x->hyph && (hyphens > 1 || !x->weak))
            kind = B_HYPH;
        if (i + 1 == e)
            kind = B_NONE;   /* the paragraph's end follows */
        float kern = x->kern * size_of(pp, i) / 1000.0f;
        if (kind == B_NONE && stretch == 0) {
            kp_push(a, kb, (cv_kp_item){.type = CV_KP_BOX, .width = adv(pp, i)}, i);
            continue;
        }
        kp_push(a, kb, (cv_kp_item){.type = CV_KP_BOX, .width = glyph_w(pp, i)}, i);
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
                hw = hyphen_w(cx, hw_face = x->face);
            p.flagged = true;
            p.width = hw * size / 1000.0f;
            p.penalty = x->strong ? PEN_STRONG : x->weak ? PEN_WEAK : PEN_HYPHEN;
            break;
        case B_EMERGENCY:
            p = emergency ? (cv_kp_item){.type = CV_KP_PENALTY, .penalty = PEN_EMERGENCY}
                          : never;
            break;
        default:
            break;
        }
        kp_push(a, kb, p, i);
        if (kern != 0 || stretch > 0)
            kp_push(a, kb, (cv_kp_item){.type = CV_KP_GLUE, .width = kern,
                                        .stretch = stretch}, i);
    }
    kp_push(a, kb, (cv_kp_item){.type = CV_KP_GLUE, .stretch = CV_KP_FIL}, e);
    kp_push(a, kb, (cv_kp_item){.type = CV_KP_PENALTY, .penalty = -CV_KP_INF}, e);
}

/* ---- Pass 5: setting a line ---------------------------------------------- */

/* Line [b, e) of a paragraph; `hyphen` > 0 adds a hyphen of that advance.
 * The line's runs share one array of glyphs. */
static cv_line set_line(cv_arena *a, const para *p, size_t b, size_t e, float width,
                        bool justify, int16_t hyphen)
{
    const item *it = p->it;
    const float size = p->fmt->size;
    cv_line ln = {0};
    /* Trailing spaces and controls hang outside the measure. */
    while (e > b && (is_space(it[e - 1].cp) || it[e - 1].ctrl))
        e--;
    float natural = 0, stretch = 0, shrink = 0, space_stretch = 0;
    int nspaces = 0;
    size_t nruns = 0, nglyphs = 0;
    const item *prev = NULL;
    for (size_t i = b; i < e; i++) {
        if (it[i].ctrl)
            continue;
        natural += i + 1 < e ? adv(p, i) : glyph_w(p, i);
        if (i + 1 < e) {
            stretch += stretch_of(p, i);
            if (is_space(it[i].cp) && stretch_of(p, i) > 0) {
                space_stretch += stretch_of(p, i);
                nspaces++;
            }
            shrink += shrink_of(p, i);
        }
        if (!prev || prev->face != it[i].face || prev->synth != it[i].synth ||
            prev->small != it[i].small || !link_of(p, prev - it) != !link_of(p, i))
            nruns++;
        prev = &it[i];
        nglyphs++;
    }
    if (hyphen > 0 && e > b)
        natural += hyphen * size / 1000.0f;
    float r = 0, slack = width - natural;
    float r_space = 0, r_other = 0;
    if (slack < -0.005f && shrink > 0) {
        r = fmaxf(slack / shrink, -1.0f);
    } else if (justify && slack > 0 && stretch > 0 && slack <= MAX_RATIO * stretch) {
        r = r_space = r_other = slack / stretch;
    } else if (justify && slack > 0 && space_stretch > 0 &&
               slack <= nspaces * SPACE_MAX * size) {
        /* Looser than the tolerance (the breaker's last resort): loose,
         * for a short line reads as a paragraph's end.  The word spaces
         * take it all, each at most SPACE_MAX ems wider, and the gaps
         * between CJK characters do not open (wider, a reader of the PDF
         * takes each character for a word, and it splits a line at a
         * space wider than that). */
        r = r_space = slack / space_stretch;
    }

    /* The runs and glyphs counted above, and a hyphen. */
    size_t cap_runs = nruns ? nruns : 1, cap_links = 0, ng = 0;
    ln.runs = cv_arena_alloc(a, cap_runs * sizeof *ln.runs);
    cv_gl *gl = cv_arena_alloc(a, (nglyphs + 1) * sizeof *gl);
    float x = 0;
    cv_run *run = NULL;
    cv_link *link = NULL;
    const char *cur_link = NULL;
    for (size_t i = b; i < e; i++) {
        const item *g = &it[i];
        if (g->ctrl)
            continue;
        unsigned color = color_of(p, i);
        float gsize = size_of(p, i);
        if (!run || run->face != g->face || run->color != color ||
            run->synth_bold != g->synth || run->size != gsize) {
            cv_run rn = {.x = x, .y = 0, .face = g->face, .synth_bold = g->synth,
                         .size = gsize, .color = color, .g = gl + ng};
            CV_PUSH(a, ln.runs, ln.nruns, cap_runs, rn);
            run = &ln.runs[ln.nruns - 1];
        }
        float adj = 0;
        if (i + 1 < e) {
            adj = g->kern;
            if (r != 0) {        /* else no glue: adding 0 changes nothing */
                float glue = r > 0 ? (is_space(g->cp) ? r_space : r_other) * stretch_of(p, i)
                                   : r * shrink_of(p, i);
                adj += glue * 1000.0f / gsize;
            }
        }
        /* A no-break space reads back as a space. */
        int16_t wide = i + 1 < e && g->gap ? p->cjk_gap : 0;
        run->g[run->n++] = (cv_gl){g->cp == 0xA0 ? ' ' : g->cp, g->w, wide, adj};
        ng++;
        float step = (g->w + adj) * gsize / 1000.0f;
        run->width += step;

        /* Link boxes: one per stretch of the same target on this line. */
        const char *target = link_of(p, i);
        if (target != cur_link || !target) {
            link = NULL;
            cur_link = target;
        }
        if (target) {
            if (!link) {
                cv_link l = {.x0 = x, .x1 = x, .y0 = -0.25f * size,
                             .y1 = 0.9f * size, .uri = target};
                CV_PUSH(a, ln.links, ln.nlinks, cap_links, l);
                link = &ln.links[ln.nlinks - 1];
            }
            link->x1 = x + glyph_w(p, i);
        }
        x += step;
    }
    if (hyphen > 0 && run) {
        run->g[run->n++] = (cv_gl){'-', hyphen, 0, 0};
        run->hyphen = true;
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
 * is set: they go in the engine's scratch arena, emptied when each call
 * begins and ends, which keeps them out of the caller's arena (a long
 * publication list would otherwise hold every paragraph's items until the
 * end) and frees a long paragraph's before what comes next. */
static cv_arena *scratch(const cv_ctx *cx)
{
    cv_arena_reset(cx->eng->scratch);
    return cx->eng->scratch;
}

/* What breaking a paragraph carries from one window to the next. */
typedef struct breaker {
    const cv_ctx *cx;
    para *p;
    float width;
    cv_kp_params kp;
    size_t hyph_next;        /* words before this item are hyphenated */
} breaker;

/* Hyphenation points for items [b, e), marking those not marked yet;
 * whether there are any. */
static bool hyph_points(cv_arena *a, breaker *br, size_t b, size_t e)
{
    para *p = br->p;
    size_t from = br->hyph_next > b ? br->hyph_next : b;
    if (from < e)
    {
        cv_hyph *hy = cv_engine_hyph(br->cx->eng, p->fmt->hyphenation);
        const char *dict = p->fmt->hyphenation;
        hyphenate(a, hy, hy != br->cx->eng->hyph, dict && !strncmp(dict, "de", 2), p,
                  from, e, &br->hyph_next);
    }
    for (size_t i = b; i < e; i++)
        if (p->it[i].hyph)
            return true;
    return false;
}

/* The breaks of items [b, e) (KP items in kb, their indices in *brk, the
 * count returned).  The whole paragraph goes through TeX's passes:
 * without hyphens at the pretolerance, with them at the tolerance; then,
 * for justified text, with emergency stretch (TeX's \emergencystretch:
 * every line counted as EMERGENCY_STRETCH ems more elastic than it is, so
 * that the breaks spread the looseness over the paragraph); then also at
 * the weak hyphenation points the earlier passes refuse (Datenban-ken);
 * then anything that is not overfull.  A window of a long one takes first fit for that last
 * pass, whose active list would hold every break of a line-long stretch
 * of a word broken between letters. */
static size_t choose(cv_arena *a, breaker *br, size_t b, size_t e, bool window, kpbuf *kb,
                     size_t **brk)
{
    const cv_textfmt *fmt = br->p->fmt;
    cv_kp_params p = br->kp;
    if (fmt->greedy) {
        build(a, br->cx, br->p, b, e, fmt->hyphenate && hyph_points(a, br, b, e) ? 2 : 0, true,
              kb);
        return cv_kp_first_fit(a, kb->k, kb->n, &p, brk);
    }
    build(a, br->cx, br->p, b, e, 0, false, kb);
    p.tolerance = 100;
    size_t nb = cv_kp_total_fit(a, kb->k, kb->n, &p, brk);
    int hyphens = 0;
    if (!nb && fmt->hyphenate && hyph_points(a, br, b, e)) {
        hyphens = 1;
        build(a, br->cx, br->p, b, e, hyphens, false, kb);
        p.tolerance = 200;
        nb = cv_kp_total_fit(a, kb->k, kb->n, &p, brk);
    }
    if (!nb && fmt->justify) {
        p.tolerance = 200;
        p.line_stretch = EMERGENCY_STRETCH * fmt->size;
        nb = cv_kp_total_fit(a, kb->k, kb->n, &p, brk);
    }
    if (hyphens && !nb) {
        hyphens = 2;         /* the weak points too */
        build(a, br->cx, br->p, b, e, hyphens, false, kb);
        nb = cv_kp_total_fit(a, kb->k, kb->n, &p, brk);
    }
    if (!nb) {
        build(a, br->cx, br->p, b, e, hyphens, true, kb);
        p.tolerance = -1;
        p.line_stretch = br->kp.line_stretch;
        if (!window)
            nb = cv_kp_total_fit(a, kb->k, kb->n, &p, brk);
    }
    if (!nb)             /* a window; or cannot happen: first fit always answers */
        nb = cv_kp_first_fit(a, kb->k, kb->n, &p, brk);
    return nb;
}

/* The lines set so far. */
typedef struct setter {
    cv_line *v;
    size_t n, cap;
    bool heap;               /* v is malloc'd (a long paragraph), not the arena's */
    size_t start;            /* the first item of the next line */
    bool warned;             /* a word broken between characters is reported */
} setter;

static void push_line(cv_arena *a, setter *out, cv_line ln)
{
    if (out->heap && out->n == out->cap) {
        out->cap = out->cap ? 2 * out->cap : 256;
        out->v = cv_xrealloc(out->v, out->cap * sizeof *out->v);
    }
    CV_PUSH(a, out->v, out->n, out->cap, ln);
}

/* Set the line that ends at KP item kb->k[k] (of a window ending at item
 * `lim`) into `out`; returns the item after it. */
static size_t set_one(cv_arena *a, const breaker *br, const kpbuf *kb, size_t k, size_t lim,
                      setter *out, cv_pos pos, cv_error *err)
{
    const para *p = br->p;
    const item *it = p->it;
    size_t n = p->n;
    const cv_kp_item *bk = &kb->k[k];
    size_t src = kb->src[k];
    if (!out->warned && src < lim && it[src].kind == B_EMERGENCY &&
        bk->type == CV_KP_PENALTY) {
        warn_emergency(it, n, src, br->width, pos, err);
        out->warned = true;
    }
    size_t end = src >= lim ? lim : src + 1;
    bool forced = bk->type == CV_KP_PENALTY && bk->penalty <= -CV_KP_INF;
    int16_t hy = 0;
    if (bk->type == CV_KP_PENALTY && bk->flagged && bk->width > 0) {
        size_t last = it[src].ctrl && src > 0 ? src - 1 : src;
        hy = hyphen_w(br->cx, it[last].face);
    }
    size_t start = out->start;
    while (start < end && is_space(it[start].cp))
        start++;
    if (start < end) {
        cv_line ln = set_line(a, p, start, end, br->width, p->fmt->justify && !forced, hy);
        cv_bidi_line(a, &ln, br->cx->rtl, br->cx->eng->shaper);
        if (ln.nruns > 0 || end < n)
            push_line(a, out, ln);
    } else if (forced && end < n) {
        cv_line ln = {0};            /* an empty line between two line feeds */
        push_line(a, out, ln);
    }
    out->start = end;
    return end;
}

/* fmt->link_icon: the external-link icon at 0.65 of the text's size,
 * raised by a fifth of an em, in the middle of the room the full-size icon
 * took (so nothing else moves), as RenderCV draws it. */
static void small_link_icons(cv_line *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t r = 0; r < v[i].nruns; r++) {
            cv_run *rn = &v[i].runs[r];
            if (rn->n == 1 && rn->g[0].cp == 0xF08E && rn->y == 0) {
                rn->x += rn->width * (1 - 0.65f) / 2;
                rn->width *= 0.65f;
                rn->y = 0.2f * rn->size;
                rn->size *= 0.65f;
            }
        }
}

/* Every line but the last goes on on the next (cv_run.wrapped). */
static size_t mark_wrapped(cv_line *v, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++)
        for (size_t r = 0; r < v[i].nruns; r++)
            v[i].runs[r].wrapped = true;
    return n;
}

size_t cv_wrap(cv_arena *a, const cv_ctx *cx, const cv_span *spans, size_t nspans,
               const cv_textfmt *fmt, float width, cv_pos pos, cv_line **out,
               cv_error *err)
{
    cv_arena *tmp = scratch(cx);
    para p;
    itemise(tmp, cx, spans, nspans, fmt, pos, &p, err);
    *out = NULL;
    size_t n = p.n;
    if (n == 0)
        return 0;
    find_breaks(&p, cx->lang && (!strncmp(cx->lang, "zh", 2) || !strncmp(cx->lang, "ja", 2) ||
                                 !strncmp(cx->lang, "ko", 2)));
    mark_emergency(&p, width);

    breaker br = {.cx = cx, .p = &p, .width = width, .kp = cv_kp_defaults(width)};
    if (!fmt->justify)
        br.kp.line_stretch = RAGGED_STRETCH * fmt->size;
    /* A paragraph of several lines should not end with a scrap of a word
     * ("as:"): it costs as much as a loose line next to a tight one. */
    br.kp.short_last_width = fminf(RUNT * fmt->size, width / 4);
    br.kp.short_last_demerits = 10000;
    br.kp.no_runts = true;   /* never "ker- / nels." */
    if (width < NARROW * fmt->size) {
        br.kp.hyphen_window = 5; /* a narrow column: at most two hyphens in five lines */
        br.kp.hyphens_in_window = 2;
    }
    setter lines = {0};

    if (n <= LONG_PARA) {
        kpbuf kb = {.cap = 2 * n + 8};
        kb.k = cv_arena_alloc(tmp, kb.cap * sizeof *kb.k);
        kb.src = cv_arena_alloc(tmp, kb.cap * sizeof *kb.src);
        size_t *brk;
        size_t nb = choose(tmp, &br, 0, n, false, &kb, &brk);
        if (nb) {                /* a line per break at most */
            lines.v = cv_arena_alloc(a, nb * sizeof *lines.v);
            lines.cap = nb;
        }
        for (size_t k = 0; k < nb; k++)
            set_one(a, &br, &kb, brk[k], n, &lines, pos, err);
        cv_arena_reset(tmp);
        *out = lines.v;
        if (fmt->link_icon)
            small_link_icons(lines.v, lines.n);
        return mark_wrapped(lines.v, lines.n);
    }

    /* A long paragraph, a window of WINDOW items at a time: break the
     * window as if the paragraph ended there, keep the lines that end
     * before its last quarter (at least one), and start the next window
     * after them.  The breaks chosen far from a window's end are nearly
     * always those of the whole paragraph; the work and the memory are
     * the window's, not the paragraph's.  The last window takes what is
     * left when that is less than one and a half. */
    cv_arena *win = cv_arena_new();
    lines.heap = true;       /* grown with realloc, then copied to `a` once */
    for (size_t b = 0; b < n;) {
        size_t e = n - b > WINDOW + WINDOW / 2 ? b + WINDOW : n;
        cv_arena_reset(win);
        kpbuf kb = {.cap = 2 * (e - b) + 8};
        kb.k = cv_arena_alloc(win, kb.cap * sizeof *kb.k);
        kb.src = cv_arena_alloc(win, kb.cap * sizeof *kb.src);
        size_t *brk;
        size_t nb = choose(win, &br, b, e, true, &kb, &brk);
        size_t next = b;
        for (size_t k = 0; k < nb; k++) {
            size_t src = kb.src[brk[k]];
            size_t end = src >= e ? e : src + 1;
            if (e < n && k > 0 && end > e - WINDOW / 4)
                break;
            next = set_one(a, &br, &kb, brk[k], e, &lines, pos, err);
        }
        /* No line: the window holds nothing but spaces and controls,
         * which no line begins with. */
        b = e == n || next == b ? e : next;
    }
    cv_arena_free(win);
    cv_arena_reset(tmp);
    if (lines.n) {
        *out = cv_arena_alloc(a, lines.n * sizeof **out);
        memcpy(*out, lines.v, lines.n * sizeof **out);
        if (fmt->link_icon)
            small_link_icons(*out, lines.n);
        mark_wrapped(*out, lines.n);
    }
    free(lines.v);
    return lines.n;
}

float cv_measure(cv_arena *a, const cv_ctx *cx, const cv_span *spans,
                 size_t nspans, const cv_textfmt *fmt)
{
    para p;
    itemise(scratch(cx), cx, spans, nspans, fmt, (cv_pos){0}, &p, NULL);
    size_t n = p.n;
    while (n > 0 && (is_space(p.it[n - 1].cp) || p.it[n - 1].ctrl))
        n--;
    float x = 0;
    for (size_t i = 0; i < n; i++)
        if (!p.it[i].ctrl)
            x += i + 1 < n ? adv(&p, i) : glyph_w(&p, i);
    cv_arena_reset(cx->eng->scratch);
    return x;
}

void cv_wrap_clusters(cv_arena *a, const cv_ctx *cx, cv_display *d)
{
    const cv_shaper *sh = cx->eng->shaper;
    cv_cluster *cl = NULL;
    size_t n = 0, cap = 0;
    for (size_t p = 0; p < d->npages; p++)
        for (size_t i = 0; i < d->pages[p].nruns; i++) {
            const cv_run *r = &d->pages[p].runs[i];
            for (size_t k = 0; k < r->n; k++) {
                uint32_t cp = r->g[k].cp;
                const char *t = cp >= CV_CLUSTER_BASE ? cv_shape_cluster_text(sh, cp) : NULL;
                if (!t)
                    continue;
                cv_cluster c = {.cp = cp, .text = cv_arena_strdup(a, t),
                                .gid = cv_shape_glyph(cx->eng->shaper, r->face, cp),
                                .mark = cv_shape_cluster_mark(sh, cp)};
                cv_shape_cluster_offset(sh, cp, &c.dx, &c.dy);
                CV_PUSH(a, cl, n, cap, c);
            }
        }
    if (n)
        qsort(cl, n, sizeof *cl, cv_cluster_order);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (!u || cl[u - 1].cp != cl[i].cp)
            cl[u++] = cl[i];
    d->clusters = cl;
    d->nclusters = u;
}

/* ---- Set once: the paragraph cache --------------------------------------- */

/* A paragraph longer than this (bytes of key: its text and what goes with
 * it) is set without the cache: a copy of a key that long would cost more
 * than setting it again. */
#define SETCACHE_MAX_KEY 65536

typedef struct setentry {
    uint64_t hash;
    unsigned char *key;
    size_t keylen;
    cv_line *lines;
    size_t nlines;
    float width;             /* cv_measure's answer */
    void *memo;              /* a slot's (cv_setcache_slot) */
    signed char warns;       /* its setting warned: 1; did not: 0; not known (set
                                without diagnostics): -1 */
} setentry;

struct cv_setcache {
    cv_arena *a;             /* the profile's: entries, keys, lines; a shared
                                cache's own */
    cv_setcache *shared;     /* paragraphs kept for every profile, or NULL */
    bool owns;               /* a shared cache: its arena is its own */
    setentry **slot;         /* open addressing, a power of two */
    size_t cap, n;
    unsigned char *key;      /* the key being built */
    size_t keylen, keycap;
    bool frozen;             /* keeps no new paragraph (cv_setcache_keep) */
    cv_setstats stats;
};

cv_setcache *cv_setcache_new(cv_arena *a, cv_setcache *shared)
{
    cv_setcache *sc = cv_arena_alloc(a, sizeof *sc);
    memset(sc, 0, sizeof *sc);
    sc->a = a;
    sc->shared = shared;
    return sc;
}

cv_setcache *cv_setcache_new_shared(void)
{
    cv_setcache *sc = cv_xmalloc(sizeof *sc);
    memset(sc, 0, sizeof *sc);
    sc->a = cv_arena_new();
    sc->owns = true;
    return sc;
}

void cv_setcache_trim(cv_setcache *sc)
{
    if (!sc || !sc->owns || sc->stats.bytes <= CV_SETCACHE_BUDGET)
        return;
    cv_arena_reset(sc->a);
    sc->slot = NULL;
    sc->cap = sc->n = 0;
    sc->key = NULL;
    sc->keylen = sc->keycap = 0;
    sc->stats.entries = sc->stats.bytes = 0;
}

void cv_setcache_free(cv_setcache *sc)
{
    if (!sc || !sc->owns)
        return;
    cv_arena_free(sc->a);
    free(sc);
}

cv_setstats cv_setcache_stats(const cv_setcache *sc)
{
    return sc ? sc->stats : (cv_setstats){0};
}

/* sc->key with room for n bytes. */
static void key_room(cv_setcache *sc, size_t n)
{
    if (n <= sc->keycap)
        return;
    size_t nc = sc->keycap ? sc->keycap : 1024;
    while (nc < n)
        nc *= 2;
    sc->key = cv_arena_realloc(sc->a, sc->key, sc->keycap, nc);
    sc->keycap = nc;
}

/* Appending to a key with room enough (key_room). */
#define PUT(q, p, n) (memcpy((q), (p), (n)), (q) += (n))
#define PUTV(q, v) PUT((q), &(v), sizeof(v))

/* A string, told apart from NULL. */
static unsigned char *put_str(unsigned char *q, const char *s, size_t n)
{
    uint32_t len = s ? (uint32_t)n : UINT32_MAX;
    PUTV(q, len);
    if (s)
        PUT(q, s, n);
    return q;
}

/* Everything cv_wrap() and cv_measure() read, in sc->key: what the
 * context and its layout give them (wrap.c reads no other member of
 * either), the format, the width and the spans.  Whether it fits (a key no longer than SETCACHE_MAX_KEY). */
static bool make_key(cv_setcache *sc, unsigned char kind, const cv_ctx *cx,
                     const cv_span *spans, size_t nspans, const cv_textfmt *fmt, float width)
{
    size_t lang = cx->lang ? strlen(cx->lang) : 0;
    size_t hyph = fmt->hyphenation ? strlen(fmt->hyphenation) : 0;
    size_t need = 256 + lang + hyph + 4 * cx->nchain * (sizeof cx->chain[0][0] + 1);
    for (size_t i = 0; i < nspans && need <= SETCACHE_MAX_KEY; i++)
        need += spans[i].len + 16 + (spans[i].link ? strlen(spans[i].link) : 0);
    if (need > SETCACHE_MAX_KEY)
        return false;
    key_room(sc, need);
    unsigned char *q = sc->key;
    PUTV(q, kind);
    PUTV(q, width);
    PUTV(q, cx->eng);
    uint32_t nchain = (uint32_t)cx->nchain;
    PUTV(q, nchain);
    for (int s = 0; s < 4; s++) {
        PUT(q, cx->chain[s], cx->nchain * sizeof cx->chain[s][0]);
        PUT(q, cx->synth[s], cx->nchain * sizeof cx->synth[s][0]);
    }
    PUTV(q, cx->mono);
    PUTV(q, cx->rtl);
    PUTV(q, cx->lay->lining_figures);
    PUTV(q, cx->lay->cjk_latin_space);
    q = put_str(q, cx->lang, lang);
    PUTV(q, fmt->size);
    PUTV(q, fmt->color);
    PUTV(q, fmt->link_color);
    PUTV(q, fmt->style);
    PUTV(q, fmt->tracking);
    unsigned char flags = (unsigned char)(fmt->justify | fmt->hyphenate << 1 |
                                          fmt->greedy << 2 | fmt->small_caps << 3 |
                                          fmt->link_icon << 4);
    PUTV(q, flags);
    q = put_str(q, fmt->hyphenation, hyph);
    uint32_t n = (uint32_t)nspans;
    PUTV(q, n);
    for (size_t i = 0; i < nspans; i++) {
        uint32_t style = (uint32_t)spans[i].style;
        PUTV(q, style);
        q = put_str(q, spans[i].link, spans[i].link ? strlen(spans[i].link) : 0);
        q = put_str(q, spans[i].text, spans[i].len);
    }
    sc->keylen = (size_t)(q - sc->key);
    return true;
}

/* 64-bit FNV-1a over eight bytes at a time, then mixed. */
static uint64_t key_hash(const unsigned char *k, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, k + i, 8);
        h = (h ^ w) * 0x100000001b3u;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ k[i]) * 0x100000001b3u;
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93u;
    h ^= h >> 32;
    return h;
}

/* The entry of the key in sc->key, or NULL; *at is its slot, or the free
 * slot where it would go. */
static setentry *find_key(const cv_setcache *sc, uint64_t h, const unsigned char *key,
                          size_t keylen)
{
    if (!sc->cap)
        return NULL;
    for (size_t i = (size_t)h & (sc->cap - 1);; i = (i + 1) & (sc->cap - 1)) {
        setentry *e = sc->slot[i];
        if (!e)
            return NULL;
        if (e->hash == h && e->keylen == keylen && !memcmp(e->key, key, keylen))
            return e;
    }
}

static setentry *find(cv_setcache *sc, uint64_t h)
{
    return find_key(sc, h, sc->key, sc->keylen);
}

/* The paragraph of the key in sc->key: kept for this profile, or for
 * every profile (sc->shared). */
static setentry *find_either(cv_setcache *sc, uint64_t h)
{
    setentry *e = find(sc, h);
    if (!e && sc->shared)
        e = find_key(sc->shared, h, sc->key, sc->keylen);
    return e;
}

void cv_setcache_keep(cv_setcache *sc, bool keep)
{
    if (sc)
        sc->frozen = !keep;
}

/* A new entry for `key`, hash h; NULL when the cache is full. */
static setentry *add_key(cv_setcache *sc, uint64_t h, const unsigned char *key, size_t keylen)
{
    if (sc->stats.bytes > CV_SETCACHE_BUDGET)
        return NULL;
    if (2 * (sc->n + 1) > sc->cap) {
        size_t nc = sc->cap ? 2 * sc->cap : 256;
        setentry **ns = cv_arena_alloc(sc->a, nc * sizeof *ns);
        memset(ns, 0, nc * sizeof *ns);
        for (size_t i = 0; i < sc->cap; i++)
            if (sc->slot[i]) {
                size_t k = (size_t)sc->slot[i]->hash & (nc - 1);
                while (ns[k])
                    k = (k + 1) & (nc - 1);
                ns[k] = sc->slot[i];
            }
        sc->slot = ns;
        sc->cap = nc;
    }
    size_t at = (size_t)h & (sc->cap - 1);
    while (sc->slot[at])
        at = (at + 1) & (sc->cap - 1);
    setentry *e = cv_arena_alloc(sc->a, sizeof *e);
    memset(e, 0, sizeof *e);
    e->hash = h;
    e->keylen = keylen;
    e->key = cv_arena_alloc(sc->a, keylen);
    memcpy(e->key, key, keylen);
    e->warns = -1;
    sc->slot[at] = e;
    sc->n++;
    sc->stats.entries++;
    sc->stats.bytes += sizeof *e + keylen;
    return e;
}

static setentry *add(cv_setcache *sc, uint64_t h)
{
    return add_key(sc, h, sc->key, sc->keylen);
}

/* Where a paragraph set now is kept: for every profile while the shared
 * cache has room, else for this one; NULL when neither keeps it. */
static cv_setcache *keeper(cv_setcache *sc)
{
    if (sc->frozen)
        return NULL;
    if (sc->shared && sc->shared->stats.bytes <= CV_SETCACHE_BUDGET)
        return sc->shared;
    return sc;
}

/* Lines of cv_wrap() whose links' targets are copied into `a`. */
static size_t wrap_into(cv_arena *a, const cv_ctx *cx, const cv_span *spans, size_t nspans,
                        const cv_textfmt *fmt, float width, cv_pos pos, cv_line **out,
                        cv_error *err)
{
    size_t nl = cv_wrap(a, cx, spans, nspans, fmt, width, pos, out, err);
    for (size_t i = 0; i < nl; i++)
        for (size_t k = 0; k < (*out)[i].nlinks; k++)
            (*out)[i].links[k].uri = cv_arena_strdup(a, (*out)[i].links[k].uri);
    return nl;
}

size_t cv_wrap_once(cv_arena *a, const cv_ctx *cx, const cv_span *spans, size_t nspans,
                    const cv_textfmt *fmt, float width, cv_pos pos, cv_line **out,
                    cv_error *err)
{
    cv_setcache *sc = cx->sc;
    if (!sc || !make_key(sc, 1, cx, spans, nspans, fmt, width))
        return wrap_into(a, cx, spans, nspans, fmt, width, pos, out, err);
    uint64_t h = key_hash(sc->key, sc->keylen);
    setentry *e = find_either(sc, h);
    if (e && (e->warns == 0 || (e->warns < 0 && !err))) {
        sc->stats.hits++;
        *out = e->lines;
        return e->nlines;
    }
    /* Not set yet; or its setting warned (or may have), and says so again
     * to these diagnostics, as cv_wrap() would. */
    sc->stats.sets++;
    int before = err ? err->nwarnings : 0;
    if (e) {
        cv_wrap(a, cx, spans, nspans, fmt, width, pos, out, err);
        if (err)
            e->warns = err->nwarnings != before;
        *out = e->lines;       /* the same lines: share the ones kept */
        return e->nlines;
    }
    cv_setcache *k = keeper(sc);
    e = k ? add_key(k, h, sc->key, sc->keylen) : NULL;
    if (!e)
        return wrap_into(a, cx, spans, nspans, fmt, width, pos, out, err);
    size_t used = cv_arena_used(k->a);
    e->nlines = wrap_into(k->a, cx, spans, nspans, fmt, width, pos, &e->lines, err);
    k->stats.bytes += cv_arena_used(k->a) - used;
    e->warns = err ? err->nwarnings != before : -1;
    *out = e->lines;
    return e->nlines;
}

float cv_measure_once(const cv_ctx *cx, const cv_span *spans, size_t nspans,
                      const cv_textfmt *fmt)
{
    cv_setcache *sc = cx->sc;
    if (!sc || !make_key(sc, 2, cx, spans, nspans, fmt, 0))
        return cv_measure(NULL, cx, spans, nspans, fmt);
    uint64_t h = key_hash(sc->key, sc->keylen);
    setentry *e = find_either(sc, h);
    if (e) {
        sc->stats.hits++;
        return e->width;
    }
    sc->stats.sets++;
    float w = cv_measure(NULL, cx, spans, nspans, fmt);
    cv_setcache *k = keeper(sc);
    if (k && (e = add_key(k, h, sc->key, sc->keylen)) != NULL)
        e->width = w;
    return w;
}

void **cv_setcache_slot(cv_setcache *sc, unsigned char kind, const void *k1, const void *k2)
{
    if (!sc)
        return NULL;
    key_room(sc, 1 + 2 * sizeof k1);
    unsigned char *q = sc->key;
    kind |= 0x80;                /* apart from cv_wrap's and cv_measure's keys */
    PUTV(q, kind);
    PUTV(q, k1);
    PUTV(q, k2);
    sc->keylen = (size_t)(q - sc->key);
    uint64_t h = key_hash(sc->key, sc->keylen);
    setentry *e = find(sc, h);
    if (!e)
        e = add(sc, h);
    return e ? &e->memo : NULL;
}

cv_arena *cv_setcache_arena(cv_setcache *sc)
{
    return sc->a;
}
