/* cmd_gemm.c: `parlab gemm A.npy B.npy -o C.npy`, C = alpha*A*B + beta*C0 on .npy files,
 * through pl_sgemm (the best rung) or pl_sgemm_variant (--variant). A and B are float32, or
 * both bfloat16 (ml_dtypes' np.save: descr '<V2'): then the problem is dtype bf16 and a BF16
 * rung runs it; C is float32 either way. Float32 files are never rounded to bfloat16 here.
 * Under mpirun (distributed/summa/summa.h, SUMMA) every rank reads its blocks of A, B (and C0) and writes its
 * block of C with MPI-IO: no rank holds a whole matrix.
 * Exit status: 0 ok; 1 a runtime failure (a file cannot be read or written, is malformed,
 * is not a float32 matrix; the device fails); 2 a usage error (bad option or value, shapes
 * that do not multiply, unknown variant). */
#define _POSIX_C_SOURCE 200809L
#include "cli/tool.h"
#include "cli/tool_ranks.h"
#include "core/core.h"
#include "distributed/summa/summa.h"
#include "kernels/gemm/gemm.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: parlab gemm A.npy B.npy -o C.npy [options]\n"
          "\n"
          "Multiply two float32 matrices stored as .npy files: C = alpha*A*B + beta*C0.\n"
          "A is M x K and B is K x N, rank-2 float32 arrays in C order; C is written as\n"
          "float32 M x N (.npy version 1.0), whole or not at all.\n"
          "A and B may both be bfloat16 instead (np.save of an ml_dtypes.bfloat16 array,\n"
          "descr '<V2'): a BF16 rung multiplies them, accumulating in FP32, and C is float32.\n"
          "float32 files are never rounded to bfloat16: round them first to run in BF16.\n"
          "\n"
          "options:\n"
          "  -o, --output C.npy  where to write C (required)\n"
          "  --variant V         the GEMM variant to run (an unknown name lists the valid\n"
          "                      ones); default: the best one the backend can run (for\n"
          "                      bfloat16 files, the best BF16 one)\n"
          "  --alpha X           scale of A*B (default 1)\n"
          "  --beta Y            scale of C0 (default 0); needs --c0\n"
          "  --c0 C0.npy         the initial C, float32 M x N; needs --beta\n"
          TOOL_USAGE_OPTIONS
          "\n"
          "Prints one line: C = A*B: MxN (K=k), variant V, T ms\n"
          "where T is the time of the multiplication call alone (with CUDA, including the\n"
          "copies to and from the device).\n"
          "\n"
          "Before reading the inputs, and again before allocating C (and, with CUDA, before\n"
          "copying to the device), the memory the multiplication takes is compared with what\n"
          "this process may take: available memory and the cgroup limit (and the GPU's free\n"
          "memory); too much is a usage error that names the estimate and the limit.\n"
          "\n"
          TOOL_USAGE_OUTPUT TOOL_USAGE_NO_STDOUT
          "\n"
          "exit status: 0 success; 1 runtime failure (a file cannot be read or written, is\n"
          "not a valid .npy file, or is not a float32 matrix; a device error); 2 usage error\n"
          "(bad option or value, an empty file name, shapes that do not multiply, unknown\n"
          "variant, a problem too big for this machine's memory, A and B of different types,\n"
          "a variant of the other type than the files').\n",
          f);
}

enum { O_ALPHA = CLI_OPT_OWN, O_BETA, O_C0 };
static const cli_opt options[] = {
    CLI_ROWS_OUTPUT, CLI_ROWS_RUN, {"--alpha", "X", O_ALPHA, 0, NULL}, {"--beta", "Y", O_BETA, 0, NULL},
    {"--c0", "C0.npy", O_C0, 0, NULL},
};

/* What the command line asks for. */
typedef struct gemm_args {
    tool_common co;
    const char *in[2]; /* A.npy, B.npy */
    const char *c0_path;
    float alpha, beta;
    int beta_given;
} gemm_args;

static int take_option(void *user, const cli_opt *o, const char *val)
{
    gemm_args *g = user;
    switch (o->id) {
    case O_C0: g->c0_path = val; return PL_EXIT_OK;
    case O_ALPHA: return tool_parse_real("gemm", o->name, val, &g->alpha);
    case O_BETA: g->beta_given = 1; return tool_parse_real("gemm", o->name, val, &g->beta);
    }
    return tool_common_option("gemm", &g->co, o, val);
}

/* The options, and every check that needs no file read: two inputs, an output that can be
 * written, --beta and --c0 together. CLI_GO_ON or the exit status. */
static int parse_args(int argc, char **argv, gemm_args *g)
{
    cli_args a = {.cmd = "gemm", .opts = options, .n_opts = sizeof options / sizeof *options, .pos = g->in,
                  .max_pos = 2, .takes = "A.npy B.npy"};
    int rc = cli_parse(&a, argc, argv, take_option, g, usage);
    if (rc != CLI_GO_ON) return rc;
    if (a.n_pos != 2) {
        cli_error("gemm: needs two input files, A.npy and B.npy (see parlab gemm --help)");
        return PL_EXIT_USAGE;
    }
    if ((rc = tool_need_output("gemm", &g->co, "C.npy")) != 0) return rc;
    const char *inputs[] = {g->in[0], g->in[1], g->c0_path};
    if (pl_dist_rank() == 0 && /* under mpirun rank 0 alone checks */
        (rc = tool_check_output("gemm", "-o", g->co.out_path, inputs, 3, TOOL_OUT_FILE_ONLY)) != 0)
        return rc;
    if (g->beta != 0.0f && !g->c0_path) {
        cli_error("gemm: --beta %g needs --c0 C0.npy (the initial C)", (double)g->beta);
        return PL_EXIT_USAGE;
    }
    if (g->c0_path && !g->beta_given) {
        cli_error("gemm: --c0 needs --beta (C = alpha*A*B + beta*C0; with beta 0, C0 is unused)");
        return PL_EXIT_USAGE;
    }
    return CLI_GO_ON;
}

/* The operands' shapes (pl_gemm_check_shapes; c0 NULL: none): exit 2 where they do not fit. */
static int check_shapes(const gemm_args *g, const int64_t *a, const int64_t *b, const int64_t *c0)
{
    if (pl_gemm_check_shapes(g->in[0], a, g->in[1], b, g->c0_path, c0) == PL_OK) return PL_EXIT_OK;
    cli_error("gemm: %s", pl_last_error());
    return PL_EXIT_USAGE;
}

/* A and B (their files' sizes checked against the memory first), shapes that multiply. */
static int read_inputs(const gemm_args *g, pl_array *A, pl_array *B)
{
    int rc;
    const double in_bytes = tool_file_bytes(g->in[0]) + tool_file_bytes(g->in[1]) + tool_file_bytes(g->c0_path);
    if ((rc = tool_fits_host("gemm", "reading the inputs", in_bytes)) != 0 ||
        (rc = tool_read_f32_or_bf16("gemm", g->in[0], 2, 2, A)) != 0 ||
        (rc = tool_read_f32_or_bf16("gemm", g->in[1], 2, 2, B)) != 0)
        return rc;
    if (A->dtype != B->dtype) {
        cli_error("gemm: %s is %s and %s is %s: A and B must be both float32 or both bfloat16", g->in[0],
                  pl_dtype_name(A->dtype), g->in[1], pl_dtype_name(B->dtype));
        return PL_EXIT_USAGE;
    }
    return check_shapes(g, A->shape, B->shape, NULL);
}

/* C, M x N: C0 read (C is computed in place), or allocated. */
static int make_c(const gemm_args *g, const pl_array *A, const pl_array *B, pl_array *C)
{
    int rc;
    const int64_t M = A->shape[0], N = B->shape[1];
    if (g->c0_path) {
        rc = tool_read_f32("gemm", g->c0_path, 2, 2, C);
        return rc != 0 ? rc : check_shapes(g, A->shape, B->shape, C->shape);
    }
    int64_t count;
    if (pl_mul_overflow(M, N, &count) || (uint64_t)count > SIZE_MAX / sizeof(float)) {
        cli_error("gemm: C = %lldx%lld is too large", (long long)M, (long long)N);
        return PL_EXIT_USAGE;
    }
    char what[96];
    snprintf(what, sizeof what, "C (%lldx%lld float32)", (long long)M, (long long)N);
    return tool_alloc_f32("gemm", what, 2, (int64_t[]){M, N}, C);
}

/* One multiplication, for tool_run: C = alpha*A*B + beta*C on the problem p by the rung; with
 * no rung (M, N or K 0) nothing to multiply: A*B is all zeros (or empty). */
typedef struct gemm_call {
    const pl_gemm_problem *p;
    const pl_array *A, *B;
    pl_array *C;
} gemm_call;

static pl_status multiply(pl_ctx *ctx, const char *rung, void *user)
{
    const gemm_call *g = user;
    float *c = g->C->data;
    if (rung) return pl_gemm_variant_problem(ctx, rung, NULL, g->p, g->A->data, g->B->data, c);
    for (int64_t i = 0; i < g->p->M * g->p->N; i++) c[i] = g->p->beta != 0.0f ? g->p->beta * c[i] : 0.0f;
    return PL_OK;
}

/* ---------------------------------------------------------------- on the ranks of mpirun */

/* C = alpha*A*B + beta*C0 by SUMMA on the ranks: each rank's blocks of A, B (and C0) read,
 * its block of C written, by MPI-IO; every failure point agreed. */
static int gemm_on_ranks(const gemm_args *g, const pl_variant *variant)
{
    static const pl_dtype f32[] = {PL_F32};
    pl_dist_npy hA, hB, hC;
    pl_dist_grid grid;
    int have_grid = 0;
    void *A = NULL, *B = NULL, *C = NULL;
    pl_ctx *ctx = NULL;
    pl_dist_times t = {0, 0, 0};
    memset(&hC, 0, sizeof hC);
    const char *files[] = {g->in[0], g->in[1], g->c0_path};
    int rc = cli_status(pl_dist_npy_only("gemm", files, 3, g->co.out_path));
    if (rc == 0) rc = cli_status(pl_dist_npy_header_of("gemm", g->in[0], f32, 1, &hA));
    if (rc == 0) rc = cli_status(pl_dist_npy_header_of("gemm", g->in[1], f32, 1, &hB));
    if (rc == 0 && g->c0_path) rc = cli_status(pl_dist_npy_header_of("gemm", g->c0_path, f32, 1, &hC));
    if (rc == 0) rc = cli_agree(check_shapes(g, hA.shape, hB.shape, g->c0_path ? hC.shape : NULL)); /* from the headers */
    const int64_t M = hA.shape[0], K = hA.shape[1], N = hB.shape[1];
    if (rc == 0) rc = tool_ranks_status(pl_dist_grid_create(&grid, M, N, 0)), have_grid = rc == 0;
    if (rc == 0) rc = tool_ranks_status(pl_dist_gemm_check(&grid, M, N, K));
    if (rc == 0) rc = tool_ranks_context(&pl_gemm_kernel, &g->co, variant, &ctx);
    if (rc == 0) rc = cli_status(pl_dist_npy_read_mine("gemm", &grid, g->in[0], &hA, &A));
    if (rc == 0) rc = cli_status(pl_dist_npy_read_mine("gemm", &grid, g->in[1], &hB, &B));
    const pl_dist_block bc = have_grid ? pl_dist_block_of(&grid, M, N) : (pl_dist_block){0, 0, 0, 0};
    const int64_t ka = have_grid ? pl_dist_block_of(&grid, M, K).x1 - pl_dist_block_of(&grid, M, K).x0 : 0;
    if (rc == 0 && g->c0_path) rc = cli_status(pl_dist_npy_read_mine("gemm", &grid, g->c0_path, &hC, &C));
    else if (rc == 0) {
        const int64_t n = (bc.y1 - bc.y0) * (bc.x1 - bc.x0);
        int mine = tool_fits_host("gemm", "this rank's block of C", 4.0 * (double)n);
        if (mine == 0 && !(C = pl_alloc((size_t)n * 4))) {
            cli_error("gemm: cannot allocate this rank's block of C");
            mine = PL_EXIT_FAIL;
        }
        rc = cli_agree(mine);
    }
    double ms = 0;
    if (rc == 0) {
        const double t0 = pl_now();
        rc = tool_ranks_status(pl_dist_sgemm_variant(&grid, ctx, variant ? variant->name : NULL, NULL, 0, M, N, K,
                                                    g->alpha, A, ka, B, bc.x1 - bc.x0, g->beta, C, bc.x1 - bc.x0, &t));
        ms = pl_dist_max(pl_now() - t0) * 1e3;
    }
    if (rc == 0) rc = tool_ranks_status(pl_dist_npy_write(&grid, g->co.out_path, PL_F32, M, N, C, bc.x1 - bc.x0));
    if (rc == 0) {
        if (g->alpha == 1.0f && !g->beta_given) printf("C = A*B");
        else printf("C = %g*A*B + %g*C0", (double)g->alpha, (double)g->beta);
        printf(": %lldx%lld (K=%lld), variant %s on %d rank%s (%dx%d, SUMMA), %.3f ms\n", (long long)M, (long long)N,
               (long long)K, variant ? variant->name : pl_best_variant(ctx, &pl_gemm_kernel, NULL), grid.size,
               grid.size > 1 ? "s" : "", grid.dims[0], grid.dims[1], ms);
        tool_ranks_report(&t);
    }
    pl_ctx_destroy(ctx);
    if (have_grid) pl_dist_grid_destroy(&grid);
    pl_free(A), pl_free(B), pl_free(C);
    return rc;
}

int pl_cmd_gemm(int argc, char **argv)
{
    gemm_args g = {.co = TOOL_COMMON_INIT, .alpha = 1.0f};
    const pl_variant *variant = NULL;
    int rc;
    if (pl_dist_active()) { /* the output was checked on rank 0 alone: every rank agrees on it */
        if ((rc = tool_ranks_parsed(parse_args(argc, argv, &g))) != CLI_GO_ON ||
            (rc = cli_agree(tool_find_variant("gemm", &pl_gemm_kernel, &g.co, &variant))) != 0)
            return rc;
        return gemm_on_ranks(&g, variant);
    }
    if ((rc = parse_args(argc, argv, &g)) != CLI_GO_ON ||
        (rc = tool_find_variant("gemm", &pl_gemm_kernel, &g.co, &variant)) != 0)
        return rc;
    pl_array A = {0}, B = {0}, C = {0};
    const char *ran = NULL;
    double ms = 0;
    if ((rc = read_inputs(&g, &A, &B)) == 0 && (rc = make_c(&g, &A, &B, &C)) == 0) {
        const int64_t M = A.shape[0], N = B.shape[1], K = A.shape[1];
        const pl_gemm_problem p = {.M = M, .N = N, .K = K, .lda = K, .ldb = N, .ldc = N,
                                   .alpha = g.alpha, .beta = g.beta, .dtype = A.dtype};
        gemm_call call = {&p, &A, &B, &C};
        if (variant && pl_variant_takes(&pl_gemm_kernel, variant, &p) != PL_OK) {
            cli_error("%s (the files are %s)", pl_last_error(), pl_dtype_name(A.dtype));
            rc = PL_EXIT_USAGE;
        } else if ((rc = tool_run(&pl_gemm_kernel, M && N && K ? &p : NULL, &g.co, variant, multiply, &call, &ran,
                           &ms)) == 0 &&
            (rc = tool_write_npy(g.co.out_path, &C)) == 0) {
            if (g.alpha == 1.0f && !g.beta_given) printf("C = A*B");
            else printf("C = %g*A*B + %g*C0", (double)g.alpha, (double)g.beta);
            printf(": %lldx%lld (K=%lld), variant %s, %.3f ms\n", (long long)M, (long long)N, (long long)K,
                   ran ? ran : "?", ms);
        }
    }
    pl_array_free(&A);
    pl_array_free(&B);
    pl_array_free(&C);
    return rc;
}
