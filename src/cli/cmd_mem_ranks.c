/* cmd_mem_ranks.c: `parlab mem pingpong|halo` under mpirun, the network half of the model the
 * distributed bench and docs/scale-out.md use: a message of n bytes costs alpha + n/beta.
 *   pingpong: ranks 0 and 1 bounce messages of 8 B to 16 MiB; the one-way time and bandwidth
 *             of each, alpha (8 B's time) and beta (from 4 MiB) fitted, and the model's time
 *             beside each measurement.
 *   halo:     every rank of a torus exchanges the 8-neighbour halo of an N x N float32 block
 *             (depth d: 4 sides of N x d, 4 corners of d x d), as the stencils do; the slowest
 *             rank's time of a whole exchange beside the model's 8 messages one after another.
 * The measuring is the distributed floor's (transport/measure.c); here the options and the
 * tables. Rank 0 prints; the other ranks print nothing. Exit status as every command. */
#include "cli/options.h"
#include "cli/tool_ranks.h"

#include "core/core.h"
#include "distributed/transport/distributed.h"

#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: mpirun -n P parlab mem pingpong|halo [--reps N] [--halo D]\n"
          "\n"
          "The network between ranks, for the model alpha + n/beta a message (docs/scale-out.md):\n"
          "  pingpong   ranks 0 and 1: one-way time and bandwidth of messages of 8 B..16 MiB, the\n"
          "             fitted alpha (latency) and beta (bandwidth), and the model beside each size\n"
          "  halo       every rank on a torus of ranks: the 8-neighbour halo exchange of N x N\n"
          "             float32 blocks (N = 256, 1024, 4096), measured beside the model\n"
          "\n"
          "options:\n"
          "  --reps N    round trips or exchanges a size, 1..10000 (default 100; 10 above 1 MiB)\n"
          "  --halo D    the halo's depth for halo, 1..64 (default 1)\n"
          "  -h, --help  show this help\n",
          f);
}

enum { O_REPS = CLI_OPT_OWN, O_HALO };
static const cli_opt options[] = {{"--reps", "N", O_REPS, 0, NULL}, {"--halo", "D", O_HALO, 0, NULL}};
typedef struct net_args {
    const char *study;
    long reps, halo;
} net_args;

static int take_option(void *user, const cli_opt *o, const char *val)
{
    net_args *a = user;
    if (o->id == O_REPS) return cli_parse_int(o->name, val, 1, 10000, &a->reps);
    return cli_parse_int(o->name, val, 1, 64, &a->halo);
}

static void print_model(const pl_dist_model *m)
{
    printf("model: alpha %.2f us, beta %.3g GB/s (alpha: 8 bytes' one-way time; beta: 4 MiB's, less alpha)\n",
           m->alpha * 1e6, m->beta / 1e9);
}

/* The ping-pong table. */
static void pingpong(const net_args *a)
{
    const pl_dist_model m = pl_dist_model_measure();
    if (pl_dist_rank() == 0) {
        printf("\n== pingpong: ranks 0 and 1, one-way time of a message (median of the round trips / 2)\n");
        print_model(&m);
        printf("%12s  %12s  %12s  %14s  %8s\n", "bytes", "time (us)", "GB/s", "model (us)", "model/time");
    }
    for (size_t n = 8; n <= (size_t)16 << 20; n *= 8) {
        const int reps = a->reps ? (int)a->reps : n > ((size_t)1 << 20) ? 10 : 100;
        const double t = pl_dist_pingpong(n, reps), model = pl_dist_model_time(&m, 1, (double)n);
        if (pl_dist_rank() == 0)
            printf("%12zu  %12.2f  %12.3g  %14.2f  %8.2f\n", n, t * 1e6, (double)n / t / 1e9, model * 1e6, model / t);
    }
}

/* The halo table. */
static int halo(const net_args *a)
{
    const pl_dist_model m = pl_dist_model_measure();
    const int d = a->halo ? (int)a->halo : 1;
    if (pl_dist_rank() == 0) {
        printf("\n== halo: every rank of %d on a torus of ranks exchanges the 8-neighbour halo (depth %d) of its "
               "N x N float32 block\n", pl_dist_size(), d);
        print_model(&m);
        printf("%8s  %14s  %12s  %14s  %8s\n", "N", "bytes a rank", "time (us)", "model (us)", "model/time");
    }
    static const int64_t sizes[] = {256, 1024, 4096};
    for (int i = 0; i < 3; i++) {
        const int64_t N = sizes[i];
        const double bytes = 4.0 * (4.0 * (double)N * d + 4.0 * d * d);
        double t = 0;
        const int reps = a->reps ? (int)a->reps : N > 1024 ? 10 : 100;
        const int rc = cli_status(pl_dist_agree_status(pl_dist_halo_time(N, d, reps, &t)));
        if (rc) return rc;
        const double model = pl_dist_model_time(&m, 8, bytes);
        if (pl_dist_rank() == 0)
            printf("%8lld  %14.0f  %12.2f  %14.2f  %8.2f\n", (long long)N, bytes, t * 1e6, model * 1e6, model / t);
    }
    return PL_EXIT_OK;
}

int mem_ranks(int argc, char **argv)
{
    net_args a = {argv[1], 0, 0};
    const char *pos = NULL;
    cli_args ca = {.cmd = "mem", .opts = options, .n_opts = 2, .pos = &pos, .max_pos = 1, .takes = "one study"};
    int rc = cli_parse(&ca, argc, argv, take_option, &a, usage);
    if (rc == CLI_GO_ON && pl_dist_size() < 2) {
        cli_error("mem %s: measures between ranks: run it under mpirun on 2 or more ranks (mpirun -n 2 parlab mem "
                  "%s)", a.study, a.study);
        rc = PL_EXIT_USAGE;
    }
    if ((rc = tool_ranks_parsed(rc)) != CLI_GO_ON) return rc;
    if (!strcmp(a.study, "pingpong")) {
        pingpong(&a);
        return PL_EXIT_OK;
    }
    return halo(&a);
}
