/* image.c - PNG and JPEG photos to 8-bit gray or RGB samples.  See image.h.
 *
 * The file is read whole into memory (bounded by CV_IMAGE_MAX_BYTES) and
 * decoded from there, so a truncated file shows up in exactly one place:
 * the read callback (PNG) or the source manager's end-of-data warning
 * (JPEG).
 *
 * Both libraries report errors by calling back, and the callback must not
 * return: it longjmps to the setjmp() in decode_png()/decode_jpeg().  The
 * C rule that bites there (C11 7.13.2.1) is that a non-volatile local of
 * the function that called setjmp(), changed after it, is indeterminate
 * after the longjmp.  So each decoder keeps everything that changes after
 * setjmp() - the library structs, the scratch buffer, the message - in a
 * job struct that belongs to its caller's frame and is reached through a
 * pointer, and the caller releases what the job holds whether decoding
 * succeeded or not.  The decoders' own locals are never read after a
 * longjmp (they return false at once), so none of them needs volatile.
 * Pixels come from the arena; the malloc'd buffers (the row pointers, and
 * the PNG rows with their alpha before flattening) live in the job.
 *
 * Transparency is flattened on white: v' = (v*a + 255*(255-a)) / 255,
 * rounded to nearest.
 */
#include "image.h"
#include "arena.h"
#include "file.h"
#include "module.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>
#include <png.h>

static bool too_big(uint32_t w, uint32_t h)
{
    return w > CV_IMAGE_MAX_SIDE || h > CV_IMAGE_MAX_SIDE ||
           (uint64_t)w * h > CV_IMAGE_MAX_PIXELS;
}

static bool fail_too_big(cv_error *err, cv_pos pos, const char *path, uint32_t w, uint32_t h)
{
    return cv_error_at(err, pos, "photo '%s' is %ux%u pixels; cvpdf takes at most %u pixels "
                       "a side and %u megapixels", path, (unsigned)w, (unsigned)h,
                       CV_IMAGE_MAX_SIDE, CV_IMAGE_MAX_PIXELS / 1000000);
}

static unsigned char flatten(unsigned v, unsigned alpha)
{
    return (unsigned char)((v * alpha + 255 * (255 - alpha) + 127) / 255);
}

static cv_image *new_image(cv_arena *a, const char *path, unsigned w, unsigned h, unsigned ch)
{
    cv_image *im = cv_arena_alloc(a, sizeof *im);
    im->path = cv_arena_strdup(a, path);
    im->width = w;
    im->height = h;
    im->channels = ch;
    return im;
}

/* ---- Scaling ------------------------------------------------------------ */

/* One line of `n` samples (`istride` apart) to `m` samples (`ostride`
 * apart), m <= n: output sample o averages the input over [o*s, (o+1)*s)
 * with s = n/m, the partly covered samples at both ends weighted by the
 * part covered.  Applied to rows, then to columns, this is the 2-D area
 * average, since a pixel's overlap is the product of its two overlaps. */
static void box_line(const float *in, size_t n, size_t istride, float *out, size_t m,
                     size_t ostride)
{
    double s = (double)n / m;
    for (size_t o = 0; o < m; o++) {
        double x0 = o * s, x1 = (o + 1) * s, sum = 0;
        for (size_t i = (size_t)x0; i < n && i < x1; i++) {
            double lo = i > x0 ? (double)i : x0, hi = i + 1 < x1 ? (double)(i + 1) : x1;
            sum += (hi - lo) * in[i * istride];
        }
        out[o * ostride] = (float)(sum / s);
    }
}

/* The size `w` x `h` takes to fit in max_w x max_h (never enlarged). */
static void fit_size(unsigned w, unsigned h, unsigned max_w, unsigned max_h, unsigned *nw,
                     unsigned *nh)
{
    max_w = max_w ? max_w : 1;
    max_h = max_h ? max_h : 1;
    if (w <= max_w && h <= max_h) {
        *nw = w, *nh = h;
        return;
    }
    /* The limiting side gets its limit exactly; the other is rounded. */
    if ((uint64_t)w * max_h >= (uint64_t)h * max_w) {
        *nw = max_w;
        *nh = (unsigned)(((uint64_t)h * max_w + w / 2) / w);
    } else {
        *nh = max_h;
        *nw = (unsigned)(((uint64_t)w * max_h + h / 2) / h);
    }
    *nw = *nw < 1 ? 1 : *nw > max_w ? max_w : *nw;
    *nh = *nh < 1 ? 1 : *nh > max_h ? max_h : *nh;
}

/* A picture made a row at a time, scaled down on the way when it does not
 * fit: each row is scaled across (box_line) as it comes, and added into the
 * one or two output rows it covers, which are finished as soon as no later
 * row reaches them.  So a large photo never needs more than a row of its
 * own and two rows of the result in floats: the arithmetic, and so every
 * sample, is exactly that of scaling rows first and then columns. */
typedef struct fitter {
    cv_image *im;
    unsigned char *px;       /* the result's samples (arena) */
    unsigned w, h, ch, nw, nh;
    bool scale;
    unsigned y;              /* rows given so far */
    unsigned next;           /* first output row not yet finished */
    float *src, *row;        /* one input row's channel; a row scaled across */
    double *acc;             /* three output rows being summed (ring) */
} fitter;

static void fit_begin(cv_arena *a, fitter *f, const char *path, unsigned w, unsigned h,
                      unsigned ch, unsigned max_w, unsigned max_h)
{
    *f = (fitter){.w = w, .h = h, .ch = ch};
    fit_size(w, h, max_w, max_h, &f->nw, &f->nh);
    f->scale = f->nw != w || f->nh != h;
    f->im = new_image(a, path, f->nw, f->nh, ch);
    f->px = cv_arena_alloc(a, (size_t)f->nw * f->nh * ch);
    f->im->pixels = f->px;
    if (f->scale) {
        f->src = cv_xmalloc(sizeof *f->src * w);
        f->row = cv_xmalloc(sizeof *f->row * (size_t)f->nw * ch);
        f->acc = cv_xcalloc((size_t)3 * f->nw * ch, sizeof *f->acc);
    }
}

static void fit_free(fitter *f)
{
    free(f->src);
    free(f->row);
    free(f->acc);
    f->src = f->row = NULL;
    f->acc = NULL;
}

/* Output row o is done: round its sums into the result. */
static void fit_emit(fitter *f, unsigned o)
{
    double s = (double)f->h / f->nh;
    size_t n = (size_t)f->nw * f->ch;
    double *acc = f->acc + (size_t)(o % 3) * n;
    unsigned char *out = f->px + (size_t)o * n;
    for (size_t k = 0; k < n; k++) {
        float v = (float)(acc[k] / s) + 0.5f;
        out[k] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
        acc[k] = 0;
    }
}

static void fit_row(fitter *f, const unsigned char *in)
{
    unsigned y = f->y++;
    if (y >= f->h)
        return;
    if (!f->scale) {
        memcpy(f->px + (size_t)y * f->w * f->ch, in, (size_t)f->w * f->ch);
        return;
    }
    unsigned ch = f->ch;
    for (unsigned c = 0; c < ch; c++) {
        for (unsigned x = 0; x < f->w; x++)
            f->src[x] = in[(size_t)x * ch + c];
        box_line(f->src, f->w, 1, f->row + c, f->nw, ch);
    }
    /* The output rows o with floor(o*s) <= y < (o+1)*s, as box_line
     * weighs them. */
    double s = (double)f->h / f->nh;
    size_t n = (size_t)f->nw * ch;
    unsigned o0 = (unsigned)(y / s);
    for (unsigned o = o0 ? o0 - 1 : 0; o < f->nh && o <= o0 + 1; o++) {
        double x0 = o * s, x1 = (o + 1) * s;
        if (!((size_t)x0 <= y && y < x1))
            continue;
        double lo = y > x0 ? (double)y : x0, hi = y + 1 < x1 ? (double)(y + 1) : x1;
        double *acc = f->acc + (size_t)(o % 3) * n;
        for (size_t k = 0; k < n; k++)
            acc[k] += (hi - lo) * f->row[k];
    }
    /* Finished: the rows that the next input row no longer reaches. */
    while (f->next < f->nh && !(y + 1 < f->h && y + 1 < (f->next + 1) * s))
        fit_emit(f, f->next++);
}

/* The picture, once every row was given (the caller frees with fit_free). */
static cv_image *fit_end(fitter *f)
{
    while (f->scale && f->next < f->nh)
        fit_emit(f, f->next++);
    fit_free(f);
    return f->im;
}

const cv_image *cv_image_fit(cv_arena *a, const cv_image *im, unsigned max_w, unsigned max_h)
{
    unsigned nw, nh;
    fit_size(im->width, im->height, max_w, max_h, &nw, &nh);
    if (nw == im->width && nh == im->height)
        return im;
    fitter f;
    fit_begin(a, &f, im->path, im->width, im->height, im->channels, max_w, max_h);
    size_t stride = (size_t)im->width * im->channels;
    for (unsigned y = 0; y < im->height; y++)
        fit_row(&f, im->pixels + y * stride);
    return fit_end(&f);
}

/* ---- PNG ---------------------------------------------------------------- */

typedef struct pngjob {
    const unsigned char *data;
    size_t size, off;
    png_structp png;
    png_infop info;
    bool truncated, oversized;
    bool in_data;            /* reading IDAT and what follows it */
    png_uint_32 w, h;
    unsigned ch;             /* channels decoded: 1 to 4 */
    const cv_image_limit *limit;   /* the size to fit in */
    fitter fit;              /* where the rows go (its buffers: malloc'd) */
    unsigned char *scratch;  /* malloc'd: all rows of an interlaced image */
    unsigned char *row;      /* malloc'd: one decoded row, one flattened */
    png_bytep *rows;         /* malloc'd */
    char msg[200];
} pngjob;

static void png_fail(png_structp png, png_const_charp msg)
{
    pngjob *j = png_get_error_ptr(png);
    snprintf(j->msg, sizeof j->msg, "%s", msg);
    png_longjmp(png, 1);
}

/* libpng reports some damage to the image data only as a warning (a
 * "benign error"): a bad zlib checksum or compressed data left over after
 * the last row, IDAT chunks after other chunks.  Once the pixels are read, a
 * warning is an error, unless it is about an ancillary chunk (a name that
 * starts in lower case, "tEXt: CRC error"), which libpng has just dropped.
 * Before that, warnings (an unknown sRGB profile...) leave the pixels be. */
static void png_warned(png_structp png, png_const_charp msg)
{
    pngjob *j = png_get_error_ptr(png);
    bool ancillary = msg[0] >= 'a' && msg[0] <= 'z' && msg[1] && msg[2] && msg[3] &&
                     msg[4] == ':';
    if (j->in_data && !ancillary)
        png_error(png, msg);
}

static void png_read_mem(png_structp png, png_bytep out, size_t n)
{
    pngjob *j = png_get_io_ptr(png);
    if (n > j->size - j->off) {
        j->truncated = true;
        png_error(png, "the file ends early");
    }
    memcpy(out, j->data + j->off, n);
    j->off += n;
}

/* Give decoded row `in` (j->ch channels) to the fitter, alpha flattened
 * on white. */
static void png_give(pngjob *j, const unsigned char *in)
{
    unsigned ch = j->fit.ch;
    if (ch == j->ch) {
        fit_row(&j->fit, in);
        return;
    }
    unsigned char *out = j->row + (size_t)j->w * j->ch;
    for (size_t x = 0; x < j->w; x++)
        for (unsigned c = 0; c < ch; c++)
            out[x * ch + c] = flatten(in[x * j->ch + c], in[x * j->ch + ch]);
    fit_row(&j->fit, out);
}

/* Decode, a row at a time, into j->fit (8-bit gray or RGB, scaled to fit
 * the size j->limit gives).  An interlaced image is decoded whole first: its
 * rows are complete only after the last pass.  Everything that changes
 * after setjmp() is in *j (see the top of the file). */
static bool decode_png(cv_arena *a, const char *path, pngjob *j)
{
    j->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, j, png_fail, png_warned);
    if (!j->png || !(j->info = png_create_info_struct(j->png))) {
        snprintf(j->msg, sizeof j->msg, "libpng cannot start (out of memory)");
        return false;
    }
    if (setjmp(png_jmpbuf(j->png)))
        return false;
    png_set_read_fn(j->png, j, png_read_mem);
    png_read_info(j->png, j->info);
    int depth, ctype, interlace;
    png_get_IHDR(j->png, j->info, &j->w, &j->h, &depth, &ctype, &interlace, NULL, NULL);
    if (too_big(j->w, j->h)) {
        j->oversized = true;
        return false;
    }

    /* To 8 bits a sample: palette to RGB, 1/2/4-bit gray to 8, tRNS to an
     * alpha channel, 16 bits scaled (rounded) to 8; and the seven passes
     * of an interlaced image merged. */
    png_set_expand(j->png);
    png_set_scale_16(j->png);
    int passes = png_set_interlace_handling(j->png);
    png_read_update_info(j->png, j->info);
    j->ch = png_get_channels(j->png, j->info);
    size_t stride = (size_t)j->w * j->ch;
    if (png_get_bit_depth(j->png, j->info) != 8 || j->ch < 1 || j->ch > 4 ||
        png_get_rowbytes(j->png, j->info) != stride)
        png_error(j->png, "unexpected sample layout after conversion");

    /* Gray+alpha and RGBA are flattened to gray and RGB. */
    unsigned max_w, max_h;
    j->limit->fn(j->limit->ctx, j->w, j->h, &max_w, &max_h);
    fit_begin(a, &j->fit, path, j->w, j->h, j->ch == 2 || j->ch == 4 ? j->ch - 1 : j->ch,
              max_w, max_h);
    j->row = cv_xmalloc(stride * 2);
    j->in_data = true;
    if (passes > 1) {
        j->scratch = cv_xmalloc(stride * j->h);
        j->rows = cv_xmalloc(j->h * sizeof *j->rows);
        for (png_uint_32 y = 0; y < j->h; y++)
            j->rows[y] = j->scratch + y * stride;
        png_read_image(j->png, j->rows);
        for (png_uint_32 y = 0; y < j->h; y++)
            png_give(j, j->rows[y]);
    } else {
        for (png_uint_32 y = 0; y < j->h; y++) {
            png_read_row(j->png, j->row, NULL);
            png_give(j, j->row);
        }
    }
    /* Read on to IEND: a file cut after its last IDAT is truncated too. */
    png_read_end(j->png, NULL);
    return true;
}

static const cv_image *load_png(cv_arena *a, const char *path, const unsigned char *data,
                                size_t size, const cv_image_limit *limit, cv_pos pos,
                                cv_error *err)
{
    /* The size from IHDR, before libpng allocates anything. */
    if (size >= 24 && !memcmp(data + 12, "IHDR", 4)) {
        uint32_t w = (uint32_t)data[16] << 24 | (uint32_t)data[17] << 16 |
                     (uint32_t)data[18] << 8 | data[19];
        uint32_t h = (uint32_t)data[20] << 24 | (uint32_t)data[21] << 16 |
                     (uint32_t)data[22] << 8 | data[23];
        if (too_big(w, h)) {
            fail_too_big(err, pos, path, w, h);
            return NULL;
        }
    }

    pngjob j = {.data = data, .size = size, .limit = limit};
    bool ok = decode_png(a, path, &j);
    png_destroy_read_struct(&j.png, &j.info, NULL);
    free(j.rows);
    free(j.scratch);
    free(j.row);

    cv_image *im = NULL;
    if (!ok && j.oversized)
        fail_too_big(err, pos, path, j.w, j.h);
    else if (!ok && j.truncated)
        cv_error_at(err, pos, "photo '%s' is truncated (its PNG data stops early)", path);
    else if (!ok)
        cv_error_at(err, pos, "photo '%s' is a damaged or unsupported PNG file: %s", path,
                    j.msg);
    else
        im = fit_end(&j.fit);
    fit_free(&j.fit);
    return im;
}

/* ---- JPEG --------------------------------------------------------------- */

typedef struct jpegjob {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr jerr;
    jmp_buf jmp;
    const unsigned char *data;
    size_t size;
    bool truncated, oversized;
    unsigned w, h, ch;
    int orientation;         /* Exif's, 1 to 8; 1 when absent */
    unsigned char *px;       /* the arena's */
    char msg[JMSG_LENGTH_MAX];
} jpegjob;

static void jpeg_fail(j_common_ptr c)
{
    jpegjob *j = c->client_data;
    c->err->format_message(c, j->msg);
    longjmp(j->jmp, 1);
}

/* libjpeg's warnings mostly mean damaged data that it patched over with
 * grey: the end of the file reached early (it then inserts a fake end of
 * image), a bad Huffman code, a missing restart marker, bytes left over.
 * They are errors here.  Only warnings about metadata pass. */
static void jpeg_message(j_common_ptr c, int level)
{
    if (level >= 0)             /* trace messages */
        return;
    int code = c->err->msg_code;
    if (code == JWRN_ADOBE_XFORM || code == JWRN_JFIF_MAJOR || code == JWRN_BOGUS_ICC)
        return;
    ((jpegjob *)c->client_data)->truncated = code == JWRN_JPEG_EOF;
    jpeg_fail(c);
}

static void jpeg_quiet(j_common_ptr c)
{
    (void)c;
}

/* The Orientation tag (0x0112) of IFD0 in an Exif APP1 segment, or 1.
 * Every offset is checked against the segment's length. */
static int exif_orientation(const unsigned char *d, size_t n)
{
    if (n < 14 || memcmp(d, "Exif\0\0", 6))
        return 1;
    d += 6;
    n -= 6;
    bool le = !memcmp(d, "II", 2);
    if (!le && memcmp(d, "MM", 2))
        return 1;
#define U16(p) (le ? (unsigned)(p)[0] | (unsigned)(p)[1] << 8 : (unsigned)(p)[0] << 8 | (p)[1])
#define U32(p) (le ? U16(p) | (uint32_t)U16((p) + 2) << 16 : (uint32_t)U16(p) << 16 | U16((p) + 2))
    uint32_t ifd = U32(d + 4);
    if (ifd > n - 2)
        return 1;
    unsigned count = U16(d + ifd);
    for (unsigned i = 0; i < count && ifd + 2 + 12 * (size_t)(i + 1) <= n; i++) {
        const unsigned char *e = d + ifd + 2 + 12 * i;
        if (U16(e) == 0x0112 && U16(e + 2) == 3) {    /* SHORT */
            unsigned v = U16(e + 8);
            return v >= 1 && v <= 8 ? (int)v : 1;
        }
    }
    return 1;
#undef U16
#undef U32
}

/* The picture turned the way Exif says it is to be shown (a phone held
 * upright stores its photo sideways, with orientation 6).  Output pixel
 * (x, y) comes from stored pixel `src` below; 5 to 8 swap the sides. */
static void orient(cv_arena *a, cv_image *im, int o)
{
    if (o <= 1 || o > 8)
        return;
    unsigned W = im->width, H = im->height, ch = im->channels;
    unsigned ow = o >= 5 ? H : W, oh = o >= 5 ? W : H;
    unsigned char *px = cv_arena_alloc(a, (size_t)W * H * ch);
    for (unsigned y = 0; y < oh; y++)
        for (unsigned x = 0; x < ow; x++) {
            unsigned sx, sy;
            switch (o) {
            case 2: sx = W - 1 - x; sy = y; break;              /* mirrored */
            case 3: sx = W - 1 - x; sy = H - 1 - y; break;      /* upside down */
            case 4: sx = x; sy = H - 1 - y; break;              /* flipped */
            case 5: sx = y; sy = x; break;                      /* transposed */
            case 6: sx = y; sy = H - 1 - x; break;              /* turn 90 clockwise */
            case 7: sx = W - 1 - y; sy = H - 1 - x; break;      /* transversed */
            default: sx = W - 1 - y; sy = x; break;             /* 8: turn 90 anticlockwise */
            }
            memcpy(px + ((size_t)y * ow + x) * ch, im->pixels + ((size_t)sy * W + sx) * ch, ch);
        }
    im->width = ow;
    im->height = oh;
    im->pixels = px;
}

/* libjpeg is opened with dlopen when a JPEG photo is first decoded, not
 * linked: linked, it costs every run 0.4 M instructions of dynamic
 * loading, and most résumés have no JPEG. */
#ifndef CV_JPEG_SONAME
#define CV_JPEG_SONAME "libjpeg.so.62"
#endif
#define JPEG_FUNCTIONS(X) \
    X(jpeg_std_error) X(jpeg_CreateDecompress) X(jpeg_mem_src) X(jpeg_save_markers) \
    X(jpeg_read_header) X(jpeg_start_decompress) X(jpeg_read_scanlines) \
    X(jpeg_finish_decompress) X(jpeg_destroy_decompress) \
    X(jpeg_CreateCompress) X(jpeg_mem_dest) X(jpeg_set_defaults) X(jpeg_set_quality) \
    X(jpeg_start_compress) X(jpeg_write_scanlines) X(jpeg_finish_compress) \
    X(jpeg_destroy_compress)
CV_LIB_DEFINE(jpeg_lib, JP, JPEG_FUNCTIONS, CV_JPEG_SONAME, "libjpeg62-turbo");

/* Decode into j->px.  Everything that changes after setjmp() is in *j. */
static bool decode_jpeg(cv_arena *a, jpegjob *j)
{
    j->cinfo.err = JP.jpeg_std_error(&j->jerr);
    j->jerr.error_exit = jpeg_fail;
    j->jerr.emit_message = jpeg_message;
    j->jerr.output_message = jpeg_quiet;
    j->cinfo.client_data = j;
    if (setjmp(j->jmp))
        return false;
    JP.jpeg_CreateDecompress(&j->cinfo, JPEG_LIB_VERSION, sizeof j->cinfo);
    JP.jpeg_mem_src(&j->cinfo, j->data, (unsigned long)j->size);
    JP.jpeg_save_markers(&j->cinfo, JPEG_APP0 + 1, 0xFFFF);
    JP.jpeg_read_header(&j->cinfo, TRUE);
    j->orientation = 1;
    for (jpeg_saved_marker_ptr m = j->cinfo.marker_list; m && j->orientation == 1; m = m->next)
        j->orientation = exif_orientation(m->data, m->data_length);
    j->w = j->cinfo.image_width;
    j->h = j->cinfo.image_height;
    if (too_big(j->w, j->h)) {
        j->oversized = true;
        return false;
    }

    /* Gray stays gray; CMYK and YCCK come out as CMYK, converted below;
     * everything else as RGB. */
    J_COLOR_SPACE in = j->cinfo.jpeg_color_space;
    bool cmyk = in == JCS_CMYK || in == JCS_YCCK;
    j->cinfo.out_color_space = in == JCS_GRAYSCALE ? JCS_GRAYSCALE : cmyk ? JCS_CMYK : JCS_RGB;
    JP.jpeg_start_decompress(&j->cinfo);
    unsigned comps = (unsigned)j->cinfo.output_components;
    if (j->cinfo.output_width != j->w || j->cinfo.output_height != j->h ||
        comps != (cmyk ? 4u : in == JCS_GRAYSCALE ? 1u : 3u))
        ERREXIT(&j->cinfo, JERR_CONVERSION_NOTIMPL);
    j->ch = comps == 1 ? 1 : 3;
    j->px = cv_arena_alloc(a, (size_t)j->w * j->h * j->ch);
    unsigned char *cmyk_row = cmyk ? cv_arena_alloc(a, (size_t)j->w * 4) : NULL;
    /* Photoshop writes CMYK inverted (0 = full ink) and says so with an
     * Adobe marker; without one the samples are taken as plain ink. */
    bool inverted = j->cinfo.saw_Adobe_marker;

    while (j->cinfo.output_scanline < j->h) {
        unsigned char *out = j->px + (size_t)j->cinfo.output_scanline * j->w * j->ch;
        JSAMPROW row = cmyk ? cmyk_row : out;
        if (JP.jpeg_read_scanlines(&j->cinfo, &row, 1) != 1)
            ERREXIT(&j->cinfo, JERR_INPUT_EOF);
        for (unsigned x = 0; cmyk && x < j->w; x++) {
            const unsigned char *p = cmyk_row + 4 * x;
            unsigned k = inverted ? p[3] : 255u - p[3];
            for (unsigned c = 0; c < 3; c++) {
                unsigned v = inverted ? p[c] : 255u - p[c];
                out[3 * x + c] = (unsigned char)((v * k + 127) / 255);
            }
        }
    }
    /* Read on to the end-of-image marker: missing data there is an error. */
    JP.jpeg_finish_decompress(&j->cinfo);
    return true;
}

static const cv_image *load_jpeg(cv_arena *a, const char *path, const unsigned char *data,
                                 size_t size, cv_pos pos, cv_error *err)
{
    if (!cv_lib_open(&jpeg_lib)) {
        cv_error_at(err, pos, "photo '%s' is a JPEG file, and libjpeg cannot be loaded (%s); "
                    "install the Debian package %s", path, jpeg_lib.soname, jpeg_lib.package);
        return NULL;
    }
    jpegjob j = {.data = data, .size = size};
    bool ok = decode_jpeg(a, &j);
    JP.jpeg_destroy_decompress(&j.cinfo);
    if (!ok) {
        if (j.oversized)
            fail_too_big(err, pos, path, j.w, j.h);
        else if (j.truncated)
            cv_error_at(err, pos, "photo '%s' is truncated (%s)", path, j.msg);
        else
            cv_error_at(err, pos, "photo '%s' is a damaged or unsupported JPEG file: %s", path,
                        j.msg);
        return NULL;
    }
    cv_image *im = new_image(a, path, j.w, j.h, j.ch);
    im->pixels = j.px;
    orient(a, im, j.orientation);
    return im;
}

/* ---- Files -------------------------------------------------------------- */

static const unsigned char png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
static const unsigned char jpeg_sig[3] = {0xFF, 0xD8, 0xFF};

/* What a file that is neither PNG nor JPEG probably is, for the message. */
static const char *sniff(const unsigned char *d, size_t n)
{
    if (n >= 6 && (!memcmp(d, "GIF87a", 6) || !memcmp(d, "GIF89a", 6)))
        return "GIF";
    if (n >= 12 && !memcmp(d, "RIFF", 4) && !memcmp(d + 8, "WEBP", 4))
        return "WebP";
    if (n >= 12 && !memcmp(d + 4, "ftyp", 4))
        return !memcmp(d + 8, "avi", 3) ? "AVIF" : "HEIF (HEIC)";
    if (n >= 4 && (!memcmp(d, "II*\0", 4) || !memcmp(d, "MM\0*", 4)))
        return "TIFF";
    if (n >= 5 && !memcmp(d, "%PDF-", 5))
        return "PDF";
    if (n >= 2 && !memcmp(d, "BM", 2))
        return "BMP";
    if (memmem(d, n < 1024 ? n : 1024, "<svg", 4))
        return "SVG";
    return NULL;
}

/* A limit of a fixed size. */
typedef struct box {
    unsigned w, h;
} box;

static void fixed(void *ctx, unsigned w, unsigned h, unsigned *max_w, unsigned *max_h)
{
    (void)w, (void)h;
    *max_w = ((const box *)ctx)->w;
    *max_h = ((const box *)ctx)->h;
}

const cv_image *cv_image_decode_fit(cv_arena *a, const char *path, const unsigned char *data,
                                    size_t size, const cv_image_limit *limit, cv_pos pos,
                                    cv_error *err)
{
    if (size >= sizeof png_sig && !memcmp(data, png_sig, sizeof png_sig))
        return load_png(a, path, data, size, limit, pos, err);
    if (size >= sizeof jpeg_sig && !memcmp(data, jpeg_sig, sizeof jpeg_sig)) {
        /* Turned as Exif says first, so whole. */
        const cv_image *im = load_jpeg(a, path, data, size, pos, err);
        if (!im)
            return NULL;
        unsigned max_w, max_h;
        limit->fn(limit->ctx, im->width, im->height, &max_w, &max_h);
        return cv_image_fit(a, im, max_w, max_h);
    }
    const char *kind = sniff(data, size);
    if (size == 0)
        cv_error_at(err, pos, "photo '%s' is empty", path);
    else if ((size < sizeof png_sig && !memcmp(data, png_sig, size)) ||
             (size < sizeof jpeg_sig && !memcmp(data, jpeg_sig, size)))
        cv_error_at(err, pos, "photo '%s' is truncated (it stops after %zu byte%s)", path, size,
                    size == 1 ? "" : "s");
    else if (kind && (!strcmp(kind, "SVG") || !strcmp(kind, "WebP") || !strcmp(kind, "GIF")))
        /* RenderCV (Typst) draws an SVG, WebP or GIF photo; cvpdf cannot:
         * the résumé goes without, with a warning. */
        cv_warn(err, pos, "photo '%s' is %s %s file, which cvpdf cannot draw (it reads PNG "
                "and JPEG): the résumé has no photo", path, kind[0] == 'S' ? "an" : "a", kind);
    else if (kind)
        cv_error_at(err, pos, "photo '%s' is a %s file; cvpdf reads PNG and JPEG only", path,
                    kind);
    else
        cv_error_at(err, pos, "photo '%s' is not a PNG or JPEG file", path);
    return NULL;
}

const cv_image *cv_image_decode(cv_arena *a, const char *path, const unsigned char *data,
                                size_t size, cv_pos pos, cv_error *err)
{
    box b = {UINT_MAX, UINT_MAX};
    return cv_image_decode_fit(a, path, data, size, &(cv_image_limit){fixed, &b}, pos, err);
}

const cv_image *cv_image_load(cv_arena *a, const char *path, cv_pos pos, cv_error *err)
{
    box b = {UINT_MAX, UINT_MAX};
    return cv_image_load_fit(a, path, &(cv_image_limit){fixed, &b}, pos, err);
}

const cv_image *cv_image_load_fit(cv_arena *a, const char *path, const cv_image_limit *limit,
                                  cv_pos pos, cv_error *err)
{
    /* Malloc'd, not from the arena: the file is freed once decoded. */
    cv_file f;
    if (!cv_file_read(NULL, path, CV_IMAGE_MAX_BYTES, /*regular_only*/ true, &f)) {
        unsigned mb = CV_IMAGE_MAX_BYTES / (1024 * 1024);
        switch (f.status) {
        case CV_FILE_OPEN:
            return cv_error_at(err, pos, "cannot open photo '%s': %s", path, strerror(f.err)),
                   NULL;
        case CV_FILE_DIR:
            return cv_error_at(err, pos, "photo '%s' is a directory, not an image file", path),
                   NULL;
        case CV_FILE_NOT_REGULAR:
            return cv_error_at(err, pos, "photo '%s' is not a regular file", path), NULL;
        case CV_FILE_TOO_BIG:
            if (f.size > (long long)CV_IMAGE_MAX_BYTES)
                cv_error_at(err, pos, "photo '%s' is larger than %u MB (%lld bytes); cvpdf "
                            "reads image files up to that size", path, mb, f.size);
            else
                cv_error_at(err, pos, "photo '%s' is larger than %u MB", path, mb);
            return NULL;
        default:
            return cv_error_at(err, pos, "cannot read photo '%s': %s", path, strerror(f.err)),
                   NULL;
        }
    }
    const cv_image *im = cv_image_decode_fit(a, path, (const unsigned char *)f.data, f.len,
                                             limit, pos, err);
    free(f.data);
    return im;
}

/* ---- JPEG out ------------------------------------------------------------ */

typedef struct jpegout {
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr jerr;
    jmp_buf jmp;
    unsigned char *out;      /* libjpeg's (malloc) */
    unsigned long len;
} jpegout;

static void jpeg_out_fail(j_common_ptr c)
{
    longjmp(((jpegout *)c->client_data)->jmp, 1);
}

/* Encode, with every libjpeg error caught; what changes after setjmp() is
 * in *j. */
static bool encode_jpeg(const cv_image *im, int quality, jpegout *j)
{
    j->c.err = JP.jpeg_std_error(&j->jerr);
    j->jerr.error_exit = jpeg_out_fail;
    j->jerr.output_message = jpeg_quiet;
    j->c.client_data = j;
    if (setjmp(j->jmp)) {
        JP.jpeg_destroy_compress(&j->c);
        return false;
    }
    JP.jpeg_CreateCompress(&j->c, JPEG_LIB_VERSION, sizeof j->c);
    JP.jpeg_mem_dest(&j->c, &j->out, &j->len);
    j->c.image_width = im->width;
    j->c.image_height = im->height;
    j->c.input_components = (int)im->channels;
    j->c.in_color_space = im->channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    JP.jpeg_set_defaults(&j->c);
    JP.jpeg_set_quality(&j->c, quality, TRUE);
    JP.jpeg_start_compress(&j->c, TRUE);
    while (j->c.next_scanline < j->c.image_height) {
        JSAMPROW row = (JSAMPROW)(im->pixels + (size_t)j->c.next_scanline * im->width *
                                                   im->channels);
        JP.jpeg_write_scanlines(&j->c, &row, 1);
    }
    JP.jpeg_finish_compress(&j->c);
    JP.jpeg_destroy_compress(&j->c);
    return true;
}

bool cv_image_jpeg(const cv_image *im, int quality, unsigned char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    if (!cv_lib_open(&jpeg_lib) || (im->channels != 1 && im->channels != 3))
        return false;
    jpegout j = {0};
    bool ok = encode_jpeg(im, quality, &j);
    if (!ok) {
        free(j.out);
        return false;
    }
    *out = j.out;
    *len = j.len;
    return true;
}
