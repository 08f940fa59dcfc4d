/* cff.c - the charset of a CFF font program.  See cff.h.
 *
 * The parts read (Adobe Technical Note #5176, "The Compact Font Format
 * Specification"): the header's size, the Name INDEX (skipped), the first
 * Top DICT (its ROS, charset and CharStrings operators), the CharStrings
 * INDEX's count, and the charset in any of its three formats.
 */
#include "cff.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"

typedef struct rd {
    const unsigned char *p;
    size_t len;
} rd;

static bool u16(const rd *r, size_t at, unsigned *v)
{
    if (at + 2 > r->len)
        return false;
    *v = (unsigned)r->p[at] << 8 | r->p[at + 1];
    return true;
}

/* An INDEX at `at`: its count, and where its data (item i from
 * off(i) - 1) and what follows it start. */
typedef struct cffindex {
    unsigned count, off_size;
    size_t offsets, data, end;
} cffindex;

static bool offset_at(const rd *r, const cffindex *x, unsigned i, size_t *v)
{
    size_t at = x->offsets + (size_t)i * x->off_size, o = 0;
    if (at + x->off_size > r->len)
        return false;
    for (unsigned k = 0; k < x->off_size; k++)
        o = o << 8 | r->p[at + k];
    *v = o;
    return o >= 1;
}

static bool read_index(const rd *r, size_t at, cffindex *x)
{
    if (!u16(r, at, &x->count))
        return false;
    if (x->count == 0) {
        x->end = at + 2;
        return true;
    }
    if (at + 3 > r->len)
        return false;
    x->off_size = r->p[at + 2];
    if (x->off_size < 1 || x->off_size > 4)
        return false;
    x->offsets = at + 3;
    x->data = x->offsets + ((size_t)x->count + 1) * x->off_size - 1;
    size_t last;
    if (!offset_at(r, x, x->count, &last) || x->data + last > r->len)
        return false;
    x->end = x->data + last;
    return true;
}

/* The Top DICT operators read, from the DICT at [b, e). */
typedef struct top {
    bool ros;
    long charset, charstrings;
} top;

static bool read_top(const rd *r, size_t b, size_t e, top *t)
{
    long opnd[48];
    int n = 0;
    *t = (top){false, 0, -1};
    if (e > r->len)
        return false;
    for (size_t i = b; i < e;) {
        unsigned b0 = r->p[i];
        if (b0 <= 21) {                       /* an operator */
            unsigned op = b0;
            i++;
            if (b0 == 12) {
                if (i >= e)
                    return false;
                op = 1200 + r->p[i++];
            }
            if (op == 1230)
                t->ros = true;
            else if (op == 15 && n >= 1)
                t->charset = opnd[n - 1];
            else if (op == 17 && n >= 1)
                t->charstrings = opnd[n - 1];
            n = 0;
            continue;
        }
        long v;
        if (b0 == 28) {
            if (i + 3 > e)
                return false;
            v = (int16_t)(r->p[i + 1] << 8 | r->p[i + 2]);
            i += 3;
        } else if (b0 == 29) {
            if (i + 5 > e)
                return false;
            v = (int32_t)((uint32_t)r->p[i + 1] << 24 | (uint32_t)r->p[i + 2] << 16 |
                          (uint32_t)r->p[i + 3] << 8 | r->p[i + 4]);
            i += 5;
        } else if (b0 == 30) {                /* a real: nibbles up to 0xF */
            i++;
            while (i < e && (r->p[i] & 0x0F) != 0x0F && (r->p[i] >> 4) != 0x0F)
                i++;
            if (i >= e)
                return false;
            i++;
            v = 0;
        } else if (b0 >= 32 && b0 <= 246) {
            v = (long)b0 - 139;
            i++;
        } else if (b0 >= 247 && b0 <= 250) {
            if (i + 2 > e)
                return false;
            v = ((long)b0 - 247) * 256 + r->p[i + 1] + 108;
            i += 2;
        } else if (b0 >= 251 && b0 <= 254) {
            if (i + 2 > e)
                return false;
            v = -((long)b0 - 251) * 256 - r->p[i + 1] - 108;
            i += 2;
        } else {
            return false;                     /* 22-27, 31, 255: reserved */
        }
        if (n < 48)
            opnd[n++] = v;
    }
    return true;
}

static bool read_charset(const rd *r, size_t at, unsigned nglyphs, uint16_t *cid)
{
    if (at >= r->len)
        return false;
    unsigned fmt = r->p[at++], g = 1, v, left;
    cid[0] = 0;
    while (g < nglyphs) {
        if (fmt == 0) {
            if (!u16(r, at, &v))
                return false;
            cid[g++] = (uint16_t)v;
            at += 2;
        } else if (fmt == 1 || fmt == 2) {
            if (!u16(r, at, &v))
                return false;
            if (fmt == 1) {
                if (at + 3 > r->len)
                    return false;
                left = r->p[at + 2];
                at += 3;
            } else {
                if (!u16(r, at + 2, &left))
                    return false;
                at += 4;
            }
            for (unsigned k = 0; k <= left && g < nglyphs; k++)
                cid[g++] = (uint16_t)(v + k);
        } else {
            return false;
        }
    }
    return true;
}

/* The first Top DICT's operators and the CharStrings INDEX it names. */
static bool top_and_charstrings(const rd *r, top *t, cffindex *cs)
{
    if (!r->p || r->len < 4 || r->p[0] != 1)
        return false;
    cffindex name, topi;
    size_t b, e;
    /* The first DICT's end is checked against the INDEX's: read_index()
     * checks only the last offset, and another may point past it. */
    return read_index(r, r->p[2], &name) && read_index(r, name.end, &topi) &&
           topi.count >= 1 && offset_at(r, &topi, 0, &b) && offset_at(r, &topi, 1, &e) &&
           e >= b && topi.data + e <= topi.end && read_top(r, topi.data + b, topi.data + e, t) &&
           t->charstrings >= 0 && read_index(r, (size_t)t->charstrings, cs);
}

bool cv_cff_glyph_count(const unsigned char *cff, size_t len, unsigned *n)
{
    rd r = {cff, len};
    top t;
    cffindex cs;
    if (!top_and_charstrings(&r, &t, &cs))
        return false;
    *n = cs.count;
    return true;
}

bool cv_cff_cids(const unsigned char *cff, size_t len, unsigned nglyphs, uint16_t *cid,
                 bool *cid_keyed)
{
    rd r = {cff, len};
    top t;
    cffindex cs;
    if (!top_and_charstrings(&r, &t, &cs) || cs.count != nglyphs)
        return false;
    if (cid_keyed)
        *cid_keyed = t.ros;
    if (!t.ros) {
        for (unsigned g = 0; g < nglyphs; g++)
            cid[g] = (uint16_t)g;
        return true;
    }
    return t.charset > 2 && read_charset(&r, (size_t)t.charset, nglyphs, cid);
}

/* ---- Widening ----------------------------------------------------------- */

/* One DICT operator with where its operands begin, for copying. */
typedef struct dictop {
    unsigned op;
    size_t from, to;         /* operands and operator: [from, to) */
    long last;               /* the last operand (0 if none or real) */
    unsigned last_b0;        /* how it was encoded: its first byte */
    size_t last_at;          /* where it begins */
    int nopnd;
} dictop;

/* The operators of the DICT [b, e), at most `max`; -1 when damaged. */
static int read_ops(const rd *r, size_t b, size_t e, dictop *ops, int max)
{
    int n = 0;
    size_t start = b;
    dictop cur = {0};
    for (size_t i = b; i < e;) {
        unsigned b0 = r->p[i];
        if (b0 <= 21) {
            unsigned op = b0;
            i++;
            if (b0 == 12) {
                if (i >= e)
                    return -1;
                op = 1200 + r->p[i++];
            }
            if (n == max)
                return -1;
            cur.op = op, cur.from = start, cur.to = i;
            ops[n++] = cur;
            cur = (dictop){0};
            start = i;
            continue;
        }
        size_t at = i;
        long v = 0;
        if (b0 == 28 && i + 3 <= e)
            v = (int16_t)(r->p[i + 1] << 8 | r->p[i + 2]), i += 3;
        else if (b0 == 29 && i + 5 <= e)
            v = (int32_t)((uint32_t)r->p[i + 1] << 24 | (uint32_t)r->p[i + 2] << 16 |
                          (uint32_t)r->p[i + 3] << 8 | r->p[i + 4]),
            i += 5;
        else if (b0 == 30) {
            for (i++; i < e && (r->p[i] & 0x0F) != 0x0F && (r->p[i] >> 4) != 0x0F; i++)
                ;
            if (i++ >= e)
                return -1;
        } else if (b0 >= 32 && b0 <= 246)
            v = (long)b0 - 139, i++;
        else if (b0 >= 247 && b0 <= 250 && i + 2 <= e)
            v = ((long)b0 - 247) * 256 + r->p[i + 1] + 108, i += 2;
        else if (b0 >= 251 && b0 <= 254 && i + 2 <= e)
            v = -((long)b0 - 251) * 256 - r->p[i + 1] - 108, i += 2;
        else
            return -1;
        cur.last = v, cur.last_b0 = b0, cur.last_at = at, cur.nopnd++;
    }
    return n;
}

static void put29(unsigned char *p, long v)
{
    p[0] = 29;
    p[1] = (unsigned char)((uint32_t)v >> 24);
    p[2] = (unsigned char)((uint32_t)v >> 16);
    p[3] = (unsigned char)((uint32_t)v >> 8);
    p[4] = (unsigned char)v;
}

/* A copy of the Private DICT [b, e) with defaultWidthX and nominalWidthX
 * `delta` more, appended to out (which has room); its length, or 0 when
 * it cannot be (local subroutines, real widths). */
static size_t widen_private(const rd *r, size_t b, size_t e, long delta, unsigned char *out)
{
    dictop ops[64];
    int n = read_ops(r, b, e, ops, 64);
    if (n < 0)
        return 0;
    size_t k = 0;
    long dflt = 0, nominal = 0;
    for (int i = 0; i < n; i++) {
        if (ops[i].op == 19)
            return 0;                         /* Subrs: offsets from here */
        if (ops[i].op == 20 || ops[i].op == 21) {
            if (ops[i].nopnd != 1 || ops[i].last_b0 == 30)
                return 0;
            *(ops[i].op == 20 ? &dflt : &nominal) = ops[i].last;
            continue;
        }
        memcpy(out + k, r->p + ops[i].from, ops[i].to - ops[i].from);
        k += ops[i].to - ops[i].from;
    }
    put29(out + k, dflt + delta), out[k + 5] = 20, k += 6;
    put29(out + k, nominal + delta), out[k + 5] = 21, k += 6;
    return k;
}

/* Point the Private operator of the DICT [b, e) (size and offset, the
 * offset written in five bytes, the size as a 28 or 29 number) at a new
 * Private DICT, in place in buf. */
static bool repoint(const rd *r, unsigned char *buf, size_t b, size_t e, size_t size,
                    size_t offset)
{
    dictop ops[48];
    int n = read_ops(r, b, e, ops, 48);
    for (int i = 0; i < n; i++) {
        if (ops[i].op != 18)
            continue;
        if (ops[i].nopnd != 2 || ops[i].last_b0 != 29)
            return false;
        put29(buf + ops[i].last_at, (long)offset);
        size_t s = ops[i].from;               /* the size: first operand */
        if (r->p[s] == 28 && size <= 32767) {
            buf[s + 1] = (unsigned char)(size >> 8), buf[s + 2] = (unsigned char)size;
            return true;
        }
        if (r->p[s] == 29) {
            put29(buf + s, (long)size);
            return true;
        }
        return false;
    }
    return false;
}

bool cv_cff_widen(const unsigned char *cff, size_t len, long delta, unsigned char **out,
                  size_t *outlen)
{
    rd r = {cff, len};
    *out = NULL;
    cffindex name, topi;
    size_t b, e;
    if (!cff || len < 4 || cff[0] != 1 || !read_index(&r, cff[2], &name) ||
        !read_index(&r, name.end, &topi) || topi.count != 1 || !offset_at(&r, &topi, 0, &b) ||
        !offset_at(&r, &topi, 1, &e) || e < b || topi.data + e > len)
        return false;
    size_t tb = topi.data + b, te = topi.data + e;
    dictop ops[48];
    int n = read_ops(&r, tb, te, ops, 48);
    if (n < 0)
        return false;
    long fdarray = -1;
    for (int i = 0; i < n; i++)
        if (ops[i].op == 1236 && ops[i].nopnd == 1)
            fdarray = ops[i].last;
    /* The DICTs that name a Private DICT: the FD DICTs, or the Top DICT. */
    size_t owners[256][2], nowners = 0;
    if (fdarray >= 0) {
        cffindex fd;
        if (!read_index(&r, (size_t)fdarray, &fd) || fd.count == 0 || fd.count > 256)
            return false;
        for (unsigned i = 0; i < fd.count; i++) {
            size_t fb, fe;
            if (!offset_at(&r, &fd, i, &fb) || !offset_at(&r, &fd, i + 1, &fe) || fe < fb ||
                fd.data + fe > fd.end)
                return false;
            owners[nowners][0] = fd.data + fb, owners[nowners++][1] = fd.data + fe;
        }
    } else {
        owners[0][0] = tb, owners[0][1] = te, nowners = 1;
    }
    /* New Private DICTs after the program; each owner pointed at its own. */
    unsigned char *buf = cv_xmalloc(len + nowners * (len < 4096 ? len : 4096) + 16);
    memcpy(buf, cff, len);
    size_t at = len;
    for (size_t i = 0; i < nowners; i++) {
        dictop po[48];
        int pn = read_ops(&r, owners[i][0], owners[i][1], po, 48);
        long psize = -1, poff = -1;
        for (int k = 0; k < pn; k++)
            if (po[k].op == 18 && po[k].nopnd == 2) {
                poff = po[k].last;
                /* The size: the first operand, read alone. */
                dictop one[2];
                size_t s = po[k].from;
                size_t send = s + (r.p[s] == 28 ? 3 : r.p[s] == 29 ? 5 : r.p[s] >= 247 ? 2 : 1);
                unsigned char tmp[6];
                memcpy(tmp, r.p + s, send - s);
                tmp[send - s] = 21;            /* any operator ends it */
                rd rt = {tmp, send - s + 1};
                if (read_ops(&rt, 0, rt.len, one, 2) == 1)
                    psize = one[0].last;
            }
        size_t room = len < 4096 ? len : 4096;
        if (psize < 0 || poff < 0 || (size_t)poff + (size_t)psize > len || (size_t)psize + 12 > room)
            goto fail;
        size_t k = widen_private(&r, (size_t)poff, (size_t)poff + (size_t)psize, delta, buf + at);
        if (!k || !repoint(&r, buf, owners[i][0], owners[i][1], k, at))
            goto fail;
        at += k;
    }
    *out = buf;
    *outlen = at;
    return true;
fail:
    free(buf);
    return false;
}
