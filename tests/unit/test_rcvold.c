/* test_rcvold.c - older RenderCV files read as RenderCV 2.8's (rcvold.h),
 * and the YAML that cvpdf migrate writes (migrate.h). */
#include "harness.h"
#include "migrate.h"
#include "rcvold.h"

#include <stdlib.h>

static cv_arena *A;
#include "errcheck.h"

static cv_rcv_era Era;

/* `yaml` (a whole profile) upgraded; NULL with the error in E. */
static const cv_yml *up(const char *yaml, bool migrate)
{
    cv_error_init(&E);
    E.quiet = true;
    cv_yml *root = cv_yml_load_profile(A, A, "p.yaml", yaml, strlen(yaml), &E);
    return root ? cv_rcv_upgrade(A, root, migrate, &Era, &E) : NULL;
}

/* The scalar at a dotted path, or NULL. */
static const char *at(const cv_yml *n, const char *path)
{
    char key[64];
    while (n && *path) {
        const char *dot = strchr(path, '.');
        size_t k = dot ? (size_t)(dot - path) : strlen(path);
        memcpy(key, path, k);
        key[k] = 0;
        n = cv_yml_get(n, key);
        path = dot ? dot + 1 : path + k;
    }
    return n && n->kind == CV_YML_SCALAR ? n->str : NULL;
}

TEST(era_1x)
{
    const cv_yml *r = up("cv: {name: A}\ndesign:\n  theme: moderncv\n  font: Charter\n"
                         "  font_size: 11pt\n  page_size: a4paper\n  color: rgb(1,2,3)\n"
                         "  disable_page_numbering: true\n  text_alignment: left-aligned\n"
                         "  seperator_between_connections: $|$\n  show_only_years: true\n"
                         "  margins:\n    page: {top: 1.5 cm}\n    header: {bottom: 5 pt}\n"
                         "locale_catalog:\n  abbreviations_for_months: [a,b,c,d,e,f,g,h,i,j,k,l]\n"
                         "  date_style: FULL_MONTH_NAME YEAR\n  to: to\n", false);
    CHECK(r != NULL);
    CHECK(Era == CV_RCV_1X);
    CHECK_STR(at(r, "design.theme"), "moderncv");
    CHECK_STR(at(r, "design.typography.font_family"), "XCharter");
    CHECK_STR(at(r, "design.typography.font_size.body"), "11pt");
    CHECK_STR(at(r, "design.page.size"), "a4");
    CHECK_STR(at(r, "design.colors.name"), "rgb(1,2,3)");
    CHECK_STR(at(r, "design.colors.links"), "rgb(1,2,3)");
    CHECK_STR(at(r, "design.page.show_footer"), "false");
    CHECK_STR(at(r, "design.typography.alignment"), "left");
    CHECK_STR(at(r, "design.header.connections.separator"), "|");
    CHECK_STR(at(r, "design.templates.single_date"), "MONTH_NAME YEAR");  /* the locale's wins */
    CHECK_STR(at(r, "design.page.top_margin"), "1.5cm");
    CHECK_STR(at(r, "design.header.space_below_connections"), "5pt");
    CHECK_STR(at(r, "design.templates.date_range"), "START_DATE to END_DATE");
    const cv_yml *loc = cv_yml_get(r, "locale");
    CHECK(loc && cv_yml_get(loc, "month_abbreviations") && !cv_yml_get(r, "locale_catalog"));
    /* A key no 1.x version had, beside 1.x's. */
    CHECK(up("cv: {name: A}\ndesign:\n  font: Charter\n  font_sise: 10pt\n", false) == NULL);
    CHECK(has(errstr(), "4:3: unknown key 'font_sise' in design (a RenderCV 1.x design) "
                        "(did you mean 'font_size'?)"));
    /* Alone, it is no 1.x design: design.c refuses it as 2.8's. */
    CHECK(up("cv: {name: A}\ndesign:\n  font_sise: 10pt\n", false) && Era == CV_RCV_CURRENT);
}

TEST(era_20)
{
    const cv_yml *r = up("cv: {name: A}\ndesign:\n  theme: classic\n"
                         "  text: {font_family: Raleway, leading: 0.7em}\n"
                         "  header: {name_font_family: Ubuntu, name_bold: true}\n"
                         "  section_titles: {type: with-parial-line}\n"
                         "  highlights: {bullet: '-'}\n"
                         "  entry_types:\n    experience_entry:\n"
                         "      main_column_second_row_template: HIGHLIGHTS\n"
                         "rendercv_settings: {date: '2024-01-02'}\n", false);
    CHECK(r != NULL);
    CHECK(Era == CV_RCV_20);
    CHECK_STR(at(r, "design.typography.font_family.body"), "Raleway");
    CHECK_STR(at(r, "design.typography.font_family.name"), "Ubuntu");
    CHECK_STR(at(r, "design.typography.line_spacing"), "0.7em");
    CHECK_STR(at(r, "design.typography.bold.name"), "true");
    CHECK_STR(at(r, "design.section_titles.type"), "with_partial_line");
    CHECK_STR(at(r, "design.entries.highlights.bullet"), "-");
    /* The second row alone: classic's first row before it. */
    CHECK_STR(at(r, "design.templates.experience_entry.main_column"),
              "**COMPANY**, POSITION\nHIGHLIGHTS");
    CHECK_STR(at(r, "settings.current_date"), "2024-01-02");
    CHECK(!cv_yml_get(r, "rendercv_settings"));
    /* 2.3's cv.sort_entries: the entries sorted as 2.3 sorted them (by
     * end, then start; `date` for both; none last, newest first), stably. */
    r = up("cv:\n  name: A\n  sort_entries: reverse-chronological\n  sections:\n    s:\n"
           "      - {name: a, start_date: 2010-01, end_date: 2012-05}\n"
           "      - {name: b, date: 2015}\n      - {name: c}\n"
           "      - {name: d, start_date: 2013-02, end_date: present}\n"
           "      - {name: e, date: 2015}\n", false);
    CHECK(r && Era == CV_RCV_20 && !cv_yml_get(cv_yml_get(r, "cv"), "sort_entries"));
    const cv_yml *s = cv_yml_get(cv_yml_get(cv_yml_get(r, "cv"), "sections"), "s");
    const char *want[] = {"d", "b", "e", "a", "c"};
    for (size_t i = 0; s && i < 5 && i < s->n; i++)
        CHECK_STR(at(s->items[i], "name"), want[i]);
    r = up("cv:\n  name: A\n  sort_entries: chronological\n  sections:\n    s:\n"
           "      - {name: late, date: 2020}\n      - {name: none}\n"
           "      - {name: early, date: 2001-03}\n", false);
    s = cv_yml_get(cv_yml_get(cv_yml_get(r, "cv"), "sections"), "s");
    const char *want2[] = {"early", "late", "none"};
    for (size_t i = 0; s && i < 3 && i < s->n; i++)
        CHECK_STR(at(s->items[i], "name"), want2[i]);
    CHECK(up("cv: {name: A, sort_entries: upward}\n", false) == NULL);
    CHECK(has(errstr(), "sort_entries is reverse-chronological, chronological or none"));
    /* One family alone is a string. */
    r = up("cv: {name: A}\ndesign:\n  text: {font_family: Raleway}\n", false);
    CHECK_STR(at(r, "design.typography.font_family"), "Raleway");
}

TEST(era_24_and_current)
{
    const cv_yml *r = up("cv: {name: A}\ndesign: {theme: ink}\nnotes: mine\n", false);
    CHECK(r != NULL && Era == CV_RCV_24);
    CHECK(r && !cv_yml_get(r, "notes") && cv_yml_get(r, "design"));
    /* A misspelt key stays, for doc.c's error with a suggestion. */
    r = up("cv: {name: A}\ndesgin: {theme: ink}\nlocale: {language: english}\n", false);
    CHECK(r && cv_yml_get(r, "desgin"));
    /* Today's file: the same tree. */
    static const char now[] = "cv: {name: A}\ndesign: {theme: ink}\n";
    cv_yml *root = cv_yml_load_profile(A, A, "p.yaml", now, sizeof now - 1, &E);
    CHECK(cv_rcv_upgrade(A, root, false, &Era, &E) == root && Era == CV_RCV_CURRENT);
    /* migrate: design: written, the language by RenderCV's name. */
    r = up("cv: {name: A}\nlocale: {language: de}\n", true);
    CHECK_STR(at(r, "design.theme"), "classic");
    CHECK_STR(at(r, "locale.language"), "german");
}

/* What cv_yaml_write() writes for `yaml`. */
static const char *written(const char *yaml)
{
    cv_error_init(&E);
    cv_yml *root = cv_yml_load_profile(A, A, "p.yaml", yaml, strlen(yaml), &E);
    if (!root)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cv_yaml_write(f, root);
    fclose(f);
    const char *out = cv_arena_strdup(A, buf);
    free(buf);
    return out;
}

TEST(yaml_writer)
{
    CHECK_STR(written("a: 2021\nb: '2021'\nc: null\nd:\ne: 'yes'\nf: text\n"),
              "a: 2021\nb: \"2021\"\nc: null\nd:\ne: \"yes\"\nf: text\n");
    CHECK_STR(written("a: '*x'\nb: 'k: v'\nc: ' lead'\nd: '#h'\ne: \"t\\tab\"\n"),
              "a: \"*x\"\nb: \"k: v\"\nc: \" lead\"\nd: \"#h\"\ne: \"t\\tab\"\n");
    CHECK_STR(written("a: |\n  one\n  two\nb: [x, {k: v}, []]\nc: {}\n"),
              "a: |\n  one\n  two\nb:\n  - x\n  - k: v\n  - []\nc: {}\n");
    CHECK_STR(written("s:\n  - - a\n    - b\n"), "s:\n  -\n    - a\n    - b\n");
    /* What it writes reads back the same. */
    const char *w = written("x:\n  - \"a: b # c\"\n  - '-5'\n  - \"\\u2028\"\n  - '~'\n");
    CHECK(w != NULL);
    const char *again = w ? written(w) : NULL;
    CHECK(again && w && !strcmp(again, w));
}

int main(void)
{
    A = cv_arena_new();
    RUN(era_1x);
    RUN(era_20);
    RUN(era_24_and_current);
    RUN(yaml_writer);
    cv_arena_free(A);
    return harness_report("rcvold");
}
