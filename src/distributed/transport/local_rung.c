/* local_rung.c: which local rung a rank of a distributed call runs, and whether it can (see
 * collective.h): a rank's own part of a call's checks, agreed with the others afterwards. */
#include "core/core.h"
#include "distributed/transport/collective.h"

pl_status pl_dist_rung_check(pl_ctx *ctx, const pl_kernel *k, const char *best, const char **name)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "%s: NULL context", k->name);
    if (!*name && !(*name = best)) return pl_fail(PL_ERR_UNSUPPORTED, "%s: no variant can run in this context", k->name);
    const pl_variant *v = pl_variant_find(k, *name);
    if (!v) return pl_fail(PL_ERR_ARG, "%s: unknown variant '%s'", k->name, *name);
    char why[128];
    const pl_status st = pl_variant_check(ctx, v, why, sizeof why);
    if (st != PL_OK) return pl_fail(st, "%s: %s cannot run here: %s", k->name, *name, why);
    return PL_OK;
}

const pl_variant *pl_dist_cuda_rung(pl_ctx *ctx, const pl_kernel *k, const char *best, const char *name)
{
    if (!ctx || pl_ctx_backend(ctx) != PL_BACKEND_CUDA) return NULL;
    if (pl_dist_rung_check(ctx, k, best, &name) != PL_OK) return NULL; /* the host path says why */
    const pl_variant *v = pl_variant_find(k, name);
    return v && v->backend == PL_BACKEND_CUDA ? v : NULL;
}
