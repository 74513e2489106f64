// peers_cuda.cu: the GPU libraries reduce and dot are measured against, behind the same
// contract as a rung. peer-cub: cub::DeviceSegmentedReduce over the rows (a segment per row,
// begin i*lda, end i*lda + N) for sum, mean (the sum, then divided), min and max; CUB has no
// strided segments and no sum of squares, so columns and sumsq are PL_ERR_UNSUPPORTED.
// CUB's Min/Max do not propagate NaN. peer-cublas (dot): cublasSdot, its result written on
// the device (pointer mode device, put back to host for the other peers on the handle).
#include "kernels/reduce/cuda_reduce.cuh"

#include <cub/device/device_segmented_reduce.cuh>
#include <cublas_v2.h>
#include <limits.h>

static __global__ void offsets_kernel(int M, int lda, int N, int *begin, int *end)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M) begin[i] = i * lda, end[i] = i * lda + N;
}

static __global__ void divide_kernel(int M, float *r, float n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M) r[i] /= n;
}

// CUB's call for this op: temp bytes query when temp is NULL.
static cudaError_t cub_call(int op, void *temp, size_t &bytes, const float *A, float *r, int M, const int *b,
                            const int *e, cudaStream_t st)
{
    if (op == PL_REDUCE_MIN) return cub::DeviceSegmentedReduce::Min(temp, bytes, A, r, M, b, e, st);
    if (op == PL_REDUCE_MAX) return cub::DeviceSegmentedReduce::Max(temp, bytes, A, r, M, b, e, st);
    return cub::DeviceSegmentedReduce::Sum(temp, bytes, A, r, M, b, e, st);
}

extern "C" pl_status pl_reduce_peer_cub(const pl_run_args *a)
{
    const pl_reduce_problem *p = (const pl_reduce_problem *)a->problem;
    if (p->axis == 0)
        return pl_fail(PL_ERR_UNSUPPORTED, "peer-cub: CUB's segmented reduce takes contiguous rows, not columns (axis 0)");
    if (p->op == PL_REDUCE_SUMSQ)
        return pl_fail(PL_ERR_UNSUPPORTED, "peer-cub: CUB has no segmented sum of squares (op sumsq)");
    if (p->M * p->lda > INT_MAX)
        return pl_fail(PL_ERR_UNSUPPORTED, "peer-cub: %lldx%lld: offsets over 2^31 (int offsets here)", (long long)p->M,
                       (long long)p->N);
    int M = (int)p->M;
    cudaStream_t st = (cudaStream_t)a->stream;
    const float *A = (const float *)a->data[0];
    float *r = (float *)a->data[1];
    size_t temp_bytes = 0;
    if (cub_call(p->op, NULL, temp_bytes, A, r, M, NULL, NULL, st) != cudaSuccess)
        return pl_fail(PL_ERR_CUDA, "peer-cub: temporary storage query failed");
    size_t off_bytes = (2 * sizeof(int) * (size_t)M + 255) / 256 * 256;
    void *ws = NULL;
    pl_status s = pl_ctx_dev_workspace(a->ctx, PL_REDUCE_WS_CUB, off_bytes + temp_bytes, &ws);
    if (s != PL_OK) return s;
    int *begin = (int *)ws, *end = begin + M;
    offsets_kernel<<<(M + 255) / 256, 256, 0, st>>>(M, (int)p->lda, (int)p->N, begin, end);
    cudaError_t e = cub_call(p->op, (char *)ws + off_bytes, temp_bytes, A, r, M, begin, end, st);
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "peer-cub: %s", cudaGetErrorString(e));
    if (p->op == PL_REDUCE_MEAN) divide_kernel<<<(M + 255) / 256, 256, 0, st>>>(M, r, (float)p->N);
    return pl_reduce_launched("peer-cub");
}

extern "C" pl_status pl_dot_peer_cublas(const pl_run_args *a)
{
    const pl_dot_problem *p = (const pl_dot_problem *)a->problem;
    if (p->N > INT_MAX) return pl_fail(PL_ERR_ARG, "peer-cublas: N = %lld does not fit cuBLAS's int", (long long)p->N);
    void *hv = nullptr;
    pl_status s = pl_ctx_cublas(a->ctx, a->stream, &hv);
    if (s != PL_OK) return s;
    cublasHandle_t h = (cublasHandle_t)hv;
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
    cublasStatus_t st = cublasSdot(h, (int)p->N, (const float *)a->data[0], 1, (const float *)a->data[1], 1,
                                   (float *)a->data[2]);
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
    if (st != CUBLAS_STATUS_SUCCESS)
        return pl_fail(PL_ERR_CUDA, "peer-cublas: cublasSdot failed (%s)", cublasGetStatusString(st));
    return PL_OK;
}
