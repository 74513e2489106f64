/* transpose.h: the transpose room's face. B = A^T out of place, row-major, any M x N, with
 * leading dimensions. Every rung is a pl_status run(const pl_run_args *) over operands
 * data[0] = A (M x N, lda >= N, read only) and data[1] = B (N x M, ldb >= M, write only: the
 * harness poisons it). Exact: a transpose moves values, so results are compared for equality. */
#ifndef PL_TRANSPOSE_H
#define PL_TRANSPOSE_H

#include "parlab.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_transpose_problem {
    int64_t M, N;     /* A is M x N, B is N x M */
    int64_t lda, ldb; /* lda >= N, ldb >= M */
} pl_transpose_problem;

extern const pl_kernel pl_transpose_kernel; /* ladder.c */

/* The problem parameters (spec.c), by index into pl_pvalues.num (kernels/ladder.h: counting). */
enum { PL_TRANSPOSE_PROBLEM_PAD, PL_TRANSPOSE_PROBLEM_N_PARAMS };
extern const pl_param_def pl_transpose_problem_params[];

/* The spec (spec.c). */
pl_status pl_transpose_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv);
void pl_transpose_spec_describe(const void *problem, char *buf, size_t n);
pl_status pl_transpose_spec_operands(const void *problem, pl_tensor *t, int *n);
void pl_transpose_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed);
pl_status pl_transpose_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref,
                                      pl_tensor *scale);
double pl_transpose_spec_elements(const void *problem);
double pl_transpose_spec_bound(const void *problem, pl_precision prec, const char **why);
double pl_transpose_spec_ops(const void *problem);
double pl_transpose_spec_bytes(const void *problem);
double pl_transpose_spec_bytes_written(const void *problem);

/* Validate sizes and leading dimensions, with a message naming the problem. */
pl_status pl_transpose_check(const pl_transpose_problem *p);
/* pl_stranspose_variant on a problem struct (api.c), for a caller who built the problem once. */
pl_status pl_transpose_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params,
                                       const pl_transpose_problem *p, const float *A, float *B);

/* The rungs' parameters, by index into pl_run_args.params; each table is defined beside its rung. */
enum { PL_TRANSPOSE_CPU_BLOCKED_TILE, PL_TRANSPOSE_CPU_BLOCKED_ISA, PL_TRANSPOSE_CPU_BLOCKED_STORE,
       PL_TRANSPOSE_CPU_BLOCKED_N_PARAMS };
enum { PL_TRANSPOSE_CUDA_NAIVE_BLOCK, PL_TRANSPOSE_CUDA_NAIVE_N_PARAMS };   /* cuda-naive-read, -write */
enum { PL_TRANSPOSE_CUDA_SHARED_BLOCK, PL_TRANSPOSE_CUDA_SHARED_N_PARAMS }; /* cuda-shared, -padded */
enum { PL_TRANSPOSE_CUDA_TUNED_BLOCK, PL_TRANSPOSE_CUDA_TUNED_VEC, PL_TRANSPOSE_CUDA_TUNED_ALIGN,
       PL_TRANSPOSE_CUDA_TUNED_ORDER, PL_TRANSPOSE_CUDA_TUNED_N_PARAMS };
extern const pl_param_def pl_transpose_cpu_blocked_params[]; /* cpu_blocked.c */
extern const pl_param_def pl_transpose_cuda_naive_params[];  /* cuda_naive.cu */
extern const pl_param_def pl_transpose_cuda_shared_params[]; /* cuda_shared.cu */
extern const pl_param_def pl_transpose_cuda_tuned_params[];  /* cuda_tuned.cu */

/* The rungs, in ladder order (see ladder.c). CUDA ones exist only in CUDA builds. */
pl_status pl_transpose_cpu_naive(const pl_run_args *a);
pl_status pl_transpose_cpu_blocked(const pl_run_args *a);
pl_status pl_transpose_cuda_naive_read(const pl_run_args *a);
pl_status pl_transpose_cuda_naive_write(const pl_run_args *a);
pl_status pl_transpose_cuda_shared(const pl_run_args *a);
pl_status pl_transpose_cuda_shared_padded(const pl_run_args *a);
pl_status pl_transpose_cuda_tuned(const pl_run_args *a);
pl_status pl_transpose_peer_openblas(const pl_run_args *a);
pl_status pl_transpose_peer_cublas(const pl_run_args *a);

/* A user's rung called with the problem's arguments (api.c; pl_kernel.call_user). */
pl_status pl_transpose_call_user(void (*fn)(void), const pl_run_args *a);

#ifdef __cplusplus
}
#endif
#endif
