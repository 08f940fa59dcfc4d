/* wrap.h - from styled text to lines.
 *
 * cv_wrap() itemises spans into glyphs (choosing a face per code point
 * along the context's fallback chain, ctx.h: the layout's faces, localised
 * for the profile's language, or a part's), shapes each run with HarfBuzz for
 * kerning, finds break opportunities with libunibreak (UAX #14, so Chinese
 * breaks between characters) plus kinsoku, URL and hyphenation rules, and
 * chooses the breaks with Knuth-Plass total fit (kp.h) or first fit.  Lines
 * are justified or ragged as asked; none is ever wider than the measure.
 *
 * Cost: time and memory in proportion to the text.  A paragraph of more
 * than some 16,000 characters is broken a window at a time (wrap.c), and
 * needs 16 bytes a character while it is set, beside the lines it returns.
 */
#ifndef CV_WRAP_H
#define CV_WRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "error.h"
#include "markup.h"
#include "ctx.h"
#include "display.h"

typedef struct cv_textfmt {
    float size;
    unsigned color;
    unsigned link_color;
    unsigned style;          /* base CV_STYLE_* bits */
    bool justify;
    bool hyphenate;          /* words may be hyphenated (libhyphen) */
    const char *hyphenation; /* the language's patterns (engine.h); NULL: en-US */
    bool greedy;             /* first fit instead of Knuth-Plass total fit */
    float tracking;          /* extra space between letters, thousandths of an em */
    bool small_caps;         /* lowercase letters as small capitals: the face's own
                                (OpenType smcp), else its capitals at
                                CV_SMALL_CAPS_SCALE of the size, a little spaced;
                                the text still reads in its own case */
    bool link_icon;          /* the external-link icon (U+F08E) alone in a run is
                                drawn as RenderCV draws it: at 0.65 of the size,
                                raised a fifth of an em, in the middle of the room
                                the full-size icon took (links.external_icon) */
} cv_textfmt;

#define CV_SMALL_CAPS_SCALE 0.8f


/* Break `spans` into lines no wider than `width` points, set in the faces,
 * language and direction of `cx` (its layout gives the gap between Han and
 * Latin and lining figures).  A word wider than
 * the measure is broken between grapheme clusters with a warning at `pos`; a
 * character no face in the chain has is warned about at `pos`.  Returns the
 * number of lines; *out is valid until cv_arena_free(). */
size_t cv_wrap(cv_arena *a, const cv_ctx *cx, const cv_span *spans, size_t nspans,
               const cv_textfmt *fmt, float width, cv_pos pos, cv_line **out,
               cv_error *err);

/* Where lines may end in cps[0..n): libunibreak's set_linebreaks_utf32()
 * (UAX #14, LINEBREAK_* in brks[i] for after cps[i]), the same answers for
 * less work (a run of ASCII letters is classified once); and regional
 * indicators, on which libunibreak 1.1 aborts, taken in pairs (a flag is
 * never broken, two flags may be). */
void cv_wrap_linebreaks(const uint32_t *cps, size_t n, char *brks);

/* Width of `spans` set on one line, in points. */
float cv_measure(cv_arena *a, const cv_ctx *cx, const cv_span *spans,
                 size_t nspans, const cv_textfmt *fmt);

/* Set once: a profile's paragraph cache (cx->sc, ctx.h).  Each paragraph
 * set through it is shaped and broken once per everything cv_wrap()'s
 * lines depend on (the spans' text, styles and links, the cv_textfmt, the
 * width, the context's faces, monospace face, language and direction, the
 * layout's lining figures and CJK gap); composing again with other
 * vertical spacing (fit.h: the last-page rule, --fit-pages) finds every
 * paragraph set.  The lines, their links' targets and the cache itself
 * live in the arena given to cv_setcache_new() (the profile's), valid
 * until cv_arena_free(); lines from the cache are shared and must not be
 * changed.  A paragraph whose setting warned (a missing glyph, a word
 * broken between letters) is set again at each use with the caller's
 * diagnostics, so warnings are neither lost nor repeated: what is said is
 * what cv_wrap() says.  At most CV_SETCACHE_BUDGET bytes of lines and keys
 * are kept; past that, and for paragraphs longer than a few pages, the
 * calls below are cv_wrap() and cv_measure() themselves. */
typedef struct cv_setcache cv_setcache;

#define CV_SETCACHE_BUDGET (8u << 20)

cv_setcache *cv_setcache_new(cv_arena *a, cv_setcache *shared);

/* Set once for every profile: a cache of its own memory that outlives the
 * profiles (a batch, --merge's two passes, --watch's renders), given to
 * each profile's cv_setcache_new().  A profile's cache looks there when it
 * has not set a paragraph itself, and keeps what it sets there while the
 * shared cache holds less than CV_SETCACHE_BUDGET bytes (past that, in its
 * own arena, as without one).  Lines found there are shared like the
 * profile's own; a paragraph whose setting warned is set again at each
 * use, so each profile is warned with its own positions.
 * cv_setcache_trim() empties it once it is over its budget: call it only
 * between profiles, when no lines from it are held.  Free it with
 * cv_setcache_free() (NULL is fine to both). */
cv_setcache *cv_setcache_new_shared(void);
void cv_setcache_trim(cv_setcache *sc);
void cv_setcache_free(cv_setcache *sc);

/* cv_wrap() through cx->sc; without one, cv_wrap() into `a`.  Either way
 * the links' targets are copies that live as long as the lines. */
size_t cv_wrap_once(cv_arena *a, const cv_ctx *cx, const cv_span *spans, size_t nspans,
                    const cv_textfmt *fmt, float width, cv_pos pos, cv_line **out,
                    cv_error *err);

/* cv_measure() through cx->sc (or without, when it has none). */
float cv_measure_once(const cv_ctx *cx, const cv_span *spans, size_t nspans,
                      const cv_textfmt *fmt);

/* Beside the paragraphs, what a composer keeps for the whole profile (an
 * entry's template lines expanded once): a slot by `kind` and two keys,
 * pointers that live as long as the profile (never into memory that is
 * freed sooner, which another key could reuse).  The slot holds NULL until
 * the caller fills it with memory from cv_setcache_arena().  NULL when `sc`
 * is NULL or full. */
void **cv_setcache_slot(cv_setcache *sc, unsigned char kind, const void *k1, const void *k2);

/* Whether `sc` keeps the paragraphs set from now on (it does when made);
 * those it keeps are still found.  A caller whose next compositions each
 * set every paragraph anew (fit.h's tries of smaller type) stops keeping
 * them, so that memory holds what is set again.  NULL is fine. */
void cv_setcache_keep(cv_setcache *sc, bool keep);
cv_arena *cv_setcache_arena(cv_setcache *sc);

/* What a cache did (for tests and profiling): calls that found their
 * paragraph, calls that set it (or measured it), paragraphs and slots
 * kept, and the bytes their lines and keys take. */
typedef struct cv_setstats {
    size_t hits, sets, entries, bytes;
} cv_setstats;

cv_setstats cv_setcache_stats(const cv_setcache *sc);

/* The complex-script glyphs of every run of `d` (cv_cluster: the glyph,
 * its text, its offset), from what the shaper made of them, into
 * d->clusters (allocated in `a`), so that back ends read them from the
 * display list. */
void cv_wrap_clusters(cv_arena *a, const cv_ctx *cx, cv_display *d);

#endif
