/* peers.c: the CPU library parlab's GEMM is measured against, behind the same contract as
 * a rung: OpenBLAS's cblas_sgemm, with the context's thread count. peer-openblas is the
 * linked copy, on the core OpenBLAS detected; peer-openblas-skx is a second, private copy of
 * the same file forced onto its SkylakeX (AVX-512) kernels. */
#include "core/core.h"
#include "kernels/gemm/gemm.h"

#ifdef PL_HAVE_OPENBLAS
#include <cblas.h>
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* CBLAS takes int sizes. */
static pl_status check_int_sizes(const pl_gemm_problem *p, const char *who)
{
    if (p->M > INT32_MAX || p->N > INT32_MAX || p->K > INT32_MAX || p->lda > INT32_MAX ||
        p->ldb > INT32_MAX || p->ldc > INT32_MAX)
        return pl_fail(PL_ERR_ARG, "%s: sizes above 2^31 do not fit CBLAS's int", who);
    return PL_OK;
}

pl_status pl_gemm_peer_openblas(const pl_run_args *a)
{
    const pl_gemm_problem *p = a->problem;
    pl_status st = check_int_sizes(p, "peer-openblas");
    if (st != PL_OK) return st;
    openblas_set_num_threads(a->ctx->threads);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)p->M, (int)p->N, (int)p->K,
                p->alpha, a->data[0], (int)p->lda, a->data[1], (int)p->ldb, p->beta, a->data[2],
                (int)p->ldc);
    return PL_OK;
}

/* ---------------------------------------------------------------- peer-openblas-skx
 * OpenBLAS picks its core once, when it loads, from the CPU or OPENBLAS_CORETYPE. To have
 * both cores in one process, the linked file is loaded a second time with dlmopen into a new
 * link-map namespace (its own copy of OpenBLAS and of what it needs), with
 * OPENBLAS_CORETYPE=SkylakeX set for that load only (setenv: other threads should not be
 * reading the environment during the first call). Loaded once, never unloaded (its threads
 * run in it). */

static struct {
    pthread_once_t once;
    pl_status status;
    char error[512];
    void *handle;
    __typeof__(cblas_sgemm) *sgemm;
    __typeof__(openblas_set_num_threads) *set_threads;
} skx = {PTHREAD_ONCE_INIT, PL_ERR_INTERNAL, "", NULL, NULL, NULL};

/* path is a loaded object that itself defines OpenBLAS (not a program that calls it). */
static int is_openblas_file(const char *path)
{
    if (!path || !path[0]) return 0;
    void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    if (!h) return 0;
    void *f = dlsym(h, "openblas_get_config");
    Dl_info d;
    int yes = f && dladdr(f, &d) && d.dli_fname && !strcmp(d.dli_fname, path);
    dlclose(h);
    return yes;
}

static int find_openblas_object(struct dl_phdr_info *info, size_t size, void *out)
{
    (void)size;
    if (!is_openblas_file(info->dlpi_name)) return 0;
    *(const char **)out = info->dlpi_name;
    return 1;
}

/* The file of the OpenBLAS this program runs: where cblas_sgemm's address lies or, where
 * that is the program itself (a non-PIE program's PLT), the loaded object that defines it. */
static int openblas_path(char *buf, size_t n)
{
    Dl_info d;
    const char *path = NULL;
    if (dladdr((void *)&cblas_sgemm, &d) && is_openblas_file(d.dli_fname)) path = d.dli_fname;
    else dl_iterate_phdr(find_openblas_object, &path);
    if (!path) return 0;
    if (!realpath(path, buf)) snprintf(buf, n, "%s", path);
    return 1;
}

static void skx_fail(pl_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void skx_fail(pl_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(skx.error, sizeof skx.error, fmt, ap);
    va_end(ap);
    skx.status = s;
}

static void skx_load(void)
{
    char path[4096];
    if (!openblas_path(path, sizeof path)) {
        skx_fail(PL_ERR_UNSUPPORTED, "peer-openblas-skx: OpenBLAS is not loaded as a shared "
                 "library (linked statically?); a second copy needs its file");
        return;
    }
    const char *old = getenv("OPENBLAS_CORETYPE");
    char *saved = old ? strdup(old) : NULL;
    if ((old && !saved) || setenv("OPENBLAS_CORETYPE", "SkylakeX", 1) != 0) {
        free(saved);
        skx_fail(PL_ERR_NOMEM, "peer-openblas-skx: cannot set OPENBLAS_CORETYPE");
        return;
    }
    /* The copy's C library starts from this environment; OpenBLAS reads it as it loads. */
    void *h = dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
    char dl_error[256] = "";
    if (!h) snprintf(dl_error, sizeof dl_error, "%s", dlerror());
    if (saved) setenv("OPENBLAS_CORETYPE", saved, 1);
    else unsetenv("OPENBLAS_CORETYPE");
    free(saved);
    if (!h) {
        skx_fail(PL_ERR_UNSUPPORTED, "peer-openblas-skx: cannot load a second OpenBLAS: %s", dl_error);
        return;
    }
    skx.handle = h;
    skx.sgemm = (__typeof__(skx.sgemm))dlsym(h, "cblas_sgemm");
    skx.set_threads = (__typeof__(skx.set_threads))dlsym(h, "openblas_set_num_threads");
    if (!skx.sgemm || !skx.set_threads) {
        skx_fail(PL_ERR_UNSUPPORTED, "peer-openblas-skx: %s lacks cblas_sgemm or "
                 "openblas_set_num_threads", path);
        return;
    }
    /* An unknown core name falls back to detection: make sure SkylakeX was taken. */
    char *(*corename)(void) = (char *(*)(void))dlsym(h, "openblas_get_corename");
    const char *core = corename ? corename() : NULL;
    if (core && strcasecmp(core, "SkylakeX") != 0) {
        skx_fail(PL_ERR_UNSUPPORTED, "peer-openblas-skx: OPENBLAS_CORETYPE=SkylakeX not taken, "
                 "this OpenBLAS chose core '%s'", core);
        return;
    }
    skx.status = PL_OK;
}

pl_status pl_gemm_peer_openblas_skx(const pl_run_args *a)
{
    /* SkylakeX kernels on a CPU without AVX-512 fault: never load them there. */
    if (!(pl_cpu_features() & PL_FEAT_AVX512))
        return pl_fail(PL_ERR_UNSUPPORTED, "peer-openblas-skx: no AVX-512 on this CPU");
    const pl_gemm_problem *p = a->problem;
    pl_status st = check_int_sizes(p, "peer-openblas-skx");
    if (st != PL_OK) return st;
    if (pthread_once(&skx.once, skx_load) != 0)
        return pl_fail(PL_ERR_INTERNAL, "peer-openblas-skx: pthread_once failed");
    if (skx.status != PL_OK) return pl_fail(skx.status, "%s", skx.error);
    skx.set_threads(a->ctx->threads);
    skx.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)p->M, (int)p->N, (int)p->K, p->alpha,
              a->data[0], (int)p->lda, a->data[1], (int)p->ldb, p->beta, a->data[2], (int)p->ldc);
    return PL_OK;
}
#endif
