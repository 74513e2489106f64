/* session.h: what `bench` and `sweep` share on the command line: one option table (read by
 * options.c's loop), the output paths checked before anything runs, the lines the library's
 * session (harness/session.h: plan, checks, estimates, peaks, runs) has to say printed on
 * stderr, and the report (the library's table and footer, the files).
 *
 * A command's life:  session_init -> session_parse -> (the command turns its --variant and
 * --param into jobs: bench with the library's pl_session_select, sweep with session_add_job)
 * -> session_prepare -> session_run_all ->
 * session_finish -> session_free.  Nothing runs, and no peak is measured, before
 * session_prepare has checked every size, job, output path and the memory each size takes. */
#ifndef PL_CLI_SESSION_H
#define PL_CLI_SESSION_H

#include "cli/options.h"
#include "cli/rungs.h"
#include "harness/session.h"

/* Which commands an option belongs to. */
enum { CLI_BENCH = 1u << 0, CLI_SWEEP = 1u << 1 };

/* A command's session: what the command line gives (the options the library does not read)
 * and the library's session (harness/session.h), which plans, checks, runs and keeps the
 * results. */
typedef struct cli_session {
    unsigned cmd;         /* CLI_BENCH or CLI_SWEEP */
    const char *cmd_name; /* "bench", "sweep" */
    pl_session run;       /* the kernel, sizes, --set, the bench settings, the jobs, the results */
    /* ---- as given on the command line */
    char **sizes; /* resolved names (small -> 256), owned; run.sizes points here */
    int cap_sizes;
    const char **param_args; /* each --param value, in order (the command parses them) */
    int n_param_args, cap_param_args;
    const char *variant_arg; /* NULL: not given */
    int with_peer, skip_unavailable;
    int pv_given[PL_MAX_PARAMS];
    char **owned; /* strings run.pv.str[] and others point into */
    int n_owned, cap_owned;
    long threads, device;
    int use_peaks;
    cli_rungs rungs; /* --rung and its options */
    const char *json, *csv;
    int tty; /* stderr is a terminal: progress lines */
    char command[1024];
    /* the progress line */
    char prog_label[160];
    double prog_start;
    int prog_shown;
} cli_session;

/* The kernel named by argv[1] of `parlab CMD KERNEL ...`; NULL (after printing a usage
 * error that names CMD and `extra`, e.g. ", or --suite FILE") when it is missing or unknown. */
const pl_kernel *session_kernel_arg(const char *cmd, const char *extra, int argc, char **argv);
void session_init(cli_session *s, const pl_kernel *k, unsigned cmd, int argc, char **argv);
/* The argument loop of bench and sweep over their option table (argv[0] the command, argv[1]
 * the kernel). Returns CLI_GO_ON when all went well, else the exit status to return now (0
 * after --help). */
int session_parse(cli_session *s, int argc, char **argv, void (*help)(FILE *));
/* The options of command cmd, one per line, from the same table the parser reads. */
void session_options_help(FILE *f, unsigned cmd);
/* The --rung rungs loaded (before the ladder's rungs are chosen: a bad library or symbol is
 * a usage error, exit status 2). */
int session_load_rungs(cli_session *s);
/* The loaded --rung rungs added as named jobs, each to run in a worker process unless
 * --rung-in-process; exit status (0 ok; a bad library or symbol is a usage error). */
int session_add_rungs(cli_session *s);
/* Append a job; exit status (0 ok). */
int session_add_job(cli_session *s, const pl_variant *v, const int64_t *params, int auto_selected);
/* Every size planned (once), and each fits the host's memory (a usage error otherwise): the
 * check bench makes before it looks at the variants. Exit status (0: go on). */
int session_check_sizes(cli_session *s);
/* Every check before the first run, then the contexts, the memory check per size, the time
 * estimates, and the peaks (the library's pl_session_prepare). Exit status (0: go on). */
int session_prepare(cli_session *s);
/* Every size, every job that is not left out. */
void session_run_all(cli_session *s);
/* Peer ratios, the table and its footer, the files; returns the exit status of the session. */
int session_finish(cli_session *s);
void session_free(cli_session *s);

#endif
