/* cpu-bitpacked: 64 cells per word, on the packed grid as the harness holds it, with a second
 * packed grid and a zero row in the host workspace PL_LIFE_HOST_WS. A generation builds, for each word, its
 * eight neighbour words (the rows above and below as they are, and every row shifted a cell
 * west and east with the bit carried from the next word), adds them bit-sliced (full and half
 * adders: 64 four-bit counts at once) and applies the rule as boolean logic on the count's
 * bits. The word loops are plain C built for AVX2 and AVX-512 (cpu_bitpacked_gen.h); rows are
 * split among threads, a barrier between generations. Interior words take no test; a row's
 * first and last words take the torus seam or the plane's dead edge.
 * A generation moves 2 bits per cell instead of 2 bytes, and about 2.5 32-bit lane ops per
 * cell. Next rung (later): several generations per pass over memory. */
#include "core/core.h"
#include "kernels/life/cpu_bitpacked.h"
#include "kernels/life/life.h"

#include <string.h>

const pl_param_def pl_life_cpu_bitpacked_params[1] = {
    {"isa", "vector width: auto (AVX-512 where the CPU has it), avx2, avx512", PL_PARAM_CHOICE, NULL, 0, 0, 0, 0,
     pl_isa_choices, 0.0},
};

pl_status pl_life_cpu_bitpacked(const pl_run_args *a)
{
    const pl_life_problem *p = a->problem;
    int avx512 = 0;
    pl_status s = pl_isa_pick(a->params[0], &avx512);
    if (s != PL_OK) return s;
    const life_packed_isa *isa = avx512 ? &pl_life_packed_avx512 : &pl_life_packed_avx2;

    life_packed_gen g;
    memset(&g, 0, sizeof g);
    g.W = p->W;
    g.H = p->H;
    g.wpr = (p->W + 63) / 64;
    g.torus = p->topology == PL_LIFE_TOPO_TORUS;
    g.last_mask = p->W % 64 ? (UINT64_C(1) << (p->W % 64)) - 1 : ~UINT64_C(0);
    life_rule_masks_make(&p->rule, &g.rule);
    const size_t grid_words = (size_t)g.wpr * (size_t)p->H;
    void *ws = NULL;
    if ((s = pl_ctx_host_workspace(a->ctx, PL_LIFE_HOST_WS, (grid_words + (size_t)g.wpr) * 8, &ws)) != PL_OK)
        return s;
    uint64_t *grid = a->data[0];
    uint64_t *bufs[2] = {grid, ws}; /* generation gen is in bufs[gen & 1] */
    uint64_t *zero_row = (uint64_t *)ws + grid_words;
    memset(zero_row, 0, (size_t)g.wpr * 8);
    g.zero_row = zero_row;

#pragma omp parallel num_threads(a->ctx->threads)
    {
        for (int64_t gen = 0; gen < p->gens; gen++) {
#pragma omp for schedule(static)
            for (int64_t y = 0; y < p->H; y++) isa->step_rows(&g, bufs[gen & 1], bufs[(gen + 1) & 1], y, y + 1);
        }
        if (p->gens & 1) { /* the last generation is in the workspace */
#pragma omp for schedule(static)
            for (int64_t y = 0; y < p->H; y++) memcpy(grid + y * g.wpr, bufs[1] + y * g.wpr, (size_t)g.wpr * 8);
        }
    }
    return PL_OK;
}
