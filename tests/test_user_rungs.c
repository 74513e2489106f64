/* test_user_rungs.c: users' own rungs in the library: pl_user_rung_load's refusals (each a
 * usage error naming the rung), a library rung and a callback rung benched and verified like
 * the ladder's, marked as the user's; the extra checks (fresh inputs: a replaying rung fails;
 * the physical floor: a user row a quarter over its ceiling fails, a built-in one is flagged
 * only). The known-wrong library is tests/rungs/wrong.c (PL_WRONG_RUNGS_PATH). */
#include "check.h"
#include "harness/harness.h"

#include <string.h>

static const char *lib = PL_WRONG_RUNGS_PATH;

static void expect_refused(const pl_kernel *k, const char *fn, const char *name, int backend, const char *says)
{
    char spec[1024];
    snprintf(spec, sizeof spec, "%s%s%s", fn[0] == '/' || fn[0] == '.' ? "" : lib, fn[0] == '/' || fn[0] == '.' ? "" : ":", fn);
    pl_user_rung *r = NULL;
    pl_status s = pl_user_rung_load(&r, k, spec, name, backend);
    CHECK(s == PL_ERR_ARG && !r, "%s: status %d, expected a refusal", fn, (int)s);
    CHECK(strstr(pl_last_error(), says) != NULL, "%s: '%s' does not say '%s'", fn, pl_last_error(), says);
    pl_user_rung_free(r);
}

/* The bench of one rung on transpose SIZE: the result. */
static pl_status bench(const pl_variant *v, const char *size, pl_result *res)
{
    pl_ctx *ctx = NULL;
    pl_problem *p = NULL;
    pl_status s = pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 1);
    if (s == PL_OK) s = pl_problem_create(&p, pl_kernel_find("transpose"), size, NULL, 42);
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 3;
    if (s == PL_OK) s = pl_bench_variant(ctx, p, v, NULL, &cfg, res);
    pl_problem_destroy(p);
    pl_ctx_destroy(ctx);
    return s;
}

/* A callback rung: a transpose over the run's operands; counts its calls in its data. */
static pl_status callback_transpose(const pl_run_args *a)
{
    int *calls = pl_user_rung_data(a->variant);
    ++*calls;
    pl_tensor t[PL_MAX_OPERANDS];
    int n = 0;
    pl_kernel_find("transpose")->operands(a->problem, t, &n);
    const float *A = a->data[0];
    float *B = a->data[1];
    for (int64_t i = 0; i < t[0].rows; i++)
        for (int64_t j = 0; j < t[0].cols; j++) B[j * t[1].ld + i] = A[i * t[0].ld + j];
    return PL_OK;
}

int main(void)
{
    const pl_kernel *tr = pl_kernel_find("transpose"), *gemm = pl_kernel_find("gemm");

    /* Refusals, each naming what is wrong. */
    expect_refused(tr, "good_transpose", "", -1, "empty name");
    expect_refused(tr, "no_such_fn", NULL, -1, "no function no_such_fn");
    expect_refused(tr, "./no/such/library.so:f", NULL, -1, "cannot load the library");
    expect_refused(tr, "declared_gemm", NULL, -1, "declared as a gemm rung, not transpose");
    expect_refused(gemm, "declared_gemm", NULL, PL_BACKEND_CUDA, "but --rung-backend says cuda");
    expect_refused(tr, "bad_precision", NULL, -1, "declared precision 'fp16'");
    expect_refused(tr, "good_transpose", "cpu-naive", -1, "has a rung of that name already");
    expect_refused(tr, "good_transpose", "a,b", -1, "without commas");
    pl_user_rung *r = NULL;
    CHECK(pl_user_rung_load(&r, tr, "no-colon", NULL, -1) == PL_ERR_ARG &&
          strstr(pl_last_error(), "expected LIBRARY:FUNCTION"), "text without ':': %s", pl_last_error());

    /* A library rung: verified, marked, named by its function. */
    char spec[1024];
    snprintf(spec, sizeof spec, "%s:good_transpose", lib);
    CHECK(pl_user_rung_load(&r, tr, spec, NULL, -1) == PL_OK, "load good_transpose: %s", pl_last_error());
    const pl_variant *v = pl_user_rung_variant(r);
    CHECK(v && v->is_user && !strcmp(v->name, "good_transpose") && v->backend == PL_BACKEND_CPU &&
          v->precision == tr->ladder[0]->precision, "good_transpose's variant");
    CHECK(!strcmp(pl_user_rung_origin(r), spec), "origin '%s'", pl_user_rung_origin(r));
    pl_result res;
    CHECK(bench(v, "37x53", &res) == PL_OK && res.verified && !res.failed_why[0], "good_transpose verified: %s",
          res.failed_why);
    pl_user_rung_free(r);

    /* A replaying rung fails on the fresh inputs, saying so. */
    snprintf(spec, sizeof spec, "%s:replay_transpose", lib);
    CHECK(pl_user_rung_load(&r, tr, spec, "replay", -1) == PL_OK, "load replay: %s", pl_last_error());
    CHECK(bench(pl_user_rung_variant(r), "37x53", &res) == PL_OK && !res.verified &&
          strstr(res.failed_why, "fresh inputs"), "replay caught: verified %d, '%s'", res.verified, res.failed_why);
    pl_user_rung_free(r);

    /* A callback rung: its data reaches the run; verified. */
    int calls = 0;
    CHECK(pl_user_rung_callback(&r, tr, "cb", PL_BACKEND_CPU, PL_PREC_EXACT, callback_transpose, &calls) == PL_OK,
          "callback rung: %s", pl_last_error());
    CHECK(bench(pl_user_rung_variant(r), "64x31", &res) == PL_OK && res.verified, "callback rung verified");
    CHECK(calls >= 5, "callback called %d times (warm-up, 3 timed, fresh inputs)", calls);
    pl_user_rung_free(r);
    CHECK(pl_user_rung_callback(&r, tr, "cb", (pl_backend)7, PL_PREC_EXACT, callback_transpose, &calls) ==
              PL_ERR_ARG, "a callback rung of an unknown backend");

    /* The physical floor: a user row 30% over its ceiling fails, 10% over is only flagged (as
     * every row is), a built-in row 30% over is flagged, never failed. */
    pl_variant user = {.name = "mine", .is_user = 1}, builtin = {.name = "cpu-naive"};
    pl_result x;
    memset(&x, 0, sizeof x);
    x.variant = &user, x.verified = 1, x.ceiling_pct = 130, x.median_s = 1e-3;
    snprintf(x.ceiling_name, sizeof x.ceiling_name, "memory");
    pl_user_judge_floor(&x);
    CHECK(!x.verified && strstr(x.failed_why, "impossible"), "a user row at 130%%: '%s'", x.failed_why);
    memset(x.failed_why, 0, sizeof x.failed_why);
    x.verified = 1, x.ceiling_pct = 110;
    pl_user_judge_floor(&x);
    CHECK(x.verified && !x.failed_why[0], "a user row at 110%% is not failed");
    x.variant = &builtin, x.ceiling_pct = 130;
    pl_user_judge_floor(&x);
    CHECK(x.verified && !x.failed_why[0], "a built-in row is never failed by the floor");
    return check_summary("test_user_rungs");
}
