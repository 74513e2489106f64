/* entropy.h: the entropy room's face. For each pixel of an H x W image of integer values in
 * [0, bins), the Shannon entropy of the values in the k x k window centred on it (k odd). At
 * the borders the window is clipped to the image: a corner pixel with k = 3 counts the 4
 * values inside, an interior one 9 (the classic lab's definition). With n values in the window
 * and c_b of them equal to b:
 *     E = -sum_b (c_b/n) log(c_b/n) = log n - (1/n) sum_b c_b log c_b
 * natural log by default, base 2 (bits) with base2 = 1.
 *
 * Every rung is a pl_status run(const pl_run_args *) over operands
 *   data[0] = values (H x W uint8, row pitch ld_in >= W, IN; every value < bins)
 *   data[1] = out    (H x W float32, row pitch ld_out >= W, OUT: the harness poisons it) */
#ifndef PL_ENTROPY_H
#define PL_ENTROPY_H

#include "parlab.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { PL_ENTROPY_MAX_BINS = 256, PL_ENTROPY_MAX_K = 63 };

typedef struct pl_entropy_problem {
    int64_t H, W;
    int k;                  /* window side, odd, 1..PL_ENTROPY_MAX_K */
    int bins;               /* values are in [0, bins), 2..256 */
    int base2;              /* 1: log base 2 (bits); 0: natural log */
    int64_t ld_in, ld_out;  /* row pitches in elements */
} pl_entropy_problem;

extern const pl_kernel pl_entropy_kernel; /* ladder.c */

/* Validate sizes, k, bins and pitches, with a message naming the problem. */
pl_status pl_entropy_check(const pl_entropy_problem *p);

/* The problem parameters (spec.c), by index into pl_pvalues.num (kernels/ladder.h: counting). */
enum { PL_ENTROPY_PROBLEM_K, PL_ENTROPY_PROBLEM_BINS, PL_ENTROPY_PROBLEM_BASE, PL_ENTROPY_PROBLEM_PAD,
       PL_ENTROPY_PROBLEM_N_PARAMS };
extern const pl_param_def pl_entropy_problem_params[];

/* The spec (spec.c). */
pl_status pl_entropy_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv);
void pl_entropy_spec_describe(const void *problem, char *buf, size_t n);
pl_status pl_entropy_spec_operands(const void *problem, pl_tensor *t, int *n);
void pl_entropy_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed);
pl_status pl_entropy_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref,
                                    pl_tensor *scale);
pl_status pl_entropy_spec_check_sampled(const void *problem, const pl_tensor *t, int n, const pl_tensor *out,
                                        pl_precision prec, uint64_t seed, pl_check_result *res);
double pl_entropy_spec_reference_ops(const void *problem);
double pl_entropy_spec_pixels(const void *problem);
double pl_entropy_spec_bound(const void *problem, pl_precision prec, const char **why);
double pl_entropy_spec_error_bound(const void *problem, pl_precision prec, const char **why);
double pl_entropy_spec_ops(const void *problem);
double pl_entropy_spec_bytes(const void *problem);
double pl_entropy_spec_bytes_written(const void *problem);
/* The float64 entropy of pixel (i, j)'s clipped window of values v (pitch p->ld_in); *n_out
 * (may be NULL) gets the window's count. The tests and the sampled check use it. */
double pl_entropy_reference_at(const pl_entropy_problem *p, const uint8_t *v, int64_t i, int64_t j,
                               int64_t *n_out);

/* An image's values as the rungs take them (values.c): a rank-2 uint8 array in place (*owned
 * NULL), another type converted into *owned (pl_free it). A rank other than 2, or a value that
 * is not an integer in [0, bins), is PL_ERR_FORMAT naming `where` and the first such pixel. */
pl_status pl_entropy_values(const char *where, const pl_array *a, int bins, const uint8_t **values, uint8_t **owned);

/* A batch of named matrices checked whole before any is computed (batch.c): each name usable
 * as a file in out_dir and unique, each matrix's values (pl_entropy_values), its output path
 * out_dir/<name>.npy, and the largest matrix. Refusals are PL_ERR_FORMAT naming the file. */
typedef struct pl_entropy_batch {
    int count;
    const uint8_t **values; /* count, each in arr's array or in owned */
    uint8_t **owned;
    char **paths;
    int64_t most, big_H, big_W; /* the largest matrix's pixels and shape */
} pl_entropy_batch;
pl_status pl_entropy_batch_prepare(const char *in_path, const char *out_dir, const pl_named_array *arr, int count,
                                   int bins, pl_entropy_batch *b);
/* out_dir made if missing (*made: it was), else it must be a directory: PL_ERR_IO naming it. */
pl_status pl_entropy_batch_dir(const char *out_dir, int *made);
/* Nothing half-written: the first `written` outputs removed, and out_dir where it was made. */
void pl_entropy_batch_undo(const pl_entropy_batch *b, int written, const char *out_dir, int made);
void pl_entropy_batch_free(pl_entropy_batch *b);
/* One untimed call of rung (opts: k, bins, base2) on at most 64 x 64 of the first non-empty
 * matrix, so that the first matrix's time does not carry the one-time costs (threads started,
 * GPU modules loaded). */
pl_status pl_entropy_batch_warm(pl_ctx *ctx, const char *rung, const pl_entropy_batch *b, const pl_named_array *arr,
                                const pl_entropy_problem *opts, float *out);
/* The batch through rung (opts: k, bins, base2): each matrix computed into out (room for the largest), timed
 * (its phases as pl_run_host_phases, -1 where one does not apply), written to its path, and
 * row(user, i, wall_s, phase_s) told; *written: the outputs written so far. */
typedef void pl_entropy_batch_row_fn(void *user, int i, double wall_s, const double phase_s[PL_N_PHASES]);
pl_status pl_entropy_batch_run(pl_ctx *ctx, const char *rung, const pl_entropy_batch *b, const pl_named_array *arr,
                               const pl_entropy_problem *opts, float *out, pl_entropy_batch_row_fn *row, void *user,
                               int *written);

/* The first value >= bins in row-major order: PL_OK, or PL_ERR_ARG naming its row and column. */
pl_status pl_entropy_check_values(const uint8_t *values, int64_t H, int64_t W, int64_t ld, int bins);

/* pl_entropy_variant on a problem struct, with the phase times of pl_run_host_phases
 * (phase_s may be NULL): the values are checked first (pl_entropy_check_values). */
pl_status pl_entropy_variant_phases(pl_ctx *ctx, const char *variant, const int64_t *params,
                                   const pl_entropy_problem *p, const uint8_t *values, float *out,
                                   double phase_s[PL_N_PHASES]);

/* The rungs' parameters, by index into pl_run_args.params; each table is defined beside its rung. */
enum { PL_ENTROPY_CPU_SLIDING_ISA, PL_ENTROPY_CPU_SLIDING_N_PARAMS };
enum { PL_ENTROPY_CUDA_BLOCK, PL_ENTROPY_CUDA_BLOCK_N_PARAMS }; /* cuda-naive, cuda-log-table */
enum { PL_ENTROPY_CUDA_SHARED_TILE, PL_ENTROPY_CUDA_SHARED_N_PARAMS };
enum { PL_ENTROPY_CUDA_TUNED_STRIP, PL_ENTROPY_CUDA_TUNED_THREADS, PL_ENTROPY_CUDA_TUNED_N_PARAMS };
enum { PL_ENTROPY_CUDA_SWAR_STRIP, PL_ENTROPY_CUDA_SWAR_WARPS, PL_ENTROPY_CUDA_SWAR_AHEAD,
       PL_ENTROPY_CUDA_SWAR_N_PARAMS };
extern const pl_param_def pl_entropy_cpu_sliding_params[];  /* cpu_sliding.c */
extern const pl_param_def pl_entropy_cuda_block_params[];   /* cuda_naive.cu */
extern const pl_param_def pl_entropy_cuda_shared_params[];  /* cuda_shared.cu */
extern const pl_param_def pl_entropy_cuda_tuned_params[];   /* cuda_tuned.cu */
extern const pl_param_def pl_entropy_cuda_swar_params[];    /* cuda_swar.cu */

/* The rungs, in ladder order (ladder.c). CUDA ones exist only in CUDA builds. */
pl_status pl_entropy_cpu_naive(const pl_run_args *a);
pl_status pl_entropy_cpu_histogram(const pl_run_args *a);
pl_status pl_entropy_cpu_histogram_log_table(const pl_run_args *a);
pl_status pl_entropy_cpu_sliding(const pl_run_args *a);
pl_status pl_entropy_cuda_naive(const pl_run_args *a);
pl_status pl_entropy_cuda_log_table(const pl_run_args *a);
pl_status pl_entropy_cuda_shared(const pl_run_args *a);
pl_status pl_entropy_cuda_tuned(const pl_run_args *a);
pl_status pl_entropy_cuda_swar(const pl_run_args *a);

/* A user's rung called with the problem's arguments (api.c; pl_kernel.call_user). */
pl_status pl_entropy_call_user(void (*fn)(void), const pl_run_args *a);

#ifdef __cplusplus
}
#endif
#endif
