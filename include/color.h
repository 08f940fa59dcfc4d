/* color.h - colours as RenderCV takes them.
 *
 * RenderCV reads its colours with pydantic's Color: a CSS colour name in
 * any case (`black`, `Grey`, `darkblue`), hex with or without `#` (or
 * `0x`) of 3, 4, 6 or 8 digits, and rgb()/rgba()/hsl()/hsla() in the comma
 * syntax (`rgb(0, 79, 144)`, `hsl(270, 60%, 70%)`) or the space syntax
 * (`rgb(34 51 59 / 50%)`).  cvpdf draws on white pages without
 * transparency: a colour's alpha is blended over white, which is how the
 * translucent colour looks there.
 */
#ifndef CV_COLOR_H
#define CV_COLOR_H

#include <stdbool.h>
#include <stddef.h>

/* `s` as 0xRRGGBB into *out; false when it is no colour. */
bool cv_color_parse(const char *s, unsigned *out);

/* The i-th CSS colour name (lower case), or NULL past the last. */
const char *cv_color_name_at(size_t i);

#endif
