/* cpu_blocked_body.h: the register-blocked inner kernel for one ISA and one element type
 * (see cpu_blocked.h for what it computes). The including file defines T (float or int32_t),
 * V (the vector), VW (lanes), VZ() (zeros), VB(s) (s in every lane), VL(p) / VS(p, v) (unaligned
 * load, store), VLM(p, n) / VSM(p, v, n) (the first n lanes only), VMA(acc, w, x) (acc + w*x)
 * UB (vectors across a register block: R*UB accumulators plus UB inputs must fit the
 * register file) and FN(name) (the names of this copy).
 *
 * The idea: a block of R output rows x U vectors of columns lives in R*U accumulator
 * registers. The input rows under the block are walked once: each input vector loaded (row
 * yy, tap column j) serves every output row o of the block whose filter row yy - o exists,
 * with that tap's weight broadcast. So a load feeds up to min(R, K) x U FMAs, not one: at K = 3
 * there are 0.5 loads per FMA instead of 1, and the FMA units, not the loads, set the pace.
 * K, R and U are constants in each copy (a switch on K below), so every loop over taps unrolls
 * and the accumulators stay in registers. */

#define INLINE static inline __attribute__((always_inline))
/* How far ahead (elements) the rows new to a group are prefetched: 16 KiB. Measured at 10000^2
 * (docs/conv2d.md): 2 and 8 KiB ahead were slower, 32 KiB no better; without it K = 7 ran at
 * a quarter of the in-cache rate (the hardware prefetchers lose the 4 new row streams). */
#ifndef PF_AHEAD
#define PF_AHEAD 4096
#endif

/* The R x U block at column x. masked > 0: one vector (U = 1) holding only `masked` lanes.
 * stream: the outputs go to memory by streaming stores (out[o] + x aligned to a vector).
 * prefetch: ask for the rows new to this group PF_AHEAD elements ahead. */
INLINE void FN(block)(const int K, const int R, const int U, const T *wf, const T *const *in, T *const *out,
                      int64_t x, int masked, int stream, int prefetch)
{
    V acc[CONV2D_BLOCK_ROWS][UB];
#pragma GCC unroll 8
    for (int o = 0; o < R; o++)
#pragma GCC unroll 8
        for (int u = 0; u < U; u++) acc[o][u] = VZ();
    /* Input row yy feeds output rows o = yy - i for filter rows i in 0..K-1. Small blocks
     * unroll completely (the row test folds away); large K keeps the row loop. */
#define CONV2D_TAP_ROW(yy)                                                                       \
    do {                                                                                         \
        const T *row = in[yy] + x;                                                               \
        _Pragma("GCC unroll 16") for (int j = 0; j < K; j++)                                     \
        {                                                                                        \
            V v[UB];                                                                       \
            _Pragma("GCC unroll 8") for (int u = 0; u < U; u++) v[u] =                           \
                masked ? VLM(row + j, masked) : VL(row + j + u * VW);                            \
            _Pragma("GCC unroll 8") for (int o = 0; o < R; o++)                                  \
            {                                                                                    \
                const int i = (yy) - o;                                                          \
                if (i < 0 || i >= K) continue;                                                   \
                const V w = VB(wf[i * K + j]);                                                   \
                _Pragma("GCC unroll 8") for (int u = 0; u < U; u++) acc[o][u] = VMA(acc[o][u], w, v[u]); \
            }                                                                                    \
        }                                                                                        \
    } while (0)
    /* The rows no earlier group has read come from memory: ask for them ahead. */
    if (!masked && prefetch)
#pragma GCC unroll 8
        for (int yy = K - 1; yy < R + K - 1; yy++)
#pragma GCC unroll 8
            for (int u = 0; u < U; u++) _mm_prefetch((const char *)(in[yy] + x + PF_AHEAD + u * VW), _MM_HINT_T0);
    if (R + K - 1 <= 8) {
#pragma GCC unroll 8
        for (int yy = 0; yy < R + K - 1; yy++) CONV2D_TAP_ROW(yy);
    } else {
        for (int yy = 0; yy < R + K - 1; yy++) CONV2D_TAP_ROW(yy);
    }
#undef CONV2D_TAP_ROW
#pragma GCC unroll 8
    for (int o = 0; o < R; o++)
#pragma GCC unroll 8
        for (int u = 0; u < U; u++) {
            if (masked) VSM(out[o] + x, acc[o][u], masked);
            else if (stream) VNT(out[o] + x + u * VW, acc[o][u]);
            else VS(out[o] + x + u * VW, acc[o][u]);
        }
}

/* R rows, n outputs each: U vectors at a time, then single vectors, then a masked one. With
 * stream (every out[o] equally aligned), a masked head first so the rest store aligned. */
INLINE void FN(rows)(const int K, const int R, const int U, const T *wf, const T *const *in, T *const *out, int64_t n,
                     int stream, int prefetch)
{
    int64_t x = 0;
    if (stream) {
        const int64_t head = (int64_t)((VW * sizeof(T) - ((uintptr_t)out[0] % (VW * sizeof(T)))) % (VW * sizeof(T))) /
                             (int64_t)sizeof(T);
        if (head >= n) stream = 0;
        else if (head > 0) FN(block)(K, R, 1, wf, in, out, 0, (int)head, 0, prefetch), x = head;
    }
    for (; x + U * VW <= n; x += U * VW) FN(block)(K, R, U, wf, in, out, x, 0, stream, prefetch);
    for (; x + VW <= n; x += VW) FN(block)(K, R, 1, wf, in, out, x, 0, stream, prefetch);
    if (x < n) FN(block)(K, R, 1, wf, in, out, x, (int)(n - x), 0, 0);
}

/* A full group of CONV2D_BLOCK_ROWS rows, or fewer one row at a time. */
INLINE void FN(group)(const int K, const T *wf, const T *const *in, T *const *out, int rows, int64_t n, int stream,
                      int prefetch)
{
    if (rows == CONV2D_BLOCK_ROWS) {
        FN(rows)(K, CONV2D_BLOCK_ROWS, UB, wf, in, out, n, stream, prefetch);
    } else {
        for (int o = 0; o < rows; o++) FN(rows)(K, 1, UB, wf, in + o, out + o, n, stream, prefetch);
    }
}

static void FN(any_k)(int K, const T *wf, const T *const *in, T *const *out, int rows, int64_t n, int stream,
                      int prefetch)
{
    switch (K) {
    case 1: FN(group)(1, wf, in, out, rows, n, stream, prefetch); break;
    case 3: FN(group)(3, wf, in, out, rows, n, stream, prefetch); break;
    case 5: FN(group)(5, wf, in, out, rows, n, stream, prefetch); break;
    case 7: FN(group)(7, wf, in, out, rows, n, stream, prefetch); break;
    case 9: FN(group)(9, wf, in, out, rows, n, stream, prefetch); break;
    case 11: FN(group)(11, wf, in, out, rows, n, stream, prefetch); break;
    case 13: FN(group)(13, wf, in, out, rows, n, stream, prefetch); break;
    default: FN(group)(15, wf, in, out, rows, n, stream, prefetch); break;
    }
}

#undef INLINE
