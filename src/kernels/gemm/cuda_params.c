/* cuda_params.c: the `--param` tables of the CUDA top rungs: `config` (a row of the rung's table
 * in cuda_configs.h, or 0: chosen per shape) and `splitk`, at the indices gemm.h names
 * (PL_GEMM_CUDA_CONFIG, PL_GEMM_CUDA_SPLITK). A CPU build compiles them too; its ladder leaves
 * them out. */
#include "kernels/gemm/cuda_configs.h"
#include "kernels/gemm/gemm.h"

static const int64_t tuned_config_values[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
static const int64_t mma_tf32_config_values[] = {0, 1, 2, 3, 4, 5, 6};
static const int64_t wgmma_tf32_config_values[] = {0, 1, 2, 3, 4};
static const int64_t wgmma_tma_tf32_config_values[] = {0, 1, 2};
static const int64_t one_config_values[] = {0, 1};
static const int64_t two_config_values[] = {0, 1, 2};
static const int64_t splitk_values[] = {0, 1, 2, 4, 8, 16, 32, 64};

static_assert(PL_COUNT(tuned_config_values) == PL_COUNT(pl_gemm_tuned_cfgs) + 1, "0 and each config");
static_assert(PL_COUNT(mma_tf32_config_values) == PL_COUNT(pl_gemm_mma_tf32_cfgs) + 1, "each config");
static_assert(PL_COUNT(wgmma_tf32_config_values) == PL_COUNT(pl_gemm_wgmma_tf32_cfgs) + 1, "each config");
static_assert(PL_COUNT(wgmma_tma_tf32_config_values) == PL_COUNT(pl_gemm_wgmma_tma_tf32_cfgs) + 1,
               "each config");

static_assert(PL_COUNT(two_config_values) == PL_COUNT(pl_gemm_wgmma_persistent_tf32_cfgs) + 1 &&
                  PL_COUNT(one_config_values) == PL_COUNT(pl_gemm_mma_bf16_cfgs) + 1 &&
                  PL_COUNT(one_config_values) == PL_COUNT(pl_gemm_wgmma_bf16_cfgs) + 1,
              "each config");

#define SPLITK_PARAM                                                                                            \
    [PL_GEMM_CUDA_SPLITK] = {.name = "splitk",                                                                  \
                             .help = "K splits: 0 auto, 1 none",                                                \
                             .kind = PL_PARAM_LIST,                                                             \
                             .values = splitk_values,                                                           \
                             .n_values = PL_COUNT(splitk_values)}

const pl_param_def pl_gemm_cuda_tuned_params[] = {
    [PL_GEMM_CUDA_CONFIG] = {.name = "config",
                             .help = "tile config: 0 auto, 1 128x128 (256 thr, 8x8/thr), 2 128x128 (128 thr, "
                                     "16x8/thr), 3 128x256 (256 thr, 16x8), 4 256x128 (256 thr, 16x8), 5 128x64 "
                                     "(128 thr, 8x8), 6 64x128 (64 thr, 16x8), 7 128x256 BK 32 (256 thr, 16x8), "
                                     "8 256x128 BK 32 (256 thr, 16x8)",
                             .kind = PL_PARAM_LIST,
                             .values = tuned_config_values,
                             .n_values = PL_COUNT(tuned_config_values)},
    SPLITK_PARAM,
};

const pl_param_def pl_gemm_cuda_mma_tf32_params[] = {
    [PL_GEMM_CUDA_CONFIG] = {.name = "config",
                             .help = "tile config: 0 auto, 1 128x256 (8 warps of 64x64), 2 256x128, "
                                     "3 128x256 4 stages, 4 128x256 truncating (never auto), "
                                     "5 64x128 (4 warps of 32x64), 6 128x128 (4 warps of 64x64)",
                             .kind = PL_PARAM_LIST,
                             .values = mma_tf32_config_values,
                             .n_values = PL_COUNT(mma_tf32_config_values)},
    SPLITK_PARAM,
};

const pl_param_def pl_gemm_cuda_wgmma_tf32_params[] = {
    [PL_GEMM_CUDA_CONFIG] = {.name = "config",
                             .help = "tile config: 0 auto, 1 128x256 (4 warpgroups of m64n128), 2 as 1 "
                                     "truncating (never auto), 3 128x128 (2 warpgroups, 2 blocks/SM), "
                                     "4 256x128 (2 warpgroups of m64n256)",
                             .kind = PL_PARAM_LIST,
                             .values = wgmma_tf32_config_values,
                             .n_values = PL_COUNT(wgmma_tf32_config_values)},
    SPLITK_PARAM,
};

const pl_param_def pl_gemm_cuda_wgmma_tma_tf32_params[] = {
    [PL_GEMM_CUDA_CONFIG] = {.name = "config",
                             .help = "tile config: 0 auto, 1 256x128 (m64n256, 4 stages), "
                                     "2 128x128 (m64n128, 6 stages)",
                             .kind = PL_PARAM_LIST,
                             .values = wgmma_tma_tf32_config_values,
                             .n_values = PL_COUNT(wgmma_tma_tf32_config_values)},
    SPLITK_PARAM,
};
const pl_param_def pl_gemm_cuda_wgmma_persistent_tf32_params[] = {
    [PL_GEMM_CUDA_CONFIG] = {.name = "config",
                             .help = "tile config: 0 auto, 1 128x256 (2 warpgroups of m64n256, 4 stages, a block "
                                     "per SM, B transposed first), 2 256x128 (C^T, B^T's fragments through registers: "
                                     "no transpose)",
                             .kind = PL_PARAM_LIST,
                             .values = two_config_values,
                             .n_values = PL_COUNT(two_config_values)},
    SPLITK_PARAM,
};
const pl_param_def pl_gemm_cuda_mma_bf16_params[] = {
    [PL_GEMM_CUDA_CONFIG] = {.name = "config",
                             .help = "tile config: 0 auto, 1 128x128 (8 warps of 64x32, 4 stages)",
                             .kind = PL_PARAM_LIST,
                             .values = one_config_values,
                             .n_values = PL_COUNT(one_config_values)},
    SPLITK_PARAM,
};

const pl_param_def pl_gemm_cuda_wgmma_bf16_params[] = {
    [PL_GEMM_CUDA_CONFIG] = {.name = "config",
                             .help = "tile config: 0 auto, 1 128x256 (2 warpgroups of m64n256k16, 4 stages, a block per SM)",
                             .kind = PL_PARAM_LIST,
                             .values = one_config_values,
                             .n_values = PL_COUNT(one_config_values)},
    SPLITK_PARAM,
};
PL_CHECK_COUNT(pl_gemm_cuda_tuned_params, PL_GEMM_CUDA_N_PARAMS);
PL_CHECK_COUNT(pl_gemm_cuda_mma_tf32_params, PL_GEMM_CUDA_N_PARAMS);
PL_CHECK_COUNT(pl_gemm_cuda_wgmma_tf32_params, PL_GEMM_CUDA_N_PARAMS);
PL_CHECK_COUNT(pl_gemm_cuda_wgmma_tma_tf32_params, PL_GEMM_CUDA_N_PARAMS);
PL_CHECK_COUNT(pl_gemm_cuda_wgmma_persistent_tf32_params, PL_GEMM_CUDA_N_PARAMS);
PL_CHECK_COUNT(pl_gemm_cuda_mma_bf16_params, PL_GEMM_CUDA_N_PARAMS);
PL_CHECK_COUNT(pl_gemm_cuda_wgmma_bf16_params, PL_GEMM_CUDA_N_PARAMS);
