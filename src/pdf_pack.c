/* pdf_pack.c - the final file: libharu's classic PDF packed into object
 * streams and a cross-reference stream.
 *
 * libharu writes every object as `N G obj ... endobj`, then a classic
 * cross-reference table and a trailer.  Of a tagged résumé's bytes, half
 * are small dictionaries (structure elements, annotations, fonts'
 * descriptors) and the table's twenty bytes per object.  PDF 1.5 lets a
 * file keep such objects in compressed object streams and the table in a
 * compressed cross-reference stream (ISO 32000-1 §7.5.7, §7.5.8): a
 * tagged fang.pdf falls from 78 KB to under 44 KB.
 *
 * Reading.  Nothing is assumed about where objects lie: `startxref`
 * names the table, the table each object's offset, and each offset must
 * hold `N G obj` with the number and generation the table gives.  An
 * object ends at the last `endobj` before the next object (or the table),
 * so a stream's bytes are never scanned for keywords.  An object whose
 * last keyword is `endstream` is a stream; any other's value is what lies
 * between `obj` and `endobj`, tokenised (strings, hex strings, names and
 * comments taken whole) only as it is written into its object stream.
 *
 * Writing.  The header `%PDF-1.7` and libharu's binary comment line; the
 * object streams, each holding up to PACK_PER_STREAM objects in the
 * order of their numbers, each object's whitespace reduced to a space
 * where two tokens would otherwise join; every stream object copied byte
 * for byte; then the cross-reference stream, the trailer's entries but
 * /Size in its dictionary (an updated file, with /Prev, is refused), its
 * fields as narrow as the largest offset, object stream number and index
 * allow, its rows through PNG's Up predictor.  Object numbers
 * and generations are kept: the new object streams and the
 * cross-reference stream take the numbers after the last.  Objects that
 * no one refers to are kept too, so every object of the classic file is
 * in the packed one.
 *
 * What it costs: a tagged fang.pdf (361 objects, 2 object streams) is
 * packed in 4.9 M instructions, two thirds of them zlib's (qpdf took 54 M,
 * and 16 M more at every start to load it: docs/accessibility.md).
 */
#include "pdf_pack.h"
#include "arena.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

/* Objects per object stream: large enough that Flate finds the
 * repetition between structure elements, small enough that a reader
 * looking up one object decompresses little. */
#define PACK_PER_STREAM 200
/* At most this many objects (libharu's own limit is 8,388,607). */
#define PACK_MAX_OBJECTS 8388608u

typedef struct {
    size_t off, end;        /* "N G obj" ... just past "endobj", in the input */
    size_t body, bodyend;   /* the value, for an object that is not a stream */
    size_t newoff;          /* where it is written (streams) */
    unsigned gen;           /* generation, or the free entry's generation */
    unsigned next;          /* a free entry's next free object */
    unsigned stm, idx;      /* object stream and index in it, when packed */
    unsigned char used;     /* in use ('n') or free ('f'), 0 when absent */
    bool stream, packed;
} obj;

/* The file and its pieces: arena.h's cv_buf. */
typedef cv_buf buf;

static void putc1(buf *b, char c)
{
    *cv_buf_room(b, 1) = c;
    b->s[++b->n] = '\0';
}

/* A number in decimal (printf's parsing of a format cost more than the
 * digits, once per packed object). */
static void put_uint(buf *b, unsigned long long v)
{
    char t[24], *e = t + sizeof t, *p = e;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    cv_buf_put(b, p, (size_t)(e - p));
}

/* ---- tokens (ISO 32000-1 §7.2) ---- */

/* Each byte's class: white space, delimiter or regular. */
enum { WS = 1, DELIM = 2 };
static const unsigned char cls[256] = {
    [0] = WS, ['\t'] = WS, ['\n'] = WS, ['\f'] = WS, ['\r'] = WS, [' '] = WS,
    ['('] = DELIM, [')'] = DELIM, ['<'] = DELIM, ['>'] = DELIM, ['['] = DELIM,
    [']'] = DELIM, ['{'] = DELIM, ['}'] = DELIM, ['/'] = DELIM, ['%'] = DELIM,
};

static bool is_ws(unsigned char c)
{
    return cls[c] == WS;
}

static bool is_regular(unsigned char c)
{
    return !cls[c];
}

/* Past white space and comments, at most to `lim`. */
static size_t skip_ws(const char *s, size_t i, size_t lim)
{
    while (i < lim) {
        if (is_ws((unsigned char)s[i]))
            i++;
        else if (s[i] == '%')
            while (i < lim && s[i] != '\n' && s[i] != '\r')
                i++;
        else
            break;
    }
    return i;
}

/* Past the literal string that opens at s[i] ('('), or 0 if it does not
 * close before `lim`. */
static size_t skip_string(const char *s, size_t i, size_t lim)
{
    int depth = 0;
    for (; i < lim; i++) {
        if (s[i] == '\\')
            i++;
        else if (s[i] == '(')
            depth++;
        else if (s[i] == ')' && --depth == 0)
            return i + 1;
    }
    return 0;
}

/* The token at s[i] (after white space): returns the index past it, or 0
 * when it runs past `lim`.  A dictionary's or array's brackets are tokens
 * of their own. */
static size_t skip_token(const char *s, size_t i, size_t lim)
{
    if (i >= lim)
        return 0;
    unsigned char c = (unsigned char)s[i];
    if (c == '(')
        return skip_string(s, i, lim);
    if (c == '<' || c == '>') {
        if (i + 1 < lim && s[i + 1] == c)
            return i + 2;
        if (c == '>')
            return 0;
        const char *e = memchr(s + i, '>', lim - i);
        return e ? (size_t)(e - s) + 1 : 0;
    }
    if (c == '[' || c == ']' || c == '{' || c == '}')
        return i + 1;
    if (c == '/')
        i++;
    else if (!is_regular(c))
        return 0;
    while (i < lim && is_regular((unsigned char)s[i]))
        i++;
    return i;
}

static bool token_is(const char *s, size_t i, size_t j, const char *word)
{
    size_t k = strlen(word);
    return j - i == k && !memcmp(s + i, word, k);
}

/* A non-negative integer token at s[*i..]: its value, *i past it, or -1. */
static long long read_uint(const char *s, size_t *i, size_t lim)
{
    size_t j = skip_ws(s, *i, lim);
    long long v = 0;
    size_t k = j;
    while (k < lim && s[k] >= '0' && s[k] <= '9' && v < (1LL << 40))
        v = v * 10 + (s[k++] - '0');
    if (k == j || (k < lim && is_regular((unsigned char)s[k])))
        return -1;
    *i = k;
    return v;
}

/* Past one value (a dictionary or array whole, "N G R" as one) at s[i],
 * or 0 if it is not one. */
static size_t skip_value(const char *s, size_t i, size_t lim)
{
    i = skip_ws(s, i, lim);
    int depth = 0;
    do {
        i = skip_ws(s, i, lim);
        size_t j = skip_token(s, i, lim);
        if (!j)
            return 0;
        if (token_is(s, i, j, "<<") || token_is(s, i, j, "["))
            depth++;
        else if (token_is(s, i, j, ">>") || token_is(s, i, j, "]"))
            depth--;
        else if (depth == 0 && s[i] >= '0' && s[i] <= '9') {
            /* "N G R" */
            size_t k = j;
            if (read_uint(s, &k, lim) >= 0) {
                size_t r = skip_ws(s, k, lim);
                if (r < lim && s[r] == 'R' && (r + 1 == lim || !is_regular((unsigned char)s[r + 1])))
                    j = r + 1;
            }
        }
        if (depth < 0)
            return 0;
        i = j;
    } while (depth > 0);
    return i;
}

/* The bytes s[i..e) with white space and comments outside strings reduced
 * to one space where two tokens would otherwise join, and none elsewhere.
 * Never longer than s[i..e). */
static void put_min(buf *b, const char *s, size_t i, size_t e)
{
    cv_buf_room(b, e - i + 1);
    char *o = b->s + b->n;
    unsigned char last = b->n ? (unsigned char)b->s[b->n - 1] : '\n';
    bool space = false;
    while (i < e) {
        unsigned char c = (unsigned char)s[i];
        if (cls[c] == WS) {
            i++;
            space = true;
            continue;
        }
        if (c == '%') {
            while (i < e && s[i] != '\n' && s[i] != '\r')
                i++;
            space = true;
            continue;
        }
        if (space && is_regular(last) && is_regular(c))
            *o++ = ' ';
        space = false;
        size_t j = i + 1;
        if (c == '/' || is_regular(c)) {
            /* (copied as it is scanned: most tokens are a few bytes) */
            *o++ = (char)c;
            while (j < e && is_regular((unsigned char)s[j]))
                *o++ = s[j++];
            last = (unsigned char)s[j - 1];
            i = j;
            continue;
        }
        if ((c == '<' || c == '>') && j < e && s[j] == (char)c) {
            *o++ = (char)c;                     /* << or >> */
            *o++ = (char)c;
            last = c;
            i = j + 1;
            continue;
        }
        if (c == '(') {
            j = skip_string(s, i, e);
            j = j ? j : e;
        } else if (c == '<') {
            const char *q = memchr(s + j, '>', e - j);
            j = q ? (size_t)(q - s) + 1 : e;
        } else {
            *o++ = (char)c;                     /* [ ] { } and the like */
            last = c;
            i = j;
            continue;
        }
        memcpy(o, s + i, j - i);
        o += j - i;
        last = (unsigned char)s[j - 1];
        i = j;
    }
    b->n = (size_t)(o - b->s);
}

/* ---- deflate ----
 * At zlib's default level: level 9 makes fang.pdf 181 bytes (0.4%)
 * smaller for 1.7 M more instructions. */

static bool deflated(buf *b, const unsigned char *p, size_t n)
{
    if (n > UINT_MAX / 2)
        return false;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit(&z, Z_DEFAULT_COMPRESSION) != Z_OK)
        return false;
    size_t bound = deflateBound(&z, (uLong)n);
    cv_buf_room(b, bound);
    z.next_in = (unsigned char *)p;
    z.avail_in = (uInt)n;
    z.next_out = (unsigned char *)b->s + b->n;
    z.avail_out = (uInt)bound;
    int r = deflate(&z, Z_FINISH);
    b->n += bound - z.avail_out;
    deflateEnd(&z);
    return r == Z_STREAM_END;
}

/* ---- the classic file ---- */

typedef struct {
    const char *s;
    size_t n;
    obj *o;
    unsigned size;          /* the trailer's /Size */
    size_t xref;            /* where the table starts */
    size_t trailer, trailer_end;   /* the trailer dictionary */
    bool encrypted;
    const char *why;
} pdf;

static bool fail(pdf *f, const char *why)
{
    f->why = why;
    return false;
}

/* The trailer: /Size, whether the file is encrypted or updated. */
static bool read_trailer(pdf *f, size_t i)
{
    const char *s = f->s;
    size_t lim = f->n;
    i = skip_ws(s, i, lim);
    f->trailer = i;
    size_t e = skip_value(s, i, lim);
    if (!e || !token_is(s, i, i + 2, "<<"))
        return fail(f, "no trailer dictionary");
    f->trailer_end = e;
    long long size = -1;
    size_t k = i + 2;
    for (;;) {
        k = skip_ws(s, k, e);
        size_t j = skip_token(s, k, e);
        if (!j)
            return fail(f, "a bad trailer dictionary");
        if (token_is(s, k, j, ">>"))
            break;
        if (s[k] != '/')
            return fail(f, "a bad trailer dictionary");
        size_t v = skip_value(s, j, e);
        if (!v)
            return fail(f, "a bad trailer dictionary");
        if (token_is(s, k, j, "/Size")) {
            size_t m = j;
            size = read_uint(s, &m, e);
        } else if (token_is(s, k, j, "/Prev") || token_is(s, k, j, "/XRefStm")) {
            return fail(f, "an updated file (/Prev)");
        } else if (token_is(s, k, j, "/Encrypt")) {
            f->encrypted = true;
        }
        k = v;
    }
    /* Each object takes a 20-byte entry in the table. */
    if (size < 1 || size > PACK_MAX_OBJECTS || (unsigned long long)size > f->n / 16 + 1)
        return fail(f, "no /Size in the trailer, or one the file cannot hold");
    f->size = (unsigned)size;
    return true;
}

/* An entry of the table as it is written -- ten digits, a space, five
 * digits, a space, then 'n' or 'f' -- after the line end at s[*i]: the
 * place of its 'n' or 'f', with the offset and the generation, *i past the
 * digits; 0 for anything else, which read_xref then reads token by
 * token. */
static size_t entry(const char *s, size_t *i, size_t lim, long long *off, long long *gen)
{
    size_t k = *i;
    while (k < lim && (s[k] == '\r' || s[k] == '\n'))
        k++;
    if (k + 18 > lim || s[k + 10] != ' ' || s[k + 16] != ' ' ||
        (s[k + 17] != 'n' && s[k + 17] != 'f') ||
        (k + 18 < lim && is_regular((unsigned char)s[k + 18])))
        return 0;
    long long v = 0, g = 0;
    for (size_t d = 0; d < 10; d++) {
        if (s[k + d] < '0' || s[k + d] > '9')
            return 0;
        v = v * 10 + (s[k + d] - '0');
    }
    for (size_t d = 11; d < 16; d++) {
        if (s[k + d] < '0' || s[k + d] > '9')
            return 0;
        g = g * 10 + (s[k + d] - '0');
    }
    *off = v;
    *gen = g;
    *i = k + 16;
    return k + 17;
}

/* The cross-reference table at f->xref, then the trailer. */
static bool read_xref(pdf *f)
{
    const char *s = f->s;
    size_t lim = f->n, i = f->xref;
    size_t j = skip_token(s, i, lim);
    if (!j || !token_is(s, i, j, "xref"))
        return fail(f, "startxref does not name a cross-reference table");
    i = j;
    /* The trailer first, for /Size: after the table, whose entries are
     * digits, 'n' and 'f' only. */
    const char *tr = memmem(s + i, lim - i, "trailer", 7);
    if (!tr || !read_trailer(f, (size_t)(tr - s) + 7))
        return f->why ? false : fail(f, "no trailer");
    f->o = cv_xmalloc((size_t)f->size * sizeof *f->o);
    memset(f->o, 0, (size_t)f->size * sizeof *f->o);
    for (;;) {
        size_t k = skip_ws(s, i, lim);
        size_t e = skip_token(s, k, lim);
        if (e && token_is(s, k, e, "trailer"))
            break;
        long long first = read_uint(s, &i, lim), count = read_uint(s, &i, lim);
        if (first < 0 || count < 0)
            return fail(f, "a bad cross-reference table");
        for (long long c = 0; c < count; c++) {
            long long off, gen;
            size_t t = entry(s, &i, lim, &off, &gen);
            if (!t) {
                off = read_uint(s, &i, lim);
                gen = read_uint(s, &i, lim);
                t = skip_ws(s, i, lim);
            }
            if (off < 0 || gen < 0 || gen > 65535 || t >= lim || (s[t] != 'n' && s[t] != 'f'))
                return fail(f, "a bad cross-reference entry");
            i = t + 1;
            long long num = first + c;
            if (num >= f->size)
                return fail(f, "an object past the trailer's /Size");
            obj *o = &f->o[num];
            o->used = (unsigned char)s[t];
            o->gen = (unsigned)gen;
            if (o->used == 'n') {
                if (off >= (long long)f->xref)
                    return fail(f, "an object's offset past the cross-reference table");
                o->off = (size_t)off;
            } else {
                o->next = off < (long long)f->size ? (unsigned)off : 0;
            }
        }
    }
    return true;
}

static int by_offset(const void *a, const void *b)
{
    size_t x = (*(obj *const *)a)->off, y = (*(obj *const *)b)->off;
    return x < y ? -1 : x > y;
}

/* Each object in use: where it ends, and whether it is a stream. */
static bool read_objects(pdf *f)
{
    const char *s = f->s;
    obj **order = cv_xmalloc((size_t)f->size * sizeof *order);
    unsigned m = 0;
    for (unsigned k = 0; k < f->size; k++)
        if (f->o[k].used == 'n')
            order[m++] = &f->o[k];
    qsort(order, m, sizeof *order, by_offset);
    bool ok = true;
    for (unsigned k = 0; k < m && ok; k++) {
        obj *o = order[k];
        size_t lim = k + 1 < m ? order[k + 1]->off : f->xref;
        if (k + 1 < m && lim == o->off) {
            ok = fail(f, "two objects at one offset");
            break;
        }
        /* "N G obj" with the table's number and generation. */
        size_t i = o->off;
        long long num = read_uint(s, &i, lim), gen = read_uint(s, &i, lim);
        size_t t = skip_ws(s, i, lim), e = skip_token(s, t, lim);
        if (num != (long long)(o - f->o) || gen != (long long)o->gen || !e ||
            !token_is(s, t, e, "obj")) {
            ok = fail(f, "an offset in the cross-reference table that does not hold its object");
            break;
        }
        /* The last "endobj" before the next object. */
        size_t end = 0;
        for (size_t q = lim; q >= e + 6; q--)
            if (!memcmp(s + q - 6, "endobj", 6)) {
                end = q;
                break;
            }
        if (!end) {
            ok = fail(f, "an object without endobj");
            break;
        }
        o->end = end;
        o->body = skip_ws(s, e, end);
        /* A stream ends with the keyword "endstream" before its endobj;
         * what else there is, is the object's value. */
        size_t v = end - 6;
        while (v > o->body && is_ws((unsigned char)s[v - 1]))
            v--;
        o->stream = v >= o->body + 10 && !memcmp(s + v - 9, "endstream", 9) &&
                    is_ws((unsigned char)s[v - 10]);
        o->bodyend = v;
        if (o->bodyend <= o->body) {
            ok = fail(f, "an empty object");
            break;
        }
    }
    free(order);
    return ok;
}

static bool read_pdf(pdf *f)
{
    const char *s = f->s;
    if (f->n < 16 || memcmp(s, "%PDF-", 5))
        return fail(f, "no %PDF header");
    /* The last "startxref", in the last 2 KiB. */
    size_t stop = f->n > 2048 ? f->n - 2048 : 0, i = f->n - 9;
    while (memcmp(s + i, "startxref", 9))
        if (i-- == stop)
            return fail(f, "no startxref");
    i += 9;
    long long x = read_uint(s, &i, f->n);
    if (x < 0 || x >= (long long)f->n)
        return fail(f, "startxref past the end");
    f->xref = (size_t)x;
    return read_xref(f) && (f->encrypted || read_objects(f));
}

/* ---- the packed file ---- */

static int width(unsigned long long v)
{
    int w = 1;
    while (w < 8 && v >> (8 * w))
        w++;
    return w;
}

static void put_be(unsigned char *p, unsigned long long v, int w)
{
    for (int k = w - 1; k >= 0; k--, v >>= 8)
        p[k] = (unsigned char)v;
}

static bool write_pdf(pdf *f, buf *out)
{
    const char *s = f->s;
    /* The header and libharu's binary comment line. */
    cv_buf_put(out, "%PDF-1.7\n", 9);
    size_t h = 0, h2;
    while (h < f->n && s[h] != '\n' && s[h] != '\r')
        h++;
    h += h + 1 < f->n && s[h] == '\r' && s[h + 1] == '\n' ? 2 : 1;
    for (h2 = h; h2 < f->n && s[h2] != '\n' && s[h2] != '\r'; h2++)
        ;
    if (h2 < f->n && h2 > h + 1 && s[h] == '%' && (unsigned char)s[h + 1] >= 128) {
        cv_buf_put(out, s + h, h2 - h);
        putc1(out, '\n');
    } else {
        cv_buf_put(out, "%\xE2\xE3\xCF\xD3\n", 6);
    }

    /* Object streams, numbered after the last object. */
    unsigned next = f->size;
    buf head = {0}, body = {0}, raw = {0};
    /* Where each new object starts: the object streams, then the
     * cross-reference stream. */
    size_t *newoff = NULL, nnew = 0;
    bool ok = true;
    unsigned k = 1;
    for (;;) {
        while (k < f->size && !(f->o[k].used == 'n' && !f->o[k].stream && f->o[k].gen == 0))
            k++;
        if (k >= f->size)
            break;
        unsigned stm = next++, cnt = 0;
        head.n = body.n = raw.n = 0;
        for (; k < f->size && cnt < PACK_PER_STREAM; k++) {
            obj *o = &f->o[k];
            if (o->used != 'n' || o->stream || o->gen != 0)
                continue;
            o->packed = true;
            o->stm = stm;
            o->idx = cnt++;
            if (cnt > 1)
                putc1(&head, ' ');
            put_uint(&head, k);
            putc1(&head, ' ');
            put_uint(&head, body.n);
            put_min(&body, s, o->body, o->bodyend);
            putc1(&body, '\n');
        }
        putc1(&head, '\n');
        cv_buf_put(&raw, head.s, head.n);
        cv_buf_put(&raw, body.s, body.n);
        buf z = {0};
        ok = deflated(&z, (unsigned char *)raw.s, raw.n);
        if (ok) {
            newoff = cv_xrealloc(newoff, (nnew + 2) * sizeof *newoff);
            newoff[nnew++] = out->n;
            cv_buf_printf(out, "%u 0 obj\n<</Type/ObjStm/N %u/First %zu/Filter/FlateDecode/Length %zu>>\n"
                 "stream\n", stm, cnt, head.n, z.n);
            cv_buf_put(out, z.s, z.n);
            cv_buf_put(out, "\nendstream\nendobj\n", 18);
        }
        free(z.s);
        if (!ok)
            break;
    }
    free(head.s);
    free(body.s);
    if (!ok) {
        free(raw.s);
        free(newoff);
        return fail(f, "zlib failed");
    }
    unsigned total = next + 1;              /* and the cross-reference stream */
    if (!newoff)
        newoff = cv_xmalloc(sizeof *newoff);

    /* Streams and what cannot be packed, as they are. */
    for (k = 0; k < f->size; k++) {
        obj *o = &f->o[k];
        if (o->used != 'n' || o->packed)
            continue;
        o->newoff = out->n;
        cv_buf_put(out, s + o->off, o->end - o->off);
        putc1(out, '\n');
    }

    /* The cross-reference stream. */
    unsigned xs = next;
    size_t xoff = out->n;
    newoff[xs - f->size] = xoff;
    unsigned long long max2 = xoff, max3 = 0;
    for (k = 0; k < f->size; k++) {
        obj *o = &f->o[k];
        if (o->used == 'n' && o->packed) {
            max2 = o->stm > max2 ? o->stm : max2;
            max3 = o->idx > max3 ? o->idx : max3;
        } else if (o->used == 'n') {
            max3 = o->gen > max3 ? o->gen : max3;
        } else if (k) {
            max2 = o->next > max2 ? o->next : max2;
            max3 = o->gen > max3 ? o->gen : max3;
        }
    }
    int w2 = width(max2), w3 = max3 ? width(max3) : 1, w = 1 + w2 + w3;
    raw.n = 0;
    cv_buf_room(&raw, (size_t)total * (size_t)w);
    unsigned char *row = (unsigned char *)raw.s;
    for (unsigned t = 0; t < total; t++, row += w) {
        unsigned char type = 0;
        unsigned long long a = 0, c = 0;
        if (t >= f->size) {
            type = 1;
            a = newoff[t - f->size];
        } else if (f->o[t].used == 'n') {
            obj *o = &f->o[t];
            type = o->packed ? 2 : 1;
            a = o->packed ? o->stm : o->newoff;
            c = o->packed ? o->idx : o->gen;
        } else if (t && f->o[t].used == 'f') {
            a = f->o[t].next;
            c = f->o[t].gen;
        }
        row[0] = type;
        put_be(row + 1, a, w2);
        put_be(row + 1 + w2, c, w3);
    }
    raw.n = (size_t)total * (size_t)w;
    free(newoff);
    /* PNG's Up predictor (12): each row less the one above, so that
     * the offsets' high bytes, which change slowly, become zeros. */
    buf pr = {0};
    cv_buf_room(&pr, (size_t)total * (size_t)(w + 1));
    const unsigned char *r = (unsigned char *)raw.s;
    for (size_t t = 0; t < total; t++) {
        pr.s[pr.n++] = 2;
        for (int c = 0; c < w; c++)
            pr.s[pr.n++] = (char)(r[t * w + c] - (t ? r[(t - 1) * w + c] : 0));
    }
    free(raw.s);
    raw = pr;
    buf z = {0};
    ok = deflated(&z, (unsigned char *)raw.s, raw.n);
    free(raw.s);
    if (!ok) {
        free(z.s);
        return fail(f, "zlib failed");
    }
    cv_buf_printf(out, "%u 0 obj\n<</Type/XRef/Size %u/W[1 %d %d]/Index[0 %u]", xs, total, w2, w3, total);
    /* The trailer's entries but /Size. */
    size_t i = f->trailer + 2, e = f->trailer_end;
    for (;;) {
        i = skip_ws(s, i, e);
        size_t j = skip_token(s, i, e);
        if (token_is(s, i, j, ">>"))
            break;
        size_t v = skip_value(s, j, e);
        if (!token_is(s, i, j, "/Size")) {
            cv_buf_put(out, s + i, j - i);
            size_t vs = skip_ws(s, j, v);
            if (is_regular((unsigned char)s[vs]))
                putc1(out, ' ');
            put_min(out, s, vs, v);
        }
        i = v;
    }
    cv_buf_printf(out, "/DecodeParms<</Columns %d/Predictor 12>>", w);
    cv_buf_printf(out, "/Filter/FlateDecode/Length %zu>>\nstream\n", z.n);
    cv_buf_put(out, z.s, z.n);
    free(z.s);
    cv_buf_printf(out, "\nendstream\nendobj\nstartxref\n%zu\n%%%%EOF\n", xoff);
    return true;
}

bool cv_pdf_pack(const char *in, size_t n, char **out, size_t *outn, const char *path,
                 cv_error *err)
{
    *out = NULL;
    *outn = 0;
    pdf f = {.s = in, .n = n};
    bool ok = read_pdf(&f);
    buf b = {0};
    /* CVPDF_TEST_UNPACKED: the file as libharu wrote it, which tests
     * compare the packed file's objects with (tests/tagged.py packed). */
    if (ok && (f.encrypted || getenv("CVPDF_TEST_UNPACKED")))
        cv_buf_put(&b, in, n);
    else if (ok)
        ok = write_pdf(&f, &b);
    free(f.o);
    if (!ok) {
        free(b.s);
        return cv_error_at(err, (cv_pos){path, 0, 0}, "cannot pack the PDF: %s", f.why);
    }
    *out = b.s ? b.s : cv_xmalloc(1);
    *outn = b.n;
    return true;
}
