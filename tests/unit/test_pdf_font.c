/* Unit tests for pdf_font.c: Lato (fonts/) embedded as a Type0 font into a
 * libharu document, and the objects read back -- the /W widths against
 * FreeType's advances, the one-byte encoding when every code is below 256,
 * the CIDToGIDMap stream when two code points share a glyph, the subset
 * font program's own widths behind each code, the ToUnicode map parsed
 * back to exactly one code point per code, and the CIDSet; and Noto Sans
 * CJK SC, CFF outlines in a collection, as a CIDFontType0. */
#include "harness.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H
#include FT_CID_H
#include <hpdf.h>
#include <hpdf_objects.h>

#include "cff.h"
#include "fontset.h"
#include "ftref.h"
#include "pdf_font.h"
#include "shape.h"

static cv_fontset *fs;
static cv_shaper *shaper;
static const cv_face *lato;
static int lato_id;

/* ---------------------------------------------------------------- reading back */

/* The value of `key` in d, through a reference, and its object class. */
static void *item(HPDF_Dict d, const char *key, HPDF_UINT16 *cls)
{
    for (HPDF_UINT i = 0; d && i < d->list->count; i++) {
        HPDF_DictElement e = HPDF_List_ItemAt(d->list, i);
        if (strcmp(e->key, key))
            continue;
        void *v = e->value;
        if (((HPDF_Obj_Header *)v)->obj_class == HPDF_OCLASS_PROXY)
            v = ((HPDF_Proxy)v)->obj;
        *cls = ((HPDF_Obj_Header *)v)->obj_class & HPDF_OCLASS_ANY;
        return v;
    }
    *cls = 0;
    return NULL;
}

static HPDF_Dict dict_of(HPDF_Dict d, const char *key)
{
    HPDF_UINT16 c;
    void *v = item(d, key, &c);
    return c == HPDF_OCLASS_DICT ? v : NULL;
}

static HPDF_Array array_of(HPDF_Dict d, const char *key)
{
    HPDF_UINT16 c;
    void *v = item(d, key, &c);
    return c == HPDF_OCLASS_ARRAY ? v : NULL;
}

/* A name's value, or "" when `key` is absent or not a name. */
static const char *name_of(HPDF_Dict d, const char *key)
{
    HPDF_UINT16 c;
    void *v = item(d, key, &c);
    return c == HPDF_OCLASS_NAME ? ((HPDF_Name)v)->value : "";
}

static long number_of(HPDF_Dict d, const char *key)
{
    HPDF_UINT16 c;
    void *v = item(d, key, &c);
    return c == HPDF_OCLASS_NUMBER ? ((HPDF_Number)v)->value : -1;
}

static void *array_at(HPDF_Array a, HPDF_UINT i, HPDF_UINT16 cls)
{
    if (!a || i >= a->list->count)
        return NULL;
    void *v = HPDF_List_ItemAt(a->list, i);
    if (((HPDF_Obj_Header *)v)->obj_class == HPDF_OCLASS_PROXY)
        v = ((HPDF_Proxy)v)->obj;
    return (((HPDF_Obj_Header *)v)->obj_class & HPDF_OCLASS_ANY) == cls ? v : NULL;
}

/* A stream's bytes as written (before any filter), NUL-terminated;
 * malloc'd.  NULL when s is not a stream. */
static unsigned char *bytes_of(HPDF_Dict s, size_t *n)
{
    *n = 0;
    if (!s || !s->stream)
        return NULL;
    HPDF_UINT size = HPDF_Stream_Size(s->stream);
    unsigned char *b = calloc(size + 1, 1);
    if (!b || HPDF_Stream_Seek(s->stream, 0, HPDF_SEEK_SET) != HPDF_OK) {
        free(b);
        return NULL;
    }
    HPDF_UINT got = size;
    HPDF_STATUS r = size ? HPDF_Stream_Read(s->stream, b, &got) : HPDF_OK;
    if ((r != HPDF_OK && r != HPDF_STREAM_EOF) || got != size) {
        free(b);
        return NULL;
    }
    *n = size;
    return b;
}

/* A CIDFont's /W, which pdf_font.c writes itself (the dictionary's
 * write_fn): its groups, read back from the bytes written -- group g is
 * first[g], with widths v[at[g]] to v[at[g + 1] - 1].  n is 0 when there
 * is no /W or it does not read as "[ c [ w ... ] ... ]". */
typedef struct wlist {
    size_t n;
    long first[256];
    size_t at[257];
    long v[4096];
} wlist;

static wlist W;

static const wlist *w_of(HPDF_Dict cid)
{
    memset(&W, 0, sizeof W);
    if (!cid || !cid->write_fn)
        return &W;
    HPDF_Stream s = HPDF_MemStream_New(cid->mmgr, 4096);
    if (!s)
        return &W;
    size_t len = 0;
    char *t = NULL;
    if (cid->write_fn(cid, s) == HPDF_OK) {
        HPDF_UINT size = HPDF_Stream_Size(s);
        t = calloc(size + 1, 1);
        HPDF_UINT got = size;
        if (t && HPDF_Stream_Seek(s, 0, HPDF_SEEK_SET) == HPDF_OK &&
            (HPDF_Stream_Read(s, (HPDF_BYTE *)t, &got) == HPDF_OK || got == size))
            len = size;
    }
    HPDF_Stream_Free(s);
    const char *p = t ? strstr(t, "/W [ ") : NULL;
    bool ok = p != NULL;
    p = p ? p + 5 : NULL;
    while (ok && *p != ']' && W.n < 256) {
        char *e;
        W.first[W.n] = strtol(p, &e, 10);
        ok = e > p && !strncmp(e, " [ ", 3);
        p = e + 3;
        W.at[W.n] = W.n ? W.at[W.n] : 0;
        size_t k = W.at[W.n];
        while (ok && *p != ']' && k < 4096) {
            W.v[k++] = strtol(p, &e, 10);
            ok = e > p && *e == ' ';
            p = e + 1;
        }
        ok = ok && !strncmp(p, "] ", 2);
        p += 2;
        W.at[++W.n] = k;
    }
    if (!ok || (size_t)(p - t) > len)
        memset(&W, 0, sizeof W);
    free(t);
    return &W;
}

/* The descendant CIDFont of a Type0 font. */
static HPDF_Dict cidfont(const cv_pdffont *pf)
{
    return array_at(array_of(pf->font, "DescendantFonts"), 0, HPDF_OCLASS_DICT);
}

/* FreeType's advance of cp's glyph in thousandths of an em, truncated: the
 * number the /W array must carry. */
static long ft_width(uint32_t cp)
{
    FT_Face ft = ftref(lato);
    FT_Fixed adv = 0;
    if (FT_Get_Advance(ft, FT_Get_Char_Index(ft, cp), FT_LOAD_NO_SCALE, &adv))
        return -1;
    return (long)adv * 1000 / ft->units_per_EM;
}

/* ----------------------------------------------------------- the font program */

static unsigned be16(const unsigned char *p)
{
    return (unsigned)p[0] << 8 | p[1];
}

static unsigned long be32(const unsigned char *p)
{
    return (unsigned long)be16(p) << 16 | be16(p + 2);
}

/* The table `tag` of an sfnt, or NULL. */
static const unsigned char *table(const unsigned char *f, size_t n, const char *tag,
                                  size_t *len)
{
    if (n < 12)
        return NULL;
    unsigned count = be16(f + 4);
    for (unsigned i = 0; i < count && 12 + 16 * (i + 1) <= n; i++) {
        const unsigned char *rec = f + 12 + 16 * i;
        unsigned long off = be32(rec + 8), l = be32(rec + 12);
        if (!memcmp(rec, tag, 4) && off + l <= n) {
            *len = l;
            return f + off;
        }
    }
    return NULL;
}

/* The CIDSet a font program calls for, worked out from the program alone
 * (FreeType and the sfnt tables, not pdf_font.c's reading): a CFF
 * program's CIDs (FreeType's), a TrueType one's glyph ids below maxp's
 * count, through `map` (two bytes per code) when there is one.  malloc'd,
 * *len bytes. */
static unsigned char *program_set(const unsigned char *prog, size_t flen, bool cff,
                                  const unsigned char *map, size_t mlen, size_t *len)
{
    unsigned cids[70000], n = 0, hi = 0;
    if (cff) {
        FT_Library lib;
        FT_Face f = NULL;
        if (FT_Init_FreeType(&lib))
            return NULL;
        if (!FT_New_Memory_Face(lib, prog, (FT_Long)flen, 0, &f)) {
            for (long g = 0; g < f->num_glyphs && n < 70000; g++) {
                FT_UInt cid = 0;
                if (!FT_Get_CID_From_Glyph_Index(f, (FT_UInt)g, &cid))
                    cids[n++] = cid;
            }
            FT_Done_Face(f);
        }
        FT_Done_FreeType(lib);
    } else {
        size_t l;
        const unsigned char *maxp = table(prog, flen, "maxp", &l);
        unsigned ng = maxp && l >= 6 ? be16(maxp + 4) : 0;
        if (map) {
            for (unsigned c = 0; c < mlen / 2 && n < 70000; c++)
                if (be16(map + 2 * c) < ng)
                    cids[n++] = c;
        } else {
            for (unsigned g = 0; g < ng && n < 70000; g++)
                cids[n++] = g;
        }
    }
    for (unsigned i = 0; i < n; i++)
        hi = cids[i] > hi ? cids[i] : hi;
    *len = (size_t)hi / 8 + 1;
    unsigned char *set = calloc(*len, 1);
    for (unsigned i = 0; set && i < n; i++)
        set[cids[i] / 8] |= (unsigned char)(0x80u >> (cids[i] % 8));
    return set;
}

/* The advance of glyph `gid` of the subset, from its own hhea and hmtx,
 * in truncated thousandths; -1 when it cannot be read. */
static long sub_width(const unsigned char *f, size_t n, unsigned gid)
{
    size_t hl, ml, hdl;
    const unsigned char *hhea = table(f, n, "hhea", &hl), *hmtx = table(f, n, "hmtx", &ml),
                        *head = table(f, n, "head", &hdl);
    if (!hhea || hl < 36 || !hmtx || !head || hdl < 20)
        return -1;
    unsigned nm = be16(hhea + 34), upem = be16(head + 18), k = gid < nm ? gid : nm - 1;
    if (!nm || !upem || 4 * (size_t)k + 2 > ml)
        return -1;
    return (long)be16(hmtx + 4 * k) * 1000 / upem;
}

/* ------------------------------------------------------------------ ToUnicode */

/* The ToUnicode map parsed back: uni[code] is the UTF-16 hex it maps to
 * as written ("" for none).  Every bfchar and bfrange block must hold as
 * many entries as its count says, at most 100; a range may only vary the
 * last byte; no code may be mapped twice. */
typedef struct tounicode {
    char uni[65536][12];
    int digits;         /* of each code: 2 or 4 */
    int nranges, nchars;
    bool ok;
} tounicode;

static tounicode tu;

static bool hexnum(const char **p, int digits, unsigned long *v)
{
    const char *s = *p;
    if (*s++ != '<')
        return false;
    char *end;
    *v = strtoul(s, &end, 16);
    if (end - s != digits || *end != '>')
        return false;
    *p = end + 1;
    return true;
}

static bool set_code(unsigned long code, unsigned long u)
{
    if (code > 0xFFFF || tu.uni[code][0])
        return false;
    snprintf(tu.uni[code], sizeof tu.uni[code], u > 0xFFFF ? "%08X" : "%04X",
             (unsigned)(u & 0xFFFFFFFFu));
    return true;
}

static void parse_tounicode(const char *s)
{
    memset(&tu, 0, sizeof tu);
    const char *cs = strstr(s, "begincodespacerange\n");
    if (!cs)
        return;
    cs += strlen("begincodespacerange\n");
    tu.digits = !strncmp(cs, "<00> <FF>\n", 10) ? 2 : !strncmp(cs, "<0000> <FFFF>\n", 14) ? 4 : 0;
    if (!tu.digits || !strstr(s, "endcmap"))
        return;
    tu.ok = true;
    for (const char *p = s; tu.ok && (p = strstr(p, " begin")); ) {
        const char *line = p;
        while (line > s && line[-1] != '\n')
            line--;
        long count = strtol(line, NULL, 10);
        bool range = !strncmp(p, " beginbfrange\n", 14);
        if (!range && strncmp(p, " beginbfchar\n", 13)) {
            p++;            /* " begincodespacerange" and the like */
            continue;
        }
        p = strchr(p, '\n') + 1;
        tu.ok = count >= 1 && count <= 100;
        for (long i = 0; tu.ok && i < count; i++) {
            unsigned long lo, hi, u;
            tu.ok = hexnum(&p, tu.digits, &lo) && *p++ == ' ';
            /* A range may only vary the last byte, of the codes and of the
             * value (PDF 32000 9.10.3). */
            if (tu.ok && range)
                tu.ok = hexnum(&p, tu.digits, &hi) && *p++ == ' ' && hi >= lo &&
                        lo >> 8 == hi >> 8;
            else
                hi = lo;
            /* The value: four hex digits, or eight for a surrogate pair. */
            const char *v = p;
            tu.ok = tu.ok && (hexnum(&p, 4, &u) || (p = v, hexnum(&p, 8, &u))) && *p++ == '\n' &&
                    (u & 0xFF) + (hi - lo) <= 0xFF;
            if (tu.ok && u > 0xFFFF) {  /* a surrogate pair, and never a range */
                unsigned long h = u >> 16, l = u & 0xFFFF;
                tu.ok = !range && h >= 0xD800 && h < 0xDC00 && l >= 0xDC00 && l < 0xE000;
            }
            for (unsigned long c = lo; tu.ok && c <= hi; c++)
                tu.ok = set_code(c, u + (c - lo));
            if (range)
                tu.nranges++;
            else
                tu.nchars += (int)(hi - lo + 1);
        }
        tu.ok = tu.ok && !strncmp(p, range ? "endbfrange\n" : "endbfchar\n",
                                   range ? 11 : 10);
    }
}

/* The UTF-16 hex of cp, as a ToUnicode map should give it. */
static const char *utf16(uint32_t cp, char out[12])
{
    if (cp > 0xFFFF)
        snprintf(out, 12, "%04X%04X", (unsigned)(0xD800 + ((cp - 0x10000) >> 10)),
                 (unsigned)(0xDC00 + ((cp - 0x10000) & 0x3FF)));
    else
        snprintf(out, 12, "%04X", (unsigned)cp);
    return out;
}

/* --------------------------------------------------------------- embedding */

static bool embed(HPDF_Doc pdf, cv_pdffont *pf, const uint32_t *cps, size_t n, bool cidset,
                  HPDF_Dict *cmap1)
{
    *pf = (cv_pdffont){.face = lato, .id = lato_id, .cidset = cidset};
    for (size_t i = 0; i < n; i++) {
        cv_pdffont_use(pf, cps[i], NULL);
        cv_pdffont_use(pf, cps[i], NULL);     /* noting twice is noting once */
    }
    cv_pdffont_seal(pf);
    cv_error err;
    cv_error_init(&err);
    bool ok = cv_pdffont_embed(pdf, pf, cmap1, &err);
    if (!ok)
        fprintf(stderr, "  embed: %s\n", err.msg);
    return ok && HPDF_GetError(pdf) == HPDF_OK;
}

/* What every embedding must satisfy, whatever its codes: codes distinct
 * and in range; /W gives each code point's width as FreeType measures
 * it; the glyph each code reaches in the subset (through the CIDToGIDMap
 * when there is one) has that width too; ToUnicode maps each code to its
 * code point and nothing else; the CIDSet has .notdef and every code. */
static void common_checks(const cv_pdffont *pf, const uint32_t *cps, size_t n)
{
    HPDF_Dict cid = cidfont(pf);
    CHECK(cid != NULL);
    CHECK(pf->n == n);
    CHECK_STR(name_of(pf->font, "Subtype"), "Type0");
    CHECK_STR(name_of(cid, "Subtype"), "CIDFontType2");
    /* BaseFont: a subset tag of six capitals, then the PostScript name. */
    const char *base = name_of(pf->font, "BaseFont");
    CHECK(strlen(base) == 7 + strlen("Lato-Regular") && base[6] == '+' &&
          !strcmp(base + 7, "Lato-Regular"));
    for (int i = 0; i < 6; i++)
        CHECK(base[i] >= 'A' && base[i] <= 'Z');
    CHECK_STR(name_of(cid, "BaseFont"), base);

    unsigned lo = 0xFFFF, hi = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned c = cv_pdffont_cid(pf, cps[i]);
        CHECK(c > 0 && c <= 0xFFFF);
        for (size_t j = 0; j < i; j++)
            CHECK(cv_pdffont_cid(pf, cps[j]) != c);
        lo = c < lo ? c : lo;
        hi = c > hi ? c : hi;
    }
    CHECK(pf->one_byte == (hi < 256));
    CHECK(cv_pdffont_cid(pf, 0x10FFFF) == 0);       /* never noted */

    /* The subset font program. */
    HPDF_Dict desc = dict_of(cid, "FontDescriptor");
    size_t flen;
    unsigned char *prog = bytes_of(dict_of(desc, "FontFile2"), &flen);
    CHECK(prog && flen > 12 && be32(prog) == 0x00010000);
    CHECK(number_of(dict_of(desc, "FontFile2"), "Length1") == (long)flen);
    size_t l;
    CHECK(prog && table(prog, flen, "glyf", &l) && !table(prog, flen, "cmap", &l) &&
          !table(prog, flen, "GSUB", &l) && !table(prog, flen, "GPOS", &l));
    CHECK(flen < lato->size / 4);

    /* CIDToGIDMap: /Identity, or two bytes per code from 0 to hi. */
    HPDF_UINT16 cls;
    void *m = item(cid, "CIDToGIDMap", &cls);
    size_t mlen = 0;
    unsigned char *map = cls == HPDF_OCLASS_DICT ? bytes_of(m, &mlen) : NULL;
    CHECK(map ? mlen == 2 * ((size_t)hi + 1)
              : cls == HPDF_OCLASS_NAME && !strcmp(((HPDF_Name)m)->value, "Identity"));

    /* /W [lo [w(lo) ... w(hi)]]. */
    const wlist *w = w_of(cid);
    CHECK(w->n == 1 && w->first[0] == (long)lo);
    CHECK(w->n == 1 && w->at[1] == hi - lo + 1);
    for (size_t i = 0; i < n && w->n == 1; i++) {
        unsigned c = cv_pdffont_cid(pf, cps[i]);
        long want = ft_width(cps[i]);
        CHECK(want >= 0 && c - lo < w->at[1] && w->v[c - lo] == want);
        if (c - lo < w->at[1] && w->v[c - lo] != want)
            fprintf(stderr, "  U+%04X: /W %ld, FreeType %ld\n", (unsigned)cps[i],
                    w->v[c - lo], want);
        unsigned gid = map ? be16(map + 2 * c) : c;
        CHECK(prog && sub_width(prog, flen, gid) == want);
    }
    CHECK(number_of(cid, "DW") == 1000);

    /* ToUnicode: exactly one code point per code, nothing more. */
    size_t tlen;
    char *t = (char *)bytes_of(dict_of(pf->font, "ToUnicode"), &tlen);
    CHECK(t != NULL);
    parse_tounicode(t ? t : "");
    CHECK(tu.ok);
    CHECK(tu.digits == (pf->one_byte ? 2 : 4));
    size_t mapped = 0;
    for (unsigned c = 0; c <= 0xFFFF; c++)
        mapped += tu.uni[c][0] != 0;
    CHECK(mapped == n);
    char u[12];
    for (size_t i = 0; i < n; i++)
        CHECK_STR(tu.uni[cv_pdffont_cid(pf, cps[i])], utf16(cps[i], u));

    /* CIDSet: bit 0 (.notdef) and a bit per code, most significant first. */
    size_t slen;
    unsigned char *set = bytes_of(dict_of(desc, "CIDSet"), &slen);
    CHECK(pf->cidset == (set != NULL));
    if (set) {
        /* Exactly the glyphs of the program, the codes' among them. */
        size_t elen = 0;
        unsigned char *want = prog ? program_set(prog, flen, false, map, mlen, &elen) : NULL;
        CHECK(want && slen == elen && !memcmp(set, want, slen) && (set[0] & 0x80));
        free(want);
        for (size_t i = 0; i < n; i++) {
            unsigned c = cv_pdffont_cid(pf, cps[i]);
            CHECK(set[c / 8] & (0x80 >> (c % 8)));
        }
    }
    free(set);
    free(t);
    free(map);
    free(prog);
}

/* ------------------------------------------------------------------- tests */

/* A few letters: every code point has a glyph of its own, so codes are
 * the subset's glyph ids, all below 256: one byte per code through the
 * OneByteIdentityH CMap, which one object serves for every such font. */
TEST(one_byte_glyph_ids)
{
    static const uint32_t cps[] = {'H', 'e', 'l', 'o', ',', ' ', 'W', 'r', 'd', '!', '1', '7'};
    size_t n = sizeof cps / sizeof *cps;
    HPDF_Doc pdf = HPDF_New(NULL, NULL);
    HPDF_Dict cmap1 = NULL;
    cv_pdffont a, b;
    CHECK(embed(pdf, &a, cps, n, true, &cmap1));
    CHECK(a.one_byte);
    common_checks(&a, cps, n);
    CHECK_STR(name_of(cidfont(&a), "CIDToGIDMap"), "Identity");

    HPDF_Dict enc = dict_of(a.font, "Encoding");
    CHECK(enc && enc == cmap1);
    CHECK_STR(name_of(enc, "CMapName"), "OneByteIdentityH");
    size_t len;
    char *cm = (char *)bytes_of(enc, &len);
    CHECK(cm && strstr(cm, "1 begincodespacerange\n<00> <FF>\nendcodespacerange\n") &&
          strstr(cm, "1 begincidrange\n<00> <FF> 0\nendcidrange\n"));
    free(cm);

    /* Another one-byte font shares the CMap; the same code points give the
     * same subset tag, other code points another. */
    static const uint32_t other[] = {'x', 'y'};
    CHECK(embed(pdf, &b, other, 2, false, &cmap1));
    CHECK(dict_of(b.font, "Encoding") == enc);
    common_checks(&b, other, 2);
    CHECK(strcmp(name_of(a.font, "BaseFont"), name_of(b.font, "BaseFont")) != 0);
    HPDF_Doc pdf2 = HPDF_New(NULL, NULL);
    HPDF_Dict cmap2 = NULL;
    cv_pdffont c;
    CHECK(embed(pdf2, &c, cps, n, false, &cmap2));
    CHECK_STR(name_of(c.font, "BaseFont"), name_of(a.font, "BaseFont"));
    CHECK(cv_pdffont_cid(&c, 'W') == cv_pdffont_cid(&a, 'W'));

    cv_pdffont_free(&a);
    cv_pdffont_free(&b);
    cv_pdffont_free(&c);
    HPDF_Free(pdf);
    HPDF_Free(pdf2);
}

/* A space and a no-break space share Lato's space glyph: codes become
 * 1..n in code-point order and a CIDToGIDMap stream leads to the glyphs,
 * the two spaces to the same one.  The ToUnicode map is exact. */
TEST(shared_glyph_map)
{
    CHECK(cv_face_glyph(lato, ' ') != 0 && cv_face_glyph(lato, ' ') == cv_face_glyph(lato, 0xA0));
    static const uint32_t cps[] = {0xA0, 'c', 'a', ' ', 'b'};
    HPDF_Doc pdf = HPDF_New(NULL, NULL);
    HPDF_Dict cmap1 = NULL;
    cv_pdffont pf;
    CHECK(embed(pdf, &pf, cps, 5, true, &cmap1));
    common_checks(&pf, cps, 5);
    CHECK(cv_pdffont_cid(&pf, ' ') == 1 && cv_pdffont_cid(&pf, 'a') == 2 &&
          cv_pdffont_cid(&pf, 'b') == 3 && cv_pdffont_cid(&pf, 'c') == 4 &&
          cv_pdffont_cid(&pf, 0xA0) == 5);
    CHECK(pf.one_byte && dict_of(pf.font, "Encoding") == cmap1);

    size_t len;
    unsigned char *map = bytes_of(dict_of(cidfont(&pf), "CIDToGIDMap"), &len);
    CHECK(map && len == 12);
    if (map && len == 12) {
        CHECK(be16(map) == 0);                          /* CID 0: .notdef */
        CHECK(be16(map + 2) != 0 && be16(map + 2) == be16(map + 10));
        for (int i = 1; i <= 4; i++)
            for (int j = i + 1; j <= 4; j++)
                CHECK(be16(map + 2 * i) != be16(map + 2 * j));
    }
    free(map);

    /* a-c are consecutive in codes and code points: one range. */
    char *t = (char *)bytes_of(dict_of(pf.font, "ToUnicode"), &len);
    CHECK(t && strstr(t, "1 beginbfrange\n<02> <04> <0061>\nendbfrange\n"
                         "2 beginbfchar\n<01> <0020>\n<05> <00A0>\nendbfchar\n"));
    free(t);
    cv_pdffont_free(&pf);
    HPDF_Free(pdf);
}

/* Over 255 code points, each with a glyph of its own: codes are glyph ids,
 * some above 255, so two bytes per code through Identity-H, and the
 * ToUnicode map needs several blocks of at most 100. */
TEST(two_byte_glyph_ids)
{
    uint32_t cps[600];
    size_t n = 0;
    unsigned char seen[65536 / 8] = {0};
    for (uint32_t cp = 0x21; cp < 0x250 && n < 600; cp++) {
        unsigned g = cv_face_glyph(lato, cp);
        if (!g || g > 0xFFFF || (seen[g / 8] & (1u << (g % 8))))
            continue;       /* missing, or the glyph of another code point */
        seen[g / 8] |= (unsigned char)(1u << (g % 8));
        cps[n++] = cp;
    }
    CHECK(n > 300);
    HPDF_Doc pdf = HPDF_New(NULL, NULL);
    HPDF_Dict cmap1 = NULL;
    cv_pdffont pf;
    CHECK(embed(pdf, &pf, cps, n, true, &cmap1));
    CHECK(!pf.one_byte && cmap1 == NULL);
    CHECK_STR(name_of(pf.font, "Encoding"), "Identity-H");
    CHECK_STR(name_of(cidfont(&pf), "CIDToGIDMap"), "Identity");
    common_checks(&pf, cps, n);
    CHECK(tu.nchars > 100 && tu.nranges > 0);
    cv_pdffont_free(&pf);
    HPDF_Free(pdf);
}

/* Code points Lato lacks (U+10000, U+1F601) have no glyph of their own:
 * codes are 1..n, and their ToUnicode values are surrogate pairs. */
TEST(astral_without_glyph)
{
    CHECK(cv_face_glyph(lato, 0x10000) == 0 && cv_face_glyph(lato, 0x1F601) == 0);
    static const uint32_t cps[] = {0x1F601, 'a', 0x10000};
    HPDF_Doc pdf = HPDF_New(NULL, NULL);
    HPDF_Dict cmap1 = NULL;
    cv_pdffont pf;
    CHECK(embed(pdf, &pf, cps, 3, false, &cmap1));
    CHECK(cv_pdffont_cid(&pf, 'a') == 1 && cv_pdffont_cid(&pf, 0x10000) == 2 &&
          cv_pdffont_cid(&pf, 0x1F601) == 3);
    size_t len;
    char *t = (char *)bytes_of(dict_of(pf.font, "ToUnicode"), &len);
    CHECK(t && strstr(t, "3 beginbfchar\n<01> <0061>\n<02> <D800DC00>\n<03> <D83DDE01>\n"
                         "endbfchar\n"));
    free(t);
    common_checks(&pf, cps, 3);
    cv_pdffont_free(&pf);
    HPDF_Free(pdf);
}

/* One byte holds codes up to 255: with a shared glyph (codes 1..n), 255
 * code points are one byte each, 256 are two. */
TEST(one_byte_up_to_255)
{
    uint32_t cps[256];
    size_t n = 0;
    cps[n++] = ' ';
    cps[n++] = 0xA0;
    for (uint32_t cp = 0x21; n < 256; cp++)
        if (cp != 0xA0 && cv_face_glyph(lato, cp))
            cps[n++] = cp;
    for (size_t k = 255; k <= 256; k++) {
        HPDF_Doc pdf = HPDF_New(NULL, NULL);
        HPDF_Dict cmap1 = NULL;
        cv_pdffont pf;
        CHECK(embed(pdf, &pf, cps, k, false, &cmap1));
        CHECK(cv_pdffont_cid(&pf, ' ') == 1 && cv_pdffont_cid(&pf, cps[k - 1]) == k);
        CHECK(pf.one_byte == (k == 255));
        CHECK(pf.one_byte ? dict_of(pf.font, "Encoding") == cmap1
                          : !strcmp(name_of(pf.font, "Encoding"), "Identity-H"));
        common_checks(&pf, cps, k);
        cv_pdffont_free(&pf);
        HPDF_Free(pdf);
    }
}


/* Noto Sans CJK SC, an OpenType face with CID-keyed CFF outlines inside a
 * collection, becomes a CIDFontType0: the bare CFF table as FontFile3
 * /CIDFontType0C, no CIDToGIDMap, codes that are the CIDs the original
 * font gives the glyphs (hb-subset keeps them in the subset's charset),
 * /W in groups of consecutive CIDs, an exact ToUnicode map and a CIDSet
 * of exactly .notdef and the codes. */
#define NOTO "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
TEST(cff_cid_keyed)
{
    cv_error err;
    cv_error_init(&err);
    int id = -1;
    const cv_face *f = NULL;
    for (int i = 0; i < 10 && !f; i++) {
        id = cv_fontset_open_file(fs, NOTO, i, (cv_pos){0}, &err);
        const cv_face *g = cv_fontset_face(fs, id);
        if (g && !strcmp(g->family, "Noto Sans CJK SC"))
            f = g;
    }
    CHECK(f && f->cff && f->index > 0);
    if (!f)
        return;
    static const uint32_t cps[] = {0x4E2D, 0x6587, 0xFF0C, 0x3002, 'A', 0x201C, 0x2014};
    size_t n = sizeof cps / sizeof *cps;
    HPDF_Doc pdf = HPDF_New(NULL, NULL);
    HPDF_Dict cmap1 = NULL;
    cv_pdffont pf = {.face = f, .id = id, .cidset = true};
    for (size_t i = 0; i < n; i++)
        cv_pdffont_use(&pf, cps[i], NULL);
    cv_pdffont_seal(&pf);
    CHECK(cv_pdffont_embed(pdf, &pf, &cmap1, &err) && HPDF_GetError(pdf) == HPDF_OK);
    HPDF_Dict cid = cidfont(&pf);
    CHECK_STR(name_of(cid, "Subtype"), "CIDFontType0");
    HPDF_UINT16 cls;
    CHECK(item(cid, "CIDToGIDMap", &cls) == NULL);
    CHECK(!pf.one_byte && !strcmp(name_of(pf.font, "Encoding"), "Identity-H"));
    HPDF_Dict desc = dict_of(cid, "FontDescriptor");
    HPDF_Dict file = dict_of(desc, "FontFile3");
    CHECK(dict_of(desc, "FontFile2") == NULL);
    CHECK_STR(name_of(file, "Subtype"), "CIDFontType0C");
    size_t flen;
    unsigned char *prog = bytes_of(file, &flen);
    CHECK(prog && flen > 4 && prog[0] == 1 && flen < 200000);

    /* Codes: the original font's CIDs, present in the subset's charset. */
    FT_Face ft = ftref(f);
    uint16_t sub[64];
    bool keyed = false;
    size_t ng = n + 1;              /* the glyphs, .notdef and maybe a few more */
    while (ng < 64 && !(prog && cv_cff_cids(prog, flen, (unsigned)ng, sub, &keyed)))
        ng++;
    CHECK(ng < 64 && keyed);
    for (size_t i = 0; i < n; i++) {
        FT_UInt want = 0;
        CHECK(!FT_Get_CID_From_Glyph_Index(ft, FT_Get_Char_Index(ft, cps[i]), &want));
        unsigned code = cv_pdffont_cid(&pf, cps[i]);
        CHECK(code == want && code > 0);
        bool there = false;
        for (size_t g = 1; g < ng; g++)
            there |= sub[g] == code;
        CHECK(there);
    }

    /* /W: groups [c [w ...]], each code point's width as measured. */
    const wlist *w = w_of(cid);
    size_t found = 0;
    for (size_t k = 0; k < w->n; k++) {
        long c0 = w->first[k];
        CHECK(c0 > 0 && w->at[k + 1] > w->at[k]);
        for (size_t j = 0; j < w->at[k + 1] - w->at[k]; j++)
            for (size_t i = 0; i < n; i++)
                if (cv_pdffont_cid(&pf, cps[i]) == (unsigned)(c0 + (long)j)) {
                    FT_Fixed adv = 0;
                    FT_Get_Advance(ft, FT_Get_Char_Index(ft, cps[i]), FT_LOAD_NO_SCALE, &adv);
                    CHECK(w->v[w->at[k] + j] == (long)adv * 1000 / ft->units_per_EM);
                    found++;
                }
    }
    CHECK(found == n);

    /* ToUnicode exact; CIDSet .notdef and the codes. */
    size_t tlen, slen;
    char *t = (char *)bytes_of(dict_of(pf.font, "ToUnicode"), &tlen);
    parse_tounicode(t ? t : "");
    CHECK(tu.ok && tu.digits == 4);
    char u[12];
    for (size_t i = 0; i < n; i++)
        CHECK_STR(tu.uni[cv_pdffont_cid(&pf, cps[i])], utf16(cps[i], u));
    unsigned char *set = bytes_of(dict_of(desc, "CIDSet"), &slen);
    size_t elen = 0;
    unsigned char *want = prog ? program_set(prog, flen, true, NULL, 0, &elen) : NULL;
    CHECK(set && want && slen == elen && !memcmp(set, want, slen) && (set[0] & 0x80));
    for (size_t i = 0; set && i < n; i++) {
        unsigned c = cv_pdffont_cid(&pf, cps[i]);
        CHECK(c / 8 < slen && (set[c / 8] & (0x80 >> (c % 8))));
    }
    free(want);
    free(set);
    free(t);
    free(prog);
    cv_pdffont_free(&pf);
    HPDF_Free(pdf);
}

/* Glyphs drawn a quarter em wider (the gap between Han and Latin) come
 * from a twin font: the same codes and ToUnicode map, a program of just
 * those glyphs whose own advances are 250 thousandths more (FreeType reads
 * the bare CFF back), /W for those codes and a CIDSet of its program. */
TEST(cff_twin_font)
{
    cv_error err;
    cv_error_init(&err);
    int id = -1;
    const cv_face *f = NULL;
    for (int i = 0; i < 10 && !f; i++) {
        id = cv_fontset_open_file(fs, NOTO, i, (cv_pos){0}, &err);
        const cv_face *g = cv_fontset_face(fs, id);
        if (g && !strcmp(g->family, "Noto Sans CJK SC"))
            f = g;
    }
    if (!f)
        return;
    HPDF_Doc pdf = HPDF_New(NULL, NULL);
    HPDF_Dict cmap1 = NULL;
    cv_pdffont pf = {.face = f, .id = id, .cidset = true};
    cv_pdffont_use(&pf, 0x4E2D, NULL);
    cv_pdffont_use_wide(&pf, 0x5728, NULL, 250);       /* 在, before a Latin letter */
    cv_pdffont_use_wide(&pf, 0x5728, NULL, 250);
    cv_pdffont_use(&pf, 0x5728, NULL);
    cv_pdffont_seal(&pf);
    CHECK(cv_pdffont_embed(pdf, &pf, &cmap1, &err) && pf.wide_font && pf.wide == 250);
    CHECK(cv_pdffont_twin(&pf, 250) && !cv_pdffont_twin(&pf, 0) && !cv_pdffont_twin(&pf, 100));
    HPDF_Dict twin = array_at(array_of(pf.wide_font, "DescendantFonts"), 0, HPDF_OCLASS_DICT);
    CHECK(dict_of(pf.wide_font, "ToUnicode") == dict_of(pf.font, "ToUnicode"));
    unsigned code = cv_pdffont_cid(&pf, 0x5728);
    const wlist *w = w_of(twin);
    CHECK(w->n == 1 && w->first[0] == (long)code && w->at[1] == 1);
    FT_Face ft = ftref(f);
    FT_Fixed adv = 0;
    FT_Get_Advance(ft, FT_Get_Char_Index(ft, 0x5728), FT_LOAD_NO_SCALE, &adv);
    long normal = (long)adv * 1000 / ft->units_per_EM;
    CHECK(w->n == 1 && w->v[0] == normal + 250);
    HPDF_Dict desc = dict_of(twin, "FontDescriptor");
    size_t flen, slen;
    unsigned char *prog = bytes_of(dict_of(desc, "FontFile3"), &flen);
    FT_Face tf = NULL;
    CHECK(prog && !FT_New_Memory_Face(ft->glyph->library, prog, (FT_Long)flen, 0, &tf));
    FT_Fixed tadv = 0;
    CHECK(tf && !FT_Get_Advance(tf, code, FT_LOAD_NO_SCALE, &tadv) &&
          (long)tadv * 1000 / tf->units_per_EM == normal + 250);
    if (tf)
        FT_Done_Face(tf);
    unsigned char *set = bytes_of(dict_of(desc, "CIDSet"), &slen);
    size_t elen = 0;
    unsigned char *want = prog ? program_set(prog, flen, true, NULL, 0, &elen) : NULL;
    CHECK(set && want && slen == elen && !memcmp(set, want, slen) &&
          (set[code / 8] & (0x80 >> (code % 8))));
    free(want);
    free(set);
    free(prog);
    cv_pdffont_free(&pf);
    HPDF_Free(pdf);
}

int main(void)
{
    cv_error err;
    cv_error_init(&err);
    const char *dirs[] = {NULL};
    fs = cv_fontset_new(dirs, &err);
    int id = fs ? cv_fontset_open_file(fs, "fonts/Lato-Regular.ttf", 0, (cv_pos){0}, &err) : -1;
    if (id < 0 || !(lato = cv_fontset_face(fs, id))) {
        fprintf(stderr, "cannot open fonts/Lato-Regular.ttf: %s\n", err.msg);
        printf("pdf_font: 0 passed, 1 failed\n");
        return 1;
    }
    lato_id = id;
    shaper = cv_shaper_new(fs);
    RUN(one_byte_glyph_ids);
    RUN(shared_glyph_map);
    RUN(two_byte_glyph_ids);
    RUN(astral_without_glyph);
    RUN(one_byte_up_to_255);
    RUN(cff_cid_keyed);
    RUN(cff_twin_font);
    cv_shaper_free(shaper);
    cv_fontset_free(fs);
    return harness_report("pdf_font");
}
