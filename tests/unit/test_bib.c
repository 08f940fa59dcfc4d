/* test_bib.c - publications from a .bib (tests/data/bib/cases.bib). */
#include "bib.h"
#include "doc.h"
#include "errcheck.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static cv_arena *A;

static const char *tex(const char *s)
{
    return cv_bib_tex(A, s, NULL);
}

TEST(bib_accents_in_every_spelling)
{
    const char *u[] = {"{\\\"u}", "\\\"{u}", "\\\"u", "{\\\" u}", "\\\" u", NULL};
    for (size_t i = 0; u[i]; i++)
        CHECK_STR(tex(u[i]), "ü");
    CHECK_STR(tex("{\\ss}"), "ß");
    CHECK_STR(tex("Stra\\ss e"), "Straße");
    CHECK_STR(tex("\\c{c}"), "ç");
    CHECK_STR(tex("\\c c"), "ç");
    CHECK_STR(tex("{\\o}"), "ø");
    CHECK_STR(tex("{\\O}stergaard"), "Østergaard");
    CHECK_STR(tex("\\'{\\i}"), "í");
    CHECK_STR(tex("\\'\\i"), "í");
    CHECK_STR(tex("{\\'\\i}"), "í");
    CHECK_STR(tex("\\'{e}"), "é");
    CHECK_STR(tex("\\`a \\^o \\~n \\=a \\.z \\u{g} \\v{s} \\H{o} \\k{e} \\r{a} \\d{s}"),
              "à ô ñ ā ż ğ š ő ę å ṣ");
    CHECK_STR(tex("{\\aa} {\\AE} {\\l}"), "å Æ ł");
    /* No composed form: the letter and the combining mark. */
    CHECK_STR(tex("\\\"{q}"), "q\xCC\x88");
    /* A backslash before a letter beyond ASCII (a typo): the letter, whole,
     * never its bytes apart (found by fuzz_bib: invalid UTF-8 came out). */
    CHECK_STR(tex("Garc\\'{\\\xC3\xAD}a"), "Garc\xC3\xAD\xCC\x81" "a");
    CHECK_STR(tex("\\\xC3\xA9t\xC3\xA9"), "\xC3\xA9t\xC3\xA9");
    CHECK_STR(tex("\\'\\\xE2\x82\xAC"), "\xE2\x82\xAC\xCC\x81");
}

TEST(bib_dashes_ties_specials_braces)
{
    CHECK_STR(tex("1--10"), "1–10");
    CHECK_STR(tex("a --- b"), "a — b");
    CHECK_STR(tex("J.~Fang"), "J. Fang");
    CHECK_STR(tex("R\\&D 50\\% \\$5 \\#1 a\\_b"), "R&D 50% $5 #1 a_b");
    CHECK_STR(tex("{RedSync}: {{GPU}} {T}ransformers"), "RedSync: GPU Transformers");
    CHECK_STR(tex("``quoted''"), "“quoted”");
    CHECK_STR(tex("a   b\n c"), "a b c");
    /* Markup characters are escaped; in plain text they are not. */
    CHECK_STR(tex("a*b [c]"), "a\\*b \\[c\\]");
    CHECK_STR(cv_bib_tex_plain(A, "a*b [c] \\textbf{d}", NULL), "a*b [c] d");
}

TEST(bib_styles_urls_math)
{
    CHECK_STR(tex("\\textbf{Bold} and \\emph{it}"), "**Bold** and *it*");
    CHECK_STR(tex("\\textit{x} {\\bf y} {\\em z}"), "*x* **y** *z*");
    CHECK_STR(tex("\\texttt{code} \\textsc{Caps}"), "code Caps");
    CHECK_STR(tex("\\url{https://a.org/x_y}"), "[https://a.org/x\\_y](https://a.org/x_y)");
    CHECK_STR(tex("\\href{https://a.org}{the site}"), "[the site](https://a.org)");
    CHECK_STR(tex("$O(n \\log n)$"), "O(n log n)");
    CHECK_STR(tex("$\\alpha$-approximation"), "α-approximation");
    CHECK_STR(tex("$x^2 + y^{10}$ and $H_2O$"), "x² + y¹⁰ and H₂O");
    CHECK_STR(tex("$\\frac{1}{2}$"), "1/2");
    CHECK_STR(tex("$a \\leq b \\times c$"), "a ≤ b × c");
    const char *unk = NULL;
    CHECK_STR(cv_bib_tex(A, "a \\frobnicate{b} c", &unk), "a b c");
    CHECK_STR(unk, "\\frobnicate");
    unk = "x";
    cv_bib_tex(A, "plain", &unk);
    CHECK(unk == NULL);
    /* Deep nesting and unclosed groups neither crash nor loop. */
    char deep[4000];
    size_t n = 0;
    for (int i = 0; i < 1000; i++)
        deep[n++] = '{';
    memcpy(deep + n, "x", 2);
    CHECK_STR(tex(deep), "x");
    CHECK_STR(tex("\\textbf{open"), "**open**");
    CHECK_STR(tex("$unclosed"), "unclosed");
    CHECK_STR(tex("\\"), "");
    CHECK_STR(tex("\\'"), "");
}

static const cv_entry *by_title(const cv_entry *e, size_t n, const char *start)
{
    for (size_t i = 0; i < n; i++)
        if (!strncmp(e[i].title.s, start, strlen(start)))
            return &e[i];
    return NULL;
}

TEST(bib_reads_the_cases)
{
    capture();
    cv_entry *e;
    size_t n;
    CHECK(cv_bib_read(A, "tests/data/bib/cases.bib", &e, &n, &E));
    const char *msgs = said();
    /* The broken entry, the duplicate key and the one without a title are
     * said with their positions; the rest is read. */
    CHECK(has(msgs, "cases.bib:112:3: warning: entry 'broken2016' (line 109) is skipped"));
    CHECK(has(msgs, "cases.bib:97:1: warning: duplicate key 'fang2022chunk' (first at line 9"));
    CHECK(has(msgs, "cases.bib:103:1: warning: entry 'notitle2020' has no title"));
    CHECK(!has(msgs, "junk"));
    CHECK(n == 11);
    /* Newest first: year, then month. */
    CHECK_STR(e[0].title.s, "USP: A Unified Sequence Parallelism Approach for Long Context "
                            "Generative AI");
    for (size_t i = 1; i < n; i++)
        CHECK(e[i - 1].date.year > e[i].date.year ||
              (e[i - 1].date.year == e[i].date.year && e[i - 1].date.month >= e[i].date.month));

    const cv_entry *x = by_title(e, n, "Parallel Training");
    CHECK(x && x->nauthors == 4);
    if (x && x->nauthors == 4) {
        CHECK_STR(x->authors[0].s, "Jiarui Fang");
        CHECK_STR(x->authors[3].s, "et al.");
        CHECK_STR(x->journal.s, "IEEE Transactions on Parallel and Distributed Systems, "
                                "vol. 34, no. 1, pp. 304–315");
        CHECK(x->date.kind == CV_DATE_MONTH && x->date.year == 2022 && x->date.month == 1);
        CHECK_STR(x->doi.s, "10.1109/TPDS.2022.3219819");
        CHECK(x->title.pos.line == 11 && x->title.pos.col == 3);
    }
    x = by_title(e, n, "Über Café");
    CHECK(x != NULL);
    if (x) {
        CHECK_STR(x->title.s, "Über Café — Naïve Façades, øl & 50% “quotes” here");
        CHECK_STR(x->authors[0].s, "Jörg Müller");
        CHECK_STR(x->authors[1].s, "José García");
        CHECK_STR(x->authors[2].s, "François Østergaard");
        CHECK_STR(x->authors[3].s, "Åsa Straße");
        CHECK_STR(x->journal.s, "Proceedings of the Conférence on Systems, pp. 1–10");
        CHECK(x->date.month == 7);
        CHECK_STR(x->url.s, "https://example.org/m%C3%BCller_2021");
    }
    x = by_title(e, n, "**Bold**");
    CHECK(x && x->nauthors == 4);
    if (x && x->nauthors == 4) {
        CHECK_STR(x->authors[0].s, "Ludwig van Beethoven");
        CHECK_STR(x->authors[1].s, "Jean de la Fontaine");
        CHECK_STR(x->authors[2].s, "John Smith, Jr.");
        CHECK_STR(x->authors[3].s, "Barnes and Noble, Inc.");
        CHECK(x->date.month == 12);
    }
    /* crossref: booktitle, year and month from the proceedings;
     * the DOI bare; the proceedings themselves not listed. */
    x = by_title(e, n, "TurboTransformers");
    CHECK(x != NULL);
    if (x) {
        CHECK(has(x->journal.s, "PPoPP 2021"));    /* the parent's booktitle */
        CHECK(has(x->journal.s, "pp. 389–402"));
        CHECK(x->date.year == 2021 && x->date.month == 2);
        CHECK_STR(x->doi.s, "10.1145/3437801.3441578");
    }
    CHECK(by_title(e, n, "Proceedings of the 26th") == NULL);
    x = by_title(e, n, "USP");
    CHECK(x && !strcmp(x->url.s, "https://arxiv.org/abs/2405.07719"));
    CHECK(x && !strcmp(x->journal.s, "arXiv preprint arXiv:2405.07719"));
    x = by_title(e, n, "Parallel Deep Learning");
    CHECK(x && !strcmp(x->journal.s, "PhD thesis, Tsinghua University"));
    x = by_title(e, n, "High Performance");
    CHECK(x && x->nauthors == 1 && !strcmp(x->authors[0].s, "Guangwen Yang"));
    x = by_title(e, n, "An O(n log n)");
    CHECK(x && has(x->title.s, "α-Approximation with x²"));
}

/* A profile in tests/data/bib/ (its .bib path is relative to it). */
static cv_doc *profile(const char *body)
{
    char text[2048];
    snprintf(text, sizeof text, "cv:\n  name: Jiarui Fang\n  sections:\n%s", body);
    capture();
    return cv_doc_load_text(A, "tests/data/bib/p.yaml", text, strlen(text), NULL, &E);
}

TEST(bib_section_options)
{
    cv_doc *d = profile("    pubs: cases.bib\n");
    said();
    CHECK(d && d->nsections == 1 && d->sections[0].nentries == 11);
    CHECK(d && d->sections[0].kind == CV_ENTRY_PUBLICATION);
    CHECK(d && !strcmp(d->sections[0].title, "Pubs"));

    d = profile("    pubs:\n      bib: cases.bib\n      types: [article]\n      sort: oldest\n");
    said();
    CHECK(d && d->sections[0].nentries == 2);
    if (d && d->sections[0].nentries == 2) {
        CHECK(d->sections[0].entries[0].date.year == 2019);
        CHECK(d->sections[0].entries[1].date.year == 2022);
    }

    d = profile("    pubs:\n      bib: cases.bib\n      years: 2019-2021\n      limit: 3\n"
                "      selected: [math2019]\n      notes:\n        math2019: \"**Best "
                "Paper**\"\n");
    said();
    CHECK(d && d->sections[0].nentries == 3);
    if (d && d->sections[0].nentries == 3) {
        CHECK(d->sections[0].entries[0].date.year == 2019);       /* selected first */
        CHECK_STR(d->sections[0].entries[0].summary.s, "**Best Paper**");
        CHECK(d->sections[0].entries[1].date.year == 2021);
    }

    d = profile("    pubs:\n      bib: cases.bib\n      keywords: [training]\n"
                "      names: last-initials\n");
    said();
    CHECK(d && d->sections[0].nentries == 1);
    if (d && d->sections[0].nentries == 1)
        CHECK_STR(d->sections[0].entries[0].authors[0].s, "Fang, J.");

    d = profile("    pubs:\n      bib: cases.bib\n      keys: [mueller2021, tr2018]\n"
                "      selected: [tr2018]\n      selected_as: mark\n      mark: \"†\"\n");
    said();
    CHECK(d && d->sections[0].nentries == 2);
    if (d && d->sections[0].nentries == 2) {
        CHECK(has(d->sections[0].entries[0].title.s, "Über"));
        CHECK_STR(d->sections[0].entries[1].title.s, "† A Technical Report");
    }

    d = profile("    pubs:\n      bib: cases.bib\n      selected: [tr2018, book2017]\n"
                "      selected_as: only\n      names: initials\n      sort: oldest\n");
    said();
    CHECK(d && d->sections[0].nentries == 2);
    if (d && d->sections[0].nentries == 2) {
        CHECK_STR(d->sections[0].entries[0].authors[0].s, "G. Yang");
        CHECK_STR(d->sections[0].entries[1].authors[0].s, "J. Fang");
    }

    d = profile("    pubs:\n      bib: cases.bib\n      group_by: type\n");
    said();
    CHECK(d && d->nsections >= 5);
    if (d && d->nsections >= 2) {
        CHECK_STR(d->sections[0].title, "Pubs: Journal Articles");
        CHECK_STR(d->sections[1].title, "Pubs: Conference Papers");
    }
    d = profile("    pubs:\n      bib: cases.bib\n      group_by: year\n      years: "
                "{from: 2020}\n");
    said();
    CHECK(d && d->nsections == 4);
    if (d && d->nsections == 4)
        CHECK_STR(d->sections[0].title, "Pubs: 2024");
}

TEST(bib_section_errors)
{
    cv_doc *d = profile("    pubs: missing.bib\n");
    said();
    CHECK(!d && has(errstr(), "4:11: cannot open"));
    d = profile("    pubs:\n      bib: cases.bib\n      sort: newst\n");
    said();
    CHECK(!d && has(errstr(), "'sort' is 'newst'; it can be newest, oldest, none"));
    d = profile("    pubs:\n      bib: cases.bib\n      limt: 3\n");
    said();
    CHECK(!d && has(errstr(), "unknown key 'limt'"));
    d = profile("    pubs:\n      bib: cases.bib\n      years: 2024-2019\n");
    said();
    CHECK(!d && has(errstr(), "runs backwards"));
    d = profile("    pubs:\n      bib: cases.bib\n      keys: [nosuchkey]\n");
    const char *msgs = said();
    CHECK(has(msgs, "no entry 'nosuchkey'"));
    CHECK(has(msgs, "section 'pubs' has no entries"));
}

TEST(bib_import_yaml)
{
    capture();
    FILE *f = tmpfile();
    CHECK(cv_bib_import("tests/data/bib/cases.bib", NULL, f, &E));
    said();
    char out[16384];
    rewind(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    fclose(f);
    CHECK(has(out, "publications:\n  # not imported from @misc{arxiv2023}: primaryclass (a "
                   "publication has no field for them)\n  - title: \"USP: A Unified"));
    CHECK(has(out, "    authors:\n      - \"Jiarui Fang\"\n"));
    CHECK(has(out, "    date: \"2022-01\"\n    doi: \"10.1109/TPDS.2022.3219819\"\n"));
    CHECK(has(out, "    url: \"https://arxiv.org/abs/2405.07719\"\n"));
    /* The YAML loads back as a profile's section. */
    char prof[20000];
    snprintf(prof, sizeof prof, "cv:\n  name: X\n  sections:\n%s", strstr(out, "publications:"));
    /* Indented under sections:. */
    char ind[24000];
    size_t k = 0;
    for (const char *p = prof; *p && k + 8 < sizeof ind; p++) {
        ind[k++] = *p;
        if (*p == '\n' && p > strstr(prof, "sections:") && p[1])
            ind[k++] = ' ', ind[k++] = ' ', ind[k++] = ' ', ind[k++] = ' ';
    }
    ind[k] = 0;
    capture();
    cv_doc *d = cv_doc_load_text(A, "import.yaml", ind, strlen(ind), NULL, &E);
    said();
    CHECK(d && d->nsections == 1 && d->sections[0].nentries == 11);
    if (!d)
        fprintf(stderr, "%s\n", errstr());
}

/* Inputs that crashed libbtparse or leaked in it (found by fuzzing):
 * a '%' reaching its message formats, names with empty parts, undefined
 * macros.  Each is read without a crash; the good entries still come. */
TEST(bib_survives_what_broke_libbtparse)
{
    static const char *const inputs[] = {
        "@s{r,r}@s{{%n}",
        "@E(2,E=-{{}%s}",
        "@article{k, title = {50% of %n %s}, author = {, A B and Yang, ,G and A,B,C,D}, "
        "year = 2020}\n",
        "@article{k, title = {x}, journal = IEEE_J_PAMI # undefinedm, year = 20~22}\n",
        "% Encoding: UTF-8\n@article{k,\n  % comment {\n  title = {t},\n}\n",
        "@article{k, title={t}, author={and and {} and others and}}",
        "\xEF\xBB\xBF@article{k, title={Caf\xE9}}",
        /* An '@', a name and a quote: libbtparse called exit() on its
         * broken tree (found by fuzz_bib). */
        "@strin \"ICML\"}\n@article{k, title={t}}\n",
        "mail me@x \"y\" here\n@article{k, title={t}}\n",
        "@@@ssmph@@@\"@@x\n@article{k, title={t}}\n",
    };
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        char path[] = "/tmp/cvpdf-test-bib-XXXXXX";
        int fd = mkstemp(path);
        CHECK(fd >= 0);
        if (fd < 0)
            continue;
        FILE *f = fdopen(fd, "w");
        fputs(inputs[i], f);
        fclose(f);
        capture();
        cv_entry *e;
        size_t n = 0;
        bool ok = cv_bib_read(A, path, &e, &n, &E);
        said();
        CHECK(ok);
        if (i >= 2)
            CHECK(n == 1);
        if (i == 2 && n == 1) {
            CHECK_STR(e[0].title.s, "50% of %n %s");
            CHECK(e[0].nauthors == 3);
        }
        unlink(path);
    }
}

/* Issue 25: 50,000 nested groups and \textbf{ never grow the stack with
 * the input: past the nesting limit the text is kept, its commands and
 * braces dropped. */
TEST(bib_deep_nesting_bounded)
{
    enum { DEEP = 50000 };
    size_t n = DEEP * 9 + 16;
    char *s = malloc(n), *p = s;
    for (int i = 0; i < DEEP; i++)
        p += sprintf(p, "\\textbf{");
    p += sprintf(p, "Deep\\&er");
    for (int i = 0; i < DEEP; i++)
        *p++ = '}';
    *p = 0;
    const char *t = cv_bib_tex_plain(A, s, NULL);
    CHECK_STR(t, "Deep&er");
    t = tex(s);
    CHECK(strstr(t, "Deep&er") != NULL);
    memset(s, '{', DEEP);
    strcpy(s + DEEP, "x");
    CHECK_STR(cv_bib_tex_plain(A, s, NULL), "x");
    free(s);
}

/* Entries of the .bib text `text`, read as a file; what was said in
 * *msgs. */
static size_t read_text(const char *text, cv_entry **e, const char **msgs)
{
    char path[] = "/tmp/cvpdf-test-bib-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return 0;
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    capture();
    size_t n = 0;
    CHECK(cv_bib_read(A, path, e, &n, &E));
    *msgs = cv_arena_strdup(A, said());
    unlink(path);
    return n;
}

/* crossref: a chain (paper -> proceedings -> conference) gives the paper
 * the conference's year wherever each is in the file; a loop or an entry
 * that is its own crossref is said, not left silently out (each entry of a
 * loop was another's parent, so none was listed). */
TEST(bib_crossref_chains_and_loops)
{
    static const char *const chain[] = {
        "@inproceedings{p, crossref={proc}, title={Paper}, author={A B}}\n"
        "@proceedings{proc, crossref={conf}, booktitle={Proc. X}}\n"
        "@proceedings{conf, year=2019, month=jul}\n",
        "@proceedings{conf, year=2019, month=jul}\n"
        "@proceedings{proc, crossref={conf}, booktitle={Proc. X}}\n"
        "@inproceedings{p, crossref={proc}, title={Paper}, author={A B}}\n",
    };
    for (size_t i = 0; i < 2; i++) {
        cv_entry *e;
        const char *msgs;
        size_t n = read_text(chain[i], &e, &msgs);
        CHECK(n == 1);
        if (n == 1) {
            CHECK_STR(e[0].title.s, "Paper");
            CHECK(has(e[0].journal.s, "Proc. X"));
            CHECK(e[0].date.year == 2019 && e[0].date.month == 7);
        }
        CHECK_STR(msgs, "");
    }
    cv_entry *e;
    const char *msgs;
    size_t n = read_text("@article{one, crossref={two}, title={One}, author={A B}, year=2020}\n"
                         "@article{two, crossref={ONE}, title={Two}, author={A B}, year=2021}\n"
                         "@article{self, crossref={self}, title={Self}, author={A B}}\n",
                         &e, &msgs);
    CHECK(n == 2);
    CHECK(n >= 1 && !strcmp(e[0].title.s, "One") && has(e[0].journal.s, "Two"));
    CHECK(n >= 2 && !strcmp(e[1].title.s, "Self"));
    CHECK(has(msgs, ":2:") && has(msgs, "crossref loop 'one' -> 'two' -> 'one'"));
    CHECK(has(msgs, ":3:") && has(msgs, "entry 'self' is its own crossref"));
}

/* An entry left open runs into the next one, which libbtparse then skips
 * too (it goes on after the '@' after the one it stopped at): both are
 * named, the second no longer lost without a word. */
TEST(bib_entry_run_into_is_named)
{
    cv_entry *e;
    const char *msgs;
    size_t n = read_text("@article{open, title = {Open {brace}, author = {X}, year = 2018}\n"
                         "@article{next, title = {Next}, author = {Y}, year = 2019}\n"
                         "@article{last, title = {Last}, author = {Z}, year = 2020}\n",
                         &e, &msgs);
    CHECK(n == 1 && !strcmp(e[0].title.s, "Last"));
    CHECK(has(msgs, ":2:1: warning: entry 'open' (line 1) is skipped"));
    CHECK(has(msgs, "entry 'next', whose '@' is where it stopped, is skipped with it"));
    /* An error that does not stop at an entry names no other. */
    n = read_text("@article{bad, title = {T} author = {X}}\n"
                  "@article{good, title = {G}, author = {Y}, year = 2019}\n", &e, &msgs);
    CHECK(n == 1 && !strcmp(e[0].title.s, "G"));
    CHECK(has(msgs, "entry 'bad' (line 1) is skipped") && !has(msgs, "skipped with it"));
}

int main(void)
{
    A = cv_arena_new();
    RUN(bib_accents_in_every_spelling);
    RUN(bib_dashes_ties_specials_braces);
    RUN(bib_styles_urls_math);
    RUN(bib_reads_the_cases);
    RUN(bib_section_options);
    RUN(bib_section_errors);
    RUN(bib_import_yaml);
    RUN(bib_survives_what_broke_libbtparse);
    RUN(bib_deep_nesting_bounded);
    RUN(bib_crossref_chains_and_loops);
    RUN(bib_entry_run_into_is_named);
    cv_arena_free(A);
    return harness_report("bib");
}
