/* cpu-naive: the textbook generation. A byte per cell, two byte grids (in the context's host
 * workspace PL_LIFE_HOST_WS: the packed operand is unpacked into the first at the start of the
 * run and the last generation packed back at the end), and for every cell its eight
 * neighbours added up and the rule looked up in a table next[alive][count]. One thread.
 * Edges: interior cells add eight bytes with no test; only the first and last column (and,
 * on the plane, the first and last row) take the slow path that wraps or drops indices.
 * Each generation reads the grid once and writes it once: 2 bytes per cell-update.
 * Next rung: the same rows shared among threads. */
#include "core/core.h"
#include "kernels/life/life.h"


/* The cell at (y, x) with the topology applied: wrapped on the torus, dead off the plane. */
static int cell_wrapped(const pl_life_problem *p, const uint8_t *g, int64_t y, int64_t x)
{
    if (p->topology == PL_LIFE_TOPO_TORUS) {
        y = y < 0 ? y + p->H : y >= p->H ? y - p->H : y;
        x = x < 0 ? x + p->W : x >= p->W ? x - p->W : x;
    } else if (y < 0 || y >= p->H || x < 0 || x >= p->W) {
        return 0;
    }
    return g[y * p->W + x];
}

static uint8_t edge_cell(const pl_life_problem *p, const uint8_t next[2][9], const uint8_t *src, int64_t y,
                         int64_t x)
{
    int count = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if (dy || dx) count += cell_wrapped(p, src, y + dy, x + dx);
    return next[src[y * p->W + x] != 0][count];
}

void pl_life_byte_rows(const pl_life_problem *p, const uint8_t next[2][9], const uint8_t *src, uint8_t *dst,
                       int64_t y0, int64_t y1)
{
    const int64_t W = p->W, H = p->H;
    const int torus = p->topology == PL_LIFE_TOPO_TORUS;
    for (int64_t y = y0; y < y1; y++) {
        uint8_t *out = dst + y * W;
        if (!torus && (y == 0 || y == H - 1)) { /* a plane's edge row: every cell the slow way */
            for (int64_t x = 0; x < W; x++) out[x] = edge_cell(p, next, src, y, x);
            continue;
        }
        const uint8_t *up = src + (y == 0 ? H - 1 : y - 1) * W;
        const uint8_t *mid = src + y * W;
        const uint8_t *down = src + (y == H - 1 ? 0 : y + 1) * W;
        for (int64_t x = 1; x < W - 1; x++) {
            int count = up[x - 1] + up[x] + up[x + 1] + mid[x - 1] + mid[x + 1] + down[x - 1] + down[x] + down[x + 1];
            out[x] = next[mid[x]][count];
        }
        out[0] = edge_cell(p, next, src, y, 0);
        if (W > 1) out[W - 1] = edge_cell(p, next, src, y, W - 1);
    }
}

/* The two byte grids the run's generations alternate between. */
pl_status pl_life_byte_buffers(pl_ctx *ctx, const pl_life_problem *p, uint8_t *bufs[2])
{
    const size_t cells = (size_t)p->W * (size_t)p->H;
    void *ws = NULL;
    pl_status s = pl_ctx_host_workspace(ctx, PL_LIFE_HOST_WS, 2 * cells, &ws);
    bufs[0] = ws;
    bufs[1] = ws ? (uint8_t *)ws + cells : NULL;
    return s;
}

pl_status pl_life_cpu_naive(const pl_run_args *a)
{
    const pl_life_problem *p = a->problem;
    uint64_t *grid = a->data[0];
    uint8_t *bufs[2];
    pl_status s = pl_life_byte_buffers(a->ctx, p, bufs);
    if (s != PL_OK) return s;
    uint8_t next[2][9];
    pl_life_rule_table(&p->rule, next);
    pl_life_unpack_rows(grid, bufs[0], p->W, 0, p->H);
    for (int64_t gen = 0; gen < p->gens; gen++)
        pl_life_byte_rows(p, next, bufs[gen & 1], bufs[(gen + 1) & 1], 0, p->H);
    pl_life_pack_rows(bufs[p->gens & 1], grid, p->W, 0, p->H);
    return PL_OK;
}
