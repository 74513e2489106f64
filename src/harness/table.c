/* table.c: a bench run's results as a person reads them: peers paired with rungs by the
 * problem they ran on, the aligned table, and the lines under it. (The files programs read,
 * JSON and CSV, are io's: io/results_json.c, io/results_csv.c.) */
#include "core/core.h"
#include "harness/harness.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void pl_results_peer_ratios(pl_result *r, int n)
{
    for (int i = 0; i < n; i++) {
        pl_result *x = &r[i];
        x->n_peers = 0;
        if (x->variant->is_peer || !(x->median_s > 0)) continue;
        for (int j = 0; j < n && x->n_peers < PL_MAX_PEERS; j++) {
            const pl_result *q = &r[j];
            if (!q->variant->is_peer || q->problem_id != x->problem_id || q->variant->backend != x->variant->backend ||
                q->variant->precision != x->variant->precision || !(q->median_s > 0))
                continue;
            int seen = 0; /* the same peer run twice on this problem: its first run counts */
            for (int k = 0; k < x->n_peers; k++) seen |= !strcmp(x->peers[k].name, q->variant->name);
            if (seen) continue;
            x->peers[x->n_peers].name = q->variant->name;
            x->peers[x->n_peers].ratio = q->median_s / x->median_s;
            x->n_peers++;
        }
    }
}

/* Ratios carry the peers' names when some rung has more than one peer. */
static int peers_named(const pl_result *r, int n)
{
    for (int i = 0; i < n; i++)
        if (r[i].n_peers > 1) return 1;
    return 0;
}

/* "1.23x", or with names "1.23x openblas, 0.61x openblas-skx"; "-" with no peer. */
static void fmt_peers(char *buf, size_t n, const pl_result *x, int named)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < x->n_peers && used < n; k++) {
        const char *name = x->peers[k].name;
        if (!strncmp(name, "peer-", 5)) name += 5;
        if (named) used += snprintf(buf + used, n - used, "%s%.2fx %s", k ? ", " : "", x->peers[k].ratio, name);
        else used += snprintf(buf + used, n - used, "%s%.2fx", k ? ", " : "", x->peers[k].ratio);
    }
    if (!buf[0]) snprintf(buf, n, "-");
}

static void fmt_ms(char *buf, size_t n, double s)
{
    if (s < 0) snprintf(buf, n, "-");
    else if (s * 1e3 >= 100) snprintf(buf, n, "%.1f", s * 1e3);
    else if (s * 1e3 >= 1) snprintf(buf, n, "%.3f", s * 1e3);
    else snprintf(buf, n, "%.4f", s * 1e3);
}

/* "yes", or why not: NO (a check failed), PAD (wrote into the row padding), INPUT (changed
 * an input). */
static const char *verdict(const pl_result *x)
{
    if (x->verified) return "yes";
    if (!x->inputs_ok) return "INPUT";
    if (!x->padding_ok) return "PAD";
    return "NO";
}

static const char *check_word(const pl_result *x) { return x->check == PL_CHECK_SAMPLE ? "sampled" : "full"; }

/* The rate columns: the kernel's own unit, and GB/s beside it unless the unit is bytes. */
static int same_unit(const pl_result *r, int n)
{
    for (int i = 1; i < n; i++)
        if (r[i].unit != r[0].unit) return 0;
    return 1;
}

void pl_report_table(FILE *f, const pl_result *r, int n)
{
    /* The variant, params, size, rate and vs-peer columns widen to their longest entry. */
    int any_gpu = 0, named = peers_named(r, n), params_w = 22, peer_w = 8, one_unit = n > 0 && same_unit(r, n);
    int variant_w = 18, size_w = 14, rate_w = 10;
    char params[128], ratio[160];
    for (int i = 0; i < n; i++) {
        char rate[48];
        if (one_unit) snprintf(rate, sizeof rate, "%.1f", r[i].rate);
        else snprintf(rate, sizeof rate, "%.1f %s", r[i].rate, pl_unit_rate_name(r[i].unit));
        if ((int)strlen(rate) > rate_w) rate_w = (int)strlen(rate);
        if ((int)strlen(r[i].variant->name) > variant_w) variant_w = (int)strlen(r[i].variant->name);
        if ((int)strlen(r[i].size) > size_w) size_w = (int)strlen(r[i].size);
        any_gpu |= r[i].phase_s[PL_PHASE_H2D] >= 0;
        pl_report_params(&r[i], params, sizeof params);
        if ((int)strlen(params) > params_w) params_w = (int)strlen(params);
        fmt_peers(ratio, sizeof ratio, &r[i], named);
        if ((int)strlen(ratio) > peer_w) peer_w = (int)strlen(ratio);
    }
    const char *rate_name = one_unit ? pl_unit_rate_name(r[0].unit) : "rate";
    /* GB/s beside the kernel's own rate, unless that rate is GB/s already. */
    int show_gbps = !(one_unit && r[0].unit == PL_UNIT_BYTE);
    fprintf(f, "%-*s %-*s %-*s %3s %10s %10s %10s %*s ", variant_w, "variant", params_w, "params", size_w, "size", "thr",
            "median ms", "min ms", "max ms", rate_w, rate_name);
    if (show_gbps) fprintf(f, "%8s ", "GB/s");
    fprintf(f, "%7s %9s %9s %7s %-7s %-5s %*s", "%peak", "error", "bound", "elem", "check", "ok", peer_w, "vs peer");
    if (any_gpu) fprintf(f, " %9s %9s %9s", "alloc ms", "h2d ms", "d2h ms");
    fputc('\n', f);
    for (int i = 0; i < n; i++) {
        const pl_result *x = &r[i];
        char med[32], mn[32], mx[32], pct[16], thr[16], rate[48], elem[16];
        pl_report_params(x, params, sizeof params);
        fmt_ms(med, sizeof med, x->median_s);
        fmt_ms(mn, sizeof mn, x->min_s);
        fmt_ms(mx, sizeof mx, x->max_s);
        if (x->ceiling_pct >= 0) snprintf(pct, sizeof pct, "%.1f%s", x->ceiling_pct, x->over_ceiling ? "!" : "");
        else snprintf(pct, sizeof pct, "-");
        if (one_unit) snprintf(rate, sizeof rate, "%.1f", x->rate);
        else snprintf(rate, sizeof rate, "%.1f %s", x->rate, pl_unit_rate_name(x->unit));
        double worst_elem = fmax(x->first.elem_ratio, x->last.elem_ratio);
        if (x->elem_bound > 0) snprintf(elem, sizeof elem, "%.2f", worst_elem);
        else snprintf(elem, sizeof elem, "%s", worst_elem > 0 ? "DIFF" : "exact");
        fmt_peers(ratio, sizeof ratio, x, named);
        if (x->threads > 0) snprintf(thr, sizeof thr, "%d", x->threads);
        else snprintf(thr, sizeof thr, "gpu");
        fprintf(f, "%-*s %-*s %-*s %3s %10s %10s %10s %*s ", variant_w, x->variant->name, params_w, params, size_w, x->size,
                thr, med, mn, mx, rate_w, rate);
        if (show_gbps) fprintf(f, "%8.1f ", x->gbps);
        fprintf(f, "%7s %9.2e %9.2e %7s %-7s %-5s %*s", pct, x->error, x->bound, elem, check_word(x), verdict(x),
                peer_w, ratio);
        if (any_gpu) {
            char a[32], h[32], d[32];
            fmt_ms(a, sizeof a, x->phase_s[PL_PHASE_ALLOC]);
            fmt_ms(h, sizeof h, x->phase_s[PL_PHASE_H2D]);
            fmt_ms(d, sizeof d, x->phase_s[PL_PHASE_D2H]);
            fprintf(f, " %9s %9s %9s", a, h, d);
        }
        if (x->noisy) fprintf(f, "  (noisy: max/min %.2f)", x->max_s / x->min_s);
        fputc('\n', f);
    }
}

void pl_report_footer(FILE *f, const pl_result *r, int n)
{
    /* The checks and bounds, once per kernel and precision present. */
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= r[j].kernel == r[i].kernel && r[j].variant->precision == r[i].variant->precision &&
                    r[j].check == r[i].check;
        if (seen) continue;
        const pl_result *x = &r[i];
        const char *prec = pl_precision_name(x->variant->precision);
        if (x->bound == 0) { /* exact: no precision word (an FP32 rung on int32 data is checked exactly) */
            fprintf(f, "check %s exact: equality with the reference (%s)\n", x->kernel->name,
                    x->last.how[0] ? x->last.how : check_word(x));
            continue;
        }
        fprintf(f, "check %s %s (%s): error = relative Frobenius, bound %s; elem = worst |out - ref| / its bound, "
                   "<= 1 passes: %s\n",
                x->kernel->name, prec, x->last.how[0] ? x->last.how : check_word(x), x->bound_why ? x->bound_why : "",
                x->elem_why ? x->elem_why : "");
    }
    int any_over = 0, any_cold = 0;
    for (int i = 0; i < n; i++) {
        const pl_result *x = &r[i];
        any_over |= x->over_ceiling;
        any_cold |= x->cold;
        if (!x->verified && x->failed_why[0]) {
            fprintf(f, "FAILED %s %s: %s\n", x->variant->name, x->size, x->failed_why);
        } else if (!x->verified) {
            const pl_check_result *c = (x->first.elem_ratio > 1 || !(x->first.error <= x->bound)) ? &x->first : &x->last;
            fprintf(f, "FAILED %s %s: %s%sworst element [%lld, %lld] of operand %d at %.3g x its bound (%s run)\n",
                    x->variant->name, x->size, x->inputs_ok ? "" : "changed an input; ",
                    x->padding_ok ? "" : "wrote into the row padding; ", (long long)c->row, (long long)c->col,
                    c->operand, c->elem_ratio, c == &x->first ? "first" : "last timed");
        }
    }
    if (any_over)
        fprintf(f, "!: above 100%% of its ceiling, which cannot be true: the peak is too low (a quick figure, or "
                   "measured on a busy machine: run `parlab peaks`), or the count of work is wrong\n");
    if (any_cold) fprintf(f, "caches: cold (flushed before each timed run)\n");
    if (peers_named(r, n))
        fprintf(f, "vs peer: each peer's median time / this variant's, for every peer on the same problem, "
                   "backend and precision (above 1: faster than that peer)\n");
    else
        fprintf(f, "vs peer: the peer's median time / this variant's (above 1: faster than the peer)\n");
}
