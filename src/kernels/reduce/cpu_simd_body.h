/* cpu_simd_body.h: the cpu-simd primitives for one ISA. The including file defines vec, VW
 * (lanes), VZERO, VSET1, VLOAD, VADD, VMUL, VFMA, VMIN, VMAX, VSTORE, VLOAD_FILL(ptr, n, fill)
 * (lanes past n hold fill), nanvec with NAN_ZERO, NAN_OR(s, v) (marks NaN lanes of v) and
 * NAN_ANY(s), and ISA_TABLE. Every op is inlined with a constant op, so each loop is one op. */
#include <math.h>
#include <string.h>

#define INLINE static inline __attribute__((always_inline))

INLINE vec vop(int op, vec acc, vec x)
{
    switch (op) {
    case PL_REDUCE_MIN: return VMIN(acc, x);
    case PL_REDUCE_MAX: return VMAX(acc, x);
    case PL_REDUCE_SUMSQ: return VFMA(x, x, acc);
    default: return VADD(acc, x);
    }
}

INLINE float neutral(int op) { return op == PL_REDUCE_MIN ? INFINITY : op == PL_REDUCE_MAX ? -INFINITY : 0.0f; }
INLINE int is_sum(int op) { return op != PL_REDUCE_MIN && op != PL_REDUCE_MAX; }

INLINE float fold2(int op, float a, float b)
{
    return op == PL_REDUCE_MIN ? pl_reduce_min2(a, b) : op == PL_REDUCE_MAX ? pl_reduce_max2(a, b) : a + b;
}

/* The lanes of v folded pairwise. */
INLINE float hfold(int op, vec v)
{
    float t[VW];
    VSTORE(t, v);
    for (int w = VW / 2; w > 0; w /= 2)
        for (int l = 0; l < w; l++) t[l] = fold2(op, t[l], t[l + w]);
    return t[0];
}

/* One pass over x[0..n) with 4 vector accumulators (4 independent chains hide the add latency). */
INLINE float block(int op, const float *x, int64_t n)
{
    vec a0 = VSET1(neutral(op)), a1 = a0, a2 = a0, a3 = a0;
    nanvec nan = NAN_ZERO;
    int64_t k = 0;
    for (; k + 4 * VW <= n; k += 4 * VW) {
        vec x0 = VLOAD(x + k), x1 = VLOAD(x + k + VW), x2 = VLOAD(x + k + 2 * VW), x3 = VLOAD(x + k + 3 * VW);
        if (!is_sum(op)) NAN_OR(nan, x0), NAN_OR(nan, x1), NAN_OR(nan, x2), NAN_OR(nan, x3);
        a0 = vop(op, a0, x0), a1 = vop(op, a1, x1), a2 = vop(op, a2, x2), a3 = vop(op, a3, x3);
    }
    for (; k < n; k += VW) {
        vec x0 = k + VW <= n ? VLOAD(x + k) : VLOAD_FILL(x + k, n - k, neutral(op));
        if (!is_sum(op)) NAN_OR(nan, x0);
        a0 = vop(op, a0, x0);
    }
    if (!is_sum(op) && NAN_ANY(nan)) return NAN;
    vec m = op == PL_REDUCE_MIN ? VMIN(VMIN(a0, a1), VMIN(a2, a3))
            : op == PL_REDUCE_MAX ? VMAX(VMAX(a0, a1), VMAX(a2, a3))
                                  : VADD(VADD(a0, a1), VADD(a2, a3));
    return hfold(op, m);
}

/* Pairwise: halves cut at a multiple of the vector width, blocks of RED_BLOCK at the leaves. */
static float row_sum(const float *x, int64_t n)
{
    if (n <= RED_BLOCK) return block(PL_REDUCE_SUM, x, n);
    int64_t h = (n / 2 + VW - 1) / VW * VW;
    return row_sum(x, h) + row_sum(x + h, n - h);
}

static float row_sumsq(const float *x, int64_t n)
{
    if (n <= RED_BLOCK) return block(PL_REDUCE_SUMSQ, x, n);
    int64_t h = (n / 2 + VW - 1) / VW * VW;
    return row_sumsq(x, h) + row_sumsq(x + h, n - h);
}

static float row(int op, const float *x, int64_t n)
{
    switch (op) {
    case PL_REDUCE_MIN: return block(PL_REDUCE_MIN, x, n);
    case PL_REDUCE_MAX: return block(PL_REDUCE_MAX, x, n);
    case PL_REDUCE_SUMSQ: return row_sumsq(x, n);
    default: return row_sum(x, n);
    }
}

/* Columns j0..j0+4VW (w of them) over rows i0..i1 folded row by row into acc[4]. */
enum { COL_ROWS = 64 };
INLINE void col_leaf(int op, const float *A, int64_t lda, int64_t i0, int64_t i1, int64_t j0, int64_t w, vec acc[4],
                     nanvec *nan)
{
    for (int v = 0; v < 4; v++) acc[v] = VSET1(neutral(op));
    for (int64_t i = i0; i < i1; i++) {
        const float *x = A + i * lda + j0;
        for (int v = 0; v < 4; v++) {
            int64_t left = w - v * VW;
            if (left <= 0) break;
            vec xv = left >= VW ? VLOAD(x + v * VW) : VLOAD_FILL(x + v * VW, left, neutral(op));
            if (!is_sum(op)) NAN_OR(*nan, xv);
            acc[v] = vop(op, acc[v], xv);
        }
    }
}

/* Per op: sums take the rows in pairwise halves down to COL_ROWS-row leaves; min/max one pass.
 * A NaN seen sends min/max back over the columns one by one to find which (rare). */
#define COL_FN(name, OP)                                                                                       \
    static void name##_run(const float *A, int64_t lda, int64_t i0, int64_t i1, int64_t j0, int64_t w,        \
                           vec acc[4], nanvec *nan)                                                            \
    {                                                                                                          \
        if (is_sum(OP) && i1 - i0 > COL_ROWS) {                                                                \
            int64_t h = i0 + (i1 - i0) / 2;                                                                    \
            vec b[4];                                                                                          \
            name##_run(A, lda, i0, h, j0, w, acc, nan);                                                        \
            name##_run(A, lda, h, i1, j0, w, b, nan);                                                          \
            for (int v = 0; v < 4; v++) acc[v] = VADD(acc[v], b[v]);                                           \
            return;                                                                                            \
        }                                                                                                      \
        col_leaf(OP, A, lda, i0, i1, j0, w, acc, nan);                                                         \
    }                                                                                                          \
    static void name(const float *A, int64_t lda, int64_t i0, int64_t i1, int64_t j0, int64_t w, float *r)   \
    {                                                                                                          \
        vec acc[4];                                                                                            \
        nanvec nan = NAN_ZERO;                                                                                 \
        name##_run(A, lda, i0, i1, j0, w, acc, &nan);                                                          \
        float t[4 * VW];                                                                                       \
        for (int v = 0; v < 4; v++) VSTORE(t + v * VW, acc[v]);                                               \
        if (!is_sum(OP) && NAN_ANY(nan))                                                                       \
            for (int64_t j = 0; j < w; j++) {                                                                  \
                float m = A[i0 * lda + j0 + j];                                                                \
                for (int64_t i = i0 + 1; i < i1; i++) m = fold2(OP, m, A[i * lda + j0 + j]);                   \
                t[j] = m;                                                                                      \
            }                                                                                                  \
        memcpy(r + j0, t, sizeof(float) * (size_t)w);                                                          \
    }
COL_FN(cols_sum, PL_REDUCE_SUM)
COL_FN(cols_sumsq, PL_REDUCE_SUMSQ)
COL_FN(cols_min, PL_REDUCE_MIN)
COL_FN(cols_max, PL_REDUCE_MAX)

static void cols(int op, const float *A, int64_t lda, int64_t i0, int64_t i1, int64_t j0, int64_t j1, float *r)
{
    for (int64_t j = j0; j < j1; j += 4 * VW) {
        int64_t w = j1 - j < 4 * VW ? j1 - j : 4 * VW;
        switch (op) {
        case PL_REDUCE_MIN: cols_min(A, lda, i0, i1, j, w, r); break;
        case PL_REDUCE_MAX: cols_max(A, lda, i0, i1, j, w, r); break;
        case PL_REDUCE_SUMSQ: cols_sumsq(A, lda, i0, i1, j, w, r); break;
        default: cols_sum(A, lda, i0, i1, j, w, r); break;
        }
    }
}

static float dot_block(const float *x, const float *y, int64_t n)
{
    vec a0 = VZERO(), a1 = a0, a2 = a0, a3 = a0;
    int64_t k = 0;
    for (; k + 4 * VW <= n; k += 4 * VW) {
        a0 = VFMA(VLOAD(x + k), VLOAD(y + k), a0);
        a1 = VFMA(VLOAD(x + k + VW), VLOAD(y + k + VW), a1);
        a2 = VFMA(VLOAD(x + k + 2 * VW), VLOAD(y + k + 2 * VW), a2);
        a3 = VFMA(VLOAD(x + k + 3 * VW), VLOAD(y + k + 3 * VW), a3);
    }
    for (; k < n; k += VW) {
        if (k + VW <= n) a0 = VFMA(VLOAD(x + k), VLOAD(y + k), a0);
        else a0 = VFMA(VLOAD_FILL(x + k, n - k, 0.0f), VLOAD_FILL(y + k, n - k, 0.0f), a0);
    }
    return hfold(PL_REDUCE_SUM, VADD(VADD(a0, a1), VADD(a2, a3)));
}

static float dot(const float *x, const float *y, int64_t n)
{
    if (n <= RED_BLOCK) return dot_block(x, y, n);
    int64_t h = (n / 2 + VW - 1) / VW * VW;
    return dot(x, y, h) + dot(x + h, y + h, n - h);
}

const reduce_simd_isa ISA_TABLE = {row, cols, dot};
