/* bench_dist.h: `parlab bench KERNEL ...` under mpirun (issue 22). The frame (bench_dist.c)
 * parses, lays the problem over the grid of ranks (--scale weak: each rank's block keeps the
 * given size; strong: the given size is the whole problem), measures the network model, runs
 * the kernel once and has each rank check its own block, times the repeats (the slowest rank's
 * time), times the one-rank baseline, and prints one table on rank 0 (and JSON). A kernel that
 * runs distributed plugs in as one row of the table in bench_dist.c: a dist_kernel, whose
 * functions each live in bench_dist_<kernel>.c. */
#ifndef PL_CLI_BENCH_DIST_H
#define PL_CLI_BENCH_DIST_H

#include "cli/tool.h"
#include "core/core.h"
#include "dist/dist.h"

/* What the command line asks of a distributed bench. */
typedef struct dist_bench_args {
    const char *kernel_name, *size_text, *json_path;
    int weak;              /* --scale weak (1) or strong (0) */
    long gens;             /* Life's generations a run (--gens) */
    long repeats;          /* timed runs (--repeats) */
    long halo;             /* Life's halo depth (--halo; 0: the default) */
    int overlap;           /* --overlap: PL_DIST_OVERLAP_* (dist/life.h) */
    long seed;
    tool_common co;        /* --variant, --threads, --backend, --device */
    const pl_variant *variant;
} dist_bench_args;

/* One kernel's distributed run on this rank (its own state behind it). */
typedef struct dist_case dist_case;

typedef struct dist_kernel {
    const char *name;         /* "life" */
    const pl_kernel *kernel;  /* its room, for --variant */
    const char *unit;         /* the rate's unit: "cell-updates/s" */
    const char *size_form;    /* "WxH" */
    const char *default_size; /* per rank under --scale weak */
    int periodic;             /* the grid of ranks wraps (a torus) or not (a bounded image) */
    /* The problem's rows and columns (H, W) from size (both dimensions of the kernel's size). */
    pl_status (*parse_size)(const char *text, int64_t *H, int64_t *W);
    /* This rank's share of the H x W problem on g, its inputs made from the seed where they live
     * (no rank holds the whole problem). */
    pl_status (*create)(dist_case **c, const dist_bench_args *a, const pl_dist_grid *g, pl_ctx *ctx, int64_t H,
                        int64_t W);
    /* One run; its times add into *t. */
    pl_status (*run)(dist_case *c, pl_dist_times *t);
    /* This rank's block of the run that ran from the start, checked against the reference:
     * PL_ERR_VERIFY with the first wrong element. *what: the check that ran ("exact", ...). */
    pl_status (*check)(dist_case *c, const char **what);
    /* The messages this rank sends a run and their bytes (for the model). */
    void (*messages)(const dist_case *c, double *msgs, double *bytes);
    const char *(*rung)(const dist_case *c);
    /* What the title line adds about the run ("K 4096, GPU path (NCCL), panels of 4096"); NULL:
     * nothing. */
    const char *(*note)(const dist_case *c);
    /* On the GPU path (on_nccl), the network model of its own exchanges: NCCL between the GPUs
     * of ranks 0 and 1, collective. The host path keeps the frame's MPI ping-pong. */
    pl_dist_model (*gpu_model)(dist_case *c);
    /* One rank alone on the whole H x W problem (the baseline): the same rung, a warm-up, then
     * each of a->repeats runs' seconds into seconds[]. */
    pl_status (*one_rank)(const dist_bench_args *a, pl_ctx *ctx, const char *rung, int64_t H, int64_t W,
                          double *seconds);
    /* The work of one run of the H x W problem, in unit * seconds. */
    double (*work)(const dist_bench_args *a, int64_t H, int64_t W);
    void (*destroy)(dist_case *c);
    /* 1 when this rank's run is on the GPU path (window on its GPU, halos on NCCL). */
    int (*on_nccl)(const dist_case *c);
    /* 1 when this rank's runs overlap the exchange with the interior. */
    int (*overlaps)(const dist_case *c);
} dist_kernel;

extern const dist_kernel dist_bench_life;   /* bench_dist_life.c */
extern const dist_kernel dist_bench_conv2d; /* bench_dist_conv2d.c */
extern const dist_kernel dist_bench_entropy; /* bench_dist_entropy.c */
extern const dist_kernel dist_bench_gemm;    /* bench_dist_gemm.c */
extern const dist_kernel dist_bench_reduce;  /* bench_dist_reduce.c */

/* The input at a global index of the problem, for the seed: every rank makes the part it
 * needs, and the same part whatever the grid (core's splitmix64, seeded by the index). */
static inline uint64_t dist_bench_hash(uint64_t seed, uint64_t index)
{
    pl_rng r;
    pl_rng_seed(&r, seed << 40 ^ index);
    return pl_rng_next(&r);
}

/* The same hash as a float in [-1, 1) (24 bits of it): a matrix's or an image's element. */
static inline float dist_bench_value(uint64_t seed, uint64_t index)
{
    return (float)((double)(dist_bench_hash(seed, index) >> 40) / (double)(1 << 23) - 1.0);
}

/* Whether rung names a CUDA rung of k: its one-rank baseline keeps the data on the GPU. */
static inline int dist_bench_is_cuda(const pl_kernel *k, const char *rung)
{
    const pl_variant *v = rung ? pl_variant_find(k, rung) : NULL;
    return v && v->backend == PL_BACKEND_CUDA;
}

/* A one-rank baseline with the data on the GPU (bench_dist.c): the CUDA rung of k on device
 * operands dev of problem (the kernel's problem struct) on a stream of its own, a warm-up, then
 * repeats runs, each timed to its end into seconds[]. */
pl_status dist_bench_time_device(pl_ctx *ctx, const pl_kernel *k, const char *rung, const void *problem,
                                 void *const *dev, long repeats, double *seconds);

/* The one-GPU baseline with the data resident (issue 24): kernel k's operands of problem
 * (host[i] as operands() describes them) copied to the context's GPU once, then a warm-up and
 * repeats runs of rung there through pl_run_device, each timed from the launch to its end (the
 * wall clock, as the distributed runs are): no host-device copies in the times. */
pl_status dist_bench_one_gpu(pl_ctx *ctx, const pl_kernel *k, const char *rung, const void *problem,
                             void *const *host, long repeats, double *seconds);

/* The distributed bench (pl_cmd_bench under mpirun). Exit status, the same on every rank. */
int bench_dist(int argc, char **argv);

#endif
