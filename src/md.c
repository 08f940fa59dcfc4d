/* md.c - a résumé as CommonMark (md.h).
 *
 * Text goes out through one escaper (put_text), which knows where a line
 * starts: there `#`, `-`, `+`, `=` and an ordered list's `1.` would begin a
 * block, so they are escaped; anywhere, `\`, `*`, `_`, `` ` ``, `[`, `]`,
 * `<`, `>` and an `&` that would read as an entity are.  Spans of one link
 * become one `[...](...)`; inside it (and outside), bold and italic open
 * and close as the spans' styles change, never around white space (a
 * delimiter run next to a space neither opens nor closes in CommonMark),
 * so adjacent styled spans read as the PDF sets them.
 */
#include "md.h"

#include <string.h>
#include <strings.h>

#include "compose.h"
#include "design.h"
#include "markup.h"
#include "quotes.h"
#include "template.h"
#include "unicode.h"

typedef struct md {
    cv_arena *a;
    cv_strbuf b;
    const cv_doc *doc;
    const cv_ctx *cx;
    bool bol;                /* the next character starts a line */
    bool heading;            /* in a heading: `#` is escaped everywhere */
    cv_quotes q;
} md;

static void put(md *m, const char *s, size_t n)
{
    if (n)
        cv_strbuf_put(m->a, &m->b, s, n);
}

static void puts_(md *m, const char *s)
{
    if (!*s)
        return;
    put(m, s, strlen(s));
    m->bol = s[strlen(s) - 1] == '\n';
}

/* An `&` that begins something an HTML entity could be ("&amp;", "&#38;"). */
static bool entity_like(const char *s, size_t n)
{
    size_t i = 1;
    if (i < n && s[i] == '#')
        i++;
    size_t start = i;
    while (i < n && i < 34 && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
                               (s[i] >= '0' && s[i] <= '9')))
        i++;
    return i > start && i < n && s[i] == ';';
}

/* `n` bytes of text, escaped so that CommonMark shows them as written.
 * Line breaks and tabs in it are spaces; white space at a line's start is
 * left out (four spaces would begin code). */
static void put_text(md *m, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char ch = s[i] == '\n' || s[i] == '\r' || s[i] == '\t' ? ' ' : s[i];
        if (m->bol && ch == ' ')
            continue;
        bool esc = strchr("\\*_`[]<>", ch) != NULL || (ch == '#' && m->heading) ||
                   (ch == '&' && entity_like(s + i, n - i));
        if (m->bol) {
            if (strchr("#-+=~|", ch))
                esc = true;
            /* "2020. " would begin an ordered list */
            size_t d = i;
            while (d < n && d - i < 10 && s[d] >= '0' && s[d] <= '9')
                d++;
            if (d > i && d < n && (s[d] == '.' || s[d] == ')')) {
                put(m, s + i, d - i);
                put(m, "\\", 1);
                put(m, s + d, 1);
                i = d;
                m->bol = false;
                continue;
            }
        }
        if (esc)
            put(m, "\\", 1);
        put(m, &ch, 1);
        m->bol = false;
    }
}

/* A link's target, kept only for http, https, mailto and tel: spaces and
 * angle brackets percent-encoded, parentheses and backslashes escaped. */
static void put_url(md *m, const char *u)
{
    for (const unsigned char *p = (const unsigned char *)u; *p; p++) {
        if (*p <= ' ' || *p == '<' || *p == '>' || *p == 0x7F) {
            char hex[4];
            static const char digits[] = "0123456789ABCDEF";
            hex[0] = '%', hex[1] = digits[*p >> 4], hex[2] = digits[*p & 15];
            put(m, hex, 3);
            continue;
        }
        if (*p == '(' || *p == ')' || *p == '\\')
            put(m, "\\", 1);
        put(m, (const char *)p, 1);
    }
}

/* ---- styled spans ------------------------------------------------------- */

enum { B = CV_STYLE_BOLD, I = CV_STYLE_ITALIC };

/* The emphasis open: stack[0..n), innermost last. */
typedef struct emph {
    unsigned stack[2];
    size_t n;
} emph;

static void close_to(md *m, emph *e, size_t keep)
{
    while (e->n > keep) {
        unsigned top = e->stack[--e->n];
        put(m, top == B ? "**" : "*", top == B ? 2 : 1);
    }
}

static bool is_space(char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/* `code`: a code span with enough backticks around it. */
static void put_code(md *m, const char *s, size_t n)
{
    size_t run = 0, longest = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '`')
            longest = ++run > longest ? run : longest;
        else
            run = 0;
    char ticks[8] = "```````";
    size_t k = longest + 1 < 7 ? longest + 1 : 7;
    put(m, ticks, k);
    bool pad = n && (s[0] == '`' || s[n - 1] == '`');
    if (pad)
        put(m, " ", 1);
    for (size_t i = 0; i < n; i++)
        put(m, s[i] == '\n' ? " " : s + i, 1);
    if (pad)
        put(m, " ", 1);
    put(m, ticks, k);
    m->bol = false;
}

/* Punctuation as CommonMark's flanking rules see it (ASCII punctuation,
 * and beyond ASCII whatever is no letter, mark, digit or space), and a
 * character that is neither that nor white space. */
static bool cm_punct(uint32_t cp)
{
    if (cp < 128)
        return cp > ' ' && cp < 127 && !((cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') ||
                                         (cp >= 'A' && cp <= 'Z'));
    return !cv_unicode_word(cp) && !cv_unicode_space(cp);
}

static bool cm_word(uint32_t cp)
{
    return cp > ' ' && !cm_punct(cp) && !cv_unicode_space(cp);
}

/* The first and the last code point of n bytes at s (0: none). */
static uint32_t first_cp(const char *s, size_t n)
{
    uint32_t cp = 0;
    if (n)
        cv_utf8_decode(s, n, &cp);
    return cp;
}

static uint32_t last_cp(const char *s, size_t n)
{
    uint32_t cp = 0;
    if (n) {
        size_t b = cv_utf8_prev(s, n);
        cv_utf8_decode(s + b, n - b, &cp);
    }
    return cp;
}

/* How many bytes of punctuation begin (or end) the n bytes at s. */
static size_t punct_head(const char *s, size_t n)
{
    size_t k = 0;
    while (k < n) {
        uint32_t cp;
        size_t l = cv_utf8_decode(s + k, n - k, &cp);
        if (!l || !cm_punct(cp))
            break;
        k += l;
    }
    return k;
}

static size_t punct_tail(const char *s, size_t n)
{
    size_t k = n;
    while (k > 0) {
        size_t b = cv_utf8_prev(s, k);
        uint32_t cp;
        cv_utf8_decode(s + b, k - b, &cp);
        if (!cm_punct(cp))
            break;
        k = b;
    }
    return n - k;
}

/* How much of the open emphasis a text styled `want` keeps: the bottom
 * of the stack up to the first it lacks. */
static size_t kept(const emph *e, unsigned want)
{
    size_t keep = 0;
    while (keep < e->n && (want & e->stack[keep]))
        keep++;
    return keep;
}

/* The style of the first span after i with more than white space (0:
 * none). */
static unsigned next_style(const cv_span *sp, size_t n, size_t i)
{
    for (size_t j = i + 1; j < n; j++)
        for (size_t k = 0; k < sp[j].len; k++)
            if (!is_space(sp[j].text[k]))
                return sp[j].style & (B | I);
    return 0;
}

/* Spans sp[0..n) without links between them (the caller makes the link). */
static void put_styled(md *m, const cv_span *sp, size_t n)
{
    emph e = {{0, 0}, 0};
    for (size_t i = 0; i < n; i++) {
        const char *s = sp[i].text;
        size_t len = sp[i].len;
        unsigned want = sp[i].style & (B | I);
        /* White space at the span's edges stays outside the delimiters. */
        size_t lead = 0, trail = 0;
        while (lead < len && is_space(s[lead]))
            lead++;
        while (trail < len - lead && is_space(s[len - 1 - trail]))
            trail++;
        if (lead == len) {            /* white space alone: as a span's trailing space */
            close_to(m, &e, kept(&e, next_style(sp, n, i)));
            put_text(m, s, len);
            continue;
        }
        /* Close what this span has not, from the innermost down to the
         * deepest it lacks. */
        close_to(m, &e, kept(&e, want));
        put_text(m, s, lead);
        unsigned have = 0;
        for (size_t k = 0; k < e.n; k++)
            have |= e.stack[k];
        /* A delimiter between a letter and punctuation neither opens nor
         * closes ("**潞晨：**CN1", "a**(b)**"): such punctuation goes
         * outside the emphasis. */
        const char *c0 = s + lead;
        size_t cn = len - lead - trail, pre = 0, post = 0;
        unsigned next = next_style(sp, n, i);
        bool opens = (want & ~have) != 0, code = sp[i].style & CV_STYLE_CODE;
        if (opens && !code && m->b.n && cm_word(last_cp(m->b.s, m->b.n)))
            pre = punct_head(c0, cn);
        uint32_t after = i + 1 < n ? first_cp(sp[i + 1].text, sp[i + 1].len) : 0;
        if ((want & ~next) && !trail && !code && cm_word(after))
            post = punct_tail(c0 + pre, cn - pre);
        if (pre + post >= cn && !code) {       /* punctuation alone: no emphasis */
            put_text(m, c0, cn);
            put_text(m, s + len - trail, trail);
            continue;
        }
        put_text(m, c0, pre);
        if ((want & B) && !(have & B))
            put(m, "**", 2), e.stack[e.n++] = B;
        if ((want & I) && !(have & I))
            put(m, "*", 1), e.stack[e.n++] = I;
        if (code)
            put_code(m, c0, cn);
        else
            put_text(m, c0 + pre, cn - pre - post);
        if (post) {
            close_to(m, &e, kept(&e, next));
            put_text(m, c0 + cn - post, post);
        }
        if (trail) {
            /* The next text decides whether this emphasis goes on. */
            close_to(m, &e, kept(&e, next_style(sp, n, i)));
            put_text(m, s + len - trail, trail);
        }
    }
    close_to(m, &e, 0);
}

/* Spans as Markdown: runs of one safe link as `[text](url)`. */
static void put_spans(md *m, const cv_span *sp, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        if (sp[i].link) {
            while (j < n && sp[j].link && !strcmp(sp[j].link, sp[i].link))
                j++;
            if (cv_markup_web_link(sp[i].link)) {
                /* A `!` just before would make the link an image, loaded
                 * from its URL: escape it (put_text leaves `!` alone). */
                size_t k = m->b.n;
                while (k > 1 && m->b.s[k - 2] == '\\')
                    k--;
                if (m->b.n && m->b.s[m->b.n - 1] == '!' && (m->b.n - k) % 2 == 0) {
                    m->b.s[m->b.n - 1] = '\\';
                    put(m, "!", 1);
                }
                put(m, "[", 1);
                m->bol = false;
                put_styled(m, sp + i, j - i);
                put(m, "](", 2);
                put_url(m, sp[i].link);
                put(m, ")", 1);
            } else {
                put_styled(m, sp + i, j - i);
            }
        } else {
            while (j < n && !sp[j].link)
                j++;
            put_styled(m, sp + i, j - i);
        }
        i = j;
    }
}

/* Spans with the language's typographic quotes (text.smart_quotes), as
 * compose.c sets them. */
static const cv_span *smart(md *m, const cv_span *sp, size_t n)
{
    if (!m->cx->lay->smart_quotes || !n)
        return sp;
    return cv_quotes_spans(m->a, m->q, sp, n);
}

/* A line of profile markup (bold keywords applied). */
static void put_markup(md *m, const char *s)
{
    cv_span *sp;
    size_t n = cv_template_text(m->a, m->doc, s, 0, &sp);
    put_spans(m, smart(m, sp, n), n);
}

/* Lines of spans as one paragraph, hard breaks between them. */
static void put_lines(md *m, cv_span **sp, const size_t *nsp, size_t n, const char *prefix)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            puts_(m, "\\\n");
        if (prefix && i == 0)
            puts_(m, prefix);
        put_spans(m, smart(m, sp[i], nsp[i]), nsp[i]);
    }
    if (n)
        puts_(m, "\n");
}

/* ---- the document -------------------------------------------------------- */

static void header(md *m)
{
    const cv_doc *doc = m->doc;
    const cv_style *st = m->cx->lay;
    if (doc->name.s) {
        puts_(m, "# ");
        m->heading = true;
        const char *plain = cv_markup_strip(m->a, doc->name.s);
        size_t len = strlen(plain);
        if (st->smart_quotes) {         /* as the PDF sets it: O’Brien */
            cv_quotes q = m->q;
            plain = cv_quotes_apply(m->a, &q, plain, len, &len);
        }
        put_text(m, plain, len);
        if (doc->native_name.s && st->native_name_beside) {
            put(m, " ", 1);
            put_text(m, doc->native_name.s, strlen(doc->native_name.s));
        }
        m->heading = false;
        puts_(m, "\n\n");
    }
    if (doc->headline.s) {
        put_markup(m, doc->headline.s);
        puts_(m, "\n\n");
    }
    /* The connections as the layout shows them, without its icons. */
    cv_style plain = *st;
    plain.contact_icons = false;
    cv_ctx buf;
    const cv_ctx *pc = cv_ctx_with(m->cx, &plain, &buf);
    const char *items[CV_MAX_CONTACTS];
    cv_pos pos[CV_MAX_CONTACTS];
    size_t ni = cv_compose_contacts(m->a, pc, doc, items, pos, NULL);
    const char *sep = " · ";
    const char *ls = st->contact_separator;
    if (ls && *ls) {
        while (*ls == ' ')
            ls++;
        size_t k = strlen(ls);
        while (k && ls[k - 1] == ' ')
            k--;
        if (k)
            sep = cv_arena_printf(m->a, " %.*s ", (int)k, ls);
    }
    for (size_t i = 0; i < ni; i++) {
        if (i)
            put_text(m, sep, strlen(sep));
        cv_span *sp;
        size_t n = cv_markup_parse(m->a, items[i], 0, &sp);
        put_spans(m, sp, n);
    }
    if (ni)
        puts_(m, "\n\n");
}

/* Highlights as a list, nested ones indented under their item. */
static void highlights(md *m, const cv_highlight *hl, size_t n, int depth)
{
    for (size_t i = 0; i < n; i++) {
        for (int d = 0; d < depth; d++)
            put(m, "  ", 2);
        puts_(m, "- ");
        m->bol = true;            /* "- - x" would be a list in a list */
        put_markup(m, hl[i].text.s ? hl[i].text.s : "");
        puts_(m, "\n");
        if (hl[i].nsub)
            highlights(m, hl[i].sub, hl[i].nsub, depth + 1);
    }
}

/* Template lines tmpl[0..n) of `e`, expanded; the empty ones left out. */
static size_t expand(md *m, const char *const *tmpl, size_t n, const cv_entry *e,
                     cv_span **sp, size_t *nsp, size_t at)
{
    for (size_t i = 0; i < n && at < 2 * CV_MAX_TMPL + 1; i++) {
        nsp[at] = cv_template_expand(m->a, tmpl[i], e, m->doc, &sp[at]);
        if (nsp[at])
            at++;
    }
    return at;
}

/* An entry with a header: degree and main lines, the side lines on one
 * line, the summary, the highlights. */
static void full_entry(md *m, const cv_section *sec, const cv_entry *e, const cv_template *tp)
{
    cv_span *sp[2 * CV_MAX_TMPL + 2];
    size_t nsp[2 * CV_MAX_TMPL + 2];
    size_t n = expand(m, tp->degree, tp->ndegree, e, sp, nsp, 0);
    n = expand(m, tp->main, tp->nmain, e, sp, nsp, n);
    /* The side lines (dates, place), and RenderCV's time span where the
     * design shows it, joined into one line. */
    cv_span *side[CV_MAX_TMPL + 1];
    size_t nside[CV_MAX_TMPL + 1];
    size_t ns = expand(m, tp->side, tp->nside, e, side, nside, 0);
    const char *ts = ns < CV_MAX_TMPL ? cv_compose_time_span(m->a, m->cx->lay, m->doc, sec, e)
                                      : NULL;
    if (ts) {
        nside[ns] = cv_template_text(m->a, m->doc, cv_markup_escape(m->a, ts), 0, &side[ns]);
        ns += nside[ns] > 0;
    }
    if (ns) {
        size_t total = 0;
        for (size_t i = 0; i < ns; i++)
            total += nside[i] + 1;
        cv_span *joined = cv_arena_alloc(m->a, total * sizeof *joined);
        size_t k = 0;
        for (size_t i = 0; i < ns; i++) {
            if (i)
                joined[k++] = (cv_span){" · ", strlen(" · "), 0, NULL};
            memcpy(joined + k, side[i], nside[i] * sizeof *joined);
            k += nside[i];
        }
        sp[n] = joined;
        nsp[n++] = k;
    }
    put_lines(m, sp, nsp, n, NULL);
    if (e->summary.s) {
        puts_(m, n ? "\n" : "");
        put_markup(m, e->summary.s);
        puts_(m, "\n");
    }
    if (e->nhighlights) {
        puts_(m, n || e->summary.s ? "\n" : "");
        highlights(m, e->highlights, e->nhighlights, 0);
    }
}

static void section(md *m, const cv_section *sec)
{
    const cv_style *st = m->cx->lay;
    puts_(m, "## ");
    m->heading = true;
    put_text(m, sec->title, strlen(sec->title));
    m->heading = false;
    puts_(m, "\n\n");
    for (size_t i = 0; i < sec->nentries; i++) {
        const cv_entry *e = &sec->entries[i];
        const cv_template *tp = &st->tmpl[e->kind];
        const char *first = tp->nmain ? tp->main[0] : "TEXT";
        cv_span *sp[CV_MAX_TMPL + 1];
        size_t nsp[CV_MAX_TMPL + 1], n;
        switch (e->kind) {
        case CV_ENTRY_TEXT:
        case CV_ENTRY_ONELINE:
            n = tp->nmain ? expand(m, tp->main, tp->nmain, e, sp, nsp, 0)
                          : expand(m, (const char *const[]){"TEXT"}, 1, e, sp, nsp, 0);
            put_lines(m, sp, nsp, n, NULL);
            puts_(m, "\n");
            break;
        case CV_ENTRY_BULLET:
        case CV_ENTRY_NUMBERED:
        case CV_ENTRY_REVERSED: {
            /* One list; counting down, each item is a list of its own that
             * starts at its number (CommonMark counts up from a list's
             * first number), the delimiter alternating so that they part. */
            const char *lead = "- ";
            if (e->kind == CV_ENTRY_NUMBERED)
                lead = cv_arena_printf(m->a, "%zu. ", i + 1);
            else if (e->kind == CV_ENTRY_REVERSED)
                lead = cv_arena_printf(m->a, "%zu%c ", sec->nentries - i, i % 2 ? ')' : '.');
            n = expand(m, &first, 1, e, sp, nsp, 0);
            puts_(m, lead);
            m->bol = true;
            if (n)
                put_spans(m, smart(m, sp[0], nsp[0]), nsp[0]);
            puts_(m, "\n");
            if (i + 1 == sec->nentries)
                puts_(m, "\n");
            break;
        }
        default:
            full_entry(m, sec, e, tp);
            puts_(m, "\n");
            break;
        }
    }
}

const char *cv_md_text(cv_arena *a, const cv_doc *doc, const cv_ctx *cx)
{
    md m = {.a = a, .doc = doc, .cx = cx, .bol = true};
    cv_quotes_init(&m.q, doc->locale.language);
    header(&m);
    for (size_t s = 0; s < doc->nsections; s++)
        section(&m, &doc->sections[s]);
    /* One newline at the end. */
    while (m.b.n > 1 && m.b.s[m.b.n - 1] == '\n' && m.b.s[m.b.n - 2] == '\n')
        m.b.s[--m.b.n] = 0;
    return m.b.s ? m.b.s : "";
}

bool cv_md_write(cv_arena *a, const cv_doc *doc, const cv_ctx *cx, const char *path,
                 const cv_inputs *inputs, cv_error *err)
{
    const char *text = cv_md_text(a, doc, cx);
    /* Markdown is text: `-o -` on a terminal shows it. */
    cv_out *o = cv_out_open_as(path, inputs, NULL, err);
    if (!o)
        return false;
    if (!cv_out_write(o, text, strlen(text), err)) {
        cv_out_abort(o);
        return false;
    }
    return cv_out_commit(o, err);
}
