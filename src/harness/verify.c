/* verify.c: whether a run computed what it should and touched nothing else. An output against
 * its reference (the full check: every element against its bound, and the relative Frobenius
 * error beside it; exact equality for integers; NaN never passes) or by the kernel's
 * randomized check (sampled); the leading-dimension padding of an output untouched; the inputs
 * as the problem made them (by checksum on the host, byte for byte on the device). */
#include "core/core.h"
#include "core/device.h"
#include "harness/harness.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double element(const pl_tensor *t, int64_t i)
{
    switch (t->dtype) {
    case PL_F32: return ((const float *)t->host)[i];
    case PL_F64: return ((const double *)t->host)[i];
    case PL_I32: return ((const int32_t *)t->host)[i];
    case PL_BF16: return pl_bf16_to_f32(((const uint16_t *)t->host)[i]);
    default: return ((const uint8_t *)t->host)[i];
    }
}

void pl_check_tensor(const pl_tensor *out, const pl_tensor *ref, const pl_tensor *scale, double elem_bound,
                     int operand, pl_check_result *res)
{
    int exact = scale == NULL || scale->host == NULL;
    double diff2 = 0, ref2 = 0, mismatches = 0, worst = -1, wo = 0, wx = 0, wb = 0;
    int64_t wr = 0, wc = 0, wrong = 0;
    int nonfinite = 0;
    for (int64_t r = 0; r < out->rows; r++) {
        for (int64_t c = 0; c < out->cols; c++) {
            double o = element(out, r * out->ld + c), x = element(ref, r * ref->ld + c);
            double ratio, b = 0;
            if (exact) {
                ratio = o != x ? INFINITY : 0;
                mismatches += o != x;
            } else {
                double d = fabs(o - x);
                b = elem_bound * element(scale, r * scale->ld + c);
                nonfinite |= !isfinite(o);
                diff2 += (o - x) * (o - x);
                ref2 += x * x;
                ratio = !isfinite(o) ? INFINITY : d == 0 ? 0 : b > 0 ? d / b : INFINITY;
            }
            wrong += ratio > 1.0;
            if (ratio > worst) {
                worst = ratio;
                wr = r;
                wc = c;
                wo = o, wx = x, wb = b;
            }
        }
    }
    double err = exact ? mismatches : nonfinite ? INFINITY : ref2 > 0 ? sqrt(diff2 / ref2) : sqrt(diff2);
    res->checked += out->rows * out->cols;
    res->wrong += wrong;
    if (!(err <= res->error)) res->error = err; /* NaN-safe max */
    if (worst > res->elem_ratio || isnan(worst)) {
        res->elem_ratio = worst;
        res->operand = operand;
        res->row = wr;
        res->col = wc;
        res->value = wo;
        res->reference = wx;
        res->bound = wb;
    }
}

double pl_verify_tensor(const pl_tensor *out, const pl_tensor *ref, int exact)
{
    pl_check_result res;
    memset(&res, 0, sizeof res);
    if (exact) {
        pl_check_tensor(out, ref, NULL, 0, 0, &res);
        return res.error;
    }
    /* Frobenius only: a scale of zeros is never read for the error. */
    double diff2 = 0, ref2 = 0;
    for (int64_t r = 0; r < out->rows; r++)
        for (int64_t c = 0; c < out->cols; c++) {
            double o = element(out, r * out->ld + c), x = element(ref, r * ref->ld + c);
            if (!isfinite(o)) return INFINITY;
            diff2 += (o - x) * (o - x);
            ref2 += x * x;
        }
    return ref2 > 0 ? sqrt(diff2 / ref2) : sqrt(diff2);
}

/* The padding of an output (between cols and ld) must still hold what it held: the
 * in-out's pristine bytes, or the 0xFF poison of an output. */
static int padding_intact(const pl_tensor *out, const pl_tensor *pristine)
{
    size_t es = pl_dtype_size(out->dtype);
    if (out->ld == out->cols) return 1;
    size_t gap = (size_t)(out->ld - out->cols) * es;
    for (int64_t r = 0; r + 1 < out->rows; r++) {
        size_t off = (size_t)(r * out->ld + out->cols) * es;
        const unsigned char *a = (const unsigned char *)out->host + off;
        if (pristine->role == PL_INOUT) {
            if (memcmp(a, (const unsigned char *)pristine->host + off, gap) != 0) return 0;
        } else {
            for (size_t j = 0; j < gap; j++)
                if (a[j] != 0xFF) return 0;
        }
    }
    return 1;
}

int pl_verify_outputs(const pl_problem *p, const pl_variant *v, void *const *work, uint64_t salt, pl_result *r,
                      pl_check_result *res)
{
    memset(res, 0, sizeof *res);
    pl_tensor out[PL_MAX_OPERANDS];
    int pad_ok = 1;
    for (int i = 0; i < p->n; i++) {
        out[i] = p->t[i];
        if (p->t[i].role == PL_IN) continue;
        out[i].host = work[i];
        pad_ok &= padding_intact(&out[i], &p->t[i]);
    }
    if (p->check == PL_CHECK_SAMPLE) {
        pl_status s = p->kernel->check_sampled(p->spec, p->t, p->n, out, v->precision, p->seed ^ salt, res);
        if (s != PL_OK) {
            res->error = res->elem_ratio = INFINITY;
            snprintf(res->how, sizeof res->how, "sampled check failed to run: %s", pl_last_error());
        }
    } else {
        for (int i = 0; i < p->n; i++)
            if (p->t[i].role != PL_IN)
                pl_check_tensor(&out[i], &p->ref[i], p->scale[i].host ? &p->scale[i] : NULL, r->elem_bound, i, res);
        if (r->bound == 0) /* integer outputs: equality with the kernel's own reference, no float64 */
            snprintf(res->how, sizeof res->how, "full: every element exact against the %s reference (%s)",
                     p->kernel->name, pl_dtype_name(p->ref[p->n > 0 ? p->n - 1 : 0].dtype));
        else
            snprintf(res->how, sizeof res->how, "full: every element against the float64 reference");
    }
    r->padding_ok &= pad_ok;
    return pad_ok && pl_check_passes(res, r->bound);
}

int pl_check_passes(const pl_check_result *res, double bound)
{
    return bound == 0 ? res->error == 0 : res->error <= bound && res->elem_ratio <= 1.0;
}

pl_status pl_verify_inputs_host(pl_problem *p, int *ok)
{
    *ok = 1;
    for (int i = 0; i < p->n; i++)
        if (p->t[i].role == PL_IN && pl_tensor_checksum(&p->t[i]) != p->sum[i]) *ok = 0;
    if (*ok) return PL_OK;
    p->kernel->fill(p->spec, p->t, p->n, p->seed);
    for (int i = 0; i < p->n; i++)
        if (p->t[i].role != PL_OUT && pl_tensor_checksum(&p->t[i]) != p->sum[i])
            return pl_fail(PL_ERR_INTERNAL, "%s: the inputs could not be restored from the seed", p->desc);
    return PL_OK;
}

pl_status pl_verify_inputs_device(const pl_problem *p, void *const *dev, const size_t *bytes, void *stream, int *ok)
{
    *ok = 1;
    size_t chunk = (size_t)64 << 20;
    unsigned char *bounce = pl_alloc(chunk);
    if (!bounce) return pl_fail(PL_ERR_NOMEM, "out of host memory");
    pl_status s = PL_OK;
    for (int i = 0; i < p->n && s == PL_OK && *ok; i++) {
        if (p->t[i].role != PL_IN) continue;
        for (size_t off = 0; off < bytes[i] && s == PL_OK; off += chunk) {
            size_t len = bytes[i] - off < chunk ? bytes[i] - off : chunk;
            s = pl_dev_d2h(bounce, (const char *)dev[i] + off, len, stream);
            if (s == PL_OK) s = pl_dev_sync(stream);
            if (s == PL_OK && memcmp(bounce, (const char *)p->t[i].host + off, len) != 0) {
                *ok = 0;
                break;
            }
        }
    }
    pl_free(bounce);
    return s;
}
