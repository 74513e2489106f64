/* test_peaks.c: the machine's peaks and their cache, in a fresh cache directory.
 * - no cache and measure_if_missing = 0: an error with a message, nothing measured;
 * - a quick measurement gives plausible CPU figures (and GPU figures when a GPU is usable),
 *   and writes the cache file;
 * - pl_peaks_get without measuring reads the very same doubles back;
 * - a corrupt or truncated cache file is rejected with a message, or measured again when
 *   allowed, never crashed on. Each bad file is a good one (the one just written) with one
 *   defect, and the test checks the reason in the message, so that each case reaches the check
 *   it is about (not an earlier one, e.g. "another machine");
 * - a cache written before the integer and TF32 figures existed (an older parlab's) is not
 *   accepted as complete: rejected without measuring, measured again with; so is one of an
 *   older format (2: before the read, write and copy streams), naming the format;
 * - how the figures were taken is recorded and read back (mode, UTC time, the load average
 *   from $PARLAB_PEAKS_LOADAVG, the spread, the sanity verdict);
 * - figures measured on a busy machine (a load average above the limit) are not cached: the
 *   cache file stays as it was, pl_peaks_measure says why, and pl_peaks_get returns them for
 *   the run (implicit, not cached) without writing a file.
 * The checks of the figures are off (PARLAB_PEAKS_SANITY=off) except where the refusal is
 * tested: on a shared machine, the test must not depend on a quiet one. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkdtemp, setenv */
#endif
#include "check.h"
#include "parlab.h"
#include "core/core.h"
#include "harness/peaks.h"

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

/* The whole of a file (NUL-terminated; *len: its length without the NUL), or NULL. */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = malloc(65536);
    size_t n = buf ? fread(buf, 1, 65535, f) : 0;
    fclose(f);
    if (buf) buf[n] = '\0';
    *len = n;
    return buf;
}

/* good (a cache file's text) with the line "key = ..." replaced by "key = value", or dropped
 * when value is NULL, into out (of size n); returns the length, or 0 if key is not there.
 * value_len: the bytes of value to write (so that it can hold a NUL byte); -1: strlen. */
static size_t edit_line(const char *good, const char *key, const char *value, int value_len, char *out,
                        size_t n)
{
    size_t klen = strlen(key), len = 0;
    int found = 0;
    for (const char *line = good; *line;) {
        const char *end = strchr(line, '\n');
        size_t ll = end ? (size_t)(end - line) + 1 : strlen(line);
        int match = strncmp(line, key, klen) == 0 && line[klen] == ' ' && line[klen + 1] == '=';
        if (match) {
            found = 1;
            if (value) {
                size_t vl = value_len < 0 ? strlen(value) : (size_t)value_len;
                if (len + klen + vl + 4 >= n) return 0;
                memcpy(out + len, key, klen);
                len += klen;
                memcpy(out + len, " = ", 3);
                len += 3;
                memcpy(out + len, value, vl);
                len += vl;
                out[len++] = '\n';
            }
        } else {
            if (len + ll >= n) return 0;
            memcpy(out + len, line, ll);
            len += ll;
        }
        line += ll;
    }
    out[len] = '\0';
    return found ? len : 0;
}

/* Write text (len bytes) as the cache, read it without measuring: it must be rejected with a
 * message that holds both `want` and `want2` (NULL: anything). */
static void expect_rejected(const char *path, const char *text, size_t len, const char *what,
                            const char *want, const char *want2)
{
    CHECK(len > 0, "%s: could not build the file", what);
    if (len == 0) return;
    CHECK(write_file(path, text, len), "cannot write %s", path);
    pl_peaks back;
    pl_status s = pl_peaks_get(NULL, &back, 0);
    const char *msg = pl_last_error();
    CHECK(s != PL_OK && !back.valid, "%s: accepted", what);
    CHECK(s == PL_OK || (strstr(msg, want) && (!want2 || strstr(msg, want2))),
          "%s: rejected for another reason than '%s'%s%s: %s", what, want, want2 ? " + " : "",
          want2 ? want2 : "", msg);
}

/* One defect: the line of key set to value (NULL: dropped). */
static void expect_edit_rejected(const char *path, const char *good, const char *key, const char *value,
                                 const char *what, const char *want, const char *want2)
{
    static char buf[65536];
    size_t len = edit_line(good, key, value, -1, buf, sizeof buf);
    expect_rejected(path, buf, len, what, want, want2);
}

static int same_figures(const pl_peaks *a, const pl_peaks *b)
{
    return a->cpu_read_gbps == b->cpu_read_gbps && a->cpu_write_gbps == b->cpu_write_gbps &&
           a->cpu_copy_gbps == b->cpu_copy_gbps && a->cpu_read_1thr_gbps == b->cpu_read_1thr_gbps &&
           a->cpu_write_nt == b->cpu_write_nt && a->cpu_cache_read_gbps == b->cpu_cache_read_gbps &&
           a->cpu_cache_copy_gbps == b->cpu_cache_copy_gbps && a->cpu_cache_bytes == b->cpu_cache_bytes &&
           a->gpu_read_gbps == b->gpu_read_gbps && a->gpu_write_gbps == b->gpu_write_gbps &&
           a->gpu_cache_read_gbps == b->gpu_cache_read_gbps && a->gpu_cache_copy_gbps == b->gpu_cache_copy_gbps &&
           a->gpu_cache_bytes == b->gpu_cache_bytes && a->load1 == b->load1 && a->spread == b->spread &&
           strcmp(a->cpu_mode, b->cpu_mode) == 0 && strcmp(a->gpu_mode, b->gpu_mode) == 0 &&
           strcmp(a->measured, b->measured) == 0 && strcmp(a->spread_what, b->spread_what) == 0 &&
           strcmp(a->sanity, b->sanity) == 0 && a->sane == b->sane &&
           a->cpu_threads == b->cpu_threads && strcmp(a->machine, b->machine) == 0 &&
           a->cpu_gflops_scalar[0] == b->cpu_gflops_scalar[0] &&
           a->cpu_gflops_scalar[1] == b->cpu_gflops_scalar[1] &&
           a->cpu_gflops_avx2[0] == b->cpu_gflops_avx2[0] && a->cpu_gflops_avx2[1] == b->cpu_gflops_avx2[1] &&
           a->cpu_gflops_avx512[0] == b->cpu_gflops_avx512[0] &&
           a->cpu_gflops_avx512[1] == b->cpu_gflops_avx512[1] && a->cpu_triad_gbps == b->cpu_triad_gbps &&
           a->gpu_gflops_fp32 == b->gpu_gflops_fp32 && a->gpu_copy_gbps == b->gpu_copy_gbps &&
           a->gpu_gflops_tf32 == b->gpu_gflops_tf32 && a->cpu_gops_int32[0] == b->cpu_gops_int32[0] &&
           a->cpu_gops_int32[1] == b->cpu_gops_int32[1] && a->gpu_gops_int32 == b->gpu_gops_int32;
}

/* One ISA's pair: both positive, all threads not slower than 0.9 x one thread. */
static void check_isa(const char *name, const double *g)
{
    CHECK(g[0] > 0.0 && g[1] > 0.0, "%s: FMA peak %g / %g GFLOP/s, expected > 0", name, g[0], g[1]);
    CHECK(g[1] >= 0.9 * g[0], "%s: all threads %g GFLOP/s < 0.9 x one thread %g", name, g[1], g[0]);
}

/* The scalar integer chains (pl_peaks_int_scalar) on this thread, Gop/s, the best of 3: the
 * yardstick of the SIMD figure. A ratio holds on any clock and in a sanitizer build, where an
 * absolute floor (once "8 Gop/s") failed an AVX2 machine's -O0 ASan run at 7.05. */
static double scalar_int32_gops(void)
{
    const int64_t iters = 1 << 20;
    double best = 0.0;
    for (int t = 0; t < 3; t++) {
        double t0 = pl_now();
        volatile float sink = pl_peaks_int_scalar(iters);
        (void)sink;
        double dt = pl_now() - t0, gops = dt > 0 ? (double)iters * PL_PEAKS_INT_CHAINS_SCALAR * PL_PEAKS_INT_OPS / dt / 1e9 : 0;
        if (gops > best) best = gops;
    }
    return best;
}

int main(void)
{
    char dir[] = "/tmp/parlab_test_peaks_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("PARLAB_CACHE_DIR", dir, 1);
    setenv("PARLAB_PEAKS_SANITY", "off", 1);
    /* the load average the figures record: a quiet one, and a busy one for the refusal */
    char quiet_load[4200], busy_load[4200];
    snprintf(quiet_load, sizeof quiet_load, "%s/loadavg-quiet", dir);
    snprintf(busy_load, sizeof busy_load, "%s/loadavg-busy", dir);
    CHECK(write_file(quiet_load, "0.25 0.20 0.10 1/100 4242\n", 26), "cannot write %s", quiet_load);
    CHECK(write_file(busy_load, "99.5 50.0 20.0 90/300 4242\n", 27), "cannot write %s", busy_load);
    setenv("PARLAB_PEAKS_LOADAVG", quiet_load, 1);

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
     * load can make all threads look slower than one, or a thread's SIMD integer figure fall
     * under the floor checked below; such a result is measured again (up to twice) before the
     * checks below judge it. */
    unsigned f = pl_features();
    for (int attempt = 0; attempt < 3; attempt++) {
        s = pl_peaks_measure(NULL, &pk, 1);
        if (s != PL_OK || (pk.cpu_gflops_scalar[1] >= 0.9 * pk.cpu_gflops_scalar[0] &&
                           pk.cpu_gflops_avx2[1] >= 0.9 * pk.cpu_gflops_avx2[0] &&
                           pk.cpu_gflops_avx512[1] >= 0.9 * pk.cpu_gflops_avx512[0] &&
                           pk.cpu_gops_int32[1] >= 0.9 * pk.cpu_gops_int32[0] &&
                           (pk.cpu_cache_bytes <= 0 || pk.cpu_cache_read_gbps > pk.cpu_read_gbps) &&
                           (!(f & PL_FEAT_AVX2) || (pk.cpu_gflops_avx2[1] > pk.cpu_gflops_scalar[1] &&
                                                    pk.cpu_gops_int32[0] > 8.0))))
            break;
        printf("note: noisy figures (scalar %.1f/%.1f, AVX2 %.1f/%.1f, AVX-512 %.1f/%.1f GFLOP/s, "
               "int32 %.1f/%.1f Gop/s): measuring again\n", pk.cpu_gflops_scalar[0], pk.cpu_gflops_scalar[1],
               pk.cpu_gflops_avx2[0], pk.cpu_gflops_avx2[1], pk.cpu_gflops_avx512[0],
               pk.cpu_gflops_avx512[1], pk.cpu_gops_int32[0], pk.cpu_gops_int32[1]);
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
    CHECK(pk.cpu_read_gbps > 0.5 && pk.cpu_write_gbps > 0.5 && pk.cpu_copy_gbps > 0.5 &&
              pk.cpu_read_1thr_gbps > 0.5 && pk.cpu_read_gbps < 10000.0,
          "CPU streams: read %g, write %g, copy %g, read on 1 thread %g GB/s", pk.cpu_read_gbps,
          pk.cpu_write_gbps, pk.cpu_copy_gbps, pk.cpu_read_1thr_gbps);
    /* in half the last-level cache, warm: faster than from memory (where the size is known) */
    CHECK(pk.cpu_cache_bytes <= 0 || pk.cpu_cache_read_gbps > pk.cpu_read_gbps,
          "cache-resident read %g GB/s not above memory's %g (cache %g bytes)", pk.cpu_cache_read_gbps,
          pk.cpu_read_gbps, pk.cpu_cache_bytes);
    /* how they were taken */
    CHECK(strcmp(pk.cpu_mode, "quick") == 0, "cpu_mode '%s'", pk.cpu_mode);
    CHECK(pk.load1 == 0.25, "load1 %g, expected 0.25 from %s", pk.load1, quiet_load);
    CHECK(strlen(pk.measured) == 20 && pk.measured[4] == '-' && pk.measured[10] == 'T' && pk.measured[19] == 'Z',
          "measured '%s' is not a UTC time", pk.measured);
    CHECK(pk.sane && strstr(pk.sanity, "not checked") && pk.cached && !pk.implicit,
          "sane %d, sanity '%s', cached %d, implicit %d", pk.sane, pk.sanity, pk.cached, pk.implicit);
    CHECK(pk.spread >= 0.0 && pk.spread_what[0], "spread %g of '%s'", pk.spread, pk.spread_what);
    /* Integer ops: at least one op per cycle at ~1 GHz on one thread (scalar), more with SIMD;
     * all threads not slower than one. */
    CHECK(pk.cpu_gops_int32[0] > 1.0 && pk.cpu_gops_int32[1] >= 0.9 * pk.cpu_gops_int32[0],
          "CPU int32 %g / %g Gop/s", pk.cpu_gops_int32[0], pk.cpu_gops_int32[1]);
    if (f & PL_FEAT_AVX2) { /* 8 lanes an op: well above the scalar chains timed here, on one thread */
        double scalar = scalar_int32_gops();
        CHECK(pk.cpu_gops_int32[0] > 2.0 * scalar, "CPU int32 %g Gop/s on one thread with SIMD, scalar %g",
              pk.cpu_gops_int32[0], scalar);
    }
    if (f & PL_FEAT_GPU) {
        CHECK(pk.gpu_gflops_fp32 > 100.0, "GPU FMA peak %g GFLOP/s", pk.gpu_gflops_fp32);
        CHECK(pk.gpu_copy_gbps > 10.0, "GPU copy %g GB/s", pk.gpu_copy_gbps);
        CHECK(pk.gpu_read_gbps > 10.0 && pk.gpu_write_gbps > 10.0, "GPU read %g, write %g GB/s", pk.gpu_read_gbps,
              pk.gpu_write_gbps);
        CHECK(pk.gpu_cache_bytes <= 0 || (pk.gpu_cache_read_gbps > 10.0 && pk.gpu_cache_copy_gbps > 10.0),
              "GPU L2 read %g, copy %g GB/s (L2 %g bytes)", pk.gpu_cache_read_gbps, pk.gpu_cache_copy_gbps,
              pk.gpu_cache_bytes);
        CHECK(pk.gpu_gops_int32 > 100.0, "GPU int32 %g Gop/s", pk.gpu_gops_int32);
        /* TF32 tensor cores (sm_80+) run several times the FP32 FMA peak; 0 before sm_80 */
        CHECK(pk.gpu_gflops_tf32 == 0.0 || pk.gpu_gflops_tf32 > 2.0 * pk.gpu_gflops_fp32,
              "GPU TF32 %g GFLOP/s vs FP32 %g", pk.gpu_gflops_tf32, pk.gpu_gflops_fp32);
        /* On an H100, cuBLAS TF32 SGEMM reaches ~405 TFLOP/s at 4096: a ceiling below it is wrong */
        if (strstr(pk.machine, "H100"))
            CHECK(pk.gpu_gflops_tf32 > 420000.0, "H100 TF32 peak %g GFLOP/s, below cuBLAS's ~405000",
                  pk.gpu_gflops_tf32);
    } else {
        CHECK(pk.gpu_gflops_fp32 == 0.0 && pk.gpu_copy_gbps == 0.0 && pk.gpu_gflops_tf32 == 0.0 &&
                  pk.gpu_gops_int32 == 0.0 && pk.gpu_read_gbps == 0.0 && pk.gpu_write_gbps == 0.0 &&
                  pk.gpu_cache_read_gbps == 0.0,
              "GPU figures without a GPU");
    }
    printf("measured: scalar %.1f/%.1f, AVX2 %.1f/%.1f, AVX-512 %.1f/%.1f GFLOP/s, triad %.1f GB/s, "
           "int32 %.1f/%.1f Gop/s, GPU %.0f GFLOP/s, TF32 %.0f GFLOP/s, int32 %.0f Gop/s, %.0f GB/s (%s)\n",
           pk.cpu_gflops_scalar[0], pk.cpu_gflops_scalar[1], pk.cpu_gflops_avx2[0], pk.cpu_gflops_avx2[1],
           pk.cpu_gflops_avx512[0], pk.cpu_gflops_avx512[1], pk.cpu_triad_gbps, pk.cpu_gops_int32[0],
           pk.cpu_gops_int32[1], pk.gpu_gflops_fp32, pk.gpu_gflops_tf32, pk.gpu_gops_int32,
           pk.gpu_copy_gbps, pk.machine);

    char path[4200];
    CHECK(find_cache_file(dir, path, sizeof path), "no (single) peaks-*.txt file in %s", dir);

    /* Read back without measuring: the same doubles, bit for bit. */
    pl_peaks back;
    s = pl_peaks_get(NULL, &back, 0);
    CHECK(s == PL_OK, "pl_peaks_get after measuring: %s", pl_last_error());
    CHECK(back.valid && same_figures(&pk, &back), "the cached figures differ from the measured ones");
    /* How TF32 was measured: told by the measuring itself (not only by the cache file) and
     * read back the same; "none" exactly when there is no TF32 figure. */
    CHECK(strcmp(pk.gpu_tf32_method, back.gpu_tf32_method) == 0, "TF32 method '%s' measured, '%s' read back",
          pk.gpu_tf32_method, back.gpu_tf32_method);
    CHECK((strcmp(pk.gpu_tf32_method, "none") == 0) == !(pk.gpu_gflops_tf32 > 0.0),
          "TF32 method '%s' with a TF32 figure of %g", pk.gpu_tf32_method, pk.gpu_gflops_tf32);

    /* The good file, as written: every bad file below is it with one defect. */
    size_t good_len = 0;
    char *good = read_all(path, &good_len);
    CHECK(good && good_len > 0, "cannot read %s back", path);
    if (!good) return check_summary("peaks");
    static char buf[65536];
    char key[64];

    /* Another machine's file (and a machine name that is not even text): rejected as such. */
    expect_edit_rejected(path, good, "machine", "\x01\xff\xfe", "a foreign machine", "another machine", NULL);

    /* Garbage: a NUL byte inside a figure's line. fgets-style reading would stop at the NUL,
     * read "12.5" and accept the file; the rest of the line is not text. */
    size_t len = edit_line(good, "cpu_triad_gbps", "12.5\0garbage\x01\xff", 15, buf, sizeof buf);
    expect_rejected(path, buf, len, "a NUL byte in a line", "not text", NULL);
    /* and a binary tail after the last line */
    memcpy(buf, good, good_len);
    memcpy(buf + good_len, "\0\0binary", 8);
    expect_rejected(path, buf, good_len + 8, "a binary tail", "not text", NULL);

    /* A truncated file: cut just after the cpu_threads line (the same place on any machine,
     * whatever figures follow); and cut inside the key of the next line. */
    {
        const char *at = strstr(good, "\ncpu_threads = ");
        const char *eol = at ? strchr(at + 1, '\n') : NULL;
        CHECK(eol != NULL, "no cpu_threads line in the cache file");
        size_t cut = eol ? (size_t)(eol - good) + 1 : 0;
        expect_rejected(path, good, cut, "a truncated file", "no ", "figure");
        expect_rejected(path, good, cut + 3, "a file cut inside a key", "not a \"key = value\" line", NULL);
    }

    /* The recorded fields, as written. */
    CHECK(strstr(good, "\nformat = 3\n") && strstr(good, "\nload1 = 0.25\n") && strstr(good, "\ncpu_mode = quick\n") &&
              strstr(good, "\nsanity = not checked") && strstr(good, "\nmeasured = 2"),
          "the cache file lacks a recorded field:\n%s", good);

    /* An older format (2: before the streams): measure again, saying so. */
    expect_edit_rejected(path, good, "format", "2", "a format-2 file", "format 2", "older parlab");
    /* A sanity verdict other than ok: such figures are never cached, never read. */
    expect_edit_rejected(path, good, "sanity", "a busy machine", "a cached failed verdict", "never cached", NULL);
    expect_edit_rejected(path, good, "cpu_read_gbps", NULL, "no read stream figure", "no cpu_read_gbps figure",
                         NULL);
    expect_edit_rejected(path, good, "load1", "busy", "a load that is no number", "load1", NULL);

    /* A figure spelled wrong ("12.5x"), not a number ("-nan"), or negative: rejected by the
     * number parser, which the message names with the key. */
    expect_edit_rejected(path, good, "cpu_triad_gbps", "12.5x", "a misspelt figure", "cpu_triad_gbps",
                         "not a number");
    expect_edit_rejected(path, good, "cpu_gflops_scalar_1", "-nan", "a NaN figure", "cpu_gflops_scalar_1",
                         "not a number");
    expect_edit_rejected(path, good, "cpu_gops_int32_all", "-3", "a negative figure", "cpu_gops_int32_all",
                         "not a number");

    /* A cache written before the integer and TF32 peaks: without any of the new lines, and
     * without each one of the new figures, it is not complete. */
    {
        static char old[65536];
        static const char *added[] = {"cpu_gops_int32_1", "cpu_gops_int32_all", "gpu_gflops_tf32",
                                      "gpu_gops_int32", "cpu_int32_isa", "gpu_tf32_method"};
        snprintf(old, sizeof old, "%s", good);
        size_t olen = good_len;
        for (size_t i = 0; i < sizeof added / sizeof added[0]; i++) {
            olen = edit_line(old, added[i], NULL, -1, buf, sizeof buf);
            CHECK(olen > 0, "the cache file has no %s line", added[i]);
            memcpy(old, buf, olen + 1);
        }
        expect_rejected(path, old, olen, "an old cache without the new figures", "older parlab", NULL);
        for (size_t i = 0; i < 4; i++) {
            snprintf(key, sizeof key, "no %s figure", added[i]);
            expect_edit_rejected(path, good, added[i], NULL, added[i], key, "older parlab");
        }
        /* allowed to measure: measured again, and the file gains the new figures */
        CHECK(write_file(path, old, olen), "cannot write %s", path);
        pl_peaks again;
        s = pl_peaks_get(NULL, &again, 1);
        CHECK(s == PL_OK && again.valid && again.cpu_gops_int32[0] > 0.0 && again.cpu_gops_int32[1] > 0.0,
              "an old cache was not measured again: %s", pl_last_error());
        size_t nlen = 0;
        char *now = read_all(path, &nlen);
        CHECK(now && strstr(now, "\ncpu_gops_int32_1 = ") && strstr(now, "\ncpu_gops_int32_all = ") &&
                  strstr(now, "\ngpu_gflops_tf32 = ") && strstr(now, "\ngpu_gops_int32 = "),
              "the re-measured cache lacks a new figure");
        free(now);
        s = pl_peaks_get(NULL, &back, 0);
        CHECK(s == PL_OK && same_figures(&again, &back), "the re-measured old cache does not read back: %s",
              pl_last_error());
    }

    /* The new figures contradict this machine or each other. */
    expect_edit_rejected(path, good, "cpu_int32_isa",
                         (f & (PL_FEAT_AVX2 | PL_FEAT_AVX512)) ? "scalar" : "avx2",
                         "integer figures of another ISA", "cpu_int32_isa", NULL);
    expect_edit_rejected(path, good, "cpu_gops_int32_1", "0", "a zero CPU integer figure",
                         "integer figure is zero", NULL);
    expect_edit_rejected(path, good, "gpu_tf32_method", "tensor", "an unknown TF32 method", "gpu_tf32_method",
                         NULL);
    if (pk.gpu_gflops_fp32 > 0.0) {
        expect_edit_rejected(path, good, "gpu_gops_int32", "0", "GPU figures without the int32 one",
                             "only some of the GPU figures", NULL);
        if (pk.gpu_gflops_tf32 > 0.0)
            expect_edit_rejected(path, good, "gpu_tf32_method", "none", "a TF32 figure with method none",
                                 "contradicts", NULL);
    } else {
        expect_edit_rejected(path, good, "gpu_gops_int32", "5", "a GPU int32 figure without the others",
                             "only some of the GPU figures", NULL);
        expect_edit_rejected(path, good, "gpu_gflops_tf32", "5", "a TF32 figure without a GPU",
                             "contradicts", NULL);
        expect_edit_rejected(path, good, "gpu_tf32_method", "wgmma", "method wgmma with a TF32 figure of 0",
                             "contradicts", NULL);
    }
    /* the good file itself still passes: the cases above failed for their defect alone */
    CHECK(write_file(path, good, good_len), "cannot write %s", path);
    s = pl_peaks_get(NULL, &back, 0);
    CHECK(s == PL_OK && same_figures(&pk, &back), "the good file, written back, is rejected: %s",
          pl_last_error());

    /* Figures taken on a busy machine are not cached: the good file stays as it is. */
    {
        CHECK(write_file(path, good, good_len), "cannot write %s", path);
        unsetenv("PARLAB_PEAKS_SANITY");
        setenv("PARLAB_PEAKS_LOADAVG", busy_load, 1);
        pl_peaks busy;
        s = pl_peaks_measure(NULL, &busy, 1);
        CHECK(s == PL_ERR_UNSUPPORTED && strstr(pl_last_error(), "not cached") &&
                  strstr(pl_last_error(), "busy machine"),
              "a busy machine's figures: status %d, '%s'", (int)s, pl_last_error());
        CHECK(busy.valid && !busy.sane && !busy.cached && busy.load1 == 99.5 && strstr(busy.sanity, "busy machine"),
              "busy figures: valid %d, sane %d, cached %d, load1 %g, sanity '%s'", busy.valid, busy.sane,
              busy.cached, busy.load1, busy.sanity);
        size_t nlen = 0;
        char *now = read_all(path, &nlen);
        CHECK(now && nlen == good_len && memcmp(now, good, good_len) == 0, "the busy figures replaced the cache");
        free(now);
        /* no cache: pl_peaks_get measures them for this run, says it did, writes nothing */
        unlink(path);
        s = pl_peaks_get(NULL, &busy, 1);
        CHECK(s == PL_OK && busy.valid && busy.implicit && !busy.cached && !busy.sane,
              "implicit busy figures: status %d, valid %d, implicit %d, cached %d (%s)", (int)s, busy.valid,
              busy.implicit, busy.cached, pl_last_error());
        CHECK(strstr(busy.implicit_why, "no cached peaks") != NULL, "implicit_why '%s'", busy.implicit_why);
        CHECK(access(path, F_OK) != 0, "the busy figures were cached by pl_peaks_get");
        setenv("PARLAB_PEAKS_SANITY", "off", 1);
        setenv("PARLAB_PEAKS_LOADAVG", quiet_load, 1);
    }

    /* A corrupt file once more, for the re-measuring below. */
    expect_edit_rejected(path, good, "cpu_triad_gbps", "12.5x", "a misspelt figure", "cpu_triad_gbps", NULL);
    free(good);

    /* Allowed to measure: the bad file is replaced by a good one. */
    s = pl_peaks_get(NULL, &back, 1);
    CHECK(s == PL_OK && back.valid, "re-measuring over a corrupt cache: %s", pl_last_error());
    s = pl_peaks_get(NULL, &pk, 0);
    CHECK(s == PL_OK && same_figures(&pk, &back), "the re-measured cache does not read back: %s",
          pl_last_error());

    /* Clean up the temporary directory (best effort). */
    unlink(path);
    unlink(quiet_load);
    unlink(busy_load);
    rmdir(dir);
    return check_summary("peaks");
}
