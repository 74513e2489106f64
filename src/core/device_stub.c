/* device_stub.c: device.h for builds without CUDA. No devices; every call that would need
 * one says so. */
#include "core/core.h"
#include "core/device.h"

static pl_status no_cuda(void) { return pl_fail(PL_ERR_NO_CUDA, "this parlab was built without CUDA"); }

int pl_dev_count(void) { return 0; }
const char *pl_dev_name(int device) { (void)device; return ""; }
int pl_dev_cc(int device) { (void)device; return 0; }
int pl_dev_sm_count(int device) { (void)device; return 0; }
pl_status pl_dev_select(int device) { (void)device; return no_cuda(); }
pl_status pl_dev_current(int *device) { *device = 0; return no_cuda(); }
pl_status pl_dev_stream_create(void **stream) { *stream = 0; return no_cuda(); }
void pl_dev_stream_destroy(void *stream) { (void)stream; }
pl_status pl_dev_malloc(void **p, size_t bytes) { (void)bytes; *p = 0; return no_cuda(); }
void pl_dev_free(void *p) { (void)p; }
pl_status pl_dev_h2d(void *d, const void *s, size_t b, void *st) { (void)d; (void)s; (void)b; (void)st; return no_cuda(); }
pl_status pl_dev_d2h(void *d, const void *s, size_t b, void *st) { (void)d; (void)s; (void)b; (void)st; return no_cuda(); }
pl_status pl_dev_d2d(void *d, const void *s, size_t b, void *st) { (void)d; (void)s; (void)b; (void)st; return no_cuda(); }
pl_status pl_dev_memset(void *p, int v, size_t b, void *st) { (void)p; (void)v; (void)b; (void)st; return no_cuda(); }
pl_status pl_dev_busy_wait(void *st, unsigned us) { (void)st; (void)us; return no_cuda(); }
pl_status pl_dev_copy_2d(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t r, void *st)
{
    (void)d, (void)dp, (void)s, (void)sp, (void)w, (void)r, (void)st;
    return no_cuda();
}
pl_status pl_dev_copy_rects(const pl_dev_rect_copy *c, int n, size_t e, void *st)
{
    (void)c, (void)n, (void)e, (void)st;
    return no_cuda();
}
pl_status pl_dev_sync(void *stream) { (void)stream; return no_cuda(); }
pl_status pl_dev_sync_device(void) { return no_cuda(); }
pl_status pl_dev_check(const char *what) { (void)what; return no_cuda(); }
pl_status pl_dev_event_create(void **ev) { *ev = 0; return no_cuda(); }
pl_status pl_dev_event_create_untimed(void **ev) { *ev = 0; return no_cuda(); }
void pl_dev_event_destroy(void *ev) { (void)ev; }
pl_status pl_dev_event_record(void *ev, void *st) { (void)ev; (void)st; return no_cuda(); }
pl_status pl_dev_stream_wait(void *st, void *ev) { (void)st; (void)ev; return no_cuda(); }
pl_status pl_dev_event_elapsed(void *a, void *b, double *s) { (void)a; (void)b; *s = 0; return no_cuda(); }

pl_status pl_dev_mem_info(size_t *free_bytes, size_t *total_bytes)
{
    *free_bytes = *total_bytes = 0;
    return pl_fail(PL_ERR_NO_CUDA, "this parlab was built without CUDA");
}
