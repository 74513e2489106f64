/* results_json.c: parlab's JSON files (json.h): the head every one begins with (schema, the
 * machine and its ceilings, the build, the command, the date), and a bench run's results as the
 * rows of schema parlab-bench/2 (pl_report_json; docs/output.md), each with its timed runs'
 * seconds one by one ("samples", what parlab compare tests). Written as io.h's outputs:
 * a failed run leaves no partial file. */
#include "core/core.h"
#include "io/io.h"
#include "io/json.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

/* A number, or null where it is unknown (known 0) or not finite. */
static void num_or_null(FILE *f, double x, int known) { pl_json_write_num(f, known ? x : NAN); }

static void json_check(FILE *f, const char *name, const pl_check_result *c)
{
    fprintf(f, "\"%s\": {\"error\": ", name);
    pl_json_write_num(f, c->error);
    fprintf(f, ", \"elem_ratio\": ");
    pl_json_write_num(f, c->elem_ratio);
    fprintf(f, ", \"worst\": [%d, %lld, %lld], \"checked\": %lld, \"how\": ", c->operand, (long long)c->row,
            (long long)c->col, (long long)c->checked);
    pl_json_write_string(f, c->how);
    fputc('}', f);
}

static void json_machine(FILE *f, const pl_report_info *rc)
{
    unsigned feat = pl_features();
    fprintf(f, "  \"machine\": {\"cpu\": ");
    pl_json_write_string(f, pl_cpu_name());
    fprintf(f, ", \"cores\": %d, \"avx2\": %s, \"avx512\": %s, \"gpu\": ", pl_cpu_cores(),
            (feat & PL_FEAT_AVX2) ? "true" : "false", (feat & PL_FEAT_AVX512) ? "true" : "false");
    pl_json_write_string(f, pl_gpu_name());
    const pl_peaks *pk = rc ? rc->peaks : NULL;
    fprintf(f, ",\n    \"peaks\": ");
    if (pk && pk->valid) pl_peaks_json_write(f, pk, PL_PEAKS_JSON_RESULTS, NULL, NULL);
    else fputs("null", f);
    fprintf(f, "},\n  \"build\": {\"version\": \"%s\", \"cuda\": %s, \"openblas\": %s, \"compiler\": ",
            PARLAB_VERSION, (feat & PL_FEAT_CUDA_BUILD) ? "true" : "false",
            (feat & PL_FEAT_OPENBLAS) ? "true" : "false");
    pl_json_write_string(f, __VERSION__);
    fprintf(f, "},\n  \"command\": ");
    pl_json_write_string(f, rc && rc->command ? rc->command : "");
    /* when the file was written, UTC (the report titles its plots with it) */
    char date[32] = "";
    const time_t now = time(NULL);
    struct tm utc;
    if (gmtime_r(&now, &utc)) strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    fprintf(f, ",\n  \"date\": ");
    pl_json_write_string(f, date);
    fprintf(f, ",\n");
}

FILE *pl_json_file_open(const char *path, const char *schema, const pl_report_info *info)
{
    FILE *f = pl_tmp_fopen(path); /* NULL: the failure is recorded */
    if (!f) return NULL;
    fprintf(f, "{\n  \"schema\": ");
    pl_json_write_string(f, schema);
    fprintf(f, ",\n");
    json_machine(f, info);
    return f;
}

pl_status pl_json_file_close(FILE *f, const char *path) { return pl_tmp_fclose(f, path); }

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
        if (p->kind == PL_PARAM_CHOICE) pl_json_write_string(f, p->choices[(int)pv->num[i]]);
        else if (p->kind == PL_PARAM_STRING && pv->str[i]) pl_json_write_string(f, pv->str[i]);
        else if (p->kind == PL_PARAM_STRING) fputs("null", f);
        else pl_json_write_num(f, pv->num[i]);
    }
    fprintf(f, "}, ");
}

pl_status pl_report_json(const char *path, const pl_result *r, int n, const pl_report_info *rc)
{
    FILE *f = pl_json_file_open(path, "parlab-bench/2", rc);
    if (!f) return PL_ERR_IO;
    fprintf(f, "  \"results\": [\n");
    for (int i = 0; i < n; i++) {
        const pl_result *x = &r[i];
        fprintf(f, "    {\"kernel\": \"%s\", \"variant\": \"%s\", \"backend\": \"%s\", \"precision\": \"%s\", "
                   "\"peer\": %s, %s\"params\": {",
                x->kernel->name, x->variant->name, pl_backend_name(x->variant->backend),
                pl_precision_name(x->variant->precision), x->variant->is_peer ? "true" : "false",
                x->variant->is_user ? "\"user\": true, " : ""); /* only a user's rung says so */
        for (int j = 0; j < x->variant->n_params; j++) {
            const pl_param_def *p = &x->variant->params[j];
            fprintf(f, "%s\"%s\": ", j ? ", " : "", p->name);
            if (p->kind == PL_PARAM_CHOICE) pl_json_write_string(f, p->choices[x->params[j]]);
            else fprintf(f, "%lld", (long long)x->params[j]);
        }
        fprintf(f, "},\n     ");
        json_problem(f, x->kernel, rc ? rc->problem : NULL);
        fprintf(f, "\"size\": ");
        pl_json_write_string(f, x->size);
        fprintf(f, ", \"threads\": %d, \"repeats\": %d, \"cold\": %s, \"median_s\": ", x->threads, x->repeats,
                x->cold ? "true" : "false");
        pl_json_write_num(f, x->median_s);
        fprintf(f, ", \"min_s\": ");
        pl_json_write_num(f, x->min_s);
        fprintf(f, ", \"max_s\": ");
        pl_json_write_num(f, x->max_s);
        fprintf(f, ", \"noisy\": %s,\n     \"phases_s\": {", x->noisy ? "true" : "false");
        for (int p = 0; p < PL_N_PHASES; p++) {
            fprintf(f, "%s\"%s\": ", p ? ", " : "", pl_phase_name(p));
            num_or_null(f, x->phase_s[p], x->phase_s[p] >= 0);
        }
        fprintf(f, "},\n     \"unit\": \"%s\", \"work\": %.6g, \"rate\": ", pl_unit_name(x->unit), x->work);
        pl_json_write_num(f, x->rate);
        fprintf(f, ", \"rate_unit\": \"%s\", \"ops\": %.6g, \"bytes\": %.6g, \"gbps\": ", pl_unit_rate_name(x->unit),
                x->ops, x->bytes);
        pl_json_write_num(f, x->gbps);
        fprintf(f, ", \"ceiling\": {\"name\": ");
        pl_json_write_string(f, x->ceiling_name);
        fprintf(f, ", \"pct\": ");
        num_or_null(f, x->ceiling_pct, x->ceiling_pct >= 0);
        fprintf(f, ", \"over\": %s},\n     \"verification\": {\"check\": \"%s\", \"error\": ",
                x->over_ceiling ? "true" : "false", pl_check_name(x->check));
        pl_json_write_num(f, x->error);
        fprintf(f, ", \"bound\": %.6g, \"bound_why\": ", x->bound);
        pl_json_write_string(f, x->bound_why);
        fprintf(f, ", \"elem_bound\": %.6g, \"elem_why\": ", x->elem_bound);
        pl_json_write_string(f, x->elem_why);
        fprintf(f, ",\n       ");
        json_check(f, "first", &x->first);
        fprintf(f, ",\n       ");
        json_check(f, "last", &x->last);
        fprintf(f, ",\n       \"passed\": %s, \"padding_ok\": %s, \"inputs_ok\": %s", x->verified ? "true" : "false",
                x->padding_ok ? "true" : "false", x->inputs_ok ? "true" : "false");
        if (x->failed_why[0]) { /* a user's rung that failed an extra check: which, and why */
            fprintf(f, ", \"failed_why\": ");
            pl_json_write_string(f, x->failed_why);
        }
        fprintf(f, "},\n     \"peers\": [");
        for (int k = 0; k < x->n_peers; k++) {
            fprintf(f, "%s{\"name\": ", k ? ", " : "");
            pl_json_write_string(f, x->peers[k].name);
            fprintf(f, ", \"ratio\": ");
            pl_json_write_num(f, x->peers[k].ratio);
            fputc('}', f);
        }
        fprintf(f, "],\n     \"samples\": [");
        for (int k = 0; k < x->n_samples; k++) {
            if (k) fputs(", ", f);
            pl_json_write_num(f, x->samples[k]);
        }
        fprintf(f, "]}%s\n", i + 1 < n ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return pl_json_file_close(f, path);
}
