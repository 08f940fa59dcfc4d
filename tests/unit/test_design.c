/* test_design.c - RenderCV's design: as layout keys (its dates and time
 * spans too), its checks. */
#include "design.h"
#include "harness.h"

static cv_arena *A;
#include "errcheck.h"

static cv_design D;

/* Read `yaml` (the mapping under design:); false with the error in E. */
static bool design(const char *yaml)
{
    cv_error_init(&E);
    E.quiet = true;
    cv_yml *root = cv_yml_load(A, "d.yaml", yaml, strlen(yaml), &E);
    return root && cv_design_read(A, root, &D, &E);
}

/* The layout value at a dotted path, as a string ("" for a list). */
static const char *at(const char *path)
{
    const cv_yml *n = D.layout;
    char key[64];
    while (n && *path) {
        size_t k = strcspn(path, ".");
        snprintf(key, sizeof key, "%.*s", (int)k, path);
        n = cv_yml_get(n, key);
        path += k + (path[k] == '.');
    }
    return !n ? NULL : n->kind == CV_YML_SCALAR ? n->str : "";
}

/* Item i of the layout list at `path`, or NULL. */
static const char *item(const char *path, size_t i)
{
    const char *dot = strchr(path, '.');
    char sec[64];
    snprintf(sec, sizeof sec, "%.*s", (int)(dot - path), path);
    const cv_yml *n = cv_yml_get(cv_yml_get(D.layout, sec), dot + 1);
    return n && n->kind == CV_YML_SEQ && i < n->n ? n->items[i]->str : NULL;
}

TEST(theme_and_defaults)
{
    CHECK(design("theme: ink\n"));
    CHECK_STR(D.theme, "ink");
    CHECK(D.layout && D.layout->n == 3);
    CHECK_STR(at("header.phone_format"), "national");     /* RenderCV's default */
    CHECK_STR(at("pagination.pull_back_last_page"), "false");   /* RenderCV's pages */
    /* RenderCV's dates in every theme and language; no time spans in ink. */
    CHECK_STR(at("dates.single"), "MONTH_ABBREVIATION YEAR");
    CHECK_STR(item("dates.english_month_abbreviations", 5), "June");
    CHECK_STR(item("dates.english_month_abbreviations", 8), "Sept");
    CHECK(!item("dates.english_month_abbreviations", 12));
    CHECK(!at("dates.show_time_spans_in") && !at("dates.range") && !at("dates.time_span"));
    CHECK(design("{}\n"));
    CHECK_STR(D.theme, "classic");
    CHECK_STR(item("dates.show_time_spans_in", 0), "experience");   /* classic's default */
    CHECK(!item("dates.show_time_spans_in", 1));
    /* templates: single_date, date_range and time_span become dates.* */
    CHECK(design("templates: {single_date: MONTH_NAME YEAR, date_range: START_DATE to END_DATE,"
                 " time_span: HOW_MANY_YEARS YEARS}\n"));
    CHECK_STR(at("dates.single"), "MONTH_NAME YEAR");
    CHECK_STR(at("dates.range"), "START_DATE to END_DATE");
    CHECK_STR(at("dates.time_span"), "HOW_MANY_YEARS YEARS");
    /* An empty single_date is RenderCV's default; a null time_span none. */
    CHECK(design("templates: {single_date: '', time_span: null}\n"));
    CHECK_STR(at("dates.single"), "MONTH_ABBREVIATION YEAR");
    CHECK_STR(at("dates.time_span"), "");
    CHECK(!at("dates.range"));
    CHECK(!design("theme: clasic\n"));
    CHECK_STR(errstr(), "1:8: unknown theme 'clasic' (did you mean 'classic'?) (one of: classic, "
                        "engineeringresumes, engineeringclassic, sb2nov, moderncv, harvard, ink, "
                        "opal, ember)");
}

TEST(options_become_layout_keys)
{
    CHECK(design("theme: classic\npage:\n  size: a4\n  top_margin: 1in\n  show_footer: false\n"
                 "colors:\n  name: rgb(1, 2, 3)\n  section_titles: '#ff0000'\n"
                 "typography:\n  line_spacing: 0.5em\n  alignment: left\n"
                 "  font_family: New Computer Modern\n"
                 "  font_size: {body: 11pt, section_titles: 1.2em}\n"
                 "  bold: {name: false}\n"
                 "header:\n  alignment: left\n  connections: {separator: '|', "
                 "phone_number_format: E164}\n"
                 "section_titles: {type: without_line, space_above: 2em}\n"
                 "sections: {show_time_spans_in: [Work History]}\n"
                 "entries:\n  date_and_location_width: 3cm\n  highlights: {bullet: '◆'}\n"
                 "templates:\n  footer: PAGE_NUMBER\n"
                 "  experience_entry:\n    main_column: \"**COMPANY** -- LOCATION\\nSUMMARY\\n"
                 "HIGHLIGHTS\"\n    date_and_location_column: DATE\n"));
    CHECK_STR(at("page.size"), "a4");
    CHECK_STR(at("page.margins.top"), "1in");
    CHECK_STR(at("page_footer.center"), "");   /* show_footer: false wins over its template */
    CHECK_STR(at("page_footer.left"), "");
    CHECK_STR(at("header.name_color"), "rgb(1, 2, 3)");
    CHECK_STR(at("section_title.color"), "#ff0000");
    CHECK_STR(at("section_title.rule_color"), "#ff0000");
    /* CMU Serif's cap height (0.683em) and the 0.5em leading. */
    CHECK_STR(at("font.line_spacing"), "1.183");
    CHECK_STR(at("text.justify"), "false");
    CHECK_STR(at("font.family"), "CMU Serif");
    CHECK_STR(at("font.size"), "11pt");
    CHECK_STR(at("section_title.size"), "13.200pt");      /* em of the body size */
    /* RenderCV counts from the text's edge: 2em less 6.2pt. */
    CHECK_STR(at("section_title.space_before"), "15.800pt");
    CHECK_STR(at("section_title.rule"), "false");
    CHECK_STR(at("header.name_bold"), "false");
    CHECK_STR(at("header.align"), "left");
    CHECK_STR(at("header.contact_separator"), "  |  ");
    CHECK_STR(at("entry.side_width"), "3cm");
    CHECK_STR(at("bullets.glyph"), "◆");
    CHECK_STR(at("header.phone_format"), "E164");
    CHECK_STR(item("dates.show_time_spans_in", 0), "Work History");
    CHECK(!item("dates.show_time_spans_in", 1));
    /* The template: SUMMARY and HIGHLIGHTS lines dropped, -- an en dash. */
    const cv_yml *m = cv_yml_get(cv_yml_get(cv_yml_get(D.layout, "templates"), "experience"),
                                 "main");
    CHECK(m && m->kind == CV_YML_SEQ && m->n == 1 && !strcmp(m->items[0]->str,
                                                            "**COMPANY** – LOCATION"));
}

TEST(typography_parts)
{
    /* One family is every part's (over what the theme gives them). */
    CHECK(design("theme: ember\ntypography:\n  font_family: EB Garamond\n"));
    CHECK_STR(at("font.family"), "EB Garamond");
    CHECK_STR(at("header.name_font"), "EB Garamond");
    CHECK_STR(at("section_title.font"), "EB Garamond");
    /* A mapping: each part its own, through the table of faces; a part
     * left out keeps the theme's. */
    CHECK(design("typography:\n  font_family: {name: Gentium Book Plus, headline: Ubuntu,\n"
                 "    connections: XCharter, section_titles: New Computer Modern}\n"
                 "  small_caps: {name: true, headline: false, connections: true,\n"
                 "    section_titles: true}\n"
                 "  bold: {headline: true, connections: false}\n"));
    CHECK(at("font.family") == NULL);
    CHECK_STR(at("header.name_font"), "Gentium Book Plus");
    CHECK_STR(at("header.headline_font"), "Ubuntu");      /* shipped in fonts/ */
    CHECK_STR(at("header.contact_font"), "XCharter");
    CHECK_STR(at("section_title.font"), "CMU Serif");
    CHECK_STR(at("header.name_small_caps"), "true");
    CHECK_STR(at("header.headline_small_caps"), "false");
    CHECK_STR(at("header.contact_small_caps"), "true");
    CHECK_STR(at("section_title.small_caps"), "true");
    CHECK_STR(at("header.headline_bold"), "true");
    CHECK_STR(at("header.contact_bold"), "false");
    CHECK(!design("typography:\n  font_family: {nmae: Lato}\n"));
    CHECK(has(E.msg, "unknown key 'nmae'"));
}

/* An option with no layout key would be named in a note ("these design
 * options have no effect in cvpdf yet"); the ones mapped here are not. */
TEST(mapped_options_give_no_note)
{
    capture();
    E.quiet = false;
    const char *y = "links: {underline: true}\nheader: {space_below_name: 1cm}\n"
                    "entries: {degree_width: 1cm}\n";
    cv_yml *root = cv_yml_load(A, "d.yaml", y, strlen(y), &E);
    CHECK(root && cv_design_read(A, root, &D, &E));
    CHECK(!has(said(), "no effect"));
}

TEST(more_options_become_layout_keys)
{
    CHECK(design("theme: classic\nlinks: {underline: true, show_external_link_icon: true}\n"
                 "typography: {date_and_location_column_alignment: left}\n"
                 "header:\n  space_below_name: 1.7cm\n  space_below_headline: 0.2cm\n"
                 "  photo_space_left: 1.4cm\n"
                 "  connections: {hyperlink: false, space_between_connections: 1em}\n"
                 "sections: {allow_page_break: false}\n"
                 "entries:\n  side_space: 0.7cm\n  allow_page_break: true\n"
                 "  degree_width: 2cm\n  space_between_columns: 0.5cm\n"
                 "  summary: {space_above: 3pt, space_left: 1cm}\n"
                 "section_titles: {type: centered_with_partial_line}\n"
                 "templates:\n  date_range: END_DATE (since START_DATE)\n"
                 "  education_entry: {degree_column: '*DEGREE*'}\n"));
    CHECK_STR(at("links.underline"), "true");
    CHECK_STR(at("links.external_icon"), "true");
    CHECK_STR(at("entry.side_align"), "left");
    /* The theme's gap (2pt) moved by the difference from 0.7cm: 1cm. */
    CHECK_STR(at("header.space_below_name"), "30.346pt");
    CHECK_STR(at("header.space_below_headline"), "0.000pt");     /* never below 0 */
    CHECK_STR(at("photo.space_left"), "28.346pt");
    CHECK_STR(at("entry.side_space"), "0.7cm");
    CHECK_STR(at("header.contact_links"), "false");
    CHECK_STR(at("header.contact_gap"), "10.000pt");
    CHECK_STR(at("pagination.keep_sections"), "true");
    CHECK_STR(at("pagination.keep_entries"), "false");
    CHECK_STR(at("entry.degree_width"), "70.866pt");            /* 2cm and the 0.5cm gap */
    CHECK_STR(at("entry.summary_space_before"), "3pt");
    CHECK_STR(at("entry.summary_indent"), "1cm");
    CHECK_STR(at("section_title.rule_beside"), "true");
    CHECK_STR(at("section_title.rule_baseline"), "true");
    CHECK_STR(at("section_title.align"), "center");
    CHECK_STR(at("dates.range"), "END_DATE (since START_DATE)");
    const cv_yml *dg = cv_yml_get(cv_yml_get(cv_yml_get(D.layout, "templates"), "education"),
                                  "degree");
    CHECK(dg && dg->kind == CV_YML_SEQ && dg->n == 1 && !strcmp(dg->items[0]->str, "*DEGREE*"));
    /* Another theme's RenderCV default: ink's space_below_name is 0.5cm. */
    CHECK(design("theme: ink\nheader: {space_below_name: 0.5cm}\n"));
    CHECK_STR(at("header.space_below_name"), "2.000pt");
    CHECK(design("templates: {education_entry: {degree_column: null}}\n"));
    dg = cv_yml_get(cv_yml_get(cv_yml_get(D.layout, "templates"), "education"), "degree");
    CHECK(dg && dg->kind == CV_YML_SEQ && dg->n == 0);
    CHECK(!at("entry.degree_width"));
}

TEST(errors)
{
    CHECK(!design("page: {sise: a4}\n"));
    CHECK_STR(errstr(), "1:8: unknown key 'sise' in design.page (did you mean 'size'?)");
    CHECK(!design("colors: red\n"));
    CHECK_STR(errstr(), "1:9: 'design.colors' must be a mapping, not a string");
    CHECK(!design("section_titles: {type: wavy}\n"));
    CHECK(has(E.msg, "unknown section title type 'wavy'"));
    CHECK(!design("header: {connections: {phone_number_format: local}}\n"));
    CHECK(has(E.msg, "phone_number_format is national, international or E164"));
    CHECK(!design("typography: {alignment: centre}\n"));
    CHECK(!design("sections: {show_time_spans_in: experience}\n"));
    CHECK(has(E.msg, "show_time_spans_in must be a list"));
}

int main(void)
{
    A = cv_arena_new();
    RUN(theme_and_defaults);
    RUN(options_become_layout_keys);
    RUN(typography_parts);
    RUN(mapped_options_give_no_note);
    RUN(more_options_become_layout_keys);
    RUN(errors);
    cv_arena_free(A);
    return harness_report("design");
}
