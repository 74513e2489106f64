/* errors.c: parlab's failures as Python exceptions. Each kind is a subclass of parlab.Error and
 * of the built-in a Python user would catch (ValueError for a bad argument, MemoryError, ...);
 * the message is the library's own (pl_last_error), and .status names the pl_status. */
#include "ext.h"

#include <stdarg.h>
#include <stdio.h>

plx_errors plx_err;

/* parlab.<name>, a subclass of parlab.Error and of builtin (NULL: Error alone). */
static PyObject *make(PyObject *module, const char *name, PyObject *builtin, const char *doc)
{
    char full[64];
    snprintf(full, sizeof full, "parlab.%s", name);
    PyObject *bases = builtin ? PyTuple_Pack(2, plx_err.Error, builtin) : NULL;
    if (builtin && !bases) return NULL;
    PyObject *cls = PyErr_NewExceptionWithDoc(full, doc, builtin ? bases : plx_err.Error, NULL);
    Py_XDECREF(bases);
    if (!cls) return NULL;
    Py_INCREF(cls);
    if (PyModule_AddObject(module, name, cls) < 0) {
        Py_DECREF(cls);
        Py_DECREF(cls);
        return NULL;
    }
    return cls;
}

int plx_errors_init(PyObject *module)
{
    plx_err.Error = PyErr_NewExceptionWithDoc("parlab.Error", "A failure reported by the parlab library.", NULL, NULL);
    if (!plx_err.Error) return -1;
    Py_INCREF(plx_err.Error);
    if (PyModule_AddObject(module, "Error", plx_err.Error) < 0) return -1;
    struct {
        PyObject **slot;
        const char *name;
        PyObject *builtin;
        const char *doc;
    } kinds[] = {
        {&plx_err.Argument, "ArgumentError", PyExc_ValueError, "A bad argument: a size, shape, value or name."},
        {&plx_err.Type, "DTypeError", PyExc_TypeError, "An array of a dtype parlab does not compute in."},
        {&plx_err.Memory, "OutOfMemoryError", PyExc_MemoryError, "Host or device memory ran out, or the problem is too big."},
        {&plx_err.Unsupported, "UnsupportedError", PyExc_RuntimeError, "This build or machine cannot run it (no CUDA, no GPU, ISA)."},
        {&plx_err.Cuda, "CudaError", PyExc_RuntimeError, "A CUDA call failed."},
        {&plx_err.File, "FileError", PyExc_OSError, "A file could not be opened, read or written."},
        {&plx_err.Format, "FormatError", PyExc_ValueError, "A file is malformed, truncated or of the wrong type."},
        {&plx_err.Verify, "VerifyError", PyExc_RuntimeError, "A result failed verification, or an internal error."},
        {&plx_err.Rung, "RungError", PyExc_RuntimeError,
         "Your rung (parlab.rung) raised an exception: the message names the rung, __cause__ is the exception."},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!(*kinds[i].slot = make(module, kinds[i].name, kinds[i].builtin, kinds[i].doc))) return -1;
    /* .status: the pl_status's name; raised by the extension or the Python layer before the
     * library sees the call, an argument error's is the class's own. */
    PyObject *arg = PyUnicode_FromString(pl_status_name(PL_ERR_ARG));
    int rc = arg && PyObject_SetAttrString(plx_err.Error, "status", Py_None) == 0 &&
                     PyObject_SetAttrString(plx_err.Argument, "status", arg) == 0 &&
                     PyObject_SetAttrString(plx_err.Type, "status", arg) == 0
                 ? 0
                 : -1;
    Py_XDECREF(arg);
    return rc;
}

static PyObject *class_of(pl_status s)
{
    switch (s) {
    case PL_ERR_ARG:
    case PL_ERR_OVERFLOW: return plx_err.Argument;
    case PL_ERR_NOMEM:
    case PL_ERR_DEVICE_NOMEM:
    case PL_ERR_TOO_BIG: return plx_err.Memory;
    case PL_ERR_NO_CUDA:
    case PL_ERR_NO_GPU:
    case PL_ERR_UNSUPPORTED: return plx_err.Unsupported;
    case PL_ERR_CUDA: return plx_err.Cuda;
    case PL_ERR_IO: return plx_err.File;
    case PL_ERR_FORMAT: return plx_err.Format;
    default: return plx_err.Verify;
    }
}

/* The exception instance carries .status ("invalid argument", ...) beside its message. */
static PyObject *raise_with_status(PyObject *cls, const char *msg, pl_status s)
{
    PyObject *exc = PyObject_CallFunction(cls, "s", msg);
    if (!exc) return NULL;
    PyObject *name = PyUnicode_FromString(pl_status_name(s));
    if (name) {
        PyObject_SetAttrString(exc, "status", name);
        Py_DECREF(name);
    }
    PyErr_SetObject(cls, exc);
    Py_DECREF(exc);
    return NULL;
}

PyObject *plx_raise(pl_status s) { return plx_raise_msg(s, pl_last_error()); }

PyObject *plx_raise_msg(pl_status s, const char *msg)
{
    if (!msg || !*msg) msg = pl_status_name(s);
    if (s == PL_ERR_CANCELLED) {
        PyErr_SetString(PyExc_KeyboardInterrupt, msg);
        return NULL;
    }
    return raise_with_status(class_of(s), msg, s);
}

PyObject *plx_raisef(PyObject *cls, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    PyErr_SetString(cls, msg);
    return NULL;
}
