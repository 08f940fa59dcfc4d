/* Unit tests for engine.c: one context with fonts, shaper, patterns,
 * scratch arena and inputs; warming fills the caches; fonts noted as
 * inputs. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "output.h"

TEST(new_holds_everything)
{
    cv_error err;
    cv_error_init(&err);
    const char *dirs[] = {"fonts", NULL};
    cv_engine *eng = cv_engine_new(dirs, &err);
    CHECK(eng && eng->fonts && eng->shaper && eng->hyph && eng->scratch && eng->inputs);
    CHECK(eng && !eng->diag.quiet && !eng->diag.strict && !eng->diag.out);
    cv_engine_free(eng);
    cv_engine_free(NULL);
}

TEST(fonts_are_inputs)
{
    cv_error err;
    cv_error_init(&err);
    const char *dirs[] = {"fonts", NULL};
    cv_engine *eng = cv_engine_new(dirs, &err);
    bool synth;
    int id = cv_fontset_find(eng->fonts, "Lato", true, false, &synth, (cv_pos){0}, &err);
    CHECK(id >= 0);
    /* Before it is noted, a font is still never an output (any font file
     * is refused, output.h); noted, it is the face it is. */
    const char *before = cv_inputs_find(eng->inputs, "fonts/Lato-Bold.ttf");
    CHECK(before && !strcmp(before, "a font file"));
    cv_engine_note_fonts(eng);
    const char *what = cv_inputs_find(eng->inputs, "fonts/Lato-Bold.ttf");
    CHECK(what && !strcmp(what, "a font"));
    CHECK(!cv_inputs_find(eng->inputs, "fonts/README.md"));
    cv_engine_free(eng);
}

/* Warming shapes with every open face: shaping the same words later gives the
 * same advances as a cold engine would. */
TEST(warm_changes_no_answer)
{
    cv_error err;
    cv_error_init(&err);
    const char *dirs[] = {"fonts", NULL};
    cv_engine *cold = cv_engine_new(dirs, &err), *warm = cv_engine_new(dirs, &err);
    bool synth;
    int a = cv_fontset_find(cold->fonts, "Lato", false, false, &synth, (cv_pos){0}, &err);
    int b = cv_fontset_find(warm->fonts, "Lato", false, false, &synth, (cv_pos){0}, &err);
    cv_engine_warm(warm, true);
    static const uint32_t text[] = {'W', 'a', 'r', 'm', ' ', 'A', 'V', 'A'};
    int16_t w1[8], k1[8], w2[8], k2[8];
    cv_shape_run(cold->shaper, a, text, 8, w1, k1);
    cv_shape_run(warm->shaper, b, text, 8, w2, k2);
    CHECK(memcmp(w1, w2, sizeof w1) == 0 && memcmp(k1, k2, sizeof k1) == 0);
    cv_engine_free(cold);
    cv_engine_free(warm);
}

/* Warming leaves a fallback face found lazily unopened (a batch of Latin
 * résumés never maps Noto Sans CJK), and opens nothing else. */
TEST(warm_opens_no_fallback)
{
    cv_error err;
    cv_error_init(&err);
    const char *dirs[] = {"fonts", NULL};
    cv_engine *eng = cv_engine_new(dirs, &err);
    bool synth;
    int lato = cv_fontset_find(eng->fonts, "Lato", false, false, &synth, (cv_pos){0}, &err);
    int wqy = cv_fontset_find_lazy(eng->fonts, "WenQuanYi Micro Hei", false, false, &synth,
                                   (cv_pos){0}, &err);
    CHECK(lato >= 0 && wqy >= 0 && !err.set);
    CHECK(cv_fontset_opened(eng->fonts, lato) && !cv_fontset_opened(eng->fonts, wqy));
    cv_engine_warm(eng, false);
    CHECK(cv_fontset_opened(eng->fonts, lato) && !cv_fontset_opened(eng->fonts, wqy));
    CHECK(cv_fontset_face(eng->fonts, wqy) != NULL && cv_fontset_opened(eng->fonts, wqy));
    CHECK(!cv_fontset_opened(eng->fonts, -1) &&
          !cv_fontset_opened(eng->fonts, (int)cv_fontset_count(eng->fonts)));
    cv_engine_free(eng);
}

TEST(patterns_per_language)
{
    cv_error err;
    cv_error_init(&err);
    const char *dirs[] = {"fonts", NULL};
    cv_engine *eng = cv_engine_new(dirs, &err);
    CHECK(cv_engine_hyph(eng, NULL) == eng->hyph);
    CHECK(cv_engine_hyph(eng, "en_US") == eng->hyph);
    CHECK(cv_engine_hyph(eng, "") == NULL);
    cv_hyph *de = cv_engine_hyph(eng, "de_DE");
    CHECK(de && de != eng->hyph && cv_engine_hyph(eng, "de_DE") == de);
    CHECK_STR(cv_hyph_path(de), "/usr/share/hyphen/hyph_de_DE.dic");
    cv_engine_free(eng);
}

int main(void)
{
    RUN(new_holds_everything);
    RUN(fonts_are_inputs);
    RUN(warm_changes_no_answer);
    RUN(warm_opens_no_fallback);
    RUN(patterns_per_language);
    return harness_report("engine");
}
