/* pdf_font.c - a face as a Type0 font, built with libharu's object API.
 *
 * The objects written, for a face drawing n code points:
 *
 *   Type0      /BaseFont /ABCDEF+Lato-Regular /DescendantFonts [CIDFont]
 *              /Encoding: a one-byte identity CMap when every code is
 *              below 256, else /Identity-H; /ToUnicode <map>
 *   CIDFontType2  /CIDSystemInfo (Adobe, Identity, 0) /W [lo [w ...]]
 *              /CIDToGIDMap /Identity or <stream> /FontDescriptor <desc>
 *   descriptor /Flags /FontBBox /ItalicAngle /Ascent /Descent /CapHeight
 *              /StemV /FontFile2 <subset> and, for PDF/A, /CIDSet <bits>
 *
 * Codes are CIDs.  They are the subset's glyph ids when every code point
 * has a glyph of its own; when two share one (a space and a no-break
 * space), codes are 1..n in code-point order and a CIDToGIDMap stream
 * leads to the glyphs.  Either way each code maps to exactly one code
 * point in the ToUnicode map, so text extracts exactly, and code points
 * above U+FFFF map to surrogate pairs.  Widths are the advances the layout
 * measured (shape.h: truncated thousandths), so the PDF places glyphs
 * where the dump says.
 *
 * A face with CFF outlines (OpenType .otf/.otc, such as Noto Sans CJK) is
 * a CIDFontType0 instead: the descriptor's /FontFile3 (/Subtype
 * /CIDFontType0C) is the bare 'CFF ' table of the hb-subset result,
 * desubroutinised, and there is no CIDToGIDMap -- a CIDFontType0 finds a
 * glyph by CID through the program's own charset.  So codes are the CIDs
 * of the subset's charset, read back by cff.h: a CID-keyed program (Noto
 * CJK) keeps the original font's CIDs, a name-keyed one has its glyph ids.
 * /W is written in groups of consecutive CIDs, which spread over tens of
 * thousands.  Two code points sharing a glyph share its code there (a
 * CIDFontType0 cannot lead two codes to one glyph without a CMap of its
 * own, which pdfminer would not read); the ToUnicode map gives the lower.
 */
#include "pdf_font.h"
#include "arena.h"
#include "cff.h"
#include "pdf_meta.h"
#include "unicode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hb-subset.h>
#include <hb.h>
#include <hpdf_doc.h>
#include <hpdf_objects.h>

/* Mark `cp` in the bitmap *set, kept in pages of 2,048 code points made
 * as they are first touched (a document draws a few hundred distinct
 * glyphs, and one bitmap of all of Unicode cost 139 KB of zeroing a
 * face): false if it was marked already. */
static bool mark(unsigned char ***set, uint32_t cp)
{
    if (!*set)
        *set = cv_xcalloc(0x110000 >> 11, sizeof **set);
    unsigned char **pg = &(*set)[cp >> 11];
    if (!*pg)
        *pg = cv_xcalloc(256, 1);
    unsigned char *byte = &(*pg)[(cp >> 3) & 255], bit = (unsigned char)(1u << (cp & 7));
    if (*byte & bit)
        return false;
    *byte |= bit;
    return true;
}

static void unmark_all(unsigned char ***set)
{
    for (size_t i = 0; *set && i < 0x110000 >> 11; i++)
        free((*set)[i]);
    free(*set);
    *set = NULL;
}

void cv_pdffont_use(cv_pdffont *pf, uint32_t cp, const cv_cluster *cl)
{
    /* A bit per code point says what is noted already: a document draws
     * tens of thousands of glyphs but a few hundred distinct ones. */
    if (cp > 0x10FFFF || !mark(&pf->seen, cp))
        return;
    if (cl) {
        cv_cluster c = *cl;
        c.cp = cp;
        c.text = c.text ? cv_xstrdup(c.text) : NULL;
        if (pf->ncl == pf->ccl) {
            pf->ccl = pf->ccl ? pf->ccl * 2 : 64;
            pf->cl = cv_xrealloc(pf->cl, pf->ccl * sizeof *pf->cl);
        }
        pf->cl[pf->ncl++] = c;
    }
    if (pf->n == pf->cap) {
        pf->cap = pf->cap ? pf->cap * 2 : 256;
        pf->cps = cv_xrealloc(pf->cps, pf->cap * sizeof *pf->cps);
    }
    pf->cps[pf->n++] = cp;
}

void cv_pdffont_use_wide(cv_pdffont *pf, uint32_t cp, const cv_cluster *cl, int16_t wide)
{
    cv_pdffont_use(pf, cp, cl);
    if (!pf->wide && wide > 0)
        pf->wide = wide;
    if (wide != pf->wide || cp > 0x10FFFF || !mark(&pf->wseen, cp))
        return;
    if (pf->wn == pf->wcap) {
        pf->wcap = pf->wcap ? pf->wcap * 2 : 64;
        pf->wcps = cv_xrealloc(pf->wcps, pf->wcap * sizeof *pf->wcps);
    }
    pf->wcps[pf->wn++] = cp;
}

bool cv_pdffont_twin(const cv_pdffont *pf, int16_t wide)
{
    return wide > 0 && wide == pf->wide && pf->wide_font;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The complex-script glyph noted as `cp`, or NULL. */
static const cv_cluster *cluster(const cv_pdffont *pf, uint32_t cp)
{
    return cv_cluster_find(pf->cl, pf->ncl, cp);
}

unsigned cv_pdffont_glyph(const cv_pdffont *pf, uint32_t cp)
{
    const cv_cluster *c = cluster(pf, cp);
    return c ? c->gid : cv_face_glyph(pf->face, cp);
}

/* The width of the glyph of `cp`, as the layout measured it. */
static int advance(const cv_pdffont *pf, uint32_t cp)
{
    return cv_face_advance(pf->face, cv_pdffont_glyph(pf, cp));
}

void cv_pdffont_seal(cv_pdffont *pf)
{
    if (pf->n)
        qsort(pf->cps, pf->n, sizeof *pf->cps, cmp_u32);
    /* A table for the BMP, which cv_pdffont_cid() reads for every glyph
     * drawn: a binary search cost 70 instructions a glyph. */
    for (size_t i = 0; i < pf->n && pf->cps[i] < 0x10000; i++) {
        if (!pf->bmp)
            pf->bmp = cv_xcalloc(256, sizeof *pf->bmp);
        uint32_t **pg = &pf->bmp[pf->cps[i] >> 8];
        if (!*pg)
            *pg = cv_xcalloc(256, sizeof **pg);
        (*pg)[pf->cps[i] & 0xFF] = (uint32_t)i + 1;
    }
    if (pf->ncl)
        qsort(pf->cl, pf->ncl, sizeof *pf->cl, cv_cluster_order);
    unmark_all(&pf->seen);
}

/* The index of `cp` in pf's sorted code points, or pf->n. */
static size_t find_cp(const cv_pdffont *pf, uint32_t cp)
{
    if (cp < 0x10000 && pf->bmp) {
        const uint32_t *pg = pf->bmp[cp >> 8];
        return pg && pg[cp & 0xFF] ? pg[cp & 0xFF] - 1 : pf->n;
    }
    size_t lo = 0, hi = pf->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pf->cps[mid] < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < pf->n && pf->cps[lo] == cp ? lo : pf->n;
}

unsigned cv_pdffont_cid_of(const cv_pdffont *pf, uint32_t cp)
{
    size_t i = find_cp(pf, cp);
    return i < pf->n ? pf->code[i] : 0;
}

bool cv_pdffont_has(const cv_pdffont *pf, uint32_t cp)
{
    return find_cp(pf, cp) < pf->n;
}

void cv_pdffont_free(cv_pdffont *pf)
{
    for (size_t i = 0; i < pf->ncl; i++)
        free((char *)pf->cl[i].text);
    free(pf->cl);
    pf->cl = NULL;
    pf->ncl = pf->ccl = 0;
    free(pf->wcps);
    unmark_all(&pf->wseen);
    pf->wcps = NULL;
    pf->wn = pf->wcap = 0;
    free(pf->cps);
    free(pf->code);
    unmark_all(&pf->seen);
    for (size_t i = 0; pf->bmp && i < 256; i++)
        free(pf->bmp[i]);
    free(pf->bmp);
    pf->bmp = NULL;
    pf->cps = NULL;
    pf->code = NULL;
    pf->n = pf->cap = 0;
}

/* A subset tag: six capitals from a hash of the face and its code points,
 * so the same document always gets the same names. */
static void subset_tag(const cv_pdffont *pf, char tag[7])
{
    uint64_t h = 1469598103934665603ull;
    for (const char *p = pf->face->psname ? pf->face->psname : ""; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    for (size_t i = 0; i < pf->n; i++)
        h = (h ^ pf->cps[i]) * 1099511628211ull;
    for (int i = 0; i < 6; i++) {
        tag[i] = (char)('A' + h % 26);
        h /= 26;
    }
    tag[6] = 0;
}

/* The PostScript name, keeping only what a PDF name may hold plainly. */
static void base_name(const cv_pdffont *pf, char *out, size_t size)
{
    char tag[7];
    subset_tag(pf, tag);
    size_t k = (size_t)snprintf(out, size, "%s+", tag);
    for (const char *p = pf->face->psname ? pf->face->psname : "Font"; *p && k + 1 < size; p++)
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
            *p == '-' || *p == '_')
            out[k++] = *p;
    out[k] = 0;
}

/* A stream's bytes kept in one buffer of ours (cv_pdffont_own_stream):
 * libharu's memory stream copies each write byte by byte into 4 KiB
 * pieces, and reads them back the same way when it deflates them.  The
 * stream object stays libharu's (its dictionary holds it); its functions
 * are these.  They read as its memory stream does: HPDF_STREAM_EOF with
 * what is left when less than was asked for remains. */
typedef struct ownstream {
    char *s;
    size_t n, cap, r;
} ownstream;

static HPDF_STATUS os_write(HPDF_Stream st, const HPDF_BYTE *p, HPDF_UINT n)
{
    ownstream *o = st->attr;
    if (o->n + n > o->cap) {
        o->cap = (o->n + n) * 2 + 4096;
        o->s = cv_xrealloc(o->s, o->cap);
    }
    memcpy(o->s + o->n, p, n);
    o->n += n;
    return HPDF_OK;
}

static HPDF_STATUS os_read(HPDF_Stream st, HPDF_BYTE *p, HPDF_UINT *n)
{
    ownstream *o = st->attr;
    size_t k = o->n - o->r < *n ? o->n - o->r : *n;
    bool all = k == *n;
    if (k)
        memcpy(p, o->s + o->r, k);
    o->r += k;
    *n = (HPDF_UINT)k;
    return all ? HPDF_OK : HPDF_STREAM_EOF;
}

static HPDF_STATUS os_seek(HPDF_Stream st, HPDF_INT pos, HPDF_WhenceMode mode)
{
    ownstream *o = st->attr;
    long at = mode == HPDF_SEEK_CUR ? (long)o->r + pos
              : mode == HPDF_SEEK_END ? (long)o->n - pos : pos;
    if (at < 0 || (size_t)at > o->n)
        return HPDF_STREAM_EOF;
    o->r = (size_t)at;
    return HPDF_OK;
}

static HPDF_INT32 os_tell(HPDF_Stream st)
{
    return (HPDF_INT32)((ownstream *)st->attr)->r;
}

static HPDF_UINT32 os_size(HPDF_Stream st)
{
    return (HPDF_UINT32)((ownstream *)st->attr)->n;
}

static void os_free(HPDF_Stream st)
{
    ownstream *o = st->attr;
    if (o)
        free(o->s);
    free(o);
    st->attr = NULL;
}

void cv_pdffont_own_stream(HPDF_Stream st)
{
    if (!st || st->type != HPDF_STREAM_MEMORY || st->size || !st->free_fn)
        return;
    st->free_fn(st);                    /* its pieces and attributes */
    st->attr = cv_xcalloc(1, sizeof(ownstream));
    st->type = HPDF_STREAM_CALLBACK;    /* no longer its memory stream */
    st->write_fn = os_write;
    st->read_fn = os_read;
    st->seek_fn = os_seek;
    st->tell_fn = os_tell;
    st->size_fn = os_size;
    st->free_fn = os_free;
}

static HPDF_Dict new_stream(HPDF_Doc pdf, bool compress)
{
    HPDF_Dict s = HPDF_DictStream_New(pdf->mmgr, pdf->xref);
    if (s)
        cv_pdffont_own_stream(s->stream);
    if (s && compress)
        s->filter = HPDF_STREAM_FILTER_FLATE_DECODE;
    return s;
}

static HPDF_Dict new_indirect_dict(HPDF_Doc pdf)
{
    HPDF_Dict d = HPDF_Dict_New(pdf->mmgr);
    if (d && HPDF_Xref_Add(pdf->xref, d) != HPDF_OK)
        return NULL;           /* HPDF_Xref_Add freed it */
    return d;
}

/* The UTF-16 value for cp into `out` (hex digits): cp itself, or the text
 * a cluster of a complex script carries (shape.h: a Devanagari conjunct,
 * an Arabic letter in its joining form, a lam-alef, a mark). */
/* `v` in upper-case hex, at least `digits` digits, at o: past them (the
 * ToUnicode map's thousands of numbers, without printf). */
static char *hex(char *o, unsigned long v, int digits)
{
    static const char x[] = "0123456789ABCDEF";
    int n = 1;
    while (n < 16 && v >> (4 * n))
        n++;
    if (n < digits)
        n = digits;
    for (int k = n - 1; k >= 0; k--)
        *o++ = x[(v >> (4 * k)) & 15];
    return o;
}

static void utf16(const cv_pdffont *pf, uint32_t cp, char *out, size_t size)
{
    uint32_t cps[8] = {cp};
    size_t n = 1;
    char *o = out;
    const cv_cluster *cl = cluster(pf, cp);
    const char *t = cl ? cl->text : NULL;
    if (t) {
        size_t len = strlen(t);
        n = 0;
        for (size_t i = 0; i < len && n < 8;)
            i += cv_utf8_decode(t + i, len - i, &cps[n++]);
    }
    /* (8 code points of 8 digits at most: `size` is 72) */
    for (size_t k = 0; k < n && (size_t)(o - out) + 8 < size; k++) {
        uint32_t c = cps[k];
        if (c > 0xFFFF) {
            uint32_t v = c - 0x10000;
            o = hex(o, 0xD800 + (v >> 10), 4);
            o = hex(o, 0xDC00 + (v & 0x3FF), 4);
        } else {
            o = hex(o, c, 4);
        }
    }
    *o = 0;
}

/* The ToUnicode CMap over `n` (code, code point) pairs sorted by code.
 * Runs of consecutive codes and code points (a-z, 0-9) become one bfrange
 * each, the rest bfchar entries, at most 100 to a block. */
typedef struct cpair {
    unsigned code;
    uint32_t cp;
} cpair;

static int cmp_code(const void *a, const void *b)
{
    const cpair *x = a, *y = b;
    if (x->code != y->code)
        return (x->code > y->code) - (x->code < y->code);
    return (x->cp > y->cp) - (x->cp < y->cp);
}

static bool write_tounicode(HPDF_Stream s, const cv_pdffont *pf, const cpair *pr, size_t n,
                            bool one_byte)
{
    int digits = one_byte ? 2 : 4;
    char line[96], u[72];
    snprintf(line, sizeof line, "1 begincodespacerange\n%s\nendcodespacerange\n",
             one_byte ? "<00> <FF>" : "<0000> <FFFF>");
    HPDF_STATUS r = HPDF_Stream_WriteStr(s,
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n");
    if (r == HPDF_OK)
        r = HPDF_Stream_WriteStr(s, line);
    /* Two passes: ranges (runs of 3 or more, in the BMP, where neither the
     * codes nor the code points cross a 256 boundary), then single codes. */
    for (int pass = 0; pass < 2 && r == HPDF_OK; pass++) {
        size_t count = 0, bn = 0, i = 0;
        char block[100 * 96];
        while (i < n && r == HPDF_OK) {
            size_t j = i + 1;
            while (j < n && pr[j].code == pr[j - 1].code + 1 && pr[j].cp == pr[j - 1].cp + 1 &&
                   pr[j].cp <= 0xFFFF && (pr[j].cp & 0xFF) && (pr[j].code & 0xFF))
                j++;
            bool range = j - i >= 3;
            for (size_t k = i; range == (pass == 0) && k < (range ? i + 1 : j); k++) {
                utf16(pf, pr[k].cp, u, sizeof u);
                char *o = block + bn;
                *o++ = '<';
                o = hex(o, range ? pr[i].code : pr[k].code, digits);
                if (range) {
                    memcpy(o, "> <", 3);
                    o = hex(o + 3, pr[j - 1].code, digits);
                }
                memcpy(o, "> <", 3);
                o += 3;
                size_t ul = strlen(u);
                memcpy(o, u, ul);
                o += ul;
                memcpy(o, ">\n", 2);
                bn = (size_t)(o + 2 - block);
                if (++count == 100 || (k + 1 == (range ? i + 1 : j) && j == n)) {
                    snprintf(line, sizeof line, "%zu begin%s\n", count,
                             pass == 0 ? "bfrange" : "bfchar");
                    r = HPDF_Stream_WriteStr(s, line);
                    if (r == HPDF_OK)
                        r = HPDF_Stream_Write(s, (const HPDF_BYTE *)block, (HPDF_UINT)bn);
                    if (r == HPDF_OK)
                        r = HPDF_Stream_WriteStr(s, pass == 0 ? "endbfrange\n" : "endbfchar\n");
                    count = bn = 0;
                }
            }
            i = j;
        }
        if (count && r == HPDF_OK) {
            snprintf(line, sizeof line, "%zu begin%s\n", count, pass == 0 ? "bfrange" : "bfchar");
            r = HPDF_Stream_WriteStr(s, line);
            if (r == HPDF_OK)
                r = HPDF_Stream_Write(s, (const HPDF_BYTE *)block, (HPDF_UINT)bn);
            if (r == HPDF_OK)
                r = HPDF_Stream_WriteStr(s, pass == 0 ? "endbfrange\n" : "endbfchar\n");
        }
    }
    if (r == HPDF_OK)
        r = HPDF_Stream_WriteStr(s, "endcmap\nCMapName currentdict /CMap defineresource pop\n"
                                    "end\nend\n");
    return r == HPDF_OK;
}

/* The encoding of fonts with at most 255 CIDs: one byte per code, code =
 * CID.  It is named OneByteIdentityH, the name pdfminer knows it by (it
 * reads CMaps by name, not from the stream); other readers read the
 * stream.  One object serves every such font of the document. */
static HPDF_Dict one_byte_cmap(HPDF_Doc pdf, HPDF_Dict *cache)
{
    if (*cache)
        return *cache;
    HPDF_Dict s = new_stream(pdf, true);
    HPDF_Dict info = s ? HPDF_Dict_New(pdf->mmgr) : NULL;
    if (!info)
        return NULL;
    bool ok = HPDF_Dict_Add(info, "Registry", HPDF_String_New(pdf->mmgr, "Adobe", NULL)) == HPDF_OK &&
              HPDF_Dict_Add(info, "Ordering", HPDF_String_New(pdf->mmgr, "Identity", NULL)) == HPDF_OK &&
              HPDF_Dict_AddNumber(info, "Supplement", 0) == HPDF_OK;
    if (!ok) {
        HPDF_Dict_Free(info);
        return NULL;
    }
    ok = HPDF_Dict_AddName(s, "Type", "CMap") == HPDF_OK &&
         HPDF_Dict_AddName(s, "CMapName", "OneByteIdentityH") == HPDF_OK &&
         HPDF_Dict_Add(s, "CIDSystemInfo", info) == HPDF_OK &&
         HPDF_Dict_AddNumber(s, "WMode", 0) == HPDF_OK &&
         HPDF_Stream_WriteStr(s->stream,
             "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
             "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> def\n"
             "/CMapName /OneByteIdentityH def\n/CMapType 1 def\n/WMode 0 def\n"
             "1 begincodespacerange\n<00> <FF>\nendcodespacerange\n"
             "1 begincidrange\n<00> <FF> 0\nendcidrange\n"
             "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n") == HPDF_OK;
    return ok ? (*cache = s) : NULL;
}

/* Subset the face to the code points; the caller destroys the face and
 * the plan, which maps the face's glyph ids to the subset's. */
static hb_face_t *subset(const cv_pdffont *pf, hb_subset_plan_t **plan)
{
    hb_subset_input_t *in = hb_subset_input_create_or_fail();
    if (!in)
        return NULL;
    hb_set_t *uni = hb_subset_input_unicode_set(in);
    hb_set_t *gids = hb_subset_input_glyph_set(in);
    for (size_t i = 0; i < pf->n; i++)
        if (cluster(pf, pf->cps[i]))            /* a complex script's glyph */
            hb_set_add(gids, cv_pdffont_glyph(pf, pf->cps[i]));
        else
            hb_set_add(uni, pf->cps[i]);
    /* CFF charstrings are written out whole, without subroutines: for a
     * CJK face it is several times faster than subsetting the subroutines
     * of tens of thousands of glyphs, and the result is no bigger. */
    hb_subset_input_set_flags(in, HB_SUBSET_FLAGS_NO_HINTING |
                                      (pf->face->cff ? HB_SUBSET_FLAGS_DESUBROUTINIZE : 0));
    /* Positions are fixed in the PDF: shaping tables are dead weight. */
    hb_set_t *drop = hb_subset_input_set(in, HB_SUBSET_SETS_DROP_TABLE_TAG);
    /* A CIDFontType2 reaches its glyphs through the CIDToGIDMap and takes
     * its metrics from the PDF: no cmap, name, post or OS/2 table either. */
    static const char *const tables[] = {"GSUB", "GPOS", "GDEF", "kern", "BASE", "JSTF",
                                         "DSIG", "hdmx", "LTSH", "VDMX", "PCLT", "vhea",
                                         "vmtx", "gasp", "cmap", "name", "post", "OS/2"};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
        hb_set_add(drop, hb_tag_from_string(tables[i], 4));
    *plan = hb_subset_plan_create_or_fail((hb_face_t *)pf->face->hb_face, in);
    hb_subset_input_destroy(in);
    return *plan ? hb_subset_plan_execute_or_fail(*plan) : NULL;
}

/* libharu's width of a glyph of the subset (components of composites
 * have no code point): truncated thousandths, as shape.h measures. */
static int sub_advance(hb_font_t *sf, unsigned upem, unsigned g)
{
    return (int)((long)hb_font_get_glyph_h_advance(sf, g) * 1000 / (long)upem);
}

/* Choose each code point's code.  When the subset gives every code point a
 * glyph of its own, codes are the subset's glyph ids and the CIDToGIDMap
 * is /Identity; otherwise (a space and a no-break space sharing a glyph)
 * codes are 1..n in code-point order and a map stream leads to the
 * glyphs.  Returns whether codes are glyph ids; fills gid[] either way. */
static bool choose_codes(cv_pdffont *pf, const hb_map_t *to_new, unsigned *gid,
                         const uint16_t *cids)
{
    if (cids) {
        /* CFF: the codes are the CIDs of the subset's charset; code points
         * sharing a glyph share its code. */
        unsigned max = 0;
        for (size_t i = 0; i < pf->n; i++) {
            hb_codepoint_t g = hb_map_get(to_new, cv_pdffont_glyph(pf, pf->cps[i]));
            gid[i] = g == HB_MAP_VALUE_INVALID ? 0 : g;
            pf->code[i] = cids[gid[i]];
            if (pf->code[i] > max)
                max = pf->code[i];
        }
        pf->one_byte = max < 256;
        return false;
    }
    bool identity = true;
    unsigned top = 0;
    for (size_t i = 0; i < pf->n; i++) {
        hb_codepoint_t g = hb_map_get(to_new, cv_pdffont_glyph(pf, pf->cps[i]));
        gid[i] = g == HB_MAP_VALUE_INVALID ? 0 : g;
        if (gid[i] <= 0xFFFF && gid[i] > top)
            top = gid[i];
    }
    /* A bit per glyph of the subset, whose ids are dense. */
    unsigned char *seen = cv_xcalloc(top / 8 + 1, 1);
    for (size_t i = 0; i < pf->n; i++) {
        if (!gid[i] || gid[i] > 0xFFFF || (seen[gid[i] >> 3] & (1u << (gid[i] & 7))))
            identity = false;
        else
            seen[gid[i] >> 3] |= (unsigned char)(1u << (gid[i] & 7));
    }
    free(seen);
    unsigned max = 0;
    for (size_t i = 0; i < pf->n; i++) {
        pf->code[i] = identity ? gid[i] : (unsigned)i + 1;
        if (pf->code[i] > max)
            max = pf->code[i];
    }
    pf->one_byte = max < 256;
    return identity;
}

/* One face being embedded: the subset and what is decided about it. */
typedef struct embed {
    HPDF_Doc pdf;
    cv_pdffont *pf;
    hb_face_t *sub;
    hb_font_t *sfont;
    unsigned upem;
    unsigned *gid;           /* subset glyph of each code point */
    cpair *pairs;            /* (code, code point), sorted by code */
    unsigned lo, hi;         /* the codes used */
    bool identity;           /* codes are the subset's glyph ids */
    bool cff;                /* CFF outlines: a CIDFontType0, codes are CIDs */
    size_t npairs;           /* pairs with distinct codes (CFF: fewer than n
                                when code points share a glyph) */
    char name[128];          /* the subset's font name */
} embed;

/* The font program, as hb-subset made it: the whole TrueType font, or the
 * bare CFF table of an OpenType one (FontFile3 /CIDFontType0C).  A CFF
 * program is stored as it is, not deflated.  Its charstrings,
 * written out without subroutines, are dense: deflate takes a CJK face's
 * subset down by a tenth (98 KB to 89 KB for fang-zh's two faces), at the
 * cost of some 3 ms, as much as laying out the résumé. */
static HPDF_Dict program_stream(embed *e, const unsigned char *data, size_t len)
{
    HPDF_Dict file = len > 0 ? new_stream(e->pdf, !e->cff) : NULL;
    bool ok = file && HPDF_Stream_Write(file->stream, data, (HPDF_UINT)len) == HPDF_OK &&
              (e->cff ? HPDF_Dict_AddName(file, "Subtype", "CIDFontType0C")
                      : HPDF_Dict_AddNumber(file, "Length1", (HPDF_INT32)len)) == HPDF_OK;
    return ok ? file : NULL;
}

static HPDF_Dict font_program(embed *e)
{
    unsigned len;
    hb_blob_t *blob = e->cff ? hb_face_reference_table(e->sub, HB_TAG('C', 'F', 'F', ' '))
                             : hb_face_reference_blob(e->sub);
    const char *data = hb_blob_get_data(blob, &len);
    HPDF_Dict file = program_stream(e, (const unsigned char *)data, len);
    hb_blob_destroy(blob);
    return file;
}

/* A TrueType font whose every advance is `delta` font units more: the
 * hmtx table's advances, in a malloc'd copy (NULL when it has none). */
static unsigned char *widen_sfnt(const unsigned char *f, size_t n, long delta)
{
    if (n < 12)
        return NULL;
    unsigned count = (unsigned)f[4] << 8 | f[5];
    size_t hhea = 0, hmtx = 0, hmtx_len = 0;
    for (unsigned i = 0; i < count && 12 + 16 * (size_t)(i + 1) <= n; i++) {
        const unsigned char *rec = f + 12 + 16 * i;
        size_t off = (size_t)rec[8] << 24 | (size_t)rec[9] << 16 | (size_t)rec[10] << 8 | rec[11];
        size_t l = (size_t)rec[12] << 24 | (size_t)rec[13] << 16 | (size_t)rec[14] << 8 | rec[15];
        if (off + l > n)
            return NULL;
        if (!memcmp(rec, "hhea", 4) && l >= 36)
            hhea = off;
        else if (!memcmp(rec, "hmtx", 4))
            hmtx = off, hmtx_len = l;
    }
    if (!hhea || !hmtx)
        return NULL;
    size_t nm = (size_t)f[hhea + 34] << 8 | f[hhea + 35];
    if (4 * nm > hmtx_len)
        return NULL;
    unsigned char *w = cv_xmalloc(n);
    memcpy(w, f, n);
    for (size_t i = 0; i < nm; i++) {
        long a = ((long)w[hmtx + 4 * i] << 8 | w[hmtx + 4 * i + 1]) + delta;
        if (a < 0 || a > 0xFFFF) {
            free(w);
            return NULL;
        }
        w[hmtx + 4 * i] = (unsigned char)(a >> 8);
        w[hmtx + 4 * i + 1] = (unsigned char)a;
    }
    return w;
}

/* The twin's program: the subset with every glyph pf->wide thousandths of
 * an em wider, so that its own advances agree with the twin's /W (PDF/A
 * asks it, and MuPDF reads them); NULL when that cannot be made exactly. */
static HPDF_Dict wide_program(embed *e, hb_face_t *sub)
{
    long units = (long)e->pf->wide * (long)e->upem;
    if (units % 1000)
        return NULL;                 /* not a whole number of font units */
    unsigned len;
    hb_blob_t *blob = e->cff ? hb_face_reference_table(sub, HB_TAG('C', 'F', 'F', ' '))
                             : hb_face_reference_blob(sub);
    const unsigned char *data = (const unsigned char *)hb_blob_get_data(blob, &len);
    unsigned char *w = NULL;
    size_t wlen = len;
    if (e->cff)
        cv_cff_widen(data, len, units / 1000, &w, &wlen);
    else
        w = widen_sfnt(data, len, units / 1000);
    hb_blob_destroy(blob);
    HPDF_Dict file = w ? program_stream(e, w, wlen) : NULL;
    free(w);
    return file;
}

/* Code -> subset glyph as big-endian pairs (NULL for the identity, with
 * *ok unchanged). */
static HPDF_Dict glyph_map(embed *e, bool *ok)
{
    if (e->identity || e->cff)
        return NULL;
    HPDF_Dict map = new_stream(e->pdf, true);
    if (!map)
        return *ok = false, NULL;
    unsigned char *be = cv_xcalloc((size_t)e->hi + 1, 2);
    for (size_t i = 0; i < e->pf->n; i++) {
        be[2 * e->pf->code[i]] = (unsigned char)(e->gid[i] >> 8);
        be[2 * e->pf->code[i] + 1] = (unsigned char)e->gid[i];
    }
    *ok = HPDF_Stream_Write(map->stream, be, (HPDF_UINT)(((size_t)e->hi + 1) * 2)) == HPDF_OK;
    free(be);
    return map;
}

/* Which CIDs the font program `prog` has (PDF/A's CIDSet), read from the
 * program itself, so that it names every glyph the subset keeps, whatever
 * kept it (the components of composite glyphs, what a CJK subset keeps):
 * a CFF program's charset CIDs; a TrueType program reached by glyph id
 * (/CIDToGIDMap /Identity) every glyph id below its glyph count; else
 * every code of the map stream whose glyph the program has. */
static HPDF_Dict cid_set_of(embed *e, hb_face_t *prog, bool *ok)
{
    if (!e->pf->cidset)
        return NULL;
    unsigned ng = hb_face_get_glyph_count(prog);
    uint16_t *cids = NULL;
    unsigned hi = 0;
    if (e->cff) {
        unsigned len;
        hb_blob_t *cffb = hb_face_reference_table(prog, HB_TAG('C', 'F', 'F', ' '));
        const unsigned char *data = (const unsigned char *)hb_blob_get_data(cffb, &len);
        cids = cv_xmalloc((ng ? ng : 1) * sizeof *cids);
        bool read = ng && cv_cff_cids(data, len, ng, cids, NULL);
        hb_blob_destroy(cffb);
        if (!read) {
            free(cids);
            return *ok = false, NULL;
        }
        for (unsigned g = 0; g < ng; g++)
            hi = cids[g] > hi ? cids[g] : hi;
    } else if (e->identity) {
        hi = ng ? ng - 1 : 0;
    } else {
        hi = e->hi;
    }
    HPDF_Dict set = new_stream(e->pdf, true);
    if (!set) {
        free(cids);
        return *ok = false, NULL;
    }
    size_t setlen = (size_t)hi / 8 + 1;
    unsigned char *bits = cv_xcalloc(setlen, 1);
    bits[0] = 0x80;
    if (e->cff)
        for (unsigned g = 0; g < ng; g++)
            bits[cids[g] / 8] |= (unsigned char)(0x80u >> (cids[g] % 8));
    else if (e->identity)
        for (unsigned g = 0; g < ng; g++)
            bits[g / 8] |= (unsigned char)(0x80u >> (g % 8));
    else {
        /* Every code of the map: the glyph it maps to, .notdef where it
         * names none. */
        unsigned *gid_of = cv_xcalloc((size_t)hi + 1, sizeof *gid_of);
        for (size_t i = 0; i < e->pf->n; i++)
            gid_of[e->pf->code[i]] = e->gid[i];
        for (unsigned c = 0; c <= hi; c++)
            if (gid_of[c] < ng)
                bits[c / 8] |= (unsigned char)(0x80u >> (c % 8));
        free(gid_of);
    }
    *ok = HPDF_Stream_Write(set->stream, bits, (HPDF_UINT)setlen) == HPDF_OK;
    free(bits);
    free(cids);
    return set;
}

/* The font descriptor: names, box, metrics, the program and the CIDSet. */
static HPDF_Dict descriptor(embed *e, HPDF_Dict file, HPDF_Dict set)
{
    const cv_face *f = e->pf->face;
    HPDF_Dict desc = new_indirect_dict(e->pdf);
    HPDF_Array bbox = HPDF_Array_New(e->pdf->mmgr);
    if (!desc || !bbox) {
        if (bbox)
            HPDF_Array_Free(bbox);
        return NULL;
    }
    double sc = 1000.0 / f->upem;
    for (int i = 0; i < 4; i++)
        HPDF_Array_AddNumber(bbox, (HPDF_INT32)(f->bbox[i] * sc));
    double angle = f->italic_angle / 65536.0;
    /* Symbolic (4): the font's own glyphs; italic (64); fixed pitch (1). */
    int flags = 4 | (f->italic || angle != 0 ? 64 : 0) | (f->fixed_pitch ? 1 : 0);
    /* StemV is not in TrueType fonts; estimate it from the weight class
     * as other writers do. */
    int weight = f->weight >= 0 ? f->weight : (f->bold ? 700 : 400);
    int stemv = 10 + 220 * (weight - 50) * (weight - 50) / (900 * 900);
    bool ok = HPDF_Dict_AddName(desc, "Type", "FontDescriptor") == HPDF_OK &&
              HPDF_Dict_AddName(desc, "FontName", e->name) == HPDF_OK &&
              HPDF_Dict_AddNumber(desc, "Flags", flags) == HPDF_OK &&
              HPDF_Dict_Add(desc, "FontBBox", bbox) == HPDF_OK &&
              HPDF_Dict_AddReal(desc, "ItalicAngle", (HPDF_REAL)angle) == HPDF_OK &&
              HPDF_Dict_AddNumber(desc, "Ascent", f->ascender) == HPDF_OK &&
              HPDF_Dict_AddNumber(desc, "Descent", f->descender) == HPDF_OK &&
              HPDF_Dict_AddNumber(desc, "CapHeight", f->cap_height) == HPDF_OK &&
              HPDF_Dict_AddNumber(desc, "XHeight", f->x_height) == HPDF_OK &&
              HPDF_Dict_AddNumber(desc, "StemV", stemv) == HPDF_OK &&
              HPDF_Dict_Add(desc, e->cff ? "FontFile3" : "FontFile2", file) == HPDF_OK &&
              (!set || HPDF_Dict_Add(desc, "CIDSet", set) == HPDF_OK);
    return ok ? desc : NULL;
}

/* The CIDFont's /W and /CIDToGIDMap, written by its write_fn: libharu
 * would make an object of every width (thousands a document), write each
 * with a few calls and free it.  The text is libharu's way of writing an
 * array -- "[ ", each element and a space, "]" -- made once; /CIDToGIDMap
 * also stays in the dictionary, hidden from libharu's writer (the tests
 * read it there).  The text grows in an arena.h cv_buf. */

/* An integer as libharu writes it (HPDF_IToA, within its limits), and a
 * space. */
static void wint(cv_buf *t, long v)
{
    if (v > 2147483647L)
        v = 2147483647L;
    if (v < -2147483647L)
        v = -2147483647L;
    char b[24], *e = b + sizeof b - 1;
    *e = ' ';
    char *p = cv_pdf_int(e, v);
    cv_buf_put(t, p, (size_t)(e + 1 - p));
}

/* /W in groups of consecutive codes, "/W [ c [ w ... ] c' [ w ... ] ]", for
 * `n` (code, code point) pairs sorted by code, each width `extra` more. */
static char *sparse_widths(embed *e, const cpair *pairs, size_t n, int extra)
{
    const cv_pdffont *pf = e->pf;
    cv_buf t = {0};
    cv_buf_put(&t, "/W [ ", 5);
    for (size_t i = 0; i < n;) {
        wint(&t, (HPDF_INT32)pairs[i].code);
        cv_buf_put(&t, "[ ", 2);
        size_t j = i;
        do {
            wint(&t, advance(pf, pairs[j].cp) + extra);
            j++;
        } while (j < n && pairs[j].code == pairs[j - 1].code + 1);
        cv_buf_put(&t, "] ", 2);
        i = j;
    }
    cv_buf_put(&t, "]\n", 2);
    return t.s;
}

/* /W from the lowest code to the highest, "/W [ lo [ w ... ] ]", as
 * measured (glyphs without a code point in between, parts of composites,
 * at their own width). */
static char *widths(embed *e, int extra)
{
    const cv_pdffont *pf = e->pf;
    if (e->cff)     /* CIDs of a CJK face spread over tens of thousands: a
                       group per run of consecutive CIDs. */
        return sparse_widths(e, e->pairs, e->npairs, extra);
    cv_buf t = {0};
    cv_buf_put(&t, "/W [ ", 5);
    wint(&t, (HPDF_INT32)e->lo);
    cv_buf_put(&t, "[ ", 2);
    size_t k = 0;
    for (unsigned c = e->lo; c <= e->hi; c++) {
        if (k < e->npairs && e->pairs[k].code == c) {
            wint(&t, advance(pf, e->pairs[k].cp) + extra);
            k++;
        } else {
            wint(&t, e->identity ? sub_advance(e->sfont, e->upem, c) + extra : 0);
        }
    }
    cv_buf_put(&t, "] ]\n", 4);
    return t.s;
}

static HPDF_STATUS write_widths(HPDF_Dict d, HPDF_Stream s)
{
    const char *t = d->attr;
    return HPDF_Stream_Write(s, (const HPDF_BYTE *)t, (HPDF_UINT)strlen(t));
}

static void free_widths(HPDF_Dict d)
{
    free(d->attr);
    d->attr = NULL;
}

/* The CIDFont; `w` is its /W entry (sparse_widths, widths), taken. */
static HPDF_Dict cid_font(embed *e, HPDF_Dict desc, HPDF_Dict map, char *w)
{
    HPDF_MMgr mm = e->pdf->mmgr;
    HPDF_Dict cid = w ? new_indirect_dict(e->pdf) : NULL;
    HPDF_Dict info = cid ? HPDF_Dict_New(mm) : NULL;
    if (!cid || !info) {
        if (info)
            HPDF_Dict_Free(info);
        free(w);
        return NULL;
    }
    bool ok = HPDF_Dict_Add(info, "Registry", HPDF_String_New(mm, "Adobe", NULL)) == HPDF_OK &&
              HPDF_Dict_Add(info, "Ordering", HPDF_String_New(mm, "Identity", NULL)) == HPDF_OK &&
              HPDF_Dict_AddNumber(info, "Supplement", 0) == HPDF_OK;
    ok = ok && HPDF_Dict_AddName(cid, "Type", "Font") == HPDF_OK &&
         HPDF_Dict_AddName(cid, "Subtype", e->cff ? "CIDFontType0" : "CIDFontType2") == HPDF_OK &&
         HPDF_Dict_AddName(cid, "BaseFont", e->name) == HPDF_OK &&
         HPDF_Dict_Add(cid, "CIDSystemInfo", info) == HPDF_OK &&
         HPDF_Dict_Add(cid, "FontDescriptor", desc) == HPDF_OK &&
         HPDF_Dict_AddNumber(cid, "DW", 1000) == HPDF_OK &&
         (e->cff ? HPDF_OK
          : map  ? HPDF_Dict_Add(cid, "CIDToGIDMap", map)
                 : HPDF_Dict_AddName(cid, "CIDToGIDMap", "Identity")) == HPDF_OK;
    /* /W, then /CIDToGIDMap as the dictionary holds it. */
    cv_buf t = {w, strlen(w), strlen(w) + 1};
    HPDF_DictElement m = ok && !e->cff ? HPDF_List_ItemAt(cid->list, cid->list->count - 1) : NULL;
    if (m) {
        HPDF_Obj_Header *h = m->value;
        cv_buf_put(&t, "/CIDToGIDMap ", 13);
        if (map) {
            char ref[32];
            snprintf(ref, sizeof ref, "%u %u R\n", (unsigned)(map->header.obj_id & 0x00FFFFFF),
                     (unsigned)map->header.gen_no);
            cv_buf_put(&t, ref, strlen(ref));
        } else {
            cv_buf_put(&t, "/Identity\n", 10);
        }
        h->obj_id |= HPDF_OTYPE_HIDDEN;
    }
    cid->attr = t.s;
    cid->write_fn = write_widths;
    cid->free_fn = free_widths;
    return ok ? cid : NULL;
}

/* The Type0 font the pages name. */
static HPDF_Dict type0(embed *e, HPDF_Dict cid, HPDF_Dict tounicode, HPDF_Dict *cmap1)
{
    HPDF_Dict enc = e->pf->one_byte ? one_byte_cmap(e->pdf, cmap1) : NULL;
    if (e->pf->one_byte && !enc)
        return NULL;
    HPDF_Dict font = new_indirect_dict(e->pdf);
    HPDF_Array desc_fonts = font ? HPDF_Array_New(e->pdf->mmgr) : NULL;
    if (!font || !desc_fonts || HPDF_Array_Add(desc_fonts, cid) != HPDF_OK) {
        if (desc_fonts)
            HPDF_Array_Free(desc_fonts);
        return NULL;
    }
    bool ok = HPDF_Dict_AddName(font, "Type", "Font") == HPDF_OK &&
              HPDF_Dict_AddName(font, "Subtype", "Type0") == HPDF_OK &&
              HPDF_Dict_AddName(font, "BaseFont", e->name) == HPDF_OK &&
              (enc ? HPDF_Dict_Add(font, "Encoding", enc)
                   : HPDF_Dict_AddName(font, "Encoding", "Identity-H")) == HPDF_OK &&
              HPDF_Dict_Add(font, "DescendantFonts", desc_fonts) == HPDF_OK &&
              HPDF_Dict_Add(font, "ToUnicode", tounicode) == HPDF_OK;
    return ok ? font : NULL;
}

/* The twin of the font, for the glyphs drawn wider (the gap between Han
 * and Latin, wrap.h): a subset of the subset to just those glyphs, at the
 * same glyph ids (so the same codes, CIDToGIDMap and CIDs), every advance
 * in it pf->wide thousandths more, and /W and a CIDSet for those codes.
 * NULL when it cannot be made; those glyphs are then drawn from the font
 * with the gap as kerning. */
static HPDF_Dict twin(embed *e, HPDF_Dict map, HPDF_Dict tounicode, HPDF_Dict *cmap1)
{
    cv_pdffont *pf = e->pf;
    cpair *tp = cv_xmalloc((pf->wn ? pf->wn : 1) * sizeof *tp);
    hb_subset_input_t *in = hb_subset_input_create_or_fail();
    if (!in) {
        free(tp);
        return NULL;
    }
    hb_set_t *gids = hb_subset_input_glyph_set(in);
    size_t n = 0;
    for (size_t k = 0; k < pf->wn; k++) {
        size_t lo = 0, hi = pf->n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (pf->cps[mid] < pf->wcps[k])
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < pf->n && pf->cps[lo] == pf->wcps[k] && e->gid[lo]) {
            hb_set_add(gids, e->gid[lo]);
            tp[n++] = (cpair){pf->code[lo], pf->wcps[k]};
        }
    }
    qsort(tp, n, sizeof *tp, cmp_code);
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (!m || tp[m - 1].code != tp[k].code)
            tp[m++] = tp[k];
    hb_subset_input_set_flags(in, HB_SUBSET_FLAGS_NO_HINTING | HB_SUBSET_FLAGS_RETAIN_GIDS |
                                      (e->cff ? HB_SUBSET_FLAGS_DESUBROUTINIZE : 0));
    hb_face_t *sub2 = m ? hb_subset_or_fail(e->sub, in) : NULL;
    hb_subset_input_destroy(in);
    bool ok = true;
    HPDF_Dict file = sub2 ? wide_program(e, sub2) : NULL;
    HPDF_Dict set = file ? cid_set_of(e, sub2, &ok) : NULL;
    HPDF_Dict desc = file && ok ? descriptor(e, file, set) : NULL;
    HPDF_Dict cid = desc ? cid_font(e, desc, map, sparse_widths(e, tp, m, pf->wide)) : NULL;
    HPDF_Dict font = cid ? type0(e, cid, tounicode, cmap1) : NULL;
    hb_face_destroy(sub2);
    free(tp);
    return font;
}

bool cv_pdffont_embed(HPDF_Doc pdf, cv_pdffont *pf, HPDF_Dict *cmap1, cv_error *err)
{
    hb_subset_plan_t *plan = NULL;
    embed e = {.pdf = pdf, .pf = pf, .sub = subset(pf, &plan), .cff = pf->face->cff};
    if (!e.sub) {
        hb_subset_plan_destroy(plan);
        return cv_error_at(err, (cv_pos){pf->face->path, 0, 0},
                           "HarfBuzz cannot subset this font (it is probably damaged)");
    }
    e.sfont = hb_font_create(e.sub);
    e.upem = hb_face_get_upem(e.sub);
    size_t n = pf->n ? pf->n : 1;
    pf->code = cv_xmalloc(n * sizeof *pf->code);
    e.gid = cv_xmalloc(n * sizeof *e.gid);
    e.pairs = cv_xmalloc(n * sizeof *e.pairs);
    /* A CFF program says each glyph's CID in its charset. */
    uint16_t *cids = NULL;
    if (e.cff) {
        unsigned len, ng = hb_face_get_glyph_count(e.sub);
        hb_blob_t *cffb = hb_face_reference_table(e.sub, HB_TAG('C', 'F', 'F', ' '));
        const unsigned char *data = (const unsigned char *)hb_blob_get_data(cffb, &len);
        cids = cv_xmalloc((ng ? ng : 1) * sizeof *cids);
        bool read = cv_cff_cids(data, len, ng, cids, NULL);
        hb_blob_destroy(cffb);
        if (!read) {
            free(cids);
            free(pf->code);
            pf->code = NULL;
            free(e.gid);
            free(e.pairs);
            hb_font_destroy(e.sfont);
            hb_face_destroy(e.sub);
            hb_subset_plan_destroy(plan);
            return cv_error_at(err, (cv_pos){pf->face->path, 0, 0},
                               "HarfBuzz made a CFF subset of this font that cvpdf cannot "
                               "read (it is probably damaged)");
        }
    }
    e.identity = choose_codes(pf, hb_subset_plan_old_to_new_glyph_mapping(plan), e.gid, cids);
    free(cids);
    for (size_t i = 0; i < pf->n; i++)
        e.pairs[i] = (cpair){pf->code[i], pf->cps[i]};
    qsort(e.pairs, pf->n, sizeof *e.pairs, cmp_code);
    /* Code points sharing a code (CFF only): the first, the lowest, is the
     * one the ToUnicode map gives. */
    e.npairs = 0;
    for (size_t i = 0; i < pf->n; i++)
        if (!e.npairs || e.pairs[e.npairs - 1].code != e.pairs[i].code)
            e.pairs[e.npairs++] = e.pairs[i];
    e.lo = e.npairs ? e.pairs[0].code : 1;
    e.hi = e.npairs ? e.pairs[e.npairs - 1].code : 1;
    base_name(pf, e.name, sizeof e.name);

    /* The objects, in the order that numbers them. */
    bool ok = true;
    HPDF_Dict file = font_program(&e);
    HPDF_Dict map = file ? glyph_map(&e, &ok) : NULL;
    HPDF_Dict set = file && ok ? cid_set_of(&e, e.sub, &ok) : NULL;
    HPDF_Dict tounicode = file && ok ? new_stream(pdf, true) : NULL;
    ok = tounicode && write_tounicode(tounicode->stream, pf, e.pairs, e.npairs,
                                      pf->one_byte);
    HPDF_Dict desc = ok ? descriptor(&e, file, set) : NULL;
    HPDF_Dict cid = desc ? cid_font(&e, desc, map, widths(&e, 0)) : NULL;
    HPDF_Dict font = cid ? type0(&e, cid, tounicode, cmap1) : NULL;
    /* The twin for glyphs drawn wider (the gap between Han and Latin):
     * the same descriptor, program, map, encoding and ToUnicode. */
    HPDF_Dict font2 = font && pf->wide ? twin(&e, map, tounicode, cmap1) : NULL;

    free(e.gid);
    free(e.pairs);
    hb_font_destroy(e.sfont);
    hb_face_destroy(e.sub);
    hb_subset_plan_destroy(plan);
    if (!font || HPDF_GetError(pdf) != HPDF_OK)
        return cv_error_at(err, (cv_pos){pf->face->path, 0, 0},
                           "libharu failed embedding this font (error 0x%04X)",
                           (unsigned)HPDF_GetError(pdf));
    pf->font = font;
    pf->wide_font = font2;
    return true;
}
