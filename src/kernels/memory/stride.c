/* stride: sum every s-th float of an array 4x the last-level cache, s = 1, 2, 4, ..., 64, one
 * thread. The time per element read grows with s until s = 16 (a 64-byte line holds 16 floats:
 * from there every read brings a whole line for one float), then stays: the cost is lines, not
 * elements. Rows: ns per element read, and the useful bandwidth (bytes of the elements read).
 * Checksum: the array holds 1.0f, so each sum is the count of elements read. */
#include "kernels/memory/mem.h"

#include <stdio.h>

typedef struct stride_args {
    const float *x;
    int64_t n, stride;
    double sum;
} stride_args;

static void stride_kernel(void *arg)
{
    stride_args *s = arg;
    double sum = 0;
    for (int64_t i = 0; i < s->n; i += s->stride) sum += s->x[i];
    s->sum = sum;
}

pl_status pl_mem_stride(const mem_opts *o, mem_table *t)
{
    const int64_t llc = pl_cpu_llc_bytes(8 << 20);
    const int64_t n = o->quick ? (int64_t)1 << 20 : 4 * llc / 4;
    float *x = pl_alloc((size_t)n * sizeof(float));
    if (!x) return pl_fail(PL_ERR_NOMEM, "mem stride: no memory for %lld floats", (long long)n);
    for (int64_t i = 0; i < n; i++) x[i] = 1.0f;
    snprintf(t->setup, sizeof t->setup, "%lld floats (%.1f MiB), one thread", (long long)n, n * 4.0 / 1048576.0);
    stride_args s = {x, n, 1, 0};
    int ok = 1;
    double ns1 = 0, ns16 = 0, ns64 = 0;
    for (int64_t st = 1; st <= 64; st *= 2) {
        s.stride = st;
        const double reads = (double)((n + st - 1) / st);
        mem_row *r = pl_mem_row(t, "ns/element", "stride %lld (%lld bytes)", (long long)st, (long long)(4 * st));
        pl_mem_time(stride_kernel, &s, o->reps, reads, 1e9, 1, r);
        ok &= s.sum == reads;
        if (st == 1) ns1 = r->best;
        if (st == 16) ns16 = r->best;
        if (st == 64) ns64 = r->best;
        mem_row *g = pl_mem_row(t, "GB/s", "stride %lld, useful bytes", (long long)st);
        g->best = r->best > 0 ? 4.0 / r->best : 0, g->median = r->median > 0 ? 4.0 / r->median : 0, g->spread = r->spread;
    }
    t->checksums_ok = ok;
    pl_free(x);
    snprintf(t->reading, sizeof t->reading, "%.2f ns an element at stride 1, %.2f at 16 (a line per read: %.0fx), "
             "%.2f at 64: past one element a line the cost is the lines moved, not the elements used",
             ns1, ns16, ns1 > 0 ? ns16 / ns1 : 0, ns64);
    return PL_OK;
}
