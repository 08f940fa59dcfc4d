/* test_markup.c - inline markup: emphasis, links, escapes, literal stars. */
#include "harness.h"
#include "markup.h"

#include <stdlib.h>

static cv_arena *A;

/* Spans as one string: plain text as is, styled text as <BI@url:text>. */
static const char *show_base(const char *s, unsigned base)
{
    static char out[4096];
    cv_span *sp;
    size_t n = cv_markup_parse(A, s, base, &sp);
    size_t w = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && w < sizeof out - 1; i++) {
        if (strlen(sp[i].text) != sp[i].len)
            return "(len mismatch)";
        if (!sp[i].style && !sp[i].link) {
            w += (size_t)snprintf(out + w, sizeof out - w, "%s", sp[i].text);
            continue;
        }
        w += (size_t)snprintf(out + w, sizeof out - w, "<%s%s%s%s:%s>",
                              sp[i].style & CV_STYLE_BOLD ? "B" : "",
                              sp[i].style & CV_STYLE_ITALIC ? "I" : "", sp[i].link ? "@" : "",
                              sp[i].link ? sp[i].link : "", sp[i].text);
    }
    return out;
}

static const char *show(const char *s)
{
    return show_base(s, 0);
}

static size_t count(const char *s)
{
    cv_span *sp;
    return cv_markup_parse(A, s, 0, &sp);
}

TEST(plain)
{
    CHECK_STR(show("plain text"), "plain text");
    CHECK(count("plain text") == 1);
    CHECK(count("") == 0);
    CHECK(count(NULL) == 0);
}

TEST(emphasis)
{
    CHECK_STR(show("**bold**"), "<B:bold>");
    CHECK_STR(show("*italic*"), "<I:italic>");
    CHECK_STR(show("***both***"), "<BI:both>");
    CHECK_STR(show("a **b** c"), "a <B:b> c");
    CHECK_STR(show("**Ada Lovelace**, Analyst"), "<B:Ada Lovelace>, Analyst");
    CHECK_STR(show("(**bold**)"), "(<B:bold>)");
    CHECK_STR(show("**\"quoted\"**"), "<B:\"quoted\">");
}

TEST(nesting)
{
    CHECK_STR(show("a **b *c* d** e"), "a <B:b ><BI:c><B: d> e");
    CHECK_STR(show("*a **b** c*"), "<I:a ><BI:b><I: c>");
    CHECK_STR(show("*a **b***"), "<I:a ><BI:b>");
    CHECK_STR(show("***a** b*"), "<BI:a><I: b>");
    CHECK_STR(show("*foo**bar**baz*"), "<I:foo><BI:bar><I:baz>");
    CHECK_STR(show("**foo*"), "*<I:foo>");
    CHECK_STR(show("*foo**"), "<I:foo>*");
    CHECK_STR(show("**a****b**"), "<B:a****b>"); /* rule of three, as CommonMark */
}

TEST(literal_stars)
{
    CHECK_STR(show("2 * 3 = 6"), "2 * 3 = 6");
    CHECK_STR(show("a * b * c"), "a * b * c");
    CHECK_STR(show("*"), "*");
    CHECK_STR(show("**"), "**");
    CHECK_STR(show("*****"), "*****");
    CHECK_STR(show("**unclosed"), "**unclosed");
    CHECK_STR(show("unopened**"), "unopened**");
    CHECK_STR(show("* list-like"), "* list-like");
    CHECK_STR(show("rated 5* hotel"), "rated 5* hotel");
    CHECK_STR(show("** not bold**"), "** not bold**");
    CHECK_STR(show("**not bold **"), "**not bold **");
}

TEST(intraword)
{
    CHECK_STR(show("a*b*c"), "a<I:b>c");
    CHECK_STR(show("un**frigging**believable"), "un<B:frigging>believable");
    /* Underscores emphasise only at a word's edge (Markdown's, RenderCV's). */
    CHECK_STR(show("snake_case_name and _x_"), "snake_case_name and <I:x>");
    CHECK_STR(show("__bold__ and _it_alic_"), "<B:bold> and <I:it_alic>");
    CHECK_STR(show("a_b_ and _c*d_*"), "a_b_ and <I:c*d>*");
    CHECK_STR(show("_ x _ and 2_000_000"), "_ x _ and 2_000_000");
    CHECK_STR(show("C*"), "C*");
}

TEST(unicode)
{
    CHECK_STR(show("**粗体**。"), "<B:粗体>。");
    CHECK_STR(show("中文**加粗**中文"), "中文<B:加粗>中文");
    CHECK_STR(show("**「引用」**后"), "<B:「引用」>后");
    CHECK_STR(show("**Boğaziçi** Üniversitesi"), "<B:Boğaziçi> Üniversitesi");
    /* NBSP and the ideographic space are spaces. */
    CHECK_STR(show("a\xC2\xA0*\xC2\xA0" "b"), "a\xC2\xA0*\xC2\xA0" "b");
    CHECK_STR(show("\xE3\x80\x80**x**"), "\xE3\x80\x80<B:x>");
    CHECK_STR(show("x**\xE3\x80\x80"), "x**\xE3\x80\x80");
}

TEST(links)
{
    CHECK_STR(show("[text](https://x.org)"), "<@https://x.org:text>");
    CHECK_STR(show("see [my site](https://x.org/a_b) now"), "see <@https://x.org/a_b:my site> now");
    CHECK_STR(show("[**bold** link](u)"), "<B@u:bold><@u: link>");
    CHECK_STR(show("**[link](u) text**"), "<B@u:link><B: text>");
    CHECK_STR(show("*[a](u)*"), "<I@u:a>");
    CHECK_STR(show("[a](u)[b](v)"), "<@u:a><@v:b>");
    CHECK_STR(show("[a](u)[b](u)"), "<@u:ab>");
    CHECK_STR(show("[C](https://en.wikipedia.org/wiki/C_(language))"),
              "<@https://en.wikipedia.org/wiki/C_(language):C>");
    CHECK_STR(show("[a](<u v>)"), "<@u v:a>");
    CHECK_STR(show("[a](u \"title\")"), "<@u:a>");
    CHECK_STR(show("[a]( u )"), "<@u:a>");
    CHECK_STR(show("[](https://x.org)"), "<@https://x.org:https://x.org>");
    CHECK_STR(show("[a](u\\)v)"), "<@u)v:a>");
}

TEST(link_edges)
{
    CHECK_STR(show("[not a link]"), "[not a link]");
    CHECK_STR(show("[x]("), "[x](");
    CHECK_STR(show("[x](u"), "[x](u");
    CHECK_STR(show("[x] (u)"), "[x] (u)");
    CHECK_STR(show("a]b"), "a]b");
    CHECK_STR(show("[[a](u)"), "[<@u:a>");
    CHECK_STR(show("[outer [inner](u) x](v)"), "[outer <@u:inner> x](v)");
    CHECK_STR(show("[a *b](u) c*"), "<@u:a *b> c*");
    CHECK_STR(show("*a [b* c](u)"), "*a <@u:b* c>");
    CHECK_STR(show("[a](u v)"), "[a](u v)");
    CHECK_STR(show("[a](u \"t)"), "[a](u \"t)");
}

TEST(escapes)
{
    CHECK_STR(show("\\*not italic\\*"), "*not italic*");
    CHECK(count("\\*not italic\\*") == 1);
    CHECK_STR(show("\\*\\*not bold\\*\\*"), "**not bold**");
    CHECK_STR(show("\\[x\\](y)"), "[x](y)");
    CHECK_STR(show("C:\\path"), "C:\\path");
    CHECK_STR(show("a\\\\b"), "a\\b");
    CHECK_STR(show("end\\"), "end\\");
    CHECK_STR(show("**a\\*b**"), "<B:a*b>");
    CHECK_STR(show("\\_x\\_"), "_x_");
    CHECK_STR(show("\\é"), "\\é");
}

TEST(base_style)
{
    CHECK_STR(show_base("x **y**", CV_STYLE_BOLD), "<B:x y>");
    CHECK_STR(show_base("x *y*", CV_STYLE_BOLD), "<B:x ><BI:y>");
    cv_span *sp;
    CHECK(cv_markup_parse(A, "plain", CV_STYLE_ITALIC, &sp) == 1 && sp[0].style == CV_STYLE_ITALIC);
}

TEST(strip)
{
    CHECK_STR(cv_markup_strip(A, "**Ada** [site](https://x.org) \\* 2 * 3"), "Ada site * 2 * 3");
    CHECK_STR(cv_markup_strip(A, ""), "");
    CHECK_STR(cv_markup_strip(A, "***"), "***");
}

TEST(autolinks)
{
    cv_span *sp;
    size_t n = cv_markup_parse(A, "see <https://ex.example.com/a_b> or <ada@ex.co>.", 0, &sp);
    CHECK(n == 5);
    if (n == 5) {
        CHECK_STR(sp[1].text, "https://ex.example.com/a_b");
        CHECK_STR(sp[1].link, "https://ex.example.com/a_b");
        CHECK_STR(sp[3].text, "ada@ex.co");
        CHECK_STR(sp[3].link, "mailto:ada@ex.co");
    }
    CHECK_STR(show("a <b> and <x y> and <ftp://x>"), "a <b> and <x y> and <ftp://x>");
}

TEST(escape_roundtrip)
{
    CHECK_STR(cv_markup_escape(A, "2*3 [x](y) a\\b"), "2\\*3 \\[x\\](y) a\\\\b");
    CHECK_STR(cv_markup_escape(A, ""), "");
    static const char *const samples[] = {
        "**not bold**", "*x*", "[a](b)", "a\\*b", "back\\", "\\", "snake_case", "***", "]",
        "C++ & C#", "中文**x**", "_x_ __y__", "<https://a.example.com> <a@b.co>", NULL};
    for (size_t i = 0; samples[i]; i++) {
        const char *e = cv_markup_escape(A, samples[i]);
        CHECK_STR(cv_markup_strip(A, e), samples[i]);
        cv_span *sp;
        size_t n = cv_markup_parse(A, e, 0, &sp);
        CHECK(n == 1 && sp[0].style == 0 && sp[0].link == NULL);
    }
}

TEST(pathological)
{
    /* Many unmatched openers, closers and brackets stay linear enough. */
    size_t n = 20000;
    char *s = malloc(3 * n + 1);
    for (size_t i = 0; i < n; i++)
        memcpy(s + 3 * i, "*a ", 3);
    s[3 * n] = '\0';
    CHECK(count(s) == 1);
    for (size_t i = 0; i < n; i++)
        memcpy(s + 3 * i, "a* ", 3);
    CHECK(count(s) == 1);
    memset(s, '[', 3 * n);
    CHECK_STR(cv_markup_strip(A, s), s);
    memset(s, ']', 3 * n);
    s[0] = '[';
    CHECK_STR(cv_markup_strip(A, s), s);
    memset(s, '*', 3 * n);
    CHECK_STR(cv_markup_strip(A, s), s);
    free(s);

    /* Emphasis nested n deep ("**a **a ... b a* a* ..."): each closer takes
     * one star of the nearest opener still open, so the inner n/2 openers
     * are used up by two closers each and the outer n/2 print as they are.
     * This was quadratic (15 s for n = 40,000). */
    n = 40000;
    s = malloc(7 * n + 2);
    for (size_t i = 0; i < n; i++)
        memcpy(s + 4 * i, "**a ", 4);
    s[4 * n] = 'b';
    for (size_t i = 0; i < n; i++)
        memcpy(s + 4 * n + 1 + 3 * i, " a*", 3);
    s[7 * n + 1] = '\0';
    cv_span *sp;
    size_t k = cv_markup_parse(A, s, 0, &sp);
    CHECK(k == 2);
    CHECK(k == 2 && sp[0].style == 0 && sp[0].len == 2 * n &&
          sp[1].style == CV_STYLE_ITALIC && sp[1].len == 3 * n + 1);
    CHECK_STR(show("**a **a b a* a*"), "**a <I:a b a a>");
    free(s);
}

/* Walks for link destinations and titles that fail far away: each ']'
 * used to walk (and copy) the rest of the string, 10 s and 2 GB for 8,000
 * of the first pattern; now a destination nests parentheses at most 32
 * deep and a title walk stops on the path of the last one. */
static char *repeat(const char *unit, size_t n, const char *tail)
{
    size_t u = strlen(unit), t = strlen(tail);
    char *s = malloc(u * n + t + 1);
    for (size_t i = 0; i < n; i++)
        memcpy(s + u * i, unit, u);
    memcpy(s + u * n, tail, t + 1);
    return s;
}

TEST(link_walks)
{
    size_t n = 100000;
    char *s = repeat("[a](()()()()()", n, "");
    CHECK_STR(cv_markup_strip(A, s), s);        /* no link: all of it is text */
    free(s);
    s = repeat("[a](x (yyy", n, ")");
    CHECK_STR(cv_markup_strip(A, s), s);
    free(s);
    s = repeat("[a](x \"y", n, "");
    CHECK_STR(cv_markup_strip(A, s), s);
    free(s);

    /* The results stay CommonMark's where walks meet. */
    CHECK_STR(show("[a](x (t)) [b](y (u))"), "<@x:a> <@y:b>");
    CHECK_STR(show("[a](x \"t\") [b](y \"u\")"), "<@x:a> <@y:b>");
    CHECK_STR(show("[a](x 'it\\'s') [b](y 'u')"), "<@x:a> <@y:b>");
    CHECK_STR(show("[a](x (t) [b](y (u))"), "[a](x (t) <@y:b>");
    CHECK_STR(show("[a](b(c)d)"), "<@b(c)d:a>");
    CHECK_STR(show("[a](<b c>)"), "<@b c:a>");
    CHECK_STR(show("[a](b\\)c)"), "<@b)c:a>");
    /* 32 parentheses deep is a URL, 33 is text. */
    for (size_t depth = 32; depth <= 33; depth++) {
        char deep[128] = "[a](", url[128] = "<@";
        for (size_t i = 0; i < depth; i++)
            strcat(deep, "(");
        strcat(deep, "x");
        for (size_t i = 0; i < depth; i++)
            strcat(deep, ")");
        strcat(url, deep + 4);
        strcat(deep, ")");
        strcat(url, ":a>");
        CHECK_STR(show(deep), depth == 32 ? url : deep);
    }
}

TEST(addresses)
{
    cv_span mail = {"pat.o'brien@example.com", 23, 0, "mailto:pat.o'brien@example.com"};
    cv_span site = {"example.com/o'brien", 19, 0, "https://example.com/o'brien"};
    cv_span words = {"Dad's page", 10, 0, "https://example.com/"};
    cv_span plain = {"o'brien@example.com", 19, 0, NULL};
    cv_span user = {"o'brien", 7, 0, "https://github.com/o'brien"};
    CHECK(cv_markup_is_address(&mail));
    CHECK(cv_markup_is_address(&site));
    CHECK(!cv_markup_is_address(&words));     /* a link's words are prose */
    CHECK(!cv_markup_is_address(&plain));     /* no link: prose */
    CHECK(!cv_markup_is_address(&user));      /* one word, but no address */
}

TEST(code_spans)
{
    cv_span *sp;
    size_t n = cv_markup_parse(A, "run `make -j2` now", 0, &sp);
    CHECK(n == 3);
    CHECK(n == 3 && sp[1].style == CV_STYLE_CODE && !strcmp(sp[1].text, "make -j2"));
    /* Literal inside: no emphasis, no links; a longer run holds a backtick. */
    n = cv_markup_parse(A, "`**a** [b](c)` and ``x ` y``", 0, &sp);
    CHECK(n == 3 && !strcmp(sp[0].text, "**a** [b](c)") && sp[0].style == CV_STYLE_CODE);
    CHECK(n == 3 && !strcmp(sp[2].text, "x ` y"));
    /* Emphasis around code styles it too; an unclosed backtick is literal. */
    n = cv_markup_parse(A, "**`x`**", 0, &sp);
    CHECK(n == 1 && sp[0].style == (CV_STYLE_CODE | CV_STYLE_BOLD));
    n = cv_markup_parse(A, "it`s", 0, &sp);
    CHECK(n == 1 && !strcmp(sp[0].text, "it`s") && sp[0].style == 0);
    CHECK_STR(cv_markup_strip(A, cv_markup_escape(A, "a`b`c")), "a`b`c");
}

int main(void)
{
    A = cv_arena_new();
    RUN(plain);
    RUN(emphasis);
    RUN(nesting);
    RUN(literal_stars);
    RUN(intraword);
    RUN(unicode);
    RUN(links);
    RUN(link_edges);
    RUN(escapes);
    RUN(base_style);
    RUN(strip);
    RUN(autolinks);
    RUN(escape_roundtrip);
    RUN(pathological);
    RUN(link_walks);
    RUN(code_spans);
    RUN(addresses);
    cv_arena_free(A);
    return harness_report("markup");
}
