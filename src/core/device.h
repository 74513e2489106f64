/* device.h: the few CUDA runtime calls the harness needs, behind a C interface.
 * Built from device.cu when CUDA is enabled, from device_stub.c (every call answers
 * PL_ERR_NO_CUDA) when it is not, so host code never includes a CUDA header. */
#ifndef PL_DEVICE_H
#define PL_DEVICE_H

#include "parlab.h"
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int pl_dev_count(void);                   /* usable CUDA devices; 0 without CUDA or GPU */
const char *pl_dev_name(int device);      /* "" when none */
int pl_dev_cc(int device);                /* compute capability, 90 for sm_90; 0 when none */
int pl_dev_sm_count(int device);
pl_status pl_dev_select(int device);       /* cudaSetDevice on the calling thread */
pl_status pl_dev_current(int *device);    /* cudaGetDevice of the calling thread */
pl_status pl_dev_stream_create(void **stream);
void pl_dev_stream_destroy(void *stream);
pl_status pl_dev_malloc(void **p, size_t bytes);
void pl_dev_free(void *p);
pl_status pl_dev_h2d(void *dst, const void *src, size_t bytes, void *stream);
pl_status pl_dev_d2h(void *dst, const void *src, size_t bytes, void *stream);
pl_status pl_dev_d2d(void *dst, const void *src, size_t bytes, void *stream);
pl_status pl_dev_memset(void *p, int byte, size_t bytes, void *stream);
/* rows rows of width bytes, pitches in bytes, either side on the host or the device
 * (cudaMemcpy2DAsync, the direction from the pointers): a block in or out of a window. */
pl_status pl_dev_copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t rows,
                         void *stream);
/* Up to PL_DEV_MAX_RECTS rectangles of elem-byte elements copied between device arrays in one
 * launch (halo strips packed out of a window, or unpacked into it): copy i moves rows x cols
 * elements from src (rows sld elements apart) to dst (dld apart). The rectangles must not
 * overlap each other's destinations. */
enum { PL_DEV_MAX_RECTS = 8 };
typedef struct pl_dev_rect_copy {
    void *dst;
    const void *src;
    int64_t dld, sld, rows, cols;
} pl_dev_rect_copy;
pl_status pl_dev_copy_rects(const pl_dev_rect_copy *copies, int n, size_t elem, void *stream);
pl_status pl_dev_sync(void *stream);
/* Every stream of the current device finished (cudaDeviceSynchronize): a user's rung may have
 * left work on a stream other than the one it was given. */
pl_status pl_dev_sync_device(void);
/* Free and total memory of the current device (cudaMemGetInfo). */
pl_status pl_dev_mem_info(size_t *free_bytes, size_t *total_bytes);
/* Queue on stream a one-thread kernel that keeps the GPU busy for `microseconds` (it spins on
 * the global timer). Queued before a start event, it lets the host launch what follows while
 * the GPU is still busy, so the event pair times the device's work, not the host's launch. */
pl_status pl_dev_busy_wait(void *stream, unsigned microseconds);
/* The last launch's error (cudaGetLastError) as a status with a message. */
pl_status pl_dev_check(const char *what);

/* Events: time between two records on a stream, in seconds. */
pl_status pl_dev_event_create(void **ev);
/* An event for ordering streams only (no timing: cheaper to record and wait on). */
pl_status pl_dev_event_create_untimed(void **ev);
void pl_dev_event_destroy(void *ev);
pl_status pl_dev_event_record(void *ev, void *stream);
/* Work queued on stream after this waits for ev (cudaStreamWaitEvent; stream NULL: the
 * legacy default stream). */
pl_status pl_dev_stream_wait(void *stream, void *ev);
pl_status pl_dev_event_elapsed(void *start, void *stop, double *seconds);

#ifdef __cplusplus
}
#endif
#endif
