/* session.h: what `bench` and `sweep` share: the common options, the contexts, running one
 * variant on one problem, the peer ratios and the final report. */
#ifndef PL_CLI_SESSION_H
#define PL_CLI_SESSION_H

#include "cli/cli.h"

enum { SESSION_MAX_SIZES = 64 };

typedef struct cli_session {
    const pl_kernel *kernel;
    char size_buf[1024];
    char *sizes[SESSION_MAX_SIZES];
    int n_sizes;
    double pvals[PL_MAX_PARAMS]; /* the kernel's problem parameters (--set) */
    long threads, device;
    int use_peaks;
    pl_bench_config cfg;
    const char *json, *csv;
    pl_peaks peaks;
    pl_ctx *cpu, *gpu;
    pl_result *results;
    int n_results, cap;
    int failures;
    double started;
    char command[1024];
} cli_session;

/* The kernel named by argv[1] of `parlab CMD KERNEL ...`; NULL (after printing a usage
 * error that names CMD and `extra`, e.g. ", or --suite FILE") when it is missing or unknown. */
const pl_kernel *session_kernel_arg(const char *cmd, const char *extra, int argc, char **argv);
void session_init(cli_session *s, const pl_kernel *k, int argc, char **argv);
/* Try argv[*i] as a common option; 1 consumed (and *i advanced past its value), 0 not a
 * common option, -1 usage error (message printed). */
int session_option(cli_session *s, int argc, char **argv, int *i);
int session_add_size(cli_session *s, const char *size);
const char *session_options_help(void);
/* Peaks and the contexts the variants need; exit status. */
int session_begin(cli_session *s, const pl_variant *const *vars, int n);
/* Set up a problem for one size; NULL (message printed, failure counted) on error. */
pl_problem *session_problem(cli_session *s, const char *size, int *exit_status);
/* Run one variant; appends its result. Returns 0, or the exit status of an error. */
int session_run(cli_session *s, pl_problem *p, const pl_variant *v, const int64_t *params);
/* Peer ratios, the table, the files; returns the exit status of the whole session. */
int session_finish(cli_session *s);
void session_free(cli_session *s);

#endif
