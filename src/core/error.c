/* error.c: status names and the per-thread error message (like errno + strerror, but with
 * the problem's own words: "lda = 3 is smaller than K = 5"). */
#include "core/core.h"

#include <stdio.h>

/* Room for messages that name two file paths (PATH_MAX each on Linux is 4096: most are short). */
static _Thread_local char last_error[4096];

pl_status pl_fail(pl_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return s;
}

void pl_clear_error(void) { last_error[0] = '\0'; }

const char *pl_last_error(void) { return last_error; }

const char *pl_status_name(pl_status s)
{
    switch (s) {
    case PL_OK: return "ok";
    case PL_ERR_ARG: return "invalid argument";
    case PL_ERR_OVERFLOW: return "size overflow";
    case PL_ERR_NOMEM: return "out of host memory";
    case PL_ERR_DEVICE_NOMEM: return "out of device memory";
    case PL_ERR_NO_CUDA: return "no CUDA in this build";
    case PL_ERR_NO_GPU: return "no GPU";
    case PL_ERR_UNSUPPORTED: return "unsupported here";
    case PL_ERR_CUDA: return "CUDA error";
    case PL_ERR_IO: return "I/O error";
    case PL_ERR_FORMAT: return "bad file format";
    case PL_ERR_VERIFY: return "verification failed";
    case PL_ERR_TOO_BIG: return "problem too big for this machine";
    case PL_ERR_INTERNAL: return "internal error";
    case PL_ERR_CANCELLED: return "cancelled";
    }
    return "unknown status";
}

pl_status pl_rung_returned(const pl_run_args *a, int rc)
{
    if (rc == 0) return PL_OK;
    return pl_fail(PL_ERR_VERIFY, "%s returned %d (a rung returns 0 when it ran)",
                   a->variant ? a->variant->name : "the rung", rc);
}
