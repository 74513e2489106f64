/* cpu-simd and cpu-simd-blocked: the two rungs built on the broadcast-FMA row update.
 *
 * cpu-simd: for each row of C, for each k, broadcast alpha*A[i,k] and FMA it against B's
 *   row k, 8 (AVX2) or 16 (AVX-512) columns at a time. B is now read along its rows, so
 *   every cache line is used whole. But a row of C and all of B stream through the caches
 *   once per row of A: for large N, B does not stay in cache. Next rung: block.
 * cpu-simd-blocked: the same update inside i/j/k blocks of `block` elements, so a
 *   block x block tile of B is reused by `block` rows of A while it sits in L1/L2.
 *   Next rung (cpu-packed): packed panels and a register-blocked micro-kernel. */
#include "core/core.h"
#include "kernels/gemm/cpu_simd.h"
#include "kernels/ladder.h"

const pl_param_def pl_gemm_cpu_simd_params[] = {
    [PL_GEMM_CPU_SIMD_ISA] = PL_ISA_PARAM,
};
PL_CHECK_COUNT(pl_gemm_cpu_simd_params, PL_GEMM_CPU_SIMD_N_PARAMS);

const pl_param_def pl_gemm_cpu_simd_blocked_params[] = {
    [PL_GEMM_CPU_SIMD_BLOCKED_BLOCK] =
        {.name = "block", .help = "i/j/k cache block, in elements",
         .kind = PL_PARAM_RANGE, .min = 8, .max = 1024, .step = 8, .def = 64},
    [PL_GEMM_CPU_SIMD_BLOCKED_ISA] = PL_ISA_PARAM,
};
PL_CHECK_COUNT(pl_gemm_cpu_simd_blocked_params, PL_GEMM_CPU_SIMD_BLOCKED_N_PARAMS);

static pl_status pick_isa(int64_t choice, const gemm_simd_isa **isa)
{
    int wide;
    pl_status s = pl_isa_pick(choice, &wide);
    *isa = wide ? &pl_gemm_simd_avx512 : &pl_gemm_simd_avx2;
    return s;
}

pl_status pl_gemm_cpu_simd(const pl_run_args *a)
{
    const pl_gemm_problem *p = a->problem;
    const float *A = a->data[0], *B = a->data[1];
    float *C = a->data[2];
    const gemm_simd_isa *isa;
    pl_status s = pick_isa(a->params[PL_GEMM_CPU_SIMD_ISA], &isa);
    if (s != PL_OK) return s;
#pragma omp parallel for num_threads(pl_ctx_threads(a->ctx)) schedule(static)
    for (int64_t i = 0; i < p->M; i++) {
        isa->scale_rows(p, C, i, i + 1);
        isa->update_rows(p, A, B, C, i, i + 1, 0, p->K, 0, p->N);
    }
    return PL_OK;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

pl_status pl_gemm_cpu_simd_blocked(const pl_run_args *a)
{
    const pl_gemm_problem *p = a->problem;
    const float *A = a->data[0], *B = a->data[1];
    float *C = a->data[2];
    const int64_t bs = a->params[PL_GEMM_CPU_SIMD_BLOCKED_BLOCK];
    const gemm_simd_isa *isa;
    pl_status s = pick_isa(a->params[PL_GEMM_CPU_SIMD_BLOCKED_ISA], &isa);
    if (s != PL_OK) return s;
    /* Threads take bands of rows; each band walks its k and j blocks in cache order. */
#pragma omp parallel for num_threads(pl_ctx_threads(a->ctx)) schedule(dynamic)
    for (int64_t i0 = 0; i0 < p->M; i0 += bs) {
        int64_t i1 = min64(i0 + bs, p->M);
        isa->scale_rows(p, C, i0, i1);
        for (int64_t k0 = 0; k0 < p->K; k0 += bs)
            for (int64_t j0 = 0; j0 < p->N; j0 += bs)
                isa->update_rows(p, A, B, C, i0, i1, k0, min64(k0 + bs, p->K), j0, min64(j0 + bs, p->N));
    }
    return PL_OK;
}
