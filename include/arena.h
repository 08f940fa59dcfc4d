/* arena.h - one bump allocator per run.
 *
 * Everything from load through flow is allocated from a single arena and
 * released at once by cv_arena_free().  Nothing is freed piecemeal.  Running
 * out of memory prints a message and aborts (there is nothing sensible a
 * typesetter can do half-way through a page without memory).
 */
#ifndef CV_ARENA_H
#define CV_ARENA_H

#include <stdarg.h>
#include <stddef.h>

typedef struct cv_arena cv_arena;

/* malloc(), calloc(), realloc() and strdup() for memory outside arenas,
 * aborting through cv_oom() on exhaustion: the one way cvpdf
 * runs out of memory. */
void *cv_xmalloc(size_t n);
void *cv_xcalloc(size_t n, size_t size);
void *cv_xrealloc(void *p, size_t n);
char *cv_xstrdup(const char *s);

cv_arena *cv_arena_new(void);
void cv_arena_free(cv_arena *a);
/* Forget everything allocated, keeping one block for what comes next (a
 * scratch arena reused call after call). */
void cv_arena_reset(cv_arena *a);

/* Zeroed memory, aligned for any type; valid until cv_arena_free(). */
void *cv_arena_alloc(cv_arena *a, size_t size);
/* Grow (or shrink) a block from this arena; the old contents are copied. */
void *cv_arena_realloc(cv_arena *a, void *old, size_t old_size, size_t new_size);
char *cv_arena_strdup(cv_arena *a, const char *s);
char *cv_arena_strndup(cv_arena *a, const char *s, size_t n);
char *cv_arena_printf(cv_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *cv_arena_vprintf(cv_arena *a, const char *fmt, va_list ap);
/* Bytes handed out so far (for the benchmark's memory report). */
size_t cv_arena_used(const cv_arena *a);

/* A growable NUL-terminated string in an arena (zero-initialise it). */
typedef struct cv_strbuf {
    char *s;
    size_t n, cap;
} cv_strbuf;
void cv_strbuf_put(cv_arena *a, cv_strbuf *b, const char *s, size_t n);

/* A growable byte string in malloc'd memory, for what is written piece by
 * piece and handed on whole (a content stream, a page, a packed file):
 * zero-initialise it, free(b->s) when done.  Once anything is put it is
 * NUL-terminated (the NUL is not counted in n). */
typedef struct cv_buf {
    char *s;
    size_t n, cap;
} cv_buf;
/* Room for `more` bytes and a NUL after s[n]: where they go (n unchanged).
 * Inline: content streams grow by a few bytes at a time. */
char *cv_buf_grow(cv_buf *b, size_t more);
static inline char *cv_buf_room(cv_buf *b, size_t more)
{
    return b->n + more + 1 <= b->cap ? b->s + b->n : cv_buf_grow(b, more);
}
void cv_buf_put(cv_buf *b, const void *p, size_t n);
void cv_buf_puts(cv_buf *b, const char *s);
void cv_buf_printf(cv_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A growable array in an arena: `CV_PUSH(a, arr, n, cap, value)`. */
#define CV_PUSH(arena, arr, n, cap, value)                                   \
    do {                                                                     \
        if ((n) == (cap)) {                                                  \
            size_t cv_nc_ = (cap) ? (cap) * 2 : 8;                           \
            (arr) = cv_arena_realloc((arena), (arr), (cap) * sizeof *(arr),  \
                                     cv_nc_ * sizeof *(arr));                \
            (cap) = cv_nc_;                                                  \
        }                                                                    \
        (arr)[(n)++] = (value);                                              \
    } while (0)

/* Out of memory: say so on stderr and abort (nothing sensible can go on).
 * The one place cvpdf meets it. */
_Noreturn void cv_oom(size_t bytes);

#endif
