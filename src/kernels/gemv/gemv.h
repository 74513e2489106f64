/* gemv.h: the GEMV room's face. y = alpha*op(A)*x + beta*y with row-major A (M x N, lda),
 * op(A) = A (trans = n: x has N elements, y has M) or A^T (trans = t: x has M, y has N).
 * Every rung is a pl_status run(const pl_run_args *) over operands data[0] = A,
 * data[1] = x, data[2] = y. beta == 0: y is write-only (the harness poisons it with NaN; a
 * rung must not read it). */
#ifndef PL_GEMV_H
#define PL_GEMV_H

#include "parlab.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_gemv_problem {
    int64_t M, N, lda;
    int trans; /* 0: y = alpha*A*x + beta*y; 1: y = alpha*A^T*x + beta*y */
    float alpha, beta;
} pl_gemv_problem;

/* Output i is the dot product of "line" i of op(A) with x: sum_k A[i*stride_i + k*stride_k]
 * * x[k], k < pl_gemv_xlen, i < pl_gemv_ylen. trans = n: lines are rows (stride_k = 1);
 * trans = t: lines are columns (stride_k = lda). */
static inline int64_t pl_gemv_ylen(const pl_gemv_problem *p) { return p->trans ? p->N : p->M; }
static inline int64_t pl_gemv_xlen(const pl_gemv_problem *p) { return p->trans ? p->M : p->N; }
static inline int64_t pl_gemv_stride_i(const pl_gemv_problem *p) { return p->trans ? 1 : p->lda; }
static inline int64_t pl_gemv_stride_k(const pl_gemv_problem *p) { return p->trans ? p->lda : 1; }

extern const pl_kernel pl_gemv_kernel; /* ladder.c */

/* The problem parameters (spec.c), by index into pl_pvalues.num (kernels/ladder.h: counting). */
enum { PL_GEMV_PROBLEM_ALPHA, PL_GEMV_PROBLEM_BETA, PL_GEMV_PROBLEM_TRANS, PL_GEMV_PROBLEM_PAD,
       PL_GEMV_PROBLEM_N_PARAMS };
extern const pl_param_def pl_gemv_problem_params[];

/* The spec (spec.c). */
pl_status pl_gemv_check(const pl_gemv_problem *p);
/* pl_sgemv_variant on a problem struct (api.c), for a caller who built the problem once. */
pl_status pl_gemv_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params, const pl_gemv_problem *p,
                                  const float *A, const float *x, float *y);
pl_status pl_gemv_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv);
void pl_gemv_spec_describe(const void *problem, char *buf, size_t n);
pl_status pl_gemv_spec_operands(const void *problem, pl_tensor *t, int *n);
void pl_gemv_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed);
pl_status pl_gemv_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale);
double pl_gemv_spec_reference_ops(const void *problem);
double pl_gemv_spec_error_bound(const void *problem, pl_precision prec, const char **why);
double pl_gemv_spec_elem_bound(const void *problem, pl_precision prec, const char **why);
double pl_gemv_spec_bytes(const void *problem);
double pl_gemv_spec_bytes_written(const void *problem);
double pl_gemv_spec_flops(const void *problem);

/* The rungs' parameters, by index into pl_run_args.params. cpu-simd's table is defined in
 * cpu_simd.c; the CUDA rungs' tables (block for all four, map for cuda-tuned) in ladder.c. */
enum { PL_GEMV_CPU_SIMD_ISA, PL_GEMV_CPU_SIMD_N_PARAMS };
extern const pl_param_def pl_gemv_cpu_simd_params[];
enum { PL_GEMV_CUDA_BLOCK };                            /* cuda-naive, cuda-shared, cuda-warp */
enum { PL_GEMV_CUDA_TUNED_BLOCK, PL_GEMV_CUDA_TUNED_MAP }; /* cuda-tuned */
enum { PL_GEMV_MAP_AUTO, PL_GEMV_MAP_ROWS, PL_GEMV_MAP_SPLIT, PL_GEMV_MAP_CLUSTER }; /* cuda-tuned's map choices, in order */

/* The rungs, in ladder order (ladder.c). CUDA ones exist only in CUDA builds. */
pl_status pl_gemv_cpu_naive(const pl_run_args *a);
pl_status pl_gemv_cpu_simd(const pl_run_args *a);
pl_status pl_gemv_cuda_naive(const pl_run_args *a);
pl_status pl_gemv_cuda_shared(const pl_run_args *a);
pl_status pl_gemv_cuda_warp(const pl_run_args *a);
pl_status pl_gemv_cuda_tuned(const pl_run_args *a);
pl_status pl_gemv_peer_openblas(const pl_run_args *a);
pl_status pl_gemv_peer_cublas(const pl_run_args *a);

/* A user's rung called with the problem's arguments (api.c; pl_kernel.call_user). */
pl_status pl_gemv_call_user(void (*fn)(void), const pl_run_args *a);

#ifdef __cplusplus
}
#endif
#endif
