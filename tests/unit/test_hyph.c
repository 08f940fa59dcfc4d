/* Unit tests for hyph.c: the per-call dictionary of matching patterns gives
 * exactly the hyphenation points of libhyphen with the whole pattern file. */
#include "harness.h"

#include <string.h>

#include <ctype.h>
#include <stdlib.h>

#include <hyphen.h>

#include "hyph.h"

static cv_hyph *H;

#define DICT "/usr/share/hyphen/hyph_en_US.dic"
#define MAXW 4000

/* Every lower-case word of 5 to 40 letters in the profiles, once. */
static size_t profile_words(char **words)
{
    size_t n = 0;
    const char *files[] = {"profiles/fang.yaml", "profiles/he.yaml", "profiles/li.yaml",
                           "profiles/chaoyang-he.yaml", "README.md", "docs/layouts.md", NULL};
    for (const char **f = files; *f; f++) {
        FILE *fp = fopen(*f, "r");
        if (!fp)
            continue;
        char w[64];
        size_t k = 0;
        for (int c = fgetc(fp);; c = fgetc(fp)) {
            if (c >= 'a' && c <= 'z' && k < 60) {
                w[k++] = (char)c;
                continue;
            }
            bool word = k >= 5 && k <= 40 && !(c >= 'A' && c <= 'Z');
            w[k] = 0;
            for (size_t i = 0; word && i < n; i++)
                if (!strcmp(words[i], w))
                    word = false;
            if (word && n < MAXW)
                words[n++] = strdup(w);
            k = 0;
            if (c == EOF)
                break;
        }
        fclose(fp);
    }
    return n;
}

TEST(same_points_as_the_whole_dictionary)
{
    static char *words[MAXW];
    static bool pts[MAXW][64];
    size_t n = profile_words(words);
    CHECK(n > 500);
    HyphenDict *d = hnj_hyphen_load(DICT);
    CHECK(d != NULL);
    if (!d)
        return;
    /* All at once, and in small groups as paragraphs ask. */
    int diff = 0, points = 0;
    for (size_t group = n; group >= 7; group = group == n ? 7 : 0) {
        for (size_t b = 0; b < n; b += group) {
            size_t m = b + group <= n ? group : n - b;
            CHECK(cv_hyphenate(H, (const char *const *)words + b, m, pts + b, 2, 3));
        }
        for (size_t i = 0; i < n; i++) {
            int len = (int)strlen(words[i]);
            char hy[70];
            char **rep = NULL;
            int *pos = NULL, *cut = NULL;
            hnj_hyphen_hyphenate3(d, words[i], len, hy, NULL, &rep, &pos, &cut, 2, 3, 2, 3);
            for (int k = 0; k < len; k++) {
                bool want = (hy[k] & 1) && k >= 1 && len - k - 1 >= 3;
                points += want;
                if (want != pts[i][k]) {
                    if (diff++ < 5)
                        fprintf(stderr, "  %s: after letter %d: %d, want %d\n", words[i],
                                k + 1, pts[i][k], want);
                }
            }
        }
    }
    CHECK(diff == 0);
    CHECK(points > 500);
    hnj_hyphen_free(d);
    for (size_t i = 0; i < n; i++)
        free(words[i]);
}

TEST(known_words)
{
    const char *w[] = {"hyphenation", "characterization", "computer"};
    bool pts[3][64];
    CHECK(cv_hyphenate(H, w, 3, pts, 2, 3));
    /* hy-phen-ation, char-ac-ter-i-za-tion, com-puter (TeX's US patterns) */
    CHECK(pts[0][1] && pts[0][5] && !pts[0][0] && !pts[0][2]);
    CHECK(pts[1][3] && pts[1][5] && pts[1][8] && pts[1][9] && !pts[1][7]);
    CHECK(pts[2][2] && !pts[2][0]);
}

/* A missing pattern file: no points, false, and one note through the
 * sink (none when quiet). */
TEST(missing_patterns_note_once)
{
    FILE *f = tmpfile();
    cv_diag d = {f, false, false};
    cv_hyph *h = cv_hyph_new("/nonexistent/hyph.dic", &d);
    const char *w[] = {"hyphenation"};
    bool pts[1][64];
    CHECK(!cv_hyphenate(h, w, 1, pts, 2, 3));
    CHECK(!cv_hyphenate(h, w, 1, pts, 2, 3));
    CHECK(!pts[0][1]);
    cv_hyph_free(h);
    char buf[512] = {0};
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    CHECK(n > 0 && strstr(buf, "cvpdf: note: cannot read hyphenation patterns /nonexistent"));
    CHECK(strchr(buf, '\n') == buf + n - 1);       /* once */
    fclose(f);

    f = tmpfile();
    d = (cv_diag){f, true, false};
    h = cv_hyph_new("/nonexistent/hyph.dic", &d);
    CHECK(!cv_hyphenate(h, w, 1, pts, 2, 3));
    cv_hyph_free(h);
    CHECK(ftell(f) == 0);
    fclose(f);
}

/* The points of a UTF-8 word as a string of 0 and 1 per code point. */
static const char *points_of(const char *dict, const char *word)
{
    static char s[65];
    cv_hyph *h = cv_hyph_new(dict, NULL);
    const char *w[1] = {word};
    bool out[1][64];
    memset(s, 0, sizeof s);
    if (cv_hyphenate(h, w, 1, out, 2, 3))
        for (size_t k = 0; k < 20; k++)
            s[k] = out[0][k] ? '1' : '0';
    cv_hyph_free(h);
    return s;
}

TEST(other_languages_and_charsets)
{
    /* German's file is ISO8859-1, Russian's KOI8-R, French's UTF-8: each
     * word goes in the file's charset, points come back per code point. */
    CHECK_STR(points_of("/usr/share/hyphen/hyph_de_DE.dic", "übertragungsgeschwindigkeiten"),
              "00010010000101000001");           /* über-tra-gungs-ge-schwin-... */
    /* German's file has two levels (NEXTLEVEL): the dictionary made of
     * the patterns that match keeps them apart, as libhyphen with the
     * whole file does (kun-den-in-stal-la-ti-o-nen, not ...sta-llati...). */
    CHECK_STR(points_of("/usr/share/hyphen/hyph_de_DE.dic", "kundeninstallationen"),
              "00100101000101011000");
    CHECK_STR(points_of("/usr/share/hyphen/hyph_de_DE.dic", "lösungsansätze"),
              "01000010100000000000");           /* lö-sungs-an-sätze */
    CHECK_STR(points_of("/usr/share/hyphen/hyph_ru_RU.dic", "программирование"),
              "00000000101010000000");
    /* libhyphen gives a UTF-8 file's points per character, not per byte:
     * taken per byte, every point after an accented letter was one
     * letter late (dév-elo-pp-ement, éle-ction, ó-mn-ibus). */
    CHECK_STR(points_of("/usr/share/hyphen/hyph_fr_FR.dic", "développement"),
              "01010010100000000000");           /* dé-ve-lop-pe-ment */
    CHECK_STR(points_of("/usr/share/hyphen/hyph_fr_FR.dic", "élection"),
              "00010000000000000000");           /* élec-tion */
    CHECK_STR(points_of("/usr/share/hyphen/hyph_es_ES.dic", "ómnibus"),
              "01010000000000000000");           /* óm-ni-bus */
    CHECK_STR(points_of("/usr/share/hyphen/hyph_it_IT.dic", "università"),
              "00100100000000000000");           /* uni-ver-sità */
    /* A letter the charset lacks: no points, no failure. */
    CHECK_STR(points_of("/usr/share/hyphen/hyph_de_DE.dic", "übertragungsδ"),
              "00000000000000000000");
}

/* Each point's level: German's compound joints carry the second level's
 * 5 (lö-sungs=an-sät-ze), English points their pattern's digit. */
TEST(levels)
{
    cv_hyph *h = cv_hyph_new("/usr/share/hyphen/hyph_de_DE.dic", NULL);
    const char *w[2] = {"lösungsansätze", "datenbanken"};
    unsigned char lv[2][64];
    CHECK(cv_hyphenate_levels(h, w, 2, lv, 2, 3));
    CHECK(lv[0][1] == 1 && lv[0][6] == 5 && lv[0][8] == 1 && lv[0][2] == 0);
    CHECK(lv[1][1] == 1 && lv[1][4] == 1 && lv[1][7] == 1);   /* da-ten-ban-ken */
    cv_hyph_free(h);
    const char *e[1] = {"computation"};
    CHECK(cv_hyphenate_levels(H, e, 1, lv, 2, 3));
    CHECK(lv[0][2] == 1 && lv[0][4] == 3 && lv[0][6] == 1);  /* com-pu=ta-tion */
}

/* German's words through libhyphen, several a call: each word's points
 * are the ones it has alone (the dictionary made for several words holds
 * every pattern each one needs, found through the index by key), and the
 * words' second-level joints are there. */
TEST(german_words_together_as_alone)
{
    static const char *const words[] = {
        "lösungsansätze", "datenbanken", "kundeninstallationen", "softwareentwicklung",
        "übertragungsgeschwindigkeiten", "verantwortung", "projektleitung", "hochschule",
        "forschungsgruppe", "betriebssysteme", "rechenzentrum", "maschinelles", "lernverfahren",
        "netzwerkprotokolle", "zusammenarbeit", "weiterentwicklung", "anwendungsfälle",
        "qualitätssicherung", "programmiersprachen", "leistungsfähigkeit", "arbeitsgruppe",
        "bildverarbeitung", "sprachverarbeitung", "datenschutzbeauftragter", "schnittstellen",
        "entwicklungsumgebung", "verteilte", "systemarchitektur", "studienabschluss",
        "auszeichnungen", "veröffentlichungen", "konferenzbeiträge", "lehrveranstaltungen",
        "informatik", "mathematik", "physikalische", "grundlagenforschung", "abteilungsleiter",
        /* Not in the file's ISO8859-1 (u with double acute): no points,
         * and the words after it keep theirs. */
        "gyűjteményeiből", "forschungsschwerpunkte"};
    enum { N = sizeof words / sizeof *words };
    cv_hyph *h = cv_hyph_new("/usr/share/hyphen/hyph_de_DE.dic", NULL);
    static unsigned char together[N][64], alone[N][64];
    CHECK(cv_hyphenate_levels(h, words, N, together, 2, 2));
    size_t differ = 0, points = 0, joints = 0;
    for (size_t i = 0; i < N; i++) {
        CHECK(cv_hyphenate_levels(h, words + i, 1, alone + i, 2, 2));
        differ += memcmp(together[i], alone[i], 64) != 0;
        for (int k = 0; k < 64; k++)
            points += together[i][k] != 0, joints += together[i][k] == 5;
    }
    CHECK(differ == 0);
    CHECK(points > 3 * N && joints > 5);
    static const unsigned char none[64];
    CHECK(!memcmp(together[N - 2], none, 64) && memcmp(together[N - 1], none, 64));
    cv_hyph_free(h);
}

int main(void)
{
    H = cv_hyph_new(DICT, NULL);
    RUN(same_points_as_the_whole_dictionary);
    RUN(known_words);
    RUN(missing_patterns_note_once);
    RUN(other_languages_and_charsets);
    RUN(levels);
    RUN(german_words_together_as_alone);
    cv_hyph_free(H);
    return harness_report("hyph");
}
