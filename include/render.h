/* render.h - one profile through the pipeline, and the CV book.
 *
 * cv_render_lay_out() is the pipeline for one résumé, one stage call after
 * another: load the profile (with --defaults under it), load its photo, fit
 * it to --fit-pages, compose, paginate (printing --explain), furnish the
 * running header and footer, set the document information.  Every stage
 * reports through one cv_error, and the first error stops the list; a stage
 * may also succeed with the error set (a warning under --strict), which
 * stops it the same way, so that nothing is drawn or written.
 *
 * cv_render_one() lays out one profile and draws it: a PDF at its output
 * path (through output.h: atomically, never over an input), its pages as
 * PNG or SVG files (draw_raster.h, from the same PDF made in memory), or
 * the --dump text on stdout.  cv_render_book() is --merge: every profile into
 * one PDF.
 *
 * Each profile gets an arena of its own, freed before the next one; what
 * outlives a profile (fonts, shaping and hyphenation caches) is the
 * engine's (engine.h), reached through the style.  Errors are printed on
 * stderr as `file:line:col: error: msg`; --explain and --dump go to stdout.
 */
#ifndef CV_RENDER_H
#define CV_RENDER_H

#include <stdbool.h>

#include "arena.h"
#include "cli.h"
#include "display.h"
#include "engine.h"
#include "draw_raster.h"
#include "error.h"
#include "style.h"
#include "yml.h"

/* What every profile of a run is rendered with. */
typedef struct cv_renderer {
    const cv_options *opt;    /* the command line */
    cv_engine *eng;           /* the engine the layout was loaded with */
    const cv_style *style;    /* the layout, resolved once: read only */
    const cv_yml *defaults;   /* --defaults (cv_doc_load_defaults()), or NULL */
    const char *stdin_text;   /* the profile '-', read once from the standard input */
    size_t stdin_len;
    cv_format format;         /* of every output (cv_plan.format): PDF, PNG or SVG pages */
} cv_renderer;

/* Lay out `profile` in `a`: its pages, valid until cv_arena_free(a), or
 * NULL with err set.  Prints --explain's report and --fit-pages' note. */
cv_display *cv_render_lay_out(cv_arena *a, const cv_renderer *r, const char *profile,
                              cv_error *err);

/* Render `profile` to the PDF `out`, or under --dump to stdout.  Returns
 * false after printing its error. */
bool cv_render_one(const cv_renderer *r, const char *profile, const char *out);

/* --merge: every profile into the one PDF r->opt->merge, in the order
 * given, a bookmark per person.  A profile that fails is reported and left
 * out; the book holds the others.  Prints a progress line per profile when
 * r->opt->progress.  Returns the number of profiles that failed (all of
 * them when the book cannot be written). */
int cv_render_book(const cv_renderer *r, char **profiles, int n);

#endif
