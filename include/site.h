/* site.h - `--site DIR/`: a lab's static website from its profiles.
 *
 * cv_site_run() renders each profile, in the order given, to DIR/NAME.pdf
 * (plan.h's names: NAME is the profile's file name without its extension)
 * and, where this cvpdf has the HTML back end, DIR/NAME.html, then writes
 * DIR/index.html: the lab page, a card per person whose profile rendered -
 * the photo (decoded and checked by image.h, scaled to 192 pixels and
 * embedded as a PNG data: URI), the name, the headline, the current
 * position (the first experience entry that goes on to the present), the
 * links (email, website, social networks), and links to the person's page
 * and PDF.  Its title and header are the `--defaults` file's `lab:` name,
 * address and website (doc.h's cv_lab), else "People".
 *
 * As in any batch, a profile that fails is reported (by render.h, at its
 * file and line) and costs its own card; the others are written and the
 * run ends with status 1; when every profile fails, the index is not
 * written (the last good one stays).  The page is safe to serve: every text escaped,
 * links only http, https, mailto and tel (and the person's own files), a
 * Content-Security-Policy that allows no script, no request but the page's
 * own data: images and inline style; it is responsive (the cards wrap into
 * one column at 375 px) and says its language.  It is written through
 * output.h (atomically, never over an input), and never over a file cvpdf
 * did not make: cv_site_check() refuses, before anything is rendered, an
 * existing DIR/index.html or DIR/NAME.html without cvpdf's generator
 * mark, anything there that is no regular file, and a profile called
 * index (whose page would be the lab page).
 */
#ifndef CV_SITE_H
#define CV_SITE_H

#include <stdio.h>

#include "arena.h"
#include "cli.h"
#include "plan.h"
#include "render.h"

/* The marker of a page cvpdf wrote (index.html, NAME.html). */
#define CV_SITE_GENERATOR "<meta name=\"generator\" content=\"cvpdf"

/* Before anything is written: 0, or the exit status after saying why on
 * `diag` (1: a profile called index; 2: a page cvpdf did not make in the
 * way). */
int cv_site_check(cv_arena *a, const cv_options *o, const cv_plan *p, FILE *diag);

/* Render every profile of r->opt to the PDFs of `p` (and their HTML
 * pages), then write the index.  Returns the number of profiles that
 * failed (all of them when the index cannot be written). */
int cv_site_run(const cv_renderer *r, const cv_plan *p);

#endif
