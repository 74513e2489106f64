/* plan.c: a problem before anything large is allocated. The kernel's problem struct made
 * from the size text (named sizes resolved) and the problem parameters, and from it the plan:
 * the problem's counts, which check runs (full or sampled), and the host and device memory the
 * harness will take. Whether that memory is there is fits.c's question. */
#include "core/core.h"
#include "harness/harness.h"

#include <stdlib.h>
#include <string.h>

/* The float64 reference runs at a few GFLOP/s per core (blocked, vectorized); a low guess
 * errs on the side of the sampled check. */
double pl_reference_rate(void) { return 2.0e9 * (double)(pl_cpu_cores() > 0 ? pl_cpu_cores() : 1); }

static int is_float(pl_dtype t) { return t == PL_F32 || t == PL_F64 || t == PL_BF16; }

/* calloc the kernel's struct and let the kernel fill it; pv NULL: the parameters' defaults. */
pl_status pl_spec_make(const pl_kernel *k, const char *size, const pl_pvalues *pv, void **spec)
{
    *spec = NULL;
    if (!size || !*size) return pl_fail(PL_ERR_ARG, "%s: empty size", k->name);
    pl_pvalues defaults;
    if (!pv) {
        pl_pvalues_default(k, &defaults);
        pv = &defaults;
    }
    void *s = calloc(1, k->problem_size);
    if (!s) return pl_fail(PL_ERR_NOMEM, "out of host memory");
    pl_status st = k->make_problem(s, pl_kernel_size(k, size), pv);
    if (st != PL_OK) {
        pl_spec_free(k, s);
        return st;
    }
    *spec = s;
    return PL_OK;
}

void pl_spec_free(const pl_kernel *k, void *spec)
{
    if (!spec) return;
    if (k->destroy_problem) k->destroy_problem(spec);
    free(spec);
}

pl_status pl_problem_plan(const pl_kernel *k, const char *size, const pl_pvalues *pv, pl_check check, pl_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    void *spec = NULL;
    pl_status s = pl_spec_make(k, size, pv, &spec);
    if (s == PL_OK) s = pl_plan_spec(k, spec, check, plan);
    pl_spec_free(k, spec);
    return s;
}

/* The counts from the kernel; AUTO picks the sampled check where the full reference would
 * take more than PL_FULL_CHECK_MAX_S; the memory from the operands' shapes. */
pl_status pl_plan_spec(const pl_kernel *k, const void *spec, pl_check check, pl_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    pl_tensor t[PL_MAX_OPERANDS];
    int n = 0;
    pl_status s = k->operands(spec, t, &n);
    if (s != PL_OK) return s;
    k->describe(spec, plan->desc, sizeof plan->desc);
    plan->work = k->work(spec);
    plan->ops = k->ops(spec);
    plan->bytes = k->bytes(spec);
    plan->ref_seconds = k->reference_ops ? k->reference_ops(spec) / pl_reference_rate() : 0;
    if (check == PL_CHECK_SAMPLE && !k->check_sampled)
        return pl_fail(PL_ERR_ARG, "%s has no sampled check: --verify full", k->name);
    if (check == PL_CHECK_AUTO)
        check = (k->check_sampled && plan->ref_seconds > PL_FULL_CHECK_MAX_S) ? PL_CHECK_SAMPLE : PL_CHECK_FULL;
    plan->check = check;
    /* Host: every operand once; per output a working copy and, for the full check, the
     * reference (float64 for floats) and the element scale (float64). Device: every operand,
     * a pristine copy of each in-out. */
    for (int i = 0; i < n && s == PL_OK; i++) {
        size_t b;
        if ((s = pl_tensor_bytes(&t[i], &b)) != PL_OK) break;
        double dense = (double)t[i].rows * (double)t[i].cols;
        plan->host_bytes += (double)b;
        plan->device_bytes += (double)b * (t[i].role == PL_INOUT ? 2 : 1);
        if (t[i].role == PL_IN) continue;
        plan->host_bytes += (double)b;
        if (check == PL_CHECK_FULL)
            plan->host_bytes += is_float(t[i].dtype) ? 16.0 * dense : dense * (double)pl_dtype_size(t[i].dtype);
    }
    return s;
}

/* The best rung for a size as `parlab bench --size` takes it: the problem made from the size
 * (and so checked) even where the pick does not read it. */
const char *pl_best_variant_size(const pl_ctx *ctx, const pl_kernel *k, const char *size)
{
    if (!ctx || !k) return NULL;
    if (!size) return pl_best_variant(ctx, k, NULL);
    void *problem = NULL;
    if (pl_spec_make(k, size, NULL, &problem) != PL_OK) return NULL;
    const char *best = pl_best_variant(ctx, k, problem);
    pl_spec_free(k, problem);
    return best;
}
