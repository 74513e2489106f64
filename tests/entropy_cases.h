/* entropy_cases.h: what every entropy rung is tested on, shared by the CPU and GPU tests.
 *   check_entropy_cases: the odd shapes (1x1, 2x3, 5x5, 33x1000, 1023x1025) with the defaults
 *     (k=5, bins=16, natural log) with and without row padding, then a grid of k in {1, 3, 5,
 *     7, 15} x bins in {2, 16, 256} x base e and 2 on small shapes, and k=63 (a window larger
 *     than the image), k = 9 with bins = 64, k = 3, 5, 7 with bins = 20, 32, 33, 64, and rows of
 *     201 (k = 3, 5, 7 with bins 2 to 64: wider than the AVX2 row walk's lead), each against the
 *     float64 reference through the harness.
 *   check_entropy_hand_cases: images whose entropies are worked out by hand, through
 *     pl_entropy_variant (the public call): constant, checkerboard, distinct corner, k=1, the
 *     whole image in every window, bins=256; and values >= bins refused naming the pixel. */
#ifndef PL_TEST_ENTROPY_CASES_H
#define PL_TEST_ENTROPY_CASES_H

#include "check.h"
#include "param_cases.h"
#include "harness/harness.h"
#include "kernels/entropy/entropy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const entropy_shapes[] = {"1x1", "2x3", "5x5", "33x1000", "1023x1025"};
enum { N_ENTROPY_SHAPES = sizeof entropy_shapes / sizeof entropy_shapes[0] };

/* One problem: size and the problem parameters {k, bins, base (0 e, 1 two), pad}. */
static inline void check_entropy_one(pl_ctx *ctx, const pl_variant *v, const int64_t *params, const char *label,
                              const char *size, int k, int bins, int base2, int pad, uint64_t seed)
{
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    cfg.min_time_s = 0;
    double pv[4] = {k, bins, base2, pad};
    pl_problem *p = NULL;
    pl_status st = pl_problem_create(&p, &pl_entropy_kernel, size, pv, seed);
    CHECK(st == PL_OK, "problem %s k=%d bins=%d: %s", size, k, bins, pl_last_error());
    if (st != PL_OK) return;
    pl_result r;
    st = pl_bench_variant(ctx, p, v, params, &cfg, &r);
    CHECK(st == PL_OK, "%s %s k=%d bins=%d base=%s pad=%d: run failed: %s", label, size, k, bins,
          base2 ? "2" : "e", pad, pl_last_error());
    CHECK(st != PL_OK || r.verified,
          "%s %s k=%d bins=%d base=%s pad=%d: wrong (error %g, elem ratio %g at out[%lld][%lld]), padding %s, "
          "inputs %s",
          label, size, k, bins, base2 ? "2" : "e", pad, r.error, r.first.elem_ratio, (long long)r.first.row,
          (long long)r.first.col, r.padding_ok ? "ok" : "WRITTEN", r.inputs_ok ? "ok" : "CHANGED");
    pl_problem_destroy(p);
}

/* The first n_shapes shapes with the defaults, pad 0 and 3; then the parameter grid. */
static inline void check_entropy_cases(pl_ctx *ctx, const pl_variant *v, const int64_t *params, const char *label,
                                int n_shapes)
{
    for (int s = 0; s < n_shapes; s++)
        for (int pad = 0; pad <= 3; pad += 3)
            check_entropy_one(ctx, v, params, label, entropy_shapes[s], 5, 16, 0, pad, 3 + (uint64_t)s);
    static const int ks[] = {1, 3, 5, 7, 15}, binss[] = {2, 16, 256};
    int c = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 3; j++)
            for (int base2 = 0; base2 <= 1; base2++, c++) {
                check_entropy_one(ctx, v, params, label, "37x70", ks[i], binss[j], base2, c % 2 ? 3 : 0, 100 + c);
                check_entropy_one(ctx, v, params, label, "2x3", ks[i], binss[j], base2, c % 3 ? 0 : 1, 200 + c);
            }
    check_entropy_one(ctx, v, params, label, "20x30", 63, 256, 1, 0, 300); /* window > image */
    check_entropy_one(ctx, v, params, label, "70x130", 9, 64, 0, 5, 301);
    /* bins past 16 with the vector paths' k: cpu-sliding's AVX2 path pads bins to 32 and 64 */
    static const int kb[][2] = {{3, 64}, {5, 20}, {5, 33}, {7, 32}};
    for (int i = 0; i < 4; i++)
        check_entropy_one(ctx, v, params, label, "37x70", kb[i][0], kb[i][1], i % 2, i % 2 ? 0 : 3, 310 + i);
    /* rows wider than cpu-sliding's AVX2 lead (64 columns) plus a group, with a partial last group:
     * the row walk's middle, where the counters are moved down without tests, at each column width
     * (bins padded to 8, 16, 32, 64) and look-up width (k = 3, 5, 7) */
    static const int wide[][2] = {{3, 2}, {5, 2}, {7, 2}, {3, 16}, {7, 16}, {3, 64}, {5, 33}, {7, 32}};
    for (int i = 0; i < 8; i++)
        check_entropy_one(ctx, v, params, label, "23x201", wide[i][0], wide[i][1], i % 2, i % 3 ? 0 : 3, 320 + i);
}

/* The defaults, then every choice of each LIST/CHOICE parameter (the others at defaults). */
static inline void check_entropy_all_params(pl_ctx *ctx, const pl_variant *v, int n_shapes)
{
    for_each_param_value(ctx, v, PARAM_SKIP_DEFAULT, NULL, NULL, check_entropy_cases, n_shapes);
}

/* out (H x W) against expected, to tol; label names the case. */
static inline void check_entropy_close(const char *label, const float *out, const double *expected, int64_t H, int64_t W,
                                double tol)
{
    int bad = 0;
    for (int64_t i = 0; i < H * W && bad < 3; i++)
        if (!(fabs(out[i] - expected[i]) <= tol)) {
            CHECK(0, "%s: pixel (%lld, %lld) = %.9g, expected %.9g", label, (long long)(i / W),
                  (long long)(i % W), out[i], expected[i]);
            bad++;
        }
    if (!bad) CHECK(1, "%s", label);
}

/* Run variant on values (H x W, pitch W) with k, bins, base2; *status gets the status. */
static inline float *run_entropy(pl_ctx *ctx, const char *variant, const int64_t *params, const uint8_t *values, int64_t H,
                          int64_t W, int k, int bins, int base2, pl_status *status)
{
    float *out = malloc(sizeof(float) * (size_t)(H * W));
    *status = PL_ERR_NOMEM;
    if (!out) return NULL;
    *status = pl_entropy_variant(ctx, variant, params, H, W, values, W, k, bins, base2, out, W);
    return out;
}

static inline void check_entropy_hand_cases(pl_ctx *ctx, const char *variant, const int64_t *params)
{
    char label[160];
    pl_status st;
    const double ln2 = log(2.0);
    enum { H = 6, W = 7 };
    uint8_t img[H * W];
    double want[H * W];

    /* A constant image: one value in every window, E = 0 everywhere. */
    memset(img, 3, sizeof img);
    for (int i = 0; i < H * W; i++) want[i] = 0.0;
    float *out = run_entropy(ctx, variant, params, img, H, W, 5, 16, 0, &st);
    snprintf(label, sizeof label, "%s: constant image", variant);
    CHECK(st == PL_OK, "%s: %s", label, pl_last_error());
    if (st == PL_OK) check_entropy_close(label, out, want, H, W, 1e-6);
    free(out);

    /* A checkerboard of 0 and 1 with k = 3. An interior 3x3 window holds 5 of its centre's value
     * and 4 of the other: E = -(5/9 ln 5/9 + 4/9 ln 4/9). A corner window is 2x2 (2 + 2) and an
     * edge window 2x3 or 3x2 (3 + 3): E = ln 2. In bits: the same divided by ln 2. */
    for (int i = 0; i < H; i++)
        for (int j = 0; j < W; j++) {
            img[i * W + j] = (uint8_t)((i + j) % 2);
            int edge = i == 0 || i == H - 1 || j == 0 || j == W - 1;
            want[i * W + j] = edge ? ln2 : -(5.0 / 9 * log(5.0 / 9) + 4.0 / 9 * log(4.0 / 9));
        }
    for (int base2 = 0; base2 <= 1; base2++) {
        out = run_entropy(ctx, variant, params, img, H, W, 3, 2, base2, &st);
        snprintf(label, sizeof label, "%s: checkerboard k=3 base %s", variant, base2 ? "2" : "e");
        CHECK(st == PL_OK, "%s: %s", label, pl_last_error());
        if (base2)
            for (int i = 0; i < H * W; i++) want[i] /= ln2;
        if (st == PL_OK) check_entropy_close(label, out, want, H, W, 2e-6);
        free(out);
    }

    /* k = 5, the top-left 3x3 block holds nine distinct values 0..8, the rest 9. Pixel (0,0)'s
     * window is clipped to rows 0..2, cols 0..2: nine values, each once: E = ln 9. Pixel (1,1)'s
     * window is rows 0..3, cols 0..3: 16 values, the nine once each and seven 9s:
     * E = ln 16 - (7 ln 7)/16. Pixel (5,6), the far corner, sees only 9s: E = 0. */
    for (int i = 0; i < H; i++)
        for (int j = 0; j < W; j++) img[i * W + j] = (uint8_t)(i < 3 && j < 3 ? i * 3 + j : 9);
    out = run_entropy(ctx, variant, params, img, H, W, 5, 10, 0, &st);
    snprintf(label, sizeof label, "%s: distinct corner k=5", variant);
    CHECK(st == PL_OK, "%s: %s", label, pl_last_error());
    if (st == PL_OK) {
        CHECK(fabs(out[0] - log(9.0)) <= 2e-6, "%s: (0,0) = %.9g, expected ln 9 = %.9g", label, out[0], log(9.0));
        double e11 = log(16.0) - 7 * log(7.0) / 16;
        CHECK(fabs(out[1 * W + 1] - e11) <= 2e-6, "%s: (1,1) = %.9g, expected %.9g", label, out[W + 1], e11);
        CHECK(fabs(out[H * W - 1]) <= 1e-6, "%s: (5,6) = %.9g, expected 0", label, out[H * W - 1]);
    }
    free(out);

    /* k = 1: a window of one value, E = 0 whatever the values. */
    for (int i = 0; i < H * W; i++) img[i] = (uint8_t)(i * 7 % 16), want[i] = 0.0;
    out = run_entropy(ctx, variant, params, img, H, W, 1, 16, 1, &st);
    snprintf(label, sizeof label, "%s: k=1", variant);
    CHECK(st == PL_OK, "%s: %s", label, pl_last_error());
    if (st == PL_OK) check_entropy_close(label, out, want, H, W, 1e-6);
    free(out);

    /* 2x3 of six distinct values with k = 7: every window is the whole image, E = log2 6 bits;
     * bins = 256 with the value 255 among them. */
    uint8_t six[6] = {0, 1, 2, 3, 4, 255};
    double want6[6];
    for (int i = 0; i < 6; i++) want6[i] = log(6.0) / ln2;
    out = run_entropy(ctx, variant, params, six, 2, 3, 7, 256, 1, &st);
    snprintf(label, sizeof label, "%s: whole image k=7 bins=256", variant);
    CHECK(st == PL_OK, "%s: %s", label, pl_last_error());
    if (st == PL_OK) check_entropy_close(label, out, want6, 2, 3, 4e-6);
    free(out);

    /* Values >= bins are refused, naming the first (row-major) offending pixel. */
    memset(img, 1, sizeof img);
    img[2 * W + 3] = 16, img[4 * W + 1] = 200;
    out = run_entropy(ctx, variant, params, img, H, W, 5, 16, 0, &st);
    CHECK(st == PL_ERR_ARG && strstr(pl_last_error(), "row 2, col 3") && strstr(pl_last_error(), "16"),
          "%s: a value 16 with bins=16 at (2,3): status %s, message '%s'", variant, pl_status_name(st),
          pl_last_error());
    free(out);
}

#endif
