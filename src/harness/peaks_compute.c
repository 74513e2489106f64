/* peaks_compute.c: the CPU's compute ceilings. Each thread runs many independent chains so
 * that the pipes never wait for a result, best of a few timed tries, on one thread and on
 * every core (the two alternate, so that a burst of load from elsewhere hits both alike):
 * - FP32 FMA per ISA, x = x*m + a, 2 flops per lane per step: the scalar loop below
 *   (mulss + addss, baseline x86-64) or the FMA one, AVX2 and AVX-512 (peaks_avx2.c,
 *   peaks_avx512.c);
 * - 32-bit integer/bitwise ops with the best ISA (AVX-512, AVX2 or scalar): xor/ternlog + add
 *   chains, one op per 32-bit lane per instruction. */
#include "harness/peaks_parts.h"
#include "core/core.h"

#include <omp.h>
#include <stdio.h>
#include <xmmintrin.h>

/* Where the measurement loops leave their results, so that none can be optimized away. */
static volatile float peaks_sink;


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
    pl_peaks_note_spread(pk, what, g[0], pl_peaks_median(x1, tries));
    if (threads > 1) {
        snprintf(what, sizeof what, "%s_all", name);
        pl_peaks_note_spread(pk, what, g[1], pl_peaks_median(xa, tries));
    }
    if (threads <= 1) g[1] = g[0];
}

/* The FMA peak of every ISA this CPU has, then the integer ops with its best ISA. */
int pl_peaks_cpu_compute(pl_peaks *pk, int threads, int quick)
{
    unsigned f = pl_cpu_features();
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
        measure_fma(isa[k].fn, isa[k].flops_per_step, threads, quick, isa[k].out, &team, pk, isa[k].name);
        if (team > most) most = team;
    }
    /* Integer/bitwise ops with the best ISA: chains x lanes x PL_PEAKS_INT_OPS a step. */
    if (f & PL_FEAT_AVX512)
        measure_fma(pl_peaks_int_avx512, PL_PEAKS_INT_CHAINS_AVX512 * 16.0 * PL_PEAKS_INT_OPS, threads,
                    quick, pk->cpu_gops_int32, &team, pk, "cpu_gops_int32");
    else if (f & PL_FEAT_AVX2)
        measure_fma(pl_peaks_int_avx2, PL_PEAKS_INT_CHAINS_AVX2 * 8.0 * PL_PEAKS_INT_OPS, threads, quick,
                    pk->cpu_gops_int32, &team, pk, "cpu_gops_int32");
    else
        measure_fma(pl_peaks_int_scalar, PL_PEAKS_INT_CHAINS_SCALAR * 1.0 * PL_PEAKS_INT_OPS, threads,
                    quick, pk->cpu_gops_int32, &team, pk, "cpu_gops_int32");
    if (team > most) most = team;
    return most;
}
