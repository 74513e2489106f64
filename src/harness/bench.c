/* bench.c: the measurement method, once for every kernel.
 *
 *   problem:  seeded inputs (never zeros), in-out operands kept pristine, checksums of the
 *             inputs; for the full check the float64 reference and each element's bound scale;
 *   each run: outputs poisoned (NaN / 0xFF), in-outs reset, the variant runs;
 *   checks:   the first (warm-up) run and the last timed run, each element against its bound
 *             and the relative Frobenius error (full), or the kernel's randomized check
 *             (sampled); the leading-dimension padding untouched; the inputs unchanged;
 *   timing:   warm-up, then repeats until min_time (at least 3); median / min / max; CPU by
 *             the monotonic clock, GPU by CUDA events; --cold flushes the caches before each;
 *   phases:   GPU runs also report allocation, host-to-device and device-to-host apart;
 *   ceiling:  the rate against the ceiling of the kernel and the variant's precision, flagged
 *             when above it.
 */
#include "core/core.h"
#include "core/device.h"
#include "harness/harness.h"
#include "harness/peaks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void pl_bench_config_default(pl_bench_config *c)
{
    memset(c, 0, sizeof *c);
    c->warmup = 1;
    c->repeats = 0;
    c->min_time_s = 0.2;
    c->max_repeats = 50;
    c->seed = 42;
}

static void progress(pl_progress_fn fn, void *user, const char *stage, double fraction)
{
    if (fn) fn(user, stage, fraction);
}

/* ---------------------------------------------------------------- problem */

static int is_float(pl_dtype t) { return t == PL_F32 || t == PL_F64; }

pl_status pl_spec_make(const pl_kernel *k, const char *size, const pl_pvalues *pv, void **spec)
{
    *spec = NULL;
    if (!size || !*size) return pl_fail(PL_ERR_ARG, "%s: empty size", k->name);
    pl_pvalues defaults;
    if (!pv) {
        pl_pvalues_default(k, &defaults);
        pv = &defaults;
    }
    void *s = calloc(1, k->problem_size);
    if (!s) return pl_fail(PL_ERR_NOMEM, "out of host memory");
    pl_status st = k->make_problem(s, pl_kernel_size(k, size), pv);
    if (st != PL_OK) {
        pl_spec_free(k, s);
        return st;
    }
    *spec = s;
    return PL_OK;
}

void pl_spec_free(const pl_kernel *k, void *spec)
{
    if (!spec) return;
    if (k->destroy_problem) k->destroy_problem(spec);
    free(spec);
}

void pl_problem_destroy(pl_problem *p)
{
    if (!p) return;
    for (int i = 0; i < p->n; i++) {
        pl_free(p->t[i].host);
        pl_free(p->ref[i].host);
        pl_free(p->scale[i].host);
    }
    pl_spec_free(p->kernel, p->spec);
    free(p);
}

const void *pl_problem_spec(const pl_problem *p) { return p->spec; }
int pl_problem_id(const pl_problem *p) { return p->id; }
pl_check pl_problem_check(const pl_problem *p) { return p->check; }

/* One chunk: four independent multiply-xorshift lanes over 8-byte words, then the tail. */
static uint64_t checksum_bytes(const unsigned char *b, size_t bytes)
{
    uint64_t h[4] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull, 0x27D4EB2F165667C5ull};
    size_t words = bytes / 8, i = 0;
    for (; i + 4 <= words; i += 4)
        for (int l = 0; l < 4; l++) {
            uint64_t w;
            memcpy(&w, b + 8 * (i + (size_t)l), 8);
            h[l] = (h[l] ^ w) * 0x100000001B3ull;
            h[l] ^= h[l] >> 29;
        }
    uint64_t x = h[0] ^ (h[1] << 1) ^ (h[2] << 2) ^ (h[3] << 3);
    for (size_t j = 8 * i; j < bytes; j++) x = (x ^ b[j]) * 0x100000001B3ull;
    return x ^ bytes;
}

uint64_t pl_tensor_checksum(const pl_tensor *t)
{
    size_t bytes;
    if (pl_tensor_bytes(t, &bytes) != PL_OK || !t->host) return 0;
    /* Chunks over threads, combined in order: the same sum for any thread count. */
    const size_t chunk = (size_t)32 << 20;
    int64_t n = (int64_t)((bytes + chunk - 1) / chunk);
    uint64_t total = 0;
#pragma omp parallel for schedule(static) reduction(^ : total) if (n > 2)
    for (int64_t c = 0; c < n; c++) {
        size_t off = (size_t)c * chunk, len = bytes - off < chunk ? bytes - off : chunk;
        uint64_t h = checksum_bytes((const unsigned char *)t->host + off, len);
        total ^= (h + (uint64_t)c) * 0x9E3779B97F4A7C15ull; /* the chunk's position counts */
    }
    return total;
}

static int next_problem_id(void)
{
    static int counter;
    return __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
}

/* probe: no reference and no checks (pl_bench_estimate's timing runs). */
static pl_status problem_create(pl_problem **out, const pl_kernel *k, const char *size, const pl_pvalues *pv,
                                const pl_problem_opts *o, int probe)
{
    *out = NULL;
    pl_problem *p = calloc(1, sizeof *p);
    if (!p) return pl_fail(PL_ERR_NOMEM, "out of host memory");
    p->kernel = k;
    p->seed = o->seed;
    p->id = next_problem_id();
    /* The problem struct is made once; the plan (counts, check, memory) is read from it. */
    pl_plan plan;
    memset(&plan, 0, sizeof plan);
    pl_status s = pl_spec_make(k, size, pv, &p->spec);
    if (s == PL_OK) s = pl_plan_spec(k, p->spec, probe ? PL_CHECK_FULL : o->check, &plan);
    if (probe) plan.check = PL_CHECK_AUTO; /* neither */
    if (s == PL_OK) s = pl_plan_fits(&plan, NULL);
    p->check = plan.check;
    if (s == PL_OK) s = k->operands(p->spec, p->t, &p->n);
    if (s != PL_OK) {
        pl_problem_destroy(p);
        return s;
    }
    snprintf(p->desc, sizeof p->desc, "%s", plan.desc);
    for (int i = 0; i < p->n && s == PL_OK; i++) {
        size_t bytes;
        s = pl_tensor_bytes(&p->t[i], &bytes);
        if (s == PL_OK && !(p->t[i].host = pl_alloc(bytes)))
            s = pl_fail(PL_ERR_NOMEM, "%s: cannot allocate %zu bytes for operand %s", p->desc, bytes, p->t[i].name);
        if (s != PL_OK || p->t[i].role == PL_IN || p->check != PL_CHECK_FULL) continue;
        /* The reference and the element scale: dense (ld = cols), float64 for float outputs. */
        for (int which = 0; which < 2 && s == PL_OK; which++) {
            if (which == 1 && !is_float(p->t[i].dtype)) break;
            pl_tensor *r = which ? &p->scale[i] : &p->ref[i];
            *r = p->t[i];
            r->dtype = is_float(p->t[i].dtype) ? PL_F64 : p->t[i].dtype;
            r->ld = r->cols;
            r->host = NULL;
            s = pl_tensor_bytes(r, &bytes);
            if (s == PL_OK && !(r->host = pl_alloc(bytes)))
                s = pl_fail(PL_ERR_NOMEM, "%s: cannot allocate %zu bytes for the reference", p->desc, bytes);
        }
    }
    if (s != PL_OK) {
        pl_problem_destroy(p);
        return s;
    }
    k->fill(p->spec, p->t, p->n, p->seed);
    for (int i = 0; i < p->n; i++)
        if (p->t[i].role != PL_OUT) p->sum[i] = pl_tensor_checksum(&p->t[i]);
    if (p->check == PL_CHECK_FULL) {
        progress(o->progress, o->progress_user, "reference", 0.0);
        s = k->reference(p->spec, p->t, p->n, p->ref, p->scale);
        progress(o->progress, o->progress_user, "reference", 1.0);
        if (s != PL_OK) {
            pl_problem_destroy(p);
            return s;
        }
    }
    p->work = plan.work;
    p->ops = plan.ops;
    p->bytes = plan.bytes;
    *out = p;
    return PL_OK;
}

pl_status pl_problem_create_opts(pl_problem **out, const pl_kernel *k, const char *size, const pl_pvalues *pv,
                                 const pl_problem_opts *opts)
{
    pl_problem_opts o = {42, PL_CHECK_AUTO, NULL, NULL};
    if (opts) o = *opts;
    return problem_create(out, k, size, pv, &o, 0);
}

pl_status pl_problem_create(pl_problem **p, const pl_kernel *k, const char *size, const double *pvals, uint64_t seed)
{
    pl_pvalues pv;
    pl_pvalues_default(k, &pv);
    for (int i = 0; pvals && i < k->n_problem_params && i < PL_MAX_PARAMS; i++) pv.num[i] = pvals[i];
    pl_problem_opts o = {seed, PL_CHECK_AUTO, NULL, NULL};
    return problem_create(p, k, size, &pv, &o, 0);
}

/* ---------------------------------------------------------------- verification */

static double element(const pl_tensor *t, int64_t i)
{
    switch (t->dtype) {
    case PL_F32: return ((const float *)t->host)[i];
    case PL_F64: return ((const double *)t->host)[i];
    case PL_I32: return ((const int32_t *)t->host)[i];
    default: return ((const uint8_t *)t->host)[i];
    }
}

void pl_check_tensor(const pl_tensor *out, const pl_tensor *ref, const pl_tensor *scale, double elem_bound,
                     int operand, pl_check_result *res)
{
    int exact = scale == NULL || scale->host == NULL;
    double diff2 = 0, ref2 = 0, mismatches = 0, worst = -1;
    int64_t wr = 0, wc = 0;
    int nonfinite = 0;
    for (int64_t r = 0; r < out->rows; r++) {
        for (int64_t c = 0; c < out->cols; c++) {
            double o = element(out, r * out->ld + c), x = element(ref, r * ref->ld + c);
            double ratio;
            if (exact) {
                ratio = o != x ? INFINITY : 0;
                mismatches += o != x;
            } else {
                double d = fabs(o - x), b = elem_bound * element(scale, r * scale->ld + c);
                nonfinite |= !isfinite(o);
                diff2 += (o - x) * (o - x);
                ref2 += x * x;
                ratio = !isfinite(o) ? INFINITY : d == 0 ? 0 : b > 0 ? d / b : INFINITY;
            }
            if (ratio > worst) {
                worst = ratio;
                wr = r;
                wc = c;
            }
        }
    }
    double err = exact ? mismatches : nonfinite ? INFINITY : ref2 > 0 ? sqrt(diff2 / ref2) : sqrt(diff2);
    res->checked += out->rows * out->cols;
    if (!(err <= res->error)) res->error = err; /* NaN-safe max */
    if (worst > res->elem_ratio || isnan(worst)) {
        res->elem_ratio = worst;
        res->operand = operand;
        res->row = wr;
        res->col = wc;
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

/* ---------------------------------------------------------------- statistics */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void pl_stats_summary(double *t, int n, double *median, double *min, double *max)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    *min = t[0];
    *max = t[n - 1];
    *median = (n % 2) ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static void summarize(double *t, int n, pl_result *r)
{
    r->repeats = n;
    pl_stats_summary(t, n, &r->median_s, &r->min_s, &r->max_s);
    r->noisy = r->min_s > 0 && r->max_s > 1.5 * r->min_s;
}

/* The compute peak of a precision on a backend (GFLOP/s or Gop/s), with its name. */
static double compute_peak(const pl_ctx *ctx, const pl_variant *v, const pl_peaks *pk, char *name, size_t n)
{
    if (v->backend == PL_BACKEND_CUDA) {
        switch (v->precision) {
        case PL_PREC_TF32: snprintf(name, n, "GPU TF32 tensor peak"); return pk->gpu_gflops_tf32;
        case PL_PREC_EXACT: snprintf(name, n, "GPU int32 op peak"); return pk->gpu_gops_int32;
        default: snprintf(name, n, "GPU FP32 FMA peak"); return pk->gpu_gflops_fp32;
        }
    }
    int thr = ctx->threads;
    unsigned f = pl_cpu_features();
    const double *isa = (f & PL_FEAT_AVX512) ? pk->cpu_gflops_avx512
                        : (f & PL_FEAT_AVX2) ? pk->cpu_gflops_avx2 : pk->cpu_gflops_scalar;
    const char *isa_name = (f & PL_FEAT_AVX512) ? "AVX-512" : (f & PL_FEAT_AVX2) ? "AVX2" : "scalar";
    if (v->precision == PL_PREC_EXACT) {
        isa = pk->cpu_gops_int32;
        snprintf(name, n, "CPU int32 op peak, %d thr", thr);
    } else {
        snprintf(name, n, "CPU %s FMA peak, %d thr", isa_name, thr);
    }
    if (thr <= 1) return isa[0];
    if (thr >= pk->cpu_threads) return isa[1];
    return fmin(isa[1], isa[0] * thr);
}

/* The ceiling that bounds this run: the kernel names compute, memory, or the roofline
 * (whichever would take longer at the measured peaks); % is that floor time over the
 * measured time. Above 100% is flagged. The memory floor is the time the run's bytes read
 * and written need at the measured read-only, write-only and mixed stream rates, or at the
 * cache-resident rates for a warm run whose bytes fit in the cache (pl_peaks_mem_time);
 * written: the bytes written (< 0: unknown). */
static void place_on_ceiling(const pl_ctx *ctx, const pl_variant *v, const pl_peaks *pk, double written,
                             pl_result *r)
{
    r->ceiling_pct = -1;
    snprintf(r->ceiling_name, sizeof r->ceiling_name, "-");
    if (!pk || !pk->valid || r->median_s <= 0) return;
    char cname[64], bname[64];
    double peak = compute_peak(ctx, v, pk, cname, sizeof cname);
    pl_ceiling kind = r->kernel->ceiling;
    double t_ops = kind != PL_CEIL_MEMORY && peak > 0 ? r->ops / (peak * 1e9) : 0;
    double t_byte = kind != PL_CEIL_COMPUTE ? pl_peaks_mem_time(pk, v->backend == PL_BACKEND_CUDA, r->bytes,
                                                                written, r->cold, bname, sizeof bname)
                                            : 0;
    if (t_ops <= 0 && t_byte <= 0) return;
    int compute_bound = t_ops >= t_byte;
    r->ceiling_pct = 100.0 * (compute_bound ? t_ops : t_byte) / r->median_s;
    snprintf(r->ceiling_name, sizeof r->ceiling_name, "%s", compute_bound ? cname : bname);
    r->over_ceiling = r->ceiling_pct > 100.0;
}

/* ---------------------------------------------------------------- one variant */

typedef struct run_state {
    const pl_problem *p;
    const pl_variant *v;
    pl_ctx *ctx;
    const pl_bench_config *cfg;
    void *data[PL_MAX_OPERANDS];     /* what the variant sees: host or device */
    void *work[PL_MAX_OPERANDS];     /* host working copies of outputs */
    void *pristine[PL_MAX_OPERANDS]; /* device: initial in-out values */
    size_t bytes[PL_MAX_OPERANDS];
    int64_t params[PL_MAX_PARAMS];
    void *flush;                     /* --cold: a buffer larger than the last-level cache */
    size_t flush_bytes;
} run_state;

static pl_status reset_outputs(run_state *st)
{
    const pl_problem *p = st->p;
    for (int i = 0; i < p->n; i++) {
        if (p->t[i].role == PL_IN) continue;
        pl_status s = PL_OK;
        if (st->v->backend == PL_BACKEND_CUDA) {
            if (p->t[i].role == PL_INOUT) s = pl_dev_d2d(st->data[i], st->pristine[i], st->bytes[i], st->ctx->stream);
            else s = pl_dev_memset(st->data[i], 0xFF, st->bytes[i], st->ctx->stream);
        } else if (p->t[i].role == PL_INOUT) {
            memcpy(st->work[i], p->t[i].host, st->bytes[i]);
        } else {
            memset(st->work[i], 0xFF, st->bytes[i]); /* all-ones: NaN for floats, -1 / 255 for integers */
        }
        if (s != PL_OK) return s;
    }
    return PL_OK;
}

/* --cold: write over a buffer larger than the caches, outside the timed region. */
static pl_status flush_caches(run_state *st)
{
    if (!st->flush) return PL_OK;
    if (st->v->backend == PL_BACKEND_CUDA) return pl_dev_memset(st->flush, st->cfg->seed & 0xFF, st->flush_bytes, st->ctx->stream);
    volatile unsigned char *b = st->flush;
    memset(st->flush, (int)(st->flush_bytes & 0x7F), st->flush_bytes);
    (void)b[st->flush_bytes - 1];
    return PL_OK;
}

static pl_status call_variant(run_state *st)
{
    pl_run_args a = {st->ctx, st->p->spec, st->data, st->p->n, st->params, st->ctx->stream};
    pl_status s = st->v->run(&a);
    if (s == PL_OK && st->v->backend == PL_BACKEND_CUDA) s = pl_dev_check(st->v->name);
    return s;
}

static void release(run_state *st)
{
    for (int i = 0; i < st->p->n; i++) {
        if (st->v->backend == PL_BACKEND_CUDA) {
            pl_dev_free(st->data[i]);
            pl_dev_free(st->pristine[i]);
        }
        pl_free(st->work[i]);
    }
    if (st->v->backend == PL_BACKEND_CUDA) pl_dev_free(st->flush);
    else pl_free(st->flush);
}

/* Bring a GPU run's outputs to the host working copies. */
static pl_status outputs_to_host(run_state *st)
{
    pl_status s = PL_OK;
    for (int i = 0; i < st->p->n && s == PL_OK; i++)
        if (st->p->t[i].role != PL_IN) s = pl_dev_d2h(st->work[i], st->data[i], st->bytes[i], st->ctx->stream);
    if (s == PL_OK) s = pl_dev_sync(st->ctx->stream);
    return s;
}

/* Check the host copies in st->work (full or sampled); returns 1 when they pass. */
static int check_outputs(run_state *st, pl_result *r, pl_check_result *res, uint64_t salt)
{
    const pl_problem *p = st->p;
    memset(res, 0, sizeof *res);
    pl_tensor out[PL_MAX_OPERANDS];
    int pad_ok = 1;
    for (int i = 0; i < p->n; i++) {
        out[i] = p->t[i];
        if (p->t[i].role == PL_IN) continue;
        out[i].host = st->work[i];
        pad_ok &= padding_intact(&out[i], &p->t[i]);
    }
    if (p->check == PL_CHECK_SAMPLE) {
        pl_status s = p->kernel->check_sampled(p->spec, p->t, p->n, out, st->v->precision, p->seed ^ salt, res);
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
    int exact = r->bound == 0;
    return pad_ok && (exact ? res->error == 0 : (res->error <= r->bound && res->elem_ratio <= 1.0));
}

/* The inputs must be as the problem made them. CPU variants get the master copies: one
 * that wrote into them is failed and the inputs are refilled from the seed. GPU variants
 * get device copies: compared with the host's, in chunks. */
static pl_status inputs_unchanged(run_state *st, int *ok)
{
    const pl_problem *p = st->p;
    *ok = 1;
    if (st->v->backend != PL_BACKEND_CUDA) {
        for (int i = 0; i < p->n; i++)
            if (p->t[i].role == PL_IN && pl_tensor_checksum(&p->t[i]) != p->sum[i]) *ok = 0;
        if (!*ok) {
            pl_problem *mp = (pl_problem *)p;
            p->kernel->fill(mp->spec, mp->t, mp->n, mp->seed);
            for (int i = 0; i < p->n; i++)
                if (p->t[i].role != PL_OUT && pl_tensor_checksum(&p->t[i]) != p->sum[i])
                    return pl_fail(PL_ERR_INTERNAL, "%s: the inputs could not be restored from the seed", p->desc);
        }
        return PL_OK;
    }
    size_t chunk = (size_t)64 << 20;
    unsigned char *bounce = pl_alloc(chunk);
    if (!bounce) return pl_fail(PL_ERR_NOMEM, "out of host memory");
    pl_status s = PL_OK;
    for (int i = 0; i < p->n && s == PL_OK && *ok; i++) {
        if (p->t[i].role != PL_IN) continue;
        for (size_t off = 0; off < st->bytes[i] && s == PL_OK; off += chunk) {
            size_t len = st->bytes[i] - off < chunk ? st->bytes[i] - off : chunk;
            s = pl_dev_d2h(bounce, (const char *)st->data[i] + off, len, st->ctx->stream);
            if (s == PL_OK) s = pl_dev_sync(st->ctx->stream);
            if (s == PL_OK && memcmp(bounce, (const char *)p->t[i].host + off, len) != 0) {
                *ok = 0;
                break;
            }
        }
    }
    pl_free(bounce);
    return s;
}

/* The device memory this variant needs: operands, pristine in-outs, its workspaces. */
static pl_status device_fits(const run_state *st, size_t cold_bytes)
{
    const pl_problem *p = st->p;
    double need = (double)cold_bytes;
    for (int i = 0; i < p->n; i++) need += (double)st->bytes[i] * (p->t[i].role == PL_INOUT ? 2 : 1);
    if (st->v->workspace_bytes) need += st->v->workspace_bytes(p->spec);
    size_t free_b = 0, total_b = 0;
    if (pl_dev_mem_info(&free_b, &total_b) != PL_OK) return PL_OK; /* cannot tell: allocation will say */
    if (need > 0.97 * (double)free_b)
        return pl_fail(PL_ERR_TOO_BIG, "%s %s %s needs %.1f GiB of device memory; the device has %.1f GiB free "
                       "(of %.1f GiB)", p->kernel->name, st->v->name, p->desc, need / 1073741824.0,
                       (double)free_b / 1073741824.0, (double)total_b / 1073741824.0);
    return PL_OK;
}

static size_t cold_buffer_bytes(int gpu)
{
    if (gpu) return (size_t)256 << 20; /* several times any GPU's L2 (H100: 50 MB) */
    const int64_t llc = pl_cpu_llc_bytes(0);
    size_t b = llc > 0 ? (size_t)llc * 4 : (size_t)64 << 20;
    if (b < ((size_t)32 << 20)) b = (size_t)32 << 20;
    if (b > ((size_t)512 << 20)) b = (size_t)512 << 20;
    return b;
}

pl_status pl_bench_variant(pl_ctx *ctx, pl_problem *p, const pl_variant *v, const int64_t *params,
                           const pl_bench_config *cfg_in, pl_result *r)
{
    pl_bench_config cfg;
    if (cfg_in) cfg = *cfg_in;
    else pl_bench_config_default(&cfg);
    memset(r, 0, sizeof *r);
    r->kernel = p->kernel;
    r->variant = v;
    r->problem_id = p->id;
    snprintf(r->size, sizeof r->size, "%s", p->desc);
    r->threads = v->backend == PL_BACKEND_CPU ? ctx->threads : 0;
    r->unit = p->kernel->unit;
    r->work = p->work;
    r->ops = p->ops;
    r->bytes = p->bytes;
    r->cold = cfg.cold;
    r->check = p->check;
    r->padding_ok = 1;
    r->inputs_ok = 1;
    for (int i = 0; i < PL_N_PHASES; i++) r->phase_s[i] = -1;
    r->bound = p->kernel->error_bound(p->spec, v->precision, &r->bound_why);
    r->elem_bound = p->kernel->elem_bound ? p->kernel->elem_bound(p->spec, v->precision, &r->elem_why) : 0;
    int probe = p->check == PL_CHECK_AUTO;

    pl_status s = pl_variant_check(ctx, v, NULL, 0);
    if (s != PL_OK) return s;
    run_state st;
    memset(&st, 0, sizeof st);
    st.p = p;
    st.v = v;
    st.ctx = ctx;
    st.cfg = &cfg;
    if ((s = pl_params_resolve(v, params, st.params)) != PL_OK) return s;
    memcpy(r->params, st.params, sizeof st.params);
    int gpu = v->backend == PL_BACKEND_CUDA;
    if ((s = pl_ctx_activate(ctx)) != PL_OK) return s;
    for (int i = 0; i < p->n && s == PL_OK; i++) s = pl_tensor_bytes(&p->t[i], &st.bytes[i]);
    if (s == PL_OK && gpu) s = device_fits(&st, cfg.cold ? cold_buffer_bytes(1) : 0);
    if (s != PL_OK) return s;

    /* Allocation phase: working outputs on the host (touched), every operand on the device. */
    double t0 = pl_now();
    for (int i = 0; i < p->n && s == PL_OK; i++) {
        if (p->t[i].role != PL_IN && !(st.work[i] = pl_alloc(st.bytes[i])))
            s = pl_fail(PL_ERR_NOMEM, "cannot allocate %zu bytes of host memory", st.bytes[i]);
        else if (gpu) {
            /* Touch the host copy now, so its page faults count as allocation and the
             * device-to-host phase measures the transfer alone. */
            if (st.work[i]) memset(st.work[i], 0, st.bytes[i]);
            s = pl_dev_malloc(&st.data[i], st.bytes[i]);
        }
        else st.data[i] = p->t[i].role == PL_IN ? p->t[i].host : st.work[i];
    }
    if (s == PL_OK && gpu) s = pl_dev_sync(ctx->stream);
    double t_alloc = pl_now() - t0;
    for (int i = 0; gpu && s == PL_OK && i < p->n; i++)
        if (p->t[i].role == PL_INOUT) s = pl_dev_malloc(&st.pristine[i], st.bytes[i]);
    if (s == PL_OK && cfg.cold) {
        st.flush_bytes = cold_buffer_bytes(gpu);
        if (gpu) s = pl_dev_malloc(&st.flush, st.flush_bytes);
        else if (!(st.flush = pl_alloc(st.flush_bytes))) s = pl_fail(PL_ERR_NOMEM, "--cold: out of host memory");
    }
    if (s != PL_OK) {
        release(&st);
        return s;
    }
    r->phase_s[PL_PHASE_ALLOC] = t_alloc;

    void *ev0 = NULL, *ev1 = NULL;
    if (gpu) {
        /* Host-to-device phase: the inputs (and the in-outs' initial values). */
        s = pl_dev_event_create(&ev0);
        if (s == PL_OK) s = pl_dev_event_create(&ev1);
        if (s == PL_OK) s = pl_dev_event_record(ev0, ctx->stream);
        for (int i = 0; i < p->n && s == PL_OK; i++)
            if (p->t[i].role != PL_OUT) s = pl_dev_h2d(st.data[i], p->t[i].host, st.bytes[i], ctx->stream);
        if (s == PL_OK) s = pl_dev_event_record(ev1, ctx->stream);
        if (s == PL_OK) s = pl_dev_event_elapsed(ev0, ev1, &r->phase_s[PL_PHASE_H2D]);
        /* Pristine copies of the in-outs, outside the timed phases. */
        for (int i = 0; i < p->n && s == PL_OK; i++)
            if (p->t[i].role == PL_INOUT) s = pl_dev_d2d(st.pristine[i], st.data[i], st.bytes[i], ctx->stream);
    }

    /* Warm-up; the first run is also checked. */
    int first_ok = 1;
    for (int w = 0; w < (cfg.warmup > 0 ? cfg.warmup : 1) && s == PL_OK; w++) {
        progress(cfg.progress, cfg.progress_user, "warm-up", 0.0);
        if (pl_ctx_cancelled(ctx)) s = pl_fail(PL_ERR_CANCELLED, "%s: cancelled", v->name);
        if (s == PL_OK) s = reset_outputs(&st);
        if (s == PL_OK) s = call_variant(&st);
        if (s != PL_OK || w > 0) continue;
        if (gpu) {
            /* Device-to-host phase: the outputs back. */
            s = pl_dev_event_record(ev0, ctx->stream);
            for (int i = 0; i < p->n && s == PL_OK; i++)
                if (p->t[i].role != PL_IN) s = pl_dev_d2h(st.work[i], st.data[i], st.bytes[i], ctx->stream);
            if (s == PL_OK) s = pl_dev_event_record(ev1, ctx->stream);
            if (s == PL_OK) s = pl_dev_event_elapsed(ev0, ev1, &r->phase_s[PL_PHASE_D2H]);
        }
        if (s == PL_OK && !probe) {
            progress(cfg.progress, cfg.progress_user, "check", 0.0);
            first_ok = check_outputs(&st, r, &r->first, 0x51);
        }
    }

    /* Timed repeats: outputs poisoned again (and caches flushed with --cold) before each,
     * outside the timed region. */
    int cap = cfg.repeats > 0 ? cfg.repeats : (cfg.max_repeats > 3 ? cfg.max_repeats : 3);
    double *times = calloc((size_t)cap, sizeof *times);
    int n = 0;
    double spent = 0;
    if (!times && s == PL_OK) s = pl_fail(PL_ERR_NOMEM, "out of host memory");
    while (s == PL_OK && n < cap) {
        progress(cfg.progress, cfg.progress_user, "timed runs",
                 cfg.repeats > 0 ? (double)n / cap : fmin(1.0, fmax((double)n / 3, spent / fmax(cfg.min_time_s, 1e-9))));
        s = pl_ctx_cancelled(ctx) ? pl_fail(PL_ERR_CANCELLED, "%s: cancelled", v->name) : reset_outputs(&st);
        if (s == PL_OK) s = flush_caches(&st);
        if (s != PL_OK) break;
        double t;
        if (gpu) {
            s = pl_dev_event_record(ev0, ctx->stream);
            if (s == PL_OK) s = call_variant(&st);
            if (s == PL_OK) s = pl_dev_event_record(ev1, ctx->stream);
            if (s == PL_OK) s = pl_dev_event_elapsed(ev0, ev1, &t);
        } else {
            double a = pl_now();
            s = call_variant(&st);
            t = pl_now() - a;
        }
        if (s != PL_OK) break;
        times[n++] = t;
        spent += t;
        if (cfg.repeats <= 0 && n >= 3 && spent >= cfg.min_time_s) break;
    }
    /* The last timed run's output is checked too: a variant that computes once and then
     * returns at once fails here. */
    int last_ok = 1;
    if (s == PL_OK && !probe) {
        if (gpu) s = outputs_to_host(&st);
        progress(cfg.progress, cfg.progress_user, "check", 0.5);
        if (s == PL_OK) last_ok = check_outputs(&st, r, &r->last, 0x1A57);
        if (s == PL_OK) s = inputs_unchanged(&st, &r->inputs_ok);
    }
    if (s == PL_OK) {
        summarize(times, n, r);
        r->phase_s[PL_PHASE_KERNEL] = r->median_s;
        r->rate = r->work / r->median_s / pl_unit_rate_scale(r->unit);
        r->gbps = r->bytes / r->median_s * 1e-9;
        r->error = r->first.error > r->last.error || isnan(r->first.error) ? r->first.error : r->last.error;
        r->verified = !probe && first_ok && last_ok && r->padding_ok && r->inputs_ok;
        place_on_ceiling(ctx, v, cfg.peaks, p->kernel->bytes_written ? p->kernel->bytes_written(p->spec) : -1.0, r);
    }
    free(times);
    pl_dev_event_destroy(ev0);
    pl_dev_event_destroy(ev1);
    release(&st);
    return s;
}

/* ---------------------------------------------------------------- estimates */

pl_status pl_bench_estimate(pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const int64_t *params,
                            const pl_pvalues *pv, const pl_plan *plan, const pl_bench_config *cfg_in,
                            double *seconds)
{
    *seconds = -1;
    pl_bench_config cfg;
    if (cfg_in) cfg = *cfg_in;
    else pl_bench_config_default(&cfg);
    double rate = 0, probe_work = 0;
    /* Probe at the named sizes, smallest first; a larger one while the probe is quick and
     * still far smaller than the problem (rates at small sizes flatter cache-bound rungs). */
    for (int i = 0; i < k->n_named_sizes; i++) {
        pl_plan pp;
        if (pl_problem_plan(k, k->named_sizes[i].size, pv, PL_CHECK_FULL, &pp) != PL_OK) break;
        if (i > 0 && pp.work > plan->work / 8) break;
        pl_problem *p = NULL;
        pl_problem_opts o = {cfg.seed, PL_CHECK_AUTO, NULL, NULL};
        pl_status s = problem_create(&p, k, k->named_sizes[i].size, pv, &o, 1);
        if (s != PL_OK) return s;
        pl_bench_config pc;
        pl_bench_config_default(&pc);
        pc.min_time_s = 0.05; /* the fastest of several runs: one on a busy machine can be far off */
        pc.max_repeats = 20;
        pc.warmup = 1;
        pl_result r;
        s = pl_bench_variant(ctx, p, v, params, &pc, &r);
        pl_problem_destroy(p);
        if (s != PL_OK) return s;
        if (r.min_s > 0) rate = pp.work / r.min_s, probe_work = pp.work;
        if (r.min_s >= 0.02) break;
    }
    if (!(rate > 0)) return PL_OK;
    /* Far beyond the probe the operands leave the caches the probe ran in: rungs without
     * cache blocking slow down 4-7 times (cpu-simd: ~100 GFLOP/s at 1024, 14 at 8192 on a
     * 2-core EPYC), so past 64x the probe's work the estimate takes a quarter of the rate. It
     * only decides what `--variant all` leaves out (with a note); a named rung always runs. */
    if (plan->work > 64.0 * probe_work) rate *= 0.25;
    double t_run = plan->work / rate;
    double runs = cfg.repeats > 0 ? cfg.repeats : fmin(fmax(3.0, ceil(cfg.min_time_s / t_run)), cfg.max_repeats);
    *seconds = t_run * (runs + (cfg.warmup > 0 ? cfg.warmup : 1));
    return PL_OK;
}
