/* parlab_rung.h: the signature of your own rung, kernel by kernel, for `parlab bench KERNEL
 * --rung ./libmine.so:my_fn` and `parlab check KERNEL --rung ...`.
 *
 * A rung is a function in a shared library, with C linkage, that takes the arguments of the
 * kernel's pl_* call (parlab.h, part 2) without the context, and returns 0 when it ran (any
 * other value fails the run, and parlab says the value). parlab makes the inputs, poisons the
 * outputs, calls your function, times it and checks every output against its float64
 * reference, exactly as it does for its own rungs.
 *
 *   a CPU rung    takes host pointers and runs on the calling thread (start threads of your
 *                 own if you like: parlab measures the wall time of the call);
 *   a CUDA rung   takes device pointers and the stream parlab times on (last argument): launch
 *                 your kernels on that stream and return without waiting for them. Work left on
 *                 another stream is caught (the run fails: "off-stream work").
 *
 * The library declares what the rung is with PL_RUNG_DECLARE beside the function (optional:
 * without it, the rung is a CPU rung unless `--rung-backend cuda` says otherwise, of the
 * precision of the kernel's first rung). A declaration that names another kernel, or a backend
 * other than --rung-backend, is refused before anything runs (exit 2).
 *
 *   #include "parlab_rung.h"
 *   PL_RUNG_DECLARE(my_sgemm, "gemm", "cpu", "fp32");
 *   int my_sgemm(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda,
 *                const float *B, int64_t ldb, float beta, float *C, int64_t ldc) { ... }
 *
 * Build it with `cc -O2 -shared -fPIC mine.c -o libmine.so -I<parlab>/include` (no link with
 * parlab is needed: this header only declares types). docs/your-kernel.md walks through it. */
#ifndef PARLAB_RUNG_H
#define PARLAB_RUNG_H

#include "parlab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cudaStream_t is `struct CUstream_st *`: the same type, without including CUDA's headers. */
typedef struct CUstream_st *pl_rung_stream;

/* ---- CPU rungs: host pointers. Row-major everywhere; ld* are row pitches in elements. */
typedef int (*pl_rung_gemm)(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda,
                            const float *B, int64_t ldb, float beta, float *C, int64_t ldc);
/* trans 'n' or 't' as pl_sgemv */
typedef int (*pl_rung_gemv)(char trans, int64_t M, int64_t N, float alpha, const float *A, int64_t lda,
                            const float *x, float beta, float *y);
typedef int (*pl_rung_transpose)(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb);
/* op: pl_reduce_op; axis 1 (one value per row) or 0 (per column) */
typedef int (*pl_rung_reduce)(int op, int axis, int64_t M, int64_t N, const float *A, int64_t lda, float *r);
typedef int (*pl_rung_dot)(int64_t N, const float *x, const float *y, float *result);
/* dtype PL_F32 or PL_I32 (float or int32_t data); opts never NULL */
typedef int (*pl_rung_conv2d)(int dtype, int64_t H, int64_t W, const void *image, int64_t ld_img, int K,
                              const void *filter, const pl_conv2d_opts *opts, void *out, int64_t ld_out);
typedef int (*pl_rung_entropy)(int64_t H, int64_t W, const uint8_t *values, int64_t ld, int k, int bins,
                               int base2, float *out, int64_t ld_out);
/* rule canonical ("B3/S23"); torus 1 or 0 (a bounded plane, dead beyond the edge) */
typedef int (*pl_rung_life)(int64_t W, int64_t H, uint64_t *bits, int64_t gens, const char *rule, int torus);

/* ---- CUDA rungs: the same arguments as device pointers (opts, rule: host), then the stream. */
typedef int (*pl_rung_gemm_cuda)(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda,
                                 const float *B, int64_t ldb, float beta, float *C, int64_t ldc,
                                 pl_rung_stream stream);
typedef int (*pl_rung_gemv_cuda)(char trans, int64_t M, int64_t N, float alpha, const float *A, int64_t lda,
                                 const float *x, float beta, float *y, pl_rung_stream stream);
typedef int (*pl_rung_transpose_cuda)(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb,
                                      pl_rung_stream stream);
typedef int (*pl_rung_reduce_cuda)(int op, int axis, int64_t M, int64_t N, const float *A, int64_t lda, float *r,
                                   pl_rung_stream stream);
typedef int (*pl_rung_dot_cuda)(int64_t N, const float *x, const float *y, float *result, pl_rung_stream stream);
typedef int (*pl_rung_conv2d_cuda)(int dtype, int64_t H, int64_t W, const void *image, int64_t ld_img, int K,
                                   const void *filter, const pl_conv2d_opts *opts, void *out, int64_t ld_out,
                                   pl_rung_stream stream);
typedef int (*pl_rung_entropy_cuda)(int64_t H, int64_t W, const uint8_t *values, int64_t ld, int k, int bins,
                                    int base2, float *out, int64_t ld_out, pl_rung_stream stream);
typedef int (*pl_rung_life_cuda)(int64_t W, int64_t H, uint64_t *bits, int64_t gens, const char *rule, int torus,
                                 pl_rung_stream stream);

/* What a library says of its rung: read by parlab as the symbol FN_parlab_rung. */
enum { PL_RUNG_ABI = 1 };
typedef struct pl_rung_decl {
    int abi;               /* PL_RUNG_ABI */
    const char *kernel;    /* "gemm", "conv2d", ... */
    const char *backend;   /* "cpu" or "cuda" */
    const char *precision; /* "fp32", "tf32", "bf16" or "exact" (bf16: the gemm rung's A and B are
                            * bfloat16 bits, uint16_t, behind the float pointers) */
} pl_rung_decl;

#ifdef __cplusplus
#define PL_RUNG_EXTERN_ extern "C"
#else
#define PL_RUNG_EXTERN_ extern
#endif
#define PL_RUNG_DECLARE(fn, kernel, backend, precision)                                                            \
    PL_RUNG_EXTERN_ __attribute__((visibility("default"))) const pl_rung_decl fn##_parlab_rung;                    \
    const pl_rung_decl fn##_parlab_rung = {PL_RUNG_ABI, kernel, backend, precision}

#ifdef __cplusplus
}
#endif
#endif
