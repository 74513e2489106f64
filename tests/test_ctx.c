/* test_ctx.c: what a context holds is its own. The context services one by one (per-context
 * state, handles with their destroy, host workspaces), then two CPU contexts with different
 * thread counts running cpu-packed on two threads at once, on different shapes, several
 * times, each result against a float64 reference computed here. Under ASan (PARLAB_SANITIZE)
 * the leak checker sees that pl_ctx_destroy frees all of it. */
#include "check.h"
#include "core/core.h"
#include "ctx_jobs.h"

#include <pthread.h>
#include <string.h>

/* ------------------------------------------------------------- the services, one by one */

static int inits, destroys;
static char key_a, key_b;

static pl_status count_init(pl_ctx *ctx, void *state)
{
    (void)ctx;
    inits++;
    *(int *)state = 1000 + inits;
    return PL_OK;
}

static pl_status failing_init(pl_ctx *ctx, void *state)
{
    (void)ctx;
    (void)state;
    return pl_fail(PL_ERR_INTERNAL, "init failed on purpose");
}

static pl_status make_handle(pl_ctx *ctx, void **h)
{
    (void)ctx;
    *h = malloc(32);
    return *h ? PL_OK : PL_ERR_NOMEM;
}

static void free_handle(void *h)
{
    destroys++;
    free(h);
}

static void check_services(void)
{
    pl_ctx *c1 = NULL, *c2 = NULL;
    CHECK(pl_ctx_create(&c1, PL_BACKEND_CPU, 0, 2) == PL_OK, "cpu context: %s", pl_last_error());
    CHECK(pl_ctx_create(&c2, PL_BACKEND_CPU, 0, 3) == PL_OK, "cpu context: %s", pl_last_error());
    if (!c1 || !c2) return;
    CHECK(pl_ctx_activate(c1) == PL_OK, "pl_ctx_activate on a CPU context: %s", pl_last_error());
    CHECK(c1->sm_count == 0, "a CPU context has no SMs (%d)", c1->sm_count);

    /* Keyed state: made once per context and key, the same pointer after. */
    void *s1 = NULL, *s1b = NULL, *s2 = NULL, *s1k = NULL;
    CHECK(pl_ctx_state(c1, &key_a, sizeof(int), count_init, &s1) == PL_OK && s1, "state: %s", pl_last_error());
    CHECK(pl_ctx_state(c1, &key_a, sizeof(int), count_init, &s1b) == PL_OK && s1b == s1,
          "the second call for a key returns the first one's state");
    CHECK(pl_ctx_state(c2, &key_a, sizeof(int), count_init, &s2) == PL_OK && s2 && s2 != s1,
          "another context gets its own state");
    CHECK(pl_ctx_state(c1, &key_b, sizeof(int), count_init, &s1k) == PL_OK && s1k && s1k != s1,
          "another key gets its own state");
    CHECK(inits == 3, "init ran %d times for 3 (context, key) pairs", inits);
    CHECK(s1 && s2 && *(int *)s1 == 1001 && *(int *)s2 == 1002, "each state keeps what its init wrote");
    void *bad = &bad;
    static char key_c;
    CHECK(pl_ctx_state(c1, &key_c, 8, failing_init, &bad) == PL_ERR_INTERNAL && bad == NULL,
          "a failing init returns its status and no state");
    CHECK(pl_ctx_state(c1, &key_c, sizeof(int), count_init, &bad) == PL_OK && bad && inits == 4,
          "after a failed init the next call tries again");

    /* Handles: made on first use, destroyed with their context by the function given. */
    void *h1 = NULL, *h1b = NULL, *h2 = NULL;
    CHECK(pl_ctx_handle(c1, PL_CTX_HANDLE_CUBLAS, make_handle, free_handle, &h1) == PL_OK && h1, "handle");
    CHECK(pl_ctx_handle(c1, PL_CTX_HANDLE_CUBLAS, make_handle, free_handle, &h1b) == PL_OK && h1b == h1,
          "a handle is made once per context");
    CHECK(pl_ctx_handle(c2, PL_CTX_HANDLE_CUBLAS, make_handle, free_handle, &h2) == PL_OK && h2 && h2 != h1,
          "each context has its own handle");
    CHECK(pl_ctx_handle(c1, PL_CTX_HANDLE_SLOTS, make_handle, free_handle, &h1b) == PL_ERR_ARG, "slot range");

    /* Host workspaces: aligned, grow-only, one per context and slot. */
    void *w1 = NULL, *w1b = NULL, *w2 = NULL, *w1c = NULL;
    CHECK(pl_ctx_host_workspace(c1, 1, 1000, &w1) == PL_OK && w1 && ((uintptr_t)w1 & 63) == 0, "host workspace");
    memset(w1, 1, 1000);
    CHECK(pl_ctx_host_workspace(c1, 1, 500, &w1b) == PL_OK && w1b == w1, "a smaller request keeps the buffer");
    CHECK(pl_ctx_host_workspace(c2, 1, 500, &w2) == PL_OK && w2 && w2 != w1, "each context has its own");
    CHECK(pl_ctx_host_workspace(c1, 1, 1 << 20, &w1c) == PL_OK && w1c, "a larger request grows it");
    if (w1c) memset(w1c, 2, 1 << 20);
    CHECK(pl_ctx_host_workspace(c1, PL_CTX_HOST_WS_SLOTS, 8, &w1b) == PL_ERR_ARG, "host slot range");
    void *d = &d;
    CHECK(pl_ctx_dev_workspace(c1, 0, 64, &d) != PL_OK && d == NULL, "a CPU context has no device workspace");

    pl_ctx_destroy(c1);
    CHECK(destroys == 1, "destroying one context destroyed %d handles (1 expected)", destroys);
    pl_ctx_destroy(c2);
    CHECK(destroys == 2, "destroying both destroyed %d handles (2 expected)", destroys);
}

/* pl_dynamic_bands: about per_thread bands a thread, none below min_rows, at least one a
 * thread, at most one a row. */
static void check_dynamic_bands(void)
{
    static const int64_t cases[][5] = {
        /* rows, threads, per_thread, min_rows, bands */
        {2560, 2, 4, 64, 8},     {16384, 16, 4, 256, 64}, {1000, 2, 4, 256, 3}, {100, 2, 4, 64, 2},
        {3, 4, 4, 64, 3},        {1, 1, 4, 64, 1},        {0, 2, 4, 64, 1},     {16384, 1, 4, 256, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int64_t *c = cases[i], got = pl_dynamic_bands(c[0], (int)c[1], (int)c[2], c[3]);
        CHECK(got == c[4], "pl_dynamic_bands(%lld rows, %lld threads, %lld, %lld) = %lld, want %lld", (long long)c[0],
              (long long)c[1], (long long)c[2], (long long)c[3], (long long)got, (long long)c[4]);
    }
}

/* ------------------------------------------------------------- two contexts at once */

/* The jobs, worker and run_worker: ctx_jobs.h. FP32 accumulation over K: a job's tol is
 * K * 2^-24, |error| <= K * 2^-24 * bound (a first-order bound); a wrong or unwritten element
 * (NaN) is far outside it. */
#define TOL_FP32(K) ((double)(K) * 0x1p-24)

/* One range of threads, PL_MAX_THREADS, at both library entry points (the command line's
 * --threads takes the same: test_cli.sh). */
static void check_thread_range(void)
{
    pl_ctx *c = NULL;
    CHECK(pl_ctx_create(&c, PL_BACKEND_CPU, 0, PL_MAX_THREADS + 1) == PL_ERR_ARG && !c,
          "pl_ctx_create refuses %d threads", PL_MAX_THREADS + 1);
    CHECK(pl_ctx_create(&c, PL_BACKEND_CPU, 0, PL_MAX_THREADS) == PL_OK && c && pl_ctx_threads(c) == PL_MAX_THREADS,
          "pl_ctx_create takes %d threads: %s", PL_MAX_THREADS, pl_last_error());
    if (!c) return;
    CHECK(pl_ctx_set_threads(c, PL_MAX_THREADS + 1) == PL_ERR_ARG && pl_ctx_threads(c) == PL_MAX_THREADS,
          "pl_ctx_set_threads refuses %d threads", PL_MAX_THREADS + 1);
    CHECK(pl_ctx_set_threads(c, 0) == PL_ERR_ARG, "pl_ctx_set_threads refuses 0 threads");
    CHECK(pl_ctx_set_threads(c, 1) == PL_OK && pl_ctx_threads(c) == 1, "pl_ctx_set_threads takes 1");
    CHECK(pl_ctx_set_threads(c, PL_MAX_THREADS) == PL_OK && pl_ctx_threads(c) == PL_MAX_THREADS,
          "pl_ctx_set_threads takes %d: %s", PL_MAX_THREADS, pl_last_error());
    pl_ctx_destroy(c);
}

int main(void)
{
    check_services();
    check_thread_range();
    check_dynamic_bands();

    const char *sz = getenv("PL_TEST_SMALL"); /* under sanitizers: fewer repeats */
    const int reps = sz ? 2 : 4;
    /* kc = 64 forces several K blocks (beta applied once, then accumulate). */
    static const int64_t kc64[] = {0, 64, 0, 0};
    job jobs0[] = {
        {"cpu-packed", NULL, 300, 280, 260, 261, 283, 281, 1.0f, 0.0f, TOL_FP32(260), 0, 0, 0, 0, 0},
        {"cpu-packed", kc64, 129, 515, 700, 700, 515, 515, 0.5f, 2.0f, TOL_FP32(700), 0, 0, 0, 0, 0},
        {"cpu-packed", NULL, 48, 900, 400, 400, 901, 900, 1.0f, 1.0f, TOL_FP32(400), 0, 0, 0, 0, 0},
    };
    job jobs1[] = {
        {"cpu-packed", NULL, 257, 190, 333, 333, 190, 190, 1.0f, 0.0f, TOL_FP32(333), 0, 0, 0, 0, 0},
        {"cpu-packed", NULL, 520, 130, 610, 611, 130, 131, 1.5f, -1.0f, TOL_FP32(610), 0, 0, 0, 0, 0},
        {"cpu-packed", kc64, 33, 700, 450, 450, 700, 700, 1.0f, 0.0f, TOL_FP32(450), 0, 0, 0, 0, 0},
    };
    const int n0 = (int)(sizeof jobs0 / sizeof jobs0[0]), n1 = (int)(sizeof jobs1 / sizeof jobs1[0]);
    for (int i = 0; i < n0; i++) job_init(&jobs0[i], 100 + 10 * i);
    for (int i = 0; i < n1; i++) job_init(&jobs1[i], 500 + 10 * i);

    pl_ctx *c0 = NULL, *c1 = NULL;
    CHECK(pl_ctx_create(&c0, PL_BACKEND_CPU, 0, 3) == PL_OK, "cpu context: %s", pl_last_error());
    CHECK(pl_ctx_create(&c1, PL_BACKEND_CPU, 0, 2) == PL_OK, "cpu context: %s", pl_last_error());
    if (c0 && c1) {
        worker w[2] = {{c0, jobs0, n0, reps, 0, 0, ""}, {c1, jobs1, n1, reps, 0, 0, ""}};
        pthread_t t[2];
        for (int i = 0; i < 2; i++) CHECK(pthread_create(&t[i], NULL, run_worker, &w[i]) == 0, "pthread_create");
        for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
        for (int i = 0; i < 2; i++) {
            CHECK(w[i].failed == 0, "context %d (%d threads): %d of %d calls wrong; first: %s", i,
                  w[i].ctx->threads, w[i].failed, w[i].calls, w[i].first);
            CHECK(w[i].calls == reps * (i ? n1 : n0), "context %d made %d calls", i, w[i].calls);
        }
        /* cpu-packed's buffers are the contexts' own. */
        CHECK(c0->host_ws[0] && c1->host_ws[0] && c0->host_ws[0] != c1->host_ws[0],
              "each context holds its own cpu-packed workspace (%p, %p)", c0->host_ws[0], c1->host_ws[0]);
        printf("two CPU contexts (3 and 2 threads), %d + %d cpu-packed calls at once: %s\n", w[0].calls, w[1].calls,
               w[0].failed + w[1].failed ? "WRONG" : "all right");
    }
    pl_ctx_destroy(c0);
    pl_ctx_destroy(c1);
    for (int i = 0; i < n0; i++) job_free(&jobs0[i]);
    for (int i = 0; i < n1; i++) job_free(&jobs1[i]);
    return check_summary("ctx");
}
