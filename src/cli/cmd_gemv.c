/* cmd_gemv.c: `parlab gemv A.npy x.npy -o y.npy`, y = alpha*A*x (or alpha*A^T*x with
 * --trans) on .npy files, through pl_sgemv (the best rung) or pl_sgemv_variant (--variant).
 * Exit status as `parlab gemm`: 0 ok; 1 a runtime failure (a file cannot be read or written,
 * is malformed, is not float32 of the right rank; the device fails); 2 a usage error (bad
 * option or value, shapes that do not fit, unknown variant, too big for this machine). */
#include "cli/tool.h"
#include "core/core.h"
#include "kernels/gemv/gemv.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: parlab gemv A.npy x.npy -o y.npy [options]\n"
          "\n"
          "Multiply a float32 matrix by a vector, stored as .npy files: y = alpha*A*x, or\n"
          "y = alpha*A^T*x with --trans. A is M x N (rank 2, C order); x is a rank-1 float32\n"
          "array of N elements (M with --trans); y is written as a rank-1 float32 array of M\n"
          "elements (N with --trans), .npy version 1.0, whole or not at all.\n"
          "\n"
          "options:\n"
          "  -o, --output y.npy  where to write y (required)\n"
          "  --trans             y = alpha*A^T*x\n"
          "  --alpha X           scale of the product (default 1)\n"
          "  --variant V         the GEMV variant to run (an unknown name lists the valid\n"
          "                      ones); default: the best one the backend can run\n"
          TOOL_USAGE_OPTIONS
          "\n"
          "Prints one line: y = A*x: MxN, variant V, T ms\n"
          "where T is the time of the call alone (with CUDA, including the copies).\n"
          "\n"
          TOOL_USAGE_OUTPUT TOOL_USAGE_NO_STDOUT
          "\n"
          "exit status: 0 success; 1 runtime failure (a file cannot be read or written, is\n"
          "not a valid .npy file, or is not float32 of the right rank; a device error); 2\n"
          "usage error (bad option or value, an empty file name, shapes that do not fit,\n"
          "unknown variant, a problem too big for this machine's memory).\n",
          f);
}

enum { O_TRANS = CLI_OPT_OWN, O_ALPHA };
static const cli_opt options[] = {
    CLI_ROWS_OUTPUT, CLI_ROWS_RUN, {"--trans", NULL, O_TRANS, 0, NULL}, {"--alpha", "X", O_ALPHA, 0, NULL},
};

/* What the command line asks for. */
typedef struct gemv_args {
    tool_common co;
    const char *in[2]; /* A.npy, x.npy */
    int trans;
    float alpha;
} gemv_args;

static int take_option(void *user, const cli_opt *o, const char *val)
{
    gemv_args *g = user;
    switch (o->id) {
    case O_TRANS: g->trans = 1; return PL_EXIT_OK;
    case O_ALPHA: return tool_parse_real("gemv", o->name, val, &g->alpha);
    }
    return tool_common_option("gemv", &g->co, o, val);
}

/* The options; two inputs and an output that can be written. CLI_GO_ON or the exit status. */
static int parse_args(int argc, char **argv, gemv_args *g)
{
    cli_args a = {.cmd = "gemv", .opts = options, .n_opts = sizeof options / sizeof *options, .pos = g->in,
                  .max_pos = 2, .takes = "A.npy x.npy"};
    int rc = cli_parse(&a, argc, argv, take_option, g, usage);
    if (rc != CLI_GO_ON) return rc;
    if (a.n_pos != 2) {
        cli_error("gemv: needs two input files, A.npy and x.npy (see parlab gemv --help)");
        return PL_EXIT_USAGE;
    }
    if ((rc = tool_need_output("gemv", &g->co, "y.npy")) != 0) return rc;
    if ((rc = tool_check_output("gemv", "-o", g->co.out_path, g->in, 2, TOOL_OUT_FILE_ONLY)) != 0) return rc;
    return CLI_GO_ON;
}

/* A and x read, x as long as op(A) has columns, y allocated. */
static int read_operands(const gemv_args *g, pl_array *A, pl_array *x, pl_array *y)
{
    int rc;
    const double in_bytes = tool_file_bytes(g->in[0]) + tool_file_bytes(g->in[1]);
    if ((rc = tool_fits_host("gemv", "reading the inputs", in_bytes)) != 0 ||
        (rc = tool_read_f32("gemv", g->in[0], 2, 2, A)) != 0 || (rc = tool_read_f32("gemv", g->in[1], 1, 1, x)) != 0)
        return rc;
    const int64_t M = A->shape[0], N = A->shape[1], nx = g->trans ? M : N, ny = g->trans ? N : M;
    if (x->shape[0] != nx) {
        cli_error("gemv: shapes do not fit: %s is %lldx%lld, %s has %lld elements (x must have %s = %lld%s)", g->in[0],
                  (long long)M, (long long)N, g->in[1], (long long)x->shape[0], g->trans ? "M" : "N", (long long)nx,
                  g->trans ? ", A's rows, with --trans" : ", A's columns; --trans takes M");
        return PL_EXIT_USAGE;
    }
    char what[96];
    snprintf(what, sizeof what, "y (%lld float32)", (long long)ny);
    return tool_alloc_f32("gemv", what, 1, &ny, y);
}

/* One product, for tool_run: y = alpha*op(A)*x on the problem p by the rung; with no rung (M or
 * N 0) an empty sum: y is all zeros (or empty). */
typedef struct gemv_call {
    const pl_gemv_problem *p;
    const pl_array *A, *x;
    pl_array *y;
} gemv_call;

static pl_status multiply(pl_ctx *ctx, const char *rung, void *user)
{
    const gemv_call *g = user;
    if (rung) return pl_gemv_variant_problem(ctx, rung, NULL, g->p, g->A->data, g->x->data, g->y->data);
    memset(g->y->data, 0, (size_t)g->y->shape[0] * sizeof(float));
    return PL_OK;
}

int pl_cmd_gemv(int argc, char **argv)
{
    gemv_args g = {.co = TOOL_COMMON_INIT, .alpha = 1.0f};
    const pl_variant *variant = NULL;
    int rc;
    if ((rc = parse_args(argc, argv, &g)) != CLI_GO_ON ||
        (rc = tool_find_variant("gemv", &pl_gemv_kernel, &g.co, &variant)) != 0)
        return rc;
    pl_array A = {0}, x = {0}, y = {0};
    const char *ran = NULL;
    double ms = 0;
    if ((rc = read_operands(&g, &A, &x, &y)) == 0) {
        const pl_gemv_problem p = {.M = A.shape[0], .N = A.shape[1], .lda = A.shape[1], .trans = g.trans,
                                   .alpha = g.alpha, .beta = 0.0f};
        gemv_call call = {&p, &A, &x, &y};
        if ((rc = tool_run(&pl_gemv_kernel, p.M && p.N ? &p : NULL, &g.co, variant, multiply,
                           &call, &ran, &ms)) == 0 &&
            (rc = tool_write_npy(g.co.out_path, &y)) == 0) {
            if (g.alpha == 1.0f) printf("y = A%s*x", g.trans ? "^T" : "");
            else printf("y = %g*A%s*x", (double)g.alpha, g.trans ? "^T" : "");
            printf(": %lldx%lld, variant %s, %.3f ms\n", (long long)p.M, (long long)p.N, ran ? ran : "?", ms);
        }
    }
    pl_array_free(&A);
    pl_array_free(&x);
    pl_array_free(&y);
    return rc;
}
