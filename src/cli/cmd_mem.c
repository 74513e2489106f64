/* cmd_mem.c: `parlab mem STUDY|all [--quick] [--threads N] [--reps N] [--json F]`, the
 * memory-system lab (src/kernels/memory/): each study's table, its reading, its checksums,
 * and all of it as JSON (schema parlab-mem/1, docs/memory.md). Exit status: 0 every study ran
 * and computed what it should; 1 a study failed or a checksum was wrong; 2 a usage error. */
#include "cli/tool.h"
#include "distributed/transport/distributed.h"
#include "kernels/memory/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: parlab mem STUDY|all [--quick] [--threads N] [--reps N] [--json F]\n"
          "\n"
          "The memory-system lab: each study times one classic effect on this machine and says what it\n"
          "saw. Arrays are sized from the caches in /sys (4x the last-level cache where memory is the\n"
          "point); every case is repeated (best, median and spread shown) and checked by a checksum.\n"
          "\nstudies:\n",
          f);
    for (const mem_study *s = pl_mem_studies; s->name; s++) fprintf(f, "  %-15s %s\n", s->name, s->summary);
    fputs("  pingpong        under mpirun: latency and bandwidth between ranks 0 and 1 (the network model)\n"
          "  halo            under mpirun: the 8-neighbour halo exchange of every rank, beside the model\n"
          "  all             every study above in turn, the GPU ones where a GPU is present (skipped,\n"
          "                  saying so, elsewhere); about 15 s on a 2-core machine\n"
          "\noptions:\n"
          "  --quick         small arrays and 3 repeats: seconds in all (numbers for checking, not for reading)\n"
          "  --threads N     the most threads a study uses (default: the cores)\n"
          "  --reps N        timed repeats of each case, 1..64 (default 10; --quick 3)\n"
          "  --json F        write every table as JSON (schema parlab-mem/1), whole or not at all; '-':\n"
          "                  to standard output, the tables then on stderr. Checked before any study\n"
          "                  runs: a directory, or a place no file can be created in, is exit 2\n"
          "  -h, --help      show this help\n"
          "\nexit status: 0 success; 1 a study failed or computed a wrong checksum, or the JSON could\n"
          "not be written after the run; 2 usage error (an unwritable --json included).\n",
          f);
}

enum { NOISY_SPREAD_PCT = 50 }; /* as bench's noisy: the slowest repeat 1.5x the fastest */

/* The table; a case whose repeats spread over NOISY_SPREAD_PCT of their median is marked noisy,
 * and where any is, a warning (stdout and stderr) says the reading is not to be trusted: a busy
 * machine, not the memory system, made those numbers. */
static void print_table(const mem_study *s, const mem_table *t)
{
    printf("\n== %s: %s\n%s\n", s->name, s->summary, t->setup);
    printf("%-52s %12s %12s %8s  %s\n", "case", "best", "median", "spread", "unit");
    int noisy = 0;
    double worst = 0;
    for (int i = 0; i < t->n; i++) {
        const int is_noisy = 100 * t->rows[i].spread > NOISY_SPREAD_PCT;
        noisy += is_noisy;
        worst = t->rows[i].spread > worst ? t->rows[i].spread : worst;
        printf("%-52s %12.4g %12.4g %7.1f%%  %s%s\n", t->rows[i].name, t->rows[i].best, t->rows[i].median,
               100 * t->rows[i].spread, t->rows[i].unit, is_noisy ? "  (noisy)" : "");
    }
    if (noisy) {
        char warn[256];
        snprintf(warn, sizeof warn, "%d of %d cases spread over %d%% between repeats (worst %.0f%%): the machine was "
                 "busy, so the reading below is not to be trusted; rerun on a quiet machine", noisy, t->n,
                 NOISY_SPREAD_PCT, 100 * worst);
        printf("warning: %s\n", warn);
        fprintf(stderr, "parlab: mem %s: warning: %s\n", s->name, warn);
    }
    printf("reading: %s%s\nchecksums: %s\n", noisy ? "(unreliable: noisy repeats) " : "", t->reading,
           t->checksums_ok ? "ok" : "WRONG");
}

enum { O_QUICK = CLI_OPT_OWN, O_REPS, O_JSON };
static const cli_opt options[] = {
    {"--quick", NULL, O_QUICK, 0, NULL}, {"--threads", "N", CLI_OPT_THREADS, 0, NULL},
    {"--reps", "N", O_REPS, 0, NULL}, {"--json", "F", O_JSON, 0, NULL},
};

/* What the command line asks for. */
typedef struct mem_args {
    const char *study, *json;
    int quick;
    long threads, reps;
} mem_args;

static int take_option(void *user, const cli_opt *o, const char *val)
{
    mem_args *m = user;
    switch (o->id) {
    case O_QUICK: m->quick = 1; return PL_EXIT_OK;
    case CLI_OPT_THREADS: return cli_parse_threads(val, &m->threads);
    case O_REPS: return cli_parse_int(o->name, val, 1, 64, &m->reps);
    case O_JSON: m->json = val; return PL_EXIT_OK;
    }
    return PL_EXIT_OK;
}

/* The options, the study (*only: NULL for all), a --json that can be written. CLI_GO_ON or the
 * exit status. */
static int parse_args(int argc, char **argv, mem_args *m, const mem_study **only)
{
    cli_args a = {.cmd = "mem", .opts = options, .n_opts = sizeof options / sizeof *options, .pos = &m->study,
                  .max_pos = 1, .takes = "one study, or all"};
    int rc = cli_parse(&a, argc, argv, take_option, m, usage);
    if (rc != CLI_GO_ON) return rc;
    if (!m->study) {
        cli_error("mem: needs a study, or all (see parlab mem --help)");
        return PL_EXIT_USAGE;
    }
    *only = NULL;
    if (strcmp(m->study, "all")) {
        for (const mem_study *s = pl_mem_studies; s->name && !*only; s++)
            if (!strcmp(s->name, m->study)) *only = s;
        if (!*only) {
            cli_error("mem: no study '%s' (parlab mem --help lists them)", m->study);
            return PL_EXIT_USAGE;
        }
    }
    if (m->json && (rc = tool_check_output("mem", "--json", m->json, NULL, 0, TOOL_OUT_STDOUT)) != 0) return rc;
    return CLI_GO_ON;
}

enum { MEM_MAX_STUDIES = 16 };

/* Each study asked for (a GPU one skipped, saying so, where there is no GPU; an error when it
 * was the one named), its table printed; ran[0..*n) and tables[] what ran. Exit status. */
static int run_studies(const mem_opts *o, const mem_study *only, mem_table *tables, const mem_study **ran, int *n)
{
    int status = PL_EXIT_OK;
    *n = 0;
    for (const mem_study *s = pl_mem_studies; s->name && *n < MEM_MAX_STUDIES; s++) {
        if (only && s != only) continue;
        if (s->gpu && !(pl_features() & PL_FEAT_GPU)) {
            const char *why = (pl_features() & PL_FEAT_CUDA_BUILD) ? "no GPU" : "this build has no CUDA";
            if (only) {
                cli_error("mem %s: %s here", s->name, why);
                status = PL_EXIT_FAIL;
            } else {
                printf("\nskipped: %s: %s\n", s->name, why);
            }
            continue;
        }
        mem_table *t = &tables[*n];
        t->study = s->name;
        fflush(stdout);
        pl_status st = s->run(o, t);
        if (st != PL_OK) {
            cli_error("mem %s: %s", s->name, pl_last_error());
            status = PL_EXIT_FAIL;
            continue;
        }
        if (!strcmp(s->name, "stream")) pl_mem_stream_vs_peaks(t, o->threads, o->quick);
        print_table(s, t);
        if (!t->checksums_ok) {
            cli_error("mem %s: a checksum is wrong: a case did not compute what it should", s->name);
            status = PL_EXIT_FAIL;
        }
        ran[(*n)++] = s;
    }
    return status;
}

/* Every table that ran as JSON (schema parlab-mem/1), whole or not at all. Exit status. */
static int write_json(int argc, char **argv, const char *json, const mem_opts *o, const mem_table *tables,
                      const mem_study *const *ran, int n)
{
    char command[512] = "parlab mem";
    for (int i = 1; i < argc; i++) {
        size_t len = strlen(command);
        snprintf(command + len, sizeof command - len, " %s", argv[i]);
    }
    if (pl_mem_json_write(json, command, o, tables, ran, n) == PL_OK) return PL_EXIT_OK;
    cli_error("mem: %s", pl_last_error());
    return PL_EXIT_FAIL;
}

int mem_ranks(int argc, char **argv); /* cmd_mem_ranks.c: pingpong and halo, between ranks */

int pl_cmd_mem(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "pingpong") || !strcmp(argv[1], "halo"))) return mem_ranks(argc, argv);
    if (pl_dist_size() > 1) {
        cli_error("parlab mem %s does not run distributed (launched by mpirun on %d ranks): only pingpong and halo "
                  "do; run the others without mpirun", argc >= 2 ? argv[1] : "", pl_dist_size());
        return cli_agree(PL_EXIT_USAGE);
    }
    mem_args m = {0};
    const mem_study *only;
    int rc = parse_args(argc, argv, &m, &only);
    if (rc != CLI_GO_ON) return rc;
    mem_opts o = {.quick = m.quick, .threads = m.threads > 0 ? (int)m.threads : pl_cpu_cores(),
                  .reps = m.reps > 0 ? (int)m.reps : m.quick ? 3 : 10};
    mem_table *tables = calloc(MEM_MAX_STUDIES, sizeof *tables);
    if (!tables) {
        cli_error("mem: no memory");
        return PL_EXIT_FAIL;
    }
    const mem_study *ran[MEM_MAX_STUDIES];
    int n = 0, status = run_studies(&o, only, tables, ran, &n);
    if (m.json && (rc = write_json(argc, argv, m.json, &o, tables, ran, n)) != PL_EXIT_OK) status = rc;
    free(tables);
    return status;
}
