/* test_scale.c: every CPU scale rung through the harness (seeded x, the float64 reference,
 * the element bound) on odd sizes, 1 and 2 threads, and with a given factor; the best-first
 * pick; a bad size named. Whatever cannot run here prints "skipped: <why>". */
#include "check.h"
#include "kernels/scale/scale.h"

#include <string.h>

static void check_rung(pl_ctx *ctx, const pl_variant *v, const char *size, const char *set)
{
    pl_pvalues pv;
    pl_pvalues_default(&pl_scale_kernel, &pv);
    if (set) CHECK(pl_pvalues_set(&pl_scale_kernel, &pv, NULL, set) == PL_OK, "--set %s: %s", set, pl_last_error());
    pl_problem_opts opts = {.seed = 7, .check = PL_CHECK_FULL};
    pl_problem *p = NULL;
    CHECK(pl_problem_create_opts(&p, &pl_scale_kernel, size, &pv, &opts) == PL_OK, "problem %s: %s", size,
          pl_last_error());
    if (!p) return;
    pl_bench_config cfg = {.warmup = 1, .repeats = 2};
    pl_result r;
    CHECK(pl_bench_variant(ctx, p, v, NULL, &cfg, &r) == PL_OK, "%s at %s: %s", v->name, size, pl_last_error());
    CHECK(r.verified, "%s at %s (%s): not verified, error %g", v->name, size, set ? set : "a=1.5", r.error);
    pl_problem_destroy(p);
}

int main(void)
{
    static const char *const sizes[] = {"1", "7", "8", "33", "1000", "1003"};
    for (int threads = 1; threads <= 2; threads++) {
        pl_ctx *ctx = NULL;
        CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, threads) == PL_OK, "cpu context: %s", pl_last_error());
        if (!ctx) break;
        for (int i = 0; i < pl_scale_kernel.n_variants; i++) {
            const pl_variant *v = pl_scale_kernel.ladder[i];
            char why[128];
            if (pl_variant_check(ctx, v, why, sizeof why) != PL_OK) {
                cpu_rung_may_skip(v, v->name, why);
                continue;
            }
            for (int s = 0; s < (int)(sizeof sizes / sizeof *sizes); s++) check_rung(ctx, v, sizes[s], NULL);
            check_rung(ctx, v, "1003", "a=-3.25");
        }
        const char *best = pl_best_variant(ctx, &pl_scale_kernel, NULL);
        const int avx2 = (pl_features() & PL_FEAT_AVX2) != 0;
        CHECK(best && !strcmp(best, avx2 ? "cpu-simd" : "cpu-naive"), "best CPU rung %s", best ? best : "none");
        pl_ctx_destroy(ctx);
    }
    pl_plan plan;
    CHECK(pl_problem_plan(&pl_scale_kernel, "4x4", NULL, PL_CHECK_AUTO, &plan) == PL_ERR_ARG &&
              strstr(pl_last_error(), "scale size '4x4'"),
          "a 2-D size is refused, naming it: %s", pl_last_error());
    return check_summary("scale");
}
