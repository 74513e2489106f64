/* peaks.h: the inside of `parlab peaks` (the public calls are pl_peaks_get, pl_peaks_measure
 * and pl_cache_dir in parlab.h).
 *
 * The FMA peak of a unit is measured with many independent FMA chains per thread, x = x*m + a,
 * so that the pipes never wait for a result: per ISA one loop (peaks.c, peaks_avx2.c,
 * peaks_avx512.c), per GPU one kernel (peaks_cuda.cu). Each chain step counts 2 flops per lane.
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
    PL_PEAKS_GPU_BLOCKS_PER_SM = 8 /* 2048 threads per SM: a full SM on sm_80/sm_90 */
};

/* Timed tries of each FMA measurement (the best one counts) and the time of each try. */
static inline int pl_peaks_tries(int quick) { return quick ? 3 : 5; }
static inline double pl_peaks_try_s(int quick) { return quick ? 0.04 : 0.2; }
/* STREAM triad: MiB per array, timed repetitions (the best one counts). */
static inline int pl_peaks_triad_mib(int quick) { return quick ? 32 : 64; }
static inline int pl_peaks_triad_reps(int quick) { return quick ? 10 : 30; }
/* GPU device-to-device copy: MiB copied, timed repetitions. */
static inline int pl_peaks_copy_mib(int quick) { return quick ? 256 : 1024; }
static inline int pl_peaks_copy_reps(int quick) { return quick ? 5 : 10; }

/* One thread's FMA chains for iters steps; the return value is the sum of the chains, which
 * the caller stores so that the loop cannot be dropped. */
float pl_peaks_fma_sse(int64_t iters);        /* scalar mul + add, baseline x86-64 (peaks.c) */
float pl_peaks_fma_scalar(int64_t iters);     /* scalar FMA (vfmadd..ss), peaks_avx2.c */
float pl_peaks_fma_avx2(int64_t iters);       /* 8 lanes, peaks_avx2.c */
float pl_peaks_fma_avx512(int64_t iters);     /* 16 lanes, peaks_avx512.c */

/* GPU ceilings of one device (peaks_cuda.cu; peaks_cuda_stub.c answers PL_ERR_NO_CUDA). */
pl_status pl_peaks_gpu_fma(int device, int quick, double *gflops);
pl_status pl_peaks_gpu_copy(int device, int quick, double *gbps);

/* The cache file of this machine: <pl_cache_dir>/peaks-<machine key>.txt, the GPU being
 * ctx's device (device 0 when ctx is NULL or a CPU context). Creates the directory. */
pl_status pl_peaks_cache_path(const pl_ctx *ctx, char *buf, size_t n);
/* The text of one "key = value" line of a cache file (e.g. "cpu_mode", "measured");
 * 1 if found, 0 if the file or the key is missing. */
int pl_peaks_cache_field(const char *path, const char *key, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
