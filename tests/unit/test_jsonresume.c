/* test_jsonresume.c - a resume.json read as the RenderCV profile it stands
 * for: detection, each part's section, errors at line:col. */
#include "doc.h"
#include "harness.h"
#include "jsonresume.h"

static cv_arena *A;
#include "errcheck.h"

static cv_doc *json(const char *text)
{
    cv_error_init(&E);
    E.quiet = true;
    cv_yml *root = cv_yml_load(A, "r.json", text, strlen(text), &E);
    return root ? cv_doc_load(A, root, "r.json", &E) : NULL;
}

static const cv_section *section(const cv_doc *d, const char *key)
{
    for (size_t i = 0; d && i < d->nsections; i++)
        if (!strcmp(d->sections[i].key, key))
            return &d->sections[i];
    return NULL;
}

TEST(detection)
{
    cv_yml *y = cv_yml_load(A, "r.json", "{\"basics\": {}}", 14, &E);
    CHECK(cv_jsonresume_is(y));
    y = cv_yml_load(A, "r.json", "{\"work\": [], \"skills\": []}", 26, &E);
    CHECK(cv_jsonresume_is(y));
    y = cv_yml_load(A, "r.yaml", "cv: {name: A}\n", 14, &E);
    CHECK(!cv_jsonresume_is(y));
    /* One part alone is a JSON Resume; with a key of another kind, not. */
    y = cv_yml_load(A, "r.json", "{\"work\": []}", 12, &E);
    CHECK(cv_jsonresume_is(y));
    y = cv_yml_load(A, "r.json", "{\"work\": [], \"colour\": 1}", 25, &E);
    CHECK(y && !cv_jsonresume_is(y));
    y = cv_yml_load(A, "r.json", "{\"meta\": {}}", 12, &E);
    CHECK(y && !cv_jsonresume_is(y));
    /* Two parts among more keys of other kinds: a foreign file, not a
     * résumé with no name; as many others as parts, and meta, are fine. */
    static const char foreign[] =
        "{\"education\": [], \"skills\": [], \"a\": 1, \"b\": 2, \"c\": 3}";
    y = cv_yml_load(A, "r.json", foreign, sizeof foreign - 1, &E);
    CHECK(y && !cv_jsonresume_is(y));
    static const char two[] = "{\"work\": [], \"skills\": [], \"x\": 1, \"y\": 2, \"meta\": {}}";
    y = cv_yml_load(A, "r.json", two, sizeof two - 1, &E);
    CHECK(y && cv_jsonresume_is(y));
}

TEST(every_part)
{
    cv_error_init(&E);
    size_t len;
    char *text = cv_yml_read_file(A, "tests/data/resume.json", &len, &E);
    CHECK(text != NULL);
    if (!text)
        return;
    cv_doc *d = json(text);
    CHECK(d != NULL);
    if (!d) {
        fprintf(stderr, "  %s\n", errstr());
        return;
    }
    CHECK_STR(d->name.s, "Rosalind Quill");
    CHECK_STR(d->headline.s, "Systems Engineer");
    /* The address and postcode shown, the country by its name (CLDR). */
    CHECK_STR(d->location.s, "1 Main Street, San Francisco, California 94110, United States");
    CHECK_STR(d->email.s, "rosalind@example.org");
    CHECK_STR(d->website.s, "https://quill.example.org");
    CHECK(d->nconnections == 2 && !strcmp(d->connections[0].text.s, "GitHub: rquill"));
    static const char *const order[] = {"Summary", "Experience", "Volunteering", "Education",
                                        "Projects", "Publications", "Awards", "Certificates",
                                        "Skills", "Languages", "Interests", "References"};
    CHECK(d->nsections == 12);
    for (size_t i = 0; i < 12 && i < d->nsections; i++)
        CHECK_STR(d->sections[i].key, order[i]);
    const cv_section *s = section(d, "Experience");
    CHECK(s && s->kind == CV_ENTRY_EXPERIENCE && s->nentries == 2);
    CHECK(s && !strcmp(s->entries[0].company.s, "[Tidewater Storage](https://tidewater.example.com)"));
    CHECK(s && s->entries[0].start_date.year == 2019 &&
          (!s->entries[0].end_date.kind || s->entries[0].end_date.kind == CV_DATE_PRESENT));
    CHECK(s && s->entries[0].nhighlights == 2);
    s = section(d, "Education");
    CHECK(s && s->kind == CV_ENTRY_EDUCATION && !strcmp(s->entries[0].degree.s, "BSc"));
    CHECK(s && s->entries[0].nhighlights == 2);
    s = section(d, "Skills");
    CHECK(s && s->kind == CV_ENTRY_ONELINE &&
          !strcmp(s->entries[0].details.s, "C++, Rust, Linux (Expert)"));
    s = section(d, "Summary");
    /* JSON Resume's text is plain: its stars are escaped. */
    CHECK(s && s->kind == CV_ENTRY_TEXT && strstr(s->entries[0].text.s, "\\*careful\\*"));
    s = section(d, "References");
    CHECK(s && s->kind == CV_ENTRY_NORMAL && !strcmp(s->entries[0].name.s, "Mara Lindqvist"));
}

TEST(fallbacks)
{
    /* A job without a position: the section is normal entries. */
    cv_doc *d = json("{\"basics\": {\"name\": \"A\"}, \"work\": [{\"name\": \"X\"}, "
                     "{\"name\": \"Y\", \"position\": \"Z\"}]}");
    const cv_section *s = section(d, "Experience");
    CHECK(s && s->kind == CV_ENTRY_NORMAL && !strcmp(s->entries[1].name.s, "Y, Z"));
    d = json("{\"basics\": {\"name\": \"A\"}, \"skills\": [{\"name\": \"Go\"}]}");
    s = section(d, "Skills");
    CHECK(s && s->kind == CV_ENTRY_BULLET && !strcmp(s->entries[0].text.s, "Go"));
}

/* A work entry's description and summary are two sentences: a full stop
 * closes the first unless it ends in punctuation of its own. */
TEST(description_and_summary)
{
    cv_doc *d = json("{\"basics\": {\"name\": \"A\"}, \"work\": ["
                     "{\"name\": \"X\", \"position\": \"Y\", \"description\": \"An estate\", "
                     "\"summary\": \"Runs the lab.\"},"
                     "{\"name\": \"X\", \"position\": \"Y\", \"description\": \"An estate!\", "
                     "\"summary\": \"Runs it.\"}]}");
    CHECK(d != NULL);
    const cv_section *s = d ? section(d, "Experience") : NULL;
    CHECK(s && s->nentries == 2);
    if (!s || s->nentries != 2)
        return;
    CHECK_STR(s->entries[0].summary.s, "An estate. Runs the lab.");
    CHECK_STR(s->entries[1].summary.s, "An estate! Runs it.");
}

TEST(errors)
{
    CHECK(json("{\n  \"basics\": {\"name\": \"A\"},\n  \"work\": {\"a\": 1}\n}\n") == NULL);
    CHECK_STR(errstr(), "3:11: 'work' must be a list, not a mapping");
    CHECK(json("{\"basics\": {\"name\": \"A\"}, \"work\": [1]}") == NULL);
    CHECK(has(errstr(), "each item of 'work' must be an object, not a string"));
    CHECK(json("{\"basics\": {\"name\": \"A\"},\n \"work\": [{\"name\": \"X\", "
               "\"position\": \"Y\", \"startDate\": \"2020-13\"}]}") == NULL);
    CHECK(has(errstr(), "2:55: invalid start_date '2020-13'"));
    CHECK(json("{\"basics\": {\"name\": \"A\",\n \"email\": \"nope\"}}") == NULL);
    CHECK(has(errstr(), "2:11: invalid email 'nope'"));
    CHECK(json("{\"basics\": {}, \"meta\": {}}") == NULL);
    CHECK(has(E.msg, "nothing to show"));
}

/* --defaults (a RenderCV-shaped file) and --set under and over a JSON
 * Resume: the defaults' cv:, locale: and design: and a --set of cv.* go
 * over what the résumé translates to, a --set of its own keys into it.
 * (A defaults file with cv: made the résumé no JSON Resume: every part was
 * ignored and the PDF held the lab's address alone.) */
TEST(defaults_and_sets)
{
    const char *text = "{\"basics\": {\"name\": \"Ada\", \"location\": {\"city\": \"Izmir\", "
                       "\"countryCode\": \"TR\"}}, \"work\": [{\"name\": \"Co\", "
                       "\"position\": \"P\"}]}";
    cv_error_init(&E);
    E.quiet = true;
    const char *lab = "cv:\n  location: Lab City\n  email: lab@example.com\n"
                      "locale:\n  language: german\ndesign:\n  theme: harvard\n";
    const char *sets = "cv: {headline: H}\nbasics: {label: L}\n";
    cv_yml *defaults = cv_yml_load(A, "lab.yaml", lab, strlen(lab), &E);
    cv_yml *over = cv_yml_load(A, "--set", sets, strlen(sets), &E);
    CHECK(defaults && over && !E.set);
    cv_doc *d = cv_doc_load_text_over(A, "r.json", text, strlen(text), defaults, over, &E);
    CHECK(d != NULL && !E.set);
    if (!d)
        return;
    CHECK_STR(d->name.s, "Ada");
    CHECK(section(d, "Experience") != NULL);
    CHECK_STR(d->email.s, "lab@example.com");          /* the defaults' */
    CHECK(d->location.s && strstr(d->location.s, "Izmir") &&       /* the résumé's, */
          strstr(d->location.s, "T\xC3\xBCrkei"));                  /* in German */
    CHECK_STR(d->locale.language, "de");
    CHECK_STR(d->design.theme, "harvard");
    CHECK_STR(d->headline.s, "H");                  /* cv.headline over basics.label */
}

int main(void)
{
    A = cv_arena_new();
    RUN(detection);
    RUN(every_part);
    RUN(fallbacks);
    RUN(description_and_summary);
    RUN(errors);
    RUN(defaults_and_sets);
    cv_arena_free(A);
    return harness_report("jsonresume");
}
