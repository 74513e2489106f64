/* context.c: the explicit context (backend, device, threads, and the services it holds for
 * the rungs: library handles, device and host workspaces, keyed per-context state) and what
 * the build and the machine offer. */
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
#ifdef PL_HAVE_SM90A
    if (pl_dev_cc(0) == 90) f |= PL_FEAT_SM90A;
#endif
#endif
#ifdef PL_HAVE_OPENBLAS
    f |= PL_FEAT_OPENBLAS;
#endif
#ifdef PL_HAVE_CUBLAS
    f |= PL_FEAT_CUBLAS;
#endif
#ifdef PL_HAVE_CUDNN
    f |= PL_FEAT_CUDNN;
#endif
    return f;
}

const char *pl_gpu_name(void) { return pl_dev_count() > 0 ? pl_dev_name(0) : ""; }

const char *pl_machine_summary(void)
{
    static char buf[512];
    unsigned f = pl_features();
    const char *isa = (f & PL_FEAT_AVX512) ? "AVX2 AVX-512" : (f & PL_FEAT_AVX2) ? "AVX2" : "no AVX2";
    const char *hidden = !pl_cpu_features_hidden() ? ""
                         : (f & PL_FEAT_AVX2) ? " (AVX-512 hidden by PARLAB_ISA_MAX)"
                                              : " (SIMD hidden by PARLAB_ISA_MAX)";
    char gpu[200] = "no GPU";
    if (f & PL_FEAT_GPU) {
        int cc = pl_dev_cc(0);
        snprintf(gpu, sizeof gpu, "GPU: %s (sm_%d, %d SMs)", pl_dev_name(0), cc, pl_dev_sm_count(0));
    }
    snprintf(buf, sizeof buf, "%s, %s%s, %d cores; %s; %s; OpenBLAS %s%s", pl_cpu_name(), isa, hidden,
             pl_cpu_cores(), (f & PL_FEAT_CUDA_BUILD) ? "CUDA build" : "no CUDA build", gpu,
             (f & PL_FEAT_OPENBLAS) ? "yes" : "no",
             !(f & PL_FEAT_CUDA_BUILD) ? "" : (f & PL_FEAT_CUDNN) ? "; cuDNN header yes" : "; cuDNN header no");
    return buf;
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
    if (threads > PL_MAX_THREADS) return pl_fail(PL_ERR_ARG, "threads = %d: more than %d", threads, PL_MAX_THREADS);
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
        c->sm_count = pl_dev_sm_count(device);
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

void pl_ctx_destroy(pl_ctx *c)
{
    if (!c) return;
    char msg[512]; /* the caller's error message outlives a failure while freeing */
    snprintf(msg, sizeof msg, "%s", pl_last_error());
    for (int i = 0; i < PL_CTX_STATE_SLOTS; i++) free(c->state[i].state);
    for (int i = 0; i < PL_CTX_HOST_WS_SLOTS; i++) pl_free(c->host_ws[i]);
    if (c->backend == PL_BACKEND_CUDA) {
        /* Handles, workspaces and the stream are freed with their device current; the caller's
         * current device is given back after. */
        int prev = -1;
        if (pl_dev_current(&prev) != PL_OK) prev = -1;
        pl_dev_select(c->device);
        if (c->stream) pl_dev_sync(c->stream);
        for (int i = 0; i < PL_CTX_HANDLE_SLOTS; i++)
            if (c->handle[i].h && c->handle[i].destroy) c->handle[i].destroy(c->handle[i].h);
        for (int i = 0; i < PL_CTX_DEV_WS_SLOTS; i++) pl_dev_free(c->dev_ws[i]);
        if (c->stream) pl_dev_stream_destroy(c->stream);
        if (prev >= 0 && prev != c->device) pl_dev_select(prev);
    } else {
        for (int i = 0; i < PL_CTX_HANDLE_SLOTS; i++)
            if (c->handle[i].h && c->handle[i].destroy) c->handle[i].destroy(c->handle[i].h);
    }
    pl_fail(PL_OK, "%s", msg);
    free(c);
}

pl_status pl_ctx_activate(const pl_ctx *c)
{
    if (!c) return pl_fail(PL_ERR_ARG, "pl_ctx_activate: NULL context");
    if (c->backend != PL_BACKEND_CUDA) return PL_OK;
    return pl_dev_select(c->device);
}

pl_status pl_ctx_handle(pl_ctx *c, int slot, pl_status (*create)(pl_ctx *, void **), void (*destroy)(void *),
                        void **h)
{
    if (slot < 0 || slot >= PL_CTX_HANDLE_SLOTS) return pl_fail(PL_ERR_ARG, "context handle slot %d", slot);
    if (!c->handle[slot].h) {
        void *made = NULL;
        pl_status s = create(c, &made);
        if (s != PL_OK) return s;
        c->handle[slot].h = made;
        c->handle[slot].destroy = destroy;
    }
    *h = c->handle[slot].h;
    return PL_OK;
}

pl_status pl_ctx_dev_workspace(pl_ctx *c, int slot, size_t bytes, void **p)
{
    *p = NULL;
    if (slot < 0 || slot >= PL_CTX_DEV_WS_SLOTS) return pl_fail(PL_ERR_ARG, "device workspace slot %d", slot);
    if (c->backend != PL_BACKEND_CUDA) return pl_fail(PL_ERR_ARG, "device workspace of a CPU context");
    if (bytes > c->dev_ws_bytes[slot] || !c->dev_ws[slot]) {
        pl_dev_free(c->dev_ws[slot]);
        c->dev_ws[slot] = NULL;
        c->dev_ws_bytes[slot] = 0;
        pl_status s = pl_dev_malloc(&c->dev_ws[slot], bytes);
        if (s != PL_OK) return s;
        c->dev_ws_bytes[slot] = bytes;
    }
    *p = c->dev_ws[slot];
    return PL_OK;
}

pl_status pl_ctx_host_workspace(pl_ctx *c, int slot, size_t bytes, void **p)
{
    *p = NULL;
    if (slot < 0 || slot >= PL_CTX_HOST_WS_SLOTS) return pl_fail(PL_ERR_ARG, "host workspace slot %d", slot);
    if (bytes > c->host_ws_bytes[slot] || !c->host_ws[slot]) {
        pl_free(c->host_ws[slot]);
        c->host_ws_bytes[slot] = 0;
        c->host_ws[slot] = pl_alloc(bytes ? bytes : 64);
        if (!c->host_ws[slot]) return pl_fail(PL_ERR_NOMEM, "host workspace of %zu bytes", bytes);
        c->host_ws_bytes[slot] = bytes;
    }
    *p = c->host_ws[slot];
    return PL_OK;
}

pl_status pl_ctx_state(pl_ctx *c, const void *key, size_t bytes, pl_status (*init)(pl_ctx *, void *), void **state)
{
    int i = 0;
    for (; i < PL_CTX_STATE_SLOTS && c->state[i].key; i++)
        if (c->state[i].key == key) {
            *state = c->state[i].state;
            return PL_OK;
        }
    *state = NULL;
    if (i == PL_CTX_STATE_SLOTS) return pl_fail(PL_ERR_INTERNAL, "context: more than %d rung states", PL_CTX_STATE_SLOTS);
    void *st = calloc(1, bytes ? bytes : 1);
    if (!st) return pl_fail(PL_ERR_NOMEM, "context: rung state of %zu bytes", bytes);
    pl_status s = init ? init(c, st) : PL_OK;
    if (s != PL_OK) {
        free(st);
        return s;
    }
    c->state[i].key = key;
    c->state[i].state = st;
    *state = st;
    return PL_OK;
}

pl_backend pl_ctx_backend(const pl_ctx *c) { return c->backend; }
int pl_ctx_threads(const pl_ctx *c) { return c->threads; }
int pl_ctx_device(const pl_ctx *c) { return c->device; }

void pl_ctx_set_cancel(pl_ctx *c, const volatile int *flag)
{
    if (c) c->cancel = flag;
}

int pl_ctx_cancelled(const pl_ctx *c)
{
    return c && c->cancel && __atomic_load_n(c->cancel, __ATOMIC_RELAXED) != 0;
}

pl_status pl_ctx_set_threads(pl_ctx *c, int threads)
{
    if (threads <= 0) return pl_fail(PL_ERR_ARG, "threads = %d: must be >= 1", threads);
    if (threads > PL_MAX_THREADS) return pl_fail(PL_ERR_ARG, "threads = %d: more than %d", threads, PL_MAX_THREADS);
    c->threads = threads;
    (void)omp_get_max_threads;
    return PL_OK;
}
