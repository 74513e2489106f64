/* spec.c: what life is, independent of any rung: sizes and parameters, the grid operand (bit-
 * packed, life.h), the soup it starts from, the reference (gens generations of a byte grid by
 * the definition: each cell's eight neighbours found by index wrap on the torus, dead past the
 * edge on the plane; then packed) and the counts. */
#include "core/core.h"
#include "core/sizes.h"
#include "kernels/life/bitslice.h"
#include "kernels/life/life.h"
#include "kernels/ladder.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const topology_choices[] = {
    [PL_LIFE_TOPO_TORUS] = "torus", [PL_LIFE_TOPO_PLANE] = "plane", NULL};

const pl_param_def pl_life_problem_params[] = {
    [PL_LIFE_PROBLEM_GENS] =
        {.name = "gens", .help = "generations per run",
         .kind = PL_PARAM_RANGE, .min = 1, .max = 100000, .step = 1, .def = 100.0},
    [PL_LIFE_PROBLEM_RULE] =
        {.name = "rule", .help = "a Life-like rule: B3/S23, B36/S23, B2/S, or the S/B form 23/3",
         .kind = PL_PARAM_STRING},
    [PL_LIFE_PROBLEM_DENSITY] =
        {.name = "density", .help = "the starting soup: each cell alive with this probability (0..1)",
         .kind = PL_PARAM_REAL, .def = 0.5},
    [PL_LIFE_PROBLEM_TOPOLOGY] =
        {.name = "topology", .help = "torus: edges wrap; plane: dead beyond the edge",
         .kind = PL_PARAM_CHOICE, .choices = topology_choices, .def = PL_LIFE_TOPO_TORUS},
};
PL_CHECK_COUNT(pl_life_problem_params, PL_LIFE_PROBLEM_N_PARAMS);

pl_status pl_life_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv)
{
    pl_life_problem *p = problem;
    int64_t d[2];
    pl_status s = pl_parse_dims("life", size, 2, "WxH", d);
    if (s != PL_OK) return s;
    memset(p, 0, sizeof *p);
    p->W = d[0];
    p->H = d[1];
    p->gens = (int64_t)pv->num[PL_LIFE_PROBLEM_GENS];
    const char *rule = pv->str[PL_LIFE_PROBLEM_RULE];
    if ((s = pl_life_rule_parse(rule ? rule : "B3/S23", &p->rule)) != PL_OK) return s;
    p->density = pv->num[PL_LIFE_PROBLEM_DENSITY];
    if (!(p->density >= 0.0 && p->density <= 1.0))
        return pl_fail(PL_ERR_ARG, "life: density %g is not in 0..1", p->density);
    p->topology = (int)pv->num[PL_LIFE_PROBLEM_TOPOLOGY];
    int64_t cells;
    if (pl_mul_overflow(p->W, p->H, &cells) || cells > INT64_MAX / 4)
        return pl_fail(PL_ERR_OVERFLOW, "life: %lldx%lld overflows 64-bit sizes", (long long)p->W,
                       (long long)p->H);
    return PL_OK;
}

void pl_life_spec_describe(const void *problem, char *buf, size_t n)
{
    const pl_life_problem *p = problem;
    const char *topo = p->topology == PL_LIFE_TOPO_TORUS ? "torus" : p->topology == PL_LIFE_TOPO_PLANE ? "plane" : "cylinder";
    if (p->W == p->H) snprintf(buf, n, "%lld %s", (long long)p->W, topo);
    else snprintf(buf, n, "%lldx%lld %s", (long long)p->W, (long long)p->H, topo);
}

pl_status pl_life_spec_operands(const void *problem, pl_tensor *t, int *n)
{
    const pl_life_problem *p = problem;
    const int64_t row_bytes = 8 * pl_life_words_per_row(p->W);
    t[0] = (pl_tensor){"grid", PL_U8, PL_INOUT, p->H, row_bytes, row_bytes, NULL};
    *n = 1;
    return PL_OK;
}

/* A soup: each cell alive with probability density, from the seed (the same on any machine
 * and any thread count: each row from its own seed, drawn in turn from the soup's). */
void pl_life_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed)
{
    (void)n;
    const pl_life_problem *p = problem;
    uint64_t *bits = t[0].host;
    const int64_t wpr = pl_life_words_per_row(p->W);
    pl_rng rows;
    pl_rng_seed(&rows, seed);
    const int64_t chunk = 1024; /* rows whose seeds are drawn before they are filled in parallel */
    uint64_t seeds[1024];
    for (int64_t y0 = 0; y0 < p->H; y0 += chunk) {
        const int64_t y1 = y0 + chunk < p->H ? y0 + chunk : p->H;
        for (int64_t y = y0; y < y1; y++) seeds[y - y0] = pl_rng_next(&rows);
#pragma omp parallel for schedule(static) if ((y1 - y0) * p->W >= 65536)
        for (int64_t y = y0; y < y1; y++) pl_fill_bits(bits + y * wpr, p->W, p->density, seeds[y - y0]);
    }
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
/* The count of cell x's eight neighbours in rows up, mid and dn (a zero row beyond the plane),
 * its columns wrapped on the torus and zero beyond the plane. */
static int count_at(const pl_life_problem *p, const uint8_t *up, const uint8_t *mid, const uint8_t *dn, int64_t x)
{
    const int wrap = p->topology != PL_LIFE_TOPO_PLANE; /* a row's ends meet: torus, cylinder */
    const int64_t xl = x > 0 ? x - 1 : wrap ? p->W - 1 : -1, xr = x < p->W - 1 ? x + 1 : wrap ? 0 : -1;
    int count = up[x] + dn[x];
    if (xl >= 0) count += up[xl] + mid[xl] + dn[xl];
    if (xr >= 0) count += up[xr] + mid[xr] + dn[xr];
    return count;
}

pl_status pl_life_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale)
{
    (void)n, (void)scale;
    const pl_life_problem *p = problem;
    const size_t cells = (size_t)p->W * (size_t)p->H;
    uint8_t *cur = pl_alloc(2 * cells + (size_t)p->W); /* two grids and a row of dead cells */
    if (!cur) return pl_fail(PL_ERR_NOMEM, "life reference: no memory for two %lldx%lld byte grids",
                             (long long)p->W, (long long)p->H);
    uint8_t *other = cur + cells, *zero_row = cur + 2 * cells;
    memset(zero_row, 0, (size_t)p->W);
    uint8_t next[2][9];
    pl_life_rule_table(&p->rule, next);
    pl_life_unpack_rows(t[0].host, cur, p->W, 0, p->H);
    const int spread = (double)p->W * (double)p->H >= 65536.0; /* threads pay off on larger grids */
    const int torus = p->topology == PL_LIFE_TOPO_TORUS;
    for (int64_t gen = 0; gen < p->gens; gen++) {
#pragma omp parallel for schedule(static) if (spread)
        for (int64_t y = 0; y < p->H; y++) {
            const int64_t yu = y > 0 ? y - 1 : torus ? p->H - 1 : -1, yd = y < p->H - 1 ? y + 1 : torus ? 0 : -1;
            const uint8_t *up = yu >= 0 ? cur + yu * p->W : zero_row, *mid = cur + y * p->W;
            const uint8_t *dn = yd >= 0 ? cur + yd * p->W : zero_row;
            uint8_t *out = other + y * p->W;
            out[0] = next[mid[0] != 0][count_at(p, up, mid, dn, 0)];
            for (int64_t x = 1; x < p->W - 1; x++) { /* inside the row: no wrap, no edge */
                const int count = up[x - 1] + up[x] + up[x + 1] + mid[x - 1] + mid[x + 1] + dn[x - 1] + dn[x] + dn[x + 1];
                out[x] = next[mid[x] != 0][count];
            }
            if (p->W > 1) out[p->W - 1] = next[mid[p->W - 1] != 0][count_at(p, up, mid, dn, p->W - 1)];
        }
        uint8_t *swap = cur;
        cur = other;
        other = swap;
    }
    pl_life_pack_rows(cur, ref[0].host, p->W, 0, p->H);
    pl_free(cur < other ? cur : other);
    return PL_OK;
}

/* ---------------------------------------------------------------- the sampled check */

/* Where the full reference would take too long (a 65536^2 grid), windows of SxS cells of the
 * last generation are checked: cell (y, x) after g generations depends only on the cells within
 * g of it at the start (its light cone), so a window is the centre of an (S + 2g)^2 region
 * evolved g times by the definition while its valid part shrinks a cell a side each generation.
 * On the torus the region is cut from the grid's periodic extension (so it may be larger than
 * the grid); on the plane, cells beyond the edge are dead and stay dead. The four corner
 * windows (both seams and every edge) come first, then windows at random places. */
enum { SAMPLE_SIDE = 32, SAMPLE_WINDOWS = 64 };
#define SAMPLE_MAX_WORK 4e9 /* cell-updates the windows may take together */

typedef struct life_window {
    int64_t y0, x0, side_y, side_x; /* the window's top-left and size in the grid */
} life_window;

/* Mismatches in one window; the first's grid position in *fy, *fx. */
static int64_t check_window(const pl_life_problem *p, const uint8_t next[2][9], const uint64_t *start,
                            const uint64_t *out, const life_window *w, int64_t *fy, int64_t *fx)
{
    const int64_t g = p->gens, wpr = pl_life_words_per_row(p->W);
    const int64_t RY = w->side_y + 2 * g, RX = w->side_x + 2 * g; /* the region, from (y0-g, x0-g) */
    uint8_t *a = pl_alloc((size_t)(2 * RY * RX)), *b;
    if (!a) return -1;
    b = a + RY * RX;
    const int wrap_rows = p->topology == PL_LIFE_TOPO_TORUS, wrap_cols = p->topology != PL_LIFE_TOPO_PLANE;
    for (int64_t r = 0; r < RY; r++)
        for (int64_t c = 0; c < RX; c++) {
            int64_t y = w->y0 - g + r, x = w->x0 - g + c;
            if (wrap_rows) y = (y % p->H + p->H) % p->H;
            if (wrap_cols) x = (x % p->W + p->W) % p->W;
            a[r * RX + c] = y >= 0 && y < p->H && x >= 0 && x < p->W ? (uint8_t)((start[y * wpr + x / 64] >> (x % 64)) & 1u) : 0;
        }
    for (int64_t t = 1; t <= g; t++) { /* generation t is valid in rows and columns t .. R-1-t */
        for (int64_t r = t; r < RY - t; r++)
            for (int64_t c = t; c < RX - t; c++) {
                const int64_t y = w->y0 - g + r, x = w->x0 - g + c;
                if ((!wrap_rows && (y < 0 || y >= p->H)) || (!wrap_cols && (x < 0 || x >= p->W))) {
                    b[r * RX + c] = 0; /* beyond the plane's edge: dead for ever */
                    continue;
                }
                const uint8_t *u = a + (r - 1) * RX + c, *m = a + r * RX + c, *d = a + (r + 1) * RX + c;
                const int count = u[-1] + u[0] + u[1] + m[-1] + m[1] + d[-1] + d[0] + d[1];
                b[r * RX + c] = next[m[0]][count];
            }
        uint8_t *swap = a;
        a = b;
        b = swap;
    }
    int64_t bad = 0;
    for (int64_t r = 0; r < w->side_y; r++)
        for (int64_t c = 0; c < w->side_x; c++) {
            const int64_t y = w->y0 + r, x = w->x0 + c;
            const uint8_t got = (uint8_t)((out[y * wpr + x / 64] >> (x % 64)) & 1u);
            if (got != a[(r + g) * RX + c + g] && bad++ == 0) *fy = y, *fx = x;
        }
    pl_free(a < b ? a : b);
    return bad;
}

pl_status pl_life_spec_check_sampled(const void *problem, const pl_tensor *t, int n, const pl_tensor *out,
                                     pl_precision prec, uint64_t seed, pl_check_result *res)
{
    (void)n, (void)prec;
    const pl_life_problem *p = problem;
    const uint64_t *start = t[0].host, *got = out[0].host;
    const int64_t wpr = pl_life_words_per_row(p->W), g = p->gens;
    const int64_t sy = p->H < SAMPLE_SIDE ? p->H : SAMPLE_SIDE, sx = p->W < SAMPLE_SIDE ? p->W : SAMPLE_SIDE;
    /* a window's cone: sum over t of (side + 2(g - t))^2 cell-updates */
    double per_window = 0;
    for (int64_t k = 0; k < g; k++) per_window += (double)(sy + 2 * k) * (double)(sx + 2 * k);
    int windows = SAMPLE_WINDOWS;
    while (windows > 4 && windows * per_window > SAMPLE_MAX_WORK) windows /= 2;
    if (windows * per_window > SAMPLE_MAX_WORK)
        return pl_fail(PL_ERR_TOO_BIG, "life: checking %lld generations of %lldx%lld needs %.2g cell-updates even "
                       "sampled (each window's light cone grows with the generations): fewer gens (--set gens=N)",
                       (long long)g, (long long)p->W, (long long)p->H, 4 * per_window);
    life_window win[SAMPLE_WINDOWS];
    uint64_t st = seed | 1;
    for (int i = 0; i < windows; i++) {
        win[i].side_y = sy, win[i].side_x = sx;
        if (i < 4) {
            win[i].y0 = i & 1 ? p->H - sy : 0;
            win[i].x0 = i & 2 ? p->W - sx : 0;
        } else {
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            win[i].y0 = (int64_t)((st >> 11) % (uint64_t)(p->H - sy + 1));
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            win[i].x0 = (int64_t)((st >> 11) % (uint64_t)(p->W - sx + 1));
        }
    }
    uint8_t next[2][9];
    pl_life_rule_table(&p->rule, next);
    int64_t bad = 0, first_y = -1, first_x = -1;
    int nomem = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : bad)
    for (int i = 0; i < windows; i++) {
        int64_t fy = -1, fx = -1;
        const int64_t b = check_window(p, next, start, got, &win[i], &fy, &fx);
        if (b < 0) {
#pragma omp atomic write
            nomem = 1;
            continue;
        }
        bad += b;
        if (b > 0) {
#pragma omp critical
            if (first_y < 0 || fy < first_y || (fy == first_y && fx < first_x)) first_y = fy, first_x = fx;
        }
    }
    if (nomem) return pl_fail(PL_ERR_NOMEM, "life: no memory for the sampled check's windows");
    /* the padding bits of every row must be zero */
    const uint64_t pad = p->W % 64 ? ~((UINT64_C(1) << (p->W % 64)) - 1) : 0;
    for (int64_t y = 0; pad && y < p->H; y++)
        if (got[y * wpr + wpr - 1] & pad) {
            if (bad++ == 0 || y < first_y) first_y = y, first_x = 8 * wpr - 1;
        }
    res->error = (double)bad;
    res->elem_ratio = bad ? INFINITY : 0;
    res->operand = 0;
    res->row = first_y < 0 ? 0 : first_y;
    res->col = first_x < 0 ? 0 : first_x / 8; /* the byte of the packed row, as the full check names it */
    /* A wrong cell: its byte's value, and as its reference the same byte with that cell put right
     * (other cells of the byte may be wrong too). */
    if (bad && first_x >= 0 && first_x < p->W) {
        const uint8_t byte = ((const uint8_t *)got)[res->row * 8 * wpr + res->col];
        res->value = byte;
        res->reference = byte ^ (1u << (first_x % 8));
    }
    res->bound = 0;
    res->wrong += bad;
    res->checked += (int64_t)windows * sy * sx;
    snprintf(res->how, sizeof res->how, "sampled: %d windows of %dx%d cells (4 corners) in their light cones, "
             "every row's padding", windows, (int)sx, (int)sy);
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

/* The compute side of the roofline, in 32-bit lane operations (one such operation steps 32
 * bit-packed cells): the fewest a bit-sliced generation needs as the word rungs do it, per 32
 * cells: a row's west and east neighbour words (2 funnel shifts), its three-cell and two-cell
 * horizontal sums (2 full/half adders, 4 three-input logic ops), the vertical sum of three rows'
 * (sum, carry) pairs into the count's bits (about 8), and Conway's rule (2): 16, or 0.5 a
 * cell-update. Another rule is a mux over the count (9 leaves and 8 muxes more): about 1.0. */
double pl_life_spec_ops(const void *problem)
{
    const pl_life_problem *p = problem;
    return (life_rule_is_conway(&p->rule) ? 0.5 : 1.0) * pl_life_spec_cell_updates(problem);
}

/* What the float64-free reference costs, in the harness's reference operations (plan.c: about
 * 2e9 a core a second): a byte loop of eight neighbour loads and a table look-up, measured at
 * about 7e8 cell-updates a core a second. */
double pl_life_spec_reference_ops(const void *problem)
{
    return 3.0 * pl_life_spec_cell_updates(problem);
}

/* The fewest bytes, as the kernel contract counts them: the packed grid read once and written
 * once per run, W H / 4 bytes. A byte-per-cell generation moves 2 bytes a cell every
 * generation (the byte rungs' real traffic, 64x more); counted so, the bit-packed rung would
 * run at several times the memory "ceiling", a figure the harness flags as impossible. Counted
 * per run, the roofline is the compute side for any gens above a few: the % column says how
 * near the bit-sliced op count each rung is. */
double pl_life_spec_bytes(const void *problem)
{
    const pl_life_problem *p = problem;
    return 2.0 * (double)p->H * 8.0 * (double)pl_life_words_per_row(p->W);
}

/* Of those, the grid written once: half. */
double pl_life_spec_bytes_written(const void *problem) { return 0.5 * pl_life_spec_bytes(problem); }
