/* draw_hpdf.c - the display list as a PDF, through libharu 2.3.0.
 *
 * libharu is used the way ../shared/LIBHARU-NOTES.md found safe:
 *
 *  - Fonts never reach libharu's font loader.  Each face the document uses
 *    is subset once with hb-subset to exactly the code points drawn and
 *    embedded as a Type0 font built with libharu's object API (pdf_font.c):
 *    libharu's own loader scans 65,536 codes per font, blanks CJK glyphs
 *    whose components have ids above 32767, writes a malformed ToUnicode
 *    map and crashes on malformed fonts.
 *  - Content is written as operators into each page's stream: text as one
 *    TJ array per run, carrying the kerning and justification the layout
 *    measured, so glyphs land where the dump says.
 *  - Images never reach libharu as files: image.c has decoded and checked
 *    them, and each distinct cv_image is embedded once, as raw 8-bit gray
 *    or RGB samples (Flate-compressed), however often it is placed.  They
 *    are drawn after the rules and before the text.
 *  - Links carry no border and the Print flag; bookmarks point at direct
 *    destinations; document information, /ID and PDF/A-1b come from
 *    pdf_meta.c.  Nothing depends on the clock, so output is reproducible.
 *  - With a structure (d->tags, unless the layout says `tagged: false`
 *    and PDF/UA is not asked for), the PDF is tagged (pdf_tags.h): each run
 *    of text and each photo is a marked-content sequence of its structure
 *    element, a run split where a link begins or ends (between two TJ
 *    arrays, which moves nothing: the text position carries on) and put in
 *    a Span with /Lang when its script is another language's; rules, and
 *    text of no element (running headers and footers), are artifacts.
 *  - libharu's memory comes from the book's own blocks (pool_alloc), its
 *    streams keep their bytes in buffers of ours (pdf_font.h:
 *    cv_pdffont_own_stream), and it writes the finished file straight into
 *    one buffer (saved()): its memory streams copy byte by byte.
 *  - Errors are recorded by the error handler (no longjmp) and checked
 *    after each step; the file is saved to a temporary name beside the
 *    target and renamed into place only when everything succeeded.
 */
#include "draw_hpdf.h"
#include "arena.h"
#include "pdf_font.h"
#include "pdf_meta.h"
#include "pdf_pack.h"
#include "pdf_tags.h"
#include "unicode.h"

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

#include <hpdf.h>
#include <hpdf_doc.h>
#include <hpdf_encrypt.h>
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

/* Content-stream operators grow in arena.h's cv_buf. */
typedef cv_buf buf;

/* Append `n` bytes (inlined: with a literal's length, memcpy is a move
 * or two). */
static inline __attribute__((always_inline)) void bputs(buf *b, const char *s, size_t n)
{
    cv_buf_room(b, n);
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

/* A glyph's code, one or two bytes of a literal string: only ( ) \ and
 * line ends are escaped. */
static inline __attribute__((always_inline)) void bcode(buf *b, unsigned cid, bool one_byte)
{
    cv_buf_room(b, 4);
    char *o = b->s + b->n;
    for (int i = one_byte ? 0 : 1; i >= 0; i--) {
        unsigned char ch = (unsigned char)(cid >> (8 * i));
        if (ch == '(' || ch == ')' || ch == '\\' || ch == '\r' || ch == '\n') {
            *o++ = '\\';
            ch = ch == '\r' ? 'r' : ch == '\n' ? 'n' : ch;
        }
        *o++ = (char)ch;
    }
    b->n = (size_t)(o - b->s);
    b->s[b->n] = 0;
}

#define BLIT(b, lit) bputs((b), (lit), sizeof(lit) - 1)

/* A C string; an integer in decimal (for the hot spots, where printf's
 * parsing of its format cost more than what it wrote). */
static void bstr(buf *b, const char *s)
{
    bputs(b, s, strlen(s));
}

static void bint(buf *b, long v)
{
    char t[24], *e = t + sizeof t, *p = cv_pdf_int(e, v);
    bputs(b, p, (size_t)(e - p));
}

/* llround(x): to the nearest integer, halves away from zero; inline for
 * the numbers content streams hold (below 2^52, where x less its
 * truncation is exact), else the library's. */
static inline long long round_away(double x)
{
    if (!(fabs(x) < 4503599627370496.0))
        return llround(x);
    long long t = (long long)x;
    double f = x - (double)t;
    return f >= 0.5 ? t + 1 : f <= -0.5 ? t - 1 : t;
}

/* A number for a content stream: at most `dec` (0 to 6) decimals, no
 * trailing zeros, no "-0".  Written by hand: this is the hot loop of
 * the content streams, and printf's floating point is slow. */
static void bnumd(buf *b, double v, int dec)
{
    static const double scale[] = {1, 10, 100, 1000, 1e4, 1e5, 1e6};
    long long k = round_away(v * scale[dec]);
    bool neg = k < 0;
    unsigned long long u = neg ? 0ULL - (unsigned long long)k : (unsigned long long)k;
    /* Trailing zeros of the fraction dropped: u has d decimals. */
    int d = dec;
    while (d > 0 && u % 10 == 0) {
        u /= 10;
        d--;
    }
    /* Written from its end, straight into the buffer: the length first. */
    int n = 1;
    for (unsigned long long t = u; t >= 10; t /= 10)
        n++;
    size_t len = (size_t)neg + (size_t)(n > d ? n - d : 1) + (d ? (size_t)d + 1 : 0);
    cv_buf_room(b, len);
    char *p = b->s + b->n + len;
    *p = 0;
    for (int i = 0; i < d; i++) {
        *--p = (char)('0' + u % 10);
        u /= 10;
    }
    if (d)
        *--p = '.';
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (neg)                    /* k < 0: never "-0" */
        *--p = '-';
    b->n += len;
}

static void bnum(buf *b, double v)
{
    bnumd(b, v, 3);
}

/* Where in URI u its host name is (*len bytes): after "scheme://" and any
 * "user@", or, in a mailto:, after the address's '@'; NULL when u names
 * none. */
static const char *uri_host(const char *u, size_t *len)
{
    const char *h = NULL;
    if (!strncasecmp(u, "mailto:", 7)) {
        size_t end = strcspn(u, "?#");
        const char *at = memrchr(u, '@', end);
        if (at)
            h = at + 1, *len = (size_t)(u + end - h);
        return h;
    }
    const char *sep = strstr(u, "://");
    if (!sep || strcspn(u, "/?#") < (size_t)(sep - u))
        return NULL;
    h = sep + 3;
    size_t auth = strcspn(h, "/?#");
    const char *at = memrchr(h, '@', auth);
    if (at)
        auth -= (size_t)(at + 1 - h), h = at + 1;
    *len = h[0] == '[' ? 0 : strcspn(h, ":/?#") < auth ? strcspn(h, ":/?#") : auth;
    return h;
}

/* Percent-encode what may not appear raw in a URI string; a host name
 * beyond ASCII (an IDN: "bücher.de") in Punycode, as DNS knows it
 * ("xn--bcher-kva.de"), for a percent-encoded host reaches no server. */
static char *encode_uri(const char *in)
{
    size_t hn = 0;
    const char *h = uri_host(in, &hn), *u = in;
    cv_arena *a = NULL;
    for (size_t i = 0; h && i < hn; i++)
        if ((unsigned char)h[i] >= 0x80) {
            a = cv_arena_new();
            const char *ascii = cv_idna_ascii(a, h, hn);
            if (ascii)
                u = cv_arena_printf(a, "%.*s%s%s", (int)(h - in), in, ascii, h + hn);
            break;
        }
    size_t n = strlen(u);
    char *o = cv_xmalloc(n * 3 + 1), *q = o;
    for (const unsigned char *p = (const unsigned char *)u; *p; p++) {
        if (*p <= 0x20 || *p >= 0x7F || *p == '"' || *p == '<' || *p == '>' ||
            *p == '\\' || *p == '^' || *p == '`' || *p == '{' || *p == '|' || *p == '}' ||
            *p == '(' || *p == ')')
            q += sprintf(q, "%%%02X", *p);
        else
            *q++ = (char)*p;
    }
    *q = 0;
    cv_arena_free(a);
    return o;
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

/* The /ID's digest of the content: libharu's MD5. */
typedef HPDF_MD5_CTX digest;

static void md5_init(digest *m)
{
    HPDF_MD5Init(m);
}

static void md5_update(digest *m, const void *data, size_t n)
{
    HPDF_MD5Update(m, (const HPDF_BYTE *)data, (HPDF_UINT32)n);
}

static void md5_final(digest *m, unsigned char out[16])
{
    HPDF_MD5Final(out, m);
}

/* Append b's bytes to the page's content stream and to the digest. */
static bool flush(HPDF_Stream stream, buf *b, digest *md5)
{
    if (!b->n)
        return true;
    md5_update(md5, b->s, b->n);
    bool ok = HPDF_Stream_Write(stream, (const HPDF_BYTE *)b->s, (HPDF_UINT)b->n) == HPDF_OK;
    b->n = 0;
    return ok;
}

static void bcolor(buf *b, unsigned c, const char *op)
{
    unsigned r = (c >> 16) & 0xFF, g = (c >> 8) & 0xFF, bl = c & 0xFF;
    if (r == g && g == bl) {            /* a gray: "0.2 g" */
        bnum(b, r / 255.0);
        bstr(b, op[0] == 'r' ? " g\n" : " G\n");
        return;
    }
    bnum(b, ((c >> 16) & 0xFF) / 255.0);
    BLIT(b, " ");
    bnum(b, ((c >> 8) & 0xFF) / 255.0);
    BLIT(b, " ");
    bnum(b, (c & 0xFF) / 255.0);
    BLIT(b, " ");
    bstr(b, op);
    BLIT(b, "\n");
}

static void put_rules(buf *b, const cv_page *pg)
{
    for (size_t i = 0; i < pg->nrules; i++) {
        const cv_rule *r = &pg->rules[i];
        bcolor(b, r->color, "RG");
        bnum(b, r->width);
        BLIT(b, " w ");
        bnum(b, r->x0);
        BLIT(b, " ");
        bnum(b, r->y0);
        BLIT(b, " m ");
        bnum(b, r->x1);
        BLIT(b, " ");
        bnum(b, r->y1);
        BLIT(b, " l S\n");
    }
}

static bool put_images(HPDF_Page page, const cv_page *pg, const images *ims, buf *b,
                       digest *md5, cv_pdftags *pt)
{
    HPDF_Stream stream = ((HPDF_PageAttr)page->attr)->stream;
    for (size_t i = 0; i < pg->nimgs; i++) {
        const cv_img *im = &pg->imgs[i];
        HPDF_Image xo = find_image(ims, im->im);
        /* A Figure of the structure, or an artifact. */
        char mc[80] = "/Artifact BMC\n";
        if (pt && im->tag) {
            const char *type;
            int mcid = cv_pdftags_mc(pt, im->tag, -1, NULL, &type);
            snprintf(mc, sizeof mc, "/%s <</MCID %d>> BDC\n", type, mcid);
            cv_pdftags_bbox(pt, im->tag, im->x, im->y, im->x + im->w, im->y + im->h);
        }
        if (pt && HPDF_Stream_WriteStr(stream, mc) != HPDF_OK)
            return false;
        if (!xo || HPDF_Page_DrawImage(page, xo, im->x, im->y, im->w, im->h) != HPDF_OK)
            return false;
        if (pt && HPDF_Stream_WriteStr(stream, "EMC\n") != HPDF_OK)
            return false;
        cv_buf_printf(b, "image %u %u %.3f %.3f %.3f %.3f\n", im->im->width, im->im->height, im->x,
                im->y, im->w, im->h);
        md5_update(md5, b->s, b->n);
        b->n = 0;
    }
    return true;
}

/* The text state a page's content stream is in, so that each run writes
 * only what changes. */
typedef struct textstate {
    int face;
    float size;
    long fill, stroke;
    bool synth;
    bool twin;               /* the face's twin font is selected (pdf_font.h) */
    long x, y;               /* hundredths of a point */
    const cv_display *d;     /* the résumé drawn: its clusters (cv_cluster) */
} textstate;

/* Font, colours and synthetic bold for run r, where they change. */
static bool put_run_state(HPDF_Page page, const cv_run *r, const cv_pdffont *pf,
                          textstate *ts, buf *b)
{
    /* The face's font, or its twin when the run's first glyph is drawn
     * wider ("a中a中": a run and a twin glyph every character). */
    bool twin = r->n && cv_pdffont_twin(pf, r->g[0].wide);
    if (r->face != ts->face || r->size != ts->size || twin != ts->twin) {
        const char *name = HPDF_Page_GetLocalFontName(page, twin ? pf->wide_font : pf->font);
        if (!name)
            return false;
        BLIT(b, "/");
        bstr(b, name);
        BLIT(b, " ");
        bnum(b, r->size);
        BLIT(b, " Tf\n");
        ts->face = r->face;
        ts->size = r->size;
        ts->twin = twin;
    }
    if ((long)r->color != ts->fill) {
        bcolor(b, r->color, "rg");
        ts->fill = r->color;
    }
    if (r->synth_bold && (long)r->color != ts->stroke) {
        bcolor(b, r->color, "RG");
        ts->stroke = r->color;
    }
    if (r->synth_bold != ts->synth) {
        /* Synthetic bold: fill and stroke the outline. */
        if (r->synth_bold) {
            bnum(b, r->size * 0.03);
            BLIT(b, " w ");
        }
        bstr(b, r->synth_bold ? "2 Tr\n" : "0 Tr\n");
        ts->synth = r->synth_bold;
    }
    return true;
}

/* Select the face's font or its twin (glyphs drawn wider, pdf_font.h)
 * inside a run: the TJ array ends and starts again, the text position
 * carries on. */
static bool put_twin(HPDF_Page page, const cv_run *r, const cv_pdffont *pf, bool twin,
                     textstate *ts, buf *b)
{
    const char *name = HPDF_Page_GetLocalFontName(page, twin ? pf->wide_font : pf->font);
    if (!name)
        return false;
    BLIT(b, ")]TJ /");
    bstr(b, name);
    BLIT(b, " ");
    bnum(b, r->size);
    BLIT(b, " Tf[(");
    ts->twin = twin;
    return true;
}

/* Glyph g of run r raised by `dy` thousandths of an em (a mark placed by
 * GPOS, shape.h) after glyphs raised by *rise: the text rise (Ts) set
 * between two TJ arrays, where the text position carries on.  Inside
 * "[(" ... ")]TJ". */
static void put_rise(const cv_run *r, int dy, int *rise, buf *b)
{
    if (dy == *rise)
        return;
    BLIT(b, ")]TJ ");
    bnumd(b, dy * (double)r->size / 1000.0, 2);
    BLIT(b, " Ts[(");
    *rise = dy;
}

/* Glyph k of right-to-left run r (in visual order) and the marks that
 * follow it in the text (below it in the array) are one letter: the index
 * of its last mark, k itself when it has none. */
/* Where a complex script's glyph lies off the pen (cv_cluster): *dx, *dy;
 * 0 for any other glyph. */
static void offset(const cv_display *d, uint32_t cp, int *dx, int *dy)
{
    const cv_cluster *cl = cv_display_cluster(d, cp);
    *dx = cl ? cl->dx : 0;
    *dy = cl ? cl->dy : 0;
}

static size_t letter_end(const cv_run *r, const cv_display *d, size_t k)
{
    const cv_cluster *cl;
    while (k > 0 && (cl = cv_display_cluster(d, r->g[k - 1].cp)) && cl->mark)
        k--;
    return k;
}

/* A letter with marks, glyphs k down to e of right-to-left run r, begins:
 * a marked-content sequence whose /ActualText is its text, the letter
 * before its marks, for readers that find text by where glyphs lie
 * (poppler: HarfBuzz puts a haraka right of its letter's start, and
 * raises it, which would move it to another word or line).  Inside
 * "[(" ... ")]TJ". */
static void put_actual_text(const cv_run *r, const cv_display *d, size_t k, size_t e, buf *b)
{
    BLIT(b, ")]TJ /Span <</ActualText <FEFF");
    for (size_t i = k + 1; i-- > e;) {
        const cv_cluster *cl = cv_display_cluster(d, r->g[i].cp);
        const char *t = cl ? cl->text : NULL;
        size_t len = t ? strlen(t) : 0;
        for (size_t j = 0; j < len;) {
            uint32_t c;
            j += cv_utf8_decode(t + j, len - j, &c);
            if (c > 0xFFFF)
                cv_buf_printf(b, "%04X%04X", (unsigned)(0xD800 + ((c - 0x10000) >> 10)),
                        (unsigned)(0xDC00 + ((c - 0x10000) & 0x3FF)));
            else
                cv_buf_printf(b, "%04X", (unsigned)c);
        }
    }
    BLIT(b, ">>> BDC [(");
}

/* A right-to-left run's glyphs (bidi.h) in the order of the text, each
 * where it shows: first right to the last glyph, then leftwards, each TJ
 * number the advances of the glyph just drawn and of the one to draw
 * (with its kerning or justification), so that readers that follow the
 * content stream read the text as written.  A glyph HarfBuzz placed off
 * the pen (a mark: its cv_cluster offset) is drawn that much aside and
 * raised, and its letter with its marks is given its text
 * (put_actual_text), the last mark drawn with the character spacing (Tc)
 * that ends it where its letter ends, so that the sequence covers the
 * letter.  Inside "[(" ... ")]TJ". */
static void put_rtl_text(const cv_run *r, const cv_pdffont *pf, const cv_display *d, buf *b)
{
    double to_last = 0;
    for (size_t k = 0; k + 1 < r->n; k++)
        to_last += r->g[k].w + cv_run_tj(r, k);
    int dx = 0, dy = 0, rise = 0;
    offset(d, r->g[r->n - 1].cp, &dx, &dy);
    BLIT(b, ")");
    bnumd(b, -to_last - dx, 1);
    BLIT(b, "(");
    size_t end = SIZE_MAX;          /* the open letter's last mark */
    double reach = 0;               /* from its place, where the letter ends */
    for (size_t k = r->n; k-- > 0;) {
        double tc = 0;
        if (k + 1 < r->n) {
            int dx_was = dx;
            offset(d, r->g[k].cp, &dx, &dy);
            BLIT(b, ")");
            bnumd(b, r->g[k + 1].w + r->g[k].w + cv_run_tj(r, k) + dx_was - dx, 1);
            BLIT(b, "(");
        }
        const cv_cluster *cl = cv_display_cluster(d, r->g[k].cp);
        if (end == SIZE_MAX && !(cl && cl->mark)) {
            size_t e = letter_end(r, d, k);
            if (e < k) {
                put_actual_text(r, d, k, e, b);
                end = e;
                reach = dx + r->g[k].w;
                for (size_t i = e; i < k; i++)
                    reach += r->g[i].w + cv_run_tj(r, i);
            }
        }
        if (k == end) {
            /* The last mark ends where its letter ends. */
            tc = reach - (dx + r->g[k].w);
            if (fabs(tc) >= 0.5) {
                BLIT(b, ")]TJ ");
                bnumd(b, tc * r->size / 1000.0, 3);
                BLIT(b, " Tc[(");
            } else {
                tc = 0;
            }
        }
        put_rise(r, dy, &rise, b);
        unsigned cid = cv_pdffont_cid(pf, r->g[k].cp);
        bcode(b, cid, pf->one_byte);
        if (k == end) {
            BLIT(b, ")]TJ ");
            if (tc != 0)
                BLIT(b, "0 Tc ");
            BLIT(b, "EMC [(");
            end = SIZE_MAX;
            if (tc != 0 && k > 0) {
                /* The next glyph's move begins where this one ended. */
                BLIT(b, ")");
                bnumd(b, round(tc * r->size) / r->size, 1);
                BLIT(b, "(");
            }
        }
    }
    BLIT(b, ")]TJ\n");
    if (rise)
        BLIT(b, "0 Ts\n");
}

/* Glyphs k0 to k1 of a run: placed with Td, relative to the previous run,
 * in whole hundredths of a point so that rounding never accumulates; its
 * CIDs as bytes in literal strings (half the size of hex), with the TJ
 * numbers.  A part after the first (k0 > 0) goes on where the one before
 * it ended.  A glyph drawn wider (cv_gl.wide) comes from the face's twin
 * font, its TJ number less by as much.  A right-to-left run is drawn whole
 * (k0 = 0, k1 = r->n), in the order of its text. */
static bool put_run_text(HPDF_Page page, const cv_run *r, const cv_pdffont *pf,
                         textstate *ts, buf *b, size_t k0, size_t k1)
{
    if (k0 == 0) {
        long x = (long)round_away(r->x * 100.0), y = (long)round_away(r->y * 100.0);
        bnumd(b, (x - ts->x) / 100.0, 2);
        BLIT(b, " ");
        bnumd(b, (y - ts->y) / 100.0, 2);
        BLIT(b, " Td");
        ts->x = x;
        ts->y = y;
    }
    BLIT(b, "[(");
    if (r->rtl && r->n > 1) {       /* never in the twin: no gap to draw */
        if (ts->twin && !put_twin(page, r, pf, false, ts, b))
            return false;
        put_rtl_text(r, pf, ts->d, b);
        return true;
    }
    int rise = 0;
    bool clusters = ts->d->nclusters > 0;
    for (size_t k = k0; k < k1; k++) {
        unsigned cid = cv_pdffont_cid(pf, r->g[k].cp);
        bool twin = r->g[k].wide > 0 && cv_pdffont_twin(pf, r->g[k].wide);
        if (twin != ts->twin && !put_twin(page, r, pf, twin, ts, b))
            return false;
        /* A glyph placed off the pen (shape.h): moved there and back. */
        int dx = 0, dy = 0;
        if (clusters) {
            offset(ts->d, r->g[k].cp, &dx, &dy);
            put_rise(r, dy, &rise, b);
        }
        if (dx) {
            BLIT(b, ")");
            bnumd(b, -dx, 1);
            BLIT(b, "(");
        }
        bcode(b, cid, pf->one_byte);
        /* (no adjustment, no TJ number: most glyphs, without the call) */
        double tj = r->g[k].adj != 0 ? cv_run_tj(r, k) : 0;
        if (twin && k + 1 < r->n)
            tj = round((tj - r->g[k].wide) * 10) / 10;
        if (tj != 0 || dx) {
            BLIT(b, ")");
            bnumd(b, -tj + dx, 1);
            BLIT(b, "(");
        }
    }
    BLIT(b, ")]TJ\n");
    if (rise)
        BLIT(b, "0 Ts\n");
    return true;
}

/* The marked-content sequence open in a tagged page's text. */
typedef struct mcstate {
    bool open;
    int node, link;
    const char *lang;
} mcstate;

/* Text of node `node` in link `link` (-1: none) and language `lang`
 * follows: end the open sequence and begin another, unless it is the
 * same.  Text of no node is an artifact: the running header or footer. */
static void mc_switch(buf *b, cv_pdftags *pt, mcstate *ms, int node, int link,
                      const char *lang)
{
    if (ms->open && ms->node == node && ms->link == link &&
        (ms->lang == lang || (ms->lang && lang && !strcmp(ms->lang, lang))))
        return;
    if (ms->open)
        BLIT(b, "EMC\n");
    if (!node) {
        BLIT(b, "/Artifact <</Type/Pagination>> BDC\n");
    } else {
        const char *type;
        int mcid = cv_pdftags_mc(pt, node, link, lang, &type);
        BLIT(b, "/");
        bstr(b, type);
        BLIT(b, " <</MCID ");
        bint(b, mcid);
        BLIT(b, ">> BDC\n");
    }
    *ms = (mcstate){true, node, link, lang};
}

/* The hyphen a line break added at the end of run r (cv_run.hyphen): an
 * artifact, the incidental division of a word that ISO 32000-1 14.8.2.2.3
 * says is no part of the text, so that the structure tree reads the word
 * whole ("summa" "rized": pdfinfo -struct-text, screen readers), while
 * readers that take the text by where glyphs lie (pdftotext, MuPDF) still
 * find the hyphen drawn and join the word as before.  Neither a soft
 * hyphen (U+00AD in the ToUnicode map, which pdftotext does not join on)
 * nor /ActualText (poppler's structure text ignores it in an MCID's
 * property list, and drops the rest of the sequence after a nested one)
 * reads whole in both. */
static bool put_hyphen(HPDF_Page page, const cv_run *r, const cv_pdffont *pf, textstate *ts,
                       buf *b, mcstate *ms)
{
    if (ms->open)
        BLIT(b, "EMC\n");
    ms->open = false;
    BLIT(b, "/Artifact BMC\n");
    if (!put_run_text(page, r, pf, ts, b, r->n - 1, r->n))
        return false;
    BLIT(b, "EMC\n");
    return true;
}

/* The link of page pg whose box holds the middle of a glyph `w` points
 * wide starting at (x, y); -1 for none. */
static int link_at(const cv_page *pg, float x, float w, float y)
{
    float mid = x + w / 2;
    for (size_t i = 0; i < pg->nlinks; i++) {
        const cv_link *l = &pg->links[i];
        if (l->uri && *l->uri && y >= l->y0 && y <= l->y1 && mid >= l->x0 && mid <= l->x1)
            return (int)i;
    }
    return -1;
}

/* Does a link of page pg reach the height y?  If none does, no glyph of a
 * run there is in a link (link_at). */
static bool links_at(const cv_page *pg, float y)
{
    for (size_t i = 0; i < pg->nlinks; i++) {
        const cv_link *l = &pg->links[i];
        if (l->uri && *l->uri && y >= l->y0 && y <= l->y1)
            return true;
    }
    return false;
}

/* The language run r's script implies, when it is not the document's. */
static const char *run_lang(const cv_run *r, const char *doc_lang)
{
    uint32_t cps[64];
    size_t n = r->n < 64 ? r->n : 64;
    for (size_t k = 0; k < n; k++)
        cps[k] = r->g[k].cp;
    return cv_tags_lang_of(cps, n, doc_lang);
}

/* The last character of run r's text: its logical last glyph (the
 * leftmost of a right-to-left run), or the last of the text a complex
 * script's glyph stands for (cv_cluster). */
static uint32_t last_char(const cv_display *d, const cv_run *r)
{
    uint32_t c = r->g[r->rtl ? 0 : r->n - 1].cp;
    const cv_cluster *cl = cv_display_cluster(d, c);
    if (cl && cl->text) {
        size_t len = strlen(cl->text);
        for (size_t j = 0; j < len;)
            j += cv_utf8_decode(cl->text + j, len - j, &c);
    }
    return c;
}

/* Does run i end a line of its element's text, with a character that a
 * space should part from what the element reads next?  A line ends where
 * the element's next run was placed by another line (cv_run.line): the
 * next line of a paragraph, or another field of an entry beside or below
 * it.  Not after a space or a hyphen; after CJK, bullets, dashes and other
 * symbols from U+2000 on only between two fields, not inside a wrapped
 * paragraph (Chinese and Japanese put no space between words) nor at the
 * element's end. */
static bool ends_line(const cv_display *d, const cv_page *pg, size_t i)
{
    const cv_run *r = &pg->runs[i];
    if (!r->n)
        return false;
    uint32_t c = last_char(d, r);
    if (c == ' ' || c == '-' || c == 0x00AD || c == 0x3000 || (c >= 0x2000 && r->wrapped))
        return false;
    for (size_t j = i + 1; j < pg->nruns; j++)
        if (pg->runs[j].tag == r->tag)
            return pg->runs[j].line != r->line;
    return c < 0x2000;          /* the element's last line on the page */
}

/* A tagged page's runs, each cut where a link begins or ends; the text of
 * each link collected (UTF-8) in ltext[link] for its annotation.  A line
 * of an element's text that ends in a letter gets a space, drawn back over
 * its last glyph so that it ends where the line ends (a space has no ink),
 * so that readers that take the text from the structure tree (poppler's
 * pdfinfo -struct-text, screen readers) do not glue the last word of a
 * line to the first of the next; readers that find words by their places
 * (pdftotext) drop it. */
static bool put_tagged_runs(HPDF_Page page, const cv_page *pg, const cv_pdffont *fonts,
                            textstate *ts, buf *b, cv_pdftags *pt, const char *doc_lang,
                            buf *ltext)
{
    mcstate ms = {0};
    for (size_t i = 0; i < pg->nruns; i++) {
        const cv_run *r = &pg->runs[i];
        if (!put_run_state(page, r, &fonts[r->face], ts, b))
            return false;
        const char *lang = r->tag ? run_lang(r, doc_lang) : NULL;
        float x = r->x, scale = r->size / 1000.0f;
        size_t k0 = 0;
        bool hy = r->tag && r->hyphen && !r->rtl && r->n > 1 && r->g[r->n - 1].cp == '-';
        int link = -1;
        bool links = r->tag && links_at(pg, r->y);
        for (size_t k = 0; k <= r->n; k++) {
            int lk = -1;
            if (k < r->n && links) {
                lk = link_at(pg, x, r->g[k].w * scale, r->y);
                if (lk >= 0) {
                    char u[8];
                    bputs(&ltext[lk], u, cv_utf8_encode(r->g[k].cp, u));
                }
                x += (float)((r->g[k].w + cv_run_tj(r, k)) * scale);
            }
            if (k == 0) {
                link = lk;
            } else if (k == r->n || (lk != link && !r->rtl)) {
                /* (a right-to-left run is drawn whole, in one sequence) */
                size_t end = k == r->n && hy ? k - 1 : k;
                if (end > k0) {
                    mc_switch(b, pt, &ms, r->tag, link, lang);
                    if (!put_run_text(page, r, &fonts[r->face], ts, b, k0, end))
                        return false;
                }
                if (end < k && !put_hyphen(page, r, &fonts[r->face], ts, b, &ms))
                    return false;
                k0 = k;
                link = lk;
            }
        }
        const cv_pdffont *pf = &fonts[r->face];
        if (r->tag && cv_pdffont_has(pf, ' ') && ends_line(ts->d, pg, i)) {
            /* Drawn back by its own width, so that it ends where the line
             * does: no box of it passes the line's end. */
            if (ts->twin) {             /* the space is not in the twin */
                const char *name = HPDF_Page_GetLocalFontName(page, pf->font);
                if (!name)
                    return false;
                BLIT(b, "/");
                bstr(b, name);
                BLIT(b, " ");
                bnum(b, r->size);
                BLIT(b, " Tf\n");
                ts->twin = false;
            }
            unsigned cid = cv_pdffont_cid(pf, ' ');
            int w = cv_face_advance(pf->face, cv_face_glyph(pf->face, ' '));
            BLIT(b, "[");
            bint(b, w);
            BLIT(b, "(");
            bcode(b, cid, pf->one_byte);
            BLIT(b, ")]TJ\n");
        }
    }
    if (ms.open)
        BLIT(b, "EMC\n");
    return true;
}

static bool put_runs(HPDF_Page page, const cv_display *d, const cv_page *pg,
                     const cv_pdffont *fonts, buf *b, cv_pdftags *pt, const char *doc_lang,
                     buf *ltext)
{
    if (!pg->nruns)
        return true;
    BLIT(b, "BT\n");
    textstate ts = {.face = -1, .size = -1, .fill = -1, .stroke = -1, .d = d};
    if (pt) {
        if (!put_tagged_runs(page, pg, fonts, &ts, b, pt, doc_lang, ltext))
            return false;
    } else {
        for (size_t i = 0; i < pg->nruns; i++) {
            const cv_run *r = &pg->runs[i];
            if (!put_run_state(page, r, &fonts[r->face], &ts, b))
                return false;
            if (!put_run_text(page, r, &fonts[r->face], &ts, b, 0, r->n))
                return false;
        }
    }
    BLIT(b, "ET\n");
    return true;
}

static bool put_links(HPDF_Page page, const cv_page *pg, digest *md5, cv_pdftags *pt,
                      const buf *ltext)
{
    for (size_t i = 0; i < pg->nlinks; i++) {
        const cv_link *l = &pg->links[i];
        if (!l->uri || !*l->uri)        /* a link to nothing is no link */
            continue;
        /* Quarter points, rounded outwards, print short and exact. */
        HPDF_Rect rect = {floorf(l->x0 * 4) / 4, floorf(l->y0 * 4) / 4, ceilf(l->x1 * 4) / 4,
                          ceilf(l->y1 * 4) / 4};
        char *uri = encode_uri(l->uri);
        HPDF_Annotation an = HPDF_Page_CreateURILinkAnnot(page, rect, uri);
        md5_update(md5, uri, strlen(uri));
        free(uri);
        /* No border box; printable (PDF/A asks for the Print flag). */
        if (!an || HPDF_LinkAnnot_SetBorderStyle(an, 0, 0, 0) != HPDF_OK ||
            HPDF_Dict_AddNumber(an, "F", 4) != HPDF_OK)
            return false;
        /* /P and the action's /Type are optional and cost bytes on every
         * link. */
        HPDF_Dict_RemoveElement(an, "P");
        HPDF_Dict action = HPDF_Dict_GetItem(an, "A", HPDF_OCLASS_DICT);
        if (action)
            HPDF_Dict_RemoveElement(action, "Type");
        /* Tagged: in its Link element, described by its text. */
        if (pt && !cv_pdftags_annot(pt, (int)i, an, ltext[i].n ? ltext[i].s : l->uri))
            return false;
    }
    return true;
}

static bool draw_page(HPDF_Doc pdf, const cv_display *d, const cv_page *pg,
                      const cv_pdffont *fonts, const images *ims, ctx *c, buf *b,
                      digest *md5, cv_pdftags *pt)
{
    HPDF_Page page = HPDF_AddPage(pdf);
    if (!page)
        return false;
    HPDF_Page_SetWidth(page, d->width);
    HPDF_Page_SetHeight(page, d->height);
    HPDF_Stream stream = ((HPDF_PageAttr)page->attr)->stream;
    cv_pdffont_own_stream(stream);
    if (pt)
        cv_pdftags_page(pt, page);
    b->n = 0;
    if (pt && pg->nrules)
        BLIT(b, "/Artifact BMC\n");
    put_rules(b, pg);
    if (pt && pg->nrules)
        BLIT(b, "EMC\n");
    /* Each link's text, for its annotation's /Contents. */
    buf *ltext = pt ? cv_xcalloc(pg->nlinks + 1, sizeof *ltext) : NULL;
    bool ok = flush(stream, b, md5) && put_images(page, pg, ims, b, md5, pt) &&
              (!pg->nruns || (put_runs(page, d, pg, fonts, b, pt, d->lang, ltext) &&
                              flush(stream, b, md5))) &&
              put_links(page, pg, md5, pt, ltext) && !c->status;
    for (size_t i = 0; ltext && i < pg->nlinks; i++)
        free(ltext[i].s);
    free(ltext);
    return ok;
}

static bool is_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return false;
    return true;
}

/* A bookmark to the top `y` of a page, under `parent` (NULL: top level). */
static HPDF_Outline bookmark(HPDF_Doc pdf, HPDF_Outline parent, const char *title,
                             HPDF_Page page, float y)
{
    /* A title that is not ASCII is made with a placeholder and replaced in
     * its place (pdf_meta.h: cv_pdfmeta_text). */
    bool ascii = is_ascii(title);
    HPDF_Outline o = HPDF_CreateOutline(pdf, parent, ascii ? title : "?", NULL);
    if (o && !ascii && HPDF_Dict_Add(o, "Title", cv_pdfmeta_text(pdf, title)) != HPDF_OK)
        return NULL;
    /* A direct [page /XYZ null top null] (PDF/A rejects indirect ones). */
    HPDF_Array dest = o ? HPDF_Array_New(pdf->mmgr) : NULL;
    if (!dest)
        return NULL;
    if (HPDF_Array_Add(dest, page) != HPDF_OK || HPDF_Array_AddName(dest, "XYZ") != HPDF_OK ||
        HPDF_Array_Add(dest, HPDF_Null_New(pdf->mmgr)) != HPDF_OK ||
        HPDF_Array_AddNumber(dest, (HPDF_INT32)ceilf(y)) != HPDF_OK ||
        HPDF_Array_Add(dest, HPDF_Null_New(pdf->mmgr)) != HPDF_OK) {
        HPDF_Array_Free(dest);
        return NULL;
    }
    if (HPDF_Dict_Add(o, "Dest", dest) != HPDF_OK)
        return NULL;
    /* libharu marks every item /Type /Outlines, which only the root is. */
    HPDF_Dict_RemoveElement(o, "Type");
    return o;
}

/* The bookmarks and page labels of one résumé whose pages start at
 * `first`: in a book, the person with their sections beneath and labels
 * "Name 1", "Name 2"...; alone, the sections and labels 1, 2... */
static bool add_navigation(HPDF_Doc pdf, const cv_display *d, size_t first, bool book)
{
    HPDF_Outline parent = NULL;
    if (book && d->npages) {
        HPDF_Page p0 = HPDF_GetPageByIndex(pdf, (HPDF_UINT)first);
        /* A résumé without a name: its title ("Résumé"), not "?". */
        const char *who = d->author ? d->author : d->title && *d->title ? d->title
                                                                        : "R\xC3\xA9sum\xC3\xA9";
        parent = p0 ? bookmark(pdf, NULL, who, p0, d->height) : NULL;
        if (!parent)
            return false;
        HPDF_Outline_SetOpened(parent, HPDF_FALSE);
    }
    for (size_t i = 0; i < d->nmarks; i++) {
        const cv_mark *m = &d->marks[i];
        HPDF_Page page = HPDF_GetPageByIndex(pdf, (HPDF_UINT)(first + m->page));
        if (!page || !bookmark(pdf, parent, m->title, page, m->y))
            return false;
    }
    char *prefix = NULL;
    if (book && d->author) {
        prefix = cv_xmalloc(strlen(d->author) + 2);
        sprintf(prefix, "%s ", d->author);
    }
    /* libharu writes a prefix byte for byte; set it as a text string
     * instead (UTF-16 when it is not ASCII), on the label dictionary it has
     * just added. */
    bool ok = HPDF_AddPageLabel(pdf, (HPDF_UINT)first, HPDF_PAGE_NUM_STYLE_DECIMAL, 1,
                                NULL) == HPDF_OK;
    if (ok && prefix) {
        HPDF_Dict labels = HPDF_Dict_GetItem(pdf->catalog, "PageLabels", HPDF_OCLASS_DICT);
        HPDF_Array nums = labels ? HPDF_Dict_GetItem(labels, "Nums", HPDF_OCLASS_ARRAY) : NULL;
        HPDF_Dict label = nums && nums->list->count
                              ? HPDF_Array_GetItem(nums, nums->list->count - 1, HPDF_OCLASS_DICT)
                              : NULL;
        ok = label && HPDF_Dict_Add(label, "P", cv_pdfmeta_text(pdf, prefix)) == HPDF_OK;
    }
    free(prefix);
    return ok;
}

/* libharu writes the finished document through this, straight into a
 * buf (the stream's attr): its own memory stream copies every write byte
 * by byte into 4 KiB pieces, which were then copied out again (1.3 M
 * instructions a tagged résumé). */
static HPDF_STATUS to_buf(HPDF_Stream s, const HPDF_BYTE *p, HPDF_UINT n)
{
    cv_buf_put(s->attr, p, n);
    return HPDF_OK;
}

/* The document's bytes, as libharu writes them, in *b (malloc'd). */
static bool saved(HPDF_Doc pdf, ctx *c, const char *path, buf *b, cv_error *err)
{
    *b = (buf){cv_xmalloc(1 << 16), 0, 1 << 16};
    /* HPDF_SaveToStream writes into pdf->stream when there is one (and
     * empties it only when it is one of libharu's memory streams). */
    if (!pdf->stream)
        pdf->stream = HPDF_CallbackWriter_New(pdf->mmgr, to_buf, b);
    if (pdf->stream)
        pdf->stream->attr = b;
    bool ok = pdf->stream && pdf->stream->type == HPDF_STREAM_CALLBACK &&
              HPDF_SaveToStream(pdf) == HPDF_OK && !c->status;
    if (pdf->stream && pdf->stream->type == HPDF_STREAM_CALLBACK)
        pdf->stream->attr = NULL;
    if (!ok) {
        free(b->s);
        *b = (buf){0};
        return cv_error_at(err, (cv_pos){path, 0, 0}, "libharu failed writing the PDF "
                           "(error 0x%04X)", (unsigned)c->status);
    }
    return true;
}

/* The document's bytes in memory: packed with object streams and a
 * cross-reference stream (pdf_pack.h: cv_pdf_pack) unless `pack` is false
 * (PDF/A-1).  *bytes is malloc'd. */
static bool bytes_of(HPDF_Doc pdf, ctx *c, const char *path, bool pack, char **bytes,
                     size_t *len, cv_error *err)
{
    *bytes = NULL;
    *len = 0;
    buf b;
    if (!saved(pdf, c, path, &b, err))
        return false;
    if (!pack) {
        *bytes = b.s;
        *len = b.n;
        return true;
    }
    bool ok = cv_pdf_pack(b.s, b.n, bytes, len, path, err);
    free(b.s);
    return ok;
}

/* The document's bytes, through a cv_out (output.h). */
static bool save(HPDF_Doc pdf, ctx *c, const char *path, bool pack, const cv_inputs *inputs,
                 cv_error *err)
{
    char *bytes;
    size_t len;
    if (!bytes_of(pdf, c, path, pack, &bytes, &len, err))
        return false;
    cv_out *o = cv_out_open(path, inputs, err);
    bool ok = o && cv_out_write(o, bytes, len, err);
    free(bytes);
    if (o && !ok)
        cv_out_abort(o);
    return ok && cv_out_commit(o, err);
}

/* libharu's memory, from blocks of the book's own.  libharu makes (and at
 * the end frees) a few thousand small objects a résumé, and malloc and
 * free cost as much as their work; its own memory pool cannot serve, for
 * it does not align what it hands out.  A small piece is cut from a block
 * and freed with the book (libharu frees little before the end, and
 * nothing that grows); a large one is malloc'd and freed when libharu
 * frees it (a list that grows, say the cross-reference table of a book
 * of a thousand résumés).  libharu's allocation functions are given
 * nothing but the size: each cv_book_* call names its book's pool in
 * `pool_now` before it calls libharu. */
enum { POOL_BLOCK = 64 * 1024, POOL_SMALL = 512, POOL_HEAD = 16 };

typedef struct poolblk {
    struct poolblk *next;
    size_t used;
    _Alignas(16) unsigned char data[POOL_BLOCK];
} poolblk;

static _Thread_local poolblk **pool_now;

/* Each piece has POOL_HEAD bytes before it: its first byte says whether
 * it was malloc'd (1) or cut from a block (0). */
static void *HPDF_STDCALL pool_alloc(HPDF_UINT size)
{
    size_t n = ((size_t)size + 15) & ~(size_t)15;
    unsigned char *p;
    if (n > POOL_SMALL || !pool_now) {
        p = malloc(POOL_HEAD + n);
        if (!p)
            return NULL;
        p[0] = 1;
        return p + POOL_HEAD;
    }
    poolblk *b = *pool_now;
    if (!b || b->used + POOL_HEAD + n > POOL_BLOCK) {
        b = malloc(sizeof *b);
        if (!b)
            return NULL;
        b->next = *pool_now;
        b->used = 0;
        *pool_now = b;
    }
    p = b->data + b->used;
    b->used += POOL_HEAD + n;
    p[0] = 0;
    return p + POOL_HEAD;
}

static void HPDF_STDCALL pool_free(void *ptr)
{
    unsigned char *p = ptr ? (unsigned char *)ptr - POOL_HEAD : NULL;
    if (p && p[0] == 1)
        free(p);
}

static void pool_release(poolblk **pool)
{
    while (*pool) {
        poolblk *b = *pool;
        *pool = b->next;
        free(b);
    }
}

/* A PDF being made: one résumé, or a book of several. */
struct cv_book {
    ctx c;
    HPDF_Doc pdf;
    poolblk *pool;              /* libharu's small pieces (pool_alloc) */
    const cv_fontset *fs;
    cv_pdffont *fonts;          /* per face of the fontset */
    size_t nfaces;
    bool embedded;              /* fonts built (at the first page drawn) */
    bool pdfa, pdfua, book;
    int pdfa_part;              /* 1 or 2: PDF/A-1b packs nothing */
    char pdfa_conformance;
    cv_pdftags *tags;           /* the structure tree, once a résumé has one */
    buf b;
    digest md5;
    size_t pages;               /* drawn so far */
    size_t people;
    /* The information, from the first résumé; in a book, everyone. */
    char *authors, *lang;
    const char *title, *subject, *keywords;
    bool has_date, lang_differs, authors_full;
    long long epoch;
};

cv_book *cv_book_new(const cv_fontset *fs, bool book)
{
    cv_book *k = cv_xcalloc(1, sizeof *k);
    pool_now = &k->pool;
    k->pdf = HPDF_NewEx(on_error, pool_alloc, pool_free, /*mem_pool_buf_size*/ 0, &k->c);
    if (!k->pdf) {
        pool_release(&k->pool);
        pool_now = NULL;
        free(k);
        return NULL;
    }
    HPDF_SetCompressionMode(k->pdf, HPDF_COMP_ALL);
    /* libharu's UTF-8 encoder is made only when a string needs it
     * (pdf_meta.h: cv_pdfmeta_text): its tables cost 1.4 M instructions. */
    HPDF_UseUTFEncodings(k->pdf);
    k->fs = fs;
    k->book = book;
    k->nfaces = cv_fontset_count(fs);
    k->fonts = cv_xcalloc(k->nfaces ? k->nfaces : 1, sizeof *k->fonts);
    k->b = (buf){cv_xmalloc(4096), 0, 4096};
    for (size_t f = 0; f < k->nfaces; f++)
        k->fonts[f].id = (int)f;            /* .face once used (cv_book_add) */
    md5_init(&k->md5);
    return k;
}

/* Is d to be drawn tagged?  (PDF/UA and PDF/A-2a need it, whatever the
 * layout says.) */
static bool tagged(const cv_display *d)
{
    return d->tags && (d->pdfua || (d->pdfa && d->pdfa_part == 2 && d->pdfa_conformance == 'a') ||
                       !d->untagged);
}

/* A font for every face of the fontset: fallback faces are found lazily
 * (fontset.h), so a résumé of a book laid out after cv_book_new() may use
 * faces that did not exist then (a Hebrew profile after English ones). */
static void grow_fonts(cv_book *k)
{
    size_t n = cv_fontset_count(k->fs);
    if (n <= k->nfaces)
        return;
    k->fonts = cv_xrealloc(k->fonts, n * sizeof *k->fonts);
    memset(k->fonts + k->nfaces, 0, (n - k->nfaces) * sizeof *k->fonts);
    for (size_t f = k->nfaces; f < n; f++)
        k->fonts[f].id = (int)f;
    k->nfaces = n;
}

void cv_book_note(cv_book *k, const cv_display *d)
{
    pool_now = &k->pool;
    grow_fonts(k);
    bool tags = tagged(d), clusters = d->nclusters > 0;
    /* Per face: its space noted (1), or it has none (-1). */
    signed char *space = tags ? cv_xcalloc(k->nfaces ? k->nfaces : 1, 1) : NULL;
    for (size_t p = 0; p < d->npages; p++)
        for (size_t i = 0; i < d->pages[p].nruns; i++) {
            const cv_run *r = &d->pages[p].runs[i];
            cv_pdffont *pf = &k->fonts[r->face];
            for (size_t g = 0; g < r->n; g++) {
                uint32_t cp = r->g[g].cp;
                if (!r->g[g].wide && cv_pdffont_noted(pf, cp))
                    continue;
                const cv_cluster *cl = clusters ? cv_display_cluster(d, cp) : NULL;
                if (r->g[g].wide)
                    cv_pdffont_use_wide(pf, cp, cl, r->g[g].wide);
                else
                    cv_pdffont_use(pf, cp, cl);
            }
            /* Tagged text may end a line with a space (put_tagged_runs). */
            if (tags && r->tag && !space[r->face]) {
                const cv_face *fc = cv_fontset_face(k->fs, r->face);
                space[r->face] = fc && cv_face_glyph(fc, ' ') ? 1 : -1;
                if (space[r->face] > 0)
                    cv_pdffont_use(pf, ' ', NULL);
            }
        }
    free(space);
}

/* Append `s` to the book's list of authors ("A, B, C"); one that would
 * take the list past 4,000 bytes ends it with "..." instead (libharu's
 * strings end at 65,535 bytes, and nobody reads further). */
static void add_author(cv_book *k, const char *s)
{
    enum { MAX = 4000 };
    if (k->authors_full)
        return;
    size_t n = k->authors ? strlen(k->authors) : 0, l = strlen(s);
    if (n + 2 + l > MAX) {
        s = "...";
        l = 3;
        k->authors_full = true;
    }
    char *t = cv_xrealloc(k->authors, n + l + 3);
    k->authors = t;
    sprintf(t + n, "%s%s", n ? ", " : "", s);
}

bool cv_book_add(cv_book *k, const cv_display *d, cv_error *err)
{
    pool_now = &k->pool;
    HPDF_Doc pdf = k->pdf;
    bool ok = true;
    if (!k->embedded)
        grow_fonts(k);
    /* A face no résumé noted cannot be drawn (laying out again found one
     * the first pass did not). */
    for (size_t p = 0; p < d->npages; p++)
        for (size_t i = 0; i < d->pages[p].nruns; i++)
            if ((size_t)d->pages[p].runs[i].face >= k->nfaces)
                return cv_error_at(err, (cv_pos){0}, "a face was found after the fonts were "
                                   "embedded");
    if (!k->embedded) {
        /* Every face once, subset to what every résumé noted draws. */
        k->pdfa = d->pdfa;
        k->pdfa_part = d->pdfa && d->pdfa_part == 2 ? 2 : 1;
        k->pdfa_conformance = d->pdfa_conformance ? d->pdfa_conformance : 'b';
        k->pdfua = d->pdfua;
        HPDF_Dict cmap1 = NULL;
        for (size_t f = 0; ok && f < k->nfaces; f++) {
            cv_pdffont_seal(&k->fonts[f]);
            k->fonts[f].cidset = k->pdfa;
            /* A face drew glyphs, so it is open (fontset.h: lazily found
             * fallback faces are opened only when used). */
            if (k->fonts[f].n && (k->fonts[f].face = cv_fontset_face(k->fs, (int)f)))
                ok = cv_pdffont_embed(pdf, &k->fonts[f], &cmap1, err);
        }
        k->embedded = true;
        if (!ok)
            return false;
    }
    /* Images are this résumé's own: each distinct one embedded once. */
    size_t nimgs = 0;
    for (size_t p = 0; p < d->npages; p++)
        nimgs += d->pages[p].nimgs;
    images ims = {cv_xcalloc(nimgs ? nimgs : 1, sizeof *ims.im),
                  cv_xcalloc(nimgs ? nimgs : 1, sizeof *ims.xo), 0};
    for (size_t p = 0; ok && p < d->npages; p++)
        for (size_t i = 0; ok && i < d->pages[p].nimgs; i++)
            ok = load_image(pdf, &ims, d->pages[p].imgs[i].im, &k->c, err);
    if (ok && tagged(d)) {
        if (!k->tags) {
            k->tags = cv_pdftags_new(pdf, k->book);
            if (k->pdfa && k->pdfa_part == 1)
                cv_pdftags_lean(k->tags);
        }
        cv_pdftags_begin(k->tags, d->tags, d->lang);
    }
    for (size_t p = 0; ok && p < d->npages; p++)
        if (!draw_page(pdf, d, &d->pages[p], k->fonts, &ims, &k->c, &k->b, &k->md5,
                       tagged(d) ? k->tags : NULL))
            ok = cv_error_at(err, (cv_pos){0}, "libharu failed drawing page %zu "
                             "(error 0x%04X)", k->pages + p + 1, (unsigned)k->c.status);
    free(ims.im);
    free(ims.xo);
    if (ok && (!add_navigation(pdf, d, k->pages, k->book) || k->c.status))
        ok = cv_error_at(err, (cv_pos){0}, "libharu failed adding bookmarks "
                         "(error 0x%04X)", (unsigned)k->c.status);
    if (!ok)
        return false;
    k->pages += d->npages;
    if (!k->people++) {
        k->title = d->title;
        k->subject = d->subject;
        k->keywords = d->keywords;
        k->has_date = d->has_date;
        k->epoch = d->epoch;
        k->lang = d->lang ? cv_xstrdup(d->lang) : NULL;
    } else if (!k->lang || !d->lang || strcmp(k->lang, d->lang)) {
        k->lang_differs = true;
    }
    if (d->author)
        add_author(k, d->author);
    /* Strings of the display die with its arena: keep only what the
     * metadata needs, copied, and only for a single résumé. */
    if (k->book)
        k->title = k->subject = k->keywords = NULL;
    return true;
}

/* The document information and /ID, once every page is in. */
static bool finish(cv_book *k, const char *title, const char *path, cv_error *err)
{
    if (!k->pages)
        return cv_error_at(err, (cv_pos){path, 0, 0}, "nothing to write: no page");
    cv_pdfmeta m = {.creator = "cvpdf " CV_VERSION, .pdfa = k->pdfa, .pdfua = k->pdfua,
                    .pdfa_part = k->pdfa_part, .pdfa_conformance = k->pdfa_conformance,
                    .title = k->book ? title : k->title, .author = k->authors,
                    .subject = k->subject, .keywords = k->keywords,
                    .lang = k->lang_differs ? NULL : k->lang,
                    .has_date = k->has_date, .epoch = k->epoch};
    /* PDF/UA: a title, shown in the window; the name when the layout has
     * none. */
    if (m.pdfua && (!m.title || !*m.title))
        m.title = m.author;
    /* The /ID: a digest of the content and the information. */
    const char *info[] = {m.title, m.author, m.subject, m.keywords, m.lang};
    for (size_t i = 0; i < sizeof info / sizeof *info; i++)
        if (info[i])
            md5_update(&k->md5, info[i], strlen(info[i]) + 1);
    HPDF_BYTE id[16];
    md5_final(&k->md5, id);
    m.id = id;
    if (k->tags && (!cv_pdftags_finish(k->tags) || k->c.status))
        return cv_error_at(err, (cv_pos){path, 0, 0}, "libharu failed writing the structure "
                           "tree (error 0x%04X)", (unsigned)k->c.status);
    return cv_pdfmeta_write(k->pdf, &m, err);
}

/* Is the file packed into object streams?  All but PDF/A-1, which forbids
 * them. */
static bool packed(const cv_book *k)
{
    return !k->pdfa || k->pdfa_part == 2;
}

bool cv_book_write(cv_book *k, const char *title, const char *path, const cv_inputs *inputs,
                   cv_error *err)
{
    pool_now = &k->pool;
    return finish(k, title, path, err) && save(k->pdf, &k->c, path, packed(k), inputs, err);
}

bool cv_book_bytes(cv_book *k, const char *title, const char *path, char **bytes,
                   size_t *len, cv_error *err)
{
    *bytes = NULL;
    *len = 0;
    pool_now = &k->pool;
    return finish(k, title, path, err) && bytes_of(k->pdf, &k->c, path, packed(k), bytes, len, err);
}

void cv_book_free(cv_book *k)
{
    if (!k)
        return;
    pool_now = &k->pool;
    HPDF_Free(k->pdf);
    pool_release(&k->pool);
    pool_now = NULL;
    cv_pdftags_free(k->tags);
    for (size_t f = 0; f < k->nfaces; f++)
        cv_pdffont_free(&k->fonts[f]);
    free(k->fonts);
    free(k->b.s);
    free(k->authors);
    free(k->lang);
    free(k);
}

bool cv_draw_pdf(const cv_display *d, const cv_fontset *fs, const char *path,
                 const cv_inputs *inputs, cv_error *err)
{
    cv_book *k = cv_book_new(fs, false);
    if (!k)
        return cv_error_at(err, (cv_pos){path, 0, 0}, "cannot start libharu");
    cv_book_note(k, d);
    bool ok = cv_book_add(k, d, err) && cv_book_write(k, NULL, path, inputs, err);
    cv_book_free(k);
    return ok;
}

bool cv_draw_pdf_bytes(const cv_display *d, const cv_fontset *fs, const char *path, char **bytes,
                       size_t *len, cv_error *err)
{
    *bytes = NULL;
    *len = 0;
    cv_book *k = cv_book_new(fs, false);
    if (!k)
        return cv_error_at(err, (cv_pos){path, 0, 0}, "cannot start libharu");
    cv_book_note(k, d);
    bool ok = cv_book_add(k, d, err) && cv_book_bytes(k, NULL, path, bytes, len, err);
    cv_book_free(k);
    return ok;
}
