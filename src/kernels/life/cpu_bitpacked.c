/* cpu-bitpacked: 64 cells per word, on the packed grid as the harness holds it, with a second
 * packed grid, a zero row and each thread's rings in the host workspace PL_LIFE_HOST_WS. A
 * generation builds, for each word, its eight neighbour words (the rows above and below as they
 * are, and every row shifted a cell west and east with the bit carried from the next word), adds
 * them bit-sliced (full and half adders: 64 four-bit counts at once, bitslice.h) and applies the
 * rule as boolean logic on the count's bits. The word loops are plain C built for AVX2 and
 * AVX-512 (cpu_bitpacked_gen.h). Interior words take no test; a row's first and last words take
 * the torus seam or the plane's dead edge (by vector columns where rows are whole words).
 * A generation moves 2 bits per cell instead of 2 bytes, and about 2.5 32-bit lane ops per
 * cell; one pass a generation leaves a large grid waiting on memory, so a band of rows is taken
 * through tblock generations per pass (temporal blocking: step_band's wavefront), a barrier
 * between passes: the grid crosses memory once per tblock generations. The rows are cut into
 * about BANDS_PER_THREAD bands a thread, which the threads take as they finish each pass (a core
 * that runs slower takes fewer, instead of holding the others at the barrier). */
#include "core/core.h"
#include "kernels/life/cpu_bitpacked.h"
#include "kernels/life/life.h"
#include "kernels/ladder.h"

#include <omp.h>
#include <string.h>

const pl_param_def pl_life_cpu_bitpacked_params[] = {
    [PL_LIFE_CPU_BITPACKED_ISA] =
        {.name = "isa", .help = "vector width: auto (AVX-512 where the CPU has it), avx2, avx512",
         .kind = PL_PARAM_CHOICE, .choices = pl_isa_choices, .def = 0.0},
    [PL_LIFE_CPU_BITPACKED_TBLOCK] =
        {.name = "tblock", .help = "generations per pass over the grid (temporal blocking; 1: a pass a generation)",
         .kind = PL_PARAM_RANGE, .min = 1, .max = 64, .step = 1, .def = 16.0},
};
PL_CHECK_COUNT(pl_life_cpu_bitpacked_params, PL_LIFE_CPU_BITPACKED_N_PARAMS);

/* Bands a thread, and their least height: a band's wavefront recomputes about tblock rows at
 * each edge, tblock / height of its work (16 / 2048 at 16384 rows on 2 threads: under 1%). */
enum { BANDS_PER_THREAD = 4, MIN_BAND_ROWS = 256 };

pl_status pl_life_cpu_bitpacked(const pl_run_args *a)
{
    const pl_life_problem *p = a->problem;
    int avx512 = 0;
    pl_status s = pl_isa_pick(a->params[PL_LIFE_CPU_BITPACKED_ISA], &avx512);
    if (s != PL_OK) return s;
    const life_packed_isa *isa = avx512 ? &pl_life_packed_avx512 : &pl_life_packed_avx2;

    life_packed_gen g;
    memset(&g, 0, sizeof g);
    g.W = p->W;
    g.H = p->H;
    g.wpr = (p->W + 63) / 64;
    g.wrap_cols = p->topology != PL_LIFE_TOPO_PLANE; /* torus, cylinder */
    g.wrap_rows = p->topology == PL_LIFE_TOPO_TORUS;
    g.last_mask = p->W % 64 ? (UINT64_C(1) << (p->W % 64)) - 1 : ~UINT64_C(0);
    life_rule_masks_make(&p->rule, &g.rule);
    g.conway = life_rule_is_conway(&p->rule);
    const int T = (int)a->params[PL_LIFE_CPU_BITPACKED_TBLOCK];
    const int threads = pl_ctx_threads(a->ctx) > 0 ? pl_ctx_threads(a->ctx) : 1;
    const size_t grid_words = (size_t)g.wpr * (size_t)p->H, ring_words = (size_t)T * LIFE_RING_ROWS * (size_t)LIFE_RING_STRIDE(g.wpr);
    void *ws = NULL;
    if ((s = pl_ctx_host_workspace(a->ctx, PL_LIFE_HOST_WS,
                                   (grid_words + (size_t)g.wpr + (size_t)threads * ring_words) * 8, &ws)) != PL_OK)
        return s;
    uint64_t *grid = a->data[0];
    uint64_t *bufs[2] = {grid, ws}; /* after each pass the grid is in bufs[pass & 1] */
    uint64_t *zero_row = (uint64_t *)ws + grid_words;
    memset(zero_row, 0, (size_t)g.wpr * 8);
    g.zero_row = zero_row;
    uint64_t *rings = zero_row + g.wpr;
    const int64_t passes = T > 1 ? (p->gens + T - 1) / T : p->gens;
    const int64_t bands = pl_dynamic_bands(p->H, threads, BANDS_PER_THREAD, MIN_BAND_ROWS);

#pragma omp parallel num_threads(threads)
    {
        uint64_t *ring = rings + (size_t)omp_get_thread_num() * ring_words;
        for (int64_t pass = 0; pass < passes; pass++) {
            const uint64_t *src = bufs[pass & 1];
            uint64_t *dst = bufs[(pass + 1) & 1];
            const int64_t left = p->gens - pass * T;
#pragma omp for schedule(dynamic, 1) /* its implicit barrier ends the pass */
            for (int64_t b = 0; b < bands; b++) {
                const int64_t y0 = p->H * b / bands, y1 = p->H * (b + 1) / bands;
                if (y1 <= y0) continue;
                if (T == 1) isa->step_rows(&g, src, dst, y0, y1);
                else isa->step_band(&g, src, dst, y0, y1, left < T ? (int)left : T, ring);
            }
        }
        if (passes & 1) { /* the last pass wrote the workspace */
#pragma omp for schedule(static)
            for (int64_t y = 0; y < p->H; y++) memcpy(grid + y * g.wpr, bufs[1] + y * g.wpr, (size_t)g.wpr * 8);
        }
    }
    return PL_OK;
}
