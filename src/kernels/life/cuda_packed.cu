// cuda_packed.cu: the packed layout's helpers on the device, for the distributed layer's GPU path
// (distributed Life on NCCL, one GPU a rank: src/distributed/nccl/nccl_life.c).
//   pl_life_copy_cells_device: halo strips packed out of a rank's window and unpacked into it,
//     parts of the window cut out and put back. A thread a destination word: it gathers the 64
//     source cells that land in its word (two source words, shifted: any bit offset on either
//     side) and writes them under a mask, so the cells around the rectangle in dst are kept: a
//     whole word by a store, a part of one by atomic and/or (two copies of one launch may meet
//     in a word, a corner strip beside a side's); src and dst must not overlap.
//   pl_life_copy_cells_device_batch: up to 8 such copies in one launch (a flat grid of them).
//   pl_life_census_device: a block's population and live box, reduced across GPUs by NCCL.
#include "kernels/life/cuda_common.cuh"

#include <climits>

// 64 cells of a source row from cell o on (o may be negative, or run past the row: those
// cells read as 0; the caller masks them out).
static __device__ uint64_t cells_from(const uint64_t *row, int64_t wpr, int64_t o)
{
    const int64_t wi = o >= 0 ? o / 64 : -((-o + 63) / 64); // floor(o / 64)
    const int sh = (int)(o - wi * 64);
    const uint64_t lo = wi >= 0 && wi < wpr ? row[wi] : 0, hi = wi + 1 >= 0 && wi + 1 < wpr ? row[wi + 1] : 0;
    return sh ? (lo >> sh) | (hi << (64 - sh)) : lo;
}

// The copies of a launch, by value (a kernel parameter, under 1 KB): a thread a (row, word) of
// a copy's destination, the copies' threads one after another in a flat grid (first_block: a
// copy's first block), so a strip one or two words wide and 32768 rows tall takes 512 blocks,
// not a rectangle of the widest copy's words by the tallest copy's rows (which left most
// blocks empty: 7.1 ms a run where 16 launches took 0.69).
struct copy_batch {
    pl_life_cell_copy c[PL_LIFE_COPY_BATCH];
    int64_t words[PL_LIFE_COPY_BATCH];          // destination words a row of each copy
    int64_t first_block[PL_LIFE_COPY_BATCH + 1]; // and its blocks' start in the grid (the last: the end)
    int n;
};
enum { COPY_THREADS = 128 };

static __global__ void copy_cells_kernel(copy_batch batch)
{
    int i = 0;
    while (i + 1 < batch.n && blockIdx.x >= batch.first_block[i + 1]) i++;
    const pl_life_cell_copy c = batch.c[i];
    const int64_t t = (blockIdx.x - batch.first_block[i]) * (int64_t)COPY_THREADS + threadIdx.x;
    if (t >= batch.words[i] * c.h) return;
    const int64_t y = t / batch.words[i], j = c.dx / 64 + t % batch.words[i]; // the row, the destination word
    const int64_t lo = j * 64 > c.dx ? j * 64 : c.dx, hi = j * 64 + 64 < c.dx + c.w ? j * 64 + 64 : c.dx + c.w; // its cells
    const int n = (int)(hi - lo), at = (int)(lo - j * 64);
    const uint64_t mask = (n == 64 ? ~0ull : ((1ull << n) - 1)) << at;
    const uint64_t v = cells_from(c.src + (c.sy + y) * c.src_wpr, c.src_wpr, c.sx - c.dx + j * 64);
    uint64_t *out = c.dst + (c.dy + y) * c.dst_wpr + j;
    if (mask == ~0ull) *out = v; // a whole word: no other copy's cells are in it
    else { // an edge word another copy of the launch may share (a corner strip beside a side's): bit-exact atomics
        atomicAnd((unsigned long long *)out, (unsigned long long)~(mask & ~v));
        atomicOr((unsigned long long *)out, (unsigned long long)(mask & v));
    }
}

extern "C" pl_status pl_life_copy_cells_device_batch(const pl_life_cell_copy *copies, int n, void *stream)
{
    if (n > PL_LIFE_COPY_BATCH) return pl_fail(PL_ERR_ARG, "life: %d copies in one batch, at most %d", n, PL_LIFE_COPY_BATCH);
    copy_batch batch;
    batch.n = 0;
    int64_t blocks = 0;
    for (int i = 0; i < n; i++) { // empty copies dropped
        const pl_life_cell_copy c = copies[i];
        if (c.w <= 0 || c.h <= 0) continue;
        const int64_t words = (c.dx + c.w - 1) / 64 - c.dx / 64 + 1;
        batch.c[batch.n] = c, batch.words[batch.n] = words, batch.first_block[batch.n] = blocks;
        blocks += (words * c.h + COPY_THREADS - 1) / COPY_THREADS;
        batch.n++;
    }
    if (!batch.n) return PL_OK;
    batch.first_block[batch.n] = blocks;
    if (blocks > INT32_MAX) return pl_fail(PL_ERR_OVERFLOW, "life: a copy of %lld blocks on the device", (long long)blocks);
    copy_cells_kernel<<<(unsigned)blocks, COPY_THREADS, 0, (cudaStream_t)stream>>>(batch);
    return life_launched("life: copy cells on the device");
}

extern "C" pl_status pl_life_copy_cells_device(uint64_t *dst, int64_t dst_wpr, int64_t dx, int64_t dy,
                                               const uint64_t *src, int64_t src_wpr, int64_t sx, int64_t sy, int64_t w,
                                               int64_t h, void *stream)
{
    const pl_life_cell_copy one = {dst, dst_wpr, dx, dy, src, src_wpr, sx, sy, w, h};
    return pl_life_copy_cells_device_batch(&one, 1, stream);
}

// ---------------------------------------------------------------- the census on the device
// pl_life_census_device: a thread a word of the rectangle (64 cells, read at any offset as
// above): its live cells counted and its first and last live cell folded into the five
// totals with 64-bit atomics. Totals as minima where they can be, so a caller can reduce them
// across GPUs with one sum and one min (NCCL): pop, x0, y0, -x1, -y1 (x1, y1 the last live
// column and row), in the caller's coordinates (ox, oy added).
static __global__ void census_kernel(const uint64_t *bits, int64_t wpr, int64_t x0, int64_t y0, int64_t w, int64_t h,
                                     int64_t ox, int64_t oy, long long *out)
{
    const int64_t x = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) * 64; // the word's first cell, rect-relative
    if (x >= w) return;
    const int n = w - x < 64 ? (int)(w - x) : 64;
    for (int64_t y = blockIdx.y; y < h; y += gridDim.y) {
        uint64_t v = cells_from(bits + (y0 + y) * wpr, wpr, x0 + x);
        if (n < 64) v &= (1ull << n) - 1;
        if (!v) continue;
        atomicAdd((unsigned long long *)&out[0], (unsigned long long)__popcll(v));
        atomicMin(&out[1], (long long)(ox + x + __ffsll((long long)v) - 1));
        atomicMin(&out[2], (long long)(oy + y));
        atomicMin(&out[3], -(long long)(ox + x + 63 - __clzll((long long)v)));
        atomicMin(&out[4], -(long long)(oy + y));
    }
}

static __global__ void census_init_kernel(long long *out)
{
    out[0] = 0;
    out[1] = out[2] = out[3] = out[4] = LLONG_MAX;
}

extern "C" pl_status pl_life_census_device(const uint64_t *bits, int64_t wpr, int64_t x0, int64_t y0, int64_t w,
                                           int64_t h, int64_t ox, int64_t oy, int64_t *out, void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    census_init_kernel<<<1, 1, 0, st>>>((long long *)out);
    if (w > 0 && h > 0) {
        const int64_t wds = (w + 63) / 64;
        const dim3 block(128), blocks((unsigned)((wds + 127) / 128), (unsigned)(h < 65535 ? h : 65535));
        census_kernel<<<blocks, block, 0, st>>>(bits, wpr, x0, y0, w, h, ox, oy, (long long *)out);
    }
    return life_launched("life: census on the device");
}
