/* spec.c: what conv2d is, independent of any rung: sizes and problem parameters (K, dtype,
 * mode, border, flip, a given filter, row padding), operands, seeded inputs, the float64
 * reference (exact int64 sums for int32), the error bounds, the sampled check for sizes whose
 * full reference would be slow, and the counts of work and traffic. */
#include "core/core.h"
#include "core/sizes.h"
#include "kernels/conv2d/conv2d.h"
#include "kernels/ladder.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- checks */

static const char *const mode_names[] = {"valid", "same", NULL};
static const char *const border_names[] = {"zero", "clamp", "reflect", NULL};
enum { DTYPE_F32, DTYPE_I32 }; /* the dtype parameter's choices, in order */
static const char *const dtype_names[] = {[DTYPE_F32] = "f32", [DTYPE_I32] = "i32", NULL};

pl_status pl_conv2d_check(const pl_conv2d_problem *p)
{
    if (p->H <= 0 || p->W <= 0)
        return pl_fail(PL_ERR_ARG, "conv2d: image sizes must be positive (H=%lld W=%lld)", (long long)p->H,
                       (long long)p->W);
    if (p->K < 1 || p->K > PL_CONV2D_MAX_K || p->K % 2 == 0)
        return pl_fail(PL_ERR_ARG, "conv2d: K = %d: the filter size must be odd, 1..%d", p->K, PL_CONV2D_MAX_K);
    if (p->dtype != PL_F32 && p->dtype != PL_I32)
        return pl_fail(PL_ERR_ARG, "conv2d: dtype %s: only float32 and int32 are supported", pl_dtype_name(p->dtype));
    if (p->mode != PL_CONV2D_VALID && p->mode != PL_CONV2D_SAME)
        return pl_fail(PL_ERR_ARG, "conv2d: mode %d: expected 0 (valid) or 1 (same)", p->mode);
    if (p->border < PL_CONV2D_ZERO || p->border > PL_CONV2D_REFLECT)
        return pl_fail(PL_ERR_ARG, "conv2d: border %d: expected 0 (zero), 1 (clamp) or 2 (reflect)", p->border);
    if (p->flip != 0 && p->flip != 1) return pl_fail(PL_ERR_ARG, "conv2d: flip %d: expected 0 or 1", p->flip);
    if (p->mode == PL_CONV2D_VALID && (p->K > p->H || p->K > p->W))
        return pl_fail(PL_ERR_ARG, "conv2d: valid mode needs the %dx%d filter to fit the %lldx%lld image (use mode same)",
                       p->K, p->K, (long long)p->H, (long long)p->W);
    pl_conv2d_problem shape = *p;
    pl_conv2d_set_shape(&shape);
    if (p->OH != shape.OH || p->OW != shape.OW)
        return pl_fail(PL_ERR_ARG, "conv2d: output %lldx%lld, but %s mode gives %lldx%lld", (long long)p->OH,
                       (long long)p->OW, mode_names[p->mode], (long long)shape.OH, (long long)shape.OW);
    if (p->ld_img < p->W)
        return pl_fail(PL_ERR_ARG, "conv2d: ld_img = %lld is smaller than a row of the image (W = %lld)",
                       (long long)p->ld_img, (long long)p->W);
    if (p->ld_out < p->OW)
        return pl_fail(PL_ERR_ARG, "conv2d: ld_out = %lld is smaller than a row of the output (%lld)",
                       (long long)p->ld_out, (long long)p->OW);
    int64_t a, b;
    if (pl_mul_overflow(p->H, p->ld_img, &a) || pl_mul_overflow(p->OH, p->ld_out, &b) || pl_mul_overflow(a, 8, &a) ||
        pl_mul_overflow(b, 8, &b) || a > INT64_MAX / 4 || b > INT64_MAX / 4)
        return pl_fail(PL_ERR_OVERFLOW, "conv2d: %lldx%lld overflows 64-bit sizes", (long long)p->H, (long long)p->W);
    return PL_OK;
}

/* The largest |x| over the image's H x W pixels and the sum of |w|. */
static void i32_magnitudes(const pl_conv2d_problem *p, const int32_t *img, const int32_t *w, int64_t *max_x,
                           int64_t *sum_w)
{
    int64_t m = 0, sw = 0;
#pragma omp parallel for schedule(static) reduction(max : m)
    for (int64_t y = 0; y < p->H; y++)
        for (int64_t x = 0; x < p->W; x++) {
            int64_t v = img[y * p->ld_img + x];
            v = v < 0 ? -v : v;
            if (v > m) m = v;
        }
    for (int i = 0; i < p->K * p->K; i++) sw += w[i] < 0 ? -(int64_t)w[i] : w[i];
    *max_x = m, *sum_w = sw;
}

pl_status pl_conv2d_check_i32_range(const pl_conv2d_problem *p, const void *image, const void *filter)
{
    if (p->dtype != PL_I32) return PL_OK;
    int64_t max_x, sum_w;
    i32_magnitudes(p, image, filter, &max_x, &sum_w);
    if (sum_w != 0 && max_x > INT32_MAX / sum_w)
        return pl_fail(PL_ERR_ARG,
                       "conv2d int32: sum |w| = %lld times max |x| = %lld could leave int32 (> %d): "
                       "use float32 or smaller values", (long long)sum_w, (long long)max_x, INT32_MAX);
    return PL_OK;
}

/* ---------------------------------------------------------------- the filter parameter */

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* K from a count: an odd square up to 15*15, else 0. */
static int side_of(int64_t count)
{
    for (int k = 1; k <= PL_CONV2D_MAX_K; k += 2)
        if ((int64_t)k * k == count) return k;
    return 0;
}

/* Store v as element i of a dtype array; an int32 filter needs integers. */
static pl_status store_value(pl_dtype dtype, void *values, int i, double v, const char *what)
{
    if (!isfinite(v)) return pl_fail(PL_ERR_ARG, "conv2d filter: value %d (%s) is not finite", i + 1, what);
    if (dtype == PL_I32) {
        if (v != floor(v) || v < INT32_MIN || v > INT32_MAX)
            return pl_fail(PL_ERR_ARG, "conv2d filter: value %d (%s) is not an int32 (dtype i32)", i + 1, what);
        ((int32_t *)values)[i] = (int32_t)v;
    } else {
        ((float *)values)[i] = (float)v;
    }
    return PL_OK;
}

static pl_status filter_from_npy(const char *path, pl_dtype dtype, void **values, int *K)
{
    pl_array a;
    pl_status s = pl_npy_read(path, &a);
    if (s != PL_OK) return s;
    int64_t count = pl_array_count(&a);
    int k = side_of(count);
    if (a.rank > 2 || (a.rank == 2 && a.shape[0] != a.shape[1]) || k == 0) {
        pl_array_free(&a);
        return pl_fail(PL_ERR_ARG, "conv2d filter %s: %lld values, not a K x K filter with K odd in 1..%d", path,
                       (long long)count, PL_CONV2D_MAX_K);
    }
    void *out = malloc((size_t)count * 4);
    if (!out) {
        pl_array_free(&a);
        return pl_fail(PL_ERR_NOMEM, "conv2d filter: out of host memory");
    }
    for (int i = 0; i < count && s == PL_OK; i++) {
        double v;
        switch (a.dtype) {
        case PL_F32: v = ((const float *)a.data)[i]; break;
        case PL_F64: v = ((const double *)a.data)[i]; break;
        case PL_I32: v = ((const int32_t *)a.data)[i]; break;
        case PL_U8: v = ((const uint8_t *)a.data)[i]; break;
        case PL_U16: v = ((const uint16_t *)a.data)[i]; break;
        default: v = NAN;
        }
        char what[64];
        snprintf(what, sizeof what, "%.17g in %s", v, path);
        s = store_value(dtype, out, i, v, what);
    }
    pl_array_free(&a);
    if (s != PL_OK) {
        free(out);
        return s;
    }
    *values = out, *K = k;
    return PL_OK;
}

pl_status pl_conv2d_filter_parse(const char *text, pl_dtype dtype, void **values, int *K)
{
    *values = NULL, *K = 0;
    if (!text || !*text) return pl_fail(PL_ERR_ARG, "conv2d filter: empty");
    if (dtype != PL_F32 && dtype != PL_I32) return pl_fail(PL_ERR_ARG, "conv2d filter: dtype must be f32 or i32");
    if (ends_with(text, ".npy")) return filter_from_npy(text, dtype, values, K);
    int64_t count = 1;
    for (const char *c = text; *c; c++) count += *c == ',';
    int k = side_of(count);
    if (k == 0)
        return pl_fail(PL_ERR_ARG, "conv2d filter '%s': %lld values, not K*K with K odd in 1..%d (9, 25, 49, ...)",
                       text, (long long)count, PL_CONV2D_MAX_K);
    void *out = malloc((size_t)count * 4);
    if (!out) return pl_fail(PL_ERR_NOMEM, "conv2d filter: out of host memory");
    const char *s = text;
    for (int i = 0; i < count; i++) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        char item[64];
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item - 1 ? len : sizeof item - 1), s);
        char *end = NULL;
        errno = 0;
        double v = len ? strtod(item, &end) : 0.0;
        while (end && (*end == ' ' || *end == '\t')) end++;
        if (len == 0 || len >= sizeof item || end == item || *end != '\0' || errno == ERANGE) {
            free(out);
            return pl_fail(PL_ERR_ARG, "conv2d filter: value %d '%.*s' is not a number", i + 1, (int)len, s);
        }
        pl_status st = store_value(dtype, out, i, v, item);
        if (st != PL_OK) {
            free(out);
            return st;
        }
        s = comma ? comma + 1 : s + len;
    }
    *values = out, *K = k;
    return PL_OK;
}

/* ---------------------------------------------------------------- sizes and parameters */

static const int64_t k_values[] = {1, 3, 5, 7, 9, 11, 13, 15};
const pl_param_def pl_conv2d_problem_params[] = {
    [PL_CONV2D_PROBLEM_K] =
        {.name = "k", .help = "filter size K (odd); a given filter sets it (a k other than the default 3 must agree)",
         .kind = PL_PARAM_LIST, .values = k_values, .n_values = PL_COUNT(k_values), .def = 3},
    [PL_CONV2D_PROBLEM_DTYPE] =
        {.name = "dtype", .help = "image, filter and output type: f32, or i32 (exact: image 0..255, filter -8..8)",
         .kind = PL_PARAM_CHOICE, .choices = dtype_names, .def = DTYPE_F32},
    [PL_CONV2D_PROBLEM_MODE] =
        {.name = "mode", .help = "valid: (H-K+1) x (W-K+1) output; same: H x W, the image extended by the border rule",
         .kind = PL_PARAM_CHOICE, .choices = mode_names, .def = PL_CONV2D_VALID},
    [PL_CONV2D_PROBLEM_BORDER] =
        {.name = "border", .help = "same mode: zero, clamp (replicate the edge) or reflect (mirror, edge not repeated)",
         .kind = PL_PARAM_CHOICE, .choices = border_names, .def = PL_CONV2D_ZERO},
    [PL_CONV2D_PROBLEM_FLIP] =
        {.name = "flip", .help = "1: true convolution (filter rotated 180 degrees); 0: cross-correlation",
         .kind = PL_PARAM_RANGE, .min = 0, .max = 1, .step = 1, .def = 0},
    [PL_CONV2D_PROBLEM_FILTER] =
        {.name = "filter", .help = "the filter: K*K comma-separated numbers, or a .npy file of a K x K array",
         .kind = PL_PARAM_STRING},
    [PL_CONV2D_PROBLEM_PAD] =
        {.name = "pad", .help = "extra elements per row of the image and the output (ld = width + pad)",
         .kind = PL_PARAM_RANGE, .min = 0, .max = 4096, .step = 1, .def = 0},
};
PL_CHECK_COUNT(pl_conv2d_problem_params, PL_CONV2D_PROBLEM_N_PARAMS);

pl_status pl_conv2d_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv)
{
    pl_conv2d_problem *p = problem;
    memset(p, 0, sizeof *p);
    int64_t d[2];
    pl_status s = pl_parse_dims("conv2d", size, 2, "HxW", d);
    if (s != PL_OK) return s;
    p->H = d[0], p->W = d[1];
    p->K = (int)pv->num[PL_CONV2D_PROBLEM_K];
    p->dtype = pv->num[PL_CONV2D_PROBLEM_DTYPE] == DTYPE_I32 ? PL_I32 : PL_F32;
    p->mode = (int)pv->num[PL_CONV2D_PROBLEM_MODE];
    p->border = (int)pv->num[PL_CONV2D_PROBLEM_BORDER];
    p->flip = (int)pv->num[PL_CONV2D_PROBLEM_FLIP];
    if (pv->str[PL_CONV2D_PROBLEM_FILTER]) {
        int k;
        s = pl_conv2d_filter_parse(pv->str[PL_CONV2D_PROBLEM_FILTER], p->dtype, &p->filter, &k);
        if (s != PL_OK) return s;
        if (p->K != k && p->K != (int)pl_conv2d_problem_params[PL_CONV2D_PROBLEM_K].def) {
            free(p->filter);
            p->filter = NULL;
            return pl_fail(PL_ERR_ARG, "conv2d: k = %d, but the filter has %d values (K = %d)", p->K, k * k, k);
        }
        p->K = k;
    }
    int64_t pad = (int64_t)pv->num[PL_CONV2D_PROBLEM_PAD];
    pl_conv2d_set_shape(p);
    p->ld_img = p->W + pad;
    p->ld_out = p->OW + pad;
    s = pl_conv2d_check(p);
    if (s == PL_OK && p->filter && p->dtype == PL_I32) {
        /* The seeded image holds 0..255: refuse a given filter that could overflow before any
         * allocation (the reference checks the actual image again). */
        int32_t top = 255;
        pl_conv2d_problem one = *p;
        one.H = one.W = one.ld_img = 1;
        s = pl_conv2d_check_i32_range(&one, &top, p->filter);
    }
    if (s != PL_OK) {
        free(p->filter);
        p->filter = NULL;
    }
    return s;
}

void pl_conv2d_spec_destroy_problem(void *problem)
{
    pl_conv2d_problem *p = problem;
    free(p->filter);
    p->filter = NULL;
}

void pl_conv2d_spec_describe(const void *problem, char *buf, size_t n)
{
    const pl_conv2d_problem *p = problem;
    char dims[48];
    if (p->H == p->W) snprintf(dims, sizeof dims, "%lld", (long long)p->H);
    else snprintf(dims, sizeof dims, "%lldx%lld", (long long)p->H, (long long)p->W);
    snprintf(buf, n, "%s k%d %s%s%s%s%s", dims, p->K, p->dtype == PL_I32 ? "i32 " : "", mode_names[p->mode],
             p->mode == PL_CONV2D_SAME ? "-" : "", p->mode == PL_CONV2D_SAME ? border_names[p->border] : "",
             p->flip ? " flip" : "");
}

pl_status pl_conv2d_spec_operands(const void *problem, pl_tensor *t, int *n)
{
    const pl_conv2d_problem *p = problem;
    t[0] = (pl_tensor){"image", p->dtype, PL_IN, p->H, p->W, p->ld_img, NULL};
    t[1] = (pl_tensor){"filter", p->dtype, PL_IN, p->K, p->K, p->K, NULL};
    t[2] = (pl_tensor){"out", p->dtype, PL_OUT, p->OH, p->OW, p->ld_out, NULL};
    *n = 3;
    return PL_OK;
}

/* float32: image and filter uniform in [-1, 1) (never 0); int32: image 0..255, filter -8..8.
 * A given filter is copied as it is. */
void pl_conv2d_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed)
{
    (void)n;
    const pl_conv2d_problem *p = problem;
    int64_t kk = (int64_t)p->K * p->K;
    if (p->dtype == PL_I32) {
        pl_fill_i32(t[0].host, pl_tensor_span(&t[0]), 0, 255, seed);
        if (!p->filter) pl_fill_i32(t[1].host, kk, -8, 8, seed ^ 0x9e3779b97f4a7c15ull);
    } else {
        pl_fill_f32(t[0].host, pl_tensor_span(&t[0]), seed);
        if (!p->filter) pl_fill_f32(t[1].host, kk, seed ^ 0x9e3779b97f4a7c15ull);
    }
    if (p->filter) memcpy(t[1].host, p->filter, (size_t)kk * 4);
}

/* ---------------------------------------------------------------- the reference */

/* For output column x and filter column j, the image column read (-1: a zero outside). */
static int64_t *column_map(const pl_conv2d_problem *p)
{
    int64_t *map = malloc(sizeof(int64_t) * (size_t)p->OW * (size_t)p->K);
    if (!map) return NULL;
    int r = p->mode == PL_CONV2D_SAME ? p->K / 2 : 0;
    for (int64_t x = 0; x < p->OW; x++)
        for (int j = 0; j < p->K; j++)
            map[x * p->K + j] = pl_conv2d_border_index(p->border, x + j - r, p->W);
    return map;
}

/* The image row filter row i reads for output row y (-1: zeros). */
static int64_t source_row(const pl_conv2d_problem *p, int64_t y, int i)
{
    int r = p->mode == PL_CONV2D_SAME ? p->K / 2 : 0;
    return pl_conv2d_border_index(p->border, y + i - r, p->H);
}

/* Output (y, x) in float64 (exact for int32: every term and partial sum is an integer below
 * 2^53, and int64 sums are kept alongside) and its scale sum |w| |x|. */
static void ref_element(const pl_conv2d_problem *p, const void *image, const void *filter, const int64_t *cols,
                        int64_t y, int64_t x, double *value, double *scale, int64_t *exact)
{
    double acc = 0, mag = 0;
    int64_t iacc = 0;
    for (int i = 0; i < p->K; i++) {
        int64_t row = source_row(p, y, i);
        if (row < 0) continue;
        for (int j = 0; j < p->K; j++) {
            int64_t col = cols ? cols[x * p->K + j] : pl_conv2d_border_index(p->border, x + j - (p->mode ? p->K / 2 : 0), p->W);
            if (col < 0) continue;
            int tap = pl_conv2d_tap(p->K, p->flip, i, j);
            if (p->dtype == PL_I32) {
                int64_t w = ((const int32_t *)filter)[tap], v = ((const int32_t *)image)[row * p->ld_img + col];
                iacc += w * v;
            } else {
                double w = ((const float *)filter)[tap], v = ((const float *)image)[row * p->ld_img + col];
                acc += w * v;
                mag += fabs(w) * fabs(v);
            }
        }
    }
    *value = p->dtype == PL_I32 ? (double)iacc : acc;
    *scale = mag;
    *exact = iacc;
}

pl_status pl_conv2d_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale)
{
    (void)n;
    const pl_conv2d_problem *p = problem;
    pl_status s = pl_conv2d_check_i32_range(p, t[0].host, t[1].host);
    if (s != PL_OK) return s;
    int64_t *cols = column_map(p);
    if (!cols) return pl_fail(PL_ERR_NOMEM, "conv2d reference: out of host memory");
    const void *img = t[0].host, *w = t[1].host;
#pragma omp parallel for schedule(static)
    for (int64_t y = 0; y < p->OH; y++)
        for (int64_t x = 0; x < p->OW; x++) {
            double v, m;
            int64_t e;
            ref_element(p, img, w, cols, y, x, &v, &m, &e);
            if (p->dtype == PL_I32) {
                ((int32_t *)ref[2].host)[y * p->OW + x] = (int32_t)e;
            } else {
                ((double *)ref[2].host)[y * p->OW + x] = v;
                ((double *)scale[2].host)[y * p->OW + x] = m;
            }
        }
    free(cols);
    return PL_OK;
}

/* The sums and the magnitudes: 4 float64 operations per tap. */
double pl_conv2d_spec_reference_ops(const void *problem)
{
    const pl_conv2d_problem *p = problem;
    return 4.0 * p->K * p->K * (double)p->OH * (double)p->OW;
}

/* ---------------------------------------------------------------- bounds */

static double gamma_n(double n)
{
    double nu = n * ldexp(1.0, -24);
    return nu / (1.0 - nu);
}

double pl_conv2d_spec_elem_bound(const void *problem, pl_precision prec, const char **why)
{
    (void)prec;
    const pl_conv2d_problem *p = problem;
    if (p->dtype == PL_I32) {
        if (why) *why = "int32: exact (the spec keeps every sum inside int32), equality with the int64 reference";
        return 0.0;
    }
    if (why)
        *why = "FP32: gamma_(K*K+4) sum |w||x| per output, u=2^-24: a K*K-term dot product in any order, +4 for a "
               "separable path's rounding of the factors";
    return gamma_n((double)p->K * p->K + 4.0);
}

double pl_conv2d_spec_error_bound(const void *problem, pl_precision prec, const char **why)
{
    (void)prec;
    const pl_conv2d_problem *p = problem;
    if (p->dtype == PL_I32) {
        if (why) *why = "int32: exact, equality with the int64 reference";
        return 0.0;
    }
    if (why)
        *why = "FP32: relative Frobenius error <= gamma_(K*K+4), u=2^-24 (the element bound's factor; random-sign "
               "rounding stays far below it)";
    return gamma_n((double)p->K * p->K + 4.0);
}

/* ---------------------------------------------------------------- sampled check */

/* Rows and columns of the output, whole (the first, the last, the rest at random), and
 * RANDOM_POINTS scattered outputs, each against the float64 (int64) reference. A rung's bug
 * that is confined to the borders is caught by the first and last lines; one in a block of
 * the interior by the random lines and points crossing it. */
enum { SAMPLE_LINES = 16, RANDOM_POINTS = 1 << 16 };

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

typedef struct sample_acc {
    double d2, r2, worst, value, reference, bound; /* the worst point's value, reference, bound */
    int64_t row, col, checked, mismatches, wrong;
} sample_acc;

static void check_point(const pl_conv2d_problem *p, const pl_tensor *t, const pl_tensor *out, double eb,
                        int64_t y, int64_t x, sample_acc *a)
{
    double v, m;
    int64_t e;
    ref_element(p, t[0].host, t[1].host, NULL, y, x, &v, &m, &e);
    double ratio, o, ref, bound = 0;
    if (p->dtype == PL_I32) {
        o = ((const int32_t *)out[2].host)[y * p->ld_out + x], ref = (double)e;
        double d = o - ref;
        a->d2 += d * d, a->r2 += ref * ref;
        a->mismatches += o != ref;
        ratio = o != ref ? INFINITY : 0;
    } else {
        o = ((const float *)out[2].host)[y * p->ld_out + x], ref = v, bound = eb * m;
        double d = fabs(o - v);
        a->d2 += (o - v) * (o - v), a->r2 += v * v;
        ratio = !isfinite(o) ? INFINITY : d == 0 ? 0 : eb * m > 0 ? d / (eb * m) : INFINITY;
    }
    a->wrong += !(ratio <= 1.0);
    if (ratio > a->worst || isnan(ratio)) {
        a->worst = isnan(ratio) ? INFINITY : ratio, a->row = y, a->col = x;
        a->value = o, a->reference = ref, a->bound = bound;
    }
    a->checked++;
}

static void merge(sample_acc *into, const sample_acc *a)
{
    into->d2 += a->d2, into->r2 += a->r2, into->checked += a->checked, into->mismatches += a->mismatches;
    into->wrong += a->wrong;
    if (a->worst > into->worst) {
        into->worst = a->worst, into->row = a->row, into->col = a->col;
        into->value = a->value, into->reference = a->reference, into->bound = a->bound;
    }
}

pl_status pl_conv2d_spec_check_sampled(const void *problem, const pl_tensor *t, int n, const pl_tensor *out,
                                       pl_precision prec, uint64_t seed, pl_check_result *res)
{
    (void)n;
    const pl_conv2d_problem *p = problem;
    pl_status s = pl_conv2d_check_i32_range(p, t[0].host, t[1].host);
    if (s != PL_OK) return s;
    double eb = pl_conv2d_spec_elem_bound(problem, prec, NULL);
    uint64_t st = seed | 1;
    int64_t rows[SAMPLE_LINES], cols[SAMPLE_LINES];
    int nr = p->OH < SAMPLE_LINES ? (int)p->OH : SAMPLE_LINES, nc = p->OW < SAMPLE_LINES ? (int)p->OW : SAMPLE_LINES;
    for (int i = 0; i < nr; i++) rows[i] = i == 0 ? 0 : i == 1 ? p->OH - 1 : (int64_t)(lcg(&st) % (uint64_t)p->OH);
    for (int i = 0; i < nc; i++) cols[i] = i == 0 ? 0 : i == 1 ? p->OW - 1 : (int64_t)(lcg(&st) % (uint64_t)p->OW);
    sample_acc all = {0};
    /* Whole rows, whole columns, then points; each thread keeps its own tally. */
    int64_t row_items = (int64_t)nr * p->OW, col_items = (int64_t)nc * p->OH, total = row_items + col_items + RANDOM_POINTS;
#pragma omp parallel
    {
        sample_acc mine = {0};
#pragma omp for schedule(static)
        for (int64_t q = 0; q < total; q++) {
            int64_t y, x;
            if (q < row_items) y = rows[q / p->OW], x = q % p->OW;
            else if (q < row_items + col_items) x = cols[(q - row_items) / p->OH], y = (q - row_items) % p->OH;
            else {
                uint64_t h = (seed ^ (uint64_t)q) * 0x9e3779b97f4a7c15ull;
                h ^= h >> 29, h *= 0xbf58476d1ce4e5b9ull, h ^= h >> 32;
                y = (int64_t)(h % (uint64_t)p->OH), x = (int64_t)((h >> 20) % (uint64_t)p->OW);
            }
            check_point(p, t, out, eb, y, x, &mine);
        }
#pragma omp critical
        merge(&all, &mine);
    }
    res->checked += all.checked;
    res->operand = 2;
    res->row = all.row, res->col = all.col;
    res->value = all.value, res->reference = all.reference, res->bound = all.bound;
    res->wrong += all.wrong;
    if (p->dtype == PL_I32) {
        res->error = (double)all.mismatches;
        res->elem_ratio = all.mismatches ? INFINITY : 0;
    } else {
        res->error = !isfinite(all.d2) ? INFINITY : all.r2 > 0 ? sqrt(all.d2 / all.r2) : sqrt(all.d2);
        res->elem_ratio = all.worst;
    }
    snprintf(res->how, sizeof res->how, "sampled: %d whole rows, %d whole columns and %d random outputs against "
             "the %s reference", nr, nc, RANDOM_POINTS, p->dtype == PL_I32 ? "exact int64" : "float64");
    return PL_OK;
}

/* ---------------------------------------------------------------- counts */

/* A multiply and an add per tap per output (zeros outside a same-mode image counted too). */
double pl_conv2d_spec_ops(const void *problem)
{
    const pl_conv2d_problem *p = problem;
    return 2.0 * p->K * p->K * (double)p->OH * (double)p->OW;
}

/* The image read once, the output written once, the filter read once. */
double pl_conv2d_spec_bytes(const void *problem)
{
    const pl_conv2d_problem *p = problem;
    return 4.0 * ((double)p->H * (double)p->W + (double)p->OH * (double)p->OW + (double)p->K * p->K);
}

/* Of those, the output's (the memory bound times reads and writes at their own rates). */
double pl_conv2d_spec_bytes_written(const void *problem)
{
    const pl_conv2d_problem *p = problem;
    return 4.0 * (double)p->OH * (double)p->OW;
}
