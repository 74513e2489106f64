/* spec.c: what life is, independent of any rung: sizes and parameters, the grid operand, the
 * soup it starts from, the reference (gens generations of the byte grid by the definition:
 * each cell's eight neighbours found by index wrap on the torus, dead past the edge on the
 * plane) and the counts. */
#include "core/core.h"
#include "core/sizes.h"
#include "kernels/life/life.h"

#include <stdio.h>
#include <string.h>

static const char *const topology_choices[] = {"torus", "plane", NULL};

const pl_param_def pl_life_problem_params[4] = {
    {"gens", "generations per run", PL_PARAM_RANGE, NULL, 0, 1, 100000, 1, NULL, 100.0},
    {"rule", "a Life-like rule: B3/S23, B36/S23, B2/S, or the S/B form 23/3", PL_PARAM_STRING, NULL, 0, 0, 0, 0,
     NULL, 0.0},
    {"density", "the starting soup: each cell alive with this probability (0..1)", PL_PARAM_REAL, NULL, 0, 0, 0, 0,
     NULL, 0.5},
    {"topology", "torus: edges wrap; plane: dead beyond the edge", PL_PARAM_CHOICE, NULL, 0, 0, 0, 0,
     topology_choices, 0.0},
};

pl_status pl_life_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv)
{
    pl_life_problem *p = problem;
    int64_t d[2];
    pl_status s = pl_parse_dims("life", size, 2, "WxH", d);
    if (s != PL_OK) return s;
    memset(p, 0, sizeof *p);
    p->W = d[0];
    p->H = d[1];
    p->gens = (int64_t)pv->num[0];
    if ((s = pl_life_rule_parse(pv->str[1] ? pv->str[1] : "B3/S23", &p->rule)) != PL_OK) return s;
    p->density = pv->num[2];
    if (!(p->density >= 0.0 && p->density <= 1.0))
        return pl_fail(PL_ERR_ARG, "life: density %g is not in 0..1", p->density);
    p->topology = (int)pv->num[3];
    int64_t cells;
    if (pl_mul_overflow(p->W, p->H, &cells) || cells > INT64_MAX / 4)
        return pl_fail(PL_ERR_OVERFLOW, "life: %lldx%lld overflows 64-bit sizes", (long long)p->W,
                       (long long)p->H);
    return PL_OK;
}

void pl_life_spec_describe(const void *problem, char *buf, size_t n)
{
    const pl_life_problem *p = problem;
    const char *topo = p->topology == PL_LIFE_TOPO_TORUS ? "torus" : "plane";
    if (p->W == p->H) snprintf(buf, n, "%lld %s", (long long)p->W, topo);
    else snprintf(buf, n, "%lldx%lld %s", (long long)p->W, (long long)p->H, topo);
}

pl_status pl_life_spec_operands(const void *problem, pl_tensor *t, int *n)
{
    const pl_life_problem *p = problem;
    t[0] = (pl_tensor){"grid", PL_U8, PL_INOUT, p->H, p->W, p->W, NULL};
    *n = 1;
    return PL_OK;
}

/* A soup: each cell alive with probability density, from the seed (the same on any machine). */
void pl_life_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed)
{
    (void)n;
    const pl_life_problem *p = problem;
    uint8_t *g = t[0].host;
    pl_rng rng;
    pl_rng_seed(&rng, seed);
    const uint64_t threshold = p->density >= 1.0 ? UINT64_MAX : (uint64_t)(p->density * 18446744073709551616.0);
    for (int64_t i = 0; i < p->W * p->H; i++) g[i] = pl_rng_next(&rng) < threshold || p->density >= 1.0;
}

void pl_life_rule_table(const pl_life_rule *rule, uint8_t next[2][9])
{
    for (int c = 0; c <= 8; c++) {
        next[0][c] = (uint8_t)((rule->birth >> c) & 1u);
        next[1][c] = (uint8_t)((rule->survive >> c) & 1u);
    }
}

/* The cell at (y, x) by the definition: indices wrap on the torus (so on a 1-wide torus a
 * cell is its own neighbour), and are dead past the edge on the plane. */
static int cell_at(const pl_life_problem *p, const uint8_t *g, int64_t y, int64_t x)
{
    if (p->topology == PL_LIFE_TOPO_TORUS) {
        y = (y % p->H + p->H) % p->H;
        x = (x % p->W + p->W) % p->W;
    } else if (y < 0 || y >= p->H || x < 0 || x >= p->W) {
        return 0;
    }
    return g[y * p->W + x];
}

pl_status pl_life_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale)
{
    (void)n, (void)scale;
    const pl_life_problem *p = problem;
    const size_t cells = (size_t)p->W * (size_t)p->H;
    uint8_t *other = pl_alloc(cells);
    if (!other) return pl_fail(PL_ERR_NOMEM, "life reference: no memory for a second %lldx%lld grid",
                               (long long)p->W, (long long)p->H);
    uint8_t next[2][9];
    pl_life_rule_table(&p->rule, next);
    uint8_t *cur = ref[0].host;
    memcpy(cur, t[0].host, cells);
    const int spread = (double)p->W * (double)p->H >= 65536.0; /* threads pay off on larger grids */
    for (int64_t gen = 0; gen < p->gens; gen++) {
#pragma omp parallel for schedule(static) if (spread)
        for (int64_t y = 0; y < p->H; y++)
            for (int64_t x = 0; x < p->W; x++) {
                int count = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++)
                        if (dy || dx) count += cell_at(p, cur, y + dy, x + dx);
                other[y * p->W + x] = next[cur[y * p->W + x] != 0][count];
            }
        memcpy(cur, other, cells);
    }
    pl_free(other);
    return PL_OK;
}

double pl_life_spec_cell_updates(const void *problem)
{
    const pl_life_problem *p = problem;
    return (double)p->W * (double)p->H * (double)p->gens;
}

double pl_life_spec_bound(const void *problem, pl_precision prec, const char **why)
{
    (void)problem, (void)prec;
    if (why) *why = "exact: a generation is integer counting and a rule lookup, so every cell must equal the reference";
    return 0.0;
}

/* The compute side of the roofline: the bit-sliced generation's 32-bit lane operations, about
 * 160 per 64 cells (8 shifted neighbour words, a 4-bit adder tree of full and half adders, the
 * rule as a mux tree): 2.5 per cell-update. */
double pl_life_spec_ops(const void *problem)
{
    return 2.5 * pl_life_spec_cell_updates(problem);
}

/* The fewest bytes, as the kernel contract counts them: the grid read once and written once
 * per run, a byte a cell (2 W H). A byte-per-cell generation moves that much every
 * generation (2 W H gens: the byte rungs' real traffic); counted so, the bit-packed rung
 * (2 bits a cell a generation, mostly from the caches) would run at 3x the memory "ceiling",
 * a figure the harness flags as impossible. Counted per run, the roofline is the compute side
 * for any gens above a few: the % column says how near the bit-sliced op count each rung is. */
double pl_life_spec_bytes(const void *problem)
{
    const pl_life_problem *p = problem;
    return 2.0 * (double)p->W * (double)p->H;
}
