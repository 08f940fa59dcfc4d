/* test_photo.c - the profile's photo: found beside the profile, sized as
 * the layout says, stored at about 300 dpi of that size. */
#include "photo.h"
#include "harness.h"

#include <math.h>

#include "fixture.h"

static cv_style st;

TEST(photo_size_keeps_the_aspect)
{
    cv_image im = {.width = 100, .height = 200};
    cv_style s = st;
    s.photo_h = 0;
    float w, h;
    cv_photo_size(&s, &im, 50, &w, &h);
    CHECK_NUM(w, 50, 1e-4);
    CHECK_NUM(h, 100, 1e-4);
    /* A height limit makes a tall picture narrower. */
    s.photo_h = 60;
    cv_photo_size(&s, &im, 50, &w, &h);
    CHECK_NUM(h, 60, 1e-4);
    CHECK_NUM(w, 30, 1e-4);
    /* ... and leaves a wide one alone. */
    cv_image wide = {.width = 200, .height = 100};
    cv_photo_size(&s, &wide, 50, &w, &h);
    CHECK_NUM(w, 50, 1e-4);
    CHECK_NUM(h, 25, 1e-4);
}

TEST(photo_load)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    /* No photo: nothing, and no error. */
    cv_doc *d = fx_doc(a, "cv:\n  name: Ada\n");
    CHECK(cv_photo_load(a, d, &st, &err) == NULL && !err.set);
    /* Relative to the profile (tests/data/t.yaml): tests/data/photo.png,
     * 120x160 pixels, stored at no more than 300 dpi of its placed size. */
    d = fx_doc(a, "cv:\n  name: Ada\n  photo: photo.png\n");
    const cv_image *im = cv_photo_load(a, d, &st, &err);
    CHECK(im != NULL && !err.set);
    if (im) {
        float w, h;
        cv_photo_size(&st, im, st.photo_w, &w, &h);
        CHECK(im->width <= (unsigned)ceilf(w / 72 * 300));
        CHECK(im->height <= (unsigned)ceilf(h / 72 * 300));
        CHECK_NUM((float)im->height / (float)im->width, 160.0 / 120.0, 0.02);
    }
    /* A missing file: an error at the photo's line. */
    d = fx_doc(a, "cv:\n  name: Ada\n  photo: nowhere.png\n");
    CHECK(cv_photo_load(a, d, &st, &err) == NULL);
    CHECK(err.set && err.pos.line == 3 && strstr(err.msg, "nowhere.png"));
    cv_arena_free(a);
}

int main(void)
{
    fx_setup();
    fx_style("layouts/onecolumn.yaml", &st);
    RUN(photo_size_keeps_the_aspect);
    RUN(photo_load);
    fx_teardown();
    return harness_report("photo");
}
