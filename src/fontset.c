/* fontset.c - finding and opening faces.  See fontset.h.
 *
 * Discovery is two-tiered.  The directories given to cv_fontset_new() (the
 * project's fonts/) are catalogued once: each file is opened with FreeType
 * just long enough to read its family, style and outline format.  Only when
 * a family is not there is fontconfig initialised (it costs milliseconds, so
 * documents that use the shipped fonts never pay for it).
 *
 * An opened face keeps its file mapped: FreeType reads outlines from it,
 * HarfBuzz shapes from it, and the PDF backend subsets from it.
 *
 * A family that lacks the style asked for falls back to its nearest style
 * (cv_fontset_find); falling back from face to face for a character no face
 * has is itemising's job (wrap.c), along the style's chain of families.
 * The face is never written after it is opened: cv_face_glyph() and
 * cv_face_advance() read FreeType's tables each time, and the caches that
 * layout needs are the shaper's (shape.c).
 */
#include "fontset.h"

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

typedef struct entry {       /* a catalogued face, not yet opened */
    char *path;
    int index;
    char *family;
    bool bold, italic;
    int face_id;             /* -1 until opened */
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

static bool face_bold(FT_Face f)
{
    TT_OS2 *os2 = FT_Get_Sfnt_Table(f, FT_SFNT_OS2);
    if (os2 && os2->usWeightClass)
        return os2->usWeightClass >= 600;
    return (f->style_flags & FT_STYLE_FLAG_BOLD) != 0;
}

static void catalogue_file(cv_fontset *fs, const char *path, cv_error *err)
{
    FT_Face f;
    if (FT_New_Face(fs->lib, path, -1, &f)) {
        cv_warn(err, (cv_pos){0}, "'%s' is not a font FreeType can read; it is ignored", path);
        return;
    }
    long n = f->num_faces;
    FT_Done_Face(f);
    for (long i = 0; i < n && i < 64; i++) {
        if (FT_New_Face(fs->lib, path, i, &f))
            continue;
        if (f->family_name && embeddable(f)) {
            fs->cat = cv_xrealloc(fs->cat, (fs->ncat + 1) * sizeof *fs->cat);
            fs->cat[fs->ncat++] = (entry){
                xstrdup(path), (int)i, xstrdup(f->family_name), face_bold(f),
                (f->style_flags & FT_STYLE_FLAG_ITALIC) != 0, -1};
        }
        FT_Done_Face(f);
    }
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

static void face_free(cv_face *f)
{
    if (f->hb)
        hb_font_destroy(f->hb);
    if (f->hb_face)
        hb_face_destroy(f->hb_face);
    if (f->ft)
        FT_Done_Face(f->ft);
    if (f->data)
        munmap((void *)f->data, f->size);
    free(f->path);
    free(f->family);
    free(f->style);
    free(f->psname);
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

const cv_face *cv_fontset_face(const cv_fontset *fs, int id)
{
    return id >= 0 && (size_t)id < fs->nfaces ? fs->faces[id] : NULL;
}

size_t cv_fontset_count(const cv_fontset *fs)
{
    return fs->nfaces;
}

/* Map `path` into memory as a new face with only its file set; NULL with
 * err set when it is not a readable regular file of a plausible size. */
static cv_face *map_file(const char *path, int index, cv_pos pos, cv_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 12) {
        if (fd >= 0)
            close(fd);
        cv_error_at(err, pos, "cannot open font '%s'", path);
        return NULL;
    }
    void *data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (data == MAP_FAILED) {
        cv_error_at(err, pos, "cannot read font '%s'", path);
        return NULL;
    }
    cv_face *f = cv_xrealloc(NULL, sizeof *f);
    memset(f, 0, sizeof *f);
    f->data = data;
    f->size = (size_t)st.st_size;
    f->path = xstrdup(path);
    f->index = index;
    return f;
}

/* Names, style and metrics (thousandths of an em) from the open FT_Face. */
static void read_names_and_metrics(cv_face *f)
{
    FT_Face ft = f->ft;
    f->upem = ft->units_per_EM;
    f->family = xstrdup(ft->family_name ? ft->family_name : "");
    f->style = xstrdup(ft->style_name ? ft->style_name : "");
    const char *ps = FT_Get_Postscript_Name(ft);
    f->psname = xstrdup(ps ? ps : f->family);
    f->bold = face_bold(ft);
    f->italic = (ft->style_flags & FT_STYLE_FLAG_ITALIC) != 0;
    f->ascender = (int)lround(ft->ascender * 1000.0 / f->upem);
    f->descender = (int)lround(ft->descender * 1000.0 / f->upem);
    TT_OS2 *os2 = FT_Get_Sfnt_Table(ft, FT_SFNT_OS2);
    if (os2 && os2->version >= 2 && os2->sCapHeight > 0) {
        f->cap_height = (int)lround(os2->sCapHeight * 1000.0 / f->upem);
        f->x_height = (int)lround(os2->sxHeight * 1000.0 / f->upem);
    } else {
        f->cap_height = f->ascender * 7 / 10;
        f->x_height = f->ascender / 2;
    }
}

int cv_fontset_open_file(cv_fontset *fs, const char *path, int index, cv_pos pos,
                         cv_error *err)
{
    for (size_t i = 0; i < fs->nfaces; i++)
        if (fs->faces[i]->index == index && !strcmp(fs->faces[i]->path, path))
            return (int)i;

    cv_face *f = map_file(path, index, pos, err);
    if (!f)
        return -1;
    FT_Face ft;
    if (FT_New_Memory_Face(fs->lib, f->data, (FT_Long)f->size, index, &ft)) {
        face_free(f);
        cv_error_at(err, pos, "'%s' is not a font FreeType can read", path);
        return -1;
    }
    f->ft = ft;
    if (!embeddable(ft) || ft->units_per_EM < 16) {
        cv_error_at(err, pos,
                    "'%s' is %s; cvpdf embeds only TrueType (glyf) and "
                    "OpenType CFF outlines", path,
                    embeddable(ft) ? "a font with a damaged em" : format_name(ft));
        face_free(f);
        return -1;
    }
    f->cff = !has_table(ft, TTAG_glyf);
    /* FreeType selects a Unicode cmap when the font has one; without it
     * no character can be found, and the text would silently vanish. */
    if (!ft->charmap || ft->charmap->encoding != FT_ENCODING_UNICODE) {
        face_free(f);
        cv_error_at(err, pos, "'%s' has no Unicode character map", path);
        return -1;
    }
    read_names_and_metrics(f);

    hb_blob_t *blob = hb_blob_create((const char *)f->data, (unsigned)f->size,
                                     HB_MEMORY_MODE_READONLY, NULL, NULL);
    f->hb_face = hb_face_create(blob, (unsigned)index);
    hb_blob_destroy(blob);
    f->hb = hb_font_create(f->hb_face);
    hb_font_set_scale(f->hb, f->upem, f->upem);   /* font units */

    fs->faces = cv_xrealloc(fs->faces, (fs->nfaces + 1) * sizeof *fs->faces);
    fs->faces[fs->nfaces] = f;
    return (int)fs->nfaces++;
}

/* Ask fontconfig for a face of `family` in `format` ("TrueType", "CFF", or
 * NULL for any); NULL when it has none.  *fmt gets the format of what was
 * found (fontconfig's name for it, valid until the next call) when asked. */
static char *fc_match(FcConfig *cfg, const char *family, bool bold, bool italic,
                      const char *format, int *index, char *fmt, size_t fmt_size);

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

/* A face of `family` through fontconfig: TrueType first, then OpenType
 * CFF, so that a family installed in both formats (or as Type 1 too)
 * gives an embeddable face; in the quick configuration first, then in the
 * system's.  NULL when there is none; then, if the family exists in a
 * format cvpdf cannot embed, *path_other is that file and `fmt` names the
 * format (else *path_other is NULL). */
static char *fc_lookup(cv_fontset *fs, const char *family, bool bold, bool italic,
                       int *index, char **path_other, char *fmt, size_t fmt_size)
{
    static const char *const formats[] = {"TrueType", "CFF"};
    *path_other = NULL;
    FcConfig *quick = quick_config(fs);
    for (size_t k = 0; quick && k < 2; k++) {
        char *path = fc_match(quick, family, bold, italic, formats[k], index, NULL, 0);
        if (path)
            return path;
    }
    if (!fs->fc_ready) {
        if (!FcInit())
            return NULL;
        fs->fc_ready = true;
    }
    for (size_t k = 0; k < 2; k++) {
        char *path = fc_match(NULL, family, bold, italic, formats[k], index, NULL, 0);
        if (path)
            return path;
    }
    *path_other = fc_match(NULL, family, bold, italic, NULL, index, fmt, fmt_size);
    return NULL;
}

/* fc_lookup() in one configuration (NULL: the system's). */
static char *fc_match(FcConfig *cfg, const char *family, bool bold, bool italic,
                      const char *format, int *index, char *fmt, size_t fmt_size)
{
    FcPattern *pat = FcPatternCreate();
    FcPatternAddString(pat, FC_FAMILY, (const FcChar8 *)family);
    FcPatternAddInteger(pat, FC_WEIGHT, bold ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR);
    FcPatternAddInteger(pat, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN);
    if (format)
        FcPatternAddString(pat, FC_FONTFORMAT, (const FcChar8 *)format);
    FcConfigSubstitute(cfg, pat, FcMatchPattern);
    FcDefaultSubstitute(pat);
    FcResult res;
    FcPattern *m = FcFontMatch(cfg, pat, &res);
    FcPatternDestroy(pat);
    char *path = NULL;
    FcChar8 *file, *fam;
    /* FcFontMatch always answers; accept only a face of the family asked for. */
    if (m && FcPatternGetString(m, FC_FILE, 0, &file) == FcResultMatch) {
        bool same = false;
        for (int i = 0; FcPatternGetString(m, FC_FAMILY, i, &fam) == FcResultMatch; i++)
            if (!strcasecmp((const char *)fam, family))
                same = true;
        FcChar8 *ff;
        if (same && format &&
            (FcPatternGetString(m, FC_FONTFORMAT, 0, &ff) != FcResultMatch ||
             strcmp((const char *)ff, format)))
            same = false;     /* asked for TrueType, fontconfig gave its best other */
        if (same && fmt)
            snprintf(fmt, fmt_size, "%s",
                     FcPatternGetString(m, FC_FONTFORMAT, 0, &ff) == FcResultMatch
                         ? (const char *)ff : "unknown");
        if (same) {
            path = xstrdup((const char *)file);
            if (FcPatternGetInteger(m, FC_INDEX, 0, index) != FcResultMatch)
                *index = 0;
        }
    }
    if (m)
        FcPatternDestroy(m);
    return path;
}

int cv_fontset_find(cv_fontset *fs, const char *family, bool bold, bool italic,
                    bool *synth_bold, cv_pos pos, cv_error *err)
{
    *synth_bold = false;
    /* Best catalogue match: exact style, else drop italic, else regular. */
    int best = -1, best_score = -1;
    for (size_t i = 0; i < fs->ncat; i++) {
        entry *e = &fs->cat[i];
        if (strcasecmp(e->family, family))
            continue;
        int score = (e->bold == bold) * 2 + (e->italic == italic);
        if (score > best_score)
            best = (int)i, best_score = score;
    }
    if (best >= 0) {
        entry *e = &fs->cat[best];
        if (e->face_id < 0)
            e->face_id = cv_fontset_open_file(fs, e->path, e->index, pos, err);
        *synth_bold = bold && !e->bold;
        return e->face_id;
    }

    int index = 0;
    char fmt[64], *other;
    char *path = fc_lookup(fs, family, bold, italic, &index, &other, fmt, sizeof fmt);
    if (!path) {
        path = other;
        if (path)
            cv_error_at(err, pos, "the font family '%s' is installed only as %s ('%s'); "
                        "cvpdf embeds only TrueType and OpenType (CFF) fonts",
                        family, fmt, path);
        else
            cv_error_at(err, pos, "no font of family '%s' in fonts/ or through "
                        "fontconfig", family);
        free(path);
        return -1;
    }
    int id = cv_fontset_open_file(fs, path, index, pos, err);
    free(path);
    if (id >= 0)
        *synth_bold = bold && !fs->faces[id]->bold;
    return id;
}

/* ---- Reading a face ------------------------------------------------------ */

unsigned cv_face_glyph(const cv_face *f, uint32_t cp)
{
    return FT_Get_Char_Index((FT_Face)f->ft, cp);
}

long cv_face_advance_units(const cv_face *f, unsigned gid)
{
    FT_Fixed adv = 0;
    if (FT_Get_Advance((FT_Face)f->ft, gid, FT_LOAD_NO_SCALE, &adv))
        return 0;
    return adv;
}

int cv_face_advance(const cv_face *f, unsigned gid)
{
    return (int)(cv_face_advance_units(f, gid) * 1000 / f->upem);   /* libharu truncates */
}
