/* bench_rows.c: the result rows of bench and sweep JSON files (schema parlab-bench/2) as
 * parlab compare matches them (pl_bench_rows_read, parlab.h): what names a row (kernel, variant,
 * size, its parameters and the problem's, each set as sorted "NAME=VALUE" text so that two files
 * match whatever order they wrote them in), its median and its timed runs one by one. A file, or
 * every *.json of a directory (`parlab bench --suite S --json-dir D`) in the order of their names.
 * Rows written before the samples have none (compare then says "no samples"). */
#include "io/io.h"
#include "io/json.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SCHEMA "parlab-bench/2"

static pl_status bad_row(const char *path, const pl_json *at, int64_t row, const char *field, const char *what)
{
    return pl_fail(PL_ERR_FORMAT, "%s:%d:%d: results[%lld].%s: %s", path, at->line, at->col, (long long)row, field,
                   what);
}

static pl_status row_string(const char *path, const pl_json *o, int64_t row, const char *field, char *out, size_t n)
{
    const pl_json *v = pl_json_get(o, field);
    if (!v) return bad_row(path, o, row, field, "missing (not a parlab bench/sweep JSON file?)");
    if (v->type != PL_JSON_STRING) return bad_row(path, v, row, field, "expected a string");
    if (strlen(v->str) >= n) return bad_row(path, v, row, field, "too long");
    memcpy(out, v->str, strlen(v->str) + 1);
    return PL_OK;
}

/* The members of an object as "NAME=VALUE,..." sorted by name: text as it is, numbers as the
 * shortest %g that gives them back, null, true, false. Missing: "". */
/* The members of object `field` as sorted "NAME=VALUE" text, the values as the writers write
 * them (numbers %.17g). With a kernel (the "problem" field), a problem parameter the file lacks
 * is the kernel's default: a parameter added to a kernel after the file was written (gemm's
 * dtype) ran at its default then, so such a row still matches one written since. */
enum { MAX_MEMBERS = 64 };
static pl_status sorted_members(const char *path, const pl_json *o, int64_t row, const char *field, const pl_kernel *k,
                                char *out, size_t n)
{
    const pl_json *v = pl_json_get(o, field);
    out[0] = '\0';
    if (!v) return PL_OK;
    if (v->type != PL_JSON_OBJECT) return bad_row(path, v, row, field, "expected an object");
    const char *names[MAX_MEMBERS];
    char values[MAX_MEMBERS][64];
    int m = 0;
    for (int64_t i = 0; i < v->n; i++) {
        const pl_json *x = &v->items[i];
        int seen = 0; /* a name given twice: its first value counts */
        for (int j = 0; j < m; j++) seen |= !strcmp(names[j], v->keys[i]);
        if (seen) continue;
        if (m == MAX_MEMBERS) return bad_row(path, v, row, field, "too long");
        if (x->type == PL_JSON_STRING) snprintf(values[m], sizeof values[m], "%s", x->str);
        else if (x->type == PL_JSON_NUMBER) snprintf(values[m], sizeof values[m], "%.17g", x->num);
        else if (x->type == PL_JSON_BOOL) snprintf(values[m], sizeof values[m], "%s", x->boolean ? "true" : "false");
        else if (x->type == PL_JSON_NULL) snprintf(values[m], sizeof values[m], "null");
        else return bad_row(path, x, row, field, "a member that is not a number, text, boolean or null");
        names[m++] = v->keys[i];
    }
    for (int i = 0; k && i < k->n_problem_params && m < MAX_MEMBERS; i++) {
        const pl_param_def *p = &k->problem_params[i];
        int seen = 0;
        for (int j = 0; j < m; j++) seen |= !strcmp(names[j], p->name);
        if (seen || p->kind == PL_PARAM_STRING) continue;
        if (p->kind == PL_PARAM_CHOICE) snprintf(values[m], sizeof values[m], "%s", p->choices[(int)p->def]);
        else snprintf(values[m], sizeof values[m], "%.17g", p->def);
        names[m++] = p->name;
    }
    size_t used = 0;
    for (int round = 0, last = -1; round < m; round++) { /* in name order: each round the least name after last */
        int at = -1;
        for (int i = 0; i < m; i++)
            if ((last < 0 || strcmp(names[i], names[last]) > 0) && (at < 0 || strcmp(names[i], names[at]) < 0)) at = i;
        const int w = snprintf(out + used, n - used, "%s%s=%s", used ? "," : "", names[at], values[at]);
        if (w < 0 || (size_t)w >= n - used) return bad_row(path, v, row, field, "too long");
        used += (size_t)w;
        last = at;
    }
    return PL_OK;
}

static pl_status read_row(const char *path, const pl_json *o, int64_t i, pl_bench_row *r)
{
    memset(r, 0, sizeof *r);
    if (o->type != PL_JSON_OBJECT)
        return pl_fail(PL_ERR_FORMAT, "%s:%d:%d: results[%lld]: expected an object", path, o->line, o->col, (long long)i);
    pl_status s;
    if ((s = row_string(path, o, i, "kernel", r->kernel, sizeof r->kernel)) ||
        (s = row_string(path, o, i, "variant", r->variant, sizeof r->variant)) ||
        (s = row_string(path, o, i, "size", r->size, sizeof r->size)) ||
        (s = sorted_members(path, o, i, "params", NULL, r->params, sizeof r->params)) ||
        (s = sorted_members(path, o, i, "problem", pl_kernel_find(r->kernel), r->problem, sizeof r->problem)))
        return s;
    const pl_json *m = pl_json_get(o, "median_s");
    if (!m) return bad_row(path, o, i, "median_s", "missing (not a parlab bench/sweep JSON file?)");
    if (m->type != PL_JSON_NUMBER && m->type != PL_JSON_NULL) return bad_row(path, m, i, "median_s", "expected a number");
    r->median_s = m->type == PL_JSON_NUMBER ? m->num : NAN;
    const pl_json *u = pl_json_get(o, "user");
    r->user = u && u->type == PL_JSON_BOOL && u->boolean;
    const pl_json *t = pl_json_get(o, "samples"); /* absent in files older than the samples */
    if (t && t->type != PL_JSON_ARRAY) return bad_row(path, t, i, "samples", "expected an array");
    for (int64_t k = 0; t && k < t->n && r->n_samples < PL_MAX_SAMPLES; k++) {
        if (t->items[k].type != PL_JSON_NUMBER || !(t->items[k].num > 0))
            return bad_row(path, &t->items[k], i, "samples", "expected a positive number of seconds");
        r->samples[r->n_samples++] = t->items[k].num;
    }
    return PL_OK;
}

/* The rows of one file, appended to *rows (*n of them, room for *cap). */
static pl_status read_file(const char *path, pl_bench_row **rows, int *n, int *cap)
{
    pl_json *doc = NULL;
    pl_status s = pl_json_read(path, &doc);
    const pl_json *schema = s == PL_OK ? pl_json_get(doc, "schema") : NULL, *results = pl_json_get(doc, "results");
    if (s == PL_OK && (!schema || schema->type != PL_JSON_STRING || strcmp(schema->str, SCHEMA)))
        s = pl_fail(PL_ERR_FORMAT, "%s: not a parlab bench/sweep JSON file (no \"schema\": \"" SCHEMA "\")", path);
    if (s == PL_OK && (!results || results->type != PL_JSON_ARRAY))
        s = pl_fail(PL_ERR_FORMAT, "%s: no \"results\" array", path);
    for (int64_t i = 0; s == PL_OK && i < results->n; i++) {
        if (*n == *cap) {
            const int c = *cap ? 2 * *cap : 16;
            pl_bench_row *q = realloc(*rows, (size_t)c * sizeof *q);
            if (!q) {
                s = pl_fail(PL_ERR_NOMEM, "%s: out of host memory", path);
                break;
            }
            *rows = q, *cap = c;
        }
        s = read_row(path, &results->items[i], i, &(*rows)[*n]);
        if (s == PL_OK) (*n)++;
    }
    pl_json_free(doc);
    return s;
}

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The *.json files of a directory, by name. */
static pl_status read_dir(const char *path, pl_bench_row **rows, int *n, int *cap)
{
    DIR *d = opendir(path);
    if (!d) return pl_fail(PL_ERR_IO, "%s: cannot open the directory: %s", path, strerror(errno));
    char **names = NULL;
    int n_names = 0, cap_names = 0;
    pl_status s = PL_OK;
    for (struct dirent *e; s == PL_OK && (e = readdir(d));) {
        const size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json")) continue;
        if (n_names == cap_names) {
            cap_names = cap_names ? 2 * cap_names : 16;
            char **q = realloc(names, (size_t)cap_names * sizeof *q);
            if (!q) {
                s = pl_fail(PL_ERR_NOMEM, "%s: out of host memory", path);
                break;
            }
            names = q;
        }
        names[n_names] = malloc(strlen(path) + len + 2);
        if (!names[n_names]) s = pl_fail(PL_ERR_NOMEM, "%s: out of host memory", path);
        else sprintf(names[n_names++], "%s/%s", path, e->d_name);
    }
    closedir(d);
    if (s == PL_OK && n_names == 0) s = pl_fail(PL_ERR_IO, "%s: a directory without *.json files", path);
    if (s == PL_OK) qsort(names, (size_t)n_names, sizeof *names, cmp_name);
    for (int i = 0; s == PL_OK && i < n_names; i++) s = read_file(names[i], rows, n, cap);
    for (int i = 0; i < n_names; i++) free(names[i]);
    free(names);
    return s;
}

pl_status pl_bench_rows_read(const char *path, pl_bench_row **rows, int *n)
{
    *rows = NULL;
    *n = 0;
    int cap = 0;
    struct stat sb;
    pl_status s = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode) ? read_dir(path, rows, n, &cap)
                                                              : read_file(path, rows, n, &cap);
    if (s != PL_OK) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return s;
}
