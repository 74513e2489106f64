/* cmd_entropy.c: `parlab entropy IMAGE -o OUT.npy`, the local entropy of an image of integer
 * values through pl_entropy (the best rung) or a named variant; and `parlab entropy --batch
 * FILE -o OUTDIR`, many matrices from one file (parlab's batch file or a .npz), each written to
 * OUTDIR/<name>.npy, timed one by one with and without the transfers, as the classic lab
 * reports them (total and maximum).
 * Under mpirun (distributed/stencil/stencil_ranks.h) a .npy IMAGE runs on the ranks: each reads its block and writes
 * its block of OUT.npy with MPI-IO; --batch and image files are refused there.
 * Exit status: 0 ok; 1 a runtime failure (a file cannot be read or written, is malformed, holds
 * a value that is not an integer in [0, bins); the device fails); 2 a usage error. */
#define _POSIX_C_SOURCE 200809L
#include "cli/tool.h"
#include "cli/tool_ranks.h"
#include "core/core.h"
#include "distributed/stencil/stencil_ranks.h"
#include "kernels/entropy/entropy.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fputs("usage: parlab entropy IMAGE -o OUT.npy [options]\n"
          "       parlab entropy --batch FILE -o OUTDIR [options]\n"
          "\n"
          "For each pixel, the Shannon entropy of the values in the k x k window around it,\n"
          "the window clipped to the image at the borders (a corner pixel with k = 5 sees\n"
          "3 x 3 values): E = -sum_b p_b log p_b over the values b in the window.\n"
          "IMAGE is a rank-2 .npy (uint8, uint16, int32, float32 or float64 holding integers),\n"
          "an 8-bit PGM (P2/P5) or an 8-bit grayscale PNG. Every value must be an integer in\n"
          "[0, bins): the first one that is not is named (row, col) and nothing is written;\n"
          "values are never clamped. OUT is a float32 .npy of the same shape, whole or not at all.\n"
          "\n"
          "options:\n"
          "  -o, --output OUT    OUT.npy, or with --batch the output directory (made if missing)\n"
          "  -k K                window side, odd, 1..63 (default 5)\n"
          "  --bins B            values are in [0, B), 2..256 (default 16)\n"
          "  --base e|2          natural log (nats, default) or base 2 (bits)\n"
          "  --batch FILE        many matrices: parlab's batch file (.npy records back to back)\n"
          "                      or a .npz; each is written to OUTDIR/<name>.npy\n"
          "  --variant V         the entropy variant to run (an unknown name lists the valid\n"
          "                      ones); default: the best one the backend can run\n"
          TOOL_USAGE_OPTIONS
          "\n"
          "Prints one line: entropy: HxW, k=K, bins=B, base, variant V, T ms (T: the call,\n"
          "with the copies to and from the device on a GPU). With --batch, after one untimed\n"
          "call on a corner of the first matrix, a line per matrix (name, size, time of the\n"
          "call with the transfers, and its phases: copies in, kernel, copies out; on the CPU\n"
          "only the kernel) and the total and the maximum. Every matrix is read and checked\n"
          "before the first is computed; on a failure the outputs this run wrote are removed.\n"
          "\n"
          TOOL_USAGE_OUTPUT TOOL_USAGE_NO_STDOUT
          "(With --batch, -o is a directory, made if missing.)\n"
          "\n"
          "exit status: 0 success; 1 runtime failure (unreadable, malformed or wrong-typed\n"
          "file, a value that is not an integer in [0, bins), a device error, an output that\n"
          "cannot be written); 2 usage error (bad option or value, unknown variant, a problem\n"
          "too big for this machine's memory).\n",
          f);
}

/* What to do about a value past the bins: an 8-bit image (values below 256) needs --bins 256
 * (the default 16 is for images of 16 levels); a larger value no --bins can take. */
static const char *bins_hint(double value, int bins)
{
    if (value < 0) return "";
    if (value < PL_ENTROPY_MAX_BINS && bins < PL_ENTROPY_MAX_BINS)
        return "; an 8-bit image (values 0..255) needs --bins 256";
    return "; values must be integers below 256 (--bins 256 at most): rescale the image";
}

/* The values of a rank-2 array as uint8 in [0, bins): a uint8 array is used in place (*owned
 * = NULL), others are converted. A value that is not an integer in [0, bins) is a runtime
 * failure naming the file and the first such pixel. */
static int to_values(const char *path, const pl_array *a, int bins, const uint8_t **values, uint8_t **owned)
{
    *owned = NULL;
    if (a->rank != 2) {
        cli_error("entropy: %s: a rank-%d array; an image is a rank-2 matrix", path, a->rank);
        return PL_EXIT_FAIL;
    }
    int64_t H = a->shape[0], W = a->shape[1], n = H * W;
    if (a->dtype == PL_U8) {
        const uint8_t *v = a->data;
        for (int64_t i = 0; i < n; i++)
            if (v[i] >= bins) {
                cli_error("entropy: %s: value %d at pixel (row %lld, col %lld) is outside [0, %d) (--bins %d)%s", path,
                          v[i], (long long)(i / W), (long long)(i % W), bins, bins, bins_hint(v[i], bins));
                return PL_EXIT_FAIL;
            }
        *values = v;
        return PL_EXIT_OK;
    }
    uint8_t *out = pl_alloc((size_t)(n > 0 ? n : 1));
    if (!out) {
        cli_error("entropy: %s: no memory to convert %lldx%lld values", path, (long long)H, (long long)W);
        return PL_EXIT_FAIL;
    }
    for (int64_t i = 0; i < n; i++) {
        double x;
        switch (a->dtype) {
        case PL_U16: x = ((const uint16_t *)a->data)[i]; break;
        case PL_I32: x = ((const int32_t *)a->data)[i]; break;
        case PL_F32: x = ((const float *)a->data)[i]; break;
        case PL_F64: x = ((const double *)a->data)[i]; break;
        default: x = NAN; break;
        }
        if (x != floor(x) || !(x >= 0 && x < bins)) { /* NaN fails both */
            if (x == floor(x))
                cli_error("entropy: %s: value %.17g at pixel (row %lld, col %lld) is outside [0, %d) (--bins %d)%s", path,
                          x, (long long)(i / W), (long long)(i % W), bins, bins, bins_hint(x, bins));
            else
                cli_error("entropy: %s: value %.9g at pixel (row %lld, col %lld) is not an integer", path, x,
                          (long long)(i / W), (long long)(i % W));
            pl_free(out);
            return PL_EXIT_FAIL;
        }
        out[i] = (uint8_t)x;
    }
    *values = out;
    *owned = out;
    return PL_EXIT_OK;
}

/* A file that cannot be read: the message, and exit 1 (a malformed file is not a usage error),
 * but 2 for one too big for this machine's memory. */
static int file_fail(pl_status s)
{
    int code = cli_fail(s);
    return code == PL_EXIT_USAGE && s != PL_ERR_TOO_BIG ? PL_EXIT_FAIL : code;
}

typedef struct run_opts {
    int k, bins, base2;
    const pl_variant *variant;
} run_opts;

/* The problem of an H x W matrix of values (dense rows), built once for its run. */
static pl_entropy_problem problem_of(const run_opts *o, int64_t H, int64_t W)
{
    return (pl_entropy_problem){.H = H, .W = W, .k = o->k, .bins = o->bins, .base2 = o->base2, .ld_in = W, .ld_out = W};
}

/* Entropy of values into out on the problem p; phase_s as pl_run_host_phases; *wall_s the call. */
static pl_status run_one(pl_ctx *ctx, const run_opts *o, const pl_entropy_problem *p, const uint8_t *values,
                         float *out, double phase_s[PL_N_PHASES], double *wall_s)
{
    const char *name = o->variant ? o->variant->name : pl_best_variant(ctx, &pl_entropy_kernel, NULL);
    double t0 = pl_now();
    pl_status s = name ? pl_entropy_variant_phases(ctx, name, NULL, p, values, out, phase_s)
                       : pl_fail(PL_ERR_UNSUPPORTED, "entropy: no variant can run in this context");
    *wall_s = pl_now() - t0;
    return s;
}

/* One image's entropy, for tool_run (no rung: an empty image, nothing to compute). */
typedef struct entropy_call {
    const pl_entropy_problem *p;
    const uint8_t *values;
    float *out;
} entropy_call;

static pl_status entropy(pl_ctx *ctx, const char *rung, void *user)
{
    const entropy_call *c = user;
    return rung ? pl_entropy_variant_phases(ctx, rung, NULL, c->p, c->values, c->out, NULL) : PL_OK;
}

/* IMAGE to OUT.npy: the image read and its values checked, the output allocated, one call. */
static int single(const char *in_path, const char *out_path, const run_opts *o, const tool_common *co)
{
    pl_array A = {0}, E = {0};
    uint8_t *owned = NULL;
    const uint8_t *values = NULL;
    const char *ran = NULL;
    double ms = 0;
    int rc;
    pl_status s;
    if ((rc = tool_fits_host("entropy", "reading the image", tool_file_bytes(in_path))) != 0) goto done;
    if ((s = pl_image_read(in_path, &A)) != PL_OK) {
        rc = file_fail(s);
        goto done;
    }
    if ((rc = to_values(in_path, &A, o->bins, &values, &owned)) != 0) goto done;
    const int64_t H = A.shape[0], W = A.shape[1];
    char what[96];
    snprintf(what, sizeof what, "the output (%lldx%lld float32)", (long long)H, (long long)W);
    if ((rc = tool_alloc_f32("entropy", what, 2, (int64_t[]){H, W}, &E)) != 0) goto done;
    const pl_entropy_problem p = problem_of(o, H, W);
    entropy_call call = {&p, values, E.data};
    if ((rc = tool_run(&pl_entropy_kernel, H * W > 0 ? &p : NULL, co, o->variant, entropy,
                       &call, &ran, &ms)) == 0 &&
        (rc = tool_write_npy(out_path, &E)) == 0)
        printf("entropy: %lldx%lld, k=%d, bins=%d, base %s, variant %s, %.3f ms\n", (long long)H, (long long)W, o->k,
               o->bins, o->base2 ? "2" : "e", ran ? ran : "?", ms);
done:
    pl_free(owned);
    pl_array_free(&A);
    pl_array_free(&E);
    return rc;
}

/* A member name usable as a file name in OUTDIR: no '/', not empty, not "." or "..". */
static int safe_name(const char *name)
{
    return name[0] && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

static int batch(const char *in_path, const char *out_dir, const run_opts *o, const tool_common *co)
{
    pl_named_array *arr = NULL;
    int count = 0, rc, made_dir = 0, written = 0;
    pl_ctx *ctx = NULL;
    uint8_t **owned = NULL;
    const uint8_t **values = NULL;
    char **paths = NULL;
    float *out = NULL;
    pl_status s;
    if ((rc = tool_fits_host("entropy", "reading the batch", tool_file_bytes(in_path))) != 0) return rc;
    if ((s = pl_arrays_read(in_path, &arr, &count)) != PL_OK) return file_fail(s);
    rc = PL_EXIT_FAIL;
    owned = calloc((size_t)count + 1, sizeof *owned);
    values = calloc((size_t)count + 1, sizeof *values);
    paths = calloc((size_t)count + 1, sizeof *paths);
    if (!owned || !values || !paths) {
        cli_error("entropy: no memory for a batch of %d matrices", count);
        goto done;
    }
    /* Everything checked before anything is computed or written. */
    int64_t most = 0, big_H = 0, big_W = 0;
    for (int i = 0; i < count; i++) {
        char where[512];
        snprintf(where, sizeof where, "%s, matrix '%s'", in_path, arr[i].name);
        if (!safe_name(arr[i].name)) {
            cli_error("entropy: %s: '%s' cannot name a file in %s", in_path, arr[i].name, out_dir);
            goto done;
        }
        for (int j = 0; j < i; j++)
            if (!strcmp(arr[i].name, arr[j].name)) {
                cli_error("entropy: %s: two matrices are named '%s'", in_path, arr[i].name);
                goto done;
            }
        if ((rc = to_values(where, &arr[i].a, o->bins, &values[i], &owned[i])) != 0) goto done;
        rc = PL_EXIT_FAIL;
        int64_t n = arr[i].a.shape[0] * arr[i].a.shape[1];
        if (n > most) most = n, big_H = arr[i].a.shape[0], big_W = arr[i].a.shape[1];
        size_t len = strlen(out_dir) + strlen(arr[i].name) + 8;
        if (!(paths[i] = malloc(len))) {
            cli_error("entropy: no memory");
            goto done;
        }
        snprintf(paths[i], len, "%s/%s.npy", out_dir, arr[i].name);
    }
    if ((rc = tool_fits_host("entropy", "the largest output", (double)most * sizeof(float))) != 0) goto done;
    rc = PL_EXIT_FAIL;
    if (!(out = pl_alloc((size_t)(most > 0 ? most : 1) * sizeof(float)))) {
        cli_error("entropy: cannot allocate the output of %lld pixels", (long long)most);
        goto done;
    }
    /* Touched once here, untimed: the first copy back from a GPU into untouched pageable pages
     * paid the page faults (1.4 GB/s instead of the copy rate). */
    memset(out, 0, (size_t)(most > 0 ? most : 1) * sizeof(float));
    const pl_entropy_problem largest = problem_of(o, big_H, big_W);
    if ((rc = tool_context(&pl_entropy_kernel, most > 0 ? &largest : NULL, co, o->variant, &ctx)) != 0) goto done;
    rc = PL_EXIT_FAIL;
    struct stat st;
    if (stat(out_dir, &st) != 0) {
        if (mkdir(out_dir, 0777) != 0) {
            cli_error("entropy: cannot create the directory %s: %s", out_dir, strerror(errno));
            goto done;
        }
        made_dir = 1;
    } else if (!S_ISDIR(st.st_mode)) {
        cli_error("entropy: %s exists and is not a directory", out_dir);
        goto done;
    }
    const char *ran = o->variant ? o->variant->name : pl_best_variant(ctx, &pl_entropy_kernel, NULL);
    printf("entropy batch: %d matrices from %s, k=%d, bins=%d, base %s, variant %s, %s\n", count, in_path, o->k,
           o->bins, o->base2 ? "2" : "e", ran ? ran : "?", pl_backend_name(pl_ctx_backend(ctx)));
    /* One untimed call first (at most 64 x 64 of the first matrix), so that the first matrix's
     * time does not carry the one-time costs (threads started, GPU modules loaded). */
    for (int i = 0; i < count; i++) {
        int64_t H = arr[i].a.shape[0], W = arr[i].a.shape[1];
        if (H * W == 0) continue;
        pl_entropy_problem p = problem_of(o, H < 64 ? H : 64, W < 64 ? W : 64);
        p.ld_in = W;
        s = pl_entropy_variant_phases(ctx, ran, NULL, &p, values[i], out, NULL);
        if (s != PL_OK) {
            rc = cli_fail(s);
            goto done;
        }
        break;
    }
    /* The columns: the whole call (allocation, copies, run, checks), then its phases; a phase
     * that does not apply (the copies on the CPU) is "-". */
    printf("%-20s %12s %14s %10s %10s %10s\n", "matrix", "size", "with xfer ms", "h2d ms", "kernel ms", "d2h ms");
    double total = 0, worst = 0, k_total = 0, k_worst = 0;
    for (int i = 0; i < count; i++) {
        int64_t H = arr[i].a.shape[0], W = arr[i].a.shape[1];
        double phase[PL_N_PHASES] = {-1, -1, -1, -1}, wall = 0;
        const pl_entropy_problem p = problem_of(o, H, W);
        s = H * W > 0 ? run_one(ctx, o, &p, values[i], out, phase, &wall) : PL_OK;
        pl_array E = {.dtype = PL_F32, .rank = 2, .shape = {H, W}, .data = out};
        if (s == PL_OK) s = pl_npy_write(paths[i], &E);
        if (s != PL_OK) {
            rc = cli_fail(s);
            goto done;
        }
        written = i + 1;
        double kernel_s = phase[PL_PHASE_KERNEL] >= 0 ? phase[PL_PHASE_KERNEL] : 0;
        char sz[48], h2d[32] = "-", d2h[32] = "-";
        snprintf(sz, sizeof sz, "%lldx%lld", (long long)H, (long long)W);
        if (phase[PL_PHASE_H2D] >= 0) snprintf(h2d, sizeof h2d, "%.3f", phase[PL_PHASE_H2D] * 1e3);
        if (phase[PL_PHASE_D2H] >= 0) snprintf(d2h, sizeof d2h, "%.3f", phase[PL_PHASE_D2H] * 1e3);
        printf("%-20s %12s %14.3f %10s %10.3f %10s\n", arr[i].name, sz, wall * 1e3, h2d, kernel_s * 1e3, d2h);
        total += wall, k_total += kernel_s;
        worst = wall > worst ? wall : worst, k_worst = kernel_s > k_worst ? kernel_s : k_worst;
    }
    printf("%-20s %12s %14.3f %10s %10.3f\n", "total", "", total * 1e3, "", k_total * 1e3);
    printf("%-20s %12s %14.3f %10s %10.3f\n", "maximum", "", worst * 1e3, "", k_worst * 1e3);
    rc = PL_EXIT_OK;
done:
    if (rc != PL_EXIT_OK) { /* nothing half-written: this run's outputs go */
        for (int i = 0; i < written; i++) remove(paths[i]);
        if (made_dir) rmdir(out_dir);
    }
    pl_ctx_destroy(ctx);
    for (int i = 0; owned && i < count; i++) pl_free(owned[i]);
    for (int i = 0; paths && i < count; i++) free(paths[i]);
    free(owned), free(values), free(paths);
    pl_free(out);
    if (arr) pl_arrays_free(arr, count);
    return rc;
}

/* The output is float32 NumPy data: a name that says another format (x.pgm, x.png, x.txt) is
 * refused before anything runs, not written as .npy under that name. */
static int npy_output_name(const char *path)
{
    const char *base = strrchr(path, '/'), *dot = strrchr(base ? base + 1 : path, '.');
    if (!strcmp(path, "-") || (dot && !strcmp(dot, ".npy"))) return PL_EXIT_OK;
    if (dot && (!strcmp(dot, ".pgm") || !strcmp(dot, ".png")))
        cli_error("entropy: -o %s: the entropy is float32 data, written only as NumPy .npy (an image of it would "
                  "lose the values); name it OUT.npy", path);
    else
        cli_error("entropy: -o %s: the output is a NumPy .npy file; name it OUT.npy", path);
    return PL_EXIT_USAGE;
}

enum { O_K = CLI_OPT_OWN, O_BINS, O_BASE, O_BATCH };
static const cli_opt options[] = {
    CLI_ROWS_OUTPUT, CLI_ROWS_RUN, {"-k", "K", O_K, 0, NULL}, {"--bins", "B", O_BINS, 0, NULL},
    {"--base", "e|2", O_BASE, 0, NULL}, {"--batch", "FILE", O_BATCH, 0, NULL},
};

/* What the command line asks for. */
typedef struct entropy_args {
    tool_common co;
    const char *in_path, *batch_path;
    long k, bins;
    int base2;
} entropy_args;

static int take_option(void *user, const cli_opt *o, const char *val)
{
    entropy_args *e = user;
    int rc;
    switch (o->id) {
    case O_K:
        if ((rc = cli_parse_int("-k", val, 1, PL_ENTROPY_MAX_K, &e->k)) != 0) return rc;
        if (e->k % 2 == 0) {
            cli_error("entropy: -k %ld: the window side must be odd", e->k);
            return PL_EXIT_USAGE;
        }
        return PL_EXIT_OK;
    case O_BINS: return cli_parse_int("--bins", val, 2, PL_ENTROPY_MAX_BINS, &e->bins);
    case O_BASE:
        if (strcmp(val, "e") && strcmp(val, "2")) {
            cli_error("entropy: --base '%s': expected e or 2", val);
            return PL_EXIT_USAGE;
        }
        e->base2 = !strcmp(val, "2");
        return PL_EXIT_OK;
    case O_BATCH: e->batch_path = val; return PL_EXIT_OK;
    }
    return tool_common_option("entropy", &e->co, o, val);
}

/* The options; IMAGE or --batch FILE, and an output of the right kind. CLI_GO_ON or the exit
 * status (a batch's "-o -" refused here too). */
static int parse_args(int argc, char **argv, entropy_args *e)
{
    cli_args a = {.cmd = "entropy", .opts = options, .n_opts = sizeof options / sizeof *options, .pos = &e->in_path,
                  .max_pos = 1, .takes = "one input, IMAGE"};
    int rc = cli_parse(&a, argc, argv, take_option, e, usage);
    if (rc != CLI_GO_ON) return rc;
    if (e->in_path && e->batch_path) {
        cli_error("entropy: give IMAGE or --batch FILE, not both");
        return PL_EXIT_USAGE;
    }
    if (!e->in_path && !e->batch_path) {
        cli_error("entropy: needs an input file, IMAGE or --batch FILE (see parlab entropy --help)");
        return PL_EXIT_USAGE;
    }
    if ((rc = tool_need_output("entropy", &e->co, e->batch_path ? "OUTDIR" : "OUT.npy")) != 0) return rc;
    if (e->batch_path) /* a directory of files ("-" refused here); the batch's own checks follow */
        return strcmp(e->co.out_path, "-") ? CLI_GO_ON
                                           : tool_check_output("entropy", "-o", "-", NULL, 0, TOOL_OUT_FILE_ONLY);
    if ((pl_dist_rank() == 0 && /* under mpirun rank 0 alone checks */
         (rc = tool_check_output("entropy", "-o", e->co.out_path, &e->in_path, 1, TOOL_OUT_FILE_ONLY)) != 0) ||
        (rc = npy_output_name(e->co.out_path)) != 0)
        return rc;
    return CLI_GO_ON;
}

/* IMAGE.npy on the ranks of mpirun: each rank's block read (its values checked where they
 * live), its entropies computed with the halo from its neighbours, its block of OUT.npy
 * written, by MPI-IO; every failure point agreed. */
static int entropy_on_ranks(const entropy_args *e, const run_opts *o)
{
    static const pl_dtype types[] = {PL_U8, PL_U16, PL_I32, PL_F32, PL_F64};
    pl_dist_npy h;
    pl_dist_grid g;
    int have_grid = 0;
    void *in = NULL;
    uint8_t *owned = NULL;
    const uint8_t *values = NULL;
    float *out = NULL;
    pl_ctx *ctx = NULL;
    pl_dist_entropy_plan *plan = NULL;
    int rc = e->batch_path ? PL_EXIT_USAGE : PL_EXIT_OK;
    if (rc) cli_error("entropy: --batch runs on one process; run it without mpirun");
    if ((rc = cli_agree(rc)) == 0) rc = cli_status(pl_dist_npy_only("entropy", &e->in_path, 1, e->co.out_path));
    if (rc == 0) rc = cli_status(pl_dist_npy_header_of("entropy", e->in_path, types, 5, &h));
    if (rc == 0) rc = tool_ranks_status(pl_dist_grid_create(&g, h.shape[0], h.shape[1], 0)), have_grid = rc == 0;
    if (rc == 0) rc = tool_ranks_context(&pl_entropy_kernel, &e->co, o->variant, &ctx);
    if (rc == 0) rc = cli_status(pl_dist_npy_read_mine("entropy", &g, e->in_path, &h, &in));
    const pl_dist_block b = have_grid ? pl_dist_block_of(&g, h.shape[0], h.shape[1]) : (pl_dist_block){0, 0, 0, 0};
    const int64_t bh = b.y1 - b.y0, bw = b.x1 - b.x0;
    if (rc == 0) { /* this rank's values checked and converted; its output block */
        const pl_array block = {.dtype = h.dtype, .rank = 2, .shape = {bh, bw}, .data = in};
        int mine = to_values(e->in_path, &block, o->bins, &values, &owned);
        if (mine == 0 && !(out = pl_alloc((size_t)(bh * bw) * sizeof *out))) {
            cli_error("entropy: cannot allocate this rank's output block");
            mine = PL_EXIT_FAIL;
        }
        rc = cli_agree(mine);
    }
    const pl_entropy_problem p = problem_of(o, h.shape[0], h.shape[1]);
    if (rc == 0)
        rc = tool_ranks_status(pl_dist_entropy_create(&plan, &g, ctx, o->variant ? o->variant->name : NULL, NULL, &p,
                                                     PL_DIST_OVERLAP_AUTO));
    double ms = 0;
    if (rc == 0) {
        const double t0 = pl_now();
        rc = tool_ranks_status(pl_dist_entropy_run(plan, values, bw, out, bw));
        ms = pl_dist_max(pl_now() - t0) * 1e3;
    }
    if (rc == 0) rc = tool_ranks_status(pl_dist_npy_write(&g, e->co.out_path, PL_F32, p.H, p.W, out, bw));
    if (rc == 0) {
        printf("entropy: %lldx%lld, k=%d, bins=%d, base %s, variant %s on %d rank%s (%dx%d)%s, %.3f ms\n",
               (long long)p.H, (long long)p.W, o->k, o->bins, o->base2 ? "2" : "e", pl_dist_entropy_rung(plan), g.size,
               g.size > 1 ? "s" : "", g.dims[0], g.dims[1], pl_dist_entropy_on_nccl(plan) ? " between GPUs on NCCL" : "",
               ms);
        const pl_dist_times t = pl_dist_entropy_times(plan);
        tool_ranks_report(&t);
    }
    pl_dist_entropy_destroy(plan);
    pl_ctx_destroy(ctx);
    if (have_grid) pl_dist_grid_destroy(&g);
    pl_free(in), pl_free(owned), pl_free(out);
    return rc;
}

int pl_cmd_entropy(int argc, char **argv)
{
    entropy_args e = {.co = TOOL_COMMON_INIT, .k = 5, .bins = 16};
    run_opts o = {0};
    int rc;
    if (pl_dist_active()) { /* the output was checked on rank 0 alone: every rank agrees on it */
        if ((rc = tool_ranks_parsed(parse_args(argc, argv, &e))) != CLI_GO_ON ||
            (rc = cli_agree(tool_find_variant("entropy", &pl_entropy_kernel, &e.co, &o.variant))) != 0)
            return rc;
        o.k = (int)e.k, o.bins = (int)e.bins, o.base2 = e.base2;
        return entropy_on_ranks(&e, &o);
    }
    if ((rc = parse_args(argc, argv, &e)) != CLI_GO_ON ||
        (rc = tool_find_variant("entropy", &pl_entropy_kernel, &e.co, &o.variant)) != 0)
        return rc;
    o.k = (int)e.k, o.bins = (int)e.bins, o.base2 = e.base2;
    return e.batch_path ? batch(e.batch_path, e.co.out_path, &o, &e.co) : single(e.in_path, e.co.out_path, &o, &e.co);
}
