/* test_verify.c: the verifier itself. Deliberately broken variants must each be rejected:
 * one that computes a wrong value, one that skips an element, one that writes NaN, one that
 * writes into the row padding, one that reads C when beta = 0, one element off by less than
 * the whole-output (Frobenius) bound notices, one that computes only on its first call, one
 * wrong only on its first call, one that writes into its input (an early element, and the
 * last one, in the checksum's trailing words); each under the full and the sampled check. A
 * correct one passes both. An output not 0 where its element bound is 0 (a zero row of A)
 * fails. Also: the timed path's statistics, the flag above a ceiling, plans that do not fit,
 * sweeps and the best pick. */
#include "check.h"
#include "harness/harness.h"
#include "kernels/gemm/gemm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* One element off by 0.01 in absolute terms: at 256 the relative Frobenius error is ~7e-6,
 * under its bound 8.1e-6, but the element is ~10x over gamma_K (|A||B|)_ij. */
static pl_status one_element_off(const pl_run_args *a)
{
    pl_status s = pl_gemm_cpu_naive(a);
    const pl_gemm_problem *p = a->problem;
    ((float *)a->data[2])[5 * p->ldc + 7] += 0.01f;
    return s;
}

/* Element [5, 7] set to the float64 result plus bound_factor times its own element bound
 * (gamma_(K+2) |alpha| (|A||B|)_57, beta = 0): the check's tolerance measured from both
 * sides, 2x over (must fail) and 0.5x (must pass), not only by one far case. */
static double bound_factor;
static pl_status off_by_bound(const pl_run_args *a)
{
    pl_status s = pl_gemm_cpu_naive(a);
    const pl_gemm_problem *p = a->problem;
    const float *A = a->data[0], *B = a->data[1];
    double ref = 0, mag = 0;
    for (int64_t k = 0; k < p->K; k++) {
        ref += (double)A[5 * p->lda + k] * B[k * p->ldb + 7];
        mag += fabs((double)A[5 * p->lda + k] * B[k * p->ldb + 7]);
    }
    double bound = pl_gemm_kernel.elem_bound(p, PL_PREC_FP32, NULL) * fabs((double)p->alpha) * mag;
    ((float *)a->data[2])[5 * p->ldc + 7] = (float)(p->alpha * ref + bound_factor * bound);
    return s;
}

/* Computes on its first call only, then returns at once (the "1,844,122% of peak" case). */
static int once_calls;
static pl_status computes_once(const pl_run_args *a)
{
    if (once_calls++ > 0) return PL_OK;
    return pl_gemm_cpu_naive(a);
}

/* A correct result, but it zeroes an element of A afterwards. */
static pl_status writes_input(const pl_run_args *a)
{
    pl_status s = pl_gemm_cpu_naive(a);
    ((float *)a->data[0])[3] = 0.0f;
    return s;
}

/* A correct result, but it changes A's last element afterwards: at 30x30x30 A spans 450
 * 8-byte words, not a multiple of the checksum's four lanes, so that element lies in the
 * words after the lanes (the checksum must hash them too). */
static pl_status writes_input_last(const pl_run_args *a)
{
    pl_status s = pl_gemm_cpu_naive(a);
    const pl_gemm_problem *p = a->problem;
    ((float *)a->data[0])[(p->M - 1) * p->lda + p->K - 1] += 1.0f;
    return s;
}

/* Wrong on its first call only (one element 1% off), right on every later one: the verdict
 * must take the first (warm-up) run's check, not only the last one's. */
static int wrong_first_calls;
static pl_status wrong_first(const pl_run_args *a)
{
    return wrong_first_calls++ == 0 ? wrong_value(a) : pl_gemm_cpu_naive(a);
}

/* A GEMM whose A has row 5 all zeros: (|A||B|)_5j = 0, so every element of C's row 5 has an
 * element bound of 0 (beta = 0) and must be exactly 0. */
static void fill_zero_row(const void *problem, pl_tensor *t, int n, uint64_t seed)
{
    pl_gemm_spec_fill(problem, t, n, seed);
    const pl_gemm_problem *p = problem;
    memset((float *)t[0].host + 5 * p->lda, 0, sizeof(float) * (size_t)p->K);
}

/* Correct, then C[5, 7] (where the bound is 0) set to 1e-3: far under the whole-output
 * (Frobenius) bound, but an element over a zero bound is infinitely over it. */
static pl_status off_on_zero_bound(const pl_run_args *a)
{
    pl_status s = pl_gemm_cpu_naive(a);
    const pl_gemm_problem *p = a->problem;
    ((float *)a->data[2])[5 * p->ldc + 7] = 1e-3f;
    return s;
}

static pl_variant make(const char *name, pl_status (*run)(const pl_run_args *))
{
    pl_variant v = {name, "a test variant", PL_BACKEND_CPU, 0, 0, PL_PREC_FP32, NULL, 0, run, NULL, 0, 0, NULL};
    return v;
}

/* Run v on a fresh problem with the given check; returns the result. */
static pl_result bench_with_beta(pl_ctx *ctx, const pl_variant *v, const char *size, pl_check check, int repeats,
                                 double beta, double pad);
static pl_result bench_with(pl_ctx *ctx, const pl_variant *v, const char *size, pl_check check, int repeats)
{
    return bench_with_beta(ctx, v, size, check, repeats, 0, 0);
}

static pl_result bench_with_beta(pl_ctx *ctx, const pl_variant *v, const char *size, pl_check check, int repeats,
                                 double beta, double pad)
{
    pl_pvalues pv;
    pl_pvalues_default(&pl_gemm_kernel, &pv);
    pv.num[1] = beta;
    pv.num[2] = pad;
    pl_problem *p = NULL;
    pl_result r;
    memset(&r, 0, sizeof r);
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = repeats;
    cfg.min_time_s = 0;
    pl_problem_opts o = {7, check, NULL, NULL};
    pl_status st = pl_problem_create_opts(&p, &pl_gemm_kernel, size, &pv, &o);
    if (st == PL_OK) st = pl_bench_variant(ctx, p, v, NULL, &cfg, &r);
    CHECK(st == PL_OK, "%s %s: %s", v->name, size, pl_last_error());
    CHECK(p && pl_problem_check(p) == check, "%s: the check that ran is not the one asked for", v->name);
    pl_problem_destroy(p);
    return r;
}

static int verifies(pl_ctx *ctx, const pl_variant *v, const char *size, double beta, double pad, double *err)
{
    double pv[PL_GEMM_PROBLEM_N_PARAMS] = {1.0, beta, pad, PL_GEMM_DTYPE_F32};
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
    /* Both checks, full and sampled, reject every broken variant and pass the correct one. */
    pl_variant off = make("one-element-off", one_element_off), once = make("computes-once", computes_once),
               win = make("writes-input", writes_input), win_last = make("writes-input-last", writes_input_last),
               first_wrong = make("wrong-first-call", wrong_first);
    const pl_check checks[2] = {PL_CHECK_FULL, PL_CHECK_SAMPLE};
    for (int c = 0; c < 2; c++) {
        const char *cn = pl_check_name(checks[c]);
        pl_result r = bench_with(ctx, &good, "256", checks[c], 3);
        CHECK(r.verified == 1, "%s: correct variant rejected (error %g, elem %g)", cn, r.error, r.last.elem_ratio);
        CHECK(r.repeats == 3 && r.min_s <= r.median_s && r.median_s <= r.max_s && r.rate > 0,
              "%s: timed path statistics: %d repeats, %g <= %g <= %g", cn, r.repeats, r.min_s, r.median_s, r.max_s);
        CHECK(r.check == checks[c] && strstr(r.last.how, checks[c] == PL_CHECK_SAMPLE ? "Freivalds" : "full"),
              "%s: the row does not say which check ran: %s", cn, r.last.how);
        r = bench_with(ctx, &off, "256", checks[c], 3);
        CHECK(r.verified == 0, "%s: one element off accepted (elem ratio %g)", cn, r.first.elem_ratio);
        if (checks[c] == PL_CHECK_FULL) {
            pl_variant near = make("off-by-bound", off_by_bound);
            bound_factor = 2.0;
            r = bench_with(ctx, &near, "256", checks[c], 1);
            CHECK(r.verified == 0 && r.first.elem_ratio > 1.9 && r.first.elem_ratio < 2.1,
                  "one element 2x over its bound: verified %d, elem ratio %g (want a failure at ~2)", r.verified,
                  r.first.elem_ratio);
            bound_factor = 0.5;
            r = bench_with(ctx, &near, "256", checks[c], 1);
            CHECK(r.verified == 1 && r.first.elem_ratio > 0.4 && r.first.elem_ratio < 0.6,
                  "one element at 0.5x its bound: verified %d, elem ratio %g (want a pass at ~0.5)", r.verified,
                  r.first.elem_ratio);
        }
        if (checks[c] == PL_CHECK_FULL) {
            CHECK(r.first.error <= r.bound, "the whole-output error %g should pass its bound %g here (the element "
                  "check is what must catch it)", r.first.error, r.bound);
            CHECK(r.first.row == 5 && r.first.col == 7 && r.first.operand == 2,
                  "worst element reported at [%lld, %lld] of operand %d, want [5, 7] of 2", (long long)r.first.row,
                  (long long)r.first.col, r.first.operand);
        }
        /* With beta != 0 and padded rows the checks take C0 and the pitch into account. */
        r = bench_with_beta(ctx, &good, "130x70x90", checks[c], 1, 0.75, 3);
        CHECK(r.verified == 1, "%s beta=0.75 pad=3: correct variant rejected (elem %g)", cn, r.last.elem_ratio);
        r = bench_with_beta(ctx, &off, "130x70x90", checks[c], 1, 0.75, 3);
        CHECK(r.verified == 0, "%s beta=0.75 pad=3: one element off accepted", cn);
        once_calls = 0;
        r = bench_with(ctx, &once, "64", checks[c], 3);
        CHECK(r.first.elem_ratio <= 1 && r.verified == 0 && !(r.last.elem_ratio <= 1),
              "%s: a variant that computes only once passed (last run elem %g)", cn, r.last.elem_ratio);
        r = bench_with(ctx, &win, "64", checks[c], 1);
        CHECK(r.inputs_ok == 0 && r.verified == 0, "%s: a variant that wrote into A was not failed", cn);
        r = bench_with(ctx, &win_last, "30", checks[c], 1);
        CHECK(r.inputs_ok == 0 && r.verified == 0,
              "%s: a variant that wrote into A's last element (in the checksum's trailing words) was not failed", cn);
        wrong_first_calls = 0;
        r = bench_with(ctx, &first_wrong, "64", checks[c], 3);
        CHECK(wrong_first_calls >= 2 && !(r.first.elem_ratio <= 1) && r.last.elem_ratio <= 1 && r.verified == 0,
              "%s: a variant wrong only on its first call passed (%d calls, first elem %g, last elem %g, verified %d)",
              cn, wrong_first_calls, r.first.elem_ratio, r.last.elem_ratio, r.verified);
        r = bench_with(ctx, &skip, "200x300x100", checks[c], 1);
        CHECK(r.verified == 0, "%s: skipped element accepted", cn);
        r = bench_with(ctx, &nan, "64", checks[c], 1);
        CHECK(r.verified == 0, "%s: NaN accepted", cn);
    }
    /* An element whose bound is 0 (a zero row of A) but whose output is not 0: infinitely over
     * its bound, so the run fails though the whole-output error passes. */
    {
        pl_kernel zk = pl_gemm_kernel;
        zk.fill = fill_zero_row;
        pl_variant zv = make("off-on-zero-bound", off_on_zero_bound);
        pl_problem *p = NULL;
        pl_bench_config cfg;
        pl_bench_config_default(&cfg);
        cfg.repeats = 1;
        cfg.min_time_s = 0;
        pl_problem_opts o = {7, PL_CHECK_FULL, NULL, NULL};
        pl_result r;
        memset(&r, 0, sizeof r);
        CHECK(pl_problem_create_opts(&p, &zk, "256", NULL, &o) == PL_OK, "%s", pl_last_error());
        if (p) CHECK(pl_bench_variant(ctx, p, &zv, NULL, &cfg, &r) == PL_OK, "%s", pl_last_error());
        CHECK(r.first.error <= r.bound, "the whole-output error %g should pass its bound %g here", r.first.error,
              r.bound);
        CHECK(r.verified == 0 && isinf(r.first.elem_ratio) && r.first.row == 5 && r.first.col == 7,
              "1e-3 where the bound is 0: verified %d, elem ratio %g at [%lld, %lld] (want a failure, infinity at "
              "[5, 7])", r.verified, r.first.elem_ratio, (long long)r.first.row, (long long)r.first.col);
        pl_problem_destroy(p);
    }
    /* A variant that writes into its input is failed, and the next one on the same problem
     * gets the inputs as they were. */
    {
        pl_problem *p = NULL;
        pl_bench_config cfg;
        pl_bench_config_default(&cfg);
        cfg.repeats = 1;
        pl_result r1, r2;
        CHECK(pl_problem_create(&p, &pl_gemm_kernel, "48", NULL, 9) == PL_OK, "%s", pl_last_error());
        if (p) {
            CHECK(pl_bench_variant(ctx, p, &win, NULL, &cfg, &r1) == PL_OK && !r1.inputs_ok, "writes-input passed");
            CHECK(pl_bench_variant(ctx, p, &good, NULL, &cfg, &r2) == PL_OK && r2.verified,
                  "the variant after one that wrote into A takes the blame");
        }
        pl_problem_destroy(p);
    }
    /* A rate above its ceiling is flagged: peaks far below what the machine does. */
    {
        pl_peaks pk;
        memset(&pk, 0, sizeof pk);
        pk.valid = 1;
        pk.cpu_threads = 1;
        for (int i = 0; i < 2; i++)
            pk.cpu_gflops_scalar[i] = pk.cpu_gflops_avx2[i] = pk.cpu_gflops_avx512[i] = 1e-6;
        pk.cpu_triad_gbps = 1e-6;
        pl_problem *p = NULL;
        pl_bench_config cfg;
        pl_bench_config_default(&cfg);
        cfg.repeats = 1;
        cfg.peaks = &pk;
        pl_result r;
        CHECK(pl_problem_create(&p, &pl_gemm_kernel, "64", NULL, 9) == PL_OK, "%s", pl_last_error());
        if (p) CHECK(pl_bench_variant(ctx, p, &good, NULL, &cfg, &r) == PL_OK && r.over_ceiling && r.ceiling_pct > 100,
                     "a rate above its ceiling is not flagged (%g%%)", r.ceiling_pct);
        pk.cpu_gflops_scalar[0] = pk.cpu_gflops_avx2[0] = pk.cpu_gflops_avx512[0] = 1e9;
        pk.cpu_gflops_scalar[1] = pk.cpu_gflops_avx2[1] = pk.cpu_gflops_avx512[1] = 1e9;
        pk.cpu_triad_gbps = 1e9;
        if (p) CHECK(pl_bench_variant(ctx, p, &good, NULL, &cfg, &r) == PL_OK && !r.over_ceiling && r.ceiling_pct < 100,
                     "a rate under its ceiling is flagged (%g%%)", r.ceiling_pct);
        pl_problem_destroy(p);
    }
    /* Plans: the AUTO check turns sampled where the reference is slow; a problem too big for
     * the host is refused with the estimate and the limit. */
    {
        pl_plan plan;
        CHECK(pl_problem_plan(&pl_gemm_kernel, "64", NULL, PL_CHECK_AUTO, &plan) == PL_OK && plan.check == PL_CHECK_FULL,
              "64: full check");
        CHECK(pl_problem_plan(&pl_gemm_kernel, "16384", NULL, PL_CHECK_AUTO, &plan) == PL_OK &&
                  plan.check == PL_CHECK_SAMPLE && plan.host_bytes >= 4.0 * 4 * 16384.0 * 16384,
              "16384: sampled check, host estimate %g", plan.host_bytes);
        CHECK(pl_problem_plan(&pl_gemm_kernel, "large", NULL, PL_CHECK_FULL, &plan) == PL_OK &&
                  !strcmp(plan.desc, "4096"), "the named size 'large' is 4096 (got %s)", plan.desc);
        double have = pl_host_memory_available();
        CHECK(have > 0, "available host memory unknown");
        CHECK(pl_problem_plan(&pl_gemm_kernel, "300000", NULL, PL_CHECK_AUTO, &plan) == PL_OK &&
                  pl_plan_fits(&plan, NULL) == PL_ERR_TOO_BIG && strstr(pl_last_error(), "GiB of host memory"),
              "300000 not refused: %s", pl_last_error());
        CHECK(pl_problem_plan(&pl_gemm_kernel, "512,0", NULL, PL_CHECK_AUTO, &plan) == PL_ERR_ARG, "a bad size planned");
    }
    /* Sweeps: the product of the axes, the first varying fastest; the best verified pick. */
    {
        const pl_variant *sb = pl_variant_find(&pl_gemm_kernel, "cpu-simd-blocked");
        pl_sweep_axis ax[2];
        CHECK(pl_sweep_axis_parse(sb, "block=8,16,64", &ax[0]) == PL_OK && ax[0].n == 3, "%s", pl_last_error());
        CHECK(pl_sweep_axis_parse(sb, "isa=all", &ax[1]) == PL_OK && ax[1].n >= 2, "%s", pl_last_error());
        CHECK(pl_sweep_axis_parse(sb, "block=8,8", &ax[0]) == PL_ERR_ARG, "a value given twice accepted");
        CHECK(pl_sweep_axis_parse(sb, "nope=1", &ax[0]) == PL_ERR_ARG, "an unknown parameter accepted");
        pl_sweep_axis_parse(sb, "block=8,16,64", &ax[0]);
        CHECK(pl_sweep_count(ax, 2) == 3 * ax[1].n, "count %lld", (long long)pl_sweep_count(ax, 2));
        int64_t pt[PL_MAX_PARAMS];
        pl_sweep_point(sb, ax, 2, 4, pt);
        CHECK(pt[ax[0].param] == 16 && pt[ax[1].param] == ax[1].values[1], "point 4: block %lld", (long long)pt[ax[0].param]);
        pl_result rs[3];
        memset(rs, 0, sizeof rs);
        for (int i = 0; i < 3; i++) rs[i].problem_id = 1, rs[i].verified = 1;
        rs[0].median_s = 3, rs[1].median_s = 1, rs[2].median_s = 2;
        rs[1].problem_id = 2;
        CHECK(pl_results_best(rs, 3, 1) == 2, "best on problem 1: %d", pl_results_best(rs, 3, 1));
        rs[2].verified = 0;
        CHECK(pl_results_best(rs, 3, 1) == 0, "an unverified result picked as best");
    }
    /* The input checksum over several chunks: one changed byte anywhere, or two chunks
     * swapped, changes it. */
    {
        int64_t rows = 25, cols = (int64_t)1 << 20; /* 100 MiB of float32: 4 chunks */
        pl_tensor big = {"A", PL_F32, PL_IN, rows, cols, cols, NULL};
        float *x = calloc((size_t)(rows * cols), sizeof(float));
        big.host = x;
        if (x) {
            for (int64_t i = 0; i < rows * cols; i++) x[i] = (float)(i % 1000);
            uint64_t h0 = pl_tensor_checksum(&big);
            x[3 * (1 << 23) + 17] += 1.0f;
            CHECK(pl_tensor_checksum(&big) != h0, "checksum misses a change in the fourth chunk");
            x[3 * (1 << 23) + 17] -= 1.0f;
            CHECK(pl_tensor_checksum(&big) == h0, "checksum not repeatable");
            float *tmp = malloc((size_t)32 << 20);
            if (tmp) { /* swap chunks 0 and 1 (32 MiB each) */
                memcpy(tmp, x, (size_t)32 << 20);
                memcpy(x, x + (1 << 23), (size_t)32 << 20);
                memcpy(x + (1 << 23), tmp, (size_t)32 << 20);
                CHECK(pl_tensor_checksum(&big) != h0, "checksum misses two chunks swapped");
                free(tmp);
            }
        }
        free(x);
    }
    /* The verifier's arithmetic on hand-made tensors: exact mode counts mismatches. */
    int32_t a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 0, 4};
    pl_tensor ta = {"a", PL_I32, PL_OUT, 2, 2, 2, a}, tb = {"b", PL_I32, PL_OUT, 2, 2, 2, b};
    CHECK(pl_verify_tensor(&ta, &tb, 1) == 1.0, "exact: one mismatch");
    CHECK(pl_verify_tensor(&ta, &ta, 1) == 0.0, "exact: equal");
    pl_ctx_destroy(ctx);
    return check_summary("verify");
}
