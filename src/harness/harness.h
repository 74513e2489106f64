/* harness.h: the harness's inside (not public). A pl_problem holds one kernel problem set
 * up once: its spec struct, operands filled from the seed, pristine copies of in-out
 * operands, checksums of the inputs, and (for the full check) the float64 reference and the
 * per-element scale of its bound. Variants only compute; everything else is here.
 *
 * The kernel contract (struct pl_kernel in parlab.h), in the order the harness calls it:
 *   make_problem  size text (named sizes resolved) + problem parameters -> problem struct
 *   operands      the tensors: shapes, dtype, role (in, out, in-out)
 *   fill          seeded inputs (never zeros); called again to restore an overwritten input
 *   reference     full check: float64 reference and element scale of every output
 *   check_sampled sampled check (sizes whose reference_ops would take more than a few s)
 *   error_bound, elem_bound   the bounds of a precision, with their justification
 *   work, ops, bytes          per run: work in the kernel's unit, compute ops, fewest bytes
 *   destroy_problem           frees what make_problem allocated
 * The harness includes nothing from src/kernels/: the list of kernels is a table there.
 *
 * One file per concern: plan.c (the problem struct and what it will take), fits.c (memory
 * checks), problem.c (inputs and reference, once), checksum.c, verify.c, run.c (a variant's
 * buffers and steps), timing.c (repeats and statistics), ceilings.c, bench.c (the phases of
 * pl_bench_variant in order), estimate.c (a bench's time from a probe), session.c (a bench over
 * sizes and variants, session.h), table.c and text_table.c (the results for a person, a user's
 * rung placed), stats.c (two sets of timed runs compared), compare.c (two bench runs matched), check.c (the correctness
 * suite alone: pl_check_variant). */
#ifndef PL_HARNESS_H
#define PL_HARNESS_H

#include "parlab.h"

/* src/kernels/kernels.c: every kernel, NULL-terminated. */
extern const pl_kernel *const pl_kernel_table[];

struct pl_problem {
    const pl_kernel *kernel;
    void *spec;                       /* the kernel's problem struct */
    int owns_spec;                    /* 0: borrowed (pl_problem_create_spec), its maker frees it */
    int id;                           /* unique in this process */
    char desc[64];
    uint64_t seed;
    pl_check check;                   /* FULL or SAMPLE (AUTO: a probe, never checked) */
    int n;                            /* operands */
    pl_tensor t[PL_MAX_OPERANDS];     /* host operands; in-out ones hold their initial value */
    pl_tensor ref[PL_MAX_OPERANDS];   /* full check: reference of outputs (host NULL otherwise) */
    pl_tensor scale[PL_MAX_OPERANDS]; /* full check: element scale of float outputs */
    uint64_t sum[PL_MAX_OPERANDS];    /* checksum of each input and in-out's initial value */
    double work, ops, bytes;
    double device_bytes;              /* the plan's: operands and pristine in-outs on a device */
};

/* ---- plan.c: the kernel's problem struct, and what a problem will take */
/* Make the kernel's problem struct from size and parameters (named sizes resolved; pv NULL:
 * defaults); destroy with pl_spec_free. */
pl_status pl_spec_make(const pl_kernel *k, const char *size, const pl_pvalues *pv, void **spec);
void pl_spec_free(const pl_kernel *k, void *spec);
/* pl_problem_plan of a problem struct already made (the problem is made once). */
pl_status pl_plan_spec(const pl_kernel *k, const void *spec, pl_check check, pl_plan *plan);
/* Estimated rate of the full float64 reference here (ops per second), for the AUTO check. */
double pl_reference_rate(void);
/* Seconds of full reference above which AUTO picks the sampled check. */
#define PL_FULL_CHECK_MAX_S 5.0

/* ---- fits.c: what a run will take against what this process may have */
/* The one device-memory check: PL_ERR_TOO_BIG when need bytes pass 97% of the free memory of
 * gpu's device, "WHO needs about X GiB of device memory WHAT_FOR; device D has ..."; PL_OK
 * when the device cannot tell (the allocation will say). (pl_plan_fits: parlab.h.) */
pl_status pl_device_fits(const pl_ctx *gpu, double need, const char *who, const char *what_for);

/* ---- problem.c (the rest of it is public: pl_problem_create...) */
/* A problem for timing only (pl_bench_estimate's probes): seeded inputs, no reference, no
 * checks (its check is AUTO, which pl_bench_variant reads as "do not check"). */
pl_status pl_problem_create_probe(pl_problem **p, const pl_kernel *k, const char *size, const pl_pvalues *pv,
                                  uint64_t seed);
/* The problem on a problem struct already made (pl_spec_make), which it borrows: the caller
 * frees spec after the problem (a problem struct that reads a file reads it once). probe: as
 * pl_problem_create_probe (opts' check unused). */
pl_status pl_problem_create_spec(pl_problem **p, const pl_kernel *k, const void *spec, const pl_problem_opts *opts,
                                 int probe);

/* ---- estimate.c: the probes pl_bench_estimate times a variant on, made once and kept */
typedef struct pl_probes {
    const pl_kernel *k;
    const pl_pvalues *pv; /* the caller's; outlives the probes */
    uint64_t seed;
    struct pl_probe {     /* one per named size of the kernel */
        void *spec;       /* the problem struct: made on first use, or lent (pl_probes_lend) */
        int owns_spec, planned;
        pl_status plan_status;
        pl_plan plan;
        pl_problem *problem; /* made on first use (a probe: no reference, no checks) */
    } *at;
} pl_probes;
pl_status pl_probes_init(pl_probes *pr, const pl_kernel *k, const pl_pvalues *pv, uint64_t seed);
/* Named size i's problem struct is one the caller made already (and frees after the probes). */
void pl_probes_lend(pl_probes *pr, int i, void *spec);
/* The plan of named size i (its problem struct made on first use). */
pl_status pl_probes_plan(pl_probes *pr, int i, pl_plan *plan);
void pl_probes_free(pl_probes *pr);
/* pl_bench_estimate on probes kept by the caller. */
pl_status pl_bench_estimate_probes(pl_ctx *ctx, pl_probes *pr, const pl_variant *v, const int64_t *params,
                                   const pl_plan *plan, const pl_bench_config *cfg, double *seconds);

/* ---- checksum.c */
/* A 64-bit checksum of the bytes a tensor spans (host memory); the same for any thread count. */
uint64_t pl_tensor_checksum(const pl_tensor *t);

/* ---- verify.c: what a run left */
/* Compare an output with its reference over the rows x cols region: relative Frobenius
 * error (floats; any NaN or Inf gives +Inf) or the count of differing elements (exact). */
double pl_verify_tensor(const pl_tensor *out, const pl_tensor *ref, int exact);
/* The full check of one output: Frobenius error, and element by element |out - ref| against
 * elem_bound * scale (scale may be NULL: exact). Fills res (operand index given). */
void pl_check_tensor(const pl_tensor *out, const pl_tensor *ref, const pl_tensor *scale, double elem_bound,
                     int operand, pl_check_result *res);
/* The outputs a run left in the host copies work[] (indexed like the operands): the problem's
 * check (full against r->bound and r->elem_bound, or the kernel's sampled one seeded with the
 * problem's seed ^ salt) into res, and their padding (r->padding_ok cleared when touched).
 * Returns 1 when they pass. */
int pl_verify_outputs(const pl_problem *p, const pl_variant *v, void *const *work, uint64_t salt, pl_result *r,
                      pl_check_result *res);
/* A check's verdict against the run's Frobenius bound (0: exact, no element may differ; else
 * the error within bound and every element within its own). */
int pl_check_passes(const pl_check_result *res, double bound);
/* The inputs as the problem made them. Host (a CPU variant got the problem's own copies): by
 * checksum; where one changed, *ok = 0 and the inputs are refilled from the seed. Device: the
 * device copies dev[] (bytes[] each) compared with the host's, in chunks. */
pl_status pl_verify_inputs_host(pl_problem *p, int *ok);
pl_status pl_verify_inputs_device(const pl_problem *p, void *const *dev, const size_t *bytes, void *stream, int *ok);

/* ---- timing.c (the timed repeats: run.h) */
/* Sort t[0..n-1] and give its median, min and max. */
void pl_stats_summary(double *t, int n, double *median, double *min, double *max);
/* Calls timed by the wall clock, where a pl_run does not fit (a call that spans the ranks of a
 * distributed run, a one-rank baseline on its own operands): warmup untimed calls, then n timed
 * ones, seconds[i] each. before (NULL: none) runs ahead of each call outside its time (a
 * barrier); elapsed (NULL: the call's own) turns the call's seconds into the figure kept (the
 * slowest rank's). all: every call is made even after one failed (calls that are collective:
 * no other caller is left waiting), the first failure returned. */
typedef struct pl_timed_calls {
    pl_status (*call)(void *user);
    void (*before)(void *user);
    double (*elapsed)(void *user, double seconds);
    void *user;
    int all;
} pl_timed_calls;
pl_status pl_time_calls(const pl_timed_calls *c, int warmup, long n, double *seconds);

/* ---- stats.c: two sets of timed runs compared without assuming a shape of their times */
enum { PL_MWU_EXACT_MAX = 10, PL_BOOTSTRAP_RESAMPLES = 2000, PL_BOOTSTRAP_SEED = 42 };
#define PL_SIGNIFICANCE 0.05
#define PL_BOOTSTRAP_LEVEL 0.95
/* The two-sided p of the Mann-Whitney U test of x against y (NaN: a sample empty, or no
 * memory): exact where both have at most PL_MWU_EXACT_MAX values and none is tied, else the
 * normal approximation with tie and continuity corrections; *u_x (may be NULL): U of x, the
 * pairs x_i > y_j with ties counting 1/2. */
double pl_mann_whitney(const double *x, int nx, const double *y, int ny, double *u_x);
/* median(a) / median(b), and its bootstrap interval at level (0.95): resamples draws of both
 * with replacement from seed, the percentiles (linear interpolation) of their ratios. */
pl_status pl_bootstrap_ratio(const double *a, int na, const double *b, int nb, int resamples, double level,
                             uint64_t seed, double *ratio, double *lo, double *hi);
/* same where p >= PL_SIGNIFICANCE or [lo, hi] holds 1; else faster (speedup above 1) or slower;
 * no samples where p or the interval is NaN. */
pl_verdict pl_verdict_of(double speedup, double lo, double hi, double p);
/* Timed runs before and after compared: speedup = before_median / after_median, the bootstrap
 * interval (PL_BOOTSTRAP_*), the test and the verdict; no samples on a side: the speedup alone. */
pl_status pl_compare_samples(const double *before, int n_before, const double *after, int n_after, double before_median,
                             double after_median, pl_comparison *c);
/* "p<0.001", "p=0.023" */
void pl_format_p(char *buf, size_t n, double p);

/* ---- text_table.c: cells[row * n_cols + col], row 0 the heading; align[col] 'l' or 'r'. As a
 * person reads it (columns padded, two spaces apart) or as a Markdown table (markdown 1). */
void pl_text_table_write(FILE *f, const char *const *cells, int n_rows, int n_cols, const char *align, int markdown);

/* ---- table.c: a user's rung on the ladder */
/* Where r[i] (a user's rung) stands among the built-in rungs (not peers, not users' rungs) that
 * passed their checks on its problem and backend, any precision: below, the fastest of those
 * no faster than it, above, the slowest of those faster (-1: none); each comparison is the
 * other's runs before, r[i]'s after (speedup above 1: r[i] is faster than it). */
typedef struct pl_placement {
    int below, above;
    pl_comparison vs_below, vs_above;
} pl_placement;
pl_status pl_place_user_rung(const pl_result *r, int n, int i, pl_placement *pl);

/* ---- ceilings.c */
/* r's % of the ceiling that bounds it (compute, memory or the roofline, as the kernel says) at
 * the measured peaks pk (NULL or invalid: not placed, "-"); written: the bytes a run writes
 * (< 0: unknown). Sets ceiling_pct, ceiling_name, over_ceiling. */
void pl_place_on_ceiling(const pl_ctx *ctx, const pl_variant *v, const pl_peaks *pk, double written, pl_result *r);
/* user_checks.c: a user's rung whose rate passes its ceiling by a quarter fails as impossible
 * (r->verified 0, r->failed_why); called once the result is placed. */
void pl_user_judge_floor(pl_result *r);

/* ---- registry.c */
/* The kernel's problem parameter of that name ("mode"), NULL when it has none. */
const pl_param_def *pl_problem_param_find(const pl_kernel *k, const char *name);
/* The values of a variant's parameters: given ones checked against their legal values,
 * missing ones (params == NULL) set to the defaults. */
pl_status pl_params_resolve(const pl_variant *v, const int64_t *given, int64_t *out);
/* Bytes of storage a tensor spans, with overflow checks. */
pl_status pl_tensor_bytes(const pl_tensor *t, size_t *bytes);

/* ---- tool_run.c: the file tools' call */
/* The context (backend, device, threads); a named variant v checked against it; with CUDA, the
 * operands of problem (the kernel's problem struct; NULL: an empty one) must fit the device's
 * free memory (PL_ERR_TOO_BIG). */
pl_status pl_tool_context(const pl_kernel *k, const void *problem, pl_backend backend, int device, int threads,
                          const pl_variant *v, pl_ctx **ctx);
/* One call of the kernel: run(ctx, rung, user) with the rung's name, or with rung NULL for an
 * empty problem (problem NULL: the caller writes the empty answer itself). */
typedef pl_status (*pl_rung_call)(pl_ctx *ctx, const char *rung, void *user);
/* The context (pl_tool_context), the rung (v, else pl_best_variant for the problem; none:
 * PL_ERR_UNSUPPORTED "K: no K variant can run here") and the call, timed: *ran names the
 * rung ("none (empty)"), *ms the call's milliseconds. */
pl_status pl_tool_run(const pl_kernel *k, const void *problem, pl_backend backend, int device, int threads,
                      const pl_variant *v, pl_rung_call run, void *user, const char **ran, double *ms);

#endif
