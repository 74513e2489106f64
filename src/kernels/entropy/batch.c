/* batch.c: many matrices of one file through one rung, as the classic lab times them: every
 * matrix checked and its output named before the first is computed (a bad one found late
 * would leave half a batch written), one untimed call so that the first matrix does not carry
 * the one-time costs, then each matrix timed with and without its transfers and written, and
 * on a failure this run's outputs removed. */
#define _POSIX_C_SOURCE 200809L
#include "core/core.h"
#include "kernels/entropy/entropy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A member name usable as a file name in OUTDIR: no '/', not empty, not "." or "..". */
static int safe_name(const char *name)
{
    return name[0] && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

pl_status pl_entropy_batch_prepare(const char *in_path, const char *out_dir, const pl_named_array *arr, int count,
                                   int bins, pl_entropy_batch *b)
{
    memset(b, 0, sizeof *b);
    b->count = count;
    b->owned = calloc((size_t)count + 1, sizeof *b->owned);
    b->values = calloc((size_t)count + 1, sizeof *b->values);
    b->paths = calloc((size_t)count + 1, sizeof *b->paths);
    if (!b->owned || !b->values || !b->paths)
        return pl_fail(PL_ERR_NOMEM, "entropy: no memory for a batch of %d matrices", count);
    for (int i = 0; i < count; i++) {
        char where[512];
        snprintf(where, sizeof where, "%s, matrix '%s'", in_path, arr[i].name);
        if (!safe_name(arr[i].name))
            return pl_fail(PL_ERR_FORMAT, "entropy: %s: '%s' cannot name a file in %s", in_path, arr[i].name, out_dir);
        for (int j = 0; j < i; j++)
            if (!strcmp(arr[i].name, arr[j].name))
                return pl_fail(PL_ERR_FORMAT, "entropy: %s: two matrices are named '%s'", in_path, arr[i].name);
        pl_status s = pl_entropy_values(where, &arr[i].a, bins, &b->values[i], &b->owned[i]);
        if (s != PL_OK) return s;
        const int64_t n = arr[i].a.shape[0] * arr[i].a.shape[1];
        if (n > b->most) b->most = n, b->big_H = arr[i].a.shape[0], b->big_W = arr[i].a.shape[1];
        const size_t len = strlen(out_dir) + strlen(arr[i].name) + 8;
        if (!(b->paths[i] = malloc(len))) return pl_fail(PL_ERR_NOMEM, "entropy: no memory");
        snprintf(b->paths[i], len, "%s/%s.npy", out_dir, arr[i].name);
    }
    return PL_OK;
}

pl_status pl_entropy_batch_dir(const char *out_dir, int *made)
{
    struct stat st;
    *made = 0;
    if (stat(out_dir, &st) != 0) {
        if (mkdir(out_dir, 0777) != 0)
            return pl_fail(PL_ERR_IO, "entropy: cannot create the directory %s: %s", out_dir, strerror(errno));
        *made = 1;
    } else if (!S_ISDIR(st.st_mode)) {
        return pl_fail(PL_ERR_IO, "entropy: %s exists and is not a directory", out_dir);
    }
    return PL_OK;
}

void pl_entropy_batch_undo(const pl_entropy_batch *b, int written, const char *out_dir, int made)
{
    for (int i = 0; i < written; i++) remove(b->paths[i]);
    if (made) rmdir(out_dir);
}

void pl_entropy_batch_free(pl_entropy_batch *b)
{
    for (int i = 0; b->owned && i < b->count; i++) pl_free(b->owned[i]);
    for (int i = 0; b->paths && i < b->count; i++) free(b->paths[i]);
    free(b->owned), free(b->values), free(b->paths);
    memset(b, 0, sizeof *b);
}

pl_status pl_entropy_batch_warm(pl_ctx *ctx, const char *rung, const pl_entropy_batch *b, const pl_named_array *arr,
                                const pl_entropy_problem *opts, float *out)
{
    for (int i = 0; i < b->count; i++) {
        const int64_t H = arr[i].a.shape[0], W = arr[i].a.shape[1];
        if (H * W == 0) continue;
        pl_entropy_problem p = *opts;
        p.H = H < 64 ? H : 64, p.W = W < 64 ? W : 64, p.ld_in = W, p.ld_out = p.W;
        return pl_entropy_variant_phases(ctx, rung, NULL, &p, b->values[i], out, NULL);
    }
    return PL_OK;
}

pl_status pl_entropy_batch_run(pl_ctx *ctx, const char *rung, const pl_entropy_batch *b, const pl_named_array *arr,
                               const pl_entropy_problem *opts, float *out, pl_entropy_batch_row_fn *row, void *user,
                               int *written)
{
    pl_status s;
    *written = 0;
    for (int i = 0; i < b->count; i++) {
        const int64_t H = arr[i].a.shape[0], W = arr[i].a.shape[1];
        double phase[PL_N_PHASES] = {-1, -1, -1, -1}, wall = 0;
        pl_entropy_problem p = *opts;
        p.H = H, p.W = W, p.ld_in = W, p.ld_out = W;
        s = PL_OK;
        if (H * W > 0) {
            const double t0 = pl_now();
            s = rung ? pl_entropy_variant_phases(ctx, rung, NULL, &p, b->values[i], out, phase)
                     : pl_fail(PL_ERR_UNSUPPORTED, "entropy: no variant can run in this context");
            wall = pl_now() - t0;
        }
        pl_array E = {.dtype = PL_F32, .rank = 2, .shape = {H, W}, .data = out};
        if (s == PL_OK) s = pl_npy_write(b->paths[i], &E);
        if (s != PL_OK) return s;
        *written = i + 1;
        row(user, i, wall, phase);
    }
    return PL_OK;
}
