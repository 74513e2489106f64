// cuda-naive: one thread per output, the terms folded in order from global memory. For rows,
// neighbouring threads read elements lda apart (every load its own transaction, uncoalesced);
// for columns they read neighbours (coalesced) but few outputs mean few threads.
// Next rung: a block per row, its threads reading neighbours, a tree in shared memory.
#include "kernels/reduce/cuda_reduce.cuh"
#include "kernels/ladder.h"

template <int OP> static __global__ void naive_kernel(pl_reduce_problem p, const float *__restrict__ A, float *__restrict__ r)
{
    int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, R = pl_reduce_outputs(&p), n = pl_reduce_terms(&p);
    if (o >= R) return;
    int64_t step = p.axis ? 1 : p.lda;
    const float *x = A + (p.axis ? o * p.lda : o);
    float acc = red_neutral<OP>();
    for (int64_t k = 0; k < n; k++) acc = red_comb<OP>(acc, red_term<OP>(x[k * step]));
    r[o] = red_finish<OP>(acc, n);
}

static const int64_t block_sizes[] = {32, 64, 128, 256, 512, 1024};
extern "C" const pl_param_def pl_reduce_cuda_block_params[] = {
    [PL_REDUCE_CUDA_BLOCK] =
        {.name = "block", .help = "threads per block",
         .kind = PL_PARAM_LIST, .values = block_sizes, .n_values = PL_COUNT(block_sizes), .def = 256},
};
PL_CHECK_COUNT(pl_reduce_cuda_block_params, PL_REDUCE_CUDA_BLOCK_N_PARAMS);

extern "C" pl_status pl_reduce_cuda_naive(const pl_run_args *a)
{
    const pl_reduce_problem *p = (const pl_reduce_problem *)a->problem;
    int bs = (int)a->params[PL_REDUCE_CUDA_BLOCK];
    int64_t blocks = (pl_reduce_outputs(p) + bs - 1) / bs;
    cudaStream_t st = (cudaStream_t)a->stream;
    const float *A = (const float *)a->data[0];
    float *r = (float *)a->data[1];
    PL_REDUCE_DISPATCH(p->op, (naive_kernel<OPC><<<(unsigned)blocks, bs, 0, st>>>(*p, A, r)));
    return pl_reduce_launched("cuda-naive");
}
