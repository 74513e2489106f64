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

void pl_report_table(FILE *f, const pl_result *r, int n);
pl_status pl_report_json(const char *path, const pl_result *r, int n, const pl_report_ctx *rc);
pl_status pl_report_csv(const char *path, const pl_result *r, int n, const pl_report_ctx *rc);
/* "tile=16,isa=auto" */
void pl_report_params(const pl_result *r, char *buf, size_t n);

#endif
