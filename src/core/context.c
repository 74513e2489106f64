/* context.c: the explicit context (backend, device, threads) and what the build and the
 * machine offer. */
#include "core/core.h"
#include "core/device.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned pl_features(void)
{
    unsigned f = pl_cpu_features();
#ifdef PL_HAVE_CUDA
    f |= PL_FEAT_CUDA_BUILD;
    if (pl_dev_count() > 0) f |= PL_FEAT_GPU;
#endif
#ifdef PL_HAVE_OPENBLAS
    f |= PL_FEAT_OPENBLAS;
#endif
#ifdef PL_HAVE_CUBLAS
    f |= PL_FEAT_CUBLAS;
#endif
    return f;
}

const char *pl_gpu_name(void) { return pl_dev_count() > 0 ? pl_dev_name(0) : ""; }

const char *pl_machine_summary(void)
{
    static char buf[512];
    unsigned f = pl_features();
    const char *isa = (f & PL_FEAT_AVX512) ? "AVX2 AVX-512" : (f & PL_FEAT_AVX2) ? "AVX2" : "no AVX2";
    char gpu[200] = "no GPU";
    if (f & PL_FEAT_GPU) {
        int cc = pl_dev_cc(0);
        snprintf(gpu, sizeof gpu, "GPU: %s (sm_%d, %d SMs)", pl_dev_name(0), cc, pl_dev_sm_count(0));
    }
    snprintf(buf, sizeof buf, "%s, %s, %d cores; %s; %s; OpenBLAS %s", pl_cpu_name(), isa,
             pl_cpu_cores(), (f & PL_FEAT_CUDA_BUILD) ? "CUDA build" : "no CUDA build", gpu,
             (f & PL_FEAT_OPENBLAS) ? "yes" : "no");
    return buf;
}

const char *pl_backend_name(pl_backend b)
{
    switch (b) {
    case PL_BACKEND_AUTO: return "auto";
    case PL_BACKEND_CPU: return "cpu";
    case PL_BACKEND_CUDA: return "cuda";
    }
    return "?";
}

static int default_threads(void)
{
    const char *env = getenv("OMP_NUM_THREADS");
    if (env && atoi(env) > 0) return atoi(env);
    return pl_cpu_cores();
}

pl_status pl_ctx_create(pl_ctx **out, pl_backend backend, int device, int threads)
{
    if (!out) return pl_fail(PL_ERR_ARG, "pl_ctx_create: NULL output pointer");
    *out = NULL;
    if (backend != PL_BACKEND_AUTO && backend != PL_BACKEND_CPU && backend != PL_BACKEND_CUDA)
        return pl_fail(PL_ERR_ARG, "unknown backend %d", (int)backend);
    if (device < 0) return pl_fail(PL_ERR_ARG, "device %d: must be >= 0", device);
    int ndev = pl_dev_count();
    if (backend == PL_BACKEND_AUTO) backend = ndev > 0 ? PL_BACKEND_CUDA : PL_BACKEND_CPU;
    if (backend == PL_BACKEND_CUDA) {
        if (!(pl_features() & PL_FEAT_CUDA_BUILD))
            return pl_fail(PL_ERR_NO_CUDA, "this parlab was built without CUDA");
        if (ndev == 0) return pl_fail(PL_ERR_NO_GPU, "no usable CUDA GPU on this machine");
        if (device >= ndev)
            return pl_fail(PL_ERR_ARG, "device %d: this machine has %d GPU(s)", device, ndev);
    }
    pl_ctx *c = calloc(1, sizeof *c);
    if (!c) return pl_fail(PL_ERR_NOMEM, "out of memory creating a context");
    c->backend = backend;
    c->device = device;
    c->threads = threads > 0 ? threads : default_threads();
    if (backend == PL_BACKEND_CUDA) {
        pl_status s = pl_dev_select(device);
        if (s == PL_OK) s = pl_dev_stream_create(&c->stream);
        if (s != PL_OK) {
            free(c);
            return s;
        }
    }
    *out = c;
    return PL_OK;
}

/* The cuBLAS handle is owned by the peers' file; it registers its destructor here. */
void (*pl_ctx_cublas_destroy)(void *handle);

void pl_ctx_destroy(pl_ctx *c)
{
    if (!c) return;
    if (c->cublas && pl_ctx_cublas_destroy) pl_ctx_cublas_destroy(c->cublas);
    if (c->stream) pl_dev_stream_destroy(c->stream);
    free(c);
}

pl_backend pl_ctx_backend(const pl_ctx *c) { return c->backend; }
int pl_ctx_threads(const pl_ctx *c) { return c->threads; }
int pl_ctx_device(const pl_ctx *c) { return c->device; }

pl_status pl_ctx_set_threads(pl_ctx *c, int threads)
{
    if (threads <= 0) return pl_fail(PL_ERR_ARG, "threads = %d: must be >= 1", threads);
    if (threads > 1024) return pl_fail(PL_ERR_ARG, "threads = %d: more than 1024", threads);
    c->threads = threads;
    (void)omp_get_max_threads;
    return PL_OK;
}
