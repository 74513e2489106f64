/* cmd_compare.c: `parlab compare OLD NEW`: two bench runs (their JSON files, or directories of
 * them) row by row, for a person and for CI: each matched row's medians, the speedup OLD/NEW with
 * its bootstrap interval and the rank test's verdict, a geometric-mean row, the rows of one run
 * only; --fail-above PCT turns a significant slowdown into exit 1, --md FILE writes the same as
 * Markdown. The reading (io/bench_rows.c), matching and statistics (harness/compare.c,
 * harness/stats.c) are the library's: parlab.compare in Python calls the same. */
#include "cli/tool.h"
#include "core/core.h"
#include "io/io.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: parlab compare OLD NEW [--kernel K] [--rename OLD=NEW ...] [--ignore-param P ...]\n"
          "                      [--fail-above PCT] [--md FILE]\n"
          "\n"
          "Two runs of `parlab bench --json` (or `parlab sweep --json`) side by side. OLD and NEW are JSON\n"
          "files or directories of them (`parlab bench --suite S --json-dir D`: every *.json, by name).\n"
          "Rows are matched by kernel, variant, size, the variant's parameters and the problem\n"
          "parameters (the first row of each on a side counts). For each matched row: both medians,\n"
          "speedup = OLD median / NEW median (above 1: NEW is faster) with its 95% bootstrap interval\n"
          "(2000 resamples of both runs' timed samples, a fixed seed) and the verdict of the two-sided\n"
          "Mann-Whitney U test on the samples: faster or slower where p < 0.05 and the interval does not\n"
          "hold 1, else same. Rows of files written before the samples compare medians only (\"no\n"
          "samples\"). Then the geometric mean of the speedups, and the rows found in one run only.\n"
          "\n"
          "options:\n"
          "  --kernel K          only K's rows\n"
          "  --rename OLD=NEW    an OLD variant named NEW in the NEW run (\"cuda-tf32=cuda-wgmma-tma-tf32\");\n"
          "                      OLD:PARAM=VALUE=NEW renames only its rows with that value and drops\n"
          "                      the parameter from them; may be given again\n"
          "  --ignore-param P    leave parameter P out of the match on both sides; may be given again\n"
          "  --fail-above PCT    exit 1 when a matched row is significantly slower (verdict slower) and\n"
          "                      NEW's median is more than PCT percent above OLD's; rows without samples\n"
          "                      never fail it\n"
          "  --md FILE           also write the table as Markdown (whole or not at all); '-': standard\n"
          "                      output, the table then on stderr\n"
          "  -h, --help          show this help\n"
          "\n"
          "exit status: 0 success; 1 a row slower beyond --fail-above, or --md could not be written;\n"
          "2 usage error, or OLD or NEW cannot be read or is not parlab's bench JSON (named).\n",
          f);
}

enum { O_KERNEL = CLI_OPT_OWN, O_RENAME, O_IGNORE, O_FAIL_ABOVE, O_MD };
static const cli_opt options[] = {
    {"--kernel", "K", O_KERNEL, 0, NULL},       {"--rename", "OLD=NEW", O_RENAME, 0, NULL},
    {"--ignore-param", "P", O_IGNORE, 0, NULL}, {"--fail-above", "PCT", O_FAIL_ABOVE, 0, NULL},
    {"--md", "FILE", O_MD, 0, NULL},
};

typedef struct compare_args {
    const char *files[2];
    int n_files;
    const char **renames, **ignore; /* room for argc each */
    pl_compare_opts opts;
    double fail_above; /* < 0: none */
    const char *md;
} compare_args;

static int take_option(void *user, const cli_opt *o, const char *val)
{
    compare_args *a = user;
    if (!o) {
        if (a->n_files == 2) {
            cli_error("compare: unexpected argument '%s' (takes OLD and NEW; see --help)", val);
            return PL_EXIT_USAGE;
        }
        a->files[a->n_files++] = val;
        return PL_EXIT_OK;
    }
    char *end;
    switch (o->id) {
    case O_KERNEL: a->opts.kernel = val; break;
    case O_RENAME: a->renames[a->opts.n_renames++] = val; break;
    case O_IGNORE: a->ignore[a->opts.n_ignore++] = val; break;
    case O_MD: a->md = val; break;
    case O_FAIL_ABOVE:
        errno = 0;
        a->fail_above = strtod(val, &end);
        if (end == val || *end || errno == ERANGE || !(a->fail_above >= 0 && a->fail_above <= 1e6)) {
            cli_error("compare: --fail-above: '%s' is not a percentage (0 or more)", val);
            return PL_EXIT_USAGE;
        }
        break;
    }
    return PL_EXIT_OK;
}

/* The cells of one table row: kernel, variant, params, size, problem, old ms, new ms, speedup,
 * interval, p, verdict. */
enum { N_COLS = 11, CELL = 272 }; /* a cell holds a row's params or problem (256) */
typedef char cell_row[N_COLS][CELL];

static void fill_row(const pl_compare_row *c, cell_row cells)
{
    const pl_bench_row *b = c->before;
    snprintf(cells[0], CELL, "%s", b->kernel);
    snprintf(cells[1], CELL, "%s", c->variant);
    snprintf(cells[2], CELL, "%s", c->params[0] ? c->params : "-");
    snprintf(cells[3], CELL, "%s", b->size);
    snprintf(cells[4], CELL, "%s", b->problem[0] ? b->problem : "-");
    snprintf(cells[5], CELL, "%.4g", b->median_s * 1e3);
    snprintf(cells[6], CELL, "%.4g", c->after->median_s * 1e3);
    snprintf(cells[7], CELL, "%.3fx", c->c.speedup);
    if (c->c.verdict == PL_VERDICT_NO_SAMPLES) {
        snprintf(cells[8], CELL, "-");
        snprintf(cells[9], CELL, "-");
    } else {
        snprintf(cells[8], CELL, "[%.3f, %.3f]", c->c.lo, c->c.hi);
        pl_format_p(cells[9], CELL, c->c.p);
    }
    snprintf(cells[10], CELL, "%s", pl_verdict_name(c->c.verdict));
}

/* The table (heading, matched rows, the geometric mean) as text or Markdown, the legend, the rows
 * of one side only. */
static void write_report(FILE *f, const compare_args *a, const pl_compare_row *rows, int n, int markdown)
{
    static const char *const head[N_COLS] = {"kernel", "variant", "params", "size", "problem", "old ms",
                                             "new ms", "speedup", "95% interval", "p", "verdict"};
    int matched = 0, count[4] = {0};
    for (int i = 0; i < n; i++)
        if (rows[i].before && rows[i].after) matched++, count[rows[i].c.verdict]++;
    cell_row *cells = calloc((size_t)matched + 2, sizeof *cells);
    const char **at = calloc(((size_t)matched + 2) * N_COLS, sizeof *at);
    if (!cells || !at) {
        fprintf(f, "(out of memory: no table)\n");
    } else {
        for (int c = 0; c < N_COLS; c++) snprintf(cells[0][c], CELL, "%s", head[c]);
        int r = 1;
        for (int i = 0; i < n; i++)
            if (rows[i].before && rows[i].after) fill_row(&rows[i], cells[r++]);
        snprintf(cells[r][0], CELL, "geomean");
        snprintf(cells[r][1], CELL, "%d row%s", matched, matched == 1 ? "" : "s");
        snprintf(cells[r][7], CELL, "%.3fx", pl_compare_geomean(rows, n));
        snprintf(cells[r][10], CELL, "%d faster, %d slower, %d same%s", count[PL_VERDICT_FASTER],
                 count[PL_VERDICT_SLOWER], count[PL_VERDICT_SAME], count[PL_VERDICT_NO_SAMPLES] ? ", " : "");
        if (count[PL_VERDICT_NO_SAMPLES])
            snprintf(cells[r][10] + strlen(cells[r][10]), CELL - strlen(cells[r][10]), "%d no samples",
                     count[PL_VERDICT_NO_SAMPLES]);
        for (int k = 0; k <= r; k++)
            for (int c = 0; c < N_COLS; c++) at[k * N_COLS + c] = cells[k][c];
        pl_text_table_write(f, at, r + 1, N_COLS, "lllllrrrrll", markdown);
    }
    free(cells);
    free(at);
    fprintf(f, "%sspeedup = OLD median / NEW median (above 1: NEW is faster); OLD %s, NEW %s; 95%% bootstrap "
               "interval; p: Mann-Whitney U, two-sided; faster or slower only where p < 0.05 and the interval "
               "does not hold 1\n",
            markdown ? "\n" : "", a->files[0], a->files[1]);
    for (int i = 0; i < n; i++) {
        const pl_compare_row *c = &rows[i];
        if (c->before && c->after) continue;
        const pl_bench_row *x = c->before ? c->before : c->after;
        fprintf(f, "%sonly in %s: %s %s %s %s %s\n", markdown ? "\n" : "", c->before ? a->files[0] : a->files[1],
                x->kernel, c->variant, c->params[0] ? c->params : "-", x->size, x->problem[0] ? x->problem : "-");
    }
}

static int write_md(const compare_args *a, const pl_compare_row *rows, int n)
{
    FILE *f = pl_tmp_fopen(a->md); /* io.h's output: a temporary file renamed, a device or FIFO, "-" stdout */
    if (f) write_report(f, a, rows, n, 1);
    if (!f || pl_tmp_fclose(f, a->md) != PL_OK) {
        cli_error("compare: --md: %s", pl_last_error());
        return PL_EXIT_FAIL;
    }
    return PL_EXIT_OK;
}

/* The matched rows significantly slower beyond --fail-above, each named on stderr: exit 1. */
static int check_fail_above(const compare_args *a, const pl_compare_row *rows, int n)
{
    int rc = PL_EXIT_OK;
    for (int i = 0; a->fail_above >= 0 && i < n; i++) {
        const pl_compare_row *c = &rows[i];
        if (!c->before || !c->after || c->c.verdict != PL_VERDICT_SLOWER) continue;
        const double slower_pct = (1 / c->c.speedup - 1) * 100;
        if (!(slower_pct > a->fail_above)) continue;
        char p[32];
        pl_format_p(p, sizeof p, c->c.p);
        cli_error("compare: %s %s %s %s: NEW's median is %.1f%% above OLD's (speedup %.3fx, %s), beyond "
                  "--fail-above %g",
                  c->before->kernel, c->variant, c->params[0] ? c->params : "-", c->before->size, slower_pct,
                  c->c.speedup, p, a->fail_above);
        rc = PL_EXIT_FAIL;
    }
    return rc;
}

int pl_cmd_compare(int argc, char **argv)
{
    compare_args a = {.fail_above = -1};
    a.renames = calloc((size_t)(argc > 0 ? argc : 1), sizeof *a.renames);
    a.ignore = calloc((size_t)(argc > 0 ? argc : 1), sizeof *a.ignore);
    if (!a.renames || !a.ignore) {
        free(a.renames), free(a.ignore);
        cli_error("compare: no memory");
        return PL_EXIT_FAIL;
    }
    a.opts.renames = a.renames, a.opts.ignore = a.ignore;
    cli_args ca = {.cmd = "compare", .opts = options, .n_opts = sizeof options / sizeof *options};
    int rc = cli_parse(&ca, argc, argv, take_option, &a, usage);
    if (rc == CLI_GO_ON && a.n_files != 2) {
        cli_error("compare: needs two runs, OLD and NEW (JSON files or directories; see parlab compare --help)");
        rc = PL_EXIT_USAGE;
    }
    if (rc == CLI_GO_ON && a.md && tool_check_output("compare", "--md", a.md, a.files, 2, TOOL_OUT_STDOUT) != 0)
        rc = PL_EXIT_USAGE;
    pl_bench_row *side[2] = {NULL, NULL};
    int n_side[2] = {0, 0};
    for (int i = 0; rc == CLI_GO_ON && i < 2; i++)
        if (pl_bench_rows_read(a.files[i], &side[i], &n_side[i]) != PL_OK) {
            cli_error("compare: %s", pl_last_error()); /* the message names the file */
            rc = PL_EXIT_USAGE;
        }
    pl_compare_row *rows = NULL;
    int n = 0;
    if (rc == CLI_GO_ON) {
        const pl_status st = pl_compare_runs(side[0], n_side[0], side[1], n_side[1], &a.opts, &rows, &n);
        if (st != PL_OK) {
            cli_error("compare: --%s", pl_last_error()); /* "rename 'x': expected ..." */
            rc = st == PL_ERR_ARG ? PL_EXIT_USAGE : PL_EXIT_FAIL;
        }
    }
    if (rc == CLI_GO_ON) {
        write_report(stdout, &a, rows, n, 0); /* on stderr under --md - (tool_check_output moved it) */
        fflush(stdout);
        rc = a.md ? write_md(&a, rows, n) : PL_EXIT_OK;
        const int slow = check_fail_above(&a, rows, n);
        if (rc == PL_EXIT_OK) rc = slow;
    }
    free(rows), free(side[0]), free(side[1]), free(a.renames), free(a.ignore);
    return rc;
}
