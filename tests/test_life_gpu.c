/* test_life_gpu.c: every CUDA life rung equal to the reference, bit for bit, through the
 * harness: soups at sizes that are multiples of no word or tile (1x1, 3x5, 2x3, 31x7, 33x9,
 * 63x65, 64x3, 130x9, 1000x1001, 2000x300, 40x1500: many tiles, ragged edges), torus and plane, rules
 * B3/S23 (the word rungs' Conway path), B36/S23, B2/S and B3678/S34678, at every value of the
 * rung's parameters (block 8/16/32, tblock 1/2/4/8/16; cuda-register's tblock 1..24, warps 4/8/16,
 * rows 16/32 and the smallest tile with the deepest halo; gens 300, 13 and 12: not multiples of
 * every tblock); then patterns through pl_life_variant on a CUDA context: a glider back where it
 * started after 4 W generations on a W x W torus, the Gosper gun's 36 + 5k cells at generation
 * 30k on a plane; and the device memory of the word rungs: a second packed grid, so the grid
 * and its buffer take 2 bits a cell (at most 2.2, issue 12).
 * Label `gpu`: without a GPU it prints "skipped: no GPU" (exit 77). --quick (also under
 * PL_SANITIZER, for compute-sanitizer) runs the small sizes, one rule, gens 13; --rung NAME only
 * that rung's soups and patterns. */
#include "gpu_check.h"
#include "harness/harness.h"
#include "io/life_pattern.h"
#include "kernels/life/life.h"
#include "life_problem.h"
#include "tmpdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --rung NAME: only that rung's soups and patterns (the device scripts' quick runs). */
static const char *only_rung;
static int rung_wanted(pl_ctx *ctx, const pl_variant *v)
{
    return (!only_rung || !strcmp(v->name, only_rung)) && gpu_check_rung(ctx, v);
}

static const char *const rules[] = {"B3/S23", "B36/S23", "B2/S", "B3678/S34678"};
typedef struct soup_case {
    const char *size;
    int gens;
} soup_case;
static const soup_case soups[] = {{"1x1", 300}, {"3x5", 300}, {"2x3", 300}, {"31x7", 300}, {"33x9", 300},
                                  {"63x65", 300}, {"64x3", 300}, {"130x9", 13}, {"1000x1001", 12},
                                  {"2000x300", 13}, {"40x1500", 13}};

/* v with params (the rest of what names them) on p: one run, verified against the reference. */
static void check_run(pl_ctx *ctx, pl_problem *p, const pl_variant *v, const int64_t *params, const char *what)
{
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    cfg.min_time_s = 0;
    char ps[128] = "";
    for (int k = 0; k < v->n_params; k++) {
        const size_t n = strlen(ps);
        snprintf(ps + n, sizeof ps - n, "%s%s=%lld", k ? "," : "", v->params[k].name, (long long)params[k]);
    }
    pl_result res;
    pl_status st = pl_bench_variant(ctx, p, v, params, &cfg, &res);
    CHECK(st == PL_OK, "%s (%s) %s: run failed: %s", v->name, ps, what, pl_last_error());
    CHECK(st != PL_OK || res.verified, "%s (%s) %s: %g bytes differ (first at row %lld byte %lld)", v->name, ps, what,
          res.error, (long long)res.first.row, (long long)res.first.col);
}

/* v at each value of each of its parameters (LISTs: block, tblock, warps, rows), the others at
 * their defaults; with several parameters also the first at its last value and the others at
 * their first (cuda-register: the deepest halo, tblock 24, in the smallest tile, 4 warps of 16
 * rows: 16 of 64 rows written). No parameters: the defaults once. */
static void check_rung(pl_ctx *ctx, pl_problem *p, const pl_variant *v, const char *what)
{
    int64_t def[PL_MAX_PARAMS] = {0}, params[PL_MAX_PARAMS];
    if (pl_params_resolve(v, NULL, def) != PL_OK) {
        CHECK(0, "%s: default parameters: %s", v->name, pl_last_error());
        return;
    }
    if (v->n_params == 0) check_run(ctx, p, v, def, what);
    for (int k = 0; k < v->n_params; k++) {
        if (v->params[k].kind != PL_PARAM_LIST) continue;
        for (int i = 0; i < v->params[k].n_values; i++) {
            memcpy(params, def, sizeof params);
            params[k] = v->params[k].values[i];
            check_run(ctx, p, v, params, what);
        }
    }
    if (v->n_params > 1) {
        int lists = 1;
        for (int k = 0; k < v->n_params; k++) lists &= v->params[k].kind == PL_PARAM_LIST;
        if (!lists) return;
        params[0] = v->params[0].values[v->params[0].n_values - 1];
        for (int k = 1; k < v->n_params; k++) params[k] = v->params[k].values[0];
        check_run(ctx, p, v, params, what);
    }
}

static void test_soups(pl_ctx *ctx, int quick)
{
    const int n_soups = quick ? 7 : (int)(sizeof soups / sizeof soups[0]);
    for (int c = 0; c < n_soups; c++)
        for (int r = 0; r < (quick ? 1 : 4); r++)
            for (int t = 0; t < 2; t++) {
                char gens[32], rule[64], topo[32], what[128];
                const int g = quick ? 13 : soups[c].gens;
                snprintf(gens, sizeof gens, "gens=%d", g);
                snprintf(rule, sizeof rule, "rule=%s", rules[r]);
                snprintf(topo, sizeof topo, "topology=%s", t ? "plane" : "torus");
                snprintf(what, sizeof what, "%s %s %s x%d gens", soups[c].size, rules[r], t ? "plane" : "torus", g);
                const char *const settings[] = {gens, rule, topo, NULL};
                pl_problem *p = life_soup(soups[c].size, 101 + (uint64_t)c * 10 + (uint64_t)r, settings);
                CHECK(p != NULL, "problem %s: %s", what, pl_last_error());
                if (!p) continue;
                for (int i = 0; i < pl_life_kernel.n_variants; i++)
                    if (rung_wanted(ctx, pl_life_kernel.ladder[i])) check_rung(ctx, p, pl_life_kernel.ladder[i], what);
                pl_problem_destroy(p);
            }
}

static int64_t population(const uint64_t *bits, size_t words)
{
    int64_t n = 0;
    for (size_t i = 0; i < words; i++) n += __builtin_popcountll(bits[i]);
    return n;
}

/* A glider on a 37x37 torus is back after 4 * 37 generations (and not after 4); the Gosper gun
 * on a 160x160 plane has 36 + 5k cells at generation 30k (k = 1..10). */
static void test_patterns(pl_ctx *ctx)
{
    pl_life_pattern gun;
    CHECK(pl_life_read(in_tests("data/life/gosper_gun.rle"), &gun) == PL_OK, "reading the gun: %s", pl_last_error());
    for (int i = 0; i < pl_life_kernel.n_variants; i++) {
        const pl_variant *v = pl_life_kernel.ladder[i];
        if (!rung_wanted(ctx, v)) continue;
        uint64_t g[37], start[37];
        memset(start, 0, sizeof start);
        start[0] |= 1ull << 1, start[1] |= 1ull << 2, start[2] |= 7ull; /* the glider */
        memcpy(g, start, sizeof g);
        CHECK(pl_life_variant(ctx, v->name, NULL, 37, 37, g, 4, "B3/S23", 1) == PL_OK && memcmp(g, start, sizeof g) &&
                  population(g, 37) == 5 && g[1] == (start[0] << 1) && g[3] == (start[2] << 1),
              "%s: the glider after 4 generations is not one cell down and right", v->name);
        memcpy(g, start, sizeof g);
        CHECK(pl_life_variant(ctx, v->name, NULL, 37, 37, g, 4 * 37, "B3/S23", 1) == PL_OK &&
                  !memcmp(g, start, sizeof g),
              "%s: the glider is not back after 4*37 generations on the 37x37 torus", v->name);
        if (!gun.bits) continue;
        enum { GW = 160, GWPR = 3 };
        static uint64_t grid[GW * GWPR];
        memset(grid, 0, sizeof grid);
        for (int64_t y = 0; y < gun.h; y++)
            for (int64_t x = 0; x < gun.w; x++)
                if (pl_life_cell(&gun, x, y)) grid[(y + 2) * GWPR + (x + 2) / 64] |= 1ull << ((x + 2) % 64);
        for (int k = 1; k <= 10; k++) {
            pl_status st = pl_life_variant(ctx, v->name, NULL, GW, GW, grid, 30, "B3/S23", 0);
            const int64_t pop = population(grid, GW * GWPR);
            CHECK(st == PL_OK && pop == 36 + 5 * k, "%s: the gun at generation %d has %lld cells, want %d (%s)",
                  v->name, 30 * k, (long long)pop, 36 + 5 * k, st == PL_OK ? "ok" : pl_last_error());
            if (st != PL_OK || pop != 36 + 5 * k) break;
        }
    }
    pl_life_pattern_free(&gun);
}

/* pl_life, the library call, picks its rung by the grid's size (cuda-bitpacked below 1e8 cells,
 * cuda-register from there on) and runs it: a glider on a small torus comes back. */
static void test_best_variant(pl_ctx *ctx)
{
    const pl_kernel *life = pl_kernel_find("life");
    const char *small = pl_best_variant_size(ctx, life, "8192x8192"), *large = pl_best_variant_size(ctx, life, "12000x12000");
    CHECK(small && !strcmp(small, "cuda-bitpacked"), "8192^2 picks %s, want cuda-bitpacked", small ? small : "none");
    CHECK(large && !strcmp(large, "cuda-register"), "12000^2 picks %s, want cuda-register", large ? large : "none");
    const char *any = pl_best_variant(ctx, pl_kernel_find("life"), NULL);
    CHECK(any && !strcmp(any, "cuda-register"), "pl_best_variant picks %s without a grid, want cuda-register", any ? any : "none");
    CHECK(life_call_glider_returns(ctx), "pl_life: the glider is not back after 4*37 generations on the 37x37 "
          "torus (%s)", pl_last_error());
}

/* The word rungs' device memory: the operand (1 bit a cell, rows of whole words) and a second
 * packed grid: 2 bits a cell at 65536^2, at most 2.2 (the harness's pristine copy of an in-out
 * operand for re-runs is its own, not the rung's). */
static void test_device_bits(void)
{
    pl_life_problem p;
    memset(&p, 0, sizeof p);
    p.W = p.H = 65536, p.gens = 100;
    const double cells = (double)p.W * (double)p.H, operand = 8.0 * (double)p.H * (double)pl_life_words_per_row(p.W);
    for (int i = 0; i < pl_life_kernel.n_variants; i++) {
        const pl_variant *v = pl_life_kernel.ladder[i];
        if (strcmp(v->name, "cuda-bitpacked") && strcmp(v->name, "cuda-tuned") && strcmp(v->name, "cuda-register"))
            continue;
        const double bits = 8.0 * (operand + (v->workspace_bytes ? v->workspace_bytes(&p) : 0.0)) / cells;
        CHECK(v->workspace_bytes && bits <= 2.2, "%s: %.3f bits a cell on the device at 65536^2", v->name, bits);
    }
}

int main(int argc, char **argv)
{
    int quick = gpu_check_sanitizer();
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--rung") && i + 1 < argc) only_rung = argv[++i];
        else {
            fprintf(stderr, "usage: test_life_gpu [--quick] [--rung NAME]: bad argument '%s'\n", argv[i]);
            return 2;
        }
    if (only_rung && !pl_variant_find(&pl_life_kernel, only_rung)) {
        fprintf(stderr, "test_life_gpu: --rung %s: no such life rung\n", only_rung);
        return 2;
    }
    pl_ctx *ctx = gpu_check_ctx();
    if (ctx) {
        test_device_bits();
        test_best_variant(ctx);
        test_patterns(ctx);
        test_soups(ctx, quick);
        pl_ctx_destroy(ctx);
    }
    return check_summary("test_life_gpu");
}
