/* icons.c - Font Awesome icon names to the glyphs of the icon face.  See
 * icons.h.
 *
 * The face's own glyph names are the catalogue (Fork Awesome names every
 * glyph by its icon id, "graduation-cap"), so nothing here lists icons
 * except the renames: Font Awesome 5 and 6 gave new names to many icons
 * of version 4, and RenderCV's users write the new ones.  The table holds
 * the new name and the old one, both facts of the Font Awesome releases.
 */
#include "icons.h"

#include <ctype.h>
#include <string.h>

#include <hb.h>

/* Font Awesome 5 and 6 names of icons Fork Awesome knows by their version
 * 4 names. */
static const char *const renames[][2] = {
    {"arrow-right-from-bracket", "sign-out"}, {"arrow-right-to-bracket", "sign-in"},
    {"arrow-up-right-from-square", "external-link"}, {"arrows-rotate", "refresh"},
    {"award", "trophy"}, {"book-open", "book"}, {"building-columns", "university"},
    {"business-time", "briefcase"}, {"calendar-alt", "calendar"},
    {"calendar-check", "calendar-check-o"}, {"calendar-day", "calendar"},
    {"calendar-days", "calendar"}, {"chalkboard-teacher", "graduation-cap"},
    {"chalkboard-user", "graduation-cap"}, {"chart-bar", "bar-chart"},
    {"chart-line", "line-chart"}, {"chart-pie", "pie-chart"},
    {"circle-check", "check-circle"}, {"circle-info", "info-circle"},
    {"circle-user", "user-circle"}, {"clock", "clock-o"},
    {"cloud-arrow-down", "cloud-download"}, {"code-branch", "code-fork"},
    {"comment-dots", "commenting"}, {"earth-americas", "globe"}, {"earth-europe", "globe"},
    {"file-alt", "file-text"}, {"file-code", "file-code-o"}, {"file-lines", "file-text"},
    {"file-pdf", "file-pdf-o"}, {"floppy-disk", "floppy-o"}, {"gear", "cog"},
    {"gears", "cogs"}, {"globe-americas", "globe"}, {"globe-europe", "globe"},
    {"hand-holding-heart", "heart"}, {"handshake", "handshake-o"}, {"house", "home"},
    {"landmark", "university"}, {"laptop-code", "laptop"}, {"location-dot", "map-marker"},
    {"location-pin", "map-marker"}, {"magnifying-glass", "search"},
    {"map-location-dot", "map"}, {"map-marker-alt", "map-marker"}, {"medal", "trophy"},
    {"microphone-lines", "microphone"}, {"mobile-alt", "mobile"},
    {"mobile-screen", "mobile"}, {"mobile-screen-button", "mobile"},
    {"newspaper", "newspaper-o"}, {"pen", "pencil"}, {"pen-to-square", "pencil-square-o"},
    {"pencil-alt", "pencil"}, {"person", "user"}, {"phone-alt", "phone"},
    {"phone-flip", "phone"}, {"phone-volume", "volume-control-phone"},
    {"photo-film", "picture-o"}, {"school", "graduation-cap"}, {"share-nodes", "share-alt"},
    {"square-envelope", "envelope-square"}, {"square-github", "github-square"},
    {"square-phone", "phone-square"}, {"square-rss", "rss-square"},
    {"square-x-twitter", "twitter-square"}, {"star-half-stroke", "star-half-o"},
    {"tv", "television"}, {"up-right-from-square", "external-link"},
    {"user-graduate", "graduation-cap"}, {"user-tie", "user"}, {"video", "video-camera"},
    {"x-twitter", "twitter"}, {"xmark", "times"},
};

void cv_icon_normalize(const char *name, char *out, size_t size)
{
    /* The last word: "fa-solid fa-house" names the icon "fa-house". */
    const char *w = name;
    for (const char *p = name; *p; p++)
        if (isspace((unsigned char)*p) && p[1] && !isspace((unsigned char)p[1]))
            w = p + 1;
    if (!strncmp(w, "fa-", 3))
        w += 3;
    size_t n = 0;
    for (; w[n] && !isspace((unsigned char)w[n]) && n + 1 < size; n++)
        out[n] = (char)tolower((unsigned char)w[n]);
    if (size)
        out[n] = 0;
}

/* The lowest code point of the glyph named `glyph` in face f (its post
 * table's or its CFF charset's names, through HarfBuzz; a reverse walk of
 * the cmap: an icon font has a few hundred), or 0. */
static uint32_t by_glyph_name(const cv_face *f, const char *glyph)
{
    hb_codepoint_t gid;
    if (!hb_font_get_glyph_from_name(f->hb, glyph, -1, &gid) || !gid)
        return 0;
    hb_set_t *cps = hb_set_create();
    hb_face_collect_unicodes(f->hb_face, cps);
    uint32_t found = 0;
    for (hb_codepoint_t cp = HB_SET_VALUE_INVALID; !found && hb_set_next(cps, &cp);) {
        hb_codepoint_t g;
        if (hb_font_get_nominal_glyph(f->hb, cp, &g) && g == gid)
            found = cp;
    }
    hb_set_destroy(cps);
    return found;
}

uint32_t cv_icon_lookup(const cv_fontset *fs, int face, const char *name)
{
    const cv_face *f = face >= 0 ? cv_fontset_face(fs, face) : NULL;
    if (!f || !f->hb || !name)
        return 0;
    char id[64];
    cv_icon_normalize(name, id, sizeof id);
    if (!*id)
        return 0;
    uint32_t cp = by_glyph_name(f, id);
    for (size_t i = 0; !cp && i < sizeof renames / sizeof *renames; i++)
        if (!strcmp(renames[i][0], id))
            cp = by_glyph_name(f, renames[i][1]);
    return cp;
}
