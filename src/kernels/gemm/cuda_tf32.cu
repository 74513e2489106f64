/* cuda_tf32.cu: `cuda-tf32`, the best tensor-core rung for this GPU and shape: what to call for a
 * TF32 GEMM without knowing the ladder. Not an idea of its own: it asks the chooser (cuda_choose.c)
 * for the fastest estimate among the configs of the four tensor-core rungs that run on this
 * device (cuda-mma-tf32 everywhere; cuda-wgmma-tf32, cuda-wgmma-tma-tf32 and
 * cuda-wgmma-persistent-tf32 on Hopper), all
 * costed by one model of the GPU's tuning table, and runs that rung with that config and split. */
#include "core/core.h"
#include "kernels/gemm/cuda_frame.cuh"

extern "C" pl_status pl_gemm_cuda_tf32(const pl_run_args *a)
{
    static const pl_gemm_cuda_rung_def *const rungs[] = {&pl_gemm_mma_tf32_rung, &pl_gemm_wgmma_tf32_rung,
                                                          &pl_gemm_wgmma_tma_tf32_rung,
                                                          &pl_gemm_wgmma_persistent_tf32_rung};
    enum { N_RUNGS = PL_COUNT(rungs) };
    const pl_gemm_problem *p = (const pl_gemm_problem *)a->problem;
    pl_gemm_rung_state *states[N_RUNGS];
    const pl_gemm_rung_device *devs[N_RUNGS];
    for (int i = 0; i < N_RUNGS; i++) {
        pl_status s = pl_gemm_rung_state_of(a->ctx, *rungs[i], &states[i]);
        if (s != PL_OK) return s;
        devs[i] = &states[i]->dev;
    }
    pl_status s = pl_gemm_cuda_check_dims("cuda-tf32", p);
    if (s != PL_OK) return s;
    /* One device, so one table: the first rung's. */
    const pl_gemm_choice c = pl_gemm_choose(&states[0]->tuning, devs, N_RUNGS, p->M, p->N, p->K);
    if (c.config < 0) return pl_fail(PL_ERR_UNSUPPORTED, "cuda-tf32: no tensor-core rung runs here");
    int64_t params[PL_GEMM_CUDA_N_PARAMS];
    params[PL_GEMM_CUDA_CONFIG] = c.config + 1;
    params[PL_GEMM_CUDA_SPLITK] = c.split;
    pl_run_args chosen = *a;
    chosen.params = params;
    return pl_gemm_cuda_run(&chosen, *rungs[c.rung]);
}
