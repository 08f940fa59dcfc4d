/* harness.h - a tiny unit-test harness.
 *
 *   TEST(name) { CHECK(cond); CHECK_STR(a, b); CHECK_NUM(a, b, eps); }
 *   int main(void) { RUN(name); ... return harness_report("module"); }
 *
 * Each failed check prints `file:line: check failed: ...` and the test goes
 * on; harness_report() prints "module: N passed, M failed" and returns the
 * process exit status.
 *
 * With TEST_FILTER set in the environment (make check T=module K=PATTERN),
 * RUN() runs only the tests whose name PATTERN matches, a case-insensitive
 * extended regular expression, as the Python suites' -k does.
 */
#ifndef CV_HARNESS_H
#define CV_HARNESS_H

#include <math.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int harness_checks_failed, harness_tests_passed, harness_tests_failed;

/* Whether TEST_FILTER selects the test `name` (every test without one). */
static inline bool harness_selected(const char *name)
{
    static int state;           /* 0 not read yet, 1 no filter, 2 a filter */
    static regex_t re;
    if (!state) {
        const char *f = getenv("TEST_FILTER");
        state = f && *f && !regcomp(&re, f, REG_EXTENDED | REG_ICASE | REG_NOSUB) ? 2 : 1;
        if (f && *f && state == 1)
            fprintf(stderr, "TEST_FILTER: not a regular expression: %s\n", f);
    }
    return state == 1 || !regexec(&re, name, 0, NULL, 0);
}

#define TEST(name) static void name(void)

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                  \
            harness_checks_failed++;                                         \
        }                                                                    \
    } while (0)

#define CHECK_STR(got, want)                                                 \
    do {                                                                     \
        const char *g_ = (got), *w_ = (want);                                \
        if (!g_ || !w_ ? g_ != w_ : strcmp(g_, w_) != 0) {                   \
            fprintf(stderr, "%s:%d: check failed: %s\n  got:  \"%s\"\n  want: \"%s\"\n", \
                    __FILE__, __LINE__, #got, g_ ? g_ : "(null)",             \
                    w_ ? w_ : "(null)");                                     \
            harness_checks_failed++;                                         \
        }                                                                    \
    } while (0)

#define CHECK_NUM(got, want, eps)                                            \
    do {                                                                     \
        double g_ = (got), w_ = (want);                                      \
        if (!(fabs(g_ - w_) <= (eps))) {                                     \
            fprintf(stderr, "%s:%d: check failed: %s = %g, want %g\n",       \
                    __FILE__, __LINE__, #got, g_, w_);                        \
            harness_checks_failed++;                                         \
        }                                                                    \
    } while (0)

#define RUN(name)                                                            \
    do {                                                                     \
        if (!harness_selected(#name))                                        \
            break;                                                           \
        int before_ = harness_checks_failed;                                 \
        name();                                                              \
        if (harness_checks_failed == before_)                                \
            harness_tests_passed++;                                          \
        else {                                                               \
            harness_tests_failed++;                                          \
            fprintf(stderr, "FAIL %s\n", #name);                             \
        }                                                                    \
    } while (0)

static inline int harness_report(const char *module)
{
    if (harness_tests_passed + harness_tests_failed == 0 && getenv("TEST_FILTER"))
        printf("no test of %s matches %s\n", module, getenv("TEST_FILTER"));
    printf("%s: %d passed, %d failed\n", module, harness_tests_passed,
           harness_tests_failed);
    return harness_tests_failed ? 1 : 0;
}

#endif
