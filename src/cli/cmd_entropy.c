/* cmd_entropy.c: `parlab entropy IMAGE -o OUT.npy`, the local entropy of an image of integer
 * values through pl_entropy (the best rung) or a named variant; and `parlab entropy --batch
 * FILE -o OUTDIR`, many matrices from one file (parlab's batch file or a .npz), each written to
 * OUTDIR/<name>.npy, timed one by one with and without the transfers, as the classic lab
 * reports them (total and maximum).
 * Under mpirun (distributed/stencil/stencil_ranks.h) a .npy IMAGE runs on the ranks: each reads its block and writes
 * its block of OUT.npy with MPI-IO; --batch and image files are refused there.
 * Exit status: 0 ok; 1 a runtime failure (a file cannot be read or written, is malformed, holds
 * a value that is not an integer in [0, bins); the device fails); 2 a usage error. */
#include "cli/tool.h"
#include "cli/tool_ranks.h"
#include "core/core.h"
#include "distributed/stencil/stencil_ranks.h"
#include "kernels/entropy/entropy.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if ((rc = cli_status(pl_entropy_values(in_path, &A, o->bins, &values, &owned))) != 0) goto done;
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

/* A batch's line per matrix, and the sums of its total and maximum lines. */
typedef struct batch_rows {
    const pl_named_array *arr;
    double total, worst, k_total, k_worst;
} batch_rows;

static void batch_row(void *user, int i, double wall, const double phase[PL_N_PHASES])
{
    batch_rows *r = user;
    const double kernel_s = phase[PL_PHASE_KERNEL] >= 0 ? phase[PL_PHASE_KERNEL] : 0;
    char sz[48], h2d[32] = "-", d2h[32] = "-";
    snprintf(sz, sizeof sz, "%lldx%lld", (long long)r->arr[i].a.shape[0], (long long)r->arr[i].a.shape[1]);
    if (phase[PL_PHASE_H2D] >= 0) snprintf(h2d, sizeof h2d, "%.3f", phase[PL_PHASE_H2D] * 1e3);
    if (phase[PL_PHASE_D2H] >= 0) snprintf(d2h, sizeof d2h, "%.3f", phase[PL_PHASE_D2H] * 1e3);
    printf("%-20s %12s %14.3f %10s %10.3f %10s\n", r->arr[i].name, sz, wall * 1e3, h2d, kernel_s * 1e3, d2h);
    r->total += wall, r->k_total += kernel_s;
    r->worst = wall > r->worst ? wall : r->worst, r->k_worst = kernel_s > r->k_worst ? kernel_s : r->k_worst;
}

static int batch(const char *in_path, const char *out_dir, const run_opts *o, const tool_common *co)
{
    pl_named_array *arr = NULL;
    int count = 0, rc, made_dir = 0, written = 0;
    pl_ctx *ctx = NULL;
    pl_entropy_batch b = {0};
    float *out = NULL;
    pl_status s;
    if ((rc = tool_fits_host("entropy", "reading the batch", tool_file_bytes(in_path))) != 0) return rc;
    if ((s = pl_arrays_read(in_path, &arr, &count)) != PL_OK) return file_fail(s);
    /* Everything checked before anything is computed or written. */
    if ((rc = cli_status(pl_entropy_batch_prepare(in_path, out_dir, arr, count, o->bins, &b))) != 0) goto done;
    const int64_t most = b.most;
    if ((rc = tool_fits_host("entropy", "the largest output", (double)most * sizeof(float))) != 0) goto done;
    rc = PL_EXIT_FAIL;
    if (!(out = pl_alloc((size_t)(most > 0 ? most : 1) * sizeof(float)))) {
        cli_error("entropy: cannot allocate the output of %lld pixels", (long long)most);
        goto done;
    }
    /* Touched once here, untimed: the first copy back from a GPU into untouched pageable pages
     * paid the page faults (1.4 GB/s instead of the copy rate). */
    memset(out, 0, (size_t)(most > 0 ? most : 1) * sizeof(float));
    const pl_entropy_problem largest = problem_of(o, b.big_H, b.big_W);
    if ((rc = tool_context(&pl_entropy_kernel, most > 0 ? &largest : NULL, co, o->variant, &ctx)) != 0) goto done;
    if ((rc = cli_status(pl_entropy_batch_dir(out_dir, &made_dir))) != 0) goto done;
    rc = PL_EXIT_FAIL;
    const char *ran = o->variant ? o->variant->name : pl_best_variant(ctx, &pl_entropy_kernel, NULL);
    printf("entropy batch: %d matrices from %s, k=%d, bins=%d, base %s, variant %s, %s\n", count, in_path, o->k,
           o->bins, o->base2 ? "2" : "e", ran ? ran : "?", pl_backend_name(pl_ctx_backend(ctx)));
    const pl_entropy_problem opts = problem_of(o, 0, 0);
    if ((rc = cli_status(pl_entropy_batch_warm(ctx, ran, &b, arr, &opts, out))) != 0) goto done;
    /* The columns: the whole call (allocation, copies, run, checks), then its phases; a phase
     * that does not apply (the copies on the CPU) is "-". */
    printf("%-20s %12s %14s %10s %10s %10s\n", "matrix", "size", "with xfer ms", "h2d ms", "kernel ms", "d2h ms");
    batch_rows rows = {arr, 0, 0, 0, 0};
    if ((rc = cli_status(pl_entropy_batch_run(ctx, ran, &b, arr, &opts, out, batch_row, &rows, &written))) != 0)
        goto done;
    printf("%-20s %12s %14.3f %10s %10.3f\n", "total", "", rows.total * 1e3, "", rows.k_total * 1e3);
    printf("%-20s %12s %14.3f %10s %10.3f\n", "maximum", "", rows.worst * 1e3, "", rows.k_worst * 1e3);
done:
    if (rc != PL_EXIT_OK) pl_entropy_batch_undo(&b, written, out_dir, made_dir); /* nothing half-written */
    pl_ctx_destroy(ctx);
    pl_entropy_batch_free(&b);
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
        int mine = cli_status(pl_entropy_values(e->in_path, &block, o->bins, &values, &owned));
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
