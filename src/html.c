/* html.c - a résumé as one self-contained HTML5 page (html.h).
 *
 * The page is written in two passes over one buffer.  The body comes
 * first: the header, the sections, the sidebar; every character of text
 * goes through text(), which escapes it, marks runs in another script
 * with their language, and notes the code point in the list of families
 * and the style (bold, italic) the page's CSS will set it in.  Then the
 * head: the Content-Security-Policy, the JSON-LD Person, and the <style>,
 * whose @font-face rules embed each face the page needs, each subset to
 * the code points the browser will draw with it (hb-subset: resolve())
 * and compressed as WOFF2 (woff2_shim.cc).
 *
 * The text is the PDF's: an entry's lines are its layout's templates
 * expanded by template.h, the contact items compose.h's, a section title
 * cased as the layout cases it, quotes made typographic when the layout
 * asks.  The browser breaks the lines; the layout's sizes, colours and
 * spacing become CSS in points, so that printing the page comes close to
 * the PDF (@page has the layout's size and margins).
 *
 * Links keep only http, https, mailto and tel targets; any other becomes
 * text.  The only script is the JSON-LD, which no browser runs.
 */
#include "html.h"

#include <hb-subset.h>
#include <hb.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compose.h"
#include "date.h"
#include "engine.h"
#include "fontset.h"
#include "image.h"
#include "lang.h"
#include "markup.h"
#include "photo.h"
#include "quotes.h"
#include "template.h"
#include "unicode.h"
#include "woff2_shim.h"

/* ---- a growing buffer (arena.h's cv_buf) ------------------------------- */

typedef cv_buf buf;

static void base64(buf *b, const unsigned char *p, size_t n)
{
    static const char tab[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char out[4];
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        out[0] = tab[v >> 18 & 63];
        out[1] = tab[v >> 12 & 63];
        out[2] = i + 1 < n ? tab[v >> 6 & 63] : '=';
        out[3] = i + 2 < n ? tab[v & 63] : '=';
        cv_buf_put(b, out, 4);
    }
}

/* ---- the writer ---------------------------------------------------------- */

/* A date of the entry being written, shown as `text`, in a <time>. */
typedef struct when {
    const char *text;
    char iso[16];
} when;

/* The lists of families the page's CSS sets text in: the body's (the
 * chain, then the script faces), a part's (its own faces first: the name,
 * the headline, the contact line, the section titles) and code's. */
enum { FL_BODY, FL_ROLE, FL_CODE = FL_ROLE + CV_NROLES, FL_N };

/* The code points set in one list and style, each once (a bit per BMP
 * code point: a page's every character, repeated and then sorted, cost a
 * quarter of the page's time); one beyond the BMP is noted each time it
 * comes. */
typedef struct cpset {
    unsigned char *seen;
    uint32_t *cp;
    size_t n, c;
} cpset;

/* What the text being written is set in, as the page's CSS styles it:
 * a list of families (FL_*), bold or not (CV_STYLE_BOLD: the element's
 * weight, <strong>), italic (<em>), small capitals, and whether the
 * browser may hyphenate it (hyphens:auto). */
typedef struct tctx {
    int fl;
    unsigned sty;
    bool caps, autohy;
} tctx;

/* A family of the page's @font-face rules, "cv0", "cvr1", "cvs0", "cvm":
 * its face in each style (CV_STYLE_* bits; -1 none), whether that style
 * has a rule of its own (a face once: a style whose face is another
 * style's, or none, the browser takes from the nearest style), and the
 * code points the face of each style is subset to: those the page sets
 * in that style whose first family with the character is this one. */
typedef struct ffam {
    char name[16];
    int id[4];
    bool present[4];
    hb_set_t *set[4];
    /* A bold face with fewer characters than its family's regular one
     * (Debian's EB Garamond Bold has no curly quotes): those set in bold
     * that it lacks, from the face of style lender[s], in a second rule
     * of the bold style limited to them by its unicode-range (the PDF
     * takes the regular face's glyph, emboldened: wrap.c). */
    hb_set_t *lent[4];
    int lender[4];
} ffam;

typedef struct hw {
    cv_arena *a;
    const cv_doc *doc;
    const cv_ctx *cx;
    const cv_style *st;
    buf b;
    cv_script own;            /* the script of the page's language */
    cpset used[FL_N][4];      /* the code points set in each list and style */
    tctx tc;                  /* of the text being written */
    const char *lang;         /* the page's, for small capitals' capitals */
    ffam fams[CV_MAX_CHAIN * 2 + CV_NROLES + 1];
    size_t nfams;
    int fam_role[CV_NROLES], fam_mono;   /* index in fams; -1 none */
    size_t fam_script;        /* the script faces' from here on */
    when edates[3];           /* of the entry being written */
    size_t nedates;
    const when *dates;        /* those text() puts in <time>: the entry's while a
                                 line whose template shows a date is written */
    size_t ndates;
    int nsec;                 /* sections written: their ids */
    bool woff2_said;          /* the WOFF2 module's absence was said */
    int sface[CV_MAX_CHAIN][4];   /* the engine's faces for scripts the chain lacks
                                     (cv_engine_script_face), in each style */
    size_t nsface;
    cv_error *err;            /* warnings */
    bool quotes;              /* text.smart_quotes */
    cv_quotes q;
    bool shy;                 /* soft hyphens in the text being written */
    cv_hyph *hy;              /* the profile language's patterns; NULL: none */
    bool hy_wide, hy_caps;    /* as wrap.c: non-ASCII letters, German capitals */
    bool hy_auto;             /* the CSS asks the browser to hyphenate (hyphens:auto) */
} hw;

static void note_in(hw *w, int fl, unsigned sty, uint32_t cp)
{
    cpset *s = &w->used[fl][sty & 3];
    if (cp < 0x10000) {
        if (!s->seen)
            s->seen = cv_arena_alloc(w->a, 0x10000 / 8);      /* zeroed */
        if (s->seen[cp >> 3] & (1u << (cp & 7)))
            return;
        s->seen[cp >> 3] |= (unsigned char)(1u << (cp & 7));
    }
    CV_PUSH(w->a, s->cp, s->n, s->c, cp);
}

/* Note a code point the page shows, in the list and style it is set in;
 * in small capitals its capital too (a browser draws a face's capitals
 * smaller where the face has no small capitals). */
static void note_cp(hw *w, uint32_t cp)
{
    if (cp < 0x20) {
        if (cp != '\n' && cp != '\t')
            return;                    /* dropped by esc(); these become spaces */
        cp = ' ';
    }
    note_in(w, w->tc.fl, w->tc.sty, cp);
    if (w->tc.caps) {
        uint32_t up = cp == 0xDF ? 'S' : cv_upper_char(cp, w->lang);
        uint32_t caps = cv_caps_char(cp, w->lang);      /* Greek: without its accent */
        if (up)
            note_in(w, w->tc.fl, w->tc.sty, up);
        if (caps && caps != up)
            note_in(w, w->tc.fl, w->tc.sty, caps);
    }
}

/* Every code point of s, as note_cp() notes it. */
static void note_str(hw *w, const char *s)
{
    for (size_t k = 0, len = strlen(s); k < len;) {
        uint32_t cp;
        size_t step = cv_utf8_decode(s + k, len - k, &cp);
        if (!step)
            break;
        note_cp(w, cp);
        k += step;
    }
}

/* Set the text that follows in list `fl`, bold or not, in small capitals
 * or not (an element's CSS); the context it replaces. */
static tctx enter(hw *w, int fl, bool bold, bool caps)
{
    tctx old = w->tc;
    w->tc = (tctx){fl, bold ? CV_STYLE_BOLD : 0, caps, false};
    return old;
}

/* `s` escaped for an attribute or text, code points not noted. */
static void esc(buf *b, const char *s, size_t n)
{
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        const char *r = s[i] == '&' ? "&amp;" : s[i] == '<' ? "&lt;" : s[i] == '>' ? "&gt;"
                        : s[i] == '"' ? "&quot;" : s[i] == '\'' ? "&#39;" : NULL;
        if (!r && (unsigned char)s[i] >= 0x20)
            continue;
        cv_buf_put(b, s + from, i - from);
        if (r)
            cv_buf_puts(b, r);
        else if (s[i] == '\n' || s[i] == '\t')
            cv_buf_put(b, " ", 1);
        from = i + 1;                       /* other control characters dropped */
    }
    cv_buf_put(b, s + from, n - from);
}

static void esc0(buf *b, const char *s)
{
    esc(b, s, strlen(s));
}

/* A URL in an attribute: a space, a control character and the bytes a
 * URL may not hold as they are ("<>\\^`{|} and DEL) percent-encoded, so
 * that the value is a valid URL (tidy, the WHATWG parser); & as &amp;. */
static void esc_url(buf *b, const char *u)
{
    static const char hex[] = "0123456789ABCDEF";
    for (; *u; u++) {
        unsigned char c = (unsigned char)*u;
        if (c <= 0x20 || c == 0x7F || strchr("\"<>\\^`{|}", c)) {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            cv_buf_put(b, e, 3);
        } else if (c == '&') {
            cv_buf_puts(b, "&amp;");
        } else if (c == '\'') {
            cv_buf_puts(b, "&#39;");
        } else {
            cv_buf_put(b, u, 1);
        }
    }
}

/* The script that marks a run as another language's, and that language. */
static const char *script_lang(cv_script sc, bool kana)
{
    switch (sc) {
    case CV_SCRIPT_HAN:
        return kana ? "ja" : "zh";
    case CV_SCRIPT_KANA:
        return "ja";
    case CV_SCRIPT_HANGUL:
        return "ko";
    case CV_SCRIPT_HEBREW:
        return "he";
    case CV_SCRIPT_ARABIC:
        return "ar";
    case CV_SCRIPT_CYRILLIC:
        return "ru";
    case CV_SCRIPT_GREEK:
        return "el";
    case CV_SCRIPT_DEVANAGARI:
        return "hi";
    default:
        return NULL;
    }
}

/* The script a language is written in. */
static cv_script lang_script(const char *lang)
{
    static const struct {
        const char *lang;
        cv_script sc;
    } t[] = {{"zh", CV_SCRIPT_HAN},      {"ja", CV_SCRIPT_HAN},        {"ko", CV_SCRIPT_HANGUL},
             {"he", CV_SCRIPT_HEBREW},   {"ar", CV_SCRIPT_ARABIC},     {"fa", CV_SCRIPT_ARABIC},
             {"ur", CV_SCRIPT_ARABIC},   {"ru", CV_SCRIPT_CYRILLIC},   {"uk", CV_SCRIPT_CYRILLIC},
             {"bg", CV_SCRIPT_CYRILLIC}, {"sr", CV_SCRIPT_CYRILLIC},   {"el", CV_SCRIPT_GREEK},
             {"hi", CV_SCRIPT_DEVANAGARI}, {"mr", CV_SCRIPT_DEVANAGARI}};
    size_t n = lang ? strcspn(lang, "-_") : 0;
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        if (n == strlen(t[i].lang) && !strncmp(lang, t[i].lang, n))
            return t[i].sc;
    return CV_SCRIPT_LATIN;
}

/* Kana and Han are one script for a Japanese run. */
static cv_script run_script(cv_script sc)
{
    return sc == CV_SCRIPT_KANA ? CV_SCRIPT_HAN : sc;
}

static bool strong(cv_script sc)
{
    return sc != CV_SCRIPT_COMMON && sc != CV_SCRIPT_OTHER;
}

/* A run s[i, end) of Chinese, Japanese or Korean on a page in another
 * script that the PDF keeps on one line (wrap.c's tie_cjk_words): at most
 * four letters, no full-width punctuation in it or beside it. */
static bool cjk_word(const hw *w, const char *s, size_t n, size_t i, size_t end)
{
    if (w->own == CV_SCRIPT_HAN || w->own == CV_SCRIPT_HANGUL)
        return false;
    size_t letters = 0, b = i;     /* from the character before the run */
    if (b > 0)
        b--;
    while (b > 0 && cv_utf8_is_cont((unsigned char)s[b]))
        b--;
    for (size_t p = b; p < n;) {
        uint32_t c;
        size_t k = cv_utf8_decode(s + p, n - p, &c);
        if (!k)
            return false;
        bool in = p >= i && p < end;
        if (in && cv_unicode_ideograph(c))
            letters++;
        else if (cv_unicode_wide(c) && !cv_unicode_ideograph(c))
            return false;         /* full-width punctuation: a CJK sentence */
        if (p >= end)
            break;                /* the character after the run, checked */
        p += k;
    }
    return letters > 0 && letters <= 4;
}

/* Text: escaped, each code point noted, a run of a script other than the
 * page's in a <span lang>, the entry's dates in <time datetime>. */
static void text(hw *w, const char *s, size_t n)
{
    buf *b = &w->b;
    size_t i = 0;
    /* Where the browser may hyphenate, the hyphen it draws at a break. */
    if (w->tc.autohy && n)
        note_in(w, w->tc.fl, w->tc.sty, '-');
    while (i < n) {
        for (size_t d = 0; d < w->ndates; d++) {
            size_t dl = strlen(w->dates[d].text);
            if (dl && dl <= n - i && !memcmp(s + i, w->dates[d].text, dl)) {
                cv_buf_printf(b, "<time datetime=\"%s\">", w->dates[d].iso);
                size_t keep = w->ndates;
                w->ndates = 0;             /* no <time> inside a <time> */
                text(w, s + i, dl);
                w->ndates = keep;
                cv_buf_puts(b, "</time>");
                i += dl;
                goto next;
            }
        }
        uint32_t cp;
        size_t k = cv_utf8_decode(s + i, n - i, &cp);
        if (!k)
            k = 1, cp = 0xFFFD;
        cv_script sc = run_script(cv_script_of(cp));
        if (strong(sc) && sc != run_script(w->own) && script_lang(sc, false)) {
            /* The run: up to its last character of that script. */
            size_t j = i, end = i + k;
            bool kana = false;
            while (j < n) {
                uint32_t c2;
                size_t k2 = cv_utf8_decode(s + j, n - j, &c2);
                if (!k2)
                    break;
                cv_script s2 = cv_script_of(c2);
                if (strong(s2) && run_script(s2) != sc)
                    break;
                kana |= s2 == CV_SCRIPT_KANA;
                j += k2;
                if (strong(s2))
                    end = j;
            }
            const char *lang = script_lang(sc, kana);
            /* Han in a Japanese page is Japanese, as in a Chinese one Chinese. */
            if (sc == CV_SCRIPT_HAN && w->own == CV_SCRIPT_HAN)
                lang = NULL;
            if (lang)
                cv_buf_printf(b, "<span lang=\"%s\"%s>", lang,
                              cjk_word(w, s, n, i, end) ? " class=\"cjkw\"" : "");
            for (size_t p = i; p < end;) {
                uint32_t c3;
                size_t k3 = cv_utf8_decode(s + p, end - p, &c3);
                if (!k3)
                    k3 = 1;
                note_cp(w, c3);
                p += k3;
            }
            esc(b, s + i, end - i);
            if (lang)
                cv_buf_puts(b, "</span>");
            i = end;
            continue;
        }
        note_cp(w, cp);
        esc(b, s + i, k);
        i += k;
    next:;
    }
}

/* Letters of a word the patterns hyphenate: ASCII's, or with another
 * language's patterns Latin and Cyrillic ones too (wrap.c's rule). */
static bool hy_letter(const hw *w, uint32_t c)
{
    if (c < 0x80)
        return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
    cv_script sc = cv_script_of(c);
    return w->hy_wide && (sc == CV_SCRIPT_LATIN || sc == CV_SCRIPT_CYRILLIC) &&
           cv_unicode_letter(c) && !cv_unicode_wide(c);
}

/* Beside a word, a character that makes it part of an identifier, an
 * address or a compound ("snake_case", "a@b.org", "mixed-precision"):
 * such a word is not hyphenated, as in the PDF. */
static bool hy_glued(uint32_t c)
{
    if (c >= 0x80)           /* a letter of another alphabet; not a dash or a quote */
        return !(c == 0xA0 || c == 0x2009 || c == 0x202F || c == 0x2013 || c == 0x2014 ||
                 (c >= 0x2018 && c <= 0x201D));
    return (c >= '0' && c <= '9') || (c && strchr("_@/\\#=+&%$<>|~^`*-", (int)c));
}

/* `s` as text() writes it, with a soft hyphen at each hyphenation point of
 * its words (cvpdf's patterns for the profile's language, as the PDF
 * breaks them: words of 5 letters or more, 2 before a point and 3 after),
 * so that a browser without hyphenation dictionaries (Chromium on Linux)
 * can still break a justified line inside a long word instead of opening
 * wide gaps. */
static void text_shy(hw *w, const char *s, size_t n)
{
    size_t i = 0, from = 0;
    while (i < n) {
        uint32_t c;
        size_t k = cv_utf8_decode(s + i, n - i, &c);
        if (!k || !hy_letter(w, c)) {
            i += k ? k : 1;
            continue;
        }
        /* A word: [b, e), its letters counted. */
        size_t b = i, e = i, len = 0;
        bool ok = true;
        char word[64 * CV_UTF8_MAX + 1], *q = word;
        size_t off[64];                /* byte offset of each letter */
        while (e < n) {
            uint32_t d;
            size_t kd = cv_utf8_decode(s + e, n - e, &d);
            if (!kd || !hy_letter(w, d))
                break;
            bool up = d < 0x80 ? (d >= 'A' && d <= 'Z') : cv_unicode_upper(d);
            if (up && (len || !w->hy_caps))
                ok = false;            /* capitals inside, or a name in English */
            if (len < 63) {
                off[len] = e;
                q += cv_utf8_encode(up ? (d < 0x80 ? d | 0x20 : cv_unicode_tolower(d)) : d, q);
            }
            len++;
            e += kd;
        }
        *q = 0;
        i = e;
        if (!ok || len < 5 || len >= 30)
            continue;
        uint32_t before = 0, after = 0;
        if (b > 0) {
            size_t pb = cv_utf8_prev(s, b);
            cv_utf8_decode(s + pb, b - pb, &before);
        }
        if (e < n)
            cv_utf8_decode(s + e, n - e, &after);
        /* A '.' or ':' before a letter joins the word to the next one
         * (example.com, http:x); before the word, to the one before. */
        uint32_t next = 0;
        if ((after == '.' || after == ':') && e + 1 < n)
            cv_utf8_decode(s + e + 1, n - e - 1, &next);
        if (hy_glued(before) || before == '.' || before == ':' || hy_glued(after) ||
            ((after == '.' || after == ':') && (hy_letter(w, next) || hy_glued(next))))
            continue;
        const char *words[1] = {word};
        unsigned char pts[1][64];
        if (!cv_hyphenate_levels(w->hy, words, 1, pts, 2, 3))
            break;
        /* A browser weighs every soft hyphen alike: not the weak points
         * the PDF takes only in an emergency (fewer than 3 letters before,
         * or 4 after), and in a compound only its joints (level 5 and up,
         * which the PDF prefers). */
        bool joints = false;         /* a compound's joints: then those alone */
        for (size_t l = 0; l + 1 < len; l++)
            joints |= pts[0][l] >= 5;
        for (size_t l = 0; l + 1 < len; l++)
            if (joints ? pts[0][l] >= 5
                       : pts[0][l] && l + 1 >= 3 && len - l - 1 >= 4) {
                text(w, s + from, off[l + 1] - from);
                cv_buf_puts(&w->b, "\xC2\xAD");
                note_cp(w, '-');       /* the hyphen a browser draws at a break */
                from = off[l + 1];
            }
    }
    text(w, s + from, n - from);
}

static void text0(hw *w, const char *s)
{
    text(w, s, strlen(s));
}

/* Spans as HTML: bold, italic, code, links (consecutive spans of one link
 * in one <a>).  With text.smart_quotes, quotes made typographic, the
 * spans read as one paragraph. */
static const char *span_link(const cv_span *sp)
{
    return sp->link && cv_markup_web_link(sp->link) ? sp->link : NULL;
}

/* Whether spans a and b go in the same elements: one style, one link (a
 * template's fields in italic are one <em>, not "<em>a</em><em> </em>"). */
static bool same_elements(const cv_span *a, const cv_span *b)
{
    const char *la = span_link(a), *lb = span_link(b);
    return a->style == b->style && (la == lb || (la && lb && !strcmp(la, lb)));
}

static void spans(hw *w, const cv_span *sp, size_t n)
{
    buf *b = &w->b;
    cv_quotes q = w->q;
    for (size_t i = 0; i < n; i++) {
        const char *link = span_link(&sp[i]);
        bool cont = i && same_elements(&sp[i - 1], &sp[i]);
        bool ends = i + 1 == n || !same_elements(&sp[i], &sp[i + 1]);
        bool open = link && (!i || !sp[i - 1].link || strcmp(sp[i - 1].link, link));
        if (open) {
            /* In a right-to-left page a link (a phone number, an address)
             * takes the direction of its own text. */
            cv_buf_puts(b, w->doc->locale.rtl ? "<a dir=\"auto\" href=\"" : "<a href=\"");
            esc_url(b, link);
            cv_buf_puts(b, "\">");
        }
        unsigned s = sp[i].style;
        /* Set in the element's list and weight, bolder in <strong>, in
         * <em> italic, <code> in the code's face. */
        tctx keep = w->tc;
        w->tc.sty |= s & (CV_STYLE_BOLD | CV_STYLE_ITALIC);
        if (s & CV_STYLE_CODE)
            w->tc.fl = FL_CODE;
        if ((s & CV_STYLE_BOLD) && !cont)
            cv_buf_puts(b, "<strong>");
        if ((s & CV_STYLE_ITALIC) && !cont)
            cv_buf_puts(b, "<em>");
        if ((s & CV_STYLE_CODE) && !cont)
            cv_buf_puts(b, "<code>");
        size_t len = sp[i].len;
        /* An address keeps its quotes (markup.h), as in the PDF. */
        const char *t = w->quotes && !cv_markup_is_address(&sp[i])
                            ? cv_quotes_apply(w->a, &q, sp[i].text, sp[i].len, &len)
                            : sp[i].text;
        if (w->shy && w->hy && !link && !(s & (CV_STYLE_BOLD | CV_STYLE_CODE)) && !w->ndates)
            text_shy(w, t, len);
        else
            text(w, t, len);
        if ((s & CV_STYLE_CODE) && ends)
            cv_buf_puts(b, "</code>");
        if ((s & CV_STYLE_ITALIC) && ends)
            cv_buf_puts(b, "</em>");
        if ((s & CV_STYLE_BOLD) && ends)
            cv_buf_puts(b, "</strong>");
        w->tc = keep;
        bool close = link && (i + 1 == n || !sp[i + 1].link || strcmp(sp[i + 1].link, link));
        if (close)
            cv_buf_puts(b, "</a>");
    }
}

static void markup(hw *w, const char *m)
{
    cv_span *sp;
    size_t n = cv_markup_parse(w->a, m, 0, &sp);
    spans(w, sp, n);
}

/* ---- the body ------------------------------------------------------------ */

static void photo_img(hw *w, const cv_image *photo, const char *cls);

/* The entry's dates as its templates show them (cv_date_format), each
 * with its ISO date for <time datetime>. */
static void entry_dates(hw *w, const cv_entry *e)
{
    const cv_date *ds[] = {&e->date, &e->start_date, &e->end_date};
    w->nedates = w->ndates = 0;
    for (size_t i = 0; i < 3; i++) {
        const cv_date *d = ds[i];
        if (d->kind != CV_DATE_YEAR && d->kind != CV_DATE_MONTH && d->kind != CV_DATE_DAY)
            continue;
        const char *t = cv_date_format(w->a, d, &w->doc->locale);
        if (!t || !*t)
            continue;
        when *wh = &w->edates[w->nedates++];
        wh->text = t;
        if (d->kind == CV_DATE_YEAR)
            snprintf(wh->iso, sizeof wh->iso, "%04d", d->year);
        else if (d->kind == CV_DATE_MONTH || !strstr(t, "DAY"))
            snprintf(wh->iso, sizeof wh->iso, "%04d-%02d", d->year, d->month);
        else
            snprintf(wh->iso, sizeof wh->iso, "%04d-%02d-%02d", d->year, d->month, d->day);
    }
}

/* Template lines of `e`, each non-empty one as <tag class=cls>, the
 * first as <first> when given. */
static size_t tmpl_lines(hw *w, const char *const *tmpl, size_t n, const cv_entry *e,
                         const char *tag, const char *first, const char *cls)
{
    size_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        cv_span *sp;
        size_t k = cv_template_expand(w->a, tmpl[i], e, w->doc, &sp);
        if (!k)
            continue;
        if (e->kind == CV_ENTRY_ONELINE)
            cv_compose_label_colon(w->a, &sp, k);
        const char *t = !shown && first ? first : tag;
        cv_buf_printf(&w->b, "<%s class=\"%s\">", t, cls);
        /* The dates in <time>, where the template shows one (DATE,
         * START_DATE, END_DATE). */
        w->dates = w->edates;
        w->ndates = strstr(tmpl[i], "DATE") ? w->nedates : 0;
        spans(w, sp, k);
        w->ndates = 0;
        cv_buf_printf(&w->b, "</%s>\n", t);
        shown++;
    }
    return shown;
}

static void profile_text(hw *w, const char *s)
{
    cv_span *sp;
    size_t n = cv_template_text(w->a, w->doc, s, 0, &sp);
    spans(w, sp, n);
}

/* The marker a list's CSS draws (its ::marker content: the mark and two
 * spaces), set in the body's face as its items are. */
static void note_marker(hw *w, const char *mark)
{
    tctx keep = enter(w, FL_BODY, false, false);
    note_str(w, mark);
    note_cp(w, ' ');
    w->tc = keep;
}

static void highlights(hw *w, const cv_highlight *hl, size_t n, int depth)
{
    bool keep_shy = w->shy, keep_auto = w->tc.autohy;
    w->shy = true;
    w->tc.autohy = w->hy_auto;
    note_marker(w, depth ? (w->st->sub_bullet ? w->st->sub_bullet : "\xE2\x80\x93")
                         : (w->st->bullet ? w->st->bullet : "\xE2\x80\xA2"));
    cv_buf_printf(&w->b, "<ul class=\"hl%s\">\n", depth ? " sub" : "");
    for (size_t i = 0; i < n; i++) {
        cv_buf_puts(&w->b, "<li>");
        profile_text(w, hl[i].text.s);
        if (hl[i].nsub) {
            cv_buf_puts(&w->b, "\n");
            highlights(w, hl[i].sub, hl[i].nsub, depth + 1);
        }
        cv_buf_puts(&w->b, "</li>\n");
    }
    cv_buf_puts(&w->b, "</ul>\n");
    w->shy = keep_shy;
    w->tc.autohy = keep_auto;
}

/* The width in points of `sp` set in the body's first face of each
 * style at the body's size (hb_shape, as the PDF measures it; a glyph
 * the face lacks counts as its .notdef). */
static float spans_width(hw *w, const cv_span *sp, size_t n)
{
    const cv_fontset *fs = w->cx->eng->fonts;
    float pt = 0;
    for (size_t i = 0; i < n; i++) {
        int id = w->cx->chain[sp[i].style & 3][0];
        const cv_face *f = id >= 0 ? cv_fontset_face(fs, id) : NULL;
        if (!f || !f->hb || f->broken || f->upem <= 0)
            continue;
        hb_buffer_t *hb = hb_buffer_create();
        hb_buffer_add_utf8(hb, sp[i].text, (int)sp[i].len, 0, (int)sp[i].len);
        hb_buffer_guess_segment_properties(hb);
        hb_shape(f->hb, hb, NULL, 0);
        unsigned ng = 0;
        const hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(hb, &ng);
        long adv = 0;
        for (unsigned g = 0; pos && g < ng; g++)
            adv += pos[g].x_advance;
        hb_buffer_destroy(hb);
        pt += (float)adv * w->st->size / (float)f->upem;
    }
    return pt;
}

/* The section's degree column, as the PDF sets it (compose.c's
 * degree_col): entries.degree_width, widened to the widest degree and a
 * gap of 0.1cm, a word never broken; the same for every entry of the
 * section.  0: the section has none. */
static float degree_col(hw *w, const cv_section *sec)
{
    float dw = 0;
    for (size_t i = 0; w->st->degree_width > 0 && i < sec->nentries; i++) {
        const cv_entry *e = &sec->entries[i];
        const cv_template *tp = &w->st->tmpl[e->kind];
        if (!tp->ndegree)
            continue;
        if (dw < w->st->degree_width)
            dw = w->st->degree_width;
        for (size_t r = 0; r < tp->ndegree; r++) {
            cv_span *sp;
            size_t k = cv_template_expand(w->a, tp->degree[r], e, w->doc, &sp);
            float lw = spans_width(w, sp, k) + 2.835f;
            if (lw > dw)
                dw = lw;
        }
    }
    return dw;
}

static void full_entry(hw *w, const cv_section *sec, const cv_entry *e, float dw)
{
    const cv_template *tp = &w->st->tmpl[e->kind];
    buf *b = &w->b;
    entry_dates(w, e);
    cv_buf_puts(b, "<article class=\"entry\">\n<div class=\"head\">\n");
    if (tp->ndegree && w->st->degree_width > 0) {
        if (dw > w->st->degree_width + 0.01f)
            cv_buf_printf(b, "<div class=\"degree\" style=\"--dw:%.2fpt\">", dw);
        else
            cv_buf_puts(b, "<div class=\"degree\">");
        tmpl_lines(w, tp->degree, tp->ndegree, e, "p", NULL, "line");
        cv_buf_puts(b, "</div>\n");
    }
    cv_buf_puts(b, "<div class=\"main\">\n");
    static const char *const text_only[] = {"TEXT"};
    if (tp->nmain)
        tmpl_lines(w, tp->main, tp->nmain, e, "p", "h3", "line");
    else
        tmpl_lines(w, text_only, 1, e, "p", "h3", "line");
    cv_buf_puts(b, "</div>\n");
    /* RenderCV's time span ("2 years 10 months") under the dates, in the
     * sections dates.show_time_spans_in names, as compose shows it. */
    const char *span = cv_compose_time_span(w->a, w->cx->lay, w->doc, sec, e);
    if (tp->nside || span) {
        cv_buf_puts(b, "<div class=\"side\">\n");
        tmpl_lines(w, tp->side, tp->nside, e, "p", NULL, "line");
        if (span) {
            cv_buf_puts(b, "<p class=\"line\">");
            text0(w, span);
            cv_buf_puts(b, "</p>\n");
        }
        cv_buf_puts(b, "</div>\n");
    }
    cv_buf_puts(b, "</div>\n");
    w->ndates = 0;
    if (e->summary.s) {
        cv_buf_puts(b, "<p class=\"summary\">");
        w->shy = true;
        w->tc.autohy = w->hy_auto;
        profile_text(w, e->summary.s);
        w->shy = false;
        w->tc.autohy = false;
        cv_buf_puts(b, "</p>\n");
    }
    if (e->nhighlights)
        highlights(w, e->highlights, e->nhighlights, 0);
    cv_buf_puts(b, "</article>\n");
}

static void section(hw *w, const cv_section *sec)
{
    buf *b = &w->b;
    int id = ++w->nsec;
    const char *t = sec->title;
    if (w->st->title_uppercase)
        t = cv_upper(w->a, t, w->doc->locale.language);
    cv_buf_printf(b, "<section aria-labelledby=\"s%d\">\n<h2 id=\"s%d\">", id, id);
    tctx keep = enter(w, FL_ROLE + CV_ROLE_TITLE, w->st->title_bold, w->st->title_small_caps);
    text0(w, t);
    w->tc = keep;
    cv_buf_puts(b, "</h2>\n");
    const cv_template *tp = &w->st->tmpl[sec->kind];
    static const char *const text_only[] = {"TEXT"};
    const char *const *main = tp->nmain ? tp->main : text_only;
    size_t nmain = tp->nmain ? tp->nmain : 1;
    switch (sec->kind) {
    case CV_ENTRY_TEXT:
    case CV_ENTRY_ONELINE:
        for (size_t i = 0; i < sec->nentries; i++) {
            const cv_entry *e = &sec->entries[i];
            entry_dates(w, e);
            cv_buf_puts(b, sec->kind == CV_ENTRY_ONELINE ? "<div class=\"lines one\">\n"
                                                   : "<div class=\"lines\">\n");
            w->shy = sec->kind == CV_ENTRY_TEXT;
            w->tc.autohy = w->hy_auto;         /* .lines p */
            tmpl_lines(w, main, nmain, e, "p", NULL, "line");
            w->shy = false;
            w->tc.autohy = false;
            cv_buf_puts(b, "</div>\n");
        }
        break;
    case CV_ENTRY_BULLET:
    case CV_ENTRY_NUMBERED:
    case CV_ENTRY_REVERSED: {
        const char *list = sec->kind == CV_ENTRY_BULLET ? "ul" : "ol";
        /* The marker: the layout's bullet, or the item's number and ". ". */
        if (sec->kind == CV_ENTRY_BULLET) {
            note_marker(w, w->st->bullet ? w->st->bullet : "\xE2\x80\xA2");
        } else {
            char num[24];
            snprintf(num, sizeof num, "%zu. ", sec->nentries);
            note_marker(w, sec->nentries >= 10 ? "0123456789. " : num);
            for (size_t i = 1; i < sec->nentries && i < 10; i++) {
                snprintf(num, sizeof num, "%zu", i);
                note_marker(w, num);
            }
        }
        cv_buf_printf(b, "<%s class=\"%s\"%s%s>\n", list,
                sec->kind == CV_ENTRY_BULLET ? "bullets" : "numbers",
                sec->kind == CV_ENTRY_REVERSED ? " reversed" : "",
                "");
        for (size_t i = 0; i < sec->nentries; i++) {
            const cv_entry *e = &sec->entries[i];
            cv_span *sp;
            size_t k = cv_template_expand(w->a, main[0], e, w->doc, &sp);
            entry_dates(w, e);
            w->dates = w->edates;
            w->ndates = strstr(main[0], "DATE") ? w->nedates : 0;
            cv_buf_puts(b, "<li>");
            w->shy = true;
            w->tc.autohy = w->hy_auto;
            spans(w, sp, k);
            w->shy = false;
            w->tc.autohy = false;
            w->ndates = 0;
            cv_buf_puts(b, "</li>\n");
        }
        cv_buf_printf(b, "</%s>\n", list);
        break;
    }
    default: {
        float dw = degree_col(w, sec);
        for (size_t i = 0; i < sec->nentries; i++)
            full_entry(w, sec, &sec->entries[i], dw);
        }
        break;
    }
    w->ndates = 0;
    cv_buf_puts(b, "</section>\n");
}

static void contacts(hw *w, const char *cls)
{
    /* The items as the PDF shows them, without the icon face's
     * private-use characters: the text says what each is. */
    cv_style plain = *w->st;
    plain.contact_icons = false;
    cv_ctx pcx;
    const cv_ctx *pc = cv_ctx_with(w->cx, &plain, &pcx);
    const char **items = cv_arena_alloc(w->a, CV_MAX_CONTACTS * sizeof *items);
    cv_pos *pos = cv_arena_alloc(w->a, CV_MAX_CONTACTS * sizeof *pos);
    cv_error quiet;
    cv_error_init(&quiet);
    quiet.quiet = true;
    size_t n = cv_compose_contacts(w->a, pc, w->doc, items, pos, &quiet);
    if (!n)
        return;
    /* The header's contact line in the contact part's face, weight and
     * capitals, with the separator its CSS draws between two items; the
     * sidebar's block in the body's. */
    bool line = !strcmp(cls, "contact");
    const cv_style *st = w->st;
    tctx keep = line ? enter(w, FL_ROLE + CV_ROLE_CONTACT, st->contact_bold,
                             st->contact_small_caps)
                     : enter(w, FL_BODY, false, false);
    if (line && n > 1)
        note_str(w, st->contact_separator ? st->contact_separator : "  ");
    cv_buf_printf(&w->b, "<ul class=\"%s\">\n", cls);
    for (size_t i = 0; i < n; i++) {
        cv_buf_puts(&w->b, "<li>");
        markup(w, items[i]);
        cv_buf_puts(&w->b, "</li>\n");
    }
    cv_buf_puts(&w->b, "</ul>\n");
    w->tc = keep;
}

static void header(hw *w, const cv_image *photo, bool with_contact)
{
    const cv_doc *doc = w->doc;
    buf *b = &w->b;
    cv_buf_puts(b, "<header class=\"top\">\n");
    if (photo)
        photo_img(w, photo, "photo");
    cv_buf_puts(b, "<div class=\"who\">\n");
    const cv_style *st = w->st;
    tctx keep = enter(w, FL_ROLE + CV_ROLE_NAME, st->name_bold, st->name_small_caps);
    if (doc->name.s) {
        cv_buf_puts(b, "<h1>");
        /* With the PDF's quotes (O’Brien), as a paragraph of its own. */
        const char *name = cv_markup_strip(w->a, doc->name.s);
        size_t len = strlen(name);
        cv_quotes q = w->q;
        if (w->quotes)
            name = cv_quotes_apply(w->a, &q, name, len, &len);
        text(w, name, len);
        if (doc->native_name.s && w->st->native_name_beside) {
            cv_buf_puts(b, " <span class=\"native\">");
            note_cp(w, ' ');
            text0(w, doc->native_name.s);
            cv_buf_puts(b, "</span>");
        }
        cv_buf_puts(b, "</h1>\n");
    } else {
        /* No name, as RenderCV allows: the page still has its heading,
         * the <title>'s, for a screen reader alone. */
        cv_buf_puts(b, "<h1 class=\"vh\">");
        text0(w, "R\xC3\xA9sum\xC3\xA9");
        cv_buf_puts(b, "</h1>\n");
    }
    w->tc = keep;
    if (doc->headline.s) {
        cv_buf_puts(b, "<p class=\"headline\">");
        keep = enter(w, FL_ROLE + CV_ROLE_HEADLINE, st->headline_bold, st->headline_small_caps);
        profile_text(w, doc->headline.s);
        w->tc = keep;
        cv_buf_puts(b, "</p>\n");
    }
    if (with_contact)
        contacts(w, "contact");
    cv_buf_puts(b, "</div>\n</header>\n");
}

/* ---- the photo ------------------------------------------------------------ */

/* The photo as a JPEG (quality 88) in a data: URI; left out, with a
 * warning, when libjpeg cannot make one. */
static void photo_img(hw *w, const cv_image *im, const char *cls)
{
    unsigned char *out;
    size_t len;
    if (!cv_image_jpeg(im, 88, &out, &len)) {
        cv_warn(w->err, (cv_pos){im->path, 0, 0}, "the photo is left out of the HTML page: "
                "libjpeg (Debian's libjpeg62-turbo) cannot encode it");
        return;
    }
    float pw, ph;
    cv_photo_size(w->st, im, w->st->photo_w, &pw, &ph);
    cv_buf_printf(&w->b, "<img class=\"%s\" width=\"%.0f\" height=\"%.0f\" alt=\"", cls,
            pw * 4 / 3, ph * 4 / 3);
    esc0(&w->b, cv_compose_photo_alt(w->a, w->doc));
    cv_buf_puts(&w->b, "\" src=\"data:image/jpeg;base64,");
    base64(&w->b, out, len);
    cv_buf_puts(&w->b, "\">\n");
    free(out);
}

/* ---- the style ------------------------------------------------------------ */

/* Relative luminance of 0xRRGGBB (WCAG 2). */
static double luminance(unsigned c)
{
    double ch[3];
    for (int i = 0; i < 3; i++) {
        double v = (double)(c >> (16 - 8 * i) & 0xFF) / 255.0;
        ch[i] = v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
    }
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
}

/* The colour as CSS, darkened just enough (if at all) to read on white at
 * WCAG's 4.5:1 contrast: a pale grey that prints well may not read on a
 * screen. */
static void color(buf *b, unsigned c)
{
    c &= 0xFFFFFF;
    for (int step = 0; step < 40 && 1.05 / (luminance(c) + 0.05) < 4.5; step++) {
        unsigned r = (c >> 16 & 0xFF) * 9 / 10, g = (c >> 8 & 0xFF) * 9 / 10,
                 bl = (c & 0xFF) * 9 / 10;
        c = r << 16 | g << 8 | bl;
    }
    cv_buf_printf(b, "#%06x", c);
}

/* A CSS string: quoted, every character outside printable ASCII (and the
 * quote, the backslash, '<') as an escape. */
static void css_string(hw *w, buf *b, const char *s)
{
    cv_buf_put(b, "\"", 1);
    for (size_t i = 0; s[i];) {
        uint32_t cp;
        size_t k = cv_utf8_decode(s + i, strlen(s + i), &cp);
        if (!k)
            break;
        if (cp >= 0x20 && cp < 0x7F && cp != '"' && cp != '\\' && cp != '<' && cp != '>')
            cv_buf_put(b, s + i, 1);
        else
            cv_buf_printf(b, "\\%x ", cp);
        i += k;
    }
    cv_buf_put(b, "\"", 1);
}

/* The generic family to fall back on after `family`. */
static const char *generic(const char *family)
{
    if (!family)
        return "sans-serif";
    if (strcasestr(family, "sans"))
        return "sans-serif";
    if (strcasestr(family, "mono") || strcasestr(family, "code"))
        return "monospace";
    static const char *const serif[] = {"serif", "garamond", "roman", "gentium", "times",
                                        "cmu", "modern", "charter", "libertin", "palatino",
                                        "georgia", "mincho", "song"};
    for (size_t i = 0; i < sizeof serif / sizeof *serif; i++)
        if (strcasestr(family, serif[i]))
            return "serif";
    return "sans-serif";
}

/* Does face `id` have a glyph for cp? */
static bool has(const cv_fontset *fs, int id, uint32_t cp)
{
    const cv_face *f = id >= 0 ? cv_fontset_face(fs, id) : NULL;
    hb_codepoint_t g;
    return f && f->hb && !f->broken && hb_font_get_nominal_glyph(f->hb, cp, &g);
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* Face `id` subset to `cps`, the code points the page sets in it, as
 * WOFF2 in a data: URI inside src: ...; false (nothing written) when cps
 * is empty, and with a warning when it cannot be subset or converted. */
static bool embed_face(hw *w, buf *b, int id, const hb_set_t *cps)
{
    const cv_face *f = cv_fontset_face(w->cx->eng->fonts, id);
    if (!f || !f->hb_face || f->broken || !cps || hb_set_is_empty(cps))
        return false;
    hb_subset_input_t *in = hb_subset_input_create_or_fail();
    if (!in)
        abort();                     /* out of memory, as the arena does */
    hb_set_union(hb_subset_input_unicode_set(in), cps);
    /* hb-subset's default features, and the half-width forms of CJK
     * punctuation, by which the browser sets "）。" and "（" after a Latin
     * letter tight, as the PDF does (CSS text-spacing-trim). */
    hb_set_t *feat = hb_subset_input_set(in, HB_SUBSET_SETS_LAYOUT_FEATURE_TAG);
    static const char *const cjk_feat[] = {"halt", "vhal", "chws", "vchw"};
    for (size_t i = 0; i < sizeof cjk_feat / sizeof *cjk_feat; i++)
        hb_set_add(feat, hb_tag_from_string(cjk_feat[i], 4));
    /* The layout features the page can use, and no more: the scripts'
     * shaping, marks, kerning, CJK spacing, small capitals and figures as
     * the layout asks.  Optional ligatures ('liga', 'dlig') are left out,
     * so the page sets none, as the PDF; keeping every feature's lookups
     * (hb-subset's default) made subsetting three times as slow. */
    hb_set_t *feats = hb_subset_input_set(in, HB_SUBSET_SETS_LAYOUT_FEATURE_TAG);
    hb_set_clear(feats);
    static const char features[] =
        "kern mark mkmk ccmp locl rlig rclt calt curs init medi med2 fina fin2 fin3 isol "
        "nukt akhn rphf rkrf pref blwf half abvf pstf cfar vatu cjct pres abvs blws psts "
        "haln abvm blwm dist ljmo vjmo tjmo halt vhal chws vchw palt vert vrt2 smcp c2sc "
        "lnum pnum tnum onum";
    for (const char *p = features; *p; p += p[4] ? 5 : 4)
        hb_set_add(feats, hb_tag_from_string(p, 4));
    hb_subset_input_set_flags(in, HB_SUBSET_FLAGS_NO_HINTING |
                                      (f->cff ? HB_SUBSET_FLAGS_DESUBROUTINIZE : 0));
    hb_face_t *sub = hb_subset_or_fail((hb_face_t *)f->hb_face, in);
    hb_subset_input_destroy(in);
    if (!sub) {
        cv_warn(w->err, (cv_pos){f->path, 0, 0}, "hb-subset cannot subset this face for the "
                "HTML page; it is left out, and the reader's fonts draw its characters");
        return false;
    }
    hb_blob_t *blob = hb_face_reference_blob(sub);
    unsigned len;
    const char *data = hb_blob_get_data(blob, &len);
    unsigned char *woff = NULL;
    size_t wlen = 0;
    /* Brotli at quality 1: fang's faces compress as small as at 2
     * (a page of 72,257 bytes against 72,753; eight profiles' pages 0.1%
     * larger together) for 2 M fewer instructions; 4 costs 8 M more for
     * 2.4% less. */
    bool ok = data && len && cv_woff2_encode((const unsigned char *)data, len, 1, &woff, &wlen);
    const char *missing = ok ? NULL : cv_woff2_missing();
    if (missing && !w->woff2_said) {
        w->woff2_said = true;          /* once a page: every face would say it */
        cv_warn(w->err, (cv_pos){f->path, 0, 0}, "%s; the HTML page embeds no face, and the "
                "reader's fonts draw its text", missing);
    } else if (!ok && !missing)
        cv_warn(w->err, (cv_pos){f->path, 0, 0}, "libwoff2 cannot convert this face for the "
                "HTML page; it is left out, and the reader's fonts draw its characters");
    if (ok) {
        cv_buf_puts(b, "src:url(data:font/woff2;base64,");
        base64(b, woff, wlen);
        cv_buf_puts(b, ") format(\"woff2\");");
    }
    free(woff);
    hb_blob_destroy(blob);
    hb_face_destroy(sub);
    return ok;
}

/* One face of family `family` (fam): its style's @font-face rule. */
static void font_face(hw *w, buf *b, const char *family, int id, bool bold, bool italic,
                      const hb_set_t *cps, bool ranged)
{
    buf src = {0};
    if (embed_face(w, &src, id, cps)) {
        cv_buf_printf(b, "@font-face{font-family:%s;font-weight:%d;font-style:%s;font-display:swap;",
                family, bold ? 700 : 400, italic ? "italic" : "normal");
        if (ranged) {
            /* unicode-range: cps, runs of consecutive code points as one. */
            cv_buf_puts(b, "unicode-range:");
            hb_codepoint_t first, last = HB_SET_VALUE_INVALID;
            const char *sep = "";
            while (hb_set_next_range(cps, &first, &last)) {
                cv_buf_printf(b, first == last ? "%sU+%X" : "%sU+%X-%X", sep, first, last);
                sep = ",";
            }
            cv_buf_puts(b, ";");
        }
        cv_buf_put(b, src.s, src.n);
        cv_buf_puts(b, "}\n");
    }
    free(src.s);
}

/* The font-family of the body (role < 0) or of part `role`. */
static void family_list(hw *w, buf *b, int role, bool embed)
{
    const cv_ctx *cx = w->cx;
    const cv_style *st = w->st;
    const cv_fontset *fs = cx->eng->fonts;
    const char *first = NULL;
    cv_buf_puts(b, "font-family:");
    bool any = false;
    if (role >= 0 && st->role_face[role][0] >= 0) {
        const char *fam = cv_fontset_family(fs, st->role_face[role][0]);
        first = fam;
        if (embed)
            cv_buf_printf(b, "cvr%d", role);
        else
            css_string(w, b, fam ? fam : "serif");
        any = true;
    }
    for (size_t k = 0; k < cx->nchain; k++) {
        const char *fam = cv_fontset_family(fs, cx->chain[0][k]);
        if (!first)
            first = fam;
        if (any)
            cv_buf_put(b, ",", 1);
        if (embed)
            cv_buf_printf(b, "cv%zu", k);
        else
            css_string(w, b, fam ? fam : "serif");
        any = true;
    }
    for (size_t k = 0; k < w->nsface; k++) {
        const char *fam = cv_fontset_family(fs, w->sface[k][0]);
        if (any)
            cv_buf_put(b, ",", 1);
        if (embed)
            cv_buf_printf(b, "cvs%zu", k);
        else
            css_string(w, b, fam ? fam : "sans-serif");
        any = true;
    }
    cv_buf_printf(b, "%s%s;", any ? "," : "", generic(first));
}

/* A family with the faces id[s] (-1: none): a style has a rule of its
 * own when it has a face and no earlier style has the same (a bold made
 * by emboldening, a face without italics: the browser takes the nearest
 * style, and makes the bold). */
static ffam *add_fam(hw *w, const char *name, const int id[4])
{
    ffam *F = &w->fams[w->nfams++];
    snprintf(F->name, sizeof F->name, "%s", name);
    for (int s = 0; s < 4; s++) {
        F->id[s] = id[s];
        bool dup = id[s] < 0;
        for (int t = 0; t < s; t++)
            dup |= id[t] == id[s];
        F->present[s] = !dup;
        F->set[s] = F->lent[s] = NULL;
        F->lender[s] = -1;
    }
    return F;
}

/* The style whose rule the browser takes for text in style s (CSS Fonts'
 * matching: italic, else upright, as font-synthesis-style:none keeps it;
 * then bold or regular, else the other weight); -1: the family has none. */
static int slot_for(const bool present[4], unsigned s)
{
    bool it = present[CV_STYLE_ITALIC] || present[CV_STYLE_ITALIC | CV_STYLE_BOLD];
    bool up = present[0] || present[CV_STYLE_BOLD];
    unsigned g = s & CV_STYLE_ITALIC ? (it ? CV_STYLE_ITALIC : 0) : (up ? 0 : CV_STYLE_ITALIC);
    if (!present[g] && !present[g | CV_STYLE_BOLD])
        return -1;
    if (s & CV_STYLE_BOLD)
        return present[g | CV_STYLE_BOLD] ? (int)(g | CV_STYLE_BOLD) : (int)g;
    return present[g] ? (int)g : (int)(g | CV_STYLE_BOLD);
}

/* Does family F's face for style s have cp?  Then it is the one the
 * browser draws cp with: noted in that face's subset. */
static bool take(hw *w, ffam *F, unsigned s, uint32_t cp)
{
    const cv_fontset *fs = w->cx->eng->fonts;
    int sl = slot_for(F->present, s);
    if (sl < 0)
        return false;
    hb_set_t **to = &F->set[sl];
    if (!has(fs, F->id[sl], cp)) {
        /* Bold that lacks it: the family's regular face, as the PDF. */
        int r = sl & CV_STYLE_BOLD ? slot_for(F->present, (unsigned)sl & ~(unsigned)CV_STYLE_BOLD)
                                   : -1;
        if (r < 0 || F->id[r] == F->id[sl] || !has(fs, F->id[r], cp))
            return false;
        F->lender[sl] = r;
        to = &F->lent[sl];
    }
    if (!*to)
        *to = hb_set_create();
    hb_set_add(*to, cp);
    return true;
}

/* cp set in list fl and style s: to the first family of the list whose
 * face in that style has it, as the browser falls back (a character a
 * family before it has never reaches a later one: a CJK face is asked
 * for its Han alone, not for the Latin it also has).  The list ends with
 * the faces the PDF takes for characters no face of the chain has
 * (Hebrew, Arabic, Devanagari in a Latin layout: engine.h), each found
 * when the first character comes that needs it. */
static void serve(hw *w, int fl, unsigned s, uint32_t cp)
{
    if (fl == FL_CODE) {           /* code's face, else the reader's monospace */
        if (w->fam_mono >= 0)
            take(w, &w->fams[w->fam_mono], s, cp);
        return;
    }
    if (fl >= FL_ROLE && w->fam_role[fl - FL_ROLE] >= 0 &&
        take(w, &w->fams[w->fam_role[fl - FL_ROLE]], s, cp))
        return;
    for (size_t k = 0; k < w->cx->nchain; k++)
        if (take(w, &w->fams[k], s, cp))
            return;
    for (size_t k = w->fam_script; k < w->nfams; k++)
        if (take(w, &w->fams[k], s, cp))
            return;
    if (cp < 0x21 || w->nsface == CV_MAX_CHAIN)
        return;
    bool synth;
    int f = cv_engine_script_face(w->cx->eng, cp, 0, &synth);
    for (size_t k = 0; k < w->nsface; k++)
        if (w->sface[k][0] == f)
            return;                /* known: its face lacks cp in this style */
    if (f < 0)
        return;
    int *row = w->sface[w->nsface];
    for (unsigned st = 0; st < 4; st++) {
        row[st] = cv_engine_script_face(w->cx->eng, cp, st, &synth);
        if (synth)                 /* emboldened: the browser makes it too */
            row[st] = -1;
    }
    row[0] = f;
    char name[16];
    snprintf(name, sizeof name, "cvs%u", (unsigned)w->nsface++);
    take(w, add_fam(w, name, row), s, cp);
}

static bool used_has(const cpset *u, uint32_t cp)
{
    if (cp < 0x10000)
        return u->seen && u->seen[cp >> 3] & (1u << (cp & 7));
    for (size_t i = 0; i < u->n; i++)
        if (u->cp[i] == cp)
            return true;
    return false;
}

/* The page's families, and the code points each face is subset to: each
 * character in each list and style it is set in, in code point order (the
 * order the script faces are found in). */
static void resolve(hw *w)
{
    const cv_ctx *cx = w->cx;
    const cv_style *st = w->st;
    char name[16];
    for (size_t k = 0; k < cx->nchain; k++) {
        const int id[4] = {cx->chain[0][k], cx->chain[1][k], cx->chain[2][k], cx->chain[3][k]};
        snprintf(name, sizeof name, "cv%u", (unsigned)k);
        add_fam(w, name, id);
    }
    for (int r = 0; r < CV_NROLES; r++) {
        w->fam_role[r] = -1;
        if (st->role_face[r][0] < 0)
            continue;
        snprintf(name, sizeof name, "cvr%u", (unsigned)r);
        w->fam_role[r] = (int)w->nfams;
        add_fam(w, name, st->role_face[r]);
    }
    w->fam_mono = -1;
    if (cx->mono >= 0) {
        w->fam_mono = (int)w->nfams;
        add_fam(w, "cvm", (const int[4]){cx->mono, -1, -1, -1});
    }
    w->fam_script = w->nfams;
    size_t n = 0;
    for (int fl = 0; fl < FL_N; fl++)
        for (int s = 0; s < 4; s++)
            n += w->used[fl][s].n;
    uint32_t *all = cv_arena_alloc(w->a, (n ? n : 1) * sizeof *all);
    n = 0;
    for (int fl = 0; fl < FL_N; fl++)
        for (int s = 0; s < 4; s++)
            for (size_t i = 0; i < w->used[fl][s].n; i++)
                all[n++] = w->used[fl][s].cp[i];
    qsort(all, n, sizeof *all, cmp_u32);
    for (size_t i = 0; i < n; i++) {
        if (i && all[i] == all[i - 1])
            continue;
        for (int fl = 0; fl < FL_N; fl++)
            for (unsigned s = 0; s < 4; s++)
                if (used_has(&w->used[fl][s], all[i]))
                    serve(w, fl, s, all[i]);
    }
}

/* The @font-face rules of family F: a rule for each style that has one
 * and a character set in it. */
static void family_faces(hw *w, buf *b, const ffam *F)
{
    for (unsigned s = 0; s < 4; s++) {
        if (F->present[s] && F->set[s])
            font_face(w, b, F->name, F->id[s], s & CV_STYLE_BOLD, s & CV_STYLE_ITALIC,
                      F->set[s], false);
        if (F->present[s] && F->lent[s])
            font_face(w, b, F->name, F->id[F->lender[s]], s & CV_STYLE_BOLD,
                      s & CV_STYLE_ITALIC, F->lent[s], true);
    }
}

static void fonts(hw *w, buf *b)
{
    for (size_t k = 0; k < w->cx->nchain; k++)
        family_faces(w, b, &w->fams[k]);
    for (int r = 0; r < CV_NROLES; r++)
        if (w->fam_role[r] >= 0)
            family_faces(w, b, &w->fams[w->fam_role[r]]);
    for (size_t k = w->fam_script; k < w->nfams; k++)
        family_faces(w, b, &w->fams[k]);
    if (w->fam_mono >= 0)
        family_faces(w, b, &w->fams[w->fam_mono]);
}

static void style(hw *w, buf *b, const cv_image *photo)
{
    const cv_style *st = w->st;
    bool embed = !st->html_system_fonts;
    float mw = st->page_w - st->margin_left - st->margin_right;
    static const char *const align[] = {"start", "center", "end"};
    cv_buf_puts(b, "<style>\n");
    if (embed)
        fonts(w, b);
    cv_buf_printf(b, "@page{size:%.2fpt %.2fpt;margin:%.2fpt %.2fpt %.2fpt %.2fpt}\n", st->page_w,
            st->page_h, st->margin_top, st->margin_right, st->margin_bottom, st->margin_left);
    cv_buf_puts(b, "*{box-sizing:border-box}\n");
    cv_buf_puts(b, "html{-webkit-text-size-adjust:100%;text-size-adjust:100%}\n");
    cv_buf_printf(b, "body{margin:0;background:#fff;color:");
    color(b, st->text_color);
    /* A face without an italic (Han, Hebrew) stays upright, as in the PDF,
     * which never slants a face: no oblique made up by the browser. */
    cv_buf_printf(b, ";font-size:%.2fpt;line-height:%.3f;overflow-wrap:anywhere;"
            "font-synthesis-style:none;", st->size, st->line_spacing);
    /* Han or kana beside a Latin letter or digit: a gap, as the PDF's
     * text.cjk_latin_space (the browser's is an eighth of an em). */
    cv_buf_puts(b, st->cjk_latin_space > 0 ? "text-autospace:normal;" : "text-autospace:no-autospace;");
    family_list(w, b, -1, embed);
    cv_buf_puts(b, "}\n");
    cv_buf_printf(b, ".cv{max-width:calc(%.2fpt + 48px);margin:0 auto;padding:32px 24px}\n", mw);
    /* A short CJK word on a page in another script is not broken, as
     * in the PDF (王建国, 普通话). */
    cv_buf_puts(b, ".cjkw{word-break:keep-all}\n");
    cv_buf_puts(b, ".vh{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;"
             "clip-path:inset(50%);white-space:nowrap}\n");
    cv_buf_puts(b, "a{color:");
    color(b, st->link_color);
    cv_buf_puts(b, ";text-decoration:underline;text-decoration-thickness:0.05em;"
             "text-underline-offset:0.15em}\n");
    cv_buf_puts(b, "p,ul,ol,h1,h2,h3{margin:0}\n");
    if (w->cx->mono >= 0)
        cv_buf_printf(b, "code{font-family:%s;font-size:1em}\n", embed ? "cvm,monospace" : "monospace");
    /* The header. */
    cv_buf_printf(b, "header.top{display:flex;gap:%.2fpt;align-items:flex-start;text-align:%s;"
            "margin-bottom:%.2fpt}\n", st->photo_gap, align[st->header_align],
            st->header_gap + st->title_space_before / 2);
    cv_buf_puts(b, ".who{flex:1 1 auto;min-width:0}\n");
    if (photo) {
        float pw, ph;
        cv_photo_size(st, photo, st->photo_w, &pw, &ph);
        cv_buf_printf(b, "img.photo{flex:none;width:%.2fpt;max-width:40%%;height:auto%s}\n", pw,
                st->photo_where == CV_PHOTO_LEFT ? "" : ";order:2");
        cv_buf_puts(b, "aside img.photo{display:block;margin:0 auto 12pt}\n");
    }
    cv_buf_printf(b, "h1{font-size:%.2fpt;line-height:1.2;font-weight:%d;color:", st->name_size,
            st->name_bold ? 700 : 400);
    color(b, st->name_color);
    cv_buf_puts(b, st->name_small_caps ? ";font-variant:small-caps;" : ";");
    family_list(w, b, CV_ROLE_NAME, embed);
    cv_buf_puts(b, "}\n");
    cv_buf_printf(b, ".headline{font-size:%.2fpt;margin-top:%.2fpt;font-weight:%d;color:",
            st->headline_size, st->name_gap >= 0 ? st->name_gap : 2,
            st->headline_bold ? 700 : 400);
    color(b, st->muted_color);
    cv_buf_puts(b, st->headline_small_caps ? ";font-variant:small-caps;" : ";");
    family_list(w, b, CV_ROLE_HEADLINE, embed);
    cv_buf_puts(b, "}\n");
    cv_buf_printf(b, "ul.contact{list-style:none;padding:0;margin-top:%.2fpt;display:flex;"
            "flex-wrap:wrap;justify-content:%s;font-size:%.2fpt;font-weight:%d;color:",
            st->headline_gap >= 0 ? st->headline_gap : 4,
            st->header_align == CV_ALIGN_CENTER ? "center"
            : st->header_align == CV_ALIGN_RIGHT ? "flex-end" : "flex-start",
            st->contact_size, st->contact_bold ? 700 : 400);
    color(b, st->contact_color > 0xFFFFFF ? st->text_color : st->contact_color);
    cv_buf_puts(b, st->contact_small_caps ? ";font-variant:small-caps;" : ";");
    family_list(w, b, CV_ROLE_CONTACT, embed);
    cv_buf_puts(b, "}\n");
    cv_buf_puts(b, "ul.contact a,ul.side-contact a{color:inherit;text-decoration:none}\n");
    cv_buf_puts(b, "ul.contact li+li::before{white-space:pre;content:");
    const char *sep = st->contact_separator ? st->contact_separator : "  ";
    css_string(w, b, sep);
    cv_buf_puts(b, "}\n");
    cv_buf_puts(b, "ul.side-contact{list-style:none;padding:0}\n");
    cv_buf_printf(b, "ul.side-contact li+li{margin-top:%.2fpt}\n", st->bullet_gap);
    /* Section titles. */
    cv_buf_printf(b, "h2{font-size:%.2fpt;line-height:1.25;font-weight:%d;text-align:%s;"
            "margin:%.2fpt 0 %.2fpt;color:", st->title_size, st->title_bold ? 700 : 400,
            align[st->title_align], st->title_space_before, st->title_space_after);
    color(b, st->title_color);
    if (st->title_uppercase)
        cv_buf_puts(b, ";letter-spacing:0.04em");
    if (st->title_small_caps)
        cv_buf_puts(b, ";font-variant:small-caps");
    cv_buf_puts(b, ";");
    family_list(w, b, CV_ROLE_TITLE, embed);
    if (st->title_rule && !st->title_rule_beside) {
        cv_buf_printf(b, "border-bottom:%.2fpt solid ", st->rule_width > 0.5f ? st->rule_width : 0.5f);
        color(b, st->rule_color);
        cv_buf_printf(b, ";padding-bottom:%.2fpt", st->rule_gap);
    } else if (st->title_rule) {
        cv_buf_puts(b, "display:flex;align-items:center;gap:0.4em");
    }
    cv_buf_puts(b, "}\n");
    if (st->title_rule && st->title_rule_beside) {
        cv_buf_printf(b, "h2::after%s{content:\"\";flex:1;border-top:%.2fpt solid ",
                st->title_align == CV_ALIGN_CENTER ? ",h2::before" : "",
                st->rule_width > 0.5f ? st->rule_width : 0.5f);
        color(b, st->rule_color);
        cv_buf_puts(b, "}\n");
    }
    /* Entries. */
    cv_buf_printf(b, "article.entry+article.entry{margin-top:%.2fpt}\n", st->entry_gap);
    cv_buf_printf(b, ".lines+.lines{margin-top:%.2fpt}\n.lines.one+.lines.one{margin-top:%.2fpt}\n",
            st->text_gap >= 0 ? st->text_gap : st->entry_gap * 0.6f, st->bullet_gap * 2);
    cv_buf_printf(b, ".head{display:flex;gap:0 %.2fpt}\n", st->side_gap);
    cv_buf_puts(b, ".head .main{flex:1 1 auto;min-width:0}\nh3{font-size:1em;font-weight:400}\n");
    cv_buf_printf(b, ".head .side{flex:0 0 auto;max-width:40%%;text-align:%s;font-size:%.2fpt;color:",
            align[st->side_align == CV_ALIGN_LEFT ? 0 : st->side_align == CV_ALIGN_CENTER
                                                            ? 1 : 2], st->side_size);
    color(b, st->side_color);
    if (st->side_width > 0)
        cv_buf_printf(b, ";flex-basis:%.2fpt;max-width:50%%", st->side_width);
    if (st->side_width > 0 && st->side_left)
        cv_buf_puts(b, ";order:-1");
    cv_buf_puts(b, "}\n");
    if (st->degree_width > 0)
        cv_buf_printf(b, ".head .degree{flex:0 0 var(--dw,%.2fpt);max-width:30%%;overflow-wrap:normal}\n",
                st->degree_width);
    /* entry.side_left (moderncv): the dates in a column left of every
     * entry, whose text starts right of it; a section title starts there
     * too, a rule filling the column beside it. */
    if (st->side_left && st->side_width > 0) {
        float col = st->side_width + st->side_gap;
        cv_buf_printf(b, "@media (min-width:641px){main .lines,main article.entry>.summary,"
                "main article.entry>ul.hl,main ul.bullets,main ol.numbers"
                "{margin-inline-start:%.2fpt}", col);
        if (st->title_rule && st->title_rule_beside && st->title_align == CV_ALIGN_LEFT) {
            cv_buf_printf(b, "main h2::after{display:none}main h2::before{content:\"\";"
                    "flex:0 0 %.2fpt;margin-inline-end:%.2fpt;border-top:%.2fpt solid ",
                    st->side_width, st->side_gap, st->rule_width > 0.5f ? st->rule_width : 0.5f);
            color(b, st->rule_color);
            cv_buf_puts(b, "}");
        }
        cv_buf_puts(b, "}\n");
    }
    cv_buf_printf(b, ".summary{margin-top:%.2fpt;padding-inline-start:%.2fpt}\n",
            st->summary_gap >= 0 ? st->summary_gap : st->block_gap, st->summary_indent);
    float indent = st->bullet_text_indent > 6 ? st->bullet_text_indent : 10;
    cv_buf_printf(b, "ul.hl,ul.bullets{padding-inline-start:%.2fpt}\nul.hl{margin-top:%.2fpt}\n",
            indent, st->block_gap);
    /* A nested list starts sub_indent in from its parent's bullet, as in
     * the PDF; it sits inside the parent's text, `indent` in. */
    cv_buf_printf(b, "ul.hl.sub{margin-top:%.2fpt;margin-inline-start:%.2fpt}\n", st->bullet_gap,
            st->sub_indent - indent);
    cv_buf_printf(b, "ul.hl li+li,ul.bullets li+li,ol.numbers li+li{margin-top:%.2fpt}\n",
            st->bullet_gap);
    cv_buf_puts(b, "ul.hl>li::marker,ul.bullets>li::marker{content:");
    css_string(w, b, st->bullet ? st->bullet : "\xE2\x80\xA2");
    cv_buf_puts(b, "\"  \"}\nul.hl.sub>li::marker{content:");
    css_string(w, b, st->sub_bullet ? st->sub_bullet : "\xE2\x80\x93");
    cv_buf_puts(b, "\"  \"}\n");
    cv_buf_puts(b, "ol.numbers{padding-inline-start:2.2em}\n");
    if (st->justify)
        cv_buf_printf(b, "@media (min-width:640px){.summary,ul.hl li,.lines p,ul.bullets li"
                "{text-align:justify;%s%s}"
                /* Not in the sidebar: a browser breaks a narrow column
                 * without the PDF's stretch limits, and may not hyphenate
                 * (Chromium on Linux does not), so justified lines there
                 * open wide gaps. */
                "aside .summary,aside ul.hl li,aside .lines p,aside ul.bullets li"
                "{text-align:start}}\n", st->hyphenate ? "hyphens:auto;" : "",
                /* A page in a script written with spaces stretches its
                 * spaces only, as the PDF does: Chromium's automatic
                 * justification spreads the letters of a Chinese or
                 * Japanese name in an English line ("王 建 国"). */
                w->own == CV_SCRIPT_HAN || w->own == CV_SCRIPT_HANGUL
                    ? "" : "text-justify:inter-word;");
    /* The sidebar beside the main column (right to left: mirrored, as a
     * grid follows the direction). */
    if (st->sidebar) {
        float sw = st->sidebar_w < mw * 0.6f ? st->sidebar_w : mw * 0.6f;
        if (st->sidebar_left)
            cv_buf_printf(b, ".cols{display:grid;grid-template-columns:%.2fpt minmax(0,1fr);"
                    "column-gap:%.2fpt}\nmain{grid-column:2;grid-row:1}\n"
                    "aside{grid-column:1;grid-row:1}\n", sw, st->sidebar_gap);
        else
            cv_buf_printf(b, ".cols{display:grid;grid-template-columns:minmax(0,1fr) %.2fpt;"
                    "column-gap:%.2fpt}\n", sw, st->sidebar_gap);
        if (st->sidebar_rule_width > 0) {
            cv_buf_printf(b, "aside{padding-inline-%s:%.2fpt;border-inline-%s:%.2fpt solid ",
                    st->sidebar_left ? "end" : "start", st->sidebar_gap / 2,
                    st->sidebar_left ? "end" : "start", st->sidebar_rule_width);
            color(b, st->sidebar_rule_color);
            cv_buf_puts(b, "}\n");
        }
        if (st->sidebar_single_block)
            cv_buf_printf(b, "aside h2{font-size:%.2fpt}\naside .side{font-size:%.2fpt}\n",
                    st->size, st->size);
        cv_buf_puts(b, "aside .head{flex-direction:column}\naside .head .side{text-align:start;"
                 "max-width:none;flex-basis:auto}\n");
        /* A phone: one column, the main one first, then the sidebar's
         * sections; but its photo and contact block come first, where a
         * reader looks for them, not under the last publication. */
        cv_buf_puts(b, "@media (max-width:640px){.cols{display:flex;flex-direction:column}"
                 "aside{display:contents}aside>img.photo,aside>section.reach{order:-1}}\n");
    }
    /* A phone: one column, the side lines under the main ones. */
    cv_buf_puts(b, "@media (max-width:640px){.cv{padding:20px 16px}header.top{flex-direction:column}"
             "img.photo{order:0}.head{flex-direction:column}.head .side{text-align:start;"
             "max-width:none;flex-basis:auto;order:0}"
             ".head .degree{max-width:none;flex-basis:auto;overflow-wrap:anywhere}}\n");
    /* ... and the contact items one a line, without separators: wrapped
     * in a row, a line would start with the separator. */
    const char *hal = st->header_align == CV_ALIGN_CENTER  ? "center"
                      : st->header_align == CV_ALIGN_RIGHT ? "flex-end"
                                                           : "flex-start";
    cv_buf_printf(b, "@media (max-width:640px){header.top{align-items:%s}.who{align-self:stretch}"
            "ul.contact{flex-direction:column;align-items:%s}"
            "ul.contact li+li::before{content:none}}\n", hal, hal);
    cv_buf_puts(b, "@media print{.cv{max-width:none;padding:0}a{text-decoration:none}"
             "h2{break-after:avoid}article.entry .head{break-inside:avoid}}\n");
    cv_buf_puts(b, "</style>\n");
}

/* ---- JSON-LD -------------------------------------------------------------- */

/* A JSON string: quotes, backslash and controls escaped, and '<', '>',
 * '&' as \u escapes, so that nothing in it ends the <script>. */
static void jstr(buf *b, const char *s)
{
    cv_buf_put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            cv_buf_printf(b, "\\%c", *p);
        else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
            cv_buf_printf(b, "\\u%04x", *p);
        else
            cv_buf_put(b, (const char *)p, 1);
    }
    cv_buf_put(b, "\"", 1);
}

static void jfield(hw *w, buf *b, const char *key, const char *markup_value)
{
    if (!markup_value)
        return;
    cv_buf_printf(b, ",\"%s\":", key);
    jstr(b, cv_markup_strip(w->a, markup_value));
}

/* Is the entry current: ongoing, or with no end? */
static bool current(const cv_entry *e)
{
    return e->end_date.kind == CV_DATE_PRESENT ||
           (e->start_date.kind && !e->end_date.kind && !e->date.kind);
}

static void json_ld(hw *w, buf *b)
{
    const cv_doc *doc = w->doc;
    cv_buf_puts(b, "<script type=\"application/ld+json\">\n{\"@context\":\"https://schema.org\","
             "\"@type\":\"Person\"");
    jfield(w, b, "name", doc->name.s);
    if (doc->native_name.s) {
        cv_buf_puts(b, ",\"alternateName\":");
        jstr(b, doc->native_name.s);
    }
    jfield(w, b, "jobTitle", doc->headline.s);
    if (doc->email.s) {
        cv_buf_puts(b, ",\"email\":");
        jstr(b, doc->email.s);
    }
    if (doc->phone.s) {
        cv_buf_puts(b, ",\"telephone\":");
        jstr(b, doc->phone.s);
    }
    if (doc->website.s && cv_markup_web_link(doc->website.s)) {
        cv_buf_puts(b, ",\"url\":");
        jstr(b, doc->website.s);
    }
    if (doc->location.s) {
        cv_buf_puts(b, ",\"address\":{\"@type\":\"PostalAddress\",\"addressLocality\":");
        jstr(b, cv_markup_strip(w->a, doc->location.s));
        cv_buf_puts(b, "}");
    }
    size_t nsame = 0;
    for (size_t i = 0; i < doc->nsocials; i++)
        if (doc->socials[i].url && cv_markup_web_link(doc->socials[i].url)) {
            cv_buf_puts(b, nsame++ ? "," : ",\"sameAs\":[");
            jstr(b, doc->socials[i].url);
        }
    for (size_t i = 1; i < doc->nwebsites; i++) {
        if (!cv_markup_web_link(doc->websites[i].s))
            continue;
        cv_buf_puts(b, nsame++ ? "," : ",\"sameAs\":[");
        jstr(b, doc->websites[i].s);
    }
    /* A custom connection that links to the web is a profile too (JSON
     * Resume's basics.profiles arrive as such). */
    for (size_t i = 0; i < doc->nconnections; i++) {
        const char *u = doc->connections[i].url.s;
        if (!u || strncasecmp(u, "http", 4) || !cv_markup_web_link(u))
            continue;
        cv_buf_puts(b, nsame++ ? "," : ",\"sameAs\":[");
        jstr(b, u);
    }
    if (nsame)
        cv_buf_puts(b, "]");
    /* Where the person works now, and the schools they went to. */
    size_t nwork = 0, nschool = 0;
    for (size_t s = 0; s < doc->nsections; s++)
        for (size_t i = 0; i < doc->sections[s].nentries; i++) {
            const cv_entry *e = &doc->sections[s].entries[i];
            if (e->kind == CV_ENTRY_EXPERIENCE && e->company.s && current(e)) {
                cv_buf_puts(b, nwork++ ? "," : ",\"worksFor\":[");
                cv_buf_puts(b, "{\"@type\":\"Organization\",\"name\":");
                jstr(b, cv_markup_strip(w->a, e->company.s));
                cv_buf_puts(b, "}");
            }
        }
    if (nwork)
        cv_buf_puts(b, "]");
    for (size_t s = 0; s < doc->nsections; s++)
        for (size_t i = 0; i < doc->sections[s].nentries; i++) {
            const cv_entry *e = &doc->sections[s].entries[i];
            if (e->kind == CV_ENTRY_EDUCATION && e->institution.s) {
                cv_buf_puts(b, nschool++ ? "," : ",\"alumniOf\":[");
                cv_buf_puts(b, "{\"@type\":\"EducationalOrganization\",\"name\":");
                jstr(b, cv_markup_strip(w->a, e->institution.s));
                cv_buf_puts(b, "}");
            }
        }
    if (nschool)
        cv_buf_puts(b, "]");
    cv_buf_puts(b, "}\n</script>\n");
}

/* ---- the page -------------------------------------------------------------- */

bool cv_html_write(cv_arena *a, const cv_doc *doc, const cv_ctx *cx, const cv_image *photo,
                   const char *path, const cv_inputs *inputs, cv_error *err)
{
    const cv_style *st = cx->lay;
    hw w = {.a = a, .doc = doc, .cx = cx, .st = st, .err = err};
    const char *lang = doc->locale.language ? doc->locale.language : "en";
    w.own = lang_script(lang);
    if (st->smart_quotes) {
        cv_quotes_init(&w.q, lang);
        w.quotes = true;
    }
    /* Soft hyphens where the PDF would hyphenate (text.hyphenate): the
     * language's patterns, chosen as wrap.c chooses them. */
    if (st->hyphenate) {
        const char *dict = doc->locale.hyphenation;
        w.hy = cv_engine_hyph(cx->eng, dict);
        w.hy_wide = w.hy && w.hy != cx->eng->hyph;
        w.hy_caps = dict && !strncmp(dict, "de", 2);
    }
    /* Where the CSS asks the browser to hyphenate too (hyphens:auto). */
    w.hy_auto = st->justify && st->hyphenate;
    w.lang = lang;
    /* The body first: its text decides the faces' subsets. */
    bool side_photo = photo && st->sidebar && st->photo_where == CV_PHOTO_SIDEBAR;
    bool side_contact = st->sidebar && st->sidebar_contact;
    cv_buf_puts(&w.b, "<body>\n<div class=\"cv\">\n");
    header(&w, side_photo ? NULL : photo, !side_contact);
    bool any_side = side_photo || side_contact;
    for (size_t s = 0; s < doc->nsections; s++)
        any_side |= cv_compose_in_sidebar(st, doc, s);
    if (any_side)
        cv_buf_puts(&w.b, "<div class=\"cols\">\n");
    cv_buf_puts(&w.b, "<main>\n");
    for (size_t s = 0; s < doc->nsections; s++)
        if (!any_side || !cv_compose_in_sidebar(st, doc, s))
            section(&w, &doc->sections[s]);
    cv_buf_puts(&w.b, "</main>\n");
    if (any_side) {
        cv_buf_puts(&w.b, "<aside>\n");
        if (side_photo)
            photo_img(&w, photo, "photo");
        if (side_contact) {
            const char *t = cv_locale_layout_text(a, &doc->locale, st->contact_title);
            int id = ++w.nsec;
            if (t && *t) {
                if (st->title_uppercase)
                    t = cv_upper(a, t, lang);
                cv_buf_printf(&w.b, "<section class=\"reach\" aria-labelledby=\"s%d\">\n"
                        "<h2 id=\"s%d\">", id, id);
                tctx keep = enter(&w, FL_ROLE + CV_ROLE_TITLE, st->title_bold,
                                  st->title_small_caps);
                text0(&w, t);
                w.tc = keep;
                cv_buf_puts(&w.b, "</h2>\n");
            } else {
                cv_buf_puts(&w.b, "<section class=\"reach\">\n");
            }
            contacts(&w, "side-contact");
            cv_buf_puts(&w.b, "</section>\n");
        }
        for (size_t s = 0; s < doc->nsections; s++)
            if (cv_compose_in_sidebar(st, doc, s))
                section(&w, &doc->sections[s]);
        cv_buf_puts(&w.b, "</aside>\n</div>\n");
    }
    cv_buf_puts(&w.b, "</div>\n</body>\n</html>\n");
    buf body = w.b;
    w.b = (buf){0};

    /* The head. */
    buf *h = &w.b;
    cv_buf_puts(h, "<!DOCTYPE html>\n<html lang=\"");
    esc0(h, lang);
    cv_buf_printf(h, "\" dir=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n", doc->locale.rtl ? "rtl"
                                                                                   : "ltr");
    cv_buf_puts(h, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
             "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
             "img-src data:; font-src data:; style-src 'unsafe-inline'\">\n"
             "<meta name=\"generator\" content=\"cvpdf " CV_VERSION "\">\n");
    const char *name = doc->name.s ? cv_markup_strip(a, doc->name.s) : "";
    cv_buf_puts(h, "<title>");
    esc0(h, *name ? name : "R\xC3\xA9sum\xC3\xA9");
    cv_buf_puts(h, "</title>\n");
    if (doc->headline.s) {
        cv_buf_puts(h, "<meta name=\"description\" content=\"");
        esc0(h, cv_markup_strip(a, doc->headline.s));
        cv_buf_puts(h, "\">\n");
    }
    /* The faces, and what each is subset to (the separator and the
     * bullets the style draws were noted with the text they go with). */
    buf css = {0};
    resolve(&w);
    style(&w, &css, photo);
    cv_buf_put(h, css.s, css.n);
    free(css.s);
    for (size_t k = 0; k < w.nfams; k++)
        for (int s = 0; s < 4; s++)
            hb_set_destroy(w.fams[k].set[s]), hb_set_destroy(w.fams[k].lent[s]);
    json_ld(&w, h);
    cv_buf_puts(h, "</head>\n");
    cv_buf_put(h, body.s, body.n);
    free(body.s);

    cv_out *o = err->set ? NULL : cv_out_open_as(path, inputs, "an HTML page", err); /* --strict */
    bool ok = o && cv_out_write(o, h->s, h->n, err);
    if (o)
        ok = ok ? cv_out_commit(o, err) : (cv_out_abort(o), false);
    free(h->s);
    return ok;
}
