/* report_read.c: the files `parlab report` draws, read (io/json.h) and checked field by field:
 * schema parlab-bench/2, the machine and its peaks (null: --no-peaks, no roofs), the command,
 * the date, every result row (its timed samples and a user's rung's mark where the file has them). A missing field or one of the wrong type is PL_ERR_FORMAT naming
 * the file, its line and column, and the field ("results[3].ceiling.pct"). Then the files of
 * one suite are merged into one run. */
#include "report/report_parts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCHEMA "parlab-bench/2"

const char *const report_phase_names[PHASES] = {"alloc", "h2d", "kernel", "d2h"};

typedef struct field_ctx {
    const char *path;
    char where[64]; /* "results[3]" */
} field_ctx;

static pl_status bad_field(const field_ctx *f, const pl_json *at, const char *field, const char *what)
{
    if (at)
        return pl_fail(PL_ERR_FORMAT, "%s:%d:%d: %s%s%s: %s", f->path, at->line, at->col, f->where,
                       f->where[0] ? "." : "", field, what);
    return pl_fail(PL_ERR_FORMAT, "%s: %s%s%s: %s", f->path, f->where, f->where[0] ? "." : "", field, what);
}

/* Member `field` of obj of type t (nullable: null also taken, *v NULL then). */
static pl_status field_of(const field_ctx *f, const pl_json *obj, const char *field, pl_json_type t, int nullable,
                      const pl_json **v)
{
    const pl_json *m = pl_json_get(obj, field);
    *v = m;
    if (!m) return bad_field(f, obj, field, "missing (not a parlab bench/sweep JSON file?)");
    if (m->type == PL_JSON_NULL && nullable) {
        *v = NULL;
        return PL_OK;
    }
    if (m->type != t) {
        char what[96];
        snprintf(what, sizeof what, "expected %s%s, found %s", t == PL_JSON_OBJECT || t == PL_JSON_ARRAY ? "an " : "a ",
                 pl_json_type_name(t), pl_json_type_name(m->type));
        return bad_field(f, m, field, what);
    }
    return PL_OK;
}

static pl_status get_str(const field_ctx *f, const pl_json *obj, const char *field, const char **out)
{
    const pl_json *v;
    pl_status s = field_of(f, obj, field, PL_JSON_STRING, 0, &v);
    *out = s == PL_OK ? v->str : "";
    return s;
}

static pl_status get_num(const field_ctx *f, const pl_json *obj, const char *field, int nullable, double *out)
{
    const pl_json *v;
    pl_status s = field_of(f, obj, field, PL_JSON_NUMBER, nullable, &v);
    *out = s == PL_OK && v ? v->num : NAN;
    return s;
}

/* A peak: a number, or [one thread, all threads] (the last counts); 0 where missing. */
static double peak_of(const pl_json *peaks, const char *name)
{
    const pl_json *v = pl_json_get(peaks, name);
    if (v && v->type == PL_JSON_NUMBER) return v->num;
    if (v && v->type == PL_JSON_ARRAY && v->n > 0 && v->items[v->n - 1].type == PL_JSON_NUMBER)
        return v->items[v->n - 1].num;
    return 0;
}

/* A parameter's value as a label shows it: text as is, numbers by %g, null the default. */
static void value_text(const pl_json *x, char *buf, size_t n)
{
    if (x->type == PL_JSON_STRING) snprintf(buf, n, "%s", x->str);
    else if (x->type == PL_JSON_NUMBER) snprintf(buf, n, "%g", x->num);
    else if (x->type == PL_JSON_NULL) snprintf(buf, n, "default");
    else snprintf(buf, n, "?");
}

static pl_status read_result(const field_ctx *f, const pl_json *o, report_result *r)
{
    pl_status s;
    const pl_json *v;
    memset(r, 0, sizeof *r);
    if (o->type != PL_JSON_OBJECT) return bad_field(f, o, "", "expected an object");
    if ((s = get_str(f, o, "kernel", &r->kernel)) || (s = get_str(f, o, "variant", &r->variant)) ||
        (s = get_str(f, o, "backend", &r->backend)) || (s = get_str(f, o, "size", &r->size)) ||
        (s = get_str(f, o, "rate_unit", &r->rate_unit)))
        return s;
    if ((s = field_of(f, o, "peer", PL_JSON_BOOL, 0, &v))) return s;
    r->peer = v->boolean;
    const pl_json *user = pl_json_get(o, "user"); /* only on a user's rung */
    if (user && user->type != PL_JSON_BOOL) return bad_field(f, user, "user", "expected a boolean");
    r->user = user && user->boolean;
    const pl_json *samples = pl_json_get(o, "samples"); /* absent in files older than the samples */
    if (samples && samples->type != PL_JSON_ARRAY) return bad_field(f, samples, "samples", "expected an array");
    for (int64_t i = 0; samples && i < samples->n; i++)
        if (samples->items[i].type != PL_JSON_NUMBER)
            return bad_field(f, &samples->items[i], "samples", "expected numbers (seconds)");
    r->n_samples = samples ? (int)samples->n : 0;
    if ((s = get_num(f, o, "median_s", 1, &r->median_s)) || (s = get_num(f, o, "rate", 1, &r->rate)) ||
        (s = get_num(f, o, "ops", 0, &r->ops)) || (s = get_num(f, o, "bytes", 0, &r->bytes)) ||
        (s = get_num(f, o, "work", 0, &r->work)))
        return s;
    if ((s = field_of(f, o, "params", PL_JSON_OBJECT, 0, &v))) return s;
    size_t len = 0;
    for (int64_t i = 0; i < v->n && len < sizeof r->params; i++) {
        char val[48];
        value_text(&v->items[i], val, sizeof val);
        int k = snprintf(r->params + len, sizeof r->params - len, "%s%s=%s", i ? " " : "", v->keys[i], val);
        if (k < 0) break;
        len += (size_t)k;
    }
    const pl_json *prob = pl_json_get(o, "problem"); /* absent in files older than the problem */
    if (prob && prob->type != PL_JSON_OBJECT) return bad_field(f, prob, "problem", "expected an object");
    for (int64_t i = 0; prob && i < prob->n && r->n_prob < MAX_PROB; i++) {
        const pl_json *x = &prob->items[i];
        r->prob_name[r->n_prob] = prob->keys[i];
        value_text(x, r->prob_val[r->n_prob++], sizeof r->prob_val[0]);
    }
    if ((s = field_of(f, o, "phases_s", PL_JSON_OBJECT, 0, &v))) return s;
    for (int p = 0; p < PHASES; p++) {
        const pl_json *x = pl_json_get(v, report_phase_names[p]);
        r->phase[p] = x && x->type == PL_JSON_NUMBER ? x->num : -1;
    }
    if ((s = field_of(f, o, "ceiling", PL_JSON_OBJECT, 0, &v))) return s;
    {
        field_ctx g = *f;
        snprintf(g.where, sizeof g.where, "%.40s.ceiling", f->where);
        if ((s = get_str(&g, v, "name", &r->ceiling_name)) || (s = get_num(&g, v, "pct", 1, &r->ceiling_pct)))
            return s;
    }
    if ((s = field_of(f, o, "verification", PL_JSON_OBJECT, 0, &v))) return s;
    {
        field_ctx g = *f;
        snprintf(g.where, sizeof g.where, "%.40s.verification", f->where);
        const pl_json *pass;
        if ((s = get_str(&g, v, "check", &r->check)) || (s = get_num(&g, v, "error", 1, &r->error)) ||
            (s = get_num(&g, v, "bound", 1, &r->bound)) || (s = field_of(&g, v, "passed", PL_JSON_BOOL, 0, &pass)))
            return s;
        r->passed = pass->boolean;
    }
    return PL_OK;
}

/* Rows of older files carry no "problem": the --set items of the file's command (one
 * bench line, one problem) stand in for it, so an old reduce axis=0 file still draws apart. */
static void problem_from_command(report_run *r)
{
    for (const char *c = strstr(r->command, " --set "); c; c = strstr(c, " --set ")) {
        c += 7;
        const size_t len = strcspn(c, " ");
        for (size_t at = 0; at < len;) {
            size_t item = at;
            while (item < len && c[item] != ',') item++;
            const char *eq = memchr(c + at, '=', item - at);
            if (eq && r->n_set < MAX_PROB) {
                snprintf(r->set_name[r->n_set], sizeof r->set_name[0], "%.*s", (int)(eq - (c + at)), c + at);
                snprintf(r->set_val[r->n_set++], sizeof r->set_val[0], "%.*s", (int)(c + item - eq - 1), eq + 1);
            }
            at = item + 1;
        }
    }
    for (int i = 0; i < r->n; i++)
        if (r->res[i].n_prob == 0)
            for (int j = 0; j < r->n_set; j++) {
                r->res[i].prob_name[j] = r->set_name[j];
                snprintf(r->res[i].prob_val[j], sizeof r->res[i].prob_val[j], "%s", r->set_val[j]);
                r->res[i].n_prob = j + 1;
            }
}

pl_status report_read_run(const char *path, report_run *r)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    pl_status s = pl_json_read(path, &r->doc);
    if (s != PL_OK) return s;
    field_ctx f = {path, ""};
    const pl_json *top = r->doc, *v, *machine, *results;
    if (top->type != PL_JSON_OBJECT) return bad_field(&f, top, "(top)", "expected an object: not parlab's JSON");
    const pl_json *schema = pl_json_get(top, "schema");
    if (!schema) return pl_fail(PL_ERR_FORMAT, "%s: no field 'schema': not a parlab bench/sweep JSON file", path);
    if (schema->type != PL_JSON_STRING || strcmp(schema->str, SCHEMA))
        return pl_fail(PL_ERR_FORMAT, "%s:%d:%d: field 'schema' is %s%s%s, not \"" SCHEMA "\": a file of another schema "
                       "version, or not parlab's", path, schema->line, schema->col,
                       schema->type == PL_JSON_STRING ? "\"" : "a ",
                       schema->type == PL_JSON_STRING ? schema->str : pl_json_type_name(schema->type),
                       schema->type == PL_JSON_STRING ? "\"" : "");
    if ((s = field_of(&f, top, "machine", PL_JSON_OBJECT, 0, &machine)) || (s = get_str(&f, top, "command", &r->command)) ||
        (s = field_of(&f, top, "results", PL_JSON_ARRAY, 0, &results)))
        return s;
    const pl_json *date = pl_json_get(top, "date");
    r->date = date && date->type == PL_JSON_STRING && date->str[0] ? date->str : "date not recorded";
    snprintf(f.where, sizeof f.where, "machine");
    double cores;
    if ((s = get_str(&f, machine, "cpu", &r->cpu)) || (s = get_num(&f, machine, "cores", 0, &cores)) ||
        (s = get_str(&f, machine, "gpu", &r->gpu)) || (s = field_of(&f, machine, "peaks", PL_JSON_OBJECT, 1, &v)))
        return s;
    r->cores = (int)cores; /* peaks null (--no-peaks): no roofs, and no ceilings on the bars */
    r->cpu_flops = peak_of(v, "cpu_gflops_avx512") > 0 ? peak_of(v, "cpu_gflops_avx512") : peak_of(v, "cpu_gflops_avx2");
    r->cpu_iops = peak_of(v, "cpu_gops_int32"), r->cpu_bw = peak_of(v, "cpu_triad_gbps");
    r->gpu_flops = peak_of(v, "gpu_gflops_fp32"), r->gpu_tf32 = peak_of(v, "gpu_gflops_tf32");
    r->gpu_iops = peak_of(v, "gpu_gops_int32"), r->gpu_bw = peak_of(v, "gpu_copy_gbps");
    if (r->gpu[0]) snprintf(r->label, sizeof r->label, "%s + %s", r->cpu, r->gpu);
    else snprintf(r->label, sizeof r->label, "%s, %d cores", r->cpu, r->cores);
    r->sweep = !strncmp(r->command, "parlab sweep", 12);
    r->res = calloc((size_t)(results->n > 0 ? results->n : 1), sizeof *r->res);
    if (!r->res) return pl_fail(PL_ERR_NOMEM, "%s: no memory", path);
    for (int64_t i = 0; i < results->n; i++) {
        snprintf(f.where, sizeof f.where, "results[%lld]", (long long)i);
        if ((s = read_result(&f, &results->items[i], &r->res[i])) != PL_OK) return s;
        r->n++;
    }
    problem_from_command(r);
    return PL_OK;
}

void report_free_run(report_run *r)
{
    free(r->res);
    pl_json_free(r->doc);
}

/* The files as runs to draw: bench files from one machine in one directory (the lines of a
 * suite, `make bench`) are one run, their results together; a sweep file is a run of its own.
 * The merged runs borrow the files' strings; only their result arrays are their own. */
static int same_dir(const char *a, const char *b)
{
    const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
    const size_t la = sa ? (size_t)(sa - a) : 0, lb = sb ? (size_t)(sb - b) : 0;
    return la == lb && !strncmp(a, b, la);
}

pl_status report_merge_runs(const report_run *files, int n, report_run **out, int *n_out)
{
    report_run *g = calloc((size_t)n, sizeof *g);
    int *group = calloc((size_t)n, sizeof *group), ng = 0;
    if (!g || !group) {
        free(g);
        free(group);
        return pl_fail(PL_ERR_NOMEM, "report: no memory");
    }
    for (int q = 0; q < n; q++) {
        group[q] = -1;
        for (int a = 0; a < ng && group[q] < 0; a++)
            if (!files[q].sweep && !g[a].sweep && !strcmp(g[a].label, files[q].label) && same_dir(g[a].path, files[q].path))
                group[q] = a;
        if (group[q] < 0) {
            g[ng] = files[q];
            g[ng].res = NULL, g[ng].n = 0, g[ng].doc = NULL;
            group[q] = ng++;
        } else {
            g[group[q]].command = "several bench files of one directory (a suite)";
        }
    }
    for (int a = 0; a < ng; a++) {
        int total = 0;
        for (int q = 0; q < n; q++)
            if (group[q] == a) total += files[q].n;
        g[a].res = calloc((size_t)(total > 0 ? total : 1), sizeof *g[a].res);
        if (!g[a].res) {
            for (int b = 0; b < a; b++) free(g[b].res);
            free(g);
            free(group);
            return pl_fail(PL_ERR_NOMEM, "report: no memory");
        }
        for (int q = 0; q < n; q++)
            if (group[q] == a) {
                memcpy(g[a].res + g[a].n, files[q].res, (size_t)files[q].n * sizeof *g[a].res);
                g[a].n += files[q].n;
            }
    }
    free(group);
    *out = g, *n_out = ng;
    return PL_OK;
}
