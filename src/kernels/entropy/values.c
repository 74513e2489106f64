/* values.c: an image's values as the entropy rungs take them, uint8 in [0, bins): a uint8
 * array used in place, the other types converted, and any value that is not an integer in
 * [0, bins) refused naming its pixel (values are never clamped: a clamped image would give
 * another entropy without a word). The command's single image, its batch and its ranks' blocks
 * all go through here. */
#include "core/core.h"
#include "kernels/entropy/entropy.h"

#include <math.h>
#include <stdint.h>

/* What to do about a value past the bins: an 8-bit image (values below 256) needs --bins 256
 * (the default 16 is for images of 16 levels); a larger value no --bins can take. */
static const char *bins_hint(double value, int bins)
{
    if (value < 0) return "";
    if (value < PL_ENTROPY_MAX_BINS && bins < PL_ENTROPY_MAX_BINS)
        return "; an 8-bit image (values 0..255) needs --bins 256";
    return "; values must be integers below 256 (--bins 256 at most): rescale the image";
}

pl_status pl_entropy_values(const char *where, const pl_array *a, int bins, const uint8_t **values, uint8_t **owned)
{
    *owned = NULL;
    if (a->rank != 2)
        return pl_fail(PL_ERR_FORMAT, "entropy: %s: a rank-%d array; an image is a rank-2 matrix", where, a->rank);
    const int64_t H = a->shape[0], W = a->shape[1], n = H * W;
    if (a->dtype == PL_U8) {
        const uint8_t *v = a->data;
        for (int64_t i = 0; i < n; i++)
            if (v[i] >= bins)
                return pl_fail(PL_ERR_FORMAT,
                               "entropy: %s: value %d at pixel (row %lld, col %lld) is outside [0, %d) (--bins %d)%s",
                               where, v[i], (long long)(i / W), (long long)(i % W), bins, bins, bins_hint(v[i], bins));
        *values = v;
        return PL_OK;
    }
    uint8_t *out = pl_alloc((size_t)(n > 0 ? n : 1));
    if (!out)
        return pl_fail(PL_ERR_NOMEM, "entropy: %s: no memory to convert %lldx%lld values", where, (long long)H,
                       (long long)W);
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
            pl_free(out);
            if (x == floor(x))
                return pl_fail(PL_ERR_FORMAT,
                               "entropy: %s: value %.17g at pixel (row %lld, col %lld) is outside [0, %d) (--bins %d)%s",
                               where, x, (long long)(i / W), (long long)(i % W), bins, bins, bins_hint(x, bins));
            return pl_fail(PL_ERR_FORMAT, "entropy: %s: value %.9g at pixel (row %lld, col %lld) is not an integer",
                           where, x, (long long)(i / W), (long long)(i % W));
        }
        out[i] = (uint8_t)x;
    }
    *values = out;
    *owned = out;
    return PL_OK;
}
