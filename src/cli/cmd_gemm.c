/* cmd_gemm.c: `parlab gemm A.npy B.npy -o C.npy`, C = alpha*A*B + beta*C0 on .npy files,
 * through pl_sgemm (the best rung) or pl_sgemm_variant (--variant).
 * Exit status: 0 ok; 1 a runtime failure (a file cannot be read or written, is malformed,
 * is not a float32 matrix; the device fails); 2 a usage error (bad option or value, shapes
 * that do not multiply, unknown variant). */
#define _POSIX_C_SOURCE 200809L
#include "cli/tool.h"
#include "core/core.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static void usage(FILE *f)
{
    fputs("usage: parlab gemm A.npy B.npy -o C.npy [options]\n"
          "\n"
          "Multiply two float32 matrices stored as .npy files: C = alpha*A*B + beta*C0.\n"
          "A is M x K and B is K x N, rank-2 float32 arrays in C order; C is written as\n"
          "float32 M x N (.npy version 1.0), whole or not at all.\n"
          "\n"
          "options:\n"
          "  -o, --output C.npy  where to write C (required)\n"
          "  --variant V         the GEMM variant to run (an unknown name lists the valid\n"
          "                      ones); default: the best one the backend can run\n"
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
          "variant, a problem too big for this machine's memory).\n",
          f);
}

int pl_cmd_gemm(int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL};
    int n_pos = 0;
    const char *c0_path = NULL;
    float alpha = 1.0f, beta = 0.0f;
    int beta_given = 0;
    tool_common co = TOOL_COMMON_INIT;
    int rc, handled;

    /* ---------------------------------------------------------------- options */
    static const char *const with_value[] = {"-o", "--output", "--variant", "--alpha", "--beta", "--c0",
                                             "--threads", "--backend", "--device", NULL};
    tool_args ta = {"gemm", argc, argv, with_value, NULL, 1, 0};
    char name[32];
    const char *val;
    for (int kind; (kind = tool_next(&ta, name, sizeof name, &val)) != TOOL_END;) {
        if (kind == TOOL_HELP || kind == TOOL_ERROR) return tool_stop(kind, usage);
        if (kind == TOOL_POSITIONAL) {
            if ((rc = tool_positional("gemm", val, pos, &n_pos, 2, "A.npy B.npy")) != 0) return rc;
            continue;
        }
        if ((rc = tool_common_option("gemm", &co, name, val, &handled)) != 0) return rc;
        if (handled) continue;
        if (strcmp(name, "--c0") == 0) c0_path = val;
        else if (strcmp(name, "--alpha") == 0) {
            if ((rc = tool_parse_real("gemm", name, val, &alpha)) != 0) return rc;
        } else if (strcmp(name, "--beta") == 0) {
            if ((rc = tool_parse_real("gemm", name, val, &beta)) != 0) return rc;
            beta_given = 1;
        }
    }
    if (n_pos != 2) {
        cli_error("gemm: needs two input files, A.npy and B.npy (see parlab gemm --help)");
        return PL_EXIT_USAGE;
    }
    if ((rc = tool_need_output("gemm", &co, "C.npy")) != 0) return rc;
    const char *inputs[] = {pos[0], pos[1], c0_path};
    if ((rc = tool_check_output("gemm", "-o", co.out_path, inputs, 3, TOOL_OUT_FILE_ONLY)) != 0) return rc;
    if (beta != 0.0f && !c0_path) {
        cli_error("gemm: --beta %g needs --c0 C0.npy (the initial C)", (double)beta);
        return PL_EXIT_USAGE;
    }
    if (c0_path && !beta_given) {
        cli_error("gemm: --c0 needs --beta (C = alpha*A*B + beta*C0; with beta 0, C0 is unused)");
        return PL_EXIT_USAGE;
    }

    const pl_kernel *kernel = pl_kernel_find("gemm");
    const pl_variant *variant = NULL;
    if ((rc = tool_find_variant("gemm", kernel, co.variant_name, &variant, &co.backend,
                                co.backend_given)) != 0) return rc;

    /* ---------------------------------------------------------------- inputs */
    pl_array A = {0}, B = {0}, C = {0};
    pl_ctx *ctx = NULL;
    pl_status s;
    rc = PL_EXIT_FAIL;

    /* The inputs are read whole: their files' sizes must fit first. */
    if ((rc = tool_fits_host("gemm", "reading the inputs",
                             tool_file_bytes(pos[0]) + tool_file_bytes(pos[1]) + tool_file_bytes(c0_path))) != 0)
        goto done;
    if ((rc = tool_read_f32("gemm", pos[0], 2, 2, &A)) != 0 || (rc = tool_read_f32("gemm", pos[1], 2, 2, &B)) != 0)
        goto done;
    int64_t M = A.shape[0], K = A.shape[1], N = B.shape[1];
    if (B.shape[0] != K) {
        cli_error("gemm: shapes do not multiply: %s is %lldx%lld, %s is %lldx%lld (A's columns "
                  "must equal B's rows)", pos[0], (long long)M, (long long)K, pos[1],
                  (long long)B.shape[0], (long long)N);
        rc = PL_EXIT_USAGE;
        goto done;
    }

    if (c0_path) {
        /* C starts as C0 and is computed in place. */
        if ((rc = tool_read_f32("gemm", c0_path, 2, 2, &C)) != 0) goto done;
        if (C.shape[0] != M || C.shape[1] != N) {
            cli_error("gemm: %s is %lldx%lld; C0 must be M x N = %lldx%lld", c0_path,
                      (long long)C.shape[0], (long long)C.shape[1], (long long)M, (long long)N);
            rc = PL_EXIT_USAGE;
            goto done;
        }
    } else {
        int64_t count;
        if (pl_mul_overflow(M, N, &count) || (uint64_t)count > SIZE_MAX / sizeof(float)) {
            cli_error("gemm: C = %lldx%lld is too large", (long long)M, (long long)N);
            rc = PL_EXIT_USAGE;
            goto done;
        }
        char what[96];
        snprintf(what, sizeof what, "C (%lldx%lld float32)", (long long)M, (long long)N);
        if ((rc = tool_fits_host("gemm", what, (double)count * sizeof(float))) != 0) goto done;
        rc = PL_EXIT_FAIL;
        C = (pl_array){.dtype = PL_F32, .rank = 2, .shape = {M, N}};
        C.data = pl_alloc((size_t)count * sizeof(float));
        if (!C.data) {
            cli_error("gemm: cannot allocate C (%lldx%lld float32)", (long long)M, (long long)N);
            goto done;
        }
    }

    /* ---------------------------------------------------------------- multiply */
    {
        char size[96];
        pl_pvalues pv;
        pl_pvalues_default(kernel, &pv);
        pv.num[1] = beta; /* C0 goes to the device too */
        snprintf(size, sizeof size, "%lldx%lldx%lld", (long long)M, (long long)N, (long long)K);
        if ((rc = tool_context("gemm", kernel, M > 0 && N > 0 && K > 0 ? size : NULL, &pv, co.backend, co.device,
                               co.threads, variant, &ctx)) != 0)
            goto done;
        rc = PL_EXIT_FAIL;
    }
    const char *ran = variant ? variant->name : pl_gemm_best_variant(ctx);
    float *c = C.data;
    double t0 = tool_now();
    if (M == 0 || N == 0 || K == 0) {
        /* Nothing to multiply: A*B is all zeros (or empty). */
        for (int64_t i = 0; i < M * N; i++) c[i] = beta != 0.0f ? beta * c[i] : 0.0f;
        ran = "none (empty)";
        s = PL_OK;
    } else if (variant) {
        s = pl_sgemm_variant(ctx, variant->name, NULL, M, N, K, alpha, A.data, K, B.data, N,
                             beta, c, N);
    } else {
        s = pl_sgemm(ctx, M, N, K, alpha, A.data, K, B.data, N, beta, c, N);
    }
    double ms = (tool_now() - t0) * 1e3;
    if (s != PL_OK) {
        rc = cli_fail(s);
        goto done;
    }

    if ((s = pl_npy_write(co.out_path, &C)) != PL_OK) {
        rc = cli_fail(s);
        goto done;
    }

    if (alpha == 1.0f && !beta_given)
        printf("C = A*B");
    else
        printf("C = %g*A*B + %g*C0", (double)alpha, (double)beta);
    printf(": %lldx%lld (K=%lld), variant %s, %.3f ms\n", (long long)M, (long long)N,
           (long long)K, ran ? ran : "?", ms);
    rc = PL_EXIT_OK;

done:
    pl_ctx_destroy(ctx);
    pl_array_free(&A);
    pl_array_free(&B);
    pl_array_free(&C);
    return rc;
}
