/* tool_dist.c: the file tools' shared steps under mpirun (see tool_dist.h). */
#include "cli/tool_dist.h"

#include "core/core.h"
#include "core/device.h"

#include <string.h>
#include <strings.h>

static int has_ext(const char *path, const char *ext)
{
    const size_t n = strlen(path), e = strlen(ext);
    return n > e && !strcasecmp(path + n - e, ext);
}

int tool_dist_npy_only(const char *cmd, const char *const *inputs, int n_inputs, const char *out)
{
    int rc = PL_EXIT_OK;
    for (int i = 0; i <= n_inputs && rc == PL_EXIT_OK; i++) {
        const char *path = i < n_inputs ? inputs[i] : out;
        if (!path) continue;
        if (!strcmp(path, "-") || has_ext(path, ".pgm") || has_ext(path, ".png")) {
            cli_error("%s: %s: under mpirun the ranks read and write .npy files block by block (MPI-IO); convert "
                      "it to .npy, or run without mpirun", cmd, path);
            rc = PL_EXIT_USAGE;
        }
    }
    return cli_agree(rc);
}

int tool_dist_header(const char *cmd, const char *path, const pl_dtype *types, int n, pl_dist_npy *h)
{
    const pl_status s = pl_dist_npy_header(path, h);
    if (s != PL_OK) return cli_agree(cli_fail(s));
    int ok = 0;
    for (int i = 0; i < n; i++) ok |= h->dtype == types[i];
    if (h->rank != 2 || !ok) {
        char names[64] = "";
        for (int i = 0; i < n; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? " or " : "",
                     pl_dtype_name(types[i]));
        cli_error("%s: %s holds a %d-dimensional %s array; under mpirun %s takes a 2D %s matrix", cmd, path, h->rank,
                  pl_dtype_name(h->dtype), cmd, names);
        return cli_agree(PL_EXIT_FAIL);
    }
    return cli_agree(PL_EXIT_OK);
}

int tool_dist_read(const char *cmd, const pl_dist_grid *g, const char *path, const pl_dist_npy *h, void **block)
{
    const pl_dist_block b = pl_dist_block_of(g, h->shape[0], h->shape[1]);
    const int64_t n = (b.y1 - b.y0) * (b.x1 - b.x0);
    int rc = tool_fits_host(cmd, "this rank's block", (double)n * (double)pl_dtype_size(h->dtype));
    if (rc == PL_EXIT_OK && !(*block = pl_alloc((size_t)n * pl_dtype_size(h->dtype)))) {
        cli_error("%s: cannot allocate this rank's block of %s (%lld elements)", cmd, path, (long long)n);
        rc = PL_EXIT_FAIL;
    }
    if ((rc = cli_agree(rc)) != PL_EXIT_OK) return rc;
    return tool_dist_status(pl_dist_npy_read_block(g, path, h, *block, b.x1 - b.x0));
}

int tool_dist_context(const pl_kernel *k, const tool_common *c, const pl_variant *v, pl_ctx **ctx)
{
    tool_common co = *c;
    if (!co.threads) co.threads = pl_dist_threads_per_rank();
    if (!co.device && pl_dev_count() > 1) co.device = pl_dist_local_rank() % pl_dev_count(); /* a GPU each */
    return cli_agree(tool_context(k, NULL, &co, v, ctx));
}

int tool_dist_status(pl_status s) { return cli_agree(s == PL_OK ? PL_EXIT_OK : cli_fail(s)); }

void tool_dist_report(const pl_dist_times *mine)
{
    const pl_dist_times most = pl_dist_times_max(mine);
    printf("ranks (the slowest's): compute %.3f ms, exchange %.3f ms, wait %.3f ms\n", most.compute * 1e3,
           most.exchange * 1e3, most.wait * 1e3);
}

int tool_dist_parsed(int rc)
{
    const int agreed = cli_agree(rc == CLI_GO_ON ? PL_EXIT_OK : rc);
    return rc != CLI_GO_ON ? rc : agreed ? agreed : CLI_GO_ON;
}
