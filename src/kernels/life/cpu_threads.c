/* cpu-threads: cpu-naive's generation with the rows split among threads (OpenMP, a static
 * band of rows each), one parallel region for the whole run and a barrier between
 * generations (a row's next generation reads the rows above and below it, which may be
 * another thread's). Still a byte per cell: 2 bytes moved per cell-update, so two cores
 * share one memory bus once the grid leaves the caches.
 * Next rung: 64 cells per word. */
#include "core/core.h"
#include "kernels/life/life.h"

#include <string.h>

pl_status pl_life_cpu_threads(const pl_run_args *a)
{
    const pl_life_problem *p = a->problem;
    uint8_t *grid = a->data[0], *other;
    pl_status s = pl_life_byte_buffer(a->ctx, p, &other);
    if (s != PL_OK) return s;
    uint8_t next[2][9];
    pl_life_rule_table(&p->rule, next);
#pragma omp parallel num_threads(a->ctx->threads)
    {
        const uint8_t *src = grid;
        uint8_t *dst = other;
        for (int64_t gen = 0; gen < p->gens; gen++) {
#pragma omp for schedule(static)
            for (int64_t y = 0; y < p->H; y++) pl_life_byte_rows(p, next, src, dst, y, y + 1);
            /* the implied barrier of omp for: every row of dst is written before the swap */
            const uint8_t *t = src;
            src = dst;
            dst = (uint8_t *)t;
        }
    }
    if (p->gens % 2) memcpy(grid, other, (size_t)p->W * (size_t)p->H);
    return PL_OK;
}
