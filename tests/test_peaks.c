/* test_peaks.c: the machine's peaks and their cache, in a fresh cache directory.
 * - no cache and measure_if_missing = 0: an error with a message, nothing measured;
 * - a quick measurement gives plausible CPU figures (and GPU figures when a GPU is usable),
 *   and writes the cache file;
 * - pl_peaks_get without measuring reads the very same doubles back;
 * - a corrupt or truncated cache file is rejected with a message, or measured again when
 *   allowed, never crashed on. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkdtemp, setenv */
#endif
#include "check.h"
#include "parlab.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The one peaks-*.txt file in dir, into path; 1 if found. */
static int find_cache_file(const char *dir, char *path, size_t n)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int found = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "peaks-", 6) == 0 && len > 4 && strcmp(e->d_name + len - 4, ".txt") == 0) {
            snprintf(path, n, "%s/%s", dir, e->d_name);
            found++;
        }
    }
    closedir(d);
    return found == 1;
}

static int write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    int ok = fwrite(text, 1, len, f) == len;
    return (fclose(f) == 0) && ok;
}

static int same_figures(const pl_peaks *a, const pl_peaks *b)
{
    return a->cpu_threads == b->cpu_threads && strcmp(a->machine, b->machine) == 0 &&
           a->cpu_gflops_scalar[0] == b->cpu_gflops_scalar[0] &&
           a->cpu_gflops_scalar[1] == b->cpu_gflops_scalar[1] &&
           a->cpu_gflops_avx2[0] == b->cpu_gflops_avx2[0] && a->cpu_gflops_avx2[1] == b->cpu_gflops_avx2[1] &&
           a->cpu_gflops_avx512[0] == b->cpu_gflops_avx512[0] &&
           a->cpu_gflops_avx512[1] == b->cpu_gflops_avx512[1] && a->cpu_triad_gbps == b->cpu_triad_gbps &&
           a->gpu_gflops_fp32 == b->gpu_gflops_fp32 && a->gpu_copy_gbps == b->gpu_copy_gbps;
}

/* One ISA's pair: both positive, all threads not slower than 0.9 x one thread. */
static void check_isa(const char *name, const double *g)
{
    CHECK(g[0] > 0.0 && g[1] > 0.0, "%s: FMA peak %g / %g GFLOP/s, expected > 0", name, g[0], g[1]);
    CHECK(g[1] >= 0.9 * g[0], "%s: all threads %g GFLOP/s < 0.9 x one thread %g", name, g[1], g[0]);
}

int main(void)
{
    char dir[] = "/tmp/parlab_test_peaks_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("PARLAB_CACHE_DIR", dir, 1);

    char got_dir[4096];
    CHECK(pl_cache_dir(got_dir, sizeof got_dir) == PL_OK && strcmp(got_dir, dir) == 0,
          "pl_cache_dir gave '%s', expected '%s'", got_dir, dir);

    /* No cache, no measuring: an error that says so. */
    pl_peaks pk;
    pl_status s = pl_peaks_get(NULL, &pk, 0);
    CHECK(s != PL_OK, "pl_peaks_get(measure_if_missing = 0) with no cache returned ok");
    CHECK(pl_last_error()[0] != '\0', "no error message for a missing cache");
    CHECK(!pk.valid, "a missing cache gave valid peaks");

    /* Measure (quick): plausible figures, and a cache file. On a shared machine a burst of
     * load can make all threads look slower than one; such a result is measured again (up to
     * twice) before the checks below judge it. */
    unsigned f = pl_features();
    for (int attempt = 0; attempt < 3; attempt++) {
        s = pl_peaks_measure(NULL, &pk, 1);
        if (s != PL_OK || (pk.cpu_gflops_scalar[1] >= 0.9 * pk.cpu_gflops_scalar[0] &&
                           pk.cpu_gflops_avx2[1] >= 0.9 * pk.cpu_gflops_avx2[0] &&
                           pk.cpu_gflops_avx512[1] >= 0.9 * pk.cpu_gflops_avx512[0] &&
                           (!(f & PL_FEAT_AVX2) || pk.cpu_gflops_avx2[1] > pk.cpu_gflops_scalar[1])))
            break;
        printf("note: noisy figures (scalar %.1f/%.1f, AVX2 %.1f/%.1f, AVX-512 %.1f/%.1f GFLOP/s): "
               "measuring again\n", pk.cpu_gflops_scalar[0], pk.cpu_gflops_scalar[1],
               pk.cpu_gflops_avx2[0], pk.cpu_gflops_avx2[1], pk.cpu_gflops_avx512[0],
               pk.cpu_gflops_avx512[1]);
    }
    CHECK(s == PL_OK, "pl_peaks_measure: %s", pl_last_error());
    CHECK(pk.valid, "measured peaks are not marked valid");
    CHECK(pk.machine[0] != '\0', "empty machine key");
    CHECK(pk.cpu_threads >= 1, "cpu_threads = %d", pk.cpu_threads);
    check_isa("scalar", pk.cpu_gflops_scalar);
    if (f & PL_FEAT_AVX2) {
        check_isa("AVX2", pk.cpu_gflops_avx2);
        CHECK(pk.cpu_gflops_avx2[1] > pk.cpu_gflops_scalar[1],
              "AVX2 %g GFLOP/s not above scalar %g", pk.cpu_gflops_avx2[1], pk.cpu_gflops_scalar[1]);
    } else {
        CHECK(pk.cpu_gflops_avx2[0] == 0.0, "AVX2 figure %g on a CPU without AVX2", pk.cpu_gflops_avx2[0]);
    }
    if (f & PL_FEAT_AVX512) {
        check_isa("AVX-512", pk.cpu_gflops_avx512);
        CHECK(pk.cpu_gflops_avx512[1] > pk.cpu_gflops_scalar[1], "AVX-512 %g GFLOP/s not above scalar %g",
              pk.cpu_gflops_avx512[1], pk.cpu_gflops_scalar[1]);
    } else {
        CHECK(pk.cpu_gflops_avx512[0] == 0.0, "AVX-512 figure %g on a CPU without it",
              pk.cpu_gflops_avx512[0]);
    }
    CHECK(pk.cpu_triad_gbps > 0.5 && pk.cpu_triad_gbps < 10000.0, "STREAM triad %g GB/s",
          pk.cpu_triad_gbps);
    if (f & PL_FEAT_GPU) {
        CHECK(pk.gpu_gflops_fp32 > 100.0, "GPU FMA peak %g GFLOP/s", pk.gpu_gflops_fp32);
        CHECK(pk.gpu_copy_gbps > 10.0, "GPU copy %g GB/s", pk.gpu_copy_gbps);
    } else {
        CHECK(pk.gpu_gflops_fp32 == 0.0 && pk.gpu_copy_gbps == 0.0, "GPU figures without a GPU");
    }
    printf("measured: scalar %.1f/%.1f, AVX2 %.1f/%.1f, AVX-512 %.1f/%.1f GFLOP/s, triad %.1f GB/s, "
           "GPU %.0f GFLOP/s %.0f GB/s (%s)\n",
           pk.cpu_gflops_scalar[0], pk.cpu_gflops_scalar[1], pk.cpu_gflops_avx2[0], pk.cpu_gflops_avx2[1],
           pk.cpu_gflops_avx512[0], pk.cpu_gflops_avx512[1], pk.cpu_triad_gbps, pk.gpu_gflops_fp32,
           pk.gpu_copy_gbps, pk.machine);

    char path[4200];
    CHECK(find_cache_file(dir, path, sizeof path), "no (single) peaks-*.txt file in %s", dir);

    /* Read back without measuring: the same doubles, bit for bit. */
    pl_peaks back;
    s = pl_peaks_get(NULL, &back, 0);
    CHECK(s == PL_OK, "pl_peaks_get after measuring: %s", pl_last_error());
    CHECK(back.valid && same_figures(&pk, &back), "the cached figures differ from the measured ones");

    /* A corrupt file: rejected with a message, not crashed on. */
    static const char garbage[] = "format = 1\nmachine = \x01\xff\xfe\ncpu_gflops_avx2_1 = -nan\n\0\0binary";
    CHECK(write_file(path, garbage, sizeof garbage), "cannot write %s", path);
    s = pl_peaks_get(NULL, &back, 0);
    CHECK(s != PL_OK && pl_last_error()[0] != '\0', "a corrupt cache file was accepted");

    /* A truncated file (half of a good one): rejected too. */
    char good[4096];
    int len = snprintf(good, sizeof good,
                       "format = 1\nmachine = %s\ncpu_mode = quick\ncpu_threads = %d\n"
                       "cpu_gflops_scalar_1 = %.17g\ncpu_gflops_scalar_all = %.17g\n",
                       pk.machine, pk.cpu_threads, pk.cpu_gflops_scalar[0], pk.cpu_gflops_scalar[1]);
    CHECK(write_file(path, good, (size_t)len), "cannot write %s", path);
    s = pl_peaks_get(NULL, &back, 0);
    CHECK(s != PL_OK && pl_last_error()[0] != '\0', "a truncated cache file was accepted");

    /* A figure spelled wrong ("12.5x"): rejected. */
    static const char misspelt[] = "format = 1\ncpu_triad_gbps = 12.5x\n";
    CHECK(write_file(path, misspelt, strlen(misspelt)), "cannot write %s", path);
    s = pl_peaks_get(NULL, &back, 0);
    CHECK(s != PL_OK, "a malformed figure was accepted");

    /* Allowed to measure: the bad file is replaced by a good one. */
    s = pl_peaks_get(NULL, &back, 1);
    CHECK(s == PL_OK && back.valid, "re-measuring over a corrupt cache: %s", pl_last_error());
    s = pl_peaks_get(NULL, &pk, 0);
    CHECK(s == PL_OK && same_figures(&pk, &back), "the re-measured cache does not read back: %s",
          pl_last_error());

    /* Clean up the temporary directory (best effort). */
    unlink(path);
    rmdir(dir);
    return check_summary("peaks");
}
