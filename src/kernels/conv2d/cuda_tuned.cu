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
//   - The taps kernel (float32, K >= 7; path=auto takes it from K = 9): the filter is copied into
//     __constant__ memory, and the loops over a thread's outputs, the filter rows and columns
//     are all unrolled, so every tap's address is known when compiling: the weights reach the
//     FFMAs through uniform registers loaded once from the constant bank, with no shared load and
//     no register of their own. A thread computes 4 adjacent columns x RY rows; each input row of
//     its strip (4 + K - 1 values) comes from shared memory in 128-bit loads (the tile is stored
//     from its first input column, so the loads are 16-byte aligned) and feeds every output row
//     whose window holds it: at K = 9, 2592 FFMAs for 44-48 shared loads a thread (the strip kernel:
//     about 4 FFMAs a load). The constant bank is one per device: a lock and an event keep two
//     contexts from overwriting each other's filter between the copy and the kernel.
#include "kernels/conv2d/cuda_common.cuh"
#include "kernels/ladder.h"

#include <mutex>
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

// The input tile: rows iy0 .. iy0 + RS - 1 of the extended image (the border rule outside the
// image), SW / 4 quads a row read from the 4-aligned column ax0 = ix0 - shift, into s_img (row
// stride SW). FROM_IX0 false: the value at column ax0 + c goes to tile column c (the strip
// kernel reads at + shift); true: to column c - shift, so that tile column 0 holds ix0 and a
// thread's 16-byte segment loads stay aligned (the values left of ix0 are dropped).
// All of a thread's quads are loaded into registers before any is stored, so NL loads are in
// flight at once (a load-store loop would wait for each load in turn). A tile wholly inside the
// image with aligned rows (most tiles) skips the border rule.
template <typename T, int RS, int SW, bool FROM_IX0>
static __device__ __forceinline__ void conv2d_load_tile(T *__restrict__ s_img, const pl_conv2d_problem &p,
                                                        const T *__restrict__ img, int64_t iy0, int64_t ax0,
                                                        int shift, int vec, int t)
{
    typedef typename Quad<T>::type Q;
    constexpr int NQ = SW / 4, NQT = RS * NQ, NL = (NQT + NT - 1) / NT;
    const int border = p.mode == PL_CONV2D_SAME ? p.border : PL_CONV2D_ZERO;
    T v[NL][4];
    const bool interior = vec && iy0 >= 0 && iy0 + RS <= p.H && ax0 >= 0 && ax0 + SW <= p.W;
    if (interior) {
        const T *base = img + iy0 * p.ld_img + ax0;
#pragma unroll
        for (int l = 0; l < NL; l++) {
            const int idx = l * NT + t, r = idx / NQ, q = idx % NQ;
            if (NQT % NT == 0 || idx < NQT) Quad<T>::load(base + r * p.ld_img + 4 * q, v[l]);
        }
    } else {
#pragma unroll
        for (int l = 0; l < NL; l++) {
            const int idx = l * NT + t, r = idx / NQ, q = idx % NQ;
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
        const int idx = l * NT + t, r = idx / NQ, q = idx % NQ;
        if (!(NQT % NT == 0 || idx < NQT)) continue;
        if (!FROM_IX0 || shift == 0) {
            *(Q *)(s_img + r * SW + 4 * q) = Q{v[l][0], v[l][1], v[l][2], v[l][3]};
        } else {
#pragma unroll
            for (int e = 0; e < 4; e++)
                if (4 * q + e >= shift) s_img[r * SW + 4 * q + e - shift] = v[l][e];
        }
    }
}

// The separable path's first half: every tile row filtered by the row factors, in place (all
// reads before any write), TW outputs a row read from column `first`; barriers on both sides.
template <typename T, int K, int RS, int SW, int TW>
static __device__ __forceinline__ void conv2d_rows_in_place(T *__restrict__ s_img, const T *__restrict__ row,
                                                            int first, int t)
{
    constexpr int NH = RS * TW, NE = (NH + NT - 1) / NT;
    T h[NE];
#pragma unroll
    for (int e = 0; e < NE; e++) {
        const int idx = e * NT + t, r = idx / TW, c = idx % TW;
        h[e] = T(0);
        if (idx < NH) {
            const T *src = s_img + r * SW + first + c;
#pragma unroll
            for (int j = 0; j < K; j++) h[e] = conv2d_fma(row[j], src[j], h[e]);
        }
    }
    __syncthreads();
#pragma unroll
    for (int e = 0; e < NE; e++) {
        const int idx = e * NT + t;
        if (idx < NH) s_img[(idx / TW) * SW + idx % TW] = h[e];
    }
    __syncthreads();
}

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
    conv2d_load_tile<T, S::RS, S::SW, false>(s_img, p, img, iy0, ax0, shift, vec, t);
    __syncthreads();

    T acc[RY][2];
#pragma unroll
    for (int ry = 0; ry < RY; ry++) acc[ry][0] = acc[ry][1] = T(0);

    if (s_f[0] != T(0)) {
        // Separable: row filter every tile row in place (all reads before any write), then
        // column filter the strips.
        const T *row = s_f + 1, *col = s_f + 1 + K;
        conv2d_rows_in_place<T, K, S::RS, S::SW, TW>(s_img, row, shift, t);
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

// The taps kernel's filter, in tap order (flip resolved), copied from the prepared filter
// before each launch (launch_taps). Its offsets are compile-time constants in the kernel.
__constant__ float c_conv2d_taps[PL_CONV2D_MAX_K * PL_CONV2D_MAX_K];

// A block of 32 x 8 threads computes 128 x 8*RY outputs, a thread 4 adjacent columns x RY rows.
template <int K, int RY> struct TapsShape {
    static constexpr int C = 4, TWT = TBX * C, TH = TBY * RY, RS = TH + K - 1;
    static constexpr int NQS = (C + K - 1 + 3) / 4; // 16-byte loads of a thread's input row segment
    // a tile row holds the block's TWT + K - 1 input columns from ix0 once read from ax0 (up to 3
    // before), and every thread's last segment load
    static constexpr int SW_LOAD = (TWT + K - 1 + 3 + 3) / 4 * 4, SW_READ = 4 * (TBX - 1) + 4 * NQS;
    static constexpr int SW = SW_LOAD > SW_READ ? SW_LOAD : SW_READ;
    static constexpr size_t smem_bytes = sizeof(float) * (size_t)(RS * SW + 1 + 2 * K);
};

// Rows a thread at K (H100 sweep, docs/notes/conv2d-cuda.md): 8 at K = 9, held to 64 registers
// (4 blocks a multiprocessor); 4 elsewhere, held to 48 (5 blocks), where 8 needs 96-128.
static __host__ __device__ constexpr int taps_rows(int K) { return K == 9 ? 8 : 4; }
static __host__ __device__ constexpr int taps_blocks(int K) { return K == 9 ? 4 : 5; }

template <int K, int RY = taps_rows(K)>
static __global__ void __launch_bounds__(NT, taps_blocks(K)) conv2d_taps_kernel(pl_conv2d_problem p, const float *__restrict__ img,
                                                                 const float *__restrict__ prep,
                                                                 float *__restrict__ out, int vec)
{
    typedef TapsShape<K, RY> S;
    constexpr int C = S::C;
    extern __shared__ __align__(16) unsigned char smem[];
    float *s_img = (float *)smem, *s_f = s_img + S::RS * S::SW;
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * TBX + tx;
    for (int k = t; k < 1 + 2 * K; k += NT) s_f[k] = prep[k]; // the rank-1 flag and factors

    const int off = conv2d_offset(p);
    const int64_t x0 = (int64_t)blockIdx.x * S::TWT, y0 = (int64_t)blockIdx.y * S::TH;
    const int64_t iy0 = y0 - off, ix0 = x0 - off, ax0 = ix0 & ~(int64_t)3;
    conv2d_load_tile<float, S::RS, S::SW, true>(s_img, p, img, iy0, ax0, (int)(ix0 - ax0), vec, t);
    __syncthreads();

    float acc[RY][C];
#pragma unroll
    for (int ry = 0; ry < RY; ry++)
#pragma unroll
        for (int c = 0; c < C; c++) acc[ry][c] = 0.0f;
    const float *strip = s_img + ty * RY * S::SW + C * tx;
    if (s_f[0] != 0.0f) {
        // Separable: the tile's rows filtered in place, then the thread's columns.
        const float *col = s_f + 1 + K;
        conv2d_rows_in_place<float, K, S::RS, S::SW, S::TWT>(s_img, s_f + 1, 0, t);
#pragma unroll
        for (int rr = 0; rr < RY + K - 1; rr++) {
            const float4 u = *(const float4 *)(strip + rr * S::SW);
            const float seg[C] = {u.x, u.y, u.z, u.w};
#pragma unroll
            for (int ry = 0; ry < RY; ry++) {
                const int i = rr - ry;
                if (i >= 0 && i < K)
#pragma unroll
                    for (int c = 0; c < C; c++) acc[ry][c] = fmaf(col[i], seg[c], acc[ry][c]);
            }
        }
    } else {
        // 2-D: each input row of the strip read once, then applied to every output row whose
        // window holds it with that filter row's taps (constant-bank operands).
#pragma unroll
        for (int rr = 0; rr < RY + K - 1; rr++) {
            float seg[4 * S::NQS];
#pragma unroll
            for (int q = 0; q < S::NQS; q++) {
                const float4 u = *(const float4 *)(strip + rr * S::SW + 4 * q);
                seg[4 * q] = u.x, seg[4 * q + 1] = u.y, seg[4 * q + 2] = u.z, seg[4 * q + 3] = u.w;
            }
#pragma unroll
            for (int ry = 0; ry < RY; ry++) {
                const int i = rr - ry;
                if (i < 0 || i >= K) continue;
#pragma unroll
                for (int j = 0; j < K; j++)
#pragma unroll
                    for (int c = 0; c < C; c++) acc[ry][c] = fmaf(c_conv2d_taps[i * K + j], seg[c + j], acc[ry][c]);
            }
        }
    }

    const int64_t x = x0 + C * tx, y = y0 + (int64_t)ty * RY;
#pragma unroll
    for (int ry = 0; ry < RY; ry++) {
        if (y + ry >= p.OH) break;
        float *o = out + (y + ry) * p.ld_out + x;
        // The widest stores this row's 4 outputs allow: 16 bytes (written as a float4 store, the
        // compiler split it), or two of 8 where the row starts 8 bytes off (an output row of
        // 4n + 2 floats, as valid mode at K = 11 on 10000 columns makes, on every other row).
        const unsigned align = (unsigned)((uintptr_t)o & 15u);
        if (x + C <= p.OW && align == 0) {
            __stcs((float4 *)o, make_float4(acc[ry][0], acc[ry][1], acc[ry][2], acc[ry][3]));
        } else if (x + C <= p.OW && align == 8) {
            __stcs((float2 *)o, make_float2(acc[ry][0], acc[ry][1]));
            __stcs((float2 *)(o + 2), make_float2(acc[ry][2], acc[ry][3]));
        } else {
#pragma unroll
            for (int c = 0; c < C; c++)
                if (x + c < p.OW) o[c] = acc[ry][c];
        }
    }
}

static const int64_t rows_values[] = {0, 4, 8, 16};
enum { SEP_AUTO, SEP_OFF };
static const char *const sep_choices[] = {"auto", "off", NULL}; // in the order of SEP_*
enum { PATH_AUTO, PATH_STRIP, PATH_TAPS };
static const char *const path_choices[] = {"auto", "strip", "taps", NULL}; // in the order of PATH_*
extern "C" const pl_param_def pl_conv2d_cuda_tuned_params[] = {
    [PL_CONV2D_CUDA_TUNED_ROWS] =
        {.name = "rows", .help = "the strip kernel's outputs per thread down a column (two columns each): a "
                                 "block computes 64 x (8*rows) outputs; 0 auto: the best of the H100 sweep for the "
                                 "filter size (docs/notes/conv2d-cuda.md). The taps kernel's rows are fixed by K",
         .kind = PL_PARAM_LIST, .values = rows_values, .n_values = PL_COUNT(rows_values), .def = 0},
    [PL_CONV2D_CUDA_TUNED_SEP] =
        {.name = "sep", .help = "auto: the separable path when the filter has rank 1 (K >= 5); off: always the 2-D "
                                "path",
         .kind = PL_PARAM_CHOICE, .choices = sep_choices, .def = SEP_AUTO},
    [PL_CONV2D_CUDA_TUNED_PATH] =
        {.name = "path", .help = "strip: a column strip per thread, the filter in shared memory; taps: 4 x rows "
                                 "outputs per thread, the filter in constant memory (float32, K >= 7; int32 and "
                                 "smaller K run the strip); auto: taps for float32 from K = 9, else strip",
         .kind = PL_PARAM_CHOICE, .choices = path_choices, .def = PATH_AUTO},
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

template <typename T, int K>
static pl_status launch_k(const pl_run_args *a, const T *prep, int vec)
{
    const int64_t rows = a->params[PL_CONV2D_CUDA_TUNED_ROWS];
    switch (rows ? rows : auto_rows(K)) {
    case 4: return launch_rows<T, K, 4>(a, prep, vec);
    case 8: return launch_rows<T, K, 8>(a, prep, vec);
    case 16: return launch_rows<T, K, 16>(a, prep, vec);
    default: return pl_fail(PL_ERR_ARG, "cuda-tuned: rows=%lld (legal: 0 auto, 4, 8, 16)", (long long)rows);
    }
}

// One constant bank a device, one stream a context: the copy of a filter into the bank and the
// kernel that reads it are queued under a lock, and each copy first waits (on its own stream)
// for the last taps kernel queued on the device, whichever stream that was on (an event a
// device, re-recorded after each launch; a wait takes the event's state when it is queued).
enum { TAPS_MAX_DEVICES = 64 };
static std::mutex taps_lock;
static cudaEvent_t taps_last_read[TAPS_MAX_DEVICES];

template <int K>
static pl_status launch_taps(const pl_run_args *a, const float *prep, int vec)
{
    typedef TapsShape<K, taps_rows(K)> S;
    const pl_conv2d_problem *p = (const pl_conv2d_problem *)a->problem;
    const int64_t gx = (p->OW + S::TWT - 1) / S::TWT, gy = (p->OH + S::TH - 1) / S::TH;
    pl_status s = conv2d_grid_fits("cuda-tuned", p, gx, gy);
    if (s != PL_OK) return s;
    static_assert(S::smem_bytes <= 48 * 1024, "the tile fits the default shared-memory limit");
    // The current device, the one the copy and the kernel go to (the bank and the event are its).
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "cuda-tuned: cudaGetDevice: %s", cudaGetErrorString(e));
    if (dev >= TAPS_MAX_DEVICES) return launch_k<float, K>(a, prep, vec); // beyond the table: the strip
    cudaStream_t stream = (cudaStream_t)a->stream;
    std::lock_guard<std::mutex> hold(taps_lock);
    cudaEvent_t &last = taps_last_read[dev];
    if (!last) e = cudaEventCreateWithFlags(&last, cudaEventDisableTiming);
    if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, last, 0);
    if (e == cudaSuccess)
        e = cudaMemcpyToSymbolAsync(c_conv2d_taps, prep + 1 + 2 * K, sizeof(float) * K * K, 0,
                                    cudaMemcpyDeviceToDevice, stream);
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "cuda-tuned: the filter to constant memory: %s", cudaGetErrorString(e));
    dim3 block(TBX, TBY), grid((unsigned)gx, (unsigned)gy);
    conv2d_taps_kernel<K><<<grid, block, S::smem_bytes, stream>>>(*p, (const float *)a->data[0], prep,
                                                                   (float *)a->data[2], vec);
    if ((s = conv2d_launched("cuda-tuned (taps)")) != PL_OK) return s;
    if ((e = cudaEventRecord(last, stream)) != cudaSuccess)
        return pl_fail(PL_ERR_CUDA, "cuda-tuned: cudaEventRecord: %s", cudaGetErrorString(e));
    return PL_OK;
}

// path auto takes the taps kernel from K = 9; at K = 7 the strip is as fast (both near the
// copy-bound time, docs/notes/conv2d-cuda.md).
static bool use_taps(int64_t path, int K) { return path == PATH_TAPS ? K >= 7 : path == PATH_AUTO && K >= 9; }

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
    if constexpr (std::is_same<T, float>::value) {
        if (use_taps(a->params[PL_CONV2D_CUDA_TUNED_PATH], p->K)) {
            switch (p->K) {
            case 7: return launch_taps<7>(a, prep, vec);
            case 9: return launch_taps<9>(a, prep, vec);
            case 11: return launch_taps<11>(a, prep, vec);
            case 13: return launch_taps<13>(a, prep, vec);
            case 15: return launch_taps<15>(a, prep, vec);
            }
        }
    }
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
