/* test_npy.c: the .npy reader and writer (src/io/npy.c).
 * Round trips for every dtype at ranks 0 to 3 (with an empty dimension), the exact header
 * bytes numpy writes, files written by hand in versions 1.0, 2.0 and 3.0, every kind of
 * malformed file, a missing file, and writes that fail without leaving a file behind.
 * No numpy needed: the fixtures are byte arrays built here, in a mkdtemp directory. */
#define _POSIX_C_SOURCE 200809L
#include "parlab.h"
#include "check.h"
#include "tmpdir.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Read a whole file; *n gets its size. Caller frees. */
static unsigned char *read_bytes(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *buf = malloc(1 << 16);
    *n = fread(buf, 1, 1 << 16, f);
    fclose(f);
    return buf;
}

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* Build a .npy file by hand: the header dict `dict` padded to 64 bytes with '\n', in the
 * given version, then data. Returns the file's size. */
static size_t make_npy(unsigned char *out, int major, const char *dict, const void *data,
                       size_t data_n)
{
    size_t prefix = major == 1 ? 10 : 12, dl = strlen(dict);
    size_t total = prefix + dl + 1;
    total = (total + 63) / 64 * 64;
    size_t hl = total - prefix;
    memcpy(out, "\x93NUMPY", 6);
    out[6] = (unsigned char)major;
    out[7] = 0;
    for (size_t i = 0; i < prefix - 8; i++) out[8 + i] = (unsigned char)(hl >> (8 * i));
    memcpy(out + prefix, dict, dl);
    memset(out + prefix + dl, ' ', hl - dl - 1);
    out[total - 1] = '\n';
    memcpy(out + total, data, data_n);
    return total + data_n;
}

/* ---------------------------------------------------------------- round trips */

static void fill_pattern(pl_array *a, int64_t count)
{
    unsigned char *p = a->data;
    for (int64_t i = 0; i < count; i++) {
        switch (a->dtype) {
        case PL_F32: ((float *)p)[i] = (float)i * 0.5f - 3.25f; break;
        case PL_F64: ((double *)p)[i] = (double)i * 1e-3 - 1e10; break;
        case PL_I32: ((int32_t *)p)[i] = (int32_t)(i * 7919) - 100000; break;
        case PL_U8: p[i] = (unsigned char)(i * 37 + 1); break;
        case PL_U16: ((uint16_t *)p)[i] = (uint16_t)(i * 4099 + 1); break;
        case PL_BF16: ((uint16_t *)p)[i] = pl_bf16_from_f32((float)i * 0.5f - 3.25f); break;
        }
    }
}

static void round_trip(pl_dtype t, int rank, const int64_t *shape)
{
    char what[128];
    int len = snprintf(what, sizeof what, "%s rank %d (", pl_dtype_name(t), rank);
    for (int i = 0; i < rank; i++)
        len += snprintf(what + len, sizeof what - (size_t)len, "%s%lld", i ? "," : "",
                        (long long)shape[i]);
    snprintf(what + len, sizeof what - (size_t)len, ")");

    pl_array a = {.dtype = t, .rank = rank};
    memcpy(a.shape, shape, (size_t)rank * sizeof shape[0]);
    int64_t count = pl_array_count(&a);
    size_t bytes = (size_t)count * pl_dtype_size(t);
    a.data = malloc(bytes ? bytes : 1);
    fill_pattern(&a, count);

    const char *path = in_dir("rt.npy");
    pl_status s = pl_npy_write(path, &a);
    CHECK(s == PL_OK, "%s: write: %s", what, pl_last_error());

    size_t file_n = 0;
    unsigned char *file = read_bytes(path, &file_n);
    CHECK(file && file_n >= 10, "%s: file missing or short", what);
    if (file && file_n >= 10) {
        size_t hl = (size_t)file[8] | (size_t)file[9] << 8;
        CHECK((10 + hl) % 64 == 0, "%s: data starts at %zu, not a multiple of 64", what, 10 + hl);
        CHECK(file[10 + hl - 1] == '\n', "%s: header does not end with a newline", what);
        CHECK(file_n == 10 + hl + bytes, "%s: file is %zu bytes, expected %zu", what, file_n,
              10 + hl + bytes);
    }
    free(file);

    pl_array b;
    s = pl_npy_read(path, &b);
    CHECK(s == PL_OK, "%s: read: %s", what, pl_last_error());
    if (s == PL_OK) {
        CHECK(b.dtype == t, "%s: dtype %d", what, (int)b.dtype);
        CHECK(b.rank == rank, "%s: rank %d", what, b.rank);
        CHECK(memcmp(b.shape, shape, (size_t)rank * sizeof shape[0]) == 0, "%s: shape", what);
        CHECK(pl_array_count(&b) == count, "%s: count %lld", what, (long long)pl_array_count(&b));
        CHECK(b.data != NULL, "%s: data is NULL", what);
        CHECK(((uintptr_t)b.data & 63) == 0, "%s: data not 64-byte aligned", what);
        CHECK(bytes == 0 || memcmp(a.data, b.data, bytes) == 0, "%s: data differs", what);
    }
    pl_array_free(&b);
    CHECK(b.data == NULL && b.rank == 0, "%s: pl_array_free does not clear", what);
    CHECK(count_tmp_files() == 0, "%s: temporary file left behind", what);
    free(a.data);
    unlink(path);
}

static void test_round_trips(void)
{
    static const int64_t shapes[][3] = {{7}, {3, 5}, {2, 3, 4}, {0}, {4, 0}, {2, 0, 3}, {1, 1, 1}};
    static const int ranks[] = {1, 2, 3, 1, 2, 3, 3};
    const pl_dtype types[] = {PL_F32, PL_F64, PL_I32, PL_U8, PL_U16, PL_BF16};
    for (int t = 0; t < 6; t++) {
        for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++)
            round_trip(types[t], ranks[i], shapes[i]);
        round_trip(types[t], 0, shapes[0]); /* a scalar: shape (), one element */
    }
    /* A first dimension with many digits changes the header's padding. */
    static const int64_t wide[] = {1234567, 0};
    round_trip(PL_U8, 2, wide);
    round_trip(PL_U16, 2, wide);
}

/* ---------------------------------------------------------------- numpy's bytes */

/* What np.save writes for np.arange(6, dtype=np.float32).reshape(2, 3): 128 header bytes. */
static const char numpy_2x3_header[] =
    "\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
    "                                                          " /* 58 spaces */
    "\n";
static const unsigned char f32_0to5[24] = {
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40,
    0x00, 0x00, 0x40, 0x40, 0x00, 0x00, 0x80, 0x40, 0x00, 0x00, 0xa0, 0x40};

static void test_numpy_bytes(void)
{
    CHECK(sizeof numpy_2x3_header - 1 == 128, "expected header is %zu bytes",
          sizeof numpy_2x3_header - 1);

    /* Write: the same bytes as numpy. */
    float x[6] = {0, 1, 2, 3, 4, 5};
    pl_array a = {.dtype = PL_F32, .rank = 2, .shape = {2, 3}, .data = x};
    const char *path = in_dir("np.npy");
    CHECK(pl_npy_write(path, &a) == PL_OK, "write 2x3: %s", pl_last_error());
    size_t n = 0;
    unsigned char *file = read_bytes(path, &n);
    CHECK(file && n == 128 + 24, "2x3 file is %zu bytes, expected 152", n);
    if (file && n == 152) {
        CHECK(memcmp(file, numpy_2x3_header, 128) == 0, "2x3 header differs from numpy's");
        CHECK(memcmp(file + 128, f32_0to5, 24) == 0, "2x3 data differs from numpy's");
    }
    free(file);

    /* Read: numpy's file. */
    unsigned char buf[256];
    memcpy(buf, numpy_2x3_header, 128);
    memcpy(buf + 128, f32_0to5, 24);
    CHECK(write_bytes(path, buf, 152) == 0, "cannot write fixture");
    pl_array b;
    pl_status s = pl_npy_read(path, &b);
    CHECK(s == PL_OK, "read numpy's 2x3: %s", pl_last_error());
    if (s == PL_OK) {
        CHECK(b.dtype == PL_F32 && b.rank == 2 && b.shape[0] == 2 && b.shape[1] == 3,
              "numpy's 2x3: wrong dtype or shape");
        CHECK(memcmp(b.data, x, sizeof x) == 0, "numpy's 2x3: wrong data");
    }
    pl_array_free(&b);
    unlink(path);
}

/* bfloat16 as np.save writes an ml_dtypes.bfloat16 array (np.arange(4, dtype=bfloat16)
 * .reshape(2, 2): descr '<V2', the values' high halves 0x0000 0x3f80 0x4000 0x4040), and as
 * np.load gives it back ('|V2') or a header written with the dtype's name; written '<V2'. */
static void test_bfloat16(void)
{
    static const char header[] =
        "\x93NUMPY\x01\x00v\x00{'descr': '<V2', 'fortran_order': False, 'shape': (2, 2), }"
        "                                                          " /* 58 spaces */
        "\n";
    static const unsigned char data[8] = {0x00, 0x00, 0x80, 0x3f, 0x00, 0x40, 0x40, 0x40};
    CHECK(sizeof header - 1 == 128, "bfloat16 header is %zu bytes", sizeof header - 1);
    uint16_t v[4] = {0x0000, 0x3f80, 0x4000, 0x4040};
    pl_array a = {.dtype = PL_BF16, .rank = 2, .shape = {2, 2}, .data = v};
    const char *path = in_dir("bf16.npy");
    CHECK(pl_npy_write(path, &a) == PL_OK, "write bfloat16: %s", pl_last_error());
    size_t n = 0;
    unsigned char *file = read_bytes(path, &n);
    CHECK(file && n == 136 && !memcmp(file, header, 128) && !memcmp(file + 128, data, 8),
          "bfloat16 file differs from np.save's (%zu bytes)", n);
    free(file);
    static const char *const descrs[] = {"<V2", "|V2", "bfloat16"};
    for (int d = 0; d < 3; d++) {
        char dict[96];
        snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (2, 2), }", descrs[d]);
        unsigned char buf[256];
        size_t len = make_npy(buf, 1, dict, data, 8);
        CHECK(write_bytes(path, buf, len) == 0, "cannot write fixture");
        pl_array b;
        pl_status s = pl_npy_read(path, &b);
        CHECK(s == PL_OK && b.dtype == PL_BF16 && b.rank == 2 && !memcmp(b.data, v, 8) &&
                  pl_bf16_to_f32(((uint16_t *)b.data)[3]) == 3.0f,
              "read descr '%s': %s", descrs[d], s == PL_OK ? pl_dtype_name(b.dtype) : pl_last_error());
        if (s == PL_OK) pl_array_free(&b);
    }
    unlink(path);
}

/* Versions 2.0 and 3.0, '<u1', double quotes, a 1-tuple, keys in another order. */
static void test_versions(void)
{
    static const struct { int major; const char *dict; pl_dtype t; int rank; } cases[] = {
        {2, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", PL_F32, 2},
        {3, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", PL_F32, 1},
        {1, "{\"shape\": (6,), \"fortran_order\": False, \"descr\": \"<u1\"}", PL_U8, 1},
        {1, "{'descr':'<i4','fortran_order':False,'shape':(3,2)}", PL_I32, 2},
        {1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3L,), }", PL_F64, 1},
    };
    unsigned char buf[512], data[24];
    memcpy(data, f32_0to5, sizeof data);
    const char *path = in_dir("v.npy");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = make_npy(buf, cases[i].major, cases[i].dict, data, sizeof data);
        CHECK(write_bytes(path, buf, n) == 0, "cannot write fixture");
        pl_array a;
        pl_status s = pl_npy_read(path, &a);
        CHECK(s == PL_OK, "case %zu (%s): %s", i, cases[i].dict, pl_last_error());
        if (s == PL_OK) {
            CHECK(a.dtype == cases[i].t && a.rank == cases[i].rank, "case %zu: dtype/rank", i);
            size_t bytes = (size_t)pl_array_count(&a) * pl_dtype_size(a.dtype);
            CHECK(memcmp(a.data, data, bytes) == 0, "case %zu: data", i);
        }
        pl_array_free(&a);
    }
    unlink(path);
}

/* ---------------------------------------------------------------- bad files */

/* Read path; expect status want and a message containing needle. */
static void expect_fail(const char *what, const char *path, pl_status want, const char *needle)
{
    pl_array a;
    memset(&a, 0x5a, sizeof a);
    pl_status s = pl_npy_read(path, &a);
    const char *msg = pl_last_error();
    CHECK(s == want, "%s: status %s, expected %s (%s)", what, pl_status_name(s),
          pl_status_name(want), msg);
    CHECK(msg[0] != '\0', "%s: empty error message", what);
    CHECK(strstr(msg, needle) != NULL, "%s: message '%s' lacks '%s'", what, msg, needle);
    CHECK(a.data == NULL && a.rank == 0, "%s: array not left empty", what);
    pl_array_free(&a);
}

static void expect_bad_file(const char *what, const void *bytes, size_t n, const char *needle)
{
    const char *path = in_dir("bad.npy");
    CHECK(write_bytes(path, bytes, n) == 0, "cannot write fixture");
    expect_fail(what, path, PL_ERR_FORMAT, needle);
    unlink(path);
}

static void expect_bad_dict(const char *what, int major, const char *dict, size_t data_n,
                            const char *needle)
{
    unsigned char buf[1024];
    size_t n = make_npy(buf, major, dict, f32_0to5, data_n);
    expect_bad_file(what, buf, n, needle);
}

static void test_bad_files(void)
{
    unsigned char good[256];
    memcpy(good, numpy_2x3_header, 128);
    memcpy(good + 128, f32_0to5, 24);

    unsigned char bad[256];
    memcpy(bad, good, 152);
    bad[1] = 'X';
    expect_bad_file("bad magic", bad, 152, "magic");
    expect_bad_file("empty file", bad, 0, "magic");
    expect_bad_file("text file", "hello, world\n", 13, "magic");

    memcpy(bad, good, 152);
    bad[6] = 4;
    expect_bad_file("version 4.0", bad, 152, "version 4.0");

    expect_bad_file("truncated prefix", good, 8, "truncated header");
    expect_bad_file("truncated header", good, 70, "truncated header");
    expect_bad_file("truncated data", good, 128 + 8, "expected 24 bytes of data, found 8");
    expect_bad_file("no data", good, 128, "expected 24 bytes of data, found 0");

    const char *f = "'fortran_order': False, 'shape': (2, 3), }";
    expect_bad_dict("fortran order", 1,
                    "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 24,
                    "fortran order not supported; save with np.ascontiguousarray");
    char dict[256];
    snprintf(dict, sizeof dict, "{'descr': '<i8', %s", f);
    expect_bad_dict("int64", 1, dict, 24, "dtype '<i8' not supported (float32, float64, int32, uint8)");
    snprintf(dict, sizeof dict, "{'descr': '>f4', %s", f);
    expect_bad_dict("big-endian", 1, dict, 24, "big-endian dtype '>f4'");
    snprintf(dict, sizeof dict, "{'descr': '<U5', %s", f);
    expect_bad_dict("unicode", 1, dict, 24, "dtype '<U5' not supported");
    snprintf(dict, sizeof dict, "{'descr': '|O', %s", f);
    expect_bad_dict("object", 1, dict, 24, "dtype '|O' not supported");
    expect_bad_dict("structured", 2,
                    "{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (2, 3), }", 24,
                    "structured dtype");

    expect_bad_dict("garbage dict", 1, "this is not a dict at all", 24, "malformed header dict");
    expect_bad_dict("unterminated dict", 1, "{'descr': '<f4', 'fortran_order': False", 24,
                    "malformed header dict");
    expect_bad_dict("missing shape", 1, "{'descr': '<f4', 'fortran_order': False, }", 24,
                    "no 'shape' key");
    expect_bad_dict("unknown key", 1,
                    "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'x': 1}", 24,
                    "unknown key 'x'");
    expect_bad_dict("duplicate key", 1,
                    "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (6,)}", 24,
                    "twice");
    expect_bad_dict("negative dimension", 1,
                    "{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 6), }", 24,
                    "non-negative integer");
    expect_bad_dict("bad bool", 1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (6,), }", 24,
                    "True or False");
    expect_bad_dict("text after dict", 1,
                    "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), } x", 24,
                    "text after the dict");
    expect_bad_dict("rank 9", 1,
                    "{'descr': '<u1', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1), }", 24,
                    "rank > 8");
    expect_bad_dict("dimension overflow", 1,
                    "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }",
                    24, "shape overflow");
    expect_bad_dict("shape overflow", 3,
                    "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
                    24, "shape overflow");
    expect_bad_dict("huge shape", 1,
                    "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000, 1000000), }",
                    24, "expected 8000000000000 bytes of data, found 24");

    expect_fail("missing file", in_dir("no-such-file.npy"), PL_ERR_IO, "No such file");
    expect_fail("a directory", dir, PL_ERR_IO, dir);
}

/* ---------------------------------------------------------------- failed writes */

static void test_bad_writes(void)
{
    float x[6] = {0};
    pl_array a = {.dtype = PL_F32, .rank = 2, .shape = {2, 3}, .data = x};

    /* A directory that does not exist: an I/O error and nothing created. */
    const char *path = in_dir("no-such-dir/out.npy");
    pl_status s = pl_npy_write(path, &a);
    CHECK(s == PL_ERR_IO, "write into a missing directory: %s", pl_status_name(s));
    CHECK(pl_last_error()[0] != '\0', "write into a missing directory: empty message");
    CHECK(!exists(path), "write into a missing directory: file exists");

    /* The target is a directory: the temporary file is written, the rename fails, and the
     * temporary file must be gone. */
    const char *sub = in_dir("a-directory.npy");
    CHECK(mkdir(sub, 0700) == 0, "mkdir %s", sub);
    s = pl_npy_write(sub, &a);
    CHECK(s == PL_ERR_IO, "write over a directory: %s", pl_status_name(s));
    CHECK(strstr(pl_last_error(), "a-directory.npy") != NULL, "message '%s' lacks the path",
          pl_last_error());
    CHECK(count_tmp_files() == 0, "write over a directory: temporary file left behind");
    rmdir(sub);

    /* Bad arrays are argument errors and create nothing. */
    path = in_dir("bad-array.npy");
    pl_array bad = a;
    bad.data = NULL;
    CHECK(pl_npy_write(path, &bad) == PL_ERR_ARG, "NULL data accepted");
    bad = a;
    bad.rank = 9;
    CHECK(pl_npy_write(path, &bad) == PL_ERR_ARG, "rank 9 accepted");
    bad = a;
    bad.shape[1] = -3;
    CHECK(pl_npy_write(path, &bad) == PL_ERR_ARG, "negative dimension accepted");
    bad = a;
    bad.dtype = (pl_dtype)42;
    CHECK(pl_npy_write(path, &bad) == PL_ERR_ARG, "unknown dtype accepted");
    CHECK(!exists(path), "a rejected array left a file");
    CHECK(count_tmp_files() == 0, "a rejected array left a temporary file");

    /* An existing file is replaced whole. */
    path = in_dir("replace.npy");
    CHECK(write_bytes(path, "old contents", 12) == 0, "cannot write fixture");
    CHECK(pl_npy_write(path, &a) == PL_OK, "replace: %s", pl_last_error());
    pl_array b;
    CHECK(pl_npy_read(path, &b) == PL_OK && b.shape[1] == 3, "replace: read back");
    pl_array_free(&b);
    unlink(path);

    /* pl_array_count: 1 for a scalar, -1 for nonsense. */
    pl_array c = {.rank = 0};
    CHECK(pl_array_count(&c) == 1, "count of a scalar");
    c.rank = 2;
    c.shape[0] = INT64_MAX;
    c.shape[1] = 2;
    CHECK(pl_array_count(&c) == -1, "count overflow not reported");
    CHECK(pl_array_count(NULL) == -1, "count of NULL");
}

/* ---------------------------------------------------------------- the fuzz corpus */

/* Every file of the fuzzer's seed corpus (tests/fuzz/corpus/npy/, beside this file), and the
 * inputs the fuzzer once crashed on, kept there as regression cases: ok_* must read,
 * bad_* must fail with PL_ERR_FORMAT and a message, leaving the array empty; any other
 * name (a fuzzer finding: crash_*, leak_*) may do either, but never crash or leak (the
 * sanitizer build runs this too). */
static void test_fuzz_corpus(void)
{
    char cdir[1024];
    snprintf(cdir, sizeof cdir, "%s", __FILE__);
    char *slash = strrchr(cdir, '/');
    if (slash) slash[1] = '\0';
    else cdir[0] = '\0';
    strncat(cdir, "fuzz/corpus/npy", sizeof cdir - strlen(cdir) - 1);
    DIR *d = opendir(cdir);
    CHECK(d != NULL, "cannot open the fuzz corpus %s", cdir);
    if (!d) return;
    int n_ok = 0, n_bad = 0, n_other = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", cdir, e->d_name);
        pl_array a;
        memset(&a, 0xAB, sizeof a);
        pl_status st = pl_npy_read(path, &a);
        if (strncmp(e->d_name, "ok_", 3) == 0) {
            n_ok++;
            CHECK(st == PL_OK, "corpus %s: %s", e->d_name, pl_last_error());
            CHECK(st != PL_OK || (a.data && pl_array_count(&a) >= 0), "corpus %s: no data", e->d_name);
        } else if (strncmp(e->d_name, "bad_", 4) == 0) {
            n_bad++;
            CHECK(st == PL_ERR_FORMAT, "corpus %s: status %s, want a format error (%s)", e->d_name,
                  pl_status_name(st), pl_last_error());
            CHECK(st == PL_OK || strstr(pl_last_error(), path), "corpus %s: message does not name the file: %s",
                  e->d_name, pl_last_error());
        } else {
            n_other++;
        }
        if (st != PL_OK) CHECK(a.data == NULL && a.rank == 0, "corpus %s: failed read left data", e->d_name);
        pl_array_free(&a);
    }
    closedir(d);
    /* The corpus holds 49 files (tests/fuzz/gen_corpus_npy.py): all must have been seen. */
    CHECK(n_ok >= 24 && n_bad >= 25, "fuzz corpus: %d ok_, %d bad_ files, want >= 24 and >= 25", n_ok, n_bad);
    printf("npy: fuzz corpus: %d valid, %d malformed, %d fuzzer findings read\n", n_ok, n_bad, n_other);
}

int main(void)
{
    if (tmpdir_make("npy") != 0) return 1;

    test_bfloat16();
    test_round_trips();
    test_numpy_bytes();
    test_versions();
    test_bad_files();
    test_bad_writes();
    test_fuzz_corpus();

    /* Clean up: every test removed its files; anything left is reported and removed. */
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        CHECK(0, "file left behind: %s", e->d_name);
        unlink(in_dir(e->d_name));
    }
    if (d) closedir(d);
    rmdir(dir);
    return check_summary("npy");
}
