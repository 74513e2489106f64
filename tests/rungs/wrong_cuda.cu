/* wrong_cuda.cu: known-wrong CUDA user rungs (include/parlab_rung.h), and the correct one they
 * differ from; tests/test_cli_rungs_gpu.sh checks that parlab catches each with its own
 * message and passes the correct one. Built as a shared library where CUDA is. */
#include "parlab_rung.h"

#include <cuda_runtime.h>

__global__ static void transpose_kernel(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb)
{
    const int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x, i = blockIdx.y * (int64_t)blockDim.y + threadIdx.y;
    if (i < M && j < N) B[j * ldb + i] = A[i * lda + j];
}

static int launch(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb, cudaStream_t stream)
{
    dim3 block(32, 8), grid((unsigned)((N + 31) / 32), (unsigned)((M + 7) / 8));
    transpose_kernel<<<grid, block, 0, stream>>>(M, N, A, lda, B, ldb);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

/* Correct: launched on the stream parlab passes. */
PL_RUNG_DECLARE(good_transpose_cuda, "transpose", "cuda", "fp32");
extern "C" int good_transpose_cuda(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb,
                                   pl_rung_stream stream)
{
    return launch(M, N, A, lda, B, ldb, stream);
}

/* Off-stream: the same kernel on a stream of its own, never joined to parlab's: the events
 * parlab records on its stream time nothing of it. */
PL_RUNG_DECLARE(off_stream_transpose_cuda, "transpose", "cuda", "fp32");
extern "C" int off_stream_transpose_cuda(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb,
                                         pl_rung_stream stream)
{
    (void)stream;
    static cudaStream_t own;
    if (!own && cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking) != cudaSuccess) return 1;
    return launch(M, N, A, lda, B, ldb, own);
}

/* A CUDA fault: a write far outside any allocation after one good call. */
PL_RUNG_DECLARE(fault_transpose_cuda, "transpose", "cuda", "fp32");
extern "C" int fault_transpose_cuda(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb,
                                    pl_rung_stream stream)
{
    static int calls;
    if (calls++ > 0) B += (int64_t)1 << 40;
    return launch(M, N, A, lda, B, ldb, stream);
}
