/* npy.c: reading and writing NumPy .npy files (format versions 1.0, 2.0 and 3.0).
 *
 * A .npy file is: the magic "\x93NUMPY", a major and a minor version byte, the header
 * length (2 bytes little-endian in 1.0, 4 bytes in 2.0 and 3.0), then the header, a Python
 * dict literal such as {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded
 * with spaces and ended by '\n', then the raw data in the order the header states.
 *
 * What parlab takes:
 *   dtypes '<f4' (PL_F32), '<f8' (PL_F64), '<i4' (PL_I32), '|u1' or '<u1' (PL_U8), '<u2' (PL_U16),
 *   and bfloat16 (PL_BF16) as NumPy holds ml_dtypes' bfloat16: np.save writes it '<V2' (a
 *   2-byte opaque type: NumPy's type codes have no letter for it), np.load gives it back as
 *   '|V2' bytes that .view(ml_dtypes.bfloat16) turns into numbers again. '<V2', '|V2' and
 *   'bfloat16' (the descr of files written with the dtype's name) read as PL_BF16: a 2-byte
 *   opaque type is taken for bfloat16, the one such type parlab has; PL_BF16 is written '<V2',
 *   byte for byte what np.save writes;
 *   C order only; rank 0 to 8. Rank 0 (shape ()) is a scalar: rank 0, one element.
 *   Dimensions of length 0 are allowed (an empty array; data is still a valid allocation).
 *   Bytes after the data are ignored, as numpy ignores them.
 * Everything else is PL_ERR_FORMAT with a message that names the file and the problem;
 * a file that cannot be opened or read is PL_ERR_IO with the system's reason.
 *
 * pl_npy_write writes version 1.0 with the same bytes numpy (>= 1.23) writes: the header is
 * padded with spaces so the data starts at a multiple of 64 bytes. It writes
 * "<path>.tmp.<pid>" and renames it over path, removing the temporary file on any failure,
 * so a failed write never leaves a partial file at path.
 *
 * The reader works on a byte source (io.h: a whole file, a slice of one, or memory):
 * pl_npy_read_src is how the batch files and .npz members of arrays.c are read.
 *
 * The data is copied as is: this assumes a little-endian host (x86-64, AArch64). */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, fstat */
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "npy.c assumes a little-endian host"
#endif

enum {
    NPY_MAGIC_LEN = 6,
    NPY_PREFIX_V1 = 10,              /* magic, version, 2-byte length */
    NPY_PREFIX_V2 = 12,              /* magic, version, 4-byte length */
    NPY_ALIGN = 64,                  /* numpy aligns the data to 64 bytes */
    NPY_MAX_HEADER = 1 << 20,        /* a sane limit; a real header is < 300 bytes */
    NPY_MAX_RANK = 8,
    NPY_GROWTH_DIGITS = 21           /* numpy's spare room after the shape (see write) */
};

static const char npy_magic[NPY_MAGIC_LEN] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* ---------------------------------------------------------------- dtypes */

static const char *dtype_descr(pl_dtype t)
{
    switch (t) {
    case PL_F32: return "<f4";
    case PL_F64: return "<f8";
    case PL_I32: return "<i4";
    case PL_U8: return "|u1";
    case PL_U16: return "<u2";
    case PL_BF16: return "<V2";
    }
    return NULL;
}

/* Map a descr string to a dtype, or fail naming it. */
static pl_status parse_descr(const char *path, const char *d, pl_dtype *t)
{
    static const struct { const char *descr; pl_dtype t; } known[] = {
        {"<f4", PL_F32}, {"<f8", PL_F64}, {"<i4", PL_I32}, {"|u1", PL_U8}, {"<u1", PL_U8}, {"<u2", PL_U16},
        {"<V2", PL_BF16}, {"|V2", PL_BF16}, {"bfloat16", PL_BF16},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(d, known[i].descr) == 0) {
            *t = known[i].t;
            return PL_OK;
        }
    /* A big-endian type parlab would take in little-endian order: say how to convert. */
    if (d[0] == '>' && (strcmp(d + 1, "f4") == 0 || strcmp(d + 1, "f8") == 0 ||
                        strcmp(d + 1, "i4") == 0))
        return pl_fail(PL_ERR_FORMAT,
                       "%s: big-endian dtype '%s' not supported; convert with a.astype('<%s')",
                       path, d, d + 1);
    return pl_fail(PL_ERR_FORMAT, "%s: dtype '%s' not supported (float32, float64, int32, uint8)",
                   path, d);
}

int64_t pl_array_count(const pl_array *a)
{
    /* The product of the dimensions; 1 for rank 0; -1 for a bad rank, a negative
     * dimension or a product that does not fit in int64. */
    if (!a || a->rank < 0 || a->rank > NPY_MAX_RANK) return -1;
    int64_t n = 1;
    for (int i = 0; i < a->rank; i++)
        if (pl_mul_overflow(n, a->shape[i], &n)) return -1;
    return n;
}

void pl_array_free(pl_array *a)
{
    if (!a) return;
    pl_free(a->data);
    memset(a, 0, sizeof *a);
}

/* ---------------------------------------------------------------- the header dict */

/* A cursor over the header text, for messages that point at the problem. */
typedef struct scan {
    const char *path;
    const char *begin, *p, *end;
} scan;

static void skip_ws(scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

/* PL_ERR_FORMAT "malformed header dict: <what> at offset N: 'text...'" */
static pl_status malformed(scan *s, const char *what)
{
    char near[24];
    size_t n = 0;
    for (const char *q = s->p; q < s->end && n + 1 < sizeof near; q++)
        near[n++] = (*q >= 0x20 && *q < 0x7f) ? *q : '?';
    near[n] = '\0';
    return pl_fail(PL_ERR_FORMAT, "%s: malformed header dict: %s at offset %td: '%s'", s->path,
                   what, s->p - s->begin, near);
}

static int accept(scan *s, char c)
{
    skip_ws(s);
    if (s->p < s->end && *s->p == c) {
        s->p++;
        return 1;
    }
    return 0;
}

/* A Python string literal in single or double quotes (no escapes: numpy writes none). */
static pl_status parse_string(scan *s, char *out, size_t n)
{
    skip_ws(s);
    if (s->p >= s->end || (*s->p != '\'' && *s->p != '"')) return malformed(s, "expected a string");
    char quote = *s->p++;
    size_t len = 0;
    while (s->p < s->end && *s->p != quote) {
        if (*s->p == '\\' || *s->p == '\n') return malformed(s, "unexpected character in string");
        if (len + 1 >= n) return malformed(s, "string too long");
        out[len++] = *s->p++;
    }
    if (s->p >= s->end) return malformed(s, "unterminated string");
    s->p++;
    out[len] = '\0';
    return PL_OK;
}

static pl_status parse_bool(scan *s, int *v)
{
    skip_ws(s);
    size_t left = (size_t)(s->end - s->p);
    if (left >= 4 && memcmp(s->p, "True", 4) == 0) {
        s->p += 4;
        *v = 1;
    } else if (left >= 5 && memcmp(s->p, "False", 5) == 0) {
        s->p += 5;
        *v = 0;
    } else {
        return malformed(s, "expected True or False");
    }
    return PL_OK;
}

/* A tuple of non-negative integers: (), (3,), (2, 3), (2, 3,). Python 2 files may write 3L. */
static pl_status parse_shape(scan *s, int *rank, int64_t *shape)
{
    if (!accept(s, '(')) return malformed(s, "expected a shape tuple");
    *rank = 0;
    for (;;) {
        if (accept(s, ')')) break;
        skip_ws(s);
        if (s->p >= s->end || *s->p < '0' || *s->p > '9')
            return malformed(s, "expected a non-negative integer in shape");
        int64_t v = 0;
        while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
            int d = *s->p - '0';
            if (v > (INT64_MAX - d) / 10)
                return pl_fail(PL_ERR_FORMAT, "%s: shape overflow: a dimension exceeds %" PRId64,
                               s->path, INT64_MAX);
            v = v * 10 + d;
            s->p++;
        }
        if (s->p < s->end && *s->p == 'L') s->p++;
        if (*rank >= NPY_MAX_RANK)
            return pl_fail(PL_ERR_FORMAT, "%s: rank > %d not supported", s->path, NPY_MAX_RANK);
        shape[(*rank)++] = v;
        if (accept(s, ',')) continue;
        if (accept(s, ')')) break;
        return malformed(s, "expected ',' or ')' in shape");
    }
    return PL_OK;
}

/* Parse the header dict into a (shape, rank, dtype; data stays NULL). */
static pl_status parse_header(const char *path, const char *text, size_t len, pl_array *a)
{
    scan s = {path, text, text, text + len};
    char descr[32] = "";
    int fortran = 0, have_descr = 0, have_fortran = 0, have_shape = 0;
    pl_status st;

    if (!accept(&s, '{')) return malformed(&s, "expected '{'");
    for (;;) {
        if (accept(&s, '}')) break;
        char key[32];
        if ((st = parse_string(&s, key, sizeof key)) != PL_OK) return st;
        if (!accept(&s, ':')) return malformed(&s, "expected ':' after a key");
        int *seen;
        if (strcmp(key, "descr") == 0) {
            seen = &have_descr;
            skip_ws(&s);
            if (s.p < s.end && *s.p == '[')
                return pl_fail(PL_ERR_FORMAT,
                               "%s: structured dtype not supported (float32, float64, int32, uint8)",
                               path);
            st = parse_string(&s, descr, sizeof descr);
        } else if (strcmp(key, "fortran_order") == 0) {
            seen = &have_fortran;
            st = parse_bool(&s, &fortran);
        } else if (strcmp(key, "shape") == 0) {
            seen = &have_shape;
            st = parse_shape(&s, &a->rank, a->shape);
        } else {
            return pl_fail(PL_ERR_FORMAT, "%s: malformed header dict: unknown key '%s'", path, key);
        }
        if (st != PL_OK) return st;
        if (*seen)
            return pl_fail(PL_ERR_FORMAT, "%s: malformed header dict: key '%s' twice", path, key);
        *seen = 1;
        if (accept(&s, ',')) continue;
        if (accept(&s, '}')) break;
        return malformed(&s, "expected ',' or '}'");
    }
    skip_ws(&s);
    while (s.p < s.end && *s.p == '\0') s.p++; /* some old writers pad with NULs */
    if (s.p != s.end) return malformed(&s, "text after the dict");
    if (!have_descr || !have_fortran || !have_shape)
        return pl_fail(PL_ERR_FORMAT, "%s: malformed header dict: no '%s' key", path,
                       !have_descr ? "descr" : !have_fortran ? "fortran_order" : "shape");

    if ((st = parse_descr(path, descr, &a->dtype)) != PL_OK) return st;
    if (fortran)
        return pl_fail(PL_ERR_FORMAT,
                       "%s: fortran order not supported; save with np.ascontiguousarray", path);
    return PL_OK;
}

/* ---------------------------------------------------------------- reading */

/* Read the prefix and header from s (the whole file, a batch record or a .npz member) into a's
 * dtype, rank and shape; s is left at the data, which it is checked to hold where its size is
 * known; *bytes = the data's size. */
static pl_status read_header(const char *path, pl_src *s, pl_array *a, int64_t *bytes)
{
    unsigned char prefix[NPY_PREFIX_V2];
    int64_t got = pl_src_read(s, prefix, NPY_PREFIX_V1);
    if (got < 0) return pl_fail(PL_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
    if (got < NPY_MAGIC_LEN || memcmp(prefix, npy_magic, NPY_MAGIC_LEN) != 0)
        return pl_fail(PL_ERR_FORMAT, "%s: not a .npy file (bad magic; expected \\x93NUMPY)", path);
    if (got < NPY_PREFIX_V1)
        return pl_fail(PL_ERR_FORMAT, "%s: truncated header: file ends after %" PRId64 " bytes",
                       path, got);

    int major = prefix[6], minor = prefix[7];
    size_t header_len;
    if (major == 1 && minor == 0) {
        header_len = (size_t)prefix[8] | (size_t)prefix[9] << 8;
    } else if ((major == 2 || major == 3) && minor == 0) {
        got = pl_src_read(s, prefix + NPY_PREFIX_V1, 2);
        if (got < 0) return pl_fail(PL_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
        if (got < 2)
            return pl_fail(PL_ERR_FORMAT, "%s: truncated header: file ends after %" PRId64 " bytes",
                           path, NPY_PREFIX_V1 + got);
        header_len = (size_t)prefix[8] | (size_t)prefix[9] << 8 | (size_t)prefix[10] << 16 |
                     (size_t)prefix[11] << 24;
    } else {
        return pl_fail(PL_ERR_FORMAT, "%s: unsupported .npy version %d.%d (1.0, 2.0, 3.0)", path,
                       major, minor);
    }
    if (header_len > NPY_MAX_HEADER)
        return pl_fail(PL_ERR_FORMAT, "%s: header length %zu is implausibly large", path,
                       header_len);

    char *header = malloc(header_len + 1);
    if (!header) return pl_fail(PL_ERR_NOMEM, "%s: cannot allocate the header", path);
    got = pl_src_read(s, header, header_len);
    if (got < 0) {
        int e = errno;
        free(header);
        return pl_fail(PL_ERR_IO, "%s: cannot read: %s", path, strerror(e));
    }
    if ((size_t)got < header_len) {
        free(header);
        return pl_fail(PL_ERR_FORMAT,
                       "%s: truncated header: expected %zu bytes, found %" PRId64, path,
                       header_len, got);
    }
    header[header_len] = '\0';
    pl_status st = parse_header(path, header, header_len, a);
    free(header);
    if (st != PL_OK) return st;

    int64_t count = pl_array_count(a);
    if (count < 0 || pl_mul_overflow(count, (int64_t)pl_dtype_size(a->dtype), bytes) ||
        (uint64_t)*bytes > SIZE_MAX)
        return pl_fail(PL_ERR_FORMAT, "%s: shape overflow: the array has more elements than fit "
                                      "in memory", path);

    /* Where the source's size is known (a regular file, a record, a member), check it before
     * allocating: a corrupt shape could ask for terabytes. */
    if (s->left >= 0 && s->left < *bytes)
        return pl_fail(PL_ERR_FORMAT, "%s: truncated data: expected %" PRId64
                       " bytes of data, found %" PRId64, path, *bytes, s->left);
    return PL_OK;
}

/* Read the header and data from s. */
static pl_status read_src(const char *path, pl_src *s, pl_array *a)
{
    int64_t bytes, got;
    pl_status st = read_header(path, s, a, &bytes);
    if (st != PL_OK) return st;
    a->data = pl_alloc((size_t)bytes);
    if (!a->data)
        return pl_fail(PL_ERR_NOMEM, "%s: cannot allocate %" PRId64 " bytes of data", path, bytes);
    got = pl_src_read(s, a->data, (size_t)bytes);
    if (got < 0) return pl_fail(PL_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
    if (got < bytes)
        return pl_fail(PL_ERR_FORMAT, "%s: truncated data: expected %" PRId64
                       " bytes of data, found %" PRId64, path, bytes, got);
    return PL_OK;
}

pl_status pl_npy_read_src(const char *name, pl_src *s, pl_array *a)
{
    memset(a, 0, sizeof *a);
    pl_status st = read_src(name, s, a);
    if (st != PL_OK) pl_array_free(a); /* leave *a empty on failure */
    return st;
}

pl_status pl_npy_read_header(const char *name, pl_src *s, pl_array *a)
{
    memset(a, 0, sizeof *a);
    int64_t bytes;
    return read_header(name, s, a, &bytes);
}

pl_status pl_npy_read(const char *path, pl_array *a)
{
    if (!a) return pl_fail(PL_ERR_ARG, "pl_npy_read: the array is NULL");
    memset(a, 0, sizeof *a);
    if (!path) return pl_fail(PL_ERR_ARG, "pl_npy_read: the path is NULL");

    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return pl_fail(PL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    int64_t size = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? (int64_t)sb.st_size : -1;
    pl_src s = pl_src_fd(fd, size);
    pl_status st = pl_npy_read_src(path, &s, a);
    close(fd);
    return st;
}

/* ---------------------------------------------------------------- writing */

/* Build the version 1.0 prefix + header in buf; returns its length (a multiple of 64), or 0. */
size_t pl_npy_header(const pl_array *a, char *buf, size_t n)
{
    char shape[NPY_MAX_RANK * 24 + 8];
    size_t len = 0;
    shape[len++] = '(';
    for (int i = 0; i < a->rank; i++)
        len += (size_t)snprintf(shape + len, sizeof shape - len, "%s%" PRId64, i ? ", " : "",
                                a->shape[i]);
    if (a->rank == 1) shape[len++] = ',';
    shape[len++] = ')';
    shape[len] = '\0';

    char *dict = buf + NPY_PREFIX_V1;
    int dl = snprintf(dict, n - NPY_PREFIX_V1, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                      dtype_descr(a->dtype), shape);
    if (dl < 0 || (size_t)dl >= n - NPY_PREFIX_V1) return 0;
    size_t hl = (size_t)dl;
    /* numpy leaves room to grow the first dimension in place: spaces up to 21 digits. */
    if (a->rank > 0) {
        char first[24];
        int fl = snprintf(first, sizeof first, "%" PRId64, a->shape[0]);
        hl += (size_t)(NPY_GROWTH_DIGITS - fl);
    }
    /* Then spaces and '\n' so the data starts at a multiple of 64 (numpy's own rule, which
     * pads a full 64 when already aligned). */
    size_t pad = NPY_ALIGN - (NPY_PREFIX_V1 + hl + 1) % NPY_ALIGN;
    hl += pad + 1;
    if (NPY_PREFIX_V1 + hl > n || hl > 0xffff) return 0;
    memset(dict + dl, ' ', hl - 1 - (size_t)dl);
    dict[hl - 1] = '\n';

    memcpy(buf, npy_magic, NPY_MAGIC_LEN);
    buf[6] = 1;
    buf[7] = 0;
    buf[8] = (char)(hl & 0xff);
    buf[9] = (char)(hl >> 8);
    return NPY_PREFIX_V1 + hl;
}

pl_status pl_npy_check(const char *path, const pl_array *a, int64_t *bytes)
{
    if (!dtype_descr(a->dtype))
        return pl_fail(PL_ERR_ARG, "%s: cannot write dtype %d", path, (int)a->dtype);
    if (a->rank < 0 || a->rank > NPY_MAX_RANK)
        return pl_fail(PL_ERR_ARG, "%s: cannot write rank %d (0..%d)", path, a->rank,
                       NPY_MAX_RANK);
    for (int i = 0; i < a->rank; i++)
        if (a->shape[i] < 0)
            return pl_fail(PL_ERR_ARG, "%s: dimension %d is negative (%" PRId64 ")", path, i,
                           a->shape[i]);
    int64_t count = pl_array_count(a);
    if (count < 0 || pl_mul_overflow(count, (int64_t)pl_dtype_size(a->dtype), bytes) ||
        (uint64_t)*bytes > SIZE_MAX)
        return pl_fail(PL_ERR_OVERFLOW, "%s: the array's size overflows", path);
    if (*bytes > 0 && !a->data) return pl_fail(PL_ERR_ARG, "%s: the array has no data", path);
    return PL_OK;
}

pl_status pl_npy_write(const char *path, const pl_array *a)
{
    if (!path || !a) return pl_fail(PL_ERR_ARG, "pl_npy_write: NULL %s", path ? "array" : "path");
    int64_t bytes;
    pl_status st = pl_npy_check(path, a, &bytes);
    if (st != PL_OK) return st;

    char header[1024];
    size_t header_len = pl_npy_header(a, header, sizeof header);
    if (header_len == 0) return pl_fail(PL_ERR_INTERNAL, "%s: header does not fit", path);

    pl_tmp t;
    if ((st = pl_tmp_open(path, &t)) != PL_OK) return st;
    if (pl_write_full(t.fd, header, header_len) != 0 ||
        (bytes > 0 && pl_write_full(t.fd, a->data, (size_t)bytes) != 0))
        st = pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    return pl_tmp_close(path, &t, st);
}
