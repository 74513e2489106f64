/* cmd_conv2d.c: `parlab conv2d IMAGE --filter F -o OUT`, a K x K filter over a single-channel
 * image, through pl_conv2d (the best rung) or pl_conv2d_variant (--variant). IMAGE is a .npy
 * (float32 or int32 used as they are, uint8/uint16 converted), a PGM or a PNG (8 or 16 bit,
 * converted to float32, or int32 with --dtype i32); OUT by its name: .pgm/.png rounded and
 * clamped to 8 bits (--depth 16: 16 bits), anything else a .npy of the computed dtype.
 * Under mpirun (src/distributed/stencil/stencil_ranks.h) a .npy image runs on the ranks: each reads its block
 * of IMAGE and writes its block of OUT with MPI-IO, and filters it with its halo from its
 * neighbours; PGM/PNG files and uint8/uint16 .npy images are refused there.
 * Exit status: 0 ok; 1 a runtime failure (a file cannot be read or written or holds the wrong
 * type; the device fails); 2 a usage error (bad option, value or filter, a filter that does
 * not fit the image in valid mode, int32 sums that could overflow, too big for memory). */
#define _POSIX_C_SOURCE 200809L
#include "cli/tool.h"
#include "cli/tool_ranks.h"
#include "core/core.h"
#include "distributed/stencil/stencil_ranks.h"
#include "harness/harness.h"
#include "io/io.h"
#include "kernels/conv2d/conv2d.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: parlab conv2d IMAGE --filter F -o OUT [options]\n"
          "\n"
          "Filter a single-channel image with a K x K filter (K odd, 1..15):\n"
          "  out[y][x] = sum_{i,j} w[i][j] * image[y+i-r][x+j-r]   (r = K/2 in same mode, 0 in valid)\n"
          "cross-correlation, as OpenCV's filter2D and scipy.ndimage.correlate; --flip rotates\n"
          "the filter 180 degrees (true convolution, scipy.signal.convolve2d).\n"
          "\n"
          "IMAGE: a .npy (rank 2: float32 and int32 used as they are; uint8 and uint16\n"
          "converted), a PGM (P2/P5, 8 or 16 bit) or a PNG (8 or 16 bit grayscale, where this\n"
          "build has libpng). 8/16-bit images become float32, or int32 with --dtype i32.\n"
          "\n"
          "options:\n"
          "  --filter F          the filter: K*K comma-separated numbers in row order\n"
          "                      ('1,2,1,2,4,2,1,2,1'), or a .npy file of a K x K array (required)\n"
          "  --mode M            valid (output (H-K+1) x (W-K+1), the default) or same (H x W)\n"
          "  --border B          same mode: zero (default), clamp (repeat the edge pixel) or\n"
          "                      reflect (mirror without repeating the edge: -1 reads 1)\n"
          "  --flip              true convolution instead of cross-correlation\n"
          "  --dtype T           f32 or i32 for an 8/16-bit image (default f32); a .npy image\n"
          "                      keeps its own type (a --dtype that disagrees is an error)\n"
          "  -o, --output OUT    where to write the result (required): .pgm or .png are\n"
          "                      rounded to the nearest integer (halves away from zero) and\n"
          "                      clamped to 0..255 (0..65535 with --depth 16), the count of\n"
          "                      clamped pixels printed; any other name a .npy of the dtype\n"
          "  --depth D           8 (default) or 16: the bits of a .pgm/.png output\n"
          "  --variant V         the conv2d variant to run (an unknown name lists the valid\n"
          "                      ones); default: the best one the backend can run\n"
          TOOL_USAGE_OPTIONS
          "\n"
          "Prints: out = image (*) KxK filter: OHxOW (image HxW, MODE), variant V, T ms\n"
          "where T is the time of the conv2d call alone (with CUDA, including the copies).\n"
          "\n"
          TOOL_USAGE_OUTPUT TOOL_USAGE_NO_STDOUT
          "\n"
          "exit status: 0 success; 1 runtime failure (a file cannot be read or written, is\n"
          "malformed or of a type parlab conv2d does not take; a device error); 2 usage error\n"
          "(bad option or value, a filter whose count is not an odd square or with a bad\n"
          "number, a filter larger than the image in valid mode, int32 sums that could leave\n"
          "int32, unknown variant, a problem too big for this machine's memory).\n",
          f);
}

/* --mode, --border, --dtype: the kernel's own CHOICE problem parameter of that name parses the
 * value (one list of names, one message for the tool and for `bench --set`). */
static int problem_choice(const char *opt, const char *val, int *out)
{
    double v;
    if (pl_param_parse(pl_problem_param_find(&pl_conv2d_kernel, opt + 2), val, &v) != PL_OK) {
        cli_error("conv2d: %s '%s': %s", opt, val, pl_last_error());
        return PL_EXIT_USAGE;
    }
    *out = (int)v;
    return PL_EXIT_OK;
}

enum { O_FILTER = CLI_OPT_OWN, O_MODE, O_BORDER, O_DTYPE, O_DEPTH, O_FLIP };
static const cli_opt options[] = {
    CLI_ROWS_OUTPUT, CLI_ROWS_RUN, {"--filter", "F", O_FILTER, 0, NULL}, {"--mode", "M", O_MODE, 0, NULL},
    {"--border", "B", O_BORDER, 0, NULL}, {"--dtype", "T", O_DTYPE, 0, NULL}, {"--depth", "D", O_DEPTH, 0, NULL},
    {"--flip", NULL, O_FLIP, 0, NULL},
};

/* What the command line asks for. */
typedef struct conv2d_args {
    tool_common co;
    const char *in_path, *filter_text;
    int mode, border, border_given, flip;
    int dtype_i32, dtype_given;
    int depth16, depth_given;
    int image_out; /* -o names a .pgm or .png */
} conv2d_args;

static int take_option(void *user, const cli_opt *o, const char *val)
{
    conv2d_args *c = user;
    switch (o->id) {
    case O_FILTER: c->filter_text = val; return PL_EXIT_OK;
    case O_MODE: return problem_choice(o->name, val, &c->mode);
    case O_BORDER: c->border_given = 1; return problem_choice(o->name, val, &c->border);
    case O_DTYPE: c->dtype_given = 1; return problem_choice(o->name, val, &c->dtype_i32);
    case O_FLIP: c->flip = 1; return PL_EXIT_OK;
    case O_DEPTH:
        c->depth_given = 1, c->depth16 = !strcmp(val, "16");
        if (c->depth16 || !strcmp(val, "8")) return PL_EXIT_OK;
        cli_error("conv2d: --depth: '%s' is not 8 or 16", val);
        return PL_EXIT_USAGE;
    }
    return tool_common_option("conv2d", &c->co, o, val);
}

/* The options, and every check that needs no file read: an image, a filter, an output whose
 * name says its format, --border and --depth where they apply. CLI_GO_ON or the exit status. */
static int parse_args(int argc, char **argv, conv2d_args *c)
{
    cli_args a = {.cmd = "conv2d", .opts = options, .n_opts = sizeof options / sizeof *options, .pos = &c->in_path,
                  .max_pos = 1, .takes = "one input, IMAGE"};
    int rc = cli_parse(&a, argc, argv, take_option, c, usage);
    if (rc != CLI_GO_ON) return rc;
    if (!c->in_path) {
        cli_error("conv2d: needs an input image, IMAGE (see parlab conv2d --help)");
        return PL_EXIT_USAGE;
    }
    if (!c->filter_text) {
        cli_error("conv2d: needs a filter: --filter '1,2,1,2,4,2,1,2,1' or --filter F.npy");
        return PL_EXIT_USAGE;
    }
    if ((rc = tool_need_output("conv2d", &c->co, "OUT.npy")) != 0 ||
        (pl_dist_rank() == 0 && /* under mpirun rank 0 alone checks */
         (rc = tool_check_output("conv2d", "-o", c->co.out_path, &c->in_path, 1, TOOL_OUT_FILE_ONLY)) != 0))
        return rc;
    if (c->border_given && c->mode != PL_CONV2D_SAME) {
        cli_error("conv2d: --border %s applies to --mode same only",
                  pl_problem_param_find(&pl_conv2d_kernel, "border")->choices[c->border]);
        return PL_EXIT_USAGE;
    }
    const char *out = c->co.out_path;
    c->image_out = pl_has_extension(out, ".pgm") || pl_has_extension(out, ".png");
    /* the format follows the name: .pgm, .png or .npy; another extension is refused, not written
     * as NumPy data under that name */
    const char *base = strrchr(out, '/'), *dot = strrchr(base ? base + 1 : out, '.');
    if (dot && dot[1] && !c->image_out && !pl_has_extension(out, ".npy")) {
        cli_error("conv2d: -o %s: '%s' is not an output format: name it .npy, .pgm or .png", out, dot);
        return PL_EXIT_USAGE;
    }
    if (c->depth_given && !c->image_out) {
        cli_error("conv2d: --depth applies to a .pgm or .png output, not %s", out);
        return PL_EXIT_USAGE;
    }
    return CLI_GO_ON;
}

/* The filter (parsed first: its usage errors come before a large image is read), the image
 * in the problem's dtype (an 8/16-bit image takes --dtype, a .npy its own: the filter is
 * parsed again in it), and the problem p. */
static int read_inputs(const conv2d_args *c, pl_array *img, void **filter, pl_conv2d_problem *p)
{
    pl_dtype dtype = c->dtype_i32 ? PL_I32 : PL_F32;
    const pl_conv2d_problem opts = {.mode = c->mode, .border = c->border, .flip = c->flip};
    int K = 0, rc;
    pl_status s;
    if ((s = pl_conv2d_filter_parse(c->filter_text, dtype, filter, &K)) != PL_OK) return cli_fail(s);
    if ((rc = tool_fits_host("conv2d", "reading the image", tool_file_bytes(c->in_path))) != 0) return rc;
    if ((s = pl_image_read(c->in_path, img)) != PL_OK ||
        (s = pl_conv2d_image_as(c->in_path, img, c->dtype_given, &dtype)) != PL_OK)
        return cli_fail(s);
    return cli_status(pl_conv2d_problem_for(&opts, c->filter_text, img->shape[0], img->shape[1], dtype, filter, p));
}

/* The output, OH x OW of the problem's dtype (with room for the 8/16-bit image beside it). */
static int alloc_output(const conv2d_args *c, const pl_conv2d_problem *p, pl_array *out)
{
    char what[96];
    snprintf(what, sizeof what, "the output (%lldx%lld %s)", (long long)p->OH, (long long)p->OW,
             pl_dtype_name(p->dtype));
    double out_bytes = (double)p->OH * (double)p->OW * (c->image_out ? 4.0 + (c->depth16 ? 2.0 : 1.0) : 4.0);
    int rc = tool_fits_host("conv2d", what, out_bytes);
    if (rc != 0) return rc;
    *out = (pl_array){.dtype = p->dtype, .rank = 2, .shape = {p->OH, p->OW}};
    if (!(out->data = pl_alloc((size_t)(p->OH * p->OW) * 4))) {
        cli_error("conv2d: cannot allocate %s", what);
        return PL_EXIT_FAIL;
    }
    return PL_EXIT_OK;
}

/* One filtering, for tool_run: out = image (*) filter on the problem p by the rung. */
typedef struct conv2d_call {
    const pl_conv2d_problem *p;
    const pl_array *img;
    const void *filter;
    pl_array *out;
} conv2d_call;

static pl_status filter_image(pl_ctx *ctx, const char *rung, void *user)
{
    const conv2d_call *c = user;
    return pl_conv2d_variant_problem(ctx, rung, NULL, c->p, c->img->data, c->filter, c->out->data);
}

/* The output by its name: a .npy of the dtype, or an 8/16-bit image (*clamped: the pixels
 * outside its range; -1 for a .npy). */
static int write_output(const conv2d_args *c, const pl_array *out, int64_t *clamped)
{
    const int depth = c->image_out ? (c->depth16 ? 16 : 8) : 0;
    return cli_status(pl_conv2d_image_write(c->co.out_path, out, depth, clamped));
}

static void print_summary(const conv2d_args *c, const pl_conv2d_problem *p, const char *ran, double ms,
                          int64_t clamped)
{
    const char *mode = pl_problem_param_find(&pl_conv2d_kernel, "mode")->choices[p->mode],
               *border = pl_problem_param_find(&pl_conv2d_kernel, "border")->choices[p->border];
    char mode_text[32];
    snprintf(mode_text, sizeof mode_text, "%s%s%s%s", mode, p->mode ? " " : "", p->mode ? border : "",
             p->flip ? ", flipped" : "");
    printf("out = image (*) %dx%d filter: %lldx%lld %s (image %lldx%lld, %s), variant %s, %.3f ms\n", p->K, p->K,
           (long long)p->OH, (long long)p->OW, pl_dtype_name(p->dtype), (long long)p->H, (long long)p->W, mode_text,
           ran ? ran : "?", ms);
    if (clamped >= 0)
        printf("%s: %d-bit, %lld of %lld pixels clamped to 0..%d\n", c->co.out_path, c->depth16 ? 16 : 8,
               (long long)clamped, (long long)(p->OH * p->OW), c->depth16 ? 65535 : 255);
}

/* ---------------------------------------------------------------- on the ranks of mpirun */

/* The problem from the image's header (float32 or int32: its own dtype; --dtype must agree) and
 * the filter, parsed on every rank. */
static int ranks_problem(const conv2d_args *c, const pl_dist_npy *h, void **filter, pl_conv2d_problem *p)
{
    const pl_conv2d_problem opts = {.mode = c->mode, .border = c->border, .flip = c->flip};
    pl_status s = pl_conv2d_image_dtype(c->in_path, h->dtype, c->dtype_given, c->dtype_i32 ? PL_I32 : PL_F32);
    if (s == PL_OK) s = pl_conv2d_problem_for(&opts, c->filter_text, h->shape[0], h->shape[1], h->dtype, filter, p);
    return cli_status(s);
}

/* The image on the ranks: each rank's block read, filtered with its halo, and its output block
 * written, by MPI-IO; every failure point agreed. */
static int conv2d_on_ranks(const conv2d_args *c, const pl_variant *variant)
{
    static const pl_dtype types[] = {PL_F32, PL_I32};
    pl_dist_npy h;
    pl_conv2d_problem p;
    pl_dist_grid g;
    int have_grid = 0;
    void *filter = NULL, *in = NULL, *out = NULL;
    pl_ctx *ctx = NULL;
    pl_dist_conv2d_plan *plan = NULL;
    pl_dist_times t = {0, 0, 0};
    int rc = cli_status(pl_dist_npy_only("conv2d", &c->in_path, 1, c->co.out_path));
    if (rc == 0) rc = cli_status(pl_dist_npy_header_of("conv2d", c->in_path, types, 2, &h));
    if (rc == 0) rc = cli_agree(ranks_problem(c, &h, &filter, &p));
    if (rc == 0) rc = tool_ranks_status(pl_dist_grid_create(&g, p.H, p.W, 0)), have_grid = rc == 0;
    if (rc == 0) rc = tool_ranks_context(&pl_conv2d_kernel, &c->co, variant, &ctx);
    if (rc == 0) rc = cli_status(pl_dist_npy_read_mine("conv2d", &g, c->in_path, &h, &in));
    const pl_dist_block ib = have_grid ? pl_dist_block_of(&g, p.H, p.W) : (pl_dist_block){0, 0, 0, 0};
    const pl_dist_block ob = have_grid ? pl_dist_conv2d_out_block(&g, &p) : ib;
    const int64_t ow = ob.x1 > ob.x0 ? ob.x1 - ob.x0 : 0, oh = ob.y1 > ob.y0 ? ob.y1 - ob.y0 : 0;
    if (rc == 0) {
        int mine = tool_fits_host("conv2d", "this rank's output block", 4.0 * (double)(oh * ow));
        if (mine == 0 && !(out = pl_alloc((size_t)(oh * ow > 0 ? oh * ow : 1) * 4))) {
            cli_error("conv2d: cannot allocate this rank's output block");
            mine = PL_EXIT_FAIL;
        }
        rc = cli_agree(mine);
    }
    if (rc == 0)
        rc = tool_ranks_status(pl_dist_conv2d_create(&plan, &g, ctx, variant ? variant->name : NULL, NULL, &p, filter,
                                                    PL_DIST_OVERLAP_AUTO));
    double ms = 0;
    if (rc == 0) {
        const double t0 = pl_now();
        rc = tool_ranks_status(pl_dist_conv2d_run(plan, in, ib.x1 - ib.x0, out, ow));
        ms = pl_dist_max(pl_now() - t0) * 1e3;
        t = pl_dist_conv2d_times(plan);
    }
    if (rc == 0)
        rc = tool_ranks_status(pl_dist_npy_write_block(&g, c->co.out_path, p.dtype, p.OH, p.OW, &ob, out, ow));
    if (rc == 0) {
        char ran[128];
        snprintf(ran, sizeof ran, "%s on %d rank%s (%dx%d)%s", pl_dist_conv2d_rung(plan), g.size, g.size > 1 ? "s" : "",
                 g.dims[0], g.dims[1], pl_dist_conv2d_on_nccl(plan) ? " between GPUs on NCCL" : "");
        print_summary(c, &p, ran, ms, -1);
        tool_ranks_report(&t);
    }
    pl_dist_conv2d_destroy(plan);
    pl_ctx_destroy(ctx);
    if (have_grid) pl_dist_grid_destroy(&g);
    pl_free(in), pl_free(out);
    free(filter);
    return rc;
}

int pl_cmd_conv2d(int argc, char **argv)
{
    conv2d_args c = {.co = TOOL_COMMON_INIT};
    const pl_variant *variant = NULL;
    int rc;
    if (pl_dist_active()) { /* the output was checked on rank 0 alone: every rank agrees on it */
        if ((rc = tool_ranks_parsed(parse_args(argc, argv, &c))) != CLI_GO_ON ||
            (rc = cli_agree(tool_find_variant("conv2d", &pl_conv2d_kernel, &c.co, &variant))) != 0)
            return rc;
        return conv2d_on_ranks(&c, variant);
    }
    if ((rc = parse_args(argc, argv, &c)) != CLI_GO_ON ||
        (rc = tool_find_variant("conv2d", &pl_conv2d_kernel, &c.co, &variant)) != 0)
        return rc;
    pl_array img = {0}, out = {0};
    void *filter = NULL;
    pl_conv2d_problem p;
    const char *ran = NULL;
    double ms = 0;
    int64_t clamped = -1;
    if ((rc = read_inputs(&c, &img, &filter, &p)) == 0 && (rc = alloc_output(&c, &p, &out)) == 0) {
        conv2d_call call = {&p, &img, filter, &out};
        if ((rc = tool_run(&pl_conv2d_kernel, &p, &c.co, variant, filter_image, &call, &ran, &ms)) == 0 &&
            (rc = write_output(&c, &out, &clamped)) == 0)
            print_summary(&c, &p, ran, ms, clamped);
    }
    free(filter);
    pl_array_free(&img);
    pl_array_free(&out);
    return rc;
}
