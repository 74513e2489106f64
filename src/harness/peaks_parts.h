/* peaks_parts.h: what the files of `parlab peaks` share among themselves, not for their callers
 * (those use peaks.h and parlab.h):
 *   peaks_measure.c  the public calls: measure (CPU, then GPU), judge, cache; or load the cache
 *   peaks_compute.c  the CPU's FP32 FMA peak per ISA and its 32-bit integer throughput
 *   peaks_streams.c  the CPU's memory streams (triad, read, write, copy; cache-resident)
 *   peaks_sanity.c   the spread of repeated readings, the load average, the sanity verdict
 *   peaks_mem_time.c the memory bound of a run (pl_peaks_mem_time)
 *   peaks_machine.c  the machine key, the GPU a context measures, the cache directory and file
 *   peaks_kvfile.c   the "key = value" lines the cache file is made of
 *   peaks_cache.c    the cache file: its keys, written whole, read back and checked; the names
 *                    of the TF32 measuring methods it writes
 * peaks.h, the callers' header, holds no code of these files but the measuring policy's
 * constants (tries, repeats, the spread and load limits), so that no file here calls one above it. */
#ifndef PL_HARNESS_PEAKS_PARTS_H
#define PL_HARNESS_PEAKS_PARTS_H

#include "harness/peaks.h"

#include <stddef.h>

/* The longest path the cache directory and file may have. */
enum { PL_PEAKS_PATH_LEN = 4096 };

/* ---- measuring (peaks_compute.c, peaks_streams.c) */

/* The FMA peaks of every ISA this CPU has and the integer ops with its best ISA, on one
 * thread and on `threads` threads; the spreads noted in pk. Returns the most threads OpenMP
 * gave a measurement. */
int pl_peaks_cpu_compute(pl_peaks *pk, int threads, int quick);
/* The memory streams on `threads` threads (and the read stream on one); *team: the threads
 * that ran them. */
pl_status pl_peaks_cpu_streams(pl_peaks *pk, int threads, int quick, int *team);

/* ---- the spread of readings and the verdict (peaks_sanity.c) */

/* The median of x[0..n) (sorts x; n <= 64). */
double pl_peaks_median(double *x, int n);
/* Keep in pk the widest spread of repeated readings (best / median - 1) and what it was. */
void pl_peaks_note_spread(pl_peaks *pk, const char *what, double best, double median);
/* The sanity verdict into pk (sane, sanity); PARLAB_PEAKS_SANITY=off skips the checks (for
 * tests on a shared machine) and says so. */
void pl_peaks_judge(pl_peaks *pk);

/* ---- the machine (peaks_machine.c) */

/* The GPU a context measures: its device for a CUDA context, else device 0. */
int pl_peaks_gpu_device(const pl_ctx *ctx);
/* Whether the GPU figures should be measured: a usable GPU, and no CPU context. */
int pl_peaks_gpu_wanted(const pl_ctx *ctx);
/* "AMD EPYC 2c" or "AMD EPYC 2c + NVIDIA H100 80GB HBM3" (" avx2-only" / " no-simd" after
 * the cores where PARLAB_ISA_MAX hides part of the CPU). */
void pl_peaks_machine_key(const pl_ctx *ctx, char *buf, size_t n);

/* ---- "key = value" lines (peaks_kvfile.c) */

enum { PL_KV_MAX_FIELDS = 64, PL_KV_KEY_LEN = 48, PL_KV_VAL_LEN = 256, PL_KV_LINE_LEN = 512 };
typedef struct pl_kvfile {
    int n;
    char key[PL_KV_MAX_FIELDS][PL_KV_KEY_LEN];
    char val[PL_KV_MAX_FIELDS][PL_KV_VAL_LEN];
} pl_kvfile;
/* Read the "key = value" lines of a file ('#' starts a comment line, blank lines skipped). A
 * missing file: PL_ERR_IO with errno ENOENT kept; anything that is not such lines:
 * PL_ERR_FORMAT, with the line (not the path) in the message. */
pl_status pl_kv_read(const char *path, pl_kvfile *kf);
/* The value of key (the last line that sets it), or NULL. */
const char *pl_kv_get(const pl_kvfile *kf, const char *key);
/* A finite number >= 0 written in full into *out: 1; 0 if missing or malformed. */
int pl_kv_num(const pl_kvfile *kf, const char *key, double *out);

/* ---- the cache file (peaks_cache.c) */

/* Load and check the cache file at path, written for machine (a key of pl_peaks_machine_key):
 * PL_OK with pk filled (valid, sane, cached), else why it is unusable. */
pl_status pl_peaks_load_cache(const char *path, const char *machine, pl_peaks *pk);
/* Write pk to path whole (a temporary file beside it, then rename); tc_method: how the TF32
 * peak was measured (a pl_peaks_tc). */
pl_status pl_peaks_save_cache(const char *path, const pl_peaks *pk, int tc_method);

#endif
