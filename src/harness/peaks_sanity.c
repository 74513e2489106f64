/* peaks_sanity.c: whether freshly measured figures can be trusted (the rules: peaks.h,
 * pl_peaks_sanity): the widest spread of repeated readings, noted while measuring; the load
 * average when the measuring began; all threads not slower than one; and the verdict that
 * decides whether the figures are cached. */
#include "harness/peaks_parts.h"
#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The median of x[0..n) (sorts x; n <= 64). */
double pl_peaks_median(double *x, int n)
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
void pl_peaks_note_spread(pl_peaks *pk, const char *what, double best, double median)
{
    double spread = median > 0.0 ? best / median - 1.0 : 0.0;
    if (spread > pk->spread || !pk->spread_what[0]) {
        pk->spread = spread > pk->spread ? spread : pk->spread;
        snprintf(pk->spread_what, sizeof pk->spread_what, "%s", what);
    }
}

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

/* The sanity verdict into pk (sane, sanity); PARLAB_PEAKS_SANITY=off skips the checks (for
 * tests on a shared machine) and says so. */
void pl_peaks_judge(pl_peaks *pk)
{
    const char *env = getenv("PARLAB_PEAKS_SANITY");
    if (env && strcmp(env, "off") == 0) {
        pk->sane = 1;
        snprintf(pk->sanity, sizeof pk->sanity, "not checked (PARLAB_PEAKS_SANITY=off)");
        return;
    }
    pk->sane = pl_peaks_sanity(pk, pl_cpu_cores(), pk->sanity, sizeof pk->sanity);
}
