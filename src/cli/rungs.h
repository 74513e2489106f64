/* rungs.h: the user's own rungs on the command line (`--rung ./libmine.so:my_fn`, with
 * `--rung-name`, `--rung-backend`, `--rung-timeout`, `--rung-in-process`), loaded through the
 * library (pl_user_rung_load), and the worker process each one runs in: a rung that crashes
 * (a signal, an abort, a CUDA fault) or hangs ends its own row, never the bench. */
#ifndef PL_CLI_RUNGS_H
#define PL_CLI_RUNGS_H

#include "harness/session.h"

enum { CLI_MAX_RUNGS = 16 };

typedef struct cli_rung_arg {
    const char *path_fn; /* "./libmine.so:my_sgemm", as given */
    const char *name;    /* --rung-name; NULL: the function's name */
    int backend;         /* --rung-backend; -1: as the library declares (else CPU) */
} cli_rung_arg;

typedef struct cli_rungs {
    cli_rung_arg arg[CLI_MAX_RUNGS];
    int n;
    pl_user_rung *loaded[CLI_MAX_RUNGS];
    double timeout_s;  /* --rung-timeout: a worker with no result by then is stopped */
    int in_process;    /* --rung-in-process: no worker (for a debugger); a crash ends the bench */
} cli_rungs;

/* One of the rung options and its value (opt the option's name as given): 0, or the exit
 * status of a usage error (printed). NULL value for the flags. */
int cli_rungs_option(cli_rungs *r, const char *opt, const char *value);
/* Each --rung loaded for kernel k, before anything else is chosen: a bad library, symbol,
 * declaration or name is a usage error naming it (printed). Exit status. */
int cli_rungs_load(cli_rungs *r, const pl_kernel *k);
/* The loaded rungs added to the session as named jobs, after the ladder's. Exit status. The
 * caller sets the session's run_isolated hook to cli_rungs_run_isolated unless in_process. */
int cli_rungs_add_jobs(const cli_rungs *r, pl_session *s);
/* What the session's run_isolated hook calls (r: the command line's rungs): the job in a worker
 * process. */
pl_status cli_rungs_run_isolated(void *rungs, const pl_session *s, int z, const pl_session_job *j, pl_result *r);
void cli_rungs_free(cli_rungs *r);

/* The worker's side: `parlab __rung-worker`, started by cli_rungs_run_isolated with the job
 * on its standard input and the result written to descriptor 3. Not a command for people. */
#define CLI_RUNG_WORKER "__rung-worker"
int cli_rung_worker_main(void);

#endif
