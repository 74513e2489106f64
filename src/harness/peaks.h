/* peaks.h: the inside of `parlab peaks` (the public calls are pl_peaks_get, pl_peaks_measure
 * and pl_cache_dir in parlab.h).
 *
 * The FMA peak of a unit is measured with many independent FMA chains per thread, x = x*m + a,
 * so that the pipes never wait for a result: per ISA one loop (peaks_compute.c, peaks_avx2.c,
 * peaks_avx512.c), per GPU one kernel (peaks_cuda.cu). Each chain step counts 2 flops per lane.
 * The 32-bit integer/bitwise throughput is measured the same way: independent chains per
 * thread that alternate a bitwise op (AVX-512 vpternlogd, AVX2 vpxor, scalar xor; GPU LOP3)
 * and an add (vpaddd / add; GPU IADD3), one op per 32-bit lane per instruction. An empty asm
 * statement after every op of every chain hands the values to the compiler as unknown, so
 * that it can neither fold nor reassociate the chains (peaks_compute.c, peaks_avx2.c,
 * peaks_avx512.c).
 * The GPU TF32 tensor-core peak is back-to-back wgmma.mma_async m64n256k8 (Hopper, sm_90a
 * image) or mma.sync m16n8k8 (sm_80 and later), 2 flops per multiply-add (peaks_cuda.cu).
 * The constants below are the method; `parlab peaks` prints them beside the figures. */
#ifndef PL_HARNESS_PEAKS_H
#define PL_HARNESS_PEAKS_H

#include "parlab.h"
#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    PL_PEAKS_CHAINS_SCALAR = 12, /* xmm registers: 16, two hold m and a */
    PL_PEAKS_CHAINS_AVX2 = 12,   /* ymm registers: 16, two hold m and a */
    PL_PEAKS_CHAINS_AVX512 = 16, /* zmm registers: 32 */
    PL_PEAKS_GPU_CHAINS = 8,     /* per CUDA thread */
    PL_PEAKS_GPU_UNROLL = 16,    /* chain steps per loop trip, so loop overhead is ~1% */
    PL_PEAKS_GPU_THREADS = 256,  /* per block */
    PL_PEAKS_GPU_BLOCKS_PER_SM = 8, /* 2048 threads per SM: a full SM on sm_80/sm_90 */
    /* integer/bitwise chains per thread; each loop trip runs PL_PEAKS_INT_OPS ops a chain
     * (bitwise, add, bitwise, add) */
    PL_PEAKS_INT_CHAINS_SCALAR = 8, /* general registers: 16, minus the stack, the counter, ... */
    PL_PEAKS_INT_CHAINS_AVX2 = 12,  /* ymm: 16, two hold the constants */
    PL_PEAKS_INT_CHAINS_AVX512 = 16,
    PL_PEAKS_INT_OPS = 4,
    PL_PEAKS_GPU_INT_CHAINS = 8,    /* per CUDA thread, PL_PEAKS_GPU_UNROLL x 2 ops per trip */
    /* TF32 tensor cores: wgmma m64n256k8 per warpgroup (128 threads), PL_PEAKS_TC_UNROLL
     * wgmmas per commit group, one group left in flight; the best over 1..PL_PEAKS_TC_MAX_WG
     * warpgroups per SM counts. mma.sync m16n8k8: PL_PEAKS_MMA_CHAINS independent
     * accumulators per warp, PL_PEAKS_MMA_WARPS warps per SM. */
    PL_PEAKS_TC_UNROLL = 8,
    PL_PEAKS_TC_MAX_WG = 3,
    PL_PEAKS_MMA_CHAINS = 8,
    PL_PEAKS_MMA_WARPS = 32
};

/* Which instruction measured the TF32 tensor-core peak (the cache's gpu_tf32_method). */
typedef enum pl_peaks_tc {
    PL_PEAKS_TC_NONE = 0, /* no tensor cores usable for TF32 (before sm_80): figure 0 */
    PL_PEAKS_TC_MMA,      /* mma.sync.m16n8k8 tf32 (sm_80+, or sm_90 without the sm_90a image) */
    PL_PEAKS_TC_WGMMA     /* wgmma.mma_async m64n256k8 tf32 (the sm_90a image on Hopper) */
} pl_peaks_tc;
/* "none", "mma.sync", "wgmma"; pl_peaks_tc_parse gives -1 for any other text. */
const char *pl_peaks_tc_name(int method);
int pl_peaks_tc_parse(const char *name);

/* Which ISA measured the CPU integer figures (the cache's cpu_int32_isa): the best this CPU
 * has. "avx512", "avx2" or "scalar". */
const char *pl_peaks_int_isa(void);

/* Timed tries of each FMA measurement (the best one counts) and the time of each try. */
static inline int pl_peaks_tries(int quick) { return quick ? 3 : 5; }
static inline double pl_peaks_try_s(int quick) { return quick ? 0.04 : 0.2; }
/* STREAM triad: MiB per array, timed repetitions (the best one counts). */
/* MiB an array: STREAM's rule, 4x the last-level cache, and at least 32 (quick) or 64: arrays
 * that fit in a large L3 (300 MiB on some servers) would time the cache, not memory. */
int pl_peaks_triad_mib(int quick);
static inline int pl_peaks_triad_reps(int quick) { return quick ? 10 : 30; }
/* GPU device-to-device copy: MiB copied, timed repetitions. */
static inline int pl_peaks_copy_mib(int quick) { return quick ? 256 : 1024; }
static inline int pl_peaks_copy_reps(int quick) { return quick ? 5 : 10; }

/* One thread's FMA chains for iters steps; the return value is the sum of the chains, which
 * the caller stores so that the loop cannot be dropped. */
float pl_peaks_fma_sse(int64_t iters);        /* scalar mul + add, baseline x86-64 (peaks_compute.c) */
float pl_peaks_fma_scalar(int64_t iters);     /* scalar FMA (vfmadd..ss), peaks_avx2.c */
float pl_peaks_fma_avx2(int64_t iters);       /* 8 lanes, peaks_avx2.c */
float pl_peaks_fma_avx512(int64_t iters);     /* 16 lanes, peaks_avx512.c */
/* One thread's integer chains for iters trips (PL_PEAKS_INT_OPS ops a chain each); the return
 * value is a checksum of the chains (as a float), stored by the caller likewise. */
float pl_peaks_int_scalar(int64_t iters);     /* xor + add on 32-bit registers (peaks_compute.c) */
float pl_peaks_int_avx2(int64_t iters);       /* vpxor + vpaddd ymm, 8 lanes, peaks_avx2.c */
float pl_peaks_int_avx512(int64_t iters);     /* vpternlogd + vpaddd zmm, 16 lanes, peaks_avx512.c */

/* One thread's memory streams over its chunk (a multiple of 64 floats, 64-byte aligned):
 * read: the sum of a[0..n) (returned, so that the loads cannot be dropped); write: a[i] = v;
 * copy: dst[i] = src[i]; nt: non-temporal (streaming) stores. sse: peaks_streams.c (baseline
 * x86-64), avx2: peaks_avx2.c, avx512: peaks_avx512.c. */
float pl_peaks_read_sse(const float *a, int64_t n);
void pl_peaks_write_sse(float *a, int64_t n, float v, int nt);
void pl_peaks_copy_sse(float *dst, const float *src, int64_t n, int nt);
float pl_peaks_read_avx2(const float *a, int64_t n);
void pl_peaks_write_avx2(float *a, int64_t n, float v, int nt);
void pl_peaks_copy_avx2(float *dst, const float *src, int64_t n, int nt);
float pl_peaks_read_avx512(const float *a, int64_t n);
void pl_peaks_write_avx512(float *a, int64_t n, float v, int nt);
void pl_peaks_copy_avx512(float *dst, const float *src, int64_t n, int nt);
/* The three streams of this CPU's widest ISA (AVX-512, AVX2, else SSE): the peaks' and the
 * distributed bench's memory bound's (src/distributed/bench/bench_ranks.c). */
typedef struct pl_peaks_stream_fns {
    float (*read)(const float *a, int64_t n);
    void (*write)(float *a, int64_t n, float v, int nt);
    void (*copy)(float *dst, const float *src, int64_t n, int nt);
} pl_peaks_stream_fns;
pl_peaks_stream_fns pl_peaks_best_streams(void);
/* Cache-resident streams: passes over the arrays per timed repetition, repetitions. */
static inline int pl_peaks_cache_passes(void) { return 16; }
static inline int pl_peaks_cache_reps(int quick) { return quick ? 10 : 40; }

/* ---- the memory bound of a run (docs/output.md, "%peak")
 * The least time a run's bytes need at the measured stream rates, R (read only), W (write
 * only) and M (the best mixed stream, copy or triad, bytes read + written):
 *   t = min(read / R + written / W, (read + written) / M)
 * Each term alone is a time no run can beat when its reads and writes go one after the
 * other; the min keeps it a lower bound where they overlap (as the mixed streams' do). A
 * warm run (not cold) whose bytes fit in the cache the cache-resident figures were measured
 * in (cpu_cache_bytes: the last-level cache; gpu_cache_bytes: the L2) is bounded by
 * (read + written) / the fastest cache-resident stream instead, when that is less. written <
 * 0: the split is unknown, and all bytes go at the fastest of R, W and M. gpu: the GPU's
 * figures, else the CPU's. Returns the seconds (0: no figures to bound it) and the bound's
 * name in name ("CPU read/write streams", "CPU copy bandwidth", "CPU triad bandwidth",
 * "CPU LLC-resident streams", "GPU ..."). */
double pl_peaks_mem_time(const pl_peaks *pk, int gpu, double bytes, double written, int cold, char *name,
                         size_t n);

/* ---- sanity of freshly measured figures (docs/architecture.md, "Peaks: honest ceilings, sane figures")
 * The rules, each a reason to refuse to cache them:
 * - threads: on a machine of more than one thread, all threads slower than 0.9 x one thread
 *   for an FMA ISA, the int32 figure or the read stream;
 * - spread: repeated readings of one figure far apart: best / median - 1 > PL_PEAKS_MAX_SPREAD;
 * - load: the 1-minute load average when the measuring began above
 *   pl_peaks_max_load(cores) = 1 + 0.25 x cores (one runnable task allowed: the load average
 *   lags a minute behind, so the command before this one in a script still counts; a quarter
 *   of the cores for background noise); load1 < 0 (unknown) passes.
 * Returns 1 if the figures pass, else 0 with the reasons in why. */
#define PL_PEAKS_MAX_SPREAD 0.25
static inline double pl_peaks_max_load(int cores) { return 1.0 + 0.25 * (double)cores; }
int pl_peaks_sanity(const pl_peaks *pk, int cores, char *why, size_t n);
/* The 1-minute load average, from /proc/loadavg (or the file named by $PARLAB_PEAKS_LOADAVG,
 * for tests); -1 if unknown. */
double pl_peaks_load1(void);

/* GPU ceilings of one device (peaks_cuda.cu; peaks_cuda_stub.c answers PL_ERR_NO_CUDA). */
pl_status pl_peaks_gpu_fma(int device, int quick, double *gflops);
pl_status pl_peaks_gpu_copy(int device, int quick, double *gbps);
/* Streams with 16-byte accesses, enough blocks to fill the GPU: read only (a sum per thread,
 * stored) and write only on pl_peaks_copy_mib(quick) MiB; read only and copy (kernel) on half
 * of the L2 (*l2_bytes: its size), warm, for runs that fit in it. GB/s of the bytes moved. */
pl_status pl_peaks_gpu_streams(int device, int quick, double *read_gbps, double *write_gbps,
                               double *l2_read_gbps, double *l2_copy_gbps, double *l2_bytes);
/* TF32 tensor-core peak; *method: a pl_peaks_tc. PL_OK with 0 GFLOP/s and PL_PEAKS_TC_NONE on
 * a GPU without TF32 tensor cores. */
pl_status pl_peaks_gpu_tf32(int device, int quick, double *gflops, int *method);
/* 32-bit integer/bitwise throughput (LOP3 + IADD3 chains), Gop/s. */
pl_status pl_peaks_gpu_int32(int device, int quick, double *gops);

/* The cache file of this machine: <pl_cache_dir>/peaks-<machine key>.txt, the GPU being
 * ctx's device (device 0 when ctx is NULL or a CPU context). Creates the directory. */
pl_status pl_peaks_cache_path(const pl_ctx *ctx, char *buf, size_t n);

/* One row of `parlab peaks`'s table (peaks_table.c): the ceiling, where it was measured ("1 thr",
 * "N thr", "GPU"; "-": not here), its figure (<= 0: none) and how it was measured. */
typedef struct pl_peaks_row {
    char ceiling[32], where[16], unit[8], how[160];
    double value;
} pl_peaks_row;
enum { PL_PEAKS_MAX_ROWS = 32 };
/* The rows for pk (its cpu_mode and gpu_mode "quick" or "full" give the tries and sizes; any
 * other: not said), at most max of them; their count. */
int pl_peaks_rows(const pl_peaks *pk, pl_peaks_row *row, int max);

#ifdef __cplusplus
}
#endif
#endif
