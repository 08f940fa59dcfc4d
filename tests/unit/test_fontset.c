/* Unit tests for fontset.c: finding faces by family and style in fonts/,
 * style fallback, opening files by path, and refusing what is not a font.
 * Only the fonts in fonts/ are used; the one lookup that reaches fontconfig
 * asks for a family no machine has, and must fail. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errcheck.h"
#include "fontset.h"
#include "ftref.h"

static cv_fontset *fs;

static const cv_pos at = {"layout.yaml", 3, 9};

static int find(const char *family, bool bold, bool italic, bool *synth)
{
    cv_error_init(&E);
    return cv_fontset_find(fs, family, bold, italic, synth, at, &E);
}

TEST(lato_styles_from_fonts_dir)
{
    static const struct {
        bool bold, italic;
        const char *file, *psname;
    } want[] = {
        {false, false, "fonts/Lato-Regular.ttf", "Lato-Regular"},
        {true, false, "fonts/Lato-Bold.ttf", "Lato-Bold"},
        {false, true, "fonts/Lato-Italic.ttf", "Lato-Italic"},
        {true, true, "fonts/Lato-BoldItalic.ttf", "Lato-BoldItalic"},
    };
    int ids[4];
    for (int i = 0; i < 4; i++) {
        bool synth = true;
        ids[i] = find("Lato", want[i].bold, want[i].italic, &synth);
        CHECK(ids[i] >= 0 && !E.set && !synth);
        const cv_face *f = cv_fontset_face(fs, ids[i]);
        CHECK(f != NULL);
        if (!f)
            continue;
        CHECK_STR(f->path, want[i].file);
        CHECK_STR(f->family, "Lato");
        CHECK_STR(f->psname, want[i].psname);
        CHECK(f->bold == want[i].bold && f->italic == want[i].italic);
        CHECK(f->index == 0 && f->upem == 2000);
        CHECK(f->ascender > 0 && f->descender < 0 && f->cap_height > f->x_height);
        CHECK(f->hb && f->hb_face && f->data && f->size > 12 && f->nglyphs > 0);
    }
    CHECK(ids[0] != ids[1] && ids[1] != ids[2] && ids[2] != ids[3] && ids[0] != ids[3]);
    /* Found again, any case: the same face, not opened twice. */
    size_t n = cv_fontset_count(fs);
    bool synth;
    CHECK(find("lato", true, false, &synth) == ids[1]);
    CHECK(find("LATO", false, false, &synth) == ids[0]);
    CHECK(cv_fontset_count(fs) == n);
}

TEST(wenquanyi_face)
{
    bool synth = true;
    int id = find("WenQuanYi Micro Hei", false, false, &synth);
    CHECK(id >= 0 && !E.set && !synth);
    const cv_face *f = cv_fontset_face(fs, id);
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK_STR(f->path, "fonts/wqy-microhei.ttc");
    CHECK_STR(f->family, "WenQuanYi Micro Hei");
    CHECK(f->index == 0 && !f->bold && !f->italic);
    CHECK(cv_face_glyph(f, 0x4E2D) != 0);        /* 中 */
    CHECK(cv_face_glyph(f, 'A') != 0);
    /* The other face of the collection, opened by path and index. */
    cv_error_init(&E);
    int mono = cv_fontset_open_file(fs, "fonts/wqy-microhei.ttc", 1, at, &E);
    CHECK(mono >= 0 && mono != id && !E.set);
    if (mono >= 0)
        CHECK_STR(cv_fontset_face(fs, mono)->family, "WenQuanYi Micro Hei Mono");
    CHECK(cv_fontset_open_file(fs, "fonts/wqy-microhei.ttc", 0, at, &E) == id);
}

/* A family without bold or italic gives its regular face; bold is then
 * to be synthesised, italic is not. */
TEST(style_fallback_sets_synth_bold)
{
    bool synth = false;
    int regular = find("WenQuanYi Micro Hei", false, false, &synth);
    CHECK(regular >= 0 && !synth);
    synth = false;
    CHECK(find("WenQuanYi Micro Hei", true, false, &synth) == regular && synth && !E.set);
    synth = true;
    CHECK(find("WenQuanYi Micro Hei", false, true, &synth) == regular && !synth);
    synth = false;
    CHECK(find("WenQuanYi Micro Hei", true, true, &synth) == regular && synth);
}

TEST(missing_family_is_an_error_with_position)
{
    bool synth;
    size_t n = cv_fontset_count(fs);
    CHECK(find("No Such Family Cvpdf Test", false, false, &synth) == -1);
    CHECK(E.set);
    CHECK(E.pos.file && !strcmp(E.pos.file, "layout.yaml"));
    CHECK_STR(errstr(), "3:9: no font of family 'No Such Family Cvpdf Test' in "
                        "fonts/ or through fontconfig");
    CHECK(cv_fontset_count(fs) == n);
}

TEST(non_fonts_are_refused)
{
    size_t n = cv_fontset_count(fs);
    cv_error_init(&E);
    CHECK(cv_fontset_open_file(fs, "fonts/README.md", 0, at, &E) == -1);
    CHECK(E.set && E.pos.line == 3 && has(E.msg, "is not a font FreeType can read"));
    cv_error_init(&E);
    CHECK(cv_fontset_open_file(fs, "fonts", 0, at, &E) == -1);
    CHECK(E.set && has(E.msg, "cannot open font 'fonts'"));
    cv_error_init(&E);
    CHECK(cv_fontset_open_file(fs, "fonts/no-such-file.ttf", 0, at, &E) == -1);
    CHECK(E.set && has(E.msg, "cannot open font"));
    /* A face index the collection does not have. */
    cv_error_init(&E);
    CHECK(cv_fontset_open_file(fs, "fonts/Lato-Regular.ttf", 5, at, &E) == -1);
    CHECK(E.set && has(E.msg, "is not a font FreeType can read"));
    CHECK(cv_fontset_count(fs) == n);
}

/* In a font directory, a .ttf that is not a font is skipped with a warning,
 * and one that is not a regular file (a FIFO would block) silently. */
TEST(font_dir_skips_what_is_not_a_font)
{
    char dir[] = "/tmp/cvpdf-fontset-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char bogus[64], fifo[64], sub[64];
    snprintf(bogus, sizeof bogus, "%s/bogus.ttf", dir);
    snprintf(fifo, sizeof fifo, "%s/pipe.ttf", dir);
    snprintf(sub, sizeof sub, "%s/dir.ttc", dir);
    FILE *f = fopen(bogus, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("this is not a font, just some text long enough\n", f);
        fclose(f);
    }
    CHECK(mkfifo(fifo, 0600) == 0);
    CHECK(mkdir(sub, 0700) == 0);

    cv_error_init(&E);
    E.quiet = true;
    const char *dirs[] = {"no/such/dir", dir, NULL};
    cv_fontset *other = cv_fontset_new(dirs, &E);
    CHECK(other != NULL && !E.set && E.nwarnings == 1);
    CHECK(other && cv_fontset_count(other) == 0);
    cv_fontset_free(other);

    unlink(bogus);
    unlink(fifo);
    rmdir(sub);
    rmdir(dir);
}

TEST(cff_collection_found_lazily)
{
    /* Noto Sans CJK through fontconfig: a face of a .ttc collection with
     * CFF outlines, its real bold, found now and opened on first use. */
    cv_error_init(&E);
    bool synth = true;
    size_t before = cv_fontset_count(fs);
    int bold = cv_fontset_find_lazy(fs, "Noto Sans CJK SC", true, false, &synth, at, &E);
    CHECK(bold >= 0 && !synth && !E.set);
    if (bold < 0)
        return;
    CHECK(cv_fontset_count(fs) == before + 1);
    CHECK_STR(cv_fontset_family(fs, bold), "Noto Sans CJK SC");
    CHECK(cv_fontset_path(fs, bold) && strstr(cv_fontset_path(fs, bold), ".ttc"));
    /* The italic asks for the same face: found once. */
    CHECK(cv_fontset_find_lazy(fs, "Noto Sans CJK SC", true, true, &synth, at, &E) == bold);
    const cv_face *f = cv_fontset_face(fs, bold);
    CHECK(f && f->cff && f->bold && f->index > 0 && f->upem == 1000);
    CHECK(f && cv_face_glyph(f, 0x4E2D) != 0);
    /* Found eagerly afterwards: the same face. */
    CHECK(find("Noto Sans CJK SC", true, false, &synth) == bold);
}

TEST(normal_width_before_condensed)
{
    /* fontconfig lists DejaVu Serif Condensed under "DejaVu Serif" too
     * (fonts-dejavu-extra): each style is the normal-width face. */
    cv_error_init(&E);
    bool synth = true;
    for (int st = 0; st < 4; st++) {
        int id = find("DejaVu Serif", st & 1, st & 2, &synth);
        const char *p = cv_fontset_path(fs, id);
        CHECK(id >= 0 && !synth && p && !strstr(p, "Condensed"));
        if (p && strstr(p, "Condensed"))
            fprintf(stderr, "  style %d: %s\n", st, p);
    }
}

TEST(web_fonts_are_not_chosen)
{
    /* fonts-fork-awesome installs forkawesome-webfont.ttf, .woff and
     * .woff2, all listed by fontconfig as TrueType: the .ttf is the face,
     * and a WOFF file opened by its name is an error (HarfBuzz cannot
     * subset compressed tables; the PDF's font would be empty). */
    cv_error_init(&E);
    bool synth = true;
    int id = find("forkawesome", false, false, &synth);
    const char *p = cv_fontset_path(fs, id);
    CHECK(id >= 0 && p && strstr(p, ".ttf") && !strstr(p, ".woff"));
    const cv_face *f = cv_fontset_face(fs, id);
    CHECK(f && cv_face_glyph(f, 0xF09B) != 0);
    static const char woff[] = "/usr/share/fonts/woff/fork-awesome/forkawesome-webfont.woff";
    if (access(woff, R_OK) == 0) {
        cv_error_init(&E);
        E.quiet = true;
        CHECK(cv_fontset_open_file(fs, woff, 0, at, &E) < 0);
        CHECK(E.set && strstr(E.msg, "WOFF web font"));
    }
}

TEST(reading_a_face)
{
    bool synth;
    const cv_face *f = cv_fontset_face(fs, find("Lato", false, false, &synth));
    CHECK(f != NULL);
    if (!f)
        return;
    unsigned a = cv_face_glyph(f, 'A');
    CHECK(a != 0 && cv_face_glyph(f, 0x4E2D) == 0 && cv_face_glyph(f, 0x10FFFF) == 0);
    long units = cv_face_advance_units(f, a);
    CHECK(units > 0);
    CHECK(cv_face_advance(f, a) == (int)(units * 1000 / f->upem));
    CHECK(cv_face_advance_units(f, 1000000) == 0 && cv_face_advance(f, 1000000) == 0);
    CHECK(cv_fontset_face(fs, -1) == NULL);
    CHECK(cv_fontset_face(fs, (int)cv_fontset_count(fs)) == NULL);
}

/* A second opening of a face: an id of its own, the same file and glyphs,
 * made once, never found again by its path. */
TEST(second_opening)
{
    bool synth;
    int id = find("Lato", false, false, &synth);
    CHECK(id >= 0);
    int two = cv_fontset_second(fs, id);
    CHECK(two >= 0 && two != id);
    CHECK(cv_fontset_second(fs, id) == two);
    CHECK(cv_fontset_second(fs, two) == -1);       /* no second of a second */
    CHECK(cv_fontset_second(fs, -1) == -1 && cv_fontset_second(fs, 99999) == -1);
    const cv_face *a = cv_fontset_face(fs, id), *b = cv_fontset_face(fs, two);
    CHECK(a && b && !strcmp(a->path, b->path) && b->is_second && !a->is_second);
    CHECK(cv_face_glyph(a, 'Q') == cv_face_glyph(b, 'Q') && cv_face_glyph(a, 'Q') != 0);
    cv_error_init(&E);
    CHECK(cv_fontset_open_file(fs, a->path, a->index, at, &E) == id);
}

/* A face its tables' reader does not vouch for (sfnt.h: here a PostScript
 * name outside ASCII) is read through FreeType, to the same metrics. */
TEST(read_through_freetype_alike)
{
    FILE *in = fopen("fonts/Lato-Bold.ttf", "rb");
    CHECK(in != NULL);
    if (!in)
        return;
    static unsigned char buf[4 << 20];
    size_t n = fread(buf, 1, sizeof buf, in);
    fclose(in);
    /* Every name record's first character made U+00E9. */
    unsigned char *nm = NULL;
    for (unsigned i = 0, nt = (unsigned)(buf[4] << 8 | buf[5]); i < nt; i++)
        if (!memcmp(buf + 12 + 16 * i, "name", 4)) {
            const unsigned char *e = buf + 12 + 16 * i + 8;
            nm = buf + ((size_t)e[0] << 24 | (size_t)e[1] << 16 | (size_t)e[2] << 8 | e[3]);
        }
    CHECK(nm != NULL);
    if (!nm)
        return;
    unsigned count = (unsigned)(nm[2] << 8 | nm[3]), storage = (unsigned)(nm[4] << 8 | nm[5]);
    for (unsigned i = 0; i < count; i++) {
        unsigned char *r = nm + 6 + 12 * i;
        if ((r[0] << 8 | r[1]) == 3 && (r[6] << 8 | r[7]) == 6) {
            unsigned char *s = nm + storage + (r[10] << 8 | r[11]);
            s[0] = 0, s[1] = 0xE9;
        }
    }
    char dir[] = "/tmp/cvpdf-fontset-XXXXXX", path[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/odd.ttf", dir);
    FILE *out = fopen(path, "wb");
    CHECK(out && fwrite(buf, 1, n, out) == n);
    if (out)
        fclose(out);
    bool synth;
    const cv_face *a = cv_fontset_face(fs, find("Lato", true, false, &synth));
    cv_error_init(&E);
    int id = cv_fontset_open_file(fs, path, 0, at, &E);
    const cv_face *b = cv_fontset_face(fs, id);
    CHECK(a && b && !E.set);
    if (a && b) {
        const char *ps = FT_Get_Postscript_Name(ftref(b));
        CHECK(ps && !strcmp(b->psname, ps));
        CHECK(!strcmp(a->family, b->family) && a->bold == b->bold && a->italic == b->italic &&
              a->cff == b->cff && a->upem == b->upem && a->nglyphs == b->nglyphs &&
              a->ascender == b->ascender && a->descender == b->descender &&
              a->cap_height == b->cap_height && a->x_height == b->x_height &&
              !memcmp(a->bbox, b->bbox, sizeof a->bbox) && a->weight == b->weight &&
              a->italic_angle == b->italic_angle && a->fixed_pitch == b->fixed_pitch);
        CHECK(cv_face_glyph(a, 'W') == cv_face_glyph(b, 'W') &&
              cv_face_advance(a, cv_face_glyph(a, 'W')) ==
                  cv_face_advance(b, cv_face_glyph(b, 'W')));
    }
    unlink(path);
    rmdir(dir);
}

/* A copy of fonts/`from` in `dir` as `name`: its first `keep` bytes (all
 * when 0), with the table tag `tag` renamed to `as` (when given). */
static void damaged_copy(const char *dir, const char *name, const char *from, size_t keep,
                         const char *tag, const char *as, char *out, size_t outsize)
{
    snprintf(out, outsize, "%s/%s", dir, name);
    char src[256];
    snprintf(src, sizeof src, "fonts/%s", from);
    FILE *in = fopen(src, "rb");
    CHECK(in != NULL);
    if (!in)
        return;
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, in);
    fclose(in);
    if (keep && keep < n)
        n = keep;
    if (tag) {
        /* The table directory: 12 bytes, then 16 a table, its tag first. */
        unsigned ntables = (unsigned)buf[4] << 8 | buf[5];
        bool renamed = false;
        for (unsigned i = 0; i < ntables; i++)
            if (!memcmp(buf + 12 + 16 * i, tag, 4)) {
                memcpy(buf + 12 + 16 * i, as, 4);
                renamed = true;
            }
        CHECK(renamed);
    }
    FILE *o = fopen(out, "wb");
    CHECK(o != NULL);
    if (o) {
        CHECK(fwrite(buf, 1, n, o) == n);
        fclose(o);
    }
}

/* A font file cut short, or one whose 'cmap' is gone, is refused by name
 * with what is wrong, not taken for another format, nor embedded with
 * every glyph .notdef (FreeType makes a CFF face a Unicode map from its
 * glyph names, which HarfBuzz, shaping, does not have). */
TEST(damaged_font_files_are_refused)
{
    char dir[] = "/tmp/cvpdf-fontset-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char cut[96], nocmap[96], nocmap_ttf[96];
    damaged_copy(dir, "cut.ttf", "Lato-Regular.ttf", 50000, NULL, NULL, cut, sizeof cut);
    damaged_copy(dir, "nocmap.otf", "XCharter-Roman.otf", 0, "cmap", "cmaq", nocmap,
                 sizeof nocmap);
    damaged_copy(dir, "nocmap.ttf", "Lato-Regular.ttf", 0, "cmap", "cmaq", nocmap_ttf,
                 sizeof nocmap_ttf);
    size_t n = cv_fontset_count(fs);
    cv_error_init(&E);
    CHECK(cv_fontset_open_file(fs, cut, 0, at, &E) == -1);
    CHECK(E.set && E.pos.line == 3 && has(E.msg, "is cut short") &&
          !has(E.msg, "no outlines"));
    cv_error_init(&E);
    CHECK(cv_fontset_open_file(fs, nocmap, 0, at, &E) == -1);
    CHECK(E.set && E.pos.line == 3 && has(E.msg, "has no Unicode character map"));
    cv_error_init(&E);
    CHECK(cv_fontset_open_file(fs, nocmap_ttf, 0, at, &E) == -1);
    CHECK(E.set && has(E.msg, "has no Unicode character map"));
    CHECK(cv_fontset_count(fs) == n);
    unlink(cut);
    unlink(nocmap);
    unlink(nocmap_ttf);
    rmdir(dir);
}

/* In a font directory, a face that is damaged where the table reader does
 * not vouch for it (cut short: FreeType identifies the file but cannot open
 * its face, or opens it without a name) is skipped with a warning, never
 * silently: a family that lost its regular face would be set in its
 * italic. */
TEST(font_dir_warns_of_a_damaged_face)
{
    char dir[] = "/tmp/cvpdf-fontset-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char a[96], b[96];
    damaged_copy(dir, "a.ttf", "Lato-Regular.ttf", 1000, NULL, NULL, a, sizeof a);
    damaged_copy(dir, "b.ttf", "Lato-Regular.ttf", 50000, NULL, NULL, b, sizeof b);
    cv_error_init(&E);
    E.quiet = true;
    const char *dirs[] = {dir, NULL};
    cv_fontset *other = cv_fontset_new(dirs, &E);
    CHECK(other != NULL && !E.set && E.nwarnings == 2);
    bool synth;
    cv_error_init(&E);
    E.quiet = true;
    CHECK(other && cv_fontset_find(other, "Lato", false, false, &synth, at, &E) >= 0);
    const cv_face *f = other ? cv_fontset_face(other, cv_fontset_find(other, "Lato", false,
                                                                      false, &synth, at, &E))
                             : NULL;
    /* Lato, if found at all, is not one of the damaged copies. */
    CHECK(!f || strncmp(f->path, dir, strlen(dir)) != 0);
    cv_fontset_free(other);
    unlink(a);
    unlink(b);
    rmdir(dir);
}

int main(void)
{
    cv_error_init(&E);
    const char *dirs[] = {"fonts", NULL};
    fs = cv_fontset_new(dirs, &E);
    if (!fs)
        return 1;
    CHECK(!E.set && E.nwarnings == 0 && cv_fontset_count(fs) == 0);
    RUN(lato_styles_from_fonts_dir);
    RUN(wenquanyi_face);
    RUN(style_fallback_sets_synth_bold);
    RUN(missing_family_is_an_error_with_position);
    RUN(second_opening);
    RUN(read_through_freetype_alike);
    RUN(non_fonts_are_refused);
    RUN(font_dir_skips_what_is_not_a_font);
    RUN(damaged_font_files_are_refused);
    RUN(font_dir_warns_of_a_damaged_face);
    RUN(reading_a_face);
    RUN(cff_collection_found_lazily);
    RUN(normal_width_before_condensed);
    RUN(web_fonts_are_not_chosen);
    cv_fontset_free(fs);
    return harness_report("fontset");
}
