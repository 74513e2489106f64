/* loop-order: an N x N float array (4x the last-level cache) summed, one thread: along its
 * rows (y outer, x inner: consecutive addresses, every byte of a line used) and down its
 * columns (x outer: each read a new line, N floats apart); and the same row walk over an array
 * made of N separate row allocations (a pointer to follow a row; rows scattered in memory).
 * Rows: ns per element. Checksum: the array holds 1.0f: every sum is N^2. */
#include "kernels/memory/mem.h"

#include <math.h>
#include <stdio.h>

typedef struct lo_args {
    const float *flat;
    float **rows;
    int64_t n;
    int mode; /* 0 xy (rows), 1 yx (columns), 2 rows as separate allocations */
    double sum;
} lo_args;

static void lo_kernel(void *arg)
{
    lo_args *l = arg;
    const int64_t n = l->n;
    double sum = 0;
    if (l->mode == 0) {
        for (int64_t y = 0; y < n; y++)
            for (int64_t x = 0; x < n; x++) sum += l->flat[y * n + x];
    } else if (l->mode == 1) {
        for (int64_t x = 0; x < n; x++)
            for (int64_t y = 0; y < n; y++) sum += l->flat[y * n + x];
    } else {
        for (int64_t y = 0; y < n; y++) {
            const float *row = l->rows[y];
            for (int64_t x = 0; x < n; x++) sum += row[x];
        }
    }
    l->sum = sum;
}

pl_status pl_mem_loop_order(const mem_opts *o, mem_table *t)
{
    const int64_t llc = pl_cpu_llc_bytes(8 << 20);
    const int64_t n = o->quick ? 512 : (int64_t)sqrt(4.0 * (double)llc / 4.0);
    float *flat = pl_alloc((size_t)(n * n) * sizeof(float));
    float **rows = pl_alloc((size_t)n * sizeof(float *));
    int64_t made = 0;
    pl_status st = flat && rows ? PL_OK : PL_ERR_NOMEM;
    for (; st == PL_OK && made < n; made++)
        if (!(rows[made] = pl_alloc((size_t)n * sizeof(float)))) st = PL_ERR_NOMEM;
    if (st == PL_OK) {
        for (int64_t i = 0; i < n * n; i++) flat[i] = 1.0f;
        for (int64_t y = 0; y < n; y++)
            for (int64_t x = 0; x < n; x++) rows[y][x] = 1.0f;
        snprintf(t->setup, sizeof t->setup, "%lld x %lld floats (%.1f MiB), one thread", (long long)n, (long long)n,
                 (double)(n * n) * 4.0 / 1048576.0);
        static const char *const names[3] = {"xy: along rows", "yx: down columns", "rows as separate allocations"};
        double ns[3];
        int ok = 1;
        for (int m = 0; m < 3; m++) {
            lo_args l = {flat, rows, n, m, 0};
            mem_row *r = pl_mem_row(t, "ns/element", "%s", names[m]);
            pl_mem_time(lo_kernel, &l, o->reps, (double)(n * n), 1e9, 1, r);
            ok &= l.sum == (double)(n * n);
            ns[m] = r->best;
        }
        t->checksums_ok = ok;
        snprintf(t->reading, sizeof t->reading, "along rows %.2f ns an element, down columns %.2f (%.0fx: a line "
                 "fetched for one float), rows as separate allocations %.2f (a row's pointer, then the same walk)",
                 ns[0], ns[1], ns[0] > 0 ? ns[1] / ns[0] : 0, ns[2]);
    } else {
        st = pl_fail(PL_ERR_NOMEM, "mem loop-order: no memory for a %lld x %lld array", (long long)n, (long long)n);
    }
    for (int64_t y = 0; rows && y < made; y++) pl_free(rows[y]);
    pl_free(rows);
    pl_free(flat);
    return st;
}
