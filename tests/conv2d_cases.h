/* conv2d_cases.h: the problems every conv2d rung is tested on, shared by the CPU and GPU tests.
 * Shapes of the issue (1x1, 2x3, 5x5 with k=5, 33x1000, 1023x1025) and a few more (a thin
 * column, rows of no vector width, K = 15 on an image barely larger than the filter), each in
 * valid mode and in same mode with every border; flip on and off, float32 and int32, rows
 * padded (pad 3 breaks 16-byte row alignment) and not. Small shapes take every combination;
 * the large ones rotate flip and pad through their cases so the suite stays quick.
 *
 * Use: conv2d_case_list() fills the cases (the first n_shapes shapes, as in the GPU test
 * under compute-sanitizer); conv2d_case_problem() makes one as a harness problem;
 * check_conv2d_run() runs a variant on it and checks the result; check_conv2d_cases() does all
 * of it for one variant and parameter set (a param_case_fn for for_each_param_value). */
#ifndef PL_TEST_CONV2D_CASES_H
#define PL_TEST_CONV2D_CASES_H

#include "check.h"
#include "param_cases.h"
#include "harness/harness.h"
#include "kernels/conv2d/conv2d.h"

#include <stdio.h>
#include <string.h>

typedef struct conv2d_case {
    const char *size;
    int k, i32, mode, border, flip, pad; /* mode 0 valid, 1 same; border 0 zero, 1 clamp, 2 reflect */
} conv2d_case;

/* Each shape with the filter sizes tried on it; `every` = 1: every combination of mode,
 * border, flip, dtype and pad; 0: every mode and border with each K and dtype, flip and pad
 * rotating. The last shape (1023x1025) is the one the GPU test leaves out under the sanitizer. */
static const struct conv2d_shape {
    const char *size;
    int ks[5];
    int every;
} conv2d_shapes[] = {
    {"1x1", {1, 3, 0}, 1},
    {"2x3", {1, 3, 0}, 1},
    {"5x5", {5, 3, 0}, 1},
    {"17x15", {15, 7, 0}, 1}, /* K = 15 wider than the image in same mode */
    {"1000x1", {1, 5, 0}, 1},
    {"40x77", {9, 11, 13, 15, 0}, 0},
    {"37x80", {3, 5, 15, 0}, 0}, /* same-mode rows of 320 bytes: cpu-blocked's streaming stores */
    {"33x1000", {3, 5, 7, 15, 0}, 0},
    {"1023x1025", {3, 7, 15, 0}, 0},
};
enum { N_CONV2D_SHAPES = sizeof conv2d_shapes / sizeof conv2d_shapes[0], CONV2D_MAX_CASES = 1024 };

/* The modes: valid, then same with each border. */
static const int conv2d_modes[4][2] = {{0, 0}, {1, 0}, {1, 1}, {1, 2}};

/* Fill cases[] (room for CONV2D_MAX_CASES) from the first n_shapes shapes; returns the count.
 * Valid mode is left out where K does not fit the image. */
static int conv2d_case_list(conv2d_case *cases, int n_shapes)
{
    int n = 0, turn = 0;
    for (int s = 0; s < n_shapes && s < N_CONV2D_SHAPES; s++) {
        const struct conv2d_shape *sh = &conv2d_shapes[s];
        long long h = 0, w = 0;
        if (sscanf(sh->size, "%lldx%lld", &h, &w) != 2) h = w = 0;
        for (int ki = 0; ki < 5 && sh->ks[ki]; ki++)
            for (int m = 0; m < 4; m++) {
                int k = sh->ks[ki];
                if (conv2d_modes[m][0] == 0 && (k > h || k > w)) continue;
                for (int combo = 0; combo < (sh->every ? 8 : 2); combo++) {
                    conv2d_case c = {sh->size, k, 0, conv2d_modes[m][0], conv2d_modes[m][1], 0, 0};
                    if (sh->every) {
                        c.i32 = combo & 1, c.flip = (combo >> 1) & 1, c.pad = (combo >> 2) & 1 ? 3 : 0;
                    } else {
                        c.i32 = combo, c.flip = turn & 1, c.pad = (turn >> 1) & 1 ? 3 : 0;
                        turn++;
                    }
                    if (n < CONV2D_MAX_CASES) cases[n++] = c;
                }
            }
    }
    return n;
}

static void conv2d_case_label(const conv2d_case *c, char *buf, size_t n)
{
    static const char *const borders[] = {"zero", "clamp", "reflect"};
    snprintf(buf, n, "%s k=%d %s %s%s%s pad=%d", c->size, c->k, c->i32 ? "i32" : "f32", c->mode ? "same-" : "valid",
             c->mode ? borders[c->border] : "", c->flip ? " flip" : "", c->pad);
}

/* The case as a harness problem (full check: every output against the reference). */
static pl_status conv2d_case_problem(const conv2d_case *c, uint64_t seed, pl_problem **p)
{
    pl_pvalues pv;
    pl_pvalues_default(&pl_conv2d_kernel, &pv);
    char k[16], dtype[16], mode[16], border[16], flip[16], pad[16];
    snprintf(k, sizeof k, "k=%d", c->k);
    snprintf(dtype, sizeof dtype, "dtype=%s", c->i32 ? "i32" : "f32");
    snprintf(mode, sizeof mode, "mode=%s", c->mode ? "same" : "valid");
    snprintf(border, sizeof border, "border=%s", c->border == 0 ? "zero" : c->border == 1 ? "clamp" : "reflect");
    snprintf(flip, sizeof flip, "flip=%d", c->flip);
    snprintf(pad, sizeof pad, "pad=%d", c->pad);
    const char *sets[] = {k, dtype, mode, border, flip, pad};
    for (int i = 0; i < 6; i++) {
        pl_status s = pl_pvalues_set(&pl_conv2d_kernel, &pv, NULL, sets[i]);
        if (s != PL_OK) return s;
    }
    pl_problem_opts o = {seed, PL_CHECK_FULL, NULL, NULL};
    return pl_problem_create_opts(p, &pl_conv2d_kernel, c->size, &pv, &o);
}

/* v with params (NULL: defaults) on problem p: must run, verify, leave the output's row
 * padding and the inputs alone. */
static void check_conv2d_run(pl_ctx *ctx, pl_problem *p, const pl_variant *v, const int64_t *params,
                             const char *label, const char *what)
{
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    cfg.min_time_s = 0;
    pl_result r;
    pl_status st = pl_bench_variant(ctx, p, v, params, &cfg, &r);
    CHECK(st == PL_OK, "%s on %s: run failed: %s", label, what, pl_last_error());
    CHECK(st != PL_OK || r.verified,
          "%s on %s: wrong (error %g, elem ratio %g, worst at out[%lld][%lld]), padding %s, inputs %s", label, what,
          r.error, r.first.elem_ratio > r.last.elem_ratio ? r.first.elem_ratio : r.last.elem_ratio,
          (long long)r.first.row, (long long)r.first.col, r.padding_ok ? "ok" : "WRITTEN",
          r.inputs_ok ? "ok" : "CHANGED");
}

/* Every case of the first n_shapes shapes for one variant and parameter set. */
static void check_conv2d_cases(pl_ctx *ctx, const pl_variant *v, const int64_t *params, const char *label,
                               int n_shapes)
{
    static conv2d_case cases[CONV2D_MAX_CASES];
    int n = conv2d_case_list(cases, n_shapes);
    for (int i = 0; i < n; i++) {
        char what[96];
        conv2d_case_label(&cases[i], what, sizeof what);
        pl_problem *p = NULL;
        pl_status st = conv2d_case_problem(&cases[i], 5 + (uint64_t)i, &p);
        CHECK(st == PL_OK, "problem %s: %s", what, pl_last_error());
        if (st != PL_OK) continue;
        check_conv2d_run(ctx, p, v, params, label, what);
        pl_problem_destroy(p);
    }
}

/* The defaults, then every legal value of each LIST/CHOICE parameter (one at a time). */
__attribute__((unused)) static void check_conv2d_all_params(pl_ctx *ctx, const pl_variant *v, int n_shapes)
{
    for_each_param_value(ctx, v, 0, &pl_conv2d_kernel,
                         "skipped: %s isa=avx512 runs: no AVX-512 here (refusal checked)\n", check_conv2d_cases,
                         n_shapes);
}

#endif
