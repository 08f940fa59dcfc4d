/* make_photos.c - writes the photo fixtures tests/data/photo.png and photo.jpg.
 *
 *   cc -O2 -o build/make_photos tests/data/make_photos.c \
 *      $(pkg-config --cflags --libs libpng libjpeg) -lm
 *   build/make_photos tests/data
 *
 * Both are the same 120x160 portrait silhouette: a blue head (a disc of
 * radius 30 around (60, 58), #2E6DB4) over navy shoulders (the top of an
 * ellipse around (60, 172) with radii 54 and 62, #1F3A5F), edges
 * anti-aliased by 4x4 supersampling.
 *
 *  - photo.png is RGBA, 8 bits, on a fully transparent background, so it
 *    shows whether transparency is flattened on white: its corners must
 *    come out (255, 255, 255).
 *  - photo.jpg is RGB (YCbCr, quality 90) on a flat sand background,
 *    #E8DCC8 = (232, 220, 200).
 *
 * Pixels to check (x, y from the top-left): (60, 58) head blue, (60, 150)
 * shoulder navy, (5, 5) and (114, 5) background.  The output is the same on
 * every run.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

enum { W = 120, H = 160, SS = 4 };

static const unsigned char HEAD[3] = {0x2E, 0x6D, 0xB4};
static const unsigned char BODY[3] = {0x1F, 0x3A, 0x5F};
static const unsigned char SAND[3] = {0xE8, 0xDC, 0xC8};

/* Which shape covers the point: 0 none, 1 head, 2 shoulders. */
static int shape(double x, double y)
{
    double hx = x - 60, hy = y - 58;
    if (hx * hx + hy * hy <= 30 * 30)
        return 1;
    double bx = (x - 60) / 54, by = (y - 172) / 62;
    if (bx * bx + by * by <= 1)
        return 2;
    return 0;
}

/* Coverage of the head and of the shoulders in pixel (x, y), 0 to 1. */
static void coverage(int x, int y, double *head, double *body)
{
    int n[3] = {0, 0, 0};
    for (int sy = 0; sy < SS; sy++)
        for (int sx = 0; sx < SS; sx++)
            n[shape(x + (sx + 0.5) / SS, y + (sy + 0.5) / SS)]++;
    *head = n[1] / (double)(SS * SS);
    *body = n[2] / (double)(SS * SS);
}

static int write_png(const char *path)
{
    static unsigned char px[H][W][4];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double h, b;
            coverage(x, y, &h, &b);
            double a = h + b;
            for (int c = 0; c < 3; c++)
                px[y][x][c] = a > 0 ? (unsigned char)lround((HEAD[c] * h + BODY[c] * b) / a) : 0;
            px[y][x][3] = (unsigned char)lround(a * 255);
        }
    FILE *f = fopen(path, "wb");
    if (!f)
        return perror(path), 1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        fprintf(stderr, "%s: libpng failed\n", path);
        return 1;
    }
    png_init_io(png, f);
    png_set_compression_level(png, 9);
    png_set_IHDR(png, info, W, H, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < H; y++)
        png_write_row(png, &px[y][0][0]);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return fclose(f) != 0;
}

static int write_jpeg(const char *path)
{
    static unsigned char px[H][W][3];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double h, b;
            coverage(x, y, &h, &b);
            for (int c = 0; c < 3; c++)
                px[y][x][c] =
                    (unsigned char)lround(HEAD[c] * h + BODY[c] * b + SAND[c] * (1 - h - b));
        }
    FILE *f = fopen(path, "wb");
    if (!f)
        return perror(path), 1;
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e);
    jpeg_create_compress(&c);
    jpeg_stdio_dest(&c, f);
    c.image_width = W;
    c.image_height = H;
    c.input_components = 3;
    c.in_color_space = JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, 90, TRUE);
    jpeg_start_compress(&c, TRUE);
    while (c.next_scanline < H) {
        JSAMPROW row = &px[c.next_scanline][0][0];
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/data";
    char png[4096], jpg[4096];
    snprintf(png, sizeof png, "%s/photo.png", dir);
    snprintf(jpg, sizeof jpg, "%s/photo.jpg", dir);
    return write_png(png) || write_jpeg(jpg);
}
