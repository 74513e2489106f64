/* test_entropy.c: every CPU entropy rung against the float64 reference on the odd shapes and
 * the parameter grid (entropy_cases.h), the hand-worked cases through pl_entropy_variant, the
 * best variant through pl_entropy, and the argument checks. */
#include "entropy_cases.h"

#include <stdlib.h>

int main(void)
{
    pl_ctx *ctx = NULL;
    if (pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 0) != PL_OK) {
        fprintf(stderr, "context: %s\n", pl_last_error());
        return 1;
    }
    const pl_kernel *k = &pl_entropy_kernel;
    for (int i = 0; i < k->n_variants; i++) {
        const pl_variant *v = k->ladder[i];
        if (v->backend != PL_BACKEND_CPU) continue;
        check_entropy_all_params(ctx, v, N_ENTROPY_SHAPES);
        check_entropy_hand_cases(ctx, v->name, NULL);
    }

    /* pl_entropy picks the best rung and gives the same answer as the reference. */
    const char *best = pl_best_variant(ctx, pl_kernel_find("entropy"), NULL);
    CHECK(best && !strcmp(best, "cpu-sliding"), "best CPU variant: %s", best ? best : "(none)");
    enum { H = 45, W = 77 };
    static uint8_t img[H * W];
    static float out[H * (W + 2)];
    for (int i = 0; i < H * W; i++) img[i] = (uint8_t)((i * 2654435761u) >> 13) % 16;
    pl_status st = pl_entropy(ctx, H, W, img, W, 5, 16, 1, out, W + 2);
    CHECK(st == PL_OK, "pl_entropy: %s", pl_last_error());
    pl_entropy_problem p = {H, W, 5, 16, 1, W, W + 2};
    double worst = 0;
    for (int i = 0; i < H; i++)
        for (int j = 0; j < W; j++) {
            double d = fabs(out[i * (W + 2) + j] - pl_entropy_reference_at(&p, img, i, j, NULL));
            worst = d > worst ? d : worst;
        }
    CHECK(worst <= 1e-5, "pl_entropy: worst difference from the reference %g", worst);

    /* pl_run_host_phases on the CPU: the kernel phase is timed, the device phases do not apply. */
    double phase[PL_N_PHASES] = {7, 7, 7, 7};
    void *host[2] = {img, out};
    st = pl_run_host_phases(ctx, &pl_entropy_kernel, pl_variant_find(&pl_entropy_kernel, "cpu-histogram"), NULL, &p,
                            host, phase);
    CHECK(st == PL_OK && phase[PL_PHASE_KERNEL] > 0 && phase[PL_PHASE_KERNEL] < 10 && phase[PL_PHASE_ALLOC] == -1 &&
              phase[PL_PHASE_H2D] == -1 && phase[PL_PHASE_D2H] == -1,
          "pl_run_host_phases on the CPU: %s, phases %g %g %g %g", pl_status_name(st), phase[0], phase[1], phase[2],
          phase[3]);
    st = pl_entropy_variant_phases(ctx, "cpu-sliding", NULL, &p, img, out, phase);
    CHECK(st == PL_OK && phase[PL_PHASE_KERNEL] > 0 && phase[PL_PHASE_H2D] == -1, "pl_entropy_variant_phases: %s",
          pl_status_name(st));

    /* The sampled check (sizes whose full reference is slow): a run passes it, and one wrong
     * pixel in the border bands (random pixels cover 7% of this image), where the clipping is, is found and named. */
    {
        pl_problem *pr = NULL;
        pl_pvalues pv;
        pl_pvalues_default(&pl_entropy_kernel, &pv);
        pl_problem_opts opts = {5, PL_CHECK_SAMPLE, NULL, NULL};
        st = pl_problem_create_opts(&pr, &pl_entropy_kernel, "1000x900", &pv, &opts);
        CHECK(st == PL_OK && pl_problem_check(pr) == PL_CHECK_SAMPLE, "sampled problem: %s", pl_last_error());
        if (st == PL_OK) {
            pl_result r;
            pl_bench_config cfg;
            pl_bench_config_default(&cfg);
            cfg.repeats = 1;
            st = pl_bench_variant(ctx, pr, pl_variant_find(&pl_entropy_kernel, "cpu-sliding"), NULL, &cfg, &r);
            CHECK(st == PL_OK && r.verified && r.check == PL_CHECK_SAMPLE, "cpu-sliding, sampled check: %s, error %g",
                  pl_status_name(st), r.error);
            const pl_entropy_problem *sp = pl_problem_spec(pr);
            float *o = malloc(sizeof(float) * 1000 * 900);
            for (int i = 0; i < 1000; i++)
                for (int j = 0; j < 900; j++)
                    o[i * 900 + j] = (float)pl_entropy_reference_at(sp, pr->t[0].host, i, j, NULL);
            pl_tensor outs[2] = {pr->t[0], pr->t[1]};
            outs[1].host = o;
            pl_check_result res;
            st = pl_entropy_spec_check_sampled(sp, pr->t, 2, outs, PL_PREC_FP32, 9, &res);
            CHECK(st == PL_OK && res.elem_ratio <= 1 && res.checked > 65536, "sampled check of the reference: ratio %g",
                  res.elem_ratio);
            int bad[][2] = {{999, 450}, {0, 150}, {650, 2}, {997, 200}, {500, 897}};
            for (int b = 0; b < 5; b++) {
                float keep = o[bad[b][0] * 900 + bad[b][1]];
                o[bad[b][0] * 900 + bad[b][1]] += 1e-4f;
                st = pl_entropy_spec_check_sampled(sp, pr->t, 2, outs, PL_PREC_FP32, 9, &res);
                CHECK(st == PL_OK && res.elem_ratio > 1 && res.row == bad[b][0] && res.col == bad[b][1],
                      "sampled check: pixel (%d, %d) off by 1e-4 not found (ratio %g at %lld, %lld)", bad[b][0],
                      bad[b][1], res.elem_ratio, (long long)res.row, (long long)res.col);
                o[bad[b][0] * 900 + bad[b][1]] = keep;
            }
            free(o);
        }
        pl_problem_destroy(pr);
    }

    /* Arguments: each refused with a message naming it. */
    struct { int64_t H, W, ld; int k, bins, base2; int64_t ld_out; const char *says; } bad[] = {
        {0, 5, 5, 5, 16, 0, 5, "sizes"},  {5, 5, 5, 4, 16, 0, 5, "k = 4"},  {5, 5, 5, 65, 16, 0, 5, "k = 65"},
        {5, 5, 5, 5, 1, 0, 5, "bins = 1"}, {5, 5, 5, 5, 257, 0, 5, "bins = 257"}, {5, 5, 4, 5, 16, 0, 5, "ld_in"},
        {5, 5, 5, 5, 16, 0, 4, "ld_out"}, {5, 5, 5, 5, 16, 2, 5, "base2"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        st = pl_entropy(ctx, bad[i].H, bad[i].W, img, bad[i].ld, bad[i].k, bad[i].bins, bad[i].base2, out,
                        bad[i].ld_out);
        CHECK(st == PL_ERR_ARG && strstr(pl_last_error(), bad[i].says), "bad argument %zu: %s, '%s' (want '%s')", i,
              pl_status_name(st), pl_last_error(), bad[i].says);
    }
    st = pl_entropy_variant(ctx, "cpu-nope", NULL, 5, 5, img, 5, 5, 16, 0, out, 5);
    CHECK(st == PL_ERR_ARG && strstr(pl_last_error(), "cpu-nope"), "unknown variant: '%s'", pl_last_error());
    st = pl_entropy(ctx, 5, 5, NULL, 5, 5, 16, 0, out, 5);
    CHECK(st == PL_ERR_ARG, "NULL values: %s", pl_status_name(st));

    pl_ctx_destroy(ctx);
    return check_summary("test_entropy");
}
