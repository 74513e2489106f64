/* test_conv2d.c: every CPU conv2d rung against the float64 (int64) reference on the shapes of
 * conv2d_cases.h (valid and same with every border, flip on and off, f32 and i32, padded rows),
 * at every parameter value, with 1 and 2 threads; small cases computed by hand (a box, an
 * identity, a flip that matters, each border rule); the border index helper against its
 * definition; pl_conv2d's argument checks, int32 refusal and padding; the problem parameters
 * (sizes, filter text and files, k that disagrees). What cannot run here prints "skipped: <why>". */
#include "conv2d_cases.h"
#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Every case is made once and every CPU rung (every parameter value) runs on it. */
static void test_rungs(void)
{
    static conv2d_case cases[CONV2D_MAX_CASES];
    int n = conv2d_case_list(cases, N_CONV2D_SHAPES);
    printf("%d cases\n", n);
    pl_ctx *ctx[2] = {NULL, NULL};
    for (int t = 0; t < 2; t++)
        CHECK(pl_ctx_create(&ctx[t], PL_BACKEND_CPU, 0, t + 1) == PL_OK, "cpu context: %s", pl_last_error());
    if (!ctx[0] || !ctx[1]) return;
    for (int i = 0; i < n; i++) {
        char what[96];
        conv2d_case_label(&cases[i], what, sizeof what);
        pl_problem *p = NULL;
        pl_status st = conv2d_case_problem(&cases[i], 5 + (uint64_t)i, &p);
        CHECK(st == PL_OK, "problem %s: %s", what, pl_last_error());
        if (st != PL_OK) continue;
        for (int vi = 0; vi < pl_conv2d_kernel.n_variants; vi++) {
            const pl_variant *v = pl_conv2d_kernel.ladder[vi];
            if (v->backend != PL_BACKEND_CPU) continue;
            char why[128];
            if (pl_variant_check(ctx[0], v, why, sizeof why) != PL_OK) {
                if (i == 0) cpu_rung_may_skip(v, v->name, why);
                continue;
            }
            /* Threads alternate over the cases; the blocked rung also at each isa, at the
             * smallest and largest band, with streaming stores forced on and off. */
            pl_ctx *c = ctx[i & 1];
            check_conv2d_run(c, p, v, NULL, v->name, what);
            if (strcmp(v->name, "cpu-blocked") == 0) {
                int64_t params[2][4] = {{8, 1, 2, 1}, {512, 2, 1, 0}};
                for (int q = 0; q < 2; q++) {
                    if (params[q][1] == 2 && !(pl_features() & PL_FEAT_AVX512)) continue;
                    char label[64];
                    snprintf(label, sizeof label, "cpu-blocked rows=%lld isa=%s stream=%s prefetch=%s",
                             (long long)params[q][0], params[q][1] == 1 ? "avx2" : "avx512",
                             params[q][2] == 2 ? "on" : "off", params[q][3] ? "off" : "on");
                    check_conv2d_run(ctx[(i + 1) & 1], p, v, params[q], label, what);
                }
            }
        }
        pl_problem_destroy(p);
    }
    if (!(pl_features() & PL_FEAT_AVX512)) printf("skipped: cpu-blocked isa=avx512: this CPU lacks AVX-512\n");
    pl_ctx_destroy(ctx[0]);
    pl_ctx_destroy(ctx[1]);
}

/* pl_conv2d_border_index against its definition, written out another way: zero is -1
 * outside; clamp the nearest edge; reflect walks back and forth over 0..n-1 without
 * repeating the edge (…, 2, 1, [0, 1, …, n-1], n-2, n-3, …). */
static void test_border_index(void)
{
    int bad = 0;
    for (int64_t n = 1; n <= 6; n++)
        for (int64_t v = -20; v < n + 20; v++) {
            int64_t inside = v >= 0 && v < n;
            bad += pl_conv2d_border_index(PL_CONV2D_ZERO, v, n) != (inside ? v : -1);
            bad += pl_conv2d_border_index(PL_CONV2D_CLAMP, v, n) != (v < 0 ? 0 : v >= n ? n - 1 : v);
            /* Reflect by walking: start at 0 moving up, bounce at the ends. */
            int64_t pos = 0, dir = 1, steps = v < 0 ? -v : v;
            if (v < 0) dir = -1;
            for (int64_t s = 0; s < steps && n > 1; s++) {
                if (pos + dir < 0 || pos + dir >= n) dir = -dir;
                pos += dir;
            }
            int64_t got = pl_conv2d_border_index(PL_CONV2D_REFLECT, v, n);
            if (got != pos) {
                if (bad < 5) printf("  reflect(%lld, n=%lld) = %lld, want %lld\n", (long long)v, (long long)n,
                                    (long long)got, (long long)pos);
                bad++;
            }
        }
    CHECK(bad == 0, "border index: %d values differ from the definition", bad);
    /* Spot values of the header's examples. */
    CHECK(pl_conv2d_border_index(PL_CONV2D_REFLECT, -1, 5) == 1, "reflect -1 of 5 reads 1");
    CHECK(pl_conv2d_border_index(PL_CONV2D_REFLECT, 5, 5) == 3, "reflect 5 of 5 reads 3");
    CHECK(pl_conv2d_border_index(PL_CONV2D_CLAMP, -3, 5) == 0, "clamp -3 reads 0");
    CHECK(pl_conv2d_tap(3, 0, 0, 2) == 2 && pl_conv2d_tap(3, 1, 0, 2) == 6, "tap (0,2): 2, flipped 6");
}

/* The same result by another route than the test's hand loops and the rungs: the image copied
 * into a padded array whose border is filled outward column by column, then row by row (zero:
 * zeros; clamp: the next value in; reflect: the value as far inside the edge), then a plain
 * slide of the (flipped) filter over it. For 4x4 images and K <= 5. */
static void direct_conv(int64_t H, int64_t W, const double *img, int K, const double *filt, pl_conv2d_opts o,
                        double *out)
{
    enum { P = 16 };
    double pad[P][P] = {{0}};
    const int r = o.mode ? K / 2 : 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) pad[r + y][r + x] = img[y * W + x];
    for (int t = 1; t <= r; t++)
        for (int y = r; y < r + H; y++) {
            int lc = r - t, rc = r + (int)W - 1 + t;
            pad[y][lc] = o.border == 0 ? 0 : o.border == 1 ? pad[y][lc + 1] : pad[y][r + t];
            pad[y][rc] = o.border == 0 ? 0 : o.border == 1 ? pad[y][rc - 1] : pad[y][r + (int)W - 1 - t];
        }
    for (int t = 1; t <= r; t++)
        for (int x = 0; x < (int)W + 2 * r; x++) {
            int tr = r - t, br = r + (int)H - 1 + t;
            pad[tr][x] = o.border == 0 ? 0 : o.border == 1 ? pad[tr + 1][x] : pad[r + t][x];
            pad[br][x] = o.border == 0 ? 0 : o.border == 1 ? pad[br - 1][x] : pad[r + (int)H - 1 - t][x];
        }
    const int64_t OH = o.mode ? H : H - K + 1, OW = o.mode ? W : W - K + 1;
    for (int64_t y = 0; y < OH; y++)
        for (int64_t x = 0; x < OW; x++) {
            double sum = 0;
            for (int a = 0; a < K; a++)
                for (int b = 0; b < K; b++)
                    sum += pad[y + a][x + b] * filt[o.flip ? (K - 1 - a) * K + (K - 1 - b) : a * K + b];
            out[y * OW + x] = sum;
        }
}

/* One hand-computed case through pl_conv2d_variant for each CPU rung and both dtypes; the hand
 * values are first checked against direct_conv, so a wrong hand value cannot excuse a rung. */
static void hand_case(pl_ctx *ctx, const char *what, int64_t H, int64_t W, const double *img, int K,
                      const double *filt, pl_conv2d_opts o, const double *want)
{
    const char *rungs[] = {"cpu-naive", "cpu-blocked"};
    int64_t OH = o.mode ? H : H - K + 1, OW = o.mode ? W : W - K + 1;
    double direct[64];
    direct_conv(H, W, img, K, filt, o, direct);
    for (int64_t i = 0; i < OH * OW; i++)
        CHECK(want[i] == direct[i], "%s: the hand value out[%lld] = %g, the direct computation %g", what, (long long)i,
              want[i], direct[i]);
    float fi[64], ff[225], fo[64];
    int32_t ii[64], iff[225], io[64];
    for (int64_t i = 0; i < H * W; i++) fi[i] = (float)img[i], ii[i] = (int32_t)img[i];
    for (int i = 0; i < K * K; i++) ff[i] = (float)filt[i], iff[i] = (int32_t)filt[i];
    for (int r = 0; r < 2; r++)
        for (int d = 0; d < 2; d++) {
            pl_dtype dt = d ? PL_I32 : PL_F32;
            for (int i = 0; i < 64; i++) fo[i] = NAN, io[i] = -77777;
            pl_status st = pl_conv2d_variant(ctx, rungs[r], NULL, dt, H, W, d ? (void *)ii : (void *)fi, W, K,
                                             d ? (void *)iff : (void *)ff, &o, d ? (void *)io : (void *)fo, OW);
            if (st == PL_ERR_UNSUPPORTED) {
                printf("skipped: %s with %s: %s\n", what, rungs[r], pl_last_error());
                continue;
            }
            CHECK(st == PL_OK, "%s (%s, %s): %s", what, rungs[r], pl_dtype_name(dt), pl_last_error());
            int wrong = 0;
            for (int64_t i = 0; i < OH * OW; i++) {
                double got = d ? io[i] : fo[i];
                if (fabs(got - want[i]) > 1e-5 * (1 + fabs(want[i]))) {
                    if (!wrong) printf("  %s %s %s: out[%lld] = %g, want %g\n", what, rungs[r], pl_dtype_name(dt),
                                       (long long)i, got, want[i]);
                    wrong++;
                }
            }
            CHECK(wrong == 0, "%s (%s, %s): %d outputs wrong", what, rungs[r], pl_dtype_name(dt), wrong);
        }
}

static void test_hand(void)
{
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2) == PL_OK, "context: %s", pl_last_error());
    if (!ctx) return;
    /* A 4x4 image 1..16. */
    double img[16];
    for (int i = 0; i < 16; i++) img[i] = i + 1;
    const double box[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    /* valid 3x3 box sums: rows 0-2, cols 0-2: 1+2+3+5+6+7+9+10+11 = 54; then 63, 90, 99. */
    const double box_valid[4] = {54, 63, 90, 99};
    hand_case(ctx, "3x3 box, valid", 4, 4, img, 3, box, (pl_conv2d_opts){0, 0, 0}, box_valid);
    /* same, zero border: the corner (0,0) sums 1+2+5+6 = 14; (0,1) 1+2+3+5+6+7 = 24. */
    const double box_zero[16] = {14, 24, 30, 22, 33, 54, 63, 45, 57, 90, 99, 69, 46, 72, 78, 54};
    hand_case(ctx, "3x3 box, same zero", 4, 4, img, 3, box, (pl_conv2d_opts){1, 0, 0}, box_zero);
    /* clamp: corner (0,0) reads rows {0,0,1} and cols {0,0,1}: 4*1 + 2*2 + 2*5 + 6 = 24. */
    const double box_clamp_corner = 24;
    /* reflect: corner (0,0) reads rows {1,0,1}, cols {1,0,1}: 4*6 + 2*5 + 2*2 + 1 = 39. */
    const double box_reflect_corner = 39;
    double want[16];
    memcpy(want, box_zero, sizeof want);
    for (int i = 0; i < 16; i++) { /* interior same as zero; edges recomputed by hand below */
        int y = i / 4, x = i % 4;
        double s = 0;
        for (int a = -1; a <= 1; a++)
            for (int b = -1; b <= 1; b++) {
                int yy = y + a < 0 ? 0 : y + a > 3 ? 3 : y + a, xx = x + b < 0 ? 0 : x + b > 3 ? 3 : x + b;
                s += img[yy * 4 + xx];
            }
        want[i] = s;
    }
    CHECK(want[0] == box_clamp_corner, "hand clamp corner %g, by hand %g", want[0], box_clamp_corner);
    hand_case(ctx, "3x3 box, same clamp", 4, 4, img, 3, box, (pl_conv2d_opts){1, 1, 0}, want);
    for (int i = 0; i < 16; i++) {
        int y = i / 4, x = i % 4;
        double s = 0;
        for (int a = -1; a <= 1; a++)
            for (int b = -1; b <= 1; b++) {
                int yy = y + a < 0 ? -(y + a) : y + a > 3 ? 6 - (y + a) : y + a;
                int xx = x + b < 0 ? -(x + b) : x + b > 3 ? 6 - (x + b) : x + b;
                s += img[yy * 4 + xx];
            }
        want[i] = s;
    }
    CHECK(want[0] == box_reflect_corner, "hand reflect corner %g", want[0]);
    hand_case(ctx, "3x3 box, same reflect", 4, 4, img, 3, box, (pl_conv2d_opts){1, 2, 0}, want);
    /* Identity: a 5x5 filter with a 1 in the middle gives the image back (same, any border). */
    double ident[25] = {0};
    ident[12] = 1;
    for (int b = 0; b < 3; b++) hand_case(ctx, "5x5 identity, same", 4, 4, img, 5, ident, (pl_conv2d_opts){1, b, 0}, img);
    /* A flip that matters: w = [[0,0,0],[0,0,1],[0,0,0]] (right neighbour). Cross-correlation
     * reads x+1; convolution (flip) reads x-1. Valid on the 4x4: out is 2x2 at rows 1..2. */
    const double right[9] = {0, 0, 0, 0, 0, 1, 0, 0, 0};
    const double xcorr[4] = {7, 8, 11, 12}, conv[4] = {5, 6, 9, 10};
    hand_case(ctx, "shift filter, cross-correlation", 4, 4, img, 3, right, (pl_conv2d_opts){0, 0, 0}, xcorr);
    hand_case(ctx, "shift filter, flipped", 4, 4, img, 3, right, (pl_conv2d_opts){0, 0, 1}, conv);
    /* A 1x1 image and a 1x1 filter: one product. */
    const double one_img[1] = {3}, one_w[1] = {-2}, one_out[1] = {-6};
    hand_case(ctx, "1x1 by 1x1", 1, 1, one_img, 1, one_w, (pl_conv2d_opts){0, 0, 0}, one_out);
    pl_ctx_destroy(ctx);
}

/* pl_conv2d on padded arrays: the result matches cpu-naive's, the output's row padding stays
 * as it was; bad arguments give a status and a message; int32 sums that could overflow are
 * refused. */
static void test_api(void)
{
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2) == PL_OK, "context: %s", pl_last_error());
    if (!ctx) return;
    enum { H = 37, W = 41, LDI = 45, K = 5, LDO = 44 };
    static float img[H * LDI], out[H * LDO], ref[H * LDO], w[K * K];
    pl_fill_f32(img, H * LDI, 9);
    pl_fill_f32(w, K * K, 10);
    pl_conv2d_opts o = {1, 2, 1};
    for (int i = 0; i < H * LDO; i++) out[i] = ref[i] = NAN;
    CHECK(pl_conv2d_variant(ctx, "cpu-naive", NULL, PL_F32, H, W, img, LDI, K, w, &o, ref, LDO) == PL_OK,
          "cpu-naive: %s", pl_last_error());
    pl_status st = pl_conv2d(ctx, PL_F32, H, W, img, LDI, K, w, &o, out, LDO);
    CHECK(st == PL_OK, "pl_conv2d (%s): %s", pl_best_variant(ctx, pl_kernel_find("conv2d"), NULL), pl_last_error());
    int wrong = 0, pad = 0;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) wrong += fabsf(out[y * LDO + x] - ref[y * LDO + x]) > 1e-5f;
        for (int x = W; x < LDO; x++) pad += !isnan(out[y * LDO + x]);
    }
    CHECK(wrong == 0, "pl_conv2d: %d outputs differ from cpu-naive", wrong);
    CHECK(pad == 0, "pl_conv2d wrote %d elements of the output's row padding", pad);
    CHECK(pl_best_variant(ctx, pl_kernel_find("conv2d"), NULL) != NULL, "a best CPU variant");
    /* Bad arguments. */
    struct { int64_t h, w, ldi; int k; int mode, border, flip; int64_t ldo; pl_status want; const char *what; } bad[] = {
        {0, 4, 4, 3, 1, 0, 0, 4, PL_ERR_ARG, "H = 0"},
        {4, 4, 4, 4, 1, 0, 0, 4, PL_ERR_ARG, "K even"},
        {4, 4, 4, 17, 1, 0, 0, 4, PL_ERR_ARG, "K = 17"},
        {4, 4, 4, 5, 0, 0, 0, 4, PL_ERR_ARG, "valid with K > H"},
        {4, 4, 3, 3, 1, 0, 0, 4, PL_ERR_ARG, "ld_img < W"},
        {4, 4, 4, 3, 1, 0, 0, 3, PL_ERR_ARG, "ld_out < W"},
        {4, 4, 4, 3, 2, 0, 0, 4, PL_ERR_ARG, "mode 2"},
        {4, 4, 4, 3, 1, 3, 0, 4, PL_ERR_ARG, "border 3"},
        {4, 4, 4, 3, 1, 0, 2, 4, PL_ERR_ARG, "flip 2"},
        {INT64_C(1) << 40, INT64_C(1) << 40, INT64_C(1) << 40, 3, 1, 0, 0, INT64_C(1) << 40, PL_ERR_OVERFLOW, "overflow"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pl_conv2d_opts b = {bad[i].mode, bad[i].border, bad[i].flip};
        st = pl_conv2d(ctx, PL_F32, bad[i].h, bad[i].w, img, bad[i].ldi, bad[i].k, w, &b, out, bad[i].ldo);
        CHECK(st == bad[i].want, "%s: status %s, want %s (%s)", bad[i].what, pl_status_name(st),
              pl_status_name(bad[i].want), pl_last_error());
        CHECK(pl_last_error()[0] != '\0', "%s: no message", bad[i].what);
    }
    CHECK(pl_conv2d(ctx, PL_F64, 4, 4, img, 4, 3, w, NULL, out, 4) == PL_ERR_ARG, "float64 is refused");
    /* The public enums (include/parlab.h): their numbers and the opts layout are what bindings
     * pass; a value outside them is refused and named. */
    CHECK(PL_CONV2D_SAME == 1 && PL_CONV2D_REFLECT == 2 && sizeof(pl_conv2d_opts) == 3 * sizeof(int),
          "pl_conv2d_opts: values or layout moved");
    pl_conv2d_opts bad_mode = {(pl_conv2d_mode)99, PL_CONV2D_ZERO, 0}, bad_border = {PL_CONV2D_SAME, (pl_conv2d_border)99, 0};
    CHECK(pl_conv2d(ctx, PL_F32, 4, 4, img, 4, 3, w, &bad_mode, out, 4) == PL_ERR_ARG &&
              strstr(pl_last_error(), "mode 99"),
          "mode 99 is refused, named: %s", pl_last_error());
    CHECK(pl_conv2d(ctx, PL_F32, 4, 4, img, 4, 3, w, &bad_border, out, 4) == PL_ERR_ARG &&
              strstr(pl_last_error(), "border 99"),
          "border 99 is refused, named: %s", pl_last_error());
    CHECK(pl_conv2d(ctx, PL_F32, 4, 4, NULL, 4, 3, w, NULL, out, 4) == PL_ERR_ARG, "NULL image");
    CHECK(pl_conv2d_variant(ctx, "no-such-rung", NULL, PL_F32, 4, 4, img, 4, 3, w, NULL, out, 4) == PL_ERR_ARG,
          "unknown variant");
    /* int32: 2^20 * 9 * 2^10 leaves int32, refused before any work; in range it is exact. */
    static int32_t ii[16], iw[9], io[16];
    for (int i = 0; i < 16; i++) ii[i] = 1 << 20;
    for (int i = 0; i < 9; i++) iw[i] = 1 << 10;
    st = pl_conv2d(ctx, PL_I32, 4, 4, ii, 4, 3, iw, NULL, io, 4);
    CHECK(st == PL_ERR_ARG && strstr(pl_last_error(), "int32"), "int32 overflow refused: %s (%s)",
          pl_status_name(st), pl_last_error());
    for (int i = 0; i < 9; i++) iw[i] = 100;
    st = pl_conv2d(ctx, PL_I32, 4, 4, ii, 4, 3, iw, NULL, io, 4);
    CHECK(st == PL_OK && io[0] == 900 * (1 << 20), "int32 in range: %s, out[0] = %d", pl_last_error(), io[0]);
    if (pl_features() & PL_FEAT_GPU) printf("skipped: CUDA refused without a GPU (this machine has one)\n");
    else
        CHECK(pl_conv2d_variant(ctx, "cuda-naive", NULL, PL_F32, 4, 4, img, 4, 3, w, NULL, out, 4) != PL_OK,
              "cuda-naive without a GPU must be refused");
    pl_ctx_destroy(ctx);
}

/* Problem parameters through the harness: sizes, a filter given as text or a file, a k that
 * disagrees, int32 filters that are not integers or could overflow. */
static void test_params(void)
{
    struct { const char *size; const char *sets[3]; pl_status want; double work; const char *msg; } cases[] = {
        {"16", {NULL}, PL_OK, 2.0 * 9 * 14 * 14, NULL},
        {"3x5", {"k=3"}, PL_OK, 2.0 * 9 * 1 * 3, NULL},
        {"small", {"mode=same"}, PL_OK, 2.0 * 9 * 1000 * 1000, NULL},
        {"5x9", {"filter=1,2,1,2,4,2,1,2,1", "mode=same"}, PL_OK, 2.0 * 9 * 45, NULL},
        {"9", {"filter=1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"}, PL_OK, 2.0 * 25 * 25, NULL},
        {"9", {"filter=1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1", "k=7"}, PL_ERR_ARG, 0, "k = 7"},
        {"9", {"filter=1,2,3,4"}, PL_ERR_ARG, 0, "4 values"},
        {"9", {"filter=1,2,x,4,5,6,7,8,9"}, PL_ERR_ARG, 0, "'x'"},
        {"9", {"filter=1,2,,4,5,6,7,8,9"}, PL_ERR_ARG, 0, "value 3"},
        {"9", {"filter=1,2,0.5,4,5,6,7,8,9", "dtype=i32"}, PL_ERR_ARG, 0, "int32"},
        {"9", {"filter=1e9,1,1,1,1,1,1,1,1", "dtype=i32"}, PL_ERR_ARG, 0, "leave int32"},
        {"9", {"filter=/no/such/filter.npy"}, PL_ERR_IO, 0, "filter.npy"},
        {"4x20", {"k=5"}, PL_ERR_ARG, 0, "4x20"},
        {"0", {NULL}, PL_ERR_ARG, 0, NULL},
        {"4x", {NULL}, PL_ERR_ARG, 0, NULL},
        {"4x4x4", {NULL}, PL_ERR_ARG, 0, NULL},
        {"99999999999999999999", {NULL}, PL_ERR_OVERFLOW, 0, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pl_pvalues pv;
        pl_pvalues_default(&pl_conv2d_kernel, &pv);
        pl_status st = PL_OK;
        for (int s = 0; s < 3 && cases[i].sets[s] && st == PL_OK; s++)
            st = pl_pvalues_set(&pl_conv2d_kernel, &pv, NULL, cases[i].sets[s]);
        CHECK(st == PL_OK, "case %zu: --set: %s", i, pl_last_error());
        pl_plan plan;
        st = pl_problem_plan(&pl_conv2d_kernel, cases[i].size, &pv, PL_CHECK_AUTO, &plan);
        CHECK(st == cases[i].want, "case %zu (%s %s): %s, want %s (%s)", i, cases[i].size,
              cases[i].sets[0] ? cases[i].sets[0] : "", pl_status_name(st), pl_status_name(cases[i].want),
              pl_last_error());
        if (st == PL_OK && cases[i].want == PL_OK)
            CHECK(plan.work == cases[i].work, "case %zu (%s): work %g, want %g", i, cases[i].size, plan.work,
                  cases[i].work);
        if (st != PL_OK && cases[i].msg)
            CHECK(strstr(pl_last_error(), cases[i].msg) != NULL, "case %zu: message should name '%s': %s", i,
                  cases[i].msg, pl_last_error());
    }
    /* A filter from a .npy file: a 3x3 float64 array read as float32, K taken from it; a
     * given filter is used as given (the box: each valid output of a constant... seeded
     * image is the sum of its 3x3 window). */
    char path[] = "/tmp/pl_conv2d_filterXXXXXX.npy";
    int fd = mkstemps(path, 4);
    CHECK(fd >= 0, "temporary file");
    if (fd >= 0) {
        close(fd);
        double box[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
        pl_array a = {PL_F64, 2, {3, 3}, box};
        CHECK(pl_npy_write(path, &a) == PL_OK, "write %s: %s", path, pl_last_error());
        pl_pvalues pv;
        pl_pvalues_default(&pl_conv2d_kernel, &pv);
        char set[64];
        snprintf(set, sizeof set, "filter=%s", path);
        CHECK(pl_pvalues_set(&pl_conv2d_kernel, &pv, NULL, set) == PL_OK, "--set %s", set);
        pl_problem *p = NULL;
        pl_problem_opts o = {3, PL_CHECK_FULL, NULL, NULL};
        pl_status st = pl_problem_create_opts(&p, &pl_conv2d_kernel, "20x30", &pv, &o);
        CHECK(st == PL_OK, "problem with a .npy filter: %s", pl_last_error());
        if (st == PL_OK) {
            const pl_conv2d_problem *cp = pl_problem_spec(p);
            CHECK(cp->K == 3 && cp->OH == 18 && cp->OW == 28, "K %d, out %lldx%lld", cp->K, (long long)cp->OH,
                  (long long)cp->OW);
            const float *wf = p->t[1].host, *im = p->t[0].host;
            const double *r = p->ref[2].host;
            CHECK(wf[0] == 1.0f && wf[8] == 1.0f, "the given filter is used as given");
            double s = 0;
            for (int y = 0; y < 3; y++)
                for (int x = 0; x < 3; x++) s += im[(5 + y) * cp->ld_img + 7 + x];
            CHECK(fabs(r[5 * cp->OW + 7] - s) < 1e-12, "reference at (5,7): %g, the window sums to %g",
                  r[5 * cp->OW + 7], s);
            pl_ctx *ctx = NULL;
            pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2);
            check_conv2d_run(ctx, p, pl_variant_find(&pl_conv2d_kernel, "cpu-naive"), NULL, "cpu-naive",
                             ".npy box filter");
            pl_ctx_destroy(ctx);
            pl_problem_destroy(p);
        }
        /* A 2x2 array is no filter. */
        double four[4] = {1, 2, 3, 4};
        pl_array b = {PL_F64, 2, {2, 2}, four};
        CHECK(pl_npy_write(path, &b) == PL_OK, "write %s", path);
        pl_plan plan;
        st = pl_problem_plan(&pl_conv2d_kernel, "9", &pv, PL_CHECK_AUTO, &plan);
        CHECK(st == PL_ERR_ARG && strstr(pl_last_error(), "4 values"), "a 2x2 .npy filter: %s (%s)",
              pl_status_name(st), pl_last_error());
        unlink(path);
    }
}

/* The sampled check on a problem big enough for it, and that it catches a wrong output. */
static void test_sampled(void)
{
    pl_pvalues pv;
    pl_pvalues_default(&pl_conv2d_kernel, &pv);
    const char *sets[] = {"mode=same", "border=reflect", "k=15"};
    for (int i = 0; i < 3; i++) pl_pvalues_set(&pl_conv2d_kernel, &pv, NULL, sets[i]);
    for (int d = 0; d < 2; d++) {
        if (d) pl_pvalues_set(&pl_conv2d_kernel, &pv, NULL, "dtype=i32");
        pl_problem *p = NULL;
        pl_problem_opts o = {7, PL_CHECK_SAMPLE, NULL, NULL};
        pl_status st = pl_problem_create_opts(&p, &pl_conv2d_kernel, "300x257", &pv, &o);
        CHECK(st == PL_OK, "sampled problem: %s", pl_last_error());
        if (st != PL_OK) continue;
        pl_ctx *ctx = NULL;
        pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2);
        const pl_variant *v = pl_variant_find(&pl_conv2d_kernel, "cpu-naive");
        check_conv2d_run(ctx, p, v, NULL, "cpu-naive (sampled check)", d ? "300x257 i32" : "300x257 f32");
        /* The check itself on a spoiled output: one interior element off. */
        const pl_conv2d_problem *cp = pl_problem_spec(p);
        size_t bytes = (size_t)pl_tensor_span(&p->t[2]) * 4;
        void *out = pl_alloc(bytes);
        void *data[3] = {p->t[0].host, p->t[1].host, out};
        pl_run_args a = {ctx, cp, data, 3, NULL, NULL, NULL};
        CHECK(pl_conv2d_cpu_naive(&a) == PL_OK, "naive");
        pl_tensor t_out[3] = {p->t[0], p->t[1], p->t[2]};
        t_out[2].host = out;
        pl_check_result res;
        memset(&res, 0, sizeof res);
        CHECK(pl_conv2d_spec_check_sampled(cp, p->t, 3, t_out, PL_PREC_FP32, 1, &res) == PL_OK && res.error == res.error &&
                  res.elem_ratio <= 1 && res.checked > 10000,
              "sampled check of a right output: ratio %g, %lld checked", res.elem_ratio, (long long)res.checked);
        /* Spoil a whole row band in the middle (as a blocked rung's lost band would). */
        for (int64_t y = 140; y < 148; y++)
            for (int64_t x = 0; x < cp->OW; x++) {
                if (d) ((int32_t *)out)[y * cp->ld_out + x] += 1;
                else ((float *)out)[y * cp->ld_out + x] *= 1.001f;
            }
        memset(&res, 0, sizeof res);
        pl_conv2d_spec_check_sampled(cp, p->t, 3, t_out, PL_PREC_FP32, 1, &res);
        CHECK(res.elem_ratio > 1 && res.row >= 140 && res.row < 148, "sampled check of a spoiled band: ratio %g at %lld",
              res.elem_ratio, (long long)res.row);
        pl_free(out);
        pl_ctx_destroy(ctx);
        pl_problem_destroy(p);
    }
}

int main(void)
{
    test_border_index();
    test_hand();
    test_params();
    test_api();
    test_sampled();
    test_rungs();
    return check_summary("conv2d");
}
