/* bench_dist.c: the frame of `parlab bench KERNEL ...` under mpirun (see bench_dist.h). The run
 * reads as its phases: parse; lay the problem over the grid of ranks; measure the network model
 * (ping-pong between ranks 0 and 1); create each rank's share; run once and have every rank
 * check its block; time the repeats (each the slowest rank's time, after a barrier); time one
 * rank alone on the baseline problem (the others wait idle); print one table on rank 0 with
 * the model's exchange time beside the measured one; JSON. Every point where a rank may fail
 * ends in cli_agree, so all ranks stop together with one message. */
#include "cli/bench_dist.h"
#include "cli/tool_dist.h"

#include "core/core.h"
#include "core/device.h"
#include "dist/life.h" /* PL_DIST_OVERLAP_* */
#include "harness/harness.h"
#include "io/json.h"

#include <stdlib.h>
#include <string.h>

/* The kernels that run distributed: one row each. */
static const dist_kernel *const dist_kernels[] = {
    &dist_bench_life,
    &dist_bench_conv2d,
    &dist_bench_entropy,
    &dist_bench_gemm,
    &dist_bench_reduce,
};
enum { N_DIST_KERNELS = sizeof dist_kernels / sizeof dist_kernels[0] };

static void usage(FILE *f)
{
    fputs("usage: mpirun -n P parlab bench KERNEL [SIZE] [--scale weak|strong] [options]\n"
          "\n"
          "Under mpirun, bench runs one kernel on the P ranks (a 2D grid of ranks) and prints one\n"
          "table on rank 0: ranks, the grid, the problem, the time of the slowest rank (the median\n"
          "of the repeats), the rate, the parallel efficiency against one rank (timed in the same\n"
          "run on rank 0 alone: weak T1/TP, strong T1/(P TP)), and where the slowest rank's time\n"
          "went (compute, exchange, wait) beside the network model's exchange time (alpha + n/beta\n"
          "a message, alpha and beta from a ping-pong between ranks 0 and 1). Each rank checks its\n"
          "own block of the first run against the reference.\n"
          "\n"
          "kernels under mpirun: life (SIZE WxH or N, a torus of B3/S23), conv2d (SIZE HxW or N, a\n"
          "float32 image, a 5x5 filter, same mode, zero border), entropy (SIZE HxW or N, values in\n"
          "[0, 16), 5x5 windows), gemm (SIZE MxNxK or N: under weak scaling MxN is each rank's\n"
          "block of C, K stays; SUMMA, C = A B), reduce (SIZE HxW or N: the sum of each row, the\n"
          "result on every rank). With a CUDA rung, NCCL in the build and a GPU a rank, gemm and\n"
          "reduce keep their blocks on the GPUs and exchange on NCCL (the baseline: one GPU, the\n"
          "same rung, data resident)\n"
          "\n"
          "options:\n"
          "  --scale weak|strong  weak (default): SIZE is each rank's block, the problem grows\n"
          "                       with P; strong: SIZE is the whole problem\n"
          "  --gens N             life: generations a run (default 100)\n"
          "  --halo D             life: the halo's depth (default 16, at most the smallest block)\n"
          "  --overlap M          auto, on or off: compute a block's interior while the halo\n"
          "                       travels (default auto: the kernel's own policy)\n"
          "  --repeats R          timed runs (default 5)\n"
          "  --seed S             the inputs' seed (default 1)\n"
          "  --json FILE          the table as JSON (schema parlab-bench-dist/1)\n"
          "  --variant V          the rung each rank runs (default: the best for its block)\n"
          "  --threads N          CPU threads a rank (default: the node's cores shared by its ranks)\n"
          "  --backend B, --device D   as for the one-process bench\n"
          "\n"
          "exit status: 0 verified, 1 a run failed or did not verify, 2 usage error.\n",
          f);
}

enum { O_SCALE = CLI_OPT_OWN, O_GENS, O_HALO, O_OVERLAP, O_REPEATS, O_SEED, O_JSON };
static const cli_opt options[] = {
    CLI_ROWS_RUN,
    {"--scale", "weak|strong", O_SCALE, 0, NULL},
    {"--gens", "N", O_GENS, 0, NULL},
    {"--halo", "D", O_HALO, 0, NULL},
    {"--overlap", "M", O_OVERLAP, 0, NULL},
    {"--repeats", "R", O_REPEATS, 0, NULL},
    {"--seed", "S", O_SEED, 0, NULL},
    {"--json", "FILE", O_JSON, 0, NULL},
};

static int take_option(void *user, const cli_opt *o, const char *val)
{
    dist_bench_args *a = user;
    switch (o->id) {
    case O_SCALE:
        if (!strcmp(val, "weak") || !strcmp(val, "strong")) {
            a->weak = !strcmp(val, "weak");
            return PL_EXIT_OK;
        }
        cli_error("bench: --scale '%s': give weak or strong", val);
        return PL_EXIT_USAGE;
    case O_GENS: return cli_parse_int(o->name, val, 1, 1000000000L, &a->gens);
    case O_HALO: return cli_parse_int(o->name, val, 1, 1000000L, &a->halo);
    case O_OVERLAP:
        if (!strcmp(val, "auto") || !strcmp(val, "on") || !strcmp(val, "off")) {
            a->overlap = !strcmp(val, "on") ? PL_DIST_OVERLAP_ON : !strcmp(val, "off") ? PL_DIST_OVERLAP_OFF
                                                                                       : PL_DIST_OVERLAP_AUTO;
            return PL_EXIT_OK;
        }
        cli_error("bench: --overlap '%s': give auto, on or off", val);
        return PL_EXIT_USAGE;
    case O_REPEATS: return cli_parse_int(o->name, val, 1, 1000L, &a->repeats);
    case O_SEED: return cli_parse_int(o->name, val, 0, 2147483647L, &a->seed);
    case O_JSON: a->json_path = val; return PL_EXIT_OK;
    }
    return tool_common_option("bench", &a->co, o, val);
}

/* The options, the kernel (one that runs distributed), the output. CLI_GO_ON or the status. */
static int parse(int argc, char **argv, dist_bench_args *a, const dist_kernel **k)
{
    const char *pos[2] = {NULL, NULL};
    cli_args ca = {.cmd = "bench", .opts = options, .n_opts = sizeof options / sizeof *options, .pos = pos,
                   .max_pos = 2, .takes = "KERNEL and SIZE"};
    int rc = cli_parse(&ca, argc, argv, take_option, a, usage);
    if (rc != CLI_GO_ON) return rc;
    a->kernel_name = pos[0], a->size_text = pos[1];
    *k = NULL;
    for (int i = 0; i < N_DIST_KERNELS && a->kernel_name; i++)
        if (!strcmp(a->kernel_name, dist_kernels[i]->name)) *k = dist_kernels[i];
    if (!*k) {
        char names[256] = "";
        for (int i = 0; i < N_DIST_KERNELS; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", dist_kernels[i]->name);
        cli_error("bench: %s%s%s does not run distributed yet (under mpirun on %d ranks bench runs: %s); run it "
                  "without mpirun", a->kernel_name ? "'" : "no KERNEL", a->kernel_name ? a->kernel_name : "",
                  a->kernel_name ? "'" : "", pl_dist_size(), names);
        return PL_EXIT_USAGE;
    }
    if (!a->size_text) a->size_text = (*k)->default_size;
    if (a->json_path && pl_dist_rank() == 0 &&
        (rc = tool_check_output("bench", "--json", a->json_path, NULL, 0, TOOL_OUT_STDOUT)) != 0)
        return rc;
    return CLI_GO_ON;
}

/* The grid of ranks and the whole problem: strong, the size given; weak, the grid's process
 * rows and columns times the block given (the grid is chosen for the shape, then the problem
 * made to fit it). */
static int lay_out(const dist_kernel *k, const dist_bench_args *a, pl_dist_grid *g, int64_t *H, int64_t *W,
                   int64_t *bh, int64_t *bw)
{
    pl_status s = k->parse_size(a->size_text, bh, bw);
    if (s != PL_OK) return cli_fail(s);
    *H = *bh, *W = *bw;
    if (a->weak) {
        const int P = pl_dist_size();
        if ((s = pl_dist_grid_create(g, *bh * P, *bw * P, k->periodic)) != PL_OK) return cli_fail(s);
        *H = *bh * g->dims[0], *W = *bw * g->dims[1];
        pl_dist_grid_destroy(g);
    }
    s = pl_dist_grid_create(g, *H, *W, k->periodic);
    return s == PL_OK ? PL_EXIT_OK : cli_fail(s);
}

pl_status dist_bench_time_device(pl_ctx *ctx, const pl_kernel *k, const char *rung, const void *problem,
                                 void *const *dev, long repeats, double *seconds)
{
    const pl_variant *v = pl_variant_find(k, rung);
    void *stream = NULL;
    pl_status s = pl_dev_select(pl_ctx_device(ctx));
    if (s == PL_OK) s = pl_dev_stream_create(&stream);
    for (long i = -1; i < repeats && s == PL_OK; i++) { /* i = -1: the warm-up */
        const double t0 = pl_now();
        s = pl_run_device(ctx, k, v, NULL, problem, dev, stream);
        if (s == PL_OK) s = pl_dev_sync(stream);
        if (i >= 0) seconds[i] = pl_now() - t0;
    }
    if (stream) pl_dev_stream_destroy(stream);
    return s;
}

/* The median of n times (sorted in place). */
static double median(double *t, long n)
{
    double m, lo, hi;
    pl_stats_summary(t, (int)n, &m, &lo, &hi);
    return m;
}

/* What one bench measured, for the table and the JSON. */
typedef struct dist_result {
    int ranks, dims[2];
    int64_t H, W, bh, bw;           /* the problem, and the baseline's (a block, or the whole) */
    const char *rung, *check, *note;
    int nccl_model;                 /* the model measured on NCCL between the GPUs */
    double seconds, baseline;       /* the slowest rank's median, one rank's median */
    double rate, efficiency;
    pl_dist_times slowest;          /* a run's, each part the largest over the ranks */
    double model_exchange, msgs, bytes;
    pl_dist_model model;
    int threads;
    int nccl;                       /* the GPU path ran on every rank */
    int overlapped;                 /* some rank overlapped the exchange with its interior */
} dist_result;

/* The repeats: each after a barrier, the slowest rank's time; every rank's parts summed. */
static int time_runs(const dist_kernel *k, const dist_bench_args *a, dist_case *c, dist_result *r)
{
    const long n = a->repeats;
    double *t = malloc(sizeof *t * (size_t)n);
    pl_dist_times *parts = malloc(sizeof *parts * (size_t)n);
    pl_status s = t && parts ? PL_OK : pl_fail(PL_ERR_NOMEM, "bench: out of memory");
    for (long i = 0; i < n; i++) {
        pl_dist_times one = {0, 0, 0};
        pl_dist_barrier();
        const double t0 = pl_now();
        const pl_status run = k->run(c, &one); /* a failed rank still exchanges: no rank waits */
        if (s == PL_OK) s = run;
        const double dt = pl_dist_max(pl_now() - t0);
        const pl_dist_times most = pl_dist_times_max(&one); /* after the clock: collective, every rank */
        if (t && parts) t[i] = dt, parts[i] = most;
    }
    int rc = cli_agree(s == PL_OK ? PL_EXIT_OK : cli_fail(s));
    if (rc == 0) {
        /* the split of the median run (the lower middle one of an even count), not an average
         * that one slow repeat would drag away from the median time beside it */
        long at = 0;
        for (long i = 0; i < n; i++) {
            long below = 0, same_before = 0;
            for (long j = 0; j < n; j++) below += t[j] < t[i], same_before += j < i && t[j] == t[i];
            if (below + same_before == (n - 1) / 2) at = i;
        }
        r->slowest = parts[at];
        r->seconds = median(t, n);
    }
    free(t), free(parts);
    return rc;
}

/* Rank 0 alone on the baseline problem, the others idle. */
static int time_baseline(const dist_kernel *k, const dist_bench_args *a, pl_ctx *ctx, dist_result *r)
{
    pl_status s = PL_OK;
    if (pl_dist_rank() == 0) {
        double *t = malloc(sizeof *t * (size_t)a->repeats);
        s = t ? k->one_rank(a, ctx, r->rung, r->bh, r->bw, t) : pl_fail(PL_ERR_NOMEM, "bench: out of memory");
        if (s == PL_OK) r->baseline = median(t, a->repeats);
        free(t);
    }
    pl_dist_idle_until_root();
    return cli_agree(s == PL_OK ? PL_EXIT_OK : cli_fail(s));
}

static void print_table(const dist_kernel *k, const dist_bench_args *a, const dist_result *r)
{
    printf("bench %s on %d rank%s (a %dx%d grid of ranks), %s scaling, %d thread%s a rank, rung %s",
           k->name, r->ranks, r->ranks > 1 ? "s" : "", r->dims[0], r->dims[1], a->weak ? "weak" : "strong",
           r->threads, r->threads > 1 ? "s" : "", r->rung);
    if (k == &dist_bench_life) printf(", %ld generations", a->gens);
    if (r->note && *r->note) printf(", %s", r->note);
    printf(",\npath: %s, %s", r->nccl ? "one GPU a rank, exchanges between GPUs on NCCL" : "exchanges on MPI (host memory)",
           r->overlapped ? "the interior computed while the halo travels" : "not overlapped");
    printf("\nmodel: alpha %.2f us, beta %.3g GB/s (%s between ranks 0 and 1)%s\n", r->model.alpha * 1e6,
           r->model.beta / 1e9, r->nccl_model ? "NCCL send/recv between the GPUs" : "MPI ping-pong",
           r->ranks < 2 ? ": one rank, no network" : "");
    printf("check: %s\n\n", r->check);
    printf("%5s  %-7s  %-13s  %10s  %-16s  %10s  %12s  %13s  %9s  %11s\n", "ranks", "grid", "problem", "time (ms)",
           k->unit, "efficiency", "compute (ms)", "exchange (ms)", "wait (ms)", "model (ms)");
    char grid[32], problem[48];
    const int rows_first = k->size_form[0] != 'W'; /* the sizes as the kernel's SIZE reads them */
    snprintf(problem, sizeof problem, "%lldx%lld", (long long)(rows_first ? r->bh : r->bw),
             (long long)(rows_first ? r->bw : r->bh));
    printf("%5d  %-7s  %-13s  %10.3f  %-16.4g  %10s  %12.3f  %13s  %9s  %11s\n", 1, "1x1", problem, r->baseline * 1e3,
           k->work(a, r->bh, r->bw) / r->baseline, "(baseline)", r->baseline * 1e3, "-", "-", "-");
    snprintf(grid, sizeof grid, "%dx%d", r->dims[0], r->dims[1]);
    snprintf(problem, sizeof problem, "%lldx%lld", (long long)(rows_first ? r->H : r->W),
             (long long)(rows_first ? r->W : r->H));
    printf("%5d  %-7s  %-13s  %10.3f  %-16.4g  %9.1f%%  %12.3f  %13.3f  %9.3f  %11.3f\n", r->ranks, grid, problem,
           r->seconds * 1e3, r->rate, r->efficiency * 100, r->slowest.compute * 1e3, r->slowest.exchange * 1e3,
           r->slowest.wait * 1e3, r->model_exchange * 1e3);
    printf("\n(time: the slowest rank's, median of %ld; compute, exchange, wait: the median run's, each the "
           "largest over the ranks; exchange: packing and posting the messages (halos, panels), wait: blocked for "
           "it; model: %.0f messages and %.3g MB a run by the busiest rank, each alpha + n/beta, beside exchange + "
           "wait)\n",
           a->repeats, r->msgs, r->bytes / 1e6);
}

static int write_json(const dist_kernel *k, const dist_bench_args *a, int argc, char **argv, const dist_result *r)
{
    char command[512] = "mpirun parlab";
    for (int i = 0; i < argc; i++) snprintf(command + strlen(command), sizeof command - strlen(command), " %s", argv[i]);
    pl_report_info info = {NULL, command, NULL};
    FILE *f = pl_json_file_open(a->json_path, "parlab-bench-dist/1", &info);
    if (!f) return cli_fail(PL_ERR_IO);
    fprintf(f, "  \"kernel\": ");
    pl_json_write_string(f, k->name);
    fprintf(f, ", \"rung\": ");
    pl_json_write_string(f, r->rung);
    fprintf(f, ", \"unit\": ");
    pl_json_write_string(f, k->unit);
    fprintf(f, ", \"check\": ");
    pl_json_write_string(f, r->check);
    fprintf(f, ", \"note\": ");
    pl_json_write_string(f, r->note ? r->note : "");
    fprintf(f, ", \"model_on\": \"%s\"", r->nccl_model ? "nccl" : "mpi");
    fprintf(f, ", \"path\": ");
    pl_json_write_string(f, r->nccl ? "nccl" : "host");
    fprintf(f, ", \"overlapped\": %s", r->overlapped ? "true" : "false");
    fprintf(f, ",\n  \"ranks\": %d, \"grid\": [%d, %d], \"threads_per_rank\": %d, \"scale\": \"%s\",\n", r->ranks,
            r->dims[0], r->dims[1], r->threads, a->weak ? "weak" : "strong");
    fprintf(f, "  \"problem_rows_cols\": [%lld, %lld], \"baseline_rows_cols\": [%lld, %lld], \"repeats\": %ld",
            (long long)r->H, (long long)r->W, (long long)r->bh, (long long)r->bw, a->repeats);
    if (k == &dist_bench_life) fprintf(f, ", \"gens\": %ld", a->gens);
    const double v[] = {r->seconds, r->baseline, r->rate, r->efficiency, r->slowest.compute, r->slowest.exchange,
                        r->slowest.wait, r->model_exchange, r->msgs, r->bytes, r->model.alpha, r->model.beta};
    const char *names[] = {"time_s", "baseline_s", "rate", "efficiency", "compute_s", "exchange_s", "wait_s",
                           "model_exchange_s", "messages", "message_bytes", "alpha_s", "beta_bytes_per_s"};
    for (int i = 0; i < (int)(sizeof v / sizeof *v); i++) {
        fprintf(f, ",%s\"%s\": ", i % 4 == 0 ? "\n  " : " ", names[i]);
        pl_json_write_num(f, v[i]);
    }
    fprintf(f, "\n}\n");
    return pl_json_file_close(f, a->json_path) == PL_OK ? PL_EXIT_OK : cli_fail(PL_ERR_IO);
}

pl_status dist_bench_one_gpu(pl_ctx *ctx, const pl_kernel *k, const char *rung, const void *problem,
                             void *const *host, long repeats, double *seconds)
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
    if (s == PL_OK) s = dist_bench_time_device(ctx, k, rung, problem, dev, repeats, seconds);
    for (int i = 0; i < n; i++) pl_dev_free(dev[i]);
    return s;
}

/* The phases, each ending where every rank agrees. */
static int run_bench(const dist_kernel *k, dist_bench_args *a, int argc, char **argv)
{
    dist_result r;
    memset(&r, 0, sizeof r);
    pl_dist_grid g;
    int have_grid = 0;
    pl_ctx *ctx = NULL;
    dist_case *c = NULL;
    int rc = cli_agree(tool_find_variant("bench", k->kernel, &a->co, &a->variant));
    if (rc == 0) rc = cli_agree(lay_out(k, a, &g, &r.H, &r.W, &r.bh, &r.bw));
    have_grid = rc == 0;
    if (rc == 0) rc = cli_agree(tool_context(k->kernel, NULL, &a->co, a->variant, &ctx));
    if (rc == 0) {
        r.ranks = g.size, r.dims[0] = g.dims[0], r.dims[1] = g.dims[1], r.threads = pl_ctx_threads(ctx);
        if (!a->weak) r.bh = r.H, r.bw = r.W;
        r.model = pl_dist_model_measure();
        const pl_status s = k->create(&c, a, &g, ctx, r.H, r.W);
        rc = cli_agree(s == PL_OK ? PL_EXIT_OK : cli_fail(s));
        r.nccl = rc == 0 && k->on_nccl && k->on_nccl(c); /* the same on every rank */
        if (r.nccl && k->gpu_model) r.model = k->gpu_model(c), r.nccl_model = 1;
    }
    if (rc == 0) { /* the first run, checked where it lives */
        pl_dist_times first = {0, 0, 0};
        pl_status s = k->run(c, &first);
        if (s == PL_OK) s = k->check(c, &r.check);
        rc = cli_agree(s == PL_OK ? PL_EXIT_OK : cli_fail(s));
    }
    if (rc == 0) rc = time_runs(k, a, c, &r);
    if (rc == 0) {
        r.rung = k->rung(c);
        r.note = k->note ? k->note(c) : NULL;
        r.overlapped = k->overlaps ? pl_dist_max(k->overlaps(c)) > 0 : 0;
        k->messages(c, &r.msgs, &r.bytes);
        r.msgs = pl_dist_max(r.msgs), r.bytes = pl_dist_max(r.bytes);
        r.model_exchange = g.size > 1 ? pl_dist_model_time(&r.model, r.msgs, r.bytes) : 0;
        rc = time_baseline(k, a, ctx, &r);
    }
    if (rc == 0 && pl_dist_rank() == 0) {
        r.rate = k->work(a, r.H, r.W) / r.seconds;
        r.efficiency = a->weak ? r.baseline / r.seconds : r.baseline / (r.seconds * r.ranks);
        print_table(k, a, &r);
    }
    if (rc == 0 && a->json_path) rc = cli_agree(pl_dist_rank() == 0 ? write_json(k, a, argc, argv, &r) : 0);
    if (k && c) k->destroy(c);
    pl_ctx_destroy(ctx);
    if (have_grid) pl_dist_grid_destroy(&g);
    return rc;
}

int bench_dist(int argc, char **argv)
{
    dist_bench_args a = {.weak = 1, .gens = 100, .repeats = 5, .seed = 1, .overlap = PL_DIST_OVERLAP_AUTO,
                         .co = TOOL_COMMON_INIT};
    const dist_kernel *k = NULL;
    const int rc = tool_dist_parsed(parse(argc, argv, &a, &k));
    if (rc != CLI_GO_ON) return rc;
    tool_dist_share_node(&a.co);
    return run_bench(k, &a, argc, argv);
}
