/* test_gemm_bf16.c: GEMM's BF16 contract (bfloat16 A and B, FP32 accumulation and C) without a
 * GPU: the float<->bfloat16 conversion (round to nearest even, NaN kept), the dtype parameter's
 * operands and inputs, which rungs take which dtype (and the best-rung pick), the BF16 bounds
 * against three accumulations at K up to 65536 (FP32 rounding and tensor-core-like truncation
 * pass, inputs off by one bfloat16 ulp fail), and cpu-naive-bf16 through the harness, beside a
 * wrong BF16 rung that the harness must catch. */
#include "check.h"
#include "core/bf16.h"
#include "core/core.h"
#include "harness/harness.h"
#include "kernels/gemm/gemm.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static float from_bits(uint32_t u)
{
    float x;
    memcpy(&x, &u, 4);
    return x;
}

static uint32_t bits_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

static void test_conversion(void)
{
    static const struct { uint32_t in; uint16_t out; const char *what; } cases[] = {
        {0x3F800000u, 0x3F80, "1.0 exact"},
        {0x3F808000u, 0x3F80, "1 + 2^-8: a tie, to the even 1.0"},
        {0x3F818000u, 0x3F82, "1 + 3*2^-8: a tie, up to the even"},
        {0x3F808001u, 0x3F81, "just above the tie: up"},
        {0x3F807FFFu, 0x3F80, "just below the tie: down"},
        {0xBF808001u, 0xBF81, "negative: magnitude rounds as positive"},
        {0x7F7FFFFFu, 0x7F80, "FLT_MAX overflows to +inf"},
        {0x7F7F7FFFu, 0x7F7F, "just below the largest bfloat16's tie: stays finite"},
        {0x7F800000u, 0x7F80, "+inf"},
        {0xFF800000u, 0xFF80, "-inf"},
        {0x7F800001u, 0x7FC0, "a signaling NaN whose payload is in the dropped bits: quiet NaN, not inf"},
        {0xFFC00001u, 0xFFC0, "a negative quiet NaN keeps its sign"},
        {0x7FFFFFFFu, 0x7FFF, "NaN with every bit: does not carry into the sign"},
        {0x00000001u, 0x0000, "the smallest subnormal: to zero"},
        {0x80000000u, 0x8000, "-0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint16_t got = pl_bf16_from_f32(from_bits(cases[i].in));
        CHECK(got == cases[i].out, "bf16(0x%08x) = 0x%04x, want 0x%04x (%s)", cases[i].in, got, cases[i].out,
              cases[i].what);
    }
    /* Widening is exact and inverts rounding on every finite bfloat16. */
    int bad = 0;
    for (uint32_t b = 0; b < 0x10000u; b++) {
        float x = pl_bf16_to_f32((uint16_t)b);
        if (bits_of(x) != b << 16) bad++;
        if (isfinite(x) && pl_bf16_from_f32(x) != b) bad++;
        if (isnan(x) && !isnan(pl_bf16_to_f32(pl_bf16_from_f32(x)))) bad++;
    }
    CHECK(bad == 0, "%d bfloat16 values do not round-trip", bad);
    float f[5] = {1.0f, -2.5f, 3.00390625f, NAN, 65504.0f};
    uint16_t h[5];
    float back[5];
    pl_bf16_from_f32_array(h, f, 5);
    pl_bf16_to_f32_array(back, h, 5);
    CHECK(back[0] == 1.0f && back[1] == -2.5f && back[2] == 3.0f && isnan(back[3]) && back[4] == 65536.0f,
          "arrays: %g %g %g %g %g", back[0], back[1], back[2], back[3], back[4]);
    CHECK(pl_dtype_size(PL_BF16) == 2 && !strcmp(pl_dtype_name(PL_BF16), "bfloat16"), "PL_BF16: %zu bytes, '%s'",
          pl_dtype_size(PL_BF16), pl_dtype_name(PL_BF16));
    CHECK(!strcmp(pl_precision_name(PL_PREC_BF16), "BF16"), "PL_PREC_BF16 is '%s'", pl_precision_name(PL_PREC_BF16));
}

/* The problem of a size with dtype given as --set gives it. */
static pl_status make(const char *size, const char *settings, pl_gemm_problem *p)
{
    pl_pvalues pv;
    int given[PL_MAX_PARAMS] = {0};
    pl_pvalues_default(&pl_gemm_kernel, &pv);
    pl_status s = settings ? pl_pvalues_set(&pl_gemm_kernel, &pv, given, settings) : PL_OK;
    memset(p, 0, sizeof *p);
    return s == PL_OK ? pl_gemm_kernel.make_problem(p, size, &pv) : s;
}

static void test_problem(void)
{
    pl_gemm_problem p;
    CHECK(make("5x7x3", NULL, &p) == PL_OK && p.dtype == PL_F32, "default dtype: %d", (int)p.dtype);
    CHECK(make("5x7x3", "dtype=bf16", &p) == PL_OK && p.dtype == PL_BF16, "dtype=bf16: %d", (int)p.dtype);
    pl_gemm_problem q;
    CHECK(make("5x7x3", "dtype=f16", &q) == PL_ERR_ARG && strstr(pl_last_error(), "f32|bf16"),
          "dtype=f16: %s", pl_last_error());
    pl_tensor t[3];
    int n = 0;
    CHECK(pl_gemm_spec_operands(&p, t, &n) == PL_OK && n == 3, "operands");
    CHECK(t[0].dtype == PL_BF16 && t[1].dtype == PL_BF16 && t[2].dtype == PL_F32 && t[0].ld == 3 && t[1].ld == 7,
          "bf16 operands: A %s ld %lld, B %s ld %lld, C %s", pl_dtype_name(t[0].dtype), (long long)t[0].ld,
          pl_dtype_name(t[1].dtype), (long long)t[1].ld, pl_dtype_name(t[2].dtype));
    /* 2 bytes an input element, 4 an output one */
    CHECK(pl_gemm_spec_bytes(&p) == 2.0 * (5 * 3 + 3 * 7) + 4.0 * 5 * 7, "bytes %g", pl_gemm_spec_bytes(&p));
    /* The inputs: pl_fill_f32's draws rounded to bfloat16, so exact in bfloat16 and never 0. */
    enum { SPAN = 1000 };
    static uint16_t a[SPAN];
    static float f[SPAN];
    pl_fill_bf16(a, SPAN, 99);
    pl_fill_f32(f, SPAN, 99);
    int bad = 0;
    for (int i = 0; i < SPAN; i++) bad += a[i] != pl_bf16_from_f32(f[i]) || pl_bf16_to_f32(a[i]) == 0.0f;
    CHECK(bad == 0, "%d filled bfloat16 values are not the rounded float32 draws (or are 0)", bad);
}

static void test_takes(void)
{
    pl_gemm_problem f32, bf16;
    make("4", NULL, &f32);
    make("4", "dtype=bf16", &bf16);
    const pl_variant *naive = pl_variant_find(&pl_gemm_kernel, "cpu-naive"),
                     *naive16 = pl_variant_find(&pl_gemm_kernel, "cpu-naive-bf16"),
                     *peer16 = pl_variant_find(&pl_gemm_kernel, "peer-cublas-bf16");
    CHECK(naive && naive16 && peer16, "rungs cpu-naive, cpu-naive-bf16, peer-cublas-bf16 exist");
    if (!naive || !naive16 || !peer16) return;
    CHECK(peer16->is_peer && peer16->precision == PL_PREC_BF16 && naive16->precision == PL_PREC_BF16, "BF16 rungs");
    CHECK(pl_variant_takes(&pl_gemm_kernel, naive, &f32) == PL_OK, "cpu-naive takes f32");
    CHECK(pl_variant_takes(&pl_gemm_kernel, naive16, &bf16) == PL_OK, "cpu-naive-bf16 takes bf16");
    CHECK(pl_variant_takes(&pl_gemm_kernel, naive16, NULL) == PL_ERR_UNSUPPORTED, "the default problem is f32");
    CHECK(pl_variant_takes(&pl_gemm_kernel, naive, &bf16) == PL_ERR_UNSUPPORTED &&
              !strcmp(pl_last_error(), "gemm cpu-naive: an FP32 rung takes dtype=f32 only; this problem is dtype=bf16"),
          "cpu-naive on bf16: %s", pl_last_error());
    CHECK(pl_variant_takes(&pl_gemm_kernel, naive16, &f32) == PL_ERR_UNSUPPORTED &&
              !strcmp(pl_last_error(), "gemm cpu-naive-bf16: a BF16 rung takes dtype=bf16 only; this problem is dtype=f32"),
          "cpu-naive-bf16 on f32: %s", pl_last_error());
    int bf16_rungs = 0;
    for (int i = 0; i < pl_gemm_kernel.n_variants; i++) {
        const pl_variant *v = pl_gemm_kernel.ladder[i];
        int takes16 = pl_variant_takes(&pl_gemm_kernel, v, &bf16) == PL_OK;
        CHECK(takes16 == (v->precision == PL_PREC_BF16), "%s takes bf16: %d", v->name, takes16);
        CHECK(takes16 != (pl_variant_takes(&pl_gemm_kernel, v, &f32) == PL_OK), "%s takes both or neither", v->name);
        bf16_rungs += takes16;
    }
    CHECK(bf16_rungs == 4, "%d BF16 variants (cpu-naive-bf16, cuda-mma-bf16, cuda-wgmma-bf16, peer-cublas-bf16)",
          bf16_rungs);
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 1) == PL_OK, "context");
    const char *best16 = pl_best_variant(ctx, &pl_gemm_kernel, &bf16), *best = pl_best_variant(ctx, &pl_gemm_kernel, NULL);
    CHECK(best16 && !strcmp(best16, "cpu-naive-bf16"), "best CPU rung for bf16: %s", best16 ? best16 : "none");
    CHECK(best && strcmp(best, "cpu-naive-bf16") != 0, "best CPU rung for f32: %s", best ? best : "none");
    /* The harness refuses a rung the problem's dtype is not for, before it runs. */
    enum { M = 3, N = 4, K = 5 };
    float A[M * K] = {0}, B[K * N] = {0}, C[M * N];
    void *host[3] = {A, B, C};
    CHECK(pl_run_host(ctx, &pl_gemm_kernel, naive, NULL, &bf16, host) == PL_ERR_UNSUPPORTED,
          "pl_run_host of cpu-naive on bf16: %s", pl_last_error());
    pl_ctx_destroy(ctx);
}

/* ---------------------------------------------------------------- the bounds at depth */

/* How an accumulation model sums a dot product of bfloat16 inputs (widened exactly). */
typedef enum { ACC_FP32, ACC_TRUNC4, ACC_ULP_OFF } acc_model;

/* float32 toward zero of a double (the truncating add of a tensor core). */
static float trunc_f32(double x)
{
    float f = (float)x;
    if (fabs((double)f) > fabs(x)) f = nextafterf(f, 0.0f);
    return f;
}

/* ACC_FP32: a sequential float32 sum, rounded to nearest (what cpu-naive-bf16 does).
 * ACC_TRUNC4: blocks of 4 exact products added to the accumulator with one truncation each
 * (tensor cores, as Fasi et al. describe them). ACC_ULP_OFF: ACC_FP32 on A with every element's
 * last significand bit dropped (off by one bfloat16 ulp where it was set: an input rounded
 * twice, or truncated). */
static float dot(acc_model m, const uint16_t *a, const uint16_t *b, int64_t K, int64_t ldb)
{
    float acc = 0.0f;
    for (int64_t k = 0; k < K;) {
        if (m == ACC_TRUNC4) {
            double s = acc;
            for (int64_t e = k + 4 < K ? k + 4 : K; k < e; k++) s += (double)pl_bf16_widen(a[k]) * pl_bf16_widen(b[k * ldb]);
            acc = trunc_f32(s);
            continue;
        }
        uint16_t ak = m == ACC_ULP_OFF ? (uint16_t)(a[k] & ~1u) : a[k];
        acc += pl_bf16_widen(ak) * pl_bf16_widen(b[k * ldb]);
        k++;
    }
    return acc;
}

/* An MxNxK bfloat16 problem filled by the spec, C from model m, checked as the harness does:
 * every element against the element bound, the relative Frobenius error against its bound.
 * Returns 1 when both pass; *error gets the relative error, *bound its bound. */
static int check_model(int64_t M, int64_t N, int64_t K, acc_model m, double *error, double *bound)
{
    pl_gemm_problem p = {M, N, K, K, N, N, 1.0f, 0.0f, PL_BF16};
    pl_tensor t[3], ref[3], scale[3];
    int n = 0;
    pl_gemm_spec_operands(&p, t, &n);
    uint16_t *A = malloc(sizeof *A * (size_t)(M * K)), *B = malloc(sizeof *B * (size_t)(K * N));
    float *C = malloc(sizeof *C * (size_t)(M * N));
    double *R = malloc(sizeof *R * (size_t)(M * N)), *S = malloc(sizeof *S * (size_t)(M * N));
    t[0].host = A, t[1].host = B, t[2].host = C;
    ref[2] = (pl_tensor){"C", PL_F64, PL_OUT, M, N, N, R};
    scale[2] = ref[2];
    scale[2].host = S;
    pl_gemm_spec_fill(&p, t, 3, 1234);
    CHECK(pl_gemm_spec_reference(&p, t, 3, ref, scale) == PL_OK, "reference: %s", pl_last_error());
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) C[i * N + j] = dot(m, A + i * K, B + j, K, N);
    pl_check_result res;
    memset(&res, 0, sizeof res);
    pl_check_tensor(&t[2], &ref[2], &scale[2], pl_gemm_spec_elem_bound(&p, PL_PREC_BF16, NULL), 2, &res);
    *error = res.error;
    *bound = pl_gemm_spec_error_bound(&p, PL_PREC_BF16, NULL);
    free(A), free(B), free(C), free(R), free(S);
    return res.elem_ratio <= 1.0 && res.error <= *bound;
}

static void test_bounds(void)
{
    static const int64_t depths[] = {16, 256, 4096, 65536};
    for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++) {
        const int64_t K = depths[d], MN = K >= 65536 ? 12 : 24;
        double e, b;
        CHECK(check_model(MN, MN, K, ACC_FP32, &e, &b), "K=%lld: FP32 accumulation fails: error %.3g, bound %.3g",
              (long long)K, e, b);
        CHECK(check_model(MN, MN, K, ACC_TRUNC4, &e, &b),
              "K=%lld: truncating accumulation in blocks of 4 fails: error %.3g, bound %.3g", (long long)K, e, b);
        CHECK(!check_model(MN, MN, K, ACC_ULP_OFF, &e, &b),
              "K=%lld: A off by one bfloat16 ulp passes: error %.3g, bound %.3g", (long long)K, e, b);
    }
    /* Each bound has its reason, and BF16's holds no 2^-8 input term: tighter than TF32's. */
    pl_gemm_problem p = {64, 64, 4096, 4096, 64, 64, 1.0f, 0.0f, PL_BF16};
    const char *why = NULL, *ewhy = NULL;
    double e16 = pl_gemm_spec_error_bound(&p, PL_PREC_BF16, &why), e32 = pl_gemm_spec_error_bound(&p, PL_PREC_FP32, NULL),
           etf = pl_gemm_spec_error_bound(&p, PL_PREC_TF32, NULL), el16 = pl_gemm_spec_elem_bound(&p, PL_PREC_BF16, &ewhy);
    CHECK(why && !strncmp(why, "BF16:", 5) && ewhy && !strncmp(ewhy, "BF16:", 5), "reasons: %s / %s", why, ewhy);
    CHECK(e16 > e32 && e16 < etf / 4, "BF16 bound %.3g between FP32's %.3g and TF32's %.3g / 4", e16, e32, etf);
    CHECK(fabs(el16 - 4098.0 * ldexp(1.0, -22) / (1 - 4098.0 * ldexp(1.0, -22))) < 1e-15, "elem bound %.6g", el16);
}

/* ---------------------------------------------------------------- through the harness */

/* A BF16 rung that reads each A element with its last significand bit dropped. */
static pl_status ulp_off_rung(const pl_run_args *a)
{
    const pl_gemm_problem *p = a->problem;
    const uint16_t *A = a->data[0], *B = a->data[1];
    float *C = a->data[2];
    for (int64_t i = 0; i < p->M; i++)
        for (int64_t j = 0; j < p->N; j++) {
            float s = 0;
            for (int64_t k = 0; k < p->K; k++)
                s += pl_bf16_widen((uint16_t)(A[i * p->lda + k] & ~1u)) * pl_bf16_widen(B[k * p->ldb + j]);
            C[i * p->ldc + j] = p->beta == 0.0f ? p->alpha * s : p->alpha * s + p->beta * C[i * p->ldc + j];
        }
    return PL_OK;
}

static void test_harness(void)
{
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2) == PL_OK, "context");
    const pl_variant *naive16 = pl_variant_find(&pl_gemm_kernel, "cpu-naive-bf16"),
                     *naive = pl_variant_find(&pl_gemm_kernel, "cpu-naive");
    uint64_t seeds[2] = {42, 7};
    int runs = 0, failed = 0;
    CHECK(pl_check_variant(ctx, &pl_gemm_kernel, naive16, NULL, seeds, 2, NULL, NULL, &runs, &failed) == PL_OK &&
              failed == 0 && runs == 2 * pl_gemm_kernel.n_check_cases,
          "check cpu-naive-bf16: %d of %d failed", failed, runs);
    /* cpu-naive skips the bf16 cases (not taken: not failures) and passes the rest */
    CHECK(pl_check_variant(ctx, &pl_gemm_kernel, naive, NULL, seeds, 1, NULL, NULL, &runs, &failed) == PL_OK &&
              failed == 0, "check cpu-naive: %d of %d failed", failed, runs);
    pl_variant wrong = {.name = "ulp-off-bf16", .backend = PL_BACKEND_CPU, .precision = PL_PREC_BF16,
                        .run = ulp_off_rung};
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    static const char *const sizes[] = {"7x9x16", "33x17x300", "16x16x4096"};
    for (int s = 0; s < 3; s++)
        for (int k = 0; k < 2; k++) {
            const pl_variant *v = k ? &wrong : naive16;
            const double pv[PL_GEMM_PROBLEM_N_PARAMS] = {1.0, 0.0, 1.0, PL_GEMM_DTYPE_BF16};
            pl_problem *p = NULL;
            CHECK(pl_problem_create(&p, &pl_gemm_kernel, sizes[s], pv, 5) == PL_OK, "%s: %s", sizes[s], pl_last_error());
            if (!p) continue;
            pl_result r;
            CHECK(pl_bench_variant(ctx, p, v, NULL, &cfg, &r) == PL_OK, "%s %s: %s", v->name, sizes[s], pl_last_error());
            CHECK(r.verified == !k, "%s %s: verified %d (error %.3g, bound %.3g, worst element %.3g x its bound)",
                  v->name, sizes[s], r.verified, r.error, r.bound, r.first.elem_ratio);
            pl_problem_destroy(p);
        }
    pl_ctx_destroy(ctx);
}

int main(void)
{
    test_conversion();
    test_problem();
    test_takes();
    test_bounds();
    test_harness();
    return check_summary("gemm_bf16");
}
