// cuda-tuned: the mapping chosen by shape. Rows of up to 512 elements: a warp per row (a block
// per row would leave most threads idle); many longer rows: a block per row; few long rows
// (fewer than two per multiprocessor): each row cut into pieces, a block per piece, and a
// second pass (a warp per row) over the pieces' partials, so every multiprocessor streams.
// Rows load 128 bits at a time after a scalar head up to 16-byte alignment, whatever the
// pitch. Columns: each thread owns 4 adjacent columns (a 128-bit load per row where rows are
// 16-byte aligned), a block 1024 contiguous columns (4 KiB of each row, in one piece), rows
// cut among blocks until every multiprocessor holds enough of them to keep the memory busy,
// and a second pass adds the cuts in order. Accurate (blocked sums).
#include "kernels/reduce/cuda_reduce.cuh"

template <int OP>
static __global__ void warp_per_row_kernel(pl_reduce_problem p, const float *__restrict__ A, float *__restrict__ r)
{
    int64_t o = (int64_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (o >= p.M) return; // whole warps leave: no block-wide sync below
    float acc = thread_range_vec<OP>(A + o * p.lda, 0, p.N, threadIdx.x & 31, 32);
    acc = warp_reduce<OP>(acc);
    if ((threadIdx.x & 31) == 0) r[o] = red_finish<OP>(acc, p.N);
}

// grid M x pieces blocks: block b folds piece b % pieces of row b / pieces, [s N/pieces, (s+1) N/pieces);
// pieces == 1 finishes the row.
template <int OP>
static __global__ void block_per_piece_kernel(pl_reduce_problem p, const float *__restrict__ A, float *__restrict__ out,
                                              int pieces)
{
    int64_t o = blockIdx.x / pieces, s = blockIdx.x % pieces;
    int64_t k0 = p.N * s / pieces, k1 = p.N * (s + 1) / pieces;
    float acc = thread_range_vec<OP>(A + o * p.lda, k0, k1, threadIdx.x, blockDim.x);
    acc = block_reduce<OP>(acc);
    if (threadIdx.x == 0) {
        if (pieces == 1) out[o] = red_finish<OP>(acc, p.N);
        else out[o * pieces + s] = acc;
    }
}

template <int OP>
static __global__ void pieces_finish_kernel(pl_reduce_problem p, const float *__restrict__ part, float *__restrict__ r,
                                            int pieces)
{
    int64_t o = (int64_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (o >= p.M) return;
    float acc = red_neutral<OP>();
    for (int s = threadIdx.x & 31; s < pieces; s += 32) acc = red_comb<OP>(acc, part[o * pieces + s]);
    acc = warp_reduce<OP>(acc);
    if ((threadIdx.x & 31) == 0) r[o] = red_finish<OP>(acc, p.N);
}

// Columns: each thread owns VW adjacent columns (a float4 per row where rows are 16-byte
// aligned) and folds them down rows [s rows_per, (s + 1) rows_per) of split s = blockIdx.y; a
// block of bs threads covers bs * VW contiguous columns, so every row step of a block reads
// 4 KiB in one piece (at bs = 256) and DRAM streams it as it streams rows. No shared memory: a
// thread's columns are its own.
template <int OP, bool VEC>
static __global__ void cols_tuned_kernel(pl_reduce_problem p, const float *__restrict__ A, float *__restrict__ out,
                                         int splits, int64_t rows_per)
{
    pdl_release(); // the second pass may be scheduled now; it waits for this grid's end
    constexpr int VW = VEC ? 4 : 1;
    const int64_t j = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) * VW;
    if (j >= p.N) return;
    const int64_t r0 = (int64_t)blockIdx.y * rows_per, r1 = r0 + rows_per < p.M ? r0 + rows_per : p.M;
    float acc[VW];
#pragma unroll
    for (int c = 0; c < VW; c++) acc[c] = red_neutral<OP>();
    const float *a = A + r0 * p.lda + j;
    bool done = false;
    if constexpr (VEC) {
        if (j + VW <= p.N) {
#pragma unroll 8
            for (int64_t r = r0; r < r1; r++, a += p.lda) {
                const float4 u = __ldg((const float4 *)a);
                acc[0] = red_comb<OP>(acc[0], red_term<OP>(u.x));
                acc[1] = red_comb<OP>(acc[1], red_term<OP>(u.y));
                acc[2] = red_comb<OP>(acc[2], red_term<OP>(u.z));
                acc[3] = red_comb<OP>(acc[3], red_term<OP>(u.w));
            }
            done = true;
        }
    }
    if (!done) { // 32-bit loads: a pitch not a multiple of 4, or the last columns
#pragma unroll 8
        for (int64_t r = r0; r < r1; r++, a += p.lda)
#pragma unroll
            for (int c = 0; c < VW; c++)
                if (j + c < p.N) acc[c] = red_comb<OP>(acc[c], red_term<OP>(__ldg(a + c)));
    }
#pragma unroll
    for (int c = 0; c < VW; c++) {
        if (j + c >= p.N) break;
        if (splits == 1) out[j + c] = red_finish<OP>(acc[c], p.M);
        else out[(int64_t)blockIdx.y * p.N + j + c] = acc[c];
    }
}

// The columns' plan: strips of bs * VW columns; rows cut so that the GPU holds about 2 blocks
// of 256 threads per multiprocessor, each thread still folding 32 rows or more; a second pass,
// launched while the first runs (programmatic dependent launch), adds the cuts' partials in
// order. 2 blocks a multiprocessor, not 4: fewer, longer cuts read closer to the rows' speed on
// the H100 and leave fewer partials (docs/reduce.md, the H100 columns).
static pl_status columns_tuned(const pl_run_args *a, int bs, int sms)
{
    const pl_reduce_problem *p = (const pl_reduce_problem *)a->problem;
    cudaStream_t st = (cudaStream_t)a->stream;
    const float *A = (const float *)a->data[0];
    float *r = (float *)a->data[1], *out = r;
    const bool vec = p->lda % 4 == 0 && (uintptr_t)A % 16 == 0;
    const int vw = vec ? 4 : 1;
    const int64_t strips = (p->N + (int64_t)bs * vw - 1) / ((int64_t)bs * vw);
    const int64_t want = 2LL * sms * (256 / bs > 0 ? 256 / bs : 1);
    if (strips > 2147483647) return pl_fail(PL_ERR_ARG, "cuda-tuned: N = %lld is too many blocks", (long long)p->N);
    int64_t splits = (want + strips - 1) / strips, most = p->M / 32;
    if (splits > most) splits = most;
    if (splits > 65535) splits = 65535;
    if (splits < 1) splits = 1;
    const int64_t rows_per = (p->M + splits - 1) / splits;
    splits = (p->M + rows_per - 1) / rows_per;
    if (splits > 1) {
        void *ws = NULL;
        pl_status s = pl_ctx_dev_workspace(a->ctx, PL_REDUCE_WS_PARTIALS, sizeof(float) * (size_t)splits * (size_t)p->N, &ws);
        if (s != PL_OK) return s;
        out = (float *)ws;
    }
    dim3 grid((unsigned)strips, (unsigned)splits);
    if (vec) {
        PL_REDUCE_DISPATCH(p->op, (cols_tuned_kernel<OPC, true><<<grid, bs, 0, st>>>(*p, A, out, (int)splits, rows_per)));
    } else {
        PL_REDUCE_DISPATCH(p->op, (cols_tuned_kernel<OPC, false><<<grid, bs, 0, st>>>(*p, A, out, (int)splits, rows_per)));
    }
    pl_status s = pl_reduce_launched("cuda-tuned (columns)");
    if (s != PL_OK || splits == 1) return s;
    cudaLaunchAttribute pdl = pdl_launch_attr();
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(cols_finish_grid(p->N));
    cfg.blockDim = cols_finish_block();
    cfg.stream = st;
    cfg.attrs = &pdl;
    cfg.numAttrs = 1;
    const pl_reduce_problem q = *p;
    const float *part = out;
    cudaError_t e = cudaSuccess;
    PL_REDUCE_DISPATCH(p->op, (e = cudaLaunchKernelEx(&cfg, cols_finish_kernel<OPC>, q, part, r, (int)splits)));
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return pl_fail(PL_ERR_CUDA, "cuda-tuned (columns, second pass) launch: %s", cudaGetErrorString(e));
    }
    return PL_OK;
}

extern "C" pl_status pl_reduce_cuda_tuned(const pl_run_args *a)
{
    const pl_reduce_problem *p = (const pl_reduce_problem *)a->problem;
    int bs = (int)a->params[PL_REDUCE_CUDA_BLOCK];
    int sms = a->ctx->sm_count > 0 ? a->ctx->sm_count : 1;
    cudaStream_t st = (cudaStream_t)a->stream;
    const float *A = (const float *)a->data[0];
    float *r = (float *)a->data[1];
    if (p->axis == 0) return columns_tuned(a, bs, sms);
    if (p->N <= 512) {
        int rows_per_block = bs / 32;
        int64_t blocks = (p->M + rows_per_block - 1) / rows_per_block;
        if (blocks > 2147483647) return pl_fail(PL_ERR_ARG, "cuda-tuned: M = %lld is too many blocks", (long long)p->M);
        PL_REDUCE_DISPATCH(p->op, (warp_per_row_kernel<OPC><<<(unsigned)blocks, bs, 0, st>>>(*p, A, r)));
        return pl_reduce_launched("cuda-tuned");
    }
    if (p->M > 2147483647) return pl_fail(PL_ERR_ARG, "cuda-tuned: M = %lld is too many blocks", (long long)p->M);
    if (p->M >= 2LL * sms) {
        PL_REDUCE_DISPATCH(p->op, (block_per_piece_kernel<OPC><<<(unsigned)p->M, bs, 0, st>>>(*p, A, r, 1)));
        return pl_reduce_launched("cuda-tuned");
    }
    /* Few long rows: about 4 blocks per multiprocessor in all, each piece at least 4 loads per thread. */
    int64_t pieces = (4LL * sms + p->M - 1) / p->M, max_pieces = p->N / (16LL * bs);
    if (pieces > max_pieces) pieces = max_pieces;
    if (pieces > 1024) pieces = 1024;
    if (pieces < 1) pieces = 1;
    float *out = r;
    if (pieces > 1) {
        void *ws = NULL;
        pl_status s = pl_ctx_dev_workspace(a->ctx, PL_REDUCE_WS_PARTIALS, sizeof(float) * (size_t)(p->M * pieces), &ws);
        if (s != PL_OK) return s;
        out = (float *)ws;
    }
    unsigned grid = (unsigned)(p->M * pieces);
    PL_REDUCE_DISPATCH(p->op, (block_per_piece_kernel<OPC><<<grid, bs, 0, st>>>(*p, A, out, (int)pieces)));
    if (pieces > 1) {
        unsigned blocks = (unsigned)((p->M + 7) / 8);
        PL_REDUCE_DISPATCH(p->op, (pieces_finish_kernel<OPC><<<blocks, 256, 0, st>>>(*p, out, r, (int)pieces)));
    }
    return pl_reduce_launched("cuda-tuned");
}
