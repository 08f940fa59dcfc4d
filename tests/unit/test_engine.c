/* Unit tests for the layout engine: wrap (lines), flow (pages), style (layouts). */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "style.h"
#include "wrap.h"

static cv_fontset *fs;
static cv_style st;
static cv_arena *setup_arena;

static void setup(void)
{
    cv_error err;
    cv_error_init(&err);
    const char *dirs[] = {"fonts", NULL};
    fs = cv_fontset_new(dirs, &err);
    setup_arena = cv_arena_new();
    if (!cv_style_load(setup_arena, "tests/spec/layout.yaml", fs, &st, &err)) {
        cv_error_print(&err);
        exit(1);
    }
    /* st's strings point into the arena: keep it for the whole run. */
}

static size_t wrap_text(cv_arena *a, const char *markup, float width, cv_line **lines,
                        cv_error *err)
{
    cv_span *sp;
    size_t n = cv_markup_parse(a, markup, 0, &sp);
    cv_textfmt f = {.size = 10, .justify = false};
    return cv_wrap(a, &st, sp, n, &f, width, (cv_pos){"t", 1, 1}, lines, err);
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
    size_t n = cv_wrap(a, &st, sp, ns, &f, 120, (cv_pos){0}, &l, &err);
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

TEST(wrap_rejects_astral_code_points)
{
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    cv_line *l;
    wrap_text(a, "X\xF0\xA0\xAE\xB7X", 1000, &l, &err);      /* U+20BB7 */
    CHECK(err.set);
    CHECK(strstr(err.msg, "U+20BB7") != NULL);
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

/* A vertical list of `n` items of height 10, with keep flags from `keeps`. */
static cv_vlist make_list(cv_arena *a, size_t n, const char *keeps)
{
    cv_vlist vl = {0};
    for (size_t i = 0; i < n; i++) {
        cv_vitem it = {.height = 10, .keep_with_next = keeps && keeps[i] == 'k'};
        CV_PUSH(a, vl.items, vl.n, vl.cap, it);
    }
    return vl;
}

TEST(flow_fills_pages)
{
    cv_arena *a = cv_arena_new();
    cv_style s = st;
    s.page_h = 140, s.margin_top = s.margin_bottom = 20;   /* room for 10 items */
    cv_vlist vl = make_list(a, 25, NULL);
    cv_display *d = cv_flow(a, &vl, &s);
    CHECK(d->npages == 3);
    cv_arena_free(a);
}

TEST(flow_honours_keep_with_next)
{
    cv_arena *a = cv_arena_new();
    cv_style s = st;
    s.page_h = 140, s.margin_top = s.margin_bottom = 20;
    /* Items 8 and 9 (0-based) keep with their next: the break moves up so
     * item 8 starts page 2 together with 9 and 10. */
    cv_vlist vl = make_list(a, 12, "........kk..");
    for (size_t i = 0; i < vl.n; i++) {
        cv_vitem *it = &vl.items[i];
        cv_line *ln = cv_arena_alloc(a, sizeof *ln);
        ln->runs = cv_arena_alloc(a, sizeof *ln->runs);
        ln->nruns = 1;
        ln->runs[0].n = 0;
        ln->runs[0].width = (float)i;       /* tag the item */
        cv_piece p = {ln, 0, 5};
        CV_PUSH(a, it->pieces, it->npieces, it->cpieces, p);
    }
    cv_display *d = cv_flow(a, &vl, &s);
    CHECK(d->npages == 2);
    if (d->npages == 2) {
        CHECK(d->pages[0].nruns == 8);
        CHECK(d->pages[1].nruns == 4);
        CHECK_NUM(d->pages[1].runs[0].width, 8, 0);
    }
    cv_arena_free(a);
}

TEST(flow_drops_space_at_page_top)
{
    cv_arena *a = cv_arena_new();
    cv_style s = st;
    s.page_h = 140, s.margin_top = s.margin_bottom = 20;
    cv_vlist vl = make_list(a, 11, NULL);
    for (size_t i = 0; i < vl.n; i++) {
        vl.items[i].space_before = i == 10 ? 30 : 0;
        cv_line *ln = cv_arena_alloc(a, sizeof *ln);
        ln->runs = cv_arena_alloc(a, sizeof *ln->runs);
        ln->nruns = 1;
        cv_piece p = {ln, 0, 5};
        CV_PUSH(a, vl.items[i].pieces, vl.items[i].npieces, vl.items[i].cpieces, p);
    }
    cv_display *d = cv_flow(a, &vl, &s);
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
    bool ok = cv_style_load(a, "build/san/t-layout.yaml", fs, s, err);
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

int main(void)
{
    setup();
    RUN(wrap_greedy_fills_lines);
    RUN(wrap_justified_lines_fill_the_measure);
    RUN(wrap_never_overfull);
    RUN(wrap_breaks_between_chinese_characters);
    RUN(wrap_fallback_per_code_point);
    RUN(wrap_warns_about_missing_glyph);
    RUN(wrap_rejects_astral_code_points);
    RUN(wrap_kerning_is_measured);
    RUN(flow_fills_pages);
    RUN(flow_honours_keep_with_next);
    RUN(flow_drops_space_at_page_top);
    RUN(style_lengths);
    RUN(style_extends_and_overrides);
    RUN(style_unknown_key_suggests);
    RUN(style_bad_values);
    cv_fontset_free(fs);
    cv_arena_free(setup_arena);
    return harness_report("engine");
}
