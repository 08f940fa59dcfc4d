/* Unit tests for wrap.c (lines), and the flow and style cases that need set paragraphs. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "flow.h"
#include "shape.h"
#include "style.h"
#include "wrap.h"

#include <linebreak.h>

static cv_engine *eng;
static cv_fontset *fs;
static cv_style st;
static cv_arena *setup_arena;

static void setup(void)
{
    cv_error err;
    cv_error_init(&err);
    const char *dirs[] = {"fonts", NULL};
    eng = cv_engine_new(dirs, &err);
    fs = eng->fonts;
    setup_arena = cv_arena_new();
    if (!cv_style_load(setup_arena, "tests/spec/layout.yaml", eng, &st, &err)) {
        cv_error_print(&err);
        exit(1);
    }
    /* st's strings point into the arena: keep it for the whole run. */
}

/* A context setting text in `lay` (as it is now: tests change its faces)
 * with the test's engine, in no language, left to right. */
static const cv_ctx *cx_of(const cv_style *lay)
{
    static cv_ctx cx[4];
    static unsigned k;
    cv_ctx *c = &cx[k++ % 4];
    cv_ctx_init(c, eng, lay, NULL, false);
    return c;
}

static size_t wrap_text(cv_arena *a, const char *markup, float width, cv_line **lines,
                        cv_error *err)
{
    cv_span *sp;
    size_t n = cv_markup_parse(a, markup, 0, &sp);
    cv_textfmt f = {.size = 10, .justify = false};
    return cv_wrap(a, cx_of(&st), sp, n, &f, width, (cv_pos){"t", 1, 1}, lines, err);
}

static char *line_text(cv_arena *a, const cv_line *l)
{
    char *s = cv_arena_alloc(a, 4096);
    size_t n = 0;
    for (size_t r = 0; r < l->nruns; r++)
        for (size_t k = 0; k < l->runs[r].n && n < 4000; k++) {
            uint32_t cp = l->runs[r].g[k].cp;
            if (cp < 0x80)
                s[n++] = (char)cp;
            else if (cp < 0x800)
                s[n++] = (char)(0xC0 | (cp >> 6)), s[n++] = (char)(0x80 | (cp & 0x3F));
            else
                s[n++] = (char)(0xE0 | (cp >> 12)), s[n++] = (char)(0x80 | ((cp >> 6) & 0x3F)),
                s[n++] = (char)(0x80 | (cp & 0x3F));
        }
    return s;
}

TEST(wrap_greedy_fills_lines)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    cv_line *l;
    const char *text = "one two three four five six seven eight nine ten";
    float w_all = 0;
    size_t n = wrap_text(a, text, 1000, &l, &err);
    CHECK(n == 1);
    w_all = l[0].width;
    /* Half the width: more than one line, none wider than the measure, and
     * each line but the last could not take the next word. */
    n = wrap_text(a, text, w_all / 2, &l, &err);
    CHECK(n >= 2 && n <= 3);
    for (size_t i = 0; i < n; i++)
        CHECK(l[i].width <= w_all / 2 + 0.01f);
    CHECK_STR(line_text(a, &l[0]), "one two three four five");
    CHECK(err.nwarnings == 0);
    cv_arena_free(a);
}

TEST(wrap_justified_lines_fill_the_measure)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    cv_span *sp;
    size_t ns = cv_markup_parse(a, "ab cd ef gh ij kl mn op qr st uv wx yz ab cd ef gh ij kl mn op qr st uv wx yz ab cd ef", 0, &sp);
    cv_textfmt f = {.size = 10, .justify = true};
    cv_line *l;
    size_t n = cv_wrap(a, cx_of(&st), sp, ns, &f, 120, (cv_pos){0}, &l, &err);
    CHECK(n >= 3);
    for (size_t i = 0; i + 1 < n; i++)
        CHECK_NUM(l[i].width, 120, 0.05);
    CHECK(l[n - 1].width < 120);       /* the last line stays ragged */
    cv_arena_free(a);
}

TEST(wrap_never_overfull)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    err.quiet = true;
    cv_line *l;
    char word[600];
    memset(word, 'm', sizeof word - 1);
    word[sizeof word - 1] = 0;
    size_t n = wrap_text(a, word, 100, &l, &err);
    CHECK(n > 5);
    for (size_t i = 0; i < n; i++)
        CHECK(l[i].width <= 100.01f);
    CHECK(err.nwarnings == 1);          /* one warning naming the overlong word */
    cv_arena_free(a);
}

TEST(wrap_breaks_between_chinese_characters)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    cv_line *l;
    /* No spaces at all: UAX #14 still allows breaks between ideographs. */
    size_t n = wrap_text(a, "我主导开发了多个开源深度学习系统并在顶级会议发表论文", 80, &l, &err);
    CHECK(n >= 3);
    for (size_t i = 0; i < n; i++)
        CHECK(l[i].width <= 80.01f);
    CHECK(err.nwarnings == 0);
    /* The ideographs come from the fallback face, not the Latin one. */
    const cv_face *f = cv_fontset_face(fs, l[0].runs[0].face);
    CHECK(f && strstr(f->family, "WenQuanYi"));
    cv_arena_free(a);
}

TEST(wrap_fallback_per_code_point)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    cv_line *l;
    size_t n = wrap_text(a, "Fang 方佳瑞 Jiarui", 1000, &l, &err);
    CHECK(n == 1);
    CHECK(l[0].nruns == 3);
    if (l[0].nruns == 3) {
        CHECK(strstr(cv_fontset_face(fs, l[0].runs[0].face)->family, "Lato") != NULL);
        CHECK(strstr(cv_fontset_face(fs, l[0].runs[1].face)->family, "WenQuanYi") != NULL);
        CHECK(strstr(cv_fontset_face(fs, l[0].runs[2].face)->family, "Lato") != NULL);
    }
    cv_arena_free(a);
}

TEST(wrap_warns_about_missing_glyph)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    err.quiet = true;
    cv_line *l;
    /* U+0F00 TIBETAN SYLLABLE OM: in neither Lato nor WenQuanYi. */
    size_t n = wrap_text(a, "om \xE0\xBC\x80 here", 1000, &l, &err);
    CHECK(n == 1);
    CHECK(err.nwarnings == 1);
    CHECK(!err.set);
    CHECK_STR(line_text(a, &l[0]), "om  here");
    cv_arena_free(a);
}

/* A code point above U+FFFF no font of the chain has: a warning, an error
 * under strict, and the text around it kept. */
TEST(wrap_astral_code_points_are_characters)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    err.quiet = true;
    err.strict = true;
    cv_line *l;
    size_t n = wrap_text(a, "X\xF0\xA0\xAE\xB7X", 1000, &l, &err);      /* U+20BB7 */
    CHECK(err.set);
    CHECK(strstr(err.msg, "no font has U+20BB7") != NULL);
    CHECK(n == 1 && l[0].nruns >= 1);
    size_t glyphs = 0;
    for (size_t r = 0; r < l[0].nruns; r++)
        glyphs += l[0].runs[r].n;
    CHECK(glyphs == 2);                                     /* X and X */
    cv_arena_free(a);
}

TEST(wrap_kerning_is_measured)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    cv_line *l;
    wrap_text(a, "AVAV", 1000, &l, &err);
    float kerned = l[0].width, plain = 0;
    for (size_t k = 0; k < l[0].runs[0].n; k++)
        plain += l[0].runs[0].g[k].w * 10 / 1000.0f;
    CHECK(kerned < plain - 0.5f);       /* Lato kerns A-V */
    cv_arena_free(a);
}

static size_t wrap_fmt(cv_arena *a, const char *markup, float width, cv_textfmt f,
                       cv_line **lines, cv_error *err)
{
    cv_span *sp;
    size_t n = cv_markup_parse(a, markup, 0, &sp);
    f.size = 10;
    return cv_wrap(a, cx_of(&st), sp, n, &f, width, (cv_pos){"t", 1, 1}, lines, err);
}

static uint32_t line_cp(const cv_line *l, bool last)
{
    if (!l->nruns)
        return 0;
    const cv_run *r = &l->runs[last ? l->nruns - 1 : 0];
    return r->n ? r->g[last ? r->n - 1 : 0].cp : 0;
}

static bool is_closing(uint32_t c)
{
    return c && strchr(",.;:!?)", (int)(c < 0x80 ? c : 1)) ? true
           : c == 0xFF0C || c == 0x3002 || c == 0x3001 || c == 0xFF1B || c == 0xFF1A ||
             c == 0xFF01 || c == 0xFF1F || c == 0xFF09 || c == 0x300D || c == 0x300F ||
             c == 0x300B || c == 0x201D;
}

static bool is_opening(uint32_t c)
{
    return c == '(' || c == 0xFF08 || c == 0x300C || c == 0x300E || c == 0x300A ||
           c == 0x201C;
}

/* Kinsoku: at every width, no line starts with closing punctuation or ends
 * with opening punctuation, and no character is lost. */
TEST(wrap_kinsoku)
{
    const char *text = "我们提出了一种新的方法（称为“快速注意力”），它在长序列上更快、"
                       "更省内存；实验表明：速度提高了三倍！是吗？是的。《论文》已发表。";
    int bad = 0, lines = 0;
    for (float w = 36; w < 220; w += 1.3f) {
        cv_arena *a = cv_arena_new();
        cv_error err;
        cv_error_init(&err);
        cv_line *l;
        size_t n = wrap_fmt(a, text, w, (cv_textfmt){.justify = true}, &l, &err);
        char *all = cv_arena_alloc(a, 4096);
        all[0] = 0;
        for (size_t i = 0; i < n; i++) {
            lines++;
            if (is_closing(line_cp(&l[i], false)) || is_opening(line_cp(&l[i], true)) ||
                l[i].width > w + 0.01f) {
                fprintf(stderr, "  width %.1f line %zu: \"%s\"\n", w, i, line_text(a, &l[i]));
                bad++;
            }
            strcat(all, line_text(a, &l[i]));
        }
        CHECK_STR(all, text);
        cv_arena_free(a);
    }
    CHECK(bad == 0);
    CHECK(lines > 500);
}

/* URLs and e-mail addresses break only after / . @ _ or before -, never
 * inside "//" and never after a hyphen (pdftotext would drop a hyphen that
 * ends a line), and nothing is added or lost. */
TEST(wrap_url_breaks)
{
    const char *text = "Code at https://github.com/feifeibear/long-context-attention_v2/"
                       "blob/main/README.md or write to jiarui.fang@example-lab.org today.";
    int inside = 0, bad = 0;
    for (float w = 50; w < 200; w += 2.5f) {
        cv_arena *a = cv_arena_new();
        cv_error err;
        cv_error_init(&err);
        err.quiet = true;
        cv_line *l;
        size_t n = wrap_fmt(a, text, w, (cv_textfmt){.justify = false, .hyphenate = true},
                            &l, &err);
        const char *at = text;
        for (size_t i = 0; i < n; i++) {
            const char *t = line_text(a, &l[i]);
            size_t len = strlen(t);
            if (strncmp(at, t, len) != 0) {
                fprintf(stderr, "  width %.1f: line \"%s\" is not the text at \"%.20s\"\n",
                        w, t, at);
                bad++;
                break;
            }
            at += len;
            if (*at == ' ') {
                at++;
            } else if (*at) {
                inside++;
                if (!(strchr("/.@_", t[len - 1]) || *at == '-') || t[len - 1] == '-' ||
                    *at == '/') {
                    fprintf(stderr, "  width %.1f: breaks \"%s|%.10s\"\n", w, t, at);
                    bad++;
                }
            }
        }
        CHECK(*at == 0);
        cv_arena_free(a);
    }
    CHECK(bad == 0);
    CHECK(inside > 20);
}

/* Hyphenation: long lowercase words are hyphenated (libhyphen, en-US) with
 * at least 2 letters before the hyphen and 3 after, never more than two
 * hyphenated lines in a row; capitalised words never. */
TEST(wrap_hyphenation)
{
    const char *text = "the implementation demonstrates extraordinarily comprehensive "
                       "characterization of heterogeneous representations, notwithstanding "
                       "considerable computational requirements and internationalization";
    int hyphenated = 0, bad = 0;
    for (float w = 90; w < 200; w += 3.1f) {
        cv_arena *a = cv_arena_new();
        cv_error err;
        cv_error_init(&err);
        cv_line *l;
        size_t n = wrap_fmt(a, text, w, (cv_textfmt){.justify = true, .hyphenate = true},
                            &l, &err);
        const char *at = text;
        int run = 0;
        for (size_t i = 0; i < n; i++) {
            const char *t = line_text(a, &l[i]);
            size_t len = strlen(t);
            bool added = len > 1 && t[len - 1] == '-' && at[len - 1] != '-';
            if (strncmp(at, t, added ? len - 1 : len) != 0) {
                fprintf(stderr, "  width %.1f: \"%s\" is not the text at \"%.20s\"\n", w, t, at);
                bad++;
                break;
            }
            at += added ? len - 1 : len;
            if (added) {
                hyphenated++;
                size_t left = 0, right = 0;
                while (left + 1 < len && t[len - 2 - left] >= 'a' && t[len - 2 - left] <= 'z')
                    left++;
                while (at[right] >= 'a' && at[right] <= 'z')
                    right++;
                if (left < 2 || right < 3 || ++run > 2) {
                    fprintf(stderr, "  width %.1f: bad hyphen in \"%s\" (run %d)\n", w, t, run);
                    bad++;
                }
            } else {
                run = 0;
            }
            if (*at == ' ')
                at++;
            if (l[i].width > w + 0.01f)
                bad++;
        }
        CHECK(*at == 0);
        /* Without hyphenation: no hyphen added. */
        n = wrap_fmt(a, text, w, (cv_textfmt){.justify = true}, &l, &err);
        for (size_t i = 0; i < n; i++)
            CHECK(line_cp(&l[i], true) != '-');
        cv_arena_free(a);
    }
    CHECK(bad == 0);
    CHECK(hyphenated > 10);

    /* Names and other capitalised words are never hyphenated. */
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    cv_line *l;
    size_t n = wrap_fmt(a, "Characterization Internationalization Representations "
                        "Jiarui Fang Heterogeneous Considerations Notwithstanding",
                        120, (cv_textfmt){.justify = true, .hyphenate = true}, &l, &err);
    for (size_t i = 0; i < n; i++)
        CHECK(line_cp(&l[i], true) != '-');
    cv_arena_free(a);
}

/* The compound word that line `t` ends inside (its last word joined with
 * the text after it up to a space) is wider than `w`. */
static bool compound_too_wide(cv_arena *a, const char *t, const char *at, float w)
{
    const char *sp = strrchr(t, ' ');
    const char *head = sp ? sp + 1 : t;
    size_t tail = strcspn(at, " ");
    char *word = cv_arena_printf(a, "%s%.*s", head, (int)tail, at);
    cv_span *spn;
    size_t ns = cv_markup_parse(a, word, 0, &spn);
    cv_textfmt f = {.size = 10};
    return cv_measure(a, cx_of(&st), spn, ns, &f) > w;
}

/* No line ends at the hyphen of a compound word (pdftotext would drop it
 * and join the halves); the parts may be hyphenated instead. */
TEST(wrap_no_break_after_compound_hyphens)
{
    const char *text = "state-of-the-art next-generation large-scale fine-grained "
                       "communication-efficient memory-constrained general-purpose "
                       "hardware-software co-design open-source well-known";
    int bad = 0;
    for (float w = 60; w < 250; w += 3.7f) {
        cv_arena *a = cv_arena_new();
        cv_error err;
        cv_error_init(&err);
        err.quiet = true;
        cv_line *l;
        size_t n = wrap_fmt(a, text, w, (cv_textfmt){.justify = true, .hyphenate = true},
                            &l, &err);
        const char *at = text;
        for (size_t i = 0; i + 1 < n; i++) {
            const char *t = line_text(a, &l[i]);
            size_t len = strlen(t);
            bool added = t[len - 1] == '-' && at[len - 1] != '-';
            at += added ? len - 1 : len;
            /* Allowed only in a compound wider than the whole line. */
            if (!added && t[len - 1] == '-' && !compound_too_wide(a, t, at, w)) {
                fprintf(stderr, "  width %.1f: line ends at a compound's hyphen: \"%s\"\n", w, t);
                bad++;
            }
            if (*at == ' ')
                at++;
        }
        cv_arena_free(a);
    }
    CHECK(bad == 0);
}

/* Ties (wrap.c ties()): at every width, no line break inside "pp. 921–931",
 * "(PPoPP 2021)", "C++", an address, a name joined by no-break spaces or a
 * spaced range of years, unless that is wider than the line; no line
 * starts with a dash; no-break spaces are drawn as spaces. */
TEST(wrap_ties)
{
    const char *text = "Published in the proceedings of ACL, pp. 921\xE2\x80\x93" "931 and in "
                       "(PPoPP 2021) with CUDA/C++ code and C# tools, see www.tencent.com or "
                       "write to chohsieh@cs.ucla.edu, by Jun\xC2\xA0" "Fang and "
                       "Jiarui\xC2\xA0" "Fang during (2019 \xE2\x80\x93 2022) with Vol. 12 "
                       "and \xC2\xA7 4 of the report \xE2\x80\x94 a long one.";
    static const char *const kept[] = {
        "pp. 921\xE2\x80\x93" "931", "(PPoPP 2021)", "C++", "C#", "www.tencent.com",
        "chohsieh@cs.ucla.edu,", "Jun Fang", "Jiarui Fang", "(2019 \xE2\x80\x93 2022)",
        "Vol. 12", "\xC2\xA7 4", NULL};
    /* The text as drawn: NBSP as a space. */
    char shown[1024];
    size_t k = 0;
    for (const char *p = text; *p;)
        if (!strncmp(p, "\xC2\xA0", 2))
            shown[k++] = ' ', p += 2;
        else
            shown[k++] = *p++;
    shown[k] = 0;
    int bad = 0, lines = 0;
    for (float w = 40; w < 320; w += 2.9f) {
        cv_arena *a = cv_arena_new();
        cv_error err;
        cv_error_init(&err);
        err.quiet = true;
        cv_line *l;
        size_t n = wrap_fmt(a, text, w, (cv_textfmt){.justify = true, .hyphenate = true},
                            &l, &err);
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            const char *t = line_text(a, &l[i]);
            size_t len = strlen(t);
            bool added = len > 1 && t[len - 1] == '-' && shown[at + len - 1] != '-';
            if (strncmp(shown + at, t, added ? len - 1 : len) != 0) {
                fprintf(stderr, "  width %.1f: \"%s\" is not the text at \"%.20s\"\n", w, t,
                        shown + at);
                bad++;
                break;
            }
            if (i && (!strncmp(t, "\xE2\x80\x93", 3) || !strncmp(t, "\xE2\x80\x94", 3))) {
                fprintf(stderr, "  width %.1f: a line starts with a dash: \"%s\"\n", w, t);
                bad++;
            }
            at += added ? len - 1 : len;
            if (shown[at] == ' ')
                at++;
            if (i + 1 == n)
                break;
            lines++;
            for (size_t j = 0; kept[j]; j++) {
                size_t b = (size_t)(strstr(shown, kept[j]) - shown), e = b + strlen(kept[j]);
                if (!(b < at && at < e))
                    continue;
                cv_span *sp;
                size_t ns = cv_markup_parse(a, kept[j], 0, &sp);
                cv_textfmt f = {.size = 10};
                if (cv_measure(a, cx_of(&st), sp, ns, &f) <= w) {
                    fprintf(stderr, "  width %.1f: \"%s\" is broken: \"%s\"\n", w, kept[j], t);
                    bad++;
                }
            }
        }
        cv_arena_free(a);
    }
    CHECK(bad == 0);
    CHECK(lines > 300);
}

/* Hyphenation is for plain lowercase words of text: never inside a word
 * that has a hyphen already ("mixed-preci-sion"), never in bold. */
TEST(wrap_hyphenation_plain_words_only)
{
    const char *text = "mixed-precision spatially-variable topology-aware "
                       "**supercomputer characterization** considerations";
    int bad = 0, hyphenated = 0;
    for (float w = 60; w < 200; w += 2.3f) {
        cv_arena *a = cv_arena_new();
        cv_error err;
        cv_error_init(&err);
        err.quiet = true;
        cv_line *l;
        size_t n = wrap_fmt(a, text, w, (cv_textfmt){.justify = true, .hyphenate = true},
                            &l, &err);
        for (size_t i = 0; i + 1 < n; i++) {
            const char *t = line_text(a, &l[i]);
            size_t len = strlen(t);
            const char *last = strrchr(t, ' ') ? strrchr(t, ' ') + 1 : t;
            if (len < 2 || t[len - 1] != '-')
                continue;
            /* A hyphen added: the word does not end there in the text. */
            bool added = !strstr(text, t) || strstr(text, t)[len] != ' ';
            if (!added)
                continue;
            hyphenated++;
            if (strchr(last, '-') != t + len - 1 || !strncmp(last, "super", 5) ||
                !strncmp(last, "charac", 6)) {
                fprintf(stderr, "  width %.1f: hyphenated \"%s\"\n", w, last);
                bad++;
            }
        }
        cv_arena_free(a);
    }
    CHECK(bad == 0);
    CHECK(hyphenated > 0);             /* "considerations" still is */
}

/* A word wider than the measure breaks between grapheme clusters: never
 * between a letter and its combining accent. */
TEST(wrap_emergency_breaks_keep_graphemes)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    err.quiet = true;
    char word[1200] = "";
    for (int i = 0; i < 200; i++)
        strcat(word, "e\xCC\x81");               /* e + U+0301 */
    cv_line *l;
    size_t n = wrap_fmt(a, word, 40, (cv_textfmt){.justify = true}, &l, &err);
    CHECK(n > 3);
    for (size_t i = 0; i < n; i++) {
        CHECK(line_cp(&l[i], false) == 'e');
        CHECK(l[i].width <= 40.01f);
    }
    CHECK(err.nwarnings == 1);
    cv_arena_free(a);
}

/* A space between Chinese and Latin words is the Latin face's space. */
TEST(wrap_cjk_latin_space)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    cv_line *l;
    size_t n = wrap_fmt(a, "腾讯微信 AI 团队", 1000, (cv_textfmt){0}, &l, &err);
    CHECK(n == 1);
    int spaces = 0;
    for (size_t r = 0; r < l[0].nruns; r++)
        for (size_t k = 0; k < l[0].runs[r].n; k++)
            if (l[0].runs[r].g[k].cp == ' ') {
                spaces++;
                CHECK(strstr(cv_fontset_face(fs, l[0].runs[r].face)->family, "Lato") != NULL);
            }
    CHECK(spaces == 2);
    cv_arena_free(a);
}

/* Total fit evens out a paragraph that first fit sets with a loose line:
 * the loosest line of the optimal paragraph is no looser than first fit's,
 * over many widths, and strictly better at some. */
TEST(wrap_optimal_not_worse_than_greedy)
{
    const char *text = "Designed and implemented a distributed training system for large "
                       "language models that overlaps computation with communication and "
                       "reduces memory footprint by sharding parameters, gradients and "
                       "optimizer states across data parallel workers.";
    int better = 0, worse = 0;
    for (float w = 120; w < 300; w += 7) {
        cv_arena *a = cv_arena_new();
        cv_error err;
        cv_error_init(&err);
        cv_line *lo, *lg;
        cv_textfmt f = {.justify = false};
        size_t no = wrap_fmt(a, text, w, f, &lo, &err);
        f.greedy = true;
        size_t ng = wrap_fmt(a, text, w, f, &lg, &err);
        float so = 0, sg = 0;             /* sum of squared shortfalls, all but the last */
        for (size_t i = 0; i + 1 < no; i++)
            so += (w - lo[i].width) * (w - lo[i].width);
        for (size_t i = 0; i + 1 < ng; i++)
            sg += (w - lg[i].width) * (w - lg[i].width);
        better += so < sg - 1 && no <= ng;
        /* Where first fit leaves a runt (a last line under 4 ems), total
         * fit may trade some evenness for a longer last line. */
        bool runt = ng && lg[ng - 1].width < 40 && lo[no - 1].width >= 40;
        worse += so > sg + 1 && no >= ng && !runt;
        cv_arena_free(a);
    }
    CHECK(better > 0);
    CHECK(worse == 0);
}

/* A vertical list of `n` items of height 10; keeps[i] is the keep rule
 * after item i as a digit (cv_keep), '.' for none. */
static cv_vlist make_list(cv_arena *a, size_t n, const char *keeps)
{
    cv_vlist vl = {0};
    for (size_t i = 0; i < n; i++) {
        cv_vitem it = {.height = 10, .section = -1, .entry = -1, .nlines = 1, .what = "item"};
        if (keeps && keeps[i] >= '0' && keeps[i] <= '9')
            it.keep = (unsigned char)(keeps[i] - '0');
        CV_PUSH(a, vl.items, vl.n, vl.cap, it);
    }
    return vl;
}

/* Pages as a string: the page of each item, "00000111". */
static const char *pages_of(cv_arena *a, const cv_vlist *vl, float first, float full,
                            cv_flowlog *log)
{
    size_t *out = cv_arena_alloc(a, vl->n * sizeof *out);
    cv_paginate(a, vl, 0, first, full, out, log);
    char *s = cv_arena_alloc(a, vl->n + 1);
    for (size_t i = 0; i < vl->n; i++)
        s[i] = (char)('0' + (int)out[i]);
    return s;
}

TEST(flow_fills_pages)
{
    cv_arena *a = cv_arena_new();
    cv_vlist vl = make_list(a, 25, NULL);
    CHECK_STR(pages_of(a, &vl, 100, 100, NULL), "0000000000111111111122222");
    /* A shorter first page (the header is above the columns there). */
    CHECK_STR(pages_of(a, &vl, 45, 100, NULL), "0000111111111122222222223");
    cv_arena_free(a);
}

TEST(flow_honours_keep_rules)
{
    cv_arena *a = cv_arena_new();
    /* Items 8 and 9 keep with their next (a title and an entry header):
     * the break moves up so item 8 starts page 2 with 9 and 10. */
    cv_vlist vl = make_list(a, 12, "........54..");
    cv_flowlog log = {0};
    CHECK_STR(pages_of(a, &vl, 100, 100, &log), "000000001111");
    CHECK(log.nbreaks == 1);
    if (log.nbreaks == 1) {
        CHECK(log.breaks[0].item == 8 && log.breaks[0].page == 1);
        CHECK(strstr(log.breaks[0].reason, "entry's header") != NULL);
    }
    /* No break allowed on the whole page: the weakest rule gives way.
     * Items 0-9 are glued by an entry keep (2), 10-14 by a title keep (5);
     * the page ends where the weaker rule is. */
    vl = make_list(a, 15, "22222222225555.");
    memset(&log, 0, sizeof log);
    CHECK_STR(pages_of(a, &vl, 100, 100, &log), "000000000011111");
    CHECK(log.nnotes == 1);
    /* A forced break: page_break_before on item 3. */
    vl = make_list(a, 6, NULL);
    vl.items[3].break_before = true;
    CHECK_STR(pages_of(a, &vl, 100, 100, NULL), "000111");
    /* ... which does nothing at the top of a page. */
    vl.items[3].break_before = false;
    vl.items[5].break_before = true;
    CHECK_STR(pages_of(a, &vl, 50, 100, NULL), "000001");
    cv_arena_free(a);
}

TEST(flow_keep_together)
{
    cv_arena *a = cv_arena_new();
    /* Section 1 (items 4-9) kept together: it moves to page 2 whole. */
    cv_vlist vl = make_list(a, 12, "....11111...");
    for (size_t i = 0; i < vl.n; i++)
        vl.items[i].section = i < 4 ? 0 : i < 10 ? 1 : 2;
    CHECK_STR(pages_of(a, &vl, 80, 80, NULL), "000011111111");
    /* Taller than a page: the rule is ignored, and the log says so. */
    cv_flowlog log = {0};
    CHECK_STR(pages_of(a, &vl, 50, 50, &log), "000001111122");
    CHECK(log.nnotes == 1 && strstr(log.notes[0], "keep_together ignored") != NULL);
    cv_arena_free(a);
}

TEST(flow_drops_space_at_page_top)
{
    cv_arena *a = cv_arena_new();
    cv_style s = st;
    s.page_h = 140, s.margin_top = s.margin_bottom = 20;
    cv_composed c = {.ncols = 1};
    c.col_w[0] = 100;
    c.col[0] = make_list(a, 11, NULL);
    cv_vlist *vl = &c.col[0];
    for (size_t i = 0; i < vl->n; i++) {
        vl->items[i].space_before = i == 10 ? 30 : 0;
        cv_line *ln = cv_arena_alloc(a, sizeof *ln);
        ln->runs = cv_arena_alloc(a, sizeof *ln->runs);
        ln->nruns = 1;
        cv_piece p = {ln, 0, 5, 0};
        CV_PUSH(a, vl->items[i].pieces, vl->items[i].npieces, vl->items[i].cpieces, p);
    }
    cv_display *d = cv_flow(a, &c, &s, NULL);
    CHECK(d->npages == 2);
    if (d->npages == 2)   /* item 10 starts page 2 at the top margin, no space above */
        CHECK_NUM(d->pages[1].runs[0].y, 140 - 20 - 5, 0.01);
    cv_arena_free(a);
}

TEST(style_lengths)
{
    float v;
    CHECK(cv_parse_length("10pt", &v) && v == 10);
    CHECK(cv_parse_length("12", &v) && v == 12);
    CHECK(cv_parse_length("25.4mm", &v) && fabsf(v - 72) < 0.01f);
    CHECK(cv_parse_length("1in", &v) && v == 72);
    CHECK(cv_parse_length("2.54cm", &v) && fabsf(v - 72) < 0.01f);
    CHECK(!cv_parse_length("10px", &v));
    CHECK(!cv_parse_length("-3pt", &v));
    CHECK(!cv_parse_length("pt", &v));
}

static bool load_layout(const char *text, cv_style *s, cv_error *err)
{
    FILE *f = fopen("build/san/t-layout.yaml", "w");
    fputs(text, f);
    fclose(f);
    cv_arena *a = cv_arena_new();
    bool ok = cv_style_load(a, "build/san/t-layout.yaml", eng, s, err);
    /* s points into the arena only for strings we do not read below. */
    cv_arena_free(a);
    return ok;
}

TEST(style_extends_and_overrides)
{
    cv_style s;
    cv_error err;
    cv_error_init(&err);
    CHECK(load_layout("extends: ../../layouts/onecolumn.yaml\npage: {size: letter}\n"
                      "font: {size: 11pt}\n", &s, &err));
    CHECK_NUM(s.page_w, 612, 0.01);
    CHECK_NUM(s.size, 11, 0.01);
    /* Inherited from onecolumn: margins of 18mm left. */
    CHECK_NUM(s.margin_left, 18 * 72 / 25.4, 0.01);
}

TEST(style_unknown_key_suggests)
{
    cv_style s;
    cv_error err;
    cv_error_init(&err);
    CHECK(!load_layout("section_title:\n  colour: \"#000000\"\n", &s, &err));
    CHECK(err.set && err.pos.line == 2 && err.pos.col == 3);
    CHECK(strstr(err.msg, "colour") && strstr(err.msg, "'color'"));
}

TEST(style_bad_values)
{
    cv_style s;
    cv_error err;
    cv_error_init(&err);
    CHECK(!load_layout("page:\n  size: b7\n", &s, &err));
    CHECK(err.pos.line == 2 && strstr(err.msg, "b7"));
    cv_error_init(&err);
    CHECK(!load_layout("font:\n  size: 10px\n", &s, &err));
    CHECK(err.pos.line == 2 && strstr(err.msg, "10px"));
    cv_error_init(&err);
    CHECK(!load_layout("font:\n  family: No Such Family Anywhere\n", &s, &err));
    CHECK(err.pos.line == 2 && strstr(err.msg, "No Such Family"));
    cv_error_init(&err);
    CHECK(!load_layout("extends: missing-base\n", &s, &err));
    CHECK(err.pos.line == 1 && strstr(err.msg, "missing-base"));
}

/* fmt.small_caps: in Lato, which has no small capitals, the lowercase
 * letters are its capitals at CV_SMALL_CAPS_SCALE of the size, each a
 * cluster code point that reads as its letter; measured as drawn. */
TEST(wrap_small_caps_synthesised)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    cv_span *sp;
    size_t n = cv_markup_parse(a, "Hon, ors", 0, &sp);
    cv_textfmt f = {.size = 10, .small_caps = true};
    cv_line *lines;
    size_t nl = cv_wrap(a, cx_of(&st), sp, n, &f, 500, (cv_pos){"t", 1, 1}, &lines, &err);
    CHECK(nl == 1 && !err.set);
    if (nl != 1)
        goto out;
    const cv_line *l = &lines[0];
    /* H | on | ", " | ors: the small letters in runs of their own size. */
    CHECK(l->nruns == 4);
    CHECK_NUM(l->runs[0].size, 10, 0);
    CHECK_NUM(l->runs[1].size, 10 * CV_SMALL_CAPS_SCALE, 1e-4);
    CHECK_NUM(l->runs[2].size, 10, 0);
    CHECK(l->runs[1].n == 2 && l->runs[1].g[0].cp >= CV_CLUSTER_BASE);
    CHECK_STR(cv_shape_cluster_text(eng->shaper, l->runs[1].g[0].cp), "o");
    CHECK_STR(cv_shape_cluster_text(eng->shaper, l->runs[1].g[1].cp), "n");
    /* The glyph is the capital's, its width the capital's /W. */
    unsigned gO = cv_shape_glyph(eng->shaper, l->runs[1].face, 'O');
    CHECK(cv_shape_glyph(eng->shaper, l->runs[1].face, l->runs[1].g[0].cp) == gO);
    CHECK(l->runs[1].g[0].w == cv_shape_advance(eng->shaper, l->runs[1].face, gO));
    /* What cv_measure says is the line's width. */
    float w = cv_measure(a, cx_of(&st), sp, n, &f), sum = 0;
    for (size_t r = 0; r < l->nruns; r++)
        sum += l->runs[r].width;
    CHECK_NUM(w, l->width, 0.01);
    CHECK_NUM(sum, l->width, 0.01);
    /* Without small_caps: one run, plain letters. */
    f.small_caps = false;
    nl = cv_wrap(a, cx_of(&st), sp, n, &f, 500, (cv_pos){"t", 1, 1}, &lines, &err);
    CHECK(nl == 1 && lines[0].nruns == 1 && lines[0].runs[0].g[1].cp == 'o');
out:
    cv_arena_free(a);
}

/* Greek in small capitals: each small letter is its capital without the
 * accent (ά as Α, not Ά) and the final sigma is Σ, as Greek capitals are
 * written; the text still reads as written. */
TEST(wrap_small_caps_greek)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    cv_ctx cx;
    cv_ctx_init(&cx, eng, &st, "el", false);
    cv_span *sp;
    size_t n = cv_markup_parse(a, "Άρης", 0, &sp);
    cv_textfmt f = {.size = 10, .small_caps = true};
    cv_line *lines;
    size_t nl = cv_wrap(a, &cx, sp, n, &f, 500, (cv_pos){"t", 1, 1}, &lines, &err);
    CHECK(nl == 1 && !err.set);
    if (nl != 1)
        goto out;
    const cv_line *l = &lines[0];
    CHECK(l->nruns == 2 && l->runs[1].n == 3);
    if (l->nruns != 2 || l->runs[1].n != 3)
        goto out;
    int face = l->runs[1].face;
    static const uint32_t want[3] = {0x3A1, 0x397, 0x3A3};      /* Ρ Η Σ */
    static const char *const text[3] = {"ρ", "η", "ς"};
    for (int i = 0; i < 3; i++) {
        uint32_t cp = l->runs[1].g[i].cp;
        CHECK(cv_shape_glyph(eng->shaper, face, cp) == cv_shape_glyph(eng->shaper, face, want[i]));
        CHECK_STR(cv_shape_cluster_text(eng->shaper, cp), text[i]);
    }
out:
    cv_arena_free(a);
}

/* cv_wrap_linebreaks() answers as libunibreak does, on random text drawn
 * from characters of every class that meets ASCII letters in a résumé:
 * letters, digits, spaces, punctuation, quotes, dashes, Han, kana, Hebrew
 * letters, combining marks, joiners, Thai, emoji, line ends. */
TEST(wrap_linebreaks_as_libunibreak)
{
    static const uint32_t pool[] = {
        'a', 'b', 'Z', 'x', 'e', 'Q', '0', '7', ' ', ' ', '.', ',', ';', ':', '!', '?', '-',
        '/', '(', ')', '[', ']', '{', '}', '"', '\'', '%', '$', '+', '#', '&', '*', '@', '_',
        '=', '<', '>', '|', '~', '^', '`', '\t', '\n', '\r', 0xA0, 0xAD, 0x200B, 0x200D,
        0x2060, 0xFEFF, 0x2010, 0x2013, 0x2014, 0x2018, 0x2019, 0x201C, 0x201D, 0x2026,
        0x00AB, 0x00BB, 0x3000, 0x3001, 0x3002, 0x300C, 0x300D, 0x4E00, 0x65B9, 0x3042,
        0x30A2, 0x30FC, 0xFF08, 0xFF09, 0xFF0C, 0x05D0, 0x05BE, 0x0301, 0x0E01, 0x1F600,
        0x20AC, 0x2028, 0x0085, 0x00E9, 0x0416, 0x03B1, 0xAC00, 0x1100, 0x0600};
    const size_t np = sizeof pool / sizeof *pool;
    uint32_t cps[48];
    char want[48], got[48];
    unsigned long long r = 0x9E3779B97F4A7C15ull;
    size_t wrong = 0, tries = 60000;
    for (size_t t = 0; t < tries; t++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        size_t n = 1 + (size_t)(r >> 33) % 47;
        for (size_t i = 0; i < n; i++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            /* Letters half the time, in runs as in words. */
            size_t k = (size_t)(r >> 33);
            cps[i] = k % 2 ? pool[k / 2 % 6] : pool[k / 2 % np];
        }
        set_linebreaks_utf32(cps, n, NULL, want);
        cv_wrap_linebreaks(cps, n, got);
        wrong += memcmp(want, got, n) != 0;
    }
    CHECK(wrong == 0);
    /* A paragraph as typed. */
    const char *text = "Built a system (2019-2021), cut costs 40%; see https://ex.org/a?b=1.";
    size_t n = strlen(text);
    uint32_t u[80];
    char w1[80], w2[80];
    for (size_t i = 0; i < n; i++)
        u[i] = (unsigned char)text[i];
    set_linebreaks_utf32(u, n, NULL, w1);
    cv_wrap_linebreaks(u, n, w2);
    CHECK(memcmp(w1, w2, n) == 0);
    CHECK(w2[3] == LINEBREAK_NOBREAK && w2[5] == LINEBREAK_ALLOWBREAK);  /* "Built |a" */
    /* Flags, on which libunibreak 1.1 aborts: never broken inside, broken
     * between, and a letter after them. */
    const uint32_t flags[] = {'D', 'E', ' ', 0x1F1E9, 0x1F1EA, 0x1F1EB, 0x1F1F7, 0x1F1EE,
                              ' ', 'x'};
    char fb[10];
    cv_wrap_linebreaks(flags, 10, fb);
    CHECK(fb[0] == LINEBREAK_NOBREAK && fb[2] == LINEBREAK_ALLOWBREAK);
    CHECK(fb[3] == LINEBREAK_NOBREAK && fb[5] == LINEBREAK_NOBREAK);   /* inside a flag */
    CHECK(fb[4] == LINEBREAK_ALLOWBREAK);                              /* between flags */
    CHECK(fb[6] == LINEBREAK_ALLOWBREAK);                       /* before a lone indicator */
    CHECK(fb[9] == LINEBREAK_MUSTBREAK);                        /* the end of the text */
}

int main(void)
{
    setup();
    RUN(wrap_linebreaks_as_libunibreak);
    RUN(wrap_small_caps_synthesised);
    RUN(wrap_small_caps_greek);
    RUN(wrap_greedy_fills_lines);
    RUN(wrap_justified_lines_fill_the_measure);
    RUN(wrap_never_overfull);
    RUN(wrap_breaks_between_chinese_characters);
    RUN(wrap_fallback_per_code_point);
    RUN(wrap_warns_about_missing_glyph);
    RUN(wrap_astral_code_points_are_characters);
    RUN(wrap_kerning_is_measured);
    RUN(wrap_kinsoku);
    RUN(wrap_url_breaks);
    RUN(wrap_hyphenation);
    RUN(wrap_no_break_after_compound_hyphens);
    RUN(wrap_ties);
    RUN(wrap_hyphenation_plain_words_only);
    RUN(wrap_emergency_breaks_keep_graphemes);
    RUN(wrap_cjk_latin_space);
    RUN(wrap_optimal_not_worse_than_greedy);
    RUN(flow_fills_pages);
    RUN(flow_honours_keep_rules);
    RUN(flow_keep_together);
    RUN(flow_drops_space_at_page_top);
    RUN(style_lengths);
    RUN(style_extends_and_overrides);
    RUN(style_unknown_key_suggests);
    RUN(style_bad_values);
    cv_engine_free(eng);
    cv_arena_free(setup_arena);
    return harness_report("wrap");
}
