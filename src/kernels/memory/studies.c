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
    {.name = "stream", .summary = "STREAM copy, scale, add, triad by its rules, 1..N threads, normal and streaming "
     "stores", .run = pl_mem_stream},
    {.name = "write-read", .summary = "write bandwidth against read bandwidth, and what streaming stores change",
     .run = pl_mem_write_read},
    {.name = "stride", .summary = "read every s-th element, s = 1..64: the cache line decides the cost",
     .run = pl_mem_stride},
    {.name = "prefetch", .summary = "random access by element, by cache line, by 4 KiB block, against sequential",
     .run = pl_mem_prefetch},
    {.name = "false-sharing", .summary = "per-thread counters side by side versus padded to a cache line",
     .run = pl_mem_false_sharing},
    {.name = "loop-order", .summary = "a 2D array walked along rows (xy) and down columns (yx); rows as separate "
     "allocations", .run = pl_mem_loop_order},
    {.name = "layout", .summary = "AoS, SoA and AoSoA for a particle update touching every field, and one touching "
     "one", .run = pl_mem_layout},
    {.name = "alignment", .summary = "aligned against misaligned SIMD loads, in L1 and from memory",
     .run = pl_mem_alignment},
    {.name = "gpu-stream", .summary = "GPU: STREAM's four kernels on the device and the device-to-device copy",
     .run = pl_mem_gpu_stream, .gpu = 1},
    {.name = "gpu-alignment", .summary = "GPU: coalesced, offset and strided warps reading memory",
     .run = pl_mem_gpu_alignment, .gpu = 1},
    {.name = "gpu-banks", .summary = "GPU: shared-memory bank conflicts for strides 1..32, and with padding",
     .run = pl_mem_gpu_banks, .gpu = 1},
    {.name = "gpu-grid-stride", .summary = "GPU: a grid-stride loop against a thread per element, over sizes",
     .run = pl_mem_gpu_grid_stride, .gpu = 1},
    {.name = NULL}, /* the end */
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
