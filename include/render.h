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
#include "doc.h"
#include "engine.h"
#include "draw_raster.h"
#include "error.h"
#include "style.h"
#include "yml.h"

/* A profile that is no regular file (a pipe from `<(...)`, a FIFO), read
 * once in the main process before anything is written: its text, or why it
 * could not be read. */
typedef struct cv_pretext {
    const char *text;         /* NULL: not read here (a regular file, or '-') */
    size_t len;
    const char *fail;         /* the error reading it, or NULL */
} cv_pretext;

/* What every profile of a run is rendered with. */
typedef struct cv_renderer {
    const cv_options *opt;    /* the command line */
    cv_engine *eng;           /* the engine the layout was loaded with */
    const cv_style *style;    /* the layout, resolved once: read only */
    const cv_yml *defaults;   /* --defaults (cv_doc_load_defaults()), or NULL */
    const cv_yml *sets;       /* --set over each profile (sets.h), or NULL */
    const cv_yml *layout_sets; /* --set layout.*: over the layout, or NULL */
    const char *stdin_text;   /* the profile '-', read once from the standard input */
    size_t stdin_len;
    cv_format format;         /* of every output (cv_plan.format): PDF, PNG or SVG pages,
                                 HTML, Markdown */
    const cv_pretext *pre;    /* pre[i]: profile i read ahead (cv_render_read_pipes()), or NULL */
    struct cv_setcache *shared; /* paragraphs set for earlier profiles (wrap.h's
                                   cv_setcache_new_shared()), or NULL */
} cv_renderer;

/* Read every profile that is no regular file (a pipe, a FIFO) now, into
 * `a`, so that the photo and .bib it names are known before anything is
 * written (cv_render_note_all()) and a worker never waits on it. */
void cv_render_read_pipes(cv_arena *a, cv_renderer *r);

/* Lay out `profile` in `a`: its pages, valid until cv_arena_free(a), or
 * NULL with err set.  Prints --explain's report and --fit-pages' note. */
cv_display *cv_render_lay_out(cv_arena *a, const cv_renderer *r, const char *profile,
                              cv_error *err);

/* Load `profile` as cv_render_lay_out() does (the standard input or a
 * pipe read ahead, --defaults under it, --set over it, its .bib files
 * noted as inputs, its "last updated" date, its layout, the layout's
 * dates laid over its locale and the locale filled in, its photo), and no
 * further: for --site's cards.  NULL with err set. */
cv_doc *cv_render_load(cv_arena *a, const cv_renderer *r, const char *profile, cv_error *err);

/* Note every input the run will read, in r->style->eng->inputs, before
 * anything is written (and before workers are forked, so that each knows
 * them all): each profile with the photo and the .bib files it names, the
 * data directory's files, the phone module, the fonts opened so far.
 * Together with the layouts and defaults noted when they were read, these
 * are what cv_plan_check() holds the outputs against. */
void cv_render_note_all(const cv_renderer *r);

/* The largest document cvpdf writes, below what libharu can hold (its
 * arrays take at most 32,767 items: the page tree's kids, a structure
 * element's children, the parent tree's two numbers per page and link):
 * checked before libharu is reached, with an error naming the profile
 * and the section that passes it. */
#define CV_MAX_PAGES 10000
#define CV_MAX_CHILDREN 30000     /* of one structure element: a section's entries */
#define CV_MAX_MARKED 16000       /* pages and links together, in a tagged PDF */

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
