/* memcheck.c: a reader's size check against the host memory this process may take, before it
 * allocates (a header can claim terabytes). The query is core's (core/host_memory.c); apart
 * from file.c so that the fuzz targets, built without host_memory.c, can give their own
 * pl_host_memory_available. */
#include "io/io.h"

#include <inttypes.h>

pl_status pl_io_fits_memory(const char *path, int64_t bytes)
{
    double avail = pl_host_memory_available();
    if (avail > 0 && (double)bytes > avail)
        return pl_fail(PL_ERR_TOO_BIG,
                       "%s: too big: needs %" PRId64 " bytes of memory, this process may take %.0f",
                       path, bytes, avail);
    return PL_OK;
}
