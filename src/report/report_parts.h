/* report_parts.h: what the files of `parlab report` share among themselves:
 *   report_read.c   the bench/sweep JSON files read and checked field by field into runs of
 *                   results (the strings stay in the JSON trees), files of one suite merged
 *   report_plots.c  the plots (svg.h draws them): ladder, roofline, scaling, sweeps, GPU
 *                   phases, runs side by side, each a figure of the page
 *   report.c        the HTML page of the figures, written whole (pl_report_write, report.h) */
#ifndef PL_REPORT_PARTS_H
#define PL_REPORT_PARTS_H

#include "core/core.h"
#include "io/json.h"
#include "report/svg.h"

enum { PHASES = 4, MAX_PROB = 8 };
/* "alloc", "h2d", "kernel", "d2h": a row's phases_s members, in this order. */
extern const char *const report_phase_names[PHASES];

/* One row of a results file. */
typedef struct report_result {
    const char *kernel, *variant, *backend, *size, *rate_unit, *check, *ceiling_name;
    char params[160];  /* "tile=64 isa=auto" */
    /* the problem parameters (the row's "problem": op, axis, trans, k, rule...), name and value */
    int n_prob;
    const char *prob_name[MAX_PROB];
    char prob_val[MAX_PROB][48];
    /* set once all files are read: the problem parameters that differ between the kernel's rows
     * (" axis=0"; "" where every row has the same), and the series they make ("cpu-simd axis=0") */
    char tag[128], series[192];
    int peer, passed;
    int user;      /* a user's rung ("user": true): marked on the ladder */
    int n_samples; /* the timed runs one by one ("samples"; 0 in older files) */
    double median_s, rate, ops, bytes, work, ceiling_pct, error, bound;
    double phase[PHASES]; /* seconds, -1: none */
} report_result;

typedef struct report_run {
    const char *path, *cpu, *gpu, *date, *command;
    int cores, sweep;
    double cpu_flops, cpu_iops, cpu_bw, gpu_flops, gpu_tf32, gpu_iops, gpu_bw; /* GFLOP/s, Gop/s, GB/s */
    report_result *res;
    int n;
    pl_json *doc;
    char label[160]; /* "AMD EPYC, 2 cores" */
    int n_set;       /* the command's --set items: the problem of rows written before rows recorded it */
    char set_name[MAX_PROB][32], set_val[MAX_PROB][48];
} report_run;

/* A plot with its heading and caption, as the page shows it. */
typedef struct report_figure {
    char name[96];    /* file name stem: "03-gemm-ladder" */
    char heading[160];
    char caption[1024];
    svg_buf svg;
} report_figure;

typedef struct report_page {
    report_figure *fig;
    int n, cap;
    int failed;
} report_page;

/* Read and check the file at path into r (r->doc holds its JSON, the strings point into it):
 * a file that is not parlab's bench/sweep JSON, or of another schema version, is PL_ERR_FORMAT
 * naming the file, the place and the field. report_free_run frees it (also after a failure). */
pl_status report_read_run(const char *path, report_run *r);
void report_free_run(report_run *r);
/* The files as runs to draw: bench files from one machine in one directory (the lines of a
 * suite, `make bench`) are one run, their results together; a sweep file is a run of its own.
 * The merged runs borrow the files' strings; only their result arrays (free them) are their
 * own. */
pl_status report_merge_runs(const report_run *files, int n, report_run **out, int *n_out);

/* Name each result's series (the problem parameters that set its rows apart over all the
 * runs), then draw every plot of the runs into pg: per run each kernel's ladder and scaling,
 * its roofline and GPU phases, a sweep file its sweeps; with two runs or more, each kernel that
 * two of them have side by side. pg->failed where memory ran out. */
void report_draw_plots(report_page *pg, report_run *runs, int n);

#endif
