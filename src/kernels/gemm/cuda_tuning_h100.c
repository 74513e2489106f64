/* cuda_tuning_h100.c: the H100's numbers for the CUDA top rungs (NVIDIA H100 80GB HBM3, SXM,
 * 132 SMs, sm_90), data only: the model that reads them is cuda_choose.c. Rates were measured
 * at 4096 with splitk=1 (`scripts/gpu_gemm_targets.sh`, sweeps; docs/notes/gemm-cuda.md). */
#include "kernels/gemm/cuda_tuning.h"

/* cuda-tuned, in seconds. Blocks spread over the SMs, at most occ at a time on one; an SM runs
 * at full rate only with >= 8 warps resident (fewer hide too little latency: 1 or 2 small
 * blocks alone on an SM are slow); the busiest SM sets the time. Split-K writes each slice's
 * partials and the reduce reads them all and writes C: (2s + 1) M x N floats at ~2.5 TB/s. */
static const pl_gemm_cost_model cuda_cores = {
    .sm_rate = 2.2e11, /* FFMA a second of one SM: 128 lanes at ~1.7 GHz */
    .k_extra = 48.0,
    .whole_waves = 0,
    .full_warps = 8,
    .launch = 3e-6,
    .min_split_k = 256,
    .split_per_slice = 2,
    .split_fixed = 1,
    .split_elem_cost = 4.0,
    .split_bandwidth = 2.5e12,
    .split_launch = 4e-6,
};

/* GFLOP/s over config 3's 46.3 TF/s, after the hoisted interior loader (config 7 measured
 * 1.005, within noise, entered as 1.0). The structural model (tile size, warps per SM) cannot
 * tell the configs apart on a full SM; config 1 (no fast loader) runs at 0.84. */
static const double tuned_rate[] = {0.84, 0.98, 1.0, 0.98, 0.95, 0.99, 1.0, 0.97};
/* Best first: ties in index order picked config 2 over 3. */
static const int tuned_order[] = {2, 6, 5, 1, 3, 7, 4, 0};

/* The tensor-core rungs share one model, so cuda-tf32 can compare their configs. Its unit
 * is one MAC of one SM at rate 1.0 (config 3 of cuda-wgmma-tf32, 193 TF/s: about 1.3 ps). Waves
 * of blocks, each costing occ x bm x bn x (K/s + 128) at the config's rate. */
static const pl_gemm_cost_model tensor_cores = {
    .sm_rate = 1.0,
    .k_extra = 128.0,
    .whole_waves = 1,
    .full_warps = 0,
    .launch = 0.0,
    .min_split_k = 512,
    .split_per_slice = 1, /* split-K: 0.4 units an element of (s + 2) M x N */
    .split_fixed = 2,
    .split_elem_cost = 0.4,
    .split_bandwidth = 1.0,
    .split_launch = 0.0,
    .transpose_elem_cost = 2.4, /* 8 bytes an element of B at ~2.5 TB/s */
    .transpose_launch = 4e6,    /* ~5 us */
};

/* GFLOP/s over 193 TF/s; the copy-engine configs' kernel alone (the model adds their transpose). */
static const double mma_rate[] = {0.59, 0.61, 0.61, 0.67, 0.47, 0.45};
static const int mma_order[] = {0, 1, 2, 3, 4, 5};
static const double wgmma_rate[] = {0.93, 0.98, 1.0, 0.71};
static const int wgmma_order[] = {0, 1, 2, 3};
static const double wgmma_tma_rate[] = {1.95, 1.62};
static const int wgmma_tma_order[] = {0, 1};
/* Measured on an H200 (the same SM; the H100 was not lent then), 4096: config 1's kernel alone
 * 406 TF/s (a bare driver; the model adds its transpose), config 2 (no transpose) 382 TF/s in
 * all. Where K or N is not a multiple of 4 both ran behind the copy-engine rung's config 1
 * (4095: 0.528 and 0.551 ms against 0.507; 4097: 0.854 and 0.876 against 0.795): their rates
 * there are what makes the model's times keep those ratios (config 2 pays re-pitched copies of
 * A and B, which the model does not count, in its rate). */
static const double wgmma_persistent_rate[] = {2.10, 1.98};
static const double wgmma_persistent_rate_unaligned[] = {1.80, 1.55};
static const int wgmma_persistent_order[] = {1, 0};
/* BF16, in the same unit (a TF32 rate): measured on an H200 at 4096 (cuda-wgmma-bf16 ~730 TF/s
 * alone in a bare driver; cuda-mma-bf16 to be measured). */
static const double mma_bf16_rate[] = {1.5};
static const int mma_bf16_order[] = {0};
static const double wgmma_bf16_rate[] = {3.8};
static const int wgmma_bf16_order[] = {0};

static_assert(PL_COUNT(tuned_rate) == PL_COUNT(pl_gemm_tuned_cfgs), "a rate per config");
static_assert(PL_COUNT(mma_rate) == PL_COUNT(pl_gemm_mma_tf32_cfgs), "a rate per config");
static_assert(PL_COUNT(wgmma_rate) == PL_COUNT(pl_gemm_wgmma_tf32_cfgs), "a rate per config");
static_assert(PL_COUNT(wgmma_tma_rate) == PL_COUNT(pl_gemm_wgmma_tma_tf32_cfgs), "a rate per config");
static_assert(PL_COUNT(wgmma_persistent_rate) == PL_COUNT(pl_gemm_wgmma_persistent_tf32_cfgs) &&
                  PL_COUNT(wgmma_persistent_rate_unaligned) == PL_COUNT(wgmma_persistent_rate),
              "a rate per config");
static_assert(PL_COUNT(mma_bf16_rate) == PL_COUNT(pl_gemm_mma_bf16_cfgs), "a rate per config");
static_assert(PL_COUNT(wgmma_bf16_rate) == PL_COUNT(pl_gemm_wgmma_bf16_cfgs), "a rate per config");

const pl_gemm_gpu_tuning pl_gemm_tuning_h100 = {
    .name = "H100",
    .sm_version = 90,
    .source = "NVIDIA H100 80GB HBM3 (SXM, 132 SMs), 4096^3 sweeps, docs/notes/gemm-cuda.md",
    .rung = {
        [PL_GEMM_RUNG_TUNED] =
            {.model = &cuda_cores, .rate = tuned_rate, .order = tuned_order, .n = PL_COUNT(tuned_rate)},
        [PL_GEMM_RUNG_MMA_TF32] =
            {.model = &tensor_cores, .rate = mma_rate, .order = mma_order, .n = PL_COUNT(mma_rate)},
        [PL_GEMM_RUNG_WGMMA_TF32] =
            {.model = &tensor_cores, .rate = wgmma_rate, .order = wgmma_order, .n = PL_COUNT(wgmma_rate)},
        [PL_GEMM_RUNG_WGMMA_TMA_TF32] = {.model = &tensor_cores,
                                         .rate = wgmma_tma_rate,
                                         .order = wgmma_tma_order,
                                         .n = PL_COUNT(wgmma_tma_rate)},
        [PL_GEMM_RUNG_WGMMA_PERSISTENT_TF32] = {.model = &tensor_cores,
                                                .rate = wgmma_persistent_rate,
                                                .rate_unaligned = wgmma_persistent_rate_unaligned,
                                                .order = wgmma_persistent_order,
                                                .n = PL_COUNT(wgmma_persistent_rate)},
        [PL_GEMM_RUNG_MMA_BF16] =
            {.model = &tensor_cores, .rate = mma_bf16_rate, .order = mma_bf16_order, .n = PL_COUNT(mma_bf16_rate)},
        [PL_GEMM_RUNG_WGMMA_BF16] = {.model = &tensor_cores,
                                     .rate = wgmma_bf16_rate,
                                     .order = wgmma_bf16_order,
                                     .n = PL_COUNT(wgmma_bf16_rate)},
    },
};
