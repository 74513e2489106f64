/* cuda_tuning.h: how the CUDA top rungs choose a tile config and a K split for a shape, in host
 * C that needs no GPU (tests/test_gemm_tuning.c runs it on the CPU machine). As BLIS keeps
 * config/ apart from kernels/:
 *   - cuda_configs.h     the tile shapes (what the kernels are instantiated with);
 *   - cuda_tuning_*.c    one GPU's measured numbers each (cuda_tuning_h100.c);
 *   - cuda_tuning.c      the list of those tables, and the fallback for a GPU not in it;
 *   - cuda_choose.c      the cost model and the choice, which read them. */
#ifndef PL_GEMM_CUDA_TUNING_H
#define PL_GEMM_CUDA_TUNING_H

#include <stdint.h>

#include "kernels/gemm/cuda_configs.h"
#include "kernels/gemm/gemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The cost model's constants as fitted on one GPU, for a set of rungs that share one time unit
 * (seconds, or another unit: only the order of two estimates matters to a choice). A config's
 * time is its blocks' MACs on the busiest SM at the config's rate, plus what the call adds. */
typedef struct pl_gemm_cost_model {
    double sm_rate;         /* MACs one SM does in a time unit at rate 1.0 */
    double k_extra;         /* k steps a block costs beyond its slice (pipeline fill, epilogue) */
    int whole_waves;        /* 1: blocks run in waves of (resident blocks) x SMs, and a partial wave
                             * costs a whole one; 0: an SM's blocks cost in proportion, slowed
                             * while fewer than full_warps warps are resident on it */
    int full_warps;
    double launch;          /* a call's fixed cost */
    int min_split_k;        /* K is cut only while each slice keeps at least this many k */
    int split_per_slice;    /* split-K moves (per_slice x splits + fixed) M x N elements ... */
    int split_fixed;
    double split_elem_cost; /* ... each costing elem_cost / bandwidth (bytes and bytes a unit) */
    double split_bandwidth;
    double split_launch;    /* + the reduce pass's launch */
    double transpose_elem_cost; /* configs that transpose B first: a cost per element of B ... */
    double transpose_launch;    /* ... + the transpose's launch */
} pl_gemm_cost_model;

/* One rung on one GPU: the model it is costed with, each config's measured rate (relative to the
 * model's rate 1.0; NULL: all 1.0) and the order auto tries the configs in, best first. */
typedef struct pl_gemm_rung_tuning {
    const pl_gemm_cost_model *model;
    const double *rate;
    /* The rates where K or N is not a multiple of 4 (rows of A or B off 16 bytes with their
     * natural leading dimensions: re-pitched copies, partial edge boxes); NULL: rate. */
    const double *rate_unaligned;
    const int *order; /* 0-based rows of the rung's config table, each once */
    int n;            /* entries in rate and order: the rung's config count */
} pl_gemm_rung_tuning;

/* The numbers measured on one GPU, for every CUDA top rung. */
typedef struct pl_gemm_gpu_tuning {
    const char *name;  /* "H100": a device whose name holds this gets the table */
    int sm_version;    /* 90: a device of this SM version not in the list falls back to it */
    const char *source; /* where and how the numbers were measured */
    pl_gemm_rung_tuning rung[PL_GEMM_CUDA_RUNGS];
} pl_gemm_gpu_tuning;

/* How a device got its table. */
typedef enum pl_gemm_tuning_match {
    PL_GEMM_TUNING_MEASURED = 0, /* its own: the device's name holds the table's */
    PL_GEMM_TUNING_SAME_SM,      /* a measured table of its SM version, used as it is */
    PL_GEMM_TUNING_GENERIC       /* no table of its SM version: the first table, every rate 1.0 */
} pl_gemm_tuning_match;

/* The measured tables (cuda_tuning.c lists them, first the one the generic fallback builds on). */
extern const pl_gemm_gpu_tuning pl_gemm_tuning_h100;
extern const pl_gemm_gpu_tuning *const pl_gemm_tunings[];
extern const int pl_gemm_n_tunings;

/* Fill *t with the table for a device (its name as the driver gives it, "" if unknown, and its
 * SM version, 90 for sm_90): its own table, else the first of its SM version, else the generic
 * one. Says which. */
pl_gemm_tuning_match pl_gemm_tuning_for(const char *device_name, int sm_version, pl_gemm_gpu_tuning *t);
const char *pl_gemm_tuning_match_name(pl_gemm_tuning_match m);

/* A rung's configs (cuda_configs.h) and their count. */
const pl_gemm_cfg *pl_gemm_rung_configs(pl_gemm_cuda_rung r, int *n);

/* What the chooser knows of one rung on one device (the CUDA frame measures it once a context). */
typedef struct pl_gemm_rung_device {
    pl_gemm_cuda_rung rung;
    int runs;                       /* its kernels run on this device */
    int sms;                        /* the device's SMs */
    int occ[PL_GEMM_MAX_CONFIGS];   /* blocks of each config resident on one SM */
} pl_gemm_rung_device;

/* Estimated time (in the model's unit) of config ci (0-based) of rung d->rung with K cut in s. */
double pl_gemm_cost(const pl_gemm_gpu_tuning *t, const pl_gemm_rung_device *d, int ci, int64_t M, int64_t N,
                    int64_t K, int s);

/* The choice: rungs[rung] (an index into the list given), its config (0-based) and split. */
typedef struct pl_gemm_choice {
    int rung, config, split;
} pl_gemm_choice;

/* The fastest estimate among the given rungs that run here, each rung's configs in its order
 * (a truncating config never), splits 1, 2, 4, .. 64 while slices keep the model's min_split_k;
 * a later candidate must be 3% faster to win, so near-ties go to the earlier (measured faster)
 * one. config = -1 when none of the rungs runs here. */
pl_gemm_choice pl_gemm_choose(const pl_gemm_gpu_tuning *t, const pl_gemm_rung_device *const *rungs, int n,
                              int64_t M, int64_t N, int64_t K);

/* What a rung does first: the sizes fit an int, and its config (1-based) and K split for these
 * params (PL_GEMM_CUDA_CONFIG and PL_GEMM_CUDA_SPLITK, gemm.h; NULL: both auto). A 0 asks pl_gemm_choose (this rung
 * alone); a config the user names keeps split 1 unless the split is named too. Errors name
 * `rung_name`. */
pl_status pl_gemm_cuda_resolve(const char *rung_name, const pl_gemm_problem *p, const int64_t *params,
                               const pl_gemm_gpu_tuning *t, const pl_gemm_rung_device *d, int *config, int *split);

/* The sizes fit an int and none is 0 (each rung's first check; errors name `rung_name`). */
pl_status pl_gemm_cuda_check_dims(const char *rung_name, const pl_gemm_problem *p);

#ifdef __cplusplus
}
#endif
#endif
