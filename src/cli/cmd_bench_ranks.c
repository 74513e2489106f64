/* cmd_bench_ranks.c: `parlab bench KERNEL ...` under mpirun, the command's side: the options
 * (the one-process bench's size syntax, SIZE or --size S, and those that mean something across
 * ranks), the kernel (one that runs distributed: the distributed floor's table), the run
 * (pl_dist_bench_run, src/distributed/bench/), and one table on rank 0 (and JSON). Every step
 * where a rank may fail ends where all ranks agree, so they stop together with one message. */
#include "cli/cmd_bench_ranks.h"
#include "cli/options.h"
#include "cli/tool_ranks.h"

#include "core/core.h"
#include "distributed/bench/bench_ranks.h"
#include "distributed/life/life_ranks.h" /* PL_DIST_OVERLAP_* */
#include "io/json.h"

#include <stdlib.h>
#include <string.h>

/* What the command line asks: the floor's arguments, and what the command alone reads. */
typedef struct bench_ranks_args {
    pl_dist_bench_args run;
    const char *kernel_name, *json_path;
    int sizes_given;       /* SIZE and --size S given, counted */
    tool_common co;        /* --variant, --threads, --backend, --device */
} bench_ranks_args;

static void usage(FILE *f)
{
    fputs("usage: mpirun -n P parlab bench KERNEL [SIZE | --size S] [--scale weak|strong] [options]\n"
          "\n"
          "Under mpirun, bench runs one kernel on the P ranks (a 2D grid of ranks; Life on CPU\n"
          "ranks: bands of whole rows, P x 1) and prints one table on rank 0: ranks, the grid,\n"
          "the problem, the time of the slowest rank (the median of the repeats), the rate, the\n"
          "parallel efficiency against one rank (timed in the same run on rank 0 alone: weak\n"
          "T1/TP, strong T1/(P TP)), and where the slowest rank's time went (compute, exchange,\n"
          "wait) beside the network model's exchange time (alpha + n/beta a message, alpha and\n"
          "beta from a ping-pong between ranks 0 and 1). Each rank checks its own block of the\n"
          "first run against the reference.\n"
          "Under weak scaling on P > 1 ranks a line below the table gives every rank alone on its\n"
          "own block at once (no messages: the host with every rank busy) and the efficiency\n"
          "against it, the distributed path's own cost. conv2d and entropy on the host path add\n"
          "the MB a run moves, the time those bytes take when every rank streams at once (memory),\n"
          "the bound (the larger of that and the rung alone), which of the two limits, and the\n"
          "efficiency against the bound.\n"
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
          "  --size S             the SIZE, as a plain argument or here (a named size such as\n"
          "                       small|medium|large: parlab list KERNEL); one size a run\n"
          "  --scale weak|strong  weak (default): SIZE is each rank's block, the problem grows\n"
          "                       with P; strong: SIZE is the whole problem\n"
          "  --gens N             life: generations a run (default 100)\n"
          "  --halo D             life: the halo's depth (default 48 for a CPU rung, 32 for a CUDA\n"
          "                       rung; at most the smallest block)\n"
          "  --overlap M          auto, on or off: compute a block's interior while the halo\n"
          "                       travels (default auto: the kernel's own policy)\n"
          "  --repeats R          timed runs (default 5)\n"
          "  --warmup N           untimed runs first (default 1; the first run is checked)\n"
          "  --seed S             the inputs' seed (default 1)\n"
          "  --json FILE          the table as JSON (schema parlab-bench-dist/1)\n"
          "  --variant V          the rung each rank runs (default: the best for its block)\n"
          "  --threads N          CPU threads a rank (default: the node's cores shared by its ranks)\n"
          "  --backend B, --device D   as for the one-process bench\n"
          "The one-process bench's --min-time, --max-time, --set, --param, --verify, --csv, --peer,\n"
          "--cold, --no-peaks and --skip-unavailable are not taken under mpirun (exit 2, naming it).\n"
          "\n"
          "exit status: 0 verified, 1 a run failed or did not verify, 2 usage error.\n",
          f);
}

enum { O_SIZE = CLI_OPT_OWN, O_SCALE, O_GENS, O_HALO, O_OVERLAP, O_REPEATS, O_WARMUP, O_SEED, O_JSON, O_ONE_PROCESS };
static const cli_opt options[] = {
    CLI_ROWS_RUN,
    {"--size", "S", O_SIZE, 0, NULL},
    {"--scale", "weak|strong", O_SCALE, 0, NULL},
    {"--gens", "N", O_GENS, 0, NULL},
    {"--halo", "D", O_HALO, 0, NULL},
    {"--overlap", "M", O_OVERLAP, 0, NULL},
    {"--repeats", "R", O_REPEATS, 0, NULL},
    {"--warmup", "N", O_WARMUP, 0, NULL},
    {"--seed", "S", O_SEED, 0, NULL},
    {"--json", "FILE", O_JSON, 0, NULL},
    /* the one-process bench's options that mean nothing here yet: named, so the error says so */
    {"--min-time", "S", O_ONE_PROCESS, 0, NULL},
    {"--max-time", "S", O_ONE_PROCESS, 0, NULL},
    {"--set", "NAME=V", O_ONE_PROCESS, 0, NULL},
    {"--param", "NAME=V", O_ONE_PROCESS, 0, NULL},
    {"--verify", "MODE", O_ONE_PROCESS, 0, NULL},
    {"--csv", "FILE", O_ONE_PROCESS, 0, NULL},
    {"--peer", NULL, O_ONE_PROCESS, 0, NULL},
    {"--cold", NULL, O_ONE_PROCESS, 0, NULL},
    {"--no-peaks", NULL, O_ONE_PROCESS, 0, NULL},
    {"--skip-unavailable", NULL, O_ONE_PROCESS, 0, NULL},
};

/* SIZE as a plain argument or --size S (the one-process bench's syntax): one size a run. */
static int take_size(bench_ranks_args *a, const char *val)
{
    if (a->sizes_given++ || strchr(val, ',')) {
        cli_error("bench: under mpirun bench runs one SIZE a run (given '%s'%s%s): run one mpirun a size", val,
                  a->run.size_text ? " after " : "", a->run.size_text ? a->run.size_text : "");
        return PL_EXIT_USAGE;
    }
    a->run.size_text = val;
    return PL_EXIT_OK;
}

static int take_option(void *user, const cli_opt *o, const char *val)
{
    bench_ranks_args *ba = user;
    pl_dist_bench_args *a = &ba->run;
    if (!o) { /* a positional argument: KERNEL, then SIZE */
        if (!ba->kernel_name) {
            ba->kernel_name = val;
            return PL_EXIT_OK;
        }
        if (ba->sizes_given < 1 || !a->size_text) return take_size(ba, val);
        cli_error("bench: unexpected argument '%s' (takes KERNEL and SIZE; see --help)", val);
        return PL_EXIT_USAGE;
    }
    switch (o->id) {
    case O_SIZE: return take_size(ba, val);
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
    case O_WARMUP: return cli_parse_int(o->name, val, 0, 1000L, &a->warmup);
    case O_SEED: return cli_parse_int(o->name, val, 0, 2147483647L, &a->seed);
    case O_JSON: ba->json_path = val; return PL_EXIT_OK;
    case O_ONE_PROCESS:
        cli_error("bench: %s is the one-process bench's; under mpirun bench takes SIZE or --size, --variant, "
                  "--threads, --device, --backend, --scale, --gens, --halo, --overlap, --repeats, --warmup, "
                  "--seed, --json (see parlab bench --help)",
                  o->name);
        return PL_EXIT_USAGE;
    }
    return tool_common_option("bench", &ba->co, o, val);
}

/* The options, the kernel (one that runs distributed), the output. CLI_GO_ON or the status. */
static int parse(int argc, char **argv, bench_ranks_args *a, const pl_dist_bench_kernel **k)
{
    cli_args ca = {.cmd = "bench", .opts = options, .n_opts = sizeof options / sizeof *options,
                   .takes = "KERNEL and SIZE"};
    int rc = cli_parse(&ca, argc, argv, take_option, a, usage);
    if (rc != CLI_GO_ON) return rc;
    if (!(*k = pl_dist_bench_find(a->kernel_name))) {
        char names[256];
        pl_dist_bench_names(names, sizeof names);
        cli_error("bench: %s%s%s does not run distributed yet (under mpirun on %d ranks bench runs: %s); run it "
                  "without mpirun", a->kernel_name ? "'" : "no KERNEL", a->kernel_name ? a->kernel_name : "",
                  a->kernel_name ? "'" : "", pl_dist_size(), names);
        return PL_EXIT_USAGE;
    }
    a->run.size_text = a->run.size_text ? pl_kernel_size((*k)->kernel, a->run.size_text) : (*k)->default_size;
    if (a->json_path && pl_dist_rank() == 0 &&
        (rc = tool_check_output("bench", "--json", a->json_path, NULL, 0, TOOL_OUT_STDOUT)) != 0)
        return rc;
    return CLI_GO_ON;
}

/* The shared-bandwidth bound's columns, after the others where the run has one. */
#define BOUND_COLUMNS "  %9s  %11s  %10s  %-6s  %8s"

static void print_table(const pl_dist_bench_kernel *k, const bench_ranks_args *ba, const pl_dist_bench_result *r)
{
    const pl_dist_bench_args *a = &ba->run;
    printf("bench %s on %d rank%s (a %dx%d grid of ranks), %s scaling, %d thread%s a rank, rung %s",
           k->name, r->ranks, r->ranks > 1 ? "s" : "", r->dims[0], r->dims[1], a->weak ? "weak" : "strong",
           r->threads, r->threads > 1 ? "s" : "", r->rung);
    if (k->takes_gens) printf(", %ld generations", a->gens);
    if (*r->note) printf(", %s", r->note);
    printf(",\npath: %s, %s", r->nccl ? "one GPU a rank, exchanges between GPUs on NCCL" : "exchanges on MPI (host memory)",
           r->overlapped ? "the interior computed while the halo travels" : "not overlapped");
    printf("\nmodel: alpha %.2f us, beta %.3g GB/s (%s between ranks 0 and 1)%s\n", r->model.alpha * 1e6,
           r->model.beta / 1e9, r->nccl_model ? "NCCL send/recv between the GPUs" : "MPI ping-pong",
           r->ranks < 2 ? ": one rank, no network" : "");
    printf("check: %s\n\n", r->check);
    printf("%5s  %-7s  %-13s  %10s  %-16s  %10s  %12s  %13s  %9s  %11s", "ranks", "grid", "problem", "time (ms)",
           k->unit, "efficiency", "compute (ms)", "exchange (ms)", "wait (ms)", "model (ms)");
    if (r->has_bound) printf(BOUND_COLUMNS, "MB a run", "memory (ms)", "bound (ms)", "limit", "vs bound");
    char grid[32], problem[48];
    const int rows_first = k->size_form[0] != 'W'; /* the sizes as the kernel's SIZE reads them */
    snprintf(problem, sizeof problem, "%lldx%lld", (long long)(rows_first ? r->bh : r->bw),
             (long long)(rows_first ? r->bw : r->bh));
    printf("\n%5d  %-7s  %-13s  %10.3f  %-16.4g  %10s  %12.3f  %13s  %9s  %11s", 1, "1x1", problem, r->baseline * 1e3,
           k->work(a, r->bh, r->bw) / r->baseline, "(baseline)", r->baseline * 1e3, "-", "-", "-");
    if (r->has_bound) printf(BOUND_COLUMNS, "-", "-", "-", "-", "-");
    snprintf(grid, sizeof grid, "%dx%d", r->dims[0], r->dims[1]);
    snprintf(problem, sizeof problem, "%lldx%lld", (long long)(rows_first ? r->H : r->W),
             (long long)(rows_first ? r->W : r->H));
    printf("\n%5d  %-7s  %-13s  %10.3f  %-16.4g  %9.1f%%  %12.3f  %13.3f  %9.3f  %11.3f", r->ranks, grid, problem,
           r->seconds * 1e3, r->rate, r->efficiency * 100, r->slowest.compute * 1e3, r->slowest.exchange * 1e3,
           r->slowest.wait * 1e3, r->model_exchange * 1e3);
    if (r->has_bound) {
        char mb[32], memory[32], bound[32], vs[32];
        snprintf(mb, sizeof mb, "%.4g", (r->run_read + r->run_written) / 1e6);
        snprintf(memory, sizeof memory, "%.3f", r->memory * 1e3);
        snprintf(bound, sizeof bound, "%.3f", r->bound * 1e3);
        snprintf(vs, sizeof vs, "%.1f%%", r->bound_efficiency * 100);
        printf(BOUND_COLUMNS, mb, memory, bound, r->limit, vs);
    }
    printf("\n\n(time: the slowest rank's, median of %ld; compute, exchange, wait: the median run's, each the "
           "largest over the ranks; exchange: packing and posting the messages (halos, panels), wait: blocked for "
           "it; model: %.0f messages and %.3g MB a run by the busiest rank, each alpha + n/beta, beside exchange + "
           "wait",
           a->repeats, r->msgs, r->bytes / 1e6);
    if (r->has_bound)
        printf("; MB a run: what the busiest rank's run reads and writes at least (%.4g MB read, %.4g MB written); "
               "memory: every rank at once copying that many bytes through its own memory, the slowest rank's, "
               "median of %ld; bound: the larger of the rung's own time (%s) and memory, limit says which; vs "
               "bound: bound / time",
               r->run_read / 1e6, r->run_written / 1e6, a->repeats,
               a->weak ? "the baseline's" : "the baseline's over the ranks");
    printf(")\n");
    if (r->crowd > 0)
        printf("every rank alone at once: %.3f ms (each on its own baseline problem, no messages: the host with "
               "every rank busy); efficiency against it: %.1f%% (the distributed path's own cost)\n",
               r->crowd * 1e3, r->crowd_efficiency * 100);
}

static int write_json(const pl_dist_bench_kernel *k, const bench_ranks_args *ba, int argc, char **argv,
                      const pl_dist_bench_result *r)
{
    const pl_dist_bench_args *a = &ba->run;
    char command[512] = "mpirun parlab";
    for (int i = 0; i < argc; i++) snprintf(command + strlen(command), sizeof command - strlen(command), " %s", argv[i]);
    pl_report_info info = {NULL, command, NULL};
    FILE *f = pl_json_file_open(ba->json_path, "parlab-bench-dist/1", &info);
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
    pl_json_write_string(f, r->note);
    fprintf(f, ", \"model_on\": \"%s\"", r->nccl_model ? "nccl" : "mpi");
    fprintf(f, ", \"path\": ");
    pl_json_write_string(f, r->nccl ? "nccl" : "host");
    fprintf(f, ", \"overlapped\": %s", r->overlapped ? "true" : "false");
    fprintf(f, ",\n  \"ranks\": %d, \"grid\": [%d, %d], \"threads_per_rank\": %d, \"scale\": \"%s\",\n", r->ranks,
            r->dims[0], r->dims[1], r->threads, a->weak ? "weak" : "strong");
    fprintf(f, "  \"problem_rows_cols\": [%lld, %lld], \"baseline_rows_cols\": [%lld, %lld], \"repeats\": %ld",
            (long long)r->H, (long long)r->W, (long long)r->bh, (long long)r->bw, a->repeats);
    if (k->takes_gens) fprintf(f, ", \"gens\": %ld", a->gens);
    const double v[] = {r->seconds, r->baseline, r->rate, r->efficiency, r->slowest.compute, r->slowest.exchange,
                        r->slowest.wait, r->model_exchange, r->msgs, r->bytes, r->model.alpha, r->model.beta};
    const char *names[] = {"time_s", "baseline_s", "rate", "efficiency", "compute_s", "exchange_s", "wait_s",
                           "model_exchange_s", "messages", "message_bytes", "alpha_s", "beta_bytes_per_s"};
    for (int i = 0; i < (int)(sizeof v / sizeof *v); i++) {
        fprintf(f, ",%s\"%s\": ", i % 4 == 0 ? "\n  " : " ", names[i]);
        pl_json_write_num(f, v[i]);
    }
    if (r->crowd > 0) {
        fprintf(f, ",\n  \"crowd_s\": ");
        pl_json_write_num(f, r->crowd);
        fprintf(f, ", \"crowd_efficiency\": ");
        pl_json_write_num(f, r->crowd_efficiency);
    }
    if (r->has_bound) { /* the shared-bandwidth bound, where the kernel says its bytes and the run is on the host */
        const double b[] = {r->run_read, r->run_written, r->memory, r->bound, r->bound_efficiency};
        const char *bnames[] = {"run_bytes_read", "run_bytes_written", "memory_s", "bound_s", "bound_efficiency"};
        for (int i = 0; i < (int)(sizeof b / sizeof *b); i++) {
            fprintf(f, ",%s\"%s\": ", i == 0 ? "\n  " : " ", bnames[i]);
            pl_json_write_num(f, b[i]);
        }
        fprintf(f, ", \"limit\": \"%s\"", r->limit);
    }
    fprintf(f, "\n}\n");
    return pl_json_file_close(f, ba->json_path) == PL_OK ? PL_EXIT_OK : cli_fail(PL_ERR_IO);
}

/* The context, the run on the ranks, the table and the JSON on rank 0. */
static int run_bench(const pl_dist_bench_kernel *k, bench_ranks_args *a, int argc, char **argv)
{
    pl_ctx *ctx = NULL;
    pl_dist_bench_result r;
    int rc = cli_agree(tool_find_variant("bench", k->kernel, &a->co, &a->run.variant));
    if (rc == 0) rc = cli_agree(tool_context(k->kernel, NULL, &a->co, a->run.variant, &ctx));
    if (rc == 0) rc = cli_status(pl_dist_bench_run(k, &a->run, ctx, &r));
    if (rc == 0 && pl_dist_rank() == 0) print_table(k, a, &r);
    if (rc == 0 && a->json_path) rc = cli_agree(pl_dist_rank() == 0 ? write_json(k, a, argc, argv, &r) : 0);
    pl_ctx_destroy(ctx);
    return rc;
}

int bench_ranks(int argc, char **argv)
{
    bench_ranks_args a = {.run = {.weak = 1, .gens = 100, .warmup = 1, .repeats = 5, .seed = 1,
                                  .overlap = PL_DIST_OVERLAP_AUTO},
                          .co = TOOL_COMMON_INIT};
    const pl_dist_bench_kernel *k = NULL;
    const int rc = tool_ranks_parsed(parse(argc, argv, &a, &k));
    if (rc != CLI_GO_ON) return rc;
    pl_dist_share_node(&a.co.threads, &a.co.device);
    return run_bench(k, &a, argc, argv);
}
