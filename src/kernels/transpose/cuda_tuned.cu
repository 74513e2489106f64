// cuda-tuned: the padded shared-memory tile made bigger and busier. A block of 32 x R threads
// (R = block / 32; 32 x 8 by default) moves a 64 x 64 tile, 4096 / (32 R) elements per
// thread (16 at 32 x 8): many independent loads in flight per thread and the index arithmetic
// and __syncthreads paid once per 16 elements instead of once per element. Where A's and B's
// rows start on 16-byte boundaries (lda, ldb multiples of 4, aligned bases), each thread moves
// float4s: 128-bit loads from rows of A, 128-bit stores to rows of B (four column reads from
// the tile assembled into one register quad). The tile keeps its padding column, so the
// column reads stay conflict-free (the float4 fills into it are 2-way). Ragged edges fall back
// to element-wise moves for the quads that cross M or N.
//
// Odd pitches: where a row of B does not start on a 128-byte line, a 64-wide tile
// row of B covers parts of three lines, and the lines at its ends are written in two pieces by
// two blocks. align=b shears the tile instead: in row j of B the block writes
// i in [i0 - e(j), i0 - e(j) + 64), e(j) the offset (in floats) of B[j][0] in its 128-byte
// line, so every row of B is written as two whole aligned lines (128-bit stores, whatever the
// pitch), and A is read from a 96-row window (rows i0 - 32 .. i0 + 63), each element by the
// one block whose sheared rows of B hold it (the rest of the window predicated off). align=a
// does the same for the rows of A (whole aligned lines read, 128-bit loads; B written from
// a 96-column window). On the H100 the write side is what counts: at 4097x4095 align=b runs in
// 0.0563 ms, the square tile 0.0656, align=a 0.080 (docs/transpose.md); align=auto takes b
// where B's rows do not all start on a line. order= picks the order in which the tiles are
// handed out (the grid is one-dimensional and each block derives its tile): row (A's row
// bands, the tiles of one band of A in turn), col (B's row bands), diag (diagonal), group
// (bands of 8 tile rows, tiles of a column of the band in turn); with align=b they are within
// 2% of each other (diag 4% slower), so row stays.
#include "core/core.h"
#include "kernels/transpose/transpose.h"
#include "kernels/ladder.h"

#include <cuda_runtime.h>
#include <limits.h>
#include <stdint.h>

enum { TT = 64, HALO = 32 }; // HALO: how far a sheared row moves (a 128-byte line is 32 floats)
enum { MODE_TILE, MODE_A, MODE_B };  // the kernel's tile: square, sheared by A's lines, by B's lines
enum { ORDER_ROW, ORDER_COL, ORDER_DIAG, ORDER_GROUP };
enum { GROUP = 8 };

// The block's tile from its place in the launch order: bi the strip of A's rows (B's columns),
// bj the strip of A's columns (B's rows).
static __device__ __forceinline__ void tile_of(int order, unsigned nbi, unsigned nbj, unsigned &bi, unsigned &bj)
{
    const unsigned b = blockIdx.x;
    if (order == ORDER_COL) {
        bi = b % nbi, bj = b / nbi;
    } else if (order == ORDER_DIAG) {
        bi = b % nbi, bj = (b / nbi + bi) % nbj;
    } else if (order == ORDER_GROUP) {
        const unsigned per = GROUP * nbj, g = b / per, first = g * GROUP, w = b - g * per;
        const unsigned gs = min(nbi - first, (unsigned)GROUP);
        bi = first + w % gs, bj = w / gs;
    } else {
        bi = b / nbj, bj = b % nbj;
    }
}

// The offset in floats of element `row` * ld of the array at base in its 128-byte line.
static __device__ __forceinline__ int line_offset(const float *base, int64_t row, int64_t ld)
{
    return (int)(((unsigned)((uintptr_t)base >> 2) + (unsigned)row * (unsigned)ld) & 31u);
}

// 128-bit global accesses written out, so that the compiler cannot split them (with an
// element-wise fallback beside it, nvcc 13 merged a float4 store into four 32-bit stores).
static __device__ __forceinline__ float4 ld4(const float *p)
{
    float4 v;
    asm("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}
static __device__ __forceinline__ void st4(float *p, float4 v)
{
    asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w));
}

// Every mode loads all of a thread's elements of the tile into registers before it stores any
// into shared memory: NE (or NQ quads) loads in flight per thread, not the few a load-store loop
// keeps (the first cuda-tuned had 4 32-bit or one 128-bit load in flight; docs/transpose.md).
template <int R, int MODE, bool VEC>
static __global__ void __launch_bounds__(32 * R) transpose_tuned_kernel(pl_transpose_problem p,
                                                                       const float *__restrict__ A,
                                                                       float *__restrict__ B, unsigned nbi,
                                                                       unsigned nbj, int order)
{
    constexpr int SR = MODE == MODE_B ? TT + HALO : TT;       // tile rows (rows of A)
    constexpr int SC = (MODE == MODE_A ? TT + HALO : TT) + 1; // tile row, one padding column
    constexpr int NT = 32 * R, HR = R / 2;                    // threads; rows of 64 a pass covers
    constexpr int NQ = TT * TT / 4 / NT;                      // quads of a 64x64 tile per thread
    constexpr int NE = TT / HR;                               // elements of 64 rows per thread
    constexpr int NW = (TT + HALO) / HR;                      // elements of 96 rows per thread
    __shared__ float s[SR][SC];
    const int t = threadIdx.y * 32 + threadIdx.x;
    const int lc = t & 63, lr = t >> 6; // a thread's column of 64 and first row (32R is a multiple of 64)
    unsigned bi, bj;
    tile_of(order, nbi, nbj, bi, bj);
    const int64_t i0 = (int64_t)bi * TT, j0 = (int64_t)bj * TT;
    if (MODE == MODE_TILE && VEC) {
        // 64 rows x 16 quads in; thread t takes quads t, t + 32R, ...
        float4 v[NQ];
#pragma unroll
        for (int k = 0; k < NQ; k++) {
            const int idx = t + k * NT, r = idx >> 4, c = (idx & 15) * 4;
            const int64_t i = i0 + r, j = j0 + c;
            const float *src = A + i * p.lda + j;
            if (i < p.M && j + 3 < p.N) {
                v[k] = ld4(src);
            } else {
                float e[4];
                for (int m = 0; m < 4; m++) e[m] = i < p.M && j + m < p.N ? src[m] : 0.0f;
                v[k] = make_float4(e[0], e[1], e[2], e[3]);
            }
        }
#pragma unroll
        for (int k = 0; k < NQ; k++) {
            const int idx = t + k * NT, r = idx >> 4, c = (idx & 15) * 4;
            s[r][c] = v[k].x, s[r][c + 1] = v[k].y, s[r][c + 2] = v[k].z, s[r][c + 3] = v[k].w;
        }
        __syncthreads();
        // 64 rows of B (columns of A) x 16 quads out.
#pragma unroll
        for (int k = 0; k < NQ; k++) {
            const int idx = t + k * NT, r = idx >> 4, c = (idx & 15) * 4;
            const int64_t j = j0 + r, i = i0 + c;
            if (j >= p.N) continue;
            float *dst = B + j * p.ldb + i;
            if (i + 3 < p.M) {
                st4(dst, make_float4(s[c][r], s[c + 1][r], s[c + 2][r], s[c + 3][r]));
            } else {
                for (int m = 0; m < 4 && i + m < p.M; m++) dst[m] = s[c + m][r];
            }
        }
    } else if (MODE == MODE_TILE) {
        float v[NE];
        const int64_t j = j0 + lc;
#pragma unroll
        for (int k = 0; k < NE; k++) {
            const int64_t i = i0 + lr + k * HR;
            v[k] = i < p.M && j < p.N ? A[i * p.lda + j] : 0.0f;
        }
#pragma unroll
        for (int k = 0; k < NE; k++) s[lr + k * HR][lc] = v[k];
        __syncthreads();
        const int64_t i = i0 + lc;
#pragma unroll
        for (int k = 0; k < NE; k++) {
            const int r = lr + k * HR;
            if (j0 + r < p.N && i < p.M) B[(j0 + r) * p.ldb + i] = s[lc][r];
        }
    } else if (MODE == MODE_B) {
        // Tile row ri is A's row i0 - 32 + ri, column c A's column j0 + c. Element (i, j) is this
        // block's when i - i0 + e(j) lies in [0, 64).
        {
            const int64_t j = j0 + lc;
            const int e = line_offset(B, j, p.ldb);
            float v[NW];
#pragma unroll
            for (int k = 0; k < NW; k++) {
                const int ri = lr + k * HR;
                const int64_t i = i0 - HALO + ri;
                v[k] = ri + e >= HALO && ri + e < TT + HALO && i >= 0 && i < p.M && j < p.N ? A[i * p.lda + j] : 0.0f;
            }
#pragma unroll
            for (int k = 0; k < NW; k++) s[lr + k * HR][lc] = v[k];
        }
        __syncthreads();
        if (VEC) {
            // Row j of B from i0 - e(j): 16 quads, each 16-byte aligned (the row starts a line).
#pragma unroll
            for (int k = 0; k < NQ; k++) {
                const int idx = t + k * NT, r = idx >> 4, q = (idx & 15) * 4;
                const int64_t j = j0 + r;
                if (j >= p.N) continue;
                const int e = line_offset(B, j, p.ldb), sr = q - e + HALO;
                const int64_t i = i0 - e + q;
                float *dst = B + j * p.ldb + i;
                if (i >= 0 && i + 3 < p.M) {
                    st4(dst, make_float4(s[sr][r], s[sr + 1][r], s[sr + 2][r], s[sr + 3][r]));
                } else {
                    for (int m = 0; m < 4; m++)
                        if (i + m >= 0 && i + m < p.M) dst[m] = s[sr + m][r];
                }
            }
        } else {
#pragma unroll
            for (int k = 0; k < NE; k++) {
                const int r = lr + k * HR;
                const int64_t j = j0 + r;
                if (j >= p.N) continue;
                const int e = line_offset(B, j, p.ldb);
                const int64_t i = i0 - e + lc;
                if (i >= 0 && i < p.M) B[j * p.ldb + i] = s[lc - e + HALO][r];
            }
        }
    } else { // MODE_A
        // Tile row r is A's row i0 + r, tile column cc A's column j0 - 32 + cc. Element (i, j) is
        // this block's when j - j0 + f(i) lies in [0, 64).
        if (VEC) {
            float4 v[NQ];
#pragma unroll
            for (int k = 0; k < NQ; k++) {
                const int idx = t + k * NT, r = idx >> 4, q = (idx & 15) * 4;
                const int64_t i = i0 + r;
                const int f = line_offset(A, i, p.lda);
                const int64_t j = j0 - f + q;
                const float *src = A + i * p.lda + j;
                if (i < p.M && j >= 0 && j + 3 < p.N) {
                    v[k] = ld4(src);
                } else {
                    float e[4];
                    for (int m = 0; m < 4; m++) e[m] = i < p.M && j + m >= 0 && j + m < p.N ? src[m] : 0.0f;
                    v[k] = make_float4(e[0], e[1], e[2], e[3]);
                }
            }
#pragma unroll
            for (int k = 0; k < NQ; k++) {
                const int idx = t + k * NT, r = idx >> 4, q = (idx & 15) * 4;
                const int sc = q - line_offset(A, i0 + r, p.lda) + HALO;
                s[r][sc] = v[k].x, s[r][sc + 1] = v[k].y, s[r][sc + 2] = v[k].z, s[r][sc + 3] = v[k].w;
            }
        } else {
            float v[NE];
#pragma unroll
            for (int k = 0; k < NE; k++) {
                const int64_t i = i0 + lr + k * HR;
                const int64_t j = j0 - line_offset(A, i, p.lda) + lc;
                v[k] = i < p.M && j >= 0 && j < p.N ? A[i * p.lda + j] : 0.0f;
            }
#pragma unroll
            for (int k = 0; k < NE; k++) {
                const int r = lr + k * HR;
                s[r][lc - line_offset(A, i0 + r, p.lda) + HALO] = v[k];
            }
        }
        __syncthreads();
        {
            const int64_t i = i0 + lc;
            const int f = line_offset(A, i, p.lda);
#pragma unroll
            for (int k = 0; k < NW; k++) {
                const int cc = lr + k * HR;
                const int64_t j = j0 - HALO + cc;
                if (cc + f >= HALO && cc + f < TT + HALO && j >= 0 && j < p.N && i < p.M)
                    B[j * p.ldb + i] = s[lc][cc];
            }
        }
    }
}

static const int64_t block_sizes[] = {128, 256, 512, 1024};
enum { VEC_AUTO, VEC_OFF };
static const char *const vec_choices[] = {"auto", "off", NULL}; // in the order of VEC_*
enum { ALIGN_AUTO, ALIGN_TILE, ALIGN_A, ALIGN_B };
static const char *const align_choices[] = {"auto", "tile", "a", "b", NULL}; // in the order of ALIGN_*
static const char *const order_choices[] = {"row", "col", "diag", "group", NULL}; // in the order of ORDER_*
extern "C" const pl_param_def pl_transpose_cuda_tuned_params[] = {
    [PL_TRANSPOSE_CUDA_TUNED_BLOCK] =
        {.name = "block", .help = "threads per block: 32 x (block/32), each moving 4096/block elements of a 64x64 tile",
         .kind = PL_PARAM_LIST, .values = block_sizes, .n_values = PL_COUNT(block_sizes), .def = 256},
    [PL_TRANSPOSE_CUDA_TUNED_VEC] =
        {.name = "vec", .help = "auto: 128-bit loads and stores where rows are 16-byte aligned (align=a/b: on the "
                                "aligned side); off: 32-bit only",
         .kind = PL_PARAM_CHOICE, .choices = vec_choices, .def = VEC_AUTO},
    [PL_TRANSPOSE_CUDA_TUNED_ALIGN] =
        {.name = "align", .help = "tile: square 64x64 tiles; b: tiles sheared so each row of B is written as whole "
                                  "128-byte lines; a: the same for the rows of A read; auto: b where B's rows do not "
                                  "all start on a 128-byte line, else tile (docs/transpose.md)",
         .kind = PL_PARAM_CHOICE, .choices = align_choices, .def = ALIGN_AUTO},
    [PL_TRANSPOSE_CUDA_TUNED_ORDER] =
        {.name = "order", .help = "the order the tiles run in: row (a band of A's rows at a time), col (a band of "
                                  "B's rows), diag (diagonal), group (bands of 8 tile rows, column by column)",
         .kind = PL_PARAM_CHOICE, .choices = order_choices, .def = ORDER_ROW},
};
PL_CHECK_COUNT(pl_transpose_cuda_tuned_params, PL_TRANSPOSE_CUDA_TUNED_N_PARAMS);

template <int R>
static void launch(const pl_transpose_problem *p, const pl_run_args *a, int mode, bool vec, unsigned nbi,
                   unsigned nbj, int order)
{
    const unsigned grid = nbi * nbj;
    dim3 block(32, R);
    const float *A = (const float *)a->data[0];
    float *B = (float *)a->data[1];
    cudaStream_t st = (cudaStream_t)a->stream;
#define PL_TT_LAUNCH(MODE, VEC) \
    transpose_tuned_kernel<R, MODE, VEC><<<grid, block, 0, st>>>(*p, A, B, nbi, nbj, order)
    if (mode == MODE_A) vec ? PL_TT_LAUNCH(MODE_A, true) : PL_TT_LAUNCH(MODE_A, false);
    else if (mode == MODE_B) vec ? PL_TT_LAUNCH(MODE_B, true) : PL_TT_LAUNCH(MODE_B, false);
    else vec ? PL_TT_LAUNCH(MODE_TILE, true) : PL_TT_LAUNCH(MODE_TILE, false);
#undef PL_TT_LAUNCH
}

extern "C" pl_status pl_transpose_cuda_tuned(const pl_run_args *a)
{
    const pl_transpose_problem *p = (const pl_transpose_problem *)a->problem;
    if (p->M <= 0 || p->N <= 0) return PL_OK;
    const uintptr_t pa = (uintptr_t)a->data[0], pb = (uintptr_t)a->data[1];
    const int64_t align = a->params[PL_TRANSPOSE_CUDA_TUNED_ALIGN];
    const bool vec_off = a->params[PL_TRANSPOSE_CUDA_TUNED_VEC] == VEC_OFF;
    // The sheared tiles need float-aligned arrays (line offsets counted in floats).
    // auto: the tile sheared by B's lines where B's rows do not all start on a 128-byte line
    // (H100, 4097x4095: 0.0563 ms against 0.0656 for the square tile; 8191x8193: 0.2009 against
    // 0.2691), the square tile where they do (4096^2: 0.0483 against 0.0502); docs/transpose.md.
    const bool b_lines = p->ldb % 32 == 0 && pb % 128 == 0;
    int mode = align == ALIGN_A ? MODE_A : align == ALIGN_B ? MODE_B : MODE_TILE;
    if (align == ALIGN_AUTO && !b_lines) mode = MODE_B;
    if (pa % 4 != 0 || pb % 4 != 0) mode = MODE_TILE;
    bool vec;
    if (mode == MODE_TILE)
        vec = !vec_off && p->lda % 4 == 0 && p->ldb % 4 == 0 && pa % 16 == 0 && pb % 16 == 0;
    else
        vec = !vec_off; // the aligned side's quads start on 16-byte boundaries whatever the pitch
    // Tile strips: a sheared side reaches up to 31 elements before its square tile.
    const int64_t nbi = mode == MODE_B ? (p->M + 94) / TT : (p->M + TT - 1) / TT;
    const int64_t nbj = mode == MODE_A ? (p->N + 94) / TT : (p->N + TT - 1) / TT;
    if (nbi * nbj > INT_MAX || (int64_t)GROUP * nbj > (int64_t)UINT_MAX)
        return pl_fail(PL_ERR_ARG, "cuda-tuned: %lld x %lld tiles do not fit one grid", (long long)nbi,
                       (long long)nbj);
    const int order = (int)a->params[PL_TRANSPOSE_CUDA_TUNED_ORDER];
    const int64_t block = a->params[PL_TRANSPOSE_CUDA_TUNED_BLOCK];
    switch (block) {
    case 128: launch<4>(p, a, mode, vec, (unsigned)nbi, (unsigned)nbj, order); break;
    case 256: launch<8>(p, a, mode, vec, (unsigned)nbi, (unsigned)nbj, order); break;
    case 512: launch<16>(p, a, mode, vec, (unsigned)nbi, (unsigned)nbj, order); break;
    case 1024: launch<32>(p, a, mode, vec, (unsigned)nbi, (unsigned)nbj, order); break;
    default: return pl_fail(PL_ERR_ARG, "cuda-tuned: block=%lld (legal: 128, 256, 512, 1024)", (long long)block);
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "cuda-tuned launch: %s", cudaGetErrorString(e));
    return PL_OK;
}
