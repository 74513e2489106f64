/* cmd_transpose.c: `parlab transpose A.npy -o B.npy`, B = A^T on .npy files, through
 * pl_stranspose (the best rung) or pl_stranspose_variant (--variant).
 * Exit status: 0 ok; 1 a runtime failure (a file cannot be read or written, is malformed, is
 * not a float32 matrix; the device fails); 2 a usage error (bad option or value, unknown
 * variant, too big for this machine's memory). */
#define _POSIX_C_SOURCE 200809L
#include "cli/tool.h"
#include "core/core.h"
#include "kernels/transpose/transpose.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: parlab transpose A.npy -o B.npy [options]\n"
          "\n"
          "Transpose a float32 matrix stored as a .npy file: B = A^T. A is M x N, a rank-2\n"
          "float32 array in C order; B is written as float32 N x M (.npy version 1.0), whole\n"
          "or not at all. The values are moved, never rounded: B equals numpy's A.T exactly.\n"
          "\n"
          "options:\n"
          "  -o, --output B.npy  where to write B (required)\n"
          "  --variant V         the transpose variant to run (an unknown name lists the\n"
          "                      valid ones); default: the best one the backend can run\n"
          TOOL_USAGE_OPTIONS
          "\n"
          "Prints one line: B = A^T: NxM (A MxN), variant V, T ms\n"
          "where T is the time of the transpose call alone (with CUDA, including the copies\n"
          "to and from the device).\n"
          "\n"
          "Before reading A, and again before allocating B (and, with CUDA, before copying to\n"
          "the device), the memory it takes is compared with what this process may take;\n"
          "too much is a usage error that names the estimate and the limit.\n"
          "\n"
          TOOL_USAGE_OUTPUT TOOL_USAGE_NO_STDOUT
          "\n"
          "exit status: 0 success; 1 runtime failure (a file cannot be read or written, is\n"
          "not a valid .npy file, or is not a float32 matrix; a device error); 2 usage error\n"
          "(bad option or value, an empty file name, unknown variant, a problem too big for\n"
          "this machine's memory).\n",
          f);
}

static const cli_opt options[] = {CLI_ROWS_OUTPUT, CLI_ROWS_RUN};

static int take_option(void *user, const cli_opt *o, const char *val)
{
    return tool_common_option("transpose", user, o, val);
}

/* The options; one input and an output that can be written. CLI_GO_ON or the exit status. */
static int parse_args(int argc, char **argv, tool_common *co, const char **in_path)
{
    cli_args a = {.cmd = "transpose", .opts = options, .n_opts = sizeof options / sizeof *options, .pos = in_path,
                  .max_pos = 1, .takes = "one input, A.npy"};
    int rc = cli_parse(&a, argc, argv, take_option, co, usage);
    if (rc != CLI_GO_ON) return rc;
    if (!*in_path) {
        cli_error("transpose: needs an input file, A.npy (see parlab transpose --help)");
        return PL_EXIT_USAGE;
    }
    if ((rc = tool_need_output("transpose", co, "B.npy")) != 0) return rc;
    if ((rc = tool_check_output("transpose", "-o", co->out_path, in_path, 1, TOOL_OUT_FILE_ONLY)) != 0) return rc;
    return CLI_GO_ON;
}

/* A read, B (N x M) allocated. */
static int read_operands(const char *in_path, pl_array *A, pl_array *B)
{
    int rc;
    if ((rc = tool_fits_host("transpose", "reading the input", tool_file_bytes(in_path))) != 0 ||
        (rc = tool_read_f32("transpose", in_path, 2, 2, A)) != 0)
        return rc;
    const int64_t M = A->shape[0], N = A->shape[1]; /* M x N fits: A was read whole */
    char what[96];
    snprintf(what, sizeof what, "B (%lldx%lld float32)", (long long)N, (long long)M);
    return tool_alloc_f32("transpose", what, 2, (int64_t[]){N, M}, B);
}

/* One transpose, for tool_run: B = A^T on the problem p by the rung (none: A is empty). */
typedef struct transpose_call {
    const pl_transpose_problem *p;
    const pl_array *A;
    pl_array *B;
} transpose_call;

static pl_status transpose(pl_ctx *ctx, const char *rung, void *user)
{
    const transpose_call *t = user;
    return rung ? pl_transpose_variant_problem(ctx, rung, NULL, t->p, t->A->data, t->B->data) : PL_OK;
}

int pl_cmd_transpose(int argc, char **argv)
{
    tool_common co = TOOL_COMMON_INIT;
    const char *in_path = NULL;
    const pl_variant *variant = NULL;
    int rc;
    if ((rc = parse_args(argc, argv, &co, &in_path)) != CLI_GO_ON ||
        (rc = tool_find_variant("transpose", &pl_transpose_kernel, &co, &variant)) != 0)
        return rc;
    pl_array A = {0}, B = {0};
    const char *ran = NULL;
    double ms = 0;
    if ((rc = read_operands(in_path, &A, &B)) == 0) {
        const int64_t M = A.shape[0], N = A.shape[1];
        const pl_transpose_problem p = {.M = M, .N = N, .lda = N, .ldb = M};
        transpose_call call = {&p, &A, &B};
        if ((rc = tool_run(&pl_transpose_kernel, M && N ? &p : NULL, &co, variant,
                           transpose, &call, &ran, &ms)) == 0 &&
            (rc = tool_write_npy(co.out_path, &B)) == 0)
            printf("B = A^T: %lldx%lld (A %lldx%lld), variant %s, %.3f ms\n", (long long)N, (long long)M,
                   (long long)M, (long long)N, ran ? ran : "?", ms);
    }
    pl_array_free(&A);
    pl_array_free(&B);
    return rc;
}
