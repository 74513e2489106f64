/* cmd_reduce.c: the reduce room's file tools.
 *   parlab reduce A.npy --op sum|mean|min|max|sumsq --axis 1|0 -o r.npy [--variant V]
 *     r = op over each row (axis 1) or column (axis 0) of a float32 matrix, as NumPy's
 *     A.op(axis=...) (a 1-D float32 result), through pl_sreduce or the named variant.
 *   parlab dot x.npy y.npy [--variant V]: prints sum_i x_i y_i of two float32 vectors.
 * Exit status as `parlab gemm`: 0 ok; 1 a runtime failure (a file cannot be read or written,
 * is malformed or not float32 of the right rank; the device fails); 2 a usage error (bad
 * option or value, shapes that do not fit, unknown variant, too big for memory). */
#define _POSIX_C_SOURCE 200809L
#include "cli/tool.h"
#include "core/core.h"
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
          "  --threads N         CPU threads (default: OMP_NUM_THREADS, else one per core)\n"
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
          "  --variant V   the dot variant to run (default: the best the backend can run)\n"
          "  --threads N   CPU threads;  --backend B  cpu, cuda or auto;  --device D  CUDA device\n"
          "  -h, --help    show this help\n"
          "\n"
          "Prints the value alone (%.9g: every float32 digit). exit status: 0 success; 1 runtime\n"
          "failure; 2 usage error (lengths that differ, unknown variant, bad option).\n",
          f);
}

int pl_cmd_reduce(int argc, char **argv)
{
    const char *in_path = NULL;
    int n_in = 0, op = PL_REDUCE_SUM, axis = 1, rc, handled;
    tool_common co = TOOL_COMMON_INIT;
    static const char *const with_value[] = {"-o", "--output", "--op", "--axis", "--variant", "--threads",
                                             "--backend", "--device", NULL};
    tool_args ta = {"reduce", argc, argv, with_value, NULL, 1, 0};
    char name[32];
    const char *val;
    for (int kind; (kind = tool_next(&ta, name, sizeof name, &val)) != TOOL_END;) {
        if (kind == TOOL_HELP || kind == TOOL_ERROR) return tool_stop(kind, usage_reduce);
        if (kind == TOOL_POSITIONAL) {
            if ((rc = tool_positional("reduce", val, &in_path, &n_in, 1, "one input, A.npy")) != 0) return rc;
            continue;
        }
        if ((rc = tool_common_option("reduce", &co, name, val, &handled)) != 0) return rc;
        if (handled) continue;
        if (!strcmp(name, "--op")) {
            for (op = 0; pl_reduce_op_names[op] && strcmp(pl_reduce_op_names[op], val); op++) {}
            if (!pl_reduce_op_names[op]) {
                cli_error("reduce: --op '%s': expected sum, mean, min, max or sumsq", val);
                return PL_EXIT_USAGE;
            }
        } else if (!strcmp(name, "--axis")) {
            /* NumPy's axes of a 2-D array: 0, 1, and from the end -2 (= 0), -1 (= 1) */
            static const char *const axes[] = {"-2", "-1", "0", "1"};
            int a = 0;
            while (a < 4 && strcmp(val, axes[a])) a++;
            if (a == 4) {
                cli_error("reduce: --axis '%s': out of range for a 2-D array: 1 or -1 (per row), 0 or -2 (per column)",
                          val);
                return PL_EXIT_USAGE;
            }
            axis = a % 2;
        }
    }
    if (!in_path) {
        cli_error("reduce: needs an input file, A.npy (see parlab reduce --help)");
        return PL_EXIT_USAGE;
    }
    if ((rc = tool_need_output("reduce", &co, "r.npy")) != 0) return rc;
    if ((rc = tool_check_output("reduce", "-o", co.out_path, &in_path, 1, TOOL_OUT_FILE_ONLY)) != 0) return rc;
    const pl_kernel *kernel = &pl_reduce_kernel;
    const pl_variant *variant = NULL;
    if ((rc = tool_find_variant("reduce", kernel, co.variant_name, &variant, &co.backend,
                                co.backend_given)) != 0) return rc;

    pl_array A = {0}, r = {0};
    pl_ctx *ctx = NULL;
    if ((rc = tool_fits_host("reduce", "reading the input", tool_file_bytes(in_path))) != 0) goto done;
    if ((rc = tool_read_f32("reduce", in_path, 2, 2, &A)) != 0) goto done;
    int64_t M = A.shape[0], N = A.shape[1], R = axis ? M : N, n = axis ? N : M;
    if (n == 0 && R > 0 && (op == PL_REDUCE_MIN || op == PL_REDUCE_MAX)) {
        cli_error("reduce: %s is %lldx%lld: %s over an empty axis has no value", in_path, (long long)M, (long long)N,
                  pl_reduce_op_names[op]);
        rc = PL_EXIT_USAGE;
        goto done;
    }
    rc = PL_EXIT_FAIL;
    r = (pl_array){.dtype = PL_F32, .rank = 1, .shape = {R}};
    r.data = pl_alloc(sizeof(float) * (size_t)(R > 0 ? R : 1));
    if (!r.data) {
        cli_error("reduce: cannot allocate r (%lld float32)", (long long)R);
        goto done;
    }
    const char *ran = "none (empty)";
    double t0 = tool_now();
    if (R > 0 && n == 0) {
        /* NumPy: the sum of nothing is 0, its mean NaN. */
        for (int64_t o = 0; o < R; o++) ((float *)r.data)[o] = op == PL_REDUCE_MEAN ? NAN : 0.0f;
    } else if (R > 0) {
        char size[64];
        pl_pvalues pv;
        pl_pvalues_default(kernel, &pv);
        pv.num[0] = op, pv.num[1] = axis;
        snprintf(size, sizeof size, "%lldx%lld", (long long)M, (long long)N);
        if ((rc = tool_context("reduce", kernel, size, &pv, co.backend, co.device, co.threads, variant,
                               &ctx)) != 0) goto done;
        rc = PL_EXIT_FAIL;
        t0 = tool_now();
        pl_status s;
        if (variant) {
            pl_reduce_problem p = {M, N, N, op, axis, 0};
            void *host[2] = {A.data, r.data};
            s = pl_run_host(ctx, kernel, variant, NULL, &p, host);
            ran = variant->name;
        } else {
            s = pl_sreduce(ctx, op, axis, M, N, A.data, N, r.data);
            ran = pl_ctx_backend(ctx) == PL_BACKEND_CUDA ? "cuda-tuned" : "cpu-simd";
            const pl_variant *v = pl_variant_find(kernel, ran);
            if (!v || pl_variant_check(ctx, v, NULL, 0) != PL_OK) ran = "cpu-naive";
        }
        if (s != PL_OK) {
            rc = cli_fail(s);
            goto done;
        }
    }
    double ms = (tool_now() - t0) * 1e3;
    pl_status s = pl_npy_write(co.out_path, &r);
    if (s != PL_OK) {
        rc = cli_fail(s);
        goto done;
    }
    printf("r = %s(A, axis=%d): %lld values from %lldx%lld, variant %s, %.3f ms\n", pl_reduce_op_names[op], axis,
           (long long)R, (long long)M, (long long)N, ran, ms);
    rc = PL_EXIT_OK;
done:
    pl_ctx_destroy(ctx);
    pl_array_free(&A);
    pl_array_free(&r);
    return rc;
}

int pl_cmd_dot(int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL};
    int n_pos = 0, rc, handled;
    tool_common co = TOOL_COMMON_INIT;
    static const char *const with_value[] = {"--variant", "--threads", "--backend", "--device", NULL};
    tool_args ta = {"dot", argc, argv, with_value, NULL, 1, 0};
    char name[32];
    const char *val;
    for (int kind; (kind = tool_next(&ta, name, sizeof name, &val)) != TOOL_END;) {
        if (kind == TOOL_HELP || kind == TOOL_ERROR) return tool_stop(kind, usage_dot);
        if (kind == TOOL_POSITIONAL) {
            if ((rc = tool_positional("dot", val, pos, &n_pos, 2, "x.npy y.npy")) != 0) return rc;
            continue;
        }
        if ((rc = tool_common_option("dot", &co, name, val, &handled)) != 0) return rc;
    }
    if (n_pos != 2) {
        cli_error("dot: needs two input files, x.npy and y.npy (see parlab dot --help)");
        return PL_EXIT_USAGE;
    }
    const pl_kernel *kernel = &pl_dot_kernel;
    const pl_variant *variant = NULL;
    if ((rc = tool_find_variant("dot", kernel, co.variant_name, &variant, &co.backend,
                                co.backend_given)) != 0) return rc;
    pl_array x = {0}, y = {0};
    pl_ctx *ctx = NULL;
    float result = 0.0f;
    if ((rc = tool_fits_host("dot", "reading the inputs", tool_file_bytes(pos[0]) + tool_file_bytes(pos[1]))) != 0)
        goto done;
    if ((rc = tool_read_f32("dot", pos[0], 1, 1, &x)) != 0 || (rc = tool_read_f32("dot", pos[1], 1, 1, &y)) != 0)
        goto done;
    if (x.shape[0] != y.shape[0]) {
        cli_error("dot: lengths differ: %s has %lld elements, %s has %lld", pos[0], (long long)x.shape[0], pos[1],
                  (long long)y.shape[0]);
        rc = PL_EXIT_USAGE;
        goto done;
    }
    if (x.shape[0] > 0) {
        char size[32];
        snprintf(size, sizeof size, "%lld", (long long)x.shape[0]);
        if ((rc = tool_context("dot", kernel, size, NULL, co.backend, co.device, co.threads, variant,
                               &ctx)) != 0) goto done;
        pl_status s;
        if (variant) {
            pl_dot_problem p = {x.shape[0]};
            void *host[3] = {x.data, y.data, &result};
            s = pl_run_host(ctx, kernel, variant, NULL, &p, host);
        } else {
            s = pl_sdot(ctx, x.shape[0], x.data, y.data, &result);
        }
        if (s != PL_OK) {
            rc = cli_fail(s);
            goto done;
        }
    }
    printf("%.9g\n", (double)result);
    rc = PL_EXIT_OK;
done:
    pl_ctx_destroy(ctx);
    pl_array_free(&x);
    pl_array_free(&y);
    return rc;
}
