/* check.h: the tests' few assertions. CHECK records a failure with a message and goes on, so
 * one run shows every problem; check_summary prints "N passed, N failed" and gives the exit
 * status. A test that cannot run here (no GPU) calls check_skip, which exits with 77: ctest
 * reports it as skipped, not passed. cpu_rung_may_skip tells a real lack from a wrong refusal. */
#ifndef PL_TEST_CHECK_H
#define PL_TEST_CHECK_H

#include "parlab.h"

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

/* A rung that pl_variant_check refused (why: its reason) may be skipped only for a real lack:
 * a rung of another backend; a peer whose library this build lacks or whose ISA the CPU lacks;
 * a parlab CPU rung that needs AVX2 where pl_features() (the CPU, less what PARLAB_ISA_MAX
 * hides) has none. A parlab CPU rung declaring AVX-512 is never a reason (one binary, the ISA
 * chosen inside the rung at run time: rungs need at most AVX2), nor is any other refusal: those
 * are failures, not a green skip. Prints "skipped: ..." and returns 1 where the skip is real. */
static inline int cpu_rung_may_skip(const pl_variant *v, const char *label, const char *why)
{
    unsigned missing = v->requires & ~pl_features();
    unsigned may_lack = v->is_peer ? PL_FEAT_AVX2 | PL_FEAT_AVX512 | PL_FEAT_OPENBLAS : PL_FEAT_AVX2;
    int real = v->backend != PL_BACKEND_CPU ||
               (missing != 0 && (missing & ~may_lack) == 0 && (v->is_peer || !(v->requires & PL_FEAT_AVX512)));
    if (real) printf("skipped: %s: %s\n", label, why);
    else CHECK(0, "%s refused on a CPU that has what it needs: %s (requires 0x%x, this CPU 0x%x)", label, why,
               v->requires, pl_features());
    return real;
}

#endif
