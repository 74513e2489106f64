/* life.h: the life room's face. Conway's Game of Life and any Life-like rule
 * (B/S notation) on a W x H grid, a torus (edges wrap) or a bounded plane (dead beyond the
 * edge), for gens generations. One operand, PL_INOUT: data[0] = the grid BIT-PACKED (packed.c):
 * H rows of wpr = (W + 63) / 64 little-endian 64-bit words, cell x of row y at bit x % 64 of
 * word y * wpr + x / 64, the bits past W zero (the harness sees it as H rows of 8 wpr bytes, so
 * cell x is bit x % 8 of byte x / 8). A rung reads the first generation from it and leaves
 * generation gens in it, its padding bits zero. One bit a cell is what lets a 65536^2 grid and
 * its second buffer fit in 2 bits a cell on a device. Exact: compared with the reference for
 * equality, byte for byte. */
#ifndef PL_LIFE_H
#define PL_LIFE_H

#include "parlab.h"
#include "kernels/life/rule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The grid's edges: the torus wraps both ways, the plane neither. The cylinder wraps a row's ends
 * (east meets west) and not its first and last rows: the distributed layer's window on a grid of
 * ranks one column wide over a torus (each rank its own east and west neighbour, so no halo
 * columns), taken by the rungs the kernel's takes hook names (ladder.c), not a user's choice. */
enum { PL_LIFE_TOPO_TORUS = 0, PL_LIFE_TOPO_PLANE = 1, PL_LIFE_TOPO_CYLINDER = 2 };

typedef struct pl_life_problem {
    int64_t W, H;       /* the grid: H rows of W cells */
    int64_t gens;       /* generations per run */
    pl_life_rule rule;  /* birth / survive masks over neighbour counts 0..8 */
    int topology;       /* PL_LIFE_TOPO_TORUS, _PLANE (or _CYLINDER) */
    double density;     /* the soup's density (fill) */
} pl_life_problem;

extern const pl_kernel pl_life_kernel; /* ladder.c */

/* pl_life_variant on a problem struct (api.c), for a caller who built the problem once (the
 * file tool: its rule as parsed, gens set per run): the same checks, then the run. */
pl_status pl_life_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params, const pl_life_problem *p,
                                  uint64_t *bits);

/* A rate no life rung reaches in ctx, in cell-updates a second (api.c): a run over a time
 * limit even at this rate can be refused at once, since no run that could finish in time is. */
double pl_life_rate_ceiling(const pl_ctx *ctx);

/* The host workspace slot (pl_ctx_host_workspace) every life rung keeps its second buffer in
 * (slot 0 is gemm's packed panels, slot 1 gemv's partial sums). */
enum { PL_LIFE_HOST_WS = 2 };

/* The problem parameters (spec.c), by index into pl_pvalues.num and .str (kernels/ladder.h:
 * counting). */
enum { PL_LIFE_PROBLEM_GENS, PL_LIFE_PROBLEM_RULE, PL_LIFE_PROBLEM_DENSITY, PL_LIFE_PROBLEM_TOPOLOGY,
       PL_LIFE_PROBLEM_N_PARAMS };
extern const pl_param_def pl_life_problem_params[];

/* The spec (spec.c). */
pl_status pl_life_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv);
void pl_life_spec_describe(const void *problem, char *buf, size_t n);
pl_status pl_life_spec_operands(const void *problem, pl_tensor *t, int *n);
void pl_life_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed);
pl_status pl_life_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale);
pl_status pl_life_spec_check_sampled(const void *problem, const pl_tensor *t, int n, const pl_tensor *out,
                                     pl_precision prec, uint64_t seed, pl_check_result *res);
double pl_life_spec_cell_updates(const void *problem);
double pl_life_spec_bound(const void *problem, pl_precision prec, const char **why);
double pl_life_spec_ops(const void *problem);
double pl_life_spec_reference_ops(const void *problem);
double pl_life_spec_bytes(const void *problem);
double pl_life_spec_bytes_written(const void *problem);

/* The packed layout (packed.c): words a row; rows y0..y1-1 unpacked to a byte a cell (0/1,
 * ld = W) and packed back (padding bits zeroed). */
int64_t pl_life_words_per_row(int64_t W);
void pl_life_unpack_rows(const uint64_t *bits, uint8_t *cells, int64_t W, int64_t y0, int64_t y1);
void pl_life_pack_rows(const uint8_t *cells, uint64_t *bits, int64_t W, int64_t y0, int64_t y1);
/* A w x h rectangle of cells from (sx, sy) of a packed array (rows src_wpr words apart) to
 * (dx, dy) of another (rows dst_wpr words apart), at any bit offsets; the cells around the
 * rectangle in dst are kept (the distributed layer's halos and blocks, src/distributed/life/life_ranks.c). */
void pl_life_copy_cells(uint64_t *dst, int64_t dst_wpr, int64_t dx, int64_t dy, const uint64_t *src, int64_t src_wpr,
                        int64_t sx, int64_t sy, int64_t w, int64_t h);
/* The same on the device (cuda_packed.cu, CUDA builds only): dst and src device arrays that do
 * not overlap, queued on stream (a cudaStream_t), nothing waited for. PL_ERR_CUDA when the
 * launch fails. */
pl_status pl_life_copy_cells_device(uint64_t *dst, int64_t dst_wpr, int64_t dx, int64_t dy, const uint64_t *src,
                                    int64_t src_wpr, int64_t sx, int64_t sy, int64_t w, int64_t h, void *stream);
/* Up to PL_LIFE_COPY_BATCH such copies (pl_life_copy_cells' arguments each) in one launch: a
 * halo's 8 strips packed, or unpacked, at once. No copy's dst may overlap another's, or any
 * src. One launch instead of 8 a step: on one H200, 8 launches each way cost Life's GPU path
 * 0.69 ms a run of 160 generations against 12.7 ms of compute. */
enum { PL_LIFE_COPY_BATCH = 8 };
typedef struct pl_life_cell_copy {
    uint64_t *dst;
    int64_t dst_wpr, dx, dy;
    const uint64_t *src;
    int64_t src_wpr, sx, sy, w, h;
} pl_life_cell_copy;
pl_status pl_life_copy_cells_device_batch(const pl_life_cell_copy *copies, int n, void *stream);
/* The live cells of the w x h rectangle at (x0, y0) of a packed array (rows wpr words apart),
 * and their box relative to (x0, y0) (x, y, w, h; all 0 when none is alive). */
int64_t pl_life_census(const uint64_t *bits, int64_t wpr, int64_t x0, int64_t y0, int64_t w, int64_t h,
                       int64_t box[4]);
/* The census on the device (cuda_packed.cu, CUDA builds only), queued on stream: into the
 * device array out[5] the population and, as minima (so totals over GPUs reduce with one sum
 * and one min), x0, y0, -x1, -y1 of the live cells (x1, y1 the last live column and row; all
 * INT64_MAX when none is alive), in coordinates offset by (ox, oy) from the rectangle's corner. */
pl_status pl_life_census_device(const uint64_t *bits, int64_t wpr, int64_t x0, int64_t y0, int64_t w, int64_t h,
                                int64_t ox, int64_t oy, int64_t *out, void *stream);

/* One generation of the byte grid src into dst, rows y0..y1-1 only (cpu-naive runs all rows,
 * cpu-threads a band per thread). next[alive][count] is the rule as a table. */
void pl_life_byte_rows(const pl_life_problem *p, const uint8_t next[2][9], const uint8_t *src, uint8_t *dst,
                       int64_t y0, int64_t y1);
/* The byte rungs' two byte grids: the host workspace PL_LIFE_HOST_WS, 2 W H bytes. */
pl_status pl_life_byte_buffers(pl_ctx *ctx, const pl_life_problem *p, uint8_t *bufs[2]);
/* The rule as next[alive][count] (0/1). */
void pl_life_rule_table(const pl_life_rule *rule, uint8_t next[2][9]);

/* The rungs' parameters, by index into pl_run_args.params; each table is defined beside its rung. */
enum { PL_LIFE_CPU_BITPACKED_ISA, PL_LIFE_CPU_BITPACKED_TBLOCK, PL_LIFE_CPU_BITPACKED_N_PARAMS };
enum { PL_LIFE_CUDA_BLOCK, PL_LIFE_CUDA_BLOCK_N_PARAMS }; /* cuda-naive, cuda-shared */
enum { PL_LIFE_CUDA_TUNED_TBLOCK, PL_LIFE_CUDA_TUNED_N_PARAMS };
enum { PL_LIFE_CUDA_REGISTER_TBLOCK, PL_LIFE_CUDA_REGISTER_WARPS, PL_LIFE_CUDA_REGISTER_ROWS,
       PL_LIFE_CUDA_REGISTER_N_PARAMS };
extern const pl_param_def pl_life_cpu_bitpacked_params[]; /* cpu_bitpacked.c */
extern const pl_param_def pl_life_cuda_block_params[];    /* cuda_bytes.cu */
extern const pl_param_def pl_life_cuda_tuned_params[];    /* cuda_bitpacked.cu */
extern const pl_param_def pl_life_cuda_register_params[]; /* cuda_register.cu */

/* The rungs, in ladder order (see ladder.c). */
pl_status pl_life_cpu_naive(const pl_run_args *a);
pl_status pl_life_cpu_threads(const pl_run_args *a);
pl_status pl_life_cpu_bitpacked(const pl_run_args *a);
pl_status pl_life_cpu_sparse(const pl_run_args *a);
pl_status pl_life_cuda_naive(const pl_run_args *a);
pl_status pl_life_cuda_shared(const pl_run_args *a);
pl_status pl_life_cuda_bitpacked(const pl_run_args *a);
pl_status pl_life_cuda_tuned(const pl_run_args *a);
pl_status pl_life_cuda_register(const pl_run_args *a);
/* Their device workspaces (bytes beyond the operand): two byte grids, or a second packed grid. */
double pl_life_cuda_bytes_workspace(const void *problem);
double pl_life_cuda_words_workspace(const void *problem);

/* A user's rung called with the problem's arguments (api.c; pl_kernel.call_user). */
pl_status pl_life_call_user(void (*fn)(void), const pl_run_args *a);

#ifdef __cplusplus
}
#endif
#endif
