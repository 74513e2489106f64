/* studies.c: the lab's list of studies, and what they share: cache sizes from sysfs, the
 * timing loop (the harness's clock and statistics), the rows of a table. */
#include "harness/harness.h"
#include "kernels/memory/mem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const mem_study pl_mem_studies[] = {
    {"stream", "STREAM copy, scale, add, triad by its rules, 1..N threads, normal and streaming stores",
     pl_mem_stream, 0},
    {"write-read", "write bandwidth against read bandwidth, and what streaming stores change", pl_mem_write_read, 0},
    {"stride", "read every s-th element, s = 1..64: the cache line decides the cost", pl_mem_stride, 0},
    {"prefetch", "random access by element, by cache line, by 4 KiB block, against sequential", pl_mem_prefetch, 0},
    {"false-sharing", "per-thread counters side by side versus padded to a cache line", pl_mem_false_sharing, 0},
    {"loop-order", "a 2D array walked along rows (xy) and down columns (yx); rows as separate allocations",
     pl_mem_loop_order, 0},
    {"layout", "AoS, SoA and AoSoA for a particle update touching every field, and one touching one",
     pl_mem_layout, 0},
    {"alignment", "aligned against misaligned SIMD loads, in L1 and from memory", pl_mem_alignment, 0},
    {"gpu-stream", "GPU: STREAM's four kernels on the device and the device-to-device copy", pl_mem_gpu_stream, 1},
    {"gpu-alignment", "GPU: coalesced, offset and strided warps reading memory", pl_mem_gpu_alignment, 1},
    {"gpu-banks", "GPU: shared-memory bank conflicts for strides 1..32, and with padding", pl_mem_gpu_banks, 1},
    {"gpu-grid-stride", "GPU: a grid-stride loop against a thread per element, over sizes", pl_mem_gpu_grid_stride,
     1},
    {NULL, NULL, NULL, 0},
};


void pl_mem_time(void (*fn)(void *), void *arg, int reps, double work, double scale, int per_item, mem_row *row)
{
    double t[64];
    if (reps > 64) reps = 64;
    if (reps < 1) reps = 1;
    fn(arg); /* warm-up: pages touched, caches and predictors in their steady state */
    for (int i = 0; i < reps; i++) {
        const double t0 = pl_now();
        fn(arg);
        t[i] = pl_now() - t0;
    }
    double median, min, max;
    pl_stats_summary(t, reps, &median, &min, &max);
    if (per_item) {
        row->best = min / work * scale;
        row->median = median / work * scale;
    } else {
        row->best = min > 0 ? work / min / scale : 0;
        row->median = median > 0 ? work / median / scale : 0;
    }
    row->spread = median > 0 ? (max - min) / median : 0;
}

mem_row *pl_mem_row(mem_table *t, const char *unit, const char *fmt, ...)
{
    static mem_row overflow; /* a study that adds more rows than fit writes here, unseen */
    if (t->n >= MEM_MAX_ROWS) return &overflow;
    mem_row *r = &t->rows[t->n++];
    memset(r, 0, sizeof *r);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->name, sizeof r->name, fmt, ap);
    va_end(ap);
    r->unit = unit;
    return r;
}
