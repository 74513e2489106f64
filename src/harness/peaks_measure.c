/* peaks_measure.c: the machine's measured ceilings, the roofs every result is placed under: the
 * public calls. pl_peaks_measure takes every figure now (the CPU's: peaks_compute.c,
 * peaks_streams.c; the GPU's, when a GPU is usable and the context, which may be NULL, is not
 * a CPU context: peaks_cuda.cu), with how they were taken (quick or full, when (UTC), the
 * 1-minute load average at the start, the widest spread of repeated readings), judges them
 * (peaks_sanity.c) and caches those that pass (peaks_cache.c); the others serve the run that
 * measured them. pl_peaks_get loads the cache, measuring what is missing where allowed.
 * Which file holds what: peaks_parts.h. */
#include "harness/peaks_parts.h"
#include "core/core.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* Every CPU figure: FMA peaks for each ISA this CPU has, the integer ops, then the streams. */
static pl_status measure_cpu(pl_peaks *pk, int quick)
{
    int n = pl_cpu_cores(), team = 1;
    int most = pl_peaks_cpu_compute(pk, n, quick);
    pl_status s = pl_peaks_cpu_streams(pk, n, quick, &team);
    if (team > most) most = team;
    pk->cpu_threads = most;
    return s;
}

/* Every GPU figure; *tc: how the TF32 peak was measured (a pl_peaks_tc). */
static pl_status measure_gpu(const pl_ctx *ctx, pl_peaks *pk, int quick, int *tc)
{
    int dev = pl_peaks_gpu_device(ctx);
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

/* Measure now; cache the figures if they pass the sanity checks. pk holds the figures even
 * when they were not cached (PL_ERR_UNSUPPORTED: failed the checks) or the saving failed. */
pl_status pl_peaks_measure(pl_ctx *ctx, pl_peaks *pk, int quick)
{
    if (!pk) return pl_fail(PL_ERR_ARG, "pl_peaks_measure: NULL output");
    memset(pk, 0, sizeof *pk);
    char path[PL_PEAKS_PATH_LEN];
    pl_status s = pl_peaks_cache_path(ctx, path, sizeof path); /* before the work: fail early */
    if (s != PL_OK) return s;
    pl_peaks_machine_key(ctx, pk->machine, sizeof pk->machine);
    pk->load1 = pl_peaks_load1(); /* before this process adds its own threads */
    utc_now(pk->measured, sizeof pk->measured);
    snprintf(pk->cpu_mode, sizeof pk->cpu_mode, "%s", quick ? "quick" : "full");
    snprintf(pk->gpu_mode, sizeof pk->gpu_mode, "none");
    snprintf(pk->gpu_tf32_method, sizeof pk->gpu_tf32_method, "none");
    s = measure_cpu(pk, quick);
    int gpu = pl_peaks_gpu_wanted(ctx), tc = PL_PEAKS_TC_NONE;
    if (s == PL_OK && gpu) s = measure_gpu(ctx, pk, quick, &tc);
    if (s != PL_OK) return s;
    pk->valid = 1;
    pl_peaks_judge(pk);
    if (!pk->sane)
        return pl_fail(PL_ERR_UNSUPPORTED, "peaks not cached, used for this run only: %s; run `parlab peaks` "
                       "on a quiet machine", pk->sanity);
    s = pl_peaks_save_cache(path, pk, tc);
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
    char path[PL_PEAKS_PATH_LEN], machine[sizeof pk->machine];
    pl_status s = pl_peaks_cache_path(ctx, path, sizeof path);
    if (s != PL_OK) return s;
    pl_peaks_machine_key(ctx, machine, sizeof machine);
    pl_peaks got;
    s = pl_peaks_load_cache(path, machine, &got);
    if (s != PL_OK) {
        if (!measure_if_missing) return s;
        char why[sizeof pk->implicit_why];
        snprintf(why, sizeof why, "%s", pl_last_error());
        s = pl_peaks_measure(ctx, pk, 1);
        pk->implicit = 1;
        snprintf(pk->implicit_why, sizeof pk->implicit_why, "%s", why);
        return s == PL_ERR_UNSUPPORTED && pk->valid ? PL_OK : s; /* insane: this run only */
    }
    if (measure_if_missing && !(got.gpu_gflops_fp32 > 0.0) && pl_peaks_gpu_wanted(ctx)) {
        int tc;
        s = measure_gpu(ctx, &got, 1, &tc);
        if (s != PL_OK) return s;
        got.implicit = 1;
        snprintf(got.implicit_why, sizeof got.implicit_why, "the cached peaks have no GPU figures");
        *pk = got;
        s = pl_peaks_save_cache(path, &got, tc);
        pk->cached = s == PL_OK;
        return s;
    }
    *pk = got;
    return PL_OK;
}
