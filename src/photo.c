/* photo.c - the profile's photo, loaded and sized.  See photo.h. */
#include "photo.h"

#include <libgen.h>
#include <math.h>
#include <string.h>

#include "image.h"

void cv_photo_size(const cv_style *st, const cv_image *im, float width, float *w, float *h)
{
    float aspect = (float)im->height / (float)im->width;
    /* A layout without a photo height: at most three times the width, so
     * that a tall, narrow picture (1x600 pixels) stays on the page. */
    float most = st->photo_h > 0 ? st->photo_h : CV_PHOTO_MAX_ASPECT * width;
    *w = width;
    *h = width * aspect;
    if (*h > most) {
        *h = most;
        *w = *h / aspect;
    }
}

/* About 300 dpi of the size the photo is placed at. */
static void limit(void *ctx, unsigned w, unsigned h, unsigned *max_w, unsigned *max_h)
{
    const cv_style *st = ctx;
    cv_image im = {.width = w, .height = h};
    float pw, ph;
    cv_photo_size(st, &im, st->photo_w, &pw, &ph);
    *max_w = (unsigned)ceilf(pw / 72 * 300);
    *max_h = (unsigned)ceilf(ph / 72 * 300);
}

const cv_image *cv_photo_load(cv_arena *a, const cv_doc *doc, const cv_style *st,
                              cv_error *err)
{
    if (!doc->photo.s)
        return NULL;
    const char *path = doc->photo.s;
    if (path[0] != '/' && doc->file && strchr(doc->file, '/'))
        path = cv_arena_printf(a, "%s/%s", dirname(cv_arena_strdup(a, doc->file)), path);
    return cv_image_load_fit(a, path, &(cv_image_limit){limit, (void *)st}, doc->photo.pos,
                             err);
}

