/* scale.h: the scale room's face. y = a*x over N float32 elements, a a problem parameter. Every
 * rung is a pl_status run(const pl_run_args *) over operands data[0] = x (1 x N, read only)
 * and data[1] = y (1 x N, write only: the harness poisons it). */
#ifndef PL_SCALE_H
#define PL_SCALE_H

#include "parlab.h"

typedef struct pl_scale_problem {
    int64_t N;
    float a;
} pl_scale_problem;

extern const pl_kernel pl_scale_kernel; /* ladder.c */

/* The problem parameters (spec.c), by index into pl_pvalues.num (kernels/ladder.h: counting). */
enum { PL_SCALE_PROBLEM_A, PL_SCALE_PROBLEM_N_PARAMS };
extern const pl_param_def pl_scale_problem_params[];

/* The spec (spec.c). */
pl_status pl_scale_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv);
void pl_scale_spec_describe(const void *problem, char *buf, size_t n);
pl_status pl_scale_spec_operands(const void *problem, pl_tensor *t, int *n);
void pl_scale_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed);
pl_status pl_scale_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale);
double pl_scale_spec_elements(const void *problem);
double pl_scale_spec_bound(const void *problem, pl_precision prec, const char **why);
double pl_scale_spec_bytes(const void *problem);
double pl_scale_spec_bytes_written(const void *problem);

/* The rungs, in ladder order (see ladder.c). */
pl_status pl_scale_cpu_naive(const pl_run_args *a);
pl_status pl_scale_cpu_simd(const pl_run_args *a);

#endif
