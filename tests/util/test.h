/* tests/util/test.h - a tiny test harness (cglm/redis style).
 *
 * Each tests/unit/test_<module>.c is its own program:
 *
 *     TEST(parses_header) { CHECK(x == 1); CHECK_NEAR(a, b, 1e-6); }
 *     int main(void) { RUN(parses_header); return test_finish(); }
 *
 * Output is TAP-like ("ok 3 - name", "not ok 4 - name", "ok 5 - name # SKIP why")
 * and ends with "# counts: P passed, F failed, S skipped", which tests/run.sh
 * adds up into the suite's closing line. SKIP("skipped: no ../shared") ends
 * the current test as skipped.
 */
#ifndef MMD_TEST_H
#define MMD_TEST_H

#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct test_state {
    int passed, failed, skipped, index;
    int cur_failed;
    const char *skip_reason;
    jmp_buf jb;
} test_state;

/* test-only global: the harness state of this test program */
extern test_state test_g;

#define TEST(name) static void name(void)

#define TEST_STATE_DEFINE test_state test_g;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            printf("#   %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);        \
            test_g.cur_failed++;                                                       \
        }                                                                              \
    } while (0)

#define REQUIRE(cond)                                                                  \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            printf("#   %s:%d: REQUIRE(%s) failed\n", __FILE__, __LINE__, #cond);      \
            test_g.cur_failed++;                                                       \
            longjmp(test_g.jb, 1);                                                     \
        }                                                                              \
    } while (0)

#define CHECK_NEAR(a, b, eps)                                                          \
    do {                                                                               \
        double a_ = (double)(a), b_ = (double)(b);                                     \
        if (!(fabs(a_ - b_) <= (eps))) {                                               \
            printf("#   %s:%d: CHECK_NEAR(%s, %s) failed: %.9g vs %.9g (eps %g)\n",    \
                   __FILE__, __LINE__, #a, #b, a_, b_, (double)(eps));                 \
            test_g.cur_failed++;                                                       \
        }                                                                              \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                             \
    do {                                                                               \
        long long a_ = (long long)(a), b_ = (long long)(b);                            \
        if (a_ != b_) {                                                                \
            printf("#   %s:%d: CHECK_EQ_INT(%s, %s) failed: %lld vs %lld\n", __FILE__, \
                   __LINE__, #a, #b, a_, b_);                                          \
            test_g.cur_failed++;                                                       \
        }                                                                              \
    } while (0)

#define CHECK_STR(a, b)                                                                \
    do {                                                                               \
        const char *a_ = (a), *b_ = (b);                                               \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                       \
            printf("#   %s:%d: CHECK_STR(%s, %s) failed: \"%s\" vs \"%s\"\n", __FILE__, \
                   __LINE__, #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)");          \
            test_g.cur_failed++;                                                       \
        }                                                                              \
    } while (0)

#define SKIP(reason)                                                                   \
    do {                                                                               \
        test_g.skip_reason = (reason);                                                 \
        longjmp(test_g.jb, 2);                                                         \
    } while (0)

static inline void test_run(const char *name, void (*fn)(void))
{
    test_g.index++;
    test_g.cur_failed = 0;
    test_g.skip_reason = NULL;
    int jr = setjmp(test_g.jb);
    if (jr == 0)
        fn();
    if (jr == 2) {
        test_g.skipped++;
        printf("ok %d - %s # SKIP %s\n", test_g.index, name, test_g.skip_reason);
    } else if (test_g.cur_failed) {
        test_g.failed++;
        printf("not ok %d - %s\n", test_g.index, name);
    } else {
        test_g.passed++;
        printf("ok %d - %s\n", test_g.index, name);
    }
    fflush(stdout);
}

#define RUN(name) test_run(#name, name)

static inline int test_finish(void)
{
    printf("# counts: %d passed, %d failed, %d skipped\n", test_g.passed, test_g.failed,
           test_g.skipped);
    return test_g.failed ? 1 : 0;
}

/* Paths to ../shared, from make variables (see Makefile). */
#ifndef MMD_SHARED_ASSETS
#define MMD_SHARED_ASSETS "../shared/assets"
#endif
#ifndef MMD_SHARED_REFERENCE
#define MMD_SHARED_REFERENCE "../shared/reference"
#endif

#endif
