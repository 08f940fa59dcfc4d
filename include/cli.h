/* cli.h - the command line: options, their checks and the usage text.
 *
 * cv_cli_parse() reads argv with getopt_long, and SOURCE_DATE_EPOCH from the
 * environment, into a cv_options, checking every value as it goes and then
 * the combinations (a profile is needed; --merge goes with neither -o nor
 * --dump).  It touches no file: where each PDF goes, and whether it may be
 * written there, is plan.h's job.
 *
 * Messages are GNU style, one per problem, and followed by "Try 'cvpdf
 * --help'." where the fix is a different command line:
 *
 *   cvpdf: -j x: expected a number of jobs from 0 to 1024
 *   Try 'cvpdf --help'.
 *
 * --help and --version print to `out`; usage errors to `diag`, except that
 * getopt itself reports unknown options and missing arguments on stderr.
 *
 * Every string in a cv_options points into argv (or the environment) and is
 * valid as long as they are.
 */
#ifndef CV_CLI_H
#define CV_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "draw_raster.h"
#include "error.h"

/* How many --set a command line may give. */
#define CV_CLI_MAX_SETS 64

typedef struct cv_options {
    const char *layout;     /* -l FILE or NAME (datadir.h), or NULL: onecolumn */
    const char *output;     /* -o FILE or DIR/, or NULL: beside each profile */
    const char *defaults;   /* --defaults FILE, or NULL */
    const char *merge;      /* --merge FILE, or NULL */
    const char *site;       /* --site DIR: a lab's website (site.h), or NULL */
    const char *date;       /* --date YYYY-MM-DD ("last updated"), or NULL */
    int dump;               /* 0 a PDF, 1 --dump, 2 --dump=glyphs */
    bool quiet, strict, explain, pdfa, pdfua;
    int pdfa_part;          /* --pdfa=2b, 2u, 2a: 2; else 1 (PDF/A-1b) */
    char pdfa_conformance;  /* 'b', 'u' or 'a' */
    bool has_epoch;         /* SOURCE_DATE_EPOCH is set: */
    long long epoch;        /*   its seconds since 1970 */
    long fit_pages;         /* --fit-pages N, or -1: the layout's fit_pages */
    long jobs;              /* -j: worker processes; 0: in this process */
    double timeout;         /* --timeout: seconds per profile of a batch; 0: none */
    bool progress;          /* stderr is a terminal, no -q: a line per finished profile of
                             * a batch, or "wrote OUT: N pages, T ms" for one output */
    cv_format format;       /* --format, or CV_FORMAT_NONE: the output's extension decides */
    long dpi;               /* --dpi: PNG pages' resolution */
    bool dpi_given;         /*   given (a usage error unless PNG pages are written) */
    bool watch;             /* --watch: render again at every change of an input */
    /* Print and exit, rendering nothing (no profile needed): */
    bool list_layouts;      /*   --list-layouts: the shipped layouts (datadir.h) */
    bool print_datadir;     /*   --datadir: the data directory */
    const char *schema;     /*   --schema profile|layout: that JSON Schema (schema.h) */
    char *sets[CV_CLI_MAX_SETS]; /* --set PATH=VALUE (sets.h), in the order given */
    int nsets;
    bool open;              /* --open: xdg-open the output once written */
    char **profiles;        /* the profiles, in the order given */
    const char *migrate;    /* `cvpdf migrate FILE`: print FILE as RenderCV 2.8's, or NULL */
    const char *import;     /* `cvpdf import FILE`: print FILE (.bib) as YAML, or NULL */
    int nprofiles;          /* at least 1, unless one of the three above is set, or `import` */
} cv_options;

/* cv_cli_parse() went through: go on and render. */
#define CV_CLI_GO (-1)

/* Parse the command line into `o`.  Returns CV_CLI_GO, or the status to
 * exit with at once: 0 after --help or --version, 2 after a usage error
 * (already reported on `diag`).  getopt_long permutes argv; parsing again
 * (the unit tests) starts afresh. */
int cv_cli_parse(int argc, char **argv, cv_options *o, FILE *out, FILE *diag);

/* `cvpdf import FILE.bib [--section NAME] [-q]` (argv[0] is "import"):
 * its own options and --help; the YAML on `out` (bib.h's
 * cv_bib_import()).  Returns the exit status: 0, 1 (the file failed) or
 * 2 (a usage error). */
int cv_cli_import(int argc, char **argv, FILE *out, FILE *diag);

/* A diagnostics object as the options ask: -q, --strict. */
void cv_cli_error_init(const cv_options *o, cv_error *err);

#endif
