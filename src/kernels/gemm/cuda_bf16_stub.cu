// cuda_bf16_stub.cu: TEMPORARY stand-ins for the BF16 tensor-core rungs (cuda-mma-bf16,
// cuda-wgmma-bf16) so the ladder links before their kernels land; each refuses to run. The
// kernels' own files replace this one.
#include "core/core.h"
#include "kernels/gemm/gemm.h"

extern "C" pl_status pl_gemm_cuda_mma_bf16(const pl_run_args *a)
{
    (void)a;
    return pl_fail(PL_ERR_UNSUPPORTED, "cuda-mma-bf16: not built yet");
}

extern "C" pl_status pl_gemm_cuda_wgmma_bf16(const pl_run_args *a)
{
    (void)a;
    return pl_fail(PL_ERR_UNSUPPORTED, "cuda-wgmma-bf16: not built yet");
}
