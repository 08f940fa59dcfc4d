/* fontset.c - finding and opening faces.  See fontset.h.
 *
 * Discovery is two-tiered.  The directories given to cv_fontset_new() (the
 * project's fonts/) are catalogued once: each file's family, style and
 * outline format are read from its tables (sfnt.h), or, for a file that
 * reader does not vouch for, from FreeType, opening the face just long
 * enough.  Only when
 * a family is not there is fontconfig initialised (it costs milliseconds, so
 * documents that use the shipped fonts never pay for it).
 *
 * An opened face keeps its file mapped: HarfBuzz shapes from it and the
 * PDF backend subsets from it.  Its names and metrics are read from its
 * tables as FreeType would give them (sfnt.h), without opening it in
 * FreeType, which costs a CJK face milliseconds (Noto Sans CJK's 65,535
 * glyphs' charset); FreeType opens only a face that reader does not vouch
 * for, to read the same, and to say what is wrong with one cvpdf cannot
 * embed.
 *
 * A family that lacks the style asked for falls back to its nearest style
 * (cv_fontset_find); falling back from face to face for a character no face
 * has is itemising's job (wrap.c), along the style's chain of families.
 * The face is never written after it is opened: cv_face_glyph() and
 * cv_face_advance() ask HarfBuzz each time, and the caches that layout
 * needs are the shaper's (shape.c).
 */
#include "fontset.h"

#include "cff.h"
#include "sfnt.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H
#include FT_FONT_FORMATS_H
#include FT_TRUETYPE_TABLES_H
#include FT_TRUETYPE_TAGS_H
#include <hb.h>

#include "arena.h"
#include "sfnt.h"

typedef struct entry {       /* a catalogued face, not yet opened */
    char *path;
    int index;
    char *family;
    bool bold, italic;
    int face_id;             /* -1 until opened */
    bool cff;                /* listed by fontconfig as CFF */
    bool narrow;             /* a condensed or expanded width (DejaVu Serif Condensed
                              * is listed under DejaVu Serif too) */
} entry;

struct cv_fontset {
    FT_Library lib;
    entry *cat;
    size_t ncat;
    cv_face **faces;
    size_t nfaces;
    bool fc_ready;           /* FcInit() done: the system's whole configuration */
    FcConfig *fc_quick;      /* the standard font directories' caches only */
    bool fc_quick_tried;
};

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(cv_xrealloc(NULL, n), s, n);
}

static bool has_table(FT_Face face, FT_ULong tag)
{
    FT_ULong len = 0;
    return FT_Load_Sfnt_Table(face, tag, 0, NULL, &len) == 0 && len > 0;
}

/* What cvpdf can embed: TrueType outlines (glyf) or CFF ones in an
 * OpenType wrapper ('CFF ', CID-keyed or not). */
static bool embeddable(FT_Face face)
{
    return FT_IS_SFNT(face) && (has_table(face, TTAG_glyf) || has_table(face, TTAG_CFF));
}

/* The format of a face cvpdf cannot embed, for the error that refuses it. */
static const char *format_name(FT_Face face)
{
    if (FT_IS_SFNT(face)) {
        if (has_table(face, TTAG_CFF2))
            return "OpenType with CFF2 (variable) outlines";
        if (has_table(face, TTAG_EBDT) || has_table(face, TTAG_CBDT) ||
            has_table(face, TTAG_sbix) || has_table(face, TTAG_bdat))
            return "bitmap-only (no outlines)";
        return "an sfnt with no outlines";
    }
    const char *f = FT_Get_Font_Format(face);
    if (f && !strcmp(f, "CFF"))
        return "bare CFF (not wrapped in OpenType)";
    if (f && (!strcmp(f, "BDF") || !strcmp(f, "PCF") || !strcmp(f, "Windows FNT")))
        return "bitmap";
    return f ? f : "unknown";
}

/* A face whose OS/2 width class is not medium (5). */
static bool face_narrow(FT_Face f)
{
    const TT_OS2 *os2 = FT_Get_Sfnt_Table(f, FT_SFNT_OS2);
    return os2 && os2->version != 0xFFFF && os2->usWidthClass && os2->usWidthClass != 5;
}

static bool face_bold(FT_Face f)
{
    TT_OS2 *os2 = FT_Get_Sfnt_Table(f, FT_SFNT_OS2);
    if (os2 && os2->usWeightClass)
        return os2->usWeightClass >= 600;
    return (f->style_flags & FT_STYLE_FLAG_BOLD) != 0;
}

static void add_entry(cv_fontset *fs, const char *path, int index, const char *family,
                      bool bold, bool italic, bool narrow)
{
    fs->cat = cv_xrealloc(fs->cat, (fs->ncat + 1) * sizeof *fs->cat);
    fs->cat[fs->ncat++] = (entry){xstrdup(path), index, xstrdup(family), bold, italic, -1,
                                  false, narrow};
}

/* Catalogue face i of `path` through FreeType.  A face FreeType cannot
 * open, or that names no family, is skipped with a warning: it is
 * damaged (a file cut short opens with no name), and a family that
 * silently lost its regular face would be set in its italic. */
static void catalogue_face_ft(cv_fontset *fs, const char *path, long i, cv_error *err)
{
    FT_Face f;
    if (FT_New_Face(fs->lib, path, i, &f)) {
        cv_warn(err, (cv_pos){0}, "'%s' is not a font FreeType can read; it is ignored", path);
        return;
    }
    if (!f->family_name)
        cv_warn(err, (cv_pos){0}, "'%s' has no family name (it is damaged or cut short); "
                "it is ignored", path);
    else if (embeddable(f))
        add_entry(fs, path, (int)i, f->family_name, face_bold(f),
                  (f->style_flags & FT_STYLE_FLAG_ITALIC) != 0, face_narrow(f));
    FT_Done_Face(f);
}

/* The file's faces, read from their tables (sfnt.h) when the reader
 * vouches for them, through FreeType when it does not: the same entries
 * either way, at a hundredth of FreeType's cost. */
static void catalogue_file(cv_fontset *fs, const char *path, cv_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    void *map = MAP_FAILED;
    if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0)
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (fd >= 0)
        close(fd);
    cv_sfnt_face face;
    int n = map != MAP_FAILED ? cv_sfnt_count(map, (size_t)st.st_size) : 0;
    if (n > 0 && cv_sfnt_describe(map, (size_t)st.st_size, 0, &face)) {
        for (int i = 0; i < n && i < 64; i++) {
            if (i > 0 && !cv_sfnt_describe(map, (size_t)st.st_size, i, &face))
                catalogue_face_ft(fs, path, i, err);
            else if (face.named)
                add_entry(fs, path, i, face.family, face.bold, face.italic, face.narrow);
        }
        munmap(map, (size_t)st.st_size);
        return;
    }
    if (map != MAP_FAILED)
        munmap(map, (size_t)st.st_size);
    FT_Face f;
    if (FT_New_Face(fs->lib, path, -1, &f)) {
        cv_warn(err, (cv_pos){0}, "'%s' is not a font FreeType can read; it is ignored", path);
        return;
    }
    long nf = f->num_faces;
    FT_Done_Face(f);
    for (long i = 0; i < nf && i < 64; i++)
        catalogue_face_ft(fs, path, i, err);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void catalogue_dir(cv_fontset *fs, const char *dir, cv_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    /* Sorted, so which file wins a tie never depends on the file system. */
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *de; (de = readdir(d));) {
        const char *ext = strrchr(de->d_name, '.');
        if (!ext || (strcasecmp(ext, ".ttf") && strcasecmp(ext, ".ttc") &&
                     strcasecmp(ext, ".otf") && strcasecmp(ext, ".otc")))
            continue;
        size_t len = strlen(dir) + strlen(de->d_name) + 2;
        char *path = cv_xrealloc(NULL, len);
        snprintf(path, len, "%s/%s", dir, de->d_name);
        /* Regular files only: opening a FIFO named x.ttf would block. */
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
            free(path);
            continue;
        }
        names = cv_xrealloc(names, (n + 1) * sizeof *names);
        names[n++] = path;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n; i++) {
        catalogue_file(fs, names[i], err);
        free(names[i]);
    }
    free(names);
}

cv_fontset *cv_fontset_new(const char *const *dirs, cv_error *err)
{
    cv_fontset *fs = cv_xrealloc(NULL, sizeof *fs);
    memset(fs, 0, sizeof *fs);
    if (FT_Init_FreeType(&fs->lib)) {
        free(fs);
        cv_error_at(err, (cv_pos){0}, "cannot initialise FreeType");
        return NULL;
    }
    for (size_t i = 0; dirs && dirs[i]; i++)
        catalogue_dir(fs, dirs[i], err);
    return fs;
}

/* Close what face f has open, keeping its path and index. */
static void face_unload(cv_face *f)
{
    if (f->hb)
        hb_font_destroy(f->hb);
    if (f->hb_face)
        hb_face_destroy(f->hb_face);
    if (f->data)
        munmap((void *)f->data, f->size);
    free(f->family);
    free(f->psname);
    f->hb = f->hb_face = NULL;
    f->data = NULL;
    f->family = f->psname = NULL;
}

static void face_free(cv_face *f)
{
    face_unload(f);
    free(f->path);
    free(f);
}

void cv_fontset_free(cv_fontset *fs)
{
    if (!fs)
        return;
    for (size_t i = 0; i < fs->nfaces; i++)
        face_free(fs->faces[i]);
    free(fs->faces);
    for (size_t i = 0; i < fs->ncat; i++) {
        free(fs->cat[i].path);
        free(fs->cat[i].family);
    }
    free(fs->cat);
    FT_Done_FreeType(fs->lib);
    if (fs->fc_quick)
        FcConfigDestroy(fs->fc_quick);
    if (fs->fc_ready)
        FcFini();
    free(fs);
}

static bool load_face(FT_Library lib, cv_face *f, cv_pos pos, cv_error *err);

const cv_face *cv_fontset_face(const cv_fontset *fs, int id)
{
    if (id < 0 || (size_t)id >= fs->nfaces)
        return NULL;
    cv_face *f = fs->faces[id];
    if (f->pending) {
        /* Opened on first use (cv_fontset_find_lazy).  The file was a
         * font of an embeddable format when it was found; if it cannot be
         * opened now, the face has no glyphs (NULL). */
        cv_error err;
        cv_error_init_silent(&err);
        f->pending = false;
        f->broken = !load_face(fs->lib, f, (cv_pos){0}, &err);
    }
    return f->broken ? NULL : f;
}

bool cv_fontset_opened(const cv_fontset *fs, int id)
{
    return id >= 0 && (size_t)id < fs->nfaces && !fs->faces[id]->pending &&
           !fs->faces[id]->broken;
}

const char *cv_fontset_path(const cv_fontset *fs, int id)
{
    return id >= 0 && (size_t)id < fs->nfaces ? fs->faces[id]->path : NULL;
}

const char *cv_fontset_family(const cv_fontset *fs, int id)
{
    if (id < 0 || (size_t)id >= fs->nfaces)
        return NULL;
    if (!fs->faces[id]->pending)
        return fs->faces[id]->family;
    for (size_t i = 0; i < fs->ncat; i++)
        if (fs->cat[i].face_id == id)
            return fs->cat[i].family;
    return NULL;
}

size_t cv_fontset_count(const cv_fontset *fs)
{
    return fs->nfaces;
}

/* Map face f's file into memory; false with err set when it is not a
 * readable regular file of a plausible size. */
static bool map_into(cv_face *f, cv_pos pos, cv_error *err)
{
    const char *path = f->path;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 12) {
        if (fd >= 0)
            close(fd);
        cv_error_at(err, pos, "cannot open font '%s'", path);
        return false;
    }
    void *data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (data == MAP_FAILED) {
        cv_error_at(err, pos, "cannot read font '%s'", path);
        return false;
    }
    f->data = data;
    f->size = (size_t)st.st_size;
    return true;
}

static cv_face *new_face(const char *path, int index)
{
    cv_face *f = cv_xrealloc(NULL, sizeof *f);
    memset(f, 0, sizeof *f);
    f->path = xstrdup(path);
    f->index = index;
    return f;
}

static int add_face(cv_fontset *fs, cv_face *f)
{
    fs->faces = cv_xrealloc(fs->faces, (fs->nfaces + 1) * sizeof *fs->faces);
    fs->faces[fs->nfaces] = f;
    return (int)fs->nfaces++;
}

/* The face already made for (path, index), or -1. */
static int known_face(const cv_fontset *fs, const char *path, int index)
{
    for (size_t i = 0; i < fs->nfaces; i++)
        if (fs->faces[i]->index == index && !fs->faces[i]->is_second &&
            !strcmp(fs->faces[i]->path, path))
            return (int)i;
    return -1;
}

/* The metrics in thousandths of an em, from the font units read. */
static void scale_metrics(cv_face *f, int ascender, int descender, int os2_version,
                          int typo_ascender, int typo_descender, int cap_height, int x_height)
{
    f->ascender = (int)lround(ascender * 1000.0 / f->upem);
    f->descender = (int)lround(descender * 1000.0 / f->upem);
    /* A CJK face's hhea metrics hold its line gap (Noto Sans CJK: 1.16 and
     * -0.29 em); its typographic ones are the ideographic em box (0.88,
     * -0.12), which is what a glyph's box is (a reader's word boxes too). */
    if (f->cff && os2_version >= 0 && typo_ascender > 0 &&
        typo_ascender - typo_descender >= f->upem * 9 / 10) {
        f->ascender = (int)lround(typo_ascender * 1000.0 / f->upem);
        f->descender = (int)lround(typo_descender * 1000.0 / f->upem);
    }
    if (os2_version >= 2 && cap_height > 0) {
        f->cap_height = (int)lround(cap_height * 1000.0 / f->upem);
        f->x_height = (int)lround(x_height * 1000.0 / f->upem);
    } else {
        f->cap_height = f->ascender * 7 / 10;
        f->x_height = f->ascender / 2;
    }
}

/* Names, style and metrics from the face's tables (sfnt.h); false when
 * that reader does not vouch for it. */
static bool read_tables(cv_face *f)
{
    cv_sfnt_face d;
    cv_sfnt_metrics m;
    unsigned nglyphs = 0;
    if (!cv_sfnt_describe(f->data, f->size, f->index, &d) || !d.named ||
        !cv_sfnt_measure(f->data, f->size, f->index, &m) ||
        (m.cff && !cv_cff_glyph_count(m.cff, m.cff_len, &nglyphs)))
        return false;
    f->cff = d.cff;
    f->upem = m.upem;
    f->nglyphs = m.cff ? nglyphs : m.nglyphs;
    f->family = xstrdup(d.family);
    f->psname = xstrdup(m.has_psname ? m.psname : d.family);
    f->bold = d.bold;
    f->italic = d.italic;
    memcpy(f->bbox, m.bbox, sizeof f->bbox);
    f->weight = m.weight;
    f->italic_angle = m.italic_angle;
    f->fixed_pitch = m.fixed_pitch;
    scale_metrics(f, m.ascender, m.descender, m.os2_version, m.typo_ascender,
                  m.typo_descender, m.cap_height, m.x_height);
    return true;
}

/* The same from the open FT_Face. */
static void read_freetype(cv_face *f, FT_Face ft)
{
    f->cff = !has_table(ft, TTAG_glyf);
    f->upem = ft->units_per_EM;
    f->nglyphs = ft->num_glyphs > 0 ? (unsigned)ft->num_glyphs : 0;
    f->family = xstrdup(ft->family_name ? ft->family_name : "");
    const char *ps = FT_Get_Postscript_Name(ft);
    f->psname = xstrdup(ps ? ps : f->family);
    f->bold = face_bold(ft);
    f->italic = (ft->style_flags & FT_STYLE_FLAG_ITALIC) != 0;
    f->bbox[0] = (int)ft->bbox.xMin;
    f->bbox[1] = (int)ft->bbox.yMin;
    f->bbox[2] = (int)ft->bbox.xMax;
    f->bbox[3] = (int)ft->bbox.yMax;
    const TT_Postscript *post = FT_Get_Sfnt_Table(ft, FT_SFNT_POST);
    f->italic_angle = post ? (int32_t)post->italicAngle : 0;
    f->fixed_pitch = post && post->isFixedPitch;
    const TT_OS2 *os2 = FT_Get_Sfnt_Table(ft, FT_SFNT_OS2);
    f->weight = os2 ? os2->usWeightClass : -1;
    if (os2 && os2->version != 0xFFFF)
        scale_metrics(f, ft->ascender, ft->descender, os2->version, os2->sTypoAscender,
                      os2->sTypoDescender, os2->sCapHeight, os2->sxHeight);
    else
        scale_metrics(f, ft->ascender, ft->descender, -1, 0, 0, 0, 0);
}

/* Open face f in FreeType, check that cvpdf can embed it and read it; false
 * with err set. */
static bool open_freetype(FT_Library lib, cv_face *f, cv_pos pos, cv_error *err)
{
    const char *path = f->path;
    FT_Face ft;
    if (FT_New_Memory_Face(lib, f->data, (FT_Long)f->size, f->index, &ft)) {
        cv_error_at(err, pos, "'%s' is not a font FreeType can read", path);
        return false;
    }
    bool ok = false;
    if (!embeddable(ft) && cv_sfnt_outlines_cut(f->data, f->size, f->index))
        cv_error_at(err, pos, "'%s' is cut short: its outlines run past the end of the "
                    "file (%zu bytes)", path, f->size);
    else if (!embeddable(ft) || ft->units_per_EM < 16)
        cv_error_at(err, pos,
                    "'%s' is %s; cvpdf embeds only TrueType (glyf) and "
                    "OpenType CFF outlines", path,
                    embeddable(ft) ? "a font with a damaged em" : format_name(ft));
    /* FreeType selects a Unicode cmap when the font has one; without it
     * no character can be found, and the text would silently vanish.  A
     * CFF face without a 'cmap' table gets one FreeType makes up from its
     * glyph names, which HarfBuzz (whose glyphs cvpdf sets) does not have:
     * every glyph would be .notdef in the PDF. */
    else if (!ft->charmap || ft->charmap->encoding != FT_ENCODING_UNICODE ||
             !has_table(ft, TTAG_cmap))
        cv_error_at(err, pos, "'%s' has no Unicode character map", path);
    else {
        read_freetype(f, ft);
        ok = true;
    }
    FT_Done_Face(ft);
    return ok;
}

/* Map, open and check face f (its path and index set): its tables, or
 * FreeType, then HarfBuzz.  False with err set, and f back to its path and
 * index. */
static bool load_face(FT_Library lib, cv_face *f, cv_pos pos, cv_error *err)
{
    const char *path = f->path;
    if (!map_into(f, pos, err))
        return false;
    if (!memcmp(f->data, "wOFF", 4) || !memcmp(f->data, "wOF2", 4)) {
        cv_error_at(err, pos, "'%s' is a WOFF web font; cvpdf embeds only TrueType (glyf) "
                    "and OpenType CFF fonts (install the font's .ttf or .otf)", path);
        face_unload(f);
        return false;
    }
    if (!read_tables(f) && !open_freetype(lib, f, pos, err)) {
        face_unload(f);
        return false;
    }
    hb_blob_t *blob = hb_blob_create((const char *)f->data, (unsigned)f->size,
                                     HB_MEMORY_MODE_READONLY, NULL, NULL);
    f->hb_face = hb_face_create(blob, (unsigned)f->index);
    hb_blob_destroy(blob);
    f->hb = hb_font_create(f->hb_face);
    hb_font_set_scale(f->hb, f->upem, f->upem);   /* font units */
    return true;
}

int cv_fontset_open_file(cv_fontset *fs, const char *path, int index, cv_pos pos,
                         cv_error *err)
{
    int id = known_face(fs, path, index);
    if (id >= 0) {
        if (!fs->faces[id]->pending)
            return fs->faces[id]->broken ? -1 : id;
        /* Found lazily before, wanted now: open it here, with errors. */
        fs->faces[id]->pending = false;
        fs->faces[id]->broken = !load_face(fs->lib, fs->faces[id], pos, err);
        return fs->faces[id]->broken ? -1 : id;
    }
    cv_face *f = new_face(path, index);
    if (!load_face(fs->lib, f, pos, err)) {
        face_free(f);
        return -1;
    }
    return add_face(fs, f);
}

int cv_fontset_second(cv_fontset *fs, int id)
{
    if (id < 0 || (size_t)id >= fs->nfaces || fs->faces[id]->is_second)
        return -1;
    if (fs->faces[id]->second > 0)
        return fs->faces[id]->second;
    if (!cv_fontset_face(fs, id))
        return -1;
    cv_error err;
    cv_error_init_silent(&err);
    cv_face *f = new_face(fs->faces[id]->path, fs->faces[id]->index);
    if (!load_face(fs->lib, f, (cv_pos){0}, &err)) {
        face_free(f);
        return -1;
    }
    f->is_second = true;
    int sid = add_face(fs, f);
    fs->faces[id]->second = sid;
    return sid;
}

/* A face of `path` to open on first use (cv_fontset_face), `bold` as its
 * catalogue entry or fontconfig says. */
static int pending_face(cv_fontset *fs, const char *path, int index, bool bold)
{
    int id = known_face(fs, path, index);
    if (id >= 0)
        return id;
    cv_face *f = new_face(path, index);
    f->pending = true;
    f->bold = bold;
    return add_face(fs, f);
}

/* A configuration of only the standard font directories, read from their
 * caches: under a millisecond, where FcInit() parses the system's forty
 * configuration files in five.  It can only find a family by its own
 * name, which is all cvpdf asks; what it does not find is looked for again
 * with the whole configuration (other directories, aliases). */
static FcConfig *quick_config(cv_fontset *fs)
{
    static const char conf[] =
        "<fontconfig><dir>/usr/share/fonts</dir><dir>/usr/local/share/fonts</dir>"
        "<dir prefix=\"xdg\">fonts</dir><dir>~/.fonts</dir>"
        "<cachedir>/var/cache/fontconfig</cachedir>"
        "<cachedir prefix=\"xdg\">fontconfig</cachedir></fontconfig>";
    if (!fs->fc_quick_tried) {
        fs->fc_quick_tried = true;
        FcConfig *c = FcConfigCreate();
        if (c && FcConfigParseAndLoadFromMemory(c, (const FcChar8 *)conf, FcFalse) &&
            FcConfigBuildFonts(c))
            fs->fc_quick = c;
        else if (c)
            FcConfigDestroy(c);
    }
    return fs->fc_quick;
}

/* A web font (WOFF, WOFF2) by its name: FreeType reads it and fontconfig
 * lists it as TrueType (Fork Awesome's package installs all three), but
 * its bytes are compressed tables, which HarfBuzz cannot subset. */
static bool is_woff(const char *path)
{
    const char *ext = strrchr(path, '.');
    return ext && (!strcasecmp(ext, ".woff") || !strcasecmp(ext, ".woff2"));
}

/* Every face fontconfig (configuration `cfg`, NULL for the system's) has
 * of `family`, added to the catalogue when cvpdf can embed it (TrueType or
 * OpenType CFF, told by fontconfig's format), so that the four styles of a
 * family cost one listing, not four matches.  Returns how many were added;
 * when none could be but the family exists, `other` gets a file of it and
 * `fmt` its format. */
static size_t fc_list(cv_fontset *fs, FcConfig *cfg, const char *family, char **other,
                      char *fmt, size_t fmt_size)
{
    FcPattern *pat = FcPatternCreate();
    FcPatternAddString(pat, FC_FAMILY, (const FcChar8 *)family);
    FcObjectSet *os = FcObjectSetBuild(FC_FAMILY, FC_FILE, FC_INDEX, FC_WEIGHT, FC_SLANT,
                                       FC_WIDTH, FC_FONTFORMAT, (char *)0);
    FcFontSet *set = FcFontList(cfg, pat, os);
    FcObjectSetDestroy(os);
    FcPatternDestroy(pat);
    size_t added = 0;
    for (int i = 0; set && i < set->nfont; i++) {
        FcPattern *m = set->fonts[i];
        FcChar8 *file, *fam, *format = NULL;
        bool same = false;
        for (int k = 0; FcPatternGetString(m, FC_FAMILY, k, &fam) == FcResultMatch; k++)
            same |= !strcasecmp((const char *)fam, family);
        if (!same || FcPatternGetString(m, FC_FILE, 0, &file) != FcResultMatch)
            continue;
        FcPatternGetString(m, FC_FONTFORMAT, 0, &format);
        const char *f = format ? (const char *)format : "unknown";
        if (is_woff((const char *)file))
            f = "WOFF";      /* listed as TrueType, but HarfBuzz cannot subset it */
        if (strcmp(f, "TrueType") && strcmp(f, "CFF")) {
            if (!*other) {
                *other = xstrdup((const char *)file);
                snprintf(fmt, fmt_size, "%s", f);
            }
            continue;
        }
        int index = 0, weight = FC_WEIGHT_REGULAR, slant = FC_SLANT_ROMAN;
        int width = FC_WIDTH_NORMAL;
        FcPatternGetInteger(m, FC_INDEX, 0, &index);
        FcPatternGetInteger(m, FC_WIDTH, 0, &width);
        FcPatternGetInteger(m, FC_WEIGHT, 0, &weight);
        FcPatternGetInteger(m, FC_SLANT, 0, &slant);
        fs->cat = cv_xrealloc(fs->cat, (fs->ncat + 1) * sizeof *fs->cat);
        fs->cat[fs->ncat++] = (entry){xstrdup((const char *)file), index, xstrdup(family),
                                      weight >= FC_WEIGHT_DEMIBOLD, slant != FC_SLANT_ROMAN,
                                      -1, !strcmp(f, "CFF"), width != FC_WIDTH_NORMAL};
        added++;
    }
    if (set)
        FcFontSetDestroy(set);
    return added;
}

/* How many leading characters the file names (not directories) of a and b
 * share. */
static size_t same_start(const char *a, const char *b)
{
    const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
    a = sa ? sa + 1 : a;
    b = sb ? sb + 1 : b;
    size_t n = 0;
    while (a[n] && a[n] == b[n])
        n++;
    return n;
}

/* The catalogue entry that best serves `family` in the style asked for:
 * the same weight first, then the same slant, then the normal width (not
 * a condensed face listed under the family's name), then TrueType before CFF,
 * then the file named most like the family's regular face's (EB Garamond's
 * optical sizes: 12-Italic beside 12-Regular, not 08-Italic), then the
 * first listed; -1 when it has none. */
static int best_entry(const cv_fontset *fs, const char *family, bool bold, bool italic)
{
    int best = -1, best_score = -1;
    const char *regular = NULL;
    if (bold || italic) {
        int r = best_entry(fs, family, false, false);
        regular = r >= 0 ? fs->cat[r].path : NULL;
    }
    size_t best_like = 0;
    for (size_t i = 0; i < fs->ncat; i++) {
        const entry *e = &fs->cat[i];
        if (strcasecmp(e->family, family))
            continue;
        int score = (e->bold == bold) * 8 + (e->italic == italic) * 4 + !e->narrow * 2 + !e->cff;
        size_t like = regular ? same_start(e->path, regular) : 0;
        if (score > best_score || (score == best_score && like > best_like))
            best = (int)i, best_score = score, best_like = like;
    }
    return best;
}

static int find(cv_fontset *fs, const char *family, bool bold, bool italic,
                bool *synth_bold, bool lazy, cv_pos pos, cv_error *err)
{
    *synth_bold = false;
    /* The catalogue (fonts/, and families fontconfig listed before), then
     * fontconfig: its quick configuration, then the system's. */
    int best = best_entry(fs, family, bold, italic);
    char fmt[64] = "", *other = NULL;
    if (best < 0) {
        FcConfig *quick = quick_config(fs);
        if (!(quick && fc_list(fs, quick, family, &other, fmt, sizeof fmt))) {
            if (!fs->fc_ready && FcInit())
                fs->fc_ready = true;
            if (fs->fc_ready)
                fc_list(fs, NULL, family, &other, fmt, sizeof fmt);
        }
        best = best_entry(fs, family, bold, italic);
    }
    if (best < 0) {
        if (other)
            cv_error_at(err, pos, "the font family '%s' is installed only as %s ('%s'); "
                        "cvpdf embeds only TrueType and OpenType (CFF) fonts",
                        family, fmt, other);
        else
            cv_error_at(err, pos, "no font of family '%s' in fonts/ or through "
                        "fontconfig", family);
        free(other);
        return -1;
    }
    free(other);
    entry *e = &fs->cat[best];
    if (lazy && e->face_id < 0)
        e->face_id = pending_face(fs, e->path, e->index, e->bold);
    else if (!lazy)          /* opens a face found lazily before */
        e->face_id = cv_fontset_open_file(fs, e->path, e->index, pos, err);
    *synth_bold = bold && !e->bold;
    return e->face_id;
}

int cv_fontset_find(cv_fontset *fs, const char *family, bool bold, bool italic,
                    bool *synth_bold, cv_pos pos, cv_error *err)
{
    return find(fs, family, bold, italic, synth_bold, false, pos, err);
}

int cv_fontset_find_lazy(cv_fontset *fs, const char *family, bool bold, bool italic,
                         bool *synth_bold, cv_pos pos, cv_error *err)
{
    return find(fs, family, bold, italic, synth_bold, true, pos, err);
}

/* ---- Reading a face ------------------------------------------------------ */

unsigned cv_face_glyph(const cv_face *f, uint32_t cp)
{
    hb_codepoint_t g = 0;
    return hb_font_get_nominal_glyph(f->hb, cp, &g) ? g : 0;
}

long cv_face_advance_units(const cv_face *f, unsigned gid)
{
    /* The font is scaled to its units: hmtx's advance, as FreeType's
     * unscaled one.  A glyph id past the font's has none. */
    return gid < f->nglyphs ? hb_font_get_glyph_h_advance(f->hb, gid) : 0;
}

int cv_face_advance(const cv_face *f, unsigned gid)
{
    return (int)(cv_face_advance_units(f, gid) * 1000 / f->upem);   /* libharu truncates */
}
