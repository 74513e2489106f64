/* _parlab.c: the module parlab._parlab, parlab's C library seen from Python. Its functions
 * take positional arguments as parlab/__init__.py passes them (the public, documented calls
 * live there); this file holds the method table and makes the exception classes. */
#include "_ext/ext.h"

static PyMethodDef methods[] = {
    {"gemm", plx_gemm, METH_VARARGS, "gemm(variant, backend, device, threads, A, B, C, alpha, beta): C in place"},
    {"gemm_c_seconds", plx_gemm_c_seconds, METH_VARARGS,
     "gemm_c_seconds(variant, threads, A, B, C, repeats) -> seconds per C call (bench/python_overhead.py)"},
    {"gemv", plx_gemv, METH_VARARGS, "gemv(variant, backend, device, threads, trans, A, x, y, alpha, beta): y in place"},
    {"transpose", plx_transpose, METH_VARARGS, "transpose(variant, backend, device, threads, A, out)"},
    {"reduce", plx_reduce, METH_VARARGS, "reduce(backend, device, threads, op, axis, A, out)"},
    {"dot", plx_dot, METH_VARARGS, "dot(backend, device, threads, x, y) -> float"},
    {"conv2d", plx_conv2d, METH_VARARGS,
     "conv2d(variant, backend, device, threads, dtype, image, filter, mode, border, flip, out)"},
    {"entropy", plx_entropy, METH_VARARGS, "entropy(variant, backend, device, threads, image, k, bins, base2, out)"},
    {"life", plx_life, METH_VARARGS, "life(variant, backend, device, threads, W, H, bits, gens, rule, torus): bits in place"},
    {"best_variant", plx_best_variant, METH_VARARGS, "best_variant(kernel, backend, device, threads[, size]) -> str or None"},
    {"kernels", plx_kernels, METH_NOARGS, "kernels() -> list of dicts: the kernels and their ladders"},
    {"kernel_names", plx_kernel_names, METH_NOARGS, "kernel_names() -> the kernels' names, as `parlab list` orders them"},
    {"best_variant_for", plx_best_variant_for, METH_VARARGS,
     "best_variant_for(kernel, backend, device, threads, size, settings) -> str or None: the best rung that takes "
     "that problem"},
    {"operands", plx_operands, METH_VARARGS, "operands(kernel, size, settings) -> [(name, dtype, role, rows, cols, ld)]"},
    {"run", plx_run, METH_VARARGS,
     "run(kernel, variant, size, settings, backend, device, threads, operands, stream): a named rung once"},
    {"life_read", plx_life_read, METH_VARARGS, "life_read(path) -> (w, h, bits, rule, grid, grid_w, grid_h, x0, y0)"},
    {"life_write", plx_life_write, METH_VARARGS, "life_write(path, w, h, bits, rule, grid, grid_w, grid_h, x0, y0)"},
    {"peaks", plx_peaks, METH_VARARGS, "peaks(measure=False) -> dict or None"},
    {"machine", plx_machine, METH_NOARGS, "machine() -> (summary, cpu, gpu, features)"},
    {"bench", plx_bench, METH_VARARGS,
     "bench(kernel, sizes, variants, settings, threads, device, warmup, repeats, min_time, seed, cold, check) -> (json, notes)"},
    {"compare", plx_compare, METH_VARARGS, "compare(old, new, kernel, renames, ignore) -> (rows, geomean)"},
    {"rung_make", plx_rung_make, METH_VARARGS,
     "rung_make(kernel, name, backend, precision, call) -> capsule of the rung's pl_variant (parlab.rung)"},
    {"check", plx_check, METH_VARARGS,
     "check(kernel, variant, seeds or None, threads, device) -> (seeds, [outcome dicts])"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "parlab._parlab", "parlab's C library (use the parlab package).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__parlab(void)
{
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (plx_errors_init(m) < 0 || PyModule_AddStringConstant(m, "version", PARLAB_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
