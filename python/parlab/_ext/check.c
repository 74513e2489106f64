/* check.c: parlab.check, the correctness suite alone (the library's pl_check_variant, as `parlab
 * check` runs it): a rung on every check case of its kernel at a few seeds, each outcome a dict.
 * The rung is a const pl_variant *: today one of the kernel's ladder, by name; a rung made
 * elsewhere (a user's) goes through check_variant below unchanged. The GIL is released while
 * the cases run; the outcomes are collected in C and turned into Python objects after. */
#include "ext.h"

#include <stdlib.h>
#include <string.h>

/* One outcome as it came, with what it points to copied out. */
typedef struct kept {
    pl_check_outcome o;
    int bad_first; /* o.bad was the first run's check */
    char size[64], settings[256], operand[32];
} kept;

typedef struct collected {
    kept *at;
    int n, cap, nomem;
} collected;

static void collect(void *user, const pl_check_outcome *o)
{
    collected *c = user;
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 64;
        kept *at = realloc(c->at, (size_t)cap * sizeof *at);
        if (!at) {
            c->nomem = 1;
            return;
        }
        c->at = at, c->cap = cap;
    }
    kept *k = &c->at[c->n++];
    k->o = *o;
    k->bad_first = o->bad == &o->result.first;
    snprintf(k->size, sizeof k->size, "%s", o->check_case->size);
    snprintf(k->settings, sizeof k->settings, "%s", o->check_case->settings ? o->check_case->settings : "");
    snprintf(k->operand, sizeof k->operand, "%s", o->operand ? o->operand : "");
}

/* A check's numbers, as a dict; Py None for a check that did not run. */
static PyObject *check_dict(const pl_check_result *r, const char *operand)
{
    return Py_BuildValue("{s:d,s:d,s:s,s:L,s:L,s:d,s:d,s:d,s:L,s:L}", "error", r->error, "elem_ratio", r->elem_ratio,
                         "operand", operand, "row", (long long)r->row, "col", (long long)r->col, "value", r->value,
                         "reference", r->reference, "bound", r->bound, "wrong", (long long)r->wrong, "checked",
                         (long long)r->checked);
}

static PyObject *outcome_dict(const kept *k)
{
    const pl_check_outcome *o = &k->o;
    const char *verdict = o->status == PL_ERR_UNSUPPORTED ? "skip" : o->passed ? "pass" : "fail";
    PyObject *worst = Py_None;
    Py_INCREF(Py_None);
    if (o->bad) {
        Py_DECREF(Py_None);
        worst = check_dict(k->bad_first ? &o->result.first : &o->result.last, k->operand);
        if (!worst) return NULL;
        PyObject *run = PyUnicode_FromString(k->bad_first ? "first" : "timed");
        PyObject *error_bound = PyFloat_FromDouble(o->result.bound);
        int bad = !run || !error_bound || PyDict_SetItemString(worst, "run", run) < 0 ||
                  PyDict_SetItemString(worst, "error_bound", error_bound) < 0;
        Py_XDECREF(run);
        Py_XDECREF(error_bound);
        if (bad) {
            Py_DECREF(worst);
            return NULL;
        }
    }
    int ran = o->status == PL_OK;
    return Py_BuildValue("{s:s,s:s,s:s,s:K,s:s,s:s,s:O,s:O,s:O,s:N,s:s}", "size", k->size, "settings", k->settings,
                         "problem", ran ? o->result.size : "", "seed", (unsigned long long)o->seed, "verdict", verdict,
                         "status", pl_status_name(o->status), "padding_ok",
                         ran && !o->result.padding_ok ? Py_False : Py_True, "inputs_ok",
                         ran && !o->result.inputs_ok ? Py_False : Py_True, "exact",
                         ran && o->result.bound == 0 ? Py_True : Py_False, "worst", worst, "message", o->message);
}

/* Any rung v of kernel k (a ladder's or not) on every case at each seed: a list of dicts. */
static PyObject *check_variant(const pl_kernel *k, const pl_variant *v, const uint64_t *seeds, int n_seeds,
                               int threads, int device)
{
    plx_ctx *pc = plx_ctx_take(v->backend, device, threads, NULL);
    if (!pc) return NULL;
    collected c = {NULL, 0, 0, 0};
    int runs = 0, failed = 0;
    pl_status s;
    Py_BEGIN_ALLOW_THREADS
    s = pl_check_variant(plx_ctx_get(pc), k, v, NULL, seeds, n_seeds, collect, &c, &runs, &failed);
    Py_END_ALLOW_THREADS
    plx_ctx_give(pc);
    PyObject *list = NULL;
    if (plx_rung_raise_pending(v)) /* a Python rung's call failed: its own exception, naming it */
        ;
    else if (s != PL_OK) plx_raise(s);
    else if (c.nomem) PyErr_NoMemory();
    else if ((list = PyList_New(c.n)) != NULL)
        for (int i = 0; i < c.n; i++) {
            PyObject *d = outcome_dict(&c.at[i]);
            if (!d) {
                Py_CLEAR(list);
                break;
            }
            PyList_SetItem(list, i, d); /* steals d */
        }
    free(c.at);
    return list;
}

/* check(kernel, variant, seeds or None, threads, device) -> (seeds, [outcome dicts]) */
PyObject *plx_check(PyObject *self, PyObject *args)
{
    (void)self;
    const char *kernel;
    PyObject *ovariant, *oseeds;
    int threads, device;
    if (!PyArg_ParseTuple(args, "sOOii", &kernel, &ovariant, &oseeds, &threads, &device)) return NULL;
    const pl_kernel *k = pl_kernel_find(kernel);
    if (!k) return plx_raisef(plx_err.Argument, "check: no kernel '%s' (parlab.list() names them)", kernel);
    /* a rung's name, or a Python rung's capsule (parlab.rung: plx_rung_variant) */
    const char *variant = NULL; /* PyUnicode_AsUTF8 is not in the limited API of 3.9 */
    if (PyUnicode_Check(ovariant) && !PyArg_Parse(ovariant, "s", &variant)) return NULL;
    const pl_variant *v = variant ? pl_variant_find(k, variant) : plx_rung_variant(ovariant);
    if (!v && variant)
        return plx_raisef(plx_err.Argument, "check: %s has no variant '%s' (parlab.list('%s'))", kernel, variant, kernel);
    if (!v) return plx_raisef(plx_err.Argument, "check: a variant is a rung's name or parlab.rung(fn)");
    variant = v->name;
    char why[128] = "";
    if (pl_variant_check(NULL, v, why, sizeof why) != PL_OK)
        return plx_raisef(plx_err.Unsupported, "check: %s cannot run here: %s", variant, why);
    uint64_t seeds[64];
    int n_seeds = 0;
    if (oseeds == Py_None) {
        pl_check_default_seeds(seeds);
        n_seeds = PL_CHECK_SEEDS;
    } else {
        Py_ssize_t n = PySequence_Size(oseeds);
        if (n < 0) return NULL;
        if (n < 1 || n > 64) return plx_raisef(plx_err.Argument, "check: %zd seeds, give 1 to 64", n);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PySequence_GetItem(oseeds, i);
            unsigned long long x = item ? PyLong_AsUnsignedLongLong(item) : 0;
            Py_XDECREF(item);
            if (PyErr_Occurred()) return NULL;
            seeds[n_seeds++] = x;
        }
    }
    PyObject *list = check_variant(k, v, seeds, n_seeds, threads, device);
    if (!list) return NULL;
    PyObject *seed_list = PyList_New(n_seeds);
    if (!seed_list) {
        Py_DECREF(list);
        return NULL;
    }
    for (int i = 0; i < n_seeds; i++) PyList_SetItem(seed_list, i, PyLong_FromUnsignedLongLong(seeds[i]));
    return Py_BuildValue("(NN)", seed_list, list);
}
