/* test_doc.c - profiles: entry types, dates, social networks, locale, errors. */
#include "doc.h"
#include "harness.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static cv_arena *A;
#include "errcheck.h"

static cv_doc *doc(const char *yaml)
{
    cv_error_init(&E);
    E.quiet = true;
    cv_yml *root = cv_yml_load(A, "p.yaml", yaml, strlen(yaml), &E);
    return root ? cv_doc_load(A, root, "p.yaml", &E) : NULL;
}

/* A profile whose cv has `name: Ada` and the given sections block. */
static cv_doc *sections(const char *body)
{
    static char buf[8192];
    snprintf(buf, sizeof buf, "cv:\n  name: Ada\n  sections:\n%s", body);
    return doc(buf);
}

/* The entry's date range, its no-break spaces (test_date's ranges) as
 * spaces. */
static const char *range(const cv_doc *d, size_t sec, size_t ent)
{
    const char *r = cv_entry_date_range(A, &d->sections[sec].entries[ent], &d->locale);
    if (!r)
        return NULL;
    char *o = cv_arena_strdup(A, r), *w = o;
    for (const char *p = r; *p;)
        if (!strncmp(p, "\xC2\xA0", 2))
            *w++ = ' ', p += 2;
        else
            *w++ = *p++;
    *w = 0;
    return o;
}

/* ---- The whole profile --------------------------------------------------- */

static const char *full =
    "cv:\n"
    "  name: Ada Lovelace\n"
    "  native_name: 艾达\n"
    "  headline: Analyst\n"
    "  location: London, UK\n"
    "  email: ada@example.com\n"
    "  phone: \"+44 20 1234 5678\"\n"
    "  website: https://ada.example.com/\n"
    "  photo: ada.jpg\n"
    "  social_networks:\n"
    "    - network: GitHub\n"
    "      username: ada\n"
    "  sections:\n"
    "    education:\n"
    "      - institution: University of London\n"
    "        area: Mathematics\n"
    "        degree: PhD\n"
    "        location: London\n"
    "        start_date: 1835-09\n"
    "        end_date: 1840-06\n"
    "        summary: Thesis on engines\n"
    "        highlights:\n"
    "          - First program\n"
    "    experience:\n"
    "      - company: Analytical Engines Ltd\n"
    "        position: Programmer\n"
    "        date: 1843\n"
    "    publications:\n"
    "      - title: Sketch of the Analytical Engine\n"
    "        authors:\n"
    "          - L. F. Menabrea\n"
    "          - '**A. Lovelace**'\n"
    "        journal: Scientific Memoirs\n"
    "        doi: https://doi.org/10.1000/xyz123\n"
    "        url: https://example.com/sketch\n"
    "        date: 1843-10\n"
    "    projects:\n"
    "      - name: Bernoulli numbers\n"
    "        location: Note G\n"
    "    skills:\n"
    "      - label: Languages\n"
    "        details: English, French\n"
    "    notes:\n"
    "      - bullet: A bullet\n"
    "    talks:\n"
    "      - number: A numbered one\n"
    "    papers:\n"
    "      - reversed_number: A reversed one\n"
    "    summary:\n"
    "      - Just **text**.\n"
    "      - '2020'\n"
    "settings:\n"
    "  bold_keywords: [Python, C]\n";

TEST(whole_profile)
{
    cv_doc *d = doc(full);
    CHECK(d != NULL);
    if (!d) {
        fprintf(stderr, "  %s\n", errstr());
        return;
    }
    CHECK_STR(d->file, "p.yaml");
    CHECK_STR(d->name.s, "Ada Lovelace");
    CHECK(d->name.pos.line == 2 && d->name.pos.col == 9);
    CHECK_STR(d->native_name.s, "艾达");
    CHECK_STR(d->headline.s, "Analyst");
    CHECK_STR(d->email.s, "ada@example.com");
    CHECK_STR(d->phone.s, "+44 20 1234 5678");
    CHECK_STR(d->website.s, "https://ada.example.com/");
    CHECK_STR(d->photo.s, "ada.jpg");
    CHECK(d->nsocials == 1);
    CHECK(d->nsections == 9);
    CHECK(d->nbold_keywords == 2);
    CHECK_STR(d->bold_keywords[1].s, "C");

    cv_section *s = d->sections;
    CHECK_STR(s[0].key, "education");
    CHECK_STR(s[0].title, "Education");
    CHECK(s[0].kind == CV_ENTRY_EDUCATION && s[0].nentries == 1);
    cv_entry *e = &s[0].entries[0];
    CHECK_STR(e->institution.s, "University of London");
    CHECK_STR(e->area.s, "Mathematics");
    CHECK_STR(e->degree.s, "PhD");
    CHECK_STR(e->location.s, "London");
    CHECK_STR(e->summary.s, "Thesis on engines");
    CHECK(e->start_date.kind == CV_DATE_MONTH && e->start_date.year == 1835 &&
          e->start_date.month == 9);
    CHECK(e->end_date.kind == CV_DATE_MONTH && e->end_date.month == 6);
    CHECK(e->nhighlights == 1);
    CHECK_STR(e->highlights[0].text.s, "First program");
    CHECK_STR(range(d, 0, 0), "Sep 1835 \xE2\x80\x93 Jun 1840");

    CHECK(s[1].kind == CV_ENTRY_EXPERIENCE);
    CHECK_STR(s[1].entries[0].company.s, "Analytical Engines Ltd");
    CHECK_STR(s[1].entries[0].position.s, "Programmer");
    CHECK(s[1].entries[0].date.kind == CV_DATE_YEAR && s[1].entries[0].date.year == 1843);
    CHECK_STR(range(d, 1, 0), "1843");

    CHECK(s[2].kind == CV_ENTRY_PUBLICATION);
    e = &s[2].entries[0];
    CHECK(e->nauthors == 2);
    CHECK_STR(e->authors[1].s, "**A. Lovelace**");
    CHECK_STR(e->doi.s, "10.1000/xyz123");
    CHECK_STR(e->url.s, "https://example.com/sketch");
    CHECK_STR(e->journal.s, "Scientific Memoirs");
    CHECK_STR(range(d, 2, 0), "Oct 1843");

    CHECK(s[3].kind == CV_ENTRY_NORMAL);
    CHECK_STR(s[3].entries[0].name.s, "Bernoulli numbers");
    CHECK(range(d, 3, 0) == NULL);
    CHECK(s[4].kind == CV_ENTRY_ONELINE);
    CHECK_STR(s[4].entries[0].label.s, "Languages");
    CHECK_STR(s[4].entries[0].details.s, "English, French");
    CHECK(s[5].kind == CV_ENTRY_BULLET);
    CHECK_STR(s[5].entries[0].text.s, "A bullet");
    CHECK(s[6].kind == CV_ENTRY_NUMBERED);
    CHECK_STR(s[6].entries[0].text.s, "A numbered one");
    CHECK(s[7].kind == CV_ENTRY_REVERSED);
    CHECK_STR(s[7].entries[0].text.s, "A reversed one");
    CHECK(s[8].kind == CV_ENTRY_TEXT && s[8].nentries == 2);
    CHECK_STR(s[8].entries[0].text.s, "Just **text**.");
    CHECK_STR(s[8].entries[1].text.s, "2020");
    CHECK(s[8].entries[1].pos.line == 51 && s[8].entries[1].pos.col == 9);
}

TEST(profile_shape_errors)
{
    CHECK(doc("- a\n") == NULL);
    CHECK_STR(errstr(), "1:1: a profile is a mapping with a 'cv' key, not a list");
    /* As RenderCV, no cv at all is an empty CV (with a warning). */
    cv_doc *blank = doc("locale: {}\n");
    CHECK(blank != NULL && blank->name.s == NULL && blank->nsections == 0);
    CHECK(doc("cvv:\n  name: A\n") == NULL);
    CHECK_STR(errstr(), "1:1: unknown key 'cvv' in the profile (did you mean 'cv'?)");
    CHECK(doc("cv:\nlocale: {}\n") == NULL);
    CHECK_STR(errstr(), "1:4: 'cv' is empty; it needs at least a 'name'");
    CHECK(doc("cv: Ada\n") == NULL);
    CHECK_STR(errstr(), "1:5: 'cv' must be a mapping, not a string");
    /* As in RenderCV, a cv may go without a name (an empty one is none). */
    cv_doc *nameless = doc("cv:\n  headline: x\n");
    CHECK(nameless && !nameless->name.s && !strcmp(nameless->headline.s, "x"));
    nameless = doc("cv:\n  name: ''\n");
    CHECK(nameless && !nameless->name.s);
    CHECK(doc("cv:\n  name: [A, B]\n") == NULL);
    CHECK_STR(errstr(), "2:9: 'name' must be a string, not a list");
}

TEST(unknown_key_suggestion)
{
    CHECK(doc("cv:\n  name: Ada\n  emial: ada@example.com\n") == NULL);
    CHECK_STR(errstr(), "3:3: unknown key 'emial' in cv (did you mean 'email'?)");
    CHECK(doc("cv:\n  name: Ada\n  social_network: []\n") == NULL);
    CHECK(has(E.msg, "did you mean 'social_networks'?"));
    /* RenderCV keeps any other key of an entry for templates: a typo of a
     * field is a warning, not an error. */
    cv_doc *d = doc("cv:\n  name: Ada\n  sections:\n    x:\n      - company: C\n"
                    "        position: P\n        higlights: a\n");
    CHECK(d && d->sections[0].entries[0].nextras == 1 && E.nwarnings == 1);
    CHECK_STR(d->sections[0].entries[0].extras[0].ph, "HIGLIGHTS");
    CHECK(doc("cv:\n  name: Ada\n  sections:\n    x:\n      - nme: N\n        date: 2020\n") ==
          NULL);
    CHECK_STR(errstr(), "5:9: unknown key 'nme' in entry (did you mean 'name'?)");
}

TEST(field_checks)
{
    CHECK(doc("cv:\n  name: Ada\n  email: ada.example.com\n") == NULL);
    CHECK_STR(errstr(), "3:10: invalid email 'ada.example.com': expected an address like "
                        "name@example.com");
    CHECK(doc("cv:\n  name: Ada\n  email: 'a@@b.com'\n") == NULL);
    CHECK(doc("cv:\n  name: Ada\n  email: 'a b@c.com'\n") == NULL);
    CHECK(doc("cv:\n  name: Ada\n  email: '@c.com'\n") == NULL);
    CHECK(doc("cv:\n  name: Ada\n  email: 'a@c'\n") == NULL);
    CHECK(has(E.msg, "invalid email 'a@c'"));
    CHECK(doc("cv:\n  name: Ada\n  website: ada.example.com\n") == NULL);
    CHECK_STR(errstr(), "3:12: invalid website 'ada.example.com': write a full URL starting "
                        "with http:// or https://");
    CHECK(doc("cv:\n  name: Ada\n  website: http://x.org\n") != NULL);

    /* RenderCV allows lists here: every one is kept and checked. */
    cv_doc *d = doc("cv:\n  name: Ada\n  email: [a@b.org, c@d.org]\n");
    CHECK(d && strcmp(d->email.s, "a@b.org") == 0 && d->nemails == 2 &&
          !strcmp(d->emails[1].s, "c@d.org"));
    CHECK(E.nwarnings == 0);
    CHECK(doc("cv:\n  name: Ada\n  email: [a@b.org, c.d.org]\n") == NULL);
    CHECK(has(E.msg, "invalid email 'c.d.org'"));
}

/* ---- Entry types ------------------------------------------------------- */

TEST(entry_type_errors)
{
    CHECK(sections("    x:\n      - institution: U\n        degree: BS\n") == NULL);
    CHECK_STR(errstr(), "5:9: education entry needs an 'area'");
    CHECK(sections("    x:\n      - company: C\n") == NULL);
    CHECK_STR(errstr(), "5:9: experience entry needs a 'position'");
    CHECK(sections("    x:\n      - title: T\n        journal: J\n") == NULL);
    CHECK_STR(errstr(), "5:9: publication entry needs 'authors'");
    CHECK(sections("    x:\n      - label: L\n") == NULL);
    CHECK_STR(errstr(), "5:9: one-line entry needs a 'details'");
    /* Keys of two types: the first type in RenderCV's order, the other
     * type's keys kept as extras. */
    cv_doc *mixed = sections("    x:\n      - name: N\n        company: C\n");
    CHECK(mixed && mixed->sections[0].kind == CV_ENTRY_NORMAL &&
          mixed->sections[0].entries[0].nextras == 1);
    mixed = sections("    x:\n      - company: C\n        position: P\n        label: L\n"
                     "        details: D\n");
    CHECK(mixed && mixed->sections[0].kind == CV_ENTRY_ONELINE);
    CHECK(sections("    x:\n      - date: 2020\n        location: Here\n") == NULL);
    CHECK(has(errstr(), "5:9: cannot tell the entry type"));
    CHECK(sections("    x:\n      - label: L\n        details: D\n        date: 2020\n"));
    CHECK(sections("    x:\n      - [a, b]\n") == NULL);
    CHECK(has(errstr(), "5:9: an entry is a string or a mapping, not a list"));
    CHECK(sections("    x:\n      -\n") == NULL);
    CHECK(has(E.msg, "empty entry"));
    CHECK(sections("    x:\n      - bullet: B\n        summary: S\n"));
    CHECK(sections("    x:\n      - title: T\n        authors: [A]\n        location: L\n"));
}

TEST(section_errors)
{
    /* As RenderCV, every entry is read as the section's first entry's type
     * (other types' keys are extras). */
    CHECK(sections("    experience:\n      - company: C\n        position: P\n"
                   "      - name: N\n") == NULL);
    /* Said as a type mixed in, not only as a key missing: the entry's
     * own keys tell another type (it said "needs a 'company'"). */
    CHECK_STR(errstr(), "7:9: this entry has the keys of a normal entry, but section "
                        "'experience' is of experience entries (its first entry is one), "
                        "which need 'company' and 'position', and a section's entries all "
                        "have one type");
    CHECK(sections("    publications:\n      - title: T\n        authors: [A]\n"
                   "      - bullet: B\n") == NULL);
    CHECK(has(errstr(), "7:9: this entry has the keys of a bullet entry, but section "
                        "'publications' is of publication entries"));
    CHECK(sections("    x:\n      - company: C\n        position: P\n"
                   "      - institution: U\n        area: A\n") == NULL);
    CHECK(has(errstr(), "has the keys of an education entry"));
    /* An entry with the section type's keys but not all of them is told
     * what it lacks, as before. */
    CHECK(sections("    x:\n      - company: C\n        position: P\n"
                   "      - company: D\n        name: N\n") == NULL);
    CHECK_STR(errstr(), "7:9: experience entry needs a 'position'");
    cv_doc *mixed = sections("    experience:\n      - company: C\n        position: P\n"
                             "      - name: N\n        company: D\n        position: Q\n");
    CHECK(mixed && mixed->sections[0].kind == CV_ENTRY_EXPERIENCE &&
          mixed->sections[0].nentries == 2 && mixed->sections[0].entries[1].nextras == 1);
    CHECK(sections("    notes:\n      - Plain text\n      - bullet: B\n") == NULL);
    CHECK(has(errstr(), "6:9: this entry is a mapping, but section 'notes' is of text entries"));
    CHECK(sections("    notes:\n      - bullet: B\n      - Plain text\n") == NULL);
    CHECK(has(errstr(), "6:9: this entry is a string, but section 'notes' is of bullet entries"));
    /* A null section is not a list (RenderCV refuses it). */
    CHECK(sections("    experience:\n    c: [x]\n") == NULL);
    CHECK(has(errstr(), "4:5: section 'experience' has no value"));
    CHECK(sections("    experience: Worked hard\n") == NULL);
    CHECK_STR(errstr(), "4:17: expected a list of entries for section 'experience', got a string");
    /* RenderCV accepts an empty section and shows its title alone. */
    cv_doc *empty = sections("    b: []\n    c: [x]\n");
    CHECK(empty && empty->nsections == 2 && !strcmp(empty->sections[0].key, "b") &&
          empty->sections[0].nentries == 0 && !strcmp(empty->sections[1].key, "c"));
    CHECK(doc("cv:\n  name: A\n  sections: [a]\n") == NULL);
    CHECK(has(errstr(), "3:13: 'sections' must be a mapping"));
}

TEST(numbers_as_strings)
{
    /* RenderCV's strings are strings: a plain number or boolean is refused
     * where a string is wanted, quoted it is text; a date, an extra key
     * and a phone number may be numbers. */
    CHECK(sections("    x:\n      - label: 2019\n        details: D\n") == NULL);
    CHECK_STR(errstr(), "5:16: 'label' must be a string, not the number 2019 (put it in "
                        "quotes: \"2019\")");
    CHECK(sections("    x:\n      - label: L\n        details: 3.14\n") == NULL);
    CHECK(has(errstr(), "6:18: 'details' must be a string, not the number 3.14"));
    CHECK(sections("    x:\n      - bullet: true\n") == NULL);
    CHECK(has(errstr(), "'bullet' must be a string, not the boolean true"));
    CHECK(sections("    x:\n      - 2020\n") == NULL);
    CHECK(sections("    x:\n      - a\n      - b: [1]\n        highlights: [0x1F]\n") == NULL);
    cv_doc *d = sections("    x:\n      - label: '2019'\n        details: \"3.14\"\n"
                         "        revenue: 12\n        date: 2020\n");
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK_STR(d->sections[0].entries[0].label.s, "2019");
    CHECK_STR(d->sections[0].entries[0].details.s, "3.14");
    d = sections("    x:\n      - number: '1'\n      - number: 1.5x\n");
    CHECK(d && strcmp(d->sections[0].entries[0].text.s, "1") == 0);
    d = doc("cv:\n  name: '2020'\n  phone: +16095550100\n  social_networks:\n"
            "    - network: ORCID\n      username: 0000-0001-8578-5158\n");
    CHECK(d && strcmp(d->name.s, "2020") == 0 && strcmp(d->phone.s, "+16095550100") == 0);
    CHECK(d && strcmp(d->socials[0].url, "https://orcid.org/0000-0001-8578-5158") == 0);
}

TEST(publication_details)
{
    /* As RenderCV, authors are a list (one string is not). */
    CHECK(sections("    p:\n      - title: T\n        authors: Solo Author\n") == NULL);
    CHECK(has(errstr(), "'authors' must be a list of strings, not one string"));
    cv_doc *d = sections("    p:\n      - title: T\n        authors: [Solo Author]\n"
                         "        doi: 10.1/abc\n");
    CHECK(d != NULL);
    if (!d)
        return;
    cv_entry *e = &d->sections[0].entries[0];
    CHECK(e->nauthors == 1);
    CHECK_STR(e->authors[0].s, "Solo Author");
    CHECK(e->authors[0].pos.line == 6);
    CHECK_STR(e->doi.s, "10.1/abc");
    d = sections("    p:\n      - title: T\n        authors: [A]\n        doi: 'doi:10.5/x'\n");
    CHECK(d && strcmp(d->sections[0].entries[0].doi.s, "10.5/x") == 0);
    CHECK(sections("    p:\n      - title: T\n        authors: [A]\n        doi: abc\n") == NULL);
    CHECK_STR(errstr(), "7:14: invalid doi 'abc': a DOI looks like 10.1234/abcd");
    CHECK(sections("    p:\n      - title: T\n        authors: [A]\n        url: www.x.org\n") ==
          NULL);
    CHECK(has(errstr(), "7:14: invalid url 'www.x.org'"));
    CHECK(sections("    p:\n      - title: T\n        authors: []\n") == NULL);
    CHECK(has(E.msg, "publication entry needs 'authors'"));
    CHECK(sections("    p:\n      - title: T\n        authors: [A, ~]\n") == NULL);
    CHECK(has(E.msg, "empty item in 'authors'"));
}

/* ---- Dates ------------------------------------------------------------- */

/* One normal entry with the given date lines (each "        key: value\n"). */
static cv_doc *dated(const char *lines)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "    x:\n      - name: N\n%s", lines);
    return sections(buf);
}

TEST(date_forms)
{
    CHECK(dated("        start_date: 2019-07-15\n        end_date: PRESENT\n") == NULL);
    CHECK(has(errstr(), "write present in lower case"));
    cv_doc *d = dated("        start_date: 2019-07-15\n        end_date: present\n");
    CHECK(d != NULL);
    if (!d)
        return;
    cv_entry *e = &d->sections[0].entries[0];
    CHECK(e->start_date.kind == CV_DATE_DAY && e->start_date.year == 2019 &&
          e->start_date.month == 7 && e->start_date.day == 15);
    CHECK(e->start_date.pos.line == 6 && e->start_date.pos.col == 21);
    CHECK(e->end_date.kind == CV_DATE_PRESENT);
    CHECK_STR(range(d, 0, 0), "Jul 2019 \xE2\x80\x93 present");

    d = dated("        date: Fall 2023\n");
    CHECK(d && d->sections[0].entries[0].date.kind == CV_DATE_TEXT);
    CHECK_STR(range(d, 0, 0), "Fall 2023");
    d = dated("        date: 2019-2021\n");
    CHECK(d && d->sections[0].entries[0].date.kind == CV_DATE_TEXT);
    d = dated("        date: 2024-02-29\n");
    CHECK(d && d->sections[0].entries[0].date.day == 29);
    d = dated("        date: 2000-02-29\n");
    CHECK(d != NULL);
    /* RenderCV's months have two digits: "2020-3" in a date is text. */
    d = dated("        date: 2020-3\n");
    CHECK(d && d->sections[0].entries[0].date.kind == CV_DATE_TEXT);
    d = dated("        date: present\n");
    CHECK(d && d->sections[0].entries[0].date.kind == CV_DATE_PRESENT);
}

TEST(date_errors)
{
    CHECK(dated("        date: 2023-13\n") == NULL);
    CHECK_STR(errstr(), "6:15: invalid date '2023-13': month must be between 1 and 12");
    CHECK(dated("        start_date: 2023-02-30\n") == NULL);
    CHECK_STR(errstr(), "6:21: invalid start_date '2023-02-30': day must be between 1 and 28 "
                        "for February 2023");
    CHECK(dated("        date: 1900-02-29\n") == NULL);
    CHECK(has(E.msg, "between 1 and 28 for February 1900"));
    CHECK(dated("        date: 20233\n") == NULL);
    CHECK_STR(errstr(), "6:15: invalid date '20233': use YYYY, YYYY-MM or YYYY-MM-DD");
    CHECK(dated("        date: 0000-01\n") == NULL);
    CHECK(has(E.msg, "year must be between 0001 and 9999"));
    CHECK(dated("        date: 2020-00\n") == NULL);
    CHECK(has(E.msg, "month must be between 1 and 12"));
    CHECK(dated("        start_date: spring\n") == NULL);
    CHECK_STR(errstr(), "6:21: invalid start_date 'spring': use YYYY, YYYY-MM or YYYY-MM-DD");
    CHECK(dated("        start_date: 2020\n        end_date: soon\n") == NULL);
    CHECK_STR(errstr(), "7:19: invalid end_date 'soon': use YYYY, YYYY-MM, YYYY-MM-DD or present");
    CHECK(dated("        start_date: present\n") == NULL);
    CHECK(has(errstr(), "6:21: invalid start_date 'present'"));
    CHECK(dated("        start_date: 2021-05\n        end_date: 2020-01\n") == NULL);
    CHECK_STR(errstr(), "7:19: end_date '2020-01' is before start_date '2021-05'");
    CHECK(dated("        start_date: 2021-05-02\n        end_date: 2021-05-01\n") == NULL);
    CHECK(has(E.msg, "is before start_date"));
    CHECK(dated("        date: [2020]\n") == NULL);
    CHECK_STR(errstr(), "6:15: 'date' must be a date, not a list");
    /* As RenderCV: 2020 is 2020-01-01, before 2020-05. */
    CHECK(dated("        start_date: 2020-05\n        end_date: 2020\n") == NULL);
    CHECK(has(errstr(), "end_date '2020' is before start_date '2020-05'"));
}

TEST(date_rules_like_rendercv)
{
    /* A start alone is ongoing. */
    cv_doc *d = dated("        start_date: 2020\n");
    CHECK(d && d->sections[0].entries[0].end_date.kind == CV_DATE_PRESENT);
    CHECK_STR(d ? range(d, 0, 0) : NULL, "2020 \xE2\x80\x93 present");
    /* An end alone is a single date. */
    d = dated("        end_date: 2020-02\n");
    CHECK(d && d->sections[0].entries[0].date.kind == CV_DATE_MONTH);
    CHECK(d && d->sections[0].entries[0].end_date.kind == CV_DATE_NONE);
    CHECK_STR(d ? range(d, 0, 0) : NULL, "Feb 2020");
    /* `date` wins over start and end. */
    d = dated("        date: 2019\n        start_date: 2010\n        end_date: 2011\n");
    CHECK(d && d->sections[0].entries[0].start_date.kind == CV_DATE_NONE);
    CHECK_STR(d ? range(d, 0, 0) : NULL, "2019");
}

TEST(date_format)
{
    cv_locale loc = doc("cv: {name: A}\n")->locale;
    cv_date d = {CV_DATE_MONTH, 2019, 7, 0, NULL, {0}};
    CHECK_STR(cv_date_format(A, &d, &loc), "Jul 2019");
    CHECK_STR(cv_date_format(A, &d, NULL), "Jul 2019");
    d.kind = CV_DATE_DAY;
    d.day = 5;
    CHECK_STR(cv_date_format(A, &d, &loc), "Jul 2019");
    d.kind = CV_DATE_YEAR;
    CHECK_STR(cv_date_format(A, &d, &loc), "2019");
    d.kind = CV_DATE_PRESENT;
    CHECK_STR(cv_date_format(A, &d, &loc), "present");
    d.kind = CV_DATE_TEXT;
    d.text = "Summer 2020";
    CHECK_STR(cv_date_format(A, &d, &loc), "Summer 2020");
    d.kind = CV_DATE_NONE;
    CHECK(cv_date_format(A, &d, &loc) == NULL);

    /* Templates. */
    cv_date m = {CV_DATE_MONTH, 2019, 7, 0, NULL, {0}};
    cv_date day = {CV_DATE_DAY, 2019, 7, 5, NULL, {0}};
    loc.date_template = "MONTH_NAME YEAR";
    CHECK_STR(cv_date_format(A, &m, &loc), "July 2019");
    loc.date_template = "FULL_MONTH_NAME YEAR_IN_TWO_DIGITS";
    CHECK_STR(cv_date_format(A, &m, &loc), "July 19");
    loc.date_template = "YEAR-MONTH_IN_TWO_DIGITS-DAY_IN_TWO_DIGITS";
    CHECK_STR(cv_date_format(A, &day, &loc), "2019-07-05");
    CHECK_STR(cv_date_format(A, &m, &loc), "2019-07");
    loc.date_template = "MONTH_NAME DAY, YEAR";
    CHECK_STR(cv_date_format(A, &day, &loc), "July 5, 2019");
    CHECK_STR(cv_date_format(A, &m, &loc), "July 2019");
    loc.date_template = "YEAR年MONTH月";
    CHECK_STR(cv_date_format(A, &m, &loc), "2019年7月");
    loc.date_template = "DAY.MONTH.YEAR";
    CHECK_STR(cv_date_format(A, &day, &loc), "5.7.2019");
    CHECK_STR(cv_date_format(A, &m, &loc), "7.2019");
    /* A missing day takes the text after it along (日, a separator). */
    loc.date_template = "YEAR年MONTH月DAY日";
    CHECK_STR(cv_date_format(A, &day, &loc), "2019年7月5日");
    CHECK_STR(cv_date_format(A, &m, &loc), "2019年7月");
    loc.date_template = "YEAR년 MONTH월 DAY일";
    CHECK_STR(cv_date_format(A, &m, &loc), "2019년 7월");
    loc.date_template = "MONTH/DAY/YEAR";
    CHECK_STR(cv_date_format(A, &day, &loc), "7/5/2019");
    CHECK_STR(cv_date_format(A, &m, &loc), "7/2019");
    loc.date_template = "DAY_IN_TWO_DIGITS-MONTH_IN_TWO_DIGITS-YEAR";
    CHECK_STR(cv_date_format(A, &m, &loc), "07-2019");
    loc.date_template = "DAY. MONTH_NAME YEAR";
    CHECK_STR(cv_date_format(A, &day, &loc), "5. July 2019");
    CHECK_STR(cv_date_format(A, &m, &loc), "July 2019");
}

TEST(locale)
{
    cv_doc *d = doc("locale:\n  language: de\n  present: heute\n  to: bis\n"
                    "  date_template: MONTH_NAME YEAR\n"
                    "  month_names: [Januar, Februar, März, April, Mai, Juni, Juli, August,"
                    " September, Oktober, November, Dezember]\n"
                    "  month_abbreviations: [Jan., Feb., März, Apr., Mai, Juni, Juli, Aug.,"
                    " Sep., Okt., Nov., Dez.]\n"
                    "cv:\n  name: A\n  sections:\n    x:\n      - name: N\n"
                    "        start_date: 2020-03\n");
    CHECK(d != NULL);
    if (!d) {
        fprintf(stderr, "  %s\n", errstr());
        return;
    }
    CHECK_STR(d->locale.language, "de");
    CHECK_STR(d->locale.month_full[2], "März");
    CHECK_STR(d->locale.month_abbr[11], "Dez.");
    CHECK_STR(range(d, 0, 0), "März 2020 bis heute");

    /* RenderCV 1.x names, and an empty `to`. */
    d = doc("locale:\n  language: mandarin_chinese\n  to: ''\n  present: 至今\n"
            "  abbreviations_for_months: [1月, 2月, 3月, 4月, 5月, 6月, 7月, 8月, 9月, 10月,"
            " 11月, 12月]\n  date_template: YEAR MONTH_ABBREVIATION\n"
            "cv:\n  name: A\n  sections:\n    x:\n      - name: N\n"
            "        start_date: 2020-03\n        end_date: 2021-11\n");
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK_STR(d->locale.language, "zh");
    CHECK_STR(range(d, 0, 0), "2020 3月 2021 11月");

    /* RenderCV 2's Chinese locale with a Chinese date template. */
    d = doc("locale:\n  language: mandarin_chinese\n  present: 至今\n"
            "  month_abbreviations: [1月, 2月, 3月, 4月, 5月, 6月, 7月, 8月, 9月, 10月,"
            " 11月, 12月]\n  date_template: YEAR年MONTH_ABBREVIATION\n"
            "cv:\n  name: A\n  sections:\n    x:\n      - name: N\n"
            "        start_date: 2019-07\n        end_date: 2022-02\n"
            "      - name: M\n        start_date: 2022-03\n        end_date: present\n");
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK_STR(range(d, 0, 0), "2019年7月 – 2022年2月");
    CHECK_STR(range(d, 0, 1), "2022年3月 – 至今");

    CHECK(doc("locale:\n  month_names: [a, b]\ncv: {name: A}\n") == NULL);
    CHECK_STR(errstr(), "2:16: 'month_names' must be a list of 12 names, got 2");
    CHECK(doc("locale:\n  langauge: en\ncv: {name: A}\n") == NULL);
    CHECK(has(E.msg, "unknown key 'langauge' in locale (did you mean 'language'?)"));
    E.quiet = true;   /* an unknown language is a note */
    CHECK(doc("locale:\n  language: germn\ncv: {name: A}\n") != NULL);
    CHECK(doc("locale: [en]\ncv: {name: A}\n") == NULL);
    CHECK(has(E.msg, "'locale' must be a mapping"));
    /* RenderCV's own keys that cvpdf does not use are accepted. */
    CHECK(doc("locale:\n  language: english\n  month: mo\n  years: yrs\n  last_updated: Upd\n"
              "  phrases: {degree_with_area: DEGREE in AREA}\ncv: {name: A}\n") != NULL);
}

/* ---- Highlights -------------------------------------------------------- */

TEST(highlights_nested)
{
    cv_doc *d = sections("    x:\n      - name: N\n        highlights:\n          - One\n"
                         "          - - One.a\n            - One.b\n          - Two\n"
                         "          - - Two.a\n            - - Two.a.i\n");
    CHECK(d != NULL);
    if (!d) {
        fprintf(stderr, "  %s\n", errstr());
        return;
    }
    cv_entry *e = &d->sections[0].entries[0];
    CHECK(e->nhighlights == 2);
    CHECK_STR(e->highlights[0].text.s, "One");
    CHECK(e->highlights[0].nsub == 2);
    CHECK_STR(e->highlights[0].sub[1].text.s, "One.b");
    CHECK(e->highlights[0].sub[1].text.pos.line == 9);
    CHECK(e->highlights[1].nsub == 1);
    CHECK(e->highlights[1].sub[0].nsub == 1);
    CHECK_STR(e->highlights[1].sub[0].sub[0].text.s, "Two.a.i");
}

/* Lists after one highlight all nest under it, in order, RenderCV-style
 * sub-bullets first: "[a, [x0], [x1], ...]" copied them all again for
 * every list (20,000 lists took 14 s and 7.9 GB). */
TEST(highlights_many_lists)
{
    enum { N = 50000 };
    size_t cap = 200 + 12 * N;
    char *y = malloc(cap);
    size_t w = (size_t)snprintf(y, cap, "cv:\n  name: Ada\n  sections:\n    x:\n"
                                "      - name: N\n        highlights: [\"a\\n- s\", b");
    for (int i = 0; i < N; i++)
        w += (size_t)snprintf(y + w, cap - w, ", [x%d]", i);
    snprintf(y + w, cap - w, "]\n");
    cv_doc *d = doc(y);
    free(y);
    CHECK(d != NULL);
    if (!d) {
        fprintf(stderr, "  %s\n", errstr());
        return;
    }
    cv_entry *e = &d->sections[0].entries[0];
    CHECK(e->nhighlights == 2);
    CHECK(e->highlights[0].nsub == 1);
    CHECK(e->highlights[1].nsub == N);
    CHECK_STR(e->highlights[1].sub[0].text.s, "x0");
    CHECK_STR(e->highlights[1].sub[N - 1].text.s, "x49999");
    d = sections("    x:\n      - name: N\n        highlights: [\"a\\n- s\", [t], [u, v]]\n");
    CHECK(d && d->sections[0].entries[0].highlights[0].nsub == 4);
    CHECK(d && !strcmp(d->sections[0].entries[0].highlights[0].sub[0].text.s, "s"));
    CHECK(d && !strcmp(d->sections[0].entries[0].highlights[0].sub[3].text.s, "v"));
}

TEST(highlights_rendercv_style)
{
    cv_doc *d = sections("    x:\n      - name: N\n        highlights:\n"
                         "          - \"Main point\\n  - sub one\\n  - sub two\\n    continued\"\n"
                         "          - |\n            Literal\n            - a\n            - b\n"
                         "          - no - dash here\n");
    CHECK(d != NULL);
    if (!d) {
        fprintf(stderr, "  %s\n", errstr());
        return;
    }
    cv_entry *e = &d->sections[0].entries[0];
    CHECK(e->nhighlights == 3);
    CHECK_STR(e->highlights[0].text.s, "Main point");
    CHECK(e->highlights[0].nsub == 2);
    CHECK_STR(e->highlights[0].sub[0].text.s, "sub one");
    CHECK_STR(e->highlights[0].sub[1].text.s, "sub two continued");
    CHECK_STR(e->highlights[1].text.s, "Literal");
    CHECK(e->highlights[1].nsub == 2);
    CHECK_STR(e->highlights[1].sub[1].text.s, "b");
    /* RenderCV >= 2.4: every " - " starts a sub-bullet, so a folded
     * plain scalar ("text\n  - sub") nests too. */
    CHECK_STR(e->highlights[2].text.s, "no");
    CHECK(e->highlights[2].nsub == 1 && !strcmp(e->highlights[2].sub[0].text.s, "dash here"));
    d = sections("    x:\n      - name: N\n        summary: |\n          Two\n          lines\n"
                 "        highlights:\n          - |\n            Block\n");
    CHECK(d && strcmp(d->sections[0].entries[0].summary.s, "Two\nlines") == 0);
    CHECK(d && strcmp(d->sections[0].entries[0].highlights[0].text.s, "Block") == 0);
    d = sections("    x:\n      - name: N\n        highlights:\n          - Main\n"
                 "            - one\n            - two\n          - en – dash\n");
    CHECK(d && d->sections[0].entries[0].highlights[0].nsub == 2 &&
          !strcmp(d->sections[0].entries[0].highlights[0].sub[1].text.s, "two") &&
          d->sections[0].entries[0].highlights[1].nsub == 0);
}

TEST(highlight_errors)
{
    CHECK(sections("    x:\n      - name: N\n        highlights:\n          - - orphan\n") == NULL);
    CHECK_STR(errstr(), "7:13: a nested list of highlights must follow the highlight it "
                        "belongs to");
    CHECK(sections("    x:\n      - name: N\n        highlights: one\n") == NULL);
    CHECK_STR(errstr(), "6:21: 'highlights' must be a list of strings, not a string");
    CHECK(sections("    x:\n      - name: N\n        highlights:\n          - Result: 10%\n") ==
          NULL);
    CHECK(has(errstr(), "7:13: a highlight must be a string, not a mapping"));
    CHECK(sections("    x:\n      - name: N\n        highlights:\n          -\n") == NULL);
    CHECK(has(E.msg, "empty highlight"));
    /* At most 8 levels: each one narrows the column. */
    CHECK(sections("    x:\n      - name: N\n        highlights: [a, [b, [c, [d, [e, [f, "
                   "[g, [h]]]]]]]]\n") != NULL);
    CHECK(sections("    x:\n      - name: N\n        highlights: [a, [b, [c, [d, [e, [f, "
                   "[g, [h, [i]]]]]]]]]\n") == NULL);
    CHECK_STR(errstr(), "6:53: highlights nest more than 8 levels deep");
}

/* ---- Social networks --------------------------------------------------- */

static cv_social *social(const char *network, const char *username)
{
    static char buf[512];
    snprintf(buf, sizeof buf,
             "cv:\n  name: A\n  social_networks:\n    - network: %s\n      username: '%s'\n",
             network, username);
    cv_doc *d = doc(buf);
    return d && d->nsocials == 1 ? &d->socials[0] : NULL;
}

TEST(social_urls)
{
    static const char *const cases[][4] = {
        {"GitHub", "feifeibear", "https://github.com/feifeibear", "feifeibear"},
        {"github", "u", "https://github.com/u", "u"},
        {"LinkedIn", "ada-l", "https://linkedin.com/in/ada-l", "ada-l"},
        {"GitLab", "u", "https://gitlab.com/u", "u"},
        {"IMDB", "nm0000001", "https://imdb.com/name/nm0000001", "nm0000001"},
        {"Instagram", "u", "https://instagram.com/u", "u"},
        {"ORCID", "0000-0001-8578-5158", "https://orcid.org/0000-0001-8578-5158",
         "0000-0001-8578-5158"},
        {"Mastodon", "@ada@mastodon.social", "https://mastodon.social/@ada",
         "@ada@mastodon.social"},
        {"StackOverflow", "12345/ada", "https://stackoverflow.com/users/12345/ada", "12345/ada"},
        {"ResearchGate", "Ada-L", "https://researchgate.net/profile/Ada-L", "Ada-L"},
        {"YouTube", "ada", "https://youtube.com/@ada", "ada"},
        {"Google Scholar", "abcDEF", "https://scholar.google.com/citations?user=abcDEF",
         "Google Scholar"},
        {"google_scholar", "abc", "https://scholar.google.com/citations?user=abc",
         "Google Scholar"},
        {"Telegram", "ada", "https://t.me/ada", "ada"},
        {"WhatsApp", "+44 20 1234 5678", "https://wa.me/442012345678", "+44 20 1234 5678"},
        {"Leetcode", "ada", "https://leetcode.com/u/ada", "ada"},
        {"X", "ada", "https://x.com/ada", "ada"},
        {"Twitter", "ada", "https://x.com/ada", "ada"},
        {"Bluesky", "ada.bsky.social", "https://bsky.app/profile/ada.bsky.social",
         "ada.bsky.social"},
        {"Reddit", "ada", "https://reddit.com/user/ada", "ada"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cv_social *s = social(cases[i][0], cases[i][1]);
        CHECK(s != NULL);
        if (!s) {
            fprintf(stderr, "  %s: %s\n", cases[i][0], errstr());
            continue;
        }
        CHECK_STR(s->url, cases[i][2]);
        CHECK_STR(s->label, cases[i][3]);
        CHECK_STR(s->username.s, cases[i][1]);
    }
    CHECK_STR(social("google scholar", "x")->network.s, "Google Scholar");
    CHECK_STR(social("twitter", "x")->network.s, "X");
    CHECK_STR(social("stack overflow", "1/x")->network.s, "StackOverflow");
}

TEST(social_errors)
{
    CHECK(social("Githb", "ada") == NULL);
    CHECK_STR(errstr(), "4:16: unknown social network 'Githb' (did you mean 'GitHub'?)");
    CHECK(social("Myspace", "ada") == NULL);
    CHECK(has(E.msg, "unknown social network 'Myspace': cvpdf knows LinkedIn"));
    CHECK(social("Mastodon", "ada") == NULL);
    CHECK_STR(errstr(), "5:17: Mastodon username 'ada' must look like @name@server");
    CHECK(social("ORCID", "0000-0001-8578") == NULL);
    CHECK(has(E.msg, "ORCID iD '0000-0001-8578' must look like 0000-0002-1825-0097"));
    CHECK(social("GitHub", "ada lovelace") != NULL);     /* a warning, as RenderCV takes it */
    CHECK(doc("cv:\n  name: A\n  social_networks:\n    - network: GitHub\n") == NULL);
    CHECK_STR(errstr(), "4:7: a social network needs a 'username'");
    CHECK(doc("cv:\n  name: A\n  social_networks:\n    - network: GitHub\n      user_name: a\n") ==
          NULL);
    CHECK(has(E.msg, "unknown key 'user_name' in social network (did you mean 'username'?)"));
    CHECK(doc("cv:\n  name: A\n  social_networks: {network: GitHub}\n") == NULL);
    CHECK(has(E.msg, "'social_networks' must be a list"));
    CHECK(doc("cv:\n  name: A\n  social_networks: [GitHub]\n") == NULL);
    CHECK(has(E.msg, "a social network is a mapping"));
}

TEST(social_custom)
{
    cv_doc *d = doc("cv:\n  name: A\n  social_networks:\n    - network: Codeberg\n"
                    "      username: ada\n      url: https://codeberg.org/ada\n"
                    "      fontawesome_icon: code\n");
    CHECK(d && d->nsocials == 1);
    if (!d)
        return;
    CHECK_STR(d->socials[0].network.s, "Codeberg");
    CHECK_STR(d->socials[0].url, "https://codeberg.org/ada");
    CHECK_STR(d->socials[0].label, "ada");
}

/* ---- Section titles ---------------------------------------------------- */

TEST(section_titles)
{
    CHECK_STR(cv_section_title(A, "selected_honors", "en"), "Selected Honors");
    CHECK_STR(cv_section_title(A, "education", "en"), "Education");
    CHECK_STR(cv_section_title(A, "education_and_training", "en"), "Education and Training");
    CHECK_STR(cv_section_title(A, "in_the_press", "en"), "In The Press"); /* RenderCV keeps "the" */
    CHECK_STR(cv_section_title(A, "for_fun", "en"), "For Fun");
    CHECK_STR(cv_section_title(A, "work_in_progress", "en"), "Work in Progress");
    CHECK_STR(cv_section_title(A, "top_10_papers", "en"), "Top 10 Papers");
    CHECK_STR(cv_section_title(A, "Selected honors", "en"), "Selected honors");
    CHECK_STR(cv_section_title(A, "selected honors", "en"), "selected honors");
    CHECK_STR(cv_section_title(A, "myPapers", "en"), "myPapers");
    CHECK_STR(cv_section_title(A, "USA_work", "en"), "USA_work");
    CHECK_STR(cv_section_title(A, "expériences_récentes", "en"), "Expériences Récentes");
    CHECK_STR(cv_section_title(A, "éducation", "en"), "Éducation");
    CHECK_STR(cv_section_title(A, "Éducation_x", "en"), "Éducation_x");
    CHECK_STR(cv_section_title(A, "образование", "en"), "Образование");
    CHECK_STR(cv_section_title(A, "教育经历", "en"), "教育经历");
    CHECK_STR(cv_section_title(A, "a__b", "en"), "A B");
}

/* ---- Settings, design and notes ---------------------------------------- */

/* Run `yaml`; returns what the sink said. */
static const char *stderr_of(const char *yaml, bool quiet, bool *ok)
{
    capture();
    E.quiet = quiet;
    cv_yml *root = cv_yml_load(A, "p.yaml", yaml, strlen(yaml), &E);
    *ok = root && cv_doc_load(A, root, "p.yaml", &E);
    return said();
}

TEST(design_note)
{
    bool ok = false;
    const char *y = "cv:\n  name: A\ndesign:\n  theme: classic\n  page: {size: a4}\n"
                    "rendercv_settings:\n  bold_keywords: [C]\n";
    const char *err = stderr_of(y, false, &ok);
    CHECK(ok);
    /* design: is read (design.h), page.size is mapped; rendercv_settings
     * is RenderCV 2.0-2.3's settings (rcvold.h). */
    CHECK_STR(err, "p.yaml:6:1: note: read as a RenderCV 2.0\xE2\x80\x93" "2.3 file: "
                   "rendercv_settings.bold_keywords \xE2\x86\x92 settings.bold_keywords "
                   "(`cvpdf migrate FILE` prints it as RenderCV 2.8 writes it)\n");
    CHECK(E.nwarnings == 0);
    err = stderr_of("cv:\n  name: A\n  sections:\n    x:\n      - company: C\n"
                    "        position: P\n        higlights: a\n", false, &ok);
    CHECK(ok);
    CHECK_STR(err, "p.yaml:7:9: warning: 'higlights' is not a field of an experience entry "
                   "(did you mean 'highlights'?); kept for templates only\n");
    err = stderr_of("cv:\n  name: A\n  sections:\n    x: []\n", false, &ok);
    CHECK(ok);
    CHECK_STR(err, "");
    err = stderr_of("cv:\n  name: A\n  headline: 'x $$a^2$$ and #emph[y] #tag'\n", false, &ok);
    CHECK(ok);
    CHECK_STR(err, "p.yaml:3:13: warning: Typst markup '$$a^2$$' is not supported: set as "
                   "plain text\n");
    err = stderr_of("cv:\n  name: A\nlocale:\n  language: hungarian\n", false, &ok);
    CHECK(ok);
    err = stderr_of("cv:\n  name: A\nlocale:\n  language: vietnamese\n", false, &ok);
    CHECK(ok);
    err = stderr_of(y, true, &ok);
    CHECK(ok);
    CHECK_STR(err, "");
    err = stderr_of("cv: {name: A}\nlocale:\n  language: germn\n", false, &ok);
    CHECK(ok);
    CHECK(has(err, "p.yaml:3:13: note: unknown language 'germn'"));
    err = stderr_of("cv: {name: A}\nlocale:\n  language: mandarin_chinese\n  present: 至今\n"
                    "  date_template: YEAR年MONTH月\n", false, &ok);
    CHECK(ok);
    CHECK_STR(err, "");
    err = stderr_of("cv: {name: A}\nrendercv_settings:\n  render_command: {pdf_path: x}\n",
                    false, &ok);
    CHECK(ok);
    CHECK(has(err, "p.yaml:2:1: note: read as a RenderCV 2.0\xE2\x80\x93" "2.3 file: "
                   "rendercv_settings.render_command.pdf_path \xE2\x86\x92 "
                   "settings.render_command.pdf_path"));
}

TEST(typst_plain)
{
    cv_doc *d = doc("cv:\n  name: A\n  headline: 'x $$a^2$$ and #emph[y], #link(\"u\")[z] #tag'\n");
    CHECK(d && !strcmp(d->headline.s, "x a\xC2\xB2 and y, z #tag"));
    CHECK(E.nwarnings == 1);
    /* The math as the text it reads as (LaTeX's, which RenderCV hands to
     * Typst's LaTeX math package): symbols, words, fonts, scripts. */
    static const char *const math[][2] = {
        {"$$\\mathcal{O}(n^2)$$", "O(n\xC2\xB2)"},
        {"$$\\mathcal{O}(n \\log n)$$", "O(n log n)"},
        {"$$x_{10} \\times 2^{-3}$$", "x\xE2\x82\x81\xE2\x82\x80 \xC3\x97 2\xE2\x81\xBB\xC2\xB3"},
        {"$$\\alpha \\leq \\Omega$$", "\xCE\xB1 \xE2\x89\xA4 \xCE\xA9"},
        {"$$e^{i\\pi}$$", "e^i\xCF\x80"},
        {"$$\\text{run time} \\, \\unknown{x}$$", "run time \\unknownx"},
        {"$$a^$$", "a^"},
        {"$$\\mathbf{$$", ""}};
    for (size_t i = 0; i < sizeof math / sizeof *math; i++) {
        char y[160];
        snprintf(y, sizeof y, "cv:\n  name: A\n  headline: '%s'\n", math[i][0]);
        d = doc(y);
        CHECK(d && d->headline.s && !strcmp(d->headline.s, math[i][1]));
        if (d && d->headline.s && strcmp(d->headline.s, math[i][1]))
            fprintf(stderr, "  %s: got '%s'\n", math[i][0], d->headline.s);
    }
    /* $...$ is LaTeX math in a RenderCV 1.x file only, and not between
     * prices. */
    d = doc("cv:\n  name: A\n  headline: 'n $n^2$ $5 and $10'\n");
    CHECK(d && !strcmp(d->headline.s, "n $n^2$ $5 and $10"));
    d = doc("cv:\n  name: A\n  headline: 'n $n^2$ $5 and $10'\ndesign:\n  font_size: 10pt\n");
    CHECK(d && !strcmp(d->headline.s, "n n\xC2\xB2 $5 and $10"));
}

TEST(contact_order)
{
    /* As RenderCV: the connections in the order the cv writes them. */
    cv_doc *d = doc("cv:\n  name: A\n  email: a@b.co\n  social_networks: []\n"
                    "  location: X\n  custom_connections: []\n  phone:\n");
    CHECK(d && d->ncontact_order == 4 && d->contact_order[0] == CV_CONTACT_EMAIL &&
          d->contact_order[1] == CV_CONTACT_SOCIAL && d->contact_order[2] == CV_CONTACT_LOCATION &&
          d->contact_order[3] == CV_CONTACT_CUSTOM);
}

TEST(settings)
{
    cv_doc *d = doc("cv: {name: A}\nrendercv_settings:\n  bold_keywords: [Rust, Go]\n");
    CHECK(d && d->nbold_keywords == 2);
    CHECK(doc("cv: {name: A}\nsettings:\n  bold_keywords: C++\n") == NULL);
    CHECK(has(errstr(), "'bold_keywords' must be a list of strings"));
    d = doc("cv: {name: A}\nsettings:\n  bold_keywords: [C++]\n  current_date: 2024-01-01\n");
    CHECK(d && d->nbold_keywords == 1 && strcmp(d->bold_keywords[0].s, "C++") == 0);
    CHECK(doc("cv: {name: A}\nsettings:\n  bold_keyword: [C]\n") == NULL);
    CHECK_STR(errstr(), "3:3: unknown key 'bold_keyword' in settings (did you mean "
                        "'bold_keywords'?)");
    CHECK(doc("cv: {name: A}\nsettings:\n  bold_keywords: {a: 1}\n") == NULL);
    CHECK(has(E.msg, "'bold_keywords' must be a list of strings, not a mapping"));
    /* current_date is a day, checked as dates are; `today` is no date. */
    CHECK(doc("cv: {name: A}\nsettings:\n  current_date: 2023-13-01\n") == NULL);
    CHECK_STR(errstr(), "3:17: invalid current_date '2023-13-01': month must be between 1 "
                        "and 12");
    CHECK(doc("cv: {name: A}\nsettings:\n  current_date: 2023-02-29\n") == NULL);
    CHECK(has(E.msg, "day must be between 1 and 28 for February 2023"));
    CHECK(doc("cv: {name: A}\nsettings:\n  current_date: 2023-05\n") == NULL);
    CHECK(has(E.msg, "invalid current_date '2023-05': use YYYY-MM-DD"));
    d = doc("cv: {name: A}\nsettings:\n  current_date: today\n");
    CHECK(d && d->current_date.s == NULL);
}

TEST(pdf_string_limits)
{
    /* What becomes one PDF string is refused past 8192 bytes, at its place. */
    static char buf[20000];
    char big[9000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    snprintf(buf, sizeof buf, "cv:\n  name: A\n  website: https://e.com/%s\n", big);
    CHECK(doc(buf) == NULL);
    CHECK_STR(errstr(), "3:12: 'website' is longer than 8192 bytes");
    snprintf(buf, sizeof buf, "cv:\n  name: %s\n", big);
    CHECK(doc(buf) == NULL);
    CHECK_STR(errstr(), "2:9: 'name' is longer than 8192 bytes");
    snprintf(buf, sizeof buf, "cv:\n  name: A\n  sections:\n    t:\n      - \"[a](https://e.com/%s)\"\n",
             big);
    CHECK(doc(buf) == NULL);
    CHECK_STR(errstr(), "5:9: a link in 'text' has a URL longer than 8192 bytes");
    /* A long text without a long link is fine. */
    snprintf(buf, sizeof buf, "cv:\n  name: A\n  location: %s\n", big);
    CHECK(doc(buf) != NULL);
}

TEST(social_limit)
{
    static char buf[8192];
    size_t n = (size_t)snprintf(buf, sizeof buf, "cv:\n  name: A\n  social_networks:\n");
    for (int i = 0; i < 61; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n,
                              "    - {network: GitHub, username: a%d}\n", i);
    CHECK(doc(buf) == NULL);
    CHECK_STR(errstr(), "64:7: at most 60 social networks");
}

TEST(load_file)
{
    cv_error_init(&E);
    CHECK(cv_doc_load_file(A, "/nonexistent.yaml", &E) == NULL);
    CHECK_STR(E.msg, "cannot open '/nonexistent.yaml': No such file or directory");

    char path[] = "/tmp/cvpdf_test_doc_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    const char *y = "cv:\n  name: Ada\n  emial: x\n";
    CHECK(write(fd, y, strlen(y)) == (ssize_t)strlen(y));
    close(fd);
    cv_error_init(&E);
    CHECK(cv_doc_load_file(A, path, &E) == NULL);
    CHECK_STR(E.pos.file, path);
    CHECK(E.pos.line == 3 && E.pos.col == 3);
    fd = open(path, O_WRONLY | O_TRUNC);
    y = "cv:\n  name: Ada\n";
    CHECK(fd >= 0 && write(fd, y, strlen(y)) == (ssize_t)strlen(y));
    close(fd);
    cv_error_init(&E);
    cv_doc *d = cv_doc_load_file(A, path, &E);
    CHECK(d && strcmp(d->name.s, "Ada") == 0 && strcmp(d->file, path) == 0);
    unlink(path);
}

/* A RenderCV example profile loads as it is. */
TEST(rendercv_fixture)
{
    char path[512];
    snprintf(path, sizeof path, "%s", __FILE__);
    char *slash = strrchr(path, '/');
    snprintf(slash ? slash + 1 : path, sizeof path - (size_t)(slash ? slash + 1 - path : 0),
             "data/rendercv_example.yaml");
    cv_error_init(&E);
    E.quiet = true;
    cv_doc *d = cv_doc_load_file(A, path, &E);
    CHECK(d != NULL);
    if (!d) {
        cv_error_print(&E);
        return;
    }
    CHECK_STR(d->name.s, "John Doe");
    CHECK(d->nsections == 9);
    CHECK_STR(d->sections[0].title, "Welcome to RenderCV!");
    CHECK(d->sections[1].kind == CV_ENTRY_EDUCATION);
    CHECK(d->sections[d->nsections - 1].kind == CV_ENTRY_REVERSED);
    CHECK(d->nsocials == 2);
}

/* The body face a profile's design: chose (its layout key font.family). */
static const char *design_font(const cv_doc *d)
{
    const cv_yml *f = d ? cv_yml_get(cv_yml_get(d->design.layout, "font"), "family") : NULL;
    return f && f->kind == CV_YML_SCALAR ? f->str : "";
}

/* --defaults and a profile of different RenderCV versions: each is read
 * as RenderCV 2.8's before one goes under the other (a 1.x design: merged
 * with a 2.8 one was neither: the defaults' typography was refused as an
 * unknown key of a 1.x design, and a 1.x note blamed the profile). */
TEST(defaults_of_another_rendercv_version)
{
    const char *old_profile = "cv:\n  name: Ada\ndesign:\n  theme: classic\n  font: Charter\n";
    const char *new_profile = "cv:\n  name: Ada\ndesign:\n  theme: classic\n";
    const char *new_lab = "design:\n  typography:\n    font_family: Lato\n";
    const char *old_lab = "design:\n  font: Ubuntu\n";
    for (int i = 0; i < 2; i++) {
        char path[] = "/tmp/cvpdf-test-doc-XXXXXX";
        int fd = mkstemp(path);
        CHECK(fd >= 0);
        if (fd < 0)
            return;
        const char *lab = i ? old_lab : new_lab;
        CHECK(write(fd, lab, strlen(lab)) == (ssize_t)strlen(lab));
        close(fd);
        cv_error_init(&E);
        E.quiet = true;
        cv_yml *defaults = cv_doc_load_defaults(A, path, &E);
        CHECK(defaults != NULL && !E.set);
        const char *prof = i ? new_profile : old_profile;
        cv_doc *d = cv_doc_load_text_over(A, "p.yaml", prof, strlen(prof), defaults, NULL, &E);
        CHECK(d != NULL && !E.set);
        /* The profile's own face wins; with none, the defaults'. */
        CHECK_STR(design_font(d), i ? "Ubuntu" : "XCharter");
        unlink(path);
    }
}

int main(void)
{
    A = cv_arena_new();
    RUN(whole_profile);
    RUN(profile_shape_errors);
    RUN(unknown_key_suggestion);
    RUN(field_checks);
    RUN(entry_type_errors);
    RUN(section_errors);
    RUN(defaults_of_another_rendercv_version);
    RUN(numbers_as_strings);
    RUN(publication_details);
    RUN(date_forms);
    RUN(date_errors);
    RUN(date_rules_like_rendercv);
    RUN(date_format);
    RUN(locale);
    RUN(highlights_nested);
    RUN(highlights_many_lists);
    RUN(highlights_rendercv_style);
    RUN(highlight_errors);
    RUN(social_urls);
    RUN(social_errors);
    RUN(social_custom);
    RUN(section_titles);
    RUN(design_note);
    RUN(typst_plain);
    RUN(contact_order);
    RUN(settings);
    RUN(pdf_string_limits);
    RUN(social_limit);
    RUN(load_file);
    RUN(rendercv_fixture);
    cv_arena_free(A);
    return harness_report("doc");
}
