/* registry.c: lookups in the list of kernels (src/kernels/kernels.c), what can run here, the
 * best rung a context can run (by the best-first order each ladder declares), parameters,
 * named sizes and what a unit of rate is worth (the names of units, precisions and checks:
 * core/names.c). */
#include "core/core.h"
#include "harness/harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pl_kernel_count(void)
{
    int n = 0;
    while (pl_kernel_table[n]) n++;
    return n;
}

const pl_kernel *pl_kernel_at(int i) { return (i >= 0 && i < pl_kernel_count()) ? pl_kernel_table[i] : NULL; }

const pl_kernel *pl_kernel_find(const char *name)
{
    for (int i = 0; name && pl_kernel_table[i]; i++)
        if (strcmp(pl_kernel_table[i]->name, name) == 0) return pl_kernel_table[i];
    return NULL;
}

const char *pl_kernel_size(const pl_kernel *k, const char *size)
{
    for (int i = 0; size && i < k->n_named_sizes; i++)
        if (strcmp(k->named_sizes[i].name, size) == 0) return k->named_sizes[i].size;
    return size;
}

void pl_pvalues_default(const pl_kernel *k, pl_pvalues *pv)
{
    memset(pv, 0, sizeof *pv);
    for (int i = 0; i < k->n_problem_params && i < PL_MAX_PARAMS; i++) pv->num[i] = k->problem_params[i].def;
}

pl_status pl_pvalues_set(const pl_kernel *k, pl_pvalues *pv, int *given, const char *text)
{
    const char *eq = text ? strchr(text, '=') : NULL;
    if (!eq || eq == text) return pl_fail(PL_ERR_ARG, "--set '%s': expected NAME=VALUE", text ? text : "");
    size_t len = (size_t)(eq - text);
    for (int i = 0; i < k->n_problem_params && i < PL_MAX_PARAMS; i++) {
        const pl_param_def *p = &k->problem_params[i];
        if (strlen(p->name) != len || strncmp(p->name, text, len) != 0) continue;
        if (given && given[i]) return pl_fail(PL_ERR_ARG, "--set %s: given twice", p->name);
        pl_status s = pl_param_parse(p, eq + 1, &pv->num[i]);
        if (s != PL_OK) return s;
        if (p->kind == PL_PARAM_STRING) pv->str[i] = eq + 1;
        if (given) given[i] = 1;
        return PL_OK;
    }
    return pl_fail(PL_ERR_ARG, "--set: %s has no problem parameter '%.*s' (see parlab list %s)", k->name,
                   (int)len, text, k->name);
}

double pl_unit_rate_scale(pl_unit u) { return u == PL_UNIT_PIXEL ? 1e6 : 1e9; }

const pl_param_def *pl_problem_param_find(const pl_kernel *k, const char *name)
{
    for (int i = 0; k && name && i < k->n_problem_params; i++)
        if (strcmp(k->problem_params[i].name, name) == 0) return &k->problem_params[i];
    return NULL;
}

const pl_variant *pl_variant_find(const pl_kernel *k, const char *name)
{
    for (int i = 0; k && name && i < k->n_variants; i++)
        if (strcmp(k->ladder[i]->name, name) == 0) return k->ladder[i];
    return NULL;
}

pl_status pl_variant_check(const pl_ctx *ctx, const pl_variant *v, char *why, size_t n)
{
    unsigned have = pl_features();
    unsigned need = v->requires;
    const char *reason = NULL;
    pl_status s = PL_OK;
    if (v->backend == PL_BACKEND_CUDA && !(have & PL_FEAT_CUDA_BUILD)) {
        reason = "no CUDA build"; s = PL_ERR_NO_CUDA;
    } else if (v->backend == PL_BACKEND_CUDA && !(have & PL_FEAT_GPU)) {
        reason = "no GPU"; s = PL_ERR_NO_GPU;
    } else if ((need & PL_FEAT_OPENBLAS) && !(have & PL_FEAT_OPENBLAS)) {
        reason = "built without OpenBLAS"; s = PL_ERR_UNSUPPORTED;
    } else if ((need & PL_FEAT_CUBLAS) && !(have & PL_FEAT_CUBLAS)) {
        reason = "built without cuBLAS"; s = PL_ERR_UNSUPPORTED;
    } else if ((need & PL_FEAT_CUDNN) && !(have & PL_FEAT_CUDNN)) {
        reason = "built without cuDNN"; s = PL_ERR_UNSUPPORTED;
    } else if ((need & PL_FEAT_SM90A) && !(have & PL_FEAT_SM90A)) {
        reason = "needs Hopper (sm_90a)"; s = PL_ERR_UNSUPPORTED;
    } else if ((need & PL_FEAT_AVX512) && !(have & PL_FEAT_AVX512)) {
        reason = "no AVX-512 on this CPU"; s = PL_ERR_UNSUPPORTED;
    } else if ((need & PL_FEAT_AVX2) && !(have & PL_FEAT_AVX2)) {
        reason = "no AVX2 on this CPU"; s = PL_ERR_UNSUPPORTED;
    } else if (!v->run) {
        reason = "not in this build"; s = PL_ERR_UNSUPPORTED;
    } else if (ctx && ctx->backend != v->backend) {
        reason = v->backend == PL_BACKEND_CUDA ? "needs a CUDA context" : "needs a CPU context";
        s = PL_ERR_ARG;
    }
    if (why && n) snprintf(why, n, "%s", reason ? reason : "");
    if (s != PL_OK) return pl_fail(s, "variant %s: %s", v->name, reason);
    return PL_OK;
}

pl_status pl_variant_takes(const pl_kernel *k, const pl_variant *v, const void *problem)
{
    char why[160] = "";
    if (!k || !v || !k->takes || k->takes(problem, v, why, sizeof why)) return PL_OK;
    return pl_fail(PL_ERR_UNSUPPORTED, "%s %s: %s", k->name, v->name, why);
}

/* v can run in ctx and takes the problem (quietly: the pick says nothing). */
static int can_pick(const pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const void *problem)
{
    char why[160];
    return v->backend == pl_ctx_backend(ctx) && pl_variant_check(ctx, v, NULL, 0) == PL_OK &&
           (!k->takes || k->takes(problem, v, why, sizeof why));
}

/* The rung named first for this problem by the kernel's shape hook, if it is of the backend
 * and runs here; else the rungs by best_rank, 1 up, each tried as pl_variant_check says; only
 * rungs that take the problem. */
const char *pl_best_variant(const pl_ctx *ctx, const pl_kernel *k, const void *problem)
{
    if (!ctx || !k) return NULL;
    if (problem && k->best_first_for) {
        const pl_variant *v = pl_variant_find(k, k->best_first_for(problem, pl_ctx_backend(ctx)));
        if (v && can_pick(ctx, k, v, problem)) return v->name;
    }
    int last = 0;
    for (int i = 0; i < k->n_variants; i++)
        if (k->ladder[i]->best_rank > last) last = k->ladder[i]->best_rank;
    for (int rank = 1; rank <= last; rank++)
        for (int i = 0; i < k->n_variants; i++) {
            const pl_variant *v = k->ladder[i];
            if (v->best_rank == rank && can_pick(ctx, k, v, problem)) return v->name;
        }
    return NULL;
}

int64_t pl_tensor_span(const pl_tensor *t)
{
    if (t->rows <= 0 || t->cols <= 0) return 0;
    return (t->rows - 1) * t->ld + t->cols;
}

pl_status pl_tensor_bytes(const pl_tensor *t, size_t *bytes)
{
    int64_t span, b;
    if (t->rows <= 0 || t->cols <= 0 || t->ld < t->cols)
        return pl_fail(PL_ERR_ARG, "operand %s: bad shape %lldx%lld (ld %lld)", t->name,
                       (long long)t->rows, (long long)t->cols, (long long)t->ld);
    if (pl_mul_overflow(t->rows - 1, t->ld, &span) || __builtin_add_overflow(span, t->cols, &span) ||
        pl_mul_overflow(span, (int64_t)pl_dtype_size(t->dtype), &b) || (uint64_t)b > SIZE_MAX / 2)
        return pl_fail(PL_ERR_OVERFLOW, "operand %s: %lldx%lld elements overflow the address space",
                       t->name, (long long)t->rows, (long long)t->cols);
    *bytes = (size_t)b;
    return PL_OK;
}

/* ---------------------------------------------------------------- parameters */

void pl_param_legal(const pl_param_def *p, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    switch (p->kind) {
    case PL_PARAM_LIST:
        for (int i = 0; i < p->n_values && used < n; i++)
            used += snprintf(buf + used, n - used, "%s%lld", i ? ", " : "", (long long)p->values[i]);
        break;
    case PL_PARAM_RANGE:
        if (p->step > 1)
            snprintf(buf, n, "%lld..%lld, multiples of %lld", (long long)p->min, (long long)p->max,
                     (long long)p->step);
        else
            snprintf(buf, n, "%lld..%lld", (long long)p->min, (long long)p->max);
        break;
    case PL_PARAM_CHOICE:
        for (int i = 0; p->choices[i] && used < n; i++)
            used += snprintf(buf + used, n - used, "%s%s", i ? "|" : "", p->choices[i]);
        break;
    case PL_PARAM_REAL:
        snprintf(buf, n, "a real number");
        break;
    case PL_PARAM_STRING:
        snprintf(buf, n, "a text");
        break;
    }
}

pl_status pl_param_parse(const pl_param_def *p, const char *text, double *value)
{
    char legal[256], *end = NULL;
    pl_param_legal(p, legal, sizeof legal);
    if (!text || !*text) return pl_fail(PL_ERR_ARG, "%s: empty value (legal: %s)", p->name, legal);
    if (p->kind == PL_PARAM_STRING) {
        *value = 0;
        return PL_OK;
    }
    if (p->kind == PL_PARAM_CHOICE) {
        for (int i = 0; p->choices[i]; i++)
            if (strcmp(p->choices[i], text) == 0) {
                *value = i;
                return PL_OK;
            }
        return pl_fail(PL_ERR_ARG, "%s=%s: not a legal value (legal: %s)", p->name, text, legal);
    }
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v))
        return pl_fail(PL_ERR_ARG, "%s=%s: not a number (legal: %s)", p->name, text, legal);
    if (p->kind == PL_PARAM_REAL) {
        *value = v;
        return PL_OK;
    }
    if (v != floor(v)) return pl_fail(PL_ERR_ARG, "%s=%s: not an integer (legal: %s)", p->name, text, legal);
    int ok = 0;
    if (p->kind == PL_PARAM_LIST) {
        for (int i = 0; i < p->n_values; i++) ok |= (double)p->values[i] == v;
    } else {
        ok = v >= (double)p->min && v <= (double)p->max &&
             (p->step <= 1 || fmod(v - (double)p->min, (double)p->step) == 0);
    }
    if (!ok) return pl_fail(PL_ERR_ARG, "%s=%s: not a legal value (legal: %s)", p->name, text, legal);
    *value = v;
    return PL_OK;
}

pl_status pl_params_resolve(const pl_variant *v, const int64_t *given, int64_t *out)
{
    char legal[256];
    for (int i = 0; i < v->n_params && i < PL_MAX_PARAMS; i++) {
        const pl_param_def *p = &v->params[i];
        int64_t x = given ? given[i] : (int64_t)p->def;
        int ok = 1;
        if (p->kind == PL_PARAM_LIST) {
            ok = 0;
            for (int j = 0; j < p->n_values; j++) ok |= p->values[j] == x;
        } else if (p->kind == PL_PARAM_RANGE) {
            ok = x >= p->min && x <= p->max && (p->step <= 1 || (x - p->min) % p->step == 0);
        } else if (p->kind == PL_PARAM_CHOICE) {
            int nc = 0;
            while (p->choices[nc]) nc++;
            ok = x >= 0 && x < nc;
        }
        if (!ok) {
            pl_param_legal(p, legal, sizeof legal);
            return pl_fail(PL_ERR_ARG, "variant %s: %s=%lld is not legal (legal: %s)", v->name,
                           p->name, (long long)x, legal);
        }
        out[i] = x;
    }
    return PL_OK;
}
