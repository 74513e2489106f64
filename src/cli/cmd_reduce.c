/* cmd_reduce.c: the reduce room's file tools.
 *   parlab reduce A.npy --op sum|mean|min|max|sumsq --axis 1|0 -o r.npy [--variant V]
 *     r = op over each row (axis 1) or column (axis 0) of a float32 matrix, as NumPy's
 *     A.op(axis=...) (a 1-D float32 result), through pl_sreduce or the named variant.
 *   parlab dot x.npy y.npy [--variant V]: prints sum_i x_i y_i of two float32 vectors.
 * Under mpirun (distributed/reduce/reduce_ranks.h) reduce runs on the ranks: each reads its block of A with MPI-IO
 * and reduces it, the partials are combined across ranks, rank 0 writes r; dot runs on one.
 * Exit status as `parlab gemm`: 0 ok; 1 a runtime failure (a file cannot be read or written,
 * is malformed or not float32 of the right rank; the device fails); 2 a usage error (bad
 * option or value, shapes that do not fit, unknown variant, too big for memory). */
#define _POSIX_C_SOURCE 200809L
#include "cli/tool.h"
#include "cli/tool_ranks.h"
#include "core/core.h"
#include "distributed/reduce/reduce_ranks.h"
#include "kernels/reduce/reduce.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void usage_reduce(FILE *f)
{
    fputs("usage: parlab reduce A.npy --op OP --axis 1|0 -o r.npy [options]\n"
          "\n"
          "Reduce each row (--axis 1: one value per row) or each column (--axis 0) of a float32\n"
          "matrix stored as .npy (rank 2, C order), as NumPy's A.sum(axis=1) and friends. OP is\n"
          "sum, mean, min, max or sumsq (the sum of squares); min and max give NaN where a NaN\n"
          "is among the terms. r is written as a 1-D float32 .npy, whole or not at all.\n"
          "\n"
          "options:\n"
          "  --op OP             sum|mean|min|max|sumsq (default sum)\n"
          "  --axis A            1: per row, 0: per column (default 1); as NumPy, -1 is the\n"
          "                      last axis (= 1) and -2 the first (= 0)\n"
          "  -o, --output r.npy  where to write r (required)\n"
          "  --variant V         the reduce variant to run (default: the best the backend can run)\n"
          "  --threads N         " CLI_THREADS_HELP "\n"
          "  --backend B         cpu, cuda or auto (default auto; with --variant, its backend)\n"
          "  --device D          CUDA device ordinal (default 0)\n"
          "  -h, --help          show this help\n"
          "\n"
          "Prints one line: r = OP(A, axis=A): R values from MxN, variant V, T ms.\n"
          "\n"
          TOOL_USAGE_OUTPUT TOOL_USAGE_NO_STDOUT
          "\n"
          "exit status: 0 success; 1 runtime failure (unreadable or malformed file, not a\n"
          "float32 matrix, device error); 2 usage error (bad option or value, unknown variant,\n"
          "min/max of an empty axis, too big for this machine's memory).\n",
          f);
}

static void usage_dot(FILE *f)
{
    fputs("usage: parlab dot x.npy y.npy [options]\n"
          "\n"
          "Print the dot product sum_i x_i y_i of two float32 vectors (.npy, rank 1, the same\n"
          "length), accumulated in float32 by the best rung (accurate: blocked/pairwise sums).\n"
          "\n"
          "options:\n"
          "  --variant V         the dot variant to run (default: the best the backend can run)\n"
          TOOL_USAGE_OPTIONS
          "\n"
          "Prints the value alone (%.9g: every float32 digit). exit status: 0 success; 1 runtime\n"
          "failure; 2 usage error (lengths that differ, unknown variant, bad option).\n",
          f);
}

enum { O_OP = CLI_OPT_OWN, O_AXIS };
static const cli_opt reduce_options[] = {
    CLI_ROWS_OUTPUT, CLI_ROWS_RUN, {"--op", "OP", O_OP, 0, NULL}, {"--axis", "A", O_AXIS, 0, NULL},
};
static const cli_opt dot_options[] = {CLI_ROWS_RUN};

/* What the command line asks for (dot: two inputs and the run options alone). */
typedef struct reduce_args {
    const char *cmd; /* "reduce" or "dot" */
    tool_common co;
    const char *in[2];
    int op, axis;
} reduce_args;

static int take_option(void *user, const cli_opt *o, const char *val)
{
    reduce_args *r = user;
    if (o->id == O_OP) {
        for (r->op = 0; pl_reduce_op_names[r->op] && strcmp(pl_reduce_op_names[r->op], val); r->op++) {}
        if (!pl_reduce_op_names[r->op]) {
            cli_error("reduce: --op '%s': expected sum, mean, min, max or sumsq", val);
            return PL_EXIT_USAGE;
        }
        return PL_EXIT_OK;
    }
    if (o->id == O_AXIS) {
        /* NumPy's axes of a 2-D array: 0, 1, and from the end -2 (= 0), -1 (= 1) */
        static const char *const axes[] = {"-2", "-1", "0", "1"};
        int a = 0;
        while (a < 4 && strcmp(val, axes[a])) a++;
        if (a == 4) {
            cli_error("reduce: --axis '%s': out of range for a 2-D array: 1 or -1 (per row), 0 or -2 (per column)",
                      val);
            return PL_EXIT_USAGE;
        }
        r->axis = a % 2;
        return PL_EXIT_OK;
    }
    return tool_common_option(r->cmd, &r->co, o, val);
}

/* A read (reduce's empty axis checked), r allocated. */
static int read_operands(const reduce_args *ra, pl_array *A, pl_array *r)
{
    int rc;
    if ((rc = tool_fits_host("reduce", "reading the input", tool_file_bytes(ra->in[0]))) != 0 ||
        (rc = tool_read_f32("reduce", ra->in[0], 2, 2, A)) != 0)
        return rc;
    const int64_t M = A->shape[0], N = A->shape[1], R = ra->axis ? M : N, n = ra->axis ? N : M;
    if (n == 0 && R > 0 && (ra->op == PL_REDUCE_MIN || ra->op == PL_REDUCE_MAX)) {
        cli_error("reduce: %s is %lldx%lld: %s over an empty axis has no value", ra->in[0], (long long)M, (long long)N,
                  pl_reduce_op_names[ra->op]);
        return PL_EXIT_USAGE;
    }
    char what[64];
    snprintf(what, sizeof what, "r (%lld float32)", (long long)R);
    return tool_alloc_f32("reduce", what, 1, &R, r);
}

/* One reduction, for tool_run: r = op over each row or column of A on the problem p by the rung. */
typedef struct reduce_call {
    const pl_reduce_problem *p;
    const pl_array *A;
    pl_array *r;
} reduce_call;

static pl_status reduce(pl_ctx *ctx, const char *rung, void *user)
{
    const reduce_call *c = user;
    return pl_reduce_variant_problem(ctx, rung, NULL, c->p, c->A->data, c->r->data);
}

/* The reduction of the tool: no outputs, nothing to run; an empty axis needs no rung (as NumPy,
 * the sum of nothing is 0 and its mean NaN); else tool_run. *ran names what ran, *ms its time. */
static int reduce_all(const reduce_args *ra, const pl_variant *variant, const pl_reduce_problem *p,
                      const pl_array *A, pl_array *r, const char **ran, double *ms)
{
    const int64_t R = r->shape[0], n = p->axis ? p->N : p->M;
    *ran = "none (empty)";
    *ms = 0;
    if (R > 0 && n == 0)
        for (int64_t o = 0; o < R; o++) ((float *)r->data)[o] = p->op == PL_REDUCE_MEAN ? NAN : 0.0f;
    if (R == 0 || n == 0) return PL_EXIT_OK;
    reduce_call call = {p, A, r};
    return tool_run(&pl_reduce_kernel, p, &ra->co, variant, reduce, &call, ran, ms);
}

/* A on the ranks of mpirun: each rank's block read with MPI-IO and reduced, the partials
 * combined across ranks, r gathered to rank 0, which writes it; every failure point agreed. */
static int reduce_on_ranks(const reduce_args *ra, const pl_variant *variant)
{
    static const pl_dtype f32[] = {PL_F32};
    pl_dist_npy h;
    pl_dist_grid g;
    int have_grid = 0;
    void *A = NULL;
    pl_array r = {0};
    pl_ctx *ctx = NULL;
    pl_dist_times t = {0, 0, 0};
    int rc = cli_status(pl_dist_npy_only("reduce", ra->in, 1, ra->co.out_path));
    if (rc == 0) rc = cli_status(pl_dist_npy_header_of("reduce", ra->in[0], f32, 1, &h));
    const int64_t M = h.shape[0], N = h.shape[1], R = ra->axis ? M : N;
    if (rc == 0) rc = tool_ranks_status(pl_dist_grid_create(&g, M, N, 0)), have_grid = rc == 0;
    if (rc == 0) rc = tool_ranks_context(&pl_reduce_kernel, &ra->co, variant, &ctx);
    if (rc == 0) rc = cli_status(pl_dist_npy_read_mine("reduce", &g, ra->in[0], &h, &A));
    if (rc == 0) {
        char what[64];
        snprintf(what, sizeof what, "r (%lld float32)", (long long)R);
        rc = cli_agree(pl_dist_rank() == 0 ? tool_alloc_f32("reduce", what, 1, &R, &r) : PL_EXIT_OK);
    }
    const pl_dist_block b = have_grid ? pl_dist_block_of(&g, M, N) : (pl_dist_block){0, 0, 0, 0};
    double ms = 0;
    if (rc == 0) {
        const double t0 = pl_now();
        rc = tool_ranks_status(pl_dist_sreduce_variant(&g, ctx, variant ? variant->name : NULL, NULL, ra->op, ra->axis,
                                                      M, N, A, b.x1 - b.x0, r.data, PL_DIST_TO_ROOT, &t));
        ms = pl_dist_max(pl_now() - t0) * 1e3;
    }
    if (rc == 0) rc = cli_agree(pl_dist_rank() == 0 ? tool_write_npy(ra->co.out_path, &r) : PL_EXIT_OK);
    if (rc == 0) {
        printf("r = %s(A, axis=%d): %lld values from %lldx%lld, variant %s on %d rank%s (%dx%d), %.3f ms\n",
               pl_reduce_op_names[ra->op], ra->axis, (long long)R, (long long)M, (long long)N,
               variant ? variant->name : pl_best_variant(ctx, &pl_reduce_kernel, NULL), g.size, g.size > 1 ? "s" : "",
               g.dims[0], g.dims[1], ms);
        tool_ranks_report(&t);
    }
    pl_ctx_destroy(ctx);
    if (have_grid) pl_dist_grid_destroy(&g);
    pl_free(A);
    pl_array_free(&r);
    return rc;
}

int pl_cmd_reduce(int argc, char **argv)
{
    reduce_args ra = {.cmd = "reduce", .co = TOOL_COMMON_INIT, .op = PL_REDUCE_SUM, .axis = 1};
    cli_args a = {.cmd = "reduce", .opts = reduce_options, .n_opts = sizeof reduce_options / sizeof *reduce_options,
                  .pos = ra.in, .max_pos = 1, .takes = "one input, A.npy"};
    int rc = cli_parse(&a, argc, argv, take_option, &ra, usage_reduce);
    if (rc != CLI_GO_ON) return rc;
    if (!ra.in[0]) {
        cli_error("reduce: needs an input file, A.npy (see parlab reduce --help)");
        return PL_EXIT_USAGE;
    }
    const pl_variant *variant = NULL;
    if (pl_dist_active()) { /* the output checked on rank 0 alone, every rank agrees on it */
        rc = tool_need_output("reduce", &ra.co, "r.npy");
        if (rc == 0 && pl_dist_rank() == 0)
            rc = tool_check_output("reduce", "-o", ra.co.out_path, ra.in, 1, TOOL_OUT_FILE_ONLY);
        if ((rc = cli_agree(rc)) != 0 ||
            (rc = cli_agree(tool_find_variant("reduce", &pl_reduce_kernel, &ra.co, &variant))) != 0)
            return rc;
        return reduce_on_ranks(&ra, variant);
    }
    if ((rc = tool_need_output("reduce", &ra.co, "r.npy")) != 0 ||
        (rc = tool_check_output("reduce", "-o", ra.co.out_path, ra.in, 1, TOOL_OUT_FILE_ONLY)) != 0 ||
        (rc = tool_find_variant("reduce", &pl_reduce_kernel, &ra.co, &variant)) != 0)
        return rc;
    pl_array A = {0}, r = {0};
    const char *ran = NULL;
    double ms = 0;
    if ((rc = read_operands(&ra, &A, &r)) == 0) {
        const int64_t M = A.shape[0], N = A.shape[1];
        const pl_reduce_problem p = {.M = M, .N = N, .lda = N, .op = ra.op, .axis = ra.axis, .offset = 0};
        if ((rc = reduce_all(&ra, variant, &p, &A, &r, &ran, &ms)) == 0 &&
            (rc = tool_write_npy(ra.co.out_path, &r)) == 0)
            printf("r = %s(A, axis=%d): %lld values from %lldx%lld, variant %s, %.3f ms\n", pl_reduce_op_names[ra.op],
                   ra.axis, (long long)r.shape[0], (long long)M, (long long)N, ran, ms);
    }
    pl_array_free(&A);
    pl_array_free(&r);
    return rc;
}

/* One dot product, for tool_run. */
typedef struct dot_call {
    const pl_dot_problem *p;
    const pl_array *x, *y;
    float *result;
} dot_call;

static pl_status dot(pl_ctx *ctx, const char *rung, void *user)
{
    const dot_call *c = user;
    return pl_dot_variant_problem(ctx, rung, NULL, c->p, c->x->data, c->y->data, c->result);
}

/* x and y read, of one length. */
static int read_vectors(const reduce_args *ra, pl_array *x, pl_array *y)
{
    int rc;
    const double in_bytes = tool_file_bytes(ra->in[0]) + tool_file_bytes(ra->in[1]);
    if ((rc = tool_fits_host("dot", "reading the inputs", in_bytes)) != 0 ||
        (rc = tool_read_f32("dot", ra->in[0], 1, 1, x)) != 0 || (rc = tool_read_f32("dot", ra->in[1], 1, 1, y)) != 0)
        return rc;
    if (x->shape[0] != y->shape[0]) {
        cli_error("dot: lengths differ: %s has %lld elements, %s has %lld", ra->in[0], (long long)x->shape[0],
                  ra->in[1], (long long)y->shape[0]);
        return PL_EXIT_USAGE;
    }
    return PL_EXIT_OK;
}

int pl_cmd_dot(int argc, char **argv)
{
    reduce_args ra = {.cmd = "dot", .co = TOOL_COMMON_INIT};
    cli_args a = {.cmd = "dot", .opts = dot_options, .n_opts = sizeof dot_options / sizeof *dot_options, .pos = ra.in,
                  .max_pos = 2, .takes = "x.npy y.npy"};
    int rc = cli_parse(&a, argc, argv, take_option, &ra, usage_dot);
    if (rc != CLI_GO_ON) return rc;
    if (a.n_pos != 2) {
        cli_error("dot: needs two input files, x.npy and y.npy (see parlab dot --help)");
        return PL_EXIT_USAGE;
    }
    const pl_variant *variant = NULL;
    if ((rc = tool_find_variant("dot", &pl_dot_kernel, &ra.co, &variant)) != 0)
        return rc;
    pl_array x = {0}, y = {0};
    const char *ran;
    double ms;
    float result = 0.0f; /* the sum of nothing */
    if ((rc = read_vectors(&ra, &x, &y)) == 0) {
        const pl_dot_problem p = {.N = x.shape[0]};
        dot_call call = {&p, &x, &y, &result};
        if (p.N == 0 || (rc = tool_run(&pl_dot_kernel, &p, &ra.co, variant, dot, &call, &ran, &ms)) == 0)
            printf("%.9g\n", (double)result);
    }
    pl_array_free(&x);
    pl_array_free(&y);
    return rc;
}
