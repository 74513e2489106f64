/* bench_ranks.h: `parlab bench KERNEL ...` under mpirun, the floor's side: the kernels that run
 * distributed (one table, bench_ranks.c), and the run's phases: lay the problem over the grid of
 * ranks (weak scaling: each rank's block keeps the given size; strong: the given size is the
 * whole problem), measure the network model, create each rank's share, run once and have each
 * rank check its own block against its kernel's spec, time the repeats (the slowest rank's
 * time), time every rank streaming the bytes a run at once (the shared-bandwidth bound, for a
 * kernel that says them, on the host path), time the one-rank baseline. Each phase ends where
 * every rank agrees (the fault rule on a status, pl_dist_agree_status). The command parses,
 * calls pl_dist_bench_run and prints the table from the result. A kernel that runs
 * distributed plugs in as one row of the table: a pl_dist_bench_kernel whose functions live in
 * its folder's <kernel>_bench.c. */
#ifndef PL_DIST_BENCH_RANKS_H
#define PL_DIST_BENCH_RANKS_H

#include "core/core.h"
#include "distributed/transport/distributed.h"

/* What the command line asks of a distributed bench. */
typedef struct pl_dist_bench_args {
    const char *size_text; /* the kernel's SIZE (a named size resolved) */
    int weak;              /* --scale weak (1) or strong (0) */
    long gens;             /* Life's generations a run (--gens) */
    long warmup;           /* untimed runs before the repeats, after the checked first run */
    long repeats;          /* timed runs (--repeats) */
    long halo;             /* Life's halo depth (--halo; 0: the default) */
    int overlap;           /* --overlap: PL_DIST_OVERLAP_* (life/life_ranks.h) */
    long seed;
    const pl_variant *variant; /* --variant, NULL: each rank's best */
} pl_dist_bench_args;

/* One kernel's distributed run on this rank (its own state behind it). */
typedef struct pl_dist_bench_case pl_dist_bench_case;

typedef struct pl_dist_bench_kernel {
    const char *name;         /* "life" */
    const pl_kernel *kernel;  /* its room, for --variant and its spec */
    const char *unit;         /* the rate's unit: "cell-updates/s" */
    const char *size_form;    /* "WxH" */
    const char *default_size; /* per rank under --scale weak */
    int periodic;             /* the grid of ranks wraps (a torus) or not (a bounded image) */
    int takes_gens;           /* a run is --gens generations (the title and the JSON say how many) */
    /* The problem's rows and columns (H, W) from size (both dimensions of the kernel's size);
     * NULL: a 2D size read as size_form says ("HxW", "WxH", or N for a square). */
    pl_status (*parse_size)(const char *text, int64_t *H, int64_t *W);
    /* The grid of ranks for the H x W problem (collective); NULL: pl_dist_grid_create's, a
     * torus where periodic. */
    pl_status (*grid_create)(pl_dist_grid *g, const pl_dist_bench_args *a, pl_ctx *ctx, int64_t H, int64_t W);
    /* This rank's share of the H x W problem on g, its inputs made from the seed where they live
     * (no rank holds the whole problem). */
    pl_status (*create)(pl_dist_bench_case **c, const pl_dist_bench_args *a, const pl_dist_grid *g, pl_ctx *ctx,
                        int64_t H, int64_t W);
    /* One run; its times add into *t. */
    pl_status (*run)(pl_dist_bench_case *c, pl_dist_times *t);
    /* This rank's block of the run that ran from the start, checked against the kernel's spec:
     * PL_ERR_VERIFY with the first wrong element. *what: the check that ran ("exact", ...). */
    pl_status (*check)(pl_dist_bench_case *c, const char **what);
    /* The messages this rank sends a run and their bytes (for the model). */
    void (*messages)(const pl_dist_bench_case *c, double *msgs, double *bytes);
    const char *(*rung)(const pl_dist_bench_case *c);
    /* What the title line adds about the run ("K 4096, GPU path (NCCL), panels of 4096"); NULL:
     * nothing. */
    const char *(*note)(const pl_dist_bench_case *c);
    /* On the GPU path (on_nccl), the network model of its own exchanges: NCCL between the GPUs
     * of ranks 0 and 1, collective. The host path keeps the frame's MPI ping-pong. */
    pl_dist_model (*gpu_model)(pl_dist_bench_case *c);
    /* One rank alone on the whole H x W problem (the baseline): the same rung, timed as
     * pl_dist_bench_time says, each of a->repeats runs' seconds into seconds[]. */
    pl_status (*one_rank)(const pl_dist_bench_args *a, pl_ctx *ctx, const char *rung, int64_t H, int64_t W,
                          double *seconds);
    /* The work of one run of the H x W problem, in unit * seconds. */
    double (*work)(const pl_dist_bench_args *a, int64_t H, int64_t W);
    void (*destroy)(pl_dist_bench_case *c);
    /* 1 when this rank's run is on the GPU path (window on its GPU, halos on NCCL). */
    int (*on_nccl)(const pl_dist_bench_case *c);
    /* 1 when this rank's runs overlap the exchange with the interior. */
    int (*overlaps)(const pl_dist_bench_case *c);
    /* The bytes one run of this rank must move between memory and the core at least: *read,
     * each input element once (a stencil's window: its block and halo), *written, each output
     * element once. The host path's memory bound streams them (bench_ranks.c). NULL: memory
     * is not what limits the kernel, and its table has no memory bound. */
    void (*bytes)(const pl_dist_bench_case *c, double *read, double *written);
} pl_dist_bench_kernel;

/* The kernels that run distributed, by name; NULL when name runs on one process only. names
 * (n bytes): "life, conv2d, ..." for the message that says so. */
const pl_dist_bench_kernel *pl_dist_bench_find(const char *name);
void pl_dist_bench_names(char *names, size_t n);

/* What one bench measured, for the table and the JSON. */
typedef struct pl_dist_bench_result {
    int ranks, dims[2];
    int64_t H, W, bh, bw;           /* the problem, and the baseline's (a block, or the whole) */
    char rung[64], note[128];       /* copies of the case's */
    const char *check;              /* what the check was (a constant text) */
    int nccl_model;                 /* the model measured on NCCL between the GPUs */
    double seconds, baseline;       /* the slowest rank's median, one rank's median */
    double rate, efficiency;
    /* Weak scaling on more than one rank: every rank alone on its own baseline problem at once
     * (the slowest rank's median; 0 when not measured), and the efficiency against it. */
    double crowd, crowd_efficiency;
    pl_dist_times slowest;          /* a run's, each part the largest over the ranks */
    double model_exchange, msgs, bytes;
    pl_dist_model model;
    int threads;
    int nccl;                       /* the GPU path ran on every rank */
    int overlapped;                 /* some rank overlapped the exchange with its interior */
    /* The shared-bandwidth bound (bench_ranks.c, time_memory), measured where the kernel says
     * its bytes (k->bytes) and the run is on the host (no GPU rung, no NCCL); has_bound 0: none. */
    int has_bound;
    double run_read, run_written;   /* the bytes a run, each the largest over the ranks */
    double memory;                  /* t_mem(P): every rank streaming its bytes at once, slowest rank */
    double bound;                   /* the larger of the rung's own time (the baseline's) and memory */
    const char *limit;              /* which of them: "rung" or "memory" */
    double bound_efficiency;        /* bound / seconds */
} pl_dist_bench_result;

/* The bench of kernel k on the ranks, every phase agreed (a failure on any rank is the same
 * status on every rank, its message on rank 0). ctx: this rank's context. Collective. *r is
 * complete on rank 0 (rate and efficiency included) when PL_OK. */
pl_status pl_dist_bench_run(const pl_dist_bench_kernel *k, const pl_dist_bench_args *a, pl_ctx *ctx,
                            pl_dist_bench_result *r);

/* ---- what the kernels' benches share (bench_ranks.c) */

/* The input at a global index of the problem, for the seed: every rank makes the part it
 * needs, and the same part whatever the grid (core's splitmix64, seeded by the index). */
static inline uint64_t pl_dist_bench_hash(uint64_t seed, uint64_t index)
{
    pl_rng r;
    pl_rng_seed(&r, seed << 40 ^ index);
    return pl_rng_next(&r);
}

/* The same hash as a float in [-1, 1) (24 bits of it): a matrix's or an image's element. */
static inline float pl_dist_bench_value(uint64_t seed, uint64_t index)
{
    return (float)((double)(pl_dist_bench_hash(seed, index) >> 40) / (double)(1 << 23) - 1.0);
}

/* The cells a stencil of radius r reads for block b of an H x W image at least: the block and
 * r around it, clipped to the image (past its edge a border rule makes the values, nothing is
 * read from memory). For a kernel's bytes a run (pl_dist_bench_kernel.bytes). */
static inline double pl_dist_bench_window_cells(pl_dist_block b, int64_t r, int64_t H, int64_t W)
{
    const int64_t y0 = b.y0 > r ? b.y0 - r : 0, y1 = b.y1 + r < H ? b.y1 + r : H;
    const int64_t x0 = b.x0 > r ? b.x0 - r : 0, x1 = b.x1 + r < W ? b.x1 + r : W;
    return (double)(y1 - y0) * (double)(x1 - x0);
}

/* Whether rung names a CUDA rung of k: its one-rank baseline keeps the data on the GPU. */
static inline int pl_dist_bench_is_cuda(const pl_kernel *k, const char *rung)
{
    const pl_variant *v = rung ? pl_variant_find(k, rung) : NULL;
    return v && v->backend == PL_BACKEND_CUDA;
}

/* The kernel's own float64 reference (its spec, k->reference) of problem, whose operands are
 * host[i] as k->operands describes them: output operand out's reference values into ref and the
 * magnitudes its element bound multiplies into scale (one each an element of it, row-major).
 * A rank's check builds the problem of the part it checks (its block and what that reads). */
pl_status pl_dist_bench_reference(const pl_kernel *k, const void *problem, void *const *host, int out, double *ref,
                                  double *scale);

/* A one-rank baseline's runs: call(user) once untimed (the warm-up, a->warmup of them), then
 * a->repeats runs timed by the harness (pl_time_calls) into seconds[]. */
pl_status pl_dist_bench_time(const pl_dist_bench_args *a, pl_status (*call)(void *user), void *user,
                             double *seconds);

/* A one-rank baseline with the data on the GPU: the CUDA rung of k on device operands dev of
 * problem (the kernel's problem struct) on a stream of its own, timed as pl_dist_bench_time,
 * each run to its end. */
pl_status pl_dist_bench_time_device(const pl_dist_bench_args *a, pl_ctx *ctx, const pl_kernel *k, const char *rung,
                                    const void *problem, void *const *dev, double *seconds);

/* The one-GPU baseline with the data resident: kernel k's operands of problem (host[i] as
 * operands() describes them) copied to the context's GPU once, then timed there as
 * pl_dist_bench_time_device (pl_run_device, from the launch to its end, the wall clock as the
 * distributed runs are): no host-device copies in the times. */
pl_status pl_dist_bench_one_gpu(const pl_dist_bench_args *a, pl_ctx *ctx, const pl_kernel *k, const char *rung,
                                const void *problem, void *const *host, double *seconds);

#endif
