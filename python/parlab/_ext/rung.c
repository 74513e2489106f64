/* rung.c: parlab.rung, a Python callable as a rung of a kernel's ladder. The library's
 * pl_user_rung_callback makes the rung (a pl_variant with is_user set, held to the user rungs'
 * extra checks); its run is the trampoline below, which the harness calls on its own thread.
 *
 * The trampoline takes the GIL and hands the call to the kernel's call_user, as for a rung from
 * a shared library: the kernel unpacks its problem into its rung signature (parlab_rung.h), and
 * the adapters here, one per kernel with that signature, give the problem's values to the
 * callable as keyword arguments (docs/python.md has the table). The operands come from the
 * kernel's operands(): host memory as memoryviews (inputs read-only), device memory as
 * pointers; python/parlab/_rung.py makes the arrays and calls the callable.
 *
 * A failed call (the callable raised, or returned the wrong shape or dtype) keeps its Python
 * exception on the rung and fails the run with PL_ERR_ARG and the exception's text; the caller
 * (parlab.bench) raises the kept exception itself once the session has stopped. */
#include "ext.h"

#include "core/core.h" /* pl_fail: the failed call's text for the harness's lines */
#include "parlab_rung.h"

#include <stdlib.h>

static const char CAPSULE[] = "parlab.pl_variant";

/* A kernel's rung signatures, CPU and CUDA, as adapters to the Python call. */
typedef struct adapters {
    const char *kernel;
    void (*cpu)(void);
    void (*cuda)(void);
} adapters;

typedef struct plx_rung {
    pl_user_rung *rung;
    const pl_kernel *kernel;
    const adapters *ad;
    PyObject *call; /* call(operands, params, stream): _rung.py's side of a call */
    PyObject *err_type, *err_value, *err_tb; /* the first failed call's exception, until raised */
} plx_rung;

/* The call in progress on this thread, for the adapters. */
typedef struct pending {
    const pl_run_args *a;
    plx_rung *r;
    int on_device; /* a CUDA rung: device pointers and a stream (0 the legacy default one) */
    int failed;
} pending;
static __thread pending *current;

/* The operands as _rung.py takes them: (name, memory, rows, cols, ld, dtype, writable, vector),
 * memory a memoryview over host memory or a device pointer (an int). vectors: a bit per operand
 * passed 1-D; words: every operand (Life's grid of bytes) seen as uint64 words. */
static PyObject *operands(const pending *c, unsigned vectors, int words)
{
    const pl_run_args *a = c->a;
    pl_tensor t[PL_MAX_OPERANDS];
    int n = 0;
    pl_status s = c->r->kernel->operands(a->problem, t, &n);
    if (s != PL_OK) return plx_raise(s);
    PyObject *ops = PyTuple_New(n);
    for (int i = 0; ops && i < n; i++) {
        int64_t rows = t[i].rows, cols = t[i].cols, ld = t[i].ld;
        size_t elem = pl_dtype_size(t[i].dtype);
        const char *dtype = pl_dtype_name(t[i].dtype); /* NumPy's names */
        if (words) cols /= 8, ld /= 8, elem = 8, dtype = "uint64";
        const int writable = t[i].role != PL_IN;
        const Py_ssize_t bytes = rows > 0 ? (Py_ssize_t)(((rows - 1) * ld + cols) * (int64_t)elem) : 0;
        PyObject *mem = c->on_device ? PyLong_FromVoidPtr(a->data[i])
                                  : PyMemoryView_FromMemory(a->data[i], bytes, writable ? PyBUF_WRITE : PyBUF_READ);
        PyObject *op = mem ? Py_BuildValue("(sNLLLsii)", t[i].name, mem, (long long)rows, (long long)cols,
                                           (long long)ld, dtype, writable, (int)((vectors >> i) & 1))
                           : NULL;
        if (!op) Py_CLEAR(ops);
        else PyTuple_SetItem(ops, i, op);
    }
    return ops;
}

/* The callable, through _rung.py, with the problem's values params (a new reference, or NULL
 * after a failure to make it): 0, or 1 with the exception set (the trampoline keeps it). */
static int call(PyObject *params, unsigned vectors, int words)
{
    pending *c = current;
    PyObject *ops = params ? operands(c, vectors, words) : NULL;
    PyObject *stream = ops ? (c->on_device ? PyLong_FromVoidPtr(c->a->stream) : (Py_INCREF(Py_None), Py_None)) : NULL;
    PyObject *got = stream ? PyObject_CallFunctionObjArgs(c->r->call, ops, params, stream, NULL) : NULL;
    Py_XDECREF(params);
    Py_XDECREF(ops);
    Py_XDECREF(stream);
    if (got) {
        Py_DECREF(got);
        return 0;
    }
    c->failed = 1;
    return 1;
}

/* ---- the adapters: each kernel's signature (parlab_rung.h), its values by keyword. Enumerated
 * values (op, mode, border, base, topology) go as their index; _rung.py names them. */

static int gemm_cpu(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda, const float *B,
                    int64_t ldb, float beta, float *C, int64_t ldc)
{
    (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb, (void)C, (void)ldc;
    return call(Py_BuildValue("{sdsd}", "alpha", (double)alpha, "beta", (double)beta), 0, 0);
}
static int gemm_cuda(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda, const float *B,
                     int64_t ldb, float beta, float *C, int64_t ldc, pl_rung_stream s)
{
    (void)s;
    return gemm_cpu(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

static int gemv_cpu(char trans, int64_t M, int64_t N, float alpha, const float *A, int64_t lda, const float *x,
                    float beta, float *y)
{
    (void)M, (void)N, (void)A, (void)lda, (void)x, (void)y;
    return call(Py_BuildValue("{sNsdsd}", "trans", PyBool_FromLong(trans == 't'), "alpha", (double)alpha, "beta",
                              (double)beta),
                1u << 1 | 1u << 2, 0);
}
static int gemv_cuda(char trans, int64_t M, int64_t N, float alpha, const float *A, int64_t lda, const float *x,
                     float beta, float *y, pl_rung_stream s)
{
    (void)s;
    return gemv_cpu(trans, M, N, alpha, A, lda, x, beta, y);
}

static int transpose_cpu(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb)
{
    (void)M, (void)N, (void)A, (void)lda, (void)B, (void)ldb;
    return call(PyDict_New(), 0, 0);
}
static int transpose_cuda(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb, pl_rung_stream s)
{
    (void)s;
    return transpose_cpu(M, N, A, lda, B, ldb);
}

static int reduce_cpu(int op, int axis, int64_t M, int64_t N, const float *A, int64_t lda, float *r)
{
    (void)M, (void)N, (void)A, (void)lda, (void)r;
    return call(Py_BuildValue("{sisi}", "op", op, "axis", axis), 1u << 1, 0);
}
static int reduce_cuda(int op, int axis, int64_t M, int64_t N, const float *A, int64_t lda, float *r,
                       pl_rung_stream s)
{
    (void)s;
    return reduce_cpu(op, axis, M, N, A, lda, r);
}

static int dot_cpu(int64_t N, const float *x, const float *y, float *result)
{
    (void)N, (void)x, (void)y, (void)result;
    return call(PyDict_New(), 7u, 0);
}
static int dot_cuda(int64_t N, const float *x, const float *y, float *result, pl_rung_stream s)
{
    (void)s;
    return dot_cpu(N, x, y, result);
}

static int conv2d_cpu(int dtype, int64_t H, int64_t W, const void *image, int64_t ld_img, int K, const void *filter,
                      const pl_conv2d_opts *opts, void *out, int64_t ld_out)
{
    (void)dtype, (void)H, (void)W, (void)image, (void)ld_img, (void)K, (void)filter, (void)out, (void)ld_out;
    return call(Py_BuildValue("{sisisN}", "mode", (int)opts->mode, "border", (int)opts->border, "flip",
                              PyBool_FromLong(opts->flip)),
                0, 0);
}
static int conv2d_cuda(int dtype, int64_t H, int64_t W, const void *image, int64_t ld_img, int K, const void *filter,
                       const pl_conv2d_opts *opts, void *out, int64_t ld_out, pl_rung_stream s)
{
    (void)s;
    return conv2d_cpu(dtype, H, W, image, ld_img, K, filter, opts, out, ld_out);
}

static int entropy_cpu(int64_t H, int64_t W, const uint8_t *values, int64_t ld, int k, int bins, int base2,
                       float *out, int64_t ld_out)
{
    (void)H, (void)W, (void)values, (void)ld, (void)out, (void)ld_out;
    return call(Py_BuildValue("{sisisi}", "k", k, "bins", bins, "base", base2 ? 1 : 0), 0, 0);
}
static int entropy_cuda(int64_t H, int64_t W, const uint8_t *values, int64_t ld, int k, int bins, int base2,
                        float *out, int64_t ld_out, pl_rung_stream s)
{
    (void)s;
    return entropy_cpu(H, W, values, ld, k, bins, base2, out, ld_out);
}

static int life_cpu(int64_t W, int64_t H, uint64_t *bits, int64_t gens, const char *rule, int torus)
{
    (void)H, (void)bits;
    return call(Py_BuildValue("{sLsssisL}", "gens", (long long)gens, "rule", rule, "topology", torus ? 0 : 1, "width",
                              (long long)W),
                0, 1);
}
static int life_cuda(int64_t W, int64_t H, uint64_t *bits, int64_t gens, const char *rule, int torus,
                     pl_rung_stream s)
{
    (void)s;
    return life_cpu(W, H, bits, gens, rule, torus);
}

#define ADAPT(k) {#k, (void (*)(void))k##_cpu, (void (*)(void))k##_cuda}
static const adapters ADAPTERS[] = {
    ADAPT(gemm), ADAPT(gemv), ADAPT(transpose), ADAPT(reduce), ADAPT(dot), ADAPT(conv2d), ADAPT(entropy), ADAPT(life),
};
#undef ADAPT

static const adapters *adapters_of(const pl_kernel *k)
{
    for (size_t i = 0; i < sizeof ADAPTERS / sizeof ADAPTERS[0]; i++)
        if (strcmp(ADAPTERS[i].kernel, k->name) == 0) return &ADAPTERS[i];
    return NULL;
}

/* ---- the trampoline */

/* The exception now set, kept on the rung (the first one stays), and its text as the run's
 * failure. */
static pl_status keep_failure(plx_rung *r)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (value && tb) PyException_SetTraceback(value, tb);
    PyObject *text = value ? PyObject_Str(value) : NULL;
    PyObject *utf8 = text ? PyUnicode_AsUTF8String(text) : NULL;
    pl_status s = pl_fail(PL_ERR_ARG, "%s", utf8 ? PyBytes_AsString(utf8) : "a Python rung failed");
    Py_XDECREF(utf8);
    Py_XDECREF(text);
    PyErr_Clear();
    if (!r->err_value && value) {
        r->err_type = type, r->err_value = value, r->err_tb = tb;
    } else {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
    }
    return s;
}

static pl_status trampoline(const pl_run_args *a)
{
    plx_rung *r = pl_user_rung_data(a->variant);
    if (!r) return pl_fail(PL_ERR_INTERNAL, "a Python rung ran without its callable");
    PyGILState_STATE gil = PyGILState_Ensure();
    pending c = {a, r, a->variant->backend == PL_BACKEND_CUDA, 0};
    pending *outer = current;
    current = &c;
    /* call_user takes the CUDA signature for a CUDA rung (core.h's pl_rung_on_device), as it
     * calls a library's rung */
    const int on_device = a->variant ? a->variant->backend == PL_BACKEND_CUDA : a->stream != NULL;
    pl_status s = r->kernel->call_user(on_device ? r->ad->cuda : r->ad->cpu, a);
    current = outer;
    if (c.failed) s = keep_failure(r);
    PyGILState_Release(gil);
    return s;
}

/* ---- the rung as a capsule */

static void rung_free(PyObject *capsule)
{
    plx_rung *r = PyCapsule_GetContext(capsule);
    if (!r) return;
    pl_user_rung_free(r->rung);
    Py_XDECREF(r->call);
    Py_XDECREF(r->err_type);
    Py_XDECREF(r->err_value);
    Py_XDECREF(r->err_tb);
    free(r);
}

/* rung_make(kernel, name, backend, precision, call) -> capsule: backend 1 CPU, 2 CUDA
 * (pl_backend); precision -1 for the kernel's first rung's, else pl_precision. */
PyObject *plx_rung_make(PyObject *self, PyObject *args)
{
    (void)self;
    const char *kernel, *name;
    int backend, precision;
    PyObject *fn;
    if (!PyArg_ParseTuple(args, "ssiiO", &kernel, &name, &backend, &precision, &fn)) return NULL;
    const pl_kernel *k = pl_kernel_find(kernel);
    if (!k) return plx_raisef(plx_err.Argument, "parlab.rung: no kernel '%s' (parlab.list() names them)", kernel);
    const adapters *ad = adapters_of(k);
    if (!ad || !k->call_user) return plx_raisef(plx_err.Argument, "parlab.rung: %s takes no rungs of yours", kernel);
    if (precision < 0) precision = k->n_variants > 0 ? (int)k->ladder[0]->precision : PL_PREC_FP32;
    plx_rung *r = calloc(1, sizeof *r);
    if (!r) return PyErr_NoMemory();
    r->kernel = k;
    r->ad = ad;
    pl_status s = pl_user_rung_callback(&r->rung, k, name, (pl_backend)backend, (pl_precision)precision, trampoline, r);
    if (s != PL_OK) {
        free(r);
        return plx_raise(s);
    }
    PyObject *capsule = PyCapsule_New((void *)pl_user_rung_variant(r->rung), CAPSULE, rung_free);
    if (!capsule || PyCapsule_SetContext(capsule, r) < 0) {
        pl_user_rung_free(r->rung);
        free(r);
        Py_XDECREF(capsule);
        return NULL;
    }
    Py_INCREF(fn);
    r->call = fn;
    return capsule;
}

const pl_variant *plx_rung_variant(PyObject *o)
{
    return PyCapsule_IsValid(o, CAPSULE) ? PyCapsule_GetPointer(o, CAPSULE) : NULL;
}

int plx_rung_raise_pending(const pl_variant *v)
{
    plx_rung *r = pl_user_rung_data(v); /* NULL but for the callback rungs, all made here */
    if (!r || !r->err_value) return 0;
    PyErr_Restore(r->err_type, r->err_value, r->err_tb);
    r->err_type = r->err_value = r->err_tb = NULL;
    return 1;
}

void plx_rung_thread_begin(plx_rung_thread *t)
{
    t->gil = PyGILState_Ensure();
    t->state = PyEval_SaveThread();
}

void plx_rung_thread_end(plx_rung_thread *t)
{
    PyEval_RestoreThread(t->state);
    PyGILState_Release(t->gil);
}
