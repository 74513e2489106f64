/* cpu-blocked: the matrix in tile x tile cache tiles, threads over the tiles. Inside a tile,
 * 8x8 (AVX2) or 16x16 (AVX-512) blocks are transposed in registers: whole vectors are read
 * from rows of A and written to rows of B, so every cache line on both sides is used whole
 * while the tile's lines are still in L1/L2. The ragged right and bottom strips of a tile
 * (sizes that are not multiples of the width) are copied element by element. Where B is
 * larger than the caches and its rows are aligned, the blocks are written with streaming
 * (non-temporal) stores: no read-for-ownership of B's lines, a third less memory traffic. */
#include "core/core.h"
#include "kernels/transpose/cpu_blocked.h"
#include "kernels/transpose/transpose.h"
#include "kernels/ladder.h"

static const int64_t tiles[] = {16, 32, 64, 128, 256};
enum { STORE_AUTO, STORE_CACHED, STORE_STREAM };
static const char *const store_choices[] = {
    [STORE_AUTO] = "auto", [STORE_CACHED] = "cached", [STORE_STREAM] = "stream", NULL};
const pl_param_def pl_transpose_cpu_blocked_params[] = {
    [PL_TRANSPOSE_CPU_BLOCKED_TILE] =
        {.name = "tile", .help = "cache tile edge, in elements",
         .kind = PL_PARAM_LIST, .values = tiles, .n_values = PL_COUNT(tiles), .def = 64},
    [PL_TRANSPOSE_CPU_BLOCKED_ISA] = PL_ISA_PARAM,
    [PL_TRANSPOSE_CPU_BLOCKED_STORE] =
        {.name = "store", .help = "auto: streaming stores when B is over 32 MiB; cached: plain stores; stream: "
                                  "streaming stores (both where B's rows are vector-aligned, else plain)",
         .kind = PL_PARAM_CHOICE, .choices = store_choices, .def = STORE_AUTO},
};
PL_CHECK_COUNT(pl_transpose_cpu_blocked_params, PL_TRANSPOSE_CPU_BLOCKED_N_PARAMS);

static pl_status pick_isa(int64_t choice, const transpose_simd_isa **isa)
{
    int wide;
    pl_status s = pl_isa_pick(choice, &wide);
    *isa = wide ? &pl_transpose_simd_avx512 : &pl_transpose_simd_avx2;
    return s;
}

static void scalar_region(const pl_transpose_problem *p, const float *A, float *B, int64_t i0, int64_t i1,
                          int64_t j0, int64_t j1)
{
    for (int64_t j = j0; j < j1; j++)
        for (int64_t i = i0; i < i1; i++) B[j * p->ldb + i] = A[i * p->lda + j];
}

pl_status pl_transpose_cpu_blocked(const pl_run_args *a)
{
    const pl_transpose_problem *p = a->problem;
    const float *A = a->data[0];
    float *B = a->data[1];
    const int64_t ts = a->params[PL_TRANSPOSE_CPU_BLOCKED_TILE];
    const transpose_simd_isa *isa = NULL;
    pl_status s = pick_isa(a->params[PL_TRANSPOSE_CPU_BLOCKED_ISA], &isa);
    if (s != PL_OK) return s;
    const int64_t w = isa->width, ti = (p->M + ts - 1) / ts, tj = (p->N + ts - 1) / ts;
    const int aligned = (uintptr_t)B % (4 * w) == 0 && p->ldb % w == 0;
    const double b_bytes = 4.0 * (double)p->N * (double)p->M;
    const int64_t store = a->params[PL_TRANSPOSE_CPU_BLOCKED_STORE];
    const int stream = aligned && (store == STORE_STREAM || (store == STORE_AUTO && b_bytes > 32.0 * 1024 * 1024));
    void (*blocks)(const float *, int64_t, float *, int64_t, int64_t, int64_t) =
        stream ? isa->full_blocks_stream : isa->full_blocks;
    /* Tiles handed out a few at a time: a thread held up (a busy core) does not hold the
     * others at the end as a static split would. Below 4 MiB one thread: waking the others
     * (and, on a busy machine, waiting at the join for one that was not scheduled) costs more
     * than the copy. */
    const int par = (double)p->M * (double)p->N > 1048576.0;
#pragma omp parallel for num_threads(pl_ctx_threads(a->ctx)) schedule(dynamic, 4) if (par)
    for (int64_t t = 0; t < ti * tj; t++) {
        int64_t i0 = (t / tj) * ts, j0 = (t % tj) * ts;
        int64_t i1 = i0 + ts < p->M ? i0 + ts : p->M, j1 = j0 + ts < p->N ? j0 + ts : p->N;
        int64_t rows = (i1 - i0) / w * w, cols = (j1 - j0) / w * w;
        if (rows && cols) blocks(A + i0 * p->lda + j0, p->lda, B + j0 * p->ldb + i0, p->ldb, rows, cols);
        scalar_region(p, A, B, i0, i0 + rows, j0 + cols, j1); /* right strip */
        scalar_region(p, A, B, i0 + rows, i1, j0, j1);        /* bottom strip */
    }
    return PL_OK;
}
