/* cuda_configs.h: the tile configurations of the CUDA top rungs, as data. One table per rung;
 * `--param config=n` of a rung is row n-1 of its table. The kernels are template instances of
 * these rows (the rung files read them as constant expressions) and the chooser reads the same
 * rows (cuda_choose.c, host C): the shapes are written here once. How fast each row runs on a
 * given GPU is not here: that is the tuning table (cuda_tuning.c). C and CUDA both read this;
 * PL_COUNT (kernels/ladder.h) counts a table. */
#ifndef PL_GEMM_CUDA_CONFIGS_H
#define PL_GEMM_CUDA_CONFIGS_H

#include "kernels/ladder.h"

#ifdef __cplusplus
#define PL_GEMM_CFG_TABLE static constexpr
#else
#define PL_GEMM_CFG_TABLE __attribute__((unused)) static const
#endif

/* The CUDA top rungs that pick a tile config per shape, in ladder order. */
typedef enum pl_gemm_cuda_rung {
    PL_GEMM_RUNG_TUNED = 0,          /* cuda-tuned: FP32 FFMA on the CUDA cores */
    PL_GEMM_RUNG_MMA_TF32,           /* cuda-mma-tf32: tensor cores through mma.sync m16n8k8 */
    PL_GEMM_RUNG_WGMMA_TF32,         /* cuda-wgmma-tf32: Hopper wgmma, tiles staged by cp.async */
    PL_GEMM_RUNG_WGMMA_TMA_TF32,     /* cuda-wgmma-tma-tf32: Hopper wgmma fed by the copy engine */
    PL_GEMM_RUNG_WGMMA_PERSISTENT_TF32, /* cuda-wgmma-persistent-tf32: the same, a block per SM for all tiles */
    PL_GEMM_RUNG_MMA_BF16,           /* cuda-mma-bf16: tensor cores in BF16 through mma.sync m16n8k16 */
    PL_GEMM_RUNG_WGMMA_BF16,         /* cuda-wgmma-bf16: the persistent wgmma kernel in BF16 */
    PL_GEMM_CUDA_RUNGS
} pl_gemm_cuda_rung;

enum { PL_GEMM_MAX_CONFIGS = 16 };

/* One tile configuration. A rung reads the fields its kernel takes; the rest stay 0. */
typedef struct pl_gemm_cfg {
    int bm, bn, bk;       /* block tile: rows of C, columns of C, k per pipeline stage */
    int stages;           /* k tiles held in shared memory at once (the cp.async or TMA ring) */
    int warps;            /* warps per block (its threads: 32 * warps) */
    int warps_m, warps_n; /* cuda-tuned, cuda-mma-tf32: the warps' grid over the block tile */
    int tm;               /* cuda-tuned: rows of C per thread (8 or 16; 8 columns each) */
    int warpgroups;       /* cuda-wgmma-tf32: consumer warpgroups, 64 columns of C each */
    int truncates;        /* tensor cores: operands truncated to TF32, not rounded (cvt.rna);
                           * such a config runs only when named, never by auto */
    int transposes_b;     /* B is copied K-major (and rounded) before the kernel runs */
} pl_gemm_cfg;

/* cuda-tuned: warps of 32 x 64 outputs, tm x 8 per thread (bm = 4 tm warps_m, bn = 64 warps_n).
 * 7 and 8 are 3 and 4 with BK = 32 (half the barriers and loader work per FFMA). */
PL_GEMM_CFG_TABLE pl_gemm_cfg pl_gemm_tuned_cfgs[] = {
    {.bm = 128, .bn = 128, .bk = 16, .stages = 4, .warps = 8, .warps_m = 4, .warps_n = 2, .tm = 8},
    {.bm = 128, .bn = 128, .bk = 16, .stages = 4, .warps = 4, .warps_m = 2, .warps_n = 2, .tm = 16},
    {.bm = 128, .bn = 256, .bk = 16, .stages = 3, .warps = 8, .warps_m = 2, .warps_n = 4, .tm = 16},
    {.bm = 256, .bn = 128, .bk = 16, .stages = 3, .warps = 8, .warps_m = 4, .warps_n = 2, .tm = 16},
    {.bm = 128, .bn = 64, .bk = 16, .stages = 4, .warps = 4, .warps_m = 4, .warps_n = 1, .tm = 8},
    {.bm = 64, .bn = 128, .bk = 16, .stages = 4, .warps = 2, .warps_m = 1, .warps_n = 2, .tm = 16},
    {.bm = 128, .bn = 256, .bk = 32, .stages = 3, .warps = 8, .warps_m = 2, .warps_n = 4, .tm = 16},
    {.bm = 256, .bn = 128, .bk = 32, .stages = 3, .warps = 8, .warps_m = 4, .warps_n = 2, .tm = 16},
};

/* cuda-mma-tf32: warps of (bm / warps_m) x (bn / warps_n) outputs made of m16n8k8 MMAs. */
PL_GEMM_CFG_TABLE pl_gemm_cfg pl_gemm_mma_tf32_cfgs[] = {
    {.bm = 128, .bn = 256, .bk = 32, .stages = 3, .warps = 8, .warps_m = 2, .warps_n = 4},  /* 155 KB smem */
    {.bm = 256, .bn = 128, .bk = 32, .stages = 3, .warps = 8, .warps_m = 4, .warps_n = 2},  /* 160 KB */
    {.bm = 128, .bn = 256, .bk = 32, .stages = 4, .warps = 8, .warps_m = 2, .warps_n = 4},  /* 204 KB */
    {.bm = 128, .bn = 256, .bk = 32, .stages = 3, .warps = 8, .warps_m = 2, .warps_n = 4, .truncates = 1},
    {.bm = 64, .bn = 128, .bk = 32, .stages = 4, .warps = 4, .warps_m = 2, .warps_n = 2},   /* 103 KB, 2 a SM */
    {.bm = 128, .bn = 128, .bk = 32, .stages = 4, .warps = 4, .warps_m = 2, .warps_n = 2},  /* 140 KB */
};

/* cuda-wgmma-tf32: warpgroup w owns columns [64w, 64w + 64) of the tile and all bm rows
 * (one wgmma m64n<bm>k8 per k8 step). */
PL_GEMM_CFG_TABLE pl_gemm_cfg pl_gemm_wgmma_tf32_cfgs[] = {
    {.bm = 128, .bn = 256, .bk = 32, .stages = 4, .warps = 16, .warpgroups = 4},  /* 200 KB smem */
    {.bm = 128, .bn = 256, .bk = 32, .stages = 4, .warps = 16, .warpgroups = 4, .truncates = 1},
    {.bm = 128, .bn = 128, .bk = 32, .stages = 3, .warps = 8, .warpgroups = 2},   /* 2 blocks a SM */
    {.bm = 256, .bn = 128, .bk = 32, .stages = 4, .warps = 8, .warpgroups = 2},   /* m64n256 */
};

/* cuda-wgmma-tma-tf32: one producer warpgroup and two consumer warpgroups (12 warps), tile
 * bm x 128, B transposed first. */
PL_GEMM_CFG_TABLE pl_gemm_cfg pl_gemm_wgmma_tma_tf32_cfgs[] = {
    {.bm = 256, .bn = 128, .bk = 32, .stages = 4, .warps = 12, .transposes_b = 1},  /* m64n256, 193 KB */
    {.bm = 128, .bn = 128, .bk = 32, .stages = 6, .warps = 12, .transposes_b = 1},  /* m64n128, 193 KB */
};

/* cuda-mma-bf16: 8 warps of 64 x 32 (m16n8k16 MMAs), 4 stages, 76 KB: 2 blocks a SM. */
PL_GEMM_CFG_TABLE pl_gemm_cfg pl_gemm_mma_bf16_cfgs[] = {
    {.bm = 128, .bn = 128, .bk = 32, .stages = 4, .warps = 8, .warps_m = 2, .warps_n = 4},
};

/* cuda-wgmma-bf16: cuda_wgmma_ws.cuh's kernel in BF16, k 64 a stage (128-byte rows). */
PL_GEMM_CFG_TABLE pl_gemm_cfg pl_gemm_wgmma_bf16_cfgs[] = {
    {.bm = 128, .bn = 256, .bk = 64, .stages = 4, .warps = 12},  /* 193 KB */
};

/* cuda-wgmma-persistent-tf32: cuda_wgmma_ws.cuh's kernel, a block per SM, 4 stages of 48 KB:
 * 1 two consumer warpgroups of m64n256 over a 128 x 256 tile, B transposed first; 2 C^T over a
 * 256 x 128 tile, B^T's fragments through registers from B as it lies: no transpose. */
PL_GEMM_CFG_TABLE pl_gemm_cfg pl_gemm_wgmma_persistent_tf32_cfgs[] = {
    {.bm = 128, .bn = 256, .bk = 32, .stages = 4, .warps = 12, .transposes_b = 1},  /* 193 KB */
    {.bm = 256, .bn = 128, .bk = 32, .stages = 4, .warps = 12},                     /* 193 KB */
};

#endif
