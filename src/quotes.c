/* quotes.c - typographic quotes in place of straight ones.  See quotes.h. */
#include "quotes.h"

#include <string.h>

#include "unicode.h"

void cv_quotes_init(cv_quotes *q, const char *lang)
{
    /* Languages by their first two letters. */
    static const struct { const char *lang; uint32_t q[4]; } table[] = {
        {"de", {0x201E, 0x201C, 0x201A, 0x2018}}, {"cs", {0x201E, 0x201C, 0x201A, 0x2018}},
        {"sk", {0x201E, 0x201C, 0x201A, 0x2018}}, {"pl", {0x201E, 0x201D, 0x201A, 0x2019}},
        {"ro", {0x201E, 0x201D, 0x201A, 0x2019}}, {"hu", {0x201E, 0x201D, 0x201A, 0x2019}},
        {"fr", {0xAB, 0xBB, 0x2039, 0x203A}},     {"es", {0xAB, 0xBB, 0x201C, 0x201D}},
        {"it", {0xAB, 0xBB, 0x201C, 0x201D}},     {"pt", {0xAB, 0xBB, 0x201C, 0x201D}},
        {"ru", {0xAB, 0xBB, 0x201E, 0x201C}},     {"uk", {0xAB, 0xBB, 0x201E, 0x201C}},
        {"sv", {0x201D, 0x201D, 0x2019, 0x2019}}, {"fi", {0x201D, 0x201D, 0x2019, 0x2019}},
        {"ja", {0x300C, 0x300D, 0x300E, 0x300F}},
    };
    memset(q, 0, sizeof *q);
    q->open2 = 0x201C, q->close2 = 0x201D, q->open1 = 0x2018, q->close1 = 0x2019;
    for (size_t i = 0; lang && i < sizeof table / sizeof *table; i++)
        if (!strncmp(lang, table[i].lang, 2) && (!lang[2] || lang[2] == '-' || lang[2] == '_')) {
            q->open2 = table[i].q[0], q->close2 = table[i].q[1];
            q->open1 = table[i].q[2], q->close1 = table[i].q[3];
        }
}

static bool is_alnum(uint32_t c)
{
    /* Letters, marks and digits of alphabets (unicode.h), not CJK. */
    return cv_unicode_word(c) && !cv_unicode_cjk(c);
}

/* Does a quote after `c` open? */
static bool opens_after(const cv_quotes *q, uint32_t c)
{
    return c == 0 || c == ' ' || c == 0xA0 || c == '\t' || c == '\n' || c == '(' ||
           c == '[' || c == '{' || c == 0x2013 || c == 0x2014 || c == '/' || c == q->open2 ||
           c == q->open1 || cv_unicode_cjk(c);  /* after CJK text too */
}

static bool edge_punct(char c)
{
    return strchr("\"'()[]<>.,;:!?", c) != NULL;
}

/* The bytes of s that are inside a web address or an e-mail address
 * written out in the text ("see https://x.org/it's", "o'brien@x.org"):
 * a quote there is part of the address, and stays as typed.  NULL when
 * the text has none.  An address is a word (between blanks) with "://",
 * or beginning "www.", or an '@' with a '.' after it; its first and last
 * quotes and brackets are the sentence's, not its own. */
static bool *in_addresses(cv_arena *a, const char *s, size_t len)
{
    if (!memchr(s, '@', len) && !memmem(s, len, "://", 3) && !memmem(s, len, "www.", 4))
        return NULL;
    bool *mask = NULL;
    for (size_t i = 0; i < len;) {
        while (i < len && strchr(" \t\n\r", s[i]))
            i++;
        size_t b = i;
        while (i < len && !strchr(" \t\n\r", s[i]) && !(s[i] == '\xC2' && i + 1 < len &&
                                                         s[i + 1] == '\xA0'))
            i++;
        size_t e = i;
        if (i < len && s[i] == '\xC2')
            i += 2;                                  /* a no-break space */
        while (b < e && edge_punct(s[b]))
            b++;
        while (e > b && edge_punct(s[e - 1]))
            e--;
        if (e <= b)
            continue;
        const char *at = memchr(s + b, '@', e - b);
        bool address = memmem(s + b, e - b, "://", 3) || (e - b > 4 && !memcmp(s + b, "www.", 4)) ||
                       (at && at > s + b && memchr(at, '.', (size_t)(s + e - at)));
        if (!address)
            continue;
        if (!mask) {
            mask = cv_arena_alloc(a, len);
            memset(mask, 0, len);
        }
        memset(mask + b, 1, e - b);
    }
    return mask;
}

const char *cv_quotes_apply(cv_arena *a, cv_quotes *q, const char *s, size_t len,
                            size_t *outlen)
{
    *outlen = len;
    if (!memchr(s, '"', len) && !memchr(s, '\'', len)) {
        /* Nothing to change, but the state follows the text. */
        if (len)
            q->prev = cv_utf8_last(s, len);
        return s;
    }
    char *o = cv_arena_alloc(a, len * 3 + 1), *w = o;   /* each quote: 1 byte -> 3 at most */
    const bool *kept = in_addresses(a, s, len);
    for (size_t k = 0; k < len;) {
        uint32_t c;
        size_t n = cv_utf8_decode(s + k, len - k, &c);
        uint32_t next = 0;
        if (k + n < len)
            cv_utf8_decode(s + k + n, len - k - n, &next);
        uint32_t r = c;
        /* After CJK text, with no space between, a quote may open or
         * close (中文"引号"和): it closes the quote that is open. */
        bool cjk = cv_unicode_cjk(q->prev);
        if (kept && kept[k]) {
            /* part of an address: as typed */
        } else if (c == '"') {
            r = opens_after(q, q->prev) && !(cjk && q->double_open) ? q->open2 : q->close2;
            q->double_open = r == q->open2;
        } else if (c == '\'') {
            if (is_alnum(q->prev) && is_alnum(next))
                r = 0x2019;                      /* an apostrophe: d’Informatique */
            else if (opens_after(q, q->prev) && !(cjk && q->single_open) &&
                     !(next >= '0' && next <= '9')) {
                r = q->open1;
                q->single_open = true;
            } else if (q->single_open) {
                r = q->close1;
                q->single_open = false;
            } else {
                r = 0x2019;                      /* students’, ’90s */
            }
        }
        if (r == c) {
            memcpy(w, s + k, n);
            w += n;
        } else {
            w += cv_utf8_encode(r, w);
        }
        q->prev = r;
        k += n;
    }
    *w = 0;
    *outlen = (size_t)(w - o);
    return o;
}

const cv_span *cv_quotes_spans(cv_arena *a, cv_quotes q, const cv_span *sp, size_t n)
{
    /* Nothing to change in most paragraphs: no copy then.  (A quote's
     * direction depends only on the text before it in these spans.) */
    size_t i = 0;
    while (i < n && !memchr(sp[i].text, '"', sp[i].len) && !memchr(sp[i].text, '\'', sp[i].len))
        i++;
    if (i == n)
        return sp;
    cv_span *o = cv_arena_alloc(a, n * sizeof *o);
    for (i = 0; i < n; i++) {
        o[i] = sp[i];
        o[i].text = cv_quotes_apply(a, &q, sp[i].text, sp[i].len, &o[i].len);
    }
    return o;
}
