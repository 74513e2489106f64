/* cmd_peaks.c: `parlab peaks`: measure the machine's ceilings (FMA peak and memory bandwidth
 * of the CPU and the GPU), cache them, and print them as a table with how each was measured.
 * `--show` prints the cached figures without measuring. The measurement itself lives in
 * src/harness/peaks*.c (the table's rows: peaks_table.c), the JSON writer in src/io/peaks_json.c. */
#include "cli/tool.h"
#include "core/core.h"
#include "harness/peaks.h"
#include "io/io.h"
#include "io/json.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: parlab peaks [--quick] [--show] [--json FILE] [-h|--help]\n"
            "\n"
            "Measure this machine's ceilings, cache them and print them. `parlab bench` and\n"
            "`parlab sweep` place each result against them (%% of the ceiling that bounds it;\n"
            "they measure --quick figures themselves when none are cached):\n"
            "  CPU FP32 FMA peak per ISA (scalar, AVX2, AVX-512 where the CPU has them),\n"
            "      on 1 thread and on every core;\n"
            "  CPU 32-bit integer/bitwise throughput with the best ISA (AVX-512 vpternlogd +\n"
            "      vpaddd, AVX2 vpxor + vpaddd, or scalar xor + add), on 1 thread and on every\n"
            "      core, in Gop/s: one op per 32-bit lane per instruction;\n"
            "  CPU memory streams on every core, arrays 4x the last-level cache: STREAM triad,\n"
            "      read only, write only and copy (the ceilings of memory-bound rows: each row's\n"
            "      bytes read and written at their own rates); read only on one thread; read\n"
            "      and copy in half the last-level cache (warm rows whose bytes fit in it);\n"
            "  GPU FP32 FMA peak, TF32 tensor-core peak (wgmma on Hopper, mma.sync on sm_80+),\n"
            "      32-bit integer throughput (LOP3 + IADD3, one op per thread per instruction)\n"
            "      device-to-device copy, read-only and write-only streams, and read and copy in\n"
            "      half the L2, when this build has CUDA and a GPU is usable.\n"
            "\n"
            "Before caching, the figures are checked: all threads not slower than one (FMA,\n"
            "int32, the read stream), repeated readings within 25%% of each other (best vs\n"
            "median), and a 1-minute load average at the start of at most 1 + cores/4. Figures\n"
            "that fail are printed but not cached (exit 1), with the reason.\n"
            "PARLAB_PEAKS_SANITY=off skips the checks (recorded as such).\n"
            "\n"
            "options:\n"
            "  --quick      shorter runs and smaller arrays: faster, a little less exact\n"
            "  --show       print the cached figures, and how, when and under what load they\n"
            "               were measured; measures nothing; fails (exit 1) when none are cached\n"
            "  --json FILE  also write the figures as JSON to FILE, whole or not at all; with\n"
            "               '-', the JSON goes to standard output instead of the table. Checked\n"
            "               before measuring: a directory or a place no file can be created\n"
            "               in is exit 2\n"
            "  -h, --help   print this help\n"
            "\n"
            "The cache is a text file, <dir>/peaks-<machine>.txt, where <dir> is\n"
            "$PARLAB_CACHE_DIR, else $XDG_CACHE_HOME/parlab, else ~/.cache/parlab; <machine>\n"
            "names the CPU model, the core count and the GPU.\n"
            "\n"
            "exit status: 0 ok, 1 failure (nothing cached for --show, measuring, a write\n"
            "failing after the run), 2 usage error (an unwritable --json included).\n");
}

static void print_row(const pl_peaks_row *r)
{
    if (r->value > 0.0)
        printf("%-27s %-6s %10.1f  %-8s %s\n", r->ceiling, r->where, r->value, r->unit, r->how);
    else
        printf("%-27s %-6s %10s  %-8s %s\n", r->ceiling, r->where, "-", "", r->how);
}

/* The figures as JSON (io's peaks writer, the document form) to file, whole or not at all. */
static int write_json(const char *file, const pl_peaks *pk, const char *cache_file)
{
    FILE *f = pl_tmp_fopen(file); /* io.h's output: a temporary file renamed, a device or FIFO, "-" stdout */
    if (f) pl_peaks_json_write(f, pk, PL_PEAKS_JSON_DOCUMENT, cache_file, pl_peaks_int_isa());
    if (!f || pl_tmp_fclose(f, file) != PL_OK) {
        cli_error("peaks: %s", pl_last_error());
        return PL_EXIT_FAIL;
    }
    return PL_EXIT_OK;
}

enum { O_QUICK = CLI_OPT_OWN, O_SHOW, O_JSON };
static const cli_opt options[] = {
    {"--quick", NULL, O_QUICK, 0, NULL}, {"--show", NULL, O_SHOW, 0, NULL}, {"--json", "FILE", O_JSON, 0, NULL},
};

/* What the command line asks for. */
typedef struct peaks_args {
    int quick, show;
    const char *json;
} peaks_args;

static int take_option(void *user, const cli_opt *o, const char *val)
{
    peaks_args *p = user;
    if (o->id == O_QUICK) p->quick = 1;
    else if (o->id == O_SHOW) p->show = 1;
    else p->json = val;
    return PL_EXIT_OK;
}

/* The options: no arguments, --quick or --show, a --json that can be written (checked before
 * measuring: a directory or an unwritable place is exit 2; '-': the JSON alone on stdout).
 * CLI_GO_ON or the exit status. */
static int parse_args(int argc, char **argv, peaks_args *pa)
{
    const char *none[1];
    cli_args a = {.cmd = "peaks", .opts = options, .n_opts = sizeof options / sizeof *options, .pos = none,
                  .max_pos = 0, .takes = "no arguments"};
    int rc = cli_parse(&a, argc, argv, take_option, pa, usage);
    if (rc != CLI_GO_ON) return rc;
    if (pa->quick && pa->show) {
        cli_error("peaks: --quick measures and --show does not: give one of them");
        return PL_EXIT_USAGE;
    }
    if (pa->json && (rc = tool_check_output("peaks", "--json", pa->json, NULL, 0, TOOL_OUT_STDOUT_ALONE)) != 0)
        return rc;
    return CLI_GO_ON;
}

/* The figures: from the cache (--show; none is exit 1), or measured now and cached. *rc: 1
 * where they were measured but could not be cached. Exit status (0: pk holds figures). */
static int get_peaks(const peaks_args *pa, const char *path, pl_peaks *pk, int *rc)
{
    pl_status s;
    *rc = PL_EXIT_OK;
    if (pa->show) {
        if ((s = pl_peaks_get(NULL, pk, 0)) == PL_OK) return PL_EXIT_OK;
        if (strstr(pl_last_error(), path)) /* the message names the file already */
            cli_error("%s", pl_last_error());
        else
            cli_error("%s (cache file: %s)", pl_last_error(), path);
        return PL_EXIT_FAIL;
    }
    fprintf(stderr, "parlab peaks: measuring (%s)...\n", pa->quick ? "quick" : "full");
    s = pl_peaks_measure(NULL, pk, pa->quick);
    if (s != PL_OK && !pk->valid) return cli_fail(s);
    if (s != PL_OK) *rc = cli_fail(s); /* measured, but the cache could not be written */
    return PL_EXIT_OK;
}

/* The table, then how and when the figures were taken, and where they are cached. */
static void print_figures(const pl_peaks *pk, const char *path)
{
    pl_peaks_row rows[PL_PEAKS_MAX_ROWS];
    int n = pl_peaks_rows(pk, rows, PL_PEAKS_MAX_ROWS);
    printf("machine: %s\n\n", pk->machine);
    printf("%-27s %-6s %10s  %-8s %s\n", "ceiling", "on", "value", "unit", "how measured");
    for (int i = 0; i < n; i++) print_row(&rows[i]);
    char load[32] = "unknown";
    if (pk->load1 >= 0) snprintf(load, sizeof load, "%.2f", pk->load1);
    printf("\ntaken: %s (GPU: %s), %s, 1-minute load average %s at the start (limit %.2f), "
           "repeated readings within %.0f%% (widest: %s)\nsanity: %s\n",
           pk->cpu_mode, pk->gpu_mode, pk->measured[0] ? pk->measured : "unknown", load,
           pl_peaks_max_load(pl_cpu_cores()), 100.0 * pk->spread, pk->spread_what[0] ? pk->spread_what : "-",
           pk->sanity[0] ? pk->sanity : "-");
    if (pk->cached)
        printf("cache: %s\n", path);
    else
        printf("cache: not written (%s)\n", pk->sane ? "the file could not be written" : "failed the sanity checks");
}

int pl_cmd_peaks(int argc, char **argv)
{
    peaks_args pa = {0, 0, NULL};
    int rc = parse_args(argc, argv, &pa);
    if (rc != CLI_GO_ON) return rc;
    char path[4096];
    pl_status s = pl_peaks_cache_path(NULL, path, sizeof path);
    if (s != PL_OK) return cli_fail(s);
    pl_peaks pk;
    int got = get_peaks(&pa, path, &pk, &rc);
    if (got != PL_EXIT_OK) return got;

    /* How the figures were measured: pk says (from the cache file with --show); where it does
     * not, the CPU's mode is this command's, the GPU's mode and the TF32 method "none". */
    if (!pk.cpu_mode[0]) snprintf(pk.cpu_mode, sizeof pk.cpu_mode, "%s", pa.quick ? "quick" : "full");
    if (!pk.gpu_mode[0]) snprintf(pk.gpu_mode, sizeof pk.gpu_mode, "none");
    if (!pk.gpu_tf32_method[0]) snprintf(pk.gpu_tf32_method, sizeof pk.gpu_tf32_method, "none");

    if (!pa.json || strcmp(pa.json, "-")) print_figures(&pk, path);
    if (pa.json) {
        int jrc = write_json(pa.json, &pk, path);
        if (rc == PL_EXIT_OK) rc = jrc;
    }
    return rc;
}
