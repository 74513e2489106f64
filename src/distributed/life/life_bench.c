/* life_bench.c: Life in the distributed bench (bench_ranks.h): a W x H torus of B3/S23 on
 * the ranks (life_ranks.h), each rank's block bit-packed, the best local rung (or --variant).
 * Inputs: a soup of density 1/2 where each cell is a hash of the seed and its global position,
 * so every rank makes its own block (and any region it needs) without the whole grid.
 * Check: each rank runs the reference rung (cpu-naive, a byte a cell) on its block's light cone
 * (the block grown by gens cells each side, taken from the torus around it) as a plane, and
 * compares the block cell by cell: exact. Where that cone is too costly (over 4e9
 * cell-updates) it checks four 32 x 32 squares of the block by their cones instead, and says so. */
#include "distributed/bench/bench_ranks.h"

#include "core/core.h"
#include "distributed/life/life_ranks.h"
#include "kernels/life/life.h"

#include <stdlib.h>
#include <string.h>

enum { CHECK_SQUARE = 32, CHECK_SQUARES = 4 };
static const double check_most = 4e9; /* cell-updates a rank's check may take */

struct pl_dist_bench_case {
    const pl_dist_grid *g;
    pl_ctx *ctx;
    pl_life_problem p;
    pl_dist_life *l;
    const char *rung;
    int depth;
    uint64_t seed;
    pl_dist_block b;
};

/* Cell (y, x) of the torus's first generation (any integers: taken modulo H and W). */
static int soup_cell(const pl_dist_bench_case *c, int64_t y, int64_t x)
{
    const int64_t H = c->p.H, W = c->p.W;
    y = ((y % H) + H) % H, x = ((x % W) + W) % W;
    return (int)(pl_dist_bench_hash(c->seed, (uint64_t)(y * W + x)) >> 63);
}

/* The h x w cells from (y0, x0) of the first generation, packed (rows wpr words apart). */
static void soup_rect(const pl_dist_bench_case *c, int64_t y0, int64_t x0, int64_t h, int64_t w, uint64_t *bits, int64_t wpr)
{
    memset(bits, 0, (size_t)(h * wpr) * 8);
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++)
            if (soup_cell(c, y0 + y, x0 + x)) bits[y * wpr + x / 64] |= UINT64_C(1) << (x % 64);
}

/* Bands of rows on the CPU (pl_dist_life_grid_create). */
static pl_status life_grid(pl_dist_grid *g, const pl_dist_bench_args *a, pl_ctx *ctx, int64_t H, int64_t W)
{
    const pl_life_problem p = {.W = W, .H = H, .topology = PL_LIFE_TOPO_TORUS};
    const int cuda = a->variant ? a->variant->backend == PL_BACKEND_CUDA : pl_ctx_backend(ctx) == PL_BACKEND_CUDA;
    return pl_dist_life_grid_create(g, &p, a->variant, cuda);
}

static pl_status life_create(pl_dist_bench_case **out, const pl_dist_bench_args *a, const pl_dist_grid *g, pl_ctx *ctx,
                             int64_t H, int64_t W)
{
    pl_dist_bench_case *c = calloc(1, sizeof *c);
    if (!(*out = c)) return pl_fail(PL_ERR_NOMEM, "life: out of memory");
    c->g = g, c->ctx = ctx, c->seed = (uint64_t)a->seed;
    c->p.W = W, c->p.H = H, c->p.gens = a->gens, c->p.topology = PL_LIFE_TOPO_TORUS, c->p.density = 0.5;
    pl_life_rule_parse("B3/S23", &c->p.rule);
    const int64_t most = pl_dist_life_max_depth(g, &c->p);
    if (a->halo > most)
        return pl_fail(PL_ERR_ARG, "life: --halo %ld: the smallest block of the %lldx%lld torus on %d ranks allows "
                       "at most %lld", a->halo, (long long)W, (long long)H, g->size, (long long)most);
    c->b = pl_dist_block_of(g, H, W);
    const int64_t h = c->b.y1 - c->b.y0, w = c->b.x1 - c->b.x0, wpr = pl_life_words_per_row(w);
    const int cuda = a->variant ? a->variant->backend == PL_BACKEND_CUDA : pl_ctx_backend(ctx) == PL_BACKEND_CUDA;
    c->depth = (int)(a->halo ? a->halo : pl_dist_life_default_depth(cuda, most));
    c->rung = a->variant ? a->variant->name : pl_best_variant(ctx, &pl_life_kernel, &(pl_life_problem){.W = w + 2 * c->depth, .H = h + 2 * c->depth});
    if (!c->rung) return pl_fail(PL_ERR_UNSUPPORTED, "life: no life variant can run here");
    pl_status s = pl_dist_life_create(&c->l, g, ctx, c->rung, NULL, &c->p, c->depth, a->overlap);
    if (s != PL_OK) return s;
    uint64_t *block = pl_alloc((size_t)(h * wpr) * 8);
    if (!block) return pl_fail(PL_ERR_NOMEM, "life: cannot allocate this rank's %lldx%lld block", (long long)w,
                               (long long)h);
    soup_rect(c, c->b.y0, c->b.x0, h, w, block, wpr);
    s = pl_dist_life_set_block(c->l, block, wpr);
    pl_free(block);
    return s;
}

static pl_status life_run(pl_dist_bench_case *c, pl_dist_times *t)
{
    const pl_dist_times before = pl_dist_life_times(c->l);
    const pl_status s = pl_dist_life_run(c->l, c->p.gens);
    const pl_dist_times after = pl_dist_life_times(c->l);
    t->compute += after.compute - before.compute;
    t->exchange += after.exchange - before.exchange;
    t->wait += after.wait - before.wait;
    return s;
}

/* The h x w cells at (y0, x0) of the block (block coordinates) after gens generations, by the
 * reference rung on their light cone; PL_ERR_VERIFY at the first cell that differs from got. */
static pl_status check_rect(pl_dist_bench_case *c, pl_ctx *cpu, const uint64_t *got, int64_t got_wpr, int64_t y0, int64_t x0,
                            int64_t h, int64_t w)
{
    const int64_t G = c->p.gens, ch = h + 2 * G, cw = w + 2 * G, wpr = pl_life_words_per_row(cw);
    uint64_t *cone = pl_alloc((size_t)(ch * wpr) * 8);
    if (!cone) return pl_fail(PL_ERR_NOMEM, "life: cannot allocate the check's %lldx%lld cone", (long long)cw,
                              (long long)ch);
    soup_rect(c, c->b.y0 + y0 - G, c->b.x0 + x0 - G, ch, cw, cone, wpr);
    pl_life_problem p = c->p;
    p.W = cw, p.H = ch, p.topology = PL_LIFE_TOPO_PLANE;
    pl_status s = G > 0 ? pl_life_variant_problem(cpu, "cpu-naive", NULL, &p, cone) : PL_OK;
    for (int64_t y = 0; y < h && s == PL_OK; y++)
        for (int64_t x = 0; x < w; x++) {
            const int want = (int)(cone[(G + y) * wpr + (G + x) / 64] >> ((G + x) % 64) & 1);
            const int have = (int)(got[(y0 + y) * got_wpr + (x0 + x) / 64] >> ((x0 + x) % 64) & 1);
            if (want != have) {
                s = pl_fail(PL_ERR_VERIFY, "life: rank %d: cell (%lld, %lld) after %lld generations is %d, the "
                            "reference says %d", c->g->rank, (long long)(c->b.x0 + x0 + x),
                            (long long)(c->b.y0 + y0 + y), (long long)G, have, want);
                break;
            }
        }
    pl_free(cone);
    return s;
}

static pl_status life_check(pl_dist_bench_case *c, const char **what)
{
    const int64_t h = c->b.y1 - c->b.y0, w = c->b.x1 - c->b.x0, wpr = pl_life_words_per_row(w), G = c->p.gens;
    uint64_t *got = pl_alloc((size_t)(h * wpr) * 8);
    pl_ctx *cpu = NULL;
    pl_status s = got ? pl_ctx_create(&cpu, PL_BACKEND_CPU, 0, pl_ctx_threads(c->ctx))
                      : pl_fail(PL_ERR_NOMEM, "life: cannot allocate the check");
    if (s == PL_OK) s = pl_dist_life_get_block(c->l, got, wpr);
    if (s == PL_OK) {
        const double full = (double)(h + 2 * G) * (double)(w + 2 * G) * (double)G;
        const double square = (double)(CHECK_SQUARE + 2 * G) * (CHECK_SQUARE + 2 * G) * (double)G * CHECK_SQUARES;
        if (full <= check_most) {
            *what = "exact, every cell (cpu-naive on each block's light cone)";
            s = check_rect(c, cpu, got, wpr, 0, 0, h, w);
        } else if (square <= check_most && h >= CHECK_SQUARE && w >= CHECK_SQUARE) {
            *what = "exact, four 32x32 squares a rank (cpu-naive on their light cones)";
            pl_rng r;
            pl_rng_seed(&r, c->seed + (uint64_t)c->g->rank);
            for (int i = 0; i < CHECK_SQUARES && s == PL_OK; i++) {
                const int64_t y0 = (int64_t)(pl_rng_next(&r) % (uint64_t)(h - CHECK_SQUARE + 1));
                const int64_t x0 = (int64_t)(pl_rng_next(&r) % (uint64_t)(w - CHECK_SQUARE + 1));
                s = check_rect(c, cpu, got, wpr, y0, x0, CHECK_SQUARE, CHECK_SQUARE);
            }
        } else {
            *what = "not checked (the light cone of so many generations is too costly; give fewer --gens)";
        }
    }
    pl_ctx_destroy(cpu);
    pl_free(got);
    return s;
}

/* Per step of depth generations, one message to each neighbour the window trades with: a side's
 * strip is depth rows (or columns) of the block, a corner depth x depth cells, each row packed in
 * whole words (none east or west where the rung wraps the rows' ends). */
static void life_messages(const pl_dist_bench_case *c, double *msgs, double *bytes)
{
    pl_dist_life_messages(c->l, c->p.gens, msgs, bytes);
}

static const char *life_rung(const pl_dist_bench_case *c) { return c->rung; }
static pl_dist_model life_gpu_model(pl_dist_bench_case *c) { return pl_dist_life_gpu_model(c->l); }

/* One run of the one-rank baseline (the grid advances in place). */
typedef struct life_call {
    pl_ctx *ctx;
    const char *rung;
    const pl_life_problem *p;
    uint64_t *grid;
} life_call;

static pl_status life_call_run(void *user)
{
    const life_call *l = user;
    return pl_life_variant_problem(l->ctx, l->rung, NULL, l->p, l->grid);
}

static pl_status life_one_rank(const pl_dist_bench_args *a, pl_ctx *ctx, const char *rung, int64_t H, int64_t W,
                               double *seconds)
{
    pl_dist_bench_case c = {.seed = (uint64_t)a->seed};
    c.p.W = W, c.p.H = H, c.p.gens = a->gens, c.p.topology = PL_LIFE_TOPO_TORUS, c.p.density = 0.5;
    pl_life_rule_parse("B3/S23", &c.p.rule);
    const int64_t wpr = pl_life_words_per_row(W);
    uint64_t *grid = pl_alloc((size_t)(H * wpr) * 8);
    pl_status s = grid ? PL_OK : pl_fail(PL_ERR_NOMEM, "life: cannot allocate the one-rank %lldx%lld grid",
                                              (long long)W, (long long)H);
    void *host[1] = {grid};
    const int gpu = pl_dist_bench_is_cuda(&pl_life_kernel, rung);
    if (s == PL_OK) soup_rect(&c, 0, 0, H, W, grid, wpr);
    if (s == PL_OK && gpu) /* the grid resident, as on the GPU path */
        s = pl_dist_bench_one_gpu(a, ctx, &pl_life_kernel, rung, &c.p, host, seconds);
    else if (s == PL_OK) {
        life_call l = {ctx, rung, &c.p, grid};
        s = pl_dist_bench_time(a, life_call_run, &l, seconds);
    }
    pl_free(grid);
    return s;
}

static double life_work(const pl_dist_bench_args *a, int64_t H, int64_t W) { return (double)H * (double)W * a->gens; }

static int life_on_nccl(const pl_dist_bench_case *c) { return pl_dist_life_on_nccl(c->l); }

static int life_overlaps(const pl_dist_bench_case *c) { return pl_dist_life_overlaps(c->l); }

static void life_destroy(pl_dist_bench_case *c)
{
    if (!c) return;
    pl_dist_life_destroy(c->l);
    free(c);
}

const pl_dist_bench_kernel pl_dist_bench_life = {
    .name = "life",
    .kernel = &pl_life_kernel,
    .unit = "cell-updates/s",
    .size_form = "WxH",
    .default_size = "2048",
    .periodic = 1,
    .takes_gens = 1,
    .grid_create = life_grid,
    .create = life_create,
    .run = life_run,
    .check = life_check,
    .messages = life_messages,
    .rung = life_rung,
    .gpu_model = life_gpu_model,
    .one_rank = life_one_rank,
    .work = life_work,
    .destroy = life_destroy,
    .on_nccl = life_on_nccl,
    .overlaps = life_overlaps,
};
