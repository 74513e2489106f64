/* cpu_blocked.h: the SIMD inner kernel of cpu-blocked, built once per ISA from
 * cpu_blocked_body.h (cpu_blocked_avx2.c, cpu_blocked_avx512.c); cpu_blocked.c drives it
 * (bands over threads, row pointers, borders).
 *
 * One call computes `rows` consecutive output rows, n outputs each:
 *   out[o][x] = sum_{i,j} wf[i*K + j] * in[o + i][x + j],   0 <= o < rows, 0 <= x < n
 * in[] holds rows + K - 1 input row pointers, already placed so that in[yy][x + j] is the input
 * tap j of output x (the driver makes border rows point at a zero row or at the clamped or
 * reflected row, and builds small padded copies for the edge columns); wf is the filter as
 * the rung reads it (flip already applied). Every in[yy][0 .. n + K - 2] must be readable;
 * nothing outside it is read (tails use masked loads), nothing outside out[o][0 .. n) is written.
 * stream = 1: the outputs are written with streaming stores (past the caches, no read for
 * ownership) where aligned; every out[o] must then share one alignment modulo 64 bytes, and the
 * caller fences (_mm_sfence) before the outputs are read. prefetch = 1: the rows new to the
 * group (in[K-1 ..]) are prefetched ahead of the columns being computed. */
#ifndef PL_CONV2D_CPU_BLOCKED_H
#define PL_CONV2D_CPU_BLOCKED_H

#include "kernels/conv2d/conv2d.h"

/* The most output rows one register block holds (the driver's row groups are this size). */
enum { CONV2D_BLOCK_ROWS = 4 };

typedef struct conv2d_simd_isa {
    void (*f32)(int K, const float *wf, const float *const *in, float *const *out, int rows, int64_t n, int stream,
                int prefetch);
    void (*i32)(int K, const int32_t *wf, const int32_t *const *in, int32_t *const *out, int rows, int64_t n,
                int stream, int prefetch);
} conv2d_simd_isa;

extern const conv2d_simd_isa pl_conv2d_simd_avx2, pl_conv2d_simd_avx512;

#endif
