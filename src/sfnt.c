/* sfnt.c - an sfnt's family, weight, slant and width, and the metrics of
 * a face, read from its tables.  See sfnt.h.
 *
 * What is read (the OpenType specification's 'head', 'maxp', 'hhea',
 * 'OS/2', 'name', 'post' and 'cmap' tables), and where FreeType 2's rules
 * are followed so that the answer is the one FT_New_Face() would give:
 *
 *   - the family is the name record FreeType's sfnt_load_face() takes: the
 *     WWS family (name id 21), then the typographic family (16), then the
 *     family (1), except that a face whose fsSelection says it is WWS
 *     (bit 8) starts at the typographic family; and of a name id's records
 *     the one tt_face_get_name() takes: Microsoft's (symbol, Unicode BMP or
 *     full Unicode, the last English one, or the first of any language when
 *     none is English) unless there is a Macintosh one (English, or else
 *     Roman) and Microsoft's is not English, then the Macintosh one, then a
 *     Unicode-platform one; UTF-16 or 8-bit text cut at the first NUL, and
 *     every character outside printable ASCII made '?';
 *   - italic is fsSelection's oblique (bit 9) or italic (bit 0) bit, bold
 *     the OS/2 weight (600 and more) or, when that is 0, fsSelection's bold
 *     bit (5), as fontset.c reads FreeType's face;
 *   - the ascender and descender are OS/2's typographic ones when its
 *     fsSelection says to use them (bit 7), else hhea's, else (both 0) the
 *     typographic ones, else the Windows ones;
 *   - the PostScript name is the last Windows (symbol or Unicode BMP)
 *     record of name id 6, else the last Macintosh Roman one; only one of
 *     ASCII PostScript characters is vouched for.
 *
 * Glyphs and advances are HarfBuzz's (fontset.c); test_sfnt checks them,
 * and every metric, against FreeType on every face of fonts/ and Noto
 * Sans CJK.
 *
 * Only the ordinary file is vouched for: TrueType outlines under version
 * 1.0 or CFF ones under 'OTTO', every table inside the file, no table
 * twice, none of the tables that change what FreeType does (bitmap
 * strikes, 'fvar', 'CFF2'), each table FreeType needs long enough for
 * what it reads, a format-0 name table, and a face of a collection no
 * larger than FreeType accepts.
 */
#include "sfnt.h"

#include <stdint.h>
#include <string.h>

#define TAG(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

static unsigned u16(const unsigned char *p)
{
    return (unsigned)p[0] << 8 | p[1];
}

static uint32_t u32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int cv_sfnt_count(const unsigned char *data, size_t size)
{
    if (size < 12)
        return 0;
    uint32_t tag = u32(data);
    if (tag == 0x00010000u || tag == TAG('O', 'T', 'T', 'O'))
        return 1;
    if (tag != TAG('t', 't', 'c', 'f'))
        return 0;
    uint32_t version = u32(data + 4), count = u32(data + 8);
    /* FreeType refuses a count of 0 and one above size / 32. */
    if ((version != 0x00010000u && version != 0x00020000u) || count == 0 ||
        count > size / 32 || count > 0x7fffffffu || 12 + (size_t)count * 4 > size)
        return 0;
    return (int)count;
}

/* A table of the face: where and how long. */
typedef struct table {
    const unsigned char *p;
    size_t len;
} table;

/* The record tt_face_get_name() takes for name id `id` in the name table
 * `nm`, copied into out (size 256) as FreeType converts it: 1, or 0 when
 * there is none, -1 when it is too long to vouch for. */
static int get_name(table nm, unsigned id, char *out)
{
    unsigned count = u16(nm.p + 2), storage = u16(nm.p + 4);
    size_t start = 6 + (size_t)count * 12;
    long win = -1, apple_roman = -1, apple_english = -1, unicode = -1;
    bool english = false;
    for (unsigned i = 0; i < count; i++) {
        const unsigned char *r = nm.p + 6 + (size_t)i * 12;
        unsigned platform = u16(r), encoding = u16(r + 2), language = u16(r + 4);
        unsigned len = u16(r + 8);
        size_t off = (size_t)storage + u16(r + 10);
        /* FreeType drops an empty record or one outside the table. */
        if (u16(r + 6) != id || len == 0 || off < start || off + len > nm.len)
            continue;
        switch (platform) {
        case 0:
        case 2:
            unicode = i;
            break;
        case 1:
            if (language == 0)
                apple_english = i;
            else if (encoding == 0)
                apple_roman = i;
            break;
        case 3:
            if ((win == -1 || (language & 0x3FF) == 0x009) &&
                (encoding == 0 || encoding == 1 || encoding == 10)) {
                english = (language & 0x3FF) == 0x009;
                win = i;
            }
            break;
        default:
            break;
        }
    }
    long apple = apple_english >= 0 ? apple_english : apple_roman;
    long pick = win >= 0 && !(apple >= 0 && !english) ? win : apple >= 0 ? apple : unicode;
    if (pick < 0)
        return 0;
    const unsigned char *r = nm.p + 6 + (size_t)pick * 12;
    unsigned len = u16(r + 8);
    const unsigned char *s = nm.p + storage + u16(r + 10);
    /* Macintosh text is read a byte a character, the rest as UTF-16. */
    bool wide = u16(r) != 1;
    size_t n = 0, chars = wide ? len / 2 : len;
    if (chars > 255)
        return -1;
    for (size_t k = 0; k < chars; k++) {
        unsigned c = wide ? u16(s + 2 * k) : s[k];
        if (c == 0)
            break;
        out[n++] = (char)(c < 32 || c > 127 ? '?' : c);
    }
    out[n] = 0;
    return 1;
}

enum { HEAD, MAXP, HHEA, HMTX, OS2, NAME, GLYF, LOCA, CFF, VHEA, POST, CMAP, NT };

/* The tables of face `index` the readers below use, into t; false when the
 * face is not one this reader vouches for (see above). */
/* Where face `index`'s table directory starts (*at) and how many entries
 * it lists (*ntables); false when there is no such face or its header is
 * not in the file. */
static bool directory(const unsigned char *data, size_t size, int index, size_t *at,
                      unsigned *ntables)
{
    if (index < 0 || index >= cv_sfnt_count(data, size))
        return false;
    *at = u32(data) == TAG('t', 't', 'c', 'f') ? u32(data + 12 + (size_t)index * 4) : 0;
    if (*at > size || size - *at < 12)
        return false;
    *ntables = u16(data + *at + 4);
    return true;
}

static bool tables(const unsigned char *data, size_t size, int index, table t[NT])
{
    size_t at;
    unsigned ntables;
    if (!directory(data, size, index, &at, &ntables))
        return false;
    uint32_t format = u32(data + at);
    if ((format != 0x00010000u && format != TAG('O', 'T', 'T', 'O')) || ntables == 0 ||
        (size - at - 12) / 16 < ntables)
        return false;

    static const uint32_t want[NT] = {
        TAG('h', 'e', 'a', 'd'), TAG('m', 'a', 'x', 'p'), TAG('h', 'h', 'e', 'a'),
        TAG('h', 'm', 't', 'x'), TAG('O', 'S', '/', '2'), TAG('n', 'a', 'm', 'e'),
        TAG('g', 'l', 'y', 'f'), TAG('l', 'o', 'c', 'a'), TAG('C', 'F', 'F', ' '),
        TAG('v', 'h', 'e', 'a'), TAG('p', 'o', 's', 't'), TAG('c', 'm', 'a', 'p')};
    static const uint32_t refuse[] = {
        TAG('C', 'F', 'F', '2'), TAG('f', 'v', 'a', 'r'), TAG('C', 'B', 'L', 'C'),
        TAG('C', 'B', 'D', 'T'), TAG('E', 'B', 'L', 'C'), TAG('b', 'l', 'o', 'c'),
        TAG('s', 'b', 'i', 'x'), TAG('b', 'h', 'e', 'd')};
    memset(t, 0, NT * sizeof *t);
    for (unsigned i = 0; i < ntables; i++) {
        const unsigned char *e = data + at + 12 + (size_t)i * 16;
        uint32_t tag = u32(e), off = u32(e + 8), len = u32(e + 12);
        /* Every table inside the file and not empty: FreeType skips the
         * others, which this reader does not follow. */
        if (len == 0 || off > size || len > size - off)
            return false;
        for (size_t k = 0; k < sizeof refuse / sizeof *refuse; k++)
            if (tag == refuse[k])
                return false;
        for (int k = 0; k < NT; k++)
            if (tag == want[k]) {
                if (t[k].p)
                    return false;            /* twice */
                t[k] = (table){data + off, len};
            }
    }
    /* What FreeType reads of each table, and the outlines its drivers take
     * under each version tag. */
    if (!t[HEAD].p || t[HEAD].len < 54 || !t[MAXP].p || t[MAXP].len < 6 || !t[HHEA].p ||
        t[HHEA].len < 36 || !t[HMTX].p || !t[OS2].p || t[OS2].len < 78 || !t[NAME].p ||
        t[NAME].len < 6 || (t[VHEA].p && t[VHEA].len < 36))
        return false;
    if (u32(t[MAXP].p) >= 0x00010000u && t[MAXP].len < 32)
        return false;
    unsigned upem = u16(t[HEAD].p + 18);
    if (upem < 16 || upem > 16384)
        return false;
    if (format == 0x00010000u ? !t[GLYF].p || !t[LOCA].p || t[CFF].p : !t[CFF].p || t[GLYF].p)
        return false;
    unsigned os2v = u16(t[OS2].p);
    if (os2v > 5 || t[OS2].len < (os2v >= 5 ? 100u : os2v >= 2 ? 96u : os2v >= 1 ? 86u : 78u))
        return false;
    table nm = t[NAME];
    if (u16(nm.p) != 0 || 6 + (size_t)u16(nm.p + 2) * 12 > nm.len)
        return false;
    return true;
}

bool cv_sfnt_outlines_cut(const unsigned char *data, size_t size, int index)
{
    size_t at;
    unsigned ntables;
    if (!directory(data, size, index, &at, &ntables))
        return false;
    for (unsigned i = 0; i < ntables && (size - at - 12) / 16 > i; i++) {
        const unsigned char *e = data + at + 12 + (size_t)i * 16;
        uint32_t tag = u32(e);
        uint64_t end = (uint64_t)u32(e + 8) + u32(e + 12);
        if ((tag == TAG('g', 'l', 'y', 'f') || tag == TAG('C', 'F', 'F', ' ')) && end > size)
            return true;
    }
    return false;
}

bool cv_sfnt_describe(const unsigned char *data, size_t size, int index, cv_sfnt_face *out)
{
    memset(out, 0, sizeof *out);
    table t[NT];
    if (!tables(data, size, index, t))
        return false;
    table nm = t[NAME];
    unsigned weight = u16(t[OS2].p + 4), width = u16(t[OS2].p + 6);
    unsigned sel = u16(t[OS2].p + 62);
    out->italic = (sel & 512) || (sel & 1);
    out->bold = weight ? weight >= 600 : (sel & 32) != 0;
    out->narrow = width && width != 5;
    out->cff = t[CFF].p != NULL;
    /* The family's name record, in FreeType's order (see above). */
    static const unsigned wws_order[] = {16, 1}, other_order[] = {21, 16, 1};
    const unsigned *order = (sel & 256) ? wws_order : other_order;
    size_t norder = (sel & 256) ? 2 : 3;
    for (size_t k = 0; k < norder; k++) {
        int got = get_name(nm, order[k], out->family);
        if (got < 0)
            return false;
        if (got > 0) {
            out->named = true;
            return true;
        }
    }
    return true;
}

/* FreeType's sfnt_is_postscript(): a character a PostScript name may hold. */
static bool ps_char(unsigned c)
{
    return c > 32 && c < 127 && !strchr("[](){}<>/%", (int)c);
}

/* The PostScript name FT_Get_Postscript_Name() gives, into out (size 64):
 * 1; 0 when there is none; -1 when it is not one this reader vouches for
 * (a character outside ASCII or not a PostScript one, or too long). */
static int ps_name(table nm, char *out)
{
    unsigned count = u16(nm.p + 2), storage = u16(nm.p + 4);
    size_t start = 6 + (size_t)count * 12;
    long win = -1, apple = -1;
    /* The last Windows (symbol or Unicode BMP) and the last Macintosh
     * Roman record of name id 6 FreeType keeps. */
    for (unsigned i = 0; i < count; i++) {
        const unsigned char *r = nm.p + 6 + (size_t)i * 12;
        unsigned platform = u16(r), encoding = u16(r + 2), len = u16(r + 8);
        size_t off = (size_t)storage + u16(r + 10);
        if (u16(r + 6) != 6 || len == 0 || off < start || off + len > nm.len)
            continue;
        if (platform == 3 && (encoding == 0 || encoding == 1))
            win = i;
        if (platform == 1 && encoding == 0)
            apple = i;
    }
    long pick = win >= 0 ? win : apple;
    if (pick < 0)
        return 0;
    const unsigned char *r = nm.p + 6 + (size_t)pick * 12;
    const unsigned char *s = nm.p + storage + u16(r + 10);
    bool wide = win >= 0;
    size_t chars = wide ? u16(r + 8) / 2u : u16(r + 8);
    if (chars == 0 || chars > 63)
        return -1;
    for (size_t k = 0; k < chars; k++) {
        unsigned c = wide ? u16(s + 2 * k) : s[k];
        if (!ps_char(c))
            return -1;
        out[k] = (char)c;
    }
    out[chars] = 0;
    return 1;
}

/* Has the cmap table a Unicode subtable FreeType would select: (0, any),
 * (3, 1) or (3, 10), of format 4 or 12, inside the table? */
static bool unicode_cmap(table cm)
{
    if (!cm.p || cm.len < 4)
        return false;
    unsigned n = u16(cm.p + 2);
    if (4 + (size_t)n * 8 > cm.len)
        return false;
    bool found = false;
    for (unsigned i = 0; i < n; i++) {
        const unsigned char *r = cm.p + 4 + (size_t)i * 8;
        unsigned platform = u16(r), encoding = u16(r + 2);
        uint32_t off = u32(r + 4);
        if (!(platform == 0 && encoding != 5) && !(platform == 3 && (encoding == 1 ||
                                                                     encoding == 10)))
            continue;
        if (off > cm.len || cm.len - off < 8)
            return false;
        unsigned format = u16(cm.p + off);
        size_t len = format == 12 ? u32(cm.p + off + 4) : u16(cm.p + off + 2);
        if ((format != 4 && format != 12) || len > cm.len - off)
            return false;                 /* FreeType would check it: ask it */
        found = true;
    }
    return found;
}

static int s16(const unsigned char *p)
{
    return (int16_t)u16(p);
}

bool cv_sfnt_measure(const unsigned char *data, size_t size, int index, cv_sfnt_metrics *out)
{
    memset(out, 0, sizeof *out);
    table t[NT];
    if (!tables(data, size, index, t) || !unicode_cmap(t[CMAP]) ||
        (t[POST].p && t[POST].len < 32))
        return false;
    int got = ps_name(t[NAME], out->psname);
    if (got < 0)
        return false;
    out->has_psname = got > 0;
    const unsigned char *head = t[HEAD].p, *hhea = t[HHEA].p, *os2 = t[OS2].p;
    out->upem = (int)u16(head + 18);
    out->bbox[0] = s16(head + 36);
    out->bbox[1] = s16(head + 38);
    out->bbox[2] = s16(head + 40);
    out->bbox[3] = s16(head + 42);
    out->nglyphs = u16(t[MAXP].p + 4);
    /* FreeType's face ascender and descender: OS/2's typographic ones
     * when its fsSelection says to use them (bit 7), else hhea's, or when
     * both are 0 the typographic ones, or when those are 0 too the Windows
     * ones. */
    out->ascender = s16(hhea + 4);
    out->descender = s16(hhea + 6);
    out->os2_version = (int)u16(os2);
    out->weight = (int)u16(os2 + 4);
    out->typo_ascender = s16(os2 + 68);
    out->typo_descender = s16(os2 + 70);
    if (u16(os2 + 62) & 128) {
        out->ascender = out->typo_ascender;
        out->descender = out->typo_descender;
    } else if (!out->ascender && !out->descender) {
        if (out->typo_ascender || out->typo_descender) {
            out->ascender = out->typo_ascender;
            out->descender = out->typo_descender;
        } else {
            out->ascender = (int16_t)u16(os2 + 74);
            out->descender = -(int16_t)u16(os2 + 76);
        }
    }
    if (out->os2_version >= 2) {
        out->x_height = s16(os2 + 86);
        out->cap_height = s16(os2 + 88);
    }
    if (t[POST].p) {
        out->italic_angle = (int32_t)u32(t[POST].p + 4);
        out->fixed_pitch = u32(t[POST].p + 12) != 0;
    }
    out->cff = t[CFF].p;
    out->cff_len = t[CFF].len;
    return true;
}
