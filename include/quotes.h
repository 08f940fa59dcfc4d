/* quotes.h - typographic quotes in place of straight ones.
 *
 * A profile typed on a keyboard has straight quotes: "Distributed
 * Systems", d'Informatique.  cv_quotes_apply() turns them into the
 * language's own: an apostrophe (’) between letters, and opening and
 * closing quotes chosen by what comes before ("…" in English and
 * Chinese, „…“ in German, «…» in French, Spanish, Italian, Portuguese
 * and Russian, 「…」 in Japanese).  A quote is opening at the start of
 * the text or after a space, an opening bracket, a dash or another
 * opening quote; closing otherwise.  Right after CJK text (typed without
 * spaces) a quote closes the one that is open, else opens.  The state is
 * carried from one call
 * to the next, so a paragraph made of several spans is read as one.
 * The layout's text.smart_quotes turns this off (compose.h).
 */
#ifndef CV_QUOTES_H
#define CV_QUOTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "markup.h"

typedef struct cv_quotes {
    uint32_t open2, close2, open1, close1;   /* the language's double and single quotes */
    uint32_t prev;                           /* the last code point read, 0 at the start */
    bool single_open;                        /* a single quote was opened, not closed */
    bool double_open;                        /* the last double quote opened */
} cv_quotes;

/* The quotes of language `lang` (BCP 47, "de-AT" is German; NULL or an
 * unknown one: English), at the start of a paragraph. */
void cv_quotes_init(cv_quotes *q, const char *lang);

/* `s` (`len` bytes of UTF-8) with its straight quotes made typographic;
 * `s` itself when it has none, else a copy in `a` (valid until
 * cv_arena_free), its length in *outlen either way. */
const char *cv_quotes_apply(cv_arena *a, cv_quotes *q, const char *s, size_t len,
                            size_t *outlen);

/* The spans `sp` (n of them) of one paragraph with their quotes made
 * typographic, starting from state `q` (the quotes carry from span to
 * span): a copy in `a`, each span's other fields kept; `sp` itself when
 * no span has a straight quote. */
const cv_span *cv_quotes_spans(cv_arena *a, cv_quotes q, const cv_span *sp, size_t n);

#endif
