/* html.h - a résumé as one self-contained HTML5 page.
 *
 * The web side of a résumé, written from the profile (not from the
 * display list: a browser sets the lines): one file that loads nothing
 * from the network.  Its text is the PDF's, line by line: the same
 * template expansion (template.h) decides each entry's lines, the same
 * contact items, section titles cased as the layout cases them, dates as
 * the locale writes them.  Semantic HTML (a <header> with the name as
 * <h1>, a <section> with an <h2> per section, an <article> per entry,
 * <time datetime>, nested <ul>), the language on <html> and on runs in
 * another script, right to left where the language is; a schema.org
 * Person in JSON-LD; the layout's look in one <style>: its colours,
 * sizes, faces (subset with hb-subset and embedded as WOFF2, or the
 * system's with html.fonts: system), the sidebar as an <aside> beside
 * <main>, responsive down to 375 px, and an @page of the layout's size
 * and margins for printing.  Safe: every text escaped, links only http,
 * https, mailto and tel, no script but the JSON-LD, a
 * Content-Security-Policy <meta>.  docs/output.md describes the page.
 */
#ifndef CV_HTML_H
#define CV_HTML_H

#include <stdbool.h>

#include "arena.h"
#include "ctx.h"
#include "doc.h"
#include "error.h"
#include "image.h"
#include "output.h"

/* Write `doc`, set in the context `cx` (its layout, language, direction
 * and faces), with its photo (NULL: none), as an HTML page at `path` ("-":
 * the standard output) through output.h: atomically, never over an input
 * of `inputs`.  Scratch memory comes from `a`.  False with err set (at
 * `path`) when the file cannot be written.  A face that hb-subset or
 * libwoff2 cannot convert is left out of the page (the reader's fonts
 * draw its characters) with a warning at the font file (under --strict an
 * error: nothing is written). */
bool cv_html_write(cv_arena *a, const cv_doc *doc, const cv_ctx *cx, const cv_image *photo,
                   const char *path, const cv_inputs *inputs, cv_error *err);

#endif
