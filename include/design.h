/* design.h - RenderCV's `design:` as cvpdf layout keys.
 *
 * A RenderCV profile chooses its look with `design:`: a `theme` (classic,
 * engineeringresumes, engineeringclassic, sb2nov, moderncv, harvard, ink,
 * opal, ember) and options over it (page, colors, typography, links,
 * header, section_titles, sections, entries, templates).  cvpdf has one
 * model of a look, the layout (style.h): each theme is a shipped layout,
 * layouts/THEME.yaml, and cv_design_read() translates the options into a
 * layout tree laid over it (the same merge as `extends:`).  Nothing else
 * reads `design:`.
 *
 * The keys are checked as RenderCV checks them (an unknown key is an error
 * with a suggestion); values are checked when the layout is resolved
 * (style.c), at their position in the profile.  Options that the layout
 * model cannot express are named in one note.  docs/rendercv.md lists the
 * mapping.
 *
 * Everything is allocated in the arena and valid until cv_arena_free().
 */
#ifndef CV_DESIGN_H
#define CV_DESIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "error.h"
#include "yml.h"

/* A profile's `design:`: its theme and the layout keys it becomes.  Every
 * option that changes how the résumé looks is a layout key, the dates and
 * phone numbers included (dates.*, header.phone_format). */
typedef struct cv_design {
    const char *theme;              /* "classic" unless the profile names one */
    cv_pos pos;                     /* of `design:` */
    const cv_yml *layout;           /* layout keys over layouts/THEME.yaml */
} cv_design;

/* The themes, in RenderCV's order, NULL-terminated. */
extern const char *const cv_design_themes[];

/* Read `design` (a mapping, or NULL/null for none) into *out.  Returns
 * false with err set for a key RenderCV would reject or a value of the
 * wrong shape. */
bool cv_design_read(cv_arena *a, const cv_yml *design, cv_design *out, cv_error *err);

#endif
