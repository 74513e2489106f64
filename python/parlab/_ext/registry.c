/* registry.c: the library's registry and harness seen from Python: the kernels and their
 * ladders (list), a kernel's operands for a problem, one named rung on the caller's arrays
 * (host buffers, or device pointers on the caller's stream), Life pattern files, the peaks. */
#include "ext.h"

#include <stdlib.h>
#include <string.h>

/* ---- building a problem from a size and NAME=VALUE settings */

typedef struct problem {
    const pl_kernel *k;
    void *spec; /* the kernel's problem struct */
} problem;

static const pl_kernel *kernel_named(const char *name)
{
    const pl_kernel *k = pl_kernel_find(name);
    if (!k) plx_raisef(plx_err.Argument, "no kernel '%s' (parlab.list() names them)", name);
    return k;
}

/* settings: a sequence of "name=value" strings (the CLI's --set). */
static int problem_make(problem *p, const char *kernel, const char *size, PyObject *settings)
{
    memset(p, 0, sizeof *p);
    if (!(p->k = kernel_named(kernel))) return -1;
    pl_pvalues pv;
    pl_pvalues_default(p->k, &pv);
    int given[PL_MAX_PARAMS] = {0};
    PyObject *bytes[PL_MAX_PARAMS] = {NULL};
    Py_ssize_t n = PySequence_Size(settings);
    if (n < 0) return -1;
    pl_status s = PL_OK;
    int rc = -1;
    if (n > PL_MAX_PARAMS) {
        plx_raisef(plx_err.Argument, "%s: %zd settings, at most %d", kernel, n, PL_MAX_PARAMS);
        goto done;
    }
    for (Py_ssize_t i = 0; i < n && s == PL_OK; i++) {
        PyObject *item = PySequence_GetItem(settings, i);
        if (!item) goto done;
        bytes[i] = PyUnicode_AsUTF8String(item);
        Py_DECREF(item);
        if (!bytes[i]) goto done;
        s = pl_pvalues_set(p->k, &pv, given, PyBytes_AsString(bytes[i]));
    }
    if (s == PL_OK) {
        if (!(p->spec = calloc(1, p->k->problem_size))) {
            PyErr_NoMemory();
            goto done;
        }
        s = p->k->make_problem(p->spec, pl_kernel_size(p->k, size), &pv);
        if (s != PL_OK) {
            free(p->spec);
            p->spec = NULL;
        }
    }
    if (s != PL_OK) plx_raise(s);
    else rc = 0;
done:
    for (int i = 0; i < PL_MAX_PARAMS; i++) Py_XDECREF(bytes[i]);
    return rc;
}

static void problem_free(problem *p)
{
    if (p->spec && p->k->destroy_problem) p->k->destroy_problem(p->spec);
    free(p->spec);
    p->spec = NULL;
}

/* operands(kernel, size, settings) -> [(name, dtype, role, rows, cols, ld), ...] */
PyObject *plx_operands(PyObject *self, PyObject *args)
{
    (void)self;
    const char *kernel, *size;
    PyObject *settings;
    if (!PyArg_ParseTuple(args, "ssO", &kernel, &size, &settings)) return NULL;
    problem p;
    if (problem_make(&p, kernel, size, settings) < 0) return NULL;
    pl_tensor t[PL_MAX_OPERANDS];
    int n = 0;
    pl_status s = p.k->operands(p.spec, t, &n);
    problem_free(&p);
    if (s != PL_OK) return plx_raise(s);
    static const char *const roles[] = {"in", "out", "inout"};
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *row = Py_BuildValue("(sssLLL)", t[i].name, pl_dtype_name(t[i].dtype), roles[t[i].role],
                                      (long long)t[i].rows, (long long)t[i].cols, (long long)t[i].ld);
        if (!row) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SetItem(list, i, row);
    }
    return list;
}

/* best_variant_for(kernel, backend, device, threads, size, settings) -> the rung pl_best_variant
 * picks for that problem (the one made from size and settings: gemm's dtype=bf16 picks a BF16
 * rung), or None. */
PyObject *plx_best_variant_for(PyObject *self, PyObject *args)
{
    (void)self;
    const char *kernel, *size;
    PyObject *settings;
    int backend, device, threads;
    if (!PyArg_ParseTuple(args, "siiisO", &kernel, &backend, &device, &threads, &size, &settings)) return NULL;
    problem p;
    if (problem_make(&p, kernel, size, settings) < 0) return NULL;
    plx_ctx *lent = plx_ctx_take(backend, device, threads, NULL);
    const char *best = lent ? pl_best_variant(plx_ctx_get(lent), p.k, p.spec) : NULL;
    if (lent) plx_ctx_give(lent);
    problem_free(&p);
    if (!lent) return NULL;
    if (best) return PyUnicode_FromString(best);
    Py_RETURN_NONE;
}

/* run(kernel, variant, size, settings, backend, device, threads, operands, stream): the rung
 * once. stream None: operands are host buffers (contiguous, each as operands() says, copied to
 * the device and back for a CUDA rung); an int (a cudaStream_t, 0 the legacy default stream):
 * operands are device pointers (ints), run in place on that stream, asynchronously. */
PyObject *plx_run(PyObject *self, PyObject *args)
{
    (void)self;
    const char *kernel, *variant, *size;
    PyObject *settings, *ops, *ostream;
    int backend, device, threads;
    if (!PyArg_ParseTuple(args, "sssOiiiOO", &kernel, &variant, &size, &settings, &backend, &device, &threads, &ops,
                          &ostream))
        return NULL;
    problem p;
    if (problem_make(&p, kernel, size, settings) < 0) return NULL;
    const pl_variant *v = pl_variant_find(p.k, variant);
    pl_tensor t[PL_MAX_OPERANDS];
    int n = 0;
    pl_status s = v ? p.k->operands(p.spec, t, &n) : PL_OK;
    PyObject *held_obj[PL_MAX_OPERANDS] = {NULL};
    plx_matrix m[PL_MAX_OPERANDS];
    void *ptr[PL_MAX_OPERANDS] = {NULL};
    int held = 0;
    plx_ctx *lent = NULL;
    const int on_device = ostream != Py_None;
    void *stream = NULL;
    if (!v) {
        plx_raisef(plx_err.Argument, "%s: no variant '%s' (parlab.list('%s') names them)", kernel, variant, kernel);
        goto fail;
    }
    if (s != PL_OK) {
        plx_raise(s);
        goto fail;
    }
    if (PySequence_Size(ops) != n) {
        if (!PyErr_Occurred())
            plx_raisef(plx_err.Argument, "%s: %zd operands where %d are needed", kernel, PySequence_Size(ops), n);
        goto fail;
    }
    if (on_device && (stream = PyLong_AsVoidPtr(ostream)) == NULL && PyErr_Occurred()) goto fail;
    for (int i = 0; i < n; i++) {
        PyObject *o = held_obj[i] = PySequence_GetItem(ops, i);
        if (!o) goto fail;
        if (on_device) {
            ptr[i] = PyLong_AsVoidPtr(o);
            if (!ptr[i] && PyErr_Occurred()) goto fail;
            continue;
        }
        const size_t bytes = (size_t)pl_tensor_span(&t[i]) * pl_dtype_size(t[i].dtype);
        char what[64];
        snprintf(what, sizeof what, "%s: %s", kernel, t[i].name);
        if (plx_bytes_get(o, what, bytes, t[i].role != PL_IN, &m[held]) < 0) goto fail;
        ptr[i] = m[held++].data;
    }
    if (!(lent = plx_ctx_take(backend, device, threads, stream))) goto fail;
    Py_BEGIN_ALLOW_THREADS
    if (on_device) s = pl_run_device(plx_ctx_get(lent), p.k, v, NULL, p.spec, ptr, stream);
    else s = pl_run_host(plx_ctx_get(lent), p.k, v, NULL, p.spec, ptr);
    Py_END_ALLOW_THREADS
    plx_ctx_give(lent);
    for (int i = 0; i < held; i++) plx_matrix_release(&m[i]);
    for (int i = 0; i < n; i++) Py_XDECREF(held_obj[i]);
    problem_free(&p);
    if (s != PL_OK) return plx_raise(s);
    Py_RETURN_NONE;
fail:
    for (int i = 0; i < held; i++) plx_matrix_release(&m[i]);
    for (int i = 0; i < n; i++) Py_XDECREF(held_obj[i]);
    problem_free(&p);
    return NULL;
}

/* ---- list: the kernels, their ladders, what can run here */

static PyObject *param_dicts(const pl_param_def *defs, int n)
{
    static const char *const kinds[] = {"list", "range", "choice", "real", "string"};
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < n; i++) {
        const pl_param_def *p = &defs[i];
        char legal[256];
        pl_param_legal(p, legal, sizeof legal);
        PyObject *def = p->kind == PL_PARAM_CHOICE ? PyUnicode_FromString(p->choices[(int)p->def])
                        : p->kind == PL_PARAM_STRING ? (Py_INCREF(Py_None), Py_None)
                        : PyFloat_FromDouble(p->def);
        PyObject *d = def ? Py_BuildValue("{s:s,s:s,s:s,s:s,s:N}", "name", p->name, "help", p->help ? p->help : "",
                                          "kind", kinds[p->kind], "legal", legal, "default", def)
                          : NULL;
        if (!d || PyList_Append(list, d) < 0) {
            Py_XDECREF(d);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(d);
    }
    return list;
}

static PyObject *variant_dict(const pl_variant *v)
{
    char why[160] = "";
    const int ok = pl_variant_check(NULL, v, why, sizeof why) == PL_OK;
    return Py_BuildValue("{s:s,s:s,s:s,s:O,s:s,s:O,s:s,s:N}", "name", v->name, "idea", v->idea ? v->idea : "", "backend",
                         pl_backend_name(v->backend), "peer", v->is_peer ? Py_True : Py_False, "precision",
                         pl_precision_name(v->precision), "runnable", ok ? Py_True : Py_False, "why_not", ok ? "" : why,
                         "params", param_dicts(v->params, v->n_params));
}

/* kernels() -> [{"name", "summary", "size_help", "unit", "params", "variants": [...]}, ...] */
PyObject *plx_kernels(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < pl_kernel_count(); i++) {
        const pl_kernel *k = pl_kernel_at(i);
        PyObject *vars = PyList_New(0);
        for (int j = 0; vars && j < k->n_variants; j++) {
            PyObject *d = variant_dict(k->ladder[j]);
            if (!d || PyList_Append(vars, d) < 0) Py_CLEAR(vars);
            Py_XDECREF(d);
        }
        PyObject *d = vars ? Py_BuildValue("{s:s,s:s,s:s,s:s,s:N,s:N}", "name", k->name, "summary", k->summary,
                                           "size_help", k->size_help ? k->size_help : "", "unit",
                                           pl_unit_rate_name(k->unit), "params",
                                           param_dicts(k->problem_params, k->n_problem_params), "variants", vars)
                           : NULL;
        if (!d || PyList_Append(list, d) < 0) Py_CLEAR(list);
        Py_XDECREF(d);
    }
    return list;
}

/* kernel_names() -> the registry's kernels by name (src/kernels/kernels.c's order): what
 * parlab/__init__.py exports a call for, and what the tests iterate. */
PyObject *plx_kernel_names(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    PyObject *names = PyList_New(pl_kernel_count());
    for (int i = 0; names && i < pl_kernel_count(); i++) {
        PyObject *name = PyUnicode_FromString(pl_kernel_at(i)->name);
        if (!name || PyList_SetItem(names, i, name) < 0) Py_CLEAR(names); /* SetItem takes name, even failing */
    }
    return names;
}

/* machine() -> (summary line, cpu name, gpu name, features bit mask) */
PyObject *plx_machine(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    return Py_BuildValue("(sssI)", pl_machine_summary(), pl_cpu_name(), pl_gpu_name(), pl_features());
}

/* ---- Life pattern files */

/* life_read(path) -> (w, h, bits: bytes of h x words uint64, rule, grid, grid_w, grid_h, x0, y0) */
PyObject *plx_life_read(PyObject *self, PyObject *args)
{
    (void)self;
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path)) return NULL;
    pl_life_file f;
    pl_status s;
    Py_BEGIN_ALLOW_THREADS
    s = pl_life_file_read(path, &f);
    Py_END_ALLOW_THREADS
    if (s != PL_OK) return plx_raise(s);
    const Py_ssize_t bytes = (Py_ssize_t)(f.h * ((f.w + 63) / 64) * 8);
    PyObject *r = Py_BuildValue("(LLy#siLLLL)", (long long)f.w, (long long)f.h, (const char *)f.bits,
                                f.bits ? bytes : (Py_ssize_t)0, f.rule, f.grid, (long long)f.grid_w,
                                (long long)f.grid_h, (long long)f.x0, (long long)f.y0);
    pl_life_file_free(&f);
    return r;
}

/* life_write(path, w, h, bits, rule, grid, grid_w, grid_h, x0, y0) */
PyObject *plx_life_write(PyObject *self, PyObject *args)
{
    (void)self;
    const char *path, *rule;
    long long w, h, gw, gh, x0, y0;
    int grid;
    PyObject *ob;
    if (!PyArg_ParseTuple(args, "sLLOsiLLLL", &path, &w, &h, &ob, &rule, &grid, &gw, &gh, &x0, &y0)) return NULL;
    if (w < 0 || h < 0) return plx_raisef(plx_err.Argument, "life_write: size %lldx%lld", w, h);
    plx_matrix m;
    if (plx_bytes_get(ob, "life_write: bits", (size_t)(h * ((w + 63) / 64) * 8), 0, &m) < 0) return NULL;
    pl_life_file f = {.w = w, .h = h, .bits = m.data, .grid = grid, .grid_w = gw, .grid_h = gh, .x0 = x0, .y0 = y0};
    snprintf(f.rule, sizeof f.rule, "%s", rule);
    pl_status s;
    Py_BEGIN_ALLOW_THREADS
    s = pl_life_file_write(path, &f);
    Py_END_ALLOW_THREADS
    plx_matrix_release(&m);
    if (s != PL_OK) return plx_raise(s);
    Py_RETURN_NONE;
}

/* ---- peaks */

/* peaks(measure) -> dict of the machine's ceilings (cached, or measured when measure and
 * none are cached), or None when none are known. */
PyObject *plx_peaks(PyObject *self, PyObject *args)
{
    (void)self;
    int measure = 0;
    if (!PyArg_ParseTuple(args, "|p", &measure)) return NULL;
    pl_peaks pk;
    memset(&pk, 0, sizeof pk);
    pl_status s;
    Py_BEGIN_ALLOW_THREADS
    s = pl_peaks_get(NULL, &pk, measure);
    Py_END_ALLOW_THREADS
    if (s != PL_OK && !(pk.valid && measure)) {
        if (!measure) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        return plx_raise(s);
    }
    if (!pk.valid) Py_RETURN_NONE;
    return Py_BuildValue(
        "{s:s,s:i,s:(dd),s:(dd),s:(dd),s:(dd),s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,"
        "s:s,s:s,s:s,s:O,s:s,s:O,s:O}",
        "machine", pk.machine, "cpu_threads", pk.cpu_threads, "cpu_gflops_avx512", pk.cpu_gflops_avx512[0],
        pk.cpu_gflops_avx512[1], "cpu_gflops_avx2", pk.cpu_gflops_avx2[0], pk.cpu_gflops_avx2[1],
        "cpu_gflops_scalar", pk.cpu_gflops_scalar[0], pk.cpu_gflops_scalar[1], "cpu_gops_int32",
        pk.cpu_gops_int32[0], pk.cpu_gops_int32[1], "cpu_triad_gbps", pk.cpu_triad_gbps, "cpu_read_gbps",
        pk.cpu_read_gbps, "cpu_write_gbps", pk.cpu_write_gbps, "cpu_copy_gbps", pk.cpu_copy_gbps,
        "cpu_cache_read_gbps", pk.cpu_cache_read_gbps, "cpu_cache_copy_gbps", pk.cpu_cache_copy_gbps,
        "cpu_cache_bytes", pk.cpu_cache_bytes, "gpu_gflops_fp32", pk.gpu_gflops_fp32, "gpu_gflops_tf32",
        pk.gpu_gflops_tf32, "gpu_gops_int32", pk.gpu_gops_int32, "gpu_copy_gbps", pk.gpu_copy_gbps,
        "gpu_read_gbps", pk.gpu_read_gbps, "gpu_write_gbps", pk.gpu_write_gbps, "gpu_cache_read_gbps",
        pk.gpu_cache_read_gbps, "gpu_cache_copy_gbps", pk.gpu_cache_copy_gbps, "gpu_cache_bytes", pk.gpu_cache_bytes,
        "cpu_mode", pk.cpu_mode, "gpu_mode", pk.gpu_mode, "measured", pk.measured, "sane", pk.sane ? Py_True : Py_False,
        "sanity", pk.sanity, "cached", pk.cached ? Py_True : Py_False, "implicit", pk.implicit ? Py_True : Py_False);
}
