// cuda-tuned: cuda-tiled's shared-memory tile, made to keep the FMA units or the memory busy.
//   - A block of 32 x 8 threads computes a 64-wide, 8*rows-tall output tile: each thread a
//     column strip of `rows` outputs at two columns (tx and tx + 32), accumulated in registers.
//     Walking its strip down, a thread reads each input value of the strip from shared memory
//     once per filter column and applies it to every output row it touches: (rows+K-1)*K
//     shared loads per rows*K*K FMAs (8*15^2 FMAs per 22*15 loads at K = 15, rows = 8), where
//     cuda-tiled paid one load per FMA. K is a template parameter: the loops over the strip and
//     the filter rows unroll and the accumulators stay in registers.
//   - The tile (plus halo) is loaded 128 bits at a time where the image rows are 16-byte
//     aligned (ld_img a multiple of 4, aligned base): the tile starts at the 4-aligned column at
//     or left of its first input column, and a quad that crosses an edge of the image is read
//     element by element through the border rule.
//   - Separable filters (K >= 5): a filter of rank 1 (w = col row^T) costs 2K instead of K^2
//     FMAs per output: a horizontal pass writes the row-filtered tile back into shared memory, a vertical
//     pass filters its columns. The filter lives in device memory, so the decision is made on
//     the device, with no copy back to the host inside the timed run: a one-block kernel first
//     orients the filter (flip), tests rank 1 exactly (float32: w_ij*w_pq == w_iq*w_pj in
//     double, exact for float products, around the largest entry w_pq; int32: the same in
//     int64) and writes the factors (float32: col_i = w_iq, row_j = w_pj / w_pq rounded once,
//     so col_i*row_j is w_ij within 2 units of rounding, inside the spec's gamma(K*K+4); int32:
//     row = row p divided by its gcd, col_i = w_iq / row_q, exact for a rank-1 integer matrix)
//     and a flag into a workspace; the main kernel reads the flag and takes one path for the
//     whole block. Parameter sep=off forces the 2-D path (to compare the two).
#include "kernels/conv2d/cuda_common.cuh"
#include "kernels/ladder.h"

#include <type_traits>

enum { TW = 64, TBX = 32, TBY = 8, NT = TBX * TBY };
// The separable path from K = 5 up; below, a K = 3 filter's 9 FMAs per output are not what
// bounds the run (memory is), and the kernel orients the filter itself: one launch, not two.
enum { SEP_MIN_K = 5 };

// The prepared filter: [0] 1 if separable, [1, 1+K) row factors, [1+K, 1+2K) column factors,
// [1+2K, 1+2K+K*K) the filter in tap order (flip resolved).
static __host__ __device__ constexpr int prep_words(int K) { return 1 + 2 * K + K * K; }

template <typename T> struct Wide;
template <> struct Wide<float> { typedef double type; };
template <> struct Wide<int> { typedef long long type; };

static __device__ long long gcd_ll(long long a, long long b)
{
    a = a < 0 ? -a : a, b = b < 0 ? -b : b;
    while (b) {
        long long t = a % b;
        a = b, b = t;
    }
    return a;
}

template <typename T>
static __global__ void conv2d_prep_kernel(const T *__restrict__ w, int K, int flip, int allow_sep, T *__restrict__ prep)
{
    typedef typename Wide<T>::type W;
    __shared__ W sw[PL_CONV2D_MAX_K * PL_CONV2D_MAX_K];
    __shared__ int pivot;
    const int t = threadIdx.x, taps = K * K;
    T *ow = prep + 1 + 2 * K;
    for (int k = t; k < taps; k += blockDim.x) {
        T v = w[pl_conv2d_tap(K, flip, k / K, k % K)];
        ow[k] = v;
        sw[k] = (W)v;
    }
    __syncthreads();
    if (t == 0) {
        int best = -1;
        W big = 0;
        for (int k = 0; k < taps; k++) {
            W m = sw[k] < 0 ? -sw[k] : sw[k];
            if (m > big) big = m, best = k;
        }
        pivot = best;
    }
    __syncthreads();
    const int pv = pivot;
    int rank1 = allow_sep && K >= SEP_MIN_K && pv >= 0;
    if (rank1) {
        const int pr = pv / K, pc = pv % K;
        for (int k = t; k < taps; k += blockDim.x) {
            const int i = k / K, j = k % K;
            if (sw[k] * sw[pv] != sw[i * K + pc] * sw[pr * K + j]) rank1 = 0;
        }
    }
    rank1 = __syncthreads_and(rank1);
    if (t != 0) return;
    prep[0] = T(rank1);
    if (!rank1) { // the main kernel copies every prep word: none is left unwritten
        for (int j = 0; j < 2 * K; j++) prep[1 + j] = T(0);
        return;
    }
    const int pr = pv / K, pc = pv % K;
    T *row = prep + 1, *col = prep + 1 + K;
    if constexpr (std::is_same<T, float>::value) {
        for (int j = 0; j < K; j++) row[j] = (T)((float)ow[pr * K + j] / (float)ow[pv]);
        for (int i = 0; i < K; i++) col[i] = ow[i * K + pc];
    } else { // int32: row p over its gcd, then col_i = w_iq / row_q (exact for rank 1)
        long long g = 0;
        for (int j = 0; j < K; j++) g = gcd_ll(g, (long long)ow[pr * K + j]);
        for (int j = 0; j < K; j++) row[j] = (T)((long long)ow[pr * K + j] / g);
        for (int i = 0; i < K; i++) col[i] = (T)((long long)ow[i * K + pc] / (long long)row[pc]);
    }
}

// 16 bytes of T from global memory (the caller checked the alignment).
template <typename T> struct Quad;
template <> struct Quad<float> {
    typedef float4 type;
    static __device__ __forceinline__ void load(const float *p, float v[4])
    {
        float4 q = __ldg((const float4 *)p);
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    }
};
template <> struct Quad<int> {
    typedef int4 type;
    static __device__ __forceinline__ void load(const int *p, int v[4])
    {
        int4 q = __ldg((const int4 *)p);
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    }
};

template <int K, int RY> struct TileShape {
    static constexpr int TH = TBY * RY;                  // output rows per block
    static constexpr int RS = TH + K - 1;                // input tile rows
    static constexpr int SW = (TW + K - 1 + 3 + 3) / 4 * 4; // input tile row (4-aligned start, up to 3 before)
    static constexpr int NQ = SW / 4;                     // quads per tile row
    static constexpr size_t smem_bytes = sizeof(float) * (size_t)(RS * SW + prep_words(K));
};

template <typename T, int K, int RY>
static __global__ void __launch_bounds__(NT) conv2d_tuned_kernel(pl_conv2d_problem p, const T *__restrict__ img,
                                                                 const T *__restrict__ filt, const T *__restrict__ prep,
                                                                 T *__restrict__ out, int vec)
{
    typedef TileShape<K, RY> S;
    extern __shared__ __align__(16) unsigned char smem[];
    T *s_img = (T *)smem, *s_f = s_img + S::RS * S::SW;
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * TBX + tx;
    if (K >= SEP_MIN_K) {
        for (int k = t; k < prep_words(K); k += NT) s_f[k] = prep[k];
    } else { // no separable path: orient the filter here, no preparation kernel
        if (t == 0) s_f[0] = T(0);
        for (int k = t; k < K * K; k += NT) s_f[1 + 2 * K + k] = filt[pl_conv2d_tap(K, p.flip, k / K, k % K)];
    }

    // The input tile: rows iy0 .., columns ax0 .. (ax0 4-aligned, shift = ix0 - ax0 in 0..3).
    const int off = conv2d_offset(p);
    const int64_t x0 = (int64_t)blockIdx.x * TW, y0 = (int64_t)blockIdx.y * S::TH;
    const int64_t iy0 = y0 - off, ix0 = x0 - off, ax0 = ix0 & ~(int64_t)3;
    const int shift = (int)(ix0 - ax0);
    const int border = p.mode == PL_CONV2D_SAME ? p.border : PL_CONV2D_ZERO;
    // All of a thread's quads are loaded into registers before any is stored, so NL loads are
    // in flight at once (a load-store loop would wait for each load in turn). A tile wholly
    // inside the image with aligned rows (most tiles) skips the border rule.
    typedef typename Quad<T>::type Q;
    constexpr int NQT = S::RS * S::NQ, NL = (NQT + NT - 1) / NT;
    T v[NL][4];
    const bool interior = vec && iy0 >= 0 && iy0 + S::RS <= p.H && ax0 >= 0 && ax0 + S::SW <= p.W;
    if (interior) {
        const T *base = img + iy0 * p.ld_img + ax0;
#pragma unroll
        for (int l = 0; l < NL; l++) {
            const int idx = l * NT + t, r = idx / S::NQ, q = idx % S::NQ;
            if (NQT % NT == 0 || idx < NQT) Quad<T>::load(base + r * p.ld_img + 4 * q, v[l]);
        }
    } else {
#pragma unroll
        for (int l = 0; l < NL; l++) {
            const int idx = l * NT + t, r = idx / S::NQ, q = idx % S::NQ;
            if (!(NQT % NT == 0 || idx < NQT)) continue;
            const int64_t gy = pl_conv2d_border_index(border, iy0 + r, p.H), gx = ax0 + 4 * q;
            if (gy < 0) {
                v[l][0] = v[l][1] = v[l][2] = v[l][3] = T(0);
            } else if (vec && gx >= 0 && gx + 3 < p.W) {
                Quad<T>::load(img + gy * p.ld_img + gx, v[l]);
            } else {
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    const int64_t gxe = pl_conv2d_border_index(border, gx + e, p.W);
                    v[l][e] = gxe < 0 ? T(0) : img[gy * p.ld_img + gxe];
                }
            }
        }
    }
#pragma unroll
    for (int l = 0; l < NL; l++) {
        const int idx = l * NT + t, r = idx / S::NQ, q = idx % S::NQ;
        if (NQT % NT == 0 || idx < NQT) *(Q *)(s_img + r * S::SW + 4 * q) = Q{v[l][0], v[l][1], v[l][2], v[l][3]};
    }
    __syncthreads();

    T acc[RY][2];
#pragma unroll
    for (int ry = 0; ry < RY; ry++) acc[ry][0] = acc[ry][1] = T(0);

    if (s_f[0] != T(0)) {
        // Separable: row filter every tile row in place (all reads before any write), then
        // column filter the strips.
        const T *row = s_f + 1, *col = s_f + 1 + K;
        constexpr int NH = S::RS * TW, NE = (NH + NT - 1) / NT;
        T h[NE];
#pragma unroll
        for (int e = 0; e < NE; e++) {
            const int idx = e * NT + t, r = idx / TW, c = idx % TW;
            h[e] = T(0);
            if (idx < NH) {
                const T *src = s_img + r * S::SW + shift + c;
#pragma unroll
                for (int j = 0; j < K; j++) h[e] = conv2d_fma(row[j], src[j], h[e]);
            }
        }
        __syncthreads();
#pragma unroll
        for (int e = 0; e < NE; e++) {
            const int idx = e * NT + t;
            if (idx < NH) s_img[(idx / TW) * S::SW + idx % TW] = h[e];
        }
        __syncthreads();
        const T *strip = s_img + ty * RY * S::SW + tx;
#pragma unroll
        for (int rr = 0; rr < RY + K - 1; rr++) {
            const T v0 = strip[rr * S::SW], v1 = strip[rr * S::SW + 32];
#pragma unroll
            for (int ry = 0; ry < RY; ry++) {
                const int i = rr - ry;
                if (i >= 0 && i < K) {
                    acc[ry][0] = conv2d_fma(col[i], v0, acc[ry][0]);
                    acc[ry][1] = conv2d_fma(col[i], v1, acc[ry][1]);
                }
            }
        }
    } else {
        // 2-D: for each filter column j, the K taps of that column in registers, then down the
        // strip: each value read once, applied to every output row whose window holds it.
        const T *wt = s_f + 1 + 2 * K;
        const T *strip = s_img + ty * RY * S::SW + shift + tx;
        constexpr int UJ = K <= 5 ? K : 1;
#pragma unroll UJ
        for (int j = 0; j < K; j++) {
            T wc[K];
#pragma unroll
            for (int i = 0; i < K; i++) wc[i] = wt[i * K + j];
#pragma unroll
            for (int rr = 0; rr < RY + K - 1; rr++) {
                const T v0 = strip[rr * S::SW + j], v1 = strip[rr * S::SW + j + 32];
#pragma unroll
                for (int ry = 0; ry < RY; ry++) {
                    const int i = rr - ry;
                    if (i >= 0 && i < K) {
                        acc[ry][0] = conv2d_fma(wc[i], v0, acc[ry][0]);
                        acc[ry][1] = conv2d_fma(wc[i], v1, acc[ry][1]);
                    }
                }
            }
        }
    }

    const int64_t x = x0 + tx, y = y0 + (int64_t)ty * RY;
#pragma unroll
    for (int ry = 0; ry < RY; ry++) {
        if (y + ry >= p.OH) break;
        T *o = out + (y + ry) * p.ld_out + x;
        if (x < p.OW) o[0] = acc[ry][0];
        if (x + 32 < p.OW) o[32] = acc[ry][1];
    }
}

// layout=block (issue 23, K = 7, 9, 11): each thread computes RY rows x 4 ADJACENT columns
// (a block 128 x 8*RY outputs), so one 128-bit shared load brings 4 input values that feed
// 4 outputs each. The strip above (two columns 32 apart) pays 2 (RY + K - 1) + K shared loads
// per 2 RY K FMAs for a filter column: about 4.4 FMAs per load at K = 7, rows 16, and the issue
// slots run out before the FMA units do (docs/notes/conv2d-cuda.md, ncu: 0.59 of issued
// instructions FFMA). Here a thread walks the RY + K - 1 input rows of its strip once (loop
// unrolled: K and RY are template parameters), holds the row's K + 3 values (rounded up to
// quads) in registers, and applies them to every output row whose window holds that input row,
// each with that filter row's K taps (128-bit broadcast loads): per input row about
// (K + 3) / 4 + RY * ceil(K/4) loads for up to RY * K * 4 FMAs, 10-14 FMAs per load.
// The tile starts at the output tile's first input column, which must be 4-aligned (valid
// mode, or same mode with K/2 a multiple of 4); the launcher falls back to the strip otherwise.
enum { BX = 4, BTW = TBX * BX }; // outputs per thread across x; tile width

template <int K, int RY> struct BlockShape {
    static constexpr int TH = TBY * RY;                   // output rows per block
    static constexpr int RS = TH + K - 1;                 // input tile rows
    static constexpr int NS = (BX + K - 1 + 3) / 4 * 4;   // a thread's input row segment
    static constexpr int SW = BTW - BX + NS;              // input tile row (a multiple of 4)
    static constexpr int NQ = SW / 4;                     // quads per tile row
    static constexpr int KW = (K + 3) / 4 * 4;            // a filter row, padded to quads
    static constexpr int FW = K * KW + 2 * KW + 4;        // filter words: taps, row, col, flag
    static constexpr size_t smem_bytes = sizeof(float) * (size_t)(RS * SW + FW);
};

template <typename T, int K, int RY>
static __global__ void __launch_bounds__(NT) conv2d_block_kernel(pl_conv2d_problem p, const T *__restrict__ img,
                                                                 const T *__restrict__ prep, T *__restrict__ out,
                                                                 int vec_in, int vec_out)
{
    typedef BlockShape<K, RY> S;
    typedef typename Quad<T>::type Q;
    extern __shared__ __align__(16) unsigned char smem[];
    T *s_img = (T *)smem, *s_w = s_img + S::RS * S::SW, *s_row = s_w + K * S::KW, *s_col = s_row + S::KW,
      *s_flag = s_col + S::KW;
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * TBX + tx;
    // The prepared filter (K >= 5 here): taps zero-padded to KW per row, the factors, the flag.
    for (int k = t; k < K * S::KW; k += NT) {
        const int i = k / S::KW, j = k % S::KW;
        s_w[k] = j < K ? prep[1 + 2 * K + i * K + j] : T(0);
    }
    for (int k = t; k < S::KW; k += NT) {
        s_row[k] = k < K ? prep[1 + k] : T(0);
        s_col[k] = k < K ? prep[1 + K + k] : T(0);
    }
    if (t == 0) s_flag[0] = prep[0];

    // The input tile: rows iy0 .., columns ix0 .. (4-aligned: the launcher checked).
    const int off = conv2d_offset(p);
    const int64_t x0 = (int64_t)blockIdx.x * BTW, y0 = (int64_t)blockIdx.y * S::TH;
    const int64_t iy0 = y0 - off, ix0 = x0 - off;
    const int border = p.mode == PL_CONV2D_SAME ? p.border : PL_CONV2D_ZERO;
    constexpr int NQT = S::RS * S::NQ, NL = (NQT + NT - 1) / NT;
    T v[NL][4];
    const bool interior = vec_in && iy0 >= 0 && iy0 + S::RS <= p.H && ix0 >= 0 && ix0 + S::SW <= p.W;
    if (interior) {
        const T *base = img + iy0 * p.ld_img + ix0;
#pragma unroll
        for (int l = 0; l < NL; l++) {
            const int idx = l * NT + t, r = idx / S::NQ, q = idx % S::NQ;
            if (NQT % NT == 0 || idx < NQT) Quad<T>::load(base + r * p.ld_img + 4 * q, v[l]);
        }
    } else {
#pragma unroll
        for (int l = 0; l < NL; l++) {
            const int idx = l * NT + t, r = idx / S::NQ, q = idx % S::NQ;
            if (!(NQT % NT == 0 || idx < NQT)) continue;
            const int64_t gy = pl_conv2d_border_index(border, iy0 + r, p.H), gx = ix0 + 4 * q;
            if (gy < 0) {
                v[l][0] = v[l][1] = v[l][2] = v[l][3] = T(0);
            } else if (vec_in && gx >= 0 && gx + 3 < p.W) {
                Quad<T>::load(img + gy * p.ld_img + gx, v[l]);
            } else {
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    const int64_t gxe = pl_conv2d_border_index(border, gx + e, p.W);
                    v[l][e] = gxe < 0 ? T(0) : img[gy * p.ld_img + gxe];
                }
            }
        }
    }
#pragma unroll
    for (int l = 0; l < NL; l++) {
        const int idx = l * NT + t, r = idx / S::NQ, q = idx % S::NQ;
        if (NQT % NT == 0 || idx < NQT) *(Q *)(s_img + r * S::SW + 4 * q) = Q{v[l][0], v[l][1], v[l][2], v[l][3]};
    }
    __syncthreads();

    T acc[RY][BX];
#pragma unroll
    for (int ry = 0; ry < RY; ry++)
#pragma unroll
        for (int c = 0; c < BX; c++) acc[ry][c] = T(0);

    if (s_flag[0] != T(0)) {
        // Separable: each tile row filtered along x into its first 128 columns (all reads
        // before any write), then each thread's 4 columns filtered down.
        constexpr int NH = S::RS * BTW, NE = (NH + NT - 1) / NT;
        T h[NE];
#pragma unroll
        for (int e = 0; e < NE; e++) {
            const int idx = e * NT + t, r = idx / BTW, c = idx % BTW;
            h[e] = T(0);
            if (idx < NH) {
#pragma unroll
                for (int j = 0; j < K; j++) h[e] = conv2d_fma(s_row[j], s_img[r * S::SW + c + j], h[e]);
            }
        }
        __syncthreads();
#pragma unroll
        for (int e = 0; e < NE; e++) {
            const int idx = e * NT + t;
            if (idx < NH) s_img[(idx / BTW) * S::SW + idx % BTW] = h[e];
        }
        __syncthreads();
        const T *strip = s_img + ty * RY * S::SW + BX * tx;
#pragma unroll
        for (int rr = 0; rr < RY + K - 1; rr++) {
            const Q q = *(const Q *)(strip + rr * S::SW);
            const T x4[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
            for (int ry = 0; ry < RY; ry++) {
                const int i = rr - ry;
                if (i >= 0 && i < K) {
#pragma unroll
                    for (int c = 0; c < BX; c++) acc[ry][c] = conv2d_fma(s_col[i], x4[c], acc[ry][c]);
                }
            }
        }
    } else {
        const T *strip = s_img + ty * RY * S::SW + BX * tx;
#pragma unroll
        for (int rr = 0; rr < RY + K - 1; rr++) {
            T seg[S::NS];
#pragma unroll
            for (int q = 0; q < S::NS / 4; q++) {
                const Q v4 = *(const Q *)(strip + rr * S::SW + 4 * q);
                seg[4 * q] = v4.x, seg[4 * q + 1] = v4.y, seg[4 * q + 2] = v4.z, seg[4 * q + 3] = v4.w;
            }
#pragma unroll
            for (int ry = 0; ry < RY; ry++) {
                const int i = rr - ry;
                if (i < 0 || i >= K) continue;
                T w[S::KW];
#pragma unroll
                for (int q = 0; q < S::KW / 4; q++) {
                    const Q w4 = *(const Q *)(s_w + i * S::KW + 4 * q);
                    w[4 * q] = w4.x, w[4 * q + 1] = w4.y, w[4 * q + 2] = w4.z, w[4 * q + 3] = w4.w;
                }
#pragma unroll
                for (int j = 0; j < K; j++)
#pragma unroll
                    for (int c = 0; c < BX; c++) acc[ry][c] = conv2d_fma(w[j], seg[c + j], acc[ry][c]);
            }
        }
    }

    const int64_t x = x0 + BX * tx, y = y0 + (int64_t)ty * RY;
#pragma unroll
    for (int ry = 0; ry < RY; ry++) {
        if (y + ry >= p.OH) break;
        T *o = out + (y + ry) * p.ld_out + x;
        if (vec_out && x + BX - 1 < p.OW) {
            *(Q *)o = Q{acc[ry][0], acc[ry][1], acc[ry][2], acc[ry][3]};
        } else {
#pragma unroll
            for (int c = 0; c < BX; c++)
                if (x + c < p.OW) o[c] = acc[ry][c];
        }
    }
}

static const int64_t rows_values[] = {0, 4, 8, 16};
enum { SEP_AUTO, SEP_OFF };
static const char *const sep_choices[] = {"auto", "off", NULL}; // in the order of SEP_*
enum { LAYOUT_AUTO, LAYOUT_STRIP, LAYOUT_BLOCK };
static const char *const layout_choices[] = {"auto", "strip", "block", NULL}; // in the order of LAYOUT_*
extern "C" const pl_param_def pl_conv2d_cuda_tuned_params[] = {
    [PL_CONV2D_CUDA_TUNED_ROWS] =
        {.name = "rows", .help = "outputs per thread down a column (two columns each): a block computes 64 x "
                                 "(8*rows) outputs; 0 auto: the best of the H100 sweep for the filter size "
                                 "(docs/notes/conv2d-cuda.md)",
         .kind = PL_PARAM_LIST, .values = rows_values, .n_values = PL_COUNT(rows_values), .def = 0},
    [PL_CONV2D_CUDA_TUNED_SEP] =
        {.name = "sep", .help = "auto: the separable path when the filter has rank 1 (K >= 5); off: always the 2-D "
                                "path",
         .kind = PL_PARAM_CHOICE, .choices = sep_choices, .def = SEP_AUTO},
    [PL_CONV2D_CUDA_TUNED_LAYOUT] =
        {.name = "layout", .help = "strip: two columns 32 apart per thread; block: 4 adjacent columns per thread "
                                   "(K 7, 9, 11 with a 4-aligned tile start; rows 4 or 8; else the strip); auto: "
                                   "strip",
         .kind = PL_PARAM_CHOICE, .choices = layout_choices, .def = LAYOUT_AUTO},
};
PL_CHECK_COUNT(pl_conv2d_cuda_tuned_params, PL_CONV2D_CUDA_TUNED_N_PARAMS);

template <typename T, int K, int RY>
static pl_status launch_rows(const pl_run_args *a, const T *prep, int vec)
{
    typedef TileShape<K, RY> S;
    const pl_conv2d_problem *p = (const pl_conv2d_problem *)a->problem;
    const int64_t gx = (p->OW + TW - 1) / TW, gy = (p->OH + S::TH - 1) / S::TH;
    pl_status s = conv2d_grid_fits("cuda-tuned", p, gx, gy);
    if (s != PL_OK) return s;
    static_assert(S::smem_bytes <= 48 * 1024, "the tile fits the default shared-memory limit");
    dim3 block(TBX, TBY), grid((unsigned)gx, (unsigned)gy);
    conv2d_tuned_kernel<T, K, RY><<<grid, block, S::smem_bytes, (cudaStream_t)a->stream>>>(
        *p, (const T *)a->data[0], (const T *)a->data[1], prep, (T *)a->data[2], vec);
    return conv2d_launched("cuda-tuned");
}

// rows = 0 (auto): K <= 3, memory-bound with little arithmetic, takes short strips (more
// blocks, fewer registers, more loads in flight); from K = 5 on, long strips (fewer shared
// loads per FMA) won every sweep on the H100 at 10000^2 (docs/notes/conv2d-cuda.md).
static int auto_rows(int K) { return K <= 3 ? 4 : 16; }

template <typename T, int K, int RY>
static pl_status launch_block(const pl_run_args *a, const T *prep, int vec)
{
    typedef BlockShape<K, RY> S;
    const pl_conv2d_problem *p = (const pl_conv2d_problem *)a->problem;
    const int64_t gx = (p->OW + BTW - 1) / BTW, gy = (p->OH + S::TH - 1) / S::TH;
    pl_status s = conv2d_grid_fits("cuda-tuned", p, gx, gy);
    if (s != PL_OK) return s;
    static_assert(S::smem_bytes <= 48 * 1024, "the tile fits the default shared-memory limit");
    const int vec_out = p->ld_out % 4 == 0 && (uintptr_t)a->data[2] % 16 == 0;
    dim3 block(TBX, TBY), grid((unsigned)gx, (unsigned)gy);
    conv2d_block_kernel<T, K, RY><<<grid, block, S::smem_bytes, (cudaStream_t)a->stream>>>(
        *p, (const T *)a->data[0], prep, (T *)a->data[2], vec, vec_out);
    return conv2d_launched("cuda-tuned");
}

// layout=block applies to K 7, 9 and 11 with a prepared filter and a 4-aligned tile start
// (valid mode; same mode where K/2 is a multiple of 4); elsewhere the strip runs.
static bool block_applies(const pl_run_args *a, int K, bool prepared)
{
    const pl_conv2d_problem *p = (const pl_conv2d_problem *)a->problem;
    return a->params[PL_CONV2D_CUDA_TUNED_LAYOUT] == LAYOUT_BLOCK && (K == 7 || K == 9 || K == 11) && prepared &&
           (conv2d_offset(*p) & 3) == 0;
}

template <typename T, int K>
static pl_status launch_k(const pl_run_args *a, const T *prep, int vec)
{
    const int64_t rows = a->params[PL_CONV2D_CUDA_TUNED_ROWS];
    if constexpr (K == 7 || K == 9 || K == 11) {
        if (block_applies(a, K, prep != nullptr)) {
            switch (rows ? rows : 8) {
            case 4: return launch_block<T, K, 4>(a, prep, vec);
            case 8: return launch_block<T, K, 8>(a, prep, vec);
            default:
                return pl_fail(PL_ERR_ARG, "cuda-tuned: layout=block takes rows 0 (auto: 8), 4 or 8, not %lld",
                               (long long)rows);
            }
        }
    }
    switch (rows ? rows : auto_rows(K)) {
    case 4: return launch_rows<T, K, 4>(a, prep, vec);
    case 8: return launch_rows<T, K, 8>(a, prep, vec);
    case 16: return launch_rows<T, K, 16>(a, prep, vec);
    default: return pl_fail(PL_ERR_ARG, "cuda-tuned: rows=%lld (legal: 0 auto, 4, 8, 16)", (long long)rows);
    }
}

template <typename T>
static pl_status launch(const pl_run_args *a)
{
    const pl_conv2d_problem *p = (const pl_conv2d_problem *)a->problem;
    if (p->OH <= 0 || p->OW <= 0) return PL_OK;
    T *prep = nullptr;
    pl_status s;
    if (p->K >= SEP_MIN_K) {
        void *ws = nullptr;
        if ((s = pl_ctx_dev_workspace(a->ctx, PL_CONV2D_WS, sizeof(T) * (size_t)prep_words(p->K), &ws)) != PL_OK)
            return s;
        prep = (T *)ws;
        const int allow_sep = a->params[PL_CONV2D_CUDA_TUNED_SEP] == SEP_AUTO;
        conv2d_prep_kernel<T><<<1, 256, 0, (cudaStream_t)a->stream>>>((const T *)a->data[1], p->K, p->flip,
                                                                       allow_sep, prep);
        if ((s = conv2d_launched("cuda-tuned (filter preparation)")) != PL_OK) return s;
    }
    const int vec = p->ld_img % 4 == 0 && (uintptr_t)a->data[0] % 16 == 0;
    switch (p->K) {
    case 1: return launch_k<T, 1>(a, prep, vec);
    case 3: return launch_k<T, 3>(a, prep, vec);
    case 5: return launch_k<T, 5>(a, prep, vec);
    case 7: return launch_k<T, 7>(a, prep, vec);
    case 9: return launch_k<T, 9>(a, prep, vec);
    case 11: return launch_k<T, 11>(a, prep, vec);
    case 13: return launch_k<T, 13>(a, prep, vec);
    case 15: return launch_k<T, 15>(a, prep, vec);
    default: return pl_fail(PL_ERR_ARG, "cuda-tuned: K=%d (odd, 1..15)", p->K);
    }
}

extern "C" pl_status pl_conv2d_cuda_tuned(const pl_run_args *a)
{
    const pl_conv2d_problem *p = (const pl_conv2d_problem *)a->problem;
    pl_status s = conv2d_dtype_ok("cuda-tuned", p);
    if (s != PL_OK) return s;
    return p->dtype == PL_F32 ? launch<float>(a) : launch<int>(a);
}
