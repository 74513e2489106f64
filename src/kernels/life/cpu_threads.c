/* cpu-threads: cpu-naive's generation with the rows split among threads (OpenMP, a static
 * band of rows each), one parallel region for the whole run and a barrier between
 * generations (a row's next generation reads the rows above and below it, which may be
 * another thread's). Still a byte per cell: 2 bytes moved per cell-update, so two cores
 * share one memory bus once the grid leaves the caches.
 * Next rung: 64 cells per word. */
#include "core/core.h"
#include "kernels/life/life.h"

pl_status pl_life_cpu_threads(const pl_run_args *a)
{
    const pl_life_problem *p = a->problem;
    uint64_t *grid = a->data[0];
    uint8_t *bufs[2];
    pl_status s = pl_life_byte_buffers(a->ctx, p, bufs);
    if (s != PL_OK) return s;
    uint8_t next[2][9];
    pl_life_rule_table(&p->rule, next);
#pragma omp parallel num_threads(pl_ctx_threads(a->ctx))
    {
#pragma omp for schedule(static)
        for (int64_t y = 0; y < p->H; y++) pl_life_unpack_rows(grid, bufs[0], p->W, y, y + 1);
        for (int64_t gen = 0; gen < p->gens; gen++) {
            /* the implied barrier of omp for: every row of the next grid is written before
             * the generation after reads it */
#pragma omp for schedule(static)
            for (int64_t y = 0; y < p->H; y++) pl_life_byte_rows(p, next, bufs[gen & 1], bufs[(gen + 1) & 1], y, y + 1);
        }
#pragma omp for schedule(static)
        for (int64_t y = 0; y < p->H; y++) pl_life_pack_rows(bufs[p->gens & 1], grid, p->W, y, y + 1);
    }
    return PL_OK;
}
