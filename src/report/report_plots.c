/* report_plots.c: the plots of `parlab report`, each a figure of the page drawn with svg.h:
 * per kernel its ladder against the ceiling and the peer, a roofline per machine, rate against
 * working-set size, sweeps with the best setting marked, the phases of GPU runs, and runs side
 * by side. */
#include "report/report_parts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static report_figure *new_figure(report_page *pg, const char *stem, const char *heading, const char *caption)
{
    if (pg->n == pg->cap) {
        int cap = pg->cap ? pg->cap * 2 : 16;
        report_figure *f = realloc(pg->fig, (size_t)cap * sizeof *f);
        if (!f) {
            pg->failed = 1;
            return NULL;
        }
        pg->fig = f, pg->cap = cap;
    }
    report_figure *f = &pg->fig[pg->n];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%02d-%s", pg->n + 1, stem);
    for (char *c = f->name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-')) *c = '-';
    snprintf(f->heading, sizeof f->heading, "%s", heading);
    snprintf(f->caption, sizeof f->caption, "%s", caption);
    pg->n++;
    return f;
}

static int is_gpu(const report_result *r) { return !strcmp(r->backend, "cuda"); }

/* The results of kernel k at size (into idx); their count. */
static int results_at(const report_run *r, const char *k, const char *size, int *idx)
{
    int n = 0;
    for (int i = 0; i < r->n && size; i++)
        if (!strcmp(r->res[i].kernel, k) && !strcmp(r->res[i].size, size)) idx[n++] = i;
    return n;
}

/* The results of kernel k at its largest size (by work), into idx; their count. */
static int largest_size(const report_run *r, const char *k, int *idx)
{
    double best = -1;
    const char *size = NULL;
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->res[i].kernel, k) && r->res[i].work > best) best = r->res[i].work, size = r->res[i].size;
    return results_at(r, k, size, idx);
}

/* The largest size of kernel k that every run in has[] ran (NULL where there is none): runs side
 * by side compare like with like where they can. */
static const char *common_size(const report_run *runs, const int *has, int nh, const char *k)
{
    const report_run *first = &runs[has[0]];
    const char *size = NULL;
    double work = -1;
    for (int i = 0; i < first->n; i++) {
        const report_result *x = &first->res[i];
        if (strcmp(x->kernel, k) || x->work <= work) continue;
        int everywhere = 1;
        for (int h = 1; h < nh && everywhere; h++) {
            int found = 0;
            for (int j = 0; j < runs[has[h]].n && !found; j++)
                found = !strcmp(runs[has[h]].res[j].kernel, k) && !strcmp(runs[has[h]].res[j].size, x->size);
            everywhere = found;
        }
        if (everywhere) size = x->size, work = x->work;
    }
    return size;
}

static void subtitle(char *buf, size_t n, const report_run *r) { snprintf(buf, n, "%s - %s", r->label, r->date); }

/* The value of problem parameter `name` in x ("" where x does not record it). */
static const char *prob_value(const report_result *x, const char *name)
{
    for (int j = 0; j < x->n_prob; j++)
        if (!strcmp(x->prob_name[j], name)) return x->prob_val[j];
    return "";
}

/* Name each result's series: its variant and the problem parameters that differ between the
 * rows of its kernel over every run drawn ("cpu-simd axis=0"), so that two problems of one
 * kernel (reduce's axes, gemv's trans) never share a series, and their labels say which. */
static void name_series(report_run *runs, int nr)
{
    for (int q = 0; q < nr; q++)
        for (int i = 0; i < runs[q].n; i++) {
            report_result *a = &runs[q].res[i];
            size_t len = 0;
            a->tag[0] = 0;
            for (int j = 0; j < a->n_prob; j++) {
                int differs = 0;
                for (int q2 = 0; q2 < nr && !differs; q2++)
                    for (int i2 = 0; i2 < runs[q2].n && !differs; i2++) {
                        const report_result *b = &runs[q2].res[i2];
                        differs = !strcmp(b->kernel, a->kernel) && strcmp(prob_value(b, a->prob_name[j]), a->prob_val[j]);
                    }
                if (differs && len < sizeof a->tag) {
                    int k = snprintf(a->tag + len, sizeof a->tag - len, " %s=%s", a->prob_name[j], a->prob_val[j]);
                    if (k > 0) len += (size_t)k;
                }
            }
            snprintf(a->series, sizeof a->series, "%s%s", a->variant, a->tag);
        }
}

/* The results of kernel k to draw as its ladder (into idx; their count): for each problem of
 * k (its tag), its results at that problem's largest size (by work), problems in run order. */
static int ladder_results(const report_run *r, const char *k, int *idx)
{
    int n = 0;
    for (int i = 0; i < r->n; i++) {
        const report_result *a = &r->res[i];
        if (strcmp(a->kernel, k)) continue;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = !strcmp(r->res[j].kernel, k) && !strcmp(r->res[j].tag, a->tag);
        if (seen) continue;
        const report_result *big = a;
        for (int j = i; j < r->n; j++)
            if (!strcmp(r->res[j].kernel, k) && !strcmp(r->res[j].tag, a->tag) && r->res[j].work > big->work) big = &r->res[j];
        for (int j = i; j < r->n; j++)
            if (!strcmp(r->res[j].kernel, k) && !strcmp(r->res[j].tag, a->tag) && !strcmp(r->res[j].size, big->size))
                idx[n++] = j;
    }
    return n;
}

/* The flag of a bar over 100% of its ceiling: "!" and the % as the tables write it, over the
 * bar (at the axis top where the bar is cut off there, with its true value), never shown as
 * if the figure were true (docs/output.md). */
static void over_flag(plot *p, svg_buf *b, const report_result *x, double cx)
{
    const int clipped = x->rate > p->y.hi;
    const double top = plot_y(p, x->rate);
    char text[96], v[32];
    plot_format(v, sizeof v, x->rate);
    if (clipped) snprintf(text, sizeof text, "!%.3g%% (%s %s, cut off)", x->ceiling_pct, v, x->rate_unit);
    else snprintf(text, sizeof text, "!%.3g%%", x->ceiling_pct);
    svg_printf(b, "<g class=\"over-flag\" data-pct=\"%.6g\" data-value=\"%.6g\"%s><title>", x->ceiling_pct, x->rate,
               clipped ? " data-clipped=\"1\"" : "");
    svg_printf(b, "%s: %.4g %s is %.3g%% of its ceiling (%s): over 100%%, not a true figure (the ceiling or "
                  "the count is off)", x->series, x->rate, x->rate_unit, x->ceiling_pct, x->ceiling_name);
    svg_printf(b, "</title><circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"#c00\"/><text x=\"%.1f\" y=\"%.1f\" "
                  "text-anchor=\"middle\" font-size=\"11\" font-weight=\"bold\" fill=\"#fff\">!</text>",
               cx, top + (clipped ? 20 : 10), cx, top + (clipped ? 24 : 14));
    svg_printf(b, "<text class=\"over-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\" "
                  "font-weight=\"bold\" fill=\"#c00\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">",
               cx, clipped ? top + 40 : top - 4);
    svg_escaped(b, text);
    svg_printf(b, "</text></g>");
}

/* The ladder of kernel k: a bar a variant and problem at that problem's largest size (rungs
 * plain or hatched by backend, peers hatched apart; a user's rung's name marked *), named by
 * the problem parameters that set the problems apart; the ceiling over each bar as a dashed line with the % of it on the bar,
 * a bar over 100% flagged; the verification under the name. */
static void ladder_plot(report_page *pg, const report_run *r, const char *k)
{
    int *idx = malloc(sizeof(int) * (size_t)(r->n > 0 ? r->n : 1));
    if (!idx) {
        pg->failed = 1;
        return;
    }
    int n = ladder_results(r, k, idx);
    if (n == 0) {
        free(idx);
        return;
    }
    const report_result *first = &r->res[idx[0]];
    char heading[160], caption[1024], sub[256], ylabel[64], stem[96], sizes[96];
    snprintf(sizes, sizeof sizes, "size %s", first->size);
    for (int j = 1; j < n; j++) /* problems at different sizes: each named */
        if (strcmp(r->res[idx[j]].size, first->size)) {
            size_t len = (size_t)snprintf(sizes, sizeof sizes, "sizes");
            for (int a = 0; a < n && len < sizeof sizes; a++) {
                int seen = 0;
                for (int b = 0; b < a && !seen; b++) seen = !strcmp(r->res[idx[a]].size, r->res[idx[b]].size);
                if (!seen) len += (size_t)snprintf(sizes + len, sizeof sizes - len, "%s %s", a ? "," : "", r->res[idx[a]].size);
            }
            break;
        }
    snprintf(heading, sizeof heading, "%s: the ladder at %s", k, sizes);
    int any_over = 0, any_user = 0;
    for (int j = 0; j < n; j++) any_over |= r->res[idx[j]].ceiling_pct > 100, any_user |= r->res[idx[j]].user;
    snprintf(caption, sizeof caption, "Each bar is a variant's rate (%s, the median of its timed runs), named with the "
             "problem parameters that set its problem apart. The dashed line over a bar is its ceiling (the machine's "
             "measured peak that bounds it) and the %% on the bar is the share of it reached; peers are hatched. Under "
             "each name: the verification (the check, its error, ok or FAILED).%s%s", first->rate_unit,
             any_user ? " A name marked * is a user's rung (parlab bench --rung), placed among the built-in ones." : "",
             any_over ? " A bar flagged ! reached over 100% of its ceiling: not a true figure (the ceiling is below what "
                        "the kernel reaches, or its count is off); one past the axis top is cut off there, its value "
                        "written on it." : "");
    snprintf(stem, sizeof stem, "%s-ladder", k);
    report_figure *f = new_figure(pg, stem, heading, caption);
    if (!f) {
        free(idx);
        return;
    }
    /* the axis holds every ceiling and every bar not flagged: a bar over its ceiling does not
     * stretch it (it is cut off at the top instead) */
    double lo = INFINITY, hi = 0;
    for (int j = 0; j < n; j++) {
        const report_result *x = &r->res[idx[j]];
        if (x->rate > 0) lo = fmin(lo, x->rate);
        if (x->rate > 0 && !(x->ceiling_pct > 100)) hi = fmax(hi, x->rate);
        if (x->ceiling_pct > 0 && x->rate > 0) hi = fmax(hi, x->rate * 100 / x->ceiling_pct), lo = fmin(lo, x->rate * 100 / x->ceiling_pct);
    }
    if (!(hi > 0)) hi = 1, lo = 0.1;
    plot p;
    subtitle(sub, sizeof sub, r);
    snprintf(heading, sizeof heading, "%s %s: ladder", k, sizes);
    plot_begin(&p, &f->svg, 860, 440, heading, sub, n);
    snprintf(ylabel, sizeof ylabel, "rate (%s)", first->rate_unit);
    p.y.label = ylabel;
    p.y.log = hi / lo > 30;
    p.y.lo = p.y.log ? lo / 2 : 0, p.y.hi = hi * 1.12;
    plot_axes(&p);
    const char **labels = calloc((size_t)n, sizeof *labels);
    char (*lab)[256] = calloc((size_t)n, sizeof *lab);
    for (int j = 0; labels && lab && j < n; j++) {
        const report_result *x = &r->res[idx[j]];
        const int style = x->peer ? (is_gpu(x) ? 3 : 1) : (is_gpu(x) ? 2 : 0);
        const int over = x->ceiling_pct > 100;
        char tip[512], v[32], e[32];
        plot_format(v, sizeof v, x->rate);
        snprintf(tip, sizeof tip, "%s%s %s: %s %s, %s%s", x->series, x->user ? " (a user's rung)" : "", x->params, v,
                 x->rate_unit, x->ceiling_name, over ? " (over 100%: not a true figure)" : "");
        if (x->rate > 0) plot_bar(&p, j, 0, 1, x->rate, style, tip);
        const double cx = plot_cat_x(&p, j), slot = (p.right - p.left) / n;
        if (x->ceiling_pct > 0 && x->rate > 0) {
            const double cy = plot_y(&p, x->rate * 100 / x->ceiling_pct);
            svg_printf(&f->svg, "<line class=\"ceiling\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
                                "stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>", cx - slot * 0.45, cy, cx + slot * 0.45, cy);
            char pct[32];
            snprintf(pct, sizeof pct, "%.3g%%", x->ceiling_pct);
            if (over) over_flag(&p, &f->svg, x, cx);
            else plot_text(&p, cx, plot_y(&p, x->rate) - 4, "middle", pct, 1);
        }
        if (x->error == x->error) snprintf(e, sizeof e, "%.2g", x->error);
        else snprintf(e, sizeof e, "-");
        snprintf(lab[j], sizeof lab[j], "%s%s\n%s %s %s", x->series, x->user ? " *" : "", x->check, e,
                 x->passed ? "ok" : "FAILED");
        labels[j] = lab[j];
    }
    if (labels && lab) plot_cat_labels(&p, labels, n);
    static const char *const kinds[] = {"CPU rung", "CPU peer", "GPU rung", "GPU peer"};
    static const int kind_styles[] = {0, 1, 2, 3};
    int has[4] = {0, 0, 0, 0};
    for (int j = 0; j < n; j++) has[(r->res[idx[j]].peer ? 1 : 0) + (is_gpu(&r->res[idx[j]]) ? 2 : 0)] = 1;
    const char *names[4];
    int styles[4], m = 0;
    for (int i = 0; i < 4; i++)
        if (has[i]) names[m] = kinds[i], styles[m++] = kind_styles[i];
    const int bars[4] = {0, 0, 0, 0};
    plot_legend(&p, names, styles, bars, m);
    plot_end(&p);
    free(labels);
    free(lab);
    free(idx);
}

/* Every result with ops and bytes as a point (arithmetic intensity, achieved ops rate) under
 * the roofs of the run's machine. */
static void roofline_plot(report_page *pg, const report_run *r)
{
    int points = 0;
    double lo_x = INFINITY, hi_x = 0, lo_y = INFINITY, hi_y = 0;
    for (int i = 0; i < r->n; i++) {
        const report_result *x = &r->res[i];
        if (!(x->ops > 0 && x->bytes > 0 && x->median_s > 0)) continue;
        const double ai = x->ops / x->bytes, g = x->ops / x->median_s / 1e9;
        lo_x = fmin(lo_x, ai), hi_x = fmax(hi_x, ai), lo_y = fmin(lo_y, g), hi_y = fmax(hi_y, g);
        points++;
    }
    if (!points) return;
    const double roofs[][2] = {{r->cpu_flops, r->cpu_bw}, {r->cpu_iops, r->cpu_bw}, {r->gpu_flops, r->gpu_bw},
                               {r->gpu_tf32, r->gpu_bw}, {r->gpu_iops, r->gpu_bw}};
    static const char *const roof_names[] = {"CPU FP32 FMA peak / triad", "CPU int32 peak / triad",
                                             "GPU FP32 peak / copy", "GPU TF32 tensor peak / copy",
                                             "GPU int32 peak / copy"};
    for (int k = 0; k < 5; k++)
        if (roofs[k][0] > 0) hi_y = fmax(hi_y, roofs[k][0]);
    lo_x = fmin(lo_x, 0.05), hi_x = fmax(hi_x, 100);
    char sub[256];
    subtitle(sub, sizeof sub, r);
    report_figure *f = new_figure(pg, "roofline", "Roofline", "Every variant at every size as a point: arithmetic "
                           "intensity (the kernel's operations per byte it must move) against the operations per "
                           "second it reached; the lines are the roofs measured by parlab peaks (the compute peak, "
                           "and memory bandwidth times intensity). A point's distance below its roof is what is "
                           "left on the table. Markers by kernel.");
    if (!f) return;
    plot p;
    plot_begin(&p, &f->svg, 860, 480, "Roofline", sub, 0);
    p.x = (plot_axis){lo_x, hi_x, 1, "arithmetic intensity (operations per byte)"};
    p.y = (plot_axis){lo_y / 2, hi_y * 2, 1, "G operations/s reached"};
    plot_axes(&p);
    const char *names[PLOT_STYLES + 5];
    int styles[PLOT_STYLES + 5], kinds[PLOT_STYLES + 5], m = 0;
    static const int roof_styles[] = {4, 6, 0, 3, 1};
    for (int k = 0; k < 5; k++) {
        if (!(roofs[k][0] > 0 && roofs[k][1] > 0)) continue;
        double xs[64], ys[64];
        for (int t = 0; t < 64; t++) {
            xs[t] = p.x.lo * pow(p.x.hi / p.x.lo, t / 63.0);
            ys[t] = fmin(roofs[k][0], xs[t] * roofs[k][1]);
        }
        plot_line(&p, xs, ys, 64, roof_styles[k], 1);
        names[m] = roof_names[k], styles[m] = roof_styles[k], kinds[m++] = 1;
    }
    /* kernels in order of appearance, a marker style each */
    const char *kernels[PLOT_STYLES];
    int nk = 0;
    for (int i = 0; i < r->n; i++) {
        const report_result *x = &r->res[i];
        if (!(x->ops > 0 && x->bytes > 0 && x->median_s > 0)) continue;
        int k = 0;
        while (k < nk && strcmp(kernels[k], x->kernel)) k++;
        if (k == nk && nk < PLOT_STYLES) kernels[nk++] = x->kernel;
        char tip[256];
        snprintf(tip, sizeof tip, "%s %s %s", x->kernel, x->series, x->size);
        plot_marker(&p, x->ops / x->bytes, x->ops / x->median_s / 1e9, k, tip);
    }
    for (int k = 0; k < nk; k++) names[m] = kernels[k], styles[m] = k, kinds[m++] = 2;
    plot_legend(&p, names, styles, kinds, m);
    plot_end(&p);
}

/* Rate against working-set bytes, a line a series (a variant on one problem: reduce's axis 0
 * and axis 1 are two lines, never one zig-zag), for kernel k where a series has two sizes. */
static void scaling_plot(report_page *pg, const report_run *r, const char *k)
{
    const char *series[64];
    int ns = 0, sizes = 0;
    double lo_x = INFINITY, hi_x = 0, lo_y = INFINITY, hi_y = 0;
    const char *unit = "";
    for (int i = 0; i < r->n; i++) {
        const report_result *x = &r->res[i];
        if (strcmp(x->kernel, k) || !(x->rate > 0 && x->bytes > 0)) continue;
        int v = 0;
        while (v < ns && strcmp(series[v], x->series)) v++;
        if (v == ns && ns < 64) series[ns++] = x->series;
        for (int j = 0; j < i && !sizes; j++)
            sizes = !strcmp(r->res[j].kernel, k) && !strcmp(r->res[j].series, x->series) && strcmp(r->res[j].size, x->size);
        lo_x = fmin(lo_x, x->bytes), hi_x = fmax(hi_x, x->bytes), lo_y = fmin(lo_y, x->rate), hi_y = fmax(hi_y, x->rate);
        unit = x->rate_unit;
    }
    if (!sizes) return;
    char heading[160], sub[256], stem[96], ylabel[64];
    snprintf(heading, sizeof heading, "%s: rate against size", k);
    snprintf(stem, sizeof stem, "%s-scaling", k);
    report_figure *f = new_figure(pg, stem, heading, "Each line is a variant's rate on one problem (named by the problem "
                           "parameters that differ) at each size it ran, against the bytes the problem must move (log "
                           "axes): a drop where the working set leaves a cache level shows where that cache ends.");
    if (!f) return;
    subtitle(sub, sizeof sub, r);
    plot p;
    plot_begin(&p, &f->svg, 860, 440, heading, sub, 0);
    snprintf(ylabel, sizeof ylabel, "rate (%s)", unit);
    p.x = (plot_axis){lo_x, hi_x, 1, "bytes the problem moves (working set)"};
    p.y = (plot_axis){lo_y, hi_y, 1, ylabel};
    plot_axes(&p);
    int styles[64];
    for (int v = 0; v < ns; v++) {
        double xs[256], ys[256];
        int n = 0;
        for (int i = 0; i < r->n && n < 256; i++) {
            const report_result *x = &r->res[i];
            if (strcmp(x->kernel, k) || strcmp(x->series, series[v]) || !(x->rate > 0 && x->bytes > 0)) continue;
            xs[n] = x->bytes, ys[n] = x->rate;
            n++;
        }
        for (int a = 1; a < n; a++) /* by size */
            for (int b = a; b > 0 && xs[b - 1] > xs[b]; b--) {
                double t = xs[b]; xs[b] = xs[b - 1], xs[b - 1] = t;
                t = ys[b]; ys[b] = ys[b - 1], ys[b - 1] = t;
            }
        svg_printf(&f->svg, "<g class=\"line\" data-series=\"");
        svg_escaped(&f->svg, series[v]);
        svg_printf(&f->svg, "\">");
        plot_line(&p, xs, ys, n, v, 1);
        for (int i = 0; i < n; i++) {
            char tip[320];
            snprintf(tip, sizeof tip, "%s: %.4g %s at %.4g bytes", series[v], ys[i], unit, xs[i]);
            plot_marker(&p, xs[i], ys[i], v, tip);
        }
        svg_printf(&f->svg, "</g>");
        styles[v] = v;
    }
    int lines[64];
    for (int v = 0; v < ns; v++) lines[v] = 1;
    plot_legend(&p, series, styles, lines, ns < 16 ? ns : 16);
    plot_end(&p);
}

/* A sweep: for each (kernel, variant, size) with two settings or more, a bar a setting, the
 * best one marked. */
static void sweep_plots(report_page *pg, const report_run *r)
{
    for (int i = 0; i < r->n; i++) {
        const report_result *a = &r->res[i];
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = !strcmp(r->res[j].kernel, a->kernel) && !strcmp(r->res[j].series, a->series) &&
                   !strcmp(r->res[j].size, a->size);
        if (seen) continue;
        int idx[256], n = 0, best = -1;
        for (int j = i; j < r->n && n < 256; j++) {
            const report_result *b = &r->res[j];
            if (strcmp(b->kernel, a->kernel) || strcmp(b->series, a->series) || strcmp(b->size, a->size)) continue;
            idx[n] = j;
            if (b->rate > 0 && (best < 0 || b->rate > r->res[idx[best]].rate)) best = n;
            n++;
        }
        if (n < 2 || best < 0) continue;
        char heading[320], sub[256], stem[96], ylabel[64], cap[400];
        snprintf(heading, sizeof heading, "%s %s at %s: the sweep", a->kernel, a->series, a->size);
        snprintf(stem, sizeof stem, "%s-%s-sweep", a->kernel, a->variant);
        snprintf(cap, sizeof cap, "Each bar is one setting of the variant's parameters; the best (highest rate) is "
                 "drawn apart and named: %s.", r->res[idx[best]].params);
        report_figure *f = new_figure(pg, stem, heading, cap);
        if (!f) return;
        subtitle(sub, sizeof sub, r);
        plot p;
        plot_begin(&p, &f->svg, 860, 420, heading, sub, n);
        double hi = 0;
        for (int j = 0; j < n; j++) hi = fmax(hi, r->res[idx[j]].rate);
        snprintf(ylabel, sizeof ylabel, "rate (%s)", a->rate_unit);
        p.y = (plot_axis){0, hi > 0 ? hi * 1.12 : 1, 0, ylabel};
        plot_axes(&p);
        const char *labels[256];
        for (int j = 0; j < n; j++) {
            const report_result *x = &r->res[idx[j]];
            char tip[256];
            snprintf(tip, sizeof tip, "%s: %.4g %s", x->params, x->rate, x->rate_unit);
            if (x->rate > 0) plot_bar(&p, j, 0, 1, x->rate, j == best ? 1 : 0, tip);
            labels[j] = x->params[0] ? x->params : "(defaults)";
        }
        plot_text(&p, plot_cat_x(&p, best), plot_y(&p, r->res[idx[best]].rate) - 6, "middle", "best", 0);
        plot_cat_labels(&p, labels, n);
        plot_end(&p);
    }
}

/* Where a GPU run's time goes: a stacked bar a result (alloc, H2D, kernel, D2H). */
static void phases_plot(report_page *pg, const report_run *r)
{
    int idx[64], n = 0;
    for (int i = 0; i < r->n && n < 64; i++)
        if (is_gpu(&r->res[i]) && r->res[i].phase[1] >= 0 && r->res[i].phase[2] >= 0) idx[n++] = i;
    if (!n) return;
    char sub[256];
    subtitle(sub, sizeof sub, r);
    report_figure *f = new_figure(pg, "gpu-phases", "Where the time of a GPU run goes", "Each bar is one GPU run split "
                           "into its phases: device allocation, the copies to the device (H2D), the kernel, the "
                           "copies back (D2H), each measured on its own (milliseconds).");
    if (!f) return;
    plot p;
    plot_begin(&p, &f->svg, 860, 460, "GPU run phases", sub, n);
    double hi = 0;
    for (int j = 0; j < n; j++) {
        double t = 0;
        for (int q = 0; q < PHASES; q++) t += r->res[idx[j]].phase[q] > 0 ? r->res[idx[j]].phase[q] : 0;
        hi = fmax(hi, t * 1e3);
    }
    p.y = (plot_axis){0, hi > 0 ? hi * 1.1 : 1, 0, "milliseconds"};
    plot_axes(&p);
    const char *labels[64];
    char lab[64][96];
    for (int j = 0; j < n; j++) {
        const report_result *x = &r->res[idx[j]];
        double base = 0;
        const double slot = (p.right - p.left) / n, bw = slot * 0.6, cx = plot_cat_x(&p, j);
        for (int q = 0; q < PHASES; q++) {
            const double ms = x->phase[q] > 0 ? x->phase[q] * 1e3 : 0;
            if (ms <= 0) continue;
            const double y0 = plot_y(&p, base), y1 = plot_y(&p, base + ms);
            svg_printf(&f->svg, "<g class=\"bar phase\" data-value=\"%.6g\"><title>%s %s: %.4g ms</title>"
                                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"#222\"/>",
                       ms, x->variant, report_phase_names[q], ms, cx - bw / 2, y1, bw, y0 - y1, plot_colour(q));
            if (q) svg_printf(&f->svg, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"url(#pl-hatch%d)\"/>",
                              cx - bw / 2, y1, bw, y0 - y1, q);
            svg_printf(&f->svg, "</g>");
            base += ms;
        }
        snprintf(lab[j], sizeof lab[j], "%s\n%s", x->variant, x->size);
        labels[j] = lab[j];
    }
    plot_cat_labels(&p, labels, n);
    const int styles[PHASES] = {0, 1, 2, 3}, swatches[PHASES] = {0, 0, 0, 0};
    plot_legend(&p, report_phase_names, styles, swatches, PHASES);
    plot_end(&p);
}

/* Kernel k in several runs (sweeps left out): a group a series (a variant on one problem), a bar a run that has it (each
 * run at its largest size for k, the best setting where a variant ran several). */
static void side_by_side_plot(report_page *pg, const report_run *runs, int nr, const char *k)
{
    const char *vars[64];
    int nv = 0, has[64], nh = 0;
    for (int q = 0; q < nr && nh < 64; q++) {
        if (runs[q].sweep) continue;
        int any = 0;
        for (int i = 0; i < runs[q].n; i++) {
            if (strcmp(runs[q].res[i].kernel, k)) continue;
            any = 1;
            int v = 0;
            while (v < nv && strcmp(vars[v], runs[q].res[i].series)) v++;
            if (v == nv && nv < 64) vars[nv++] = runs[q].res[i].series;
        }
        if (any) has[nh++] = q;
    }
    if (nh < 2 || !nv) return;
    char heading[160], stem[96], sub[64], ylabel[64];
    snprintf(heading, sizeof heading, "%s: the runs side by side", k);
    snprintf(stem, sizeof stem, "%s-side-by-side", k);
    report_figure *f = new_figure(pg, stem, heading, "Each group is a variant, a bar for each run that has it (at the "
                           "largest size every run has, else at each run's largest): two machines, or one before "
                           "and after a change.");
    if (!f) return;
    snprintf(sub, sizeof sub, "%d runs", nh);
    plot p;
    plot_begin(&p, &f->svg, 860, 460, heading, sub, nv);
    double lo = INFINITY, hi = 0;
    const char *unit = "";
    for (int h = 0; h < nh; h++)
        for (int i = 0; i < runs[has[h]].n; i++) {
            const report_result *x = &runs[has[h]].res[i];
            if (!strcmp(x->kernel, k) && x->rate > 0) lo = fmin(lo, x->rate), hi = fmax(hi, x->rate), unit = x->rate_unit;
        }
    if (!(hi > 0)) hi = 1, lo = 0.1;
    snprintf(ylabel, sizeof ylabel, "rate (%s)", unit);
    p.y.label = ylabel;
    p.y.log = hi / lo > 30;
    p.y.lo = p.y.log ? lo / 2 : 0, p.y.hi = hi * 1.12;
    plot_axes(&p);
    const char *names[8];
    char nm[8][320];
    int styles[8], swatches[8] = {0}, m = 0;
    int *idx = NULL;
    const char *same = common_size(runs, has, nh, k);
    for (int h = 0; h < nh; h++) {
        const report_run *r = &runs[has[h]];
        int *grown = realloc(idx, sizeof(int) * (size_t)(r->n > 0 ? r->n : 1));
        if (!grown) break;
        idx = grown;
        const int n = same ? results_at(r, k, same, idx) : largest_size(r, k, idx);
        for (int v = 0; v < nv; v++) { /* the best result of variant v */
            const report_result *best = NULL;
            for (int j = 0; j < n; j++) {
                const report_result *x = &r->res[idx[j]];
                if (!strcmp(x->series, vars[v]) && x->rate > 0 && (!best || x->rate > best->rate)) best = x;
            }
            if (!best) continue;
            char tip[400];
            snprintf(tip, sizeof tip, "%s, %s at %s: %.4g %s", r->label, best->series, best->size, best->rate,
                     best->rate_unit);
            plot_bar(&p, v, h, nh, best->rate, h, tip);
        }
        if (m < 8 && n) {
            snprintf(nm[m], sizeof nm[m], "%s (%s), size %s", r->label, r->date, r->res[idx[0]].size);
            names[m] = nm[m], styles[m++] = h;
        }
    }
    free(idx);
    plot_cat_labels(&p, vars, nv);
    plot_legend(&p, names, styles, swatches, m);
    plot_end(&p);
}

void report_draw_plots(report_page *pg, report_run *runs, int n)
{
    name_series(runs, n);
    /* per run: each kernel's ladder and scaling, its roofline and GPU phases; a sweep file its
     * sweeps alone (its runs are one variant's settings: their roofline and phases would repeat
     * the bench run's) */
    for (int q = 0; q < n; q++) {
        const report_run *r = &runs[q];
        for (int i = 0; i < r->n; i++) {
            int seen = 0;
            for (int j = 0; j < i && !seen; j++) seen = !strcmp(r->res[j].kernel, r->res[i].kernel);
            if (seen) continue;
            if (r->sweep) continue;
            ladder_plot(pg, r, r->res[i].kernel);
            scaling_plot(pg, r, r->res[i].kernel);
        }
        if (r->sweep) {
            sweep_plots(pg, r);
            continue;
        }
        roofline_plot(pg, r);
        phases_plot(pg, r);
    }
    if (n > 1) /* each kernel that two runs or more have */
        for (int q = 0; q < n; q++)
            for (int i = 0; i < runs[q].n; i++) {
                int seen = 0;
                for (int a = 0; a <= q && !seen; a++)
                    for (int j = 0; j < (a == q ? i : runs[a].n) && !seen; j++)
                        seen = !strcmp(runs[a].res[j].kernel, runs[q].res[i].kernel);
                if (!seen) side_by_side_plot(pg, runs, n, runs[q].res[i].kernel);
            }
}
