/* mem.h: the memory-system lab, `parlab mem STUDY`. Each study is one file of this
 * room: it sizes its arrays from the machine's caches (sysfs), times its cases with the
 * harness's clock (repeats; median, best and spread by pl_stats_summary), checks a checksum of
 * what it computed (a wrong one fails the study), and fills a table of rows with a one-line
 * reading of the effect it shows. cmd_mem.c prints the tables; tables.c writes them as JSON. */
#ifndef PL_MEM_H
#define PL_MEM_H

#include "core/core.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { MEM_MAX_ROWS = 96 };

typedef struct mem_opts {
    int quick;   /* small arrays and few repeats: seconds for every study (tests) */
    int threads; /* the most threads a study uses (default: the cores) */
    int reps;    /* timed repeats of each case */
} mem_opts;

typedef struct mem_row {
    char name[80];     /* "triad, 2 threads, streaming stores" */
    double best;       /* the best of the repeats, in unit */
    double median;     /* the median, in unit */
    double spread;     /* (max - min) / median of the times */
    const char *unit;  /* "GB/s", "ns/element" */
} mem_row;

typedef struct mem_table {
    const char *study;
    char setup[256];   /* array sizes, threads: what ran */
    char reading[512]; /* one line: the effect measured */
    mem_row rows[MEM_MAX_ROWS];
    int n;
    int checksums_ok;  /* every case computed what it should */
} mem_table;

typedef struct mem_study {
    const char *name;
    const char *summary;
    pl_status (*run)(const mem_opts *o, mem_table *t);
    int gpu; /* a GPU study: `all` runs it where a GPU is present, and says so where not */
} mem_study;

/* The studies in order (studies.c); NULL-terminated. */
extern const mem_study pl_mem_studies[];

/* Time fn(arg) reps times (after one warm-up); *row gets best and median as rates of `work`
 * units per second scaled by `scale` (work / s / scale), or, with per_item set, as seconds per
 * item scaled (s / work * scale: "ns per element" with scale 1e9). */
void pl_mem_time(void (*fn)(void *), void *arg, int reps, double work, double scale, int per_item, mem_row *row);

/* Append a row (name printf-style); the row to fill. */
mem_row *pl_mem_row(mem_table *t, const char *unit, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* tables.c: the stream table's reading completed with how its triad on `threads` threads with
 * normal stores compares with parlab peaks' cached triad (quick: not comparable, said so). */
void pl_mem_stream_vs_peaks(mem_table *t, int threads, int quick);
/* The tables of the studies ran[0..n) as JSON (schema parlab-mem/1) to path, whole or not at all. */
pl_status pl_mem_json_write(const char *path, const char *command, const mem_opts *o, const mem_table *tables,
                            const mem_study *const *ran, int n);

/* The studies. */
pl_status pl_mem_stream(const mem_opts *o, mem_table *t);
pl_status pl_mem_write_read(const mem_opts *o, mem_table *t);
pl_status pl_mem_stride(const mem_opts *o, mem_table *t);
pl_status pl_mem_prefetch(const mem_opts *o, mem_table *t);
pl_status pl_mem_false_sharing(const mem_opts *o, mem_table *t);
pl_status pl_mem_loop_order(const mem_opts *o, mem_table *t);
pl_status pl_mem_layout(const mem_opts *o, mem_table *t);
pl_status pl_mem_alignment(const mem_opts *o, mem_table *t);
/* The GPU studies (gpu.cu; gpu_stub.c in a build without CUDA: PL_ERR_NO_CUDA). Without a
 * GPU they return PL_ERR_UNSUPPORTED "no GPU". */
pl_status pl_mem_gpu_stream(const mem_opts *o, mem_table *t);
pl_status pl_mem_gpu_alignment(const mem_opts *o, mem_table *t);
pl_status pl_mem_gpu_banks(const mem_opts *o, mem_table *t);
pl_status pl_mem_gpu_grid_stride(const mem_opts *o, mem_table *t);

#ifdef __cplusplus
}
#endif
#endif
