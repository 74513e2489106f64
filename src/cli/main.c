/* main.c: `parlab`, the command. Each subcommand lives in its own cmd_<name>.c. */
#include "cli/cli.h"
#include "cli/rungs.h"

#include "core/core.h"
#include "distributed/transport/distributed.h"

#include <fcntl.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* The commands, in the order --help lists them: the name (its entry point is pl_cmd_<name> in
 * cmd_<name>.c) and one line of help. A new command is its cmd_<name>.c and one line here.
 * Whether a command runs on the ranks of mpirun -n P is the distributed floor's to say
 * (pl_dist_runs_command); the others refuse under mpirun on more than one rank. */
#define COMMANDS(X) \
    X(list, "ladders, variants, and what this build and machine can run") \
    X(peaks, "measure and cache the CPU/GPU FMA peaks and memory bandwidth") \
    X(bench, "verify and time variants against the reference and a peer") \
    X(check, "the correctness suite alone: odd shapes, every setting, a few seeds") \
    X(sweep, "time one variant over parameter values and name the best") \
    X(gemm, "C = A*B on .npy files") \
    X(gemv, "y = A*x or A^T*x on .npy files") \
    X(transpose, "B = A^T on .npy files") \
    X(reduce, "row or column sum|mean|min|max|sumsq of an .npy matrix") \
    X(dot, "the dot product of two .npy vectors") \
    X(conv2d, "a K x K filter over an image (.npy, PGM, PNG)") \
    X(entropy, "local entropy of an image (.npy, PGM, PNG) or a batch of matrices") \
    X(life, "run a Life pattern (RLE, .cells, Golly-style bounded grids) for N generations") \
    X(report, "draw bench/sweep JSON files as one HTML page of SVG plots") \
    X(compare, "two bench JSON runs row by row: speedups, intervals, significance") \
    X(mem, "the memory-system lab: STREAM, strides, prefetch, false sharing, loop order, layouts, alignment")
#define DECLARE(name, help) int pl_cmd_##name(int argc, char **argv);
COMMANDS(DECLARE)

#define ENTRY(name, help) {#name, pl_cmd_##name, help},
static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
} commands[] = {COMMANDS(ENTRY)};
enum { N_COMMANDS = sizeof commands / sizeof commands[0] };

static void usage(FILE *f)
{
    fprintf(f, "usage: parlab COMMAND [options]   (parlab COMMAND --help for its options)\n\n");
    for (int i = 0; i < N_COMMANDS; i++) fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\nEnvironment: PARLAB_ISA_MAX=avx2|none uses at most AVX2 (or no SIMD) of this CPU, to run\n"
               "what an AVX2-only machine runs; PARLAB_CACHE_DIR holds the measured peaks.\n");
    fprintf(f, "\nparlab %s. Exit status: 0 success, 1 a run or check failed, 2 usage error.\n", PARLAB_VERSION);
}

/* SIGINT, SIGTERM, SIGHUP: remove the temporary output files being written (no *.tmp.* left
 * behind), then die of the same signal with its default action (SA_RESETHAND restored it), so
 * the exit status still says "killed by SIGINT". */
static void remove_outputs_and_die(int sig)
{
    pl_remove_partial_outputs();
    raise(sig);
}

/* The handler, for each of those signals not ignored (a job started in the background by a
 * shell without job control ignores SIGINT: it stays ignored). */
static void install_signal_handlers(void)
{
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_outputs_and_die;
        sa.sa_flags = SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

/* Under mpirun: MPI started (a build without MPI refuses, once), and on every rank but 0 the
 * standard output dropped and error messages kept for cli_agree, so the run prints as one
 * process. 0, or the exit status of a refusal. */
static int start_ranks(int *argc, char ***argv)
{
    if (pl_dist_start(argc, argv) != PL_OK) {
        if (pl_dist_launched_rank() == 0) cli_error("%s", pl_last_error());
        return PL_EXIT_USAGE;
    }
    if (pl_dist_rank() != 0) {
        const int null_fd = open("/dev/null", O_WRONLY);
        if (null_fd >= 0) dup2(null_fd, STDOUT_FILENO), close(null_fd);
        pl_dist_keep_errors();
    }
    return PL_EXIT_OK;
}

/* The command, on the ranks of a distributed run only if it has a distributed path. */
static int run_command(int i, int argc, char **argv)
{
    if (pl_dist_size() > 1 && !pl_dist_runs_command(commands[i].name)) {
        cli_error("parlab %s does not run distributed yet (launched by mpirun on %d ranks): run it without "
                  "mpirun, or with -n 1", commands[i].name, pl_dist_size());
        return cli_agree(PL_EXIT_USAGE);
    }
    return commands[i].run(argc, argv);
}

/* The subcommand argv[1] names (help and version here). */
static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return PL_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return PL_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("parlab %s\n", PARLAB_VERSION);
        return PL_EXIT_OK;
    }
    if (pl_cpu_isa_max_bad()) {
        cli_error("PARLAB_ISA_MAX='%s': give avx512, avx2 or none (the most SIMD parlab may use)",
                  getenv("PARLAB_ISA_MAX"));
        return PL_EXIT_USAGE;
    }
    if (!strcmp(argv[1], CLI_RUNG_WORKER)) return cli_rung_worker_main(); /* parlab bench --rung's worker */
    for (int i = 0; i < N_COMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name)) return run_command(i, argc - 1, argv + 1);
    cli_error("unknown command '%s' (try parlab --help)", argv[1]);
    return PL_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    install_signal_handlers();
    int rc = start_ranks(&argc, &argv);
    if (rc != PL_EXIT_OK) return rc;
    rc = dispatch(argc, argv);
    pl_dist_stop();
    return rc;
}
