/* Unit tests for the command line (cli.h): every option, every usage error
 * with its message and exit status, SOURCE_DATE_EPOCH. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* One parse: its status, options, and what it printed. */
typedef struct parsed {
    int status;
    cv_options o;
    char *argv[32];
    char out[8192], diag[8192];
} parsed;

static void slurp(FILE *f, char **buf, size_t *len, char *into, size_t size)
{
    fclose(f);
    snprintf(into, size, "%.*s", (int)*len, *buf);
    free(*buf);
}

/* Parse "cvpdf" followed by `args` (NULL-terminated). */
static parsed *parse(const char *const *args)
{
    parsed *p = calloc(1, sizeof *p);
    int argc = 0;
    p->argv[argc++] = (char *)"cvpdf";
    while (*args)
        p->argv[argc++] = (char *)*args++;   /* getopt permutes, never writes */
    char *ob, *db;
    size_t ol, dl;
    FILE *out = open_memstream(&ob, &ol), *diag = open_memstream(&db, &dl);
    p->status = cv_cli_parse(argc, p->argv, &p->o, out, diag);
    slurp(out, &ob, &ol, p->out, sizeof p->out);
    slurp(diag, &db, &dl, p->diag, sizeof p->diag);
    return p;
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

TEST(cli_defaults)
{
    unsetenv("SOURCE_DATE_EPOCH");
    parsed *p = parse(ARGS("he.yaml"));
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    CHECK(p->status == CV_CLI_GO);
    CHECK(p->o.nprofiles == 1);
    CHECK_STR(p->o.profiles[0], "he.yaml");
    CHECK(!p->o.layout && !p->o.output && !p->o.defaults && !p->o.merge && !p->o.date);
    CHECK(p->o.dump == 0 && !p->o.quiet && !p->o.strict && !p->o.explain && !p->o.pdfa);
    CHECK(p->o.fit_pages == -1);
    CHECK(p->o.jobs == (ncpu > 0 ? ncpu : 1));
    CHECK_NUM(p->o.timeout, 10, 0);
    CHECK(!p->o.has_epoch);
    CHECK_STR(p->out, "");
    CHECK_STR(p->diag, "");
    free(p);
}

TEST(cli_every_option)
{
    parsed *p = parse(ARGS("a.yaml", "-l", "L.yaml", "-o", "out/", "--dump=glyphs", "--strict",
                           "-q", "--explain", "--pdfa", "--defaults", "lab.yaml", "-j", "3",
                           "--timeout", "2.5", "--fit-pages", "2", "--date", "2024-02-29",
                           "b.yaml"));
    CHECK(p->status == CV_CLI_GO);
    CHECK_STR(p->o.layout, "L.yaml");
    CHECK_STR(p->o.output, "out/");
    CHECK(p->o.dump == 2);
    CHECK(p->o.strict && p->o.quiet && p->o.explain && p->o.pdfa);
    CHECK(!p->o.progress);                   /* -q */
    CHECK_STR(p->o.defaults, "lab.yaml");
    CHECK(p->o.jobs == 3);
    CHECK_NUM(p->o.timeout, 2.5, 0);
    CHECK(p->o.fit_pages == 2);
    CHECK_STR(p->o.date, "2024-02-29");
    /* Profiles in the order given, wherever they were among the options. */
    CHECK(p->o.nprofiles == 2);
    CHECK_STR(p->o.profiles[0], "a.yaml");
    CHECK_STR(p->o.profiles[1], "b.yaml");
    free(p);
    p = parse(ARGS("--layout=L", "--output", "x.pdf", "--dump", "--jobs=0", "--merge", "m.pdf",
                   "p.yaml"));
    CHECK(p->status == 2);                   /* --merge with -o */
    free(p);
    p = parse(ARGS("--layout=L", "--dump", "--jobs=0", "p.yaml"));
    CHECK(p->status == CV_CLI_GO && p->o.dump == 1 && p->o.jobs == 0);
    CHECK_STR(p->o.layout, "L");
    free(p);
    p = parse(ARGS("--merge", "m.pdf", "p.yaml", "q.yaml"));
    CHECK(p->status == CV_CLI_GO);
    CHECK_STR(p->o.merge, "m.pdf");
    free(p);
    /* --pdfa's level: 1b alone, 2b, 2u, 2a with '='. */
    p = parse(ARGS("--pdfa", "p.yaml"));
    CHECK(p->status == CV_CLI_GO && p->o.pdfa && p->o.pdfa_part == 1 &&
          p->o.pdfa_conformance == 'b' && p->o.nprofiles == 1);
    free(p);
    p = parse(ARGS("--pdfa=2a", "p.yaml"));
    CHECK(p->status == CV_CLI_GO && p->o.pdfa && p->o.pdfa_part == 2 &&
          p->o.pdfa_conformance == 'a');
    free(p);
    p = parse(ARGS("--pdfa=2u", "p.yaml"));
    CHECK(p->status == CV_CLI_GO && p->o.pdfa_part == 2 && p->o.pdfa_conformance == 'u');
    free(p);
}

/* A bad value: exit 2 and exactly this message. */
static void refused(const char *const *args, const char *diag)
{
    parsed *p = parse(args);
    CHECK(p->status == 2);
    CHECK_STR(p->diag, diag);
    CHECK_STR(p->out, "");
    free(p);
}

TEST(cli_bad_values)
{
    refused(ARGS("--pdfa=3b", "a.yaml"), "cvpdf: --pdfa=3b: expected 1b, 2b, 2u or 2a\n"
                                          "Try 'cvpdf --help'.\n");
    const char *try = "Try 'cvpdf --help'.\n";
    char want[256];
#define REFUSED(msg, ...)                                           \
    (snprintf(want, sizeof want, "cvpdf: %s\n%s", msg, try),         \
     refused(ARGS(__VA_ARGS__), want))
    REFUSED("--dump=text: the only value is 'glyphs'", "--dump=text", "p.yaml");
    REFUSED("-j -1: expected a number of jobs from 0 to 1024", "-j", "-1", "p.yaml");
    REFUSED("-j x: expected a number of jobs from 0 to 1024", "-j", "x", "p.yaml");
    REFUSED("-j 1025: expected a number of jobs from 0 to 1024", "-j", "1025", "p.yaml");
    REFUSED("-j 2x: expected a number of jobs from 0 to 1024", "-j2x", "p.yaml");
    REFUSED("--timeout -2: expected seconds, from 0 (none) to 86400", "--timeout", "-2",
            "p.yaml");
    REFUSED("--timeout soon: expected seconds, from 0 (none) to 86400", "--timeout", "soon",
            "p.yaml");
    REFUSED("--timeout nan: expected seconds, from 0 (none) to 86400", "--timeout", "nan",
            "p.yaml");
    REFUSED("--timeout 86401: expected seconds, from 0 (none) to 86400", "--timeout", "86401",
            "p.yaml");
    REFUSED("--fit-pages 0: expected a number of pages from 1 to 100", "--fit-pages", "0",
            "p.yaml");
    REFUSED("--fit-pages 101: expected a number of pages from 1 to 100", "--fit-pages",
            "101", "p.yaml");
    REFUSED("--date 2023-02-29: expected a date YYYY-MM-DD that exists, in the years 1000-9999", "--date", "2023-02-29", "p.yaml");
    REFUSED("--date 1900-02-29: expected a date YYYY-MM-DD that exists, in the years 1000-9999", "--date", "1900-02-29", "p.yaml");
    REFUSED("--date 2023-13-01: expected a date YYYY-MM-DD that exists, in the years 1000-9999", "--date", "2023-13-01", "p.yaml");
    REFUSED("--date 2023-04-31: expected a date YYYY-MM-DD that exists, in the years 1000-9999", "--date", "2023-04-31", "p.yaml");
    REFUSED("--date 2023-01-01x: expected a date YYYY-MM-DD that exists, in the years 1000-9999", "--date", "2023-01-01x", "p.yaml");
    /* A sign, spaces, a year 0 or before 1000: not dates (issue 13). */
    REFUSED("--date -001-01-01: expected a date YYYY-MM-DD that exists, in the years 1000-9999", "--date", "-001-01-01", "p.yaml");
    REFUSED("--date 2023-+1-+1: expected a date YYYY-MM-DD that exists, in the years 1000-9999", "--date", "2023-+1-+1", "p.yaml");
    REFUSED("--date  2023-01-01: expected a date YYYY-MM-DD that exists, in the years 1000-9999", "--date", " 2023-01-01", "p.yaml");
    REFUSED("--date 0000-01-01: expected a date YYYY-MM-DD that exists, in the years 1000-9999", "--date", "0000-01-01", "p.yaml");
    REFUSED("--merge writes one PDF; it does not go with -o", "--merge", "m.pdf", "-o", "x",
            "p.yaml");
    REFUSED("--merge writes one PDF; it does not go with --dump", "--merge", "m.pdf",
            "--dump", "p.yaml");
    /* An empty name is blamed on the option that was given it. */
    REFUSED("-o \"\": an empty file name was given", "-o", "", "p.yaml");
    REFUSED("-l \"\": an empty file name was given", "-l", "", "p.yaml");
    REFUSED("--defaults \"\": an empty file name was given", "--defaults", "", "p.yaml");
    REFUSED("--merge \"\": an empty file name was given", "--merge", "", "p.yaml", "q.yaml");
#undef REFUSED
    /* The first bad value is the one reported. */
    refused(ARGS("-j", "x", "--fit-pages", "0", "p.yaml"),
            "cvpdf: -j x: expected a number of jobs from 0 to 1024\nTry 'cvpdf --help'.\n");
    parsed *p = parse(ARGS("--date", "2000-02-29", "p.yaml"));
    CHECK(p->status == CV_CLI_GO);
    free(p);
}

TEST(cli_usage)
{
    parsed *p = parse(ARGS("-q"));
    CHECK(p->status == 2);
    CHECK(!strncmp(p->diag, "cvpdf: no profile given\nUsage: cvpdf PROFILE...", 47));
    free(p);
    /* An unknown option or a missing value, said on `diag` like getopt
     * says it, with control characters escaped. */
    p = parse(ARGS("--no-such-option", "p.yaml"));
    CHECK(p->status == 2);
    CHECK_STR(p->diag, "cvpdf: unrecognized option '--no-such-option'\nTry 'cvpdf --help'.\n");
    free(p);
    p = parse(ARGS("--bogus\x1b[2J\n", "p.yaml"));
    CHECK(p->status == 2);
    CHECK_STR(p->diag, "cvpdf: unrecognized option '--bogus\\e[2J\\n'\nTry 'cvpdf --help'.\n");
    free(p);
    p = parse(ARGS("-Z", "p.yaml"));
    CHECK_STR(p->diag, "cvpdf: invalid option -- 'Z'\nTry 'cvpdf --help'.\n");
    free(p);
    p = parse(ARGS("-l"));
    CHECK(p->status == 2);
    CHECK_STR(p->diag, "cvpdf: option requires an argument -- 'l'\nTry 'cvpdf --help'.\n");
    free(p);
    p = parse(ARGS("--layout"));
    CHECK_STR(p->diag, "cvpdf: option '--layout' requires an argument\nTry 'cvpdf --help'.\n");
    free(p);
    p = parse(ARGS("p.yaml", "--date", "2023\x1b[2J\n"));
    CHECK(p->status == 2 && strstr(p->diag, "--date 2023\\e[2J\\n: expected") &&
          !strchr(p->diag, 0x1b));
    free(p);
    /* --help and --version on `out`, exit 0, whatever follows. */
    p = parse(ARGS("--help", "-j", "x"));
    CHECK(p->status == 0);
    CHECK(!strncmp(p->out, "Usage: cvpdf PROFILE...", 23));
    CHECK(strstr(p->out, "Exit status: 0 all rendered, 1 an input failed, 2 usage error.\n"));
    CHECK_STR(p->diag, "");
    free(p);
    p = parse(ARGS("-V"));
    CHECK(p->status == 0);
    CHECK_STR(p->out, "cvpdf " CV_VERSION "\n");
    free(p);
    /* A bad value before --help wins. */
    p = parse(ARGS("-j", "x", "--help"));
    CHECK(p->status == 2 && !*p->out);
    free(p);
}

TEST(cli_source_date_epoch)
{
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    parsed *p = parse(ARGS("p.yaml"));
    CHECK(p->status == CV_CLI_GO && p->o.has_epoch && p->o.epoch == 1700000000LL);
    free(p);
    setenv("SOURCE_DATE_EPOCH", "", 1);
    p = parse(ARGS("p.yaml"));
    CHECK(p->status == CV_CLI_GO && !p->o.has_epoch);
    free(p);
    static const char *const bad[] = {"-1", "soon", "12x", "253402300800", " 5", "+5", "5 "};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        setenv("SOURCE_DATE_EPOCH", bad[i], 1);
        p = parse(ARGS("p.yaml"));
        char want[200];
        snprintf(want, sizeof want, "cvpdf: SOURCE_DATE_EPOCH=%s: expected a number of "
                 "seconds since 1970-01-01\n", bad[i]);
        CHECK(p->status == 2);
        CHECK_STR(p->diag, want);
        free(p);
    }
    /* Checked after the options: a bad option is reported first. */
    p = parse(ARGS("-j", "x", "p.yaml"));
    CHECK(p->status == 2 && strstr(p->diag, "-j x"));
    free(p);
    unsetenv("SOURCE_DATE_EPOCH");
}

TEST(cli_error_init)
{
    cv_options o = {.quiet = true, .strict = true};
    cv_error err;
    cv_cli_error_init(&o, &err);
    CHECK(!err.set && err.quiet && err.strict && err.nwarnings == 0);
}

/* --format, --dpi and --watch (issue 17). */
TEST(cli_output_formats_and_watch)
{
    parsed *p = parse(ARGS("a.yaml"));
    CHECK(p->o.format == CV_FORMAT_NONE && p->o.dpi == CV_DPI_DEFAULT && !p->o.watch);
    free(p);
    p = parse(ARGS("a.yaml", "--format", "PNG", "--dpi", "300", "--watch"));
    CHECK(p->status == CV_CLI_GO);
    CHECK(p->o.format == CV_FORMAT_PNG && p->o.dpi == 300 && p->o.watch);
    free(p);
    static const char *const bad_dpi[] = {"17", "601", "0", "-144", "144dpi", "1e2", ""};
    for (size_t i = 0; i < sizeof bad_dpi / sizeof *bad_dpi; i++) {
        p = parse(ARGS("a.yaml", "--dpi", bad_dpi[i]));
        CHECK(p->status == 2);
        CHECK(strstr(p->diag, "expected dots per inch from 18 to 600") != NULL);
        free(p);
    }
    p = parse(ARGS("a.yaml", "--dpi", "18"));
    CHECK(p->status == CV_CLI_GO && p->o.dpi == 18);
    free(p);
    p = parse(ARGS("a.yaml", "--format", "jpeg"));
    CHECK(p->status == 2);
    CHECK_STR(p->diag, "cvpdf: --format jpeg: expected pdf, png, svg, html or md\nTry 'cvpdf --help'.\n");
    free(p);
    /* --watch reads its profiles again and writes its outputs again. */
    p = parse(ARGS("-", "-o", "x.pdf", "--watch"));
    CHECK(p->status == 2 && strstr(p->diag, "--watch") && strstr(p->diag, "read once"));
    free(p);
    p = parse(ARGS("a.yaml", "-o", "-", "--watch"));
    CHECK(p->status == 2 && strstr(p->diag, "--watch") && strstr(p->diag, "standard output"));
    free(p);
    p = parse(ARGS("--help"));
    CHECK(strstr(p->out, "--dpi N") && strstr(p->out, "18 to 600 (default 144)") &&
          strstr(p->out, "--watch") && strstr(p->out, "--format"));
    free(p);
}

int main(void)
{
    RUN(cli_defaults);
    RUN(cli_every_option);
    RUN(cli_bad_values);
    RUN(cli_usage);
    RUN(cli_source_date_epoch);
    RUN(cli_error_init);
    RUN(cli_output_formats_and_watch);
    return harness_report("cli");
}
