/* ftref.h - FreeType's reading of an open cv_face, for tests that check
 * cvpdf's glyphs, advances and metrics against an independent reader
 * (cvpdf itself reads a face's tables and asks HarfBuzz: fontset.c).
 * Each face is opened once, from the file fontset.c mapped, and kept for
 * the test's life. */
#ifndef CV_TEST_FTREF_H
#define CV_TEST_FTREF_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H

#include "fontset.h"

static FT_Face ftref(const cv_face *f)
{
    static FT_Library lib;
    static struct { const cv_face *f; FT_Face ft; } open[32];
    static size_t n;
    for (size_t i = 0; i < n; i++)
        if (open[i].f == f)
            return open[i].ft;
    FT_Face ft = NULL;
    if ((!lib && FT_Init_FreeType(&lib)) || n == sizeof open / sizeof *open ||
        FT_New_Memory_Face(lib, f->data, (FT_Long)f->size, f->index, &ft))
        abort();
    open[n].f = f;
    open[n++].ft = ft;
    return ft;
}

#endif
