/* Unit tests for font.c's shaping cache: whatever the text, cv_face_shape()
 * gives exactly what one HarfBuzz call on the whole run gives (the way
 * cvpdf shaped before runs were cut into cached words), cold or warm, in
 * any order -- on ordinary text and on text built to trip the cutting
 * (combining marks after a space, dotted i before a mark, fractions,
 * default-ignorable characters, runs of spaces, CJK and full-width forms). */
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H
#include <hb.h>

#include "font.h"

static cv_fontset *fs;
static int faces[8];
static size_t nfaces;

/* cv_face_shape() as it was: one HarfBuzz buffer for the whole run. */
static void reference(const cv_face *f, const uint32_t *cps, size_t n, int16_t *w,
                      int16_t *kern)
{
    for (size_t i = 0; i < n; i++) {
        FT_Fixed adv = 0;
        unsigned g = FT_Get_Char_Index((FT_Face)f->ft, cps[i]);
        w[i] = FT_Get_Advance((FT_Face)f->ft, g, FT_LOAD_NO_SCALE, &adv)
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
            FT_Get_Advance((FT_Face)f->ft, info[i].codepoint, FT_LOAD_NO_SCALE, &nominal);
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
        cps[i] = cv_face_glyph(f, in[i]) ? in[i] : 'x';
    compared++;
    int16_t w[512], k[512], rw[512], rk[512];
    cv_face_shape(f, cps, n, w, k);
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

int main(void)
{
    cv_error err;
    cv_error_init(&err);
    const char *dirs[] = {"fonts", NULL};
    fs = cv_fontset_new(dirs, &err);
    if (!fs)
        return 1;
    static const struct { const char *family; bool bold, italic; } want[] = {
        {"Lato", false, false}, {"Lato", true, false}, {"Lato", false, true},
        {"Lato", true, true}, {"WenQuanYi Micro Hei", false, false},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        bool synth;
        int id = cv_fontset_find(fs, want[i].family, want[i].bold, want[i].italic, &synth,
                                 (cv_pos){0}, &err);
        if (id >= 0)
            faces[nfaces++] = id;
    }
    CHECK(nfaces == 5);
    RUN(same_as_one_harfbuzz_call);
    RUN(same_on_random_text);
    RUN(same_for_recombined_words);
    cv_fontset_free(fs);
    return harness_report("shape");
}
