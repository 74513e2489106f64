/* peaks_cache.c: the cache file of the measured peaks, one per machine.
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
#include "harness/peaks_parts.h"
#include "core/core.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How the TF32 peak was measured, as the cache and the JSON write it. */
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

#define PEAKS_FORMAT "3" /* the cache file's format (pl_peaks_load_cache says what each added) */

static pl_status bad_cache(const char *path, const char *why)
{
    return pl_fail(PL_ERR_FORMAT, "cached peaks in %s are unusable (%s); run `parlab peaks`", path, why);
}

/* Load and check the cache file of this machine. */
pl_status pl_peaks_load_cache(const char *path, const char *machine, pl_peaks *pk)
{
    pl_kvfile *kf = malloc(sizeof *kf);
    if (!kf) return pl_fail(PL_ERR_NOMEM, "out of memory reading %s", path);
    pl_status s = pl_kv_read(path, kf);
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
    const char *v = pl_kv_get(kf, "format"), *why = NULL;
    char whybuf[PL_KV_VAL_LEN + 128];
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
    } else if (!(v = pl_kv_get(kf, "machine")) || strcmp(v, machine) != 0)
        why = "written for another machine";
    else if (!pl_kv_num(kf, "cpu_threads", &threads) || threads < 1.0 || threads != floor(threads))
        why = "bad or missing cpu_threads";
    for (size_t i = 0; !why && i < sizeof nums / sizeof nums[0]; i++) {
        if (!(v = pl_kv_get(kf, nums[i].key))) {
            snprintf(whybuf, sizeof whybuf, "no %s figure%s", nums[i].key,
                     nums[i].later ? ": written by an older parlab, before the integer and TF32 peaks" : "");
            why = whybuf;
        } else if (!pl_kv_num(kf, nums[i].key, (double *)((char *)&got + nums[i].offset))) {
            snprintf(whybuf, sizeof whybuf, "%s = \"%s\" is not a number >= 0", nums[i].key, v);
            why = whybuf;
        }
    }
    if (!why && (!pl_kv_num(kf, "cpu_write_nt", &write_nt) || (write_nt != 0.0 && write_nt != 1.0)))
        why = "bad or missing cpu_write_nt";
    if (!why && !((v = pl_kv_get(kf, "load1")) && strcmp(v, "-1") == 0 ? (got.load1 = -1.0, 1)
                                                                     : pl_kv_num(kf, "load1", &got.load1)))
        why = "bad or missing load1";
    for (size_t i = 0; !why && i < sizeof texts / sizeof texts[0]; i++) {
        v = pl_kv_get(kf, texts[i].key);
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
        if (!(v = pl_kv_get(kf, "cpu_int32_isa")) || strcmp(v, pl_peaks_int_isa()) != 0) {
            snprintf(whybuf, sizeof whybuf,
                     "integer figures measured with cpu_int32_isa = %s, this CPU's best ISA is %s",
                     v ? v : "(missing)", pl_peaks_int_isa());
            why = whybuf;
        } else if ((tc = pl_peaks_tc_parse(v = pl_kv_get(kf, "gpu_tf32_method"))) < 0) {
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
pl_status pl_peaks_save_cache(const char *path, const pl_peaks *pk, int tc_method)
{
    char tmp[PL_PEAKS_PATH_LEN + 8];
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
