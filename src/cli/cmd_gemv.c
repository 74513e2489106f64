/* cmd_gemv.c: `parlab gemv A.npy x.npy -o y.npy`, y = alpha*A*x (or alpha*A^T*x with
 * --trans) on .npy files, through pl_sgemv (the best rung) or pl_sgemv_variant (--variant).
 * Exit status as `parlab gemm`: 0 ok; 1 a runtime failure (a file cannot be read or written,
 * is malformed, is not float32 of the right rank; the device fails); 2 a usage error (bad
 * option or value, shapes that do not fit, unknown variant, too big for this machine). */
#include "cli/tool.h"
#include "core/core.h"

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

int pl_cmd_gemv(int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL};
    int n_pos = 0, trans = 0, rc, handled;
    tool_common co = TOOL_COMMON_INIT;
    float alpha = 1.0f;

    static const char *const with_value[] = {"-o", "--output", "--variant", "--alpha", "--threads", "--backend",
                                             "--device", NULL};
    static const char *const flags[] = {"--trans", NULL};
    tool_args ta = {"gemv", argc, argv, with_value, flags, 1, 0};
    char name[32];
    const char *val;
    for (int kind; (kind = tool_next(&ta, name, sizeof name, &val)) != TOOL_END;) {
        if (kind == TOOL_HELP || kind == TOOL_ERROR) return tool_stop(kind, usage);
        if (kind == TOOL_POSITIONAL) {
            if ((rc = tool_positional("gemv", val, pos, &n_pos, 2, "A.npy x.npy")) != 0) return rc;
            continue;
        }
        if ((rc = tool_common_option("gemv", &co, name, val, &handled)) != 0) return rc;
        if (handled) continue;
        if (strcmp(name, "--trans") == 0) trans = 1;
        else if (strcmp(name, "--alpha") == 0) {
            if ((rc = tool_parse_real("gemv", name, val, &alpha)) != 0) return rc;
        }
    }
    if (n_pos != 2) {
        cli_error("gemv: needs two input files, A.npy and x.npy (see parlab gemv --help)");
        return PL_EXIT_USAGE;
    }
    if ((rc = tool_need_output("gemv", &co, "y.npy")) != 0) return rc;
    if ((rc = tool_check_output("gemv", "-o", co.out_path, pos, 2, TOOL_OUT_FILE_ONLY)) != 0) return rc;
    const pl_kernel *kernel = pl_kernel_find("gemv");
    const pl_variant *variant = NULL;
    if ((rc = tool_find_variant("gemv", kernel, co.variant_name, &variant, &co.backend,
                                co.backend_given)) != 0) return rc;

    pl_array A = {0}, x = {0}, y = {0};
    pl_ctx *ctx = NULL;
    pl_status s;
    if ((rc = tool_fits_host("gemv", "reading the inputs", tool_file_bytes(pos[0]) + tool_file_bytes(pos[1]))) != 0 ||
        (rc = tool_read_f32("gemv", pos[0], 2, 2, &A)) != 0 || (rc = tool_read_f32("gemv", pos[1], 1, 1, &x)) != 0)
        goto done;
    const int64_t M = A.shape[0], N = A.shape[1], nx = trans ? M : N, ny = trans ? N : M;
    if (x.shape[0] != nx) {
        cli_error("gemv: shapes do not fit: %s is %lldx%lld, %s has %lld elements (x must have %s = %lld%s)", pos[0],
                  (long long)M, (long long)N, pos[1], (long long)x.shape[0], trans ? "M" : "N", (long long)nx,
                  trans ? ", A's rows, with --trans" : ", A's columns; --trans takes M");
        rc = PL_EXIT_USAGE;
        goto done;
    }
    char what[96];
    snprintf(what, sizeof what, "y (%lld float32)", (long long)ny);
    if ((rc = tool_fits_host("gemv", what, 4.0 * (double)ny)) != 0) goto done;
    y = (pl_array){.dtype = PL_F32, .rank = 1, .shape = {ny}};
    if (!(y.data = pl_alloc(ny > 0 ? (size_t)ny * sizeof(float) : 1))) {
        cli_error("gemv: cannot allocate y (%lld float32)", (long long)ny);
        rc = PL_EXIT_FAIL;
        goto done;
    }
    {
        char size[96];
        pl_pvalues pv;
        pl_pvalues_default(kernel, &pv);
        pv.num[2] = trans;
        snprintf(size, sizeof size, "%lldx%lld", (long long)M, (long long)N);
        if ((rc = tool_context("gemv", kernel, M > 0 && N > 0 ? size : NULL, &pv, co.backend, co.device, co.threads,
                               variant,
                               &ctx)) != 0)
            goto done;
    }
    const char *ran = variant ? variant->name : pl_gemv_best_variant(ctx);
    double t0 = tool_now();
    if (M == 0 || N == 0) { /* an empty sum: y is all zeros (or empty) */
        memset(y.data, 0, (size_t)ny * sizeof(float));
        ran = "none (empty)";
        s = PL_OK;
    } else {
        s = pl_sgemv_variant(ctx, ran, NULL, trans ? 't' : 'n', M, N, alpha, A.data, N, x.data, 0.0f, y.data);
    }
    double ms = (tool_now() - t0) * 1e3;
    if (s != PL_OK || (s = pl_npy_write(co.out_path, &y)) != PL_OK) {
        rc = cli_fail(s);
        goto done;
    }
    if (alpha == 1.0f) printf("y = A%s*x", trans ? "^T" : "");
    else printf("y = %g*A%s*x", (double)alpha, trans ? "^T" : "");
    printf(": %lldx%lld, variant %s, %.3f ms\n", (long long)M, (long long)N, ran ? ran : "?", ms);
    rc = PL_EXIT_OK;
done:
    pl_ctx_destroy(ctx);
    pl_array_free(&A);
    pl_array_free(&x);
    pl_array_free(&y);
    return rc;
}
