/* cff.c - the charset of a CFF font program.  See cff.h.
 *
 * The parts read (Adobe Technical Note #5176, "The Compact Font Format
 * Specification"): the header's size, the Name INDEX (skipped), the first
 * Top DICT (its ROS, charset and CharStrings operators), the CharStrings
 * INDEX's count, and the charset in any of its three formats.
 */
#include "cff.h"

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

bool cv_cff_cids(const unsigned char *cff, size_t len, unsigned nglyphs, uint16_t *cid,
                 bool *cid_keyed)
{
    rd r = {cff, len};
    if (!cff || len < 4 || cff[0] != 1)
        return false;
    cffindex name, topi;
    size_t b, e;
    top t;
    if (!read_index(&r, cff[2], &name) || !read_index(&r, name.end, &topi) || topi.count < 1 ||
        !offset_at(&r, &topi, 0, &b) || !offset_at(&r, &topi, 1, &e) || e < b ||
        !read_top(&r, topi.data + b, topi.data + e, &t) || t.charstrings < 0)
        return false;
    cffindex cs;
    if (!read_index(&r, (size_t)t.charstrings, &cs) || cs.count != nglyphs)
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
