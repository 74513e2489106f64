/* test_ceiling.c: the arithmetic of the ceilings (no measuring; made-up peaks).
 * - the memory bound, pl_peaks_mem_time: a read-only run at the read rate, a write-only run at
 *   the write rate, a copy at the best mixed rate (copy or triad) where that is the lesser
 *   time, a warm run that fits in the last-level cache at the cache-resident rate (cold or too
 *   big: the memory rates), an unknown split at the fastest stream, the GPU's own figures;
 * - the bench places a run by it: pl_bench_variant of a reduction (reads only) is bounded by
 *   the read rate, named so, and its % is that time over the measured one (the triad-only
 *   rule of old gave another figure: this test fails with it);
 * - every kernel states its bytes written, no more than its bytes;
 * - the sanity checks of freshly measured peaks, pl_peaks_sanity: each rule alone fails
 *   figures that break it and passes those that do not. */
#include "check.h"
#include "harness/peaks.h"

#include <math.h>
#include <string.h>

static int near(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b); }

/* Made-up CPU streams: read 100, write 80, copy 60, triad 50 GB/s; 32 MiB of cache, read 300 and
 * copy 200 GB/s there. */
static pl_peaks cpu_peaks(void)
{
    pl_peaks pk;
    memset(&pk, 0, sizeof pk);
    pk.valid = 1;
    pk.cpu_threads = 2;
    pk.cpu_read_gbps = 100;
    pk.cpu_write_gbps = 80;
    pk.cpu_copy_gbps = 60;
    pk.cpu_triad_gbps = 50;
    pk.cpu_cache_bytes = 32.0 * 1048576;
    pk.cpu_cache_read_gbps = 300;
    pk.cpu_cache_copy_gbps = 200;
    return pk;
}

static void test_mem_time(void)
{
    char name[64];
    pl_peaks pk = cpu_peaks();
    const double G = 1e9;

    /* read only: 1 GB at 100 GB/s (the triad rule: 1/50 s) */
    double t = pl_peaks_mem_time(&pk, 0, G, 0.0, 0, name, sizeof name);
    CHECK(near(t, 0.01), "read-only 1 GB: %g s, expected 0.01 (the read rate)", t);
    CHECK(strcmp(name, "CPU read/write streams") == 0, "read-only bound named '%s'", name);
    /* write only: 1 GB at 80 GB/s */
    t = pl_peaks_mem_time(&pk, 0, G, G, 0, name, sizeof name);
    CHECK(near(t, 1.0 / 80), "write-only 1 GB: %g s, expected 1/80 (the write rate)", t);
    /* mostly reads with a few writes: the sum of both */
    t = pl_peaks_mem_time(&pk, 0, G, 0.1 * G, 0, name, sizeof name);
    CHECK(near(t, 0.9 / 100 + 0.1 / 80), "0.9 GB read + 0.1 GB written: %g s", t);

    /* a copy where reads and writes together go faster than one after the other: the mix.
     * Read 100, write 50: 0.5/100 + 0.5/50 = 0.015 s, the copy rate 70: 1/70 s. */
    pk.cpu_write_gbps = 50;
    pk.cpu_copy_gbps = 70;
    t = pl_peaks_mem_time(&pk, 0, G, 0.5 * G, 0, name, sizeof name);
    CHECK(near(t, 1.0 / 70), "copy 0.5 + 0.5 GB: %g s, expected 1/70 (the copy rate)", t);
    CHECK(strcmp(name, "CPU copy bandwidth") == 0, "copy bound named '%s'", name);
    pk.cpu_triad_gbps = 75; /* the triad now the best mix */
    t = pl_peaks_mem_time(&pk, 0, G, 0.5 * G, 0, name, sizeof name);
    CHECK(near(t, 1.0 / 75) && strcmp(name, "CPU triad bandwidth") == 0, "copy by the triad: %g s, '%s'", t,
          name);
    /* the split unknown: every byte at the fastest stream (read, 100) */
    t = pl_peaks_mem_time(&pk, 0, G, -1.0, 0, name, sizeof name);
    CHECK(near(t, 0.01), "unknown split: %g s, expected 0.01", t);

    /* cache-resident: 8 MiB read warm at 300 GB/s; cold, or 64 MiB: the memory rates */
    pk = cpu_peaks();
    double b = 8.0 * 1048576;
    t = pl_peaks_mem_time(&pk, 0, b, 0.0, 0, name, sizeof name);
    CHECK(near(t, b / 300e9) && strcmp(name, "CPU LLC-resident streams") == 0, "8 MiB warm: %g s, '%s'", t, name);
    t = pl_peaks_mem_time(&pk, 0, b, 0.0, 1, name, sizeof name);
    CHECK(near(t, b / 100e9) && strcmp(name, "CPU read/write streams") == 0, "8 MiB cold: %g s, '%s'", t, name);
    t = pl_peaks_mem_time(&pk, 0, 8 * b, 0.0, 0, name, sizeof name);
    CHECK(near(t, 8 * b / 100e9), "64 MiB warm (beyond the cache): %g s", t);
    pk.cpu_cache_copy_gbps = 400; /* the faster cache stream counts */
    t = pl_peaks_mem_time(&pk, 0, b, 0.5 * b, 0, name, sizeof name);
    CHECK(near(t, b / 400e9), "8 MiB copy warm: %g s, expected at 400 GB/s", t);

    /* the GPU's own figures; no GPU figures: no bound */
    pk = cpu_peaks();
    t = pl_peaks_mem_time(&pk, 1, G, 0.0, 0, name, sizeof name);
    CHECK(t == 0.0, "GPU bound without GPU figures: %g s", t);
    pk.gpu_read_gbps = 3000;
    pk.gpu_write_gbps = 2800;
    pk.gpu_copy_gbps = 2600;
    t = pl_peaks_mem_time(&pk, 1, G, 0.0, 0, name, sizeof name);
    CHECK(near(t, G / 3000e9) && strcmp(name, "GPU read/write streams") == 0, "GPU read-only: %g s, '%s'", t,
          name);
    t = pl_peaks_mem_time(&pk, 1, G, G, 0, name, sizeof name);
    CHECK(near(t, G / 2800e9), "GPU write-only: %g s", t);
    pk.gpu_cache_bytes = 50e6;
    pk.gpu_cache_read_gbps = 8000;
    t = pl_peaks_mem_time(&pk, 1, 1e7, 0.0, 0, name, sizeof name);
    CHECK(near(t, 1e7 / 8000e9) && strcmp(name, "GPU L2-resident streams") == 0, "GPU 10 MB warm: %g s, '%s'",
          t, name);
    memset(&pk, 0, sizeof pk);
    t = pl_peaks_mem_time(&pk, 0, G, 0.0, 0, name, sizeof name);
    CHECK(t == 0.0, "no figures at all: %g s", t);
}

/* A reduction (reads M x N floats, writes M) on the CPU, placed against made-up peaks. */
static void test_bench_places(void)
{
    const pl_kernel *k = pl_kernel_find("reduce");
    CHECK(k != NULL, "no reduce kernel");
    if (!k) return;
    pl_ctx *ctx = NULL;
    pl_problem *p = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 1) == PL_OK, "pl_ctx_create: %s", pl_last_error());
    /* 256 x 8192: 8 MiB, beyond no cache in this made-up machine (cache size 0) */
    CHECK(pl_problem_create(&p, k, "256x8192", NULL, 42) == PL_OK, "pl_problem_create: %s", pl_last_error());
    if (!ctx || !p) return;
    pl_peaks pk = cpu_peaks();
    pk.cpu_cache_bytes = 0;
    pk.cpu_read_gbps = 1.0; /* slow enough to be far below any real run: the % stays defined */
    pk.cpu_write_gbps = 1.0;
    pk.cpu_copy_gbps = 0.5;
    pk.cpu_triad_gbps = 0.5;
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.peaks = &pk;
    cfg.min_time_s = 0.01;
    pl_result r;
    const pl_variant *v = pl_variant_find(k, "cpu-naive");
    CHECK(v && pl_bench_variant(ctx, p, v, NULL, &cfg, &r) == PL_OK, "bench: %s", pl_last_error());
    if (v && r.median_s > 0) {
        double written = k->bytes_written(pl_problem_spec(p));
        double want = 100.0 * ((r.bytes - written) / 1e9 + written / 1e9) / r.median_s;
        CHECK(strcmp(r.ceiling_name, "CPU read/write streams") == 0, "reduce placed against '%s'", r.ceiling_name);
        CHECK(fabs(r.ceiling_pct - want) <= 1e-9 * want, "reduce at %g%% of its ceiling, expected %g%%",
              r.ceiling_pct, want);
        /* the triad rule would give 2x this: the runs' bytes at 0.5 GB/s */
        CHECK(!(fabs(r.ceiling_pct - 100.0 * r.bytes / 0.5e9 / r.median_s) <= 1e-9 * want),
              "reduce placed by the triad rule");
    }
    pl_problem_destroy(p);
    pl_ctx_destroy(ctx);
}

/* Every kernel that states its bytes: its bytes written in [0, bytes], at its first size. */
static void test_bytes_written(void)
{
    for (int i = 0; i < pl_kernel_count(); i++) {
        const pl_kernel *k = pl_kernel_at(i);
        CHECK(k->bytes_written != NULL, "%s has no bytes_written", k->name);
        if (!k->bytes_written || !k->bytes) continue;
        pl_problem *p = NULL;
        if (pl_problem_create(&p, k, k->named_sizes[0].size, NULL, 1) != PL_OK) {
            CHECK(0, "%s: pl_problem_create(%s): %s", k->name, k->named_sizes[0].size, pl_last_error());
            continue;
        }
        double w = k->bytes_written(pl_problem_spec(p)), b = k->bytes(pl_problem_spec(p));
        CHECK(w > 0 && w < b, "%s: bytes written %g of %g", k->name, w, b);
        pl_problem_destroy(p);
    }
}

/* Figures that pass every rule: 2 threads, all faster than one, readings close, quiet. */
static pl_peaks sane_peaks(void)
{
    pl_peaks pk = cpu_peaks();
    pk.cpu_gflops_scalar[0] = 10, pk.cpu_gflops_scalar[1] = 20;
    pk.cpu_gflops_avx2[0] = 90, pk.cpu_gflops_avx2[1] = 180;
    pk.cpu_gflops_avx512[0] = 100, pk.cpu_gflops_avx512[1] = 200;
    pk.cpu_gops_int32[0] = 150, pk.cpu_gops_int32[1] = 300;
    pk.cpu_read_1thr_gbps = 20;
    pk.cpu_read_gbps = 30;
    pk.spread = 0.05;
    snprintf(pk.spread_what, sizeof pk.spread_what, "cpu_read_gbps");
    pk.load1 = 0.2;
    return pk;
}

static void expect_insane(const pl_peaks *pk, const char *what, const char *want)
{
    char why[256];
    int ok = pl_peaks_sanity(pk, 2, why, sizeof why);
    CHECK(!ok, "%s: passed the sanity checks", what);
    CHECK(strstr(why, want) != NULL, "%s: the reason '%s' lacks '%s'", what, why, want);
}

static void test_sanity(void)
{
    char why[256];
    pl_peaks pk = sane_peaks();
    CHECK(pl_peaks_sanity(&pk, 2, why, sizeof why) == 1 && strcmp(why, "ok") == 0, "sane figures: %s", why);

    /* more threads slower than one, per figure */
    pk = sane_peaks(), pk.cpu_gflops_scalar[1] = 8;
    expect_insane(&pk, "scalar FMA 2 threads < 1", "scalar FMA on all threads");
    pk = sane_peaks(), pk.cpu_gflops_avx2[1] = 70;
    expect_insane(&pk, "AVX2 FMA 2 threads < 1", "AVX2 FMA on all threads");
    pk = sane_peaks(), pk.cpu_gflops_avx512[1] = 89;
    expect_insane(&pk, "AVX-512 FMA 2 threads < 0.9 x 1", "AVX-512 FMA on all threads");
    pk = sane_peaks(), pk.cpu_gops_int32[1] = 120;
    expect_insane(&pk, "int32 2 threads < 1", "int32 on all threads");
    pk = sane_peaks(), pk.cpu_read_gbps = 15;
    expect_insane(&pk, "read stream 2 threads < 1", "read stream on all threads");
    /* 0.9 x one thread is still fine; one thread alone has nothing to compare */
    pk = sane_peaks(), pk.cpu_gflops_avx2[1] = 81;
    CHECK(pl_peaks_sanity(&pk, 2, why, sizeof why) == 1, "all threads at 0.9 x one refused: %s", why);
    pk = sane_peaks(), pk.cpu_gflops_avx2[1] = 70, pk.cpu_threads = 1;
    CHECK(pl_peaks_sanity(&pk, 1, why, sizeof why) == 1, "one thread refused for threads: %s", why);

    /* repeated readings far apart */
    pk = sane_peaks(), pk.spread = 0.30;
    expect_insane(&pk, "spread 30%", "far apart");
    expect_insane(&pk, "spread 30% names the figure", "cpu_read_gbps");
    pk.spread = 0.24;
    CHECK(pl_peaks_sanity(&pk, 2, why, sizeof why) == 1, "spread 24%% refused: %s", why);

    /* a busy machine: limit 1 + 0.25 x cores (2 cores: 1.5) */
    CHECK(pl_peaks_max_load(2) == 1.5 && pl_peaks_max_load(16) == 5.0, "max load %g, %g", pl_peaks_max_load(2),
          pl_peaks_max_load(16));
    pk = sane_peaks(), pk.load1 = 1.6;
    expect_insane(&pk, "load 1.6 on 2 cores", "busy machine");
    pk.load1 = 1.5;
    CHECK(pl_peaks_sanity(&pk, 2, why, sizeof why) == 1, "load 1.5 on 2 cores refused: %s", why);
    pk.load1 = 4.0;
    CHECK(pl_peaks_sanity(&pk, 16, why, sizeof why) == 1, "load 4 on 16 cores refused: %s", why);
    pk.load1 = -1.0;
    CHECK(pl_peaks_sanity(&pk, 2, why, sizeof why) == 1, "unknown load refused: %s", why);

    /* several at once: every reason */
    pk = sane_peaks(), pk.load1 = 9, pk.spread = 1.0, pk.cpu_gops_int32[1] = 1;
    expect_insane(&pk, "three rules", "busy machine");
    expect_insane(&pk, "three rules", "far apart");
    expect_insane(&pk, "three rules", "int32");
}

int main(void)
{
    test_mem_time();
    test_bench_places();
    test_bytes_written();
    test_sanity();
    return check_summary("ceiling");
}
