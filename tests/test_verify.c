/* test_verify.c: the verifier itself. Deliberately broken variants must each be rejected:
 * one that computes a wrong value, one that skips an element, one that writes NaN, one that
 * writes into the row padding, and one that reads C when beta = 0. A correct one passes. */
#include "check.h"
#include "harness/harness.h"
#include "kernels/gemm/gemm.h"

#include <math.h>

static pl_status correct(const pl_run_args *a) { return pl_gemm_cpu_naive(a); }

static pl_status wrong_value(const pl_run_args *a)
{
    pl_status s = pl_gemm_cpu_naive(a);
    const pl_gemm_problem *p = a->problem;
    float *C = a->data[2];
    C[(p->M / 2) * p->ldc + p->N / 2] *= 1.01f; /* one element off by 1% */
    return s;
}

static pl_status skips_element(const pl_run_args *a)
{
    const pl_gemm_problem *p = a->problem;
    float *C = a->data[2];
    int64_t last = (p->M - 1) * p->ldc + p->N - 1;
    float keep = C[last];
    pl_status s = pl_gemm_cpu_naive(a);
    C[last] = keep; /* as if that output were never computed */
    return s;
}

static pl_status writes_nan(const pl_run_args *a)
{
    pl_status s = pl_gemm_cpu_naive(a);
    ((float *)a->data[2])[0] = NAN;
    return s;
}

static pl_status writes_padding(const pl_run_args *a)
{
    pl_status s = pl_gemm_cpu_naive(a);
    const pl_gemm_problem *p = a->problem;
    ((float *)a->data[2])[p->N] = 0.0f; /* first element after row 0: padding when ldc > N */
    return s;
}

/* Computes alpha*A*B + C whatever beta is: reads the poisoned C when beta = 0. */
static pl_status reads_c(const pl_run_args *a)
{
    const pl_gemm_problem *p = a->problem;
    pl_gemm_problem q = *p;
    q.beta = 1.0f;
    pl_run_args b = *a;
    b.problem = &q;
    return pl_gemm_cpu_naive(&b);
}

static pl_variant make(const char *name, pl_status (*run)(const pl_run_args *))
{
    pl_variant v = {name, "a test variant", PL_BACKEND_CPU, 0, 0, PL_PREC_FP32, NULL, 0, run};
    return v;
}

static int verifies(pl_ctx *ctx, const pl_variant *v, const char *size, double beta, double pad, double *err)
{
    double pv[3] = {1.0, beta, pad};
    pl_problem *p = NULL;
    pl_result r;
    r.verified = -1;
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    cfg.min_time_s = 0;
    pl_status st = pl_problem_create(&p, &pl_gemm_kernel, size, pv, 3);
    if (st == PL_OK) st = pl_bench_variant(ctx, p, v, NULL, &cfg, &r);
    CHECK(st == PL_OK, "%s: %s", v->name, pl_last_error());
    pl_problem_destroy(p);
    *err = r.error;
    return r.verified;
}

int main(void)
{
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 1) == PL_OK, "context: %s", pl_last_error());
    if (!ctx) return check_summary("verify");
    pl_variant good = make("correct", correct), wrong = make("wrong-value", wrong_value),
               skip = make("skips-element", skips_element), nan = make("writes-nan", writes_nan),
               pad = make("writes-padding", writes_padding), rc = make("reads-c", reads_c);
    double e;
    const char *sizes[] = {"64", "33x65x17", "200x300x100"};
    for (int i = 0; i < 3; i++) {
        for (double beta = 0; beta <= 1; beta += 1) {
            CHECK(verifies(ctx, &good, sizes[i], beta, 2, &e) == 1, "correct variant rejected at %s (error %g)", sizes[i], e);
            CHECK(verifies(ctx, &wrong, sizes[i], beta, 0, &e) == 0, "wrong value accepted at %s beta=%g (error %g)", sizes[i], beta, e);
            CHECK(verifies(ctx, &skip, sizes[i], beta, 0, &e) == 0, "skipped element accepted at %s beta=%g (error %g)", sizes[i], beta, e);
            CHECK(verifies(ctx, &nan, sizes[i], beta, 0, &e) == 0, "NaN accepted at %s beta=%g", sizes[i], beta);
            CHECK(verifies(ctx, &pad, sizes[i], beta, 4, &e) == 0, "padding write accepted at %s beta=%g", sizes[i], beta);
        }
        CHECK(verifies(ctx, &rc, sizes[i], 0, 0, &e) == 0, "reading C with beta = 0 accepted at %s", sizes[i]);
        CHECK(isinf(e), "reading the NaN-poisoned C gives an infinite error, got %g", e);
    }
    /* The verifier's arithmetic on hand-made tensors: exact mode counts mismatches. */
    int32_t a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 0, 4};
    pl_tensor ta = {"a", PL_I32, PL_OUT, 2, 2, 2, a}, tb = {"b", PL_I32, PL_OUT, 2, 2, 2, b};
    CHECK(pl_verify_tensor(&ta, &tb, 1) == 1.0, "exact: one mismatch");
    CHECK(pl_verify_tensor(&ta, &ta, 1) == 0.0, "exact: equal");
    pl_ctx_destroy(ctx);
    return check_summary("verify");
}
