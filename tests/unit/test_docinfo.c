/* test_docinfo.c - the PDF's document information from profile and layout. */
#include "docinfo.h"
#include "harness.h"

#include "fixture.h"

static cv_style st;

TEST(docinfo_fields)
{
    cv_arena *a = cv_arena_new();
    cv_doc *doc = fx_doc(a, "locale:\n  language: de\n  month_names: [a,b,c,d,e,f,g,h,i,j,k,l]\n"
                            "  month_abbreviations: [a,b,c,d,e,f,g,h,i,j,k,l]\n"
                            "  present: heute\n"
                            "cv:\n  name: '**Ada** Lovelace'\n  headline: Analyst of *engines*\n"
                            "  sections:\n    experience:\n      - Text\n"
                            "    selected_honors:\n      - Text\n");
    cv_display d = {0};
    cv_style s = st;
    s.title_template = "CV of NAME (NAME)";
    s.pdfa = true;
    cv_display_set_info(a, &d, doc, &s);
    CHECK_STR(d.author, "Ada Lovelace");
    CHECK_STR(d.title, "CV of Ada Lovelace (NAME)");     /* the first NAME only */
    CHECK_STR(d.subject, "Analyst of engines");
    CHECK_STR(d.keywords, "Experience, Selected Honors");
    CHECK_STR(d.lang, "de");
    CHECK(d.pdfa);
    /* `pdf: title: ~`: no title. */
    s.title_template = NULL;
    cv_display_set_info(a, &d, doc, &s);
    CHECK(d.title == NULL);
    cv_arena_free(a);
}

TEST(docinfo_keywords_stop_at_1000_bytes)
{
    cv_arena *a = cv_arena_new();
    const char *y = "cv:\n  name: Ada\n  sections:\n";
    for (int i = 0; i < 60; i++)
        y = cv_arena_printf(a, "%s    Section number %02d with a long title:\n      - Text\n",
                            y, i);
    cv_display d = {0};
    cv_display_set_info(a, &d, fx_doc(a, y), &st);
    CHECK(d.keywords && strlen(d.keywords) <= 1000 && strlen(d.keywords) > 900);
    /* Whole titles only. */
    size_t n = strlen(d.keywords);
    CHECK(n > 5 && !strcmp(d.keywords + n - 5, "title"));
    CHECK(!strncmp(d.keywords, "Section number 00 with a long title, ", 37));
    /* No sections: no keywords. */
    cv_display_set_info(a, &d, fx_doc(a, "cv:\n  name: Ada\n"), &st);
    CHECK(d.keywords == NULL && d.subject == NULL);
    cv_arena_free(a);
}

/* A profile without a name (RenderCV allows it): no author, and a title
 * without the name and the dash that set it off ("— Résumé" was the
 * title viewers showed). */
TEST(docinfo_without_a_name)
{
    cv_arena *a = cv_arena_new();
    static const char *const profiles[] = {
        "cv:\n  headline: H\n", "cv:\n  name: ''\n  headline: H\n",
        "cv:\n  name: '   '\n  headline: H\n"};
    cv_style s = st;
    for (size_t i = 0; i < 3; i++) {
        cv_doc *doc = fx_doc(a, profiles[i]);
        cv_display d = {0};
        s.title_template = "NAME \xE2\x80\x94 R\xC3\xA9sum\xC3\xA9";
        cv_display_set_info(a, &d, doc, &s);
        CHECK(d.author == NULL);
        CHECK_STR(d.title, "R\xC3\xA9sum\xC3\xA9");
        s.title_template = "CV of NAME";
        cv_display_set_info(a, &d, doc, &s);
        CHECK_STR(d.title, "CV of");
        s.title_template = "CV: NAME (2024)";
        cv_display_set_info(a, &d, doc, &s);
        CHECK_STR(d.title, "CV (2024)");
    }
    /* RenderCV's settings.pdf_title ("NAME - CV"). */
    cv_display d = {0};
    cv_display_set_info(a, &d, fx_doc(a, "cv:\n  headline: H\nsettings:\n  pdf_title: NAME - CV\n"),
                        &st);
    CHECK_STR(d.title, "CV");
    cv_display_set_info(a, &d, fx_doc(a, "cv:\n  name: Ada\nsettings:\n  pdf_title: NAME - CV\n"),
                        &st);
    CHECK_STR(d.title, "Ada - CV");
    cv_arena_free(a);
}

int main(void)
{
    fx_setup();
    fx_style("layouts/onecolumn.yaml", &st);
    RUN(docinfo_fields);
    RUN(docinfo_keywords_stop_at_1000_bytes);
    RUN(docinfo_without_a_name);
    fx_teardown();
    return harness_report("docinfo");
}
