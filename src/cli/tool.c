/* tool.c: what the file tools share (see tool.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/tool.h"
#include "harness/harness.h"
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tool_common_option(const char *cmd, tool_common *c, const cli_opt *o, const char *val)
{
    switch (o->id) {
    case CLI_OPT_OUTPUT: c->out_path = val; return PL_EXIT_OK;
    case CLI_OPT_VARIANT: c->variant_name = val; return PL_EXIT_OK;
    case CLI_OPT_THREADS: return cli_parse_threads(val, &c->threads);
    case CLI_OPT_DEVICE: return cli_parse_device(val, &c->device);
    case CLI_OPT_BACKEND: c->backend_given = 1; return tool_parse_backend(cmd, val, &c->backend);
    }
    return PL_EXIT_OK;
}

int tool_need_output(const char *cmd, const tool_common *c, const char *example)
{
    if (c->out_path) return PL_EXIT_OK;
    cli_error("%s: needs an output file: -o %s", cmd, example);
    return PL_EXIT_USAGE;
}

/* "-" as an output with the command's own printing on stdout: the data keeps the real standard
 * output (a saved descriptor the io module writes "-" to) and fd 1 becomes stderr, so tables and
 * summary lines never mix with the data. Once per process. */
static int move_prints_to_stderr(const char *cmd)
{
    static int moved;
    if (moved) return PL_EXIT_OK;
    fflush(stdout);
    int data_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (data_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        cli_error("%s: cannot set standard output aside for the data", cmd);
        return PL_EXIT_FAIL;
    }
    pl_io_set_stdout_fd(data_fd);
    moved = 1;
    return PL_EXIT_OK;
}

int tool_check_output(const char *cmd, const char *opt, const char *out, const char *const *inputs, int n_inputs,
                      int stdout_mode)
{
    if (!strcmp(out, "-")) {
        if (stdout_mode == TOOL_OUT_FILE_ONLY) {
            cli_error("%s: %s -: this output cannot go to standard output (it is binary, or a directory); name a "
                      "file", cmd, opt);
            return PL_EXIT_USAGE;
        }
        return stdout_mode == TOOL_OUT_STDOUT ? move_prints_to_stderr(cmd) : PL_EXIT_OK;
    }
    if (pl_output_check(out) != PL_OK) {
        cli_error("%s: %s %s", cmd, opt, pl_last_error()); /* the message names out */
        return PL_EXIT_USAGE;
    }
    struct stat out_st, in_st;
    if (stat(out, &out_st) != 0) return PL_EXIT_OK; /* not there yet: no input can be it */
    for (int i = 0; i < n_inputs; i++) {
        if (!inputs[i] || !strcmp(inputs[i], "-") || stat(inputs[i], &in_st) != 0) continue;
        if (in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino) {
            cli_error("%s: %s %s is the input %s (the same file): write the output to another name", cmd, opt, out,
                      inputs[i]);
            return PL_EXIT_USAGE;
        }
    }
    return PL_EXIT_OK;
}

int tool_parse_real(const char *cmd, const char *opt, const char *text, float *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    const int too_big = (errno == ERANGE && isinf(v)) || (isfinite(v) && fabs(v) > FLT_MAX);
    if (end == text || *end != '\0' || (!isfinite(v) && !too_big)) {
        cli_error("%s: %s: '%s' is not a finite number", cmd, opt, text);
        return PL_EXIT_USAGE;
    }
    if (too_big) { /* a number, but no float32 holds it */
        cli_error("%s: %s: '%s' is out of float32 range (at most %.4g in magnitude)", cmd, opt, text, FLT_MAX);
        return PL_EXIT_USAGE;
    }
    *out = (float)v;
    return PL_EXIT_OK;
}

int tool_parse_backend(const char *cmd, const char *text, pl_backend *b)
{
    if (strcmp(text, "cpu") == 0) *b = PL_BACKEND_CPU;
    else if (strcmp(text, "cuda") == 0) *b = PL_BACKEND_CUDA;
    else if (strcmp(text, "auto") == 0) *b = PL_BACKEND_AUTO;
    else {
        cli_error("%s: --backend: '%s' is not one of cpu, cuda, auto", cmd, text);
        return PL_EXIT_USAGE;
    }
    return PL_EXIT_OK;
}

int tool_find_variant(const char *cmd, const pl_kernel *k, tool_common *c, const pl_variant **v)
{
    const char *name = c->variant_name;
    *v = NULL;
    if (!name) return PL_EXIT_OK;
    *v = pl_variant_find(k, name);
    if (!*v) {
        char list[1024] = "";
        size_t len = 0;
        for (int i = 0; i < k->n_variants && len < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", k->ladder[i]->name);
        cli_error("%s: unknown variant '%s' (valid: %s)", cmd, name, list);
        return PL_EXIT_USAGE;
    }
    /* Can this build and machine run it at all? ("no GPU", "built without OpenBLAS") */
    pl_status s = pl_variant_check(NULL, *v, NULL, 0);
    if (s != PL_OK) return cli_fail(s);
    if (!c->backend_given) c->backend = (*v)->backend;
    return PL_EXIT_OK;
}

static double gib(double bytes) { return bytes / (1024.0 * 1024.0 * 1024.0); }

int tool_fits_host(const char *cmd, const char *what, double bytes)
{
    double avail = pl_host_memory_available();
    if (avail > 0 && bytes > avail) {
        cli_error("%s: %s: about %.2f GiB of host memory, more than the %.2f GiB this process may "
                  "take (available memory and the cgroup limit)", cmd, what, gib(bytes), gib(avail));
        return PL_EXIT_USAGE;
    }
    return PL_EXIT_OK;
}

int tool_alloc_f32(const char *cmd, const char *what, int rank, const int64_t *shape, pl_array *a)
{
    *a = (pl_array){.dtype = PL_F32, .rank = rank};
    double count = 1;
    for (int i = 0; i < rank; i++) a->shape[i] = shape[i], count *= (double)shape[i];
    int rc = tool_fits_host(cmd, what, count * sizeof(float));
    if (rc != PL_EXIT_OK) return rc;
    if (!(a->data = pl_alloc(count > 0 ? (size_t)count * sizeof(float) : 1))) {
        cli_error("%s: cannot allocate %s", cmd, what);
        return PL_EXIT_FAIL;
    }
    return PL_EXIT_OK;
}

int tool_write_npy(const char *path, const pl_array *a)
{
    pl_status s = pl_npy_write(path, a);
    return s == PL_OK ? PL_EXIT_OK : cli_fail(s);
}

double tool_file_bytes(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 ? (double)st.st_size : 0.0;
}

/* A .npy of rank min_rank..max_rank, float32 or (bf16 set) bfloat16. */
static int read_float(const char *cmd, const char *path, int min_rank, int max_rank, int bf16, pl_array *a)
{
    pl_status s = pl_npy_read(path, a);
    if (s != PL_OK) return cli_fail(s);
    if (a->dtype != PL_F32 && !(bf16 && a->dtype == PL_BF16)) {
        cli_error("%s: %s is %s; parlab %s takes float32%s (convert with a.astype(np.float32)%s)", cmd, path,
                  pl_dtype_name(a->dtype), cmd, bf16 ? " or bfloat16" : "",
                  bf16 ? " or a.astype(ml_dtypes.bfloat16)" : "");
        return PL_EXIT_FAIL;
    }
    if (a->rank < min_rank || a->rank > max_rank) {
        cli_error("%s: %s has rank %d; parlab %s takes %s", cmd, path, a->rank, cmd,
                  max_rank == 1 ? "a vector (rank 1)" : min_rank == 2 ? "a matrix (rank 2)" : "a vector or a matrix");
        return PL_EXIT_FAIL;
    }
    return PL_EXIT_OK;
}

int tool_read_f32(const char *cmd, const char *path, int min_rank, int max_rank, pl_array *a)
{
    return read_float(cmd, path, min_rank, max_rank, 0, a);
}

int tool_read_f32_or_bf16(const char *cmd, const char *path, int min_rank, int max_rank, pl_array *a)
{
    return read_float(cmd, path, min_rank, max_rank, 1, a);
}

int tool_context(const pl_kernel *k, const void *problem, const tool_common *c, const pl_variant *v, pl_ctx **ctx)
{
    return cli_status(pl_tool_context(k, problem, c->backend, (int)c->device, (int)c->threads, v, ctx));
}

int tool_run(const pl_kernel *k, const void *problem, const tool_common *c, const pl_variant *v, tool_run_fn run,
             void *user, const char **ran, double *ms)
{
    return cli_status(pl_tool_run(k, problem, c->backend, (int)c->device, (int)c->threads, v, run, user, ran, ms));
}
