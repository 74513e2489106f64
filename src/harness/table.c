/* table.c: a bench run's results as a person reads them: peers paired with rungs by the
 * problem they ran on, the aligned table (or the same as Markdown), and the lines under it,
 * where a user's rung is placed between the built-in rungs just slower and just faster than it. (The files programs read,
 * JSON and CSV, are io's: io/results_json.c, io/results_csv.c.) */
#include "core/core.h"
#include "harness/harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* One row's cells as the table shows them; the Markdown table holds the same. */
typedef struct row_text {
    char name[80], params[128], thr[16], med[32], mn[32], mx[32], rate[48], gbps[32], pct[16], error[32], bound[32],
        elem[16], peer[160], alloc[32], h2d[32], d2h[32], noisy[48];
} row_text;

/* A user's rung is marked in the table: its name and " *" (the footer says what it means). */
static void row_cells(const pl_result *x, int one_unit, int named, row_text *c)
{
    snprintf(c->name, sizeof c->name, "%s%s", x->variant->name, x->variant->is_user ? " *" : "");
    pl_report_params(x, c->params, sizeof c->params);
    fmt_ms(c->med, sizeof c->med, x->median_s);
    fmt_ms(c->mn, sizeof c->mn, x->min_s);
    fmt_ms(c->mx, sizeof c->mx, x->max_s);
    if (x->ceiling_pct >= 0) snprintf(c->pct, sizeof c->pct, "%.1f%s", x->ceiling_pct, x->over_ceiling ? "!" : "");
    else snprintf(c->pct, sizeof c->pct, "-");
    if (one_unit) snprintf(c->rate, sizeof c->rate, "%.1f", x->rate);
    else snprintf(c->rate, sizeof c->rate, "%.1f %s", x->rate, pl_unit_rate_name(x->unit));
    snprintf(c->gbps, sizeof c->gbps, "%.1f", x->gbps);
    snprintf(c->error, sizeof c->error, "%.2e", x->error);
    snprintf(c->bound, sizeof c->bound, "%.2e", x->bound);
    double worst_elem = fmax(x->first.elem_ratio, x->last.elem_ratio);
    if (x->elem_bound > 0) snprintf(c->elem, sizeof c->elem, "%.2f", worst_elem);
    else snprintf(c->elem, sizeof c->elem, "%s", worst_elem > 0 ? "DIFF" : "exact");
    fmt_peers(c->peer, sizeof c->peer, x, named);
    if (x->threads > 0) snprintf(c->thr, sizeof c->thr, "%d", x->threads);
    else snprintf(c->thr, sizeof c->thr, "gpu");
    fmt_ms(c->alloc, sizeof c->alloc, x->phase_s[PL_PHASE_ALLOC]);
    fmt_ms(c->h2d, sizeof c->h2d, x->phase_s[PL_PHASE_H2D]);
    fmt_ms(c->d2h, sizeof c->d2h, x->phase_s[PL_PHASE_D2H]);
    c->noisy[0] = '\0';
    if (x->noisy) snprintf(c->noisy, sizeof c->noisy, "noisy: max/min %.2f", x->max_s / x->min_s);
}

/* What the table's columns depend on over all rows. */
typedef struct table_shape {
    int any_gpu, named, one_unit, show_gbps, any_noisy;
    const char *rate_name;
} table_shape;

static table_shape shape_of(const pl_result *r, int n)
{
    table_shape t = {0};
    t.named = peers_named(r, n);
    t.one_unit = n > 0 && same_unit(r, n);
    for (int i = 0; i < n; i++) {
        t.any_gpu |= r[i].phase_s[PL_PHASE_H2D] >= 0;
        t.any_noisy |= r[i].noisy;
    }
    t.rate_name = t.one_unit ? pl_unit_rate_name(r[0].unit) : "rate";
    /* GB/s beside the kernel's own rate, unless that rate is GB/s already. */
    t.show_gbps = !(t.one_unit && r[0].unit == PL_UNIT_BYTE);
    return t;
}

void pl_report_table(FILE *f, const pl_result *r, int n)
{
    /* The variant, params, size, rate and vs-peer columns widen to their longest entry. */
    const table_shape t = shape_of(r, n);
    int params_w = 22, peer_w = 8, variant_w = 18, size_w = 14, rate_w = 10;
    row_text c;
    for (int i = 0; i < n; i++) {
        row_cells(&r[i], t.one_unit, t.named, &c);
        if ((int)strlen(c.rate) > rate_w) rate_w = (int)strlen(c.rate);
        if ((int)strlen(c.name) > variant_w) variant_w = (int)strlen(c.name);
        if ((int)strlen(r[i].size) > size_w) size_w = (int)strlen(r[i].size);
        if ((int)strlen(c.params) > params_w) params_w = (int)strlen(c.params);
        if ((int)strlen(c.peer) > peer_w) peer_w = (int)strlen(c.peer);
    }
    fprintf(f, "%-*s %-*s %-*s %3s %10s %10s %10s %*s ", variant_w, "variant", params_w, "params", size_w, "size", "thr",
            "median ms", "min ms", "max ms", rate_w, t.rate_name);
    if (t.show_gbps) fprintf(f, "%8s ", "GB/s");
    fprintf(f, "%7s %9s %9s %7s %-7s %-5s %*s", "%peak", "error", "bound", "elem", "check", "ok", peer_w, "vs peer");
    if (t.any_gpu) fprintf(f, " %9s %9s %9s", "alloc ms", "h2d ms", "d2h ms");
    fputc('\n', f);
    for (int i = 0; i < n; i++) {
        const pl_result *x = &r[i];
        row_cells(x, t.one_unit, t.named, &c);
        fprintf(f, "%-*s %-*s %-*s %3s %10s %10s %10s %*s ", variant_w, c.name, params_w, c.params, size_w, x->size,
                c.thr, c.med, c.mn, c.mx, rate_w, c.rate);
        if (t.show_gbps) fprintf(f, "%8s ", c.gbps);
        fprintf(f, "%7s %9s %9s %7s %-7s %-5s %*s", c.pct, c.error, c.bound, c.elem, check_word(x), verdict(x), peer_w,
                c.peer);
        if (t.any_gpu) fprintf(f, " %9s %9s %9s", c.alloc, c.h2d, c.d2h);
        if (x->noisy) fprintf(f, "  (%s)", c.noisy);
        fputc('\n', f);
    }
}

void pl_report_markdown(FILE *f, const char *heading, const pl_result *r, int n)
{
    const table_shape t = shape_of(r, n);
    enum { MAX_COLS = 24 };
    const char *head[MAX_COLS];
    char align[MAX_COLS + 1];
    int n_cols = 0;
#define COLUMN(name, al) (head[n_cols] = (name), align[n_cols++] = (al))
    COLUMN("variant", 'l'), COLUMN("params", 'l'), COLUMN("size", 'l'), COLUMN("thr", 'r'), COLUMN("median ms", 'r');
    COLUMN("min ms", 'r'), COLUMN("max ms", 'r'), COLUMN(t.rate_name, 'r');
    if (t.show_gbps) COLUMN("GB/s", 'r');
    COLUMN("%peak", 'r'), COLUMN("error", 'r'), COLUMN("bound", 'r'), COLUMN("elem", 'r'), COLUMN("check", 'l');
    COLUMN("ok", 'l'), COLUMN("vs peer", 'r');
    if (t.any_gpu) COLUMN("alloc ms", 'r'), COLUMN("h2d ms", 'r'), COLUMN("d2h ms", 'r');
    if (t.any_noisy) COLUMN("note", 'l');
#undef COLUMN
    row_text *c = calloc((size_t)(n > 0 ? n : 1), sizeof *c);
    const char **cells = calloc((size_t)(n + 1) * n_cols, sizeof *cells);
    if (c && cells) {
        memcpy(cells, head, (size_t)n_cols * sizeof *cells);
        for (int i = 0; i < n; i++) {
            const pl_result *x = &r[i];
            row_cells(x, t.one_unit, t.named, &c[i]);
            const char **at = cells + (size_t)(i + 1) * n_cols;
            *at++ = c[i].name, *at++ = c[i].params, *at++ = x->size, *at++ = c[i].thr, *at++ = c[i].med;
            *at++ = c[i].mn, *at++ = c[i].mx, *at++ = c[i].rate;
            if (t.show_gbps) *at++ = c[i].gbps;
            *at++ = c[i].pct, *at++ = c[i].error, *at++ = c[i].bound, *at++ = c[i].elem, *at++ = check_word(x);
            *at++ = verdict(x), *at++ = c[i].peer;
            if (t.any_gpu) *at++ = c[i].alloc, *at++ = c[i].h2d, *at++ = c[i].d2h;
            if (t.any_noisy) *at++ = c[i].noisy;
        }
        fprintf(f, "%s\n\n", heading);
        pl_text_table_write(f, cells, n + 1, n_cols, align, 1);
    } else {
        fprintf(f, "%s\n\n(out of memory: no table)\n", heading);
    }
    free(c);
    free(cells);
    /* the lines under the table, each a paragraph of its own */
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return;
    pl_report_footer(m, r, n);
    fclose(m);
    for (char *line = text; line && *line;) {
        char *end = strchr(line, '\n');
        const int k = end ? (int)(end - line) : (int)strlen(line);
        fprintf(f, "\n%.*s\n", k, line);
        line = end ? end + 1 : line + k;
    }
    free(text);
}

pl_status pl_place_user_rung(const pl_result *r, int n, int i, pl_placement *pl)
{
    const pl_result *me = &r[i];
    pl_placement none = {-1, -1, {NAN, NAN, NAN, NAN, PL_VERDICT_NO_SAMPLES}, {NAN, NAN, NAN, NAN, PL_VERDICT_NO_SAMPLES}};
    *pl = none;
    if (!(me->median_s > 0)) return PL_OK;
    for (int j = 0; j < n; j++) {
        const pl_result *q = &r[j];
        if (j == i || q->variant->is_peer || q->variant->is_user || q->problem_id != me->problem_id ||
            q->variant->backend != me->variant->backend || !q->verified || !(q->median_s > 0))
            continue;
        if (q->median_s >= me->median_s) { /* no faster: below it, the fastest such */
            if (pl->below < 0 || q->median_s < r[pl->below].median_s) pl->below = j;
        } else if (pl->above < 0 || q->median_s > r[pl->above].median_s) {
            pl->above = j;
        }
    }
    pl_status s = PL_OK;
    if (pl->below >= 0)
        s = pl_compare_samples(r[pl->below].samples, r[pl->below].n_samples, me->samples, me->n_samples,
                               r[pl->below].median_s, me->median_s, &pl->vs_below);
    if (s == PL_OK && pl->above >= 0)
        s = pl_compare_samples(r[pl->above].samples, r[pl->above].n_samples, me->samples, me->n_samples,
                               r[pl->above].median_s, me->median_s, &pl->vs_above);
    return s;
}

/* "cuda-shared (1.83x, faster, p<0.001)": a rung beside a user's, and the user's speedup over it. */
static void fmt_neighbour(char *buf, size_t n, const pl_result *other, const pl_comparison *c)
{
    char p[32];
    pl_format_p(p, sizeof p, c->p);
    if (c->verdict == PL_VERDICT_NO_SAMPLES) snprintf(buf, n, "%s (%.2fx, no samples)", other->variant->name, c->speedup);
    else snprintf(buf, n, "%s (%.2fx, %s, %s)", other->variant->name, c->speedup, pl_verdict_name(c->verdict), p);
}

/* "mine 1024x1024x1024: between cuda-shared (1.83x, faster, p<0.001) and cuda-tuned (0.41x,
 * slower, p<0.001); 62% of the GPU FP32 FMA peak; 0.38x peer-cublas" */
static void placement_line(FILE *f, const pl_result *r, int n, int i)
{
    const pl_result *x = &r[i];
    fprintf(f, "%s %s: ", x->variant->name, x->size);
    pl_placement pl;
    if (!x->verified) {
        fprintf(f, "not placed: it failed its checks\n");
        return;
    }
    if (pl_place_user_rung(r, n, i, &pl) != PL_OK) {
        fprintf(f, "not placed: %s\n", pl_last_error());
        return;
    }
    char below[160], above[160];
    if (pl.below >= 0) fmt_neighbour(below, sizeof below, &r[pl.below], &pl.vs_below);
    if (pl.above >= 0) fmt_neighbour(above, sizeof above, &r[pl.above], &pl.vs_above);
    if (pl.below >= 0 && pl.above >= 0) fprintf(f, "between %s and %s", below, above);
    else if (pl.below >= 0) fprintf(f, "above every rung, the fastest %s", below);
    else if (pl.above >= 0) fprintf(f, "below every rung, the slowest %s", above);
    else fprintf(f, "no rung of the ladder ran on this problem and backend");
    if (x->ceiling_pct >= 0) fprintf(f, "; %.0f%% of the %s", x->ceiling_pct, x->ceiling_name);
    for (int k = 0; k < x->n_peers; k++) fprintf(f, "%s%.2fx %s", k ? ", " : "; ", x->peers[k].ratio, x->peers[k].name);
    fputc('\n', f);
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
    int any_user = 0;
    for (int i = 0; i < n; i++) any_user |= r[i].variant->is_user;
    if (!any_user) return;
    fprintf(f, "*: your rung, placed between the built-in rungs just slower and just faster on its problem and "
               "backend: their median time / yours (above 1: yours is faster); faster or slower only where the "
               "Mann-Whitney U test (p < 0.05) and the 95%% bootstrap interval of that ratio agree, else same\n");
    for (int i = 0; i < n; i++)
        if (r[i].variant->is_user) placement_line(f, r, n, i);
}
