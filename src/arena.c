/* arena.c - bump allocator in chained blocks.  See arena.h. */
#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE (64 * 1024)
#define ALIGN 8

/* Under AddressSanitizer every allocation is followed by a poisoned red
 * zone, and a block's unused tail is poisoned too, so that a write past one
 * allocation into the next (invisible to ASan inside one malloc'd block) is
 * caught like a heap overflow.  Elsewhere the zone is empty and these are
 * no-ops. */
#if defined(__SANITIZE_ADDRESS__)
#define CV_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CV_ASAN 1
#endif
#endif
#ifdef CV_ASAN
#include <sanitizer/asan_interface.h>
#define REDZONE ALIGN
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define REDZONE 0
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

typedef struct block {
    struct block *next;
    size_t size, used;
    _Alignas(ALIGN) unsigned char data[];
} block;

struct cv_arena {
    block *head;
    size_t total;
};

void *cv_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        cv_oom(n);
    return q;
}

void *cv_xmalloc(size_t n)
{
    return cv_xrealloc(NULL, n);
}

void *cv_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        cv_oom(n * size);
    return p;
}

char *cv_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(cv_xmalloc(n), s, n);
}

cv_arena *cv_arena_new(void)
{
    cv_arena *a = cv_xmalloc(sizeof *a);
    a->head = NULL;
    a->total = 0;
    return a;
}

void cv_arena_free(cv_arena *a)
{
    if (!a)
        return;
    for (block *b = a->head, *next; b; b = next) {
        next = b->next;
        UNPOISON(b->data, b->size);
        free(b);
    }
    free(a);
}

/* Memory as cv_arena_alloc() gives it, not zeroed: for callers that
 * write every byte. */
static void *alloc_raw(cv_arena *a, size_t want)
{
    size_t size = (want + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (size == 0)
        size = ALIGN;
    size += REDZONE;
    block *b = a->head;
    if (!b || b->size - b->used < size) {
        /* Large requests get a block of their own, chained behind the
         * current one so the current block keeps serving small ones. */
        size_t bsize = size > BLOCK_SIZE / 4 ? size : BLOCK_SIZE;
        block *nb = cv_xmalloc(sizeof *nb + bsize);
        nb->size = bsize;
        nb->used = 0;
        POISON(nb->data, bsize);
        if (b && bsize != BLOCK_SIZE) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
    }
    void *p = b->data + b->used;
    b->used += size;
    a->total += size - REDZONE;
    UNPOISON(p, want ? want : 1);
    return p;
}

void *cv_arena_alloc(cv_arena *a, size_t want)
{
    void *p = alloc_raw(a, want);
    memset(p, 0, want ? want : 1);
    return p;
}

void cv_arena_reset(cv_arena *a)
{
    block *keep = NULL;
    for (block *b = a->head, *next; b; b = next) {
        next = b->next;
        if (!keep && b->size == BLOCK_SIZE) {
            keep = b;
            POISON(b->data, b->size);
        } else {
            UNPOISON(b->data, b->size);
            free(b);
        }
    }
    a->head = keep;
    a->total = 0;
    if (keep) {
        keep->next = NULL;
        keep->used = 0;
    }
}

void *cv_arena_realloc(cv_arena *a, void *old, size_t old_size, size_t new_size)
{
    if (new_size <= old_size)
        return old;
    /* Extend in place when `old` is the last allocation of the head block. */
    block *b = a->head;
    size_t old_al = (old_size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    size_t new_al = (new_size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (old && b && (unsigned char *)old + old_al + REDZONE == b->data + b->used &&
        b->used - old_al + new_al <= b->size) {
        UNPOISON((unsigned char *)old + old_size, new_size - old_size);
        memset((unsigned char *)old + old_size, 0, new_size - old_size);
        b->used += new_al - old_al;
        a->total += new_al - old_al;
        return old;
    }
    unsigned char *p = alloc_raw(a, new_size);
    size_t keep = old ? old_size : 0;
    if (keep)
        memcpy(p, old, keep);
    memset(p + keep, 0, new_size - keep);
    return p;
}

char *cv_arena_strndup(cv_arena *a, const char *s, size_t n)
{
    char *p = alloc_raw(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *cv_arena_strdup(cv_arena *a, const char *s)
{
    return cv_arena_strndup(a, s, strlen(s));
}

char *cv_arena_vprintf(cv_arena *a, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        n = 0;
    char *p = alloc_raw(a, (size_t)n + 1);
    p[0] = '\0';
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *cv_arena_printf(cv_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = cv_arena_vprintf(a, fmt, ap);
    va_end(ap);
    return p;
}

size_t cv_arena_used(const cv_arena *a)
{
    return a->total;
}

void cv_strbuf_put(cv_arena *a, cv_strbuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 32;
        while (nc < b->n + n + 1)
            nc *= 2;
        b->s = cv_arena_realloc(a, b->s, b->cap, nc);
        b->cap = nc;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

char *cv_buf_grow(cv_buf *b, size_t more)
{
    if (b->n + more + 1 > b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 4096;
        while (nc < b->n + more + 1)
            nc *= 2;
        b->s = cv_xrealloc(b->s, nc);
        b->cap = nc;
    }
    return b->s + b->n;
}

void cv_buf_put(cv_buf *b, const void *p, size_t n)
{
    memcpy(cv_buf_room(b, n), p, n);
    b->n += n;
    b->s[b->n] = '\0';
}

void cv_buf_puts(cv_buf *b, const char *s)
{
    cv_buf_put(b, s, strlen(s));
}

void cv_buf_printf(cv_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(cv_buf_room(b, 0), b->cap - b->n, fmt, ap);
    va_end(ap);
    if (k > 0 && (size_t)k >= b->cap - b->n) {
        cv_buf_room(b, (size_t)k);
        va_start(ap, fmt);
        vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
    }
    b->n += k > 0 ? (size_t)k : 0;
    b->s[b->n] = '\0';
}

void cv_oom(size_t bytes)
{
    fprintf(stderr, "cvpdf: out of memory (%zu bytes)\n", bytes);
    abort();
}
