/* dist_check.c: the distributed layer's own checks (src/distributed/), run by test_mpi_dist.sh under
 * mpirun on 1, 2, 3 and 4 ranks: the grid of ranks and its neighbours, the blocks of arrays
 * that do not divide (1x7, 5x3, 67x61, 1000x1001), scatter and gather, the halo exchange of
 * several depths and element sizes on a torus and a plane (every halo cell compared with the
 * global array, corners included; a plane's outside left untouched), the agree step, and the
 * refusal of more ranks than rows. Every rank checks; the exit status is 1 on any rank's
 * failure (each failure printed with its rank). */
#include "distributed/transport/distributed.h"

#include "check.h"

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int rank_;

#define RCHECK(cond, ...) CHECK(cond, "rank %d: " __VA_ARGS__)

/* The global test value at (y, x) of an H x W array, never 0 nor the poison. */
static int32_t value(int64_t y, int64_t x, int64_t W, int k) { return (int32_t)((y * W + x) * 3 + k + 1); }

static void check_grid(int64_t H, int64_t W, int periodic)
{
    pl_dist_grid g;
    pl_status s = pl_dist_grid_create(&g, H, W, periodic);
    RCHECK(s == PL_OK, "grid %lldx%lld: %s", rank_, (long long)H, (long long)W, pl_last_error());
    if (s != PL_OK) return;
    RCHECK(g.dims[0] * g.dims[1] == g.size && g.dims[0] <= H && g.dims[1] <= W, "dims %dx%d of %d", rank_, g.dims[0],
           g.dims[1], g.size);
    /* the blocks tile the array: rank by rank, each next to its neighbours */
    int64_t area = 0;
    for (int r = 0; r < g.dims[0]; r++)
        for (int c = 0; c < g.dims[1]; c++) {
            pl_dist_block b = pl_dist_block_at(&g, r, c, H, W);
            area += (b.y1 - b.y0) * (b.x1 - b.x0);
            RCHECK(b.y1 > b.y0 && b.x1 > b.x0, "block (%d,%d) empty", rank_, r, c);
            if (c + 1 < g.dims[1]) RCHECK(pl_dist_block_at(&g, r, c + 1, H, W).x0 == b.x1, "columns gap", rank_);
            if (r + 1 < g.dims[0]) RCHECK(pl_dist_block_at(&g, r + 1, c, H, W).y0 == b.y1, "rows gap", rank_);
        }
    RCHECK(area == H * W, "blocks cover %lld of %lld cells", rank_, (long long)area, (long long)(H * W));
    /* neighbours: periodic wraps, a plane has none past its edges */
    for (int dir = 0; dir < PL_DIST_DIRS; dir++) {
        const int r = g.coords[0] + PL_DIST_DY(dir), c = g.coords[1] + PL_DIST_DX(dir);
        const int outside = r < 0 || r >= g.dims[0] || c < 0 || c >= g.dims[1];
        if (!periodic && outside) RCHECK(g.nbr[dir] == PL_DIST_NONE, "dir %d: neighbour past the edge", rank_, dir);
        else RCHECK(g.nbr[dir] != PL_DIST_NONE, "dir %d: no neighbour", rank_, dir);
    }

    /* scatter rank 0's int32 array, check, change, gather back */
    const pl_dist_block b = pl_dist_block_of(&g, H, W);
    const int64_t h = b.y1 - b.y0, w = b.x1 - b.x0, ld = w + 3;
    int32_t *global = NULL;
    if (g.rank == 0) {
        global = malloc(sizeof(int32_t) * (size_t)(H * W));
        for (int64_t y = 0; y < H; y++)
            for (int64_t x = 0; x < W; x++) global[y * W + x] = value(y, x, W, 0);
    }
    int32_t *local = malloc(sizeof(int32_t) * (size_t)(h * ld));
    s = pl_dist_scatter(&g, global, H, W, 4, local, ld);
    RCHECK(s == PL_OK, "scatter: %s", rank_, pl_last_error());
    int64_t wrong = 0;
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++) {
            wrong += local[y * ld + x] != value(b.y0 + y, b.x0 + x, W, 0);
            local[y * ld + x] = -local[y * ld + x];
        }
    RCHECK(!wrong, "scatter %lldx%lld: %lld cells wrong", rank_, (long long)H, (long long)W, (long long)wrong);
    s = pl_dist_gather(&g, local, ld, global, H, W, 4);
    RCHECK(s == PL_OK, "gather: %s", rank_, pl_last_error());
    if (g.rank == 0) {
        wrong = 0;
        for (int64_t i = 0; i < H * W; i++) wrong += global[i] != -value(i / W, i % W, W, 0);
        RCHECK(!wrong, "gather %lldx%lld: %lld cells wrong", rank_, (long long)H, (long long)W, (long long)wrong);
    }
    free(local);
    free(global);
    pl_dist_grid_destroy(&g);
}

/* The halo of depth d, elements of k int32 (elem = 4k bytes): every halo cell against the
 * global array (wrapped on a torus); outside a plane the poison stays. */
static void check_halo(int64_t H, int64_t W, int periodic, int d, int k)
{
    pl_dist_grid g;
    if (pl_dist_grid_create(&g, H, W, periodic) != PL_OK) return;
    int64_t min_r, min_c;
    pl_dist_block_min(&g, H, W, &min_r, &min_c);
    if (d > min_r || d > min_c) d = (int)(min_r < min_c ? min_r : min_c);
    const pl_dist_block b = pl_dist_block_of(&g, H, W);
    const int64_t h = b.y1 - b.y0, w = b.x1 - b.x0, ld = w + 2 * d + 1, rows = h + 2 * d;
    int32_t *a = malloc(sizeof(int32_t) * (size_t)(rows * ld * k));
    const int32_t poison = -7;
    for (int64_t i = 0; i < rows * ld * k; i++) a[i] = poison;
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++)
            for (int j = 0; j < k; j++) a[((y + d) * ld + x + d) * k + j] = value(b.y0 + y, b.x0 + x, W, j);
    pl_dist_halo *x = NULL;
    pl_dist_times t = {0, 0, 0};
    pl_status s = pl_dist_halo_create(&x, &g, a, 4 * (size_t)k, ld, h, w, d);
    RCHECK(s == PL_OK, "halo plan: %s", rank_, pl_last_error());
    int64_t wrong = 0;
    for (int round = 0; round < 2 && s == PL_OK; round++) { /* a plan is started again and again */
        pl_dist_halo_begin(x, &t);
        pl_dist_halo_end(x, &t);
        for (int64_t y = -d; y < h + d; y++)
            for (int64_t xx = -d; xx < w + d; xx++) {
                if (y >= 0 && y < h && xx >= 0 && xx < w) continue;
                int64_t gy = b.y0 + y, gx = b.x0 + xx;
                const int outside = gy < 0 || gy >= H || gx < 0 || gx >= W;
                if (periodic) gy = (gy + H) % H, gx = (gx + W) % W;
                for (int j = 0; j < k; j++) {
                    const int32_t got = a[((y + d) * ld + xx + d) * k + j];
                    wrong += got != (!periodic && outside ? poison : value(gy, gx, W, j));
                }
            }
    }
    RCHECK(!wrong, "halo %lldx%lld %s d=%d elem=%d: %lld values wrong", rank_, (long long)H, (long long)W,
           periodic ? "torus" : "plane", d, 4 * k, (long long)wrong);
    RCHECK(t.exchange >= 0 && t.wait >= 0, "times", rank_);
    pl_dist_halo_destroy(x);
    free(a);
    pl_dist_grid_destroy(&g);
}

static void check_agree(void)
{
    const int P = pl_dist_size();
    char first[256];
    int from = 7;
    RCHECK(pl_dist_agree(0, NULL, first, sizeof first, &from) == 0 && from == -1, "agree, none failed", rank_);
    /* the last rank fails with 1, and rank 0 (when P > 1) too with 2: the lowest rank's wins */
    const int rc = rank_ == P - 1 ? 1 : (rank_ == 0 && P > 1) ? 2 : 0;
    char msg[64];
    snprintf(msg, sizeof msg, "boom from rank %d", rank_);
    const int got = pl_dist_agree(rc, msg, first, sizeof first, &from);
    RCHECK(got == (P > 1 ? 2 : 1), "agree gave %d", rank_, got);
    if (rank_ == 0) RCHECK(from == 0 && !strcmp(first, "boom from rank 0"), "agree: from %d '%s'", rank_, from, first);
    /* only the last rank fails */
    const int got2 = pl_dist_agree(rank_ == P - 1 ? 1 : 0, msg, first, sizeof first, &from);
    RCHECK(got2 == 1, "agree (last rank) gave %d", rank_, got2);
    if (rank_ == 0) {
        char want[64];
        snprintf(want, sizeof want, "boom from rank %d", P - 1);
        RCHECK(from == P - 1 && !strcmp(first, want), "agree: from %d '%s'", rank_, from, first);
    }
}

int main(int argc, char **argv)
{
    if (pl_dist_start(&argc, &argv) != PL_OK || !pl_dist_active()) {
        fprintf(stderr, "dist_check: run me under mpirun\n");
        return 2;
    }
    rank_ = pl_dist_rank();
    const int P = pl_dist_size();
    pl_dist_grid g;
    /* more ranks than rows or columns: refused on every rank, before anything runs */
    pl_status s = pl_dist_grid_create(&g, 1, 1, 1);
    if (P > 1) RCHECK(s == PL_ERR_ARG && strstr(pl_last_error(), "larger than rows"), "1x1 on %d ranks: %s", rank_,
                      P, pl_last_error());
    else RCHECK(s == PL_OK, "1x1 on 1 rank: %s", rank_, pl_last_error());
    if (s == PL_OK) pl_dist_grid_destroy(&g);
    static const int64_t sizes[][2] = {{1, 7}, {5, 3}, {67, 61}, {1000, 1001}};
    for (int i = 0; i < 4; i++)
        for (int periodic = 0; periodic < 2; periodic++) {
            if (sizes[i][0] * sizes[i][1] >= P) check_grid(sizes[i][0], sizes[i][1], periodic);
            check_halo(sizes[i][0], sizes[i][1], periodic, 1, 1);
            check_halo(sizes[i][0], sizes[i][1], periodic, 3, 3);
        }
    check_halo(67, 61, 1, 16, 2);
    check_agree();
    /* every rank's verdict, so the run fails wherever a check failed */
    int failed = check_failed, any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    char name[64];
    snprintf(name, sizeof name, "dist_check rank %d of %d", rank_, P);
    if (rank_ == 0 || check_failed) check_summary(name);
    pl_dist_stop();
    return any ? 1 : 0;
}
