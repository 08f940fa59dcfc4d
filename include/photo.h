/* photo.h - the profile's photo, loaded and sized for the layout.
 *
 * cv_photo_load() finds `cv.photo` (a path relative to the profile),
 * decodes it through image.h and scales it to about 300 dpi of the size
 * the layout's `photo:` gives it, so a camera JPEG does not bloat the PDF.
 * cv_photo_size() is that size, which compose.h uses to place it.
 */
#ifndef CV_PHOTO_H
#define CV_PHOTO_H

#include "arena.h"
#include "doc.h"
#include "display.h"
#include "error.h"
#include "style.h"

/* The photo, decoded and scaled; allocated in `a`, valid until
 * cv_arena_free().  NULL with err set when it cannot be read (missing,
 * damaged, too large: image.h), NULL alone when the profile has none. */
const cv_image *cv_photo_load(cv_arena *a, const cv_doc *doc, const cv_style *st,
                              cv_error *err);

/* A photo is never taller than this many times its width, when the layout
 * sets no photo height. */
#define CV_PHOTO_MAX_ASPECT 3.0f

/* The photo's placed size in points: `width` wide, or less when the
 * layout's photo height (or CV_PHOTO_MAX_ASPECT times the width) is
 * exceeded, keeping the picture's aspect ratio. */
void cv_photo_size(const cv_style *st, const cv_image *im, float width, float *w, float *h);

#endif
