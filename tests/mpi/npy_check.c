/* npy_check.c: the ranks' MPI-IO on .npy files (src/distributed/npy/npy_ranks.c), run by test_mpi_npy.sh under
 * mpirun on 1..4 ranks in a scratch directory (argv[1]): arrays of sizes that do not divide by
 * the grid (5x3, 67x61, 1000x1001) and four dtypes, written by the one-process writer and read
 * back block by block (every element checked, the rows' padding untouched), then written by
 * the ranks and compared with the one-process file byte for byte. Faults: a missing file, a
 * file that is not .npy, truncated data, a 3D array, an output in a missing directory, a rank
 * that fails its part of a write (the target keeps its old bytes, no temporary file left), a
 * device as the output; each fails with the same status on every rank. */
#include "distributed/npy/npy_ranks.h"

#include "check.h"

#include <dirent.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank_;
static const char *dir_;

#define RCHECK(cond, ...) CHECK(cond, "rank %d: " __VA_ARGS__)

/* Element (y, x) of the test array, of k bytes, never the poison 0xEE.. pattern. */
static void put_value(void *p, pl_dtype t, int64_t y, int64_t x, int64_t W, int k)
{
    const int64_t v = (y * W + x) * 7 + k + 1;
    switch (t) {
    case PL_I32: *(int32_t *)p = (int32_t)v; break;
    case PL_F32: *(float *)p = (float)v * 0.5f; break;
    case PL_F64: *(double *)p = (double)v * 0.25; break;
    default: *(uint8_t *)p = (uint8_t)(v % 200); break;
    }
}

static char *path_of(const char *name)
{
    static char buf[4][512];
    static int i;
    i = (i + 1) % 4;
    snprintf(buf[i], sizeof buf[i], "%s/%s", dir_, name);
    return buf[i];
}

/* The whole H x W array of dtype t with values k. */
static pl_array make_global(pl_dtype t, int64_t H, int64_t W, int k)
{
    pl_array a = {.dtype = t, .rank = 2, .shape = {H, W}};
    const size_t e = pl_dtype_size(t);
    a.data = malloc(e * (size_t)(H * W));
    for (int64_t y = 0; y < H; y++)
        for (int64_t x = 0; x < W; x++) put_value((char *)a.data + e * (size_t)(y * W + x), t, y, x, W, k);
    return a;
}

static int same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        if (ca != cb) same = 0;
        if (ca == EOF) break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

/* No "*.tmp.*" file left in the scratch directory. */
static int no_temporaries(void)
{
    DIR *d = opendir(dir_);
    if (!d) return 0;
    int found = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strstr(e->d_name, ".tmp.")) found = 1;
    closedir(d);
    return !found;
}

/* Write with one process, read by blocks, write by blocks, compare. */
static void round_trip(pl_dtype t, int64_t H, int64_t W)
{
    pl_dist_grid g;
    if (pl_dist_grid_create(&g, H, W, 0) != PL_OK) return;
    const size_t e = pl_dtype_size(t);
    char *in = path_of("in.npy"), *out = path_of("out.npy"), *ref = path_of("ref.npy");
    if (rank_ == 0) {
        pl_array a = make_global(t, H, W, 0), b = make_global(t, H, W, 1);
        RCHECK(pl_npy_write(in, &a) == PL_OK && pl_npy_write(ref, &b) == PL_OK, "one-process write", rank_);
        free(a.data), free(b.data);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    pl_dist_npy h;
    pl_status s = pl_dist_npy_header(in, &h);
    RCHECK(s == PL_OK && h.dtype == t && h.rank == 2 && h.shape[0] == H && h.shape[1] == W, "header of %lldx%lld: %s",
           rank_, (long long)H, (long long)W, pl_last_error());
    const pl_dist_block b = pl_dist_block_of(&g, H, W);
    const int64_t bh = b.y1 - b.y0, bw = b.x1 - b.x0, ld = bw + 3;
    unsigned char *local = malloc(e * (size_t)(bh * ld));
    memset(local, 0xEE, e * (size_t)(bh * ld));
    s = pl_dist_npy_read_block(&g, in, &h, local, ld);
    RCHECK(s == PL_OK, "read %lldx%lld: %s", rank_, (long long)H, (long long)W, pl_last_error());
    int64_t wrong = 0, padding = 0;
    unsigned char want[8], poison[8];
    memset(poison, 0xEE, sizeof poison);
    for (int64_t y = 0; y < bh; y++)
        for (int64_t x = 0; x < ld; x++) {
            unsigned char *p = local + e * (size_t)(y * ld + x);
            if (x >= bw) {
                padding += memcmp(p, poison, e) != 0;
                continue;
            }
            put_value(want, t, b.y0 + y, b.x0 + x, W, 0);
            wrong += memcmp(p, want, e) != 0;
            put_value(p, t, b.y0 + y, b.x0 + x, W, 1); /* the values of ref.npy, to write back */
        }
    RCHECK(wrong == 0 && padding == 0, "%s %lldx%lld: %lld elements wrong, %lld padding written", rank_,
           pl_dtype_name(t), (long long)H, (long long)W, (long long)wrong, (long long)padding);
    s = pl_dist_npy_write(&g, out, t, H, W, local, ld);
    RCHECK(s == PL_OK, "write %lldx%lld: %s", rank_, (long long)H, (long long)W, pl_last_error());
    if (rank_ == 0)
        RCHECK(same_file(out, ref) && no_temporaries(), "%s %lldx%lld: the ranks' file differs from one process's",
               rank_, pl_dtype_name(t), (long long)H, (long long)W);
    free(local);
    pl_dist_grid_destroy(&g);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* A read of path fails with status want on every rank (rank 0's message holding says). */
static void read_fails(const char *name, pl_status want, const char *says)
{
    pl_dist_npy h;
    pl_status s = pl_dist_npy_header(path_of(name), &h);
    if (s == PL_OK) {
        pl_dist_grid g;
        if (pl_dist_grid_create(&g, 8, 8, 0) == PL_OK) { /* the read fails before it reads */
            float spare[64];
            s = pl_dist_npy_read_block(&g, path_of(name), &h, spare, 8);
            pl_dist_grid_destroy(&g);
        }
    }
    RCHECK(s == want, "%s: status %d, want %d (%s)", rank_, name, (int)s, (int)want, pl_last_error());
    if (rank_ == 0) RCHECK(strstr(pl_last_error(), says), "%s: message '%s' lacks '%s'", rank_, name, pl_last_error(), says);
}

static void faults(int P)
{
    if (rank_ == 0) {
        FILE *f = fopen(path_of("text.npy"), "w");
        fputs("not an array\n", f), fclose(f);
        pl_array a = make_global(PL_I32, 8, 8, 0);
        pl_npy_write(path_of("short.npy"), &a);
        truncate(path_of("short.npy"), 128 + 100); /* header + 25 of 64 elements */
        pl_array c = {.dtype = PL_I32, .rank = 3, .shape = {2, 2, 2}, .data = a.data};
        pl_npy_write(path_of("cube.npy"), &c);
        free(a.data);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    read_fails("missing.npy", PL_ERR_IO, "cannot open");
    read_fails("text.npy", PL_ERR_FORMAT, "not a .npy file");
    read_fails("short.npy", PL_ERR_FORMAT, "truncated data");
    read_fails("cube.npy", PL_ERR_ARG, "3-dimensional");

    pl_dist_grid g;
    if (pl_dist_grid_create(&g, 8, 8, 0) != PL_OK) return;
    const pl_dist_block b = pl_dist_block_of(&g, 8, 8);
    int32_t block[64];
    for (int i = 0; i < 64; i++) block[i] = i;
    const int64_t ld = b.x1 - b.x0;
    /* a missing directory: every rank fails, nothing is created */
    pl_status s = pl_dist_npy_write(&g, path_of("nowhere/out.npy"), PL_I32, 8, 8, block, ld);
    RCHECK(s == PL_ERR_IO, "write in a missing directory: %d (%s)", rank_, (int)s, pl_last_error());
    /* the last rank fails its part: the old file stays, no temporary is left */
    char *keep = path_of("keep.npy");
    if (rank_ == 0) {
        FILE *f = fopen(keep, "w");
        fputs("old bytes\n", f), fclose(f);
    }
    s = pl_dist_npy_write(&g, keep, PL_I32, 8, 8, rank_ == P - 1 ? NULL : block, ld);
    RCHECK(s == PL_ERR_ARG, "a rank without its block: %d (%s)", rank_, (int)s, pl_last_error());
    if (rank_ == 0) {
        FILE *f = fopen(keep, "r");
        char line[32] = "";
        if (f) fgets(line, sizeof line, f), fclose(f);
        RCHECK(!strcmp(line, "old bytes\n") && no_temporaries(), "a failed write changed the target or left a "
               "temporary file ('%s')", rank_, line);
        RCHECK(strstr(pl_last_error(), "no block to write"), "message: %s", rank_, pl_last_error());
    }
    s = pl_dist_npy_write(&g, "/dev/null", PL_I32, 8, 8, block, ld);
    RCHECK(s == PL_ERR_ARG, "/dev/null: %d (%s)", rank_, (int)s, pl_last_error());
    pl_dist_grid_destroy(&g);
}

int main(int argc, char **argv)
{
    if (pl_dist_start(&argc, &argv) != PL_OK || !pl_dist_active() || argc < 2) {
        fprintf(stderr, "npy_check: run me under mpirun, with a scratch directory\n");
        return 2;
    }
    rank_ = pl_dist_rank(), dir_ = argv[1];
    const int P = pl_dist_size();
    static const int64_t sizes[][2] = {{5, 3}, {67, 61}, {1000, 1001}};
    static const pl_dtype types[] = {PL_I32, PL_F32, PL_U8, PL_F64};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 4; k++)
            if (i < 2 || k < 2) round_trip(types[k], sizes[i][0], sizes[i][1]);
    faults(P);
    int failed = check_failed, any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    char name[64];
    snprintf(name, sizeof name, "npy_check rank %d of %d", rank_, P);
    if (rank_ == 0 || check_failed) check_summary(name);
    pl_dist_stop();
    return any ? 1 : 0;
}
