/* tool_run.c: one call of a kernel on a file tool's problem (`parlab gemm A.npy B.npy`, ...):
 * the context, the rung (the named variant, else the best for the problem) and the call,
 * timed. The tool holds no reference and no working copies, so with CUDA only the operands
 * must fit the device. */
#include "core/core.h"
#include "harness/harness.h"

pl_status pl_tool_context(const pl_kernel *k, const void *problem, pl_backend backend, int device, int threads,
                          const pl_variant *v, pl_ctx **ctx)
{
    pl_status s = pl_ctx_create(ctx, backend, device, threads);
    if (s != PL_OK) return s;
    if (v && (s = pl_variant_check(*ctx, v, NULL, 0)) != PL_OK) return s; /* a CPU variant with a CUDA context */
    if (pl_ctx_backend(*ctx) != PL_BACKEND_CUDA || !problem) return PL_OK;
    pl_plan plan;
    if ((s = pl_plan_spec(k, problem, PL_CHECK_AUTO, &plan)) != PL_OK) return s;
    plan.host_bytes = 0; /* no reference, no working copies */
    return pl_plan_fits(&plan, *ctx);
}

pl_status pl_tool_run(const pl_kernel *k, const void *problem, pl_backend backend, int device, int threads,
                      const pl_variant *v, pl_rung_call run, void *user, const char **ran, double *ms)
{
    pl_ctx *ctx = NULL;
    pl_status s = pl_tool_context(k, problem, backend, device, threads, v, &ctx);
    if (s == PL_OK) {
        *ran = !problem ? "none (empty)" : v ? v->name : pl_best_variant(ctx, k, problem);
        if (!*ran) s = pl_fail(PL_ERR_UNSUPPORTED, "%s: no %s variant can run here", k->name, k->name);
    }
    if (s == PL_OK) {
        const double t0 = pl_now();
        s = run(ctx, problem ? *ran : NULL, user);
        *ms = (pl_now() - t0) * 1e3;
    }
    pl_ctx_destroy(ctx);
    return s;
}
