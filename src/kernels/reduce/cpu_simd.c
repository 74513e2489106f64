/* cpu-simd: SIMD accumulators (AVX2 8 / AVX-512 16 lanes, 4 vectors deep), threads over rows,
 * pairwise summation (accurate: blocks of 1024 summed in vectors, blocks combined by halving,
 * error ~ log2(n) u instead of n u). Rows: threads take rows; a few long rows are cut into
 * one piece per thread, the pieces combined in order. Columns: threads take bands of 4
 * vectors of columns, each band walks down A row by row (every line used whole). */
#include "core/core.h"
#include "kernels/reduce/cpu_simd.h"
#include "kernels/ladder.h"

#include <math.h>

const pl_param_def pl_reduce_cpu_simd_params[] = {
    [PL_REDUCE_CPU_SIMD_ISA] = PL_ISA_PARAM,
};
PL_CHECK_COUNT(pl_reduce_cpu_simd_params, PL_REDUCE_CPU_SIMD_N_PARAMS);

static pl_status pick_isa(int64_t choice, const reduce_simd_isa **isa)
{
    int wide;
    pl_status s = pl_isa_pick(choice, &wide);
    *isa = wide ? &pl_reduce_simd_avx512 : &pl_reduce_simd_avx2;
    return s;
}

static float fold2(int op, float a, float b)
{
    return op == PL_REDUCE_MIN ? pl_reduce_min2(a, b) : op == PL_REDUCE_MAX ? pl_reduce_max2(a, b) : a + b;
}

enum { MAX_PIECES = 256 };

/* One long row over T threads: pieces at multiples of RED_BLOCK, partials folded pairwise. */
static float row_split(const reduce_simd_isa *isa, int op, const float *x, int64_t n, int T)
{
    float part[MAX_PIECES];
    int64_t blocks = (n + RED_BLOCK - 1) / RED_BLOCK;
    int pieces = T < MAX_PIECES ? T : MAX_PIECES;
    if (pieces > blocks) pieces = (int)blocks;
#pragma omp parallel for num_threads(T) schedule(static)
    for (int q = 0; q < pieces; q++) {
        int64_t b0 = blocks * q / pieces, b1 = blocks * (q + 1) / pieces;
        int64_t k0 = b0 * RED_BLOCK, k1 = b1 * RED_BLOCK < n ? b1 * RED_BLOCK : n;
        part[q] = isa->row(op, x + k0, k1 - k0);
    }
    for (int w = 1; w < pieces; w *= 2)
        for (int q = 0; q + w < pieces; q += 2 * w) part[q] = fold2(op, part[q], part[q + w]);
    return part[0];
}

pl_status pl_reduce_cpu_simd(const pl_run_args *a)
{
    const pl_reduce_problem *p = a->problem;
    const float *A = a->data[0];
    float *r = a->data[1];
    const reduce_simd_isa *isa;
    pl_status s = pick_isa(a->params[PL_REDUCE_CPU_SIMD_ISA], &isa);
    if (s != PL_OK) return s;
    const int op = p->op, T = pl_ctx_threads(a->ctx);
    const int64_t n = pl_reduce_terms(p);
    if (p->axis == 1) {
        if (p->M >= T || p->N < 4 * RED_BLOCK) {
#pragma omp parallel for num_threads(T) schedule(static)
            for (int64_t i = 0; i < p->M; i++) r[i] = isa->row(op, A + i * p->lda, p->N);
        } else {
            for (int64_t i = 0; i < p->M; i++) r[i] = row_split(isa, op, A + i * p->lda, p->N, T);
        }
    } else {
        const int64_t band = 64; /* columns per task: 4 AVX-512 vectors, 8 AVX2 ones */
#pragma omp parallel for num_threads(T) schedule(dynamic)
        for (int64_t j0 = 0; j0 < p->N; j0 += band)
            isa->cols(op, A, p->lda, 0, p->M, j0, j0 + band < p->N ? j0 + band : p->N, r);
    }
    if (op == PL_REDUCE_MEAN) {
        int64_t R = pl_reduce_outputs(p);
        for (int64_t o = 0; o < R; o++) r[o] /= (float)n;
    }
    return PL_OK;
}

/* dot cpu-simd: FMA into 4 vector accumulators, pairwise blocks, one piece per thread. */
pl_status pl_dot_cpu_simd(const pl_run_args *a)
{
    const pl_dot_problem *p = a->problem;
    const float *x = a->data[0], *y = a->data[1];
    const reduce_simd_isa *isa;
    pl_status s = pick_isa(a->params[PL_REDUCE_CPU_SIMD_ISA], &isa);
    if (s != PL_OK) return s;
    float part[MAX_PIECES];
    int T = pl_ctx_threads(a->ctx);
    int64_t blocks = (p->N + RED_BLOCK - 1) / RED_BLOCK;
    int pieces = T < MAX_PIECES ? T : MAX_PIECES;
    if (pieces > blocks) pieces = (int)blocks;
#pragma omp parallel for num_threads(T) schedule(static)
    for (int q = 0; q < pieces; q++) {
        int64_t k0 = blocks * q / pieces * RED_BLOCK, k1 = blocks * (q + 1) / pieces * RED_BLOCK;
        if (k1 > p->N) k1 = p->N;
        part[q] = isa->dot(x + k0, y + k0, k1 - k0);
    }
    for (int w = 1; w < pieces; w *= 2)
        for (int q = 0; q + w < pieces; q += 2 * w) part[q] += part[q + w];
    *(float *)a->data[2] = part[0];
    return PL_OK;
}
