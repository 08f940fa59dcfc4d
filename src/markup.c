/* markup.c - inline markup in profile strings: **bold**, *italic*, links.
 *
 * This is the CommonMark inline algorithm cut down to what a résumé needs:
 * `*` and `_` emphasis, `[text](url)` links and backslash escapes.  As in
 * Markdown (and RenderCV), `_` emphasises only at a word's edge (`_x_`,
 * `__bold__`): names like snake_case_tool stay as written.  An autolink
 * (`<https://example.com>`, `<ada@example.com>`) is its address, linked;
 * other HTML is not markup.  `code` spans are: their text is literal and set in
 * the layout's monospace face (CV_STYLE_CODE), as RenderCV sets them.
 *
 * One left-to-right scan turns the string into a flat array of items:
 * literal text, runs of `*` ("delimiter runs") and `[` openers.  A run
 * records whether it can open and/or close emphasis, by CommonMark's
 * flanking rules: a run can open when the character after it is not
 * whitespace, and either is not punctuation or the character before it is
 * whitespace or punctuation; closing is the mirror image.  So `2 * 3` keeps
 * its star, `**bold**` works next to punctuation, and a star inside a word
 * (`a*b*c`) can both open and close, as CommonMark allows for `*`.  The
 * start and end of the string count as whitespace; non-ASCII characters
 * count as letters except for Unicode spaces (NBSP, U+2000-U+200A, U+3000
 * ...), which is kinder to CJK text than CommonMark's punctuation rule.
 *
 * When `]` follows an opener and is itself followed by `(url)`, the items
 * between become a link: their emphasis is resolved first (it may not
 * cross the link's edges), they take the URL, and earlier `[` openers turn
 * literal (links do not nest).  At the end, emphasis is resolved over the
 * whole array with CommonMark's "process emphasis" procedure: each closer
 * looks back for the nearest matching opener (with the "rule of three" for
 * runs that can both open and close); a match uses two stars (bold) when
 * both runs have two left, else one (italic); the style is OR-ed into every
 * item between them (in one pass at the end, so that nesting costs linear
 * time).  Because styles only accumulate, a flat array needs
 * no tree: `***both***` is bold then italic over the same items.  Stars
 * left unmatched print as stars.
 *
 * Finally items become spans; neighbours with the same style and link are
 * merged and empty ones dropped.
 */
#include "markup.h"
#include "unicode.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

typedef enum { TEXT, DELIM, OPEN } item_kind;

typedef struct item {
    item_kind kind;
    const char *s;      /* TEXT: unescaped text */
    size_t len;
    unsigned style;
    const char *link;
    int count, orig;    /* DELIM: stars left / stars in the run */
    char ch;            /* DELIM: '*' or '_' (a run closes only its own kind) */
    bool can_open, can_close, active;
} item;

typedef cv_strbuf buf;

/* Where a title walk began and the index it ended at (NONE: the string
 * ended first). */
typedef struct walk {
    size_t from, to;
    bool valid;
} walk;

typedef struct parser {
    cv_arena *a;
    walk title[3];      /* the last title walk to '"', '\'' and ')' */
    item *items;
    size_t n, cap;
    buf text;           /* literal text not yet flushed into an item */
    size_t *opens;      /* indices of `[` openers still usable */
    size_t nopen, opencap;
} parser;

static void push(parser *p, item it)
{
    CV_PUSH(p->a, p->items, p->n, p->cap, it);
}

/* Pending literal text becomes an item. */
static void flush(parser *p)
{
    if (!p->text.n)
        return;
    push(p, (item){.kind = TEXT, .s = p->text.s, .len = p->text.n});
    p->text = (buf){0};
}

/* ---- Character classes for the flanking rules -------------------------- */

enum { SPACE, PUNCT, OTHER };

/* The Unicode spaces a résumé may hold. */
static int unicode_class(uint32_t cp)
{
    if (cv_unicode_space(cp))
        return SPACE; /* NBSP, U+2000-U+200A, narrow NBSP, math space, ideographic */
    return OTHER;
}

static int ascii_class(unsigned char c)
{
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
        return SPACE;
    return ispunct(c) ? PUNCT : OTHER;
}

/* Class of the character that ends just before s[i]. */
static int class_before(const char *s, size_t i)
{
    if (i == 0)
        return SPACE;
    if ((unsigned char)s[i - 1] < 0x80)
        return ascii_class((unsigned char)s[i - 1]);
    size_t j = cv_utf8_prev(s, i);
    uint32_t cp;
    cv_utf8_decode(s + j, i - j, &cp);
    return unicode_class(cp);
}

/* Class of the character that starts at s[i]. */
static int class_at(const char *s, size_t i)
{
    const unsigned char *u = (const unsigned char *)s + i;
    if (!u[0])
        return SPACE;
    if (u[0] < 0x80)
        return ascii_class(u[0]);
    uint32_t cp;
    cv_utf8_decode(s + i, strnlen(s + i, CV_UTF8_MAX), &cp);
    return unicode_class(cp);
}

/* ---- Emphasis ---------------------------------------------------------- */

/* CommonMark's "process emphasis" over items [lo, hi).
 *
 * As in CommonMark, the runs still worth matching form a list (here
 * prev[], each run's live predecessor), and a match takes the runs between
 * opener and closer out of it, so a closer never looks at a spent run
 * again.  A match's style is recorded as a range (+1 where it starts, -1
 * where it ends) and OR-ed into the items by one pass at the end: deeply
 * nested emphasis (`**a **a ... a* a*`) costs linear time, not quadratic. */
#define NONE ((size_t)-1)

static void emphasis(cv_arena *a, item *it, size_t lo, size_t hi)
{
    while (lo < hi && it[lo].kind != DELIM)
        lo++;
    if (hi <= lo)
        return;
    size_t *prev = cv_arena_alloc(a, (hi - lo) * sizeof *prev);
    int *cover[2] = {cv_arena_alloc(a, (hi - lo + 1) * sizeof(int)),   /* bold */
                     cv_arena_alloc(a, (hi - lo + 1) * sizeof(int))};  /* italic */
    /* Lowest opener worth trying, per closer run length mod 3 and whether
     * the closer can also open: keeps the search linear. */
    size_t bottom[2][3][2] = {{{lo, lo}, {lo, lo}, {lo, lo}}, {{lo, lo}, {lo, lo}, {lo, lo}}};
    size_t last = NONE;      /* the live run nearest before ci */
    for (size_t ci = lo; ci < hi; ci++) {
        item *cl = &it[ci];
        if (cl->kind != DELIM || !cl->active)
            continue;
        prev[ci - lo] = last;
        while (cl->active && cl->can_close && cl->count > 0) {
            size_t *b = &bottom[cl->ch == '_'][cl->orig % 3][cl->can_open];
            size_t oi = prev[ci - lo];
            for (; oi != NONE && oi >= *b; oi = prev[oi - lo]) {
                const item *op = &it[oi];
                if (!op->can_open || op->count == 0 || op->ch != cl->ch)
                    continue;
                if ((op->can_close || cl->can_open) && (op->orig + cl->orig) % 3 == 0 &&
                    !(op->orig % 3 == 0 && cl->orig % 3 == 0))
                    continue;
                break;
            }
            if (oi == NONE || oi < *b) {
                *b = ci;
                if (!cl->can_open)
                    cl->active = false;
                break;
            }

            /* Two stars if both runs have them: bold; else italic.  The
             * style covers everything between, whose runs turn literal. */
            item *op = &it[oi];
            int use = op->count >= 2 && cl->count >= 2 ? 2 : 1;
            cover[use == 2 ? 0 : 1][oi + 1 - lo]++;
            cover[use == 2 ? 0 : 1][ci - lo]--;
            for (size_t k = prev[ci - lo]; k != oi; k = prev[k - lo])
                it[k].active = false;
            prev[ci - lo] = oi;
            op->count -= use;
            cl->count -= use;
            if (op->count == 0) {
                op->active = false;
                prev[ci - lo] = prev[oi - lo];
            }
            if (cl->count == 0)
                cl->active = false;
        }
        last = cl->active ? ci : prev[ci - lo];
    }

    /* The styles, from the ranges. */
    int bold = 0, italic = 0;
    for (size_t k = lo; k < hi; k++) {
        bold += cover[0][k - lo];
        italic += cover[1][k - lo];
        if (bold > 0)
            it[k].style |= CV_STYLE_BOLD;
        if (italic > 0)
            it[k].style |= CV_STYLE_ITALIC;
    }
}

/* ---- Links ------------------------------------------------------------- */

/* A destination or a title is read by a walk that can fail far from where
 * it began, and "[a](" or "[a](x (" a million times would read the rest of
 * the string a million times.  So, as in cmark, a destination nests
 * parentheses at most MAX_PAREN deep: a walk that fails crosses at most
 * that many of the links after it.  And a title walk remembers where the
 * last walk for the same closing character went (parser.title): a walk
 * that reaches its path ends where it did. */
#define MAX_PAREN 32

/* The end of a title whose text begins at s[i] and that `close` ends: the
 * index of the `close`, or NONE when the string ends first.  A backslash
 * escapes what follows it. */
static size_t title_end(parser *p, const char *s, size_t i, char close)
{
    walk *w = &p->title[close == '"' ? 0 : close == '\'' ? 1 : 2];
    size_t start = i;
    for (;; i++) {
        /* A walk from w->from visits every i from there on (up to where
         * it ended) that no backslash comes right before. */
        if (w->valid && i >= w->from && (w->to == NONE || i <= w->to) &&
            (i == w->from || s[i - 1] != '\\')) {
            if (start < w->from)
                w->from = start;
            return w->to;
        }
        if (s[i] == close)
            break;
        if (!s[i]) {
            i = NONE;
            break;
        }
        if (s[i] == '\\' && s[i + 1])
            i++;
    }
    *w = (walk){.from = start, .to = i, .valid = true};
    return i;
}

/* s[b, e) without the backslashes that escape punctuation. */
static const char *unescape(cv_arena *a, const char *s, size_t b, size_t e)
{
    char *u = cv_arena_alloc(a, e - b + 1);
    size_t n = 0;
    for (size_t k = b; k < e; k++) {
        if (s[k] == '\\' && k + 1 < e && ispunct((unsigned char)s[k + 1]))
            k++;
        u[n++] = s[k];
    }
    u[n] = 0;
    return u;
}

/* "(url)" or "(url "title")" at s[i]; returns the index after ')' and the
 * unescaped URL, or 0 when there is no valid destination. */
static size_t destination(parser *p, const char *s, size_t i, const char **url)
{
    if (s[i] != '(')
        return 0;
    i++;
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n')
        i++;

    /* <url with spaces> or a run of non-space characters with balanced
     * parentheses: s[b, e), unescaped only once it is known to be one. */
    size_t b = i, e;
    if (s[i] == '<') {
        for (i++; s[i] != '>'; i++) {
            if (!s[i] || s[i] == '\n' || s[i] == '<')
                return 0;
            if (s[i] == '\\' && ispunct((unsigned char)s[i + 1]))
                i++;
        }
        b++;
        e = i++;
    } else {
        int depth = 0;
        for (; s[i] && !isspace((unsigned char)s[i]) && !iscntrl((unsigned char)s[i]); i++) {
            if (s[i] == '(') {
                if (++depth > MAX_PAREN)
                    return 0;
            } else if (s[i] == ')' && depth-- == 0) {
                break;
            }
            if (s[i] == '\\' && ispunct((unsigned char)s[i + 1]))
                i++;
        }
        if (depth > 0)
            return 0;
        e = i;
    }

    /* An optional title, which we do not use. */
    size_t before = i;
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n')
        i++;
    if ((s[i] == '"' || s[i] == '\'' || s[i] == '(') && i > before) {
        size_t end = title_end(p, s, i + 1, s[i] == '(' ? ')' : s[i]);
        if (end == NONE)
            return 0;
        i = end + 1;
        while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n')
            i++;
    }
    if (s[i] != ')')
        return 0;
    *url = e > b ? unescape(p->a, s, b, e) : "";
    return i + 1;
}

/* `]` at s[i]: close a link if an opener waits and a destination follows.
 * Returns the index after what was consumed. */
static size_t close_bracket(parser *p, const char *s, size_t i)
{
    const char *url;
    size_t end = p->nopen ? destination(p, s, i + 1, &url) : 0;
    if (!end) {
        /* No link: the `]` is text, and so is the nearest `[`. */
        if (p->nopen) {
            item *op = &p->items[p->opens[--p->nopen]];
            *op = (item){.kind = TEXT, .s = "[", .len = 1};
        }
        cv_strbuf_put(p->a, &p->text, "]", 1);
        return i + 1;
    }

    /* A destination of nothing but spaces ("[y]()", "[y](<  >)") links to
     * nothing: its text stays, as text. */
    if (!url[strspn(url, " \t\n")])
        url = NULL;

    /* The link text: emphasis inside it is settled now and cannot reach
     * outside; empty link text shows the URL. */
    flush(p);
    size_t lo = p->opens[--p->nopen];
    p->items[lo] = (item){.kind = TEXT, .s = "", .len = 0};
    bool empty = true;
    for (size_t k = lo + 1; k < p->n && empty; k++)
        empty = p->items[k].kind == TEXT && p->items[k].len == 0;
    if (empty && url)
        push(p, (item){.kind = TEXT, .s = url, .len = strlen(url)});
    emphasis(p->a, p->items, lo + 1, p->n);
    for (size_t k = lo + 1; k < p->n; k++) {
        p->items[k].link = url;
        if (p->items[k].kind == DELIM)
            p->items[k].active = false;
    }

    /* Links do not nest: earlier openers are plain `[` now. */
    for (size_t k = 0; k < p->nopen; k++)
        p->items[p->opens[k]] = (item){.kind = TEXT, .s = "[", .len = 1};
    p->nopen = 0;
    return end;
}

/* ---- Parsing ----------------------------------------------------------- */

static void scan(parser *p, const char *s)
{
    size_t i = 0;
    while (s[i]) {
        char c = s[i];

        /* A backslash makes the ASCII punctuation after it literal. */
        if (c == '\\' && s[i + 1] && ispunct((unsigned char)s[i + 1])) {
            cv_strbuf_put(p->a, &p->text, s + i + 1, 1);
            i += 2;
            continue;
        }

        /* A run of stars or underscores: emphasis if it flanks something
         * (an underscore run only at a word's edge, as CommonMark says). */
        if (c == '*' || c == '_') {
            size_t j = i;
            while (s[j] == c)
                j++;
            int before = class_before(s, i), after = class_at(s, j);
            bool left = after != SPACE && (after != PUNCT || before != OTHER);
            bool right = before != SPACE && (before != PUNCT || after != OTHER);
            bool open = left, close = right;
            if (c == '_') {
                open = left && (!right || before == PUNCT);
                close = right && (!left || after == PUNCT);
            }
            if (!open && !close) {
                cv_strbuf_put(p->a, &p->text, s + i, j - i);
            } else {
                flush(p);
                int n = (int)(j - i);
                push(p, (item){.kind = DELIM, .count = n, .orig = n, .ch = c, .can_open = open,
                               .can_close = close, .active = true});
            }
            i = j;
            continue;
        }

        /* A code span: `text` between backtick runs of one length, taken
         * literally and set in the monospace face (CV_STYLE_CODE). */
        if (c == '`') {
            size_t j = i;
            while (s[j] == '`')
                j++;
            size_t run = j - i, k = j, end = 0;
            while (s[k] && !end) {
                if (s[k] != '`') {
                    k++;
                    continue;
                }
                size_t r = k;
                while (s[r] == '`')
                    r++;
                if (r - k == run)
                    end = k;
                k = r;
            }
            if (!end) {
                cv_strbuf_put(p->a, &p->text, s + i, run);
                i = j;
                continue;
            }
            flush(p);
            /* One space each side is padding, as in CommonMark. */
            size_t b = j, e = end;
            if (e - b >= 2 && s[b] == ' ' && s[e - 1] == ' ')
                b++, e--;
            push(p, (item){.kind = TEXT, .s = cv_arena_strndup(p->a, s + b, e - b),
                           .len = e - b, .style = CV_STYLE_CODE});
            i = end + run;
            continue;
        }

        /* An autolink, <https://...> or <name@example.com>: the address,
         * linked (as Markdown, and so RenderCV, shows it). */
        if (c == '<') {
            size_t j = i + 1;
            while (s[j] && s[j] != '>' && s[j] != '<' && !isspace((unsigned char)s[j]) &&
                   !iscntrl((unsigned char)s[j]))
                j++;
            size_t n = j - i - 1;
            const char *at = n ? memchr(s + i + 1, '@', n) : NULL;
            bool web = n > 8 && (!strncmp(s + i + 1, "https://", 8) ||
                                 !strncmp(s + i + 1, "http://", 7));
            bool mail = at && at > s + i + 1 && memchr(at, '.', (size_t)(s + j - at)) &&
                        !memchr(s + i + 1, ':', n) && !memchr(s + i + 1, '/', n);
            if (s[j] == '>' && (web || mail)) {
                flush(p);
                const char *addr = cv_arena_strndup(p->a, s + i + 1, n);
                push(p, (item){.kind = TEXT, .s = addr, .len = n,
                               .link = web ? addr : cv_arena_printf(p->a, "mailto:%s", addr)});
                i = j + 1;
                continue;
            }
        }

        if (c == '[') {
            flush(p);
            CV_PUSH(p->a, p->opens, p->nopen, p->opencap, p->n);
            push(p, (item){.kind = OPEN, .s = "[", .len = 1});
            i++;
            continue;
        }
        if (c == ']') {
            i = close_bracket(p, s, i);
            continue;
        }
        cv_strbuf_put(p->a, &p->text, s + i, 1);
        i++;
    }
    flush(p);
    emphasis(p->a, p->items, 0, p->n);
}

static bool same_link(const char *x, const char *y)
{
    return x == y || (x && y && strcmp(x, y) == 0);
}

size_t cv_markup_parse(cv_arena *a, const char *s, unsigned base_style, cv_span **out)
{
    parser p = {.a = a};
    *out = NULL;
    if (!s || !*s)
        return 0;

    /* Nothing markup could act on (most strings): one span. */
    if (!strpbrk(s, "*_[]\\`<")) {
        size_t len = strlen(s);
        cv_span *sp = cv_arena_alloc(a, sizeof *sp);
        *sp = (cv_span){cv_arena_strndup(a, s, len), len, base_style, NULL};
        *out = sp;
        return 1;
    }
    scan(&p, s);

    /* Items to spans: what each prints, merged with its neighbour when the
     * style and link agree. */
    cv_span *spans = NULL;
    size_t n = 0, cap = 0;
    buf cur = {0};
    unsigned cur_style = 0;
    const char *cur_link = NULL;
    for (size_t k = 0; k <= p.n; k++) {
        const char *t = "";
        size_t len = 0;
        char stars[64];
        buf many = {0};
        if (k < p.n) {
            item *it = &p.items[k];
            if (it->kind == DELIM) {
                if (it->count <= (int)sizeof stars) {
                    memset(stars, it->ch, (size_t)it->count);
                    t = stars;
                } else {
                    for (int j = 0; j < it->count; j++)
                        cv_strbuf_put(a, &many, &it->ch, 1);
                    t = many.s;
                }
                len = (size_t)it->count;
            } else {
                t = it->s;
                len = it->len;
            }
            if (!len)
                continue;
        }
        bool last = k == p.n;
        unsigned style = last ? 0 : p.items[k].style | base_style;
        if (last || cur.n == 0 || style != cur_style || !same_link(p.items[k].link, cur_link)) {
            if (cur.n) {
                cv_span sp = {cur.s, cur.n, cur_style, cur_link};
                CV_PUSH(a, spans, n, cap, sp);
            }
            cur = (buf){0};
            if (last)
                break;
            cur_style = style;
            cur_link = p.items[k].link;
        }
        cv_strbuf_put(a, &cur, t, len);
    }
    *out = spans;
    return n;
}

char *cv_markup_strip(cv_arena *a, const char *s)
{
    cv_span *spans;
    size_t n = cv_markup_parse(a, s, 0, &spans);
    buf b = {0};
    for (size_t i = 0; i < n; i++)
        cv_strbuf_put(a, &b, spans[i].text, spans[i].len);
    return b.s ? b.s : cv_arena_strdup(a, "");
}

char *cv_markup_escape(cv_arena *a, const char *s)
{
    buf b = {0};
    for (; s && *s; s++) {
        if (*s == '\\' || *s == '*' || *s == '_' || *s == '[' || *s == ']' || *s == '`' ||
            *s == '<')
            cv_strbuf_put(a, &b, "\\", 1);
        cv_strbuf_put(a, &b, s, 1);
    }
    return b.s ? b.s : cv_arena_strdup(a, "");
}

bool cv_markup_web_link(const char *url)
{
    static const char *const ok[] = {"http://", "https://", "mailto:", "tel:"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (!strncasecmp(url, ok[i], strlen(ok[i])))
            return url[strlen(ok[i])] != 0;
    return false;
}

bool cv_markup_is_address(const cv_span *sp)
{
    if (!sp->link || !sp->len)
        return false;
    bool mark = false;
    for (size_t i = 0; i < sp->len; i++) {
        unsigned char ch = (unsigned char)sp->text[i];
        if (ch == ' ' || ch == '\t' || ch == '\n')
            return false;
        mark = mark || ch == '@' || ch == '/' || ch == '.';
    }
    return mark;
}
