/* calls.c: one Python function per kernel over the BLAS-like calls of parlab.h, on host arrays.
 * Each takes (variant or None, backend, device, threads, arrays..., scalars...) positionally:
 * the Python layer (parlab/__init__.py) names the arguments, allocates the outputs and makes
 * the layouts fit. Here: the arrays through the buffer protocol, the shapes checked against
 * each other (ValueError naming both), a context lent for the call, the GIL released while
 * the kernel runs, and a failure raised with the library's message. */
#include "ext.h"

#include <time.h>

/* The call's context: backend, device, threads as the Python layer passed them. */
typedef struct call {
    plx_ctx *lent;
    pl_ctx *ctx;
} call;

static int call_begin(call *c, int backend, int device, int threads)
{
    c->lent = plx_ctx_take(backend, device, threads, NULL);
    if (!c->lent) return -1;
    c->ctx = plx_ctx_get(c->lent);
    return 0;
}

/* Give the context back and the arrays' views; raise s (if not PL_OK). */
static PyObject *call_end(call *c, pl_status s, plx_matrix *m, int n, PyObject *result)
{
    plx_ctx_give(c->lent);
    for (int i = 0; i < n; i++) plx_matrix_release(&m[i]);
    if (s != PL_OK) {
        Py_XDECREF(result);
        return plx_raise(s);
    }
    return result;
}

#define SHAPE "%lldx%lld"
#define DIMS(m) (long long)(m).rows, (long long)(m).cols

/* Release the views taken so far (after a failed take or a shape error). */
static PyObject *drop(plx_matrix *m, int n)
{
    for (int i = 0; i < n; i++) plx_matrix_release(&m[i]);
    return NULL;
}

PyObject *plx_gemm(PyObject *self, PyObject *args)
{
    (void)self;
    const char *variant;
    int backend, device, threads;
    PyObject *oa, *ob, *oc;
    double alpha, beta;
    if (!PyArg_ParseTuple(args, "ziiiOOOdd", &variant, &backend, &device, &threads, &oa, &ob, &oc, &alpha, &beta))
        return NULL;
    plx_matrix m[3];
    if (plx_matrix_get(oa, "gemm: A", 'f', 0, &m[0]) < 0) return NULL;
    if (plx_matrix_get(ob, "gemm: B", 'f', 0, &m[1]) < 0) return drop(m, 1);
    if (plx_matrix_get(oc, "gemm: C", 'f', 1, &m[2]) < 0) return drop(m, 2);
    if (m[0].cols != m[1].rows)
        return drop(m, 3), plx_raisef(plx_err.Argument, "gemm: A is " SHAPE " and B is " SHAPE ": A's columns must equal B's rows",
                                      DIMS(m[0]), DIMS(m[1]));
    if (m[2].rows != m[0].rows || m[2].cols != m[1].cols)
        return drop(m, 3), plx_raisef(plx_err.Argument, "gemm: C is " SHAPE " where A (" SHAPE ") times B (" SHAPE ") is %lldx%lld",
                                      DIMS(m[2]), DIMS(m[0]), DIMS(m[1]), (long long)m[0].rows, (long long)m[1].cols);
    call c;
    if (call_begin(&c, backend, device, threads) < 0) return drop(m, 3);
    pl_status s;
    Py_BEGIN_ALLOW_THREADS
    if (variant)
        s = pl_sgemm_variant(c.ctx, variant, NULL, m[0].rows, m[1].cols, m[0].cols, (float)alpha, m[0].data, m[0].ld,
                             m[1].data, m[1].ld, (float)beta, m[2].data, m[2].ld);
    else
        s = pl_sgemm(c.ctx, m[0].rows, m[1].cols, m[0].cols, (float)alpha, m[0].data, m[0].ld, m[1].data, m[1].ld,
                     (float)beta, m[2].data, m[2].ld);
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    return call_end(&c, s, m, 3, Py_None);
}

PyObject *plx_gemv(PyObject *self, PyObject *args)
{
    (void)self;
    const char *variant;
    int backend, device, threads, trans;
    PyObject *oa, *ox, *oy;
    double alpha, beta;
    if (!PyArg_ParseTuple(args, "ziiipOOOdd", &variant, &backend, &device, &threads, &trans, &oa, &ox, &oy, &alpha,
                          &beta))
        return NULL;
    plx_matrix m[3];
    if (plx_matrix_get(oa, "gemv: A", 'f', 0, &m[0]) < 0) return NULL;
    if (plx_matrix_get(ox, "gemv: x", 'f', 0, &m[1]) < 0) return drop(m, 1);
    if (plx_matrix_get(oy, "gemv: y", 'f', 1, &m[2]) < 0) return drop(m, 2);
    const int64_t nx = trans ? m[0].rows : m[0].cols, ny = trans ? m[0].cols : m[0].rows;
    if (m[1].rows != 1 || m[1].cols != nx)
        return drop(m, 3), plx_raisef(plx_err.Argument, "gemv: A is " SHAPE " and x has shape " SHAPE ": x needs %lld elements%s",
                                      DIMS(m[0]), DIMS(m[1]), (long long)nx, trans ? " (trans: A's rows)" : " (A's columns)");
    if (m[2].rows != 1 || m[2].cols != ny)
        return drop(m, 3), plx_raisef(plx_err.Argument, "gemv: A is " SHAPE " and y has shape " SHAPE ": y needs %lld elements",
                                      DIMS(m[0]), DIMS(m[2]), (long long)ny);
    call c;
    if (call_begin(&c, backend, device, threads) < 0) return drop(m, 3);
    const char t = trans ? 't' : 'n';
    pl_status s;
    Py_BEGIN_ALLOW_THREADS
    if (variant)
        s = pl_sgemv_variant(c.ctx, variant, NULL, t, m[0].rows, m[0].cols, (float)alpha, m[0].data, m[0].ld, m[1].data,
                             (float)beta, m[2].data);
    else
        s = pl_sgemv(c.ctx, t, m[0].rows, m[0].cols, (float)alpha, m[0].data, m[0].ld, m[1].data, (float)beta, m[2].data);
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    return call_end(&c, s, m, 3, Py_None);
}

PyObject *plx_transpose(PyObject *self, PyObject *args)
{
    (void)self;
    const char *variant;
    int backend, device, threads;
    PyObject *oa, *ob;
    if (!PyArg_ParseTuple(args, "ziiiOO", &variant, &backend, &device, &threads, &oa, &ob)) return NULL;
    plx_matrix m[2];
    if (plx_matrix_get(oa, "transpose: A", 'f', 0, &m[0]) < 0) return NULL;
    if (plx_matrix_get(ob, "transpose: out", 'f', 1, &m[1]) < 0) return drop(m, 1);
    if (m[1].rows != m[0].cols || m[1].cols != m[0].rows)
        return drop(m, 2), plx_raisef(plx_err.Argument, "transpose: A is " SHAPE " and out is " SHAPE ": out must be %lldx%lld",
                                      DIMS(m[0]), DIMS(m[1]), (long long)m[0].cols, (long long)m[0].rows);
    call c;
    if (call_begin(&c, backend, device, threads) < 0) return drop(m, 2);
    pl_status s;
    Py_BEGIN_ALLOW_THREADS
    if (variant)
        s = pl_stranspose_variant(c.ctx, variant, NULL, m[0].rows, m[0].cols, m[0].data, m[0].ld, m[1].data, m[1].ld);
    else
        s = pl_stranspose(c.ctx, m[0].rows, m[0].cols, m[0].data, m[0].ld, m[1].data, m[1].ld);
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    return call_end(&c, s, m, 2, Py_None);
}

PyObject *plx_reduce(PyObject *self, PyObject *args)
{
    (void)self;
    int backend, device, threads, op, axis;
    PyObject *oa, *or_;
    if (!PyArg_ParseTuple(args, "iiiiiOO", &backend, &device, &threads, &op, &axis, &oa, &or_)) return NULL;
    plx_matrix m[2];
    if (plx_matrix_get(oa, "reduce: A", 'f', 0, &m[0]) < 0) return NULL;
    if (plx_matrix_get(or_, "reduce: out", 'f', 1, &m[1]) < 0) return drop(m, 1);
    const int64_t nr = axis == 1 || axis == -1 ? m[0].rows : m[0].cols;
    if ((axis >= -2 && axis <= 1) && (m[1].rows != 1 || m[1].cols != nr))
        return drop(m, 2), plx_raisef(plx_err.Argument, "reduce: A is " SHAPE " and out has shape " SHAPE ": out needs %lld elements (axis %d)",
                                      DIMS(m[0]), DIMS(m[1]), (long long)nr, axis);
    call c;
    if (call_begin(&c, backend, device, threads) < 0) return drop(m, 2);
    pl_status s;
    Py_BEGIN_ALLOW_THREADS
    s = pl_sreduce(c.ctx, (pl_reduce_op)op, axis, m[0].rows, m[0].cols, m[0].data, m[0].ld, m[1].data);
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    return call_end(&c, s, m, 2, Py_None);
}

PyObject *plx_dot(PyObject *self, PyObject *args)
{
    (void)self;
    int backend, device, threads;
    PyObject *ox, *oy;
    if (!PyArg_ParseTuple(args, "iiiOO", &backend, &device, &threads, &ox, &oy)) return NULL;
    plx_matrix m[2];
    if (plx_matrix_get(ox, "dot: x", 'f', 0, &m[0]) < 0) return NULL;
    if (plx_matrix_get(oy, "dot: y", 'f', 0, &m[1]) < 0) return drop(m, 1);
    if (m[0].rows != 1 || m[1].rows != 1 || m[0].cols != m[1].cols)
        return drop(m, 2), plx_raisef(plx_err.Argument, "dot: x has shape " SHAPE " and y " SHAPE ": two vectors of one length are needed",
                                      DIMS(m[0]), DIMS(m[1]));
    call c;
    if (call_begin(&c, backend, device, threads) < 0) return drop(m, 2);
    float r = 0;
    pl_status s;
    Py_BEGIN_ALLOW_THREADS
    s = pl_sdot(c.ctx, m[0].cols, m[0].data, m[1].data, &r);
    Py_END_ALLOW_THREADS
    return call_end(&c, s, m, 2, s == PL_OK ? PyFloat_FromDouble(r) : NULL);
}

PyObject *plx_conv2d(PyObject *self, PyObject *args)
{
    (void)self;
    const char *variant;
    int backend, device, threads, dtype, mode, border, flip;
    PyObject *oi, *of, *oo;
    if (!PyArg_ParseTuple(args, "ziiiiOOiipO", &variant, &backend, &device, &threads, &dtype, &oi, &of, &mode, &border,
                          &flip, &oo))
        return NULL;
    const char fmt = dtype == PL_I32 ? 'i' : 'f';
    plx_matrix m[3];
    if (plx_matrix_get(oi, "conv2d: image", fmt, 0, &m[0]) < 0) return NULL;
    if (plx_matrix_get(of, "conv2d: filter", fmt, 0, &m[1]) < 0) return drop(m, 1);
    if (plx_matrix_get(oo, "conv2d: out", fmt, 1, &m[2]) < 0) return drop(m, 2);
    if (m[1].rows != m[1].cols || m[1].ld != m[1].cols)
        return drop(m, 3), plx_raisef(plx_err.Argument, "conv2d: the filter is " SHAPE ": a square K x K filter is needed", DIMS(m[1]));
    const int64_t K = m[1].rows;
    const int64_t oh = mode == PL_CONV2D_SAME ? m[0].rows : m[0].rows - K + 1;
    const int64_t ow = mode == PL_CONV2D_SAME ? m[0].cols : m[0].cols - K + 1;
    if (oh > 0 && ow > 0 && (m[2].rows != oh || m[2].cols != ow))
        return drop(m, 3), plx_raisef(plx_err.Argument, "conv2d: image " SHAPE " and filter " SHAPE " give " SHAPE " where out is " SHAPE,
                                      DIMS(m[0]), DIMS(m[1]), (long long)oh, (long long)ow, DIMS(m[2]));
    call c;
    if (call_begin(&c, backend, device, threads) < 0) return drop(m, 3);
    const pl_conv2d_opts opts = {(pl_conv2d_mode)mode, (pl_conv2d_border)border, flip};
    const int k = K > 0x7fffffff ? 0x7fffffff : (int)K;
    /* out's pitch as the library expects: its width where out is empty (a refused shape) */
    const int64_t ld_out = m[2].rows > 0 && m[2].cols > 0 ? m[2].ld : (ow > 0 ? ow : 1);
    pl_status s;
    Py_BEGIN_ALLOW_THREADS
    if (variant)
        s = pl_conv2d_variant(c.ctx, variant, NULL, (pl_dtype)dtype, m[0].rows, m[0].cols, m[0].data, m[0].ld, k,
                              m[1].data, &opts, m[2].data, ld_out);
    else
        s = pl_conv2d(c.ctx, (pl_dtype)dtype, m[0].rows, m[0].cols, m[0].data, m[0].ld, k, m[1].data, &opts, m[2].data,
                      ld_out);
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    return call_end(&c, s, m, 3, Py_None);
}

PyObject *plx_entropy(PyObject *self, PyObject *args)
{
    (void)self;
    const char *variant;
    int backend, device, threads, k, bins, base2;
    PyObject *oi, *oo;
    if (!PyArg_ParseTuple(args, "ziiiOiipO", &variant, &backend, &device, &threads, &oi, &k, &bins, &base2, &oo))
        return NULL;
    plx_matrix m[2];
    if (plx_matrix_get(oi, "entropy: image", 'B', 0, &m[0]) < 0) return NULL;
    if (plx_matrix_get(oo, "entropy: out", 'f', 1, &m[1]) < 0) return drop(m, 1);
    if (m[1].rows != m[0].rows || m[1].cols != m[0].cols)
        return drop(m, 2), plx_raisef(plx_err.Argument, "entropy: image is " SHAPE " and out is " SHAPE ": they must match",
                                      DIMS(m[0]), DIMS(m[1]));
    call c;
    if (call_begin(&c, backend, device, threads) < 0) return drop(m, 2);
    pl_status s;
    Py_BEGIN_ALLOW_THREADS
    if (variant)
        s = pl_entropy_variant(c.ctx, variant, NULL, m[0].rows, m[0].cols, m[0].data, m[0].ld, k, bins, base2,
                               m[1].data, m[1].ld);
    else
        s = pl_entropy(c.ctx, m[0].rows, m[0].cols, m[0].data, m[0].ld, k, bins, base2, m[1].data, m[1].ld);
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    return call_end(&c, s, m, 2, Py_None);
}

/* life(variant, backend, device, threads, W, H, bits, gens, rule, torus): gens generations in
 * place on bits, an H x ((W + 63) / 64) uint64 array (pl_life's layout). The Python layer
 * packs the grid and calls this in slices of generations, so Ctrl-C is seen between them. */
PyObject *plx_life(PyObject *self, PyObject *args)
{
    (void)self;
    const char *variant, *rule;
    int backend, device, threads, torus;
    long long W, H, gens;
    PyObject *ob;
    if (!PyArg_ParseTuple(args, "ziiiLLOLzp", &variant, &backend, &device, &threads, &W, &H, &ob, &gens, &rule, &torus))
        return NULL;
    plx_matrix m[1];
    if (plx_matrix_get(ob, "life: bits", 'Q', 1, &m[0]) < 0) return NULL;
    if (W < 1 || m[0].rows != H || m[0].cols != (W + 63) / 64 || m[0].ld != m[0].cols)
        return drop(m, 1), plx_raisef(plx_err.Argument, "life: bits is " SHAPE " where a %lldx%lld grid packs to %lldx%lld words",
                                      DIMS(m[0]), W, H, H, (W + 63) / 64);
    call c;
    if (call_begin(&c, backend, device, threads) < 0) return drop(m, 1);
    pl_status s;
    Py_BEGIN_ALLOW_THREADS
    if (variant)
        s = pl_life_variant(c.ctx, variant, NULL, W, H, m[0].data, gens, rule, torus);
    else
        s = pl_life(c.ctx, W, H, m[0].data, gens, rule, torus);
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    return call_end(&c, s, m, 1, Py_None);
}

/* best_variant(kernel, backend, device, threads[, size]): the rung the BLAS-like call runs in
 * such a context (pl_best_variant; with a size, for a problem of that size: life's pick depends
 * on the grid), or None. */
PyObject *plx_best_variant(PyObject *self, PyObject *args)
{
    (void)self;
    const char *kernel, *size = NULL;
    int backend, device, threads;
    if (!PyArg_ParseTuple(args, "siii|z", &kernel, &backend, &device, &threads, &size)) return NULL;
    const pl_kernel *k = pl_kernel_find(kernel);
    if (!k) return plx_raisef(plx_err.Argument, "unknown kernel '%s' (see parlab.list())", kernel);
    call c;
    if (call_begin(&c, backend, device, threads) < 0) return NULL;
    const char *best = pl_best_variant_size(c.ctx, k, size);
    plx_ctx_give(c.lent);
    if (best) return PyUnicode_FromString(best);
    Py_RETURN_NONE;
}

/* gemm_c_seconds(variant, threads, A, B, C, repeats) -> seconds per call: the C call
 * pl_sgemm_variant on the CPU, `repeats` times back to back in C (the views and the context
 * taken once), for bench/python_overhead.py: what a C caller pays per call, against which the
 * Python call's overhead is measured. */
static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

PyObject *plx_gemm_c_seconds(PyObject *self, PyObject *args)
{
    (void)self;
    const char *variant;
    int threads, repeats;
    PyObject *oa, *ob, *oc;
    if (!PyArg_ParseTuple(args, "siOOOi", &variant, &threads, &oa, &ob, &oc, &repeats)) return NULL;
    if (repeats < 1) return plx_raisef(plx_err.Argument, "gemm_c_seconds: repeats %d < 1", repeats);
    plx_matrix m[3];
    if (plx_matrix_get(oa, "gemm: A", 'f', 0, &m[0]) < 0) return NULL;
    if (plx_matrix_get(ob, "gemm: B", 'f', 0, &m[1]) < 0) return drop(m, 1);
    if (plx_matrix_get(oc, "gemm: C", 'f', 1, &m[2]) < 0) return drop(m, 2);
    if (m[0].cols != m[1].rows || m[2].rows != m[0].rows || m[2].cols != m[1].cols)
        return drop(m, 3), plx_raisef(plx_err.Argument, "gemm_c_seconds: shapes " SHAPE ", " SHAPE ", " SHAPE " do not fit",
                                      DIMS(m[0]), DIMS(m[1]), DIMS(m[2]));
    call c;
    if (call_begin(&c, PL_BACKEND_CPU, 0, threads) < 0) return drop(m, 3);
    pl_status s = PL_OK;
    double t0 = 0, t1 = 0;
    Py_BEGIN_ALLOW_THREADS
    t0 = seconds_now();
    for (int i = 0; i < repeats && s == PL_OK; i++)
        s = pl_sgemm_variant(c.ctx, variant, NULL, m[0].rows, m[1].cols, m[0].cols, 1.0f, m[0].data, m[0].ld,
                             m[1].data, m[1].ld, 0.0f, m[2].data, m[2].ld);
    t1 = seconds_now();
    Py_END_ALLOW_THREADS
    return call_end(&c, s, m, 3, PyFloat_FromDouble((t1 - t0) / repeats));
}
