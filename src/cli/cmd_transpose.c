/* cmd_transpose.c: `parlab transpose A.npy -o B.npy`, B = A^T on .npy files, through
 * pl_stranspose (the best rung) or pl_stranspose_variant (--variant).
 * Exit status: 0 ok; 1 a runtime failure (a file cannot be read or written, is malformed, is
 * not a float32 matrix; the device fails); 2 a usage error (bad option or value, unknown
 * variant, too big for this machine's memory). */
#define _POSIX_C_SOURCE 200809L
#include "cli/tool.h"
#include "core/core.h"

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

int pl_cmd_transpose(int argc, char **argv)
{
    const char *in_path = NULL;
    int n_in = 0, rc, handled;
    tool_common co = TOOL_COMMON_INIT;

    static const char *const with_value[] = {"-o", "--output", "--variant", "--threads", "--backend", "--device",
                                             NULL};
    tool_args ta = {"transpose", argc, argv, with_value, NULL, 1, 0};
    char name[32];
    const char *val;
    for (int kind; (kind = tool_next(&ta, name, sizeof name, &val)) != TOOL_END;) {
        if (kind == TOOL_HELP || kind == TOOL_ERROR) return tool_stop(kind, usage);
        if (kind == TOOL_POSITIONAL) {
            if ((rc = tool_positional("transpose", val, &in_path, &n_in, 1, "one input, A.npy")) != 0) return rc;
            continue;
        }
        if ((rc = tool_common_option("transpose", &co, name, val, &handled)) != 0) return rc;
    }
    if (!in_path) {
        cli_error("transpose: needs an input file, A.npy (see parlab transpose --help)");
        return PL_EXIT_USAGE;
    }
    if ((rc = tool_need_output("transpose", &co, "B.npy")) != 0) return rc;
    if ((rc = tool_check_output("transpose", "-o", co.out_path, &in_path, 1, TOOL_OUT_FILE_ONLY)) != 0) return rc;
    const pl_kernel *kernel = pl_kernel_find("transpose");
    const pl_variant *variant = NULL;
    if ((rc = tool_find_variant("transpose", kernel, co.variant_name, &variant, &co.backend, co.backend_given)) != 0)
        return rc;

    pl_array A = {0}, B = {0};
    pl_ctx *ctx = NULL;
    pl_status s;
    if ((rc = tool_fits_host("transpose", "reading the input", tool_file_bytes(in_path))) != 0) goto done;
    if ((rc = tool_read_f32("transpose", in_path, 2, 2, &A)) != 0) goto done;
    int64_t M = A.shape[0], N = A.shape[1], count = M * N; /* fits: A was read whole */
    char what[96];
    snprintf(what, sizeof what, "B (%lldx%lld float32)", (long long)N, (long long)M);
    if ((rc = tool_fits_host("transpose", what, (double)count * sizeof(float))) != 0) goto done;
    rc = PL_EXIT_FAIL;
    B = (pl_array){.dtype = PL_F32, .rank = 2, .shape = {N, M}};
    if (count > 0 && !(B.data = pl_alloc((size_t)count * sizeof(float)))) {
        cli_error("transpose: cannot allocate %s", what);
        goto done;
    }
    {
        char size[64];
        snprintf(size, sizeof size, "%lldx%lld", (long long)M, (long long)N);
        if ((rc = tool_context("transpose", kernel, count > 0 ? size : NULL, NULL, co.backend, co.device, co.threads,
                               variant,
                               &ctx)) != 0)
            goto done;
        rc = PL_EXIT_FAIL;
    }
    const char *ran = variant ? variant->name : pl_transpose_best_variant(ctx);
    double t0 = tool_now();
    if (count == 0) {
        ran = "none (empty)";
        s = PL_OK;
    } else if (variant) {
        s = pl_stranspose_variant(ctx, variant->name, NULL, M, N, A.data, N, B.data, M);
    } else {
        s = pl_stranspose(ctx, M, N, A.data, N, B.data, M);
    }
    double ms = (tool_now() - t0) * 1e3;
    if (s != PL_OK || (s = pl_npy_write(co.out_path, &B)) != PL_OK) {
        rc = cli_fail(s);
        goto done;
    }
    printf("B = A^T: %lldx%lld (A %lldx%lld), variant %s, %.3f ms\n", (long long)N, (long long)M, (long long)M,
           (long long)N, ran ? ran : "?", ms);
    rc = PL_EXIT_OK;

done:
    pl_ctx_destroy(ctx);
    pl_array_free(&A);
    pl_array_free(&B);
    return rc;
}
