/* names.c: the words parlab writes for the public enums (backends, precisions, units, checks,
 * phases) and for a result's parameters, in one place below the harness and the formats, so
 * the table a person reads (harness) and the files programs read (io) say the same. */
#include "core/core.h"

#include <stdio.h>

const char *pl_backend_name(pl_backend b)
{
    switch (b) {
    case PL_BACKEND_AUTO: return "auto";
    case PL_BACKEND_CPU: return "cpu";
    case PL_BACKEND_CUDA: return "cuda";
    }
    return "?";
}

const char *pl_precision_name(pl_precision p)
{
    switch (p) {
    case PL_PREC_FP32: return "FP32";
    case PL_PREC_TF32: return "TF32";
    case PL_PREC_EXACT: return "exact";
    case PL_PREC_BF16: return "BF16";
    }
    return "?";
}

const char *pl_unit_name(pl_unit u)
{
    static const char *names[] = {"flop", "element", "byte", "cell-update", "pixel"};
    return (unsigned)u < 5 ? names[u] : "?";
}

const char *pl_unit_rate_name(pl_unit u)
{
    static const char *names[] = {"GFLOP/s", "Gelem/s", "GB/s", "Gcell/s", "Mpx/s"};
    return (unsigned)u < 5 ? names[u] : "?";
}

const char *pl_check_name(pl_check c)
{
    switch (c) {
    case PL_CHECK_AUTO: return "auto";
    case PL_CHECK_FULL: return "full";
    case PL_CHECK_SAMPLE: return "sample";
    }
    return "?";
}

const char *pl_phase_name(int phase)
{
    static const char *names[PL_N_PHASES] = {"alloc", "h2d", "kernel", "d2h"};
    return phase >= 0 && phase < PL_N_PHASES ? names[phase] : "?";
}

/* "name=value,..." in the variant's order, choices by name; "-" when it has none. */
void pl_report_params(const pl_result *r, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    const pl_variant *v = r->variant;
    for (int i = 0; i < v->n_params && used < n; i++) {
        const pl_param_def *p = &v->params[i];
        if (p->kind == PL_PARAM_CHOICE)
            used += snprintf(buf + used, n - used, "%s%s=%s", i ? "," : "", p->name, p->choices[r->params[i]]);
        else
            used += snprintf(buf + used, n - used, "%s%s=%lld", i ? "," : "", p->name, (long long)r->params[i]);
    }
    if (!buf[0]) snprintf(buf, n, "-");
}
