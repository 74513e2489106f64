/* test_ctx_gpu.c: two CUDA contexts run side by side. Two threads, each with its own context
 * (one per device when the machine has two or more GPUs, both on device 0 otherwise), run
 * cuda-tuned (split-K among its shapes), cuda-tf32 (split-K and the copy-engine configs, whose
 * B transpose and A re-pitch use workspaces) and the cuBLAS peers at the same time, on
 * different shapes, several times; every result against a float64 reference computed here.
 * A context's workspaces, handles and per-device tables are its own: shared ones show up as
 * wrong results (or as compute-sanitizer errors). Last, the harness's busy-wait (queued before
 * each timed GPU run) holds its stream at least as long as asked. PL_SANITIZER=1 (under
 * compute-sanitizer) shrinks the shapes and the repeats. Label `gpu`: "skipped: no GPU" (exit 77) without one. */
#include "check.h"
#include "gpu_check.h"
#include "core/core.h"
#include "core/device.h"
#include "ctx_jobs.h"
#include "kernels/gemm/gemm.h"

#include <pthread.h>

/* The jobs, worker and run_worker: ctx_jobs.h; each job's tol is set below. */

/* FP32 on the CUDA cores: a first-order bound K * 2^-24 of |A|*|B|, loose enough for any
 * order of summation. TF32: inputs rounded (or truncated) to 10 mantissa bits, 2 * 2^-10 of
 * |A|*|B| per product, plus the FP32 sum. A shared workspace or a wrong per-device table
 * gives errors of the size of C itself, far outside both. */
#define TOL_FP32(K) ((double)(K) * 0x1p-24)
#define TOL_TF32(K) (0x1p-9 + (double)(K) * 0x1p-24)

/* The busy-wait the harness queues before a timed GPU run (timing.c) keeps the stream busy for
 * at least the time asked: the events around it are at least that far apart. */
static void check_busy_wait(void)
{
    pl_ctx *ctx = NULL;
    void *e0 = NULL, *e1 = NULL;
    double sec = 0;
    pl_status s = pl_ctx_create(&ctx, PL_BACKEND_CUDA, 0, 0);
    if (s == PL_OK) s = pl_ctx_activate(ctx);
    if (s == PL_OK) s = pl_dev_event_create(&e0);
    if (s == PL_OK) s = pl_dev_event_create(&e1);
    int short_waits = 0;
    for (int us = 50; us <= 400 && s == PL_OK; us *= 2) {
        if ((s = pl_dev_event_record(e0, ctx->stream)) == PL_OK && (s = pl_dev_busy_wait(ctx->stream, (unsigned)us)) == PL_OK &&
            (s = pl_dev_event_record(e1, ctx->stream)) == PL_OK)
            s = pl_dev_event_elapsed(e0, e1, &sec);
        CHECK(s != PL_OK || sec >= us * 1e-6 * 0.99, "busy-wait of %d us: the events %.1f us apart", us, sec * 1e6);
        short_waits += s == PL_OK && sec < us * 1e-6 * 0.99;
    }
    CHECK(s == PL_OK, "busy-wait: %s", pl_last_error());
    if (s == PL_OK && !short_waits)
        printf("busy-wait: 50, 100, 200, 400 us each held the stream at least that long (the last: %.1f us)\n", sec * 1e6);
    pl_dev_event_destroy(e0);
    pl_dev_event_destroy(e1);
    pl_ctx_destroy(ctx);
}

int main(void)
{
    gpu_check_require();
    const int small = gpu_check_sanitizer();
    const int reps = small ? 1 : 3;
    const int64_t kdeep = small ? 2048 : 8192;
    const int64_t big = small ? 300 : 1000;

    /* Named params: {config, splitk}; 0 = auto. The copy-engine rung runs on Hopper only;
     * elsewhere its jobs go to cuda-mma-tf32's configs of the same numbers. */
    static const int64_t split8[] = {0, 8};       /* the shape's config, K cut in 8 */
    static const int64_t tuned_cfg2_s4[] = {2, 4};
    static const int64_t tma_cfg1_s2[] = {1, 2};  /* copy engine: BT (+ A) workspaces, and split-K */
    static const int64_t tma_cfg2[] = {2, 1};
    static const int64_t mma_cfg6_s4[] = {6, 4};
    const pl_variant *tma_rung = pl_variant_find(&pl_gemm_kernel, "cuda-wgmma-tma-tf32");
    const char *tma = tma_rung && pl_variant_check(NULL, tma_rung, NULL, 0) == PL_OK ? "cuda-wgmma-tma-tf32"
                                                                                     : "cuda-mma-tf32";
    job jobs0[] = {
        {"cuda-tuned", NULL, 64, 64, kdeep, kdeep, 64, 64, 1.0f, 0.0f, TOL_FP32(kdeep), 0, 0, 0, 0, 0},
        {"cuda-tuned", split8, 200, 136, 4096, 4096, 136, 136, 0.5f, 1.5f, TOL_FP32(4096), 0, 0, 0, 0, 0},
        {"cuda-tuned", NULL, big, big - 30, 700, 700, big - 29, big - 30, 1.0f, 0.0f, TOL_FP32(700), 0, 0, 0, 0, 0},
        {tma, tma_cfg1_s2, 520, 264, 1500, 1501, 264, 264, 1.0f, 0.0f, TOL_TF32(1500), 0, 0, 0, 0, 0},
        {"cuda-tf32", NULL, 64, 64, kdeep, kdeep, 64, 64, 1.0f, 0.0f, TOL_TF32(kdeep), 0, 0, 0, 0, 0},
        {"peer-cublas", NULL, 300, 200, 100, 100, 200, 200, 1.0f, 0.0f, TOL_FP32(100), 0, 0, 0, 0, 0},
        {"peer-cublas-tf32", NULL, 257, 129, 513, 513, 129, 129, 1.0f, 1.0f, TOL_TF32(513), 0, 0, 0, 0, 0},
    };
    job jobs1[] = {
        {"cuda-tuned", split8, 96, 80, kdeep - 1000, kdeep - 1000, 80, 80, 1.0f, 0.0f, TOL_FP32(kdeep), 0, 0, 0, 0, 0},
        {"cuda-tuned", tuned_cfg2_s4, 333, 250, 2100, 2100, 250, 251, 1.0f, -1.0f, TOL_FP32(2100), 0, 0, 0, 0, 0},
        {"cuda-tuned", NULL, big + 24, big, 600, 600, big + 1, big, 1.0f, 0.0f, TOL_FP32(600), 0, 0, 0, 0, 0},
        {tma, tma_cfg2, 384, 300, 1100, 1100, 301, 300, 1.0f, 0.0f, TOL_TF32(1100), 0, 0, 0, 0, 0},
        {"cuda-mma-tf32", mma_cfg6_s4, 130, 120, 3000, 3000, 120, 120, 2.0f, 0.5f, TOL_TF32(3000), 0, 0, 0, 0, 0},
        {"peer-cublas", NULL, 180, 330, 250, 250, 330, 330, 1.0f, 0.0f, TOL_FP32(250), 0, 0, 0, 0, 0},
        {"peer-cublas-tf32", NULL, 100, 400, 700, 700, 400, 400, 1.0f, 0.0f, TOL_TF32(700), 0, 0, 0, 0, 0},
    };
    const int n0 = (int)(sizeof jobs0 / sizeof jobs0[0]), n1 = (int)(sizeof jobs1 / sizeof jobs1[0]);
    for (int i = 0; i < n0; i++) job_init(&jobs0[i], 100 + 10 * i);
    for (int i = 0; i < n1; i++) job_init(&jobs1[i], 500 + 10 * i);

    /* Two contexts on one device; then, with 2+ GPUs, one context per device. */
    const int ndev = pl_dev_count();
    const int rounds = ndev >= 2 ? 2 : 1;
    for (int round = 0; round < rounds; round++) {
        const int dev1 = round == 0 ? 0 : 1;
        pl_ctx *c0 = NULL, *c1 = NULL;
        CHECK(pl_ctx_create(&c0, PL_BACKEND_CUDA, 0, 0) == PL_OK, "cuda context 0: %s", pl_last_error());
        CHECK(pl_ctx_create(&c1, PL_BACKEND_CUDA, dev1, 0) == PL_OK, "cuda context on %d: %s", dev1, pl_last_error());
        if (!c0 || !c1) {
            pl_ctx_destroy(c0);
            pl_ctx_destroy(c1);
            break;
        }
        CHECK(c0->sm_count == pl_dev_sm_count(0) && c0->sm_count > 0, "sm_count %d", c0->sm_count);
        CHECK(c1->sm_count == pl_dev_sm_count(dev1), "sm_count %d on device %d", c1->sm_count, dev1);
        worker w[2] = {{c0, jobs0, n0, reps, 0, 0, ""}, {c1, jobs1, n1, reps, 0, 0, ""}};
        pthread_t t[2];
        for (int i = 0; i < 2; i++) CHECK(pthread_create(&t[i], NULL, run_worker, &w[i]) == 0, "pthread_create");
        for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
        for (int i = 0; i < 2; i++) {
            CHECK(w[i].failed == 0, "devices 0,%d: context %d: %d of %d calls wrong; first: %s", dev1, i, w[i].failed,
                  w[i].calls, w[i].first);
            CHECK(w[i].calls == reps * (i ? n1 : n0), "context %d made %d calls", i, w[i].calls);
        }
        /* What each context holds is its own. */
        int shared = 0, held = 0;
        for (int s = 0; s < PL_CTX_DEV_WS_SLOTS; s++) {
            held += c0->dev_ws[s] != NULL;
            shared += c0->dev_ws[s] && c0->dev_ws[s] == c1->dev_ws[s];
        }
        CHECK(held >= 2 && shared == 0, "device workspaces: context 0 holds %d, %d shared with context 1", held, shared);
        CHECK(c0->handle[PL_CTX_HANDLE_CUBLAS].h && c1->handle[PL_CTX_HANDLE_CUBLAS].h &&
                  c0->handle[PL_CTX_HANDLE_CUBLAS].h != c1->handle[PL_CTX_HANDLE_CUBLAS].h &&
                  c0->handle[PL_CTX_HANDLE_CUBLAS].destroy,
              "each context holds its own cuBLAS handle, with its destroy");
        int states[2] = {0, 0}, same = 0;
        for (int s = 0; s < PL_CTX_STATE_SLOTS; s++) {
            states[0] += c0->state[s].key != NULL && c0->state[s].state != NULL;
            states[1] += c1->state[s].key != NULL && c1->state[s].state != NULL;
            for (int u = 0; u < PL_CTX_STATE_SLOTS; u++)
                same += c0->state[s].key && c0->state[s].key == c1->state[u].key && c0->state[s].state == c1->state[u].state;
        }
        CHECK(states[0] >= 2 && states[1] >= 2 && same == 0,
              "cuda-tuned and the tensor-core rungs keep their tables per context (%d and %d states, %d shared)",
              states[0], states[1], same);
        printf("devices 0,%d: two CUDA contexts, %d + %d calls at once (cuda-tuned, %s, cuda-mma-tf32, cuda-tf32, "
               "cuBLAS): %s\n", dev1, w[0].calls, w[1].calls, tma, w[0].failed + w[1].failed ? "WRONG" : "all right");
        pl_ctx_destroy(c0);
        pl_ctx_destroy(c1);
    }
    for (int i = 0; i < n0; i++) job_free(&jobs0[i]);
    for (int i = 0; i < n1; i++) job_free(&jobs1[i]);
    check_busy_wait();
    return check_summary("ctx_gpu");
}
