/* Unit tests for sfnt.c: every face in fonts/ (and Noto Sans CJK) read and
 * measured as FreeType reads it;
 * the name record FreeType takes, on fonts made here; and what the reader
 * does not vouch for (then FreeType is asked). */
#include "harness.h"

#include <dirent.h>
#include <stdint.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H
#include FT_TRUETYPE_TABLES_H
#include FT_TRUETYPE_TAGS_H
#include <hb.h>

#include "cff.h"
#include "file.h"
#include "sfnt.h"

static FT_Library lib;

/* Does face `index` of data read the same through FreeType?  (What
 * fontset.c reads of an FT_Face.) */
static bool same_as_freetype(const unsigned char *data, size_t size, int index,
                             const cv_sfnt_face *s)
{
    FT_Face f;
    if (FT_New_Memory_Face(lib, data, (FT_Long)size, index, &f))
        return false;
    FT_ULong len = 0;
    bool glyf = !FT_Load_Sfnt_Table(f, TTAG_glyf, 0, NULL, &len) && len > 0;
    const TT_OS2 *os2 = FT_Get_Sfnt_Table(f, FT_SFNT_OS2);
    bool bold = os2 && os2->usWeightClass ? os2->usWeightClass >= 600
                                          : (f->style_flags & FT_STYLE_FLAG_BOLD) != 0;
    bool same = s->named == (f->family_name != NULL) &&
                (!f->family_name || !strcmp(f->family_name, s->family)) && s->bold == bold &&
                s->italic == ((f->style_flags & FT_STYLE_FLAG_ITALIC) != 0) &&
                s->narrow == (os2 && os2->usWidthClass && os2->usWidthClass != 5) &&
                s->cff == !glyf;
    if (!same)
        fprintf(stderr, "  face %d: FreeType says '%s', sfnt.c '%s'\n", index,
                f->family_name ? f->family_name : "(none)", s->family);
    FT_Done_Face(f);
    return same;
}

static int check_file(const char *path, long step);

TEST(every_face_in_fonts_as_freetype_reads_it)
{
    DIR *d = opendir("fonts");
    CHECK(d != NULL);
    if (!d)
        return;
    int files = 0, faces = 0;
    for (struct dirent *de; (de = readdir(d));) {
        const char *ext = strrchr(de->d_name, '.');
        if (!ext || (strcmp(ext, ".ttf") && strcmp(ext, ".otf") && strcmp(ext, ".ttc")))
            continue;
        char path[512];
        snprintf(path, sizeof path, "fonts/%s", de->d_name);
        faces += check_file(path, 1);
        files++;
    }
    closedir(d);
    CHECK(files >= 20 && faces >= 22);
}

/* ---- Fonts made here ------------------------------------------------------ */

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)(v >> 8), p[1] = (unsigned char)v;
}

static void put32(unsigned char *p, uint32_t v)
{
    put16(p, v >> 16), put16(p + 2, v & 0xffff);
}

typedef struct rec {
    unsigned platform, encoding, language, id;
    const char *text;          /* ASCII; written as UTF-16 unless Macintosh */
} rec;

/* A TrueType font of one empty glyph: head, hhea, maxp, OS/2 (version 0,
 * `weight`, `width`, `selection`), hmtx, loca, glyf and a name table of
 * `recs`.  Its size is returned. */
static size_t make_font(unsigned char *out, unsigned weight, unsigned width, unsigned selection,
                        const rec *recs, size_t nrecs)
{
    enum { NT = 8 };
    unsigned char t[NT][1024];
    size_t len[NT];
    static const char tags[NT][5] = {"OS/2", "glyf", "head", "hhea", "hmtx", "loca", "maxp",
                                      "name"};
    memset(t, 0, sizeof t);
    len[0] = 78;                                      /* OS/2 */
    put16(t[0] + 4, weight), put16(t[0] + 6, width), put16(t[0] + 62, selection);
    len[1] = 4;                                       /* glyf */
    len[2] = 54;                                      /* head */
    put32(t[2], 0x00010000), put32(t[2] + 12, 0x5F0F3CF5), put16(t[2] + 18, 1000);
    len[3] = 36;                                      /* hhea */
    put32(t[3], 0x00010000), put16(t[3] + 34, 1);
    len[4] = 4;                                       /* hmtx */
    len[5] = 4;                                       /* loca: 0, 0 */
    len[6] = 6;                                       /* maxp 0.5 */
    put32(t[6], 0x00005000), put16(t[6] + 4, 1);
    unsigned char *nm = t[7];                         /* name */
    size_t storage = 6 + 12 * nrecs, at = 0;
    put16(nm + 2, (unsigned)nrecs), put16(nm + 4, (unsigned)storage);
    for (size_t i = 0; i < nrecs; i++) {
        unsigned char *r = nm + 6 + 12 * i;
        size_t tl = strlen(recs[i].text), bytes = recs[i].platform == 1 ? tl : 2 * tl;
        put16(r, recs[i].platform), put16(r + 2, recs[i].encoding);
        put16(r + 4, recs[i].language), put16(r + 6, recs[i].id);
        put16(r + 8, (unsigned)bytes), put16(r + 10, (unsigned)at);
        for (size_t k = 0; k < tl; k++) {
            unsigned char c = (unsigned char)recs[i].text[k];
            /* '~' stands for a character outside ASCII (U+00E9, or 0xE9 in
             * Mac Roman), '_' for a NUL. */
            unsigned v = c == '~' ? 0xE9 : c == '_' ? 0 : c;
            if (recs[i].platform == 1)
                nm[storage + at + k] = (unsigned char)v;
            else
                put16(nm + storage + at + 2 * k, v);
        }
        at += bytes;
    }
    len[7] = storage + at;
    size_t n = 12 + 16 * NT;
    put32(out, 0x00010000), put16(out + 4, NT);
    for (int i = 0; i < NT; i++) {
        unsigned char *e = out + 12 + 16 * i;
        memcpy(e, tags[i], 4);
        put32(e + 8, (uint32_t)n), put32(e + 12, (uint32_t)len[i]);
        memcpy(out + n, t[i], len[i]);
        n += (len[i] + 3) & ~(size_t)3;
    }
    return n;
}

/* The family sfnt.c reads of a made font, checked against FreeType. */
static const char *family_of(const rec *recs, size_t n, unsigned selection)
{
    static unsigned char buf[16384];
    static cv_sfnt_face s;
    size_t size = make_font(buf, 400, 5, selection, recs, n);
    if (!cv_sfnt_describe(buf, size, 0, &s))
        return "(not vouched for)";
    CHECK(same_as_freetype(buf, size, 0, &s));
    return s.named ? s.family : "(none)";
}

TEST(the_name_record_freetype_takes)
{
    /* Windows' English name before any other Windows one. */
    rec a[] = {{3, 1, 0x40C, 1, "Francais"}, {3, 1, 0x409, 1, "English"},
               {3, 1, 0x407, 1, "Deutsch"}};
    CHECK_STR(family_of(a, 3, 0), "English");
    /* With no English one, the first Windows one. */
    rec b[] = {{3, 1, 0x40C, 1, "Francais"}, {3, 1, 0x407, 1, "Deutsch"}};
    CHECK_STR(family_of(b, 2, 0), "Francais");
    /* A Macintosh English name beats a Windows name that is not English. */
    rec c[] = {{3, 1, 0x40C, 1, "Francais"}, {1, 0, 0, 1, "Mac"}};
    CHECK_STR(family_of(c, 2, 0), "Mac");
    /* The WWS family, then the typographic one, then the family. */
    rec d[] = {{3, 1, 0x409, 1, "Family"}, {3, 1, 0x409, 16, "Typographic"},
               {3, 1, 0x409, 21, "WWS"}};
    CHECK_STR(family_of(d, 3, 0), "WWS");
    CHECK_STR(family_of(d, 2, 0), "Typographic");
    CHECK_STR(family_of(d, 1, 0), "Family");
    /* A face that says it is WWS (fsSelection bit 8) skips name id 21. */
    CHECK_STR(family_of(d, 3, 256), "Typographic");
    /* Outside ASCII is '?', and a NUL ends the name. */
    rec e[] = {{3, 1, 0x409, 1, "Caf~ Sans_Rest"}};
    CHECK_STR(family_of(e, 1, 0), "Caf? Sans");
    rec f[] = {{1, 0, 0, 1, "Mac~Roman"}};
    CHECK_STR(family_of(f, 1, 0), "Mac?Roman");
    /* A Unicode-platform name only when there is nothing else. */
    rec g[] = {{0, 3, 0, 1, "Unicode"}};
    CHECK_STR(family_of(g, 1, 0), "Unicode");
    /* No family at all: none, as FreeType's family_name is NULL. */
    rec h[] = {{3, 1, 0x409, 2, "Regular"}};
    CHECK_STR(family_of(h, 1, 0), "(none)");
}

TEST(weight_slant_and_width)
{
    static unsigned char buf[16384];
    rec r[] = {{3, 1, 0x409, 1, "Made"}};
    struct {
        unsigned weight, width, selection;
        bool bold, italic, narrow;
    } cases[] = {
        {700, 5, 0, true, false, false},   {400, 5, 32, false, false, false},
        {0, 5, 32, true, false, false},    {400, 5, 1, false, true, false},
        {400, 5, 512, false, true, false}, {600, 3, 0, true, false, true},
        {400, 0, 0, false, false, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t size = make_font(buf, cases[i].weight, cases[i].width, cases[i].selection, r, 1);
        cv_sfnt_face s;
        CHECK(cv_sfnt_describe(buf, size, 0, &s));
        CHECK(s.bold == cases[i].bold && s.italic == cases[i].italic &&
              s.narrow == cases[i].narrow && !s.cff);
        CHECK(same_as_freetype(buf, size, 0, &s));
    }
}

static size_t u32_at(const unsigned char *p)
{
    return (size_t)p[0] << 24 | (size_t)p[1] << 16 | (size_t)p[2] << 8 | p[3];
}

/* Table `tag`'s directory entry in a made font. */
static unsigned char *entry_of(unsigned char *font, const char *tag)
{
    for (unsigned i = 0; i < 8; i++)
        if (!memcmp(font + 12 + 16 * i, tag, 4))
            return font + 12 + 16 * i;
    return NULL;
}

TEST(what_it_does_not_vouch_for)
{
    static unsigned char buf[16384], bad[16384];
    rec r[] = {{3, 1, 0x409, 1, "Made"}};
    size_t size = make_font(buf, 400, 5, 0, r, 1);
    cv_sfnt_face s;
    CHECK(cv_sfnt_count(buf, size) == 1 && cv_sfnt_describe(buf, size, 0, &s));
    CHECK(!cv_sfnt_describe(buf, size, 1, &s) && !cv_sfnt_describe(buf, size, -1, &s));
    /* Not an sfnt, or too short to be one. */
    CHECK(cv_sfnt_count((const unsigned char *)"this is not a font at all", 25) == 0);
    CHECK(cv_sfnt_count(buf, 11) == 0);
    /* Every table cut off the end of the file. */
    for (size_t cut = 12; cut < size; cut += 7)
        CHECK(!cv_sfnt_describe(buf, cut, 0, &s));
    /* A Mac 'true' font, a variable font, CFF2 outlines, bitmap strikes. */
    static const char *const others[] = {"fvar", "CFF2", "EBLC", "sbix"};
    memcpy(bad, buf, size);
    memcpy(bad, "true", 4);
    CHECK(cv_sfnt_count(bad, size) == 0);
    for (size_t i = 0; i < 4; i++) {
        memcpy(bad, buf, size);
        memcpy(entry_of(bad, "glyf"), others[i], 4);
        CHECK(!cv_sfnt_describe(bad, size, 0, &s));
    }
    /* A table twice, one past the end, an empty one. */
    memcpy(bad, buf, size);
    memcpy(entry_of(bad, "glyf"), "loca", 4);
    CHECK(!cv_sfnt_describe(bad, size, 0, &s));
    memcpy(bad, buf, size);
    put32(entry_of(bad, "name") + 12, 60000);
    CHECK(!cv_sfnt_describe(bad, size, 0, &s));
    memcpy(bad, buf, size);
    put32(entry_of(bad, "name") + 12, 0);
    CHECK(!cv_sfnt_describe(bad, size, 0, &s));
    /* An OS/2 table too short for its version; a damaged em. */
    memcpy(bad, buf, size);
    put16(bad + u32_at(entry_of(bad, "OS/2") + 8), 2);
    CHECK(!cv_sfnt_describe(bad, size, 0, &s));
    memcpy(bad, buf, size);
    put16(bad + u32_at(entry_of(bad, "head") + 8) + 18, 8);
    CHECK(!cv_sfnt_describe(bad, size, 0, &s));
    /* A collection of none, or of more faces than its size can hold. */
    unsigned char ttc[64] = "ttcf";
    put32(ttc + 4, 0x00010000);
    CHECK(cv_sfnt_count(ttc, sizeof ttc) == 0);
    put32(ttc + 8, 3);
    CHECK(cv_sfnt_count(ttc, sizeof ttc) == 0);
    put32(ttc + 8, 1);
    CHECK(cv_sfnt_count(ttc, sizeof ttc) == 1 && !cv_sfnt_describe(ttc, sizeof ttc, 0, &s));
}

/* ---- Measuring a face (cv_sfnt_measure) ------------------------------------ */

/* Noto Sans CJK, a dependency (tests/deps.sh): CFF, 65,535 glyphs a face. */
#define NOTO_CJK "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

/* Does face `index` of data measure as FreeType reads it, and does
 * HarfBuzz (which fontset.c asks for glyphs and advances) map every
 * character and give every `step`-th glyph's advance as FreeType does? */
static bool measured_as_freetype(const unsigned char *data, size_t size, int index,
                                 const cv_sfnt_metrics *m, long step)
{
    FT_Face f;
    if (FT_New_Memory_Face(lib, data, (FT_Long)size, index, &f))
        return false;
    unsigned ng = m->nglyphs;
    if (m->cff && !cv_cff_glyph_count(m->cff, m->cff_len, &ng))
        ng = 0;
    const char *ps = FT_Get_Postscript_Name(f);
    const TT_OS2 *os2 = FT_Get_Sfnt_Table(f, FT_SFNT_OS2);
    const TT_Postscript *post = FT_Get_Sfnt_Table(f, FT_SFNT_POST);
    bool same = m->upem == f->units_per_EM && m->ascender == f->ascender &&
                m->descender == f->descender && m->bbox[0] == f->bbox.xMin &&
                m->bbox[1] == f->bbox.yMin && m->bbox[2] == f->bbox.xMax &&
                m->bbox[3] == f->bbox.yMax && (long)ng == f->num_glyphs &&
                m->has_psname == (ps != NULL) && (!ps || !strcmp(ps, m->psname)) && os2 &&
                m->os2_version == os2->version && m->weight == os2->usWeightClass &&
                m->typo_ascender == os2->sTypoAscender &&
                m->typo_descender == os2->sTypoDescender &&
                (os2->version < 2 || (m->cap_height == os2->sCapHeight &&
                                      m->x_height == os2->sxHeight)) &&
                m->italic_angle == (post ? post->italicAngle : 0) &&
                m->fixed_pitch == (post && post->isFixedPitch);
    if (!same)
        fprintf(stderr, "  face %d: measured unlike FreeType (ascender %d/%ld, psname %s/%s)\n",
                index, m->ascender, (long)f->ascender, m->psname, ps ? ps : "none");
    hb_blob_t *blob = hb_blob_create((const char *)data, (unsigned)size,
                                     HB_MEMORY_MODE_READONLY, NULL, NULL);
    hb_face_t *hf = hb_face_create(blob, (unsigned)index);
    hb_font_t *hb = hb_font_create(hf);
    hb_font_set_scale(hb, m->upem, m->upem);
    long chars = 0, wrong = 0;
    FT_UInt g;
    for (FT_ULong cp = FT_Get_First_Char(f, &g); g; cp = FT_Get_Next_Char(f, cp, &g), chars++) {
        hb_codepoint_t h = 0;
        wrong += !hb_font_get_nominal_glyph(hb, (hb_codepoint_t)cp, &h) || h != g;
    }
    for (long gid = 0; gid < f->num_glyphs; gid += step) {
        FT_Fixed adv = 0;
        wrong += FT_Get_Advance(f, (FT_UInt)gid, FT_LOAD_NO_SCALE, &adv) ||
                 adv != hb_font_get_glyph_h_advance(hb, (hb_codepoint_t)gid);
    }
    if (wrong)
        fprintf(stderr, "  face %d: %ld glyphs or advances unlike FreeType's\n", index, wrong);
    hb_font_destroy(hb);
    hb_face_destroy(hf);
    hb_blob_destroy(blob);
    FT_Done_Face(f);
    return same && !wrong && chars > 0;
}

/* Every face of `path` described and measured (each vouched for: the
 * catalogue and fontset.c never need FreeType for a face cvpdf uses) as
 * FreeType reads it, with every `step`-th glyph's advance; returns how
 * many. */
static int check_file(const char *path, long step)
{
    cv_file file;
    CHECK(cv_file_read(NULL, path, 64u << 20, true, &file));
    const unsigned char *data = (const unsigned char *)file.data;
    int n = cv_sfnt_count(data, file.len);
    CHECK(n >= 1);
    for (int i = 0; i < n; i++) {
        cv_sfnt_face s;
        CHECK(cv_sfnt_describe(data, file.len, i, &s) && s.named);
        CHECK(same_as_freetype(data, file.len, i, &s));
        cv_sfnt_metrics m;
        CHECK(cv_sfnt_measure(data, file.len, i, &m));
        CHECK(measured_as_freetype(data, file.len, i, &m, step));
    }
    free(file.data);
    return n;
}

/* The CJK faces, whose opening this reader saves most (every 61st glyph's
 * advance: 65,535 a face, ten faces). */
TEST(noto_cjk_measured_as_freetype_reads_it)
{
    CHECK(check_file(NOTO_CJK, 61) >= 10);
}

/* A copy of Lato with one change: what the reader then says. */
static unsigned char *lato(size_t *size)
{
    cv_file file;
    CHECK(cv_file_read(NULL, "fonts/Lato-Regular.ttf", 4u << 20, true, &file));
    *size = file.len;
    return (unsigned char *)file.data;
}

/* Table `tag`'s directory entry in a real font (entry_of() reads a made
 * font's eight). */
static unsigned char *entry_in(unsigned char *font, const char *tag)
{
    for (unsigned i = 0, n = (unsigned)(font[4] << 8 | font[5]); i < n; i++)
        if (!memcmp(font + 12 + 16 * i, tag, 4))
            return font + 12 + 16 * i;
    CHECK(!"the table is there");
    abort();
}

static unsigned char *table_of(unsigned char *font, const char *tag)
{
    return font + u32_at(entry_in(font, tag) + 8);
}

TEST(what_it_does_not_measure)
{
    size_t size;
    unsigned char *f = lato(&size);
    cv_sfnt_metrics m;
    CHECK(cv_sfnt_measure(f, size, 0, &m) && m.has_psname && !strcmp(m.psname, "Lato-Regular"));
    /* FreeType uses OS/2's typographic metrics when fsSelection says so
     * (Lato does), hhea's otherwise. */
    unsigned char *os2 = table_of(f, "OS/2");
    put16(os2 + 62, (unsigned)(os2[62] << 8 | os2[63]) & ~128u);
    CHECK(cv_sfnt_measure(f, size, 0, &m) && measured_as_freetype(f, size, 0, &m, 7));
    CHECK(m.ascender == (int16_t)(table_of(f, "hhea")[4] << 8 | table_of(f, "hhea")[5]));
    free(f);
    /* No Unicode character map: every encoding record made Macintosh's. */
    f = lato(&size);
    unsigned char *cmap = table_of(f, "cmap");
    for (unsigned i = 0, n = (unsigned)(cmap[2] << 8 | cmap[3]); i < n; i++)
        put16(cmap + 4 + 8 * i, 1);
    CHECK(!cv_sfnt_measure(f, size, 0, &m));
    free(f);
    /* A PostScript name with a character outside ASCII in its Windows
     * record (FreeType keeps the low byte). */
    f = lato(&size);
    unsigned char *nm = table_of(f, "name");
    unsigned count = (unsigned)(nm[2] << 8 | nm[3]), storage = (unsigned)(nm[4] << 8 | nm[5]);
    bool changed = false;
    for (unsigned i = 0; i < count; i++) {
        unsigned char *r = nm + 6 + 12 * i;
        if ((r[0] << 8 | r[1]) == 3 && (r[6] << 8 | r[7]) == 6) {
            unsigned char *s = nm + storage + (r[10] << 8 | r[11]);
            put16(s, 0x00E9);
            changed = true;
        }
    }
    CHECK(changed && !cv_sfnt_measure(f, size, 0, &m));
    free(f);
    /* A post table too short for FreeType to read. */
    f = lato(&size);
    put32(entry_in(f, "post") + 12, 20);
    CHECK(!cv_sfnt_measure(f, size, 0, &m));
    free(f);
}

/* Files cut short anywhere, and bytes of the CFF table changed: the
 * readers read only inside what they are given (ASan watches), and what
 * they still vouch for is what the whole file says. */
TEST(cut_and_damaged)
{
    static const char *const files[] = {"fonts/Lato-Regular.ttf", "fonts/XCharter-Roman.otf"};
    for (size_t k = 0; k < 2; k++) {
        cv_file file;
        CHECK(cv_file_read(NULL, files[k], 4u << 20, true, &file));
        const unsigned char *data = (const unsigned char *)file.data;
        cv_sfnt_metrics whole, m;
        CHECK(cv_sfnt_measure(data, file.len, 0, &whole));
        unsigned n = 0, wn = 0;
        CHECK(!whole.cff || cv_cff_glyph_count(whole.cff, whole.cff_len, &wn));
        size_t vouched = 0;
        for (size_t cut = 0; cut < file.len; cut += 97) {
            /* A copy of exactly `cut` bytes, so that ASan sees a read past it. */
            unsigned char *c = malloc(cut ? cut : 1);
            memcpy(c, data, cut);
            if (cv_sfnt_measure(c, cut, 0, &m)) {
                vouched++;
                CHECK(m.upem == whole.upem && m.ascender == whole.ascender &&
                      !strcmp(m.psname, whole.psname));
            }
            free(c);
        }
        CHECK(vouched <= 1);
        if (whole.cff) {
            /* Each byte of the CFF table's first kilobyte set to each of a
             * few values: a count read or refused, never a read outside. */
            size_t len = whole.cff_len < 1024 ? whole.cff_len : 1024;
            unsigned char *c = malloc(whole.cff_len);
            for (size_t i = 0; i < len; i++)
                for (unsigned v = 0; v < 256; v += 51) {
                    memcpy(c, whole.cff, whole.cff_len);
                    c[i] = (unsigned char)v;
                    if (cv_cff_glyph_count(c, whole.cff_len, &n))
                        CHECK(n <= 65535);
                }
            free(c);
            CHECK(wn > 1000);
        }
        free(file.data);
    }
}

int main(void)
{
    if (FT_Init_FreeType(&lib))
        return 1;
    RUN(every_face_in_fonts_as_freetype_reads_it);
    RUN(the_name_record_freetype_takes);
    RUN(weight_slant_and_width);
    RUN(what_it_does_not_vouch_for);
    RUN(noto_cjk_measured_as_freetype_reads_it);
    RUN(what_it_does_not_measure);
    RUN(cut_and_damaged);
    FT_Done_FreeType(lib);
    return harness_report("sfnt");
}
