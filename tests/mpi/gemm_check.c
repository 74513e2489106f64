/* gemm_check.c: SUMMA GEMM across ranks (src/distributed/summa/summa.c), run by test_mpi_gemm.sh under
 * mpirun on 1, 2, 3 and 4 ranks. Each case: rank 0 makes the problem with the GEMM spec's
 * seeded inputs, scatters A, B and C into the ranks' blocks (rows padded, so the leading
 * dimensions are not the widths), every rank runs pl_dist_sgemm_variant, rank 0 gathers C and
 * checks it against the float64 reference element by element (the harness's componentwise
 * bound gamma_(K+2)(|alpha||A||B| + |beta||C|)), or by the spec's sampled check (rows, columns
 * and Freivalds) for the big case; on one rank C must equal the one-process call bit for bit.
 * Shapes that do not divide the grid, panels of 1, 7 and the default width, beta 0 with a
 * NaN-filled C (never read), a grid too large for the problem refused alike on every rank, and
 * one rank's bad argument failing every rank together. */
#include "mpi_check.h"

#include "distributed/summa/summa.h"
#include "kernels/gemm/gemm.h"

#include <math.h>
#include <string.h>

/* A case: size "MxNxK", alpha, beta, the panel width (0: default), the check (sampled or full). */
static void check_gemm(const char *size, double alpha, double beta, int64_t kb, int sampled)
{
    const int P = pl_dist_size();
    pl_pvalues pv;
    pl_pvalues_default(&pl_gemm_kernel, &pv);
    pv.num[PL_GEMM_PROBLEM_ALPHA] = alpha, pv.num[PL_GEMM_PROBLEM_BETA] = beta, pv.num[PL_GEMM_PROBLEM_PAD] = 0;
    pl_gemm_problem p;
    if (pl_gemm_spec_make_problem(&p, size, &pv) != PL_OK) {
        RCHECK(0, "%s: %s", size, pl_last_error());
        return;
    }
    pl_dist_grid g;
    pl_status s = pl_dist_grid_create(&g, p.M, p.N, 0);
    RCHECK(s == PL_OK, "grid for %s: %s", size, pl_last_error());
    if (s != PL_OK) return;
    RCHECK(pl_dist_gemm_check(&g, p.M, p.N, p.K) == PL_OK, "%s on %d ranks: %s", size, P, pl_last_error());

    /* rank 0: the whole problem, its inputs and (after the run) C */
    pl_tensor t[3], out = {0};
    int n = 0;
    pl_gemm_spec_operands(&p, t, &n);
    if (g.rank == 0) {
        RCHECK(alloc_operands(t, n), "out of memory");
        pl_gemm_spec_fill(&p, t, n, 42);
        out = t[2];
        out.host = malloc(sizeof(float) * (size_t)(p.M * p.N));
    }
    /* every rank: its blocks, rows padded by 3 */
    const pl_dist_block a = pl_dist_block_of(&g, p.M, p.K), b = pl_dist_block_of(&g, p.K, p.N),
                        c = pl_dist_block_of(&g, p.M, p.N);
    const int64_t lda = a.x1 - a.x0 + 3, ldb = b.x1 - b.x0 + 3, ldc = c.x1 - c.x0 + 3;
    float *A = malloc(sizeof(float) * (size_t)((a.y1 - a.y0) * lda));
    float *B = malloc(sizeof(float) * (size_t)((b.y1 - b.y0) * ldb));
    float *C = malloc(sizeof(float) * (size_t)((c.y1 - c.y0) * ldc));
    for (int64_t i = 0; i < (c.y1 - c.y0) * ldc; i++) C[i] = NAN; /* beta == 0: never read */
    pl_dist_scatter(&g, t[0].host, p.M, p.K, 4, A, lda);
    pl_dist_scatter(&g, t[1].host, p.K, p.N, 4, B, ldb);
    if (p.beta != 0.0f) pl_dist_scatter(&g, t[2].host, p.M, p.N, 4, C, ldc);

    pl_dist_times tm = {0, 0, 0};
    s = pl_dist_sgemm_variant(&g, ctx_, NULL, NULL, kb, p.M, p.N, p.K, p.alpha, A, lda, B, ldb, p.beta, C, ldc, &tm);
    RCHECK(s == PL_OK, "%s kb=%lld on %d ranks: %s", size, (long long)kb, P, pl_last_error());
    RCHECK(tm.compute > 0 && tm.exchange >= 0 && tm.wait >= 0 && (P == 1 || tm.exchange > 0),
           "%s: times compute %g exchange %g wait %g", size, tm.compute, tm.exchange, tm.wait);
    pl_dist_gather(&g, C, ldc, out.host, p.M, p.N, 4);

    if (g.rank == 0 && s == PL_OK) {
        pl_check_result res;
        memset(&res, 0, sizeof res);
        const double eb = pl_gemm_spec_elem_bound(&p, PL_PREC_FP32, NULL);
        pl_tensor outs[3] = {t[0], t[1], out}, ref[3], scale[3];
        if (sampled) {
            pl_gemm_spec_check_sampled(&p, t, n, outs, PL_PREC_FP32, 7, &res);
        } else {
            RCHECK(alloc_reference(t, n, ref, scale), "out of memory");
            pl_gemm_spec_reference(&p, t, n, ref, scale);
            pl_check_tensor(&out, &ref[2], &scale[2], eb, 2, &res);
            free_tensors(ref, n), free_tensors(scale, n);
        }
        RCHECK(res.elem_ratio <= 1, "%s alpha=%g beta=%g kb=%lld on %d ranks (%dx%d): C[%lld][%lld] off by %.3g x "
               "its bound (%s)", size, alpha, beta, (long long)kb, P, g.dims[0], g.dims[1], (long long)res.row,
               (long long)res.col, res.elem_ratio, sampled ? res.how : "full");
        if (P == 1) { /* one rank: the local call itself */
            float *one = malloc(sizeof(float) * (size_t)(p.M * p.N));
            memcpy(one, t[2].host, sizeof(float) * (size_t)(p.M * p.N));
            pl_sgemm(ctx_, p.M, p.N, p.K, p.alpha, t[0].host, p.lda, t[1].host, p.ldb, p.beta, one, p.ldc);
            RCHECK(!memcmp(one, out.host, sizeof(float) * (size_t)(p.M * p.N)), "%s: one rank differs from pl_sgemm",
                   size);
            free(one);
        }
    }
    free(A), free(B), free(C), free(out.host);
    free_tensors(t, n);
    pl_dist_grid_destroy(&g);
}

/* Refusals alike on every rank: a grid with more process rows or columns than K (a rank
 * would hold no panel), and one rank's bad leading dimension failing all ranks together. */
static void check_refusals(void)
{
    const int P = pl_dist_size();
    pl_dist_grid g;
    if (pl_dist_grid_create(&g, 40, 40, 0) != PL_OK) return;
    float *A = calloc(40 * 40, sizeof(float)), *B = calloc(40 * 40, sizeof(float)), *C = calloc(40 * 40, sizeof(float));
    pl_status s = pl_dist_sgemm(&g, ctx_, 40, 40, 1, 1.0f, A, 40, B, 40, 0.0f, C, 40, NULL);
    if (P > 1) RCHECK(s == PL_ERR_ARG && strstr(pl_last_error(), "larger than rows"), "K=1 on %d ranks: %s", P,
                      pl_last_error());
    else RCHECK(s == PL_OK, "40x40x1 on one rank: %s", pl_last_error());
    /* the last rank's ldc is too small: every rank fails, rank 0 names it */
    const int64_t ldc = rank_ == P - 1 ? 0 : 40;
    s = pl_dist_sgemm(&g, ctx_, 40, 40, 40, 1.0f, A, 40, B, 40, 0.0f, C, ldc, NULL);
    RCHECK(s == PL_ERR_ARG, "a bad ldc on rank %d: status %d", P - 1, (int)s);
    check_last_rank_named("ldc", "a bad ldc");
    /* the last rank's product fails in every panel (a parameter out of range, found by the
     * run): the others exchange to the end, then all fail with rank 0 naming it */
    if (pl_variant_check(ctx_, pl_variant_find(&pl_gemm_kernel, "cpu-packed"), NULL, 0) == PL_OK) {
        const int64_t bad[PL_GEMM_CPU_PACKED_N_PARAMS] = {0, 0, 0, 99}, *params = rank_ == P - 1 ? bad : NULL;
        s = pl_dist_sgemm_variant(&g, ctx_, "cpu-packed", params, 8, 40, 40, 40, 1.0f, A, 40, B, 40, 0.0f, C, 40,
                                  NULL);
        RCHECK(s == PL_ERR_ARG, "a failed product on rank %d: status %d", P - 1, (int)s);
        check_last_rank_named("isa", "a failed product");
    }
    s = pl_dist_sgemm_variant(&g, ctx_, "cpu-nonesuch", NULL, 0, 40, 40, 40, 1.0f, A, 40, B, 40, 0.0f, C, 40, NULL);
    RCHECK(s == PL_ERR_ARG && strstr(pl_last_error(), "nonesuch"), "an unknown rung: %s", pl_last_error());
    free(A), free(B), free(C);
    pl_dist_grid_destroy(&g);
}

int main(int argc, char **argv)
{
    mpi_check_start(&argc, &argv, "gemm_check");
    const int P = pl_dist_size();
    /* 1x1x1: refused on more than one rank (the grid), the local call on one */
    pl_dist_grid g;
    pl_status s = pl_dist_grid_create(&g, 1, 1, 0);
    RCHECK(P > 1 ? s == PL_ERR_ARG : s == PL_OK, "1x1 grid on %d ranks: %s", P, pl_last_error());
    if (s == PL_OK) pl_dist_grid_destroy(&g), check_gemm("1x1x1", 2.0, 0.5, 0, 0);
    check_gemm("67x61x33", 1.0, 0.0, 0, 0);
    check_gemm("67x61x33", -0.5, 0.75, 7, 0);
    check_gemm("67x61x33", 1.5, 1.0, 1, 0);
    check_gemm("5x300x4", 1.0, 0.0, 0, 0);
    check_gemm("301x3x700", 0.5, -1.0, 50, 0);
    check_gemm("300x257x200", 1.0, 0.25, 64, 0);
    check_gemm("1000x1001x129", 1.0, 0.5, 0, 1);
    check_refusals();
    return mpi_check_finish("gemm_check");
}
