// cuda-shared-interleaved and cuda-shared-sequential: a block per output. Each thread folds
// the terms t, t + block, t + 2 block, ... (neighbouring threads read neighbours: coalesced
// along a row), then the block combines its values in a shared-memory tree. Accurate: each
// thread sums n/block terms, the tree adds log2(block) levels.
// interleaved: step s = 1, 2, 4, ...; thread t works when t % 2s == 0 and reads t + s: the
//   active threads are spread over all warps (divergence) and hit banks 2s apart (conflicts).
// sequential: s = block/2, block/4, ...; threads t < s read t + s: whole warps retire, reads
//   are consecutive (conflict-free). Next rung: warp shuffles instead of shared memory.
#include "kernels/reduce/cuda_reduce.cuh"

template <int OP, int SEQ>
static __global__ void shared_kernel(pl_reduce_problem p, const float *__restrict__ A, float *__restrict__ r)
{
    extern __shared__ float sdata[];
    int64_t o = blockIdx.x, n = pl_reduce_terms(&p), step = p.axis ? 1 : p.lda;
    const float *x = A + (p.axis ? o * p.lda : o);
    unsigned t = threadIdx.x, bs = blockDim.x;
    float acc = red_neutral<OP>();
    for (int64_t k = t; k < n; k += bs) acc = red_comb<OP>(acc, red_term<OP>(x[k * step]));
    sdata[t] = acc;
    __syncthreads();
    if (SEQ) {
        for (unsigned s = bs / 2; s > 0; s >>= 1) {
            if (t < s) sdata[t] = red_comb<OP>(sdata[t], sdata[t + s]);
            __syncthreads();
        }
    } else {
        for (unsigned s = 1; s < bs; s *= 2) {
            if (t % (2 * s) == 0) sdata[t] = red_comb<OP>(sdata[t], sdata[t + s]);
            __syncthreads();
        }
    }
    if (t == 0) r[o] = red_finish<OP>(sdata[0], n);
}

template <int SEQ> static pl_status run_shared(const pl_run_args *a, const char *who)
{
    const pl_reduce_problem *p = (const pl_reduce_problem *)a->problem;
    int bs = (int)a->params[PL_REDUCE_CUDA_BLOCK];
    int64_t R = pl_reduce_outputs(p);
    if (R > 2147483647) return pl_fail(PL_ERR_ARG, "%s: %lld outputs need more than 2^31-1 blocks", who, (long long)R);
    cudaStream_t st = (cudaStream_t)a->stream;
    const float *A = (const float *)a->data[0];
    float *r = (float *)a->data[1];
    size_t sh = sizeof(float) * (size_t)bs;
    PL_REDUCE_DISPATCH(p->op, (shared_kernel<OPC, SEQ><<<(unsigned)R, bs, sh, st>>>(*p, A, r)));
    return pl_reduce_launched(who);
}

extern "C" pl_status pl_reduce_cuda_shared_interleaved(const pl_run_args *a)
{
    return run_shared<0>(a, "cuda-shared-interleaved");
}

extern "C" pl_status pl_reduce_cuda_shared_sequential(const pl_run_args *a)
{
    return run_shared<1>(a, "cuda-shared-sequential");
}
