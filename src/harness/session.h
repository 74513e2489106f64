/* session.h: the bench session, as `parlab bench`, `parlab sweep` and parlab.bench (Python)
 * run it: a kernel at some sizes, a list of jobs (a variant with its parameters), and then, in
 * order: the plan of every size (the kernel's problem struct made once a size and kept for
 * the plan, the estimate and the run), the contexts, the checks before the first run (each
 * variant can run here, each size fits the memory), the estimated times and the auto-selected
 * jobs they leave out, the peaks, the runs, and their results beside their peers.
 *
 * The library never prints: what a session has to tell (a job left out, a rung that does not
 * take a problem, a failed run, the peaks it measured) goes to the caller's say hook as one
 * line of text, and the progress of long steps to its step and progress hooks. It holds no
 * state outside the pl_session (and the caller's pl_peaks_memo).
 *
 * Its life: pl_session_init -> (the caller sets the fields marked "in") -> pl_session_add_job
 * ... -> pl_session_plan (may come first: it is made once) -> pl_session_prepare ->
 * pl_session_run -> pl_session_free. Only parlab.h is needed to use it (the Python
 * extension includes it). */
#ifndef PL_HARNESS_SESSION_H
#define PL_HARNESS_SESSION_H

#include "parlab.h"

/* One run of a variant with its parameters, at every size. */
typedef struct pl_session_job {
    const pl_variant *v;
    int64_t params[PL_MAX_PARAMS];
    int has_params;    /* 0: the variant's defaults */
    int auto_selected; /* not named by the user: max_time may leave it out, and a problem it
                        * does not take is a note, not a failure (peers too) */
} pl_session_job;

/* What a line the session says is. */
typedef enum pl_say {
    PL_SAY_INFO = 0,    /* a line worth reading: a job left out, nothing left to run */
    PL_SAY_NOTE,        /* a note: no peaks, peaks measured now */
    PL_SAY_SKIPPED,     /* a rung (a peer, or auto-selected) that does not take a size's problem */
    PL_SAY_STATUS,      /* what is happening now, for a terminal (reading the peaks) */
    PL_SAY_ERROR        /* a run that failed or did not verify (the session goes on) */
} pl_say;

struct pl_session;
typedef struct pl_session_hooks {
    void *user;
    void (*say)(void *user, pl_say kind, const char *text); /* one line, no newline; may be NULL */
    /* A long step begins (size: the problem's description; variant NULL: making the problem)
     * or, with size NULL, ends; between them progress() reports its stages. May be NULL. */
    void (*step)(void *user, const char *size, const char *variant);
    pl_progress_fn progress;
    /* A user's rung run outside this process (the command's worker: a crash or a hang ends
     * that row, not the session): fill r's figures for job j on size index z as
     * pl_bench_variant would, with no peaks (the session places it and fills its kernel,
     * variant, problem and bounds), or return the status that failed it, its message naming
     * what happened (a signal, a timeout). NULL: user rungs run in this process. */
    pl_status (*run_isolated)(void *user, const struct pl_session *s, int z, const struct pl_session_job *j,
                              pl_result *r);
} pl_session_hooks;

/* How a session places its results against the peaks. */
typedef enum pl_session_peaks {
    PL_SESSION_PEAKS_NONE = 0, /* not placed */
    PL_SESSION_PEAKS_CACHED,   /* the cached peaks, silently, where there are some */
    PL_SESSION_PEAKS_MEASURE   /* the cached ones, else measured now (quick), saying so */
} pl_session_peaks;

/* Quick peaks measured by an earlier session of this process that failed the sanity checks
 * (so were not cached): they serve the later sessions (a suite's lines) while the cache stays
 * empty, measured once a process, not once a line. The caller keeps it across sessions. */
typedef struct pl_peaks_memo {
    int have;     /* 0: none */
    int with_gpu; /* taken with a CUDA context */
    pl_peaks peaks;
} pl_peaks_memo;

typedef struct pl_session {
    /* ---- in (pl_session_init sets the defaults) */
    const pl_kernel *kernel;
    const char *const *sizes; /* the caller's, as given (named sizes resolved here) */
    int n_sizes;
    pl_pvalues pv;             /* problem parameters; the strings are the caller's */
    pl_check check;            /* default AUTO */
    pl_bench_config cfg;       /* its peaks and progress are the session's */
    int threads, device;       /* 0: the defaults */
    double max_time;           /* leave out auto-selected jobs estimated over it; <= 0: none */
    pl_session_peaks peaks_mode;
    pl_peaks_memo *memo;       /* may be NULL */
    const volatile int *cancel; /* pl_ctx_set_cancel on the contexts; NULL: none */
    int stop_on_failure;       /* a failed run (not a failed check) ends pl_session_run */
    pl_session_hooks hooks;
    /* ---- the jobs (pl_session_add_job) */
    pl_session_job *jobs;
    int n_jobs, cap_jobs;
    /* ---- found by pl_session_plan and pl_session_prepare */
    void **specs;        /* per size: the kernel's problem struct, made once */
    pl_plan *plans;      /* per size */
    int planned;
    unsigned char *skip; /* [size * n_jobs + job]: left out (estimated over max_time) */
    int n_left_out;
    pl_peaks peaks;
    pl_ctx *cpu, *gpu;
    /* ---- out: pl_session_run */
    pl_result *results;
    int n_results, cap_results;
    int *size_problem; /* per size: the pl_problem_id its results carry (-1: none ran) */
    int failures;      /* runs that failed or did not verify */
} pl_session;

void pl_session_init(pl_session *s, const pl_kernel *k);
pl_status pl_session_add_job(pl_session *s, const pl_variant *v, const int64_t *params, int auto_selected);
/* Every size planned (its problem struct made and kept); the first bad one's status. Once. */
pl_status pl_session_plan(pl_session *s);
/* The plan; then the contexts the jobs need (the CUDA one first: its free memory is part of
 * the check), each job's variant checked against its context ("KERNEL V: cannot run here:
 * why"), each size's memory (PL_ERR_TOO_BIG naming the estimate and the limit), the time
 * estimates (with max_time), and the peaks. Nothing runs on a size before this. */
pl_status pl_session_prepare(pl_session *s);
/* Every size, every job not left out; results and failures counted. PL_OK, or the status that
 * stopped it (cancelled; any failed run with stop_on_failure). Then each rung's peer ratios. */
pl_status pl_session_run(pl_session *s);
/* The jobs of a command line, added in order: the named variants (variants "V1,V2"; NULL or
 * "all": every rung that can run here and takes the sizes' problems (pl_kernel.takes; the sizes
 * are planned first), each one that cannot said as left out, quietly where it does not take the
 * default problem either: gemm's BF16 rungs in a float32 run), then with with_peer the peers of
 * their backends that can run here and take them; params: "NAME=V,..." items, each
 * name once and known to a selected variant, the named variants' values. A named variant that
 * cannot run here: PL_ERR_UNSUPPORTED, or with skip_unavailable said and left out (nothing
 * left: said, PL_OK with no job); a bad name, item or value: PL_ERR_ARG. */
pl_status pl_session_select(pl_session *s, const char *variants, const char *const *params, int n_params,
                            int with_peer, int skip_unavailable);
void pl_session_free(pl_session *s);

#endif
