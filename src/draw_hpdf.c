/* draw_hpdf.c - the display list as a PDF, through libharu 2.3.0.
 *
 * libharu is used the way ../shared/LIBHARU-NOTES.md found safe:
 *
 *  - Fonts never reach libharu whole.  Each face the document uses is
 *    subset once with hb-subset to exactly the code points drawn (plus "Hx",
 *    where libharu reads cap and x height), written to a memfd and loaded
 *    from /proc/self/fd/N; then every glyph of the subset is marked used.
 *    Whole-font embedding blanks CJK glyphs whose components have ids above
 *    32767, and malformed fonts crash libharu; subsetting avoids both.
 *  - libharu's ToUnicode CMap is malformed (a `begincidrange` where a
 *    ToUnicode map needs `bfrange`), which poppler and PDFBox warn about.
 *    It is rewritten as a proper CMapType 2 map over the code points used.
 *  - Text is written as one TJ array per run, carrying the kerning and
 *    justification the layout measured, so glyphs land where the dump says.
 *  - Images never reach libharu as files: image.c has decoded and checked
 *    them, and each distinct cv_image is embedded once, as raw 8-bit gray
 *    or RGB samples (Flate-compressed), however often it is placed.  They
 *    are drawn after the rules and before the text.
 *  - Errors are recorded by the error handler (no longjmp) and checked
 *    after each step; the file is saved to a temporary name beside the
 *    target and renamed into place only when everything succeeded.
 */
#include "draw.h"

#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hb-subset.h>
#include <hb.h>
#include <hpdf.h>
#include <hpdf_doc.h>
#include <hpdf_font.h>
#include <hpdf_fontdef.h>
#include <hpdf_pages.h>

typedef struct ctx {
    HPDF_STATUS status, detail;
} ctx;

static void on_error(HPDF_STATUS status, HPDF_STATUS detail, void *data)
{
    ctx *c = data;
    if (!c->status) {
        c->status = status;
        c->detail = detail;
    }
}

/* A growable string for content-stream operators. */
typedef struct buf {
    char *s;
    size_t n, cap;
} buf;

static void bprintf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bprintf(buf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (k >= 0 && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        b->cap = b->cap * 2 + (size_t)(k > 0 ? k : 0) + 256;
        char *s = realloc(b->s, b->cap);
        if (!s) {
            fprintf(stderr, "cvpdf: out of memory\n");
            abort();
        }
        b->s = s;
    }
}

/* A number for a content stream: at most 3 decimals, no trailing zeros. */
static void bnum(buf *b, double v)
{
    char t[32];
    snprintf(t, sizeof t, "%.3f", v);
    char *e = t + strlen(t) - 1;
    while (*e == '0')
        *e-- = 0;
    if (*e == '.')
        *e = 0;
    bprintf(b, "%s", strcmp(t, "-0") ? t : "0");
}

static bool has_key(HPDF_Dict d, const char *key)
{
    for (HPDF_UINT i = 0; i < d->list->count; i++) {
        HPDF_DictElement e = HPDF_List_ItemAt(d->list, i);
        if (e && !strcmp(e->key, key))
            return true;
    }
    return false;
}

/* Replace libharu's ToUnicode CMap of `font` with a valid one.  Codes are
 * UTF-16 code units equal to the code points, so the map is the identity
 * over each 256-code block that the document uses (LIBHARU-NOTES §3). */
static bool fix_tounicode(HPDF_Font font, const unsigned char *used)
{
    HPDF_FontAttr fa = (HPDF_FontAttr)font->attr;
    HPDF_Dict cm = fa->cmap_stream;
    if (!cm || !cm->stream)
        return true;
    static const char *const drop[] = {"Type", "CMapName", "CIDSystemInfo", "WMode"};
    for (size_t i = 0; i < sizeof drop / sizeof *drop; i++)
        if (has_key(cm, drop[i]) && HPDF_Dict_RemoveElement(cm, drop[i]) != HPDF_OK)
            return false;
    HPDF_MemStream_FreeData(cm->stream);

    int blocks[256], n = 0;
    for (int hi = 0; hi < 256; hi++) {
        if (hi >= 0xD8 && hi <= 0xDF)          /* surrogates */
            continue;
        for (int k = 0; k < 32; k++)
            if (used[hi * 32 + k]) {
                blocks[n++] = hi;
                break;
            }
    }
    char line[96];
    HPDF_Stream_WriteStr(cm->stream,
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
        "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n");
    for (int i = 0; i < n; i += 100) {
        int m = n - i < 100 ? n - i : 100;
        snprintf(line, sizeof line, "%d beginbfrange\n", m);
        HPDF_Stream_WriteStr(cm->stream, line);
        for (int j = i; j < i + m; j++) {
            snprintf(line, sizeof line, "<%02X00> <%02XFF> <%02X00>\n", blocks[j], blocks[j],
                     blocks[j]);
            HPDF_Stream_WriteStr(cm->stream, line);
        }
        HPDF_Stream_WriteStr(cm->stream, "endbfrange\n");
    }
    HPDF_Stream_WriteStr(cm->stream, "endcmap\nCMapName currentdict /CMap defineresource pop\n"
                                     "end\nend\n");

    /* The descendant font's Ordering must be "Identity" (not "Identity-H"). */
    HPDF_Font desc = fa->descendant_font;
    if (desc && has_key(desc, "CIDSystemInfo")) {
        HPDF_Dict info = HPDF_Dict_GetItem(desc, "CIDSystemInfo", HPDF_OCLASS_DICT);
        if (info)
            HPDF_Dict_Add(info, "Ordering", HPDF_String_New(desc->mmgr, "Identity", NULL));
    }
    return true;
}

/* Subset face `f` to the code points set in `used` and load it. */
static HPDF_Font load_subset(HPDF_Doc pdf, const cv_face *f, const unsigned char *used,
                             ctx *c, cv_error *err)
{
    hb_subset_input_t *in = hb_subset_input_create_or_fail();
    if (!in) {
        cv_error_at(err, (cv_pos){0}, "out of memory subsetting '%s'", f->path);
        return NULL;
    }
    hb_set_t *uni = hb_subset_input_unicode_set(in);
    for (unsigned cp = 0; cp < 0x10000; cp++)
        if (used[cp >> 3] & (1u << (cp & 7)))
            hb_set_add(uni, cp);
    hb_set_add(uni, 'H');
    hb_set_add(uni, 'x');
    hb_subset_input_set_flags(in, HB_SUBSET_FLAGS_NO_HINTING);
    /* Shaping tables are useless in a PDF: positions are already fixed. */
    hb_set_t *drop = hb_subset_input_set(in, HB_SUBSET_SETS_DROP_TABLE_TAG);
    hb_set_add(drop, HB_TAG('G', 'S', 'U', 'B'));
    hb_set_add(drop, HB_TAG('G', 'P', 'O', 'S'));
    hb_set_add(drop, HB_TAG('G', 'D', 'E', 'F'));
    hb_set_add(drop, HB_TAG('k', 'e', 'r', 'n'));
    hb_face_t *sub = hb_subset_or_fail((hb_face_t *)f->hb_face, in);
    hb_subset_input_destroy(in);
    if (!sub) {
        cv_error_at(err, (cv_pos){f->path, 0, 0}, "HarfBuzz cannot subset this font "
                    "(it is probably damaged)");
        return NULL;
    }
    hb_blob_t *blob = hb_face_reference_blob(sub);
    hb_face_destroy(sub);
    unsigned len;
    const char *data = hb_blob_get_data(blob, &len);

    int fd = memfd_create("cvpdf-font", MFD_CLOEXEC);
    bool ok = fd >= 0;
    for (size_t off = 0; ok && off < len;) {
        ssize_t w = write(fd, data + off, len - off);
        if (w <= 0)
            ok = false;
        else
            off += (size_t)w;
    }
    hb_blob_destroy(blob);
    if (!ok) {
        if (fd >= 0)
            close(fd);
        cv_error_at(err, (cv_pos){0}, "cannot create a temporary font: %s", strerror(errno));
        return NULL;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    const char *name = HPDF_LoadTTFontFromFile(pdf, path, HPDF_TRUE);
    close(fd);      /* libharu has read the file */
    HPDF_Font font = name && !c->status ? HPDF_GetFont(pdf, name, "UTF-8") : NULL;
    if (!font || c->status) {
        cv_error_at(err, (cv_pos){f->path, 0, 0}, "libharu cannot load this font "
                    "(error 0x%04X)", (unsigned)c->status);
        return NULL;
    }
    /* Embed every glyph of the subset (libharu embeds only "used" ones). */
    HPDF_FontDef def = HPDF_GetFontDef(pdf, name);
    if (def && def->attr) {
        HPDF_TTFontDefAttr attr = (HPDF_TTFontDefAttr)def->attr;
        if (attr->glyph_tbl.flgs)
            memset(attr->glyph_tbl.flgs, 1, attr->num_glyphs);
    }
    if (!fix_tounicode(font, used) || c->status) {
        cv_error_at(err, (cv_pos){f->path, 0, 0}, "libharu failed rewriting the "
                    "ToUnicode map (error 0x%04X)", (unsigned)c->status);
        return NULL;
    }
    return font;
}

/* Percent-encode what may not appear raw in a URI string. */
static char *encode_uri(const char *u)
{
    size_t n = strlen(u);
    char *o = malloc(n * 3 + 1), *q = o;
    if (!o)
        abort();
    for (const unsigned char *p = (const unsigned char *)u; *p; p++) {
        if (*p <= 0x20 || *p >= 0x7F || *p == '"' || *p == '<' || *p == '>' ||
            *p == '\\' || *p == '^' || *p == '`' || *p == '{' || *p == '|' || *p == '}' ||
            *p == '(' || *p == ')')
            q += sprintf(q, "%%%02X", *p);
        else
            *q++ = (char)*p;
    }
    *q = 0;
    return o;
}

static void rgb(unsigned c, float *r, float *g, float *b)
{
    *r = ((c >> 16) & 0xFF) / 255.0f;
    *g = ((c >> 8) & 0xFF) / 255.0f;
    *b = (c & 0xFF) / 255.0f;
}

/* The document's images: each distinct cv_image with its XObject. */
typedef struct images {
    const cv_image **im;
    HPDF_Image *xo;
    size_t n;
} images;

static HPDF_Image find_image(const images *ims, const cv_image *im)
{
    for (size_t i = 0; i < ims->n; i++)
        if (ims->im[i] == im)
            return ims->xo[i];
    return NULL;
}

/* Embed `im` unless it is already: 8-bit samples, Flate-compressed. */
static bool load_image(HPDF_Doc pdf, images *ims, const cv_image *im, ctx *c, cv_error *err)
{
    if (find_image(ims, im))
        return true;
    const char *name = im && im->path ? im->path : "(unnamed)";
    if (!im || !im->pixels || !im->width || !im->height ||
        (im->channels != 1 && im->channels != 3))
        return cv_error_at(err, (cv_pos){name, 0, 0}, "cannot embed this image: it is not "
                           "8-bit gray or RGB samples");
    /* libharu 2.3.0 sets the filter of the image it has just made without
     * checking that it made one, so a failure (out of memory) would crash
     * with image compression on.  Load with it off, set Flate here. */
    HPDF_UINT mode = pdf->compression_mode;
    HPDF_SetCompressionMode(pdf, mode & ~(HPDF_UINT)HPDF_COMP_IMAGE);
    HPDF_Image xo = HPDF_LoadRawImageFromMem(pdf, im->pixels, im->width, im->height,
                                             im->channels == 1 ? HPDF_CS_DEVICE_GRAY
                                                               : HPDF_CS_DEVICE_RGB,
                                             /*bits_per_component*/ 8);
    HPDF_SetCompressionMode(pdf, mode);
    if (!xo || c->status)
        return cv_error_at(err, (cv_pos){name, 0, 0}, "libharu cannot embed this image "
                           "(error 0x%04X)", (unsigned)c->status);
    if (mode & HPDF_COMP_IMAGE)
        xo->filter |= HPDF_STREAM_FILTER_FLATE_DECODE;
    ims->im[ims->n] = im;
    ims->xo[ims->n++] = xo;
    return true;
}

static bool draw_page(HPDF_Doc pdf, const cv_display *d, const cv_page *pg,
                      HPDF_Font *fonts, const images *ims, ctx *c, buf *b)
{
    HPDF_Page page = HPDF_AddPage(pdf);
    if (!page)
        return false;
    HPDF_Page_SetWidth(page, d->width);
    HPDF_Page_SetHeight(page, d->height);
    HPDF_Stream stream = ((HPDF_PageAttr)page->attr)->stream;

    for (size_t i = 0; i < pg->nrules; i++) {
        const cv_rule *r = &pg->rules[i];
        float cr, cg, cb;
        rgb(r->color, &cr, &cg, &cb);
        HPDF_Page_SetRGBStroke(page, cr, cg, cb);
        HPDF_Page_SetLineWidth(page, r->width);
        HPDF_Page_MoveTo(page, r->x0, r->y0);
        HPDF_Page_LineTo(page, r->x1, r->y1);
        HPDF_Page_Stroke(page);
    }

    for (size_t i = 0; i < pg->nimgs; i++) {
        const cv_img *im = &pg->imgs[i];
        HPDF_Image xo = find_image(ims, im->im);
        if (!xo || HPDF_Page_DrawImage(page, xo, im->x, im->y, im->w, im->h) != HPDF_OK)
            return false;
    }

    if (pg->nruns) {
        HPDF_Page_BeginText(page);
        int cur_face = -1;
        float cur_size = -1;
        long cur_color = -1;
        bool cur_synth = false;
        for (size_t i = 0; i < pg->nruns && !c->status; i++) {
            const cv_run *r = &pg->runs[i];
            if (r->face != cur_face || r->size != cur_size) {
                HPDF_Page_SetFontAndSize(page, fonts[r->face], r->size);
                cur_face = r->face;
                cur_size = r->size;
            }
            if ((long)r->color != cur_color) {
                float cr, cg, cb;
                rgb(r->color, &cr, &cg, &cb);
                HPDF_Page_SetRGBFill(page, cr, cg, cb);
                HPDF_Page_SetRGBStroke(page, cr, cg, cb);
                cur_color = r->color;
            }
            if (r->synth_bold != cur_synth) {
                /* Synthetic bold: fill and stroke the outline. */
                if (r->synth_bold)
                    HPDF_Page_SetLineWidth(page, r->size * 0.03f);
                HPDF_Page_SetTextRenderingMode(page, r->synth_bold ? HPDF_FILL_THEN_STROKE
                                                                   : HPDF_FILL);
                cur_synth = r->synth_bold;
            }
            HPDF_Page_SetTextMatrix(page, 1, 0, 0, 1, r->x, r->y);
            b->n = 0;
            bprintf(b, "[<");
            for (size_t k = 0; k < r->n; k++) {
                bprintf(b, "%04X", (unsigned)r->g[k].cp);
                float adj = r->g[k].adj;
                if (k + 1 < r->n && fabsf(adj) >= 0.0005f) {
                    bprintf(b, ">");
                    bnum(b, -adj);
                    bprintf(b, "<");
                }
            }
            bprintf(b, ">] TJ\012");
            if (HPDF_Stream_WriteStr(stream, b->s) != HPDF_OK)
                return false;
        }
        HPDF_Page_EndText(page);
    }

    for (size_t i = 0; i < pg->nlinks; i++) {
        const cv_link *l = &pg->links[i];
        HPDF_Rect rect = {l->x0, l->y0, l->x1, l->y1};
        char *uri = encode_uri(l->uri);
        HPDF_Annotation an = HPDF_Page_CreateURILinkAnnot(page, rect, uri);
        free(uri);
        if (an)
            HPDF_LinkAnnot_SetBorderStyle(an, 0, 0, 0);
    }
    return !c->status;
}

bool cv_draw_pdf(const cv_display *d, const cv_fontset *fs, const char *path,
                 cv_error *err)
{
    ctx c = {0};
    HPDF_Doc pdf = HPDF_New(on_error, &c);
    if (!pdf)
        return cv_error_at(err, (cv_pos){path, 0, 0}, "cannot start libharu");
    HPDF_SetCompressionMode(pdf, HPDF_COMP_ALL);
    HPDF_UseUTFEncodings(pdf);
    HPDF_SetCurrentEncoder(pdf, "UTF-8");

    /* Which code points each face draws. */
    size_t nfaces = cv_fontset_count(fs);
    unsigned char **used = calloc(nfaces ? nfaces : 1, sizeof *used);
    HPDF_Font *fonts = calloc(nfaces ? nfaces : 1, sizeof *fonts);
    buf b = {malloc(4096), 0, 4096};
    char *tmp = NULL;
    size_t nimgs = 0;
    for (size_t p = 0; p < d->npages; p++)
        nimgs += d->pages[p].nimgs;
    images ims = {calloc(nimgs ? nimgs : 1, sizeof *ims.im),
                  calloc(nimgs ? nimgs : 1, sizeof *ims.xo), 0};
    bool ok = used && fonts && b.s && ims.im && ims.xo;
    for (size_t p = 0; ok && p < d->npages; p++)
        for (size_t i = 0; i < d->pages[p].nruns; i++) {
            const cv_run *r = &d->pages[p].runs[i];
            if (!used[r->face] && !(used[r->face] = calloc(0x10000 / 8, 1)))
                abort();
            for (size_t k = 0; k < r->n; k++)
                used[r->face][r->g[k].cp >> 3] |= (unsigned char)(1u << (r->g[k].cp & 7));
        }
    for (size_t f = 0; ok && f < nfaces; f++)
        if (used[f] && !(fonts[f] = load_subset(pdf, cv_fontset_face(fs, (int)f), used[f], &c, err)))
            ok = false;

    for (size_t p = 0; ok && p < d->npages; p++)
        for (size_t i = 0; ok && i < d->pages[p].nimgs; i++)
            ok = load_image(pdf, &ims, d->pages[p].imgs[i].im, &c, err);

    for (size_t p = 0; ok && p < d->npages; p++)
        if (!draw_page(pdf, d, &d->pages[p], fonts, &ims, &c, &b))
            ok = cv_error_at(err, (cv_pos){path, 0, 0}, "libharu failed drawing page %zu "
                             "(error 0x%04X)", p + 1, (unsigned)c.status);

    if (ok) {
        if (d->title)
            HPDF_SetInfoAttr(pdf, HPDF_INFO_TITLE, d->title);
        if (d->author)
            HPDF_SetInfoAttr(pdf, HPDF_INFO_AUTHOR, d->author);
        if (d->subject)
            HPDF_SetInfoAttr(pdf, HPDF_INFO_SUBJECT, d->subject);
        if (d->keywords)
            HPDF_SetInfoAttr(pdf, HPDF_INFO_KEYWORDS, d->keywords);
        HPDF_SetInfoAttr(pdf, HPDF_INFO_CREATOR, "cvpdf " CV_VERSION);
    }

    /* Save beside the target, then rename: never a half-written PDF. */
    if (ok) {
        char *dcopy = strdup(path);
        const char *dir = dcopy ? dirname(dcopy) : ".";
        size_t tl = strlen(dir) + 32;
        tmp = malloc(tl);
        snprintf(tmp, tl, "%s/.cvpdf-XXXXXX", dir);
        int fd = mkstemp(tmp);
        free(dcopy);
        if (fd < 0) {
            ok = cv_error_at(err, (cv_pos){path, 0, 0}, "cannot write '%s': %s", path,
                             strerror(errno));
            free(tmp);
            tmp = NULL;
        } else {
            close(fd);
            if (HPDF_SaveToFile(pdf, tmp) != HPDF_OK || c.status)
                ok = cv_error_at(err, (cv_pos){path, 0, 0}, "cannot write '%s' "
                                 "(libharu error 0x%04X; is the disk full?)", path,
                                 (unsigned)c.status);
            else if (chmod(tmp, 0644) || rename(tmp, path))
                ok = cv_error_at(err, (cv_pos){path, 0, 0}, "cannot write '%s': %s",
                                 path, strerror(errno));
            if (!ok)
                unlink(tmp);
        }
    }
    free(tmp);
    HPDF_Free(pdf);
    for (size_t f = 0; used && f < nfaces; f++)
        free(used[f]);
    free(used);
    free(fonts);
    free(b.s);
    free(ims.im);
    free(ims.xo);
    return ok;
}
