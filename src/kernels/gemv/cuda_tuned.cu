// cuda-tuned: the mapping chosen by shape (`map`: auto, rows, split, cluster), so that every
// shape keeps enough 128-bit loads in flight to run at the memory's speed.
//   y = A*x, rows: G lanes per row, G = 1..32 from the row length: several rows per warp for
//     short rows (no idle lanes), a warp per row for long ones; float4 loads where aligned,
//     unrolled, shuffle sums within each group of G lanes.
//   y = A*x, split (few long rows: fewer rows than the warps the GPU needs in flight): each
//     row cut into segments, a block of 256 threads per segment; one segment: the block
//     writes y; several: partial sums go to a workspace and a second kernel adds them in
//     order (no atomics: the same bits on every run).
//   y = A^T*x: column-parallel and coalesced: each lane owns 4 columns (adjacent: one float4
//     a row of A; 32 apart where rows are not 16-byte aligned, so each load is still a warp's
//     128 contiguous bytes), a warp covers 128 columns, the block's warps take alternate rows
//     and meet in shared memory. When the column strips alone leave SMs idle, the rows are cut
//     too: among the up to 8 blocks of a thread-block cluster (cluster), which add their
//     column sums through distributed shared memory in one kernel; or, where more cuts are
//     needed, among plain blocks with partials added by a second kernel (split).
#include "kernels/gemv/cuda_gemv.cuh"

#include <cooperative_groups.h>

// The device workspace slot of the split partial sums (the GEMM rungs hold slots 0-3).
enum { GEMV_WS_SPLIT = 4, SPLIT_BLOCK = 256, WARPS_PER_SM = 32, CLUSTER_MAX = 8 /* the portable size */ };

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { v = v < lo ? lo : v; return v > hi ? hi : v; } /* hi wins */

// ---------------------------------------------------------------- y = A*x, G lanes per row
template <int G, bool VEC>
static __global__ void gemv_rows_kernel(pl_gemv_problem p, const float *__restrict__ A, const float *__restrict__ x,
                                        float *__restrict__ y)
{
    const int64_t i = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / G;
    const int l = threadIdx.x % G;
    float sum = 0.0f;
    if (i < p.M) { // no early return: every lane takes part in the shuffles
        const float *a = A + i * p.lda;
        int64_t k = l;
        if (VEC) {
            const float4 *a4 = (const float4 *)a, *x4 = (const float4 *)x;
            const int64_t n4 = p.N / 4;
#pragma unroll 4
            for (int64_t q = l; q < n4; q += G) {
                float4 u = __ldg(a4 + q), v = __ldg(x4 + q);
                sum += u.x * v.x + u.y * v.y + u.z * v.z + u.w * v.w;
            }
            k = 4 * n4 + l;
        }
        for (; k < p.N; k += G) sum += __ldg(a + k) * __ldg(x + k);
    }
    sum = gemv_warp_sum(sum, G);
    if (i < p.M && l == 0) gemv_store(p, y, i, sum);
}

// ---------------------------------------------------------------- y = A*x, rows cut in segments
template <bool VEC>
static __global__ void gemv_split_rows_kernel(pl_gemv_problem p, const float *__restrict__ A,
                                              const float *__restrict__ x, float *__restrict__ y,
                                              float *__restrict__ part, int splits, int64_t seg)
{
    __shared__ float red[SPLIT_BLOCK / 32];
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const int64_t k0 = (int64_t)blockIdx.x * seg, k1 = k0 + seg < p.N ? k0 + seg : p.N;
    for (int64_t i = blockIdx.y; i < p.M; i += gridDim.y) {
        const float *a = A + i * p.lda;
        float sum = 0.0f;
        int64_t k = k0 + tid;
        if (VEC) { // seg is a multiple of 4: k0 is float4-aligned
            const float4 *a4 = (const float4 *)a, *x4 = (const float4 *)x;
#pragma unroll 4
            for (int64_t q = k0 / 4 + tid; q < k1 / 4; q += SPLIT_BLOCK) {
                float4 u = __ldg(a4 + q), v = __ldg(x4 + q);
                sum += u.x * v.x + u.y * v.y + u.z * v.z + u.w * v.w;
            }
            k = k1 / 4 * 4 + tid;
        }
        for (; k < k1; k += SPLIT_BLOCK) sum += __ldg(a + k) * __ldg(x + k);
        sum = gemv_warp_sum(sum);
        if (lane == 0) red[warp] = sum;
        __syncthreads();
        if (warp == 0) {
            sum = gemv_warp_sum(lane < SPLIT_BLOCK / 32 ? red[lane] : 0.0f);
            if (lane == 0) {
                if (splits == 1) gemv_store(p, y, i, sum);
                else part[(int64_t)blockIdx.x * p.M + i] = sum;
            }
        }
        __syncthreads(); // red is reused by the next row
    }
}

// ---------------------------------------------------------------- y = A^T*x, column strips
// The columns a block of the A^T mapping covers: each lane owns 4 of them.
enum { COLS_PER_BLOCK = 128 };

// The block's fold of rows [r0, r1) into its COLS_PER_BLOCK columns j0 = 128 blockIdx.x + t:
// each warp takes every W-th row, the warps meet in shared memory. A lane's 4 columns are
// adjacent (one float4 a row) where rows are 16-byte aligned (VEC), else 32 apart (4 loads a
// row, each a warp's 128 contiguous bytes). On return red[t] holds column j0 + t's sum.
template <bool VEC>
static __device__ __forceinline__ void cols_fold(const pl_gemv_problem &p, const float *__restrict__ A,
                                                 const float *__restrict__ x, int64_t r0, int64_t r1, float *red)
{
    constexpr int CW = COLS_PER_BLOCK;
    const int lane = threadIdx.x % 32, w = threadIdx.x / 32, W = blockDim.x / 32;
    const int64_t j0 = (int64_t)blockIdx.x * CW;
    const int first = VEC ? 4 * lane : lane, step = VEC ? 1 : 32; // column c of the lane: first + c step
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (j0 + CW <= p.N) { // the block's columns all inside A
#pragma unroll 4
        for (int64_t r = r0 + w; r < r1; r += W) {
            const float xr = __ldg(x + r);
            const float *a = A + r * p.lda + j0 + first;
            if (VEC) {
                float4 u = __ldg((const float4 *)a);
                acc[0] += u.x * xr, acc[1] += u.y * xr, acc[2] += u.z * xr, acc[3] += u.w * xr;
            } else {
#pragma unroll
                for (int c = 0; c < 4; c++) acc[c] += __ldg(a + c * step) * xr;
            }
        }
    } else { // the last strip: columns past N are skipped
        for (int64_t r = r0 + w; r < r1; r += W) {
            const float xr = __ldg(x + r);
            const float *a = A + r * p.lda + j0 + first;
#pragma unroll
            for (int c = 0; c < 4; c++)
                if (j0 + first + c * step < p.N) acc[c] += __ldg(a + c * step) * xr;
        }
    }
#pragma unroll
    for (int c = 0; c < 4; c++) red[w * CW + first + c * step] = acc[c];
    __syncthreads();
    for (int t = threadIdx.x; t < CW; t += blockDim.x) { // column t is read and written by one thread
        float s = 0.0f;
        for (int u = 0; u < W; u++) s += red[u * CW + t];
        red[t] = s;
    }
    __syncthreads();
}

// One pass over the rows, or one cut of them (splits > 1: partial sums to `part`).
template <bool VEC>
static __global__ void gemv_cols_kernel(pl_gemv_problem p, const float *__restrict__ A, const float *__restrict__ x,
                                        float *__restrict__ y, float *__restrict__ part, int splits, int64_t rows_per)
{
    extern __shared__ float red[]; // warps x COLS_PER_BLOCK partial sums
    constexpr int CW = COLS_PER_BLOCK;
    const int64_t r0 = (int64_t)blockIdx.y * rows_per, r1 = r0 + rows_per < p.M ? r0 + rows_per : p.M;
    cols_fold<VEC>(p, A, x, r0, r1, red);
    for (int t = threadIdx.x; t < CW; t += blockDim.x) {
        const int64_t jj = (int64_t)blockIdx.x * CW + t;
        if (jj < p.N) {
            if (splits == 1) gemv_store(p, y, jj, red[t]);
            else part[(int64_t)blockIdx.y * p.N + jj] = red[t];
        }
    }
}

// The rows cut among the S blocks of a thread-block cluster (grid.y == S): each block folds its
// cut, then pushes its column sums into block 0's inbox through distributed shared memory and
// arrives on the cluster barrier (release); the other blocks leave at once, block 0 waits
// (acquire) and adds the S rows of its inbox in rank order and writes y. No partials in global
// memory, no second launch, the same bits on every run. (Block r pulling its share of the
// columns from every block took two full cluster barriers and a remote read each: 0.6-1.8 us more
// at 4096^2 on the H100, docs/gemv.md.) A block may write another's shared memory only once
// that block has started: every block arrives on a first barrier phase as it starts and waits
// on it just before its push, long after all have arrived.
template <bool VEC>
static __global__ void gemv_cols_cluster_kernel(pl_gemv_problem p, const float *__restrict__ A,
                                                const float *__restrict__ x, float *__restrict__ y, int64_t rows_per)
{
    extern __shared__ float red[]; // warps x CW partial sums, then (block 0) CLUSTER_MAX x CW
    constexpr int CW = COLS_PER_BLOCK;
    namespace cg = cooperative_groups;
    cg::cluster_group cluster = cg::this_cluster();
    const int S = (int)cluster.num_blocks(), rank = (int)cluster.block_rank();
    float *inbox = red + (blockDim.x / 32) * CW;
    __cluster_barrier_arrive_relaxed(); // phase 1: this block has started
    const int64_t r0 = (int64_t)blockIdx.y * rows_per, r1 = r0 + rows_per < p.M ? r0 + rows_per : p.M;
    cols_fold<VEC>(p, A, x, r0, r1, red);
    __cluster_barrier_wait(); // every block of the cluster has started: block 0's inbox exists
    for (int t = threadIdx.x; t < CW; t += blockDim.x) cluster.map_shared_rank(inbox, 0)[rank * CW + t] = red[t];
    __cluster_barrier_arrive(); // phase 2 (release): the pushes are visible to who waits
    if (rank != 0) return;      // nothing reads this block's shared memory
    __cluster_barrier_wait();   // (acquire) every block has pushed
    for (int t = threadIdx.x; t < CW; t += blockDim.x) {
        float s = 0.0f;
        for (int q = 0; q < S; q++) s += inbox[q * CW + t];
        const int64_t jj = (int64_t)blockIdx.x * CW + t;
        if (jj < p.N) gemv_store(p, y, jj, s);
    }
}

// ---------------------------------------------------------------- the partial sums, in order
static __global__ void gemv_finish_kernel(pl_gemv_problem p, const float *__restrict__ part, float *__restrict__ y,
                                          int64_t ny, int splits)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ny) return;
    float s = 0.0f;
    for (int u = 0; u < splits; u++) s += part[(int64_t)u * ny + i];
    gemv_store(p, y, i, s);
}

// ---------------------------------------------------------------- the choice
typedef struct plan {
    int split;       // 0: rows (y = A*x) or one pass over the rows (A^T); 1: cut with partials;
                     // 2 (A^T): cut among the blocks of a cluster
    int G;           // y = A*x rows: lanes per row
    int splits;      // blocks along each output's terms
    int64_t seg;     // y = A*x split: terms per segment; A^T: rows per split
} plan;

// map: PL_GEMV_MAP_AUTO, _ROWS, _SPLIT or _CLUSTER (A^T only; y = A*x takes it as auto).
// `warps` = warps the GPU wants in flight.
static plan choose(const pl_gemv_problem *p, int vec, int block, int map, int64_t warps)
{
    plan c = {0, 32, 1, 0};
    if (!p->trans) {
        if (map == PL_GEMV_MAP_CLUSTER) map = PL_GEMV_MAP_AUTO;
        const int64_t loads = p->N / (vec ? 4 : 1);
        int G = 1;
        while (G < 32 && (int64_t)G * 4 < loads) G *= 2; // about 4 loads or more per lane
        c.G = G;
        const int few_long = G == 32 && p->M < warps / 2 && p->N >= 4096;
        if (map == PL_GEMV_MAP_SPLIT || (map == PL_GEMV_MAP_AUTO && few_long)) {
            c.split = 1;
            int64_t s = cdiv(warps, p->M * (SPLIT_BLOCK / 32));
            s = map == PL_GEMV_MAP_SPLIT ? clamp64(s, 2, cdiv(p->N, 4)) : clamp64(s, 1, cdiv(p->N, 4096));
            s = clamp64(s, 1, 65535);
            c.seg = cdiv(cdiv(p->N, s), 4) * 4;
            c.splits = (int)cdiv(p->N, c.seg);
        }
        return c;
    }
    const int64_t strips = cdiv(p->N, COLS_PER_BLOCK), W = block / 32;
    int64_t s = 1;
    const int64_t need = cdiv(warps, strips * W); // row cuts that fill the GPU with warps
    // auto takes a cluster where clusters of at most 8 blocks (the portable size) hold 90% of
    // those warps or more; else (tall and narrow A) plain blocks and partials
    if (map == PL_GEMV_MAP_AUTO && need > 1 && 10 * strips * clamp64(need, 1, CLUSTER_MAX) * W >= 9 * warps)
        map = PL_GEMV_MAP_CLUSTER;
    if (map == PL_GEMV_MAP_CLUSTER) {
        s = clamp64(need, 1, CLUSTER_MAX);
        s = clamp64(s, 1, p->M);
        c.seg = cdiv(p->M, s);
        c.splits = (int)s; // grid.y is the cluster's size: a block past M folds nothing
        c.split = s > 1 ? 2 : 0;
        return c;
    }
    if (map == PL_GEMV_MAP_SPLIT) s = clamp64(need, 2, p->M);
    else if (map == PL_GEMV_MAP_AUTO) s = clamp64(need, 1, cdiv(p->M, 16 * W));
    s = clamp64(s, 1, 65535);
    c.seg = cdiv(p->M, s);
    c.splits = (int)cdiv(p->M, c.seg);
    c.split = c.splits > 1;
    return c;
}

template <int G>
static void launch_rows(const pl_gemv_problem *p, bool vec, int block, const float *A, const float *x, float *y,
                        cudaStream_t st)
{
    const unsigned grid = gemv_blocks(p->M * G, block);
    if (vec) gemv_rows_kernel<G, true><<<grid, block, 0, st>>>(*p, A, x, y);
    else gemv_rows_kernel<G, false><<<grid, block, 0, st>>>(*p, A, x, y);
}

// A^T over a cluster of c.splits blocks along the rows (cluster dims 1 x S: grid.y == S).
static pl_status launch_cols_cluster(const pl_gemv_problem *p, bool vec, int block, plan c, const float *A,
                                     const float *x, float *y, cudaStream_t st)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute cluster[1];
    cluster[0].id = cudaLaunchAttributeClusterDimension;
    cluster[0].val.clusterDim.x = 1;
    cluster[0].val.clusterDim.y = (unsigned)c.splits;
    cluster[0].val.clusterDim.z = 1;
    cfg.gridDim = dim3((unsigned)cdiv(p->N, COLS_PER_BLOCK), (unsigned)c.splits);
    cfg.blockDim = dim3((unsigned)block);
    cfg.dynamicSmemBytes = sizeof(float) * (size_t)(block / 32 + CLUSTER_MAX) * COLS_PER_BLOCK;
    cfg.stream = st;
    cfg.attrs = cluster;
    cfg.numAttrs = 1;
    const pl_gemv_problem q = *p;
    const cudaError_t e = vec ? cudaLaunchKernelEx(&cfg, gemv_cols_cluster_kernel<true>, q, A, x, y, c.seg)
                              : cudaLaunchKernelEx(&cfg, gemv_cols_cluster_kernel<false>, q, A, x, y, c.seg);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return pl_fail(PL_ERR_CUDA, "cuda-tuned (cluster of %d) launch: %s", c.splits, cudaGetErrorString(e));
    }
    return gemv_launched("cuda-tuned (cluster)");
}

extern "C" pl_status pl_gemv_cuda_tuned(const pl_run_args *a)
{
    const pl_gemv_problem *p = (const pl_gemv_problem *)a->problem;
    const int map = (int)a->params[PL_GEMV_CUDA_TUNED_MAP];
    int block = (int)a->params[PL_GEMV_CUDA_TUNED_BLOCK];
    if (block == 0) block = p->trans ? 1024 : 256; // by form: measured best on H100/H200 (docs/gemv.md)
    const float *A = (const float *)a->data[0], *x = (const float *)a->data[1];
    float *y = (float *)a->data[2];
    cudaStream_t st = (cudaStream_t)a->stream;
    const int64_t sms = a->ctx->sm_count > 0 ? a->ctx->sm_count : 132;
    const bool vec = p->trans ? ((uintptr_t)A % 16 == 0 && p->lda % 4 == 0) : gemv_vec4(p, A, x);
    const plan c = choose(p, vec, block, map, WARPS_PER_SM * sms);
    const int64_t ny = pl_gemv_ylen(p);
    float *part = NULL;
    if (c.splits > 1 && c.split == 1) {
        void *ws;
        pl_status s = pl_ctx_dev_workspace(a->ctx, GEMV_WS_SPLIT, sizeof(float) * (size_t)c.splits * (size_t)ny, &ws);
        if (s != PL_OK) return s;
        part = (float *)ws;
    }
    if (!p->trans && !c.split) {
        switch (c.G) {
        case 1: launch_rows<1>(p, vec, block, A, x, y, st); break;
        case 2: launch_rows<2>(p, vec, block, A, x, y, st); break;
        case 4: launch_rows<4>(p, vec, block, A, x, y, st); break;
        case 8: launch_rows<8>(p, vec, block, A, x, y, st); break;
        case 16: launch_rows<16>(p, vec, block, A, x, y, st); break;
        default: launch_rows<32>(p, vec, block, A, x, y, st); break;
        }
    } else if (!p->trans) {
        dim3 grid((unsigned)c.splits, (unsigned)clamp64(p->M, 1, 65535));
        if (vec) gemv_split_rows_kernel<true><<<grid, SPLIT_BLOCK, 0, st>>>(*p, A, x, y, part, c.splits, c.seg);
        else gemv_split_rows_kernel<false><<<grid, SPLIT_BLOCK, 0, st>>>(*p, A, x, y, part, c.splits, c.seg);
    } else if (c.split == 2) {
        return launch_cols_cluster(p, vec, block, c, A, x, y, st);
    } else {
        dim3 grid((unsigned)cdiv(p->N, COLS_PER_BLOCK), (unsigned)c.splits);
        const size_t shared = sizeof(float) * (size_t)(block / 32) * COLS_PER_BLOCK;
        if (vec) gemv_cols_kernel<true><<<grid, block, shared, st>>>(*p, A, x, y, part, c.splits, c.seg);
        else gemv_cols_kernel<false><<<grid, block, shared, st>>>(*p, A, x, y, part, c.splits, c.seg);
    }
    pl_status s = gemv_launched("cuda-tuned");
    if (s != PL_OK || c.splits == 1) return s;
    gemv_finish_kernel<<<gemv_blocks(ny, 256), 256, 0, st>>>(*p, part, y, ny, c.splits);
    return gemv_launched("cuda-tuned (partial sums)");
}
