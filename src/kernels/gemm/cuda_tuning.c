/* cuda_tuning.c: the GPUs the CUDA top rungs have measured numbers for, and what a GPU not among
 * them gets. To add a GPU: a cuda_tuning_<gpu>.c beside cuda_tuning_h100.c, and a line below.
 *
 * The lookup, in order (tests/test_gemm_tuning.c holds it to this):
 *   1. a table whose name the device's name holds ("H100" in "NVIDIA H100 80GB HBM3"): its own.
 *   2. Else the first table of the device's SM version, as it is: the H200 (sm_90) gets the
 *      H100's. It is the same chip's SM (GH100: the same tensor cores, FP32 lanes, registers
 *      and shared memory per SM, the same clocks), so the per-SM rates hold; its SM count and
 *      each config's occupancy are the device's own, read at run time, so nothing needs
 *      scaling. What differs (141 GB at 4.8 TB/s against 80 GB at 3.35) moves only the split-K
 *      and B-transpose terms, which are small where a choice is close.
 *   3. Else the generic table: the first table's cost model and orders, every rate 1.0. A rate
 *      measured on one architecture says how a kernel meets that chip's limits (on the H100,
 *      cuda-tuned's config 1 loses 16% to its register cap and the copy-engine configs gain
 *      from TMA); on another architecture those limits differ, so no config is favoured: the
 *      structural model (tiles, waves, occupancy on that device) decides, and near-ties go to
 *      the measured order. */
#include "kernels/gemm/cuda_tuning.h"

#include <string.h>

const pl_gemm_gpu_tuning *const pl_gemm_tunings[] = {&pl_gemm_tuning_h100};
const int pl_gemm_n_tunings = PL_COUNT(pl_gemm_tunings);

pl_gemm_tuning_match pl_gemm_tuning_for(const char *device_name, int sm_version, pl_gemm_gpu_tuning *t)
{
    for (int i = 0; i < pl_gemm_n_tunings; i++)
        if (device_name && strstr(device_name, pl_gemm_tunings[i]->name)) {
            *t = *pl_gemm_tunings[i];
            return PL_GEMM_TUNING_MEASURED;
        }
    for (int i = 0; i < pl_gemm_n_tunings; i++)
        if (pl_gemm_tunings[i]->sm_version == sm_version) {
            *t = *pl_gemm_tunings[i];
            return PL_GEMM_TUNING_SAME_SM;
        }
    *t = *pl_gemm_tunings[0];
    t->name = "generic";
    t->source = "no table of this SM version: the first table's model and orders, every rate 1.0";
    for (int r = 0; r < PL_GEMM_CUDA_RUNGS; r++) t->rung[r].rate = t->rung[r].rate_unaligned = NULL;
    return PL_GEMM_TUNING_GENERIC;
}

const char *pl_gemm_tuning_match_name(pl_gemm_tuning_match m)
{
    switch (m) {
    case PL_GEMM_TUNING_MEASURED: return "measured";
    case PL_GEMM_TUNING_SAME_SM: return "same SM version";
    case PL_GEMM_TUNING_GENERIC: return "generic";
    }
    return "?";
}
