/* tool.c: what the file tools share (see tool.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/tool.h"
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
#include <time.h>
#include <unistd.h>

static int listed(const char *const *list, const char *name)
{
    for (int i = 0; list && list[i]; i++)
        if (strcmp(list[i], name) == 0) return 1;
    return 0;
}

int tool_next(tool_args *t, char *name, size_t name_size, const char **val)
{
    *val = NULL;
    name[0] = '\0';
    if (t->i >= t->argc) return TOOL_END;
    const char *arg = t->argv[t->i++];
    if (t->only_positional || arg[0] != '-' || arg[1] == '\0') {
        *val = arg;
        return TOOL_POSITIONAL;
    }
    if (strcmp(arg, "--") == 0) {
        t->only_positional = 1;
        return tool_next(t, name, name_size, val);
    }
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) return TOOL_HELP;
    const char *eq = arg[1] == '-' ? strchr(arg, '=') : NULL;
    size_t nl = eq ? (size_t)(eq - arg) : strlen(arg);
    if (nl >= name_size) nl = name_size - 1;
    memcpy(name, arg, nl);
    name[nl] = '\0';
    if (listed(t->flags, name)) {
        if (eq) {
            cli_error("%s: %s takes no value", t->cmd, name);
            return TOOL_ERROR;
        }
        return TOOL_OPTION;
    }
    if (!listed(t->with_value, name)) {
        cli_error("%s: unknown option '%s' (see parlab %s --help)", t->cmd, arg, t->cmd);
        return TOOL_ERROR;
    }
    if (eq) {
        *val = eq + 1;
    } else if (t->i < t->argc) {
        *val = t->argv[t->i++];
    } else {
        cli_error("%s: option %s needs a value", t->cmd, name);
        return TOOL_ERROR;
    }
    if (!**val) {
        cli_error("%s: %s: '' is not a value", t->cmd, name);
        return TOOL_ERROR;
    }
    return TOOL_OPTION;
}

int tool_common_option(const char *cmd, tool_common *c, const char *name, const char *val, int *handled)
{
    *handled = 1;
    if (!strcmp(name, "-o") || !strcmp(name, "--output")) c->out_path = val;
    else if (!strcmp(name, "--variant")) c->variant_name = val;
    else if (!strcmp(name, "--threads")) return cli_parse_int(name, val, 1, 4096, &c->threads);
    else if (!strcmp(name, "--device")) return cli_parse_int(name, val, 0, 1023, &c->device);
    else if (!strcmp(name, "--backend")) {
        c->backend_given = 1;
        return tool_parse_backend(cmd, val, &c->backend);
    } else *handled = 0;
    return 0;
}

int tool_stop(int kind, void (*usage)(FILE *))
{
    if (kind == TOOL_ERROR) return PL_EXIT_USAGE;
    usage(stdout);
    return PL_EXIT_OK;
}

int tool_positional(const char *cmd, const char *val, const char **pos, int *n_pos, int max, const char *takes)
{
    if (*n_pos == max) {
        cli_error("%s: unexpected argument '%s' (takes %s; see --help)", cmd, val, takes);
        return PL_EXIT_USAGE;
    }
    pos[(*n_pos)++] = val;
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

int tool_find_variant(const char *cmd, const pl_kernel *k, const char *name, const pl_variant **v,
                      pl_backend *backend, int backend_given)
{
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
    if (!backend_given) *backend = (*v)->backend;
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

double tool_file_bytes(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 ? (double)st.st_size : 0.0;
}

int tool_read_f32(const char *cmd, const char *path, int min_rank, int max_rank, pl_array *a)
{
    pl_status s = pl_npy_read(path, a);
    if (s != PL_OK) return cli_fail(s);
    if (a->dtype != PL_F32) {
        cli_error("%s: %s is %s; parlab %s takes float32 (convert with a.astype(np.float32))", cmd, path,
                  pl_dtype_name(a->dtype), cmd);
        return PL_EXIT_FAIL;
    }
    if (a->rank < min_rank || a->rank > max_rank) {
        cli_error("%s: %s has rank %d; parlab %s takes %s", cmd, path, a->rank, cmd,
                  max_rank == 1 ? "a vector (rank 1)" : min_rank == 2 ? "a matrix (rank 2)" : "a vector or a matrix");
        return PL_EXIT_FAIL;
    }
    return PL_EXIT_OK;
}

int tool_context(const char *cmd, const pl_kernel *k, const char *size, const pl_pvalues *pv, pl_backend backend,
                 long device, long threads, const pl_variant *v, pl_ctx **ctx)
{
    (void)cmd;
    pl_status s = pl_ctx_create(ctx, backend, (int)device, (int)threads);
    if (s != PL_OK) return cli_fail(s);
    if (v && (s = pl_variant_check(*ctx, v, NULL, 0)) != PL_OK) return cli_fail(s); /* a CPU variant with --backend cuda: 2 */
    /* With CUDA the operands go to the device: they must fit its free memory. */
    if (pl_ctx_backend(*ctx) == PL_BACKEND_CUDA && size) {
        pl_plan plan;
        if ((s = pl_problem_plan(k, size, pv, PL_CHECK_AUTO, &plan)) == PL_OK) {
            plan.host_bytes = 0; /* the tool holds no reference and no working copies */
            s = pl_plan_fits(&plan, *ctx);
        }
        if (s != PL_OK) return cli_fail(s);
    }
    return PL_EXIT_OK;
}

double tool_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
