/* cjk.c - regional CJK faces and full-width punctuation.
 * See cjk.h.
 */
#include "cjk.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <hb.h>

#include "unicode.h"
#include "markup.h"

const char *cv_cjk_region(const char *lang)
{
    if (!lang)
        return NULL;
    size_t n = strcspn(lang, "-_");
    if (n == 2 && !strncasecmp(lang, "ja", 2))
        return "JP";
    if (n == 2 && !strncasecmp(lang, "ko", 2))
        return "KR";
    if (n != 2 || strncasecmp(lang, "zh", 2))
        return NULL;
    /* zh, then a script or region subtag or two. */
    for (const char *s = lang + n; *s;) {
        s++;
        size_t k = strcspn(s, "-_");
        if ((k == 4 && !strncasecmp(s, "Hant", 4)) || (k == 2 && !strncasecmp(s, "TW", 2)) ||
            (k == 2 && !strncasecmp(s, "MO", 2)))
            return "TC";
        if (k == 2 && !strncasecmp(s, "HK", 2))
            return "HK";
        if (k == 4 && !strncasecmp(s, "Hans", 4))
            return "SC";
        s += k;
    }
    return "SC";
}

/* The region a family's name ends with (" SC", " JP", ...), as its offset
 * in `family`, or 0 when it names none.  Only the families of the CJK
 * collections, whose faces differ by region alone, are matched. */
static size_t region_at(const char *family)
{
    static const char *const prefixes[] = {"Noto Sans CJK ", "Noto Serif CJK ",
                                           "Noto Sans Mono CJK ", "Source Han Sans ",
                                           "Source Han Serif ", "Source Han Mono "};
    static const char *const regions[] = {"SC", "TC", "HK", "JP", "KR"};
    size_t n = strlen(family);
    for (size_t p = 0; p < sizeof prefixes / sizeof *prefixes; p++) {
        size_t k = strlen(prefixes[p]);
        if (n != k + 2 || strncasecmp(family, prefixes[p], k))
            continue;
        for (size_t r = 0; r < sizeof regions / sizeof *regions; r++)
            if (!strcasecmp(family + k, regions[r]))
                return k;
    }
    return 0;
}

void cv_cjk_localize(cv_fontset *fs, const char *lang, int chain[][CV_MAX_CHAIN],
                     bool synth[][CV_MAX_CHAIN], size_t n)
{
    const char *region = cv_cjk_region(lang);
    if (!region)
        return;
    for (int s = 0; s < 4; s++)
        for (size_t i = 0; i < n; i++) {
            const char *family = cv_fontset_family(fs, chain[s][i]);
            size_t at = family ? region_at(family) : 0;
            if (!at || !strcasecmp(family + at, region))
                continue;
            char name[64];
            snprintf(name, sizeof name, "%.*s%s", (int)at, family, region);
            /* Not installed in that region: the layout's face stays. */
            cv_error err;
            cv_error_init(&err);
            bool sy;
            int id = cv_fontset_find_lazy(fs, name, s & CV_STYLE_BOLD, s & CV_STYLE_ITALIC,
                                          &sy, (cv_pos){0}, &err);
            if (id < 0)
                continue;
            chain[s][i] = id;
            synth[s][i] = sy;
        }
}

bool cv_cjk_is_run_mark(uint32_t cp)
{
    return cp == 0x2014 || cp == 0x2015 || cp == 0x2025 || cp == 0x2026 || cp == 0x22EF ||
           cp == 0x2E3A || cp == 0x2E3B;
}

bool cv_cjk_squeezable(uint32_t cp)
{
    if (cp < 0x2000 || cv_cjk_is_run_mark(cp))
        return false;
    /* The curly quotes, which CJK faces set full-width, and CJK
     * punctuation (unicode.h: wide, or written in Han, kana or Hangul). */
    if (!(cp == 0x2018 || cp == 0x2019 || cp == 0x201C || cp == 0x201D || cv_unicode_cjk(cp)))
        return false;
    return cv_unicode_punct(cp);
}

bool cv_cjk_ink_depth(const cv_face *f, unsigned gid, int *depth)
{
    hb_glyph_extents_t e;
    if (!f || !f->hb || !gid || !hb_font_get_glyph_extents(f->hb, gid, &e) || e.width <= 0)
        return false;
    *depth = (int)(-((long)e.y_bearing + e.height) * 1000 / f->upem);
    return true;
}

bool cv_cjk_ink(const cv_face *f, unsigned gid, int *lo, int *hi)
{
    hb_glyph_extents_t e;
    if (!f || !f->hb || !gid || !hb_font_get_glyph_extents(f->hb, gid, &e) || e.width <= 0)
        return false;
    *lo = (int)((long)e.x_bearing * 1000 / f->upem);
    *hi = (int)(((long)e.x_bearing + e.width) * 1000 / f->upem);
    return true;
}
