/* gemm.h: the GEMM room's face. C = alpha*A*B + beta*C, row-major, any M, N, K, with
 * leading dimensions. Every rung is a pl_status run(const pl_run_args *) over
 * operands data[0] = A (M x K, lda), data[1] = B (K x N, ldb), data[2] = C (M x N, ldc).
 * beta == 0: C is write-only (the harness poisons it with NaN; a rung must not read it).
 * A and B are float32, or with dtype bf16 (the problem's dtype PL_BF16) bfloat16 as uint16_t
 * bits, lda and ldb still in elements; C is float32 always. A BF16 rung (precision
 * PL_PREC_BF16) is given dtype bf16 problems only, every other rung dtype f32 only (the
 * kernel's takes hook; the harness refuses the rest before a rung runs). */
#ifndef PL_GEMM_H
#define PL_GEMM_H

#include "parlab.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_gemm_problem {
    int64_t M, N, K;
    int64_t lda, ldb, ldc;
    float alpha, beta;
    pl_dtype dtype; /* A's and B's: PL_F32 (0, the default) or PL_BF16 */
} pl_gemm_problem;

extern const pl_kernel pl_gemm_kernel; /* ladder.c */

/* The problem parameters (spec.c), by index into pl_pvalues.num (kernels/ladder.h: counting). */
enum { PL_GEMM_PROBLEM_ALPHA, PL_GEMM_PROBLEM_BETA, PL_GEMM_PROBLEM_PAD, PL_GEMM_PROBLEM_DTYPE,
       PL_GEMM_PROBLEM_N_PARAMS };
/* The dtype parameter's choices, in order (its value is the index). */
enum { PL_GEMM_DTYPE_F32, PL_GEMM_DTYPE_BF16 };
extern const pl_param_def pl_gemm_problem_params[];

/* The spec (spec.c): the pl_kernel functions, independent of any rung. */
pl_status pl_gemm_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv);
void pl_gemm_spec_describe(const void *problem, char *buf, size_t n);
pl_status pl_gemm_spec_operands(const void *problem, pl_tensor *t, int *n);
void pl_gemm_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed);
pl_status pl_gemm_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale);
double pl_gemm_spec_reference_ops(const void *problem);
double pl_gemm_spec_error_bound(const void *problem, pl_precision prec, const char **why);
double pl_gemm_spec_elem_bound(const void *problem, pl_precision prec, const char **why);
pl_status pl_gemm_spec_check_sampled(const void *problem, const pl_tensor *t, int n, const pl_tensor *out,
                                     pl_precision prec, uint64_t seed, pl_check_result *res);
double pl_gemm_spec_flops(const void *problem);
double pl_gemm_spec_bytes(const void *problem);
double pl_gemm_spec_bytes_written(const void *problem);
int pl_gemm_spec_takes(const void *problem, const pl_variant *v, char *why, size_t n);

/* Validate sizes and leading dimensions, with a message naming the problem. */
pl_status pl_gemm_check(const pl_gemm_problem *p);
/* pl_sgemm_variant on a problem struct (api.c): the caller who built the problem once (the
 * file tool) runs that one. A and B are of p->dtype (float32, or bfloat16 bits); variant NULL:
 * the best rung of the context that takes the problem. */
pl_status pl_gemm_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params, const pl_gemm_problem *p,
                                  const void *A, const void *B, float *C);

/* The rungs' parameters, by index into pl_run_args.params; each table is defined beside its rung. */
enum { PL_GEMM_CPU_SIMD_ISA, PL_GEMM_CPU_SIMD_N_PARAMS };
enum { PL_GEMM_CPU_SIMD_BLOCKED_BLOCK, PL_GEMM_CPU_SIMD_BLOCKED_ISA, PL_GEMM_CPU_SIMD_BLOCKED_N_PARAMS };
enum { PL_GEMM_CPU_PACKED_MC, PL_GEMM_CPU_PACKED_KC, PL_GEMM_CPU_PACKED_NC, PL_GEMM_CPU_PACKED_ISA,
       PL_GEMM_CPU_PACKED_N_PARAMS };
enum { PL_GEMM_CUDA_NAIVE_BLOCK, PL_GEMM_CUDA_NAIVE_N_PARAMS };
enum { PL_GEMM_CUDA_SHARED_TILE, PL_GEMM_CUDA_SHARED_N_PARAMS };
/* The CUDA top rungs (cuda-tuned and the tensor-core rungs, TF32 and BF16) share theirs: `config`, a row
 * of the rung's table in cuda_configs.h (1-based; 0: chosen per shape), and `splitk` (0: chosen). */
enum { PL_GEMM_CUDA_CONFIG, PL_GEMM_CUDA_SPLITK, PL_GEMM_CUDA_N_PARAMS };
extern const pl_param_def pl_gemm_cpu_simd_params[];         /* cpu_simd.c */
extern const pl_param_def pl_gemm_cpu_simd_blocked_params[]; /* cpu_simd.c */
extern const pl_param_def pl_gemm_cpu_packed_params[];       /* cpu_packed.c */
extern const pl_param_def pl_gemm_cuda_naive_params[];       /* cuda_naive.cu */
extern const pl_param_def pl_gemm_cuda_shared_params[];      /* cuda_shared.cu */
extern const pl_param_def pl_gemm_cuda_tuned_params[];       /* cuda_params.c, as the next three */
extern const pl_param_def pl_gemm_cuda_mma_tf32_params[];
extern const pl_param_def pl_gemm_cuda_wgmma_tf32_params[];
extern const pl_param_def pl_gemm_cuda_wgmma_tma_tf32_params[];
extern const pl_param_def pl_gemm_cuda_wgmma_persistent_tf32_params[];
extern const pl_param_def pl_gemm_cuda_mma_bf16_params[];
extern const pl_param_def pl_gemm_cuda_wgmma_bf16_params[];


/* The rungs, in ladder order (see ladder.c). CUDA ones exist only in CUDA builds. */
pl_status pl_gemm_cpu_naive(const pl_run_args *a);
pl_status pl_gemm_cpu_naive_bf16(const pl_run_args *a);
pl_status pl_gemm_cpu_simd(const pl_run_args *a);
pl_status pl_gemm_cpu_simd_blocked(const pl_run_args *a);
pl_status pl_gemm_cpu_packed(const pl_run_args *a);
pl_status pl_gemm_cuda_naive(const pl_run_args *a);
pl_status pl_gemm_cuda_shared(const pl_run_args *a);
pl_status pl_gemm_cuda_tuned(const pl_run_args *a);
pl_status pl_gemm_cuda_mma_tf32(const pl_run_args *a);
pl_status pl_gemm_cuda_wgmma_tf32(const pl_run_args *a);
pl_status pl_gemm_cuda_wgmma_tma_tf32(const pl_run_args *a);
pl_status pl_gemm_cuda_wgmma_persistent_tf32(const pl_run_args *a);
pl_status pl_gemm_cuda_tf32(const pl_run_args *a);
/* The BF16 tensor-core rungs (cuda_mma_bf16.cu, cuda_wgmma_bf16.cu). */
pl_status pl_gemm_cuda_mma_bf16(const pl_run_args *a);
pl_status pl_gemm_cuda_wgmma_bf16(const pl_run_args *a);
pl_status pl_gemm_peer_openblas(const pl_run_args *a);
pl_status pl_gemm_peer_openblas_skx(const pl_run_args *a);
pl_status pl_gemm_peer_cublas(const pl_run_args *a);
pl_status pl_gemm_peer_cublas_tf32(const pl_run_args *a);
pl_status pl_gemm_peer_cublas_bf16(const pl_run_args *a);

/* The operands of `parlab gemm` as read from their files: A (a_name, M x K) and B (K x N)
 * multiply, and C0 (c0 NULL: none) is M x N; else PL_ERR_ARG naming the files and shapes. */
pl_status pl_gemm_check_shapes(const char *a_name, const int64_t *a, const char *b_name, const int64_t *b,
                               const char *c0_name, const int64_t *c0);

/* A user's rung called with the problem's arguments (api.c; pl_kernel.call_user). */
pl_status pl_gemm_call_user(void (*fn)(void), const pl_run_args *a);

#ifdef __cplusplus
}
#endif
#endif
