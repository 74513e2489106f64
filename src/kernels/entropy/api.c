/* api.c: pl_entropy, the BLAS-like call: it checks the arguments and the values (a value >=
 * bins is refused, naming the first such pixel), picks the best rung the context can run (or
 * the one named), and hands the host arrays to the harness (pl_run_host), which moves them to
 * the device and back for a CUDA context. */
#include "core/core.h"
#include "kernels/entropy/entropy.h"
#include "parlab_rung.h"

pl_status pl_entropy_check_values(const uint8_t *values, int64_t H, int64_t W, int64_t ld, int bins)
{
    for (int64_t i = 0; i < H; i++) {
        const uint8_t *row = values + i * ld;
        uint8_t worst = 0;
        for (int64_t j = 0; j < W; j++) worst = row[j] > worst ? row[j] : worst; /* vectorizes */
        if (worst < bins) continue;
        for (int64_t j = 0; j < W; j++)
            if (row[j] >= bins)
                return pl_fail(PL_ERR_ARG, "entropy: value %d at pixel (row %lld, col %lld) is outside [0, %d)",
                               row[j], (long long)i, (long long)j, bins);
    }
    return PL_OK;
}

pl_status pl_entropy_variant_phases(pl_ctx *ctx, const char *variant, const int64_t *params,
                                   const pl_entropy_problem *p, const uint8_t *values, float *out,
                                   double phase_s[PL_N_PHASES])
{
    if (phase_s)
        for (int i = 0; i < PL_N_PHASES; i++) phase_s[i] = -1;
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_entropy: NULL context");
    const pl_variant *v = pl_variant_find(&pl_entropy_kernel, variant);
    if (!v) return pl_fail(PL_ERR_ARG, "entropy: unknown variant '%s'", variant ? variant : "(null)");
    pl_status s = pl_entropy_check(p);
    if (s != PL_OK) return s;
    if (!values || !out) return pl_fail(PL_ERR_ARG, "pl_entropy: NULL array");
    if ((s = pl_entropy_check_values(values, p->H, p->W, p->ld_in, p->bins)) != PL_OK) return s;
    void *host[2] = {(void *)values, out};
    return pl_run_host_phases(ctx, &pl_entropy_kernel, v, params, p, host, phase_s);
}

pl_status pl_entropy_variant(pl_ctx *ctx, const char *variant, const int64_t *params, int64_t H, int64_t W,
                             const uint8_t *values, int64_t ld, int k, int bins, int base2, float *out,
                             int64_t ld_out)
{
    pl_entropy_problem p = {H, W, k, bins, base2, ld, ld_out};
    return pl_entropy_variant_phases(ctx, variant, params, &p, values, out, NULL);
}

pl_status pl_entropy(pl_ctx *ctx, int64_t H, int64_t W, const uint8_t *values, int64_t ld, int k, int bins,
                     int base2, float *out, int64_t ld_out)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_entropy: NULL context");
    const char *best = pl_best_variant(ctx, &pl_entropy_kernel, NULL);
    if (!best) return pl_fail(PL_ERR_UNSUPPORTED, "pl_entropy: no entropy variant can run in this context");
    return pl_entropy_variant(ctx, best, NULL, H, W, values, ld, k, bins, base2, out, ld_out);
}

/* A user's rung (include/parlab_rung.h): the problem as pl_entropy's arguments. */
pl_status pl_entropy_call_user(void (*fn)(void), const pl_run_args *a)
{
    const pl_entropy_problem *p = a->problem;
    const uint8_t *values = a->data[0];
    float *out = a->data[1];
    if (a->stream)
        return pl_rung_returned(a, ((pl_rung_entropy_cuda)fn)(p->H, p->W, values, p->ld_in, p->k, p->bins, p->base2,
                                                              out, p->ld_out, (pl_rung_stream)a->stream));
    return pl_rung_returned(a, ((pl_rung_entropy)fn)(p->H, p->W, values, p->ld_in, p->k, p->bins, p->base2, out,
                                                     p->ld_out));
}
