/* font.c - finding, opening and measuring faces.  See font.h.
 *
 * Discovery is two-tiered.  The directories given to cv_fontset_new() (the
 * project's fonts/) are catalogued once: each file is opened with FreeType
 * just long enough to read its family, style and outline format.  Only when
 * a family is not there is fontconfig initialised (it costs milliseconds, so
 * documents that use the shipped fonts never pay for it).
 *
 * An opened face keeps its file mapped: FreeType reads outlines from it,
 * HarfBuzz shapes from it, and the PDF backend subsets from it.
 */
#include "font.h"

#include <ctype.h>
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
#include FT_TRUETYPE_TABLES_H
#include FT_TRUETYPE_TAGS_H
#include <hb-aat.h>
#include <hb-ot.h>
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
    bool fc_ready;
};

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(cv_xrealloc(NULL, n), s, n);
}

static bool is_glyf(FT_Face face)
{
    FT_ULong len = 0;
    return FT_Load_Sfnt_Table(face, TTAG_glyf, 0, NULL, &len) == 0 && len > 0;
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
        if (f->family_name && is_glyf(f)) {
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
        if (!ext || (strcasecmp(ext, ".ttf") && strcasecmp(ext, ".ttc")))
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

static void cache_new(cv_face *f);
static void cache_free(struct cv_face_cache *c);

static void face_free(cv_face *f)
{
    cache_free(f->cache);
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
    if (fs->fc_ready)
        FcFini();
    free(fs);
}

cv_face *cv_fontset_face(const cv_fontset *fs, int id)
{
    return id >= 0 && (size_t)id < fs->nfaces ? fs->faces[id] : NULL;
}

size_t cv_fontset_count(const cv_fontset *fs)
{
    return fs->nfaces;
}

int cv_fontset_open_file(cv_fontset *fs, const char *path, int index, cv_pos pos,
                         cv_error *err)
{
    for (size_t i = 0; i < fs->nfaces; i++)
        if (fs->faces[i]->index == index && !strcmp(fs->faces[i]->path, path))
            return (int)i;

    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 12) {
        if (fd >= 0)
            close(fd);
        cv_error_at(err, pos, "cannot open font '%s'", path);
        return -1;
    }
    void *data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (data == MAP_FAILED) {
        cv_error_at(err, pos, "cannot read font '%s'", path);
        return -1;
    }
    cv_face *f = cv_xrealloc(NULL, sizeof *f);
    memset(f, 0, sizeof *f);
    f->data = data;
    f->size = (size_t)st.st_size;
    f->path = xstrdup(path);
    f->index = index;

    FT_Face ft;
    if (FT_New_Memory_Face(fs->lib, data, (FT_Long)f->size, index, &ft)) {
        face_free(f);
        cv_error_at(err, pos, "'%s' is not a font FreeType can read", path);
        return -1;
    }
    f->ft = ft;
    if (!FT_IS_SFNT(ft) || !is_glyf(ft) || ft->units_per_EM < 16) {
        face_free(f);
        cv_error_at(err, pos,
                    "'%s' has no TrueType outlines (glyf); libharu can only "
                    "embed TrueType fonts", path);
        return -1;
    }
    /* FreeType selects a Unicode cmap when the font has one; without it
     * no character can be found, and the text would silently vanish. */
    if (!ft->charmap || ft->charmap->encoding != FT_ENCODING_UNICODE) {
        face_free(f);
        cv_error_at(err, pos, "'%s' has no Unicode character map", path);
        return -1;
    }
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

    hb_blob_t *blob = hb_blob_create((const char *)data, (unsigned)f->size,
                                     HB_MEMORY_MODE_READONLY, NULL, NULL);
    f->hb_face = hb_face_create(blob, (unsigned)index);
    hb_blob_destroy(blob);
    f->hb = hb_font_create(f->hb_face);
    hb_font_set_scale(f->hb, f->upem, f->upem);   /* font units */
    cache_new(f);

    fs->faces = cv_xrealloc(fs->faces, (fs->nfaces + 1) * sizeof *fs->faces);
    fs->faces[fs->nfaces] = f;
    return (int)fs->nfaces++;
}

/* Ask fontconfig for `family`; NULL when it has no face of that family. */
static char *fc_lookup(cv_fontset *fs, const char *family, bool bold, bool italic,
                       int *index)
{
    if (!fs->fc_ready) {
        if (!FcInit())
            return NULL;
        fs->fc_ready = true;
    }
    FcPattern *pat = FcPatternCreate();
    FcPatternAddString(pat, FC_FAMILY, (const FcChar8 *)family);
    FcPatternAddInteger(pat, FC_WEIGHT, bold ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR);
    FcPatternAddInteger(pat, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN);
    FcPatternAddString(pat, FC_FONTFORMAT, (const FcChar8 *)"TrueType");
    FcConfigSubstitute(NULL, pat, FcMatchPattern);
    FcDefaultSubstitute(pat);
    FcResult res;
    FcPattern *m = FcFontMatch(NULL, pat, &res);
    FcPatternDestroy(pat);
    char *path = NULL;
    FcChar8 *file, *fam;
    /* FcFontMatch always answers; accept only a face of the family asked for. */
    if (m && FcPatternGetString(m, FC_FILE, 0, &file) == FcResultMatch) {
        bool same = false;
        for (int i = 0; FcPatternGetString(m, FC_FAMILY, i, &fam) == FcResultMatch; i++)
            if (!strcasecmp((const char *)fam, family))
                same = true;
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
    char *path = fc_lookup(fs, family, bold, italic, &index);
    if (!path) {
        cv_error_at(err, pos, "no TrueType font of family '%s' in fonts/ or "
                    "through fontconfig", family);
        return -1;
    }
    int id = cv_fontset_open_file(fs, path, index, pos, err);
    free(path);
    if (id >= 0)
        *synth_bold = bold && !fs->faces[id]->bold;
    return id;
}

/* ---- Glyphs and advances ------------------------------------------------- *
 *
 * Itemising asks for the glyph of every code point in several faces of the
 * fallback chain, and shaping for the advance of every glyph twice; both go
 * through small per-face tables instead of FreeType's cmap and hmtx code.
 * Glyph ids and advances (in font units) fit 16 bits in a TrueType font;
 * 0xFFFF marks an entry not looked up yet.  Both tables are split in pages
 * of 256 entries, allocated as they are needed (a CJK face has 50,000
 * glyphs, of which a résumé uses a few dozen).
 */

#define UNKNOWN 0xFFFFu
#define MAX_SCRIPTS 8

typedef struct shaped shaped;

typedef struct cut_verdict {
    hb_script_t script;
    bool ok;
} cut_verdict;

struct cv_face_cache {
    uint16_t *cmap[256];     /* BMP code point -> glyph, in pages of 256 */
    uint16_t *adv[256];      /* glyph -> advance in font units, likewise */
    unsigned nglyphs, space; /* glyph count; the glyph of U+0020 */
    /* Shaping (below). */
    cv_arena *arena;         /* the entries; emptied when it holds too much */
    shaped **tab;            /* open addressing, a power of two in size */
    size_t cap, count;
    uint64_t *gap_key;       /* kerning of a space before a glyph (script, glyph) */
    int32_t *gap_val;
    size_t gap_cap, gap_count;
    cut_verdict split[MAX_SCRIPTS];   /* may runs in this script be cut? */
    size_t nsplit;
    /* Scratch for one run. */
    size_t scap;
    size_t *seg;
    shaped **segent, **pend;
    uint32_t *cps;
    int32_t *delta, *d2;
    unsigned *glyph;
};

static void cache_new(cv_face *f)
{
    struct cv_face_cache *c = cv_xrealloc(NULL, sizeof *c);
    memset(c, 0, sizeof *c);
    FT_Face ft = f->ft;
    c->nglyphs = ft->num_glyphs > 0 && ft->num_glyphs < (long)UNKNOWN ? (unsigned)ft->num_glyphs : 0;
    c->arena = cv_arena_new();
    f->cache = c;
    c->space = cv_face_glyph(f, ' ');
}

static void cache_free(struct cv_face_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < 256; i++) {
        free(c->cmap[i]);
        free(c->adv[i]);
    }
    cv_arena_free(c->arena);
    free(c->tab);
    free(c->gap_key);
    free(c->gap_val);
    free(c->seg);
    free(c->segent);
    free(c->pend);
    free(c->cps);
    free(c->delta);
    free(c->d2);
    free(c->glyph);
    free(c);
}

/* The entry for key k (< 0x10000) of a two-level table, allocating its
 * page of 256 on first use. */
static uint16_t *page_slot(uint16_t **pages, unsigned k)
{
    uint16_t *page = pages[k >> 8];
    if (!page) {
        page = pages[k >> 8] = cv_xrealloc(NULL, 256 * sizeof *page);
        memset(page, 0xFF, 256 * sizeof *page);
    }
    return &page[k & 0xFF];
}

unsigned cv_face_glyph(const cv_face *f, uint32_t cp)
{
    struct cv_face_cache *c = f->cache;
    if (!c || cp > 0xFFFF)
        return FT_Get_Char_Index((FT_Face)f->ft, cp);
    uint16_t *g = page_slot(c->cmap, cp);
    if (*g == UNKNOWN) {
        FT_UInt id = FT_Get_Char_Index((FT_Face)f->ft, cp);
        if (id >= UNKNOWN)
            return id;
        *g = (uint16_t)id;
    }
    return *g;
}

/* The advance of a glyph in font units, as FreeType reads it; 0 when it
 * cannot (a glyph id out of range). */
static long advance_units(const cv_face *f, unsigned gid)
{
    struct cv_face_cache *c = f->cache;
    uint16_t *a = c && gid < c->nglyphs ? page_slot(c->adv, gid) : NULL;
    if (a && *a != UNKNOWN)
        return *a;
    FT_Fixed adv = 0;
    if (FT_Get_Advance((FT_Face)f->ft, gid, FT_LOAD_NO_SCALE, &adv))
        return 0;
    if (a && adv >= 0 && adv < (FT_Fixed)UNKNOWN)
        *a = (uint16_t)adv;
    return adv;
}

int cv_face_advance(const cv_face *f, unsigned gid)
{
    return (int)(advance_units(f, gid) * 1000 / f->upem);   /* libharu truncates */
}

/* ---- Shaping ------------------------------------------------------------- *
 *
 * HarfBuzz is the slowest part of setting text: a few thousand instructions
 * a glyph with Lato's GSUB and GPOS, while words repeat all through a
 * résumé (and a batch).  So results are cached per face, and what is
 * cached is, where the font allows it, a word rather than a whole run.
 *
 * A run is cut into segments after each space (U+0020) that is followed by
 * something that starts a cluster of its own: "Built a  fast" is "Built ",
 * "a  ", "fast".  Shaping a segment alone gives exactly the glyphs and
 * positions it has inside the run when nothing in the font's layout can
 * reach across a space:
 *
 *   - the run's segment properties are used for every segment (its script
 *     is guessed from the whole run, as hb_buffer_guess_segment_properties
 *     does), and only scripts HarfBuzz sets with its default shaper are cut;
 *   - every lookup the shape plan can apply (without U+2044, which turns on
 *     the fraction features; runs with it are never cut), and every lookup
 *     those call, leaves the space glyph out of all its glyph sets -- so no
 *     substitution or positioning matches across it -- with two harmless
 *     exceptions: pair adjustments that move only the first glyph of the
 *     pair and skip nothing (kerning, as in Lato, where the space has kerning
 *     pairs), and single-glyph substitutions that no feature applies;
 *   - no lookup skips base glyphs (the space could be skipped over) and
 *     the space is not classed as a mark or ligature; no AAT tables, no
 *     'rand' feature, and no legacy 'kern' table in use.
 *
 * Then kerning across a cut comes only from pair adjustments of the space
 * with the first glyph after it, the same whatever precedes the space.  It
 * is cached per (script, glyph) as the space's extra advance and added to
 * the space that ends the segment before.  The glyph after the space is
 * the one GSUB gave in the segment; when shaping " X" alone does not give
 * that glyph the run is shaped whole.
 *
 * Missing segments of a run are shaped together in one buffer (in run
 * order, each but the last ending with a space) -- the same decomposition
 * makes that exact too, and it observes the kerning across each cut for
 * free.  When HarfBuzz does not give one glyph per code point in a segment,
 * it would not for the whole run either, and the run gets no kerning at
 * all, as before (libharu draws code points, not glyphs).  Fonts and
 * scripts that fail the checks are shaped run by run, still cached.
 */

/* A cached shaping: a segment (in `script`) or a whole run. */
struct shaped {
    uint64_t hash;
    bool whole;              /* a whole run, segment properties guessed */
    bool ok;                 /* one glyph per code point, in order */
    hb_script_t script;
    unsigned first;          /* segments: the glyph of the first code point */
    size_t n;
    uint32_t *cps;
    int32_t *delta;          /* HarfBuzz's advance minus the nominal, font units */
};

#define CACHE_BYTES (4u << 20)   /* per face; then the cache starts over */

static const hb_feature_t no_ligatures[] = {
    {HB_TAG('l', 'i', 'g', 'a'), 0, 0, ~0u},
    {HB_TAG('c', 'l', 'i', 'g'), 0, 0, ~0u},
    {HB_TAG('c', 'a', 'l', 't'), 0, 0, ~0u},
    {HB_TAG('d', 'l', 'i', 'g'), 0, 0, ~0u},
    /* Only for the analysis below: without U+2044 these never apply. */
    {HB_TAG('f', 'r', 'a', 'c'), 0, 0, ~0u},
    {HB_TAG('n', 'u', 'm', 'r'), 0, 0, ~0u},
    {HB_TAG('d', 'n', 'o', 'm'), 0, 0, ~0u},
};
#define NFEATS 4

static void scratch_grow(struct cv_face_cache *c, size_t n)
{
    if (n <= c->scap)
        return;
    size_t cap = c->scap ? c->scap : 64;
    while (cap < n)
        cap *= 2;
    c->seg = cv_xrealloc(c->seg, (cap + 1) * sizeof *c->seg);
    c->segent = cv_xrealloc(c->segent, cap * sizeof *c->segent);
    c->pend = cv_xrealloc(c->pend, cap * sizeof *c->pend);
    c->cps = cv_xrealloc(c->cps, cap * sizeof *c->cps);
    c->delta = cv_xrealloc(c->delta, cap * sizeof *c->delta);
    c->d2 = cv_xrealloc(c->d2, cap * sizeof *c->d2);
    c->glyph = cv_xrealloc(c->glyph, cap * sizeof *c->glyph);
    c->scap = cap;
}

/* Shape `cps` with HarfBuzz as cvpdf always has: left to right, ligatures
 * off, segment properties guessed, or `script` when given.  On success (one
 * glyph per code point, in order) delta[i] is the glyph's advance minus its
 * nominal advance and glyph[i] the glyph after substitution. */
static bool hb_run(const cv_face *f, const uint32_t *cps, size_t n, const hb_script_t *script,
                   int32_t *delta, unsigned *glyph)
{
    hb_buffer_t *buf = hb_buffer_create();
    hb_buffer_add_codepoints(buf, cps, (int)n, 0, (int)n);
    if (script) {
        hb_buffer_set_script(buf, *script);
        hb_buffer_set_language(buf, hb_language_get_default());
    }
    hb_buffer_guess_segment_properties(buf);
    hb_buffer_set_direction(buf, HB_DIRECTION_LTR);
    hb_shape(f->hb, buf, no_ligatures, NFEATS);
    unsigned len;
    hb_glyph_info_t *info = hb_buffer_get_glyph_infos(buf, &len);
    hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(buf, NULL);
    bool ok = len == n;
    for (unsigned i = 0; ok && i < len; i++)
        ok = info[i].cluster == i;
    for (unsigned i = 0; ok && i < len; i++) {
        delta[i] = (int32_t)(pos[i].x_advance - advance_units(f, info[i].codepoint));
        if (glyph)
            glyph[i] = info[i].codepoint;
    }
    hb_buffer_destroy(buf);
    return ok;
}

/* -- The cache -- */

static uint64_t hash_cps(const uint32_t *cps, size_t n, bool whole, hb_script_t script)
{
    uint64_t h = 14695981039346656037u ^ ((uint64_t)script << 1 | whole);
    for (size_t i = 0; i < n; i++)
        h = (h ^ cps[i]) * 1099511628211u;
    return h ^ (h >> 29);
}

static shaped **slot_of(struct cv_face_cache *c, uint64_t h, bool whole, hb_script_t script,
                        const uint32_t *cps, size_t n)
{
    for (size_t i = h & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
        shaped *e = c->tab[i];
        if (!e || (e->hash == h && e->whole == whole && e->script == script && e->n == n &&
                   !memcmp(e->cps, cps, n * sizeof *cps)))
            return &c->tab[i];
    }
}

static shaped *lookup(struct cv_face_cache *c, bool whole, hb_script_t script,
                      const uint32_t *cps, size_t n, bool *added)
{
    if (2 * (c->count + 1) > c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 1024;
        shaped **old = c->tab;
        size_t ocap = c->cap;
        c->tab = cv_xrealloc(NULL, cap * sizeof *c->tab);
        memset(c->tab, 0, cap * sizeof *c->tab);
        c->cap = cap;
        for (size_t i = 0; i < ocap; i++)
            if (old[i])
                *slot_of(c, old[i]->hash, old[i]->whole, old[i]->script, old[i]->cps,
                         old[i]->n) = old[i];
        free(old);
    }
    uint64_t h = hash_cps(cps, n, whole, script);
    shaped **s = slot_of(c, h, whole, script, cps, n);
    *added = !*s;
    if (*s)
        return *s;
    shaped *e = cv_arena_alloc(c->arena, sizeof *e);
    *e = (shaped){.hash = h, .whole = whole, .script = script, .n = n};
    e->cps = cv_arena_alloc(c->arena, n * sizeof *e->cps);
    memcpy(e->cps, cps, n * sizeof *cps);
    e->delta = cv_arena_alloc(c->arena, n * sizeof *e->delta);
    c->count++;
    return *s = e;
}

static int32_t *gap_slot(struct cv_face_cache *c, hb_script_t script, unsigned glyph, bool add)
{
    /* Script tags are four ASCII letters: bit 63 is free to mark a key. */
    uint64_t key = (uint64_t)1 << 63 | (uint64_t)script << 24 | glyph;
    if (add && 2 * (c->gap_count + 1) > c->gap_cap) {
        size_t cap = c->gap_cap ? c->gap_cap * 2 : 256, ocap = c->gap_cap;
        uint64_t *ok = c->gap_key;
        int32_t *ov = c->gap_val;
        c->gap_key = cv_xrealloc(NULL, cap * sizeof *c->gap_key);
        c->gap_val = cv_xrealloc(NULL, cap * sizeof *c->gap_val);
        memset(c->gap_key, 0, cap * sizeof *c->gap_key);
        c->gap_cap = cap;
        for (size_t i = 0; i < ocap; i++)
            if (ok[i]) {
                size_t j = (ok[i] * 0x9E3779B97F4A7C15u) >> 40 & (cap - 1);
                while (c->gap_key[j])
                    j = (j + 1) & (cap - 1);
                c->gap_key[j] = ok[i];
                c->gap_val[j] = ov[i];
            }
        free(ok);
        free(ov);
    }
    if (!c->gap_cap)
        return NULL;
    size_t j = (key * 0x9E3779B97F4A7C15u) >> 40 & (c->gap_cap - 1);
    while (c->gap_key[j] && c->gap_key[j] != key)
        j = (j + 1) & (c->gap_cap - 1);
    if (!c->gap_key[j]) {
        if (!add)
            return NULL;
        c->gap_key[j] = key;
        c->gap_count++;
    }
    return &c->gap_val[j];
}

/* -- May a run in this font and script be cut into words? -- */

typedef struct otb {
    const unsigned char *p;
    size_t len;
} otb;

static bool u16(otb t, size_t off, unsigned *v)
{
    if (off + 2 > t.len)
        return false;
    *v = (unsigned)t.p[off] << 8 | t.p[off + 1];
    return true;
}

static bool u32(otb t, size_t off, size_t *v)
{
    unsigned hi, lo;
    if (!u16(t, off, &hi) || !u16(t, off + 2, &lo))
        return false;
    *v = (size_t)hi << 16 | lo;
    return true;
}

typedef struct lookup_info {
    unsigned type, flag;
    bool first_only;         /* GPOS pair adjustment: ValueFormat2 is 0 everywhere */
} lookup_info;

/* The lookups a (chain) context rule at `r` calls, into `out`. */
static bool rule_calls(otb t, size_t r, bool chain, hb_set_t *out)
{
    unsigned n, g;
    size_t o = r;
    if (chain) {
        if (!u16(t, o, &n))
            return false;
        o += 2 + 2 * (size_t)n;                  /* backtrack */
        if (!u16(t, o, &g) || g == 0)
            return false;
        o += 2 + 2 * (size_t)(g - 1);            /* input */
        if (!u16(t, o, &n))
            return false;
        o += 2 + 2 * (size_t)n;                  /* lookahead */
        if (!u16(t, o, &n))
            return false;
        o += 2;
    } else {
        if (!u16(t, o, &g) || g == 0 || !u16(t, o + 2, &n))
            return false;
        o += 4 + 2 * (size_t)(g - 1);
    }
    for (unsigned k = 0; k < n; k++) {
        unsigned l;
        if (!u16(t, o + 4 * (size_t)k + 2, &l))
            return false;
        hb_set_add(out, l);
    }
    return true;
}

/* The rules of a format 1 or 2 (chain) context subtable at `s`, whose count
 * of rule sets is at s + at. */
static bool ruleset_calls(otb t, size_t s, size_t at, bool chain, hb_set_t *out)
{
    unsigned nsets;
    if (!u16(t, s + at, &nsets))
        return false;
    for (unsigned i = 0; i < nsets; i++) {
        unsigned so, nrules;
        if (!u16(t, s + at + 2 + 2 * (size_t)i, &so))
            return false;
        if (!so)
            continue;
        if (!u16(t, s + so, &nrules))
            return false;
        for (unsigned j = 0; j < nrules; j++) {
            unsigned ro;
            if (!u16(t, s + so + 2 + 2 * (size_t)j, &ro) || !rule_calls(t, s + so + ro, chain, out))
                return false;
        }
    }
    return true;
}

/* Lookup `idx` of GSUB or GPOS: its type (through extensions), flags, and
 * the lookups its subtables call (context lookups) into `calls`. */
static bool read_lookup(otb t, bool gpos, unsigned idx, lookup_info *li, hb_set_t *calls)
{
    unsigned ll, count, lo, nsub;
    if (!u16(t, 8, &ll) || !u16(t, ll, &count) || idx >= count ||
        !u16(t, ll + 2 + 2 * (size_t)idx, &lo))
        return false;
    size_t l = (size_t)ll + lo;
    if (!u16(t, l, &li->type) || !u16(t, l + 2, &li->flag) || !u16(t, l + 4, &nsub))
        return false;
    unsigned ext = gpos ? 9 : 7, type = 0;
    li->first_only = true;
    for (unsigned k = 0; k < nsub; k++) {
        unsigned so, st = li->type, fmt;
        if (!u16(t, l + 6 + 2 * (size_t)k, &so))
            return false;
        size_t s = l + so;
        if (st == ext) {
            size_t eo;
            if (!u16(t, s + 2, &st) || !u32(t, s + 4, &eo))
                return false;
            s += eo;
        }
        if ((type && st != type) || st == ext || !u16(t, s, &fmt))
            return false;
        type = st;
        bool context = st == (gpos ? 7u : 5u), chain = st == (gpos ? 8u : 6u);
        if (gpos && st == 2) {
            unsigned vf2;
            if (!u16(t, s + 6, &vf2))
                return false;
            li->first_only &= vf2 == 0;
        } else if ((context || chain) && (fmt == 1 || fmt == 2)) {
            size_t at = fmt == 1 ? 4 : context ? 6 : 10;
            if (!ruleset_calls(t, s, at, chain, calls))
                return false;
        } else if (context && fmt == 3) {
            unsigned g, n;
            if (!u16(t, s + 2, &g) || !u16(t, s + 4, &n))
                return false;
            for (unsigned i = 0; i < n; i++) {
                unsigned x;
                if (!u16(t, s + 6 + 2 * (size_t)g + 4 * (size_t)i + 2, &x))
                    return false;
                hb_set_add(calls, x);
            }
        } else if (chain && fmt == 3) {
            size_t o = s + 2;
            unsigned n;
            for (int part = 0; part < 3; part++) {
                if (!u16(t, o, &n))
                    return false;
                o += 2 + 2 * (size_t)n;
            }
            if (!u16(t, o, &n))
                return false;
            for (unsigned i = 0; i < n; i++) {
                unsigned x;
                if (!u16(t, o + 2 + 4 * (size_t)i + 2, &x))
                    return false;
                hb_set_add(calls, x);
            }
        } else if (context || chain) {
            return false;
        }
    }
    if (type)
        li->type = type;
    li->first_only &= li->type == 2 && gpos;
    return true;
}

static bool has_feature(hb_face_t *face, hb_tag_t table, hb_tag_t feature)
{
    hb_tag_t tags[32];
    unsigned start = 0, n;
    do {
        n = 32;
        hb_ot_layout_table_get_feature_tags(face, table, start, &n, tags);
        for (unsigned i = 0; i < n; i++)
            if (tags[i] == feature)
                return true;
        start += n;
    } while (n == 32);
    return false;
}

static bool lookups_keep_off_space(const cv_face *f, hb_shape_plan_t *plan, bool gpos)
{
    hb_face_t *face = f->hb_face;
    hb_tag_t tag = gpos ? HB_OT_TAG_GPOS : HB_OT_TAG_GSUB;
    hb_blob_t *blob = hb_face_reference_table(face, tag);
    unsigned blen;
    const char *data = hb_blob_get_data(blob, &blen);
    otb t = {(const unsigned char *)data, blen};
    unsigned space = f->cache->space;
    hb_set_t *plan_set = hb_set_create(), *todo = hb_set_create(), *seen = hb_set_create();
    hb_set_t *sets[4] = {hb_set_create(), hb_set_create(), hb_set_create(), hb_set_create()};
    hb_ot_shape_plan_collect_lookups(plan, tag, plan_set);
    hb_set_union(todo, plan_set);
    bool ok = true;
    /* The plan's lookups and every lookup they call, transitively. */
    for (hb_codepoint_t idx; ok && !hb_set_is_empty(todo);) {
        idx = hb_set_get_min(todo);
        hb_set_del(todo, idx);
        if (hb_set_has(seen, idx))
            continue;
        hb_set_add(seen, idx);
        lookup_info li;
        hb_set_t *calls = hb_set_create();
        ok = read_lookup(t, gpos, idx, &li, calls);
        hb_set_subtract(calls, seen);
        hb_set_union(todo, calls);
        hb_set_destroy(calls);
        if (!ok || (li.flag & 0x0002)) {         /* IgnoreBaseGlyphs: might skip a space */
            ok = false;
            break;
        }
        if (li.first_only && !(li.flag & 0xFF1E))
            continue;                            /* kerning: see above */
        bool single = gpos ? li.type == 1 : li.type <= 3;
        if (single && !hb_set_has(plan_set, idx))
            continue;                            /* acts where it is called: not on a space */
        for (int k = 0; k < 4; k++)
            hb_set_clear(sets[k]);
        hb_ot_layout_lookup_collect_glyphs(face, tag, idx, sets[0], sets[1], sets[2], sets[3]);
        for (int k = 0; k < 4; k++)
            ok &= !hb_set_has(sets[k], space);
    }
    for (int k = 0; k < 4; k++)
        hb_set_destroy(sets[k]);
    hb_set_destroy(plan_set);
    hb_set_destroy(todo);
    hb_set_destroy(seen);
    hb_blob_destroy(blob);
    return ok;
}

static bool may_cut(const cv_face *f, hb_script_t script)
{
    switch (script) {
    case HB_SCRIPT_INVALID: case HB_SCRIPT_COMMON: case HB_SCRIPT_LATIN:
    case HB_SCRIPT_GREEK: case HB_SCRIPT_CYRILLIC: case HB_SCRIPT_HAN:
    case HB_SCRIPT_HIRAGANA: case HB_SCRIPT_KATAKANA: case HB_SCRIPT_BOPOMOFO:
        break;
    default:
        return false;                            /* shapers that look further */
    }
    hb_face_t *face = f->hb_face;
    unsigned space = f->cache->space;
    if (!space || hb_aat_layout_has_substitution(face) || hb_aat_layout_has_positioning(face) ||
        hb_aat_layout_has_tracking(face) || !hb_ot_layout_has_positioning(face) ||
        has_feature(face, HB_OT_TAG_GSUB, HB_TAG('r', 'a', 'n', 'd')))
        return false;
    hb_blob_t *kern = hb_face_reference_table(face, HB_TAG('k', 'e', 'r', 'n'));
    bool old_kern = hb_blob_get_length(kern) > 0;
    hb_blob_destroy(kern);
    if (old_kern && !has_feature(face, HB_OT_TAG_GPOS, HB_TAG('k', 'e', 'r', 'n')))
        return false;                            /* HarfBuzz would apply the 'kern' table */
    hb_ot_layout_glyph_class_t gc = hb_ot_layout_get_glyph_class(face, space);
    if (gc != HB_OT_LAYOUT_GLYPH_CLASS_UNCLASSIFIED && gc != HB_OT_LAYOUT_GLYPH_CLASS_BASE_GLYPH)
        return false;
    hb_segment_properties_t props = HB_SEGMENT_PROPERTIES_DEFAULT;
    props.direction = HB_DIRECTION_LTR;
    props.script = script;
    props.language = hb_language_get_default();
    hb_shape_plan_t *plan = hb_shape_plan_create_cached(
        face, &props, no_ligatures, sizeof no_ligatures / sizeof *no_ligatures, NULL);
    bool ok = lookups_keep_off_space(f, plan, false) && lookups_keep_off_space(f, plan, true);
    hb_shape_plan_destroy(plan);
    return ok;
}

static bool cut_ok(const cv_face *f, hb_script_t script)
{
    struct cv_face_cache *c = f->cache;
    for (size_t i = 0; i < c->nsplit; i++)
        if (c->split[i].script == script)
            return c->split[i].ok;
    if (c->nsplit == MAX_SCRIPTS)
        return false;        /* too many scripts to remember: shape whole runs */
    bool ok = may_cut(f, script);
    c->split[c->nsplit++] = (cut_verdict){script, ok};
    return ok;
}

static void cut_forbid(const cv_face *f, hb_script_t script)
{
    struct cv_face_cache *c = f->cache;
    for (size_t i = 0; i < c->nsplit; i++)
        if (c->split[i].script == script)
            c->split[i].ok = false;
}

/* The script hb_buffer_guess_segment_properties() gives a run. */
static hb_script_t run_script(const uint32_t *cps, size_t n)
{
    hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
    for (size_t i = 0; i < n; i++) {
        hb_script_t s = hb_unicode_script(uf, cps[i]);
        if (s != HB_SCRIPT_COMMON && s != HB_SCRIPT_INHERITED && s != HB_SCRIPT_UNKNOWN)
            return s;
    }
    return HB_SCRIPT_INVALID;
}

/* Does `cp` begin a cluster of its own in HarfBuzz, one no lookup skips?
 * Not a mark, a format or other default-ignorable character, nor one of
 * the half-width kana sound marks HarfBuzz joins to what precedes. */
static bool starts_cluster(uint32_t cp)
{
    if (cp < 0x300)
        return cp > ' ' && cp != 0x7F && !(cp >= 0x80 && cp <= 0xA0) && cp != 0xAD;
    if (cp == 0x115F || cp == 0x1160 || cp == 0x3164 || cp == 0xFFA0 || cp == 0xFF9E ||
        cp == 0xFF9F || (cp >= 0x180B && cp <= 0x180F) || (cp >= 0x17B4 && cp <= 0x17B5) ||
        (cp >= 0x2060 && cp <= 0x206F) || (cp >= 0xFE00 && cp <= 0xFE0F) || cp > 0xFFFF)
        return false;
    switch (hb_unicode_general_category(hb_unicode_funcs_get_default(), cp)) {
    case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK:
    case HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK:
    case HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK:
    case HB_UNICODE_GENERAL_CATEGORY_FORMAT:
    case HB_UNICODE_GENERAL_CATEGORY_CONTROL:
    case HB_UNICODE_GENERAL_CATEGORY_UNASSIGNED:
    case HB_UNICODE_GENERAL_CATEGORY_SURROGATE:
        return false;
    default:
        return true;
    }
}

/* -- Shaping a run -- */

enum { WHOLE, KERNED, UNKERNED };

/* Shape the run's segments not cached yet (c->pend[0, np), `total` code
 * points), together; false when that showed the font cannot be cut after
 * all. */
static bool shape_pending(const cv_face *f, hb_script_t script, size_t np, size_t total)
{
    struct cv_face_cache *c = f->cache;
    shaped **pend = c->pend;
    uint32_t *all = c->cps;
    size_t o = 0;
    for (size_t k = 0; k < np; k++) {
        memcpy(all + o, pend[k]->cps, pend[k]->n * sizeof *all);
        o += pend[k]->n;
    }
    bool together = hb_run(f, all, total, &script, c->d2, c->glyph);
    o = 0;
    for (size_t k = 0; k < np; k++) {
        shaped *e = pend[k];
        size_t m = e->n;
        if (together) {
            memcpy(e->delta, c->d2 + o, m * sizeof *e->delta);
            e->first = c->glyph[o];
            e->ok = true;
            if (k + 1 < np) {
                /* The space ending it, kerned with the next one's first glyph. */
                *gap_slot(c, script, c->glyph[o + m], true) = e->delta[m - 1];
                e->delta[m - 1] = 0;
            }
        } else {
            /* Some segment has glyphs that do not map one to one. */
            e->ok = hb_run(f, e->cps, m, &script, e->delta, c->glyph);
            e->first = c->glyph[0];
        }
        /* A segment's final space is kerned only by what follows it. */
        if (e->ok && e->cps[m - 1] == ' ' && e->delta[m - 1] != 0)
            return false;
        o += m;
    }
    return true;
}

/* The space's extra advance before glyph `first` (code point `cp`). */
static bool space_gap(const cv_face *f, hb_script_t script, uint32_t cp, unsigned first,
                      int32_t *gap)
{
    struct cv_face_cache *c = f->cache;
    int32_t *g = gap_slot(c, script, first, false);
    if (g) {
        *gap = *g;
        return true;
    }
    uint32_t pair[2] = {' ', cp};
    int32_t d[2];
    unsigned gl[2];
    if (!hb_run(f, pair, 2, &script, d, gl) || gl[1] != first)
        return false;
    *gap_slot(c, script, first, true) = *gap = d[0];
    return true;
}

static int shape_cut(const cv_face *f, const uint32_t *cps, size_t n, int32_t *delta)
{
    struct cv_face_cache *c = f->cache;
    hb_script_t script = run_script(cps, n);
    if (!cut_ok(f, script))
        return WHOLE;
    size_t nseg = 0;
    for (size_t i = 0; i < n; i++) {
        if (cps[i] == 0x2044)
            return WHOLE;                        /* fractions */
        if (i == 0 || (cps[i - 1] == ' ' && cps[i] != ' ' && starts_cluster(cps[i])))
            c->seg[nseg++] = i;
    }
    c->seg[nseg] = n;

    size_t np = 0, total = 0;
    for (size_t s = 0; s < nseg; s++) {
        size_t b = c->seg[s], m = c->seg[s + 1] - b;
        bool added;
        shaped *e = lookup(c, false, script, cps + b, m, &added);
        if (added) {
            c->pend[np++] = e;
            total += m;
        }
        c->segent[s] = e;
    }
    if (np && !shape_pending(f, script, np, total)) {
        cut_forbid(f, script);
        return WHOLE;
    }

    int verdict = KERNED;
    for (size_t s = 0; s < nseg; s++) {
        size_t b = c->seg[s], m = c->seg[s + 1] - b;
        const shaped *e = c->segent[s];
        if (!e->ok)
            verdict = UNKERNED;
        if (verdict != KERNED)
            continue;
        memcpy(delta + b, e->delta, m * sizeof *delta);
        if (s + 1 < nseg) {
            int32_t gap;
            if (!space_gap(f, script, cps[b + m], c->segent[s + 1]->first, &gap))
                return WHOLE;
            delta[b + m - 1] += gap;
        }
    }
    return verdict;
}

static bool shape_whole(const cv_face *f, const uint32_t *cps, size_t n, int32_t *delta)
{
    bool added;
    shaped *e = lookup(f->cache, true, HB_SCRIPT_INVALID, cps, n, &added);
    if (added)
        e->ok = hb_run(f, cps, n, NULL, e->delta, f->cache->glyph);
    if (e->ok)
        memcpy(delta, e->delta, n * sizeof *delta);
    return e->ok;
}

void cv_face_shape(const cv_face *f, const uint32_t *cps, size_t n, int16_t *w,
                   int16_t *kern)
{
    for (size_t i = 0; i < n; i++) {
        w[i] = (int16_t)cv_face_advance(f, cv_face_glyph(f, cps[i]));
        kern[i] = 0;
    }
    if (n < 2)
        return;

    /* Kerning only: one glyph per code point is required, because the PDF
     * backend writes code points (libharu maps them to glyphs itself). */
    struct cv_face_cache *c = f->cache;
    if (cv_arena_used(c->arena) > CACHE_BYTES) {
        cv_arena_reset(c->arena);
        memset(c->tab, 0, c->cap * sizeof *c->tab);
        c->count = 0;
    }
    scratch_grow(c, n + 2);
    int32_t *delta = c->delta;
    int how = shape_cut(f, cps, n, delta);
    if (how == UNKERNED || (how == WHOLE && !shape_whole(f, cps, n, delta)))
        return;
    for (size_t i = 0; i < n; i++)
        if (delta[i])
            kern[i] = (int16_t)lround(delta[i] * 1000.0 / f->upem);
}
