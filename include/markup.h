/* markup.h - inline markup in profile strings.
 *
 *   **bold**   *italic*   ***bold italic***   [text](url)   `code`   \* escapes
 *   __bold__   _italic_ (at a word's edge only)   <https://url>   <name@mail>
 *
 * Parsing never fails: unmatched delimiters are literal text (as in
 * CommonMark), so a stray `*` prints as `*`.  Emphasis nests and may
 * contain links; link text may contain emphasis.  A backslash before any
 * ASCII punctuation makes it literal.
 */
#ifndef CV_MARKUP_H
#define CV_MARKUP_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

/* CV_STYLE_CODE: a `code` span, set in the layout's monospace face. */
enum { CV_STYLE_BOLD = 1, CV_STYLE_ITALIC = 2, CV_STYLE_CODE = 4 };

/* A run of text with one style and link target. */
typedef struct cv_span {
    const char *text;   /* UTF-8, unescaped, NUL-terminated */
    size_t len;
    unsigned style;     /* CV_STYLE_* bits, OR-ed with the base style */
    const char *link;   /* URL or NULL */
} cv_span;

/* Parse `s`; spans are returned in *out (arena, valid until cv_arena_free).
 * Adjacent spans with the same style and link are merged; empty spans are
 * dropped.  Returns the number of spans. */
size_t cv_markup_parse(cv_arena *a, const char *s, unsigned base_style,
                       cv_span **out);

/* `s` with markup removed (plain text, e.g. for PDF metadata). */
char *cv_markup_strip(cv_arena *a, const char *s);
/* `s` with every markup character escaped, so it renders literally when
 * substituted into a template. */
char *cv_markup_escape(cv_arena *a, const char *s);

/* May any output (the PDF's link annotations, HTML, Markdown, --site's
 * page) write `url` as a link?  Only http:, https:, mailto: and tel: (any
 * case), with something after the scheme; anything else (javascript:,
 * data:, file:, a relative path) is shown as text (wrap.c, html.c, md.c;
 * doc.c warns of it in a profile). */
bool cv_markup_web_link(const char *url);

/* Is span `sp` an address shown as itself: a link whose text is one word
 * with '@', '/' or '.' in it (pat.o'brien@example.com, example.com/o'brien)?
 * Its quotes stay as typed (text.smart_quotes would make it another
 * address); a link's words ("Dad's page") are prose. */
bool cv_markup_is_address(const cv_span *sp);

#endif
