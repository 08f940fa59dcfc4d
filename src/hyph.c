/* hyph.c - hyphenation points from libhyphen.  See hyph.h.
 *
 * The pattern file is read once and split into lines.  Each pattern's key
 * is its letters without the digits (".ad4der" -> ".adder"); a pattern can
 * only affect a word if its key is a substring of ".word.".  For each call
 * we hash every substring of the words (up to the longest key), keep the
 * patterns whose key hash is in that set -- a hash collision only lets in a
 * pattern that matches nothing, which changes nothing -- and hand libhyphen
 * the file's header lines plus those patterns through fmemopen().
 */
#include "hyph.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hyphen.h>

#ifndef CV_HYPHEN_DICT
#define CV_HYPHEN_DICT "/usr/share/hyphen/hyph_en_US.dic"
#endif

typedef struct pattern {
    const char *line;
    size_t len;
    uint64_t key;
} pattern;

static struct {
    bool tried, ok;
    char *text;               /* the whole file; lines cut in place */
    const char *head[16];     /* the charset line and keyword lines */
    size_t nhead;
    pattern *pat;
    size_t npat, maxkey;
} P;

#define FNV_BASIS 1469598103934665603u
#define FNV_PRIME 1099511628211u

static uint64_t nonzero(uint64_t h)
{
    return h ? h : 1;
}

static void patterns_free(void)
{
    free(P.text);
    free(P.pat);
    memset(&P, 0, sizeof P);
    P.tried = true;
}

static bool read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t cap = 1 << 17, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - len - 1, f);
        if (len < cap - 1)
            break;
        char *nb = realloc(buf, cap *= 2);
        if (!nb)
            free(buf);
        buf = nb;
    }
    bool ok = buf && !ferror(f);
    fclose(f);
    if (!ok) {
        free(buf);
        return false;
    }
    buf[len] = 0;
    P.text = buf;
    return true;
}

static bool load_patterns(void)
{
    if (P.tried)
        return P.ok;
    P.tried = true;
    const char *path = getenv("CVPDF_HYPHEN_DICT");
    if (!path || !*path)
        path = CV_HYPHEN_DICT;
    if (!read_file(path)) {
        fprintf(stderr, "cvpdf: note: cannot read hyphenation patterns %s (Debian "
                "package hyphen-en-us); words are not hyphenated\n", path);
        return false;
    }
    atexit(patterns_free);
    size_t lines = 1;
    for (const char *p = P.text; *p; p++)
        lines += *p == '\n';
    P.pat = malloc(lines * sizeof *P.pat);
    if (!P.pat)
        return false;
    char *s = P.text;
    for (size_t ln = 0; *s; ln++) {
        char *e = strchr(s, '\n');
        char *next = e ? e + 1 : s + strlen(s);
        if (e)
            *e = 0;
        size_t len = strlen(s);
        if (len && s[len - 1] == '\r')
            s[--len] = 0;
        if (ln == 0 || (s[0] >= 'A' && s[0] <= 'Z')) {
            if (P.nhead < sizeof P.head / sizeof *P.head)
                P.head[P.nhead++] = s;        /* charset, LEFTHYPHENMIN, ... */
        } else if (len && s[0] != '%') {
            uint64_t h = FNV_BASIS;
            size_t k = 0;
            for (const char *c = s; *c && *c != '/'; c++)
                if (!(*c >= '0' && *c <= '9')) {
                    h = (h ^ (unsigned char)*c) * FNV_PRIME;
                    k++;
                }
            P.pat[P.npat++] = (pattern){s, len, nonzero(h)};
            if (k > P.maxkey)
                P.maxkey = k;
        }
        s = next;
    }
    P.ok = P.npat > 0;
    return P.ok;
}

typedef struct hset {
    uint64_t *v;
    size_t mask;
} hset;

static void hset_add(hset *s, uint64_t h)
{
    size_t i = h & s->mask;
    while (s->v[i] && s->v[i] != h)
        i = (i + 1) & s->mask;
    s->v[i] = h;
}

static bool hset_has(const hset *s, uint64_t h)
{
    for (size_t i = h & s->mask; s->v[i]; i = (i + 1) & s->mask)
        if (s->v[i] == h)
            return true;
    return false;
}

/* A dictionary of the patterns that can match one of the words. */
static HyphenDict *dict_for(const char *const *words, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(words[i]) + 2;
        total += l * (l < P.maxkey ? l : P.maxkey);
    }
    hset set = {0};
    size_t cap = 64;
    while (cap < 2 * total)
        cap *= 2;
    set.v = calloc(cap, sizeof *set.v);
    set.mask = cap - 1;
    if (!set.v)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        char w[68];
        size_t l = strlen(words[i]);
        w[0] = '.';
        memcpy(w + 1, words[i], l);
        w[l + 1] = '.';
        l += 2;
        for (size_t b = 0; b < l; b++) {
            uint64_t h = FNV_BASIS;
            for (size_t e = b; e < l && e - b < P.maxkey; e++) {
                h = (h ^ (unsigned char)w[e]) * FNV_PRIME;
                hset_add(&set, nonzero(h));
            }
        }
    }

    size_t size = 1;
    for (size_t i = 0; i < P.nhead; i++)
        size += strlen(P.head[i]) + 1;
    for (size_t i = 0; i < P.npat; i++)
        if (hset_has(&set, P.pat[i].key))
            size += P.pat[i].len + 1;
    char *buf = malloc(size), *q = buf;
    HyphenDict *d = NULL;
    if (buf) {
        for (size_t i = 0; i < P.nhead; i++)
            q += sprintf(q, "%s\n", P.head[i]);
        for (size_t i = 0; i < P.npat; i++)
            if (hset_has(&set, P.pat[i].key)) {
                memcpy(q, P.pat[i].line, P.pat[i].len);
                q += P.pat[i].len;
                *q++ = '\n';
            }
        FILE *f = fmemopen(buf, (size_t)(q - buf), "r");
        if (f) {
            d = hnj_hyphen_load_file(f);
            fclose(f);
        }
        free(buf);
    }
    free(set.v);
    return d;
}

bool cv_hyphenate(const char *const *words, size_t n, bool (*out)[64], int left, int right)
{
    for (size_t i = 0; i < n; i++)
        memset(out[i], 0, sizeof out[i]);
    if (n == 0 || !load_patterns())
        return false;
    HyphenDict *d = dict_for(words, n);
    if (!d)
        return false;
    for (size_t i = 0; i < n; i++) {
        int len = (int)strlen(words[i]);
        if (len >= 60)
            continue;
        char hy[64 + 5];
        char **rep = NULL;
        int *pos = NULL, *cut = NULL;
        int r = hnj_hyphen_hyphenate3(d, words[i], len, hy, NULL, &rep, &pos, &cut, left,
                                      right, left, right);
        if (r == 0 && !rep)
            for (int k = left - 1; k < len - right; k++)
                out[i][k] = hy[k] & 1;
        if (rep) {
            for (int k = 0; k < len; k++)
                free(rep[k]);
            free(rep);
            free(pos);
            free(cut);
        }
    }
    hnj_hyphen_free(d);
    return true;
}
