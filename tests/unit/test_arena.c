/* Unit tests for the arena (arena.c): zeroed, aligned memory; growth in
 * place; reset; and, in the sanitizer build, red zones that make ASan see a
 * write past one allocation into the next. */
#include "harness.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arena.h"

TEST(zeroed_and_aligned)
{
    cv_arena *a = cv_arena_new();
    for (size_t n = 1; n < 300; n += 7) {
        unsigned char *p = cv_arena_alloc(a, n);
        CHECK(((uintptr_t)p & 7) == 0);
        size_t nonzero = 0;
        for (size_t i = 0; i < n; i++)
            nonzero += p[i] != 0;
        CHECK(nonzero == 0);
        memset(p, 0xAB, n);
    }
    /* A large request gets its own block and is zeroed too. */
    unsigned char *big = cv_arena_alloc(a, 100000);
    CHECK(big[0] == 0 && big[99999] == 0);
    cv_arena_free(a);
}

TEST(realloc_keeps_contents_and_zeroes_growth)
{
    cv_arena *a = cv_arena_new();
    char *s = cv_arena_alloc(a, 5);
    memcpy(s, "abcd", 5);
    char *t = cv_arena_realloc(a, s, 5, 40);
    CHECK_STR(t, "abcd");
    size_t nonzero = 0;
    for (size_t i = 5; i < 40; i++)
        nonzero += t[i] != 0;
    CHECK(nonzero == 0);
    /* Not the last allocation any more: a copy. */
    char *u = cv_arena_alloc(a, 3);
    char *v = cv_arena_realloc(a, t, 40, 200);
    CHECK(v != t && u != NULL);
    CHECK_STR(v, "abcd");
    cv_arena_free(a);
}

TEST(reset_forgets_everything)
{
    cv_arena *a = cv_arena_new();
    for (int i = 0; i < 1000; i++)
        memset(cv_arena_alloc(a, 100), 0xFF, 100);
    CHECK(cv_arena_used(a) >= 100000);
    cv_arena_reset(a);
    CHECK(cv_arena_used(a) == 0);
    unsigned char *p = cv_arena_alloc(a, 64);
    CHECK(p[0] == 0 && p[63] == 0);
    cv_arena_free(a);
}

TEST(strbuf_and_printf)
{
    cv_arena *a = cv_arena_new();
    cv_strbuf b = {0};
    for (int i = 0; i < 100; i++)
        cv_strbuf_put(a, &b, "xy", 2);
    CHECK(b.n == 200 && strlen(b.s) == 200);
    CHECK_STR(cv_arena_printf(a, "%d-%s", 42, "z"), "42-z");
    cv_arena_free(a);
}

#if defined(__SANITIZE_ADDRESS__)
/* In a child: write one byte past a 10-byte allocation, where the next
 * allocation would begin without red zones.  ASan must stop the child. */
TEST(asan_sees_overflow_between_allocations)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        /* Keep the report off the test's output. */
        if (!freopen("/dev/null", "w", stderr))
            _exit(3);
        cv_arena *a = cv_arena_new();
        volatile char *p = cv_arena_alloc(a, 10);
        cv_arena_alloc(a, 10);
        p[16] = 1;
        _exit(0);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(!(WIFEXITED(status) && WEXITSTATUS(status) == 0));
}
#endif

int main(void)
{
    RUN(zeroed_and_aligned);
    RUN(realloc_keeps_contents_and_zeroes_growth);
    RUN(reset_forgets_everything);
    RUN(strbuf_and_printf);
#if defined(__SANITIZE_ADDRESS__)
    RUN(asan_sees_overflow_between_allocations);
#endif
    return harness_report("arena");
}
