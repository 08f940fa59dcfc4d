/* fuzz_font.c - cvpdf's readers of a font file's tables: bytes as a font
 * file (a TrueType or OpenType font, or a collection) -> cv_sfnt_count,
 * cv_sfnt_describe, cv_sfnt_measure and cv_sfnt_outlines_cut for each of
 * its first faces, and the CFF table's glyph count and charset.
 *
 * These read every face cvpdf opens (fontset.c) and every file in a font
 * directory (the catalogue), user-given font files included, so they must
 * read nothing outside the bytes given, whatever the bytes.  Besides not
 * crashing, it checks what sfnt.h promises of what it vouches for: a
 * family name that is printable ASCII, an em between 16 and 16384 units,
 * a PostScript name of PostScript characters, and a CFF table inside the
 * file.  A broken promise aborts, which the fuzzer reports like a crash.
 */
#include "fuzz.h"

#include "cff.h"
#include "sfnt.h"

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_font: %s\n", what);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int n = cv_sfnt_count(data, size);
    for (int i = 0; i < n && i < 4; i++) {
        (void)cv_sfnt_outlines_cut(data, size, i);
        cv_sfnt_face f;
        if (cv_sfnt_describe(data, size, i, &f))
            for (const char *c = f.family; *c; c++)
                check(*c >= 32 && *c <= 127, "a family name outside printable ASCII");
        cv_sfnt_metrics m;
        if (!cv_sfnt_measure(data, size, i, &m))
            continue;
        check(m.upem >= 16 && m.upem <= 16384, "an em out of range");
        for (const char *c = m.psname; *c; c++)
            check(*c > 32 && *c < 127 && !strchr("[](){}<>/%", *c),
                  "a PostScript name with a character it may not hold");
        if (!m.cff)
            continue;
        check(m.cff >= data && m.cff + m.cff_len <= data + size, "a CFF table outside the file");
        unsigned count;
        if (cv_cff_glyph_count(m.cff, m.cff_len, &count) && count && count <= 64) {
            uint16_t cid[64];
            (void)cv_cff_cids(m.cff, m.cff_len, count, cid, NULL);
        }
    }
    return 0;
}
