/* report.c: results as a person reads them (an aligned table and the lines under it) and as
 * programs read them (JSON and CSV, schema in docs/output.md); peers paired with rungs by
 * the problem they ran on. Files are written as io.h's outputs (a temporary name renamed, a
 * device or FIFO written through, "-" standard output), so a failed run leaves no partial file. */
#include "core/core.h"
#include "harness/harness.h"
#include "io/io.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
        if (!x->verified) {
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

/* ---------------------------------------------------------------- files */

static void json_string(FILE *f, const char *s);
static void json_num(FILE *f, double x, int known);

/* The outputs open now, each its stream and its io output (pl_tmp: a temporary file to rename,
 * or a device, FIFO or standard output written through), so that close_and_rename finds the
 * output of a stream. Written from one thread; a handful at most are open at once. */
enum { N_OPEN = 8 };
static struct {
    FILE *f;
    pl_tmp t;
} open_outputs[N_OPEN];

/* path opened for writing through pl_tmp_open (io.h), as a stream; tmp gets the temporary
 * file's name ("" when written through). NULL with the failure recorded (pl_last_error). */
static FILE *open_temp(const char *path, char *tmp, size_t n)
{
    int slot = 0;
    while (slot < N_OPEN && open_outputs[slot].f) slot++;
    if (slot == N_OPEN) {
        pl_fail(PL_ERR_INTERNAL, "%s: too many outputs open at once", path);
        return NULL;
    }
    pl_tmp *t = &open_outputs[slot].t;
    if (pl_tmp_open(path, t) != PL_OK) return NULL;
    FILE *f = fdopen(t->fd, "w");
    if (!f) {
        pl_tmp_close(path, t, pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(errno)));
        return NULL;
    }
    t->fd = -1; /* the stream owns it */
    snprintf(tmp, n, "%s", t->name ? t->name : "");
    open_outputs[slot].f = f;
    return f;
}

/* Close the stream; on success the temporary file becomes path, else it is removed. */
static pl_status close_and_rename(FILE *f, const char *tmp, const char *path)
{
    (void)tmp;
    int slot = 0;
    while (slot < N_OPEN && open_outputs[slot].f != f) slot++;
    if (slot == N_OPEN) return pl_fail(PL_ERR_INTERNAL, "%s: not an output open here", path);
    int bad = ferror(f);
    int e = bad ? EIO : 0;
    if (fclose(f) != 0 && !bad) bad = 1, e = errno;
    open_outputs[slot].f = NULL;
    pl_status st = bad ? pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(e)) : PL_OK;
    return pl_tmp_close(path, &open_outputs[slot].t, st);
}

/* (kept for the callers of parlab.h: the io module's pre-flight check) */
pl_status pl_report_path_writable(const char *path) { return pl_output_check(path); }

void pl_json_write_string(FILE *f, const char *s) { json_string(f, s); }
void pl_json_write_num(FILE *f, double x) { json_num(f, x, 1); }

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

/* A number, or null where it is unknown or not finite (JSON has no NaN). */
static void json_num(FILE *f, double x, int known)
{
    if (known && isfinite(x)) fprintf(f, "%.9g", x);
    else fputs("null", f);
}

static void json_check(FILE *f, const char *name, const pl_check_result *c)
{
    fprintf(f, "\"%s\": {\"error\": ", name);
    json_num(f, c->error, 1);
    fprintf(f, ", \"elem_ratio\": ");
    json_num(f, c->elem_ratio, 1);
    fprintf(f, ", \"worst\": [%d, %lld, %lld], \"checked\": %lld, \"how\": ", c->operand, (long long)c->row,
            (long long)c->col, (long long)c->checked);
    json_string(f, c->how);
    fputc('}', f);
}

static void json_machine(FILE *f, const pl_report_info *rc)
{
    unsigned feat = pl_features();
    fprintf(f, "  \"machine\": {\"cpu\": ");
    json_string(f, pl_cpu_name());
    fprintf(f, ", \"cores\": %d, \"avx2\": %s, \"avx512\": %s, \"gpu\": ", pl_cpu_cores(),
            (feat & PL_FEAT_AVX2) ? "true" : "false", (feat & PL_FEAT_AVX512) ? "true" : "false");
    json_string(f, pl_gpu_name());
    const pl_peaks *pk = rc ? rc->peaks : NULL;
    fprintf(f, ",\n    \"peaks\": ");
    if (pk && pk->valid) {
        fprintf(f, "{\"cpu_gflops_avx512\": [%.6g, %.6g], \"cpu_gflops_avx2\": [%.6g, %.6g], "
                   "\"cpu_triad_gbps\": %.6g, \"gpu_gflops_fp32\": %.6g, \"gpu_copy_gbps\": %.6g, "
                   "\"gpu_gflops_tf32\": %.6g, \"cpu_gops_int32\": [%.6g, %.6g], \"gpu_gops_int32\": %.6g",
                pk->cpu_gflops_avx512[0], pk->cpu_gflops_avx512[1], pk->cpu_gflops_avx2[0],
                pk->cpu_gflops_avx2[1], pk->cpu_triad_gbps, pk->gpu_gflops_fp32, pk->gpu_copy_gbps,
                pk->gpu_gflops_tf32, pk->cpu_gops_int32[0], pk->cpu_gops_int32[1], pk->gpu_gops_int32);
        /* the streams the memory bound uses, and how the figures were taken (docs/output.md) */
        fprintf(f, ", \"cpu_read_gbps\": %.6g, \"cpu_write_gbps\": %.6g, \"cpu_copy_gbps\": %.6g, "
                   "\"cpu_cache_bytes\": %.6g, \"cpu_cache_read_gbps\": %.6g, \"cpu_cache_copy_gbps\": %.6g, "
                   "\"gpu_read_gbps\": %.6g, \"gpu_write_gbps\": %.6g, \"gpu_cache_bytes\": %.6g, "
                   "\"gpu_cache_read_gbps\": %.6g, \"gpu_cache_copy_gbps\": %.6g, \"cpu_mode\": ",
                pk->cpu_read_gbps, pk->cpu_write_gbps, pk->cpu_copy_gbps, pk->cpu_cache_bytes,
                pk->cpu_cache_read_gbps, pk->cpu_cache_copy_gbps, pk->gpu_read_gbps, pk->gpu_write_gbps,
                pk->gpu_cache_bytes, pk->gpu_cache_read_gbps, pk->gpu_cache_copy_gbps);
        json_string(f, pk->cpu_mode);
        fprintf(f, ", \"gpu_mode\": ");
        json_string(f, pk->gpu_mode);
        fprintf(f, ", \"measured\": ");
        json_string(f, pk->measured);
        fprintf(f, ", \"load1\": ");
        json_num(f, pk->load1, pk->load1 >= 0);
        fprintf(f, ", \"spread\": %.4g, \"sane\": %s, \"sanity\": ", pk->spread, pk->sane ? "true" : "false");
        json_string(f, pk->sanity);
        fprintf(f, ", \"cached\": %s, \"implicit\": %s}", pk->cached ? "true" : "false",
                pk->implicit ? "true" : "false");
    } else {
        fputs("null", f);
    }
    fprintf(f, "},\n  \"build\": {\"version\": \"%s\", \"cuda\": %s, \"openblas\": %s, \"compiler\": ",
            PARLAB_VERSION, (feat & PL_FEAT_CUDA_BUILD) ? "true" : "false",
            (feat & PL_FEAT_OPENBLAS) ? "true" : "false");
    json_string(f, __VERSION__);
    fprintf(f, "},\n  \"command\": ");
    json_string(f, rc && rc->command ? rc->command : "");
    /* when the file was written, UTC (the report titles its plots with it) */
    char date[32] = "";
    const time_t now = time(NULL);
    struct tm utc;
    if (gmtime_r(&now, &utc)) strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    fprintf(f, ",\n  \"date\": ");
    json_string(f, date);
    fprintf(f, ",\n");
}

FILE *pl_report_json_open(const char *path, const char *schema, const pl_report_info *rc, char *tmp, size_t n)
{
    FILE *f = open_temp(path, tmp, n); /* NULL: the failure is recorded */
    if (!f) return NULL;
    fprintf(f, "{\n  \"schema\": ");
    json_string(f, schema);
    fprintf(f, ",\n");
    json_machine(f, rc);
    return f;
}

pl_status pl_report_json_close(FILE *f, const char *tmp, const char *path) { return close_and_rename(f, tmp, path); }

/* "problem": the kernel's problem parameters as the row ran them (op, axis, trans, k, rule...):
 * what tells two problems of one size apart (parlab report keeps their series apart by it).
 * Choices by name, a text as given (null: the default), numbers as numbers. */
static void json_problem(FILE *f, const pl_kernel *k, const pl_pvalues *pv)
{
    if (!pv) return;
    fprintf(f, "\"problem\": {");
    for (int i = 0; i < k->n_problem_params && i < PL_MAX_PARAMS; i++) {
        const pl_param_def *p = &k->problem_params[i];
        fprintf(f, "%s\"%s\": ", i ? ", " : "", p->name);
        if (p->kind == PL_PARAM_CHOICE) json_string(f, p->choices[(int)pv->num[i]]);
        else if (p->kind == PL_PARAM_STRING && pv->str[i]) json_string(f, pv->str[i]);
        else if (p->kind == PL_PARAM_STRING) fputs("null", f);
        else json_num(f, pv->num[i], 1);
    }
    fprintf(f, "}, ");
}

pl_status pl_report_json(const char *path, const pl_result *r, int n, const pl_report_info *rc)
{
    char tmp[4096];
    FILE *f = pl_report_json_open(path, "parlab-bench/2", rc, tmp, sizeof tmp);
    if (!f) return PL_ERR_IO;
    fprintf(f, "  \"results\": [\n");
    for (int i = 0; i < n; i++) {
        const pl_result *x = &r[i];
        fprintf(f, "    {\"kernel\": \"%s\", \"variant\": \"%s\", \"backend\": \"%s\", \"precision\": \"%s\", "
                   "\"peer\": %s, \"params\": {",
                x->kernel->name, x->variant->name, pl_backend_name(x->variant->backend),
                pl_precision_name(x->variant->precision), x->variant->is_peer ? "true" : "false");
        for (int j = 0; j < x->variant->n_params; j++) {
            const pl_param_def *p = &x->variant->params[j];
            fprintf(f, "%s\"%s\": ", j ? ", " : "", p->name);
            if (p->kind == PL_PARAM_CHOICE) json_string(f, p->choices[x->params[j]]);
            else fprintf(f, "%lld", (long long)x->params[j]);
        }
        fprintf(f, "},\n     ");
        json_problem(f, x->kernel, rc ? rc->problem : NULL);
        fprintf(f, "\"size\": ");
        json_string(f, x->size);
        fprintf(f, ", \"threads\": %d, \"repeats\": %d, \"cold\": %s, \"median_s\": ", x->threads, x->repeats,
                x->cold ? "true" : "false");
        json_num(f, x->median_s, 1);
        fprintf(f, ", \"min_s\": ");
        json_num(f, x->min_s, 1);
        fprintf(f, ", \"max_s\": ");
        json_num(f, x->max_s, 1);
        fprintf(f, ", \"noisy\": %s,\n     \"phases_s\": {", x->noisy ? "true" : "false");
        for (int p = 0; p < PL_N_PHASES; p++) {
            fprintf(f, "%s\"%s\": ", p ? ", " : "", pl_phase_name(p));
            json_num(f, x->phase_s[p], x->phase_s[p] >= 0);
        }
        fprintf(f, "},\n     \"unit\": \"%s\", \"work\": %.6g, \"rate\": ", pl_unit_name(x->unit), x->work);
        json_num(f, x->rate, 1);
        fprintf(f, ", \"rate_unit\": \"%s\", \"ops\": %.6g, \"bytes\": %.6g, \"gbps\": ", pl_unit_rate_name(x->unit),
                x->ops, x->bytes);
        json_num(f, x->gbps, 1);
        fprintf(f, ", \"ceiling\": {\"name\": ");
        json_string(f, x->ceiling_name);
        fprintf(f, ", \"pct\": ");
        json_num(f, x->ceiling_pct, x->ceiling_pct >= 0);
        fprintf(f, ", \"over\": %s},\n     \"verification\": {\"check\": \"%s\", \"error\": ",
                x->over_ceiling ? "true" : "false", pl_check_name(x->check));
        json_num(f, x->error, 1);
        fprintf(f, ", \"bound\": %.6g, \"bound_why\": ", x->bound);
        json_string(f, x->bound_why);
        fprintf(f, ", \"elem_bound\": %.6g, \"elem_why\": ", x->elem_bound);
        json_string(f, x->elem_why);
        fprintf(f, ",\n       ");
        json_check(f, "first", &x->first);
        fprintf(f, ",\n       ");
        json_check(f, "last", &x->last);
        fprintf(f, ",\n       \"passed\": %s, \"padding_ok\": %s, \"inputs_ok\": %s},\n     \"peers\": [",
                x->verified ? "true" : "false", x->padding_ok ? "true" : "false", x->inputs_ok ? "true" : "false");
        for (int k = 0; k < x->n_peers; k++) {
            fprintf(f, "%s{\"name\": ", k ? ", " : "");
            json_string(f, x->peers[k].name);
            fprintf(f, ", \"ratio\": ");
            json_num(f, x->peers[k].ratio, 1);
            fputc('}', f);
        }
        fprintf(f, "]}%s\n", i + 1 < n ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return close_and_rename(f, tmp, path);
}

pl_status pl_report_csv(const char *path, const pl_result *r, int n, const pl_report_info *rc)
{
    (void)rc;
    char tmp[4096];
    FILE *f = open_temp(path, tmp, sizeof tmp);
    if (!f) return PL_ERR_IO; /* the message is recorded */
    fprintf(f, "machine,gpu,build,kernel,variant,backend,precision,peer,params,size,threads,repeats,cold,median_s,"
               "min_s,max_s,alloc_s,h2d_s,kernel_s,d2h_s,unit,work,rate,rate_unit,ops,bytes,gbps,ceiling,ceiling_pct,"
               "over_ceiling,check,error,bound,elem_ratio,elem_bound,passed,peer_name,peer_ratio,peer2_name,peer2_ratio\n");
    for (int i = 0; i < n; i++) {
        const pl_result *x = &r[i];
        char params[128];
        pl_report_params(x, params, sizeof params);
        for (char *c = params; *c; c++)
            if (*c == ',') *c = ';'; /* keep one CSV field */
        fprintf(f, "\"%s\",\"%s\",%s%s,%s,%s,%s,%s,%d,\"%s\",\"%s\",%d,%d,%d,%.9g,%.9g,%.9g", pl_cpu_name(),
                pl_gpu_name(), PARLAB_VERSION, (pl_features() & PL_FEAT_CUDA_BUILD) ? "+cuda" : "",
                x->kernel->name, x->variant->name, pl_backend_name(x->variant->backend),
                pl_precision_name(x->variant->precision), x->variant->is_peer, params, x->size, x->threads,
                x->repeats, x->cold, x->median_s, x->min_s, x->max_s);
        for (int p = 0; p < PL_N_PHASES; p++) {
            if (x->phase_s[p] >= 0) fprintf(f, ",%.9g", x->phase_s[p]);
            else fputs(",", f);
        }
        fprintf(f, ",%s,%.6g,%.6g,%s,%.6g,%.6g,%.6g,\"%s\",", pl_unit_name(x->unit), x->work, x->rate,
                pl_unit_rate_name(x->unit), x->ops, x->bytes, x->gbps, x->ceiling_name);
        if (x->ceiling_pct >= 0) fprintf(f, "%.4g", x->ceiling_pct);
        fprintf(f, ",%d,%s,%.6g,%.6g,%.6g,%.6g,%d", x->over_ceiling, pl_check_name(x->check), x->error, x->bound,
                fmax(x->first.elem_ratio, x->last.elem_ratio), x->elem_bound, x->verified);
        for (int k = 0; k < 2; k++) { /* the first two peers; the JSON has them all */
            if (k < x->n_peers) fprintf(f, ",%s,%.4g", x->peers[k].name, x->peers[k].ratio);
            else fputs(",,", f);
        }
        fputc('\n', f);
    }
    return close_and_rename(f, tmp, path);
}
