/* cmd_conv2d.c: `parlab conv2d IMAGE --filter F -o OUT`, a K x K filter over a single-channel
 * image, through pl_conv2d (the best rung) or pl_conv2d_variant (--variant). IMAGE is a .npy
 * (float32 or int32 used as they are, uint8/uint16 converted), a PGM or a PNG (8 or 16 bit,
 * converted to float32, or int32 with --dtype i32); OUT by its name: .pgm/.png rounded and
 * clamped to 8 bits (--depth 16: 16 bits), anything else a .npy of the computed dtype.
 * Exit status: 0 ok; 1 a runtime failure (a file cannot be read or written or holds the wrong
 * type; the device fails); 2 a usage error (bad option, value or filter, a filter that does
 * not fit the image in valid mode, int32 sums that could overflow, too big for memory). */
#define _POSIX_C_SOURCE 200809L
#include "cli/tool.h"
#include "core/core.h"
#include "kernels/conv2d/conv2d.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
static int problem_choice(const pl_param_def *def, const char *opt, const char *val, int *out)
{
    double v;
    if (pl_param_parse(def, val, &v) != PL_OK) {
        cli_error("conv2d: %s '%s': %s", opt, val, pl_last_error());
        return PL_EXIT_USAGE;
    }
    *out = (int)v;
    return PL_EXIT_OK;
}

static const pl_param_def *problem_param(const pl_kernel *k, const char *name)
{
    for (int i = 0; i < k->n_problem_params; i++)
        if (!strcmp(k->problem_params[i].name, name)) return &k->problem_params[i];
    return NULL;
}

static int has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && strcasecmp(path + n - e, ext) == 0;
}

/* The image as the problem's dtype (float32 or int32), H x W, pitch W: a float32 or int32
 * .npy as it is (taken over), uint8/uint16 converted. Returns the exit status. */
static int image_as(const char *path, pl_array *img, int dtype_given, pl_dtype *dtype)
{
    if (img->rank != 2) {
        cli_error("conv2d: %s has rank %d; parlab conv2d takes a single-channel image (rank 2)", path, img->rank);
        return PL_EXIT_FAIL;
    }
    if (img->dtype == PL_F32 || img->dtype == PL_I32) {
        if (dtype_given && *dtype != img->dtype) {
            cli_error("conv2d: %s holds %s, but --dtype %s was given (a .npy image keeps its type)", path,
                      pl_dtype_name(img->dtype), *dtype == PL_I32 ? "i32" : "f32");
            return PL_EXIT_USAGE;
        }
        *dtype = img->dtype;
        return PL_EXIT_OK;
    }
    if (img->dtype != PL_U8 && img->dtype != PL_U16) {
        cli_error("conv2d: %s holds %s; parlab conv2d takes float32, int32, uint8 or uint16 (convert with "
                  "a.astype(np.float32))", path, pl_dtype_name(img->dtype));
        return PL_EXIT_FAIL;
    }
    int64_t n = pl_array_count(img);
    void *conv = pl_alloc((size_t)(n > 0 ? n : 1) * 4);
    if (!conv) {
        cli_error("conv2d: cannot allocate the converted image (%lld pixels)", (long long)n);
        return PL_EXIT_FAIL;
    }
    for (int64_t i = 0; i < n; i++) {
        uint32_t v = img->dtype == PL_U8 ? ((const uint8_t *)img->data)[i] : ((const uint16_t *)img->data)[i];
        if (*dtype == PL_I32) ((int32_t *)conv)[i] = (int32_t)v;
        else ((float *)conv)[i] = (float)v;
    }
    pl_array converted = *img; /* the shape stays; pl_array_free clears it */
    converted.data = conv;
    converted.dtype = *dtype;
    pl_array_free(img);
    *img = converted;
    return PL_EXIT_OK;
}

/* out (float32 or int32) as uint8 / uint16 into img8: rounded, clamped; *clamped counts the
 * pixels outside 0..top (NaN among them, written as 0). */
static void to_depth(const pl_array *out, pl_array *img8, int64_t top, int64_t *clamped)
{
    int64_t n = pl_array_count(out), c = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = out->dtype == PL_I32 ? ((const int32_t *)out->data)[i] : ((const float *)out->data)[i];
        double r = isnan(v) ? -1 : round(v);
        if (r < 0 || r > (double)top) c++;
        int64_t q = isnan(v) || r < 0 ? 0 : r > (double)top ? top : (int64_t)r;
        if (img8->dtype == PL_U8) ((uint8_t *)img8->data)[i] = (uint8_t)q;
        else ((uint16_t *)img8->data)[i] = (uint16_t)q;
    }
    *clamped = c;
}

int pl_cmd_conv2d(int argc, char **argv)
{
    const pl_kernel *kernel = pl_kernel_find("conv2d");
    const pl_param_def *mode_def = problem_param(kernel, "mode"), *border_def = problem_param(kernel, "border");
    const pl_param_def *dtype_def = problem_param(kernel, "dtype");
    const char *const *modes = mode_def->choices, *const *borders = border_def->choices;
    const char *in_path = NULL, *filter_text = NULL;
    int n_in = 0, rc, handled, mode = 0, border = 0, border_given = 0, flip = 0, dtype_i = 0, dtype_given = 0;
    int depth_i = 0, depth_given = 0;
    tool_common co = TOOL_COMMON_INIT;

    static const char *const with_value[] = {"-o", "--output", "--variant", "--threads", "--backend", "--device",
                                             "--filter", "--mode", "--border", "--dtype", "--depth", NULL};
    static const char *const flags[] = {"--flip", NULL};
    tool_args ta = {"conv2d", argc, argv, with_value, flags, 1, 0};
    char name[32];
    const char *val;
    for (int kind; (kind = tool_next(&ta, name, sizeof name, &val)) != TOOL_END;) {
        if (kind == TOOL_HELP || kind == TOOL_ERROR) return tool_stop(kind, usage);
        if (kind == TOOL_POSITIONAL) {
            if ((rc = tool_positional("conv2d", val, &in_path, &n_in, 1, "one input, IMAGE")) != 0) return rc;
            continue;
        }
        rc = PL_EXIT_OK;
        if (!strcmp(name, "--filter")) filter_text = val;
        else if (!strcmp(name, "--mode")) rc = problem_choice(mode_def, name, val, &mode);
        else if (!strcmp(name, "--border")) rc = problem_choice(border_def, name, val, &border), border_given = 1;
        else if (!strcmp(name, "--dtype")) rc = problem_choice(dtype_def, name, val, &dtype_i), dtype_given = 1;
        else if (!strcmp(name, "--depth")) {
            depth_given = 1, depth_i = !strcmp(val, "16");
            if (!depth_i && strcmp(val, "8")) {
                cli_error("conv2d: --depth: '%s' is not 8 or 16", val);
                rc = PL_EXIT_USAGE;
            }
        }
        else if (!strcmp(name, "--flip")) flip = 1, rc = 0;
        else rc = tool_common_option("conv2d", &co, name, val, &handled);
        if (rc != 0) return rc;
    }
    if (!in_path) {
        cli_error("conv2d: needs an input image, IMAGE (see parlab conv2d --help)");
        return PL_EXIT_USAGE;
    }
    if (!filter_text) {
        cli_error("conv2d: needs a filter: --filter '1,2,1,2,4,2,1,2,1' or --filter F.npy");
        return PL_EXIT_USAGE;
    }
    if ((rc = tool_need_output("conv2d", &co, "OUT.npy")) != 0) return rc;
    if ((rc = tool_check_output("conv2d", "-o", co.out_path, &in_path, 1, TOOL_OUT_FILE_ONLY)) != 0) return rc;
    if (border_given && mode != PL_CONV2D_SAME) {
        cli_error("conv2d: --border %s applies to --mode same only", borders[border]);
        return PL_EXIT_USAGE;
    }
    const int image_out = has_ext(co.out_path, ".pgm") || has_ext(co.out_path, ".png");
    { /* the format follows the name: .pgm, .png or .npy; another extension is refused, not
       * written as NumPy data under that name */
        const char *base = strrchr(co.out_path, '/'), *dot = strrchr(base ? base + 1 : co.out_path, '.');
        if (dot && dot[1] && !image_out && !has_ext(co.out_path, ".npy")) {
            cli_error("conv2d: -o %s: '%s' is not an output format: name it .npy, .pgm or .png", co.out_path, dot);
            return PL_EXIT_USAGE;
        }
    }
    if (depth_given && !image_out) {
        cli_error("conv2d: --depth applies to a .pgm or .png output, not %s", co.out_path);
        return PL_EXIT_USAGE;
    }
    const pl_variant *variant = NULL;
    if ((rc = tool_find_variant("conv2d", kernel, co.variant_name, &variant, &co.backend, co.backend_given)) != 0)
        return rc;

    pl_dtype dtype = dtype_i ? PL_I32 : PL_F32;
    pl_array img = {0}, out = {0}, img8 = {0};
    pl_ctx *ctx = NULL;
    void *filter = NULL;
    int K = 0;
    pl_status s;
    /* The filter first (usage errors before reading a large image); an 8/16-bit image takes
     * --dtype, a .npy its own: parse the filter again below if the image changes the dtype. */
    if ((s = pl_conv2d_filter_parse(filter_text, dtype, &filter, &K)) != PL_OK) {
        rc = cli_fail(s);
        goto done;
    }
    if ((rc = tool_fits_host("conv2d", "reading the image", tool_file_bytes(in_path))) != 0) goto done;
    if ((s = pl_image_read(in_path, &img)) != PL_OK) {
        rc = cli_fail(s);
        goto done;
    }
    {
        pl_dtype before = dtype;
        if ((rc = image_as(in_path, &img, dtype_given, &dtype)) != 0) goto done;
        if (dtype != before) {
            free(filter);
            filter = NULL;
            if ((s = pl_conv2d_filter_parse(filter_text, dtype, &filter, &K)) != PL_OK) {
                rc = cli_fail(s);
                goto done;
            }
        }
    }
    pl_conv2d_problem p = {img.shape[0], img.shape[1], K, dtype, mode, border, flip, 0, 0, img.shape[1], 0, NULL};
    pl_conv2d_set_shape(&p);
    p.ld_out = p.OW;
    if ((s = pl_conv2d_check(&p)) != PL_OK) {
        rc = cli_fail(s);
        goto done;
    }
    char what[96];
    snprintf(what, sizeof what, "the output (%lldx%lld %s)", (long long)p.OH, (long long)p.OW, pl_dtype_name(dtype));
    double out_bytes = (double)p.OH * (double)p.OW * (image_out ? 4.0 + (depth_i ? 2.0 : 1.0) : 4.0);
    if ((rc = tool_fits_host("conv2d", what, out_bytes)) != 0) goto done;
    rc = PL_EXIT_FAIL;
    out = (pl_array){.dtype = dtype, .rank = 2, .shape = {p.OH, p.OW}};
    if (!(out.data = pl_alloc((size_t)(p.OH * p.OW) * 4))) {
        cli_error("conv2d: cannot allocate %s", what);
        goto done;
    }
    {
        char size[64], kset[16], dset[16], mset[16];
        snprintf(size, sizeof size, "%lldx%lld", (long long)p.H, (long long)p.W);
        snprintf(kset, sizeof kset, "k=%d", K);
        snprintf(dset, sizeof dset, "dtype=%s", dtype == PL_I32 ? "i32" : "f32");
        snprintf(mset, sizeof mset, "mode=%s", modes[mode]);
        pl_pvalues pv;
        pl_pvalues_default(kernel, &pv);
        pl_pvalues_set(kernel, &pv, NULL, kset);
        pl_pvalues_set(kernel, &pv, NULL, dset);
        pl_pvalues_set(kernel, &pv, NULL, mset);
        if ((rc = tool_context("conv2d", kernel, size, &pv, co.backend, co.device, co.threads, variant, &ctx)) != 0)
            goto done;
        rc = PL_EXIT_FAIL;
    }
    const char *ran = variant ? variant->name : pl_conv2d_best_variant(ctx);
    pl_conv2d_opts o = {mode, border, flip};
    double t0 = tool_now();
    s = variant ? pl_conv2d_variant(ctx, variant->name, NULL, dtype, p.H, p.W, img.data, p.W, K, filter, &o,
                                    out.data, p.OW)
                : pl_conv2d(ctx, dtype, p.H, p.W, img.data, p.W, K, filter, &o, out.data, p.OW);
    double ms = (tool_now() - t0) * 1e3;
    if (s != PL_OK) {
        rc = cli_fail(s);
        goto done;
    }
    int64_t clamped = -1;
    if (image_out) {
        img8 = (pl_array){.dtype = depth_i ? PL_U16 : PL_U8, .rank = 2, .shape = {p.OH, p.OW}};
        if (!(img8.data = pl_alloc((size_t)(p.OH * p.OW) * (depth_i ? 2 : 1)))) {
            cli_error("conv2d: cannot allocate the %d-bit image", depth_i ? 16 : 8);
            goto done;
        }
        to_depth(&out, &img8, depth_i ? 65535 : 255, &clamped);
        s = pl_image_write(co.out_path, &img8);
    } else {
        s = pl_image_write(co.out_path, &out);
    }
    if (s != PL_OK) {
        rc = cli_fail(s);
        goto done;
    }
    char mode_text[32];
    snprintf(mode_text, sizeof mode_text, "%s%s%s%s", modes[mode], mode ? " " : "", mode ? borders[border] : "",
             flip ? ", flipped" : "");
    printf("out = image (*) %dx%d filter: %lldx%lld %s (image %lldx%lld, %s), variant %s, %.3f ms\n", K, K,
           (long long)p.OH, (long long)p.OW, pl_dtype_name(dtype), (long long)p.H, (long long)p.W, mode_text,
           ran ? ran : "?", ms);
    if (clamped >= 0)
        printf("%s: %d-bit, %lld of %lld pixels clamped to 0..%d\n", co.out_path, depth_i ? 16 : 8,
               (long long)clamped, (long long)(p.OH * p.OW), depth_i ? 65535 : 255);
    rc = PL_EXIT_OK;

done:
    pl_ctx_destroy(ctx);
    free(filter);
    pl_array_free(&img);
    pl_array_free(&out);
    pl_array_free(&img8);
    return rc;
}
