/* peers.c: the CPU library parlab's GEMM is measured against, behind the same contract as
 * a rung: OpenBLAS's cblas_sgemm, with the context's thread count. peer-openblas is the
 * linked copy, on the core OpenBLAS detected, unless PARLAB_ISA_MAX hides AVX-512 from parlab
 * and that core is an AVX-512 one: then a private copy of the same file on its Haswell (AVX2)
 * kernels, so that both sides of the ratio run what an AVX2-only machine runs.
 * peer-openblas-skx is a private copy forced onto its SkylakeX (AVX-512) kernels. */
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

/* ---------------------------------------------------------------- private copies
 * OpenBLAS picks its core once, when it loads, from the CPU or OPENBLAS_CORETYPE. To have
 * another core in the same process, the linked file is loaded a second time with dlmopen into
 * a new link-map namespace (its own copy of OpenBLAS and of what it needs), with
 * OPENBLAS_CORETYPE set for that load only (setenv: other threads should not be reading the
 * environment during the first call). Each copy is loaded once, never unloaded (its threads
 * run in it). */

typedef struct openblas_copy {
    const char *who, *core; /* the peer that uses it; the OPENBLAS_CORETYPE it is loaded with */
    pthread_once_t once;
    pl_status status;
    char error[512];
    void *handle;
    __typeof__(cblas_sgemm) *sgemm;
    __typeof__(openblas_set_num_threads) *set_threads;
} openblas_copy;

static openblas_copy skx = {"peer-openblas-skx", "SkylakeX", PTHREAD_ONCE_INIT, PL_ERR_INTERNAL, "", NULL, NULL, NULL};
static openblas_copy haswell = {"peer-openblas", "Haswell", PTHREAD_ONCE_INIT, PL_ERR_INTERNAL, "", NULL, NULL, NULL};

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

static void copy_fail(openblas_copy *c, pl_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void copy_fail(openblas_copy *c, pl_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof c->error, fmt, ap);
    va_end(ap);
    c->status = s;
}

static void copy_load(openblas_copy *c)
{
    char path[4096];
    if (!openblas_path(path, sizeof path)) {
        copy_fail(c, PL_ERR_UNSUPPORTED, "%s: OpenBLAS is not loaded as a shared library (linked "
                  "statically?); a second copy on its %s core needs its file", c->who, c->core);
        return;
    }
    const char *old = getenv("OPENBLAS_CORETYPE");
    char *saved = old ? strdup(old) : NULL;
    if ((old && !saved) || setenv("OPENBLAS_CORETYPE", c->core, 1) != 0) {
        free(saved);
        copy_fail(c, PL_ERR_NOMEM, "%s: cannot set OPENBLAS_CORETYPE", c->who);
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
        copy_fail(c, PL_ERR_UNSUPPORTED, "%s: cannot load a second OpenBLAS: %s", c->who, dl_error);
        return;
    }
    c->handle = h;
    c->sgemm = (__typeof__(c->sgemm))dlsym(h, "cblas_sgemm");
    c->set_threads = (__typeof__(c->set_threads))dlsym(h, "openblas_set_num_threads");
    if (!c->sgemm || !c->set_threads) {
        copy_fail(c, PL_ERR_UNSUPPORTED, "%s: %s lacks cblas_sgemm or openblas_set_num_threads", c->who, path);
        return;
    }
    /* An unknown core name falls back to detection: make sure the core asked for was taken. */
    char *(*corename)(void) = (char *(*)(void))dlsym(h, "openblas_get_corename");
    const char *core = corename ? corename() : NULL;
    if (core && strcasecmp(core, c->core) != 0) {
        copy_fail(c, PL_ERR_UNSUPPORTED, "%s: OPENBLAS_CORETYPE=%s not taken, this OpenBLAS chose core '%s'",
                  c->who, c->core, core);
        return;
    }
    c->status = PL_OK;
}

static void skx_load(void) { copy_load(&skx); }
static void haswell_load(void) { copy_load(&haswell); }

/* cblas_sgemm of copy c (loaded by load, once) with the context's threads. */
static pl_status copy_sgemm(openblas_copy *c, void (*load)(void), const pl_run_args *a)
{
    const pl_gemm_problem *p = a->problem;
    if (pthread_once(&c->once, load) != 0) return pl_fail(PL_ERR_INTERNAL, "%s: pthread_once failed", c->who);
    if (c->status != PL_OK) return pl_fail(c->status, "%s", c->error);
    c->set_threads(pl_ctx_threads(a->ctx));
    c->sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)p->M, (int)p->N, (int)p->K, p->alpha, a->data[0],
             (int)p->lda, a->data[1], (int)p->ldb, p->beta, a->data[2], (int)p->ldc);
    return PL_OK;
}

/* ---------------------------------------------------------------- the peers */

/* The linked OpenBLAS chose an AVX-512 core that PARLAB_ISA_MAX hides from parlab. */
static int linked_core_hidden(void)
{
    if (!(pl_cpu_features_hidden() & PL_FEAT_AVX512)) return 0;
    const char *core = openblas_get_corename();
    return core && (!strcasecmp(core, "SkylakeX") || !strcasecmp(core, "Cooperlake") ||
                    !strcasecmp(core, "SapphireRapids"));
}

pl_status pl_gemm_peer_openblas(const pl_run_args *a)
{
    const pl_gemm_problem *p = a->problem;
    pl_status st = check_int_sizes(p, "peer-openblas");
    if (st != PL_OK) return st;
    if (linked_core_hidden()) return copy_sgemm(&haswell, haswell_load, a);
    openblas_set_num_threads(pl_ctx_threads(a->ctx));
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)p->M, (int)p->N, (int)p->K,
                p->alpha, a->data[0], (int)p->lda, a->data[1], (int)p->ldb, p->beta, a->data[2],
                (int)p->ldc);
    return PL_OK;
}

pl_status pl_gemm_peer_openblas_skx(const pl_run_args *a)
{
    /* SkylakeX kernels on a CPU without AVX-512 fault: never load them there. */
    if (!(pl_cpu_features() & PL_FEAT_AVX512))
        return pl_fail(PL_ERR_UNSUPPORTED, "peer-openblas-skx: no AVX-512 on this CPU");
    pl_status st = check_int_sizes(a->problem, "peer-openblas-skx");
    if (st != PL_OK) return st;
    return copy_sgemm(&skx, skx_load, a);
}
#endif
