/* report.h: results as a person reads them (an aligned table) and as programs read them
 * (JSON and CSV, schema in docs/output.md). Files are written to a temporary name and
 * renamed, so a failed run leaves no partial file. */
#ifndef PL_REPORT_H
#define PL_REPORT_H

#include "parlab.h"
#include <stdio.h>

typedef struct pl_report_ctx {
    const pl_peaks *peaks; /* may be NULL */
    const char *command;   /* the command line, for the record */
} pl_report_ctx;

/* Fill each rung's peers[] (n_peers of them) with its ratio to every
 * peer in r[0..n) measured on the same size, backend and precision: at most PL_MAX_PEERS,
 * each peer name once, in the order of r. */
void pl_results_peer_ratios(pl_result *r, int n);
void pl_report_table(FILE *f, const pl_result *r, int n);
/* The footnote that says what the table's "vs peer" column holds. */
void pl_report_peer_note(FILE *f, const pl_result *r, int n);
pl_status pl_report_json(const char *path, const pl_result *r, int n, const pl_report_ctx *rc);
pl_status pl_report_csv(const char *path, const pl_result *r, int n, const pl_report_ctx *rc);
/* "tile=16,isa=auto" */
void pl_report_params(const pl_result *r, char *buf, size_t n);

#endif
