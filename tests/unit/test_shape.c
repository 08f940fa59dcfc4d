/* Unit tests for shape.c's shaping cache: whatever the text, cv_shape_run()
 * gives exactly what one HarfBuzz call on the whole run gives (the way
 * cvpdf shaped before runs were cut into cached words), cold or warm, in
 * any order -- on ordinary text and on text built to trip the cutting
 * (combining marks after a space, dotted i before a mark, fractions,
 * default-ignorable characters, runs of spaces, CJK and full-width forms),
 * in every shipped family (where most words are set from kerning pairs
 * read off GPOS rather than by HarfBuzz).
 * And the shaper as an object: its glyph and advance caches agree with the
 * face, an id that names no face is harmless, and two shapers over one
 * fontset share nothing. */
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H
#include <hb.h>

#include "fontset.h"
#include "shape.h"
#include "ftref.h"

static cv_fontset *fs;
static cv_shaper *sh;
static int faces[16];
static size_t nfaces;

/* cv_shape_run() as it was: one HarfBuzz buffer for the whole run. */
static void reference(const cv_face *f, const uint32_t *cps, size_t n, int16_t *w,
                      int16_t *kern)
{
    for (size_t i = 0; i < n; i++) {
        FT_Fixed adv = 0;
        unsigned g = FT_Get_Char_Index(ftref(f), cps[i]);
        w[i] = FT_Get_Advance(ftref(f), g, FT_LOAD_NO_SCALE, &adv)
                   ? 0
                   : (int16_t)((long)adv * 1000 / f->upem);
        kern[i] = 0;
    }
    if (n < 2)
        return;
    hb_buffer_t *buf = hb_buffer_create();
    hb_buffer_add_codepoints(buf, cps, (int)n, 0, (int)n);
    hb_buffer_guess_segment_properties(buf);
    hb_buffer_set_direction(buf, HB_DIRECTION_LTR);
    static const hb_feature_t feats[] = {
        {HB_TAG('l', 'i', 'g', 'a'), 0, 0, ~0u},
        {HB_TAG('c', 'l', 'i', 'g'), 0, 0, ~0u},
        {HB_TAG('c', 'a', 'l', 't'), 0, 0, ~0u},
        {HB_TAG('d', 'l', 'i', 'g'), 0, 0, ~0u},
    };
    hb_shape(f->hb, buf, feats, sizeof feats / sizeof *feats);
    unsigned len;
    hb_glyph_info_t *info = hb_buffer_get_glyph_infos(buf, &len);
    hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(buf, NULL);
    if (len == n) {
        bool ok = true;
        for (unsigned i = 0; i < len && ok; i++)
            ok = info[i].cluster == i;
        for (unsigned i = 0; ok && i < len; i++) {
            FT_Fixed nominal = 0;
            FT_Get_Advance(ftref(f), info[i].codepoint, FT_LOAD_NO_SCALE, &nominal);
            long delta = pos[i].x_advance - (long)nominal;
            if (delta)
                kern[i] = (int16_t)lround(delta * 1000.0 / f->upem);
        }
    }
    hb_buffer_destroy(buf);
}

static size_t decode(const char *s, uint32_t *cps)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        uint32_t c = *p++;
        if (c >= 0xE0) {
            c = (c & 0x0F) << 12 | (uint32_t)(p[0] & 0x3F) << 6 | (p[1] & 0x3F);
            p += 2;
        } else if (c >= 0xC0) {
            c = (c & 0x1F) << 6 | (p[0] & 0x3F);
            p += 1;
        }
        cps[n++] = c;
    }
    return n;
}

static int mismatches, compared;

/* Shape `in` in face `id` both ways; count (and show a few) differences.
 * Characters the face lacks become 'x' (itemising never gives a run such
 * characters). */
static void compare(int id, const uint32_t *in, size_t n)
{
    const cv_face *f = cv_fontset_face(fs, id);
    uint32_t cps[512];
    for (size_t i = 0; i < n; i++)
        cps[i] = cv_shape_glyph(sh, id, in[i]) ? in[i] : 'x';
    compared++;
    int16_t w[512], k[512], rw[512], rk[512];
    cv_shape_run(sh, id, cps, n, w, k);
    reference(f, cps, n, rw, rk);
    for (size_t i = 0; i < n; i++)
        if (w[i] != rw[i] || k[i] != rk[i]) {
            if (mismatches++ < 10) {
                fprintf(stderr, "%s: at %zu of", f->psname, i);
                for (size_t j = 0; j < n; j++)
                    fprintf(stderr, " %04X", cps[j]);
                fprintf(stderr, ": %d%+d, want %d%+d\n", w[i], k[i], rw[i], rk[i]);
            }
            return;
        }
}

static void compare_str(int id, const char *s)
{
    uint32_t cps[512];
    compare(id, cps, decode(s, cps));
}

static const char *const samples[] = {
    "Jiarui Fang", "Beijing, China", "I designed the Transformer inference system",
    "We want To Try AVAST. Yes, \xE2\x80\x9CTAVA\xE2\x80\x9D V. Wall", "  two  spaces   ",
    "a b c d e f g h i j k l m n o p q r s t u v w x y z", "Jul 2019 \xE2\x80\x93 Feb 2022",
    "1\xE2\x81\x84" "2 cup and 3\xE2\x81\x84" "4 of it", "i\xCC\x87 j\xCC\x81 i \xCC\x81x",
    "e\xCC\x81t\xC3\xA9 caf\xC3\xA9 na\xC3\xAFve", "x \xE2\x80\x8D" "y \xE2\x80\x8C" "z \xCC\x88" "a",
    "\xE6\x96\xB9\xE4\xBD\xB3\xE7\x91\x9E 2019\xE5\xB9\xB4" "7\xE6\x9C\x88 \xEF\xBC\x88\xE5\x8C\x97\xE4\xBA\xAC\xEF\xBC\x89",
    "T. Yo, Wa. P. Fa, LT AV To", "\xCB\xA5\xCB\xA9 \xCB\xA6 tone", "\xC2\xA8 \xC2\xB4 ` ^ ~",
    "http://example.com/a-b_c@d.e", "f i f l ffi fl", "Va\xC2\xA0To A\xC2\xA0V",
};

TEST(same_as_one_harfbuzz_call)
{
    mismatches = 0;
    for (int round = 0; round < 2; round++)          /* cold, then warm */
        for (size_t f = 0; f < nfaces; f++)
            for (size_t i = 0; i < sizeof samples / sizeof *samples; i++)
                compare_str(faces[f], samples[i]);
    CHECK(mismatches == 0);
}

/* Random runs of words from a pool of awkward characters. */
TEST(same_on_random_text)
{
    static const uint32_t pool[] = {
        'a', 'e', 'i', 'j', 'o', 'T', 'V', 'A', 'W', 'Y', 'P', 'L', 'f', 'l', 'y', 'r',
        '.', ',', '-', '/', '1', '2', '4', '(', ')', '\'', '"', ' ', ' ', ' ', ' ',
        0x2044, 0x0301, 0x0307, 0x0308, 0x0327, 0x00A0, 0x200D, 0x200C, 0x2060, 0x00E9,
        0x0131, 0x2013, 0x2014, 0x201C, 0x201D, 0x2019, 0x02E5, 0x02E9, 0x00A8, 0x00B4,
        0x4E2D, 0x6587, 0x3002, 0xFF0C, 0xFF08, 0xFF09, 0x300C, 0x3001, 0x30A2, 0xFF9E,
    };
    const size_t npool = sizeof pool / sizeof *pool;
    uint32_t cps[64];
    srand(12345);
    mismatches = compared = 0;
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = 2 + (size_t)rand() % 40;
        /* Mostly letters and spaces, with the odd awkward one. */
        for (size_t i = 0; i < n; i++)
            cps[i] = rand() % 4 ? pool[(size_t)rand() % 20 + (rand() % 2 ? 0 : 7)]
                                : pool[(size_t)rand() % npool];
        compare(faces[(size_t)iter % nfaces], cps, n);
    }
    CHECK(mismatches == 0);
    CHECK(compared == 20000);
}

/* Words met again in other company: the cut and the kerning across it. */
TEST(same_for_recombined_words)
{
    static const char *const words[] = {"To", "AV", "Wall", "yes", "\xE2\x80\x9CTAVA\xE2\x80\x9D",
                                        "Vo.", "(Ya)", "1\xE2\x81\x84" "2", "i\xCC\x87",
                                        "\xE6\x96\xB9", "T", "A", "\xC2\xA0"};
    const size_t nw = sizeof words / sizeof *words;
    char s[256];
    mismatches = 0;
    for (size_t a = 0; a < nw; a++)
        for (size_t b = 0; b < nw; b++)
            for (size_t c = 0; c < nw; c += 3) {
                snprintf(s, sizeof s, "%s %s  %s %s", words[a], words[b], words[c], words[a]);
                for (size_t f = 0; f < nfaces; f++)
                    compare_str(faces[f], s);
            }
    CHECK(mismatches == 0);
}

/* The glyph and advance caches answer what the face itself answers, for
 * BMP and astral code points, glyph ids past the font's end included. */
TEST(caches_agree_with_the_face)
{
    static const uint32_t cps[] = {' ', 'A', 'V', 'a', 0xE9, 0x2014, 0x4E2D, 0x3002,
                                   0xFF0C, 0xFFFD, 0x1F600, 0x20000, 0x10FFFF, 0};
    int bad = 0;
    for (int round = 0; round < 2; round++)          /* cold, then warm */
        for (size_t f = 0; f < nfaces; f++) {
            const cv_face *face = cv_fontset_face(fs, faces[f]);
            for (size_t i = 0; i < sizeof cps / sizeof *cps; i++)
                bad += cv_shape_glyph(sh, faces[f], cps[i]) != cv_face_glyph(face, cps[i]);
            for (unsigned g = 0; g < 70000; g += 97)
                bad += cv_shape_advance(sh, faces[f], g) != cv_face_advance(face, g);
        }
    CHECK(bad == 0);
    /* Lato has Latin and no Han; WenQuanYi has both. */
    CHECK(cv_shape_glyph(sh, faces[0], 'A') != 0);
    CHECK(cv_shape_glyph(sh, faces[0], 0x4E2D) == 0);
    CHECK(cv_shape_glyph(sh, faces[4], 0x4E2D) != 0);
    CHECK(cv_shape_advance(sh, faces[0], cv_shape_glyph(sh, faces[0], ' ')) > 0);
}

/* An id that names no face has no glyphs and measures nothing. */
TEST(no_such_face)
{
    int ids[] = {-1, (int)cv_fontset_count(fs), 1000};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        CHECK(cv_shape_glyph(sh, ids[i], 'A') == 0);
        CHECK(cv_shape_advance(sh, ids[i], 1) == 0);
        uint32_t cps[] = {'A', 'V'};
        int16_t w[2] = {7, 7}, k[2] = {7, 7};
        cv_shape_run(sh, ids[i], cps, 2, w, k);
        CHECK(w[0] == 0 && w[1] == 0 && k[0] == 0 && k[1] == 0);
    }
}

/* The caches are the shaper's, not the faces': a second shaper over the same
 * fontset starts cold and answers the same, and a face opened after a
 * shaper was made is picked up on first use. */
TEST(shapers_are_independent)
{
    cv_error err;
    cv_error_init(&err);
    cv_shaper *other = cv_shaper_new(fs);
    mismatches = 0;
    uint32_t cps[64];
    size_t n = decode("We want To Try AVAST. Yes, Wall", cps);
    int16_t w1[64], k1[64], w2[64], k2[64];
    for (size_t f = 0; f < nfaces; f++) {
        cv_shape_run(sh, faces[f], cps, n, w1, k1);
        cv_shape_run(other, faces[f], cps, n, w2, k2);
        CHECK(!memcmp(w1, w2, n * sizeof *w1) && !memcmp(k1, k2, n * sizeof *k1));
    }
    int id = cv_fontset_open_file(fs, "fonts/wqy-microhei.ttc", 1, (cv_pos){0}, &err);
    CHECK(id >= 0 && !err.set);
    if (id >= 0) {
        CHECK(cv_shape_glyph(other, id, 0x4E2D) ==
              cv_face_glyph(cv_fontset_face(fs, id), 0x4E2D));
        compare_str(id, "\xE6\x96\xB9\xE4\xBD\xB3 Wall AV");
    }
    CHECK(mismatches == 0);
    cv_shaper_free(other);
}

TEST(complex_clusters)
{
    cv_error err;
    cv_error_init(&err);
    bool synth;
    int deva = cv_fontset_find(fs, "Noto Sans Devanagari", false, false, &synth, (cv_pos){0},
                               &err);
    if (deva < 0) {
        CHECK(!"Noto Sans Devanagari is installed (fonts-noto-core)");
        return;
    }
    /* प्रिया: the i-matra drawn before the conjunct pra, then ya, aa:
     * four glyphs for six characters, the text in order. */
    const uint32_t s[] = {0x092A, 0x094D, 0x0930, 0x093F, 0x092F, 0x093E};
    uint32_t out[6];
    CHECK(cv_shape_complex(sh, deva, s, 6, out));
    size_t drawn = 0;
    char text[64] = "";
    for (size_t i = 0; i < 6; i++)
        if (out[i] != 0xFEFF) {
            drawn++;
            CHECK(out[i] >= CV_CLUSTER_BASE);
            CHECK(cv_shape_glyph(sh, deva, out[i]) != 0);
            CHECK(cv_shape_glyph(sh, faces[0], out[i]) == 0);     /* another face's */
            strcat(text, cv_shape_cluster_text(sh, out[i]));
        }
    CHECK(drawn == 4);
    CHECK_STR(text, "प्रिया");
    /* The first glyph is an i-matra (sized to what follows), not pa. */
    CHECK(cv_shape_glyph(sh, deva, out[0]) != cv_shape_glyph(sh, deva, 0x092A));
    CHECK(cv_shape_advance(sh, deva, cv_shape_glyph(sh, deva, out[0])) <
          cv_shape_advance(sh, deva, cv_shape_glyph(sh, deva, 0x092A)));
    /* Clusters are made once; their widths are the glyphs'. */
    uint32_t again[6];
    CHECK(cv_shape_complex(sh, deva, s, 6, again) && !memcmp(out, again, sizeof out));
    int16_t w[6], kern[6];
    cv_shape_run(sh, deva, out, 1, w, kern);
    CHECK(w[0] == cv_shape_advance(sh, deva, cv_shape_glyph(sh, deva, out[0])) && kern[0] == 0);
    CHECK(cv_shape_cluster_text(sh, 'a') == NULL);
    CHECK(cv_shape_cluster(sh, deva, 3, "x") == cv_shape_cluster(sh, deva, 3, "x"));
}

/* The text of out[0, n) (cluster code points) in order, each glyph's own. */
static void texts_of(const uint32_t *out, size_t n, char *buf, size_t size)
{
    buf[0] = 0;
    for (size_t i = 0; i < n; i++) {
        const char *t = cv_shape_cluster_text(sh, out[i]);
        if (t && strlen(buf) + strlen(t) < size)
            strcat(buf, t);
    }
}

TEST(arabic_shaped_right_to_left)
{
    cv_error err;
    cv_error_init(&err);
    bool synth;
    int ar = cv_fontset_find(fs, "Noto Sans Arabic", false, false, &synth, (cv_pos){0}, &err);
    if (ar < 0) {
        CHECK(!"Noto Sans Arabic is installed (fonts-noto-core)");
        return;
    }
    /* بيت: beh, yeh, teh take their initial, medial and final forms --
     * glyphs other than the cmap's (isolated) ones, the text in order. */
    const uint32_t bayt[] = {0x0628, 0x064A, 0x062A};
    uint32_t out[16];
    char text[128];
    CHECK(cv_shape_rtl(sh, ar, bayt, 3, 0, 3, "ar", out));
    for (size_t i = 0; i < 3; i++) {
        CHECK(out[i] >= CV_CLUSTER_BASE);
        CHECK(cv_shape_glyph(sh, ar, out[i]) != cv_shape_glyph(sh, ar, bayt[i]));
    }
    texts_of(out, 3, text, sizeof text);
    CHECK_STR(text, "بيت");
    /* A letter alone keeps its cmap glyph. */
    const uint32_t dal[] = {0x062F};
    CHECK(cv_shape_rtl(sh, ar, dal, 1, 0, 1, "ar", out));
    CHECK(cv_shape_glyph(sh, ar, out[0]) == cv_shape_glyph(sh, ar, 0x062F));
    /* لا: one ligature glyph for the lam; the alef is a ghost (the space
     * glyph, no advance) that stands for it: one character a glyph. */
    const uint32_t la[] = {0x0644, 0x0627};
    CHECK(cv_shape_rtl(sh, ar, la, 2, 0, 2, "ar", out));
    CHECK(cv_shape_glyph(sh, ar, out[0]) != cv_shape_glyph(sh, ar, 0x0644));
    CHECK(cv_shape_glyph(sh, ar, out[1]) == cv_shape_glyph(sh, ar, ' '));
    CHECK_STR(cv_shape_cluster_text(sh, out[0]), "ل");
    CHECK_STR(cv_shape_cluster_text(sh, out[1]), "ا");
    int16_t w[16], kern[16];
    cv_shape_run(sh, ar, out, 2, w, kern);
    CHECK(w[1] + kern[1] == 0 && w[0] + kern[0] > 0);
    /* بَ: the fatha is a mark of no advance, placed by GPOS above the
     * beh (an offset up), and named a mark. */
    const uint32_t ba[] = {0x0628, 0x064E};
    CHECK(cv_shape_rtl(sh, ar, ba, 2, 0, 2, "ar", out));
    int dx, dy;
    CHECK(!cv_shape_cluster_offset(sh, out[0], &dx, &dy));
    CHECK(cv_shape_cluster_offset(sh, out[1], &dx, &dy) && dy != 0);
    CHECK(cv_shape_cluster_mark(sh, out[1]) && !cv_shape_cluster_mark(sh, out[0]));
    CHECK(!cv_shape_cluster_mark(sh, 'a'));
    cv_shape_run(sh, ar, out, 2, w, kern);
    CHECK(w[1] + kern[1] == 0);
    texts_of(out, 2, text, sizeof text);
    CHECK_STR(text, "بَ");
    /* Context: كلمة half bold is shaped in two runs; its lam still joins
     * the meem after it, and the meem the lam before it. */
    const uint32_t kalima[] = {0x0643, 0x0644, 0x0645, 0x0629};
    uint32_t alone[4];
    CHECK(cv_shape_rtl(sh, ar, kalima, 2, 0, 2, "ar", alone));          /* كل */
    CHECK(cv_shape_rtl(sh, ar, kalima, 4, 0, 2, "ar", out));            /* كل|مة */
    CHECK(cv_shape_glyph(sh, ar, out[1]) != cv_shape_glyph(sh, ar, alone[1]));
    CHECK(cv_shape_rtl(sh, ar, kalima + 2, 2, 0, 2, "ar", alone));      /* مة */
    CHECK(cv_shape_rtl(sh, ar, kalima, 4, 2, 2, "ar", out));            /* كل|مة */
    CHECK(cv_shape_glyph(sh, ar, out[0]) != cv_shape_glyph(sh, ar, alone[0]));
    texts_of(out, 2, text, sizeof text);
    CHECK_STR(text, "مة");
}

TEST(persian_non_joiner)
{
    cv_error err;
    cv_error_init(&err);
    bool synth;
    int ar = cv_fontset_find(fs, "Noto Sans Arabic", false, false, &synth, (cv_pos){0}, &err);
    if (ar < 0)
        return;
    /* نرم‌افزار: the ZWNJ leaves meem final and alef alone, drawn as a
     * ghost that keeps it in the text; without it meem joins. */
    const uint32_t with[] = {0x0646, 0x0631, 0x0645, 0x200C, 0x0627, 0x0641, 0x0632, 0x0627, 0x0631};
    const uint32_t without[] = {0x0646, 0x0631, 0x0645, 0x0627, 0x0641, 0x0632, 0x0627, 0x0631};
    uint32_t a[16], b[16];
    char text[128];
    CHECK(cv_shape_rtl(sh, ar, with, 9, 0, 9, "fa", a));
    CHECK(cv_shape_rtl(sh, ar, without, 8, 0, 8, "fa", b));
    CHECK(cv_shape_glyph(sh, ar, a[3]) == cv_shape_glyph(sh, ar, ' '));   /* the ZWNJ */
    CHECK(cv_shape_glyph(sh, ar, a[2]) != cv_shape_glyph(sh, ar, b[2]));  /* meem final, medial */
    texts_of(a, 9, text, sizeof text);
    CHECK_STR(text, "نرم\u200cافزار");
    /* Persian letters: yeh, keheh, gaf, peh, tcheh, jeh have glyphs. */
    const uint32_t fa[] = {0x06CC, 0x06A9, 0x06AF, 0x067E, 0x0686, 0x0698};
    for (size_t i = 0; i < 6; i++)
        CHECK(cv_shape_glyph(sh, ar, fa[i]) != 0);
    CHECK(cv_shape_rtl(sh, ar, fa, 6, 0, 6, "fa", a));
    texts_of(a, 6, text, sizeof text);
    CHECK_STR(text, "یکگپچژ");
}

int main(void)
{
    cv_error err;
    cv_error_init(&err);
    const char *dirs[] = {"fonts", NULL};
    fs = cv_fontset_new(dirs, &err);
    if (!fs)
        return 1;
    sh = cv_shaper_new(fs);          /* before any face is open: met on first use */
    static const struct { const char *family; bool bold, italic; } want[] = {
        {"Lato", false, false}, {"Lato", true, false}, {"Lato", false, true},
        {"Lato", true, true}, {"WenQuanYi Micro Hei", false, false},
        /* The other shipped families: words set from kerning pairs read
         * off each one's GPOS (shape.c) must match HarfBuzz too. */
        {"Raleway", false, false}, {"Raleway", true, true}, {"Source Sans 3", false, false},
        {"Source Sans 3", true, false}, {"Ubuntu", false, false}, {"Ubuntu", false, true},
        {"XCharter", false, false}, {"XCharter", true, false},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        bool synth;
        int id = cv_fontset_find(fs, want[i].family, want[i].bold, want[i].italic, &synth,
                                 (cv_pos){0}, &err);
        if (id >= 0)
            faces[nfaces++] = id;
    }
    CHECK(nfaces == 13);
    RUN(same_as_one_harfbuzz_call);
    RUN(same_on_random_text);
    RUN(same_for_recombined_words);
    RUN(caches_agree_with_the_face);
    RUN(no_such_face);
    RUN(shapers_are_independent);
    RUN(complex_clusters);
    RUN(arabic_shaped_right_to_left);
    RUN(persian_non_joiner);
    cv_shaper_free(sh);
    cv_fontset_free(fs);
    return harness_report("shape");
}
