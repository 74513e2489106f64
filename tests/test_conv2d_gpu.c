/* test_conv2d_gpu.c: every CUDA conv2d rung, and peer-cudnn where cuDNN has the case, against
 * the float64 (int64 for int32) reference through the harness, on the shared cases of
 * conv2d_cases.h (1x1, 2x3, 5x5 k=5, 17x15 k=15, 1000x1, 40x77, 37x80, 33x1000, 1023x1025;
 * valid and same x zero/clamp/reflect; flip; f32/i32; pad 0 and 3), at every block/tile/rows/
 * sep/path value on all shapes but the largest (the largest at the defaults); then GPU-only cases:
 * rank-1 filters (cuda-tuned's separable path, taken from K 5; f32 and i32, K 3..15, several
 * tiles), cuda-tuned's taps kernel at K 9, 11, 13 on 1100x1300 and in two contexts at once
 * (each its own filter in the device's one constant bank), and a 2000x3001 image at K 3, 5
 * and 15 (many tiles, ragged edges) for every rung.
 * peer-cudnn must refuse int32 and the clamp/reflect borders with PL_ERR_UNSUPPORTED; where
 * libcudnn.so.9 cannot be loaded its checks are skipped with the reason printed.
 * Label `gpu`: without a GPU it prints "skipped: no GPU" (exit 77).
 * Options: --quick (also under PL_SANITIZER: compute-sanitizer runs) checks 1x1, 2x3 and 5x5
 * at the defaults, the rank-1 cases at K 5 and 15 on 19x70 and the taps cases on 140x270
 * only; --only a,b runs only the named rungs (racecheck on cuda-tiled and cuda-tuned). */
#include "conv2d_cases.h"
#include "gpu_check.h"
#include "core/core.h"
#include "core/device.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const char *only; /* comma-separated rung names, NULL: all */
static int wanted(const pl_variant *v)
{
    if (!only) return 1;
    size_t n = strlen(v->name);
    for (const char *s = only; (s = strstr(s, v->name)) != NULL; s += n)
        if ((s == only || s[-1] == ',') && (s[n] == ',' || s[n] == 0)) return 1;
    return 0;
}

static pl_status make(const char *size, const char *const *sets, int n_sets, pl_problem **p)
{
    pl_pvalues pv;
    pl_pvalues_default(&pl_conv2d_kernel, &pv);
    for (int i = 0; i < n_sets; i++) {
        pl_status s = pl_pvalues_set(&pl_conv2d_kernel, &pv, NULL, sets[i]);
        if (s != PL_OK) return s;
    }
    pl_problem_opts o = {17, PL_CHECK_FULL, NULL, NULL};
    return pl_problem_create_opts(p, &pl_conv2d_kernel, size, &pv, &o);
}

/* peer-cudnn: the cases cuDNN has (float32, valid or zero border) must pass, the others be
 * refused as unsupported. Returns 0 (and prints why) where cuDNN cannot be loaded. */
static int cudnn_loadable(pl_ctx *ctx, const pl_variant *v)
{
    pl_problem *p = NULL;
    const char *sets[] = {"k=3"};
    if (make("8x9", sets, 1, &p) != PL_OK) return 0;
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    cfg.min_time_s = 0;
    pl_result r;
    pl_status st = pl_bench_variant(ctx, p, v, NULL, &cfg, &r);
    pl_problem_destroy(p);
    if (st == PL_ERR_UNSUPPORTED && strstr(pl_last_error(), "not found")) {
        printf("skipped: %s: %s\n", v->name, pl_last_error());
        return 0;
    }
    return 1;
}

static void check_cudnn(pl_ctx *ctx, const pl_variant *v, int n_shapes)
{
    static conv2d_case cases[CONV2D_MAX_CASES];
    int n = conv2d_case_list(cases, n_shapes), ran = 0, refused = 0;
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    cfg.min_time_s = 0;
    for (int i = 0; i < n; i++) {
        char what[96];
        conv2d_case_label(&cases[i], what, sizeof what);
        pl_problem *p = NULL;
        pl_status st = conv2d_case_problem(&cases[i], 5 + (uint64_t)i, &p);
        CHECK(st == PL_OK, "problem %s: %s", what, pl_last_error());
        if (st != PL_OK) continue;
        if (cases[i].i32 || (cases[i].mode == 1 && cases[i].border != 0)) {
            pl_result r;
            st = pl_bench_variant(ctx, p, v, NULL, &cfg, &r);
            CHECK(st == PL_ERR_UNSUPPORTED && strstr(pl_last_error(), cases[i].i32 ? "int32" : "border"),
                  "%s on %s: should be refused as unsupported, got status %d (%s)", v->name, what, (int)st,
                  pl_last_error());
            refused++;
        } else {
            check_conv2d_run(ctx, p, v, NULL, v->name, what);
            ran++;
        }
        pl_problem_destroy(p);
    }
    printf("%s: %d cases checked, %d refused (int32, clamp/reflect)\n", v->name, ran, refused);
}

/* The cases of one shape only (the largest, at the defaults). */
static void check_shape_defaults(pl_ctx *ctx, const pl_variant *v, int shape)
{
    static conv2d_case cases[CONV2D_MAX_CASES];
    int n = conv2d_case_list(cases, shape + 1);
    for (int i = 0; i < n; i++) {
        if (strcmp(cases[i].size, conv2d_shapes[shape].size)) continue;
        char what[96];
        conv2d_case_label(&cases[i], what, sizeof what);
        pl_problem *p = NULL;
        pl_status st = conv2d_case_problem(&cases[i], 5 + (uint64_t)i, &p);
        CHECK(st == PL_OK, "problem %s: %s", what, pl_last_error());
        if (st != PL_OK) continue;
        check_conv2d_run(ctx, p, v, NULL, v->name, what);
        pl_problem_destroy(p);
    }
}

/* A rank-1 filter col row^T of K*K values with few mantissa bits (every product exact in
 * float32, so the matrix is exactly rank 1 in both dtypes), as "filter=..." text. */
static void rank1_filter(int K, char *buf, size_t n)
{
    static const double col[] = {2, -1, 3, 1, -2, 4, 1, -3, 2, 1, -1, 5, 2, -2, 1};
    static const double row[] = {1.5, -0.5, 2, 1, -1.25, 0.75, 3, -2, 1, 0.5, -1, 2.5, 1, -0.25, 2};
    size_t o = (size_t)snprintf(buf, n, "filter=");
    for (int i = 0; i < K; i++)
        for (int j = 0; j < K && o < n; j++) {
            double w = col[i] * row[j];
            o += (size_t)snprintf(buf + o, n - o, "%s%g", i || j ? "," : "", w);
        }
}

/* Integer-valued variant for int32: row factors doubled to integers. */
static void rank1_filter_int(int K, char *buf, size_t n)
{
    static const int col[] = {2, -1, 3, 1, -2, 4, 1, -3, 2, 1, -1, 5, 2, -2, 1};
    static const int row[] = {6, -2, 8, 4, -5, 3, 12, -8, 4, 2, -4, 10, 4, -1, 8};
    size_t o = (size_t)snprintf(buf, n, "filter=");
    for (int i = 0; i < K; i++)
        for (int j = 0; j < K && o < n; j++) o += (size_t)snprintf(buf + o, n - o, "%s%d", i || j ? "," : "", col[i] * row[j]);
}

static void check_rank1(pl_ctx *ctx, const pl_variant *v, int quick)
{
    static const int ks[] = {3, 5, 7, 15};
    static const char *const modes[][2] = {{"mode=valid", "border=zero"}, {"mode=same", "border=reflect"},
                                           {"mode=same", "border=clamp"}, {"mode=same", "border=zero"}};
    const char *size = quick ? "19x70" : "150x203";
    int n = 0;
    for (int ki = 0; ki < 4; ki++) {
        if (quick && (ks[ki] == 3 || ks[ki] == 7)) continue;
        for (int i32 = 0; i32 < 2; i32++)
            for (int m = 0; m < 4; m++) {
                char filter[4096], k[16], what[160];
                if (i32) rank1_filter_int(ks[ki], filter, sizeof filter);
                else rank1_filter(ks[ki], filter, sizeof filter);
                snprintf(k, sizeof k, "k=%d", ks[ki]);
                const char *sets[] = {k, i32 ? "dtype=i32" : "dtype=f32", modes[m][0], modes[m][1],
                                      (m & 1) ? "flip=1" : "flip=0", (ki & 1) ? "pad=3" : "pad=0", filter};
                snprintf(what, sizeof what, "%s rank-1 k=%d %s %s %s %s %s", size, ks[ki], sets[1], sets[2], sets[3],
                         sets[4], sets[5]);
                pl_problem *p = NULL;
                pl_status st = make(size, sets, 7, &p);
                CHECK(st == PL_OK, "problem %s: %s", what, pl_last_error());
                if (st != PL_OK) continue;
                check_conv2d_run(ctx, p, v, NULL, v->name, what);
                n++;
                pl_problem_destroy(p);
            }
    }
    printf("%s: %d rank-1 filter cases checked\n", v->name, n);
}

/* Many tiles with ragged edges, K 3 and 15, both dtypes, a reflect border and valid. */
static void check_large(pl_ctx *ctx, const pl_variant *v)
{
    static const char *const sets[][5] = {
        {"k=3", "dtype=f32", "mode=same", "border=reflect", "pad=0"},
        {"k=15", "dtype=f32", "mode=valid", "border=zero", "pad=3"},
        {"k=5", "dtype=i32", "mode=same", "border=clamp", "pad=1"},
        {"k=3", "dtype=f32", "mode=same", "border=zero", "pad=0"},
    };
    for (int c = 0; c < 4; c++) {
        if (!strcmp(v->name, "peer-cudnn") && (strcmp(sets[c][1], "dtype=f32") || !strcmp(sets[c][3], "border=reflect")))
            continue;
        char what[128];
        snprintf(what, sizeof what, "2000x3001 %s %s %s %s %s", sets[c][0], sets[c][1], sets[c][2], sets[c][3], sets[c][4]);
        pl_problem *p = NULL;
        pl_status st = make("2000x3001", sets[c], 5, &p);
        CHECK(st == PL_OK, "problem %s: %s", what, pl_last_error());
        if (st != PL_OK) continue;
        check_conv2d_run(ctx, p, v, NULL, v->name, what);
        pl_problem_destroy(p);
    }
}

/* cuda-tuned's taps kernel (float32, the default from K = 9) on interior and border tiles: K = 9
 * at 8 rows a thread, K = 11 and 13 at 4, valid and same, aligned and unaligned rows (pad 1: an
 * odd row length, so output rows start at every 4-byte offset and the kernel's 16-byte, 8-byte
 * and 4-byte stores all run); quick: on 140x270, still with one interior tile. */
static void check_taps(pl_ctx *ctx, const pl_variant *v, int quick)
{
    const char *size = quick ? "140x270" : "1100x1300";
    static const char *const sets[][5] = {
        {"k=9", "dtype=f32", "mode=same", "border=zero", "pad=0"},
        {"k=11", "dtype=f32", "mode=valid", "border=zero", "pad=1"},
        {"k=13", "dtype=f32", "mode=same", "border=reflect", "pad=0"},
    };
    for (int c = 0; c < 3; c++) {
        char what[128];
        snprintf(what, sizeof what, "%s %s %s %s %s %s", size, sets[c][0], sets[c][1], sets[c][2], sets[c][3],
                 sets[c][4]);
        pl_problem *p = NULL;
        pl_status st = make(size, sets[c], 5, &p);
        CHECK(st == PL_OK, "problem %s: %s", what, pl_last_error());
        if (st != PL_OK) continue;
        check_conv2d_run(ctx, p, v, NULL, v->name, what);
        pl_problem_destroy(p);
    }
}

/* Two contexts on two threads run cuda-tuned's taps kernel at once, each with its own filter,
 * through pl_run_device on their own streams: the filter sits in the device's one constant bank
 * between its copy and the kernel, so a copy that does not wait for the other context's last
 * kernel gives that kernel the wrong filter. Each thread queues 4 runs into 4 outputs, reads them
 * back and checks every output against its float64 reference, `rounds` times. */
enum { TWO_CTX_RUNS = 4 };
typedef struct two_ctx_job {
    pl_conv2d_problem p;
    float *img, *w, *out;   /* host */
    double *ref, *mag;      /* reference and sum |w x| per output */
    int rounds, wrong, failed;
    char first[200];
} two_ctx_job;

static void *two_ctx_worker(void *arg)
{
    two_ctx_job *j = arg;
    pl_ctx *ctx = NULL;
    void *stream = NULL, *d_img = NULL, *d_w = NULL, *d_out[TWO_CTX_RUNS] = {0};
    const size_t n_img = (size_t)(j->p.H * j->p.ld_img), n_out = (size_t)(j->p.OH * j->p.ld_out);
    const pl_variant *v = pl_variant_find(&pl_conv2d_kernel, "cuda-tuned");
    pl_status s = pl_ctx_create(&ctx, PL_BACKEND_CUDA, 0, 0);
    if (s == PL_OK) s = pl_ctx_activate(ctx);
    if (s == PL_OK) s = pl_dev_stream_create(&stream);
    if (s == PL_OK) s = pl_dev_malloc(&d_img, n_img * sizeof(float));
    if (s == PL_OK) s = pl_dev_malloc(&d_w, (size_t)(j->p.K * j->p.K) * sizeof(float));
    for (int r = 0; r < TWO_CTX_RUNS && s == PL_OK; r++) s = pl_dev_malloc(&d_out[r], n_out * sizeof(float));
    if (s == PL_OK) s = pl_dev_h2d(d_img, j->img, n_img * sizeof(float), stream);
    if (s == PL_OK) s = pl_dev_h2d(d_w, j->w, (size_t)(j->p.K * j->p.K) * sizeof(float), stream);
    for (int round = 0; round < j->rounds && s == PL_OK; round++) {
        for (int r = 0; r < TWO_CTX_RUNS && s == PL_OK; r++) {
            void *dev[3] = {d_img, d_w, d_out[r]};
            s = pl_run_device(ctx, &pl_conv2d_kernel, v, NULL, &j->p, dev, stream);
        }
        for (int r = 0; r < TWO_CTX_RUNS && s == PL_OK; r++) {
            if ((s = pl_dev_d2h(j->out, d_out[r], n_out * sizeof(float), stream)) == PL_OK) s = pl_dev_sync(stream);
            for (int64_t y = 0; s == PL_OK && y < j->p.OH; y++)
                for (int64_t x = 0; x < j->p.OW; x++) {
                    const size_t o = (size_t)(y * j->p.OW + x);
                    const double e = fabs(j->out[y * j->p.ld_out + x] - j->ref[o]);
                    if (!(e <= 1e-5 * j->mag[o] + 1e-30)) {
                        if (!j->wrong)
                            snprintf(j->first, sizeof j->first, "round %d run %d: out[%lld][%lld] = %g, want %g", round,
                                     r, (long long)y, (long long)x, j->out[y * j->p.ld_out + x], j->ref[o]);
                        j->wrong++;
                    }
                }
        }
    }
    if (s != PL_OK) {
        j->failed = 1;
        snprintf(j->first, sizeof j->first, "%s", pl_last_error());
    }
    for (int r = 0; r < TWO_CTX_RUNS; r++) pl_dev_free(d_out[r]);
    pl_dev_free(d_img);
    pl_dev_free(d_w);
    if (stream) pl_dev_stream_destroy(stream);
    if (ctx) pl_ctx_destroy(ctx);
    return NULL;
}

static void check_two_contexts(int quick)
{
    static const int64_t H = 301, W = 307;
    two_ctx_job jobs[2];
    memset(jobs, 0, sizeof jobs);
    for (int t = 0; t < 2; t++) {
        two_ctx_job *j = &jobs[t];
        pl_conv2d_problem p = {H, W, 9, PL_F32, t ? PL_CONV2D_SAME : PL_CONV2D_VALID, PL_CONV2D_ZERO, 0, 0, 0, W, 0, NULL};
        pl_conv2d_set_shape(&p);
        p.ld_out = p.OW;
        j->p = p;
        j->rounds = quick ? 2 : 25;
        j->img = malloc((size_t)(H * W) * sizeof(float));
        j->w = malloc(81 * sizeof(float));
        j->out = malloc((size_t)(p.OH * p.OW) * sizeof(float));
        j->ref = malloc((size_t)(p.OH * p.OW) * sizeof(double));
        j->mag = malloc((size_t)(p.OH * p.OW) * sizeof(double));
        uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)(t + 1);
        for (int64_t i = 0; i < H * W; i++) j->img[i] = (float)((seed = seed * 6364136223846793005ull + 1) >> 40) / 16777216.0f - 0.5f;
        for (int i = 0; i < 81; i++) j->w[i] = (float)((seed = seed * 6364136223846793005ull + 1) >> 40) / 16777216.0f - 0.5f;
        const int off = t ? 4 : 0;
        for (int64_t y = 0; y < p.OH; y++)
            for (int64_t x = 0; x < p.OW; x++) {
                double r = 0, m = 0;
                for (int a = 0; a < 9; a++)
                    for (int b = 0; b < 9; b++) {
                        const int64_t iy = y + a - off, ix = x + b - off;
                        if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                        const double pr = (double)j->w[a * 9 + b] * j->img[iy * W + ix];
                        r += pr, m += fabs(pr);
                    }
                j->ref[y * p.OW + x] = r, j->mag[y * p.OW + x] = m;
            }
    }
    pthread_t th[2];
    int started[2] = {0, 0};
    for (int t = 0; t < 2; t++) {
        started[t] = pthread_create(&th[t], NULL, two_ctx_worker, &jobs[t]) == 0;
        CHECK(started[t], "two contexts: pthread_create %d", t);
    }
    for (int t = 0; t < 2; t++)
        if (started[t]) pthread_join(th[t], NULL);
    for (int t = 0; t < 2; t++) {
        two_ctx_job *j = &jobs[t];
        if (!started[t]) continue;
        CHECK(!j->failed && !j->wrong, "two contexts, thread %d (K = 9 %s, %d rounds of %d runs): %d wrong; first: %s",
              t, t ? "same" : "valid", j->rounds, TWO_CTX_RUNS, j->wrong, j->first);
    }
    printf("cuda-tuned: two contexts at once, their own filters: %d rounds of %d runs each checked, %d + %d wrong\n",
           jobs[0].rounds, TWO_CTX_RUNS, jobs[0].wrong, jobs[1].wrong);
    for (int t = 0; t < 2; t++) free(jobs[t].img), free(jobs[t].w), free(jobs[t].out), free(jobs[t].ref), free(jobs[t].mag);
}

int main(int argc, char **argv)
{
    int quick = gpu_check_sanitizer();
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--quick] [--only rung,rung]\n", argv[0]);
            return 2;
        }
    }
    pl_ctx *ctx = gpu_check_ctx();
    if (!ctx) return check_summary("conv2d_gpu");
    const int n_small = quick ? 3 : N_CONV2D_SHAPES - 1; /* quick: 1x1, 2x3, 5x5 */
    if (quick) printf("quick: shapes 1x1, 2x3, 5x5 at the defaults, rank-1 filters at K 5 and 15 on 19x70; no large sizes\n");
    for (int i = 0; i < pl_conv2d_kernel.n_variants; i++) {
        const pl_variant *v = pl_conv2d_kernel.ladder[i];
        if (!wanted(v) || !gpu_check_rung(ctx, v)) continue;
        if (v->is_peer) {
            if (!cudnn_loadable(ctx, v)) continue;
            check_cudnn(ctx, v, quick ? n_small : N_CONV2D_SHAPES);
        } else if (quick) {
            check_conv2d_cases(ctx, v, NULL, v->name, n_small);
        } else {
            for_each_param_value(ctx, v, PARAM_SKIP_DEFAULT, NULL, NULL, check_conv2d_cases, n_small);
            check_shape_defaults(ctx, v, N_CONV2D_SHAPES - 1);
        }
        if (!strcmp(v->name, "cuda-tuned")) check_rank1(ctx, v, quick);
        if (!strcmp(v->name, "cuda-tuned")) check_taps(ctx, v, quick);
        if (!strcmp(v->name, "cuda-tuned")) check_two_contexts(quick);
        if (!quick) check_large(ctx, v);
        printf("%s: checked\n", v->name);
    }
    pl_ctx_destroy(ctx);
    return check_summary("conv2d_gpu");
}
