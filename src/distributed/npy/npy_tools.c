/* npy_tools.c: the file tools' shared steps under mpirun (see npy_tools.h). */
#include "distributed/npy/npy_tools.h"

#include "core/core.h"
#include "core/device.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static int has_ext(const char *path, const char *ext)
{
    const size_t n = strlen(path), e = strlen(ext);
    return n > e && !strcasecmp(path + n - e, ext);
}

pl_status pl_dist_npy_only(const char *cmd, const char *const *inputs, int n_inputs, const char *out)
{
    pl_status s = PL_OK;
    for (int i = 0; i <= n_inputs && s == PL_OK; i++) {
        const char *path = i < n_inputs ? inputs[i] : out;
        if (path && (!strcmp(path, "-") || has_ext(path, ".pgm") || has_ext(path, ".png")))
            s = pl_fail(PL_ERR_ARG, "%s: %s: under mpirun the ranks read and write .npy files block by block "
                        "(MPI-IO); convert it to .npy, or run without mpirun", cmd, path);
    }
    return pl_dist_agree_status(s);
}

pl_status pl_dist_npy_header_of(const char *cmd, const char *path, const pl_dtype *types, int n, pl_dist_npy *h)
{
    pl_status s = pl_dist_npy_header(path, h);
    int ok = 0;
    for (int i = 0; i < n; i++) ok |= h->dtype == types[i];
    if (s == PL_OK && (h->rank != 2 || !ok)) {
        char names[64] = "";
        for (int i = 0; i < n; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? " or " : "",
                     pl_dtype_name(types[i]));
        s = pl_fail(PL_ERR_FORMAT, "%s: %s holds a %d-dimensional %s array; under mpirun %s takes a 2D %s matrix",
                    cmd, path, h->rank, pl_dtype_name(h->dtype), cmd, names);
    }
    return pl_dist_agree_status(s);
}

static double gib(double bytes) { return bytes / (1024.0 * 1024.0 * 1024.0); }

pl_status pl_dist_npy_read_mine(const char *cmd, const pl_dist_grid *g, const char *path, const pl_dist_npy *h,
                                void **block)
{
    const pl_dist_block b = pl_dist_block_of(g, h->shape[0], h->shape[1]);
    const int64_t n = (b.y1 - b.y0) * (b.x1 - b.x0);
    const double bytes = (double)n * (double)pl_dtype_size(h->dtype), avail = pl_host_memory_available();
    pl_status s = PL_OK;
    if (avail > 0 && bytes > avail)
        s = pl_fail(PL_ERR_TOO_BIG, "%s: this rank's block: about %.2f GiB of host memory, more than the %.2f GiB "
                    "this process may take (available memory and the cgroup limit)", cmd, gib(bytes), gib(avail));
    else if (!(*block = pl_alloc((size_t)n * pl_dtype_size(h->dtype))))
        s = pl_fail(PL_ERR_NOMEM, "%s: cannot allocate this rank's block of %s (%lld elements)", cmd, path,
                    (long long)n);
    if ((s = pl_dist_agree_status(s)) != PL_OK) return s;
    return pl_dist_agree_status(pl_dist_npy_read_block(g, path, h, *block, b.x1 - b.x0));
}

void pl_dist_share_node(long *threads, long *device)
{
    if (!*threads) *threads = pl_dist_threads_per_rank();
    if (!*device && pl_dev_count() > 1) *device = pl_dist_local_rank() % pl_dev_count();
}
