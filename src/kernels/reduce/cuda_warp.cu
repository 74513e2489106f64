// cuda-warp: a block per row, each thread folding 4 elements per 128-bit load (when the pitch
// keeps every row 16-byte aligned: offset % 4 == 0; else one float per load: the alignment
// study), the block's values combined with warp shuffles (registers, no shared-memory tree,
// one __syncthreads). Columns: 32 columns per block, threads across columns (coalesced) and
// down the rows, partials combined in shared memory. Accurate (blocked sums).
// Next rung: choose the mapping by shape.
#include "kernels/reduce/cuda_reduce.cuh"

template <int OP, int VEC4>
static __global__ void warp_rows_kernel(pl_reduce_problem p, const float *__restrict__ A, float *__restrict__ r)
{
    int64_t o = blockIdx.x;
    const float *x = A + o * p.lda;
    float acc;
    if (VEC4) {
        acc = thread_range_vec<OP>(x, 0, p.N, threadIdx.x, blockDim.x);
    } else {
        acc = red_neutral<OP>();
        for (int64_t k = threadIdx.x; k < p.N; k += blockDim.x) acc = red_comb<OP>(acc, red_term<OP>(x[k]));
    }
    acc = block_reduce<OP>(acc);
    if (threadIdx.x == 0) r[o] = red_finish<OP>(acc, p.N);
}

// Columns: block (32, by); grid (ceil(N/32), splits). Split s folds rows [s M/splits, (s+1) M/splits).
template <int OP>
static __global__ void cols_kernel(pl_reduce_problem p, const float *__restrict__ A, float *__restrict__ out, int splits)
{
    __shared__ float sm[32][33];
    int64_t j = (int64_t)blockIdx.x * 32 + threadIdx.x;
    int64_t s = blockIdx.y, i0 = p.M * s / splits, i1 = p.M * (s + 1) / splits;
    float acc = red_neutral<OP>();
    if (j < p.N)
        for (int64_t i = i0 + threadIdx.y; i < i1; i += blockDim.y) acc = red_comb<OP>(acc, red_term<OP>(A[i * p.lda + j]));
    sm[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    for (unsigned h = blockDim.y / 2; h > 0; h >>= 1) {
        if (threadIdx.y < h) sm[threadIdx.y][threadIdx.x] = red_comb<OP>(sm[threadIdx.y][threadIdx.x], sm[threadIdx.y + h][threadIdx.x]);
        __syncthreads();
    }
    if (threadIdx.y == 0 && j < p.N) {
        if (splits == 1) out[j] = red_finish<OP>(sm[0][threadIdx.x], p.M);
        else out[s * p.N + j] = sm[0][threadIdx.x];
    }
}

pl_status pl_reduce_cuda_columns(const pl_run_args *a, int bs, int splits)
{
    const pl_reduce_problem *p = (const pl_reduce_problem *)a->problem;
    cudaStream_t st = (cudaStream_t)a->stream;
    const float *A = (const float *)a->data[0];
    float *r = (float *)a->data[1], *out = r;
    int64_t gx = (p->N + 31) / 32;
    if (gx > 2147483647) return pl_fail(PL_ERR_ARG, "reduce columns: N = %lld is too many blocks", (long long)p->N);
    if (splits > 1) {
        void *ws = NULL;
        pl_status s = pl_ctx_dev_workspace(a->ctx, PL_REDUCE_WS_PARTIALS, sizeof(float) * (size_t)splits * (size_t)p->N, &ws);
        if (s != PL_OK) return s;
        out = (float *)ws;
    }
    dim3 block(32, bs / 32), grid((unsigned)gx, (unsigned)splits);
    PL_REDUCE_DISPATCH(p->op, (cols_kernel<OPC><<<grid, block, 0, st>>>(*p, A, out, splits)));
    if (splits > 1) {
        PL_REDUCE_DISPATCH(p->op, (cols_finish_kernel<OPC><<<cols_finish_grid(p->N), cols_finish_block(), 0, st>>>(*p, out, r, splits)));
    }
    return pl_reduce_launched("reduce columns");
}

extern "C" pl_status pl_reduce_cuda_warp(const pl_run_args *a)
{
    const pl_reduce_problem *p = (const pl_reduce_problem *)a->problem;
    int bs = (int)a->params[PL_REDUCE_CUDA_BLOCK];
    if (p->axis == 0) return pl_reduce_cuda_columns(a, bs, 1);
    if (p->M > 2147483647) return pl_fail(PL_ERR_ARG, "cuda-warp: M = %lld needs more than 2^31-1 blocks", (long long)p->M);
    cudaStream_t st = (cudaStream_t)a->stream;
    const float *A = (const float *)a->data[0];
    float *r = (float *)a->data[1];
    if (p->lda % 4 == 0) {
        PL_REDUCE_DISPATCH(p->op, (warp_rows_kernel<OPC, 1><<<(unsigned)p->M, bs, 0, st>>>(*p, A, r)));
    } else {
        PL_REDUCE_DISPATCH(p->op, (warp_rows_kernel<OPC, 0><<<(unsigned)p->M, bs, 0, st>>>(*p, A, r)));
    }
    return pl_reduce_launched("cuda-warp");
}
