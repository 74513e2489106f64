/* compare.c: two bench runs side by side (pl_compare_runs, parlab.h): rows matched by what
 * names them, each pair's speedup with its interval and the rank test's verdict (stats.c), and
 * the geometric mean over the pairs. A rung renamed between the runs is matched through a
 * rename ("cuda-tf32=cuda-wgmma-tma-tf32", or for the rows of one parameter value,
 * "cuda-tf32:config=11=cuda-wgmma-tma-tf32", which drops that parameter); a parameter that only
 * one run has is left out of the match on both sides (ignore). */
#include "core/core.h"
#include "harness/harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What a row is matched on, less the kernel, size and problem it keeps as they are. */
typedef struct row_key {
    char variant[64];
    char params[256];
} row_key;

/* params less its item NAME=..., or where value is given only the item NAME=VALUE; 1 if one went. */
static int drop_param(char *params, const char *name, const char *value)
{
    const size_t name_len = strlen(name);
    for (char *item = params; *item;) {
        char *end = strchr(item, ',');
        const size_t len = end ? (size_t)(end - item) : strlen(item);
        const int named = len > name_len && !strncmp(item, name, name_len) && item[name_len] == '=';
        if (named && (!value || (len - name_len - 1 == strlen(value) && !strncmp(item + name_len + 1, value, len - name_len - 1)))) {
            if (end) memmove(item, end + 1, strlen(end + 1) + 1); /* the item and its comma */
            else if (item > params) item[-1] = '\0';             /* the last item and the comma before it */
            else item[0] = '\0';
            return 1;
        }
        item = end ? end + 1 : item + len;
    }
    return 0;
}

/* A rename "OLD=NEW" or "OLD:PARAM=VALUE=NEW" split at its last '=' (new) and its ':' (param). */
typedef struct rename_rule {
    char old[64], param[64], value[64], renamed[64];
} rename_rule;

static pl_status parse_rename(const char *text, rename_rule *r)
{
    memset(r, 0, sizeof *r);
    const char *eq = strrchr(text, '=');
    if (!eq || eq == text || !eq[1] || strlen(eq + 1) >= sizeof r->renamed || (size_t)(eq - text) >= sizeof r->old)
        return pl_fail(PL_ERR_ARG, "rename '%s': expected OLD=NEW or OLD:PARAM=VALUE=NEW", text);
    snprintf(r->renamed, sizeof r->renamed, "%s", eq + 1);
    snprintf(r->old, sizeof r->old, "%.*s", (int)(eq - text), text);
    char *colon = strchr(r->old, ':');
    if (!colon) return PL_OK;
    *colon = '\0';
    char *pe = strchr(colon + 1, '=');
    if (!pe || pe == colon + 1 || !r->old[0])
        return pl_fail(PL_ERR_ARG, "rename '%s': expected OLD:PARAM=VALUE=NEW after the ':'", text);
    snprintf(r->param, sizeof r->param, "%.*s", (int)(pe - colon - 1), colon + 1);
    snprintf(r->value, sizeof r->value, "%s", pe + 1);
    return PL_OK;
}

static void key_of(const pl_bench_row *row, const rename_rule *renames, int n_renames, const pl_compare_opts *o,
                   row_key *k)
{
    snprintf(k->variant, sizeof k->variant, "%s", row->variant);
    snprintf(k->params, sizeof k->params, "%s", row->params);
    for (int i = 0; i < n_renames; i++) {
        const rename_rule *r = &renames[i];
        if (strcmp(r->old, row->variant)) continue;
        if (r->param[0] && !drop_param(k->params, r->param, r->value)) continue;
        snprintf(k->variant, sizeof k->variant, "%s", r->renamed);
        break;
    }
    for (int i = 0; i < o->n_ignore; i++)
        while (drop_param(k->params, o->ignore[i], NULL)) {}
}

static int same_key(const pl_bench_row *a, const row_key *ka, const pl_bench_row *b, const row_key *kb)
{
    return !strcmp(a->kernel, b->kernel) && !strcmp(ka->variant, kb->variant) && !strcmp(ka->params, kb->params) &&
           !strcmp(a->problem, b->problem) && !strcmp(a->size, b->size);
}

/* The rows of one side: their keys, and which are the first of their key (the ones that count)
 * among the rows of the kernel asked for. */
static pl_status side_keys(const pl_bench_row *rows, int n, const rename_rule *renames, int n_renames,
                           const pl_compare_opts *o, row_key **keys, char **counts)
{
    *keys = calloc((size_t)(n > 0 ? n : 1), sizeof **keys);
    *counts = calloc((size_t)(n > 0 ? n : 1), 1);
    if (!*keys || !*counts) return pl_fail(PL_ERR_NOMEM, "compare: out of host memory");
    for (int i = 0; i < n; i++) {
        key_of(&rows[i], renames, n_renames, o, &(*keys)[i]);
        int first = !o->kernel || !strcmp(o->kernel, rows[i].kernel);
        for (int j = 0; first && j < i; j++) first = !((*counts)[j] && same_key(&rows[j], &(*keys)[j], &rows[i], &(*keys)[i]));
        (*counts)[i] = (char)first;
    }
    return PL_OK;
}

pl_status pl_compare_runs(const pl_bench_row *before, int n_before, const pl_bench_row *after, int n_after,
                          const pl_compare_opts *opts, pl_compare_row **rows, int *n_rows)
{
    *rows = NULL;
    *n_rows = 0;
    const pl_compare_opts none = {0};
    const pl_compare_opts *o = opts ? opts : &none;
    rename_rule *renames = calloc((size_t)(o->n_renames > 0 ? o->n_renames : 1), sizeof *renames);
    if (!renames) return pl_fail(PL_ERR_NOMEM, "compare: out of host memory");
    pl_status s = PL_OK;
    for (int i = 0; s == PL_OK && i < o->n_renames; i++) s = parse_rename(o->renames[i], &renames[i]);
    row_key *kb = NULL, *ka = NULL;
    char *cb = NULL, *ca = NULL;
    if (s == PL_OK) s = side_keys(before, n_before, renames, o->n_renames, o, &kb, &cb);
    if (s == PL_OK) s = side_keys(after, n_after, NULL, 0, o, &ka, &ca);
    int *match = s == PL_OK ? malloc((size_t)(n_before > 0 ? n_before : 1) * sizeof *match) : NULL;
    char *matched_after = s == PL_OK ? calloc((size_t)(n_after > 0 ? n_after : 1), 1) : NULL;
    pl_compare_row *out = s == PL_OK ? calloc((size_t)(n_before + n_after > 0 ? n_before + n_after : 1), sizeof *out) : NULL;
    if (s == PL_OK && (!match || !matched_after || !out)) s = pl_fail(PL_ERR_NOMEM, "compare: out of host memory");
    int n = 0;
    for (int i = 0; s == PL_OK && i < n_before; i++) { /* the pairs, in the before order */
        match[i] = -1;
        for (int j = 0; cb[i] && j < n_after && match[i] < 0; j++)
            if (ca[j] && same_key(&before[i], &kb[i], &after[j], &ka[j])) match[i] = j;
        if (match[i] < 0) continue;
        matched_after[match[i]] = 1;
        pl_compare_row *c = &out[n++];
        c->before = &before[i], c->after = &after[match[i]];
        snprintf(c->variant, sizeof c->variant, "%s", kb[i].variant);
        snprintf(c->params, sizeof c->params, "%s", kb[i].params);
        s = pl_compare_samples(c->before->samples, c->before->n_samples, c->after->samples, c->after->n_samples,
                               c->before->median_s, c->after->median_s, &c->c);
    }
    for (int i = 0; s == PL_OK && i < n_before; i++) /* then the rows of one side only */
        if (cb[i] && match[i] < 0) {
            out[n].before = &before[i];
            snprintf(out[n].variant, sizeof out[n].variant, "%s", kb[i].variant);
            snprintf(out[n++].params, sizeof out[0].params, "%s", kb[i].params);
        }
    for (int j = 0; s == PL_OK && j < n_after; j++)
        if (ca[j] && !matched_after[j]) {
            out[n].after = &after[j];
            snprintf(out[n].variant, sizeof out[n].variant, "%s", ka[j].variant);
            snprintf(out[n++].params, sizeof out[0].params, "%s", ka[j].params);
        }
    for (int i = 0; i < n; i++)
        if (!out[i].before || !out[i].after) out[i].c = (pl_comparison){NAN, NAN, NAN, NAN, PL_VERDICT_NO_SAMPLES};
    free(renames), free(kb), free(ka), free(cb), free(ca), free(match), free(matched_after);
    if (s != PL_OK) {
        free(out);
        return s;
    }
    *rows = out;
    *n_rows = n;
    return PL_OK;
}

double pl_compare_geomean(const pl_compare_row *rows, int n)
{
    double sum_log = 0;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (rows[i].before && rows[i].after && rows[i].c.speedup > 0 && isfinite(rows[i].c.speedup)) {
            sum_log += log(rows[i].c.speedup);
            k++;
        }
    return k ? exp(sum_log / k) : NAN;
}
