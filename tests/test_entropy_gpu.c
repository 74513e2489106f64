/* test_entropy_gpu.c: every CUDA entropy rung against the float64 reference through the
 * harness: the odd shapes (1x1, 2x3, 5x5 with k=5, 33x1000, 1023x1025) with and without
 * padding and the k x bins x base grid of entropy_cases.h, at every block / tile / strip /
 * threads value; then GPU-only cases: windows larger than a block's columns (k=63, bins=256:
 * cuda-tuned's capped thread count and its shared memory beyond 48 KiB), a k without an
 * unrolled path (k=31, bins=100), cuda-swar's fast path (k=5, bins <= 16) on 7x3, 29x57, 3x200,
 * 261x4, 1x1, 300x130 (strips inside the image: its interior loop) and 1000x1001, thin images
 * (1x5000, 5000x1), several strips and blocks with pads, the 2560^2 lab case; cuda-tuned and
 * cuda-swar at every strip and threads / warps value on those; the hand-worked images through
 * pl_entropy_variant, and pl_entropy on a CUDA context (cuda-swar picked). Label `gpu`: without
 * a GPU it reports "skipped: no GPU" (exit 77).
 * --quick (or PL_SANITIZER set, for compute-sanitizer): the defaults on the shapes up to
 * 33x1000 and the grid, each other parameter value on two problems, the GPU-only cases up to
 * 300x130 (cuda-swar's small ones and its interior loop included); no 2560^2. --rung NAME:
 * that CUDA rung alone (racecheck of the shared-memory rungs), without the pl_entropy check. */
#include "entropy_cases.h"
#include "gpu_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* --quick: one border-heavy problem and one with several blocks, for a parameter value. */
static void check_entropy_quick(pl_ctx *ctx, const pl_variant *v, const int64_t *params, const char *label,
                                int n_shapes)
{
    if (!params) { /* the defaults get the full list */
        check_entropy_cases(ctx, v, NULL, label, n_shapes);
        return;
    }
    check_entropy_one(ctx, v, params, label, "33x1000", 5, 16, 0, 3, 41);
    check_entropy_one(ctx, v, params, label, "150x97", 15, 256, 1, 1, 42);
}

/* Problems only the GPU rungs need, at the defaults and (cuda-tuned) at every strip and
 * threads value. {size, k, bins, base2, pad}. */
struct gpu_case {
    const char *size;
    int k, bins, base2, pad;
};
static const struct gpu_case gpu_cases[] = {
    {"300x257", 63, 256, 0, 0}, /* tuned: threads capped to 96, > 48 KiB of shared memory */
    {"200x150", 31, 100, 1, 7}, /* no unrolled k, bins not a power of two */
    /* cuda-swar's fast path (k = 5, bins <= 16): ragged warps (28 columns) and strips, a
     * window wider or taller than the image, tiny images, both bases, pads */
    {"7x3", 5, 16, 1, 0},       {"29x57", 5, 11, 1, 2},     {"3x200", 5, 2, 0, 5},
    {"261x4", 5, 16, 1, 0},     {"1x1", 5, 16, 0, 0},
    /* cuda-swar's fast path (whole strips inside the image, warps inside it) in --quick too:
     * strips 32..128 away from the borders, warps past the right edge, an odd pitch */
    {"300x130", 5, 16, 0, 3},
    {"1x5000", 5, 16, 0, 0},    {"5000x1", 15, 16, 1, 2}, /* thin: one block row / column */
    {"517x1031", 7, 64, 0, 13}, /* several strips and blocks, ragged on both sides */
    {"130x300", 3, 2, 1, 0},
    {"1000x1001", 5, 16, 0, 1}, /* cuda-swar: 36 warps of 28 columns, the last one ragged */
    {"2560", 5, 16, 0, 0},      /* the lab's case */
};
enum { N_GPU_QUICK = 8 }; /* --quick: the cases up to 300x130 */
enum { N_GPU_CASES = sizeof gpu_cases / sizeof gpu_cases[0] };

static void check_gpu_cases(pl_ctx *ctx, const pl_variant *v, const int64_t *params, const char *label, int n_cases)
{
    for (int c = 0; c < n_cases; c++) {
        const struct gpu_case *g = &gpu_cases[c];
        check_entropy_one(ctx, v, params, label, g->size, g->k, g->bins, g->base2, g->pad, 500 + (uint64_t)c);
    }
}

int main(int argc, char **argv)
{
    int quick = gpu_check_sanitizer();
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--rung") && i + 1 < argc) only = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--quick] [--rung NAME]\n", argv[0]);
            return 2;
        }
    }
    if (only) {
        const pl_variant *v = pl_variant_find(&pl_entropy_kernel, only);
        if (!v || v->backend != PL_BACKEND_CUDA) {
            fprintf(stderr, "%s: --rung %s: not a CUDA entropy rung\n", argv[0], only);
            return 2;
        }
    }
    pl_ctx *ctx = gpu_check_ctx();
    if (!ctx) return check_summary("test_entropy_gpu");
    if (quick) printf("quick: defaults on shapes up to 33x1000, other parameter values on two problems, no 2560^2\n");
    const int n_shapes = quick ? N_ENTROPY_SHAPES - 1 : N_ENTROPY_SHAPES;
    const int n_gpu = quick ? N_GPU_QUICK : N_GPU_CASES;
    const pl_kernel *k = &pl_entropy_kernel;
    int n_rungs = 0;
    for (int i = 0; i < k->n_variants; i++) {
        const pl_variant *v = k->ladder[i];
        if (only && strcmp(v->name, only)) continue;
        if (!gpu_check_rung(ctx, v)) continue;
        n_rungs++;
        for_each_param_value(ctx, v, PARAM_SKIP_DEFAULT, NULL, NULL,
                             quick ? check_entropy_quick : check_entropy_cases, n_shapes);
        check_gpu_cases(ctx, v, NULL, v->name, n_gpu);
        if (!strcmp(v->name, "cuda-tuned") || !strcmp(v->name, "cuda-swar")) {
            /* Every strip and threads (warps, ahead) value on the GPU-only problems too. */
            CHECK(v->n_params <= 4, "%s: %d parameters, the test holds 4", v->name, v->n_params);
            for (int p = 0; p < v->n_params && v->n_params <= 4; p++)
                for (int j = 0; j < v->params[p].n_values; j++) {
                    int64_t params[4];
                    for (int q = 0; q < v->n_params; q++) params[q] = (int64_t)v->params[q].def;
                    if (v->params[p].values[j] == params[p]) continue;
                    params[p] = v->params[p].values[j];
                    char label[96];
                    snprintf(label, sizeof label, "%s %s=%lld", v->name, v->params[p].name, (long long)params[p]);
                    check_gpu_cases(ctx, v, params, label, quick ? N_GPU_QUICK : N_GPU_CASES - 1);
                }
        }
        check_entropy_hand_cases(ctx, v->name, NULL);
        printf("%s: checked\n", v->name);
    }
    CHECK(n_rungs == (only ? 1 : 5), "CUDA rungs run: %d, expected %d", n_rungs, only ? 1 : 5);
    if (only) {
        pl_ctx_destroy(ctx);
        return check_summary("test_entropy_gpu");
    }

    /* pl_entropy on host arrays through a CUDA context picks cuda-swar; padded rows both sides. */
    const char *best = pl_best_variant(ctx, pl_kernel_find("entropy"), NULL);
    CHECK(best && !strcmp(best, "cuda-swar"), "best CUDA variant: %s", best ? best : "(none)");
    enum { H = 61, W = 83, LD = 90, LDO = 87 };
    static uint8_t img[H * LD];
    static float out[H * LDO];
    for (int i = 0; i < H * LD; i++) img[i] = (uint8_t)(((i * 2654435761u) >> 13) % 16);
    for (int i = 0; i < H * LDO; i++) out[i] = NAN;
    pl_status st = pl_entropy(ctx, H, W, img, LD, 7, 16, 1, out, LDO);
    CHECK(st == PL_OK, "pl_entropy on the GPU: %s", pl_last_error());
    pl_entropy_problem p = {H, W, 7, 16, 1, LD, LDO};
    double worst = 0;
    int pad_written = 0;
    for (int i = 0; i < H; i++) {
        for (int j = 0; j < W; j++) {
            double d = fabs(out[i * LDO + j] - pl_entropy_reference_at(&p, img, i, j, NULL));
            worst = d > worst || isnan(d) ? d : worst;
        }
        for (int j = W; j < LDO; j++) pad_written += !isnan(out[i * LDO + j]);
    }
    CHECK(worst <= 1e-5, "pl_entropy on the GPU: worst difference from the reference %g", worst);
    CHECK(pad_written == 0, "pl_entropy on the GPU: %d padding elements written", pad_written);

    pl_ctx_destroy(ctx);
    return check_summary("test_entropy_gpu");
}
