/* peaks_machine.c: which machine the figures belong to and where they are cached. The machine
 * key is "<CPU name> <cores>c" plus " + <GPU name>" when the machine has a GPU (pl_cpu_name(),
 * pl_cpu_cores(), the name of the GPU the context uses: device 0 unless it is a CUDA context
 * of another); white space squeezed. The cache directory is $PARLAB_CACHE_DIR, else
 * $XDG_CACHE_HOME/parlab, else ~/.cache/parlab (created if missing), the cache file
 * <dir>/peaks-<the key as a file name>.txt (peaks_cache.c writes and reads it). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "harness/peaks_parts.h"
#include "core/core.h"
#include "core/device.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The GPU a context measures: its device for a CUDA context, else device 0. */
int pl_peaks_gpu_device(const pl_ctx *ctx)
{
    return ctx && ctx->backend == PL_BACKEND_CUDA ? ctx->device : 0;
}

/* Whether the GPU figures should be measured: a usable GPU, and no CPU context. */
int pl_peaks_gpu_wanted(const pl_ctx *ctx)
{
    if (ctx && ctx->backend == PL_BACKEND_CPU) return 0;
    return pl_dev_count() > pl_peaks_gpu_device(ctx);
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
void pl_peaks_machine_key(const pl_ctx *ctx, char *buf, size_t n)
{
    char cores[32];
    snprintf(cores, sizeof cores, " %dc", pl_cpu_cores());
    size_t len = append_squeezed(buf, n, 0, pl_cpu_name());
    len = append_squeezed(buf, n, len, cores);
    /* PARLAB_ISA_MAX hides part of the CPU: its figures are another machine's */
    unsigned hidden = pl_cpu_features_hidden();
    if (hidden) len = append_squeezed(buf, n, len, (pl_cpu_features() & PL_FEAT_AVX2) ? " avx2-only" : " no-simd");
    int dev = pl_peaks_gpu_device(ctx);
    if (pl_dev_count() > dev) {
        len = append_squeezed(buf, n, len, " + ");
        append_squeezed(buf, n, len, pl_dev_name(dev));
    }
}

/* mkdir -p: every missing directory on the path, then check it is a writable directory. */
static pl_status make_dirs(const char *path)
{
    char tmp[PL_PEAKS_PATH_LEN];
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
    if (w < 0 || (size_t)w >= n || (size_t)w >= PL_PEAKS_PATH_LEN - 64)
        return pl_fail(PL_ERR_ARG, "the cache directory path is too long (%d bytes)", w);
    while (w > 1 && buf[w - 1] == '/') buf[--w] = '\0';
    return make_dirs(buf);
}

pl_status pl_peaks_cache_path(const pl_ctx *ctx, char *buf, size_t n)
{
    char dir[PL_PEAKS_PATH_LEN], key[sizeof(((pl_peaks *)0)->machine)], name[sizeof key];
    pl_status s = pl_cache_dir(dir, sizeof dir);
    if (s != PL_OK) return s;
    /* The key made a file name: letters, digits, '.', '-'; any other run becomes one '_'. */
    pl_peaks_machine_key(ctx, key, sizeof key);
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
