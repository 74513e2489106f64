/* ctxpool.c: contexts for calls. A pl_ctx holds a rung's workspaces and handles and is one
 * thread's at a time, so each call takes one from a pool keyed by (backend, device, threads,
 * stream) and gives it back; calls from many Python threads at once each hold their own. A
 * CUDA context is only ever used with one caller's stream, so work queued on that stream
 * never shares the context's workspaces with work on another. Contexts live until exit. */
#include "ext.h"

#include <pthread.h>
#include <stdlib.h>

struct plx_ctx {
    pl_ctx *ctx;
    int backend, device, threads;
    void *stream;
    struct plx_ctx *next; /* the free list */
};

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static plx_ctx *pool_free;

plx_ctx *plx_ctx_take(int backend, int device, int threads, void *stream)
{
    pthread_mutex_lock(&pool_lock);
    plx_ctx **pp = &pool_free;
    while (*pp && !((*pp)->backend == backend && (*pp)->device == device && (*pp)->threads == threads &&
                    (*pp)->stream == stream))
        pp = &(*pp)->next;
    plx_ctx *c = *pp;
    if (c) *pp = c->next;
    pthread_mutex_unlock(&pool_lock);
    if (c) return c;
    c = calloc(1, sizeof *c);
    if (!c) return (plx_ctx *)PyErr_NoMemory();
    pl_status s;
    Py_BEGIN_ALLOW_THREADS
    s = pl_ctx_create(&c->ctx, (pl_backend)backend, device, threads);
    Py_END_ALLOW_THREADS
    if (s != PL_OK) {
        free(c);
        return (plx_ctx *)plx_raise(s);
    }
    c->backend = backend;
    c->device = device;
    c->threads = threads;
    c->stream = stream;
    return c;
}

pl_ctx *plx_ctx_get(plx_ctx *c) { return c->ctx; }

void plx_ctx_give(plx_ctx *c)
{
    if (!c) return;
    pl_ctx_set_cancel(c->ctx, NULL);
    pthread_mutex_lock(&pool_lock);
    c->next = pool_free;
    pool_free = c;
    pthread_mutex_unlock(&pool_lock);
}
