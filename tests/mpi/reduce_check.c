/* reduce_check.c: reductions and dot across ranks (src/distributed/reduce/reduce_ranks.c), run by
 * test_mpi_reduce.sh under mpirun on 1, 2, 3 and 4 ranks. For each matrix (1x7, 7x1, 67x61,
 * 1000x1001; the reduce spec's seeded inputs, whose sums are exact in float32, and general
 * random floats): rank 0 scatters it into the ranks' blocks (rows padded), then every op on
 * both axes, the result to rank 0 and to every rank: rank 0 checks it against the float64
 * reference element by element within the reduce bound (exactly where the sums are exact),
 * min and max (and everything on one rank) bit for bit against the one-process call, and with
 * TO_ALL every rank holds rank 0's result. Then a NaN in the first, a middle and the last
 * rank's block (one at a time) must reach min and max. Dot: vectors of 61, 1001 and 100003
 * split over one process row, against the dot bound on every rank. Refusals alike on every
 * rank: a grid larger than the matrix, a dot on two process rows, one rank's bad lda. */
#include "mpi_check.h"

#include "distributed/transport/mpi_comm.h"
#include "distributed/reduce/reduce_ranks.h"
#include "kernels/reduce/reduce.h"

#include <math.h>
#include <string.h>

static const char *const to_names[] = {"root", "all"};

static int same(float a, float b) { return a == b || (isnan(a) && isnan(b)); }

/* On rank 0: r (n values) against the one-process call and the float64 reference. */
static void check_on_root(const pl_reduce_problem *p, const float *A, const float *r, int has_nan, const char *label)
{
    const int64_t n = pl_reduce_outputs(p);
    float *one = malloc(sizeof(float) * (size_t)n);
    pl_reduce_variant_problem(ctx_, pl_best_variant(ctx_, &pl_reduce_kernel, NULL), NULL, p, A, one);
    int64_t differ = 0;
    for (int64_t i = 0; i < n; i++) differ += !same(one[i], r[i]);
    if (p->op == PL_REDUCE_MIN || p->op == PL_REDUCE_MAX || pl_dist_size() == 1 || has_nan)
        RCHECK(!differ, "%s: %lld of %lld outputs differ from the one-process call", label, (long long)differ,
               (long long)n);
    if (!has_nan) {
        pl_tensor t[2], ref[2], scale[2];
        int nt = 0;
        pl_reduce_spec_operands(p, t, &nt);
        t[0].host = (void *)A, t[1].host = (void *)r;
        RCHECK(alloc_reference(t, nt, ref, scale), "out of memory");
        pl_reduce_spec_reference(p, t, nt, ref, scale);
        pl_check_result res;
        memset(&res, 0, sizeof res);
        pl_check_tensor(&t[1], &ref[1], &scale[1], pl_reduce_spec_elem_bound(p, PL_PREC_FP32, NULL), 1, &res);
        RCHECK(res.elem_ratio <= 1, "%s: output %lld is %.4g, the reference %.9g (%.3g x its bound)", label,
               (long long)res.col, r[res.col], ((double *)ref[1].host)[res.col], res.elem_ratio);
        free_tensors(ref, nt), free_tensors(scale, nt);
    }
    free(one);
}

/* One op, axis and destination on the scattered matrix (A: rank 0's whole, Aloc: the blocks). */
static void check_case(const pl_dist_grid *g, pl_reduce_problem *p, const float *A, const float *Aloc, int64_t lda,
                       pl_dist_to to, int has_nan, const char *matrix)
{
    char label[128];
    snprintf(label, sizeof label, "%s %s axis %d to %s on %d ranks (%dx%d)", matrix, pl_reduce_op_names[p->op],
             p->axis, to_names[to], g->size, g->dims[0], g->dims[1]);
    const int64_t n = pl_reduce_outputs(p);
    float *r = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++) r[i] = -777.0f; /* poison: every output must be written */
    pl_dist_times tm = {0, 0, 0};
    pl_status s = pl_dist_sreduce(g, ctx_, p->op, p->axis, p->M, p->N, Aloc, lda, r, to, &tm);
    RCHECK(s == PL_OK, "%s: %s", label, pl_last_error());
    RCHECK(tm.compute > 0 && (g->size == 1 || tm.exchange > 0), "%s: times %g %g %g", label, tm.compute, tm.exchange,
           tm.wait);
    if (s == PL_OK && g->rank == 0) check_on_root(p, A, r, has_nan, label);
    if (s == PL_OK && to == PL_DIST_TO_ALL) { /* every rank holds rank 0's result */
        float *root = malloc(sizeof(float) * (size_t)n);
        memcpy(root, r, sizeof(float) * (size_t)n);
        MPI_Bcast(root, (int)n, MPI_FLOAT, 0, MPI_COMM_WORLD);
        int64_t differ = 0;
        for (int64_t i = 0; i < n; i++) differ += !same(root[i], r[i]);
        RCHECK(!differ, "%s: %lld outputs differ from rank 0's", label, (long long)differ);
        free(root);
    }
    free(r);
}

/* Every op, axis and destination on an H x W matrix (general: random floats, else the spec's). */
static void check_matrix(int64_t H, int64_t W, int general)
{
    pl_dist_grid g;
    if (pl_dist_grid_create(&g, H, W, 0) != PL_OK) return; /* more ranks than rows: check_refusals */
    pl_reduce_problem p = {H, W, W, PL_REDUCE_SUM, 1, 0};
    pl_tensor t[2];
    int nt = 0;
    pl_reduce_spec_operands(&p, t, &nt);
    if (g.rank == 0) {
        RCHECK(alloc_operands(t, nt), "out of memory");
        if (general) pl_fill_f32(t[0].host, H * W, 99);
        else pl_reduce_spec_fill(&p, t, nt, 5);
    }
    const pl_dist_block b = pl_dist_block_of(&g, H, W);
    const int64_t lda = b.x1 - b.x0 + 1;
    float *Aloc = malloc(sizeof(float) * (size_t)((b.y1 - b.y0) * lda));
    pl_dist_scatter(&g, t[0].host, H, W, 4, Aloc, lda);
    char matrix[64];
    snprintf(matrix, sizeof matrix, "%lldx%lld %s", (long long)H, (long long)W, general ? "random" : "exact-sum");
    for (p.op = 0; p.op < PL_REDUCE_N_OPS; p.op++)
        for (p.axis = 0; p.axis < 2; p.axis++)
            for (int to = 0; to < 2; to++) check_case(&g, &p, t[0].host, Aloc, lda, (pl_dist_to)to, 0, matrix);
    /* A NaN in the first, a middle and the last rank's block, one at a time: min and max carry
     * it, to rank 0 and to every rank. MPI hands the combining op a block either as its "in" or
     * its "in-out" operand, by the rank's place in its reduction tree; a NaN-losing compare keeps
     * it only in one of the two, so each place must be tried. */
    if (general) {
        const int places[3] = {0, g.size / 2, g.size - 1};
        for (int k = 0; k < 3; k++) {
            const int where = places[k];
            if (k > 0 && where == places[k - 1]) continue; /* fewer than 3 ranks */
            int c[2];
            MPI_Cart_coords(pl_dist_comm_of(&g), where, 2, c);
            const pl_dist_block blk = pl_dist_block_at(&g, c[0], c[1], H, W);
            float *whole = g.rank == 0 ? (float *)t[0].host + blk.y0 * W + blk.x0 : NULL;
            const float keep = g.rank == where ? Aloc[0] : 0, keep_whole = whole ? *whole : 0;
            if (g.rank == where) Aloc[0] = NAN;
            if (whole) *whole = NAN;
            char at[96];
            snprintf(at, sizeof at, "%s, NaN in rank %d's block", matrix, where);
            for (p.op = PL_REDUCE_MIN; p.op <= PL_REDUCE_MAX; p.op++)
                for (p.axis = 0; p.axis < 2; p.axis++)
                    for (int to = 0; to < 2; to++) check_case(&g, &p, t[0].host, Aloc, lda, (pl_dist_to)to, 1, at);
            if (g.rank == where) Aloc[0] = keep;
            if (whole) *whole = keep_whole;
        }
    }
    free(Aloc);
    free_tensors(t, nt);
    pl_dist_grid_destroy(&g);
}

/* x . y of length N split over one process row, on every rank, within the dot bound. */
static void check_dot(int64_t N, int general)
{
    pl_dist_grid g;
    if (pl_dist_grid_create(&g, 1, N, 0) != PL_OK) return;
    const pl_dot_problem p = {N};
    pl_tensor t[3];
    int nt = 0;
    pl_dot_spec_operands(&p, t, &nt);
    if (g.rank == 0) {
        RCHECK(alloc_operands(t, nt), "out of memory");
        if (general) pl_fill_f32(t[0].host, N, 3), pl_fill_f32(t[1].host, N, 4);
        else pl_dot_spec_fill(&p, t, nt, 11);
    }
    const pl_dist_block b = pl_dist_block_of(&g, 1, N);
    const int64_t n = b.x1 - b.x0;
    float *x = malloc(sizeof(float) * (size_t)n), *y = malloc(sizeof(float) * (size_t)n), result = -777.0f;
    pl_dist_scatter(&g, t[0].host, 1, N, 4, x, n);
    pl_dist_scatter(&g, t[1].host, 1, N, 4, y, n);
    pl_status s = pl_dist_sdot(&g, ctx_, N, x, y, &result, NULL);
    RCHECK(s == PL_OK, "dot %lld on %d ranks: %s", (long long)N, g.size, pl_last_error());
    float root = result;
    MPI_Bcast(&root, 1, MPI_FLOAT, 0, MPI_COMM_WORLD);
    RCHECK(root == result, "dot %lld: %.9g here, %.9g on rank 0", (long long)N, result, root);
    if (g.rank == 0) {
        pl_tensor ref[3], scale[3];
        RCHECK(alloc_reference(t, nt, ref, scale), "out of memory");
        pl_dot_spec_reference(&p, t, nt, ref, scale);
        const double want = ((double *)ref[2].host)[0], mag = ((double *)scale[2].host)[0];
        const double bound = pl_dot_spec_elem_bound(&p, PL_PREC_FP32, NULL) * mag;
        RCHECK(fabs(result - want) <= bound, "dot %lld (%s) on %d ranks: %.9g, the reference %.12g (bound %.3g)",
               (long long)N, general ? "random" : "exact", g.size, result, want, bound);
        float one = 0;
        pl_sdot(ctx_, N, t[0].host, t[1].host, &one);
        if (g.size == 1) RCHECK(one == result, "dot %lld on one rank: %.9g, pl_sdot %.9g", (long long)N, result, one);
        free_tensors(ref, nt), free_tensors(scale, nt);
    }
    free(x), free(y);
    free_tensors(t, nt);
    pl_dist_grid_destroy(&g);
}

/* Refused alike on every rank, no rank left waiting. */
static void check_refusals(void)
{
    const int P = pl_dist_size();
    pl_dist_grid g;
    pl_status s = pl_dist_grid_create(&g, 1, 1, 0);
    RCHECK(P > 1 ? s == PL_ERR_ARG && strstr(pl_last_error(), "larger than rows") : s == PL_OK, "1x1 on %d ranks: %s",
           P, pl_last_error());
    if (s == PL_OK) pl_dist_grid_destroy(&g);
    if (pl_dist_grid_create(&g, 1000, 1001, 0) != PL_OK) return;
    const pl_dist_block b = pl_dist_block_of(&g, 1000, 1001);
    const int64_t w = b.x1 - b.x0;
    float *A = calloc((size_t)((b.y1 - b.y0) * w), sizeof(float)), *r = calloc(1001, sizeof(float)), dot = 0;
    /* a matrix narrower than the grid */
    s = pl_dist_sreduce(&g, ctx_, PL_REDUCE_SUM, 1, 1000, 1, A, 1, r, PL_DIST_TO_ALL, NULL);
    if (g.dims[1] > 1) RCHECK(s == PL_ERR_ARG && strstr(pl_last_error(), "larger than rows"), "1000x1 on %dx%d: %s",
                              g.dims[0], g.dims[1], pl_last_error());
    /* the dot on two process rows */
    s = pl_dist_sdot(&g, ctx_, 1001, A, A, &dot, NULL);
    if (g.dims[0] > 1) RCHECK(s == PL_ERR_ARG && strstr(pl_last_error(), "one process row"), "dot on %dx%d: %s",
                              g.dims[0], g.dims[1], pl_last_error());
    /* the last rank's lda is too small: every rank fails, rank 0 names it */
    s = pl_dist_sreduce(&g, ctx_, PL_REDUCE_MAX, 0, 1000, 1001, A, rank_ == P - 1 ? w - 1 : w, r, PL_DIST_TO_ROOT,
                        NULL);
    RCHECK(s == PL_ERR_ARG, "a bad lda on rank %d: status %d", P - 1, (int)s);
    check_last_rank_named("lda", "a bad lda");
    free(A), free(r);
    pl_dist_grid_destroy(&g);
}

int main(int argc, char **argv)
{
    mpi_check_start(&argc, &argv, "reduce_check");
    static const int64_t sizes[][2] = {{1, 7}, {7, 1}, {67, 61}, {1000, 1001}};
    for (int i = 0; i < 4; i++)
        for (int general = 0; general < 2; general++) check_matrix(sizes[i][0], sizes[i][1], general);
    static const int64_t lengths[] = {61, 1001, 100003};
    for (int i = 0; i < 3; i++)
        for (int general = 0; general < 2; general++) check_dot(lengths[i], general);
    check_refusals();
    return mpi_check_finish("reduce_check");
}
