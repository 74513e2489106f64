/* cuda_frame.cuh: the frame every CUDA top rung runs in (cuda-tuned, the TF32 tensor-core rungs
 * cuda-mma-tf32, cuda-wgmma-tf32, cuda-wgmma-tma-tf32, cuda-wgmma-persistent-tf32, and the BF16
 * ones cuda-mma-bf16, cuda-wgmma-bf16), written once:
 *   - per context, what the rung learns of its device the first time (pl_gemm_rung_state): the
 *     device's tuning table (cuda_tuning.c: its own, or the stated fallback), its SM count, each
 *     config's resident blocks per SM, and whether the rung's kernels run there at all;
 *   - the entry point (pl_gemm_cuda_run): sizes checked, config and K split resolved for the
 *     shape (cuda_choose.c), split-K workspace, the rung's launch, the split-K reduce;
 *   - the device workspaces the rungs keep between calls.
 * A rung file holds only its kernels, a kernel per config and operand case, their shared memory
 * and a launch function, in a pl_gemm_cuda_rung_def. Private to the GEMM room. */
#ifndef PL_GEMM_CUDA_FRAME_CUH
#define PL_GEMM_CUDA_FRAME_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "core/core.h"
#include "kernels/gemm/cuda_tuning.h"
#include "kernels/gemm/gemm.h"

/* One config launched: what the frame hands a rung's launch function. */
struct pl_gemm_launch {
    const pl_run_args *a; /* context, stream, operands */
    const pl_gemm_problem *p;
    int config;           /* 0-based row of the rung's config table */
    dim3 grid;            /* (output tiles, K slices) */
    int kps;              /* k per slice (cuda_splitk.cuh) */
    float *ws;            /* split-K partials; NULL: K is not split */
};

/* The kernel signature of cuda-tuned and of the cp.async tensor-core rungs: C = alpha*A*B +
 * beta*C over the grid's tiles, K cut in slices of kps (ws: each slice's partials; NULL: one). */
typedef void (*pl_gemm_tile_kernel)(int M, int N, int K, const float *A, int64_t lda, const float *B, int64_t ldb,
                                    float *C, int64_t ldc, float alpha, float beta, int kps, float *ws);

/* Rows 16 bytes apart and the first 16-byte aligned: what a 16-byte cp.async loader needs. */
bool pl_gemm_rows_aligned16(const float *m, int64_t ld);

/* Which of a config's four kernels fits the operands: 2 * (A's rows aligned) + (B's). */
int pl_gemm_operand_case(const pl_gemm_launch &l);

/* k over l's grid (threads, smem bytes) on the context's stream: A and C as given, B with
 * leading dimension ldb (a re-pitched copy's, or the caller's). */
void pl_gemm_launch_tile_kernel(const pl_gemm_launch &l, pl_gemm_tile_kernel k, int threads, size_t smem,
                                const float *B, int64_t ldb);

/* A CUDA top rung as the frame runs it. */
struct pl_gemm_cuda_rung_def {
    const char *name;         /* "cuda-mma-tf32": error messages name it */
    pl_gemm_cuda_rung rung;   /* its configs (cuda_configs.h) and its row of a tuning table */
    int kernels_per_config;   /* one per operand alignment case */
    const void *(*kernel)(int config, int k); /* config's k-th kernel (the last answers occupancy) */
    size_t (*smem_bytes)(const pl_gemm_cfg &c); /* dynamic shared memory of a config's kernels */
    /* Hopper-only rungs: a kernel of the rung's own image that writes 1 where its sm_90a code
     * runs (0 in the portable image); NULL: the rung runs on any GPU of this build. */
    void (*sm90a_probe)(int *out);
    bool needs_tensor_maps;   /* also needs the driver's tensor-map encoder (TMA) */
    pl_status (*launch)(const pl_gemm_launch &l);
};

/* What the frame learns of a device once per rung and context (pl_ctx_state). */
struct pl_gemm_rung_state {
    bool ready;
    pl_gemm_rung_device dev;  /* what the chooser reads: runs here, SMs, occupancy */
    pl_gemm_gpu_tuning tuning;
    pl_gemm_tuning_match match;
    const char *cannot;       /* why it does not run here (dev.runs == 0) */
};

/* Rung r's state in ctx, made by the first call (device checked, table looked up, probes run,
 * the kernels' shared-memory limits raised, occupancy asked). */
pl_status pl_gemm_rung_state_of(pl_ctx *ctx, const pl_gemm_cuda_rung_def &r, pl_gemm_rung_state **st);

/* The entry point of every CUDA top rung: a->params as the rung's `config` and `splitk`. */
pl_status pl_gemm_cuda_run(const pl_run_args *a, const pl_gemm_cuda_rung_def &r);

/* The TF32 tensor-core rungs, which cuda-tf32 (cuda_tf32.cu) picks among, in ladder order. */
extern const pl_gemm_cuda_rung_def pl_gemm_mma_tf32_rung, pl_gemm_wgmma_tf32_rung, pl_gemm_wgmma_tma_tf32_rung,
    pl_gemm_wgmma_persistent_tf32_rung;
/* The BF16 tensor-core rungs. */
extern const pl_gemm_cuda_rung_def pl_gemm_mma_bf16_rung, pl_gemm_wgmma_bf16_rung;

/* What each rung's state does first: check that the context's device is the calling thread's
 * current one (pl_ctx_activate selects it; fails with PL_ERR_CUDA naming `rung` otherwise), and
 * give its SM count (at least 1) in *sms. */
pl_status pl_gemm_ctx_device(const pl_ctx *ctx, const char *rung, int *sms);

/* Device workspaces of the CUDA rungs: the context's device workspace slots (pl_ctx_dev_workspace),
 * grown and kept between calls, shared by the rungs of one context (whose calls come on its one
 * stream), never by two contexts; freed by pl_ctx_destroy. SPLITK holds the partial products of
 * split-K; BT and A hold operands rewritten K-major for the copy engine (cuda-wgmma-tma-tf32: B
 * transposed, A re-pitched when its rows are not 16-byte aligned); B holds cuda-tuned's
 * re-pitched B. */
enum pl_gemm_ws_slot { PL_GEMM_WS_SPLITK = 0, PL_GEMM_WS_BT = 1, PL_GEMM_WS_A = 2, PL_GEMM_WS_B = 3, PL_GEMM_WS_SLOTS = 4 };
static_assert((int)PL_GEMM_WS_SLOTS <= (int)PL_CTX_DEV_WS_SLOTS, "the GEMM slots fit the context's");
pl_status pl_gemm_workspace(pl_ctx *ctx, const char *rung, int slot, size_t bytes, float **ws);

/* Copy a rows x cols matrix (row stride *ld floats) into ctx's workspace `slot` with its rows 16
 * bytes apart (stride cols rounded up to 4) and point *m, *ld at the copy: what lets a rung
 * take its 16-byte (or copy-engine) path when a caller's leading dimension is odd. Enqueued
 * on `stream`; costs a read and a write of the matrix. */
pl_status pl_gemm_repitch(pl_ctx *ctx, const char *rung, int slot, const float **m, int64_t *ld, int64_t rows, int64_t cols,
                          cudaStream_t stream);
/* The same for elements of elem_bytes (2: BF16): rows made 16 bytes apart. */
pl_status pl_gemm_repitch_elems(pl_ctx *ctx, const char *rung, int slot, const void **m, int64_t *ld, int64_t rows,
                                int64_t cols, int elem_bytes, cudaStream_t stream);
/* 16-byte aligned rows of elem_bytes elements (base and ld * elem_bytes). */
bool pl_gemm_rows_aligned16_elems(const void *m, int64_t ld, int elem_bytes);

/* cuda-wgmma-tma-tf32's first steps, which the persistent TF32 rung shares: B transposed and
 * rounded to TF32 into the BT workspace (*bt: N x *ldk, ldk = K rounded up to 4), and A
 * re-pitched into the A workspace when its rows are not 16-byte aligned (*a, *lda updated). */
pl_status pl_gemm_tf32_kmajor(const pl_gemm_launch &l, const char *rung, const float **a, int64_t *lda,
                              const float **bt, int64_t *ldk);

#endif
