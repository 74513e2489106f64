/* run.h: one variant's runs on one problem, the inside of pl_bench_variant: the buffers a run
 * holds and the steps runs are made of. Nothing here checks or times; verify.c checks what a
 * run left, timing.c times the repeats, bench.c puts the steps in order. */
#ifndef PL_HARNESS_RUN_H
#define PL_HARNESS_RUN_H

#include "harness/harness.h"

typedef struct pl_run {
    pl_problem *p;
    const pl_variant *v;
    pl_ctx *ctx;
    const pl_bench_config *cfg;
    int gpu;                         /* a CUDA variant: its operands live on the device */
    void *data[PL_MAX_OPERANDS];     /* what the variant sees: host or device */
    void *work[PL_MAX_OPERANDS];     /* host working copies of outputs */
    void *pristine[PL_MAX_OPERANDS]; /* device: initial in-out values */
    size_t bytes[PL_MAX_OPERANDS];
    int64_t params[PL_MAX_PARAMS];   /* the variant's parameters, defaults filled in */
    void *flush;                     /* --cold: a buffer larger than the last-level cache */
    size_t flush_bytes;
    void *ev0, *ev1;                 /* GPU: the events around a timed span */
} pl_run;

/* Before anything is allocated: the variant can run here, its parameters are legal, the
 * context's device is current, and (GPU) the device has the memory. */
pl_status pl_run_open(pl_run *run, pl_ctx *ctx, pl_problem *p, const pl_variant *v, const int64_t *params,
                      const pl_bench_config *cfg);
/* The allocation phase (timed into *alloc_s): host working copies of the outputs (touched),
 * the operands on the device; then, untimed, pristine in-outs, the --cold buffer, events. */
pl_status pl_run_allocate(pl_run *run, double *alloc_s);
/* GPU: the inputs and in-outs to the device (the host-to-device phase, into *h2d_s), then
 * the pristine copies of the in-outs. */
pl_status pl_run_inputs_to_device(pl_run *run, double *h2d_s);
/* GPU: the outputs back into the host working copies; d2h_s not NULL: timed into it (the
 * device-to-host phase). */
pl_status pl_run_outputs_to_host(pl_run *run, double *d2h_s);
/* Before each run: outputs poisoned (all-ones bytes: NaN for floats, -1 / 255 for integers),
 * in-outs reset to their initial values. */
pl_status pl_run_poison_outputs(pl_run *run);
/* Before each run too: PL_ERR_CANCELLED once the context was cancelled (pl_ctx_set_cancel:
 * Ctrl-C in the Python package), so a long bench stops between runs. */
pl_status pl_run_check_cancel(const pl_run *run);
/* --cold: write over a buffer larger than the caches (nothing without --cold). */
pl_status pl_run_flush_caches(pl_run *run);
/* The variant once (and on a GPU, the launch's error). */
pl_status pl_run_call(pl_run *run);
/* Frees what the run allocated. */
void pl_run_close(pl_run *run);

/* timing.c: the timed repeats (poisoned and, with --cold, flushed before each, outside the
 * timed region) into r: repeats, median, min, max, noisy. */
pl_status pl_time_repeats(pl_run *run, pl_result *r);

/* user_checks.c: a user's rung's extra checks (r->verified 0 and r->failed_why on a failure):
 * one more run on inputs from another seed, checked; on a GPU, the call's device-wide time
 * against its events (off-stream work). The physical floor: pl_user_judge_floor (harness.h). */
pl_status pl_user_fresh_inputs(pl_run *run, pl_result *r);
pl_status pl_user_off_stream(pl_run *run, pl_result *r);

#endif
