/* peaks.c: the machine's measured ceilings, the roofs every result is placed under.
 *
 * - CPU FP32 FMA peak per ISA (scalar, AVX2, AVX-512), on one thread and on every core: each
 *   thread runs many independent FMA chains (peaks_avx2.c, peaks_avx512.c, the baseline loop
 *   below), 2 flops per lane per step, best of a few timed tries.
 * - CPU memory streams on all threads, on float arrays far beyond the caches (4x the
 *   last-level cache): STREAM triad a[i] = b[i] + s*c[i] (12 bytes an element: read b and c,
 *   write a; like STREAM, the write-allocate read of a is not counted), read only (a SIMD
 *   sum with eight accumulators), write only and copy (each the faster of plain and
 *   non-temporal stores); the read stream on one thread (a sanity check); read and copy on
 *   arrays of half the last-level cache, warm (the bound of cache-resident runs). Best of N.
 * - CPU 32-bit integer/bitwise throughput with the best ISA (AVX-512, AVX2 or scalar), on one
 *   thread and on every core: independent xor/ternlog + add chains, one op per 32-bit lane.
 * - GPU FP32 FMA peak, TF32 tensor-core peak (wgmma on Hopper, mma.sync on sm_80+), 32-bit
 *   integer throughput (LOP3 + IADD3), device-to-device copy bandwidth, and read-only and
 *   write-only streams in DRAM and read/copy streams in half the L2 (peaks_cuda.cu), when a
 *   GPU is usable and the context (which may be NULL) is not a CPU context.
 * - How they were taken: quick or full, when (UTC), the 1-minute load average at the start,
 *   the widest spread of repeated readings, and the sanity verdict (pl_peaks_sanity). Only
 *   figures that pass are cached; the others serve the run that measured them.
 *
 * The figures are cached per machine in <pl_cache_dir>/peaks-<machine key>.txt, a text file
 * of "key = value" lines ('#' starts a comment line), written atomically (temporary file +
 * rename). The machine key is "<CPU name> <cores>c" plus " + <GPU name>" when the machine has
 * a GPU (pl_cpu_name(), pl_cpu_cores(), the name of the GPU the context uses: pl_gpu_name()
 * for device 0). Doubles are written with %.17g, so a figure reads back bit for bit. Keys:
 *   format = 3                      machine = AMD EPYC 2c
 *   measured = 2026-11-22T10:31:02Z cpu_mode = quick|full      gpu_mode = quick|full|none
 *   load1 = 0.12 (-1: unknown)      spread = 0.04               spread_what = cpu_read_gbps
 *   sanity = ok|not checked (...)   cpu_threads = 2
 *   cpu_gflops_{scalar,avx2,avx512}_{1,all}
 *   cpu_int32_isa = avx512|avx2|scalar                          cpu_gops_int32_{1,all}
 *   cpu_{triad,read,write,copy,read_1thr}_gbps  cpu_write_nt = 0|1 (non-temporal stores won)
 *   cpu_cache_bytes  cpu_cache_{read,copy}_gbps
 *   gpu_gflops_fp32  gpu_copy_gbps  gpu_tf32_method = wgmma|mma.sync|none  gpu_gflops_tf32
 *   gpu_gops_int32  gpu_{read,write}_gbps  gpu_cache_bytes  gpu_cache_{read,copy}_gbps
 * A figure of 0 means "not available here" (no AVX-512, no GPU, no TF32 tensor cores). A file
 * that lacks a key (a file written before a figure was added to parlab, too: it is measured
 * again, never read as 0), holds a malformed or negative number or anything that is not text,
 * names another machine, or contradicts this CPU's features is rejected as a whole, with the
 * reason (and the key) in the message. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "harness/peaks.h"
#include "core/core.h"
#include "core/device.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xmmintrin.h>

enum { PATH_LEN = 4096 };

/* Where the measurement loops leave their results, so that none can be optimized away. */
static volatile float peaks_sink;

/* ---------------------------------------------------------------- CPU FMA peak */

/* The scalar chains for CPUs without FMA: mulss + addss (2 flops a step) in baseline x86-64.
 * Twelve chains cover the mul + add latency (6 cycles) of two mul and two add pipes. SSE
 * intrinsics keep the compiler from packing the chains into vectors; the chains are written
 * out one by one so that they stay in registers. */
float pl_peaks_fma_sse(int64_t iters)
{
    const __m128 m = _mm_set_ss(0.9999f), a = _mm_set_ss(0.0001f);
    __m128 x0 = _mm_set_ss(0.10f), x1 = _mm_set_ss(0.11f), x2 = _mm_set_ss(0.12f);
    __m128 x3 = _mm_set_ss(0.13f), x4 = _mm_set_ss(0.14f), x5 = _mm_set_ss(0.15f);
    __m128 x6 = _mm_set_ss(0.16f), x7 = _mm_set_ss(0.17f), x8 = _mm_set_ss(0.18f);
    __m128 x9 = _mm_set_ss(0.19f), x10 = _mm_set_ss(0.20f), x11 = _mm_set_ss(0.21f);
    for (int64_t i = 0; i < iters; i++) {
        x0 = _mm_add_ss(_mm_mul_ss(x0, m), a);
        x1 = _mm_add_ss(_mm_mul_ss(x1, m), a);
        x2 = _mm_add_ss(_mm_mul_ss(x2, m), a);
        x3 = _mm_add_ss(_mm_mul_ss(x3, m), a);
        x4 = _mm_add_ss(_mm_mul_ss(x4, m), a);
        x5 = _mm_add_ss(_mm_mul_ss(x5, m), a);
        x6 = _mm_add_ss(_mm_mul_ss(x6, m), a);
        x7 = _mm_add_ss(_mm_mul_ss(x7, m), a);
        x8 = _mm_add_ss(_mm_mul_ss(x8, m), a);
        x9 = _mm_add_ss(_mm_mul_ss(x9, m), a);
        x10 = _mm_add_ss(_mm_mul_ss(x10, m), a);
        x11 = _mm_add_ss(_mm_mul_ss(x11, m), a);
    }
    return _mm_cvtss_f32(x0) + _mm_cvtss_f32(x1) + _mm_cvtss_f32(x2) + _mm_cvtss_f32(x3) +
           _mm_cvtss_f32(x4) + _mm_cvtss_f32(x5) + _mm_cvtss_f32(x6) + _mm_cvtss_f32(x7) +
           _mm_cvtss_f32(x8) + _mm_cvtss_f32(x9) + _mm_cvtss_f32(x10) + _mm_cvtss_f32(x11);
}

/* The scalar integer chains: xor, add, xor, add on each of 8 chains in 32-bit general
 * registers, one op per instruction (the ceiling of scalar bitwise code). The empty asm after
 * each op makes every chain value opaque to the compiler, so that it can neither fold
 * x ^ a ^ a nor merge the adds (nor vectorize the chains). */
#define KEEP8()                                                                                    \
    __asm__ __volatile__("" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3), "+r"(x4), "+r"(x5),          \
                         "+r"(x6), "+r"(x7))
#define XOR8()                                                                                     \
    do {                                                                                           \
        x0 ^= a; x1 ^= a; x2 ^= a; x3 ^= a; x4 ^= a; x5 ^= a; x6 ^= a; x7 ^= a;                    \
        KEEP8();                                                                                   \
    } while (0)
#define ADD8()                                                                                     \
    do {                                                                                           \
        x0 += b; x1 += b; x2 += b; x3 += b; x4 += b; x5 += b; x6 += b; x7 += b;                    \
        KEEP8();                                                                                   \
    } while (0)
float pl_peaks_int_scalar(int64_t iters)
{
    const uint32_t a = 0x9E3779B9u, b = 0x7F4A7C15u;
    uint32_t x0 = 1, x1 = 2, x2 = 3, x3 = 4, x4 = 5, x5 = 6, x6 = 7, x7 = 8;
    for (int64_t i = 0; i < iters; i++) {
        XOR8();
        ADD8();
        XOR8();
        ADD8();
    }
    return (float)((x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7) & 0xFFFFu);
}

const char *pl_peaks_int_isa(void)
{
    unsigned f = pl_cpu_features();
    return (f & PL_FEAT_AVX512) ? "avx512" : (f & PL_FEAT_AVX2) ? "avx2" : "scalar";
}

const char *pl_peaks_tc_name(int method)
{
    return method == PL_PEAKS_TC_WGMMA ? "wgmma" : method == PL_PEAKS_TC_MMA ? "mma.sync" : "none";
}

int pl_peaks_tc_parse(const char *name)
{
    for (int m = PL_PEAKS_TC_NONE; m <= PL_PEAKS_TC_WGMMA; m++)
        if (name && strcmp(name, pl_peaks_tc_name(m)) == 0) return m;
    return -1;
}

/* A measurement loop of one thread: FMA chains or integer chains (the return value is
 * stored so that the loop cannot be dropped). */
typedef float (*fma_fn)(int64_t iters);

/* Seconds for `threads` threads to run fn(iters) each, started together after a barrier and
 * stopped when the last one is done. *team: how many threads OpenMP actually gave. */
static double time_fma(fma_fn fn, int64_t iters, int threads, int *team)
{
    double t0 = 0.0, t1 = 0.0;
    int got = 1;
    float sum = 0.0f;
#pragma omp parallel num_threads(threads) reduction(+ : sum)
    {
#pragma omp barrier
        if (omp_get_thread_num() == 0) t0 = pl_now();
        sum += fn(iters);
#pragma omp barrier
        if (omp_get_thread_num() == 0) {
            t1 = pl_now();
            got = omp_get_num_threads();
        }
    }
    peaks_sink = sum;
    *team = got;
    return t1 - t0;
}

/* Steps per thread for one try of about pl_peaks_try_s(quick): time growing runs on one
 * thread until one lasts 10 ms (these runs also wake the core up), then scale. */
static int64_t calibrate_fma(fma_fn fn, int quick)
{
    int64_t iters = 1 << 12;
    double s;
    int team;
    for (;;) {
        s = time_fma(fn, iters, 1, &team);
        if (s >= 0.01 || iters >= ((int64_t)1 << 40)) break;
        iters *= 4;
    }
    double n = (double)iters * pl_peaks_try_s(quick) / (s > 0.0 ? s : 1e-9);
    return n > 1000.0 ? (int64_t)n : 1000;
}

/* GFLOP/s of one try of fn on `threads` threads. *team: the threads that ran. */
static double try_fma(fma_fn fn, double flops_per_step, int64_t iters, int threads, int *team)
{
    double s = time_fma(fn, iters, threads, team);
    return s > 0.0 ? (double)*team * (double)iters * flops_per_step / s / 1e9 : 0.0;
}

/* The median of x[0..n) (sorts x; n <= 64). */
static double median_of(double *x, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && x[j - 1] > x[j]; j--) {
            double t = x[j];
            x[j] = x[j - 1];
            x[j - 1] = t;
        }
    return n <= 0 ? 0.0 : (n % 2) ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* Keep in pk the widest spread of repeated readings (best / median - 1) and what it was. */
static void note_spread(pl_peaks *pk, const char *what, double best, double median)
{
    double spread = median > 0.0 ? best / median - 1.0 : 0.0;
    if (spread > pk->spread || !pk->spread_what[0]) {
        pk->spread = spread > pk->spread ? spread : pk->spread;
        snprintf(pk->spread_what, sizeof pk->spread_what, "%s", what);
    }
}

/* GFLOP/s of fn on one thread (g[0]) and on `threads` threads (g[1]), each the best of the
 * tries. The two alternate, so that a burst of load from elsewhere on a shared machine hits
 * both alike. *team: the threads that ran the second. The spread of the tries goes to pk
 * under name ("_1", "_all" appended). */
static void measure_fma(fma_fn fn, double flops_per_step, int threads, int quick, double g[2],
                        int *team, pl_peaks *pk, const char *name)
{
    int64_t iters = calibrate_fma(fn, quick);
    int one, tries = pl_peaks_tries(quick);
    double x1[16], xa[16];
    char what[40];
    g[0] = g[1] = 0.0;
    *team = 1;
    for (int t = 0; t < tries; t++) {
        double x = x1[t] = try_fma(fn, flops_per_step, iters, 1, &one);
        if (x > g[0]) g[0] = x;
        if (threads > 1) {
            x = xa[t] = try_fma(fn, flops_per_step, iters, threads, team);
            if (x > g[1]) g[1] = x;
        }
    }
    snprintf(what, sizeof what, "%s_1", name);
    note_spread(pk, what, g[0], median_of(x1, tries));
    if (threads > 1) {
        snprintf(what, sizeof what, "%s_all", name);
        note_spread(pk, what, g[1], median_of(xa, tries));
    }
    if (threads <= 1) g[1] = g[0];
}

/* ---------------------------------------------------------------- CPU memory bandwidth */

int pl_peaks_triad_mib(int quick)
{
    const int64_t llc_mib = (pl_cpu_llc_bytes(0) + (1 << 20) - 1) >> 20;
    const int floor_mib = quick ? 32 : 64;
    return 4 * llc_mib > floor_mib ? (int)(4 * llc_mib) : floor_mib;
}

/* The baseline (SSE, 4 lanes) streams, for CPUs without AVX2: the body peaks_avx2.c and
 * peaks_avx512.c include, in SSE's vector words (x86-64's baseline: no -m flag needed). */
typedef __m128 vec;
#define VW 4
#define VZERO _mm_setzero_ps
#define VSET1 _mm_set1_ps
#define VLOAD _mm_loadu_ps
#define VSTORE _mm_storeu_ps
#define VADD _mm_add_ps
#define VSTREAM _mm_stream_ps
#define STREAMS_SUFFIX sse
#include "harness/peaks_streams_body.h"
#undef VW
#undef VZERO
#undef VSET1
#undef VLOAD
#undef VSTORE
#undef VADD
#undef VSTREAM
#undef STREAMS_SUFFIX

/* The streams of this CPU's widest ISA. */
typedef struct stream_fns {
    float (*read)(const float *a, int64_t n);
    void (*write)(float *a, int64_t n, float v, int nt);
    void (*copy)(float *dst, const float *src, int64_t n, int nt);
} stream_fns;

static stream_fns best_streams(void)
{
    unsigned f = pl_cpu_features();
    if (f & PL_FEAT_AVX512) return (stream_fns){pl_peaks_read_avx512, pl_peaks_write_avx512, pl_peaks_copy_avx512};
    if (f & PL_FEAT_AVX2) return (stream_fns){pl_peaks_read_avx2, pl_peaks_write_avx2, pl_peaks_copy_avx2};
    return (stream_fns){pl_peaks_read_sse, pl_peaks_write_sse, pl_peaks_copy_sse};
}

enum { STREAM_READ, STREAM_WRITE, STREAM_WRITE_NT, STREAM_COPY, STREAM_COPY_NT, STREAM_TRIAD };

/* One stream over arrays of n floats on `threads` threads, `passes` sweeps a repetition,
 * `reps` timed repetitions: the best GB/s, and the median in *median. Each thread sweeps the
 * same chunk every time (a multiple of 64 floats: the non-temporal stores' alignment, and a
 * cache-resident chunk stays in its core's caches). Bytes: the triad 12 an element (read b
 * and c, write a; like STREAM, the write-allocate read of a is not counted), copy 8, read
 * and write 4. */
static double time_stream(int kind, float *a, const float *b, const float *c, long n, int threads,
                          int passes, int reps, double *median, int *team)
{
    const stream_fns fns = best_streams();
    const float s = 3.0f;
    double rate[64], best = 0.0;
    int got = 1;
    if (reps > 64) reps = 64;
    for (int r = 0; r < reps; r++) {
        float sum = 0.0f;
        double t0 = pl_now();
#pragma omp parallel num_threads(threads) reduction(+ : sum)
        {
            int nt = omp_get_num_threads(), me = omp_get_thread_num();
            if (me == 0) got = nt;
            long per = (n / nt + 63) / 64 * 64;
            long lo = (long)me * per, hi = lo + per < n ? lo + per : n;
            long len = hi > lo ? hi - lo : 0;
            for (int p = 0; p < passes && len > 0; p++) {
                switch (kind) {
                case STREAM_READ: sum += fns.read(b + lo, len); break;
                case STREAM_WRITE: fns.write(a + lo, len, (float)(r + p), 0); break;
                case STREAM_WRITE_NT: fns.write(a + lo, len, (float)(r + p), 1); break;
                case STREAM_COPY: fns.copy(a + lo, b + lo, len, 0); break;
                case STREAM_COPY_NT: fns.copy(a + lo, b + lo, len, 1); break;
                default:
                    for (long i = lo; i < hi; i++) a[i] = b[i] + s * c[i];
                    break;
                }
            }
        }
        double t = pl_now() - t0;
        peaks_sink = sum;
        double per_elem = kind == STREAM_TRIAD ? 12.0 : (kind == STREAM_COPY || kind == STREAM_COPY_NT) ? 8.0 : 4.0;
        rate[r] = t > 0.0 ? per_elem * (double)n * passes / t / 1e9 : 0.0;
        if (rate[r] > best) best = rate[r];
    }
    *median = median_of(rate, reps);
    *team = got;
    return best;
}

/* Time one stream, keep the best in *out and note its spread under name. A stream whose
 * readings lie far apart (best over median by more than the sanity limit: a neighbour's burst,
 * the page cache, a cache-resident array evicted now and then) is timed once more, and the
 * try with the narrower spread is kept: one disturbed try does not void the whole set of
 * figures, while a stream that is wide twice in a row is reported as it is (the sanity check
 * then refuses to cache it). */
static void stream_figure(pl_peaks *pk, const char *name, double *out, int kind, float *a, const float *b,
                          const float *c, long n, int threads, int passes, int reps, int *team)
{
    double median, best = time_stream(kind, a, b, c, n, threads, passes, reps, &median, team);
    if (median > 0.0 && best / median - 1.0 > PL_PEAKS_MAX_SPREAD) {
        int team2;
        double median2, best2 = time_stream(kind, a, b, c, n, threads, passes, reps, &median2, &team2);
        if (median2 > 0.0 && best2 / median2 < best / median) {
            best = best2;
            median = median2;
            *team = team2;
        }
    }
    *out = best;
    note_spread(pk, name, best, median);
}

/* The memory streams on all threads: the triad, read only, write only (plain and
 * non-temporal stores: the faster counts), copy (likewise) on three float arrays of
 * pl_peaks_triad_mib(quick) MiB each, far beyond the last-level cache, first touched by the
 * threads that later use them; the read stream on one thread too (a sanity check); then read
 * and copy on arrays of half the last-level cache together, warm (cache-resident runs). */
static pl_status measure_streams(pl_peaks *pk, int threads, int quick, int *team)
{
    const long n = (long)pl_peaks_triad_mib(quick) * 1024 * 1024 / (long)sizeof(float);
    float *a = pl_alloc((size_t)n * sizeof(float));
    float *b = pl_alloc((size_t)n * sizeof(float));
    float *c = pl_alloc((size_t)n * sizeof(float));
    if (!a || !b || !c) {
        pl_free(a);
        pl_free(b);
        pl_free(c);
        return pl_fail(PL_ERR_NOMEM, "peaks: cannot allocate 3 x %d MiB for the memory streams",
                       pl_peaks_triad_mib(quick));
    }
#pragma omp parallel num_threads(threads)
    {
        int nt = omp_get_num_threads(), me = omp_get_thread_num();
        long per = (n / nt + 63) / 64 * 64;
        long lo = (long)me * per, hi = lo + per < n ? lo + per : n;
        for (long i = lo; i < hi; i++) {
            a[i] = 0.0f;
            b[i] = 1.0f;
            c[i] = 2.0f;
        }
    }
    const int reps = pl_peaks_triad_reps(quick);
    double plain = 0.0, nt = 0.0, copy_nt = 0.0;
    stream_figure(pk, "cpu_triad_gbps", &pk->cpu_triad_gbps, STREAM_TRIAD, a, b, c, n, threads, 1, reps, team);
    stream_figure(pk, "cpu_read_gbps", &pk->cpu_read_gbps, STREAM_READ, a, b, c, n, threads, 1, reps, team);
    stream_figure(pk, "cpu_write_gbps (plain)", &plain, STREAM_WRITE, a, b, c, n, threads, 1, reps, team);
    stream_figure(pk, "cpu_write_gbps (nt)", &nt, STREAM_WRITE_NT, a, b, c, n, threads, 1, reps, team);
    pk->cpu_write_gbps = nt > plain ? nt : plain;
    pk->cpu_write_nt = nt > plain;
    stream_figure(pk, "cpu_copy_gbps (plain)", &plain, STREAM_COPY, a, b, c, n, threads, 1, reps, team);
    stream_figure(pk, "cpu_copy_gbps (nt)", &copy_nt, STREAM_COPY_NT, a, b, c, n, threads, 1, reps, team);
    pk->cpu_copy_gbps = copy_nt > plain ? copy_nt : plain;
    int one;
    stream_figure(pk, "cpu_read_1thr_gbps", &pk->cpu_read_1thr_gbps, STREAM_READ, a, b, c, n, 1, 1,
                  reps / 2 > 3 ? reps / 2 : 3, &one);
    /* Cache-resident: half the last-level cache in all, warm: one array for the read, two of
     * a quarter each for the copy. The first repetition warms them up and is not timed. */
    const int64_t llc = pl_cpu_llc_bytes(0);
    pk->cpu_cache_bytes = (double)llc;
    if (llc > 0) {
        long half = (long)(llc / 2 / (int64_t)sizeof(float)), quarter = half / 2;
        double ignored;
        time_stream(STREAM_READ, a, b, c, half < n ? half : n, threads, 1, 1, &ignored, &one);
        stream_figure(pk, "cpu_cache_read_gbps", &pk->cpu_cache_read_gbps, STREAM_READ, a, b, c,
                      half < n ? half : n, threads, pl_peaks_cache_passes(), pl_peaks_cache_reps(quick), &one);
        time_stream(STREAM_COPY, a, b, c, quarter < n ? quarter : n, threads, 1, 1, &ignored, &one);
        stream_figure(pk, "cpu_cache_copy_gbps", &pk->cpu_cache_copy_gbps, STREAM_COPY, a, b, c,
                      quarter < n ? quarter : n, threads, pl_peaks_cache_passes(), pl_peaks_cache_reps(quick), &one);
    }
    pl_free(a);
    pl_free(b);
    pl_free(c);
    return PL_OK;
}

/* Every CPU figure: FMA peaks for each ISA this CPU has, the integer ops, then the streams. */
static pl_status measure_cpu(pl_peaks *pk, int quick)
{
    unsigned f = pl_cpu_features();
    int n = pl_cpu_cores();
    struct {
        int have;
        fma_fn fn;
        double flops_per_step; /* chains x lanes x 2 */
        double *out;
        const char *name;
    } isa[3] = {
        {1, (f & PL_FEAT_AVX2) ? pl_peaks_fma_scalar : pl_peaks_fma_sse,
         PL_PEAKS_CHAINS_SCALAR * 1 * 2.0, pk->cpu_gflops_scalar, "cpu_gflops_scalar"},
        {(f & PL_FEAT_AVX2) != 0, pl_peaks_fma_avx2, PL_PEAKS_CHAINS_AVX2 * 8 * 2.0,
         pk->cpu_gflops_avx2, "cpu_gflops_avx2"},
        {(f & PL_FEAT_AVX512) != 0, pl_peaks_fma_avx512, PL_PEAKS_CHAINS_AVX512 * 16 * 2.0,
         pk->cpu_gflops_avx512, "cpu_gflops_avx512"},
    };
    int team = 1, most = 1;
    for (int k = 0; k < 3; k++) {
        isa[k].out[0] = isa[k].out[1] = 0.0;
        if (!isa[k].have) continue;
        measure_fma(isa[k].fn, isa[k].flops_per_step, n, quick, isa[k].out, &team, pk, isa[k].name);
        if (team > most) most = team;
    }
    /* Integer/bitwise ops with the best ISA: chains x lanes x PL_PEAKS_INT_OPS a step. */
    if (f & PL_FEAT_AVX512)
        measure_fma(pl_peaks_int_avx512, PL_PEAKS_INT_CHAINS_AVX512 * 16.0 * PL_PEAKS_INT_OPS, n,
                    quick, pk->cpu_gops_int32, &team, pk, "cpu_gops_int32");
    else if (f & PL_FEAT_AVX2)
        measure_fma(pl_peaks_int_avx2, PL_PEAKS_INT_CHAINS_AVX2 * 8.0 * PL_PEAKS_INT_OPS, n, quick,
                    pk->cpu_gops_int32, &team, pk, "cpu_gops_int32");
    else
        measure_fma(pl_peaks_int_scalar, PL_PEAKS_INT_CHAINS_SCALAR * 1.0 * PL_PEAKS_INT_OPS, n,
                    quick, pk->cpu_gops_int32, &team, pk, "cpu_gops_int32");
    if (team > most) most = team;
    pl_status s = measure_streams(pk, n, quick, &team);
    if (team > most) most = team;
    pk->cpu_threads = most;
    return s;
}

/* ---------------------------------------------------------------- sanity and the memory bound */

double pl_peaks_load1(void)
{
    const char *env = getenv("PARLAB_PEAKS_LOADAVG");
    FILE *f = fopen(env && *env ? env : "/proc/loadavg", "r");
    if (!f) return -1.0;
    double load = -1.0;
    if (fscanf(f, "%lf", &load) != 1 || !isfinite(load) || load < 0.0) load = -1.0;
    fclose(f);
    return load;
}

/* Append one reason to why (of size n), "; " between reasons. */
static void add_reason(char *why, size_t n, const char *fmt, double a, double b)
{
    size_t len = strlen(why);
    if (len + 3 >= n) return;
    if (len) {
        memcpy(why + len, "; ", 3);
        len += 2;
    }
    snprintf(why + len, n - len, fmt, a, b);
}

int pl_peaks_sanity(const pl_peaks *pk, int cores, char *why, size_t n)
{
    if (n == 0) return 0;
    why[0] = '\0';
    /* the load first, then the spread, then the threads: the first reasons survive a full buffer */
    if (pk->load1 > pl_peaks_max_load(cores))
        add_reason(why, n, "busy machine: load %.2f > %.2f", pk->load1,
                   pl_peaks_max_load(cores));
    if (pk->spread > PL_PEAKS_MAX_SPREAD) {
        size_t len = strlen(why);
        add_reason(why, n, "readings far apart: best %.0f%% over median (limit %.0f%%)",
                   100.0 * pk->spread, 100.0 * PL_PEAKS_MAX_SPREAD);
        if (pk->spread_what[0] && strlen(why) > len && strlen(why) + strlen(pk->spread_what) + 8 < n)
            snprintf(why + strlen(why), n - strlen(why), " in %s", pk->spread_what);
    }
    if (pk->cpu_threads > 1) {
        const struct {
            const char *fmt;
            const double *pair;
        } pairs[] = {
            {"scalar FMA on all threads %.3g < 0.9 x 1 thread %.3g GFLOP/s", pk->cpu_gflops_scalar},
            {"AVX2 FMA on all threads %.3g < 0.9 x 1 thread %.3g GFLOP/s", pk->cpu_gflops_avx2},
            {"AVX-512 FMA on all threads %.3g < 0.9 x 1 thread %.3g GFLOP/s", pk->cpu_gflops_avx512},
            {"int32 on all threads %.3g < 0.9 x 1 thread %.3g Gop/s", pk->cpu_gops_int32},
        };
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
            if (pairs[i].pair[0] > 0.0 && pairs[i].pair[1] < 0.9 * pairs[i].pair[0])
                add_reason(why, n, pairs[i].fmt, pairs[i].pair[1], pairs[i].pair[0]);
        if (pk->cpu_read_1thr_gbps > 0.0 && pk->cpu_read_gbps < 0.9 * pk->cpu_read_1thr_gbps)
            add_reason(why, n, "read stream on all threads %.3g < 0.9 x 1 thread %.3g GB/s",
                       pk->cpu_read_gbps, pk->cpu_read_1thr_gbps);
    }
    if (why[0]) return 0;
    snprintf(why, n, "ok");
    return 1;
}

double pl_peaks_mem_time(const pl_peaks *pk, int gpu, double bytes, double written, int cold, char *name,
                         size_t n)
{
    const char *unit = gpu ? "GPU" : "CPU";
    double R = gpu ? pk->gpu_read_gbps : pk->cpu_read_gbps;
    double W = gpu ? pk->gpu_write_gbps : pk->cpu_write_gbps;
    double copy = gpu ? pk->gpu_copy_gbps : pk->cpu_copy_gbps, triad = gpu ? 0.0 : pk->cpu_triad_gbps;
    double M = copy > triad ? copy : triad;
    const char *mname = copy >= triad ? "copy bandwidth" : "triad bandwidth";
    double t = 0.0;
    snprintf(name, n, "-");
    if (!(bytes > 0.0)) return 0.0;
    if (written >= 0.0 && written <= bytes) {
        double read = bytes - written;
        if (M > 0.0) {
            t = bytes / (M * 1e9);
            snprintf(name, n, "%s %s", unit, mname);
        }
        /* each stream at its own rate; a stream with no bytes needs no figure */
        if ((read <= 0.0 || R > 0.0) && (written <= 0.0 || W > 0.0)) {
            double split = (read > 0.0 ? read / (R * 1e9) : 0.0) + (written > 0.0 ? written / (W * 1e9) : 0.0);
            if (t <= 0.0 || split < t) {
                t = split;
                snprintf(name, n, "%s read/write streams", unit);
            }
        }
    } else {
        /* the split is unknown: every byte at the fastest stream */
        double fastest = R > W ? R : W;
        fastest = M > fastest ? M : fastest;
        if (fastest > 0.0) {
            t = bytes / (fastest * 1e9);
            snprintf(name, n, "%s fastest stream", unit);
        }
    }
    double cache = gpu ? pk->gpu_cache_bytes : pk->cpu_cache_bytes;
    double cr = gpu ? pk->gpu_cache_read_gbps : pk->cpu_cache_read_gbps;
    double cc = gpu ? pk->gpu_cache_copy_gbps : pk->cpu_cache_copy_gbps;
    double crate = cr > cc ? cr : cc;
    if (!cold && cache > 0.0 && bytes <= cache && crate > 0.0) {
        double tc = bytes / (crate * 1e9);
        if (t <= 0.0 || tc < t) {
            t = tc;
            snprintf(name, n, "%s %s-resident streams", unit, gpu ? "L2" : "LLC");
        }
    }
    return t;
}

/* ---------------------------------------------------------------- the machine and its cache */

/* The GPU a context measures: its device for a CUDA context, else device 0. */
static int gpu_device(const pl_ctx *ctx)
{
    return ctx && ctx->backend == PL_BACKEND_CUDA ? ctx->device : 0;
}

/* Whether the GPU figures should be measured: a usable GPU, and no CPU context. */
static int gpu_wanted(const pl_ctx *ctx)
{
    if (ctx && ctx->backend == PL_BACKEND_CPU) return 0;
    return pl_dev_count() > gpu_device(ctx);
}

/* Append src to dst (of size n, holding len chars) with runs of white space made one space
 * and none at either end. Returns the new length. */
static size_t append_squeezed(char *dst, size_t n, size_t len, const char *src)
{
    int space = 0;
    for (; *src && len + 1 < n; src++) {
        if (isspace((unsigned char)*src)) {
            space = 1;
            continue;
        }
        if (space && len > 0 && dst[len - 1] != ' ' && len + 2 < n) dst[len++] = ' ';
        space = 0;
        dst[len++] = *src;
    }
    dst[len] = '\0';
    return len;
}

/* "AMD EPYC 2c" or "AMD EPYC 2c + NVIDIA H100 80GB HBM3". */
static void machine_key(const pl_ctx *ctx, char *buf, size_t n)
{
    char cores[32];
    snprintf(cores, sizeof cores, " %dc", pl_cpu_cores());
    size_t len = append_squeezed(buf, n, 0, pl_cpu_name());
    len = append_squeezed(buf, n, len, cores);
    /* PARLAB_ISA_MAX hides part of the CPU: its figures are another machine's */
    unsigned hidden = pl_cpu_features_hidden();
    if (hidden) len = append_squeezed(buf, n, len, (pl_cpu_features() & PL_FEAT_AVX2) ? " avx2-only" : " no-simd");
    int dev = gpu_device(ctx);
    if (pl_dev_count() > dev) {
        len = append_squeezed(buf, n, len, " + ");
        append_squeezed(buf, n, len, pl_dev_name(dev));
    }
}

/* mkdir -p: every missing directory on the path, then check it is a writable directory. */
static pl_status make_dirs(const char *path)
{
    char tmp[PATH_LEN];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
            return pl_fail(PL_ERR_IO, "cannot create the cache directory %s: %s", tmp, strerror(errno));
        *p = '/';
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
        return pl_fail(PL_ERR_IO, "cannot create the cache directory %s: %s", tmp, strerror(errno));
    struct stat st;
    if (stat(tmp, &st) != 0 || !S_ISDIR(st.st_mode))
        return pl_fail(PL_ERR_IO, "cache directory %s is not a directory", tmp);
    if (access(tmp, W_OK | X_OK) != 0)
        return pl_fail(PL_ERR_IO, "cache directory %s is not writable: %s", tmp, strerror(errno));
    return PL_OK;
}

pl_status pl_cache_dir(char *buf, size_t n)
{
    if (!buf || n == 0) return pl_fail(PL_ERR_ARG, "pl_cache_dir: no buffer");
    const char *env;
    int w;
    if ((env = getenv("PARLAB_CACHE_DIR")) && *env)
        w = snprintf(buf, n, "%s", env);
    else if ((env = getenv("XDG_CACHE_HOME")) && env[0] == '/') /* XDG: relative ones are ignored */
        w = snprintf(buf, n, "%s/parlab", env);
    else if ((env = getenv("HOME")) && *env)
        w = snprintf(buf, n, "%s/.cache/parlab", env);
    else
        return pl_fail(PL_ERR_IO, "no cache directory: neither PARLAB_CACHE_DIR, XDG_CACHE_HOME nor HOME is set");
    if (w < 0 || (size_t)w >= n || (size_t)w >= PATH_LEN - 64)
        return pl_fail(PL_ERR_ARG, "the cache directory path is too long (%d bytes)", w);
    while (w > 1 && buf[w - 1] == '/') buf[--w] = '\0';
    return make_dirs(buf);
}

pl_status pl_peaks_cache_path(const pl_ctx *ctx, char *buf, size_t n)
{
    char dir[PATH_LEN], key[sizeof(((pl_peaks *)0)->machine)], name[sizeof key];
    pl_status s = pl_cache_dir(dir, sizeof dir);
    if (s != PL_OK) return s;
    /* The key made a file name: letters, digits, '.', '-'; any other run becomes one '_'. */
    machine_key(ctx, key, sizeof key);
    size_t len = 0;
    for (const char *p = key; *p; p++) {
        int ok = isalnum((unsigned char)*p) || *p == '.' || *p == '-';
        if (ok)
            name[len++] = *p;
        else if (len > 0 && name[len - 1] != '_')
            name[len++] = '_';
    }
    while (len > 0 && name[len - 1] == '_') len--;
    name[len] = '\0';
    int w = snprintf(buf, n, "%s/peaks-%s.txt", dir, len ? name : "unknown");
    if (w < 0 || (size_t)w >= n) return pl_fail(PL_ERR_ARG, "the cache file path is too long");
    return PL_OK;
}

/* ---------------------------------------------------------------- the cache file */

enum { MAX_FIELDS = 64, KEY_LEN = 48, VAL_LEN = 256, LINE_LEN = 512 };
#define PEAKS_FORMAT "3" /* the cache file's format (load_cache says what each added) */
typedef struct kvfile {
    int n;
    char key[MAX_FIELDS][KEY_LEN];
    char val[MAX_FIELDS][VAL_LEN];
} kvfile;

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1])) s[--len] = '\0';
    return s;
}

/* Read the "key = value" lines of a file. A missing file: PL_ERR_IO with errno ENOENT kept;
 * anything that is not such lines: PL_ERR_FORMAT, with the line (not the path) in the message. */
static pl_status read_kv(const char *path, kvfile *kf)
{
    kf->n = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        pl_status s = pl_fail(PL_ERR_IO, "cannot open %s: %s", path, strerror(e));
        errno = e;
        return s;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int lineno = 0;
    pl_status s = PL_OK;
    while (s == PL_OK && (got = getline(&line, &cap, f)) >= 0) {
        lineno++;
        /* a NUL byte would end the line early and hide the rest of it: not text */
        if (got >= LINE_LEN || strlen(line) != (size_t)got) {
            s = pl_fail(PL_ERR_FORMAT, "line %d: too long or not text", lineno);
            break;
        }
        char *t = trim(line);
        if (*t == '\0' || *t == '#') continue;
        char *eq = strchr(t, '=');
        if (!eq) {
            s = pl_fail(PL_ERR_FORMAT, "line %d: not a \"key = value\" line", lineno);
            break;
        }
        *eq = '\0';
        char *k = trim(t), *v = trim(eq + 1);
        if (*k == '\0' || strlen(k) >= KEY_LEN || strlen(v) >= VAL_LEN) {
            s = pl_fail(PL_ERR_FORMAT, "line %d: bad key or value", lineno);
            break;
        }
        if (kf->n == MAX_FIELDS) {
            s = pl_fail(PL_ERR_FORMAT, "more than %d lines", MAX_FIELDS);
            break;
        }
        strcpy(kf->key[kf->n], k);
        strcpy(kf->val[kf->n], v);
        kf->n++;
    }
    free(line);
    if (s == PL_OK && ferror(f)) s = pl_fail(PL_ERR_IO, "cannot read %s", path);
    fclose(f);
    return s;
}

/* The value of key (the last line that sets it), or NULL. */
static const char *kv_get(const kvfile *kf, const char *key)
{
    for (int i = kf->n - 1; i >= 0; i--)
        if (strcmp(kf->key[i], key) == 0) return kf->val[i];
    return NULL;
}

/* A finite number >= 0 written in full; 0 if missing or malformed. */
static int kv_num(const kvfile *kf, const char *key, double *out)
{
    const char *v = kv_get(kf, key);
    if (!v || !*v) return 0;
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end != '\0' || !isfinite(d) || d < 0.0) return 0;
    *out = d;
    return 1;
}

static pl_status bad_cache(const char *path, const char *why)
{
    return pl_fail(PL_ERR_FORMAT, "cached peaks in %s are unusable (%s); run `parlab peaks`", path, why);
}

/* Load and check the cache file of this machine. */
static pl_status load_cache(const char *path, const char *machine, pl_peaks *pk)
{
    kvfile *kf = malloc(sizeof *kf);
    if (!kf) return pl_fail(PL_ERR_NOMEM, "out of memory reading %s", path);
    pl_status s = read_kv(path, kf);
    if (s != PL_OK) {
        int e = errno;
        free(kf);
        if (s == PL_ERR_IO && e == ENOENT)
            return pl_fail(PL_ERR_IO, "no cached peaks for this machine; run `parlab peaks`");
        if (s == PL_ERR_FORMAT) {
            char why[128];
            snprintf(why, sizeof why, "%s", pl_last_error());
            return bad_cache(path, why);
        }
        return s;
    }
    static const struct {
        const char *key;
        size_t offset; /* of the double in pl_peaks */
        int later;     /* added after the first release of the file */
    } nums[] = {
        {"cpu_gflops_scalar_1", offsetof(pl_peaks, cpu_gflops_scalar[0]), 0},
        {"cpu_gflops_scalar_all", offsetof(pl_peaks, cpu_gflops_scalar[1]), 0},
        {"cpu_gflops_avx2_1", offsetof(pl_peaks, cpu_gflops_avx2[0]), 0},
        {"cpu_gflops_avx2_all", offsetof(pl_peaks, cpu_gflops_avx2[1]), 0},
        {"cpu_gflops_avx512_1", offsetof(pl_peaks, cpu_gflops_avx512[0]), 0},
        {"cpu_gflops_avx512_all", offsetof(pl_peaks, cpu_gflops_avx512[1]), 0},
        {"cpu_triad_gbps", offsetof(pl_peaks, cpu_triad_gbps), 0},
        {"gpu_gflops_fp32", offsetof(pl_peaks, gpu_gflops_fp32), 0},
        {"gpu_copy_gbps", offsetof(pl_peaks, gpu_copy_gbps), 0},
        /* added later: a file without them (an older parlab's) is measured again */
        {"cpu_gops_int32_1", offsetof(pl_peaks, cpu_gops_int32[0]), 1},
        {"cpu_gops_int32_all", offsetof(pl_peaks, cpu_gops_int32[1]), 1},
        {"gpu_gflops_tf32", offsetof(pl_peaks, gpu_gflops_tf32), 1},
        {"gpu_gops_int32", offsetof(pl_peaks, gpu_gops_int32), 1},
        /* format 3: the streams the memory bound uses, and how the figures were taken */
        {"cpu_read_gbps", offsetof(pl_peaks, cpu_read_gbps), 0},
        {"cpu_write_gbps", offsetof(pl_peaks, cpu_write_gbps), 0},
        {"cpu_copy_gbps", offsetof(pl_peaks, cpu_copy_gbps), 0},
        {"cpu_read_1thr_gbps", offsetof(pl_peaks, cpu_read_1thr_gbps), 0},
        {"cpu_cache_read_gbps", offsetof(pl_peaks, cpu_cache_read_gbps), 0},
        {"cpu_cache_copy_gbps", offsetof(pl_peaks, cpu_cache_copy_gbps), 0},
        {"cpu_cache_bytes", offsetof(pl_peaks, cpu_cache_bytes), 0},
        {"gpu_read_gbps", offsetof(pl_peaks, gpu_read_gbps), 0},
        {"gpu_write_gbps", offsetof(pl_peaks, gpu_write_gbps), 0},
        {"gpu_cache_read_gbps", offsetof(pl_peaks, gpu_cache_read_gbps), 0},
        {"gpu_cache_copy_gbps", offsetof(pl_peaks, gpu_cache_copy_gbps), 0},
        {"gpu_cache_bytes", offsetof(pl_peaks, gpu_cache_bytes), 0},
        {"spread", offsetof(pl_peaks, spread), 0},
    };
    static const struct {
        const char *key;
        size_t offset, size; /* of the text in pl_peaks */
    } texts[] = {
        {"cpu_mode", offsetof(pl_peaks, cpu_mode), sizeof(((pl_peaks *)0)->cpu_mode)},
        {"gpu_mode", offsetof(pl_peaks, gpu_mode), sizeof(((pl_peaks *)0)->gpu_mode)},
        {"measured", offsetof(pl_peaks, measured), sizeof(((pl_peaks *)0)->measured)},
        {"spread_what", offsetof(pl_peaks, spread_what), sizeof(((pl_peaks *)0)->spread_what)},
        {"sanity", offsetof(pl_peaks, sanity), sizeof(((pl_peaks *)0)->sanity)},
    };
    pl_peaks got;
    memset(&got, 0, sizeof got);
    const char *v = kv_get(kf, "format"), *why = NULL;
    char whybuf[VAL_LEN + 128];
    double threads = 0.0, write_nt = -1.0;
    int tc = -1;
    /* 2: the triad on arrays of 4x the last-level cache; 3: the read, write and copy streams,
     * the cache-resident ones, and how, when and under what load the figures were taken */
    if (!v || strcmp(v, PEAKS_FORMAT) != 0) {
        snprintf(whybuf, sizeof whybuf,
                 "format %s, this parlab reads format " PEAKS_FORMAT
                 " (with the read, write and copy streams): written by an older parlab, measure again",
                 v ? v : "(missing)");
        why = whybuf;
    } else if (!(v = kv_get(kf, "machine")) || strcmp(v, machine) != 0)
        why = "written for another machine";
    else if (!kv_num(kf, "cpu_threads", &threads) || threads < 1.0 || threads != floor(threads))
        why = "bad or missing cpu_threads";
    for (size_t i = 0; !why && i < sizeof nums / sizeof nums[0]; i++) {
        if (!(v = kv_get(kf, nums[i].key))) {
            snprintf(whybuf, sizeof whybuf, "no %s figure%s", nums[i].key,
                     nums[i].later ? ": written by an older parlab, before the integer and TF32 peaks" : "");
            why = whybuf;
        } else if (!kv_num(kf, nums[i].key, (double *)((char *)&got + nums[i].offset))) {
            snprintf(whybuf, sizeof whybuf, "%s = \"%s\" is not a number >= 0", nums[i].key, v);
            why = whybuf;
        }
    }
    if (!why && (!kv_num(kf, "cpu_write_nt", &write_nt) || (write_nt != 0.0 && write_nt != 1.0)))
        why = "bad or missing cpu_write_nt";
    if (!why && !((v = kv_get(kf, "load1")) && strcmp(v, "-1") == 0 ? (got.load1 = -1.0, 1)
                                                                     : kv_num(kf, "load1", &got.load1)))
        why = "bad or missing load1";
    for (size_t i = 0; !why && i < sizeof texts / sizeof texts[0]; i++) {
        v = kv_get(kf, texts[i].key);
        if (!v || !*v || strlen(v) >= texts[i].size) {
            snprintf(whybuf, sizeof whybuf, "bad or missing %s", texts[i].key);
            why = whybuf;
        } else {
            snprintf((char *)&got + texts[i].offset, texts[i].size, "%s", v);
        }
    }
    if (!why && strcmp(got.sanity, "ok") != 0 && strncmp(got.sanity, "not checked", 11) != 0) {
        snprintf(whybuf, sizeof whybuf, "sanity = %.150s: figures that failed the checks are never cached",
                 got.sanity);
        why = whybuf;
    }
    if (!why) {
        if (!(v = kv_get(kf, "cpu_int32_isa")) || strcmp(v, pl_peaks_int_isa()) != 0) {
            snprintf(whybuf, sizeof whybuf,
                     "integer figures measured with cpu_int32_isa = %s, this CPU's best ISA is %s",
                     v ? v : "(missing)", pl_peaks_int_isa());
            why = whybuf;
        } else if ((tc = pl_peaks_tc_parse(v = kv_get(kf, "gpu_tf32_method"))) < 0) {
            snprintf(whybuf, sizeof whybuf, "gpu_tf32_method = %s is not wgmma, mma.sync or none",
                     v ? v : "(missing)");
            why = whybuf;
        }
    }
    if (!why) {
        unsigned f = pl_cpu_features();
        if (!(got.cpu_gflops_scalar[0] > 0.0 && got.cpu_gflops_scalar[1] > 0.0 && got.cpu_triad_gbps > 0.0))
            why = "a CPU figure is zero";
        else if ((f & PL_FEAT_AVX2) && !(got.cpu_gflops_avx2[0] > 0.0 && got.cpu_gflops_avx2[1] > 0.0))
            why = "no AVX2 figures, and this CPU has AVX2";
        else if ((f & PL_FEAT_AVX512) && !(got.cpu_gflops_avx512[0] > 0.0 && got.cpu_gflops_avx512[1] > 0.0))
            why = "no AVX-512 figures, and this CPU has AVX-512";
        else if (!(got.cpu_gops_int32[0] > 0.0 && got.cpu_gops_int32[1] > 0.0))
            why = "a CPU integer figure is zero";
        else if (!(got.cpu_read_gbps > 0.0 && got.cpu_write_gbps > 0.0 && got.cpu_copy_gbps > 0.0 &&
                   got.cpu_read_1thr_gbps > 0.0))
            why = "a CPU stream figure is zero";
        else if ((got.gpu_gflops_fp32 > 0.0) != (got.gpu_read_gbps > 0.0) ||
                 (got.gpu_gflops_fp32 > 0.0) != (got.gpu_write_gbps > 0.0))
            why = "only some of the GPU figures";
        else if ((got.gpu_gflops_fp32 > 0.0) != (got.gpu_copy_gbps > 0.0) ||
                 (got.gpu_gflops_fp32 > 0.0) != (got.gpu_gops_int32 > 0.0))
            why = "only some of the GPU figures";
        else if ((got.gpu_gflops_tf32 > 0.0) != (tc != PL_PEAKS_TC_NONE) ||
                 (got.gpu_gflops_tf32 > 0.0 && !(got.gpu_gflops_fp32 > 0.0)))
            why = "gpu_gflops_tf32 contradicts gpu_tf32_method or the other GPU figures";
    }
    if (why) {
        free(kf);
        return bad_cache(path, why);
    }
    snprintf(got.machine, sizeof got.machine, "%s", machine);
    snprintf(got.gpu_tf32_method, sizeof got.gpu_tf32_method, "%s", pl_peaks_tc_name(tc));
    got.cpu_threads = (int)threads;
    got.cpu_write_nt = (int)write_nt;
    got.sane = 1;
    got.cached = 1;
    got.valid = 1;
    *pk = got;
    free(kf);
    return PL_OK;
}

/* Write the cache file: a temporary file beside it, then rename, so that a reader never sees
 * half a file. How the figures were taken comes from pk (cpu_mode, gpu_mode, measured, load1,
 * spread, sanity). */
static pl_status save_cache(const char *path, const pl_peaks *pk, int tc_method)
{
    char tmp[PATH_LEN + 8];
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) return pl_fail(PL_ERR_IO, "cannot create a file beside %s: %s", path, strerror(errno));
    (void)fchmod(fd, 0644);
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(tmp);
        return pl_fail(PL_ERR_IO, "cannot write %s: %s", tmp, strerror(errno));
    }
    fprintf(f,
            "# parlab peaks: the measured ceilings of one machine (written by `parlab peaks`).\n"
            "# One \"key = value\" a line. GFLOP/s: FP32 FMA, 2 flops per lane per FMA;\n"
            "# TF32: 2 flops per multiply-add; Gop/s: 32-bit integer/bitwise ops, one per lane\n"
            "# per instruction; GB/s: bytes read + written. _1: one thread, _all: cpu_threads\n"
            "# threads. 0 means not available here (no such ISA, no GPU). load1: the 1-minute\n"
            "# load average when the measuring began (-1: unknown); spread: the widest\n"
            "# best / median - 1 of repeated readings (spread_what: of which figure).\n"
            "format = " PEAKS_FORMAT "\n"
            "machine = %s\n"
            "measured = %s\n"
            "cpu_mode = %s\n"
            "gpu_mode = %s\n"
            "load1 = %.17g\n"
            "spread = %.17g\n"
            "spread_what = %s\n"
            "sanity = %s\n"
            "cpu_threads = %d\n",
            pk->machine, pk->measured[0] ? pk->measured : "unknown", pk->cpu_mode[0] ? pk->cpu_mode : "quick",
            pk->gpu_mode[0] ? pk->gpu_mode : "none", pk->load1 < 0.0 ? -1.0 : pk->load1, pk->spread,
            pk->spread_what[0] ? pk->spread_what : "none", pk->sanity[0] ? pk->sanity : "ok", pk->cpu_threads);
    fprintf(f, "cpu_gflops_scalar_1 = %.17g\ncpu_gflops_scalar_all = %.17g\n",
            pk->cpu_gflops_scalar[0], pk->cpu_gflops_scalar[1]);
    fprintf(f, "cpu_gflops_avx2_1 = %.17g\ncpu_gflops_avx2_all = %.17g\n", pk->cpu_gflops_avx2[0],
            pk->cpu_gflops_avx2[1]);
    fprintf(f, "cpu_gflops_avx512_1 = %.17g\ncpu_gflops_avx512_all = %.17g\n",
            pk->cpu_gflops_avx512[0], pk->cpu_gflops_avx512[1]);
    fprintf(f, "cpu_int32_isa = %s\ncpu_gops_int32_1 = %.17g\ncpu_gops_int32_all = %.17g\n",
            pl_peaks_int_isa(), pk->cpu_gops_int32[0], pk->cpu_gops_int32[1]);
    fprintf(f, "cpu_triad_gbps = %.17g\ncpu_read_gbps = %.17g\ncpu_write_gbps = %.17g\ncpu_write_nt = %d\n"
               "cpu_copy_gbps = %.17g\ncpu_read_1thr_gbps = %.17g\n",
            pk->cpu_triad_gbps, pk->cpu_read_gbps, pk->cpu_write_gbps, pk->cpu_write_nt ? 1 : 0,
            pk->cpu_copy_gbps, pk->cpu_read_1thr_gbps);
    fprintf(f, "cpu_cache_bytes = %.17g\ncpu_cache_read_gbps = %.17g\ncpu_cache_copy_gbps = %.17g\n",
            pk->cpu_cache_bytes, pk->cpu_cache_read_gbps, pk->cpu_cache_copy_gbps);
    fprintf(f, "gpu_gflops_fp32 = %.17g\ngpu_copy_gbps = %.17g\n", pk->gpu_gflops_fp32, pk->gpu_copy_gbps);
    fprintf(f, "gpu_tf32_method = %s\ngpu_gflops_tf32 = %.17g\ngpu_gops_int32 = %.17g\n",
            pl_peaks_tc_name(tc_method), pk->gpu_gflops_tf32, pk->gpu_gops_int32);
    fprintf(f, "gpu_read_gbps = %.17g\ngpu_write_gbps = %.17g\ngpu_cache_bytes = %.17g\n"
               "gpu_cache_read_gbps = %.17g\ngpu_cache_copy_gbps = %.17g\n",
            pk->gpu_read_gbps, pk->gpu_write_gbps, pk->gpu_cache_bytes, pk->gpu_cache_read_gbps,
            pk->gpu_cache_copy_gbps);
    int failed = ferror(f) != 0;
    failed |= fflush(f) != 0;
    failed |= fsync(fileno(f)) != 0;
    failed |= fclose(f) != 0;
    if (failed) {
        int e = errno;
        unlink(tmp);
        return pl_fail(PL_ERR_IO, "cannot write %s: %s", tmp, strerror(e));
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return pl_fail(PL_ERR_IO, "cannot rename %s to %s: %s", tmp, path, strerror(e));
    }
    return PL_OK;
}

/* ---------------------------------------------------------------- the public calls */

/* Every GPU figure; *tc: how the TF32 peak was measured (a pl_peaks_tc). */
static pl_status measure_gpu(const pl_ctx *ctx, pl_peaks *pk, int quick, int *tc)
{
    int dev = gpu_device(ctx);
    *tc = PL_PEAKS_TC_NONE;
    pl_status s = pl_peaks_gpu_fma(dev, quick, &pk->gpu_gflops_fp32);
    if (s == PL_OK) s = pl_peaks_gpu_tf32(dev, quick, &pk->gpu_gflops_tf32, tc);
    if (s == PL_OK) s = pl_peaks_gpu_int32(dev, quick, &pk->gpu_gops_int32);
    if (s == PL_OK) s = pl_peaks_gpu_copy(dev, quick, &pk->gpu_copy_gbps);
    if (s == PL_OK)
        s = pl_peaks_gpu_streams(dev, quick, &pk->gpu_read_gbps, &pk->gpu_write_gbps, &pk->gpu_cache_read_gbps,
                                 &pk->gpu_cache_copy_gbps, &pk->gpu_cache_bytes);
    if (s != PL_OK) {
        pk->gpu_gflops_fp32 = pk->gpu_copy_gbps = pk->gpu_gflops_tf32 = pk->gpu_gops_int32 = 0.0;
        pk->gpu_read_gbps = pk->gpu_write_gbps = pk->gpu_cache_read_gbps = pk->gpu_cache_copy_gbps = 0.0;
        pk->gpu_cache_bytes = 0.0;
        *tc = PL_PEAKS_TC_NONE;
    }
    snprintf(pk->gpu_mode, sizeof pk->gpu_mode, "%s", s != PL_OK ? "none" : quick ? "quick" : "full");
    snprintf(pk->gpu_tf32_method, sizeof pk->gpu_tf32_method, "%s", pl_peaks_tc_name(*tc));
    return s;
}

/* "2026-11-22T10:31:02Z": now, UTC. */
static void utc_now(char *buf, size_t n)
{
    time_t now = time(NULL);
    struct tm tm;
    snprintf(buf, n, "unknown");
    if (gmtime_r(&now, &tm)) strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The sanity verdict into pk (sane, sanity); PARLAB_PEAKS_SANITY=off skips the checks (for
 * tests on a shared machine) and says so. */
static void judge(pl_peaks *pk)
{
    const char *env = getenv("PARLAB_PEAKS_SANITY");
    if (env && strcmp(env, "off") == 0) {
        pk->sane = 1;
        snprintf(pk->sanity, sizeof pk->sanity, "not checked (PARLAB_PEAKS_SANITY=off)");
        return;
    }
    pk->sane = pl_peaks_sanity(pk, pl_cpu_cores(), pk->sanity, sizeof pk->sanity);
}

/* Measure now; cache the figures if they pass the sanity checks. pk holds the figures even
 * when they were not cached (PL_ERR_UNSUPPORTED: failed the checks) or the saving failed. */
pl_status pl_peaks_measure(pl_ctx *ctx, pl_peaks *pk, int quick)
{
    if (!pk) return pl_fail(PL_ERR_ARG, "pl_peaks_measure: NULL output");
    memset(pk, 0, sizeof *pk);
    char path[PATH_LEN];
    pl_status s = pl_peaks_cache_path(ctx, path, sizeof path); /* before the work: fail early */
    if (s != PL_OK) return s;
    machine_key(ctx, pk->machine, sizeof pk->machine);
    pk->load1 = pl_peaks_load1(); /* before this process adds its own threads */
    utc_now(pk->measured, sizeof pk->measured);
    snprintf(pk->cpu_mode, sizeof pk->cpu_mode, "%s", quick ? "quick" : "full");
    snprintf(pk->gpu_mode, sizeof pk->gpu_mode, "none");
    snprintf(pk->gpu_tf32_method, sizeof pk->gpu_tf32_method, "none");
    s = measure_cpu(pk, quick);
    int gpu = gpu_wanted(ctx), tc = PL_PEAKS_TC_NONE;
    if (s == PL_OK && gpu) s = measure_gpu(ctx, pk, quick, &tc);
    if (s != PL_OK) return s;
    pk->valid = 1;
    judge(pk);
    if (!pk->sane)
        return pl_fail(PL_ERR_UNSUPPORTED, "peaks not cached, used for this run only: %s; run `parlab peaks` "
                       "on a quiet machine", pk->sanity);
    s = save_cache(path, pk, tc);
    pk->cached = s == PL_OK;
    return s;
}

/* Load the cache; measure (quick) what is missing if allowed (pk->implicit = 1: the caller
 * says so). Figures that fail the sanity checks are returned (PL_OK, sane 0, cached 0) for
 * this run. A cache written without the GPU figures (under a CPU context) on a machine whose
 * GPU this context may use gets the GPU measured and added; without measure_if_missing it is
 * returned as it is (GPU figures 0). */
pl_status pl_peaks_get(pl_ctx *ctx, pl_peaks *pk, int measure_if_missing)
{
    if (!pk) return pl_fail(PL_ERR_ARG, "pl_peaks_get: NULL output");
    memset(pk, 0, sizeof *pk);
    char path[PATH_LEN], machine[sizeof pk->machine];
    pl_status s = pl_peaks_cache_path(ctx, path, sizeof path);
    if (s != PL_OK) return s;
    machine_key(ctx, machine, sizeof machine);
    pl_peaks got;
    s = load_cache(path, machine, &got);
    if (s != PL_OK) {
        if (!measure_if_missing) return s;
        char why[sizeof pk->implicit_why];
        snprintf(why, sizeof why, "%s", pl_last_error());
        s = pl_peaks_measure(ctx, pk, 1);
        pk->implicit = 1;
        snprintf(pk->implicit_why, sizeof pk->implicit_why, "%s", why);
        return s == PL_ERR_UNSUPPORTED && pk->valid ? PL_OK : s; /* insane: this run only */
    }
    if (measure_if_missing && !(got.gpu_gflops_fp32 > 0.0) && gpu_wanted(ctx)) {
        int tc;
        s = measure_gpu(ctx, &got, 1, &tc);
        if (s != PL_OK) return s;
        got.implicit = 1;
        snprintf(got.implicit_why, sizeof got.implicit_why, "the cached peaks have no GPU figures");
        *pk = got;
        s = save_cache(path, &got, tc);
        pk->cached = s == PL_OK;
        return s;
    }
    *pk = got;
    return PL_OK;
}
