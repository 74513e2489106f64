/* check.h: the tests' few assertions. CHECK records a failure with a message and goes on, so
 * one run shows every problem; check_summary prints "N passed, N failed" and gives the exit
 * status. A test that cannot run here (no GPU) calls check_skip, which exits with 77: ctest
 * reports it as skipped, not passed. */
#ifndef PL_TEST_CHECK_H
#define PL_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int check_passed, check_failed;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            check_passed++;                                                                        \
        } else {                                                                                   \
            check_failed++;                                                                        \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static inline int check_summary(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

static inline void check_skip(const char *why)
{
    printf("skipped: %s\n", why);
    exit(77);
}

#endif
