/* summa.c: SUMMA on a grid of ranks (see summa.h for the idea). A call: the checks every
 * rank makes alike (no message needed), the process rows and columns as communicators, this
 * rank's checks and buffers agreed by all (pl_dist_verdict), then the panels: panel i + 1's
 * broadcasts posted, panel i's awaited, its product added to C by the local rung. The panel
 * owner packs its part of a panel into the buffer it broadcasts from, so every rank's product
 * reads the same contiguous panels (the copy is m x w of a product's m x n x w). */
#include "distributed/summa/summa.h"

#include "core/core.h"
#include "distributed/transport/collective.h"
#include "kernels/gemm/gemm.h"

#include <limits.h>
#include <string.h>

typedef pl_dist_panel panel;

/* One call's state. */
typedef struct summa {
    const pl_dist_grid *g;
    pl_ctx *ctx;
    const char *rung;
    const int64_t *params;
    int64_t M, N, K, kb;
    pl_dist_block a, b;      /* this rank's blocks of A (M x K) and B (K x N) */
    int64_t m, n;            /* its block of C: m x n (A's rows, B's columns) */
    pl_dist_lines lines;
    float *abuf[2], *bbuf[2]; /* two panels of each: m x kb and kb x n */
    MPI_Request req[2][2];    /* [buffer][A, B] */
    pl_dist_times t;
    pl_status failed;         /* the first failed product (the rank goes on exchanging) */
} summa;

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

pl_status pl_dist_gemm_check(const pl_dist_grid *g, int64_t M, int64_t N, int64_t K)
{
    if (g->dims[0] > M || g->dims[0] > K || g->dims[1] > N || g->dims[1] > K)
        return pl_fail(PL_ERR_ARG,
                       "gemm: %d ranks (%dx%d) for %lldx%lldx%lld (MxNxK): P larger than rows or columns, a rank "
                       "would hold no block of A, B or C; run on fewer ranks",
                       g->size, g->dims[0], g->dims[1], (long long)M, (long long)N, (long long)K);
    return PL_OK;
}

pl_dist_panel pl_dist_gemm_panel_at(const pl_dist_grid *g, int64_t M, int64_t N, int64_t K, int64_t kb, int64_t k0)
{
    panel p = {k0, 0, 0, 0};
    pl_dist_block ab, bb;
    while ((ab = pl_dist_block_at(g, 0, p.a_root, M, K)).x1 <= k0) p.a_root++;
    while ((bb = pl_dist_block_at(g, p.b_root, 0, K, N)).y1 <= k0) p.b_root++;
    p.k1 = min64(min64(k0 + kb, ab.x1), bb.y1);
    return p;
}

void pl_dist_gemm_traffic(const pl_dist_grid *g, int64_t M, int64_t N, int64_t K, int64_t kb, double *msgs,
                          double *bytes)
{
    *msgs = *bytes = 0;
    if (g->size == 1) return;
    const pl_dist_block a = pl_dist_block_of(g, M, K), b = pl_dist_block_of(g, K, N);
    const double m = (double)(a.y1 - a.y0), n = (double)(b.x1 - b.x0);
    for (int64_t k0 = 0; k0 < K;) {
        const panel p = pl_dist_gemm_panel_at(g, M, N, K, kb ? kb : PL_DIST_GEMM_KB, k0);
        const double w = (double)(p.k1 - p.k0);
        if (g->dims[1] > 1) *msgs += 1, *bytes += 4 * m * w;
        if (g->dims[0] > 1) *msgs += 1, *bytes += 4 * w * n;
        k0 = p.k1;
    }
}

static panel panel_at(const summa *s, int64_t k0) { return pl_dist_gemm_panel_at(s->g, s->M, s->N, s->K, s->kb, k0); }

/* Post panel p's two broadcasts from buffer pair i: its owners first copy their part in. */
static void post(summa *s, panel p, int i, const float *A, int64_t lda, const float *B, int64_t ldb)
{
    const double t0 = pl_now();
    const int64_t w = p.k1 - p.k0;
    if (s->g->coords[1] == p.a_root)
        for (int64_t r = 0; r < s->m; r++)
            memcpy(s->abuf[i] + r * w, A + r * lda + (p.k0 - s->a.x0), sizeof(float) * (size_t)w);
    if (s->g->coords[0] == p.b_root)
        for (int64_t k = 0; k < w; k++)
            memcpy(s->bbuf[i] + k * s->n, B + (p.k0 - s->b.y0 + k) * ldb, sizeof(float) * (size_t)s->n);
    MPI_Ibcast(s->abuf[i], (int)(s->m * w), MPI_FLOAT, p.a_root, s->lines.row, &s->req[i][0]);
    MPI_Ibcast(s->bbuf[i], (int)(w * s->n), MPI_FLOAT, p.b_root, s->lines.col, &s->req[i][1]);
    s->t.exchange += pl_now() - t0;
}

/* Wait for buffer pair i's broadcasts, then add the product of its panels into C. */
static void product(summa *s, panel p, int i, float alpha, float beta, float *C, int64_t ldc)
{
    const double t0 = pl_now();
    MPI_Waitall(2, s->req[i], MPI_STATUSES_IGNORE);
    const double t1 = pl_now();
    s->t.wait += t1 - t0;
    if (s->failed != PL_OK) return;
    const int64_t w = p.k1 - p.k0;
    s->failed = pl_sgemm_variant(s->ctx, s->rung, s->params, s->m, s->n, w, alpha, s->abuf[i], w, s->bbuf[i], s->n,
                                 beta, C, ldc);
    s->t.compute += pl_now() - t1;
}

/* The panels in order, each one's broadcasts travelling while the one before is multiplied. */
static void run_panels(summa *s, float alpha, const float *A, int64_t lda, const float *B, int64_t ldb, float beta,
                       float *C, int64_t ldc)
{
    panel cur = panel_at(s, 0);
    post(s, cur, 0, A, lda, B, ldb);
    for (int i = 0;; i ^= 1) {
        const int more = cur.k1 < s->K;
        panel next = cur;
        if (more) post(s, next = panel_at(s, cur.k1), i ^ 1, A, lda, B, ldb);
        product(s, cur, i, alpha, cur.k0 == 0 ? beta : 1.0f, C, ldc); /* beta once: C += the rest */
        if (!more) break;
        cur = next;
    }
}

/* This rank's part of the checks: the context and rung, its blocks and leading dimensions. */
static pl_status check_local(summa *s, const float *A, int64_t lda, const float *B, int64_t ldb, const float *C,
                             int64_t ldc)
{
    pl_status st = pl_dist_rung_check(s->ctx, &pl_gemm_kernel, s->ctx ? pl_best_variant(s->ctx, &pl_gemm_kernel, NULL) : NULL, &s->rung);
    if (st != PL_OK) return st;
    if (!A || !B || !C) return pl_fail(PL_ERR_ARG, "gemm: NULL block of %s", !A ? "A" : !B ? "B" : "C");
    const int64_t ka = s->a.x1 - s->a.x0;
    if (lda < ka || ldb < s->n || ldc < s->n)
        return pl_fail(PL_ERR_ARG, "gemm: this rank's blocks are %lldx%lld (A), %lldx%lld (B), %lldx%lld (C): "
                       "lda %lld, ldb %lld, ldc %lld are too small", (long long)s->m, (long long)ka,
                       (long long)(s->b.y1 - s->b.y0), (long long)s->n, (long long)s->m, (long long)s->n,
                       (long long)lda, (long long)ldb, (long long)ldc);
    return PL_OK;
}

/* This rank's checks, then its two buffers of each panel. */
static pl_status setup(summa *s, const float *A, int64_t lda, const float *B, int64_t ldb, const float *C,
                       int64_t ldc)
{
    pl_status st = check_local(s, A, lda, B, ldb, C, ldc);
    if (st != PL_OK) return st;
    const int64_t kb = min64(s->kb, s->K);
    if (s->m * kb > INT_MAX || kb * s->n > INT_MAX)
        return pl_fail(PL_ERR_OVERFLOW, "gemm: a panel of %lld passes MPI's int counts: use a narrower one",
                       (long long)kb);
    for (int i = 0; i < 2; i++)
        if (!(s->abuf[i] = pl_alloc(sizeof(float) * (size_t)(s->m * kb))) ||
            !(s->bbuf[i] = pl_alloc(sizeof(float) * (size_t)(kb * s->n))))
            return pl_fail(PL_ERR_NOMEM, "gemm: cannot allocate this rank's panels (%.3g MB)",
                           2.0 * 4.0 * (double)(s->m + s->n) * (double)kb / 1e6);
    return PL_OK;
}

pl_status pl_dist_sgemm_variant(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const int64_t *params,
                                int64_t kb, int64_t M, int64_t N, int64_t K, float alpha, const float *A,
                                int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc,
                                pl_dist_times *t)
{
    /* what every rank decides alike, before any message */
    const pl_gemm_problem whole = {M, N, K, K, N, N, alpha, beta, PL_F32};
    pl_status st = pl_gemm_check(&whole);
    if (st != PL_OK) return st;
    if (kb < 0) return pl_fail(PL_ERR_ARG, "gemm: panel width %lld (0 for the default)", (long long)kb);
    if ((st = pl_dist_gemm_check(g, M, N, K)) != PL_OK) return st;
    pl_dist_gemm_gpu *gpu = NULL; /* a CUDA rung, NCCL and a GPU a rank: the blocks go to the GPUs */
    if ((st = pl_dist_gemm_gpu_create(&gpu, g, ctx, rung, params, kb, M, N, K)) != PL_OK || gpu) {
        if (gpu) st = pl_dist_sgemm_gpu_host(gpu, alpha, A, lda, B, ldb, beta, C, ldc, t);
        pl_dist_gemm_gpu_destroy(gpu);
        return st;
    }

    summa s = {.g = g, .ctx = ctx, .rung = rung, .params = params, .M = M, .N = N, .K = K};
    s.kb = g->size == 1 ? K : kb ? kb : PL_DIST_GEMM_KB; /* one rank: one panel, the local call itself */
    s.a = pl_dist_block_of(g, M, K);
    s.b = pl_dist_block_of(g, K, N);
    s.m = s.a.y1 - s.a.y0, s.n = s.b.x1 - s.b.x0;
    if (g->size == 1) {
        if ((st = check_local(&s, A, lda, B, ldb, C, ldc)) == PL_OK) {
            const double t0 = pl_now();
            st = pl_sgemm_variant(ctx, s.rung, params, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
            s.t.compute = pl_now() - t0;
        }
    } else {
        pl_dist_lines_create(g, &s.lines);
        st = pl_dist_verdict(setup(&s, A, lda, B, ldb, C, ldc));
        if (st == PL_OK) {
            run_panels(&s, alpha, A, lda, B, ldb, beta, C, ldc);
            st = pl_dist_verdict(s.failed);
        }
        pl_dist_lines_destroy(&s.lines);
    }
    for (int i = 0; i < 2; i++) pl_free(s.abuf[i]), pl_free(s.bbuf[i]);
    if (t) t->compute += s.t.compute, t->exchange += s.t.exchange, t->wait += s.t.wait;
    return st;
}

pl_status pl_dist_sgemm(const pl_dist_grid *g, pl_ctx *ctx, int64_t M, int64_t N, int64_t K, float alpha,
                        const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc,
                        pl_dist_times *t)
{
    return pl_dist_sgemm_variant(g, ctx, NULL, NULL, 0, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, t);
}
