// cuda-tuned: the padded shared-memory tile made bigger and busier. A block of 32 x R threads
// (R = block / 32; 32 x 8 by default) moves a 64 x 64 tile, 4096 / (32 R) elements per
// thread (16 at 32 x 8): many independent loads in flight per thread and the index arithmetic
// and __syncthreads paid once per 16 elements instead of once per element. Where A's and B's
// rows start on 16-byte boundaries (lda, ldb multiples of 4, aligned bases), each thread moves
// float4s: 128-bit loads from rows of A, 128-bit stores to rows of B (four column reads from
// the tile assembled into one register quad). The tile keeps its padding column, so the
// column reads stay conflict-free (the float4 fills into it are 2-way). Ragged edges fall back
// to element-wise moves for the quads that cross M or N.
#include "core/core.h"
#include "kernels/transpose/transpose.h"
#include "kernels/ladder.h"

#include <cuda_runtime.h>
#include <stdint.h>

enum { TT = 64 };

template <int R, bool VEC>
static __global__ void __launch_bounds__(32 * R) transpose_tuned_kernel(pl_transpose_problem p,
                                                                       const float *__restrict__ A,
                                                                       float *__restrict__ B)
{
    __shared__ float s[TT][TT + 1];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx;
    const int64_t i0 = (int64_t)blockIdx.y * TT, j0 = (int64_t)blockIdx.x * TT;
    if (VEC) {
        // 64 rows x 16 quads in; thread t takes quads t, t + 32R, ...
#pragma unroll
        for (int idx = t; idx < TT * TT / 4; idx += 32 * R) {
            const int r = idx >> 4, c = (idx & 15) * 4;
            const int64_t i = i0 + r, j = j0 + c;
            if (i >= p.M) continue;
            const float *src = A + i * p.lda + j;
            if (j + 3 < p.N) {
                float4 v = *(const float4 *)src;
                s[r][c] = v.x, s[r][c + 1] = v.y, s[r][c + 2] = v.z, s[r][c + 3] = v.w;
            } else {
                for (int k = 0; k < 4 && j + k < p.N; k++) s[r][c + k] = src[k];
            }
        }
        __syncthreads();
        // 64 rows of B (columns of A) x 16 quads out.
#pragma unroll
        for (int idx = t; idx < TT * TT / 4; idx += 32 * R) {
            const int r = idx >> 4, c = (idx & 15) * 4;
            const int64_t j = j0 + r, i = i0 + c;
            if (j >= p.N) continue;
            float *dst = B + j * p.ldb + i;
            if (i + 3 < p.M) {
                *(float4 *)dst = make_float4(s[c][r], s[c + 1][r], s[c + 2][r], s[c + 3][r]);
            } else {
                for (int k = 0; k < 4 && i + k < p.M; k++) dst[k] = s[c + k][r];
            }
        }
    } else {
#pragma unroll
        for (int r = ty; r < TT; r += R)
#pragma unroll
            for (int c = tx; c < TT; c += 32)
                if (i0 + r < p.M && j0 + c < p.N) s[r][c] = A[(i0 + r) * p.lda + j0 + c];
        __syncthreads();
#pragma unroll
        for (int r = ty; r < TT; r += R)
#pragma unroll
            for (int c = tx; c < TT; c += 32)
                if (j0 + r < p.N && i0 + c < p.M) B[(j0 + r) * p.ldb + i0 + c] = s[c][r];
    }
}

static const int64_t block_sizes[] = {128, 256, 512, 1024};
enum { VEC_AUTO, VEC_OFF };
static const char *const vec_choices[] = {"auto", "off", NULL}; // in the order of VEC_*
extern "C" const pl_param_def pl_transpose_cuda_tuned_params[] = {
    [PL_TRANSPOSE_CUDA_TUNED_BLOCK] =
        {.name = "block", .help = "threads per block: 32 x (block/32), each moving 4096/block elements of a 64x64 tile",
         .kind = PL_PARAM_LIST, .values = block_sizes, .n_values = PL_COUNT(block_sizes), .def = 256},
    [PL_TRANSPOSE_CUDA_TUNED_VEC] =
        {.name = "vec", .help = "auto: 128-bit loads and stores where rows are 16-byte aligned; off: 32-bit only",
         .kind = PL_PARAM_CHOICE, .choices = vec_choices, .def = VEC_AUTO},
};
PL_CHECK_COUNT(pl_transpose_cuda_tuned_params, PL_TRANSPOSE_CUDA_TUNED_N_PARAMS);

template <int R>
static void launch(const pl_transpose_problem *p, const pl_run_args *a, bool vec)
{
    dim3 block(32, R), grid((unsigned)((p->N + TT - 1) / TT), (unsigned)((p->M + TT - 1) / TT));
    const float *A = (const float *)a->data[0];
    float *B = (float *)a->data[1];
    cudaStream_t st = (cudaStream_t)a->stream;
    if (vec) transpose_tuned_kernel<R, true><<<grid, block, 0, st>>>(*p, A, B);
    else transpose_tuned_kernel<R, false><<<grid, block, 0, st>>>(*p, A, B);
}

extern "C" pl_status pl_transpose_cuda_tuned(const pl_run_args *a)
{
    const pl_transpose_problem *p = (const pl_transpose_problem *)a->problem;
    if ((p->M + TT - 1) / TT > 65535)
        return pl_fail(PL_ERR_ARG, "cuda-tuned: M = %lld needs more than 65535 blocks of rows", (long long)p->M);
    bool vec = a->params[PL_TRANSPOSE_CUDA_TUNED_VEC] == VEC_AUTO && p->lda % 4 == 0 && p->ldb % 4 == 0 &&
               (uintptr_t)a->data[0] % 16 == 0 && (uintptr_t)a->data[1] % 16 == 0;
    const int64_t block = a->params[PL_TRANSPOSE_CUDA_TUNED_BLOCK];
    switch (block) {
    case 128: launch<4>(p, a, vec); break;
    case 256: launch<8>(p, a, vec); break;
    case 512: launch<16>(p, a, vec); break;
    case 1024: launch<32>(p, a, vec); break;
    default: return pl_fail(PL_ERR_ARG, "cuda-tuned: block=%lld (legal: 128, 256, 512, 1024)", (long long)block);
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "cuda-tuned launch: %s", cudaGetErrorString(e));
    return PL_OK;
}
