/* ext.h: what the files of parlab's C extension share. The extension is C over CPython's
 * limited API (Py_LIMITED_API 3.9: one abi3 wheel for every CPython from 3.9 on) and binds
 * include/parlab.h, and the bench session (src/harness/session.h, over parlab.h alone).
 *
 *   _parlab.c   the module: its method table, the exception classes
 *   errors.c    a pl_status and the library's message as a Python exception
 *   buffer.c    the buffer protocol: arrays in as (pointer, rows, cols, leading dimension)
 *   ctxpool.c   contexts lent to one call at a time (a context is one thread's at a time)
 *   calls.c     one function per kernel over the BLAS-like calls (host arrays)
 *   registry.c  list, operands, a named rung on host or device arrays, Life files, peaks
 *   bench.c     bench: the library's bench session over sizes and rungs, stoppable with Ctrl-C
 *   compare.c   compare: two bench runs row by row, as `parlab compare`
 *   rung.c      parlab.rung: a Python callable as a rung (the trampoline the harness calls)
 *   check.c     check: the correctness suite alone (pl_check_variant) on one rung
 */
#ifndef PARLAB_PY_EXT_H
#define PARLAB_PY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "parlab.h"

/* The buffer protocol joined the limited API in 3.11 (PEP 688's era), but Py_buffer, its
 * flags and PyObject_GetBuffer/PyBuffer_Release have had this layout and these exported
 * symbols in every CPython since 3.3; below 3.11 the limited headers only hide them. */
#if !defined(Py_LIMITED_API) || Py_LIMITED_API >= 0x030B0000
#define PLX_HAVE_BUFFER_DECL 1
#else
typedef struct {
    void *buf;
    PyObject *obj;
    Py_ssize_t len;
    Py_ssize_t itemsize;
    int readonly;
    int ndim;
    char *format;
    Py_ssize_t *shape;
    Py_ssize_t *strides;
    Py_ssize_t *suboffsets;
    void *internal;
} Py_buffer;
#define PyBUF_SIMPLE 0
#define PyBUF_WRITABLE 0x0001
#define PyBUF_FORMAT 0x0004
#define PyBUF_ND 0x0008
#define PyBUF_STRIDES (0x0010 | PyBUF_ND)
#define PyBUF_READ 0x100 /* PyMemoryView_FromMemory's flags */
#define PyBUF_WRITE 0x200
PyAPI_FUNC(int) PyObject_GetBuffer(PyObject *obj, Py_buffer *view, int flags);
PyAPI_FUNC(void) PyBuffer_Release(Py_buffer *view);
#endif

/* ---- errors.c */
/* The exception classes (made in module init): parlab.Error and one subclass per kind. */
typedef struct plx_errors {
    PyObject *Error;       /* the base of all */
    PyObject *Argument;    /* PL_ERR_ARG, PL_ERR_OVERFLOW: also ValueError */
    PyObject *Type;        /* a dtype parlab does not compute in: also TypeError */
    PyObject *Memory;      /* host or device memory, too big: also MemoryError */
    PyObject *Unsupported; /* no CUDA build, no GPU, unsupported here: also RuntimeError */
    PyObject *Cuda;        /* a CUDA call failed: also RuntimeError */
    PyObject *File;        /* PL_ERR_IO: also OSError */
    PyObject *Format;      /* PL_ERR_FORMAT: also ValueError */
    PyObject *Verify;      /* PL_ERR_VERIFY, PL_ERR_INTERNAL: also RuntimeError */
    PyObject *Rung;        /* a Python rung's callable raised (rung.c, _rung.py): also RuntimeError */
} plx_errors;
extern plx_errors plx_err;
int plx_errors_init(PyObject *module);
/* Set the exception for s with the library's message for this thread; returns NULL. A
 * cancelled call becomes KeyboardInterrupt. */
PyObject *plx_raise(pl_status s);
/* The same with a message taken on another thread (the bench worker's). */
PyObject *plx_raise_msg(pl_status s, const char *msg);
/* Set an exception of class cls with a formatted message; returns NULL. */
PyObject *plx_raisef(PyObject *cls, const char *fmt, ...);

/* ---- buffer.c */
/* An array taken through the buffer protocol as a row-major matrix: rank 1 (1 x n) or 2,
 * unit column stride, a row stride that is a whole number of elements >= cols. */
typedef struct plx_matrix {
    Py_buffer view;
    int held;      /* view must be released */
    void *data;
    int64_t rows, cols, ld;
} plx_matrix;
/* fmt: the struct format parlab computes in ('f' float32, 'i' int32, 'B' uint8, 'Q' uint64);
 * what: the argument's name for messages. 0 on success, -1 with an exception set. */
int plx_matrix_get(PyObject *obj, const char *what, char fmt, int writable, plx_matrix *m);
void plx_matrix_release(plx_matrix *m);
/* A contiguous buffer of at least `bytes` bytes (the generic rung path). */
int plx_bytes_get(PyObject *obj, const char *what, size_t bytes, int writable, plx_matrix *m);

/* ---- ctxpool.c */
/* A context for one call (backend PL_BACKEND_CPU or _CUDA, device, threads <= 0: default,
 * stream: the caller's CUDA stream, or NULL). Give it back when the call ends; contexts are
 * kept for the next call of the same key. NULL with an exception set on failure. */
typedef struct plx_ctx plx_ctx;
plx_ctx *plx_ctx_take(int backend, int device, int threads, void *stream);
pl_ctx *plx_ctx_get(plx_ctx *c);
void plx_ctx_give(plx_ctx *c);

/* ---- the module's functions, by file */
PyObject *plx_gemm(PyObject *self, PyObject *args);
PyObject *plx_gemm_c_seconds(PyObject *self, PyObject *args);
PyObject *plx_gemv(PyObject *self, PyObject *args);
PyObject *plx_transpose(PyObject *self, PyObject *args);
PyObject *plx_reduce(PyObject *self, PyObject *args);
PyObject *plx_dot(PyObject *self, PyObject *args);
PyObject *plx_conv2d(PyObject *self, PyObject *args);
PyObject *plx_entropy(PyObject *self, PyObject *args);
PyObject *plx_life(PyObject *self, PyObject *args);
PyObject *plx_best_variant(PyObject *self, PyObject *args);

PyObject *plx_kernels(PyObject *self, PyObject *args);
PyObject *plx_kernel_names(PyObject *self, PyObject *args);
PyObject *plx_operands(PyObject *self, PyObject *args);
PyObject *plx_run(PyObject *self, PyObject *args);
PyObject *plx_best_variant_for(PyObject *self, PyObject *args);
PyObject *plx_life_read(PyObject *self, PyObject *args);
PyObject *plx_life_write(PyObject *self, PyObject *args);
PyObject *plx_peaks(PyObject *self, PyObject *args);
PyObject *plx_machine(PyObject *self, PyObject *args);

PyObject *plx_bench(PyObject *self, PyObject *args);
PyObject *plx_compare(PyObject *self, PyObject *args);

/* ---- rung.c */
/* rung_make(kernel, name, backend, precision, call) -> a capsule named "parlab.pl_variant"
 * holding the rung's const pl_variant * (the harness takes it as any rung: pl_bench_variant,
 * pl_session_add_job); the rung lives as long as the capsule. */
PyObject *plx_rung_make(PyObject *self, PyObject *args);
/* The rung of such a capsule; NULL for any other object (no exception set). */
const pl_variant *plx_rung_variant(PyObject *o);
/* v a Python rung whose call failed: set that call's exception (the callable's own, chained,
 * or the wrong shape or dtype it returned, naming the rung) and return 1; else 0. Raise it
 * where the harness's status says the run failed, in place of the status's message. */
int plx_rung_raise_pending(const pl_variant *v);
/* A thread of the caller's that runs Python rungs (the bench worker) holds one Python thread
 * state from begin to end, not one made and dropped a call (PyGILState_Ensure alone). */
typedef struct plx_rung_thread {
    PyGILState_STATE gil;
    PyThreadState *state;
} plx_rung_thread;
void plx_rung_thread_begin(plx_rung_thread *t);
void plx_rung_thread_end(plx_rung_thread *t);
PyObject *plx_check(PyObject *self, PyObject *args);

#endif
