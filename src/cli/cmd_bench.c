/* cmd_bench.c: `parlab bench KERNEL ...`: verify and time a kernel's variants at one or more
 * sizes, beside the peer library, and place each against the machine's peaks.
 * `parlab bench --suite FILE` runs one bench per line of FILE (see bench/default.suite).
 * The options and the report are session.c's; the plan, the checks before the first run and
 * the runs are the library's session (harness/session.c).
 * Under mpirun the distributed bench runs instead (cmd_bench_ranks.c). */
#include "cli/session.h"
#include "cli/cmd_bench_ranks.h"
#include "distributed/transport/distributed.h"
#include "io/io.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void help(FILE *f)
{
    fprintf(f, "usage: parlab bench KERNEL [SIZE...] [--variant V,...|all] [--peer] [--param NAME=V,...]\n"
           "                    [options]\n"
           "       parlab bench --suite FILE [--json-dir DIR]\n\n"
           "Runs each variant at each size: inputs from a fixed seed, output poisoned, each result\n"
           "checked against a float64 reference (the first run and the last timed run; inputs\n"
           "must be unchanged), then timed (warm-up, repeats, median/min/max). GPU variants\n"
           "report allocation, host-to-device, kernel and device-to-host apart. --peer adds the\n"
           "peer libraries this machine can run and prints each rung's ratio to every peer of the\n"
           "same backend and precision (peer time / rung time).\n\n"
           "Before anything runs (and before the peaks are read), every size, variant, parameter\n"
           "and output path is checked, and each size's memory estimate is compared with what this\n"
           "process may take (and the GPU's free memory): a size that does not fit is a usage\n"
           "error (exit 2) naming the estimate and the limit. On a terminal, a run longer than a\n"
           "few seconds shows a progress line on stderr.\n\n"
           "options:\n");
    session_options_help(f, CLI_BENCH);
    fprintf(f, "\nExit status: 0 all verified, 1 a run failed or did not verify, 2 usage error\n"
           "(also a size too big for this machine's memory).\n");
}

/* Every job the command line selects (the library's session chooses them). */
static int select_jobs(cli_session *s)
{
    int rc = session_load_rungs(s);
    if (rc != PL_EXIT_OK) return rc;
    pl_status st = pl_session_select(&s->run, s->variant_arg, s->param_args, s->n_param_args, s->with_peer,
                                     s->skip_unavailable);
    return st == PL_OK ? session_add_rungs(s) : cli_fail(st);
}

/* Quick peaks a bench of this process measured and could not cache (they failed the sanity
 * checks): the later lines of a suite use them instead of measuring again. */
static pl_peaks_memo process_peaks;

static int run_suite(const char *path);
/* --suite FILE --json-dir DIR: each bench line also writes DIR/NNN-KERNEL.json. */
static const char *suite_json_dir;
static int suite_json_count;

/* `parlab bench --suite FILE [--json-dir DIR]`: its own two options, and nothing else. */
enum { S_SUITE = CLI_OPT_OWN, S_JSON_DIR };
static const cli_opt suite_options[] = {
    {"--suite", "FILE", S_SUITE, 0, NULL},
    {"--json-dir", "DIR", S_JSON_DIR, 0, NULL},
};
typedef struct suite_args {
    const char *file, *json_dir;
} suite_args;

/* arg is the option name ("--suite" or "--suite=FILE"). */
static int is_option_named(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(arg, name, n) && (arg[n] == '\0' || arg[n] == '=');
}

static int take_suite_option(void *user, const cli_opt *o, const char *val)
{
    suite_args *sa = user;
    const char **slot = !o ? NULL : o->id == S_SUITE ? &sa->file : &sa->json_dir;
    if (!slot || *slot) {
        cli_error("bench --suite takes one file (and --json-dir DIR) and nothing else");
        return PL_EXIT_USAGE;
    }
    *slot = val;
    return PL_EXIT_OK;
}

static int suite_command(int argc, char **argv)
{
    suite_args sa = {NULL, NULL};
    cli_args a = {.cmd = "bench", .opts = suite_options, .n_opts = 2};
    int rc = cli_parse(&a, argc, argv, take_suite_option, &sa, help);
    if (rc != CLI_GO_ON) return rc;
    if (!sa.file) return take_suite_option(&sa, NULL, NULL); /* --json-dir alone */
    struct stat sb;
    if (sa.json_dir && (stat(sa.json_dir, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
        cli_error("bench --suite: --json-dir '%s' is not a directory", sa.json_dir);
        return PL_EXIT_USAGE;
    }
    if (sa.json_dir) suite_json_dir = sa.json_dir; /* an include line keeps the outer one */
    return run_suite(sa.file);
}

int pl_cmd_bench(int argc, char **argv)
{
    if (pl_dist_active()) return bench_ranks(argc, argv);
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        help(stdout);
        return PL_EXIT_OK;
    }
    if (argc >= 2 && (is_option_named(argv[1], "--suite") || is_option_named(argv[1], "--json-dir")))
        return suite_command(argc, argv);
    const pl_kernel *k = session_kernel_arg("bench", ", or --suite FILE", argc, argv);
    if (!k) return PL_EXIT_USAGE;
    cli_session s;
    session_init(&s, k, CLI_BENCH, argc, argv);
    s.run.memo = &process_peaks;
    int status = session_parse(&s, argc, argv, help);
    if (status < 0 && (status = session_check_sizes(&s)) == PL_EXIT_OK && (status = select_jobs(&s)) == PL_EXIT_OK && s.run.n_jobs > 0 &&
        (status = session_prepare(&s)) == PL_EXIT_OK) {
        session_run_all(&s);
        status = session_finish(&s);
    }
    session_free(&s);
    return status;
}

/* ---------------------------------------------------------------- suites */

/* One line of a suite (io's pl_suite_read): parlab bench WORDS, each result also to
 * DIR/NNN-KERNEL.json under --json-dir unless the line includes another suite. */
static int run_line(void *user, const char *path, int lineno, int n, char **words)
{
    (void)user;
    char json_path[4096];
    memmove(words + 1, words, (size_t)n * sizeof *words);
    words[0] = "bench";
    n++;
    if (suite_json_dir && n >= 2 && !is_option_named(words[1], "--suite")) {
        snprintf(json_path, sizeof json_path, "%s/%03d-%s.json", suite_json_dir, ++suite_json_count, words[1]);
        words[n++] = "--json";
        words[n++] = json_path;
    }
    words[n] = NULL;
    printf("\n== %s:%d: parlab", path, lineno);
    for (int i = 0; i < n; i++) printf(" %s", words[i]);
    printf("\n");
    fflush(stdout);
    int r = pl_cmd_bench(n, words);
    fflush(stdout);
    return r;
}

static int run_suite(const char *path)
{
    int worst;
    pl_status st = pl_suite_read(path, 3, run_line, NULL, &worst); /* room for bench, --json FILE */
    if (st == PL_OK) return worst;
    cli_error("bench --suite: %s", pl_last_error());
    return st == PL_ERR_ARG ? PL_EXIT_USAGE : PL_EXIT_FAIL;
}
