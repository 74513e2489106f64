/* test_life.c: the life room's CPU rungs. Each rung (at every isa choice, 1 and 2 threads)
 * equals the reference bit for bit over hundreds of generations of soups, on the torus and
 * the plane, at sizes that are multiples of no word (1x1, 3x5, 2x3, 130x9, 63x65, 1000x1001) and of
 * whole words (64x3, 512x40, 1088x24), for four
 * rules; and known patterns hold on the byte grid, for the reference and every rung: a block
 * stays, a blinker has period 2, a glider moves one cell diagonally every 4 generations and
 * comes back after 4W on a W x W torus, the pulsar has period 3, and a lone cell on a 1x1
 * torus is its own eight neighbours. Whatever cannot run here prints "skipped: <why>". */
#include "check.h"
#include "harness/harness.h"
#include "io/life_pattern.h"
#include "kernels/life/life.h"
#include "kernels/life/sparse.h"
#include "life_problem.h"
#include "tmpdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const rules[] = {"B3/S23", "B36/S23", "B2/S", "B3678/S34678"};
static const char *const topologies[] = {"torus", "plane"};
typedef struct soup_case {
    const char *size;
    int gens;
} soup_case;
/* 2x3 (a row of only edge columns),
 * 64x3 (a whole word a row), 130x9 (interior words and a 2-bit tail), 512x40 and 1088x24 (whole
 * words, 8 and 17 a row: cpu-bitpacked's first and last columns by vectors, the word across the
 * torus's seam or the plane's edge in a lane; 17 moves the last column back over the one before) */
static const soup_case soups[] = {{"1x1", 300},    {"3x5", 300},      {"2x3", 300},     {"64x3", 200},
                                  {"130x9", 200},  {"63x65", 300},    {"1000x1001", 12}, {"512x40", 40},
                                  {"1088x24", 40}};
enum { N_SOUPS = sizeof soups / sizeof soups[0] };

/* v at every choice of its parameters (its defaults, then each isa choice this CPU has: a
 * choice it lacks must be refused; and for cpu-bitpacked's tblock, 1 (a pass a generation),
 * 2, 3, 5 and 16 generations a pass, so gens not a multiple of it and halos wider than a
 * small grid are covered), on problem p; the harness checks each run against the reference
 * (equality). */
static void check_all_choices(pl_ctx *ctx, pl_problem *p, const pl_variant *v, const char *what)
{
    static const int tblocks[] = {1, 2, 3, 5, 16};
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    cfg.min_time_s = 0;
    const int has_tblock = v->n_params > 1 && !strcmp(v->params[1].name, "tblock");
    for (int choice = -1; choice < 0 || (v->n_params > 0 && v->params[0].choices && v->params[0].choices[choice]);
         choice++)
        for (int tb = 0; tb < (has_tblock && choice >= 0 ? 5 : 1); tb++) {
            int64_t params[PL_MAX_PARAMS] = {0};
            if (pl_params_resolve(v, NULL, params) != PL_OK) {
                CHECK(0, "%s: default parameters: %s", v->name, pl_last_error());
                return;
            }
            if (choice >= 0) params[0] = choice;
            if (has_tblock && choice >= 0) params[1] = tblocks[tb];
            pl_result res;
            pl_status st = pl_bench_variant(ctx, p, v, choice >= 0 ? params : NULL, &cfg, &res);
            char isa[64];
            snprintf(isa, sizeof isa, "%s%s%d", choice >= 0 ? v->params[0].choices[choice] : "default",
                     has_tblock && choice >= 0 ? " tblock=" : "", has_tblock && choice >= 0 ? tblocks[tb] : 0);
            if (st == PL_ERR_UNSUPPORTED) {
                CHECK(choice >= 0, "%s %s: the default refused: %s", v->name, what, pl_last_error());
                continue; /* isa=avx512 without AVX-512: refused, as it must be */
            }
            CHECK(st == PL_OK, "%s (%s) %s: run failed: %s", v->name, isa, what, pl_last_error());
            CHECK(st != PL_OK || res.verified,
                  "%s (%s) %s: %g cells differ from the reference (first at row %lld col %lld)", v->name, isa, what,
                  res.error, (long long)res.first.row, (long long)res.first.col);
        }
}

/* Every soup case, rule and topology: one problem (and its reference) each, run by every rung
 * with 1 and 2 threads. */
static void test_soups(void)
{
    pl_ctx *ctxs[2] = {NULL, NULL};
    for (int t = 0; t < 2; t++)
        CHECK(pl_ctx_create(&ctxs[t], PL_BACKEND_CPU, 0, t + 1) == PL_OK, "cpu context: %s", pl_last_error());
    if (!ctxs[0] || !ctxs[1]) return;
    if (!(pl_features() & PL_FEAT_AVX512)) printf("skipped: cpu-bitpacked isa=avx512 runs: no AVX-512 here (refusal checked)\n");
    for (int c = 0; c < N_SOUPS; c++)
        for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++)
            for (int t = 0; t < 2; t++) {
                char gens[32], rule[64], topo[32], what[128];
                snprintf(gens, sizeof gens, "gens=%d", soups[c].gens);
                snprintf(rule, sizeof rule, "rule=%s", rules[r]);
                snprintf(topo, sizeof topo, "topology=%s", topologies[t]);
                snprintf(what, sizeof what, "%s %s %s x%d gens", soups[c].size, rules[r], topologies[t], soups[c].gens);
                const char *const settings[] = {gens, rule, topo, NULL};
                pl_problem *p = life_soup(soups[c].size, 7 + (uint64_t)c * 10 + r, settings);
                CHECK(p != NULL, "problem %s: %s", what, pl_last_error());
                if (!p) continue;
                for (int th = 0; th < 2; th++)
                    for (int i = 0; i < pl_life_kernel.n_variants; i++) {
                        const pl_variant *v = pl_life_kernel.ladder[i];
                        char why[128];
                        if (pl_variant_check(ctxs[th], v, why, sizeof why) != PL_OK) {
                            if (c == 0 && r == 0 && t == 0) cpu_rung_may_skip(v, v->name, why);
                            continue;
                        }
                        if (t == 0 && !strcmp(v->name, "cpu-sparse")) { /* plane only: the torus refused */
                            pl_bench_config cfg;
                            pl_bench_config_default(&cfg);
                            cfg.repeats = 1;
                            pl_result res;
                            pl_status rs = pl_bench_variant(ctxs[th], p, v, NULL, &cfg, &res);
                            CHECK(rs == PL_ERR_UNSUPPORTED && strstr(pl_last_error(), "torus"),
                                  "cpu-sparse %s: the torus is refused, naming it (status %d: %s)", what, (int)rs,
                                  pl_last_error());
                            continue;
                        }
                        check_all_choices(ctxs[th], p, v, what);
                    }
                pl_problem_destroy(p);
            }
    for (int t = 0; t < 2; t++) pl_ctx_destroy(ctxs[t]);
}

/* Sparse soups on the plane, for cpu-sparse above all: tiles empty out and are dropped, and
 * activity comes back to them (a birth caused by a neighbour dying must create the tile). */
static void test_sparse_soups(void)
{
    static const char *const densities[] = {"density=0.04", "density=0.1", "density=0.2"};
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2) == PL_OK, "cpu context: %s", pl_last_error());
    const pl_variant *v = pl_variant_find(&pl_life_kernel, "cpu-sparse");
    CHECK(v != NULL, "cpu-sparse in the ladder");
    for (int d = 0; ctx && v && d < 3; d++)
        for (int r = 0; r < 2; r++) {
            char rule[32];
            snprintf(rule, sizeof rule, "rule=%s", rules[r]);
            const char *const settings[] = {"gens=400", "topology=plane", densities[d], rule, NULL};
            pl_problem *p = life_soup("517x300", 300 + (uint64_t)d * 7 + r, settings);
            CHECK(p != NULL, "sparse soup problem: %s", pl_last_error());
            if (!p) continue;
            check_all_choices(ctx, p, v, densities[d]);
            pl_problem_destroy(p);
        }
    pl_ctx_destroy(ctx);
}

/* Small random patterns around a tile corner (cpu-sparse's tiles are 64x64): the corner tile
 * is empty, gets dropped, and cells next to it live and die; cpu-sparse must equal the
 * reference. (A birth caused by a neighbour's death, with the tile absent, is what the
 * engine's "live now or a generation ago" border rule is for.) */
static void test_sparse_corners(void)
{
    const pl_variant *v = pl_variant_find(&pl_life_kernel, "cpu-sparse");
    pl_ctx *ctx = NULL;
    CHECK(v && pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 1) == PL_OK, "cpu context: %s", pl_last_error());
    if (!ctx || !v) return;
    pl_pvalues pv;
    static const char *const settings[] = {"gens=24", "topology=plane", NULL};
    pl_life_problem prob;
    CHECK(life_settings(&pv, settings) == PL_OK && pl_life_spec_make_problem(&prob, "100x100", &pv) == PL_OK,
          "problem: %s", pl_last_error());
    const int64_t wpr = pl_life_words_per_row(100);
    uint64_t start[100 * 2], want[100 * 2], got[100 * 2];
    uint64_t rng = 12345;
    int bad = 0, trials = 0;
    for (; trials < 1000 && !bad; trials++) {
        memset(start, 0, sizeof start);
        for (int k = 0; k < 14; k++) { /* cells in the 9x9 box around (64, 64), none at x, y >= 64 both */
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            int x = 60 + (int)((rng >> 33) % 9), y = 60 + (int)((rng >> 45) % 9);
            if (x >= 64 && y >= 64) continue;
            start[y * wpr + x / 64] |= UINT64_C(1) << (x % 64);
        }
        pl_tensor t = {"grid", PL_U8, PL_INOUT, 100, 8 * wpr, 8 * wpr, start};
        pl_tensor ref = {"grid", PL_U8, PL_INOUT, 100, 8 * wpr, 8 * wpr, want};
        pl_life_spec_reference(&prob, &t, 1, &ref, &ref);
        memcpy(got, start, sizeof got);
        int64_t params[PL_MAX_PARAMS] = {0};
        void *data[1] = {got};
        pl_run_args a = {ctx, &prob, data, 1, params, NULL, NULL};
        bad = v->run(&a) != PL_OK || memcmp(got, want, sizeof got) != 0;
    }
    CHECK(!bad, "cpu-sparse differs from the reference on corner pattern %d", trials);
    pl_ctx_destroy(ctx);
}

/* The sparse engine's work (pl_life_sparse_rows_written): a blinker costs no rows once it
 * blinks (its rows are the same as two generations ago), wherever it sits against the tiles'
 * edges; a glider costs rows every generation and arrives where it should; a cell loaded into
 * a running plane is computed (it dies alone) and not taken for a period-2 row. */
static void test_sparse_work(void)
{
    static const int64_t places[][2] = {{10, 10}, {62, 20}, {20, 63}, {63, 63}, {-1, -2}, {-65, 127}};
    const uint64_t blinker = 7; /* three cells in a row */
    for (int k = 0; k < 6; k++) {
        pl_life_sparse *plane = NULL;
        const pl_life_rule conway = {1u << 3, (1u << 2) | (1u << 3)};
        if (pl_life_sparse_create(&plane, &conway, 0, 0, 0) != PL_OK ||
            pl_life_sparse_load(plane, &blinker, 3, 1, 1, places[k][0], places[k][1]) != PL_OK) {
            CHECK(0, "sparse blinker: %s", pl_last_error());
            pl_life_sparse_destroy(plane);
            continue;
        }
        pl_life_sparse_run(plane, 4, 1);
        const int64_t before = pl_life_sparse_rows_written(plane);
        pl_life_sparse_run(plane, 101, 1);
        int64_t box[4];
        pl_life_sparse_bbox(plane, &box[0], &box[1], &box[2], &box[3]);
        CHECK(before > 0 && pl_life_sparse_rows_written(plane) == before,
              "a blinker at (%lld, %lld) wrote %lld rows in its first 4 generations and %lld in the next 101, "
              "want some, then none", (long long)places[k][0], (long long)places[k][1], (long long)before,
              (long long)(pl_life_sparse_rows_written(plane) - before));
        CHECK(pl_life_sparse_population(plane) == 3 && box[0] == places[k][0] + 1 && box[1] == places[k][1] - 1 &&
                  box[2] == 1 && box[3] == 3,
              "a blinker at (%lld, %lld) after 105 generations: %lld cells in %lldx%lld at (%lld, %lld), want 3 "
              "upright", (long long)places[k][0], (long long)places[k][1], (long long)pl_life_sparse_population(plane),
              (long long)box[2], (long long)box[3], (long long)box[0], (long long)box[1]);
        /* a lone cell loaded beside it (two cells off its end): dead a generation later, and
         * still dead the next (its row is not its state of two generations ago) */
        const uint64_t one = 1;
        CHECK(pl_life_sparse_load(plane, &one, 1, 1, 1, places[k][0] + 4, places[k][1]) == PL_OK, "load: %s",
              pl_last_error());
        pl_life_sparse_run(plane, 1, 1);
        const int64_t pop1 = pl_life_sparse_population(plane);
        pl_life_sparse_run(plane, 1, 1);
        CHECK(pop1 == 3 && pl_life_sparse_population(plane) == 3,
              "a lone cell loaded beside a blinker at (%lld, %lld): %lld, then %lld cells, want 3, 3",
              (long long)places[k][0], (long long)places[k][1], (long long)pop1,
              (long long)pl_life_sparse_population(plane));
        pl_life_sparse_destroy(plane);
    }
    /* two cells alone die at once: no tile is left a few generations on (the tile is dropped
     * once it has told its neighbours that it changed since two generations ago) */
    const uint64_t pair = 3;
    pl_life_sparse *lone = NULL;
    const pl_life_rule rule = {1u << 3, (1u << 2) | (1u << 3)};
    if (pl_life_sparse_create(&lone, &rule, 0, 0, 0) == PL_OK &&
        pl_life_sparse_load(lone, &pair, 2, 1, 1, 5, 5) == PL_OK) {
        pl_life_sparse_run(lone, 3, 1);
        CHECK(pl_life_sparse_population(lone) == 0 && pl_life_sparse_tiles(lone) == 0,
              "two cells alone, 3 generations on: %lld cells in %lld tiles, want none",
              (long long)pl_life_sparse_population(lone), (long long)pl_life_sparse_tiles(lone));
    } else {
        CHECK(0, "sparse pair: %s", pl_last_error());
    }
    pl_life_sparse_destroy(lone);

    /* a glider: 5 cells, a cell down-right every 4 generations, rows written every generation */
    const uint64_t glider[3] = {2, 4, 7};
    pl_life_sparse *plane = NULL;
    const pl_life_rule conway = {1u << 3, (1u << 2) | (1u << 3)};
    CHECK(pl_life_sparse_create(&plane, &conway, 0, 0, 0) == PL_OK &&
              pl_life_sparse_load(plane, glider, 3, 3, 1, 0, 0) == PL_OK,
          "sparse glider: %s", pl_last_error());
    if (!plane) return;
    int64_t rows = 0, idle = 0;
    for (int g = 0; g < 1000; g++) {
        pl_life_sparse_run(plane, 1, 1);
        idle += pl_life_sparse_rows_written(plane) == rows;
        rows = pl_life_sparse_rows_written(plane);
    }
    int64_t box[4];
    pl_life_sparse_bbox(plane, &box[0], &box[1], &box[2], &box[3]);
    CHECK(idle == 0 && pl_life_sparse_population(plane) == 5 && box[0] == 250 && box[1] == 250,
          "a glider after 1000 generations: %lld generations without a row written, %lld cells at (%lld, %lld), "
          "want 0, 5 at (250, 250)", (long long)idle, (long long)pl_life_sparse_population(plane), (long long)box[0],
          (long long)box[1]);
    /* the tiles it left (about ten) are dropped: it touches at most 2 x 2 tiles at a time */
    CHECK(pl_life_sparse_tiles(plane) <= 4, "a glider that crossed a few tiles holds %lld tiles, want <= 4",
          (long long)pl_life_sparse_tiles(plane));
    pl_life_sparse_destroy(plane);
}

/* pl_life on the CPU: cpu-bitpacked at any size, and a glider on a 37x37 torus comes back. */
static void test_best_variant(void)
{
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2) == PL_OK, "cpu context: %s", pl_last_error());
    if (!ctx) return;
    const pl_kernel *life = pl_kernel_find("life");
    const char *small = pl_best_variant_size(ctx, life, "64x64"), *large = pl_best_variant_size(ctx, life, "65536x65536");
    CHECK(small && large && !strcmp(small, "cpu-bitpacked") && !strcmp(large, "cpu-bitpacked"),
          "the CPU picks %s and %s, want cpu-bitpacked", small ? small : "none", large ? large : "none");
    CHECK(life_call_glider_returns(ctx), "pl_life: the glider is not back after 4*37 generations on the 37x37 "
          "torus (%s)", pl_last_error());
    pl_ctx_destroy(ctx);
}

/* Acorn (tests/data/life/acorn.rle), the methuselah of docs/life.md's comparison with Golly:
 * 7 cells that stabilise at generation 5206 with 633 cells in a 2325 x 2497 box at (-1123,
 * -1247) from its top-left corner (Golly's bgolly agrees on the population), on the unbounded
 * plane through blinkers, gliders and the ash they leave: the period-2 skipping at full load. */
static void test_acorn(void)
{
    pl_life_pattern acorn;
    pl_life_sparse *plane = NULL;
    if (pl_life_read(in_tests("data/life/acorn.rle"), &acorn) != PL_OK) {
        CHECK(0, "reading acorn: %s", pl_last_error());
        return;
    }
    pl_life_rule rule;
    CHECK(pl_life_rule_parse(acorn.rule, &rule) == PL_OK && pl_life_sparse_create(&plane, &rule, 0, 0, 0) == PL_OK &&
              pl_life_sparse_load(plane, acorn.bits, acorn.w, acorn.h, acorn.words_per_row, 0, 0) == PL_OK &&
              pl_life_sparse_run(plane, 5206, 2) == PL_OK,
          "acorn on the sparse plane: %s", pl_last_error());
    int64_t box[4] = {0, 0, 0, 0};
    if (plane) pl_life_sparse_bbox(plane, &box[0], &box[1], &box[2], &box[3]);
    CHECK(plane && pl_life_sparse_population(plane) == 633 && box[0] == -1123 && box[1] == -1247 &&
              box[2] == 2325 && box[3] == 2497,
          "acorn at generation 5206: %lld cells in %lldx%lld at (%lld, %lld), want 633 in 2325x2497 at (-1123, -1247)",
          plane ? (long long)pl_life_sparse_population(plane) : -1LL, (long long)box[2], (long long)box[3],
          (long long)box[0], (long long)box[1]);
    pl_life_sparse_destroy(plane);
    pl_life_pattern_free(&acorn);
}

/* The Gosper glider gun (tests/data/life/gosper_gun.rle, read by the pattern reader): 36 cells,
 * period 30, one glider (5 cells) more every 30 generations while the gliders fly: at
 * generation 30k the population is 36 + 5k. On a 160x160 plane (gun at the top-left, gliders
 * flying down-right) for 300 generations, by the reference, every rung, and the sparse engine
 * on the unbounded plane (for 600). */
static void test_gosper_gun(void)
{
    pl_life_pattern gun;
    if (pl_life_read(in_tests("data/life/gosper_gun.rle"), &gun) != PL_OK) {
        CHECK(0, "reading the Gosper gun: %s", pl_last_error());
        return;
    }
    CHECK(gun.w == 36 && gun.h == 9, "the gun's box is %lldx%lld, want 36x9", (long long)gun.w, (long long)gun.h);
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2) == PL_OK, "cpu context: %s", pl_last_error());
    enum { GW = 160, GWPR = 3 };
    for (int runner = -1; ctx && runner < pl_life_kernel.n_variants; runner++) {
        const pl_variant *v = runner < 0 ? NULL : pl_life_kernel.ladder[runner];
        char why[128];
        if (v && pl_variant_check(ctx, v, why, sizeof why) != PL_OK) {
            cpu_rung_may_skip(v, v->name, why);
            continue;
        }
        uint64_t grid[GW * GWPR];
        memset(grid, 0, sizeof grid);
        for (int64_t y = 0; y < gun.h; y++)
            for (int64_t x = 0; x < gun.w; x++)
                if (pl_life_cell(&gun, x + 0, y)) grid[(y + 2) * GWPR + (x + 2) / 64] |= UINT64_C(1) << ((x + 2) % 64);
        int ok = 1;
        for (int k = 1; k <= 10 && ok; k++) {
            if (v) {
                ok = pl_life_variant(ctx, v->name, NULL, GW, GW, grid, 30, "B3/S23", 0) == PL_OK;
            } else {
                pl_life_problem prob = {GW, GW, 30, {1u << 3, (1u << 2) | (1u << 3)}, PL_LIFE_TOPO_PLANE, 0.5};
                uint64_t next[GW * GWPR];
                pl_tensor t = {"grid", PL_U8, PL_INOUT, GW, 8 * GWPR, 8 * GWPR, grid};
                pl_tensor ref = {"grid", PL_U8, PL_INOUT, GW, 8 * GWPR, 8 * GWPR, next};
                ok = pl_life_spec_reference(&prob, &t, 1, &ref, &ref) == PL_OK;
                memcpy(grid, next, sizeof grid);
            }
            int64_t pop = 0;
            for (int i = 0; i < GW * GWPR; i++) pop += __builtin_popcountll(grid[i]);
            CHECK(ok && pop == 36 + 5 * k, "%s: the gun at generation %d has %lld cells, want %d",
                  v ? v->name : "reference", 30 * k, (long long)pop, 36 + 5 * k);
            ok = ok && pop == 36 + 5 * k;
        }
    }
    /* the unbounded plane: 20 gliders after 600 generations, none lost */
    pl_life_sparse *plane = NULL;
    pl_life_rule rule;
    CHECK(pl_life_rule_parse(gun.rule, &rule) == PL_OK && pl_life_sparse_create(&plane, &rule, 0, 0, 0) == PL_OK &&
              pl_life_sparse_load(plane, gun.bits, gun.w, gun.h, gun.words_per_row, -1000, -1000) == PL_OK,
          "sparse plane: %s", pl_last_error());
    for (int k = 1; plane && k <= 20; k++) {
        pl_life_sparse_run(plane, 30, 2);
        CHECK(pl_life_sparse_population(plane) == 36 + 5 * k, "sparse plane: the gun at generation %d has %lld cells",
              30 * k, (long long)pl_life_sparse_population(plane));
    }
    int64_t box[4];
    if (plane) pl_life_sparse_bbox(plane, &box[0], &box[1], &box[2], &box[3]);
    CHECK(plane && box[0] == -1000 && box[1] == -1000, "sparse plane: the box starts at the gun (%lld, %lld)",
          (long long)box[0], (long long)box[1]);
    pl_life_sparse_destroy(plane);
    pl_ctx_destroy(ctx);
    pl_life_pattern_free(&gun);
}

/* ---------------------------------------------------------------- known patterns */

typedef struct grid {
    int64_t W, H;
    uint8_t cells[40 * 40];
} grid;

static void put(grid *g, int64_t x, int64_t y) { g->cells[y * g->W + x] = 1; }

/* gens generations of g by runner: -1 the spec's reference, else the ladder's rung i. */
static int advance(pl_ctx *ctx, int runner, const char *topology, const char *rule, int gens, const grid *in,
                   grid *out)
{
    char size[32], gtext[32], rtext[64], ttext[32];
    snprintf(size, sizeof size, "%lldx%lld", (long long)in->W, (long long)in->H);
    snprintf(gtext, sizeof gtext, "gens=%d", gens);
    snprintf(rtext, sizeof rtext, "rule=%s", rule);
    snprintf(ttext, sizeof ttext, "topology=%s", topology);
    pl_pvalues pv;
    const char *const settings[] = {gtext, rtext, ttext, NULL};
    pl_life_problem prob;
    if (life_settings(&pv, settings) != PL_OK || pl_life_spec_make_problem(&prob, size, &pv) != PL_OK) return 0;
    /* the grids as the operand holds them: packed rows (life.h) */
    uint64_t start[40], bits[40]; /* grids up to 40 x 40: a word a row */
    pl_life_pack_rows(in->cells, start, in->W, 0, in->H);
    pl_life_pack_rows(in->cells, bits, in->W, 0, in->H);
    *out = *in;
    int ok;
    const int64_t row_bytes = 8 * pl_life_words_per_row(in->W);
    if (runner < 0) {
        pl_tensor t = {"grid", PL_U8, PL_INOUT, in->H, row_bytes, row_bytes, start};
        pl_tensor ref = {"grid", PL_U8, PL_INOUT, in->H, row_bytes, row_bytes, bits};
        pl_tensor scale = {"grid", PL_F64, PL_INOUT, in->H, row_bytes, row_bytes, NULL};
        ok = pl_life_spec_reference(&prob, &t, 1, &ref, &scale) == PL_OK;
    } else {
        const pl_variant *v = pl_life_kernel.ladder[runner];
        int64_t params[PL_MAX_PARAMS];
        if (pl_params_resolve(v, NULL, params) != PL_OK) return 0;
        void *data[1] = {bits};
        pl_run_args a = {ctx, &prob, data, 1, params, NULL, NULL};
        ok = v->run(&a) == PL_OK;
    }
    pl_life_unpack_rows(bits, out->cells, in->W, 0, in->H);
    return ok;
}

static int same(const grid *a, const grid *b)
{
    return a->W == b->W && a->H == b->H && memcmp(a->cells, b->cells, (size_t)(a->W * a->H)) == 0;
}

static int population(const grid *g)
{
    int n = 0;
    for (int64_t i = 0; i < g->W * g->H; i++) n += g->cells[i];
    return n;
}

/* g moved by (dx, dy) on its torus. */
static grid shifted(const grid *g, int64_t dx, int64_t dy)
{
    grid s = *g;
    memset(s.cells, 0, sizeof s.cells);
    for (int64_t y = 0; y < g->H; y++)
        for (int64_t x = 0; x < g->W; x++)
            if (g->cells[y * g->W + x]) s.cells[((y + dy) % g->H) * g->W + (x + dx) % g->W] = 1;
    return s;
}

/* plane_only: the runner refuses the torus (cpu-sparse): the plane's checks only. */
static void check_patterns(pl_ctx *ctx, int runner, const char *name, int plane_only)
{
    grid a, b, c;
    /* on the plane a glider moves one cell down and right every 4 generations until it
     * reaches the edge (37x37: 20 steps keep it inside) */
    memset(&a, 0, sizeof a);
    a.W = 37, a.H = 37;
    put(&a, 1, 0), put(&a, 2, 1), put(&a, 0, 2), put(&a, 1, 2), put(&a, 2, 2);
    c = shifted(&a, 20, 20);
    CHECK(advance(ctx, runner, "plane", "B3/S23", 80, &a, &b) && same(&b, &c),
          "%s: the glider on the plane is not 20 cells down and right after 80 generations", name);
    for (int t = plane_only; t < 2; t++) {
        const char *topo = topologies[t];
        /* a block stays */
        memset(&a, 0, sizeof a);
        a.W = 6, a.H = 7;
        put(&a, 2, 2), put(&a, 3, 2), put(&a, 2, 3), put(&a, 3, 3);
        CHECK(advance(ctx, runner, topo, "B3/S23", 10, &a, &b) && same(&a, &b) && population(&b) == 4,
              "%s %s: a block does not stay", name, topo);
        /* a blinker has period 2 (and is not still) */
        memset(&a, 0, sizeof a);
        a.W = 5, a.H = 5;
        put(&a, 1, 2), put(&a, 2, 2), put(&a, 3, 2);
        CHECK(advance(ctx, runner, topo, "B3/S23", 1, &a, &b) && !same(&a, &b) && population(&b) == 3 &&
                  b.cells[1 * 5 + 2] && b.cells[3 * 5 + 2],
              "%s %s: a blinker does not turn upright", name, topo);
        CHECK(advance(ctx, runner, topo, "B3/S23", 2, &a, &b) && same(&a, &b), "%s %s: a blinker's period is not 2",
              name, topo);
        /* the pulsar has period 3, on a 17x17 grid (its 13x13 box and two dead cells around) */
        memset(&a, 0, sizeof a);
        a.W = 17, a.H = 17;
        static const int arm[3] = {4, 5, 6};
        for (int k = 0; k < 3; k++)
            for (int side = 0; side < 2; side++) {
                int far = side ? 16 - arm[k] : arm[k]; /* 4,5,6 and 12,11,10 */
                for (int r = 0; r < 2; r++) {
                    int row = r ? 14 : 2, row2 = r ? 10 : 7; /* rows 2, 7, 9, 14 hold the bars */
                    put(&a, far, row), put(&a, far, row2 == 10 ? 9 : 7);
                    put(&a, row, far), put(&a, row2 == 10 ? 9 : 7, far);
                }
            }
        CHECK(population(&a) == 48, "pulsar setup: %d cells, want 48", population(&a));
        CHECK(advance(ctx, runner, topo, "B3/S23", 1, &a, &b) && !same(&a, &b), "%s %s: the pulsar is still",
              name, topo);
        CHECK(advance(ctx, runner, topo, "B3/S23", 3, &a, &b) && same(&a, &b), "%s %s: the pulsar's period is not 3",
              name, topo);
        CHECK(advance(ctx, runner, topo, "B3/S23", 30, &a, &b) && same(&a, &b),
              "%s %s: the pulsar is not back after 30 generations", name, topo);
    }
    if (plane_only) {
        memset(&a, 0, sizeof a);
        a.W = 1, a.H = 1;
        put(&a, 0, 0);
        CHECK(advance(ctx, runner, "plane", "B3/S0", 3, &a, &b) && b.cells[0] == 1, "%s: 1x1 plane, S0: the cell died",
              name);
        return;
    }
    /* a glider moves one cell down and right every 4 generations, across the torus's seams,
     * and is back after 4W generations on a W x W torus (W = 37: multiples of no word) */
    memset(&a, 0, sizeof a);
    a.W = 37, a.H = 37;
    put(&a, 1, 0), put(&a, 2, 1), put(&a, 0, 2), put(&a, 1, 2), put(&a, 2, 2);
    c = a;
    int ok = 1;
    for (int step = 0; step < 37 && ok; step++) {
        ok = advance(ctx, runner, "torus", "B3/S23", 4, &c, &b);
        grid want = shifted(&c, 1, 1);
        CHECK(ok && same(&b, &want), "%s: the glider after %d generations is not one cell down and right", name,
              4 * (step + 1));
        ok = ok && same(&b, &want);
        c = b;
    }
    CHECK(advance(ctx, runner, "torus", "B3/S23", 4 * 37, &a, &b) && same(&a, &b),
          "%s: the glider is not back after 4*37 generations on the 37x37 torus", name);
    /* one generation of a glider is not a shift (the test above could pass a rung that moves
     * the whole grid) */
    CHECK(advance(ctx, runner, "torus", "B3/S23", 1, &a, &b) && !same(&a, &b) && population(&b) == 5,
          "%s: a glider's first generation", name);
    /* a 1x1 torus: the cell is its own eight neighbours (by index wrap), so it survives only
     * where the rule has S8; on the plane it has none */
    memset(&a, 0, sizeof a);
    a.W = 1, a.H = 1;
    put(&a, 0, 0);
    CHECK(advance(ctx, runner, "torus", "B3/S8", 5, &a, &b) && b.cells[0] == 1, "%s: 1x1 torus, S8: the cell died",
          name);
    CHECK(advance(ctx, runner, "torus", "B3/S23", 1, &a, &b) && b.cells[0] == 0, "%s: 1x1 torus, S23: the cell lived",
          name);
    CHECK(advance(ctx, runner, "plane", "B3/S0", 3, &a, &b) && b.cells[0] == 1, "%s: 1x1 plane, S0: the cell died",
          name);
    /* a 3x1 torus with one live cell: it sees itself twice (above and below), each other cell
     * sees it three times (above-left, left, below-left or the mirror) */
    memset(&a, 0, sizeof a);
    a.W = 3, a.H = 1;
    put(&a, 0, 0);
    CHECK(advance(ctx, runner, "torus", "B3/S2", 1, &a, &b) && population(&b) == 3,
          "%s: 3x1 torus, B3/S2: %d cells, want 3", name, population(&b));
    CHECK(advance(ctx, runner, "torus", "B/S3", 1, &a, &b) && population(&b) == 0,
          "%s: 3x1 torus, B/S3: %d cells, want 0", name, population(&b));
}

static void test_patterns(void)
{
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2) == PL_OK, "cpu context: %s", pl_last_error());
    if (!ctx) return;
    check_patterns(ctx, -1, "reference", 0);
    for (int i = 0; i < pl_life_kernel.n_variants; i++) {
        const pl_variant *v = pl_life_kernel.ladder[i];
        char why[128];
        if (pl_variant_check(ctx, v, why, sizeof why) != PL_OK) {
            cpu_rung_may_skip(v, v->name, why);
            continue;
        }
        check_patterns(ctx, i, v->name, !strcmp(v->name, "cpu-sparse"));
    }
    pl_ctx_destroy(ctx);
}

/* ---------------------------------------------------------------- the problem's text */

static void test_problem_text(void)
{
    pl_pvalues pv;
    int given[PL_MAX_PARAMS] = {0};
    pl_life_problem p;
    pl_pvalues_default(&pl_life_kernel, &pv);
    CHECK(pl_life_spec_make_problem(&p, "30x20", &pv) == PL_OK && p.W == 30 && p.H == 20 && p.gens == 100 &&
              p.rule.birth == (1u << 3) && p.rule.survive == ((1u << 2) | (1u << 3)) && p.topology == PL_LIFE_TOPO_TORUS,
          "30x20 with the defaults: %s", pl_last_error());
    CHECK(pl_pvalues_set(&pl_life_kernel, &pv, given, "rule=23/36") == PL_OK &&
              pl_life_spec_make_problem(&p, "8", &pv) == PL_OK && p.W == 8 && p.H == 8 &&
              p.rule.birth == ((1u << 3) | (1u << 6)) && p.rule.survive == ((1u << 2) | (1u << 3)),
          "the S/B form 23/36: %s", pl_last_error());
    pl_pvalues_default(&pl_life_kernel, &pv);
    memset(given, 0, sizeof given);
    CHECK(pl_pvalues_set(&pl_life_kernel, &pv, given, "rule=B9/S23") == PL_OK &&
              pl_life_spec_make_problem(&p, "8", &pv) == PL_ERR_ARG && strstr(pl_last_error(), "B9/S23"),
          "rule B9/S23 refused, named: '%s'", pl_last_error());
    /* the op count: 0.5 a cell-update for Conway's rule, 1.0 for another (its mux over the count) */
    pl_pvalues_default(&pl_life_kernel, &pv);
    CHECK(pl_life_spec_make_problem(&p, "30x20", &pv) == PL_OK &&
              pl_life_spec_ops(&p) == 0.5 * pl_life_spec_cell_updates(&p) && pl_life_spec_cell_updates(&p) == 60000.0,
          "B3/S23 30x20 x100: %g ops for %g cell-updates, want 30000 for 60000", pl_life_spec_ops(&p),
          pl_life_spec_cell_updates(&p));
    p.rule.birth |= 1u << 6; /* B36/S23 */
    CHECK(pl_life_spec_ops(&p) == pl_life_spec_cell_updates(&p), "B36/S23: %g ops for %g cell-updates",
          pl_life_spec_ops(&p), pl_life_spec_cell_updates(&p));
    pl_pvalues_default(&pl_life_kernel, &pv);
    CHECK(pl_life_spec_make_problem(&p, "8x0", &pv) != PL_OK, "size 8x0 refused");
    CHECK(pl_life_spec_make_problem(&p, "8x8x8", &pv) != PL_OK, "size 8x8x8 refused");
    pv.num[2] = 1.5;
    CHECK(pl_life_spec_make_problem(&p, "8", &pv) == PL_ERR_ARG && strstr(pl_last_error(), "density"),
          "density 1.5 refused: '%s'", pl_last_error());
}

/* ---------------------------------------------------------------- the sampled check */

/* The light-cone windows against the full reference: a correct last generation passes (grids
 * smaller than a window's cone too, where the torus's region wraps more than once), one wrong
 * cell in a corner window or a set padding bit fails and is named (windows overlap on small
 * grids: a wrong cell may count more than once). */
static void test_sampled_check(void)
{
    static const struct { const char *size, *topo; int gens; } cases[] = {
        {"300x200", "torus", 20}, {"300x200", "plane", 20}, {"40x30", "torus", 50}, {"40x30", "plane", 50},
        {"70x3", "torus", 9}, {"1x1", "torus", 5}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char what[96], gtext[32], ttext[32];
        snprintf(what, sizeof what, "%s %s %d gens", cases[c].size, cases[c].topo, cases[c].gens);
        snprintf(gtext, sizeof gtext, "gens=%d", cases[c].gens);
        snprintf(ttext, sizeof ttext, "topology=%s", cases[c].topo);
        pl_pvalues pv;
        int given[PL_MAX_PARAMS] = {0};
        pl_pvalues_default(&pl_life_kernel, &pv);
        pl_life_problem prob;
        if (pl_pvalues_set(&pl_life_kernel, &pv, given, gtext) != PL_OK ||
            pl_pvalues_set(&pl_life_kernel, &pv, given, ttext) != PL_OK ||
            pl_life_spec_make_problem(&prob, cases[c].size, &pv) != PL_OK) {
            CHECK(0, "%s: problem: %s", what, pl_last_error());
            continue;
        }
        const int64_t row_bytes = 8 * pl_life_words_per_row(prob.W), bytes = row_bytes * prob.H;
        uint8_t *start = calloc((size_t)bytes, 1), *last = calloc((size_t)bytes, 1);
        pl_tensor t = {"grid", PL_U8, PL_INOUT, prob.H, row_bytes, row_bytes, start};
        pl_tensor ref = {"grid", PL_U8, PL_INOUT, prob.H, row_bytes, row_bytes, last};
        pl_tensor scale = ref;
        pl_life_spec_fill(&prob, &t, 1, 99 + c);
        CHECK(pl_life_spec_reference(&prob, &t, 1, &ref, &scale) == PL_OK, "%s: reference", what);
        pl_check_result r;
        memset(&r, 0, sizeof r);
        CHECK(pl_life_spec_check_sampled(&prob, &t, 1, &ref, PL_PREC_EXACT, 5, &r) == PL_OK && r.error == 0 &&
                  r.elem_ratio == 0 && r.checked > 0,
              "%s: the reference's last generation passes the sampled check (%g wrong, first row %lld col %lld)", what,
              r.error, (long long)r.row, (long long)r.col);
        last[0] ^= 1; /* cell (0, 0): in the first corner window */
        memset(&r, 0, sizeof r);
        CHECK(pl_life_spec_check_sampled(&prob, &t, 1, &ref, PL_PREC_EXACT, 5, &r) == PL_OK && r.error >= 1 &&
                  r.row == 0 && r.col == 0 && r.elem_ratio > 1,
              "%s: cell (0,0) wrong is found (%g wrong, row %lld col %lld)", what, r.error, (long long)r.row,
              (long long)r.col);
        last[0] ^= 1;
        const int64_t xl = prob.W - 1, yl = prob.H - 1; /* the last cell: in the fourth corner window */
        last[yl * row_bytes + xl / 8] ^= (uint8_t)(1u << (xl % 8));
        memset(&r, 0, sizeof r);
        CHECK(pl_life_spec_check_sampled(&prob, &t, 1, &ref, PL_PREC_EXACT, 5, &r) == PL_OK && r.error >= 1 &&
                  r.row == yl && r.col == xl / 8,
              "%s: the last cell wrong is found (%g wrong, row %lld col %lld)", what, r.error, (long long)r.row,
              (long long)r.col);
        last[yl * row_bytes + xl / 8] ^= (uint8_t)(1u << (xl % 8));
        if (prob.W % 64) {
            last[2 * row_bytes - 1 < bytes ? 2 * row_bytes - 1 : row_bytes - 1] |= 0x80; /* a padding bit */
            memset(&r, 0, sizeof r);
            CHECK(pl_life_spec_check_sampled(&prob, &t, 1, &ref, PL_PREC_EXACT, 5, &r) == PL_OK && r.error >= 1,
                  "%s: a set padding bit is found", what);
        }
        free(start);
        free(last);
    }
    /* the harness picks the sampled check where asked: every CPU rung passes it */
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2) == PL_OK, "cpu context: %s", pl_last_error());
    pl_pvalues pv;
    int given[PL_MAX_PARAMS] = {0};
    pl_pvalues_default(&pl_life_kernel, &pv);
    pl_pvalues_set(&pl_life_kernel, &pv, given, "gens=30");
    pl_pvalues_set(&pl_life_kernel, &pv, given, "topology=plane"); /* every rung runs the plane */
    pl_problem_opts opts = {11, PL_CHECK_SAMPLE, NULL, NULL};
    pl_problem *p = NULL;
    CHECK(ctx && pl_problem_create_opts(&p, &pl_life_kernel, "517x300", &pv, &opts) == PL_OK, "problem: %s",
          pl_last_error());
    for (int i = 0; p && i < pl_life_kernel.n_variants; i++) {
        const pl_variant *v = pl_life_kernel.ladder[i];
        char why[128];
        if (pl_variant_check(ctx, v, why, sizeof why) != PL_OK) {
            cpu_rung_may_skip(v, v->name, why);
            continue;
        }
        pl_bench_config cfg;
        pl_bench_config_default(&cfg);
        cfg.repeats = 1;
        cfg.min_time_s = 0;
        pl_result res;
        CHECK(pl_bench_variant(ctx, p, v, NULL, &cfg, &res) == PL_OK && res.verified, "%s: sampled check: %s",
              v->name, pl_last_error());
    }
    pl_problem_destroy(p);
    pl_ctx_destroy(ctx);
}

/* The cylinder (life.h: a row's ends meet, its first and last rows do not), which the
 * distributed layer's bands of rows run on: cpu-bitpacked's cylinder of W x H after G
 * generations equals the middle W columns of a plane G columns wider each side, whose outer
 * columns are the cylinder's wrapped (cell x of the plane is cell (x - G) mod W): its edge is
 * G cells from the middle, too far to reach it in G generations. The plane by cpu-naive, so no
 * cylinder code checks itself. Widths of no word and of whole words (the vector edge paths),
 * 1 and 2 threads, gens over several passes of the temporal blocking. Other rungs refuse it. */
static void test_cylinder(void)
{
    static const struct {
        int64_t W, H, gens;
    } cases[] = {{1, 5, 3}, {3, 4, 7}, {64, 9, 20}, {67, 61, 33}, {130, 40, 17}, {512, 24, 40}, {1088, 30, 16}};
    for (int threads = 1; threads <= 2; threads++) {
        pl_ctx *ctx = NULL;
        if (pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, threads) != PL_OK) {
            CHECK(0, "cylinder: CPU context: %s", pl_last_error());
            return;
        }
        const pl_variant *v = pl_variant_find(&pl_life_kernel, "cpu-bitpacked");
        if (pl_variant_check(ctx, v, NULL, 0) != PL_OK) {
            check_skip("cylinder: cpu-bitpacked cannot run here (no AVX2)");
            pl_ctx_destroy(ctx);
            return;
        }
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            for (int r = 0; r < 2; r++) {
                const int64_t W = cases[i].W, H = cases[i].H, G = cases[i].gens, PW = W + 2 * G;
                const int64_t wpr = pl_life_words_per_row(W), pwpr = pl_life_words_per_row(PW);
                pl_life_problem cyl = {.W = W, .H = H, .gens = G, .topology = PL_LIFE_TOPO_CYLINDER};
                pl_life_rule_parse(r ? "B36/S23" : "B3/S23", &cyl.rule);
                pl_life_problem plane = cyl;
                plane.W = PW, plane.topology = PL_LIFE_TOPO_PLANE;
                uint64_t *bits = calloc((size_t)(H * wpr), 8), *wide = calloc((size_t)(H * pwpr), 8);
                uint64_t state = 0x9e3779b97f4a7c15u * (uint64_t)(i * 2 + (size_t)r + 1);
                for (int64_t y = 0; y < H; y++)
                    for (int64_t x = 0; x < W; x++) {
                        state = state * 6364136223846793005u + 1442695040888963407u;
                        if (state >> 63) bits[y * wpr + x / 64] |= UINT64_C(1) << (x % 64);
                    }
                for (int64_t y = 0; y < H; y++)
                    for (int64_t x = 0; x < PW; x++) {
                        const int64_t c = ((x - G) % W + W) % W;
                        if (bits[y * wpr + c / 64] >> (c % 64) & 1) wide[y * pwpr + x / 64] |= UINT64_C(1) << (x % 64);
                    }
                const pl_status got = pl_life_variant_problem(ctx, "cpu-bitpacked", NULL, &cyl, bits);
                const pl_status want = pl_life_variant_problem(ctx, "cpu-naive", NULL, &plane, wide);
                int64_t wrong = 0;
                for (int64_t y = 0; y < H; y++)
                    for (int64_t x = 0; x < W; x++)
                        wrong += (bits[y * wpr + x / 64] >> (x % 64) & 1) != (wide[y * pwpr + (x + G) / 64] >> ((x + G) % 64) & 1);
                CHECK(got == PL_OK && want == PL_OK && wrong == 0,
                      "cylinder %lldx%lld, %lld gens, %s, %d threads: %lld cells differ from the wrapped plane (%s)",
                      (long long)W, (long long)H, (long long)G, r ? "B36/S23" : "B3/S23", threads, (long long)wrong,
                      got != PL_OK || want != PL_OK ? pl_last_error() : "ran");
                free(bits), free(wide);
            }
        uint64_t one = 1;
        pl_life_problem cyl = {.W = 8, .H = 1, .gens = 1, .topology = PL_LIFE_TOPO_CYLINDER};
        pl_life_rule_parse("B3/S23", &cyl.rule);
        CHECK(pl_life_variant_problem(ctx, "cpu-naive", NULL, &cyl, &one) == PL_ERR_UNSUPPORTED,
              "cylinder: cpu-naive must refuse it (it wraps both ways or neither)");
        pl_ctx_destroy(ctx);
    }
}

int main(void)
{
    test_problem_text();
    test_patterns();
    test_sampled_check();
    test_soups();
    test_sparse_soups();
    test_sparse_corners();
    test_sparse_work();
    test_acorn();
    test_best_variant();
    test_gosper_gun();
    test_cylinder();
    return check_summary("test_life");
}
