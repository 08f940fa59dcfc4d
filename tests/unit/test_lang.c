/* test_lang.c - the language of a profile: English defaults, language names
 * and codes, reading `locale:` (custom month names and words), the note
 * about untranslated words, section titles. */
#include "harness.h"
#include "lang.h"

#include <stdlib.h>
#include <unistd.h>

static cv_arena *A;
#include "errcheck.h"

/* Read `yaml`'s `locale:` into *loc; false on an error (in E). */
static bool locale(const char *yaml, cv_locale *loc)
{
    cv_error_init(&E);
    E.quiet = true;
    cv_yml *root = cv_yml_load(A, "l.yaml", yaml, strlen(yaml), &E);
    return root && cv_locale_read(A, cv_yml_get(root, "locale"), loc, &E);
}

static const char *const twelve_de =
    "[Januar, Februar, März, April, Mai, Juni, Juli, August, September, Oktober, "
    "November, Dezember]";

TEST(english_defaults)
{
    const cv_locale *en = cv_locale_english();
    CHECK(en != NULL && en == cv_locale_english());
    CHECK_STR(en->language, "en");
    CHECK_STR(en->month_abbr[0], "Jan");
    CHECK_STR(en->month_abbr[8], "Sep");
    CHECK_STR(en->month_full[11], "December");
    CHECK_STR(en->present, "present");
    CHECK_STR(en->to, "\xE2\x80\x93");
    CHECK_STR(en->date_template, "MONTH_ABBREVIATION YEAR");
    CHECK_STR(en->last_updated, "Last updated in");
}

TEST(language_names_and_codes)
{
    /* RenderCV's names, in any case. */
    CHECK_STR(cv_locale_language("english"), "en");
    CHECK_STR(cv_locale_language("German"), "de");
    CHECK_STR(cv_locale_language("MANDARIN_CHINESE"), "zh");
    CHECK_STR(cv_locale_language("norwegian_bokm\xC3\xA5l"), "nb");
    CHECK_STR(cv_locale_language("indonesia"), "id");
    CHECK_STR(cv_locale_language("persian"), "fa");
    /* ISO 639 codes, with subtags, are returned as given. */
    const char *de = "de";
    CHECK(cv_locale_language(de) == de);
    CHECK_STR(cv_locale_language("zh-Hans"), "zh-Hans");
    CHECK_STR(cv_locale_language("pt_BR"), "pt_BR");
    CHECK_STR(cv_locale_language("yue"), "yue");
    CHECK_STR(cv_locale_language("en-US-x1"), "en-US-x1");
    /* Anything else is not a language. */
    CHECK(cv_locale_language("germn") == NULL);
    CHECK(cv_locale_language("deutsch") == NULL);
    CHECK(cv_locale_language("d") == NULL);
    CHECK(cv_locale_language("EN") == NULL);
    CHECK(cv_locale_language("zh-") == NULL);
    CHECK(cv_locale_language("zh-H") == NULL);
    CHECK(cv_locale_language("zh Hans") == NULL);
    CHECK(cv_locale_language("") == NULL);
}

TEST(read_absent)
{
    cv_locale loc;
    memset(&loc, 0, sizeof loc);
    CHECK(locale("cv: {name: A}\n", &loc));
    CHECK_STR(loc.language, "en");
    CHECK(loc.month_full[3] == cv_locale_english()->month_full[3]);
    CHECK(locale("locale:\n", &loc));
    CHECK_STR(loc.present, "present");
}

TEST(read_custom_months_and_words)
{
    char yaml[512];
    snprintf(yaml, sizeof yaml,
             "locale:\n  language: german\n  present: heute\n  to: bis\n"
             "  date_template: MONTH_NAME YEAR\n  last_updated: Stand\n  month_names: %s\n",
             twelve_de);
    cv_locale loc;
    CHECK(locale(yaml, &loc));
    if (E.set)
        fprintf(stderr, "  %s\n", errstr());
    CHECK_STR(loc.language, "de");
    CHECK_STR(loc.month_full[0], "Januar");
    CHECK_STR(loc.month_full[2], "März");
    CHECK_STR(loc.month_full[11], "Dezember");
    CHECK_STR(loc.month_abbr[2], "Mar");      /* not given: English */
    CHECK_STR(loc.present, "heute");
    CHECK_STR(loc.to, "bis");
    CHECK_STR(loc.date_template, "MONTH_NAME YEAR");
    CHECK_STR(loc.last_updated, "Stand");

    /* RenderCV 1's keys; an empty or null `to` means no separator. */
    CHECK(locale("locale:\n  abbreviations_for_months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n"
                 "  to: ''\n", &loc));
    CHECK_STR(loc.month_abbr[9], "10");
    CHECK_STR(loc.to, "");
    CHECK(locale("locale:\n  to: ~\n", &loc));
    CHECK_STR(loc.to, "");
    CHECK(locale("locale:\n  full_names_of_months: [a, b, c, d, e, f, g, h, i, j, k, l]\n", &loc));
    CHECK_STR(loc.month_full[11], "l");
    /* RenderCV's keys cvpdf does not use are accepted. */
    CHECK(locale("locale:\n  years: yrs\n  phrases: {degree_with_area: DEGREE in AREA}\n", &loc));
}

TEST(read_errors)
{
    cv_locale loc;
    CHECK(!locale("locale:\n  month_names: [a, b]\n", &loc));
    CHECK_STR(errstr(), "2:16: 'month_names' must be a list of 12 names, got 2");
    CHECK(!locale("locale:\n  month_abbreviations: Jan\n", &loc));
    CHECK_STR(E.msg, "'month_abbreviations' must be a list of 12 names, got a string");
    CHECK(!locale("locale:\n  month_names: [a, b, c, d, e, ~, g, h, i, j, k, l]\n", &loc));
    CHECK_STR(errstr(), "2:32: empty month name in 'month_names'");
    CHECK(!locale("locale: [en]\n", &loc));
    CHECK_STR(errstr(), "1:9: 'locale' must be a mapping, not a list");
    CHECK(!locale("locale:\n  langauge: en\n", &loc));
    CHECK(has(E.msg, "unknown key 'langauge' in locale (did you mean 'language'?)"));
    /* A language cvpdf does not know is a note, never an error. */
    CHECK(locale("locale:\n  language: germn\n", &loc));
    CHECK_STR(loc.language, "en");
    CHECK(!E.set);
    CHECK(!locale("locale:\n  present: [now]\n", &loc));
    CHECK_STR(E.msg, "'present' must be a string, not a list");
}

/* Read `yaml`'s locale, not quiet: what the sink said. */
static const char *printed(const char *yaml)
{
    capture();
    cv_yml *root = cv_yml_load(A, "l.yaml", yaml, strlen(yaml), &E);
    cv_locale loc;
    if (root)
        cv_locale_read(A, cv_yml_get(root, "locale"), &loc, &E);
    return said();
}

/* Read and localise `yaml`'s locale, not quiet: what the sink said. */
static const char *localised(const char *yaml, const char *dir, cv_locale *loc)
{
    capture();
    cv_yml *root = cv_yml_load(A, "l.yaml", yaml, strlen(yaml), &E);
    if (root && cv_locale_read(A, cv_yml_get(root, "locale"), loc, &E))
        cv_locale_localize(A, loc, dir, &E);
    return said();
}

TEST(unknown_language_note)
{
    CHECK_STR(printed("locale:\n  language: germn\n"),
              "l.yaml:2:13: note: unknown language 'germn' (did you mean 'german'?): the words "
              "stay English; use an ISO 639 code such as 'de' or a RenderCV language name\n");
    CHECK(has(printed("locale:\n  language: Klingon\n"), "unknown language 'Klingon'"));
    CHECK_STR(printed("locale:\n  language: hungarian\n"), "");
    CHECK_STR(printed("locale:\n  language: vietnamese\n"), "");
}

TEST(localised_from_cldr_and_files)
{
    cv_locale loc;
    /* German: CLDR's months, the locale file's words. */
    CHECK_STR(localised("locale:\n  language: german\n", "locales", &loc), "");
    CHECK_STR(loc.language, "de");
    CHECK_STR(loc.month_full[2], "März");
    CHECK_STR(loc.month_abbr[10], "Nov.");
    CHECK_STR(loc.date_template, "MONTH_ABBREVIATION YEAR");
    CHECK_STR(loc.present, "heute");
    CHECK_STR(loc.contact, "Kontakt");
    CHECK_STR(loc.resume, "Lebenslauf");
    CHECK_STR(loc.hyphenation, "de_DE");
    CHECK(!loc.rtl);
    /* Chinese: the year first, the degree after its area. */
    localised("locale:\n  language: mandarin_chinese\n", "locales", &loc);
    CHECK_STR(loc.date_template, "YEAR年MONTH月");
    CHECK_STR(loc.present, "至今");
    CHECK_STR(loc.degree_with_area, "AREA DEGREE");
    CHECK_STR(loc.hyphenation, "");
    /* Hebrew is right to left; Hungarian's year comes first. */
    localised("locale:\n  language: hebrew\n", "locales", &loc);
    CHECK(loc.rtl);
    CHECK_STR(loc.month_full[0], "ינואר");
    localised("locale:\n  language: hungarian\n", "locales", &loc);
    CHECK_STR(loc.date_template, "YEAR. MONTH_ABBREVIATION");
    /* The profile's words win over both. */
    char yaml[512];
    snprintf(yaml, sizeof yaml, "locale:\n  language: de\n  present: jetzt\n  month_names: %s\n"
             "  phrases: {degree_with_area: DEGREE im Fach AREA}\n", twelve_de);
    localised(yaml, "locales", &loc);
    CHECK_STR(loc.present, "jetzt");
    CHECK_STR(loc.month_full[0], "Januar");
    CHECK_STR(loc.month_abbr[0], "Jan.");
    CHECK_STR(loc.degree_with_area, "DEGREE im Fach AREA");
    /* Every RenderCV language has a locale file and CLDR months. */
    static const char *const all[] = {
        "arabic", "danish", "dutch", "french", "german", "hebrew", "hindi", "hungarian",
        "indonesian", "italian", "japanese", "korean", "mandarin_chinese",
        "norwegian_bokm\xC3\xA5l", "norwegian_nynorsk", "persian", "portuguese", "russian",
        "spanish", "turkish", "vietnamese", NULL};
    for (const char *const *l = all; *l; l++) {
        snprintf(yaml, sizeof yaml, "locale:\n  language: %s\n", *l);
        CHECK_STR(localised(yaml, "locales", &loc), "");
        CHECK(strcmp(loc.present, "present") != 0);
        CHECK(strcmp(loc.month_full[10], "November") != 0 || !strcmp(*l, "indonesian") ||
              !strcmp(*l, "german"));
    }
    /* English needs nothing; a language without a file keeps English's
     * words, with one note. */
    CHECK_STR(localised("locale:\n  language: english\n", "locales", &loc), "");
    CHECK(loc.present == cv_locale_english()->present);
    const char *said_sv = localised("locale:\n  language: sv\n", "/nonexistent", &loc);
    CHECK(has(said_sv, "l.yaml:2:13: note: cvpdf knows no words for language 'sv'"));
    /* CLDR named the months: the note does not say dates stay English
     * (it said so over "maj 2020 – present"), only 'present'. */
    CHECK(has(said_sv, "'present' stays in English") && !has(said_sv, "dates stay in English"));
    CHECK_STR(loc.month_full[0], "januari");      /* CLDR still */
    /* A layout's English words. */
    localised("locale:\n  language: german\n", "locales", &loc);
    CHECK_STR(cv_locale_layout_text(A, &loc, "Contact"), "Kontakt");
    CHECK_STR(cv_locale_layout_text(A, &loc, "NAME — Résumé"), "NAME — Lebenslauf");
    CHECK_STR(cv_locale_layout_text(A, &loc, "Contacts"), "Contacts");
    const char *s = "NAME — CV";
    CHECK(cv_locale_layout_text(A, cv_locale_english(), s) == s);
}

/* The layout's date forms (dates.*) laid over a locale before it is
 * localised: they hold in every language unless locale: gives its own. */
static const char *dated(const char *yaml, const char *single, const char *range,
                         const char *const *abbr, cv_locale *loc)
{
    capture();
    cv_yml *root = cv_yml_load(A, "l.yaml", yaml, strlen(yaml), &E);
    if (root && cv_locale_read(A, cv_yml_get(root, "locale"), loc, &E)) {
        cv_locale_dates(A, loc, single, range, abbr);
        cv_locale_localize(A, loc, "locales", &E);
    }
    return said();
}

TEST(layout_dates)
{
    static const char *const rcv[12] = {"Jan", "Feb", "Mar", "Apr", "May", "June",
                                        "July", "Aug", "Sept", "Oct", "Nov", "Dec"};
    cv_locale loc;
    /* Nothing from the layout: the language's own. */
    dated("locale:\n  language: german\n", NULL, NULL, NULL, &loc);
    CHECK_STR(loc.date_template, "MONTH_ABBREVIATION YEAR");
    CHECK_STR(loc.to, "\xE2\x80\x93");
    CHECK(loc.range == NULL);
    dated("locale:\n  language: hungarian\n", NULL, NULL, NULL, &loc);
    CHECK_STR(loc.date_template, "YEAR. MONTH_ABBREVIATION");
    /* The layout's template wins over the language's (CLDR) but not over
     * locale:'s; its abbreviations are English's alone. */
    dated("locale:\n  language: hungarian\n", "MONTH_NAME YEAR", NULL, rcv, &loc);
    CHECK_STR(loc.date_template, "MONTH_NAME YEAR");
    CHECK(strcmp(loc.month_abbr[5], "June") != 0);
    /* The same template as English's, even at the same address (a
     * compiler merges equal string literals: a design's default
     * "MONTH_ABBREVIATION YEAR" was English's own in an -O2 build), is the
     * layout's: Portuguese keeps it, not its "MONTH_ABBREVIATION 'de' YEAR". */
    dated("locale:\n  language: portuguese\n", cv_locale_english()->date_template, NULL, rcv,
          &loc);
    CHECK_STR(loc.date_template, "MONTH_ABBREVIATION YEAR");
    dated("locale:\n  language: de\n  date_template: YEAR\n", "MONTH_NAME YEAR", NULL, NULL,
          &loc);
    CHECK_STR(loc.date_template, "YEAR");
    dated("cv: {}\n", "", NULL, rcv, &loc);
    CHECK_STR(loc.date_template, "MONTH_ABBREVIATION YEAR");
    CHECK_STR(loc.month_abbr[5], "June");
    CHECK_STR(loc.month_abbr[8], "Sept");
    dated("locale:\n  month_abbreviations: [a, b, c, d, e, f, g, h, i, j, k, l]\n", NULL, NULL,
          rcv, &loc);
    CHECK_STR(loc.month_abbr[5], "f");
    /* START_DATE x END_DATE: the word between, unless locale: gives one. */
    dated("cv: {}\n", NULL, "START_DATE  until END_DATE", NULL, &loc);
    CHECK_STR(loc.to, "until");
    CHECK(loc.range == NULL);
    dated("locale:\n  language: german\n", NULL, "START_DATE bis END_DATE", NULL, &loc);
    CHECK_STR(loc.to, "bis");
    dated("locale:\n  to: '-'\n", NULL, "START_DATE until END_DATE", NULL, &loc);
    CHECK_STR(loc.to, "-");
    dated("cv: {}\n", NULL, "START_DATEEND_DATE", NULL, &loc);
    CHECK_STR(loc.to, "");
    /* Any other shape is the range's own, whatever locale: says. */
    dated("locale:\n  to: '-'\n", NULL, "END_DATE (since START_DATE)", NULL, &loc);
    CHECK_STR(loc.range, "END_DATE (since START_DATE)");
    CHECK_STR(loc.to, "-");
}

TEST(bad_locale_file)
{
    char dir[] = "/tmp/cvpdf-locXXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[64];
    snprintf(path, sizeof path, "%s/german.yaml", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs("present: heute\ndirection: sideways\n", f);
    fclose(f);
    cv_locale loc;
    capture();
    cv_yml *root = cv_yml_load(A, "l.yaml", "locale: {language: de}\n", 23, &E);
    CHECK(root && cv_locale_read(A, cv_yml_get(root, "locale"), &loc, &E));
    CHECK(!cv_locale_localize(A, &loc, dir, &E));
    said();
    CHECK_STR(errstr(), "2:12: 'direction' is 'ltr' or 'rtl', not 'sideways'");
    CHECK(E.pos.file && strstr(E.pos.file, "/german.yaml"));
    unlink(path);
    rmdir(dir);
}

TEST(section_titles)
{
    CHECK_STR(cv_section_title(A, "selected_honors", "en"), "Selected Honors");
    CHECK_STR(cv_section_title(A, "publications", "en"), "Publications");
    CHECK_STR(cv_section_title(A, "work_in_progress", "en"), "Work in Progress");
    CHECK_STR(cv_section_title(A, "of_mice_and_men", "en"), "Of Mice and Men"); /* first word */
    CHECK_STR(cv_section_title(A, "top_10_papers", "en"), "Top 10 Papers");
    CHECK_STR(cv_section_title(A, "_leading__and_trailing_", "en"), "Leading and Trailing");
    CHECK_STR(cv_section_title(A, "récompenses_reçues", "en"), "Récompenses Reçues");
    CHECK_STR(cv_section_title(A, "ωmega", "en"), "Ωmega");
    /* A key with a space or a capital is kept as written (the same string). */
    const char *spaced = "selected honors and awards";
    CHECK(cv_section_title(A, spaced, "en") == spaced);
    const char *capital = "Selected_honors";
    CHECK(cv_section_title(A, capital, "en") == capital);
    CHECK_STR(cv_section_title(A, "my Papers", "en"), "my Papers");
    CHECK_STR(cv_section_title(A, "x_Éducation", "en"), "x_Éducation");
    CHECK_STR(cv_section_title(A, "研究", "en"), "研究");
}

int main(void)
{
    A = cv_arena_new();
    RUN(english_defaults);
    RUN(language_names_and_codes);
    RUN(read_absent);
    RUN(read_custom_months_and_words);
    RUN(read_errors);
    RUN(unknown_language_note);
    RUN(localised_from_cldr_and_files);
    RUN(layout_dates);
    RUN(bad_locale_file);
    RUN(section_titles);
    cv_arena_free(A);
    return harness_report("lang");
}
