/* ctx_jobs.h: what the two-context tests (test_ctx.c on the CPU, test_ctx_gpu.c on CUDA)
 * share: a job (one pl_sgemm_variant call, its operands and its float64 reference), and a
 * worker, run on its own thread, that activates its context and makes its jobs' calls
 * `reps` times over, each result checked element by element against the reference within
 * the job's tolerance. What differs stays in each test: the jobs, their tolerances, the
 * contexts and what is checked of them after. */
#ifndef PL_TEST_CTX_JOBS_H
#define PL_TEST_CTX_JOBS_H

#include "check.h"
#include "core/core.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct job {
    const char *variant;
    const int64_t *params; /* NULL: defaults (config and split chosen per shape) */
    int64_t M, N, K, lda, ldb, ldc;
    float alpha, beta;
    double tol; /* an element's error may be tol * bound (set by each test) */
    float *A, *B, *C0;
    double *ref, *bound; /* alpha*A*B + beta*C0 in float64; |alpha|*|A|*|B| + |beta|*|C0| */
} job;

typedef struct worker {
    pl_ctx *ctx;
    job *jobs;
    int n_jobs, reps;
    int calls, failed;
    char first[320]; /* the first failure */
} worker;

/* Fill A, B and C0 (seeds seed, seed + 1, seed + 2) and compute ref and bound, row by row. */
static void job_init(job *j, uint64_t seed)
{
    size_t na = (size_t)(j->M * j->lda), nb = (size_t)(j->K * j->ldb), nc = (size_t)(j->M * j->ldc);
    j->A = malloc(na * sizeof(float));
    j->B = malloc(nb * sizeof(float));
    j->C0 = malloc(nc * sizeof(float));
    j->ref = malloc((size_t)(j->M * j->N) * sizeof(double));
    j->bound = malloc((size_t)(j->M * j->N) * sizeof(double));
    pl_fill_f32(j->A, (int64_t)na, seed);
    pl_fill_f32(j->B, (int64_t)nb, seed + 1);
    pl_fill_f32(j->C0, (int64_t)nc, seed + 2);
    double *brow = malloc((size_t)j->N * sizeof(double)), *arow = malloc((size_t)j->N * sizeof(double));
    for (int64_t i = 0; i < j->M; i++) {
        for (int64_t n = 0; n < j->N; n++) brow[n] = arow[n] = 0;
        for (int64_t k = 0; k < j->K; k++) {
            double a = j->A[i * j->lda + k];
            const float *b = j->B + k * j->ldb;
            for (int64_t n = 0; n < j->N; n++) {
                brow[n] += a * b[n];
                arow[n] += fabs(a * b[n]);
            }
        }
        for (int64_t n = 0; n < j->N; n++) {
            double c = j->C0[i * j->ldc + n];
            j->ref[i * j->N + n] = j->alpha * brow[n] + (j->beta != 0 ? j->beta * c : 0);
            j->bound[i * j->N + n] = fabs(j->alpha) * arow[n] + fabs(j->beta) * fabs(c);
        }
    }
    free(brow);
    free(arow);
}

static void job_free(job *j)
{
    free(j->A);
    free(j->B);
    free(j->C0);
    free(j->ref);
    free(j->bound);
}

/* A thread's work (pthread_create's start routine; arg: a worker). The calling thread must
 * have its context's device current (api.c does not select it): pl_ctx_activate first. Then
 * reps rounds over the jobs, each round starting one job further on; C starts as C0 (beta != 0)
 * or NaN (an unwritten element fails); an element is right when |C - ref| <= tol * bound. */
static void *run_worker(void *arg)
{
    worker *w = arg;
    if (pl_ctx_activate(w->ctx) != PL_OK) {
        w->failed++;
        snprintf(w->first, sizeof w->first, "pl_ctx_activate: %s", pl_last_error());
        return NULL;
    }
    for (int r = 0; r < w->reps; r++)
        for (int q = 0; q < w->n_jobs; q++) {
            job *j = &w->jobs[(q + r) % w->n_jobs];
            size_t nc = (size_t)(j->M * j->ldc);
            float *C = malloc(nc * sizeof(float));
            if (j->beta != 0) memcpy(C, j->C0, nc * sizeof(float));
            else for (size_t i = 0; i < nc; i++) C[i] = NAN;
            pl_status s = pl_sgemm_variant(w->ctx, j->variant, j->params, j->M, j->N, j->K, j->alpha, j->A,
                                           j->lda, j->B, j->ldb, j->beta, C, j->ldc);
            w->calls++;
            int bad = 0;
            double worst = 0;
            for (int64_t i = 0; s == PL_OK && i < j->M; i++)
                for (int64_t n = 0; n < j->N; n++) {
                    double e = fabs((double)C[i * j->ldc + n] - j->ref[i * j->N + n]);
                    double tol = j->tol * j->bound[i * j->N + n] + 1e-30;
                    if (!(e <= tol)) bad++;
                    if (!(e / tol <= worst)) worst = e / tol;
                }
            if (s != PL_OK || bad) {
                if (!w->failed)
                    snprintf(w->first, sizeof w->first,
                             "%s %lldx%lldx%lld params %s (rep %d): %s%d wrong, worst %.3g x the bound", j->variant,
                             (long long)j->M, (long long)j->N, (long long)j->K, j->params ? "named" : "auto", r,
                             s != PL_OK ? pl_last_error() : "", bad, worst);
                w->failed++;
            }
            free(C);
        }
    return NULL;
}

#endif
