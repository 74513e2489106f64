/* cpu-simd: SIMD along the rows of A, threads over rows.
 *   y = A*x: 4 rows at a time, each a dot product with x in 8 (AVX2) or 16 (AVX-512) lanes
 *     and two accumulators (x's vector loaded once for 4 rows); threads take bands of rows.
 *   y = A^T*x: the naive column walk becomes an axpy over rows: y += (alpha*x[i]) * A[i, :],
 *     4 rows per pass over a band of y. Each thread sums its band of rows into its own
 *     partial y (no two threads write one element); the partials are added at the end.
 * A is read once, along its rows, at the memory's speed: the limit is bandwidth. */
#include "core/core.h"
#include "kernels/gemv/cpu_simd.h"
#include "kernels/ladder.h"

#include <omp.h>
#include <string.h>

const pl_param_def pl_gemv_cpu_simd_params[] = {
    [PL_GEMV_CPU_SIMD_ISA] = PL_ISA_PARAM,
};
PL_CHECK_COUNT(pl_gemv_cpu_simd_params, PL_GEMV_CPU_SIMD_N_PARAMS);

/* The context's host workspace slot of the per-thread partial y (GEMM's cpu-packed has 0). */
enum { GEMV_HOST_WS = 1, ROW_BAND = 16, COL_BAND = 4096 };

static pl_status pick_isa(int64_t choice, const gemv_simd_isa **isa)
{
    int wide;
    pl_status s = pl_isa_pick(choice, &wide);
    *isa = wide ? &pl_gemv_simd_avx512 : &pl_gemv_simd_avx2;
    return s;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

pl_status pl_gemv_cpu_simd(const pl_run_args *a)
{
    const pl_gemv_problem *p = a->problem;
    const float *A = a->data[0], *x = a->data[1];
    float *y = a->data[2];
    const gemv_simd_isa *isa;
    pl_status s = pick_isa(a->params[PL_GEMV_CPU_SIMD_ISA], &isa);
    if (s != PL_OK) return s;
    if (!p->trans) {
#pragma omp parallel for num_threads(pl_ctx_threads(a->ctx)) schedule(static)
        for (int64_t i0 = 0; i0 < p->M; i0 += ROW_BAND) isa->dot_rows(p, A, x, y, i0, min64(i0 + ROW_BAND, p->M));
        return PL_OK;
    }
    /* A^T: one partial y per thread (at most one per row), rows 64-byte apart. */
    const int parts = (int)min64(pl_ctx_threads(a->ctx), p->M);
    const int64_t ld = (p->N + 15) / 16 * 16;
    void *ws;
    if ((s = pl_ctx_host_workspace(a->ctx, GEMV_HOST_WS, sizeof(float) * (size_t)parts * (size_t)ld, &ws)) != PL_OK)
        return s;
    float *W = ws;
#pragma omp parallel num_threads(parts)
    {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        const int64_t r0 = p->M * t / nt, r1 = p->M * (t + 1) / nt;
        float *yp = W + t * ld;
        memset(yp, 0, sizeof(float) * (size_t)p->N);
        for (int64_t j0 = 0; j0 < p->N; j0 += COL_BAND) isa->axpy_rows(p, A, x, yp, r0, r1, j0, min64(j0 + COL_BAND, p->N));
#pragma omp barrier
#pragma omp for schedule(static)
        for (int64_t j = 0; j < p->N; j++) {
            float sum = W[j];
            for (int u = 1; u < nt; u++) sum += W[u * ld + j];
            y[j] = p->beta == 0.0f ? sum : sum + p->beta * y[j];
        }
    }
    return PL_OK;
}
