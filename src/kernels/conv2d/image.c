/* image.c: images in and out of the conv2d rungs, which filter float32 or int32 only: a .npy
 * image of those types taken as it is, an 8/16-bit one converted to the problem's dtype; and
 * a result rounded and clamped to an 8/16-bit image (the pixels clamped counted, so that a
 * filter whose sums leave the image's range is seen, not silently flattened). */
#include "core/core.h"
#include "kernels/conv2d/conv2d.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

pl_status pl_conv2d_image_dtype(const char *path, pl_dtype has, int dtype_given, pl_dtype asked)
{
    if (!dtype_given || asked == has) return PL_OK;
    return pl_fail(PL_ERR_ARG, "conv2d: %s holds %s, but --dtype %s was given (a .npy image keeps its type)", path,
                   pl_dtype_name(has), asked == PL_I32 ? "i32" : "f32");
}

pl_status pl_conv2d_image_as(const char *path, pl_array *img, int dtype_given, pl_dtype *dtype)
{
    if (img->rank != 2)
        return pl_fail(PL_ERR_FORMAT, "conv2d: %s has rank %d; parlab conv2d takes a single-channel image (rank 2)",
                       path, img->rank);
    if (img->dtype == PL_F32 || img->dtype == PL_I32) {
        pl_status s = pl_conv2d_image_dtype(path, img->dtype, dtype_given, *dtype);
        if (s == PL_OK) *dtype = img->dtype;
        return s;
    }
    if (img->dtype != PL_U8 && img->dtype != PL_U16)
        return pl_fail(PL_ERR_FORMAT,
                       "conv2d: %s holds %s; parlab conv2d takes float32, int32, uint8 or uint16 (convert with "
                       "a.astype(np.float32))", path, pl_dtype_name(img->dtype));
    const int64_t n = pl_array_count(img);
    void *conv = pl_alloc((size_t)(n > 0 ? n : 1) * 4);
    if (!conv) return pl_fail(PL_ERR_NOMEM, "conv2d: cannot allocate the converted image (%lld pixels)", (long long)n);
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
    return PL_OK;
}

pl_status pl_conv2d_image_write(const char *path, const pl_array *out, int depth, int64_t *clamped)
{
    *clamped = -1;
    if (!depth) return pl_image_write(path, out);
    const int64_t top = depth == 16 ? 65535 : 255, n = pl_array_count(out);
    pl_array img = {.dtype = depth == 16 ? PL_U16 : PL_U8, .rank = 2, .shape = {out->shape[0], out->shape[1]}};
    if (!(img.data = pl_alloc((size_t)n * (depth == 16 ? 2 : 1))))
        return pl_fail(PL_ERR_NOMEM, "conv2d: cannot allocate the %d-bit image", depth);
    int64_t c = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = out->dtype == PL_I32 ? ((const int32_t *)out->data)[i] : ((const float *)out->data)[i];
        double r = isnan(v) ? -1 : round(v);
        if (r < 0 || r > (double)top) c++;
        int64_t q = isnan(v) || r < 0 ? 0 : r > (double)top ? top : (int64_t)r;
        if (img.dtype == PL_U8) ((uint8_t *)img.data)[i] = (uint8_t)q;
        else ((uint16_t *)img.data)[i] = (uint16_t)q;
    }
    *clamped = c;
    pl_status s = pl_image_write(path, &img);
    pl_array_free(&img);
    return s;
}

pl_status pl_conv2d_problem_for(const pl_conv2d_problem *opts, const char *filter_text, int64_t H, int64_t W,
                                pl_dtype dtype, void **filter, pl_conv2d_problem *p)
{
    int K = 0;
    free(*filter);
    *filter = NULL;
    pl_status s = pl_conv2d_filter_parse(filter_text, dtype, filter, &K);
    if (s != PL_OK) return s;
    *p = (pl_conv2d_problem){.H = H, .W = W, .K = K, .dtype = dtype, .mode = opts->mode, .border = opts->border,
                             .flip = opts->flip, .ld_img = W};
    pl_conv2d_set_shape(p);
    p->ld_out = p->OW;
    return pl_conv2d_check(p);
}
