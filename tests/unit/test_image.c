/* test_image.c - photos: PNG and JPEG decoding, broken files, downscaling,
 * and the image in the PDF and in the dump.
 *
 * Every picture is made here, with libpng and libjpeg, into a temporary
 * directory; the broken ones are cut or damaged copies of good ones.  Each
 * broken file must give NULL and an error at the `photo:` position passed
 * in, naming the file.
 */
#include "harness.h"
#include "display.h"
#include "draw_dump.h"
#include "draw_hpdf.h"
#include "engine.h"
#include "image.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jpeglib.h>
#include <png.h>

static cv_arena *A;
#include "errcheck.h"

static char dir[64];
static const cv_pos POS = {"cv.yaml", 12, 9};

/* ---- Making files -------------------------------------------------------- */

typedef struct blob {
    unsigned char *p;
    size_t n, cap;
} blob;

static void blob_put(blob *b, const void *d, size_t n)
{
    if (!n)
        return;
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p)
            abort();
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}

static blob blob_copy(blob b, size_t n)
{
    blob c = {0};
    blob_put(&c, b.p, n < b.n ? n : b.n);
    return c;
}

static void png_put(png_structp png, png_bytep d, size_t n)
{
    blob_put(png_get_io_ptr(png), d, n);
}

static void png_noflush(png_structp png)
{
    (void)png;
}

typedef struct pngspec {
    unsigned w, h;
    int ctype, depth;
    bool interlace;
    const unsigned char *rows;   /* packed as PNG stores them (16-bit big-endian) */
    const png_color *pal;
    int npal;
    const unsigned char *trans;  /* palette alpha */
    int ntrans;
    const png_color_16 *trans_color;
} pngspec;

static size_t png_rowbytes(const pngspec *s)
{
    int ch = s->ctype == PNG_COLOR_TYPE_RGB_ALPHA ? 4 : s->ctype == PNG_COLOR_TYPE_RGB ? 3
             : s->ctype == PNG_COLOR_TYPE_GRAY_ALPHA ? 2 : 1;
    return ((size_t)s->w * ch * s->depth + 7) / 8;
}

static blob make_png(const pngspec *s)
{
    blob b = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    png_set_write_fn(png, &b, png_put, png_noflush);
    png_set_IHDR(png, info, s->w, s->h, s->depth, s->ctype,
                 s->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (s->pal)
        png_set_PLTE(png, info, s->pal, s->npal);
    if (s->trans || s->trans_color)
        png_set_tRNS(png, info, s->trans, s->ntrans, s->trans_color);
    png_write_info(png, info);
    png_bytep *rows = malloc(s->h * sizeof *rows);
    for (unsigned y = 0; y < s->h; y++)
        rows[y] = (png_bytep)s->rows + y * png_rowbytes(s);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    return b;
}

typedef struct jpegspec {
    unsigned w, h;
    int comps;
    J_COLOR_SPACE in, as;
    bool adobe, progressive;
    const unsigned char *px;
    int orientation;             /* an Exif segment with this orientation; 0: none */
    bool big_endian;             /* its byte order */
} jpegspec;

/* An Exif APP1 segment: TIFF header, IFD0 with a dummy tag then the
 * orientation. */
static size_t exif(unsigned char *d, int orientation, bool be)
{
    static const unsigned char ii[] = {'E', 'x', 'i', 'f', 0, 0, 'I', 'I', 42, 0, 8, 0, 0, 0,
                                       2, 0,
                                       0x0F, 0x01, 2, 0, 4, 0, 0, 0, 'c', 'v', 0, 0,
                                       0x12, 0x01, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0,
                                       0, 0, 0, 0};
    static const unsigned char mm[] = {'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42, 0, 0, 0, 8,
                                       0, 2,
                                       0x01, 0x0F, 0, 2, 0, 0, 0, 4, 'c', 'v', 0, 0,
                                       0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0,
                                       0, 0, 0, 0};
    memcpy(d, be ? mm : ii, sizeof ii);
    d[6 + 8 + 2 + 12 + 8 + (be ? 1 : 0)] = (unsigned char)orientation;
    return sizeof ii;
}

static blob make_jpeg(const jpegspec *s)
{
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e);
    jpeg_create_compress(&c);
    unsigned char *out = NULL;
    unsigned long n = 0;
    jpeg_mem_dest(&c, &out, &n);
    c.image_width = s->w;
    c.image_height = s->h;
    c.input_components = s->comps;
    c.in_color_space = s->in;
    jpeg_set_defaults(&c);
    jpeg_set_colorspace(&c, s->as);
    jpeg_set_quality(&c, 95, TRUE);
    c.write_Adobe_marker = s->adobe;
    if (s->progressive)
        jpeg_simple_progression(&c);
    jpeg_start_compress(&c, TRUE);
    if (s->orientation) {
        unsigned char seg[64];
        size_t len = exif(seg, s->orientation, s->big_endian);
        jpeg_write_marker(&c, JPEG_APP0 + 1, seg, (unsigned)len);
    }
    while (c.next_scanline < s->h) {
        JSAMPROW r = (JSAMPROW)s->px + (size_t)c.next_scanline * s->w * s->comps;
        jpeg_write_scanlines(&c, &r, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    blob b = {0};
    blob_put(&b, out, n);
    free(out);
    return b;
}

static const char *path_of(const char *name)
{
    return cv_arena_printf(A, "%s/%s", dir, name);
}

/* Write `b` as `name` in the temporary directory, free it, return the path. */
static const char *put_file(const char *name, blob b)
{
    const char *path = path_of(name);
    FILE *f = fopen(path, "wb");
    if (!f || (b.n && fwrite(b.p, 1, b.n, f) != b.n) || fclose(f)) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    free(b.p);
    return path;
}

static const cv_image *load(const char *name, blob b)
{
    cv_error_init(&E);
    const cv_image *im = cv_image_load(A, put_file(name, b), POS, &E);
    if (!im)
        fprintf(stderr, "  %s: %s\n", name, errstr());
    return im;
}

/* `path` must fail: NULL, an error at POS naming the file, and `what` in
 * the message. */
static bool fails(const char *path, const char *what)
{
    cv_error_init(&E);
    const cv_image *im = cv_image_load(A, path, POS, &E);
    char where[256];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    bool ok = !im && E.set && !strcmp(cv_pos_str(E.pos, where, sizeof where), "cv.yaml:12:9") &&
              has(E.msg, base) && has(E.msg, what);
    if (!ok)
        fprintf(stderr, "  %s: want an error with \"%s\", got %s (image %s)\n", base, what,
                errstr(), im ? "returned" : "NULL");
    else if (getenv("CV_SHOW_ERRORS"))     /* to read the messages */
        fprintf(stderr, "%s: error: %s\n", where, E.msg);
    return ok;
}

static bool fails_file(const char *name, blob b, const char *what)
{
    return fails(put_file(name, b), what);
}

static unsigned px(const cv_image *im, unsigned x, unsigned y, unsigned c)
{
    return im->pixels[((size_t)y * im->width + x) * im->channels + c];
}

static unsigned flat(unsigned v, unsigned a)
{
    return (unsigned)floor((v * a + 255.0 * (255 - a)) / 255.0 + 0.5);
}

/* A CRC as PNG chunks carry it. */
static uint32_t crc32_png(const unsigned char *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xFFFFFFFFu;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* Offset of the first chunk of `type` (its length field), or 0. */
static size_t png_chunk(const blob *b, const char *type)
{
    for (size_t o = 8; o + 12 <= b->n; o += 12 + be32(b->p + o))
        if (!memcmp(b->p + o + 4, type, 4))
            return o;
    return 0;
}

static void png_fix_crc(blob *b, size_t chunk)
{
    uint32_t len = be32(b->p + chunk);
    put_be32(b->p + chunk + 8 + len, crc32_png(b->p + chunk + 4, len + 4));
}

/* Deterministic noise, so that the compressed data is long. */
static unsigned char noise(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (unsigned char)(*state >> 16);
}

/* A 64x48 RGB PNG of noise: several IDAT kilobytes to cut or damage. */
static blob noisy_png(void)
{
    static unsigned char rows[64 * 48 * 3];
    unsigned st = 1;
    for (size_t i = 0; i < sizeof rows; i++)
        rows[i] = noise(&st);
    pngspec s = {.w = 64, .h = 48, .ctype = PNG_COLOR_TYPE_RGB, .depth = 8, .rows = rows};
    return make_png(&s);
}

/* A 64x64 RGB JPEG: a gradient with some texture. */
static blob textured_jpeg(bool progressive)
{
    static unsigned char p[64 * 64 * 3];
    unsigned st = 7;
    for (unsigned y = 0; y < 64; y++)
        for (unsigned x = 0; x < 64; x++) {
            unsigned char *q = p + (y * 64 + x) * 3;
            q[0] = (unsigned char)(x * 4);
            q[1] = (unsigned char)(y * 4);
            q[2] = noise(&st);
        }
    jpegspec s = {64, 64, 3, JCS_RGB, JCS_YCbCr, false, progressive, p, 0, false};
    return make_jpeg(&s);
}

/* Offset just after the SOS segment's header: the entropy-coded data. */
static size_t jpeg_scan(const blob *b)
{
    for (size_t o = 2; o + 4 < b->n;) {
        if (b->p[o] != 0xFF)
            return 0;
        unsigned marker = b->p[o + 1], len = (unsigned)b->p[o + 2] << 8 | b->p[o + 3];
        if (marker == 0xDA)
            return o + 2 + len;
        o += 2 + len;
    }
    return 0;
}

/* ---- PNG ------------------------------------------------------------------ */

TEST(png_palette)
{
    static const png_color pal[4] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {10, 20, 30}};
    /* 4x2, 2 bits a pixel: indices 0 1 2 3 / 3 2 1 0. */
    static const unsigned char rows[] = {0x1B, 0xE4};
    pngspec s = {.w = 4, .h = 2, .ctype = PNG_COLOR_TYPE_PALETTE, .depth = 2, .rows = rows,
        .pal = pal, .npal = 4};
    const cv_image *im = load("pal.png", make_png(&s));
    CHECK(im && im->width == 4 && im->height == 2 && im->channels == 3);
    if (!im)
        return;
    static const unsigned idx[2][4] = {{0, 1, 2, 3}, {3, 2, 1, 0}};
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 4; x++) {
            CHECK(px(im, x, y, 0) == pal[idx[y][x]].red);
            CHECK(px(im, x, y, 1) == pal[idx[y][x]].green);
            CHECK(px(im, x, y, 2) == pal[idx[y][x]].blue);
        }
    CHECK(has(im->path, "pal.png"));
}

TEST(png_palette_trns)
{
    /* Palette alpha: index 1 is half transparent, index 2 fully. */
    static const png_color pal[3] = {{200, 100, 50}, {0, 0, 0}, {0, 0, 255}};
    static const unsigned char trans[3] = {255, 128, 0};
    static const unsigned char rows[] = {0, 1, 2};
    pngspec s = {.w = 3, .h = 1, .ctype = PNG_COLOR_TYPE_PALETTE, .depth = 8, .rows = rows,
        .pal = pal, .npal = 3, .trans = trans, .ntrans = 3};
    const cv_image *im = load("paltrns.png", make_png(&s));
    CHECK(im && im->channels == 3);
    if (!im)
        return;
    CHECK(px(im, 0, 0, 0) == 200 && px(im, 0, 0, 1) == 100 && px(im, 0, 0, 2) == 50);
    CHECK(px(im, 1, 0, 0) == flat(0, 128) && px(im, 1, 0, 0) == 127);
    CHECK(px(im, 2, 0, 0) == 255 && px(im, 2, 0, 1) == 255 && px(im, 2, 0, 2) == 255);
}

TEST(png_gray_depths)
{
    /* 1 bit: 0 -> 0, 1 -> 255. */
    static const unsigned char bits[] = {0xA0};   /* 1 0 1 0 */
    pngspec s1 = {.w = 4, .h = 1, .ctype = PNG_COLOR_TYPE_GRAY, .depth = 1, .rows = bits};
    const cv_image *im = load("gray1.png", make_png(&s1));
    CHECK(im && im->channels == 1 && im->width == 4);
    if (im)
        CHECK(px(im, 0, 0, 0) == 255 && px(im, 1, 0, 0) == 0 && px(im, 2, 0, 0) == 255 &&
              px(im, 3, 0, 0) == 0);

    /* 8 bits with a tRNS gray: that value becomes white. */
    static const unsigned char g8[] = {0x40, 0x41, 0x00, 0xFE};
    png_color_16 key = {.gray = 0x40};
    pngspec s8 = {.w = 4, .h = 1, .ctype = PNG_COLOR_TYPE_GRAY, .depth = 8, .rows = g8,
        .trans_color = &key};
    im = load("graytrns.png", make_png(&s8));
    CHECK(im && im->channels == 1);
    if (im)
        CHECK(px(im, 0, 0, 0) == 255 && px(im, 1, 0, 0) == 0x41 && px(im, 2, 0, 0) == 0 &&
              px(im, 3, 0, 0) == 0xFE);
}

TEST(png_gray_alpha_flattened_on_white)
{
    static const unsigned char ga[][2] = {{0, 128}, {100, 128}, {200, 0}, {50, 255},
                                          {255, 64}, {0, 1}, {17, 254}, {0, 0}};
    pngspec s = {.w = 8, .h = 1, .ctype = PNG_COLOR_TYPE_GRAY_ALPHA, .depth = 8, .rows = &ga[0][0]};
    const cv_image *im = load("ga.png", make_png(&s));
    CHECK(im && im->channels == 1 && im->width == 8 && im->height == 1);
    if (!im)
        return;
    for (unsigned x = 0; x < 8; x++)
        CHECK(px(im, x, 0, 0) == flat(ga[x][0], ga[x][1]));
    CHECK(px(im, 0, 0, 0) == 127);     /* black at half alpha: mid gray */
    CHECK(px(im, 1, 0, 0) == 177);
    CHECK(px(im, 2, 0, 0) == 255);     /* fully transparent: white */
    CHECK(px(im, 3, 0, 0) == 50);      /* opaque: unchanged */
    CHECK(px(im, 7, 0, 0) == 255);
}

TEST(png_rgba_flattened_on_white)
{
    static const unsigned char rgba[2][2][4] = {
        {{255, 0, 0, 255}, {0, 0, 255, 128}},
        {{10, 200, 30, 0}, {40, 80, 120, 200}},
    };
    pngspec s = {.w = 2, .h = 2, .ctype = PNG_COLOR_TYPE_RGB_ALPHA, .depth = 8,
        .rows = &rgba[0][0][0]};
    const cv_image *im = load("rgba.png", make_png(&s));
    CHECK(im && im->channels == 3 && im->width == 2 && im->height == 2);
    if (!im)
        return;
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 2; x++)
            for (unsigned c = 0; c < 3; c++)
                CHECK(px(im, x, y, c) == flat(rgba[y][x][c], rgba[y][x][3]));
    CHECK(px(im, 1, 0, 0) == 127 && px(im, 1, 0, 1) == 127 && px(im, 1, 0, 2) == 255);
    CHECK(px(im, 0, 1, 0) == 255 && px(im, 0, 1, 1) == 255);
}

TEST(png_16_bit)
{
    /* RGB, 16 bits: 257*k is exactly k; the low byte rounds. */
    static const uint16_t v[3][3] = {{0xFFFF, 0x0000, 257 * 128},
                                     {257 * 10 + 100, 257 * 10 + 150, 257 * 200},
                                     {0x1234, 0xFEDC, 257 * 64}};
    unsigned char rows[3 * 3 * 2];
    for (unsigned i = 0; i < 9; i++) {
        rows[2 * i] = (unsigned char)(v[i / 3][i % 3] >> 8);
        rows[2 * i + 1] = (unsigned char)v[i / 3][i % 3];
    }
    pngspec s = {.w = 3, .h = 1, .ctype = PNG_COLOR_TYPE_RGB, .depth = 16, .rows = rows};
    const cv_image *im = load("rgb16.png", make_png(&s));
    CHECK(im && im->channels == 3 && im->width == 3);
    if (im)
        for (unsigned i = 0; i < 9; i++)
            CHECK(abs((int)px(im, i / 3, 0, i % 3) - (int)floor(v[i / 3][i % 3] / 257.0 + 0.5)) ==
                  0);

    /* Gray+alpha, 16 bits: scaled, then flattened. */
    static const unsigned char ga16[] = {0x64, 0x64, 0x80, 0x80, 0x00, 0x00, 0x00, 0x00};
    pngspec s2 = {.w = 2, .h = 1, .ctype = PNG_COLOR_TYPE_GRAY_ALPHA, .depth = 16, .rows = ga16};
    im = load("ga16.png", make_png(&s2));
    CHECK(im && im->channels == 1);
    if (im)
        CHECK(px(im, 0, 0, 0) == flat(100, 128) && px(im, 1, 0, 0) == 255);
}

TEST(png_interlaced)
{
    enum { W = 13, H = 11 };
    static unsigned char rows[W * H * 3];
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++) {
            rows[(y * W + x) * 3] = (unsigned char)(x * 19);
            rows[(y * W + x) * 3 + 1] = (unsigned char)(y * 23);
            rows[(y * W + x) * 3 + 2] = (unsigned char)((x + y) * 7 + 1);
        }
    pngspec s = {.w = W, .h = H, .ctype = PNG_COLOR_TYPE_RGB, .depth = 8, .interlace = true,
        .rows = rows};
    blob b = make_png(&s);
    CHECK(b.p[8 + 8 + 12] == 1);    /* IHDR says Adam7 */
    const cv_image *im = load("adam7.png", b);
    CHECK(im && im->width == W && im->height == H && im->channels == 3);
    if (im)
        CHECK(!memcmp(im->pixels, rows, sizeof rows));

    /* Interlaced RGBA, 16 bits, flattened. */
    unsigned char r16[4 * 2 * 8];
    for (unsigned i = 0; i < 8; i++) {
        unsigned a = i * 36;
        unsigned char pxl[8] = {(unsigned char)(i * 30), (unsigned char)(i * 30), 0, 0,
                                0xFF, 0xFF, (unsigned char)a, (unsigned char)a};
        memcpy(r16 + i * 8, pxl, 8);
    }
    pngspec s16 = {.w = 4, .h = 2, .ctype = PNG_COLOR_TYPE_RGB_ALPHA, .depth = 16,
        .interlace = true, .rows = r16};
    im = load("adam7rgba16.png", make_png(&s16));
    CHECK(im && im->width == 4 && im->height == 2 && im->channels == 3);
    if (im)
        for (unsigned i = 0; i < 8; i++) {
            unsigned a = i * 36;
            CHECK(px(im, i % 4, i / 4, 0) == flat(i * 30, a));
            CHECK(px(im, i % 4, i / 4, 1) == flat(0, a));
            CHECK(px(im, i % 4, i / 4, 2) == flat(255, a));
        }
}

TEST(png_orientation_and_extension_ignored)
{
    /* Rows top to bottom; the format is told by the bytes, not the name. */
    static const unsigned char g[] = {10, 20, 30, 40, 50, 60};
    pngspec s = {.w = 2, .h = 3, .ctype = PNG_COLOR_TYPE_GRAY, .depth = 8, .rows = g};
    const cv_image *im = load("actually-png.jpg", make_png(&s));
    CHECK(im && im->width == 2 && im->height == 3);
    if (im)
        CHECK(!memcmp(im->pixels, g, 6));
}

/* ---- JPEG ----------------------------------------------------------------- */

/* Four flat 16x16 quadrants; each quadrant's centre within `tol`. */
static bool quadrants(const cv_image *im, const unsigned char want[4][3], int tol)
{
    bool ok = im && im->width == 32 && im->height == 32 && im->channels == 3;
    for (unsigned q = 0; ok && q < 4; q++)
        for (unsigned c = 0; c < 3; c++) {
            int got = (int)px(im, (q % 2) * 16 + 8, (q / 2) * 16 + 8, c);
            if (abs(got - want[q][c]) > tol) {
                fprintf(stderr, "  quadrant %u channel %u: %d, want %d\n", q, c, got,
                        want[q][c]);
                ok = false;
            }
        }
    return ok;
}

static void fill_quadrants(unsigned char *p, int comps, const unsigned char q[4][4])
{
    for (unsigned y = 0; y < 32; y++)
        for (unsigned x = 0; x < 32; x++)
            memcpy(p + (y * 32 + x) * comps, q[(y / 16) * 2 + x / 16], (size_t)comps);
}

TEST(jpeg_gray)
{
    unsigned char g[16 * 8];
    for (unsigned i = 0; i < sizeof g; i++)
        g[i] = 100;
    jpegspec s = {16, 8, 1, JCS_GRAYSCALE, JCS_GRAYSCALE, false, false, g, 0, false};
    const cv_image *im = load("gray.jpg", make_jpeg(&s));
    CHECK(im && im->width == 16 && im->height == 8 && im->channels == 1);
    if (im)
        CHECK(abs((int)px(im, 5, 5, 0) - 100) <= 2);
}

static const unsigned char RGB_Q[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}};

TEST(jpeg_rgb)
{
    unsigned char q[4][4], p[32 * 32 * 3];
    for (int i = 0; i < 4; i++)
        memcpy(q[i], RGB_Q[i], 3);
    fill_quadrants(p, 3, q);
    jpegspec s = {32, 32, 3, JCS_RGB, JCS_YCbCr, false, false, p, 0, false};
    CHECK(quadrants(load("rgb.jpg", make_jpeg(&s)), RGB_Q, 12));
    s.progressive = true;
    CHECK(quadrants(load("progressive.jpg", make_jpeg(&s)), RGB_Q, 12));
    /* Stored as RGB, without the YCbCr transform. */
    s.progressive = false;
    s.as = JCS_RGB;
    CHECK(quadrants(load("rgbplain.jpg", make_jpeg(&s)), RGB_Q, 12));
}

TEST(jpeg_cmyk)
{
    /* Ink: red, blue, black, 50% black. */
    static const unsigned char ink[4][4] = {
        {0, 255, 255, 0}, {255, 255, 0, 0}, {0, 0, 0, 255}, {0, 0, 0, 128}};
    static const unsigned char want[4][3] = {{255, 0, 0}, {0, 0, 255}, {0, 0, 0},
                                             {127, 127, 127}};
    unsigned char inverted[4][4], p[32 * 32 * 4];
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < 4; c++)
            inverted[i][c] = (unsigned char)(255 - ink[i][c]);

    /* Photoshop's: inverted samples and an Adobe marker. */
    fill_quadrants(p, 4, inverted);
    jpegspec s = {32, 32, 4, JCS_CMYK, JCS_CMYK, true, false, p, 0, false};
    CHECK(quadrants(load("cmyk-adobe.jpg", make_jpeg(&s)), want, 12));
    s.as = JCS_YCCK;
    CHECK(quadrants(load("ycck-adobe.jpg", make_jpeg(&s)), want, 12));

    /* No Adobe marker: plain ink. */
    fill_quadrants(p, 4, ink);
    s.as = JCS_CMYK;
    s.adobe = false;
    CHECK(quadrants(load("cmyk-plain.jpg", make_jpeg(&s)), want, 12));
}

TEST(jpeg_exif_orientation)
{
    /* Stored 32x16: left half red, right half blue; shown as Exif says. */
    static unsigned char p[32 * 16 * 3];
    for (unsigned y = 0; y < 16; y++)
        for (unsigned x = 0; x < 32; x++) {
            p[(y * 32 + x) * 3] = x < 16 ? 255 : 0;
            p[(y * 32 + x) * 3 + 2] = x < 16 ? 0 : 255;
        }
    static const struct {
        int o;
        unsigned w, h;
        bool red_first;      /* red at the top (5-8) or at the left (1-4) */
    } cases[] = {{1, 32, 16, true},  {2, 32, 16, false}, {3, 32, 16, false}, {4, 32, 16, true},
                 {5, 16, 32, true},  {6, 16, 32, true},  {7, 16, 32, false}, {8, 16, 32, false}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (int be = 0; be < 2; be++) {
            jpegspec s = {32, 16, 3, JCS_RGB, JCS_YCbCr, false, false, p, cases[i].o, be};
            char name[32];
            snprintf(name, sizeof name, "exif%d%s.jpg", cases[i].o, be ? "mm" : "ii");
            const cv_image *im = load(name, make_jpeg(&s));
            CHECK(im && im->width == cases[i].w && im->height == cases[i].h);
            if (!im || im->width != cases[i].w)
                continue;
            /* The first and last pixel along the turned axis. */
            bool tall = cases[i].o >= 5;
            unsigned fx = 2, fy = 2, lx = tall ? 2 : im->width - 3, ly = tall ? im->height - 3 : 2;
            unsigned first = px(im, fx, fy, 0), last = px(im, lx, ly, 0);
            if (cases[i].red_first)
                CHECK(first > 200 && last < 50);
            else
                CHECK(first < 50 && last > 200);
        }
    /* Orientations 2 and 4 differ from 1 and 3 in the other axis: a
     * top-bottom split tells them apart. */
    for (unsigned y = 0; y < 16; y++)
        for (unsigned x = 0; x < 32; x++) {
            p[(y * 32 + x) * 3] = y < 8 ? 255 : 0;
            p[(y * 32 + x) * 3 + 2] = y < 8 ? 0 : 255;
        }
    jpegspec s = {32, 16, 3, JCS_RGB, JCS_YCbCr, false, false, p, 4, false};
    const cv_image *im = load("exif4rows.jpg", make_jpeg(&s));
    CHECK(im && px(im, 2, 2, 0) < 50 && px(im, 2, 13, 0) > 200);
    s.orientation = 2;
    im = load("exif2rows.jpg", make_jpeg(&s));
    CHECK(im && px(im, 2, 2, 0) > 200 && px(im, 2, 13, 0) < 50);
    /* 6 and 8 both turn; which way shows on the columns. */
    s.orientation = 5;
    im = load("exif5rows.jpg", make_jpeg(&s));
    CHECK(im && px(im, 2, 2, 0) > 200 && px(im, 13, 2, 0) < 50);
    s.orientation = 6;
    im = load("exif6rows.jpg", make_jpeg(&s));
    CHECK(im && px(im, 2, 2, 0) < 50 && px(im, 13, 2, 0) > 200);
    s.orientation = 8;
    im = load("exif8rows.jpg", make_jpeg(&s));
    CHECK(im && px(im, 2, 2, 0) > 200 && px(im, 13, 2, 0) < 50);
}

/* ---- Broken files ----------------------------------------------------------- */

TEST(truncated_png)
{
    blob b = noisy_png();
    size_t idat = png_chunk(&b, "IDAT");
    CHECK(idat > 0 && b.n > 5000);
    const size_t cuts[] = {1, 5, 7, 8, 20, 33, idat + 4, idat + 100, b.n / 2, b.n - 13,
                           b.n - 12, b.n - 4, b.n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        char name[64];
        snprintf(name, sizeof name, "cut%zu.png", cuts[i]);
        CHECK(fails_file(name, blob_copy(b, cuts[i]), "truncated"));
    }
    /* The uncut file loads: the test above is about the cuts. */
    CHECK(load("whole.png", b) != NULL);
}

TEST(truncated_jpeg)
{
    blob b = textured_jpeg(false);
    size_t scan = jpeg_scan(&b);
    CHECK(scan > 100 && b.n > scan + 1000);
    const size_t cuts[] = {1, 2, 3, 20, scan - 5, scan + 10, (scan + b.n) / 2, b.n - 2, b.n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        char name[64];
        snprintf(name, sizeof name, "cut%zu.jpg", cuts[i]);
        CHECK(fails_file(name, blob_copy(b, cuts[i]), "truncated"));
    }
    blob p = textured_jpeg(true);
    CHECK(fails_file("cutprog.jpg", blob_copy(p, p.n * 2 / 3), "truncated"));
    CHECK(load("whole.jpg", b) != NULL);
    CHECK(load("wholeprog.jpg", p) != NULL);
}

TEST(corrupt_png)
{
    /* Bytes changed inside IDAT: the CRC catches it. */
    blob b = noisy_png();
    size_t idat = png_chunk(&b, "IDAT");
    blob c = blob_copy(b, b.n);
    for (size_t i = 0; i < 16; i++)
        c.p[idat + 8 + 200 + i] ^= 0x5A;
    CHECK(fails_file("crc.png", c, "damaged"));

    /* The same with the CRC made right: the compressed data is wrong. */
    c = blob_copy(b, b.n);
    for (size_t i = 0; i < 16; i++)
        c.p[idat + 8 + 200 + i] ^= 0x5A;
    png_fix_crc(&c, idat);
    CHECK(fails_file("zlib.png", c, "damaged"));

    /* Only the CRC of an IDAT wrong. */
    c = blob_copy(b, b.n);
    c.p[idat + 8 + be32(c.p + idat)] ^= 0x01;
    CHECK(fails_file("idatcrc.png", c, "CRC error"));

    /* A stream whose only fault is its checksum (the last 4 bytes of the
     * zlib data): every pixel decodes, the Adler-32 check fails.  With the
     * checksum in an IDAT of its own, libpng meets it only after the last
     * row and reports it as a mere warning. */
    blob z = {0};
    size_t iend = png_chunk(&b, "IEND");
    for (size_t o = 8; o < iend; o += 12 + be32(b.p + o))
        if (!memcmp(b.p + o + 4, "IDAT", 4))
            blob_put(&z, b.p + o + 8, be32(b.p + o));
    z.p[z.n - 1] ^= 0x01;
    c = (blob){0};
    blob_put(&c, b.p, idat);                        /* signature, IHDR */
    for (int k = 0; k < 2; k++) {
        size_t len = k ? 4 : z.n - 4, at = c.n;
        unsigned char head[8] = {0, 0, 0, 0, 'I', 'D', 'A', 'T'}, crc[4] = {0};
        put_be32(head, (uint32_t)len);
        blob_put(&c, head, 8);
        blob_put(&c, z.p + (k ? z.n - 4 : 0), len);
        blob_put(&c, crc, 4);
        png_fix_crc(&c, at);
    }
    blob_put(&c, b.p + iend, 12);
    free(z.p);
    CHECK(fails_file("adler.png", c, "incorrect data check"));

    /* A damaged IHDR. */
    c = blob_copy(b, b.n);
    c.p[8 + 8 + 9] = 7;             /* colour type 7 does not exist */
    png_fix_crc(&c, 8);
    CHECK(fails_file("ihdr.png", c, "damaged"));

    /* A bad CRC on an ancillary chunk, before or after the image data, is
     * only a warning: libpng drops the chunk, the image is whole. */
    static const unsigned char g[] = {1, 2, 3, 4};
    pngspec s = {.w = 2, .h = 2, .ctype = PNG_COLOR_TYPE_GRAY, .depth = 8, .rows = g};
    blob t = make_png(&s);
    blob u = {0};
    size_t at = png_chunk(&t, "IDAT"), end = png_chunk(&t, "IEND");
    static const unsigned char text[] = {0, 0, 0, 5, 't', 'E', 'X', 't', 'a', 0, 'b', 'c', 'd',
                                         0xDE, 0xAD, 0xBE, 0xEF};
    blob_put(&u, t.p, at);
    blob_put(&u, text, sizeof text);
    blob_put(&u, t.p + at, end - at);
    blob_put(&u, text, sizeof text);
    blob_put(&u, t.p + end, t.n - end);
    free(t.p);
    const cv_image *im = load("ancillary.png", u);
    CHECK(im && !memcmp(im->pixels, g, 4));
    free(b.p);
}

TEST(corrupt_jpeg)
{
    blob b = textured_jpeg(false);
    size_t scan = jpeg_scan(&b);
    size_t mid = (scan + b.n) / 2;

    /* A marker in the middle of the entropy-coded data. */
    blob c = blob_copy(b, b.n);
    c.p[mid] = 0xFF;
    c.p[mid + 1] = 0xC4;
    CHECK(fails_file("marker.jpg", c, "Corrupt JPEG data"));

    /* Garbage over part of the scan (0xFF bytes stuffed, as a writer would). */
    for (unsigned seed = 1; seed <= 4; seed++) {
        c = blob_copy(b, b.n);
        unsigned st = seed;
        for (size_t i = 0; i < 40; i++) {
            unsigned char v = noise(&st);
            c.p[mid + i] = v == 0xFF ? 0x00 : v;
        }
        char name[32];
        snprintf(name, sizeof name, "garbage%u.jpg", seed);
        CHECK(fails_file(name, c, "damaged"));
    }

    /* A damaged header: an unknown precision in SOF. */
    c = blob_copy(b, b.n);
    for (size_t o = 2; o + 4 < c.n; o += 2 + ((size_t)c.p[o + 2] << 8 | c.p[o + 3]))
        if (c.p[o + 1] == 0xC0) {
            c.p[o + 4] = 9;
            break;
        }
    CHECK(fails_file("precision.jpg", c, "damaged or unsupported JPEG"));
    free(b.p);
}

TEST(not_an_image)
{
    blob t = {0};
    blob_put(&t, "name: Ada\nphoto: me.png\n", 24);
    CHECK(fails_file("text.png", t, "not a PNG or JPEG"));

    /* GIF, WebP and SVG, which RenderCV (Typst) draws: a warning naming
     * the file and its kind, and no photo. */
    blob g = {0};
    blob_put(&g, "GIF89a\x01\x00\x01\x00\x00\x00\x00;", 14);
    blob w = {0};
    blob_put(&w, "RIFF\x10\x00\x00\x00WEBPVP8 ", 16);
    blob v = {0};
    blob_put(&v, "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n", 42);
    const struct { const char *name; blob b; const char *kind; } drawn[] = {
        {"anim.png", g, "a GIF file"}, {"web.jpg", w, "a WebP file"},
        {"face.svg", v, "an SVG file"}};
    for (size_t i = 0; i < sizeof drawn / sizeof *drawn; i++) {
        capture();
        const cv_image *im = cv_image_load(A, put_file(drawn[i].name, drawn[i].b), POS, &E);
        const char *out = said();
        CHECK(!im && !E.set && has(out, "warning") && has(out, drawn[i].name) &&
              has(out, drawn[i].kind) && has(out, "the résumé has no photo"));
        if (im || E.set || !has(out, drawn[i].kind))
            fprintf(stderr, "  %s: %s %s\n", drawn[i].name, errstr(), out);
    }

    CHECK(fails_file("empty.png", (blob){0}, "empty"));
}

TEST(files)
{
    CHECK(fails(path_of("missing.png"), "cannot open"));
    CHECK(fails(path_of("missing.png"), "No such file"));
    const char *d = path_of("adir.png");
    mkdir(d, 0755);
    CHECK(fails(d, "directory"));
    rmdir(d);

    /* Bigger than the file limit (a sparse file). */
    const char *big = path_of("big.jpg");
    int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)CV_IMAGE_MAX_BYTES + 1) == 0);
    close(fd);
    CHECK(fails(big, "larger than 50 MB"));
    unlink(big);

    /* Unreadable: root reads anything, so only as another user. */
    if (geteuid() != 0) {
        static const unsigned char g[] = {1};
        pngspec s = {.w = 1, .h = 1, .ctype = PNG_COLOR_TYPE_GRAY, .depth = 8, .rows = g};
        const char *p = put_file("secret.png", make_png(&s));
        chmod(p, 0);
        CHECK(fails(p, "Permission denied"));
        chmod(p, 0644);
    }
}

TEST(absurd_dimensions)
{
    /* A PNG header claiming 20000x20000 (a valid IHDR), then nothing. */
    static const unsigned char g[] = {0};
    pngspec s = {.w = 1, .h = 1, .ctype = PNG_COLOR_TYPE_GRAY, .depth = 8, .rows = g};
    blob b = make_png(&s);
    blob c = blob_copy(b, b.n);
    put_be32(c.p + 16, 20000);
    put_be32(c.p + 20, 20000);
    png_fix_crc(&c, 8);
    CHECK(fails_file("huge.png", c, "20000x20000 pixels"));

    /* Each side under the limit, the area over it. */
    c = blob_copy(b, b.n);
    put_be32(c.p + 16, 9000);
    put_be32(c.p + 20, 9000);
    png_fix_crc(&c, 8);
    CHECK(fails_file("wide.png", c, "megapixels"));

    /* The largest PNG width there is. */
    c = blob_copy(b, b.n);
    put_be32(c.p + 16, 0x7FFFFFFF);
    png_fix_crc(&c, 8);
    CHECK(fails_file("max.png", c, "pixels"));
    free(b.p);

    /* A JPEG whose frame header claims 30000x40000. */
    blob j = textured_jpeg(false);
    for (size_t o = 2; o + 8 < j.n; o += 2 + ((size_t)j.p[o + 2] << 8 | j.p[o + 3]))
        if (j.p[o + 1] == 0xC0) {
            j.p[o + 5] = 40000 >> 8;
            j.p[o + 6] = 40000 & 0xFF;
            j.p[o + 7] = 30000 >> 8;
            j.p[o + 8] = 30000 & 0xFF;
            break;
        }
    CHECK(fails_file("huge.jpg", j, "30000x40000 pixels"));
}

TEST(decode_from_memory)
{
    static const unsigned char g[] = {7, 8};
    pngspec s = {.w = 2, .h = 1, .ctype = PNG_COLOR_TYPE_GRAY, .depth = 8, .rows = g};
    blob b = make_png(&s);
    cv_error_init(&E);
    const cv_image *im = cv_image_decode(A, "mem.png", b.p, b.n, POS, &E);
    CHECK(im && im->width == 2 && !memcmp(im->pixels, g, 2));
    CHECK_STR(im ? im->path : NULL, "mem.png");
    cv_error_init(&E);
    CHECK(!cv_image_decode(A, "mem.png", b.p, b.n - 1, POS, &E) && has(E.msg, "mem.png"));
    free(b.p);
}

/* The fixtures of tests/data (see make_photos.c), as the end-to-end tests
 * will see them. */
TEST(fixtures)
{
    static const struct { unsigned x, y; unsigned char png[3], jpg[3]; } at[] = {
        {60, 58, {0x2E, 0x6D, 0xB4}, {0x2E, 0x6D, 0xB4}},    /* head */
        {60, 150, {0x1F, 0x3A, 0x5F}, {0x1F, 0x3A, 0x5F}},   /* shoulders */
        {5, 5, {255, 255, 255}, {0xE8, 0xDC, 0xC8}},         /* background */
        {114, 5, {255, 255, 255}, {0xE8, 0xDC, 0xC8}},
    };
    cv_error_init(&E);
    const cv_image *png = cv_image_load(A, "tests/data/photo.png", POS, &E);
    const cv_image *jpg = cv_image_load(A, "tests/data/photo.jpg", POS, &E);
    CHECK(png && png->width == 120 && png->height == 160 && png->channels == 3);
    CHECK(jpg && jpg->width == 120 && jpg->height == 160 && jpg->channels == 3);
    for (size_t i = 0; png && jpg && i < sizeof at / sizeof *at; i++)
        for (unsigned c = 0; c < 3; c++) {
            CHECK(px(png, at[i].x, at[i].y, c) == at[i].png[c]);
            CHECK(abs((int)px(jpg, at[i].x, at[i].y, c) - at[i].jpg[c]) <= 6);
        }
    /* Half-covered edge pixels of the PNG are blended with white. */
    bool blended = false;
    for (unsigned x = 0; png && x < 120; x++) {
        unsigned r = px(png, x, 45, 0);
        blended |= r > 0x2E && r < 255;
    }
    CHECK(blended);
}

/* ---- Downscaling ------------------------------------------------------------- */

static cv_image *gray_image(unsigned w, unsigned h, const unsigned char *p)
{
    cv_image *im = cv_arena_alloc(A, sizeof *im);
    *im = (cv_image){"g.png", w, h, 1, p};
    return im;
}

TEST(fit_unchanged_when_small)
{
    static const unsigned char p[6] = {0};
    const cv_image *im = gray_image(3, 2, p);
    CHECK(cv_image_fit(A, im, 3, 2) == im);
    CHECK(cv_image_fit(A, im, 300, 200) == im);
}

TEST(fit_box_average)
{
    /* 4x2 -> 2x1: each output pixel is the mean of a 2x2 block. */
    static const unsigned char p[] = {0, 10, 100, 101, 20, 30, 102, 104};
    const cv_image *o = cv_image_fit(A, gray_image(4, 2, p), 2, 2);
    CHECK(o && o->width == 2 && o->height == 1 && o->channels == 1);
    if (o) {
        CHECK(o->pixels[0] == 15);
        CHECK(o->pixels[1] == 102);    /* 101.75 */
        CHECK_STR(o->path, "g.png");
    }

    /* 3x3 -> 2x2: pixels cut in half by the boxes count for their part. */
    static const unsigned char q[] = {0, 90, 180, 90, 180, 255, 180, 255, 255};
    o = cv_image_fit(A, gray_image(3, 3, q), 2, 2);
    CHECK(o && o->width == 2 && o->height == 2);
    if (o) {
        /* (0*1 + 90*.5 + 90*.5 + 180*.25) / 2.25 = 60 */
        CHECK(o->pixels[0] == 60);
        /* (90*.5 + 180*1 + 180*.25 + 255*.5) / 2.25 = 176.67 */
        CHECK(o->pixels[1] == 177);
        /* (180*.25 + 255*.5 + 255*.5 + 255*1) / 2.25 = 246.67 */
        CHECK(o->pixels[3] == 247);
    }

    /* A flat image stays flat whatever the ratio. */
    static unsigned char f[7 * 5];
    memset(f, 200, sizeof f);
    o = cv_image_fit(A, gray_image(7, 5, f), 3, 3);
    CHECK(o && o->width == 3 && o->height == 2);   /* 7:5 kept: 3 x 2.14 */
    for (unsigned i = 0; o && i < 6; i++)
        CHECK(o->pixels[i] == 200);
}

TEST(fit_aspect_and_rgb)
{
    /* 400x300 RGB into 100x100: 100x75; left half red, right half blue. */
    unsigned char *p = cv_arena_alloc(A, 400 * 300 * 3);
    for (unsigned y = 0; y < 300; y++)
        for (unsigned x = 0; x < 400; x++) {
            p[(y * 400 + x) * 3] = x < 200 ? 255 : 0;
            p[(y * 400 + x) * 3 + 2] = x < 200 ? 0 : 255;
        }
    cv_image src = {"rgb.jpg", 400, 300, 3, p};
    const cv_image *o = cv_image_fit(A, &src, 100, 100);
    CHECK(o && o->width == 100 && o->height == 75 && o->channels == 3);
    if (o) {
        CHECK(px(o, 10, 10, 0) == 255 && px(o, 10, 10, 2) == 0);
        CHECK(px(o, 90, 70, 0) == 0 && px(o, 90, 70, 2) == 255);
        CHECK(px(o, 49, 0, 0) == 255 && px(o, 50, 0, 2) == 255);
    }
    /* Tall: 300x400 into 100x100 is 75x100; limits of 0 count as 1. */
    src.width = 300;
    src.height = 400;
    o = cv_image_fit(A, &src, 100, 100);
    CHECK(o && o->width == 75 && o->height == 100);
    o = cv_image_fit(A, &src, 0, 0);
    CHECK(o && o->width == 1 && o->height == 1);
}

/* ---- Drawing -------------------------------------------------------------- */

static char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    blob b = {0};
    char chunk[4096];
    size_t k;
    while (f && (k = fread(chunk, 1, sizeof chunk, f)) > 0)
        blob_put(&b, chunk, k);
    if (f)
        fclose(f);
    blob_put(&b, "", 1);
    *n = b.n - 1;
    return (char *)b.p;
}

static size_t count(const char *hay, size_t n, const char *needle)
{
    size_t c = 0, l = strlen(needle);
    for (size_t i = 0; i + l <= n; i++)
        c += !memcmp(hay + i, needle, l);
    return c;
}

/* A 72-dpi rendering of page 1 by pdftoppm, as a cv_image (PPM, RGB). */
static const cv_image *render(const char *pdf)
{
    char cmd[512];
    const char *prefix = path_of("render");
    snprintf(cmd, sizeof cmd, "pdftoppm -r 72 -f 1 -l 1 -singlefile '%s' '%s' 2>&1",
             pdf, prefix);
    if (system(cmd) != 0)
        return NULL;
    size_t n;
    const char *ppm_path = cv_arena_printf(A, "%s.ppm", prefix);
    char *ppm = read_all(ppm_path, &n);
    unlink(ppm_path);
    unsigned w, h, max;
    int off = 0;
    cv_image *im = NULL;
    if (sscanf(ppm, "P6 %u %u %u%n", &w, &h, &max, &off) == 3 && max == 255 &&
        (size_t)off + 1 + (size_t)w * h * 3 <= n) {
        im = cv_arena_alloc(A, sizeof *im);
        unsigned char *p = cv_arena_alloc(A, (size_t)w * h * 3);
        memcpy(p, ppm + off + 1, (size_t)w * h * 3);
        *im = (cv_image){"render", w, h, 3, p};
    }
    free(ppm);
    return im;
}

TEST(pdf_and_dump)
{
    /* 2x2 RGB quadrants placed twice, a gray image once, a rule. */
    static const unsigned char quad[] = {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0};
    static const unsigned char gray[] = {0, 0, 0, 0};
    cv_image rgb = {"/some/dir/quad.png", 2, 2, 3, quad};
    cv_image g = {"dark.jpg", 2, 2, 1, gray};
    cv_img imgs[] = {{10, 10, 80, 80, &rgb, 0}, {110, 110, 80, 80, &rgb, 0}, {110, 10, 40, 40, &g, 0}};
    cv_rule rule = {0, 195, 200, 195, 1, 0x000000};
    cv_page page = {.rules = &rule, .nrules = 1, .imgs = imgs, .nimgs = 3};
    cv_display d = {.width = 200, .height = 200, .pages = &page, .npages = 1};

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cv_draw_dump(&d, NULL, out);
    fclose(out);
    CHECK_STR(text, "page 1 200.00x200.00\n"
                    "rule 0.00 195.00 200.00 195.00 w=1.00 #000000\n"
                    "image 10.00 10.00 80.00 80.00 2x2 rgb quad.png\n"
                    "image 110.00 110.00 80.00 80.00 2x2 rgb quad.png\n"
                    "image 110.00 10.00 40.00 40.00 2x2 gray dark.jpg\n");
    free(text);

    cv_error_init(&E);
    const char *dirs[] = {NULL};
    cv_engine *eng = cv_engine_new(dirs, &E);
    const char *pdf = path_of("images.pdf");
    CHECK(eng && cv_draw_pdf(&d, eng->fonts, pdf, NULL, &E));
    cv_engine_free(eng);
    size_t n;
    char *bytes = read_all(pdf, &n);
    /* Two image objects for three placements, both Flate-compressed. */
    CHECK(count(bytes, n, "/Subtype /Image") == 2);
    CHECK(count(bytes, n, "/FlateDecode") >= 2);
    char *at = memmem(bytes, n, "/Subtype /Image", 15);
    while (at) {
        /* The image's dictionary: from its "obj" to its "stream". */
        char *start = at, *end = strstr(at, "stream");
        while (start > bytes && memcmp(start, "obj", 3))
            start--;
        CHECK(end && memmem(start, (size_t)(end - start), "/FlateDecode", 12));
        at = memmem(at + 1, n - (size_t)(at + 1 - bytes), "/Subtype /Image", 15);
    }
    free(bytes);

    /* Drawn where the display list says, the right way up. */
    const cv_image *r = render(pdf);
    CHECK(r && r->width == 200 && r->height == 200);
    if (r) {
        /* Page y is 200 - PDF y.  First placement: x 10..90, y 110..190. */
        static const struct { unsigned x, y; unsigned char c[3]; } at_px[] = {
            {30, 130, {255, 0, 0}},   {70, 130, {0, 255, 0}},   /* top row */
            {30, 170, {0, 0, 255}},   {70, 170, {255, 255, 0}}, /* bottom row */
            {130, 30, {255, 0, 0}},   {170, 70, {255, 255, 0}}, /* second placement */
            {130, 170, {0, 0, 0}},                              /* the gray image */
            {100, 100, {255, 255, 255}},                        /* nothing there */
        };
        for (size_t i = 0; i < sizeof at_px / sizeof *at_px; i++)
            for (unsigned c = 0; c < 3; c++)
                CHECK(abs((int)px(r, at_px[i].x, at_px[i].y, c) - at_px[i].c[c]) <= 8);
    }
    unlink(pdf);
}

static int rm_tree(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static void limit_of(void *ctx, unsigned w, unsigned h, unsigned *max_w, unsigned *max_h)
{
    (void)w, (void)h;
    *max_w = ((unsigned *)ctx)[0];
    *max_h = ((unsigned *)ctx)[1];
}

/* Decoding a row at a time and scaling on the way gives exactly the
 * samples of decoding whole and then scaling, for every kind of PNG. */
TEST(load_fit_streams_the_same)
{
    static const struct { int ctype, depth; bool interlace; unsigned w, h, mw, mh; } k[] = {
        {PNG_COLOR_TYPE_RGB_ALPHA, 16, false, 301, 203, 97, 200},
        {PNG_COLOR_TYPE_RGB_ALPHA, 16, true, 301, 203, 97, 200},
        {PNG_COLOR_TYPE_GRAY, 8, false, 500, 77, 500, 13},
        {PNG_COLOR_TYPE_RGB, 8, false, 64, 640, 7, 63},
        {PNG_COLOR_TYPE_GRAY_ALPHA, 8, false, 33, 35, 32, 34},
        {PNG_COLOR_TYPE_RGB, 8, false, 40, 30, 40, 30},      /* fits: kept as is */
    };
    unsigned state = 7;
    for (size_t t = 0; t < sizeof k / sizeof *k; t++) {
        pngspec s = {.w = k[t].w, .h = k[t].h, .ctype = k[t].ctype, .depth = k[t].depth,
                     .interlace = k[t].interlace};
        size_t n = png_rowbytes(&s) * s.h;
        unsigned char *rows = malloc(n);
        for (size_t i = 0; i < n; i++)
            rows[i] = noise(&state);
        s.rows = rows;
        blob b = make_png(&s);
        cv_error_init(&E);
        const cv_image *whole = cv_image_decode(A, "x.png", b.p, b.n, POS, &E);
        const cv_image *want = whole ? cv_image_fit(A, whole, k[t].mw, k[t].mh) : NULL;
        unsigned lim[2] = {k[t].mw, k[t].mh};
        const cv_image *got = cv_image_decode_fit(A, "x.png", b.p, b.n,
                                                  &(cv_image_limit){limit_of, lim}, POS, &E);
        CHECK(want && got);
        if (want && got) {
            CHECK(got->width == want->width && got->height == want->height &&
                  got->channels == want->channels);
            CHECK(got->width <= k[t].mw && got->height <= k[t].mh);
            CHECK(memcmp(got->pixels, want->pixels,
                         (size_t)want->width * want->height * want->channels) == 0);
        }
        free(rows);
        free(b.p);
    }
}

int main(void)
{
    A = cv_arena_new();
    snprintf(dir, sizeof dir, "/tmp/cvpdf-image-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    RUN(png_palette);
    RUN(png_palette_trns);
    RUN(png_gray_depths);
    RUN(png_gray_alpha_flattened_on_white);
    RUN(png_rgba_flattened_on_white);
    RUN(png_16_bit);
    RUN(png_interlaced);
    RUN(png_orientation_and_extension_ignored);
    RUN(jpeg_gray);
    RUN(jpeg_rgb);
    RUN(jpeg_cmyk);
    RUN(jpeg_exif_orientation);
    RUN(truncated_png);
    RUN(truncated_jpeg);
    RUN(corrupt_png);
    RUN(corrupt_jpeg);
    RUN(not_an_image);
    RUN(files);
    RUN(absurd_dimensions);
    RUN(decode_from_memory);
    RUN(fixtures);
    RUN(fit_unchanged_when_small);
    RUN(fit_box_average);
    RUN(load_fit_streams_the_same);
    RUN(fit_aspect_and_rgb);
    RUN(pdf_and_dump);
    rm_tree();
    cv_arena_free(A);
    return harness_report("image");
}
