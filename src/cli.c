/* cli.c - the command line (cli.h). */
#include "cli.h"
#include "bib.h"
#include "sets.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STR_(x) #x
#define STR(x) STR_(x)

static const char usage[] =
    "Usage: cvpdf PROFILE... [-l LAYOUT] [-o FILE|DIR/] [--dump[=glyphs]]\n"
    "                        [--fit-pages N] [--explain] [--date DATE]\n"
    "                        [--pdfa[=LEVEL]] [--pdfua] [--defaults FILE] [-j N] [--timeout S]\n"
    "                        [--merge FILE] [--strict] [-q] [--set PATH=VALUE]...\n"
    "                        [--format pdf|png|svg|html|md] [--dpi N] [--watch]\n"
    "                        [--site DIR/]\n"
    "       cvpdf import FILE.bib [--section NAME]   (its entries as RenderCV YAML;\n"
    "                               cvpdf import --help)\n"
    "       cvpdf migrate FILE      (print a RenderCV file of any version, or a\n"
    "                               JSON Resume, as RenderCV 2.8 writes it)\n"
    "       cvpdf new \"FULL NAME\" [--layout NAME]\n"
    "       cvpdf --list-layouts | --datadir | --schema profile|layout\n"
    "Typeset résumés: YAML profiles (RenderCV's cv: format) to PDF.\n"
    "Start with cvpdf new \"Your Name\": it writes Your_Name_CV.yaml, a profile\n"
    "with every entry type to edit (cvpdf new --help).\n"
    "\n"
    "  -l, --layout FILE   layout YAML, or the name of a shipped layout\n"
    "                      (default: onecolumn; see --list-layouts)\n"
    "  -o, --output PATH   output PDF; with several profiles a directory,\n"
    "                      written as DIR/<profile name>.pdf (default: beside\n"
    "                      each profile, sub/me.yaml -> sub/me.pdf).  The\n"
    "                      name's extension gives the format: .pdf, .png\n"
    "                      (a PNG per page, NAME-1.png, NAME-2.png...),\n"
    "                      .svg (an SVG per page), .html (one self-contained\n"
    "                      web page) or .md (Markdown)\n"
    "      --format F      pdf, png, svg, html or md, for -o DIR/, no -o, -o -\n"
    "                      and devices\n"
    "      --dpi N         resolution of PNG pages, " STR(CV_DPI_MIN) " to " STR(CV_DPI_MAX)
    " (default " STR(CV_DPI_DEFAULT) ")\n"
    "      --set PATH=VALUE  set a value of the profile (--set cv.phone=\"+1 555\")\n"
    "                      or of the layout (--set layout.page.size=letter) as\n"
    "                      if written in the file; repeatable, the last wins\n"
    "      --open          open the output in the desktop's viewer (xdg-open)\n"
    "                      once written; with --watch, once\n"
    "      --watch         after rendering, render again whenever the profile,\n"
    "                      the layout (and what it extends), the photo or the\n"
    "                      defaults change; Ctrl-C ends it\n"
    "      --dump          print the laid-out pages as text instead of a PDF\n"
    "      --dump=glyphs   the same, and after each text line the x position\n"
    "                      of every glyph of it, as drawn in the PDF\n"
    "      --strict        treat every warning as an error: exit 1, no PDF\n"
    "                      written\n"
    "      --fit-pages N   shrink spacing, then type, then margins until the\n"
    "                      résumé fits in N pages (exit 1 when it cannot)\n"
    "      --explain       print every page break and the rule that placed it\n"
    "      --date DATE     the \"last updated\" date (YYYY-MM-DD) for the\n"
    "                      running header or footer; default SOURCE_DATE_EPOCH\n"
    "      --pdfa[=LEVEL]  write PDF/A: 1b (the default; also the layout's\n"
    "                      pdf: pdfa: true), 2b, 2u or 2a (2a tags the PDF)\n"
    "      --pdfua         write PDF/UA-1 (also the layout's pdf: pdfua: true)\n"
    "      --defaults FILE a profile merged under every profile (a lab's\n"
    "                      address, locale:, settings:); the profile wins\n"
    "  -j, --jobs N        render a batch N profiles at a time, each in its own\n"
    "                      process (default: the number of cores; 0: all in\n"
    "                      this process, without isolation)\n"
    "      --timeout S     give up on a profile of a batch after S seconds\n"
    "                      (default 10; 0: never)\n"
    "      --merge FILE    write every profile into one PDF, in the order given,\n"
    "                      with a bookmark per person (instead of one PDF each)\n"
    "      --site DIR/     a lab's website: DIR/index.html, a card per profile\n"
    "                      in the order given (the lab's name and address from\n"
    "                      the --defaults file's lab:), and each person's\n"
    "                      DIR/NAME.html and DIR/NAME.pdf\n"
    "  -q, --quiet         no warnings or notes, errors only; on a terminal,\n"
    "                      not the \"wrote FILE: N pages\" line either\n"
    "      --list-layouts  list the shipped layouts, each with what it is for\n"
    "      --datadir       print the directory holding layouts/ and fonts/\n"
    "                      (set it with CVPDF_DATADIR)\n"
    "      --schema WHICH  print the JSON Schema of a profile or a layout\n"
    "  -h, --help          show this help\n"
    "  -V, --version       show the version\n"
    "\n"
    "The PDF's creation date is SOURCE_DATE_EPOCH when set; otherwise it has\n"
    "none, and the same input always gives the same bytes.\n"
    "\n"
    "Exit status: 0 all rendered, 1 an input failed, 2 usage error.\n";

static const char try_help[] = "Try 'cvpdf --help'.\n";

/* A whole number in [lo, hi]. */
static bool whole(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || end == s || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* A date YYYY-MM-DD that exists, written with exactly those digits (no
 * sign, no space), in the years 1000-9999 as profiles' dates are. */
static bool valid_date(const char *s)
{
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    for (int i = 0; i < 10; i++)
        if (i == 4 || i == 7 ? s[i] != '-' : !(s[i] >= '0' && s[i] <= '9'))
            return false;
    if (s[10])
        return false;
    int y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
    return y >= 1000 && m >= 1 && m <= 12 && d >= 1 && d <= mdays[m - 1] &&
           !(m == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400)));
}

/* The value of one option that takes a value, or of --dump's optional one.
 * Returns false after reporting a bad value. */
static bool take_value(int c, const char *arg, cv_options *o, FILE *diag)
{
    char shown[512];    /* the value as it may be printed */
    cv_escape(arg ? arg : "", shown, sizeof shown);
    switch (c) {
    case 'A':
        o->pdfa = true;
        o->pdfa_part = 1;
        o->pdfa_conformance = 'b';
        if (!arg || !strcmp(arg, "1b"))
            return true;
        if (!strcmp(arg, "2b") || !strcmp(arg, "2u") || !strcmp(arg, "2a")) {
            o->pdfa_part = 2;
            o->pdfa_conformance = arg[1];
            return true;
        }
        fprintf(diag, "cvpdf: --pdfa=%s: expected 1b, 2b, 2u or 2a\n%s", shown, try_help);
        return false;
    case 'd':
        if (arg && strcmp(arg, "glyphs")) {
            fprintf(diag, "cvpdf: --dump=%s: the only value is 'glyphs'\n%s", shown, try_help);
            return false;
        }
        o->dump = arg ? 2 : 1;
        return true;
    case 'j':
        if (!whole(arg, 0, 1024, &o->jobs)) {
            fprintf(diag, "cvpdf: -j %s: expected a number of jobs from 0 to 1024\n%s", shown,
                    try_help);
            return false;
        }
        return true;
    case 'T': {
        char *end;
        o->timeout = strtod(arg, &end);
        if (*end || end == arg || !(o->timeout >= 0) || o->timeout > 86400) {
            fprintf(diag, "cvpdf: --timeout %s: expected seconds, from 0 (none) to 86400\n%s",
                    shown, try_help);
            return false;
        }
        return true;
    }
    case 'F':
        if (!whole(arg, 1, 100, &o->fit_pages)) {
            fprintf(diag, "cvpdf: --fit-pages %s: expected a number of pages from 1 to 100\n%s",
                    shown, try_help);
            return false;
        }
        return true;
    case 'r':
        if (!whole(arg, CV_DPI_MIN, CV_DPI_MAX, &o->dpi)) {
            fprintf(diag, "cvpdf: --dpi %s: expected dots per inch from %d to %d\n%s", shown,
                    CV_DPI_MIN, CV_DPI_MAX, try_help);
            return false;
        }
        o->dpi_given = true;
        return true;
    case 'f':
        if ((o->format = cv_format_named(arg)) == CV_FORMAT_NONE) {
            fprintf(diag, "cvpdf: --format %s: expected pdf, png, svg, html or md\n%s", shown,
                    try_help);
            return false;
        }
        return true;
    case 'D':
        if (!valid_date(arg)) {
            fprintf(diag, "cvpdf: --date %s: expected a date YYYY-MM-DD that exists, in the "
                    "years 1000-9999\n%s", shown, try_help);
            return false;
        }
        o->date = arg;
        return true;
    }
    return false;
}

/* An unknown option, or one without its value: said as getopt would say
 * it, with the option escaped.  Returns the usage status. */
static int bad_option(int c, char **argv, FILE *diag)
{
    char shown[512];
    const char *arg = argv[optind - 1];
    bool is_long = !strncmp(arg, "--", 2);
    if (c == ':' && !is_long)
        fprintf(diag, "cvpdf: option requires an argument -- '%c'\n", optopt);
    else if (c == ':')
        fprintf(diag, "cvpdf: option '%s' requires an argument\n",
                cv_escape(arg, shown, sizeof shown));
    else if (!is_long && optopt >= 0x20 && optopt < 0x7F)
        fprintf(diag, "cvpdf: invalid option -- '%c'\n", optopt);
    else
        fprintf(diag, "cvpdf: unrecognized option '%s'\n", cv_escape(arg, shown, sizeof shown));
    fputs(try_help, diag);
    return 2;
}

/* The options of argv, in order.  Returns CV_CLI_GO or the exit status. */
static int options(int argc, char **argv, cv_options *o, FILE *out, FILE *diag)
{
    static const struct option opts[] = {
        {"layout", required_argument, NULL, 'l'}, {"output", required_argument, NULL, 'o'},
        {"dump", optional_argument, NULL, 'd'},   {"strict", no_argument, NULL, 'S'},
        {"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},      {"fit-pages", required_argument, NULL, 'F'},
        {"explain", no_argument, NULL, 'E'},      {"date", required_argument, NULL, 'D'},
        {"pdfa", optional_argument, NULL, 'A'},         {"jobs", required_argument, NULL, 'j'},
        {"timeout", required_argument, NULL, 'T'}, {"merge", required_argument, NULL, 'M'},
        {"defaults", required_argument, NULL, 'P'}, {"dpi", required_argument, NULL, 'r'},
        {"format", required_argument, NULL, 'f'}, {"watch", no_argument, NULL, 'w'},
        {"pdfua", no_argument, NULL, 'U'},
        {"list-layouts", no_argument, NULL, 'L'}, {"datadir", no_argument, NULL, 'R'},
        {"schema", required_argument, NULL, 'C'}, {"set", required_argument, NULL, 's'},
        {"open", no_argument, NULL, 'O'}, {"site", required_argument, NULL, 'W'},
        {NULL, 0, NULL, 0}};
    optind = 0;                 /* GNU getopt: start afresh */
    opterr = 0;                 /* its messages would print the option raw */
    for (int c; (c = getopt_long(argc, argv, ":l:o:j:qhV", opts, NULL)) != -1;) {
        switch (c) {
        case 'l': o->layout = optarg; break;
        case 'o': o->output = optarg; break;
        case 'S': o->strict = true; break;
        case 'E': o->explain = true; break;
        case 'U': o->pdfua = true; break;
        case 'M': o->merge = optarg; break;
        case 'W': o->site = optarg; break;
        case 'P': o->defaults = optarg; break;
        case 'q': o->quiet = true; break;
        case 'w': o->watch = true; break;
        case 'O': o->open = true; break;
        case 's':
            if (o->nsets == CV_CLI_MAX_SETS) {
                fprintf(diag, "cvpdf: --set: at most %d of them\n%s", CV_CLI_MAX_SETS, try_help);
                return 2;
            }
            if (!cv_sets_check(optarg, diag))
                return 2;
            o->sets[o->nsets++] = optarg;
            break;
        case 'L': o->list_layouts = true; break;
        case 'R': o->print_datadir = true; break;
        case 'C':
            if (strcmp(optarg, "profile") && strcmp(optarg, "layout")) {
                fprintf(diag, "cvpdf: --schema: expected 'profile' or 'layout'\n%s", try_help);
                return 2;
            }
            o->schema = optarg;
            break;
        case 'd': case 'j': case 'T': case 'F': case 'D': case 'r': case 'f': case 'A':
            if (!take_value(c, optarg, o, diag))
                return 2;
            break;
        case 'h': fputs(usage, out); return 0;
        case 'V': fprintf(out, "cvpdf %s\n", CV_VERSION); return 0;
        default: return bad_option(c, argv, diag);
        }
    }
    return CV_CLI_GO;
}

/* Is '-' (the standard input) one of the profiles? */
static bool stdin_profile(const cv_options *o)
{
    for (int i = 0; i < o->nprofiles; i++)
        if (!strcmp(o->profiles[i], "-"))
            return true;
    return false;
}

/* A profile given twice (the same file, by any name) is rendered once. */
static void once(cv_options *o, FILE *diag)
{
    int n = 0;
    for (int i = 0; i < o->nprofiles; i++) {
        struct stat si, sj;
        bool seen = false, has = stat(o->profiles[i], &si) == 0;
        for (int j = 0; j < n && !seen; j++)
            seen = !strcmp(o->profiles[i], o->profiles[j]) ||
                   (has && strcmp(o->profiles[i], "-") && stat(o->profiles[j], &sj) == 0 &&
                    si.st_dev == sj.st_dev && si.st_ino == sj.st_ino);
        if (seen)
            cv_diag_say(&(cv_diag){diag, o->quiet, false}, (cv_pos){o->profiles[i], 0, 0},
                        "note", "given twice; rendered once");
        else
            o->profiles[n++] = o->profiles[i];
    }
    o->nprofiles = n;
}

/* --watch reads its profiles again at every change, and writes its outputs
 * again: not the standard input, not the standard output. */
static bool watchable(const cv_options *o, FILE *diag)
{
    const char *why = stdin_profile(o) ? "the profile '-' (the standard input) is read once"
                      : o->output && !strcmp(o->output, "-")
                          ? "-o - would write one PDF after another to the standard output"
                          : NULL;
    if (why)
        fprintf(diag, "cvpdf: --watch renders again at every change, but %s\n%s", why,
                try_help);
    return !why;
}

/* SOURCE_DATE_EPOCH (reproducible-builds.org): seconds since 1970. */
static bool source_date_epoch(cv_options *o, FILE *diag)
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    if (!sde || !*sde)
        return true;
    /* Digits only: strtoll() alone would take " 5" and "+5". */
    char *end;
    errno = 0;
    long long t = strtoll(sde, &end, 10);
    if (strspn(sde, "0123456789") != strlen(sde) || *end || errno || t > 253402300799LL) {
        char shown[512];
        fprintf(diag, "cvpdf: SOURCE_DATE_EPOCH=%s: expected a number of seconds "
                "since 1970-01-01\n", cv_escape(sde, shown, sizeof shown));
        return false;
    }
    o->has_epoch = true;
    o->epoch = t;
    return true;
}

int cv_cli_parse(int argc, char **argv, cv_options *o, FILE *out, FILE *diag)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    *o = (cv_options){.fit_pages = -1, .jobs = ncpu > 0 ? ncpu : 1, .timeout = 10,
                      .format = CV_FORMAT_NONE, .dpi = CV_DPI_DEFAULT};
    int status = options(argc, argv, o, out, diag);
    if (status != CV_CLI_GO)
        return status;
    if (!source_date_epoch(o, diag))
        return 2;
    o->profiles = argv + optind;
    o->nprofiles = argc - optind;
    /* `cvpdf import FILE.bib`: the .bib as YAML (bib.h), nothing rendered. */
    if (o->nprofiles >= 1 && !strcmp(o->profiles[0], "import")) {
        if (o->nprofiles != 2) {
            fprintf(diag, "cvpdf: import takes one .bib file: cvpdf import refs.bib\n%s",
                    try_help);
            return 2;
        }
        o->import = o->profiles[1];
        o->nprofiles = 0;
        return CV_CLI_GO;
    }
    /* `cvpdf migrate FILE`: FILE as RenderCV 2.8 writes it (rcvold.h). */
    if (o->nprofiles >= 1 && !strcmp(o->profiles[0], "migrate")) {
        if (o->nprofiles != 2) {
            fprintf(diag, "cvpdf: migrate takes one RenderCV or JSON Resume file: "
                    "cvpdf migrate John_Doe_CV.yaml\n%s", try_help);
            return 2;
        }
        o->migrate = o->profiles[1];
        o->nprofiles = 0;
        return CV_CLI_GO;
    }
    if (o->list_layouts || o->print_datadir || o->schema) {
        if (o->nprofiles > 0) {
            char shown[256];
            fprintf(diag, "cvpdf: %s only prints; it takes no profile ('%s')\n%s",
                    o->list_layouts    ? "--list-layouts"
                    : o->print_datadir ? "--datadir"
                                       : "--schema",
                    cv_escape(o->profiles[0], shown, sizeof shown), try_help);
            return 2;
        }
        return CV_CLI_GO;       /* main() prints what was asked */
    }
    if (o->nprofiles < 1) {
        fprintf(diag, "cvpdf: no profile given\n%s", usage);
        return 2;
    }
    /* The option that was given "" (`-l "$LAYOUT"` with LAYOUT unset). */
    const char *empty = o->output && !*o->output       ? "-o"
                        : o->merge && !*o->merge       ? "--merge"
                        : o->layout && !*o->layout     ? "-l"
                        : o->defaults && !*o->defaults ? "--defaults"
                                                       : NULL;
    if (empty) {
        fprintf(diag, "cvpdf: %s \"\": an empty file name was given\n%s", empty, try_help);
        return 2;
    }
    if (o->explain && o->output && !strcmp(o->output, "-")) {
        fprintf(diag, "cvpdf: --explain and -o - would both write to the standard output\n%s",
                try_help);
        return 2;
    }
    once(o, diag);
    if (stdin_profile(o) && !o->output && !o->merge && !o->dump && !o->site) {
        fprintf(diag, "cvpdf: the profile '-' is read from the standard input; say where its "
                "PDF goes with -o FILE (or -o - for the standard output)\n%s", try_help);
        return 2;
    }
    if (o->site && (!*o->site || o->output || o->merge || o->dump || o->watch || o->open ||
                    o->format != CV_FORMAT_NONE || o->explain)) {
        fprintf(diag, "cvpdf: --site DIR/ writes DIR/index.html and each person's NAME.html "
                "and NAME.pdf; it does not go with %s\n%s",
                !*o->site ? "an empty name" : o->output ? "-o" : o->merge ? "--merge"
                : o->dump ? "--dump" : o->watch ? "--watch" : o->open ? "--open"
                : o->explain ? "--explain" : "--format", try_help);
        return 2;
    }
    if (o->merge && (o->output || o->dump)) {
        fprintf(diag, "cvpdf: --merge writes one PDF; it does not go with %s\n%s",
                o->output ? "-o" : "--dump", try_help);
        return 2;
    }
    if (o->watch && !watchable(o, diag))
        return 2;
    if (o->open && (o->dump || (o->nprofiles > 1 && !o->merge) ||
                    (o->output && !strcmp(o->output, "-")))) {
        fprintf(diag, "cvpdf: --open opens one output file; it does not go with %s\n%s",
                o->dump ? "--dump" : o->nprofiles > 1 && !o->merge
                    ? "several profiles (use --merge)" : "-o -", try_help);
        return 2;
    }
    o->progress = !o->quiet && isatty(STDERR_FILENO);
    return CV_CLI_GO;
}

void cv_cli_error_init(const cv_options *o, cv_error *err)
{
    cv_diag d = {NULL, o->quiet, o->strict};     /* what the engine's will be */
    cv_error_init_for(err, &d);
}

static const char import_usage[] =
    "Usage: cvpdf import FILE.bib [--section NAME]\n"
    "Print the entries of a BibTeX file as RenderCV YAML publications, on the\n"
    "standard output, newest first.\n"
    "\n"
    "      --section NAME  print them as the section NAME, indented to paste\n"
    "                      under cv: sections: in a profile (without it: a\n"
    "                      top-level publications: list)\n"
    "  -q, --quiet         no warnings, errors only\n"
    "  -h, --help          show this help\n"
    "\n"
    "A field a publication has no place for (abstract, isbn, keywords...) is\n"
    "named in a comment above its entry: # not imported from @article{key}: ...\n"
    "A profile may also name the .bib itself and stay in step with it:\n"
    "  sections:\n"
    "    publications: refs.bib\n"
    "(cvpdf-profile(5)).  A profile named import is rendered as cvpdf ./import.\n";

int cv_cli_import(int argc, char **argv, FILE *out, FILE *diag)
{
    static const struct option opts[] = {{"section", required_argument, NULL, 's'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *section = NULL;
    bool quiet = false;
    char shown[512];
    optind = 0;
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, ":qh", opts, NULL)) != -1;) {
        if (c == 's')
            section = optarg;
        else if (c == 'q')
            quiet = true;
        else if (c == 'h') {
            fputs(import_usage, out);
            return 0;
        } else {
            char letter[3] = {'-', (char)optopt, 0};
            const char *opt = c == '?' && optopt ? letter : argv[optind - 1];
            fprintf(diag, "cvpdf import: %s '%s'\nTry 'cvpdf import --help'.\n",
                    c == ':' ? "option needs a value:" : "unknown option",
                    cv_escape(opt, shown, sizeof shown));
            return 2;
        }
    }
    if (argc - optind != 1) {
        fprintf(diag, "cvpdf import: %s\nTry 'cvpdf import --help'.\n",
                argc - optind ? "give one .bib file" : "no .bib file given");
        return 2;
    }
    if (section && (!*section || strpbrk(section, "\n\r"))) {
        fprintf(diag, "cvpdf import: --section %s: give a section name on one line, as in "
                "--section publications\nTry 'cvpdf import --help'.\n",
                cv_escape(section, shown, sizeof shown));
        return 2;
    }
    cv_error err;
    cv_error_init(&err);
    err.quiet = quiet;
    bool ok = cv_bib_import(argv[optind], section, out, &err) && !err.set;
    if (!ok)
        cv_error_print(&err);
    return ok ? 0 : 1;
}
