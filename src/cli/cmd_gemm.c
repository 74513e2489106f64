/* cmd_gemm.c: `parlab gemm A.npy B.npy -o C.npy`, C = alpha*A*B + beta*C0 on .npy files,
 * through pl_sgemm (the best rung) or pl_sgemm_variant (--variant).
 * Exit status: 0 ok; 1 a runtime failure (a file cannot be read or written, is malformed,
 * is not a float32 matrix; the device fails); 2 a usage error (bad option or value, shapes
 * that do not multiply, unknown variant). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
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
          "  --threads N         CPU threads (default: OMP_NUM_THREADS, else one per core)\n"
          "  --backend B         cpu, cuda or auto (default: auto; with --variant, the\n"
          "                      variant's own backend)\n"
          "  --device D          CUDA device ordinal (default 0)\n"
          "  -h, --help          show this help\n"
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
          "exit status: 0 success; 1 runtime failure (a file cannot be read or written, is\n"
          "not a valid .npy file, or is not a float32 matrix; a device error); 2 usage error\n"
          "(bad option or value, an empty file name, shapes that do not multiply, unknown\n"
          "variant, a problem too big for this machine's memory).\n",
          f);
}

/* A finite real number, or a usage error naming the option. */
static int parse_real(const char *opt, const char *text, float *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v) || fabs(v) > 3.4e38) {
        cli_error("gemm: %s: '%s' is not a finite number", opt, text);
        return PL_EXIT_USAGE;
    }
    *out = (float)v;
    return PL_EXIT_OK;
}

static int parse_backend(const char *text, pl_backend *b)
{
    if (strcmp(text, "cpu") == 0) *b = PL_BACKEND_CPU;
    else if (strcmp(text, "cuda") == 0) *b = PL_BACKEND_CUDA;
    else if (strcmp(text, "auto") == 0) *b = PL_BACKEND_AUTO;
    else {
        cli_error("gemm: --backend: '%s' is not one of cpu, cuda, auto", text);
        return PL_EXIT_USAGE;
    }
    return PL_EXIT_OK;
}

/* "A.npy is a 3-D array; ..." / "A.npy is float64; ..." : exit 1 (the file is of the wrong
 * type). */
static int check_matrix(const char *path, const pl_array *a)
{
    if (a->dtype != PL_F32) {
        cli_error("gemm: %s is %s; parlab gemm takes float32 (convert with a.astype(np.float32))",
                  path, pl_dtype_name(a->dtype));
        return PL_EXIT_FAIL;
    }
    if (a->rank != 2) {
        cli_error("gemm: %s has rank %d; parlab gemm takes a matrix (rank 2)", path, a->rank);
        return PL_EXIT_FAIL;
    }
    return PL_EXIT_OK;
}

/* Print the valid variant names after an unknown one. */
static void unknown_variant(const pl_kernel *k, const char *name)
{
    char list[1024] = "";
    size_t len = 0;
    for (int i = 0; k && i < k->n_variants && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
                                k->ladder[i]->name);
    cli_error("gemm: unknown variant '%s' (valid: %s)", name, list);
}

static double gib(double bytes) { return bytes / (1024.0 * 1024.0 * 1024.0); }

/* Host memory: what the command will hold against what this process may still take. */
static int fits_host(const char *what, double bytes)
{
    double avail = pl_host_memory_available();
    if (avail > 0 && bytes > avail) {
        cli_error("gemm: %s: about %.2f GiB of host memory, more than the %.2f GiB this process may "
                  "take (available memory and the cgroup limit)", what, gib(bytes), gib(avail));
        return PL_EXIT_USAGE;
    }
    return PL_EXIT_OK;
}

static double file_bytes(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 ? (double)st.st_size : 0.0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int pl_cmd_gemm(int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL};
    int n_pos = 0;
    const char *out_path = NULL, *variant_name = NULL, *c0_path = NULL;
    float alpha = 1.0f, beta = 0.0f;
    int beta_given = 0, backend_given = 0, only_positional = 0;
    long threads = 0, device = 0;
    pl_backend backend = PL_BACKEND_AUTO;
    int rc;

    /* ---------------------------------------------------------------- options */
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (only_positional || arg[0] != '-' || arg[1] == '\0') {
            if (n_pos == 2) {
                cli_error("gemm: unexpected argument '%s' (takes A.npy B.npy; see --help)", arg);
                return PL_EXIT_USAGE;
            }
            pos[n_pos++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_positional = 1;
            continue;
        }
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return PL_EXIT_OK;
        }

        /* Every other option takes a value: "--opt value" or "--opt=value". */
        char name[32];
        const char *val = NULL, *eq = strchr(arg, '=');
        size_t nl = (eq && arg[1] == '-') ? (size_t)(eq - arg) : strlen(arg);
        if (nl >= sizeof name) nl = sizeof name - 1;
        memcpy(name, arg, nl);
        name[nl] = '\0';
        if (eq && arg[1] == '-') val = eq + 1;

        static const char *const with_value[] = {"-o", "--output", "--variant", "--alpha",
                                                 "--beta", "--c0", "--threads", "--backend",
                                                 "--device"};
        int known = 0;
        for (size_t j = 0; j < sizeof with_value / sizeof with_value[0]; j++)
            if (strcmp(name, with_value[j]) == 0) known = 1;
        if (!known) {
            cli_error("gemm: unknown option '%s' (see parlab gemm --help)", arg);
            return PL_EXIT_USAGE;
        }
        if (!val) {
            if (i + 1 >= argc) {
                cli_error("gemm: option %s needs a value", name);
                return PL_EXIT_USAGE;
            }
            val = argv[++i];
        }

        if (!*val && (strcmp(name, "-o") == 0 || strcmp(name, "--output") == 0 ||
                      strcmp(name, "--c0") == 0 || strcmp(name, "--variant") == 0)) {
            cli_error("gemm: %s: '' is not a %s", name, strcmp(name, "--variant") == 0 ? "variant name" : "file name");
            return PL_EXIT_USAGE;
        }
        if (strcmp(name, "-o") == 0 || strcmp(name, "--output") == 0) out_path = val;
        else if (strcmp(name, "--variant") == 0) variant_name = val;
        else if (strcmp(name, "--c0") == 0) c0_path = val;
        else if (strcmp(name, "--alpha") == 0) {
            if ((rc = parse_real(name, val, &alpha)) != 0) return rc;
        } else if (strcmp(name, "--beta") == 0) {
            if ((rc = parse_real(name, val, &beta)) != 0) return rc;
            beta_given = 1;
        } else if (strcmp(name, "--threads") == 0) {
            if ((rc = cli_parse_int(name, val, 1, 4096, &threads)) != 0) return rc;
        } else if (strcmp(name, "--device") == 0) {
            if ((rc = cli_parse_int(name, val, 0, 1023, &device)) != 0) return rc;
        } else if (strcmp(name, "--backend") == 0) {
            if ((rc = parse_backend(val, &backend)) != 0) return rc;
            backend_given = 1;
        }
    }
    if (n_pos != 2) {
        cli_error("gemm: needs two input files, A.npy and B.npy (see parlab gemm --help)");
        return PL_EXIT_USAGE;
    }
    if (!out_path) {
        cli_error("gemm: needs an output file: -o C.npy");
        return PL_EXIT_USAGE;
    }
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
    if (variant_name) {
        variant = pl_variant_find(kernel, variant_name);
        if (!variant) {
            unknown_variant(kernel, variant_name);
            return PL_EXIT_USAGE;
        }
        /* Can this build and machine run it at all? ("no GPU", "built without OpenBLAS") */
        pl_status s = pl_variant_check(NULL, variant, NULL, 0);
        if (s != PL_OK) return cli_fail(s);
        if (!backend_given) backend = variant->backend;
    }

    /* ---------------------------------------------------------------- inputs */
    pl_array A = {0}, B = {0}, C = {0};
    pl_ctx *ctx = NULL;
    pl_status s;
    rc = PL_EXIT_FAIL;

    /* The inputs are read whole: their files' sizes must fit first. */
    if ((rc = fits_host("reading the inputs", file_bytes(pos[0]) + file_bytes(pos[1]) + file_bytes(c0_path))) != 0)
        goto done;
    if ((s = pl_npy_read(pos[0], &A)) != PL_OK || (s = pl_npy_read(pos[1], &B)) != PL_OK) {
        rc = cli_fail(s);
        goto done;
    }
    if ((rc = check_matrix(pos[0], &A)) != 0 || (rc = check_matrix(pos[1], &B)) != 0) goto done;
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
        if ((s = pl_npy_read(c0_path, &C)) != PL_OK) {
            rc = cli_fail(s);
            goto done;
        }
        if ((rc = check_matrix(c0_path, &C)) != 0) goto done;
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
        if ((rc = fits_host(what, (double)count * sizeof(float))) != 0) goto done;
        rc = PL_EXIT_FAIL;
        C = (pl_array){.dtype = PL_F32, .rank = 2, .shape = {M, N}};
        C.data = pl_alloc((size_t)count * sizeof(float));
        if (!C.data) {
            cli_error("gemm: cannot allocate C (%lldx%lld float32)", (long long)M, (long long)N);
            goto done;
        }
    }

    /* ---------------------------------------------------------------- multiply */
    if ((s = pl_ctx_create(&ctx, backend, (int)device, (int)threads)) != PL_OK) {
        rc = cli_fail(s);
        goto done;
    }
    if (variant && (s = pl_variant_check(ctx, variant, NULL, 0)) != PL_OK) {
        rc = cli_fail(s); /* a CPU variant with --backend cuda, ...: exit 2 */
        goto done;
    }
    /* With CUDA the operands go to the device: they must fit its free memory. */
    if (pl_ctx_backend(ctx) == PL_BACKEND_CUDA && M > 0 && N > 0 && K > 0) {
        char size[96];
        pl_plan plan;
        snprintf(size, sizeof size, "%lldx%lldx%lld", (long long)M, (long long)N, (long long)K);
        if ((s = pl_problem_plan(kernel, size, NULL, PL_CHECK_AUTO, &plan)) == PL_OK) {
            plan.host_bytes = 0; /* checked above: here no reference, no working copies */
            s = pl_plan_fits(&plan, ctx);
        }
        if (s != PL_OK) {
            rc = cli_fail(s);
            goto done;
        }
    }
    const char *ran = variant ? variant->name : pl_gemm_best_variant(ctx);
    float *c = C.data;
    double t0 = now_s();
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
    double ms = (now_s() - t0) * 1e3;
    if (s != PL_OK) {
        rc = cli_fail(s);
        goto done;
    }

    if ((s = pl_npy_write(out_path, &C)) != PL_OK) {
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
