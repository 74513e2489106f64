/* spec.c: what local entropy is, independent of any rung: sizes, the problem parameters (k,
 * bins, base, pad), seeded inputs, the float64 reference (a fresh histogram of the clipped
 * window at every pixel), the element bound of the float32 rungs, and the counts. */
#include "core/core.h"
#include "core/sizes.h"
#include "kernels/entropy/entropy.h"
#include "kernels/ladder.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

pl_status pl_entropy_check(const pl_entropy_problem *p)
{
    if (p->H <= 0 || p->W <= 0)
        return pl_fail(PL_ERR_ARG, "entropy: sizes must be positive (H=%lld W=%lld)", (long long)p->H,
                       (long long)p->W);
    if (p->k < 1 || p->k > PL_ENTROPY_MAX_K || p->k % 2 == 0)
        return pl_fail(PL_ERR_ARG, "entropy: window k = %d must be odd, 1..%d", p->k, PL_ENTROPY_MAX_K);
    if (p->bins < 2 || p->bins > PL_ENTROPY_MAX_BINS)
        return pl_fail(PL_ERR_ARG, "entropy: bins = %d must be 2..%d", p->bins, PL_ENTROPY_MAX_BINS);
    if (p->base2 != 0 && p->base2 != 1)
        return pl_fail(PL_ERR_ARG, "entropy: base2 = %d must be 0 (natural log) or 1 (bits)", p->base2);
    if (p->ld_in < p->W)
        return pl_fail(PL_ERR_ARG, "entropy: ld_in = %lld is smaller than a row (W = %lld)", (long long)p->ld_in,
                       (long long)p->W);
    if (p->ld_out < p->W)
        return pl_fail(PL_ERR_ARG, "entropy: ld_out = %lld is smaller than a row (W = %lld)",
                       (long long)p->ld_out, (long long)p->W);
    int64_t a, b;
    if (pl_mul_overflow(p->H, p->ld_in, &a) || pl_mul_overflow(p->H, p->ld_out, &b) || pl_mul_overflow(b, 8, &b))
        return pl_fail(PL_ERR_OVERFLOW, "entropy: %lldx%lld overflows 64-bit sizes", (long long)p->H,
                       (long long)p->W);
    return PL_OK;
}

enum { BASE_E, BASE_2 }; /* the base parameter's choices, in order: the problem's base2 flag */
static const char *const base_names[] = {[BASE_E] = "e", [BASE_2] = "2", NULL};

const pl_param_def pl_entropy_problem_params[] = {
    [PL_ENTROPY_PROBLEM_K] =
        {.name = "k", .help = "window side (odd): the k x k window around each pixel, clipped at the borders",
         .kind = PL_PARAM_RANGE, .min = 1, .max = PL_ENTROPY_MAX_K, .step = 2, .def = 5},
    [PL_ENTROPY_PROBLEM_BINS] =
        {.name = "bins", .help = "values are integers in [0, bins)",
         .kind = PL_PARAM_RANGE, .min = 2, .max = PL_ENTROPY_MAX_BINS, .step = 1, .def = 16},
    [PL_ENTROPY_PROBLEM_BASE] =
        {.name = "base", .help = "logarithm: e (nats) or 2 (bits)",
         .kind = PL_PARAM_CHOICE, .choices = base_names, .def = BASE_E},
    [PL_ENTROPY_PROBLEM_PAD] =
        {.name = "pad", .help = "extra elements per row: ld_in = ld_out = W + pad",
         .kind = PL_PARAM_RANGE, .min = 0, .max = 4096, .step = 1, .def = 0},
};
PL_CHECK_COUNT(pl_entropy_problem_params, PL_ENTROPY_PROBLEM_N_PARAMS);

pl_status pl_entropy_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv)
{
    pl_entropy_problem *p = problem;
    int64_t d[2];
    pl_status s = pl_parse_dims("entropy", size, 2, "HxW", d);
    if (s != PL_OK) return s;
    int64_t pad = (int64_t)pv->num[PL_ENTROPY_PROBLEM_PAD];
    *p = (pl_entropy_problem){.H = d[0], .W = d[1], .k = (int)pv->num[PL_ENTROPY_PROBLEM_K],
                              .bins = (int)pv->num[PL_ENTROPY_PROBLEM_BINS],
                              .base2 = (int)pv->num[PL_ENTROPY_PROBLEM_BASE], /* BASE_2 is 1 */
                              .ld_in = d[1] + pad, .ld_out = d[1] + pad};
    return pl_entropy_check(p);
}

void pl_entropy_spec_describe(const void *problem, char *buf, size_t n)
{
    const pl_entropy_problem *p = problem;
    if (p->H == p->W) snprintf(buf, n, "%lld", (long long)p->H);
    else snprintf(buf, n, "%lldx%lld", (long long)p->H, (long long)p->W);
}

pl_status pl_entropy_spec_operands(const void *problem, pl_tensor *t, int *n)
{
    const pl_entropy_problem *p = problem;
    t[0] = (pl_tensor){"values", PL_U8, PL_IN, p->H, p->W, p->ld_in, NULL};
    t[1] = (pl_tensor){"out", PL_F32, PL_OUT, p->H, p->W, p->ld_out, NULL};
    *n = 2;
    return PL_OK;
}

void pl_entropy_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed)
{
    (void)n;
    const pl_entropy_problem *p = problem;
    pl_fill_u8(t[0].host, pl_tensor_span(&t[0]), 0, p->bins - 1, seed);
}

/* The side of the window clipped to [0, len) around i: [*lo, *hi). */
static void clip(int64_t i, int r, int64_t len, int64_t *lo, int64_t *hi)
{
    *lo = i - r < 0 ? 0 : i - r;
    *hi = i + r + 1 > len ? len : i + r + 1;
}

/* The log of a window of n values; what an element's error scales with (see the bound). */
static double elem_scale(int64_t n, int base2)
{
    double l = log((double)n) / (base2 ? log(2.0) : 1.0);
    return l > 1.0 ? l : 1.0;
}

double pl_entropy_reference_at(const pl_entropy_problem *p, const uint8_t *v, int64_t i, int64_t j, int64_t *n_out)
{
    int64_t count[PL_ENTROPY_MAX_BINS] = {0};
    int64_t r0, r1, c0, c1;
    clip(i, p->k / 2, p->H, &r0, &r1);
    clip(j, p->k / 2, p->W, &c0, &c1);
    for (int64_t r = r0; r < r1; r++)
        for (int64_t c = c0; c < c1; c++) count[v[r * p->ld_in + c]]++;
    int64_t n = (r1 - r0) * (c1 - c0);
    double s = 0;
    for (int b = 0; b < p->bins; b++)
        if (count[b] > 0) s += (double)count[b] * log((double)count[b]);
    double e = log((double)n) - s / (double)n;
    if (n_out) *n_out = n;
    return p->base2 ? e / log(2.0) : e;
}

/* ref = E in float64 from a fresh histogram of each clipped window (no table, no sliding). */
pl_status pl_entropy_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale)
{
    (void)n;
    const pl_entropy_problem *p = problem;
    const uint8_t *v = t[0].host;
    double *R = ref[1].host, *S = scale[1].host;
#pragma omp parallel for schedule(dynamic, 8)
    for (int64_t i = 0; i < p->H; i++)
        for (int64_t j = 0; j < p->W; j++) {
            int64_t cnt;
            R[i * p->W + j] = pl_entropy_reference_at(p, v, i, j, &cnt);
            if (S) S[i * p->W + j] = elem_scale(cnt, p->base2);
        }
    return PL_OK;
}

/* The sampled check: the reference at every pixel of the four border bands (where the
 * clipping is) and at random interior pixels, element by element against the bound. */
pl_status pl_entropy_spec_check_sampled(const void *problem, const pl_tensor *t, int n, const pl_tensor *out,
                                        pl_precision prec, uint64_t seed, pl_check_result *res)
{
    (void)n;
    const pl_entropy_problem *p = problem;
    const uint8_t *v = t[0].host;
    const float *o = out[1].host;
    double bound = pl_entropy_spec_bound(problem, prec, NULL);
    enum { RANDOM = 1 << 16 };
    int r = p->k / 2;
    double worst = 0, err2 = 0, ref2 = 0, wgot = 0, wwant = 0, wbound = 0;
    int64_t checked = 0, wi = 0, wj = 0, wrong = 0;
    pl_rng rng;
    pl_rng_seed(&rng, seed);
    /* The border bands: the r+1 rows (columns) at each edge, where the window is clipped. */
    int64_t edge = r + 1;
    int64_t band_rows = p->H < 2 * edge ? p->H : 2 * edge, band_cols = p->W < 2 * edge ? p->W : 2 * edge;
    int64_t total = RANDOM + band_rows * p->W + band_cols * p->H;
    for (int64_t s = 0; s < total; s++) {
        int64_t i, j, q = s - RANDOM;
        if (s < RANDOM) {
            i = (int64_t)(pl_rng_next(&rng) % (uint64_t)p->H);
            j = (int64_t)(pl_rng_next(&rng) % (uint64_t)p->W);
        } else if (q < band_rows * p->W) { /* rows 0..r, then H-1 upwards */
            int64_t t = q / p->W;
            i = t < edge ? t : p->H - 1 - (t - edge);
            j = q % p->W;
        } else { /* columns 0..r, then W-1 leftwards */
            q -= band_rows * p->W;
            int64_t t = q / p->H;
            j = t < edge ? t : p->W - 1 - (t - edge);
            i = q % p->H;
        }
        int64_t cnt;
        double want = pl_entropy_reference_at(p, v, i, j, &cnt);
        double got = o[i * p->ld_out + j];
        double d = fabs(got - want);
        double b = bound * elem_scale(cnt, p->base2), ratio = isfinite(got) ? d / b : INFINITY;
        wrong += !(ratio <= 1.0);
        if (!(ratio <= worst)) worst = ratio, wi = i, wj = j, wgot = got, wwant = want, wbound = b;
        err2 += d * d, ref2 += want * want;
        checked++;
    }
    res->error = ref2 > 0 ? sqrt(err2 / ref2) : sqrt(err2);
    if (!isfinite(worst)) res->error = INFINITY;
    res->elem_ratio = worst;
    res->operand = 1, res->row = wi, res->col = wj;
    res->value = wgot, res->reference = wwant, res->bound = wbound;
    res->wrong += wrong;
    res->checked = checked;
    snprintf(res->how, sizeof res->how, "sampled: %d random pixels and every pixel of the %d rows and columns at "
             "each edge", (int)RANDOM, (int)edge);
    return PL_OK;
}

/* Operations of the full reference: a k*k histogram and a pass over the bins per pixel. */
double pl_entropy_spec_reference_ops(const void *problem)
{
    const pl_entropy_problem *p = problem;
    return (double)p->H * (double)p->W * ((double)p->k * p->k + 2.0 * p->bins);
}

double pl_entropy_spec_pixels(const void *problem)
{
    const pl_entropy_problem *p = problem;
    return (double)p->H * (double)p->W;
}

/* E = log n - (1/n) sum_b c_b log c_b in float32: each of the m = min(bins, n) terms and log n
 * carry a relative error of a few units of 2^-24 (float logs, or a float table of them), the
 * sum of m terms adds up to m roundings, and S/n <= log n. So |out - ref| <= (m + 8) 2^-24
 * log n: the element bound is (m + 8) 2^-24 and each element's scale is max(1, log n) (log2 n
 * in bits), n the pixel's clipped window. The relative Frobenius bound is the same number. */
double pl_entropy_spec_bound(const void *problem, pl_precision prec, const char **why)
{
    (void)prec;
    const pl_entropy_problem *p = problem;
    int64_t n = (int64_t)p->k * p->k;
    int64_t m = n < p->bins ? n : p->bins;
    if (why)
        *why = "float32 logs or a float32 table of c*log(c): (m + 8) 2^-24 x max(1, log n) per pixel, m = "
               "min(bins, k^2) terms summed, n the clipped window";
    return (double)(m + 8) * 0x1p-24;
}

/* The relative Frobenius error: each element's error is at most the element bound times
 * max(1, log n), and on the seeded inputs (uniform values) E itself is of the order of log n. */
double pl_entropy_spec_error_bound(const void *problem, pl_precision prec, const char **why)
{
    if (why) *why = "the element bound: on uniform inputs E is of the order of log n, the element scale";
    return pl_entropy_spec_bound(problem, prec, NULL);
}

double pl_entropy_spec_ops(const void *problem)
{
    (void)problem;
    return 0.0; /* table look-ups and counts: the memory ceiling bounds it */
}

/* One byte read and one float32 written per pixel. */
double pl_entropy_spec_bytes(const void *problem) { return 5.0 * pl_entropy_spec_pixels(problem); }
/* Of those, the float32 output's: 4 a pixel. */
double pl_entropy_spec_bytes_written(const void *problem) { return 4.0 * pl_entropy_spec_pixels(problem); }
