/* bench_ranks.c: the phases of `parlab bench KERNEL ...` under mpirun (see bench_ranks.h): lay
 * the problem over the grid of ranks; measure the network model (ping-pong between ranks 0 and
 * 1); create each rank's share; run once and have every rank check its block; time the repeats
 * (each the slowest rank's time, after a barrier); for a kernel that says its bytes, on the
 * host, time every rank streaming those bytes at once (the shared-bandwidth bound); time one
 * rank alone on the baseline problem (the others wait idle). Every point where a rank may fail
 * ends in pl_dist_agree_status, so all ranks stop together with one message. */
#include "distributed/bench/bench_ranks.h"

#include "core/device.h"
#include "core/sizes.h"
#include "harness/harness.h"
#include "harness/peaks.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const pl_dist_bench_kernel pl_dist_bench_life;    /* life/life_bench.c */
extern const pl_dist_bench_kernel pl_dist_bench_conv2d;  /* stencil/conv2d_bench.c */
extern const pl_dist_bench_kernel pl_dist_bench_entropy; /* stencil/entropy_bench.c */
extern const pl_dist_bench_kernel pl_dist_bench_gemm;    /* summa/summa_bench.c */
extern const pl_dist_bench_kernel pl_dist_bench_reduce;  /* reduce/reduce_bench.c */

/* The kernels that run distributed: one row each. */
static const pl_dist_bench_kernel *const bench_kernels[] = {
    &pl_dist_bench_life, &pl_dist_bench_conv2d, &pl_dist_bench_entropy, &pl_dist_bench_gemm, &pl_dist_bench_reduce,
};
enum { N_BENCH_KERNELS = sizeof bench_kernels / sizeof bench_kernels[0] };

const pl_dist_bench_kernel *pl_dist_bench_find(const char *name)
{
    for (int i = 0; i < N_BENCH_KERNELS && name; i++)
        if (!strcmp(name, bench_kernels[i]->name)) return bench_kernels[i];
    return NULL;
}

void pl_dist_bench_names(char *names, size_t n)
{
    if (n) names[0] = '\0';
    for (int i = 0; i < N_BENCH_KERNELS; i++)
        snprintf(names + strlen(names), n - strlen(names), "%s%s", i ? ", " : "", bench_kernels[i]->name);
}

/* A 2D SIZE as the kernel's size_form reads it: its rows and columns. */
static pl_status size_2d(const pl_dist_bench_kernel *k, const char *text, int64_t *H, int64_t *W)
{
    int64_t d[2];
    const int width_first = k->size_form[0] == 'W';
    const pl_status s = pl_parse_dims(k->name, text, 2, k->size_form, d);
    *H = d[width_first], *W = d[!width_first];
    return s;
}

/* The grid of ranks and the whole problem: strong, the size given; weak, the grid's process
 * rows and columns times the block given (the grid is chosen for the shape, then the problem
 * made to fit it). */
static pl_status grid_for(const pl_dist_bench_kernel *k, const pl_dist_bench_args *a, pl_ctx *ctx, pl_dist_grid *g,
                          int64_t H, int64_t W)
{
    return k->grid_create ? k->grid_create(g, a, ctx, H, W) : pl_dist_grid_create(g, H, W, k->periodic);
}

static pl_status lay_out(const pl_dist_bench_kernel *k, const pl_dist_bench_args *a, pl_ctx *ctx, pl_dist_grid *g,
                         pl_dist_bench_result *r)
{
    pl_status s = k->parse_size ? k->parse_size(a->size_text, &r->bh, &r->bw)
                                : size_2d(k, a->size_text, &r->bh, &r->bw);
    if (s != PL_OK) return s;
    r->H = r->bh, r->W = r->bw;
    if (a->weak) {
        const int P = pl_dist_size();
        if ((s = grid_for(k, a, ctx, g, r->bh * P, r->bw * P)) != PL_OK) return s;
        r->H = r->bh * g->dims[0], r->W = r->bw * g->dims[1];
        pl_dist_grid_destroy(g);
    }
    return grid_for(k, a, ctx, g, r->H, r->W);
}

pl_status pl_dist_bench_time(const pl_dist_bench_args *a, pl_status (*call)(void *user), void *user,
                             double *seconds)
{
    const pl_timed_calls c = {.call = call, .user = user};
    return pl_time_calls(&c, (int)a->warmup, a->repeats, seconds);
}

/* One launch of a CUDA rung on device operands, to its end. */
typedef struct device_call {
    pl_ctx *ctx;
    const pl_kernel *k;
    const pl_variant *v;
    const void *problem;
    void *const *dev;
    void *stream;
} device_call;

static pl_status run_on_device(void *user)
{
    const device_call *d = user;
    const pl_status s = pl_run_device(d->ctx, d->k, d->v, NULL, d->problem, d->dev, d->stream);
    return s == PL_OK ? pl_dev_sync(d->stream) : s;
}

pl_status pl_dist_bench_time_device(const pl_dist_bench_args *a, pl_ctx *ctx, const pl_kernel *k, const char *rung,
                                    const void *problem, void *const *dev, double *seconds)
{
    device_call d = {ctx, k, pl_variant_find(k, rung), problem, dev, NULL};
    pl_status s = pl_dev_select(pl_ctx_device(ctx));
    if (s == PL_OK) s = pl_dev_stream_create(&d.stream);
    if (s == PL_OK) s = pl_dist_bench_time(a, run_on_device, &d, seconds);
    if (d.stream) pl_dev_stream_destroy(d.stream);
    return s;
}

pl_status pl_dist_bench_one_gpu(const pl_dist_bench_args *a, pl_ctx *ctx, const pl_kernel *k, const char *rung,
                                const void *problem, void *const *host, double *seconds)
{
    pl_tensor t[PL_MAX_OPERANDS];
    int n = 0;
    void *dev[PL_MAX_OPERANDS] = {NULL};
    const pl_variant *v = pl_variant_find(k, rung);
    pl_status s = v ? k->operands(problem, t, &n) : pl_fail(PL_ERR_ARG, "bench: no %s variant '%s'", k->name, rung);
    if (s == PL_OK) s = pl_dev_select(pl_ctx_device(ctx));
    for (int i = 0; i < n && s == PL_OK; i++) {
        const size_t bytes = (size_t)pl_tensor_span(&t[i]) * pl_dtype_size(t[i].dtype);
        if ((s = pl_dev_malloc(&dev[i], bytes)) == PL_OK) s = pl_dev_h2d(dev[i], host[i], bytes, NULL);
    }
    if (s == PL_OK) s = pl_dev_sync(NULL);
    if (s == PL_OK) s = pl_dist_bench_time_device(a, ctx, k, rung, problem, dev, seconds);
    for (int i = 0; i < n; i++) pl_dev_free(dev[i]);
    return s;
}

pl_status pl_dist_bench_reference(const pl_kernel *k, const void *problem, void *const *host, int out, double *ref,
                                  double *scale)
{
    pl_tensor t[PL_MAX_OPERANDS], r[PL_MAX_OPERANDS], m[PL_MAX_OPERANDS];
    int n = 0;
    pl_status s = k->operands(problem, t, &n);
    if (s != PL_OK) return s;
    for (int i = 0; i < n; i++) t[i].host = host[i], r[i] = m[i] = t[i];
    r[out].dtype = m[out].dtype = PL_F64, r[out].host = ref, m[out].host = scale;
    r[out].ld = m[out].ld = t[out].cols;
    return k->reference(problem, t, n, r, m);
}

/* The median of n times (sorted in place). */
static double median(double *t, long n)
{
    double m, lo, hi;
    pl_stats_summary(t, (int)n, &m, &lo, &hi);
    return m;
}

/* One distributed run: after a barrier, the slowest rank's time; its parts, each the largest
 * over the ranks, kept by run number for the split of the median run. */
typedef struct ranks_call {
    const pl_dist_bench_kernel *k;
    pl_dist_bench_case *c;
    pl_dist_times *parts; /* NULL: the warm-ups */
    long at;
} ranks_call;

static void barrier(void *user)
{
    (void)user;
    pl_dist_barrier();
}

static pl_status run_on_ranks(void *user)
{
    ranks_call *rc = user;
    pl_dist_times one = {0, 0, 0};
    const pl_status s = rc->k->run(rc->c, &one); /* a failed rank still exchanges: no rank waits */
    rc->parts[rc->at] = one;
    return s;
}

static double slowest_rank(void *user, double seconds)
{
    ranks_call *rc = user;
    const double dt = pl_dist_max(seconds);
    rc->parts[rc->at] = pl_dist_times_max(&rc->parts[rc->at]); /* after the clock: collective, every rank */
    rc->at++;
    return dt;
}

/* The repeats (after a->warmup - 1 more untimed runs: the checked first run is the first
 * warm-up): each after a barrier, the slowest rank's time; every rank's parts summed. */
static pl_status time_runs(const pl_dist_bench_kernel *k, const pl_dist_bench_args *a, pl_dist_bench_case *c,
                           pl_dist_bench_result *r)
{
    const long warm = a->warmup > 1 ? a->warmup - 1 : 0, n = a->repeats;
    double *t = malloc(sizeof *t * (size_t)(n + warm));
    pl_dist_times *parts = malloc(sizeof *parts * (size_t)(n + warm));
    ranks_call rc = {k, c, parts, 0};
    const pl_timed_calls calls = {run_on_ranks, barrier, slowest_rank, &rc, 1};
    pl_status s = t && parts ? pl_time_calls(&calls, (int)warm, n, t)
                             : pl_fail(PL_ERR_NOMEM, "bench: out of memory");
    s = pl_dist_agree_status(s);
    if (s == PL_OK) {
        pl_dist_times *timed = parts + warm; /* the warm-ups' parts came first */
        /* the split of the median run (the lower middle one of an even count), not an average
         * that one slow repeat would drag away from the median time beside it */
        long at = 0;
        for (long i = 0; i < n; i++) {
            long below = 0, same_before = 0;
            for (long j = 0; j < n; j++) below += t[j] < t[i], same_before += j < i && t[j] == t[i];
            if (below + same_before == (n - 1) / 2) at = i;
        }
        r->slowest = timed[at];
        r->seconds = median(t, n);
    }
    free(t), free(parts);
    return s;
}

/* ---- the shared-bandwidth bound
 * On one host the ranks share its memory bandwidth: a memory-bound rung that runs at its own
 * speed alone slows down when P ranks stream at once, whatever the network does. The bound of
 * a run is therefore the larger of two times: the rung's own (the one-rank baseline: its time
 * alone, weak; its time over P, strong) and t_mem(P), the time this rank's bytes a run
 * (k->bytes) take when every rank streams its own at once. The yardstick is a copy of the same
 * bytes: the read ones from one array into the written ones of another (a copy where they are
 * equal, the surplus read alone or written alone), with plain stores, so each written line is
 * read for ownership first as the kernel's stores are (write-allocate included), on the rank's
 * own threads, every rank at once after a barrier (the bus shared as in the runs), the slowest
 * rank's time, the median of the repeats. Its arrays are allocated and first touched by the
 * threads that stream them (their pages on their memory).
 * What it leaves out: the kernel's traffic beyond the least (the window's copy of the block, a
 * rung's re-reads of rows that fell out of the cache), which only makes the bound lower, never
 * wrong; and the caches: a block that fits in L2 or L3 streams faster than memory does. The
 * copy's arrays are the run's size and warm (warm-up passes first, as the kernel's runs follow
 * its checked one), so they sit at the cache level the kernel's data sits at: a small block
 * is bounded by its cache's bandwidth, a large one by memory's. A rung that writes past the
 * caches (streaming stores, no read for ownership) moves less than the copy and can beat the
 * bound: its efficiency against it then reads above 100%. */

/* A thread's share [lo, hi) of n floats on nt threads: a multiple of 64 floats (whole cache
 * lines, 64-byte aligned, as the streams' loops want), the last share short. */
static void thread_share(int64_t n, int nt, int me, int64_t *lo, int64_t *hi)
{
    const int64_t per = ((n + nt - 1) / nt + 63) / 64 * 64;
    *lo = (int64_t)me * per < n ? (int64_t)me * per : n;
    *hi = *lo + per < n ? *lo + per : n;
}

/* A rank's stream: n_read floats of src read, n_written floats of dst written, on threads. */
typedef struct memory_stream {
    pl_peaks_stream_fns fns;
    float *src, *dst;
    int64_t n_read, n_written;
    int threads;
} memory_stream;

/* Where the read stream's sum goes, so that its loads are kept. */
static volatile float memory_sink;

/* first_touch: each thread writes its shares of both arrays once (their pages placed);
 * else one pass: each thread copies what its shares have in common, then reads or writes the
 * rest of the longer one. */
static void stream_memory(memory_stream *m, int first_touch)
{
    float sum = 0.0f;
#pragma omp parallel num_threads(m->threads) reduction(+ : sum)
    {
        const int nt = omp_get_num_threads(), me = omp_get_thread_num();
        int64_t r0, r1, w0, w1;
        thread_share(m->n_read, nt, me, &r0, &r1);
        thread_share(m->n_written, nt, me, &w0, &w1);
        if (first_touch) {
            m->fns.write(m->src + r0, r1 - r0, 1.0f, 0);
            m->fns.write(m->dst + w0, w1 - w0, 0.0f, 0);
        } else {
            const int64_t both = r1 - r0 < w1 - w0 ? r1 - r0 : w1 - w0;
            m->fns.copy(m->dst + w0, m->src + r0, both, 0);
            if (r1 - r0 > both) sum += m->fns.read(m->src + r0 + both, r1 - r0 - both);
            if (w1 - w0 > both) m->fns.write(m->dst + w0 + both, w1 - w0 - both, 0.0f, 0);
        }
    }
    memory_sink = sum;
}

static pl_status stream_pass(void *user)
{
    stream_memory(user, 0);
    return PL_OK;
}

static double slowest_of_ranks(void *user, double seconds)
{
    (void)user;
    return pl_dist_max(seconds);
}

/* t_mem(P) into r->memory, and the bytes a run (each the largest over the ranks): every rank
 * streams its own k->bytes at once, timed as the kernel's repeats are. Collective. */
static pl_status time_memory(const pl_dist_bench_kernel *k, const pl_dist_bench_args *a, pl_ctx *ctx,
                             const pl_dist_bench_case *c, pl_dist_bench_result *r)
{
    double read = 0.0, written = 0.0;
    k->bytes(c, &read, &written);
    memory_stream m = {pl_peaks_best_streams(), NULL, NULL, (int64_t)ceil(read / sizeof(float)),
                       (int64_t)ceil(written / sizeof(float)), pl_ctx_threads(ctx)};
    m.src = pl_alloc(sizeof(float) * (size_t)(m.n_read + 1));
    m.dst = pl_alloc(sizeof(float) * (size_t)(m.n_written + 1));
    double *t = malloc(sizeof *t * (size_t)a->repeats);
    pl_status s = m.src && m.dst && t ? PL_OK
                                      : pl_fail(PL_ERR_NOMEM, "bench: cannot allocate %.4g MB to time the memory bound",
                                                (read + written) / 1e6);
    if (s == PL_OK) stream_memory(&m, 1);
    if ((s = pl_dist_agree_status(s)) == PL_OK) {
        const pl_timed_calls calls = {stream_pass, barrier, slowest_of_ranks, &m, 1};
        s = pl_dist_agree_status(pl_time_calls(&calls, a->warmup > 0 ? (int)a->warmup : 1, a->repeats, t));
    }
    if (s == PL_OK) {
        r->has_bound = 1;
        r->run_read = pl_dist_max(read), r->run_written = pl_dist_max(written);
        r->memory = median(t, a->repeats);
    }
    pl_free(m.src), pl_free(m.dst), free(t);
    return s;
}

/* The bound on rank 0, from the baseline and t_mem(P): the rung's own time for this rank's
 * share (weak: the baseline, the same block; strong: the baseline over P) or memory's, the
 * larger; a tie names the rung. */
static void set_bound(const pl_dist_bench_args *a, pl_dist_bench_result *r)
{
    const double rung = a->weak ? r->baseline : r->baseline / r->ranks;
    r->limit = r->memory > rung ? "memory" : "rung";
    r->bound = r->memory > rung ? r->memory : rung;
    r->bound_efficiency = r->bound / r->seconds;
}

/* Rank 0 alone on the baseline problem, the others idle. */
static pl_status time_baseline(const pl_dist_bench_kernel *k, const pl_dist_bench_args *a, pl_ctx *ctx,
                               pl_dist_bench_result *r)
{
    pl_status s = PL_OK;
    if (pl_dist_rank() == 0) {
        double *t = malloc(sizeof *t * (size_t)a->repeats);
        s = t ? k->one_rank(a, ctx, r->rung, r->bh, r->bw, t) : pl_fail(PL_ERR_NOMEM, "bench: out of memory");
        if (s == PL_OK) r->baseline = median(t, a->repeats);
        free(t);
    }
    pl_dist_idle_until_root();
    return pl_dist_agree_status(s);
}

/* Every rank alone on its own copy of the baseline problem, all at once (weak scaling, P > 1):
 * what the node gives P independent one-process runs that share its cores' clock, caches and
 * memory bus, the slowest rank's median. The baseline above runs with the other cores idle; on
 * one host with every core busy a core may run slower (the 16-core Xeon VM: Life's one-rank
 * time 65-123 ms run to run), which weak efficiency against one rank alone counts against the
 * distributed path. The efficiency against this one is the path's own cost: the window's extra
 * cells, the exchange, the waiting on the slowest neighbour. */
static pl_status time_crowd(const pl_dist_bench_kernel *k, const pl_dist_bench_args *a, pl_ctx *ctx,
                            pl_dist_bench_result *r)
{
    double *t = malloc(sizeof *t * (size_t)a->repeats);
    pl_dist_barrier();
    pl_status s = t ? k->one_rank(a, ctx, r->rung, r->bh, r->bw, t) : pl_fail(PL_ERR_NOMEM, "bench: out of memory");
    const double mine = s == PL_OK ? median(t, a->repeats) : 0;
    free(t);
    r->crowd = pl_dist_max(mine); /* collective: every rank, failed or not */
    return pl_dist_agree_status(s);
}

pl_status pl_dist_bench_run(const pl_dist_bench_kernel *k, const pl_dist_bench_args *a, pl_ctx *ctx,
                            pl_dist_bench_result *r)
{
    memset(r, 0, sizeof *r);
    pl_dist_grid g;
    pl_dist_bench_case *c = NULL;
    pl_status s = pl_dist_agree_status(lay_out(k, a, ctx, &g, r));
    const int have_grid = s == PL_OK;
    if (s == PL_OK) {
        r->ranks = g.size, r->dims[0] = g.dims[0], r->dims[1] = g.dims[1], r->threads = pl_ctx_threads(ctx);
        if (!a->weak) r->bh = r->H, r->bw = r->W;
        r->model = pl_dist_model_measure();
        s = pl_dist_agree_status(k->create(&c, a, &g, ctx, r->H, r->W));
        r->nccl = s == PL_OK && k->on_nccl && k->on_nccl(c); /* the same on every rank */
        if (r->nccl && k->gpu_model) r->model = k->gpu_model(c), r->nccl_model = 1;
    }
    if (s == PL_OK) { /* the first run, checked where it lives */
        pl_dist_times first = {0, 0, 0};
        s = k->run(c, &first);
        if (s == PL_OK) s = k->check(c, &r->check);
        s = pl_dist_agree_status(s);
    }
    if (s == PL_OK) s = time_runs(k, a, c, r);
    if (s == PL_OK) {
        snprintf(r->rung, sizeof r->rung, "%s", k->rung(c));
        snprintf(r->note, sizeof r->note, "%s", k->note && k->note(c) ? k->note(c) : "");
        r->overlapped = k->overlaps ? pl_dist_max(k->overlaps(c)) > 0 : 0;
        k->messages(c, &r->msgs, &r->bytes);
        r->msgs = pl_dist_max(r->msgs), r->bytes = pl_dist_max(r->bytes);
        r->model_exchange = g.size > 1 ? pl_dist_model_time(&r->model, r->msgs, r->bytes) : 0;
        /* host memory bounds a CPU rung; where any rank's rung is on its GPU the bound is not
         * host memory's (decided together: time_memory is collective) */
        const int on_gpu = pl_dist_max(r->nccl || pl_dist_bench_is_cuda(k->kernel, r->rung)) > 0;
        if (k->bytes && !on_gpu) s = time_memory(k, a, ctx, c, r);
        if (s == PL_OK) s = time_baseline(k, a, ctx, r);
    }
    if (s == PL_OK && a->weak && r->ranks > 1) s = time_crowd(k, a, ctx, r);
    if (s == PL_OK && pl_dist_rank() == 0) {
        r->rate = k->work(a, r->H, r->W) / r->seconds;
        r->efficiency = a->weak ? r->baseline / r->seconds : r->baseline / (r->seconds * r->ranks);
        r->crowd_efficiency = r->crowd > 0 ? r->crowd / r->seconds : 0;
        if (r->has_bound) set_bound(a, r);
    }
    if (c) k->destroy(c);
    if (have_grid) pl_dist_grid_destroy(&g);
    return s;
}
