/* icons.h - Font Awesome icon names to the glyphs of the icon face.
 *
 * RenderCV names a custom connection's icon by its Font Awesome 6 name
 * (`fontawesome_icon: calendar-days`, also written `fa-calendar-days` or
 * `fa-solid fa-calendar-days`).  cvpdf draws icons from Fork Awesome (Font
 * Awesome 4.7's set, which Debian packages), whose font names each glyph
 * by its icon's id.  So a name is looked up in the face itself, by glyph
 * name: as written, then under the name Font Awesome 4 gave the icons that
 * versions 5 and 6 renamed (`calendar-days` was `calendar`,
 * `location-dot` was `map-marker`).
 *
 * Errors: none; an unknown name gives 0.
 */
#ifndef CV_ICONS_H
#define CV_ICONS_H

#include <stdint.h>

#include "fontset.h"

/* The code point of the icon called `name` in face `face` of `fs` (the icon
 * face: Fork Awesome), or 0 when the face has no icon of that name (or is
 * no face, or its glyphs have no names). */
uint32_t cv_icon_lookup(const cv_fontset *fs, int face, const char *name);

/* The name as Fork Awesome would have it: the last word of `name`, without
 * its "fa-" prefix, in the arena-free buffer `out` of `size` bytes. */
void cv_icon_normalize(const char *name, char *out, size_t size);

#endif
