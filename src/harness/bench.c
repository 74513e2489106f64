/* bench.c: the measurement method, once for every kernel.
 *
 *   problem:  seeded inputs (never zeros), in-out operands kept pristine, float64 reference;
 *   each run: outputs poisoned (NaN / 0xFF), in-outs reset, the variant runs, the result is
 *             verified against the reference and the leading-dimension padding is checked;
 *   timing:   warm-up (the verified run), then repeats until min_time (at least 3);
 *             median / min / max; CPU by the monotonic clock, GPU by CUDA events;
 *   phases:   GPU runs also report allocation, host-to-device and device-to-host apart.
 */
#include "core/core.h"
#include "core/device.h"
#include "harness/harness.h"

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

/* ---------------------------------------------------------------- problem */

static int is_float(pl_dtype t) { return t == PL_F32 || t == PL_F64; }

void pl_problem_destroy(pl_problem *p)
{
    if (!p) return;
    for (int i = 0; i < p->n; i++) {
        pl_free(p->t[i].host);
        pl_free(p->ref[i].host);
    }
    free(p->spec);
    free(p);
}

const void *pl_problem_spec(const pl_problem *p) { return p->spec; }

/* Refuse up front what cannot fit: with overcommit, a huge allocation "succeeds" and the
 * process is killed later when the inputs are filled. Counted: operands, one working copy
 * of each output, the float64 reference. */
static pl_status check_fits_in_memory(const pl_problem *p)
{
    double need = 0;
    for (int i = 0; i < p->n; i++) {
        size_t b;
        pl_status s = pl_tensor_bytes(&p->t[i], &b);
        if (s != PL_OK) return s;
        need += (double)b * (p->t[i].role == PL_IN ? 1 : 4);
    }
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double have = pages > 0 && page > 0 ? (double)pages * (double)page : 0;
    if (have > 0 && need > 0.9 * have)
        return pl_fail(PL_ERR_NOMEM, "%s %s needs %.1f GiB of host memory; this machine has %.1f GiB",
                       p->kernel->name, p->desc, need / 1073741824.0, have / 1073741824.0);
    return PL_OK;
}

pl_status pl_problem_create(pl_problem **out, const pl_kernel *k, const char *size,
                            const double *pvals, uint64_t seed)
{
    *out = NULL;
    pl_problem *p = calloc(1, sizeof *p);
    if (!p) return pl_fail(PL_ERR_NOMEM, "out of host memory");
    p->kernel = k;
    p->seed = seed;
    p->spec = calloc(1, k->problem_size);
    if (!p->spec) {
        free(p);
        return pl_fail(PL_ERR_NOMEM, "out of host memory");
    }
    double defaults[PL_MAX_PARAMS];
    if (!pvals) {
        for (int i = 0; i < k->n_problem_params && i < PL_MAX_PARAMS; i++)
            defaults[i] = k->problem_params[i].def;
        pvals = defaults;
    }
    pl_status s = k->make_problem(p->spec, size, pvals);
    if (s == PL_OK) s = k->operands(p->spec, p->t, &p->n);
    if (s != PL_OK) {
        pl_problem_destroy(p);
        return s;
    }
    k->describe(p->spec, p->desc, sizeof p->desc);
    if ((s = check_fits_in_memory(p)) != PL_OK) {
        pl_problem_destroy(p);
        return s;
    }
    for (int i = 0; i < p->n && s == PL_OK; i++) {
        size_t bytes;
        s = pl_tensor_bytes(&p->t[i], &bytes);
        if (s == PL_OK && !(p->t[i].host = pl_alloc(bytes)))
            s = pl_fail(PL_ERR_NOMEM, "%s: cannot allocate %zu bytes for operand %s", p->desc,
                        bytes, p->t[i].name);
        if (s != PL_OK || p->t[i].role == PL_IN) continue;
        pl_tensor *r = &p->ref[i];
        *r = p->t[i];
        r->dtype = is_float(p->t[i].dtype) ? PL_F64 : p->t[i].dtype;
        r->ld = r->cols;
        r->host = NULL;
        if (s == PL_OK) s = pl_tensor_bytes(r, &bytes);
        if (s == PL_OK && !(r->host = pl_alloc(bytes)))
            s = pl_fail(PL_ERR_NOMEM, "%s: cannot allocate %zu bytes for the reference", p->desc, bytes);
    }
    if (s != PL_OK) {
        pl_problem_destroy(p);
        return s;
    }
    k->fill(p->spec, p->t, p->n, seed);
    s = k->reference(p->spec, p->t, p->n, p->ref);
    if (s != PL_OK) {
        pl_problem_destroy(p);
        return s;
    }
    p->flops = k->flops(p->spec);
    p->bytes = k->bytes(p->spec);
    *out = p;
    return PL_OK;
}

/* ---------------------------------------------------------------- verification */

double pl_verify_tensor(const pl_tensor *out, const pl_tensor *ref, int exact)
{
    double diff2 = 0, ref2 = 0, mismatches = 0;
    for (int64_t r = 0; r < out->rows; r++) {
        for (int64_t c = 0; c < out->cols; c++) {
            int64_t io = r * out->ld + c, ir = r * ref->ld + c;
            double o, x;
            switch (out->dtype) {
            case PL_F32: o = ((const float *)out->host)[io]; break;
            case PL_F64: o = ((const double *)out->host)[io]; break;
            case PL_I32: o = ((const int32_t *)out->host)[io]; break;
            default: o = ((const uint8_t *)out->host)[io]; break;
            }
            switch (ref->dtype) {
            case PL_F64: x = ((const double *)ref->host)[ir]; break;
            case PL_F32: x = ((const float *)ref->host)[ir]; break;
            case PL_I32: x = ((const int32_t *)ref->host)[ir]; break;
            default: x = ((const uint8_t *)ref->host)[ir]; break;
            }
            if (exact) {
                mismatches += (o != x);
            } else {
                if (!isfinite(o)) return INFINITY;
                diff2 += (o - x) * (o - x);
                ref2 += x * x;
            }
        }
    }
    if (exact) return mismatches;
    return ref2 > 0 ? sqrt(diff2 / ref2) : sqrt(diff2);
}

/* The bytes a poisoned output's padding must still hold, or an in-out's pristine padding. */
static int padding_intact(const pl_tensor *out, const pl_tensor *expect)
{
    size_t es = pl_dtype_size(out->dtype);
    if (out->ld == out->cols) return 1;
    for (int64_t r = 0; r + 1 < out->rows; r++) {
        const char *a = (const char *)out->host + (size_t)(r * out->ld + out->cols) * es;
        const char *b = (const char *)expect->host + (size_t)(r * out->ld + out->cols) * es;
        if (memcmp(a, b, (size_t)(out->ld - out->cols) * es) != 0) return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------- statistics */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void summarize(double *t, int n, pl_result *r)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    r->repeats = n;
    r->min_s = t[0];
    r->max_s = t[n - 1];
    r->median_s = (n % 2) ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    r->noisy = r->min_s > 0 && r->max_s > 1.5 * r->min_s;
}

/* Roofline: the ceiling that bounds this run is whichever of compute and memory would take
 * longer at the machine's measured peaks; % is that floor time over the measured time. */
static void place_on_roofline(const pl_ctx *ctx, const pl_variant *v, const pl_peaks *pk, pl_result *r)
{
    r->ceiling_pct = -1;
    snprintf(r->ceiling_name, sizeof r->ceiling_name, "-");
    if (!pk || !pk->valid || r->median_s <= 0) return;
    double gflops = 0, gbps = 0;
    const char *fname = "", *bname = "";
    char fbuf[64];
    if (v->backend == PL_BACKEND_CUDA) {
        if (v->precision == PL_PREC_TF32) return; /* the tensor-core peak is not measured yet */
        gflops = pk->gpu_gflops_fp32;
        gbps = pk->gpu_copy_gbps;
        fname = "GPU FP32 FMA peak";
        bname = "GPU copy bandwidth";
    } else {
        unsigned f = pl_cpu_features();
        const double *isa = (f & PL_FEAT_AVX512) ? pk->cpu_gflops_avx512
                            : (f & PL_FEAT_AVX2) ? pk->cpu_gflops_avx2 : pk->cpu_gflops_scalar;
        int thr = ctx->threads;
        if (thr <= 1) gflops = isa[0];
        else if (thr >= pk->cpu_threads) gflops = isa[1];
        else gflops = fmin(isa[1], isa[0] * thr);
        gbps = pk->cpu_triad_gbps;
        snprintf(fbuf, sizeof fbuf, "CPU %s FMA peak, %d thr",
                 (f & PL_FEAT_AVX512) ? "AVX-512" : (f & PL_FEAT_AVX2) ? "AVX2" : "scalar", thr);
        fname = fbuf;
        bname = "CPU triad bandwidth";
    }
    double t_flop = gflops > 0 ? r->flops / (gflops * 1e9) : 0;
    double t_byte = gbps > 0 ? r->bytes / (gbps * 1e9) : 0;
    if (t_flop <= 0 && t_byte <= 0) return;
    int compute_bound = t_flop >= t_byte;
    r->ceiling_pct = 100.0 * (compute_bound ? t_flop : t_byte) / r->median_s;
    snprintf(r->ceiling_name, sizeof r->ceiling_name, "%s", compute_bound ? fname : bname);
}

/* ---------------------------------------------------------------- one variant */

typedef struct run_state {
    const pl_problem *p;
    const pl_variant *v;
    pl_ctx *ctx;
    void *data[PL_MAX_OPERANDS];     /* what the variant sees: host or device */
    void *work[PL_MAX_OPERANDS];     /* host working copies of outputs */
    void *pristine[PL_MAX_OPERANDS]; /* device: initial in-out values / poisoned outputs */
    size_t bytes[PL_MAX_OPERANDS];
    int64_t params[PL_MAX_PARAMS];
} run_state;

static void poison_host(const pl_tensor *t, void *dst, size_t bytes)
{
    if (t->role == PL_INOUT) memcpy(dst, t->host, bytes);
    else memset(dst, 0xFF, bytes); /* all-ones: NaN for floats, -1 / 255 for integers */
}

static pl_status reset_outputs(run_state *st)
{
    const pl_problem *p = st->p;
    for (int i = 0; i < p->n; i++) {
        if (p->t[i].role == PL_IN) continue;
        if (st->v->backend == PL_BACKEND_CUDA) {
            pl_status s = pl_dev_d2d(st->data[i], st->pristine[i], st->bytes[i], st->ctx->stream);
            if (s != PL_OK) return s;
        } else {
            poison_host(&p->t[i], st->work[i], st->bytes[i]);
        }
    }
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
}

/* Verify the host copies in st->work against the reference; fills r. */
static void verify_outputs(run_state *st, pl_result *r)
{
    const pl_problem *p = st->p;
    double worst = 0;
    int pad_ok = 1;
    int exact = r->bound == 0;
    for (int i = 0; i < p->n; i++) {
        if (p->t[i].role == PL_IN) continue;
        pl_tensor out = p->t[i];
        out.host = st->work[i];
        double e = pl_verify_tensor(&out, &p->ref[i], exact);
        if (!(e <= worst)) worst = e; /* NaN-safe max */
        /* The padding must hold what it held before the run. */
        pl_tensor expect = p->t[i];
        void *tmp = NULL;
        if (p->t[i].role == PL_OUT) {
            tmp = pl_alloc(st->bytes[i]);
            if (tmp) {
                memset(tmp, 0xFF, st->bytes[i]);
                expect.host = tmp;
            }
        }
        if (expect.host) pad_ok &= padding_intact(&out, &expect);
        pl_free(tmp);
    }
    r->error = worst;
    r->padding_ok = pad_ok;
    r->verified = pad_ok && (exact ? worst == 0 : worst <= r->bound);
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
    snprintf(r->size, sizeof r->size, "%s", p->desc);
    r->threads = v->backend == PL_BACKEND_CPU ? ctx->threads : 0;
    r->flops = p->flops;
    r->bytes = p->bytes;
    r->n_peers = 0;
    for (int i = 0; i < PL_N_PHASES; i++) r->phase_s[i] = -1;
    r->bound = p->kernel->error_bound(p->spec, v->precision, &r->bound_why);

    pl_status s = pl_variant_check(ctx, v, NULL, 0);
    if (s != PL_OK) return s;
    run_state st;
    memset(&st, 0, sizeof st);
    st.p = p;
    st.v = v;
    st.ctx = ctx;
    if ((s = pl_params_resolve(v, params, st.params)) != PL_OK) return s;
    memcpy(r->params, st.params, sizeof st.params);
    int gpu = v->backend == PL_BACKEND_CUDA;

    /* Allocation phase: working outputs on the host (touched), every operand on the device. */
    double t0 = pl_now();
    for (int i = 0; i < p->n && s == PL_OK; i++) {
        s = pl_tensor_bytes(&p->t[i], &st.bytes[i]);
        if (s != PL_OK) break;
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
        if (p->t[i].role != PL_IN) s = pl_dev_malloc(&st.pristine[i], st.bytes[i]);
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
        /* Pristine copies, outside the timed phases: in-outs as uploaded, outputs poisoned. */
        for (int i = 0; i < p->n && s == PL_OK; i++) {
            if (p->t[i].role == PL_INOUT) s = pl_dev_d2d(st.pristine[i], st.data[i], st.bytes[i], ctx->stream);
            else if (p->t[i].role == PL_OUT) s = pl_dev_memset(st.pristine[i], 0xFF, st.bytes[i], ctx->stream);
        }
    }

    /* Warm-up; the first run is also the one verified. */
    for (int w = 0; w < (cfg.warmup > 0 ? cfg.warmup : 1) && s == PL_OK; w++) {
        s = reset_outputs(&st);
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
        if (s == PL_OK) verify_outputs(&st, r);
    }

    /* Timed repeats: outputs reset before each, outside the timed region. */
    int cap = cfg.repeats > 0 ? cfg.repeats : (cfg.max_repeats > 3 ? cfg.max_repeats : 3);
    double *times = calloc((size_t)cap, sizeof *times);
    int n = 0;
    double spent = 0;
    if (!times && s == PL_OK) s = pl_fail(PL_ERR_NOMEM, "out of host memory");
    while (s == PL_OK && n < cap) {
        s = reset_outputs(&st);
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
    if (s == PL_OK) {
        summarize(times, n, r);
        r->phase_s[PL_PHASE_KERNEL] = r->median_s;
        r->gflops = r->flops / r->median_s * 1e-9;
        r->gbps = r->bytes / r->median_s * 1e-9;
        place_on_roofline(ctx, v, cfg.peaks, r);
    }
    free(times);
    pl_dev_event_destroy(ev0);
    pl_dev_event_destroy(ev1);
    release(&st);
    return s;
}
