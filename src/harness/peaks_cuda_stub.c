/* peaks_cuda_stub.c: the GPU measurements of a build without CUDA (peaks_cuda.cu replaces
 * this file when CUDA is on). */
#include "harness/peaks.h"
#include "core/core.h"

pl_status pl_peaks_gpu_fma(int device, int quick, double *gflops)
{
    (void)device;
    (void)quick;
    if (gflops) *gflops = 0.0;
    return pl_fail(PL_ERR_NO_CUDA, "this parlab was built without CUDA: no GPU peaks");
}

pl_status pl_peaks_gpu_copy(int device, int quick, double *gbps)
{
    (void)device;
    (void)quick;
    if (gbps) *gbps = 0.0;
    return pl_fail(PL_ERR_NO_CUDA, "this parlab was built without CUDA: no GPU peaks");
}

pl_status pl_peaks_gpu_tf32(int device, int quick, double *gflops, int *method)
{
    (void)device;
    (void)quick;
    if (gflops) *gflops = 0.0;
    if (method) *method = PL_PEAKS_TC_NONE;
    return pl_fail(PL_ERR_NO_CUDA, "this parlab was built without CUDA: no GPU peaks");
}

pl_status pl_peaks_gpu_int32(int device, int quick, double *gops)
{
    (void)device;
    (void)quick;
    if (gops) *gops = 0.0;
    return pl_fail(PL_ERR_NO_CUDA, "this parlab was built without CUDA: no GPU peaks");
}

pl_status pl_peaks_gpu_streams(int device, int quick, double *read_gbps, double *write_gbps,
                               double *l2_read_gbps, double *l2_copy_gbps, double *l2_bytes)
{
    (void)device;
    (void)quick;
    *read_gbps = *write_gbps = *l2_read_gbps = *l2_copy_gbps = *l2_bytes = 0.0;
    return pl_fail(PL_ERR_NO_CUDA, "this parlab was built without CUDA: no GPU peaks");
}
