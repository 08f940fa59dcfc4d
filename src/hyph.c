/* hyph.c - hyphenation points from libhyphen.  See hyph.h.
 *
 * The pattern file is read once and split into lines.  Each pattern's key
 * is its letters without the digits (".ad4der" -> ".adder"); a pattern can
 * only affect a word if its key is a substring of ".word.".
 *
 * Debian's pattern files are made by libhyphen's substrings.pl, which
 * closes them under substrings: the line of every key that a pattern could
 * reach already holds the digits of all the patterns inside it.  On such a
 * file libhyphen's automaton gives exactly Liang's rule -- each point
 * takes the largest digit of any pattern whose key occurs around it -- and
 * that is what cv_hyphenate() computes directly, from a hash table of the
 * keys, when the file is plain (only LEFTHYPHENMIN and RIGHTHYPHENMIN
 * besides patterns: no compound levels, no non-standard hyphenation), with
 * libhyphen's own limits on the first and last points.  It costs a few
 * hundred lookups a word instead of loading a dictionary.
 *
 * Any other file goes to libhyphen itself: for each call we hash every
 * substring of the words (up to the longest key), keep the patterns whose
 * key hash is in that set -- a hash collision only lets in a pattern that
 * matches nothing, which changes nothing -- and hand libhyphen the file's
 * header lines plus those patterns through fmemopen(), a two-level file's
 * (German's) with its NEXTLEVEL line where it was, between the levels' patterns.  tests/unit/
 * test_hyph.c checks both against libhyphen with the whole file.
 */
#include "hyph.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hyphen.h>
#include <iconv.h>

#include "arena.h"
#include "file.h"
#include "module.h"
#include "unicode.h"

/* libhyphen is opened with dlopen when a pattern file first needs it (one
 * with more than patterns, such as German's, or a word beyond a to z), not
 * linked: linked, it costs every run 0.05 M instructions of dynamic
 * loading, and plain files (English's) never call it. */
#ifndef CV_HYPHEN_SONAME
#define CV_HYPHEN_SONAME "libhyphen.so.0"
#endif
#define HNJ_FUNCTIONS(X) \
    X(hnj_hyphen_load_file) X(hnj_hyphen_hyphenate2) X(hnj_hyphen_hyphenate3) X(hnj_hyphen_free)
CV_LIB_DEFINE(hnj_lib, HNJ, HNJ_FUNCTIONS, CV_HYPHEN_SONAME, "libhyphen0");

/* Debian's en-US file is 200 KB; no pattern file is near this. */
#define MAX_PATTERN_FILE (64u * 1024 * 1024)

#ifndef CV_HYPHEN_DICT
#define CV_HYPHEN_DICT "/usr/share/hyphen/hyph_en_US.dic"
#endif

typedef struct pattern {
    uint64_t key;
    uint32_t at, len;         /* the line, in h->text */
} pattern;

struct cv_hyph {
    const char *path;         /* the pattern file */
    const cv_diag *diag;      /* for the note when it cannot be read */
    bool tried, ok;
    char *text;               /* the whole file; lines cut in place */
    const char *head[16];     /* the charset line and keyword lines */
    size_t nhead;
    pattern *pat;
    size_t npat, maxkey;
    size_t next_at;           /* NEXTLEVEL: the first pattern of the second level */
    /* Liang's rule directly (plain files): pattern index + 1 by key. */
    bool plain;
    int lhmin, rhmin;         /* LEFTHYPHENMIN, RIGHTHYPHENMIN (0: none) */
    uint32_t *index;
    size_t mask;
    /* For the dictionaries of the patterns that can match (dict_for()):
     * by key, the first pattern's index + 1 (open addressing), and after
     * each pattern the next of the same key (0: none); made at first use. */
    uint32_t *by_key, *next_same;
    size_t by_mask;
};

#define FNV_BASIS 1469598103934665603u
#define FNV_PRIME 1099511628211u

static uint64_t nonzero(uint64_t h)
{
    return h ? h : 1;
}

cv_hyph *cv_hyph_new(const char *path, const cv_diag *diag)
{
    cv_hyph *h = cv_xcalloc(1, sizeof *h);
    if (!path || !*path)
        path = getenv("CVPDF_HYPHEN_DICT");
    if (!path || !*path)
        path = CV_HYPHEN_DICT;
    h->path = cv_xstrdup(path);
    h->diag = diag;
    return h;
}

const char *cv_hyph_path(const cv_hyph *h)
{
    return h->path;
}

void cv_hyph_free(cv_hyph *h)
{
    if (!h)
        return;
    free(h->text);
    free(h->pat);
    free(h->index);
    free(h->by_key);
    free(h->next_same);
    free((char *)h->path);
    free(h);
}

/* Does the key of pattern `p` (its letters) equal s[0, n)? */
static bool key_is(const cv_hyph *h, const pattern *p, const char *s, size_t n)
{
    size_t k = 0;
    for (const char *c = h->text + p->at; *c; c++) {
        if (*c >= '0' && *c <= '9')
            continue;
        if (k == n || *c != s[k])
            return false;
        k++;
    }
    return k == n;
}

/* Do patterns p and q have the same key? */
static bool same_key(const cv_hyph *h, const pattern *p, const pattern *q)
{
    char key[256];
    size_t n = 0;
    for (const char *c = h->text + q->at; *c; c++)
        if (!(*c >= '0' && *c <= '9')) {
            if (n == sizeof key)
                return false;
            key[n++] = *c;
        }
    return key_is(h, p, key, n);
}

/* Index pattern i by key: a later line with the same key replaces an
 * earlier one, as in libhyphen. */
static void index_pattern(cv_hyph *h, size_t i)
{
    const pattern *p = &h->pat[i];
    size_t j = p->key & h->mask;
    while (h->index[j] && !(h->pat[h->index[j] - 1].key == p->key &&
                           same_key(h, &h->pat[h->index[j] - 1], p)))
        j = (j + 1) & h->mask;
    h->index[j] = (uint32_t)i + 1;
}

/* The pattern whose key is s[0, n) with hash `key`, or NULL. */
static const pattern *find_pattern(const cv_hyph *h, uint64_t key, const char *s, size_t n)
{
    for (size_t j = key & h->mask; h->index[j]; j = (j + 1) & h->mask) {
        const pattern *p = &h->pat[h->index[j] - 1];
        if (p->key == key && key_is(h, p, s, n))
            return p;
    }
    return NULL;
}

/* Liang's rule for one word of `len` lower-case letters: out[k] is true
 * when a hyphen may follow letter k, within libhyphen's limits. */
static void liang(const cv_hyph *h, const char *word, size_t len, unsigned char *out, int left,
                  int right)
{
    char s[68], v[68];
    s[0] = '.';
    memcpy(s + 1, word, len);
    s[len + 1] = '.';
    size_t l = len + 2;
    memset(v, '0', l + 1);        /* v[p]: the digit before s[p] */
    for (size_t b = 0; b < l; b++) {
        uint64_t hash = FNV_BASIS;
        for (size_t e = b; e < l && e - b < h->maxkey; e++) {
            hash = (hash ^ (unsigned char)s[e]) * FNV_PRIME;
            const pattern *p = find_pattern(h, nonzero(hash), s + b, e - b + 1);
            if (!p)
                continue;
            size_t k = b;
            for (const char *c = h->text + p->at; *c; c++) {
                if (*c >= '0' && *c <= '9') {
                    if (v[k] < *c)
                        v[k] = *c;
                } else {
                    k++;
                }
            }
        }
    }
    /* As hnj_hyphen_hyphenate3: the larger of the caller's and the file's
     * minimum, 2 when neither says; none of the first lh - 1 points and
     * none of the last rh (but never the first). */
    int lh = left > h->lhmin ? left : h->lhmin, rh = right > h->rhmin ? right : h->rhmin;
    if (lh <= 0)
        lh = 2;
    if (rh <= 0)
        rh = 2;
    for (size_t k = 0; k < len; k++) {
        bool ok = (int)k >= lh - 1 && !((int)k >= (int)len - rh && k > 0);
        out[k] = ok && (int)k >= left - 1 && (int)k < (int)len - right && (v[k + 2] & 1)
                     ? (unsigned char)(v[k + 2] - '0') : 0;
    }
}

static bool load_patterns(cv_hyph *h)
{
    if (h->tried)
        return h->ok;
    h->tried = true;
    cv_file f;
    if (!cv_file_read(NULL, h->path, MAX_PATTERN_FILE, /*regular_only*/ true, &f)) {
        cv_diag_note(h->diag, (cv_pos){0}, "cannot read hyphenation patterns %s (Debian "
                     "package hyphen-en-us); words are not hyphenated", h->path);
        return false;
    }
    h->text = f.data;
    size_t size = strlen(h->text);
    if (size >= UINT32_MAX)
        return false;
    /* A pattern is at least one byte and its newline (but the last), so
     * there are at most size / 2 + 1; only what is used is touched. */
    h->pat = malloc((size / 2 + 1) * sizeof *h->pat);
    if (!h->pat)
        return false;
    /* Plain until a line says otherwise (see above). */
    h->plain = true;
    h->next_at = SIZE_MAX;
    char *s = h->text, *end = h->text + size;
    for (size_t ln = 0; s < end; ln++) {
        char *e = memchr(s, '\n', (size_t)(end - s));
        char *next = e ? e + 1 : end;
        if (e)
            *e = 0;
        size_t len = (size_t)((e ? e : end) - s);
        if (len && s[len - 1] == '\r')
            s[--len] = 0;
        if (ln == 0 || (s[0] >= 'A' && s[0] <= 'Z')) {
            int *min = NULL;
            if (ln > 0 && !strncmp(s, "LEFTHYPHENMIN", 13))
                min = &h->lhmin;
            else if (ln > 0 && !strncmp(s, "RIGHTHYPHENMIN", 14))
                min = &h->rhmin;
            if (min)
                *min = atoi(s + (min == &h->lhmin ? 13 : 14));
            else if (ln > 0)
                h->plain = false;  /* NEXTLEVEL, NOHYPHEN, COMPOUND...: libhyphen */
            if (ln > 0 && !strncmp(s, "NEXTLEVEL", 9)) {
                /* A two-level file (German's: its first level from a
                 * list of words, its second patterns): the patterns
                 * after this line are the second level's, and stay so
                 * in dict_for()'s dictionaries. */
                if (h->next_at == SIZE_MAX)
                    h->next_at = h->npat;
            } else if (h->nhead < sizeof h->head / sizeof *h->head)
                h->head[h->nhead++] = s;        /* charset, LEFTHYPHENMIN, ... */
            else
                h->plain = false;
        } else if (len && s[0] != '%' && s[0] != '#') {
            /* ('#' lines are the German file's comment block: as patterns
             * they could match no word, and libhyphen leaks on them.) */
            /* The key: the letters (all but the digits) up to a '/', which
             * starts a non-standard hyphenation (libhyphen's); a space or
             * control character makes the file not plain too. */
            uint64_t hash = FNV_BASIS;
            size_t k = 0;
            const unsigned char *c = (const unsigned char *)s, *stop = c + len;
            for (; c < stop; c++) {
                unsigned ch = *c;
                if (ch - '0' < 10u)
                    continue;
                if (ch == '/')
                    break;
                if (ch <= ' ')
                    h->plain = false;
                hash = (hash ^ ch) * FNV_PRIME;
                k++;
            }
            if (c < stop)
                h->plain = false;
            h->pat[h->npat++] = (pattern){nonzero(hash), (uint32_t)(s - h->text), (uint32_t)len};
            if (k > h->maxkey)
                h->maxkey = k;
        }
        s = next;
    }
    /* Liang's rule reads the patterns by key (plain files only). */
    if (h->plain && h->npat) {
        size_t cap = 64;
        while (cap < h->npat + h->npat / 2)
            cap *= 2;
        h->index = calloc(cap, sizeof *h->index);
        if (!h->index)
            return false;
        h->mask = cap - 1;
        for (size_t i = 0; i < h->npat; i++)
            index_pattern(h, i);
    }
    h->ok = h->npat > 0;
    return h->ok;
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

/* The patterns by key (h->by_key, h->next_same), once; false when out of
 * memory. */
static bool index_by_key(cv_hyph *h)
{
    if (h->by_key)
        return true;
    size_t cap = 64;
    while (cap < 2 * h->npat)
        cap *= 2;
    h->by_key = calloc(cap, sizeof *h->by_key);
    h->next_same = malloc((h->npat ? h->npat : 1) * sizeof *h->next_same);
    if (!h->by_key || !h->next_same) {
        free(h->by_key);
        free(h->next_same);
        h->by_key = h->next_same = NULL;
        return false;
    }
    h->by_mask = cap - 1;
    /* From the last pattern to the first, each put before the others of
     * its key: a key's patterns are then listed in the file's order. */
    for (size_t i = h->npat; i-- > 0;) {
        size_t j = h->pat[i].key & h->by_mask;
        while (h->by_key[j] && h->pat[h->by_key[j] - 1].key != h->pat[i].key)
            j = (j + 1) & h->by_mask;
        h->next_same[i] = h->by_key[j];
        h->by_key[j] = (uint32_t)i + 1;
    }
    return true;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* A dictionary of the patterns that can match one of the words: every
 * pattern whose key is a piece of a word (with its dots), in the file's
 * order, found through the index by key rather than by reading every
 * pattern (German's file has 77,000 lines). */
static HyphenDict *dict_for(cv_hyph *h, const char *const *words, size_t n)
{
    if (!index_by_key(h))
        return NULL;
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(words[i]) + 2;
        total += l * (l < h->maxkey ? l : h->maxkey);
    }
    hset set = {0};
    size_t cap = 64;
    while (cap < 2 * total)
        cap *= 2;
    set.v = calloc(cap, sizeof *set.v);
    set.mask = cap - 1;
    uint32_t *got = NULL;
    size_t ngot = 0, gotcap = 0;
    if (!set.v)
        return NULL;
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        char w[68];
        size_t l = strlen(words[i]);
        w[0] = '.';
        memcpy(w + 1, words[i], l);
        w[l + 1] = '.';
        l += 2;
        for (size_t b = 0; b < l && ok; b++) {
            uint64_t hash = FNV_BASIS;
            for (size_t e = b; e < l && e - b < h->maxkey && ok; e++) {
                hash = (hash ^ (unsigned char)w[e]) * FNV_PRIME;
                uint64_t key = nonzero(hash);
                if (hset_has(&set, key))
                    continue;
                hset_add(&set, key);
                size_t j = key & h->by_mask;
                while (h->by_key[j] && h->pat[h->by_key[j] - 1].key != key)
                    j = (j + 1) & h->by_mask;
                for (uint32_t k = h->by_key[j]; k && ok; k = h->next_same[k - 1]) {
                    if (ngot == gotcap) {
                        gotcap = gotcap ? 2 * gotcap : 256;
                        uint32_t *g = realloc(got, gotcap * sizeof *got);
                        ok = g != NULL;
                        if (g)
                            got = g;
                    }
                    if (ok)
                        got[ngot++] = k - 1;
                }
            }
        }
    }
    free(set.v);
    if (!ok) {
        free(got);
        return NULL;
    }
    if (ngot > 1)
        qsort(got, ngot, sizeof *got, cmp_u32);

    bool two_level = h->next_at != SIZE_MAX;
    size_t size = 1 + sizeof "NEXTLEVEL\n";
    for (size_t i = 0; i < h->nhead; i++)
        size += strlen(h->head[i]) + 1;
    for (size_t i = 0; i < ngot; i++)
        size += h->pat[got[i]].len + 1;
    char *buf = malloc(size), *q = buf;
    HyphenDict *d = NULL;
    if (buf) {
        /* Not NOHYPHEN: it names characters our words never hold, and
         * libhyphen 2.8 leaks its copy of them in a two-level file. */
        for (size_t i = 0; i < h->nhead; i++)
            if (strncmp(h->head[i], "NOHYPHEN", 8) != 0)
                q += sprintf(q, "%s\n", h->head[i]);
        /* The second level's patterns after NEXTLEVEL, as in the file. */
        bool next_said = false;
        for (size_t i = 0; i < ngot; i++) {
            if (two_level && !next_said && got[i] >= h->next_at) {
                q += sprintf(q, "NEXTLEVEL\n");
                next_said = true;
            }
            memcpy(q, h->text + h->pat[got[i]].at, h->pat[got[i]].len);
            q += h->pat[got[i]].len;
            *q++ = '\n';
        }
        if (two_level && !next_said)
            q += sprintf(q, "NEXTLEVEL\n");
        FILE *f = fmemopen(buf, (size_t)(q - buf), "r");
        if (f) {
            d = HNJ.hnj_hyphen_load_file(f);
            fclose(f);
        }
        free(buf);
    }
    free(got);
    return d;
}

/* Through libhyphen, with a dictionary of the patterns that can match. */
static bool with_libhyphen(cv_hyph *h, const char *const *words, size_t n,
                           unsigned char (*out)[64], int left, int right)
{
    if (!cv_lib_open(&hnj_lib)) {
        static bool said;
        if (!said)
            cv_diag_note(h->diag, (cv_pos){0}, "libhyphen cannot be loaded (%s), which %s "
                         "needs; words are not hyphenated (install the Debian package %s)",
                         hnj_lib.soname, h->path, hnj_lib.package);
        said = true;
        return false;
    }
    HyphenDict *d = dict_for(h, words, n);
    if (!d)
        return false;
    for (size_t i = 0; i < n; i++) {
        int len = (int)strlen(words[i]);
        if (len >= 60)
            continue;
        char hy[64 + 5];
        char **rep = NULL;
        int *pos = NULL, *cut = NULL;
        int r = HNJ.hnj_hyphen_hyphenate3(d, words[i], len, hy, NULL, &rep, &pos, &cut, left,
                                      right, left, right);
        /* A point's level: its digit, or in a two-level file the second
         * level's where that is higher (German's compound joints: 5). */
        char lv[64 + 5];
        memset(lv, '0', (size_t)len);
        if (r == 0 && !rep && d->nextlevel) {
            char **rep2 = NULL;
            int *pos2 = NULL, *cut2 = NULL;
            if (HNJ.hnj_hyphen_hyphenate2(d->nextlevel, words[i], len, lv, NULL, &rep2, &pos2,
                                      &cut2) != 0 || rep2)
                memset(lv, '0', (size_t)len);
            if (rep2) {
                for (int k = 0; k < len; k++)
                    free(rep2[k]);
                free(rep2);
                free(pos2);
                free(cut2);
            }
        }
        if (r == 0 && !rep)
            for (int k = left - 1; k < len - right; k++)
                out[i][k] = (hy[k] & 1) ? (unsigned char)(lv[k] > hy[k] && (lv[k] & 1)
                                                               ? lv[k] - '0' : hy[k] - '0')
                                        : 0;
        if (rep) {
            for (int k = 0; k < len; k++)
                free(rep[k]);
            free(rep);
            free(pos);
            free(cut);
        }
    }
    HNJ.hnj_hyphen_free(d);
    return true;
}

/* One UTF-8 word in the file's charset (its first line: UTF-8, or a
 * one-byte charset such as ISO8859-1 or KOI8-R, through iconv's `cd`; -1
 * for UTF-8) into buf[68]; last[k] gets the byte that ends code point k.
 * Returns the number of code points, or 0 when the word does not fit or
 * has a letter the charset lacks. */
static size_t encode_word(iconv_t cd, const char *w, char *buf, size_t *last)
{
    bool utf8 = cd == (iconv_t)-1;
    if (!utf8)
        iconv(cd, NULL, NULL, NULL, NULL);        /* its first state, whatever came before */
    size_t ncp = 0, nb = 0, len = strlen(w);
    for (size_t i = 0; i < len && ncp < 63;) {
        uint32_t cp;
        size_t k = cv_utf8_decode(w + i, len - i, &cp);
        if (utf8) {
            if (nb + k > 60)
                break;
            memcpy(buf + nb, w + i, k);
            nb += k;
        } else {
            char *in = (char *)w + i, *o = buf + nb;
            size_t il = k, ol = 1;
            if (nb + 1 > 60 || iconv(cd, &in, &il, &o, &ol) == (size_t)-1 || il) {
                nb = 0;
                break;
            }
            nb++;
        }
        last[ncp++] = nb - 1;
        i += k;
        if (i == len) {
            buf[nb] = 0;
            return ncp;
        }
    }
    return 0;
}

static bool hyphenate_bytes(cv_hyph *h, const char *const *words, size_t n,
                               unsigned char (*out)[64], int left, int right);

bool cv_hyphenate(cv_hyph *h, const char *const *words, size_t n, bool (*out)[64], int left, int right)
{
    unsigned char (*lv)[64] = cv_xcalloc(n ? n : 1, sizeof *lv);
    bool r = cv_hyphenate_levels(h, words, n, lv, left, right);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < 64; k++)
            out[i][k] = lv[i][k] != 0;
    free(lv);
    return r;
}

bool cv_hyphenate_levels(cv_hyph *h, const char *const *words, size_t n,
                         unsigned char (*out)[64], int left, int right)
{
    for (size_t i = 0; i < n; i++)
        memset(out[i], 0, sizeof out[i]);
    if (n == 0 || !load_patterns(h))
        return false;
    /* Words beyond ASCII: each in the file's charset, the points mapped
     * back to code points. */
    bool ascii = true;
    for (size_t i = 0; i < n && ascii; i++)
        for (const char *c = words[i]; *c && ascii; c++)
            ascii = (unsigned char)*c < 0x80;
    if (!ascii) {
        /* libhyphen gives a UTF-8 file's points per character
         * (hnj_hyphen_norm), another file's per byte, which is per
         * character in its one-byte charset too. */
        const char *cs = h->nhead ? h->head[0] : "UTF-8";
        bool utf8 = !strncmp(cs, "UTF-8", 5) || !strncmp(cs, "utf-8", 5);
        iconv_t cd = utf8 ? (iconv_t)-1 : iconv_open(cs, "UTF-8");
        if (!utf8 && cd == (iconv_t)-1)
            return true;                 /* no word in the charset: no points */
        /* All the words encoded, then hyphenated in one call: a two-level
         * file's (German's) dictionary is made once for them, not once a
         * word (dict_for()). */
        struct enc {
            char buf[68];
            size_t last[64], ncp, word;
        } *e = cv_xrealloc(NULL, n * sizeof *e);
        const char **bytes = cv_xrealloc(NULL, n * sizeof *bytes);
        unsigned char (*pts)[64] = cv_xrealloc(NULL, n * sizeof *pts);
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            e[m].ncp = encode_word(cd, words[i], e[m].buf, e[m].last);
            if (e[m].ncp) {
                e[m].word = i;
                bytes[m] = e[m].buf;
                m++;
            }
        }
        if (cd != (iconv_t)-1)
            iconv_close(cd);
        if (m && hyphenate_bytes(h, bytes, m, pts, left, right))
            for (size_t j = 0; j < m; j++)
                for (size_t k = 0; k < e[j].ncp; k++)
                    out[e[j].word][k] = (int)k < (int)e[j].ncp - right && (int)k >= left - 1
                                            ? pts[j][utf8 ? k : e[j].last[k]] : 0;
        free(e);
        free(bytes);
        free(pts);
        return true;
    }
    return hyphenate_bytes(h, words, n, out, left, right);
}

/* As cv_hyphenate_levels() on words in the file's own bytes. */
static bool hyphenate_bytes(cv_hyph *h, const char *const *words, size_t n,
                               unsigned char (*out)[64], int left, int right)
{
    for (size_t i = 0; i < n; i++)
        memset(out[i], 0, sizeof out[i]);
    if (!h->plain)
        return with_libhyphen(h, words, n, out, left, right);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(words[i]);
        bool letters = len < 60;
        for (size_t k = 0; letters && k < len; k++)
            letters = words[i][k] >= 'a' && words[i][k] <= 'z';
        if (letters)
            liang(h, words[i], len, out[i], left, right);
        else if (len < 60 && !with_libhyphen(h, words + i, 1, out + i, left, right))
            return false;
    }
    return true;
}
