/* reduce.h: the reduce room's face. Two kernels share it:
 *   reduce: r = op over each row (axis 1: r is 1 x M) or each column (axis 0: r is 1 x N) of a
 *           float32 M x N matrix A (row pitch lda = N + offset); op in sum, mean, min, max,
 *           sumsq. Operands data[0] = A (IN), data[1] = r (OUT).
 *   dot:    r = sum_i x_i y_i over two vectors of length N. data[0] = x, data[1] = y (IN),
 *           data[2] = r (OUT, 1 x 1).
 * min and max propagate NaN as NumPy does (a NaN among the terms gives NaN). */
#ifndef PL_REDUCE_H
#define PL_REDUCE_H

#include "parlab.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define PL_REDUCE_HD __host__ __device__
#else
#define PL_REDUCE_HD
#endif

/* pl_reduce_op (PL_REDUCE_SUM ...) is public: include/parlab.h. */

typedef struct pl_reduce_problem {
    int64_t M, N, lda;
    int op;     /* pl_reduce_op */
    int axis;   /* 1: one value per row; 0: one value per column (NumPy's axis) */
    int64_t offset;
} pl_reduce_problem;

typedef struct pl_dot_problem {
    int64_t N;
} pl_dot_problem;

extern const pl_kernel pl_reduce_kernel, pl_dot_kernel; /* ladder.c */
extern const char *const pl_reduce_op_names[];          /* "sum", "mean", ... NULL */

/* Validate sizes, pitch and op, with a message naming the problem. */
pl_status pl_reduce_check(const pl_reduce_problem *p);
pl_status pl_dot_check(const pl_dot_problem *p);

/* A named rung on a problem struct a caller built once (api.c): the checks of pl_sreduce /
 * pl_sdot on the struct, then the run. */
pl_status pl_reduce_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params,
                                    const pl_reduce_problem *p, const float *A, float *r);
pl_status pl_dot_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params, const pl_dot_problem *p,
                                 const float *x, const float *y, float *result);
/* Terms per output and the number of outputs. */
static inline PL_REDUCE_HD int64_t pl_reduce_terms(const pl_reduce_problem *p) { return p->axis ? p->N : p->M; }
static inline PL_REDUCE_HD int64_t pl_reduce_outputs(const pl_reduce_problem *p) { return p->axis ? p->M : p->N; }

/* The spec (spec.c). */
pl_status pl_reduce_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv);
void pl_reduce_spec_describe(const void *problem, char *buf, size_t n);
pl_status pl_reduce_spec_operands(const void *problem, pl_tensor *t, int *n);
void pl_reduce_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed);
pl_status pl_reduce_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale);
double pl_reduce_spec_reference_ops(const void *problem);
double pl_reduce_spec_error_bound(const void *problem, pl_precision prec, const char **why);
double pl_reduce_spec_elem_bound(const void *problem, pl_precision prec, const char **why);
double pl_reduce_spec_ops(const void *problem);
double pl_reduce_spec_bytes(const void *problem);
double pl_reduce_spec_bytes_written(const void *problem);

pl_status pl_dot_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv);
void pl_dot_spec_describe(const void *problem, char *buf, size_t n);
pl_status pl_dot_spec_operands(const void *problem, pl_tensor *t, int *n);
void pl_dot_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed);
pl_status pl_dot_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale);
double pl_dot_spec_reference_ops(const void *problem);
double pl_dot_spec_error_bound(const void *problem, pl_precision prec, const char **why);
double pl_dot_spec_elem_bound(const void *problem, pl_precision prec, const char **why);
double pl_dot_spec_ops(const void *problem);
double pl_dot_spec_bytes(const void *problem);
double pl_dot_spec_bytes_written(const void *problem);

/* The problem parameters of reduce (spec.c; dot has none), by index into pl_pvalues.num
 * (kernels/ladder.h: counting). */
enum { PL_REDUCE_PROBLEM_OP, PL_REDUCE_PROBLEM_AXIS, PL_REDUCE_PROBLEM_OFFSET, PL_REDUCE_PROBLEM_N_PARAMS };
extern const pl_param_def pl_reduce_problem_params[];

/* The rungs' parameters, by index into pl_run_args.params; reduce and dot share both tables. */
enum { PL_REDUCE_CPU_SIMD_ISA, PL_REDUCE_CPU_SIMD_N_PARAMS };
enum { PL_REDUCE_CUDA_BLOCK, PL_REDUCE_CUDA_BLOCK_N_PARAMS }; /* every CUDA rung */
extern const pl_param_def pl_reduce_cpu_simd_params[];   /* cpu_simd.c */
extern const pl_param_def pl_reduce_cuda_block_params[]; /* cuda_naive.cu */

/* The rungs, in ladder order (ladder.c). CUDA ones exist only in CUDA builds. */
pl_status pl_reduce_cpu_naive(const pl_run_args *a);
pl_status pl_reduce_cpu_simd(const pl_run_args *a);
pl_status pl_reduce_cuda_naive(const pl_run_args *a);
pl_status pl_reduce_cuda_shared_interleaved(const pl_run_args *a);
pl_status pl_reduce_cuda_shared_sequential(const pl_run_args *a);
pl_status pl_reduce_cuda_warp(const pl_run_args *a);
pl_status pl_reduce_cuda_tuned(const pl_run_args *a);
pl_status pl_reduce_peer_cub(const pl_run_args *a);
pl_status pl_dot_cpu_naive(const pl_run_args *a);
pl_status pl_dot_cpu_simd(const pl_run_args *a);
pl_status pl_dot_cuda_tuned(const pl_run_args *a);
pl_status pl_dot_peer_openblas(const pl_run_args *a);
pl_status pl_dot_peer_cublas(const pl_run_args *a);

/* Device workspace slots of the reduce room (second-pass partials, CUB's temp storage). */
enum { PL_REDUCE_WS_PARTIALS = 6, PL_REDUCE_WS_CUB = 7 };

/* min and max as NumPy has them: a NaN in either operand gives NaN. */
static inline PL_REDUCE_HD float pl_reduce_min2(float a, float b) { return (a < b || a != a) ? a : b; }
static inline PL_REDUCE_HD float pl_reduce_max2(float a, float b) { return (a > b || a != a) ? a : b; }

/* A user's rung called with the problem's arguments (api.c; pl_kernel.call_user). */
pl_status pl_reduce_call_user(void (*fn)(void), const pl_run_args *a);
pl_status pl_dot_call_user(void (*fn)(void), const pl_run_args *a);

#ifdef __cplusplus
}
#endif
#endif
