/* image.h - the profile's photo: decoded, checked and scaled before libharu.
 *
 * libharu must never see a user's image file (../shared/LIBHARU-NOTES.md
 * §2): a truncated PNG aborts the process inside its libpng callback, and
 * a truncated JPEG is embedded as is, half grey.  So cvpdf decodes the
 * photo itself - libpng and libjpeg(-turbo), both with error handlers that
 * longjmp back here instead of aborting or printing - and hands the draw
 * backend plain 8-bit samples (cv_image, declared here), which it embeds with
 * HPDF_LoadRawImageFromMem.
 *
 * The format is told by the file's first bytes, never by its name.  Every
 * PNG colour type (palette, gray, gray+alpha, RGB, RGBA; 1 to 16 bits; tRNS;
 * interlaced) and baseline or progressive JPEG in gray, YCbCr/RGB or CMYK
 * (Adobe's inverted CMYK and YCCK included) comes out as 8-bit gray (1
 * channel) or RGB (3), rows top to bottom, with any transparency flattened
 * on white.  A JPEG is turned the way its Exif Orientation tag says (phones
 * store upright photos sideways), so width and height are as shown.  Colour
 * profiles and gamma are ignored.
 *
 * Strictness: a damaged file is an error, never a half-drawn picture.  The
 * whole PNG must be readable, up to its IEND chunk (CRC errors in critical
 * chunks, bad compressed data); every libjpeg warning about the data
 * (premature end, corrupt entropy data, extraneous bytes) is an error too.
 *
 * Limits, so that a mistaken `photo:` cannot exhaust memory: the file is at
 * most CV_IMAGE_MAX_BYTES (50 MB), the picture at most CV_IMAGE_MAX_SIDE
 * (10,000) pixels a side and CV_IMAGE_MAX_PIXELS (40 megapixels) in all.
 * Dimensions are checked from the header, before anything is allocated.
 */
#ifndef CV_IMAGE_H
#define CV_IMAGE_H

#include <stddef.h>

#include "arena.h"
#include "error.h"

/* A decoded picture 8-bit samples, gray (1 channel) or RGB (3),
 * rows top to bottom, any alpha already flattened on white. */
typedef struct cv_image {
    const char *path;
    unsigned width, height, channels;
    const unsigned char *pixels;    /* width * height * channels bytes */
} cv_image;

#define CV_IMAGE_MAX_BYTES (50u * 1024 * 1024)
#define CV_IMAGE_MAX_SIDE 10000u
#define CV_IMAGE_MAX_PIXELS 40000000u

/* Read and decode the PNG or JPEG file at `path`.  The result, its pixels
 * and its `path` (a copy) are valid until cv_arena_free(a).
 *
 * Returns NULL with err set at `pos` (the `photo:` field of the profile)
 * when the file is missing, unreadable, a directory or not a regular file,
 * empty, larger than CV_IMAGE_MAX_BYTES, neither PNG nor JPEG, truncated,
 * damaged, or too large in pixels; NULL with a warning only for an SVG,
 * WebP or GIF file (RenderCV draws those: the résumé goes without a
 * photo).  Every message names the file.  Nothing
 * but arena memory is left behind on any path. */
const cv_image *cv_image_load(cv_arena *a, const char *path, cv_pos pos, cv_error *err);

/* The same, from `size` bytes in memory; `path` only names the picture (in
 * messages and in the result).  `data` is not kept. */
const cv_image *cv_image_decode(cv_arena *a, const char *path, const unsigned char *data,
                                size_t size, cv_pos pos, cv_error *err);

/* The size a picture of w x h pixels is to fit in: set *max_w, *max_h. */
typedef struct cv_image_limit {
    void (*fn)(void *ctx, unsigned w, unsigned h, unsigned *max_w, unsigned *max_h);
    void *ctx;
} cv_image_limit;

/* cv_image_load() and cv_image_decode(), scaled down as cv_image_fit()
 * scales, to fit in the size `limit` gives for the picture's size.  A PNG
 * is decoded and scaled a row at a time, so a large picture costs a row of
 * itself and the scaled result, not its full size in memory (an
 * interlaced PNG, or a JPEG, which may need turning, is decoded whole
 * first). */
const cv_image *cv_image_load_fit(cv_arena *a, const char *path, const cv_image_limit *limit,
                                  cv_pos pos, cv_error *err);
const cv_image *cv_image_decode_fit(cv_arena *a, const char *path, const unsigned char *data,
                                    size_t size, const cv_image_limit *limit, cv_pos pos,
                                    cv_error *err);

/* `im` scaled down to fit in max_w x max_h pixels, keeping its aspect ratio
 * (each side rounded, at least 1), by a box filter: every new pixel is the
 * area-weighted average of the source pixels it covers, fractions of
 * pixels included.  An image that already fits is returned as is, never
 * enlarged.  A limit of 0 counts as 1.  Used to store the photo at about
 * 300 dpi of its placed size, so that a 4000x3000 camera JPEG does not
 * bloat the PDF.  The result is valid until cv_arena_free(a). */
const cv_image *cv_image_fit(cv_arena *a, const cv_image *im, unsigned max_w, unsigned max_h);

/* `im` (gray or RGB) as a JPEG of `quality` (1-100), through libjpeg
 * opened when first needed: *out is malloc'd (free() it), *len its size.
 * False, with nothing made, when libjpeg cannot be opened or fails. */
bool cv_image_jpeg(const cv_image *im, int quality, unsigned char **out, size_t *len);

#endif
