/* compare.c: parlab.compare, the library's comparison of two bench runs (pl_bench_rows_read,
 * pl_compare_runs: the same as `parlab compare`) as Python values: a dict a row, None for what a
 * row of one side only, or one without samples, does not have. */
#include "ext.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A number, or None where it is NaN. */
static PyObject *num_or_none(double x)
{
    if (isnan(x)) Py_RETURN_NONE;
    return PyFloat_FromDouble(x);
}

/* "a\nb" -> items pointing into text (modified); their count. */
static int split_lines(char *text, const char **items, int max)
{
    int n = 0;
    for (char *p = text; *p && n < max;) {
        char *end = strchr(p, '\n');
        if (end) *end = '\0';
        if (*p) items[n++] = p;
        if (!end) break;
        p = end + 1;
    }
    return n;
}

static PyObject *row_dict(const pl_compare_row *c)
{
    const pl_bench_row *x = c->before ? c->before : c->after;
    PyObject *samples_ok = c->before && c->after && c->c.verdict != PL_VERDICT_NO_SAMPLES ? Py_True : Py_False;
    return Py_BuildValue("{s:s,s:s,s:s,s:s,s:s,s:N,s:N,s:N,s:N,s:N,s:N,s:s,s:O}", "kernel", x->kernel, "variant",
                         c->variant, "params", c->params, "size", x->size, "problem", x->problem, "old_median_s",
                         num_or_none(c->before ? c->before->median_s : NAN), "new_median_s",
                         num_or_none(c->after ? c->after->median_s : NAN), "speedup", num_or_none(c->c.speedup),
                         "low", num_or_none(c->c.lo), "high", num_or_none(c->c.hi), "p", num_or_none(c->c.p),
                         "verdict", !c->before ? "only new" : !c->after ? "only old" : pl_verdict_name(c->c.verdict),
                         "samples", samples_ok);
}

/* compare(old, new, kernel, renames, ignore) -> (rows, geomean): renames and ignore one item a
 * line, kernel "" for all. */
PyObject *plx_compare(PyObject *self, PyObject *args)
{
    (void)self;
    const char *paths[2], *kernel, *renames_text, *ignore_text;
    if (!PyArg_ParseTuple(args, "sssss", &paths[0], &paths[1], &kernel, &renames_text, &ignore_text)) return NULL;
    char *renames_copy = strdup(renames_text), *ignore_copy = strdup(ignore_text);
    const char *renames[64], *ignore[64];
    pl_bench_row *side[2] = {NULL, NULL};
    int n_side[2] = {0, 0}, n = 0;
    pl_compare_row *rows = NULL;
    PyObject *result = NULL;
    pl_status s = renames_copy && ignore_copy ? PL_OK : PL_ERR_NOMEM;
    pl_compare_opts o = {kernel[0] ? kernel : NULL, renames, 0, ignore, 0};
    if (s == PL_OK) {
        o.n_renames = split_lines(renames_copy, renames, 64);
        o.n_ignore = split_lines(ignore_copy, ignore, 64);
    }
    Py_BEGIN_ALLOW_THREADS
    for (int i = 0; s == PL_OK && i < 2; i++) s = pl_bench_rows_read(paths[i], &side[i], &n_side[i]);
    if (s == PL_OK) s = pl_compare_runs(side[0], n_side[0], side[1], n_side[1], &o, &rows, &n);
    Py_END_ALLOW_THREADS
    if (s != PL_OK) {
        plx_raise(s);
    } else {
        PyObject *list = PyList_New(0);
        for (int i = 0; list && i < n; i++) {
            PyObject *d = row_dict(&rows[i]);
            if (!d || PyList_Append(list, d) < 0) Py_CLEAR(list);
            Py_XDECREF(d);
        }
        if (list) result = Py_BuildValue("(NN)", list, num_or_none(pl_compare_geomean(rows, n)));
    }
    free(rows), free(side[0]), free(side[1]), free(renames_copy), free(ignore_copy);
    return result;
}
