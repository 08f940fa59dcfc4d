/* md.h - a résumé as CommonMark.
 *
 * cv_md_write() writes the profile as Markdown, for what RenderCV's
 * Markdown output is used for: pasting into a job portal, a README or a
 * grammar checker.  It reads the document, never the display list: the
 * name as a `#` heading (with the native-script name where the layout
 * shows it beside), the headline, the connections on one line (each a
 * link, as compose.h's cv_compose_contacts() makes them, without icons),
 * then a `##` heading per section in the profile's order.  Each entry is
 * what the layout's templates make of it, line by line, as the PDF shows
 * it (template.h: the same expansion, so dates read as the PDF formats
 * them): the main and degree lines, then the side lines (dates, place)
 * on one line joined by " · ", the summary, and the highlights as a
 * bulleted list, nested ones indented under their parent.  Bullet entries
 * are a list, numbered ones an ordered list (counting down for
 * reversed_number), text and one-line entries paragraphs.
 *
 * Markup spans become `**bold**`, `*italic*`, `` `code` `` and
 * `[text](url)`; only http, https, mailto and tel links are kept (another
 * target shows its text alone).  Every other character that Markdown
 * would read as syntax is escaped with a backslash, so that the rendered
 * page shows the profile's text as written; straight quotes become the
 * language's typographic ones when the layout asks (text.smart_quotes).
 *
 * The file is written through output.h: atomically, never over an input;
 * `path` "-" is the standard output.
 */
#ifndef CV_MD_H
#define CV_MD_H

#include <stdbool.h>

#include "arena.h"
#include "ctx.h"
#include "doc.h"
#include "error.h"
#include "output.h"

/* Write `doc`, laid out by cx->lay's templates, as CommonMark to `path`.
 * Scratch memory comes from `a`.  False with err set when the file cannot
 * be written (nothing is left at `path` then). */
bool cv_md_write(cv_arena *a, const cv_doc *doc, const cv_ctx *cx, const char *path,
                 const cv_inputs *inputs, cv_error *err);

/* The Markdown of `doc`, NUL-terminated, in `a` (what cv_md_write()
 * writes). */
const char *cv_md_text(cv_arena *a, const cv_doc *doc, const cv_ctx *cx);

#endif
