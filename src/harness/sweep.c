/* sweep.c: the parameter study as library calls: the values of each swept parameter, their
 * cartesian product, and the best verified result on a problem. `parlab sweep` only formats. */
#include "core/core.h"
#include "harness/harness.h"

#include <stdio.h>
#include <string.h>

pl_status pl_sweep_axis_parse(const pl_variant *v, const char *spec, pl_sweep_axis *ax)
{
    memset(ax, 0, sizeof *ax);
    const char *eq = spec ? strchr(spec, '=') : NULL;
    if (!eq || eq == spec) return pl_fail(PL_ERR_ARG, "--param '%s': expected NAME=v1,v2,...", spec ? spec : "");
    size_t len = (size_t)(eq - spec);
    ax->param = -1;
    for (int j = 0; j < v->n_params; j++)
        if (strlen(v->params[j].name) == len && !strncmp(v->params[j].name, spec, len)) ax->param = j;
    if (ax->param < 0)
        return pl_fail(PL_ERR_ARG, "--param: %s has no parameter '%.*s' (parlab list shows its parameters)", v->name,
                       (int)len, spec);
    const pl_param_def *p = &v->params[ax->param];
    const char *list = eq + 1;
    if (!strcmp(list, "all")) {
        if (p->kind == PL_PARAM_LIST) {
            for (int j = 0; j < p->n_values && j < PL_SWEEP_MAX_VALUES; j++) ax->values[ax->n++] = p->values[j];
        } else if (p->kind == PL_PARAM_CHOICE) {
            for (int j = 0; p->choices[j] && j < PL_SWEEP_MAX_VALUES; j++) ax->values[ax->n++] = j;
        } else {
            return pl_fail(PL_ERR_ARG, "--param %s=all: a range parameter needs its values listed", p->name);
        }
        return PL_OK;
    }
    char item[128];
    for (const char *s = list; ; ) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        if (n == 0 || n >= sizeof item) return pl_fail(PL_ERR_ARG, "--param %s: empty or over-long value in '%s'", p->name, list);
        memcpy(item, s, n);
        item[n] = '\0';
        if (ax->n == PL_SWEEP_MAX_VALUES)
            return pl_fail(PL_ERR_ARG, "--param %s: more than %d values", p->name, PL_SWEEP_MAX_VALUES);
        double x;
        pl_status st = pl_param_parse(p, item, &x);
        if (st != PL_OK) return st;
        for (int j = 0; j < ax->n; j++)
            if (ax->values[j] == (int64_t)x) return pl_fail(PL_ERR_ARG, "--param %s: %s given twice", p->name, item);
        ax->values[ax->n++] = (int64_t)x;
        if (!comma) break;
        s = comma + 1;
    }
    return PL_OK;
}

int64_t pl_sweep_count(const pl_sweep_axis *ax, int n_axes)
{
    int64_t c = 1;
    for (int i = 0; i < n_axes; i++) c *= ax[i].n;
    return c;
}

void pl_sweep_point(const pl_variant *v, const pl_sweep_axis *ax, int n_axes, int64_t i, int64_t *params)
{
    for (int j = 0; j < v->n_params && j < PL_MAX_PARAMS; j++) params[j] = (int64_t)v->params[j].def;
    for (int a = 0; a < n_axes; a++) {
        params[ax[a].param] = ax[a].values[i % ax[a].n];
        i /= ax[a].n;
    }
}

int pl_results_best(const pl_result *r, int n, int problem_id)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (r[i].problem_id == problem_id && r[i].verified && (best < 0 || r[i].median_s < r[best].median_s)) best = i;
    return best;
}
