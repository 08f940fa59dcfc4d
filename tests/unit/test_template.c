/* test_template.c - entry templates: placeholders, empty ones and their
 * separators, values, the running header's placeholders, positions. */
#include "template.h"
#include "harness.h"

#include "fixture.h"

static cv_arena *A;

/* Spans back as markup, neighbours of one style and link together:
 * "**bold**", "*italic*", "[text](url)". */
static const char *show(const cv_span *sp, size_t n)
{
    const char *s = "";
    for (size_t i = 0; i < n;) {
        const char *text = "";
        size_t j = i;
        for (; j < n && sp[j].style == sp[i].style &&
               (sp[j].link == sp[i].link || (sp[j].link && sp[i].link &&
                                             !strcmp(sp[j].link, sp[i].link)));
             j++)
            text = cv_arena_printf(A, "%s%.*s", text, (int)sp[j].len, sp[j].text);
        unsigned st = sp[i].style;
        const char *mark = (st & CV_STYLE_BOLD) && (st & CV_STYLE_ITALIC) ? "***"
                           : st & CV_STYLE_BOLD                           ? "**"
                           : st & CV_STYLE_ITALIC                         ? "*"
                                                                          : "";
        const char *t = cv_arena_printf(A, "%s%s%s", mark, text, mark);
        if (sp[i].link)
            t = cv_arena_printf(A, "[%s](%s)", t, sp[i].link);
        s = cv_arena_printf(A, "%s%s", s, t);
        i = j;
    }
    return s;
}

static const cv_doc *D;

/* Entry `i` of section `s` of the test profile. */
static const cv_entry *entry(size_t s, size_t i)
{
    return &D->sections[s].entries[i];
}

static const char *expand(const char *tmpl, const cv_entry *e)
{
    cv_span *sp;
    size_t n = cv_template_expand(A, tmpl, e, D, &sp);
    return n ? show(sp, n) : NULL;
}

static const char *profile =
    "cv:\n"
    "  name: Jiarui Fang\n"
    "  email: jf@example.com\n"
    "  website: https://fang.example.com/\n"
    "  location: Beijing\n"
    "  sections:\n"
    "    education:\n"
    "      - institution: Tsinghua University\n"
    "        area: Computer Science\n"
    "        start_date: 2014-09\n"
    "      - institution: PKU\n"
    "        area: Physics\n"
    "        degree: '**PhD**'\n"
    "        date: Fall 2020\n"
    "    publications:\n"
    "      - title: PatrickStar\n"
    "        authors: [Shenggui Li, J. Fang, Yang You]\n"
    "        journal: IEEE TPDS\n"
    "        url: https://example.com/paper/\n"
    "      - title: FastFold\n"
    "        authors: [A. B]\n"
    "        doi: 10.1109/x.1\n"
    "        url: https://example.com/ignored\n"
    "      - title: Alone\n"
    "        authors: [A. B]\n"
    "    skills:\n"
    "      - label: Languages\n"
    "        details: C, CUDA\n"
    "    experience:\n"
    "      - company: Tencent\n"
    "        position: Engineer\n"
    "      - company: Blank\n"
    "        position: ' '\n"
    "        location: \" \\t \"\n";

TEST(template_empty_placeholder_takes_its_separator)
{
    /* docs/layouts.md's examples. */
    CHECK_STR(expand("*DEGREE in AREA*", entry(0, 0)), "*Computer Science*");
    CHECK_STR(expand("*DEGREE in AREA*", entry(0, 1)), "***PhD**** in Physics*");
    CHECK_STR(expand("*JOURNAL* · DOI · URL", entry(1, 0)),
              "*IEEE TPDS* · [example.com/paper](https://example.com/paper/)");
    CHECK_STR(expand("*JOURNAL* · DOI · URL", entry(1, 1)),
              "[doi:10.1109/x.1](https://doi.org/10.1109/x.1)");
    CHECK(expand("*JOURNAL* · DOI · URL", entry(1, 2)) == NULL);     /* the line goes */
    CHECK_STR(expand("DATE · LOCATION", entry(0, 0)), "Sep\xC2\xA0" "2014\xC2\xA0– present");
    CHECK_STR(expand("**LABEL:** DETAILS", entry(2, 0)), "**Languages:** C, CUDA");
    CHECK_STR(expand("**COMPANY:** LOCATION", entry(3, 0)), "**Tencent**");   /* the colon goes */
    CHECK(expand("(DATE)", entry(1, 0)) == NULL);
    /* RenderCV's refinements: a bracket written against a shown value
     * stays with it; a word of its own markup stays, with its space. */
    CHECK_STR(expand("URL (JOURNAL)", entry(1, 2)), NULL);
    CHECK_STR(expand("DOI (JOURNAL)", entry(1, 0)), "(IEEE TPDS)");
    CHECK_STR(expand("(JOURNAL) DOI", entry(1, 0)), "(IEEE TPDS)");
    CHECK_STR(expand("*DEGREE* *in* *AREA*", entry(0, 0)), "*in* *Computer Science*");
    CHECK_STR(expand("*DEGREE* *in* *AREA*", entry(0, 1)), "***PhD*** *in* *Physics*");
    CHECK_STR(expand("**COMPANY**, POSITION", entry(3, 0)), "**Tencent**, Engineer");
    CHECK_STR(expand("**COMPANY**, LOCATION", entry(3, 0)), "**Tencent**");
    /* A value of blanks alone is as empty as none: its separator goes. */
    CHECK_STR(expand("**COMPANY**, POSITION", entry(3, 1)), "**Blank**");
    CHECK_STR(expand("**COMPANY:** LOCATION", entry(3, 1)), "**Blank**");
    /* A line without placeholders is always there. */
    CHECK_STR(expand("*Selected*", entry(1, 2)), "*Selected*");
}

TEST(template_placeholders_are_whole_words)
{
    CHECK_STR(expand("AREAS of AREA's", entry(0, 0)), "AREAS of Computer Science's");
    CHECK_STR(expand("MY_DATE (DATE)", entry(0, 1)), "MY_DATE (Fall 2020)");
    CHECK_STR(expand("xCOMPANY COMPANY2 COMPANY", entry(3, 0)), "xCOMPANY COMPANY2 Tencent");
    /* The running header's placeholders are known, and empty, here. */
    CHECK_STR(expand("PAGE_NUMBER · COMPANY", entry(3, 0)), "Tencent");
    CHECK(expand("EMAIL", entry(3, 0)) == NULL);
    /* ... and a field another entry type has is empty too. */
    CHECK_STR(expand("COMPANY, INSTITUTION", entry(0, 0)), "Tsinghua University");
}

TEST(template_values)
{
    CHECK_STR(expand("AUTHORS", entry(1, 0)),
              "Shenggui\xC2\xA0" "Li, **J.\xC2\xA0" "Fang**, Yang\xC2\xA0" "You");
    CHECK_STR(expand("START_DATE to END_DATE", entry(0, 0)), "Sep 2014 to present");
    CHECK(expand("START_DATE", entry(0, 1)) == NULL);     /* `date` is not a range */
    CHECK_STR(expand("DATE", entry(0, 1)), "Fall 2020");
    /* A value takes the style and link of the place it fills. */
    CHECK_STR(expand("[**TITLE**](https://t.org)", entry(1, 0)),
              "[**PatrickStar**](https://t.org)");
    /* Placeholders in a link's target are not replaced. */
    CHECK_STR(expand("[x](URL)", entry(1, 0)), "[x](URL)");
}

TEST(template_page_placeholders)
{
    cv_span *sp;
    cv_pagevars pv = {2, 5, "Nov 2026"};
    size_t n = cv_template_expand_page(A, "PAGE_NUMBER / TOTAL_PAGES", D, &pv, &sp);
    CHECK_STR(show(sp, n), "2 / 5");
    n = cv_template_expand_page(A, "*LAST_UPDATED CURRENT_DATE*", D, &pv, &sp);
    CHECK_STR(show(sp, n), "*Last updated in Nov 2026*");
    n = cv_template_expand_page(A, "NAME · EMAIL · WEBSITE · LOCATION · COMPANY", D, &pv, &sp);
    CHECK_STR(show(sp, n), "Jiarui Fang · jf@example.com · fang.example.com/ · Beijing");
    /* No date: both date placeholders are empty, with their separators. */
    pv.date = NULL;
    CHECK(cv_template_expand_page(A, "*LAST_UPDATED CURRENT_DATE*", D, &pv, &sp) == 0);
    CHECK(sp == NULL);
}

TEST(template_positions)
{
    const cv_entry *e = entry(0, 0);
    CHECK(cv_template_pos("**INSTITUTION**", e).line == e->institution.pos.line);
    CHECK(cv_template_pos("*DEGREE in AREA*", e).line == e->area.pos.line);
    CHECK(cv_template_pos("DATE", e).line == e->start_date.pos.line);   /* the range's start */
    CHECK(cv_template_pos("*JOURNAL*", e).line == e->pos.line);         /* nothing: the entry */
    const cv_entry *p = entry(1, 0);
    CHECK(cv_template_pos("AUTHORS", p).line == p->authors[0].pos.line);
    CHECK(p->authors[0].pos.line != p->pos.line);
}

TEST(template_profile_text)
{
    cv_arena *a = cv_arena_new();
    cv_doc *d = fx_doc(a, "settings:\n  bold_keywords: [PyTorch, CUDA]\n"
                          "cv:\n  name: Ada\n");
    cv_span *sp;
    size_t n = cv_template_text(a, d, "PyTorch and *CUDA* kernels, not PyTorchX", 0, &sp);
    CHECK_STR(show(sp, n), "**PyTorch** and ***CUDA*** kernels, not PyTorchX");
    n = cv_template_text(a, d, "no keyword", CV_STYLE_ITALIC, &sp);
    CHECK_STR(show(sp, n), "*no keyword*");
    /* A keyword with a space matches a name of an author list, whose
     * spaces are no-break spaces. */
    cv_doc *j = fx_doc(a, "settings:\n  bold_keywords: [Jun Fang]\ncv:\n  name: Ada\n");
    n = cv_template_text(a, j, "Yang\xC2\xA0" "You, Jun\xC2\xA0" "Fang, Jun Fang", 0, &sp);
    CHECK_STR(show(sp, n), "Yang\xC2\xA0" "You, **Jun\xC2\xA0" "Fang**, **Jun Fang**");
    /* Not in the running header: the owner's name there stays as the
     * layout sets it. */
    cv_doc *o = fx_doc(a, "settings:\n  bold_keywords: [Ada Lovelace]\n"
                          "cv:\n  name: Ada Lovelace\n");
    cv_pagevars pv = {2, 3, NULL};
    n = cv_template_expand_page(a, "NAME \xC2\xB7 PAGE_NUMBER", o, &pv, &sp);
    CHECK_STR(show(sp, n), "Ada Lovelace \xC2\xB7 2");
    n = cv_template_expand_page(a, "*NAME*", o, &pv, &sp);
    CHECK_STR(show(sp, n), "*Ada Lovelace*");
    cv_arena_free(a);
}

TEST(template_links)
{
    CHECK_STR(cv_template_url_shown(A, "https://github.com/x/"), "github.com/x");
    CHECK_STR(cv_template_url_shown(A, "http://a.b"), "a.b");
    CHECK_STR(cv_template_url_shown(A, "ftp://a.b/"), "ftp://a.b");
    CHECK_STR(cv_template_link(A, "a*b]", "https://x.y"), "[a\\*b\\]](https://x.y)");
}

int main(void)
{
    A = cv_arena_new();
    D = fx_doc(A, profile);
    RUN(template_empty_placeholder_takes_its_separator);
    RUN(template_placeholders_are_whole_words);
    RUN(template_values);
    RUN(template_page_placeholders);
    RUN(template_positions);
    RUN(template_profile_text);
    RUN(template_links);
    cv_arena_free(A);
    return harness_report("template");
}
