/* rcvold.h - RenderCV files of every release, read as RenderCV 2.8's.
 *
 * RenderCV's input changed shape twice.  1.x had a flat `design:` (font,
 * font_size, page_size, color, margins.page.top, ...) and a top-level
 * `locale_catalog`; 2.0 to 2.3 a nested one of other names (text,
 * highlights, entry_types, header.name_font_size, ...), `locale:` with
 * date and page templates, and `rendercv_settings`; 2.4 to 2.6 ignored
 * top-level keys they did not know; 2.7 and 2.8 have today's model
 * (design.h, lang.h).  cv_rcv_upgrade() translates an older file's tree
 * into today's, value nodes kept with their positions, and says in one
 * note which version it read the file as and what became what.
 *
 * Every tree is allocated in the arena.
 */
#ifndef CV_RCVOLD_H
#define CV_RCVOLD_H

#include <stdbool.h>

#include "arena.h"
#include "error.h"
#include "yml.h"

/* The eras a file can be read as. */
typedef enum {
    CV_RCV_CURRENT,     /* 2.7/2.8, or cvpdf's own: nothing changed */
    CV_RCV_1X,          /* flat design:, locale_catalog */
    CV_RCV_20,          /* 2.0-2.3: design.text, entry_types, rendercv_settings */
    CV_RCV_24           /* 2.4-2.6: extra top-level keys, ignored then */
} cv_rcv_era;

/* `root` (a profile's mapping) in RenderCV 2.8's shape.  `migrate`: every
 * locale key RenderCV 2.8 keeps in `design:` goes there, and `design:` is
 * written even when the file has none (RenderCV's default, classic);
 * otherwise such keys move to design: only when the file has one (cvpdf's
 * own locale keys stay where cvpdf reads them).  `era` (may be NULL) gets
 * the version read as.  Returns the new root (or `root` itself when
 * nothing changes), or NULL with err set for a key no version had. */
const cv_yml *cv_rcv_upgrade(cv_arena *a, const cv_yml *root, bool migrate, cv_rcv_era *era,
                             cv_error *err);

#endif
