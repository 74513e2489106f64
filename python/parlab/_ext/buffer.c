/* buffer.c: arrays in through the buffer protocol. parlab's calls take row-major matrices with a
 * leading dimension, so a NumPy view with unit column stride (a slice of rows or columns of a
 * C-ordered array) goes in without a copy; the Python layer copies other layouts (Fortran
 * order, negative or column strides) first, as NumPy's own functions do. */
#include "ext.h"

#include <string.h>

/* The format's type letter, after a byte-order mark of this machine (little-endian x86-64);
 * 0 for a big-endian or compound format. */
static char type_letter(const char *format)
{
    if (!format) return 'B';
    if (*format == '@' || *format == '=' || *format == '<') format++;
    if (!format[0] || format[1]) return 0;
    char c = format[0];
    if (c == 'l' && sizeof(long) == 4) return 'i';
    if ((c == 'L' || c == 'N') && sizeof(long) == 8) return 'Q';
    return c;
}

static const char *type_name(char c)
{
    switch (c) {
    case 'f': return "float32";
    case 'd': return "float64";
    case 'e': return "float16";
    case 'i': return "int32";
    case 'I': return "uint32";
    case 'q': case 'l': return "int64";
    case 'Q': return "uint64";
    case 'b': return "int8";
    case 'B': return "uint8";
    case 'h': return "int16";
    case 'H': return "uint16";
    case '?': return "bool";
    default: return "an unsupported type";
    }
}

static void release_view(plx_matrix *m)
{
    if (m->held) PyBuffer_Release(&m->view);
    m->held = 0;
}

int plx_matrix_get(PyObject *obj, const char *what, char fmt, int writable, plx_matrix *m)
{
    memset(m, 0, sizeof *m);
    int flags = PyBUF_STRIDES | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, &m->view, flags) < 0) return -1;
    m->held = 1;
    Py_buffer *v = &m->view;
    char got = type_letter(v->format);
    if (got != fmt) {
        plx_raisef(plx_err.Type, "%s: dtype %s where %s is needed", what, type_name(got), type_name(fmt));
        goto fail;
    }
    if (v->ndim != 1 && v->ndim != 2) {
        plx_raisef(plx_err.Argument, "%s: a %d-D array where a %s is needed", what, v->ndim,
                   v->ndim == 0 ? "vector or matrix" : "2-D matrix");
        goto fail;
    }
    const Py_ssize_t item = v->itemsize;
    m->rows = v->ndim == 2 ? v->shape[0] : 1;
    m->cols = v->shape[v->ndim - 1];
    const Py_ssize_t col_stride = v->strides ? v->strides[v->ndim - 1] : item;
    const Py_ssize_t row_stride = v->ndim == 2 ? (v->strides ? v->strides[0] : item * m->cols) : item * m->cols;
    if ((m->cols > 1 && col_stride != item) || (m->rows > 1 && (row_stride % item || row_stride / item < m->cols))) {
        plx_raisef(plx_err.Argument, "%s: its strides (%zd, %zd) are not a row-major layout with unit column stride",
                   what, row_stride, col_stride);
        goto fail;
    }
    m->ld = m->rows > 1 ? row_stride / item : m->cols;
    m->data = v->buf;
    return 0;
fail:
    release_view(m);
    return -1;
}

int plx_bytes_get(PyObject *obj, const char *what, size_t bytes, int writable, plx_matrix *m)
{
    memset(m, 0, sizeof *m);
    /* PyBUF_SIMPLE (| WRITABLE): the exporter refuses unless the memory is contiguous. */
    if (PyObject_GetBuffer(obj, &m->view, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) < 0) return -1;
    m->held = 1;
    if ((size_t)m->view.len < bytes) {
        plx_raisef(plx_err.Argument, "%s: %zd bytes where %zu are needed", what, m->view.len, bytes);
        release_view(m);
        return -1;
    }
    m->data = m->view.buf;
    return 0;
}

void plx_matrix_release(plx_matrix *m) { release_view(m); }
