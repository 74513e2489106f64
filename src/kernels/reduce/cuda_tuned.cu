// cuda-tuned: the mapping chosen by shape. Rows of up to 512 elements: a warp per row (a block
// per row would leave most threads idle); many longer rows: a block per row; few long rows
// (fewer than two per multiprocessor): each row cut into pieces, a block per piece, and a
// second pass (a warp per row) over the pieces' partials, so every multiprocessor streams.
// Rows load 128 bits at a time after a scalar head up to 16-byte alignment, whatever the
// pitch. Columns: threads across columns (coalesced), rows split over blocks when there are
// too few columns to fill the GPU, and a second pass. Accurate (blocked sums).
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

extern "C" pl_status pl_reduce_cuda_tuned(const pl_run_args *a)
{
    const pl_reduce_problem *p = (const pl_reduce_problem *)a->problem;
    int bs = (int)a->params[PL_REDUCE_CUDA_BLOCK];
    int sms = a->ctx->sm_count > 0 ? a->ctx->sm_count : 1;
    cudaStream_t st = (cudaStream_t)a->stream;
    const float *A = (const float *)a->data[0];
    float *r = (float *)a->data[1];
    if (p->axis == 0) {
        /* Enough 32-column blocks for 4 per multiprocessor, or split the rows (each split at
         * least 8 rows per thread row, at most 64 splits). */
        int64_t cols_blocks = (p->N + 31) / 32, want = 4LL * sms;
        int64_t splits = cols_blocks >= want ? 1 : (want + cols_blocks - 1) / cols_blocks;
        int64_t max_by_rows = p->M / (8 * (bs / 32)) > 1 ? p->M / (8 * (bs / 32)) : 1;
        if (splits > max_by_rows) splits = max_by_rows;
        if (splits > 64) splits = 64;
        return pl_reduce_cuda_columns(a, bs, (int)splits);
    }
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
