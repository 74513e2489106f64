/* test_arrays.c: many arrays in one file (src/io/arrays.c).
 * Round trips through parlab's batch file (.npy records back to back: checked byte for byte
 * against pl_npy_write's files) and through a stored .npz, every dtype at ranks 0 to 3 with an
 * empty one; the .npz files numpy wrote (tests/data/numpy_savez*.npz, np.savez and
 * np.savez_compressed; tests/data/make_io_fixtures.py) read back exactly; corrupted archives
 * (CRC, offsets and sizes past the end, bad signatures, names, methods, zip64, deflate data)
 * and batch files (truncated, junk after) refused with a format error naming the problem;
 * writes refused; then the fuzz corpus tests/fuzz/corpus/arrays/ is replayed. */
#define _POSIX_C_SOURCE 200809L
#include "parlab.h"
#include "check.h"
#include "tmpdir.h"
#include "io/io.h" /* pl_crc32 */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A whole file (at most 1 MiB) into a new buffer; *n its size. */
static unsigned char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    *n = 0;
    if (!f) return NULL;
    unsigned char *buf = malloc(1 << 20);
    *n = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static int same_array(const pl_array *a, const pl_array *b)
{
    if (a->dtype != b->dtype || a->rank != b->rank) return 0;
    for (int i = 0; i < a->rank; i++)
        if (a->shape[i] != b->shape[i]) return 0;
    size_t bytes = (size_t)pl_array_count(a) * pl_dtype_size(a->dtype);
    return bytes == 0 || (a->data && b->data && memcmp(a->data, b->data, bytes) == 0);
}

/* ---------------------------------------------------------------- the test arrays */

enum { N_SET = 6 };
static float set_f32[6];
static double set_f64[1];
static int32_t set_i32[1];
static uint8_t set_u8[2 * 3 * 4];
static uint16_t set_u16[5];
static pl_named_array set[N_SET];

static void make_set(void)
{
    for (int i = 0; i < 6; i++) set_f32[i] = (float)i * 0.25f - 1.0f;
    set_f64[0] = 3.141592653589793;
    for (int i = 0; i < 24; i++) set_u8[i] = (uint8_t)(i * 11);
    for (int i = 0; i < 5; i++) set_u16[i] = (uint16_t)(i * 16000 + 7);
    static const char *names[N_SET] = {"image", "scalar", "empty", "cube", "wide", "x"};
    pl_array arrays[N_SET] = {
        {.dtype = PL_F32, .rank = 2, .shape = {2, 3}, .data = set_f32},
        {.dtype = PL_F64, .rank = 0, .data = set_f64},
        {.dtype = PL_I32, .rank = 2, .shape = {0, 4}, .data = set_i32},
        {.dtype = PL_U8, .rank = 3, .shape = {2, 3, 4}, .data = set_u8},
        {.dtype = PL_U16, .rank = 1, .shape = {5}, .data = set_u16},
        {.dtype = PL_U8, .rank = 1, .shape = {1}, .data = set_u8 + 23},
    };
    for (int i = 0; i < N_SET; i++) {
        snprintf(set[i].name, sizeof set[i].name, "%s", names[i]);
        set[i].a = arrays[i];
    }
}

/* ---------------------------------------------------------------- round trips */

static void test_batch_round_trip(void)
{
    char path[1024]; /* in_dir's buffers are reused below */
    snprintf(path, sizeof path, "%s", in_dir("set.batch"));
    CHECK(pl_arrays_write(path, set, N_SET) == PL_OK, "batch write: %s", pl_last_error());
    /* The file is the .npy files back to back, byte for byte. */
    size_t n, m, at = 0;
    unsigned char *file = read_all(path, &n);
    int same = file != NULL;
    for (int i = 0; i < N_SET && same; i++) {
        CHECK(pl_npy_write(in_dir("one.npy"), &set[i].a) == PL_OK, "npy write");
        unsigned char *one = read_all(in_dir("one.npy"), &m);
        same = one && at + m <= n && memcmp(file + at, one, m) == 0;
        at += m;
        free(one);
    }
    CHECK(same && at == n, "the batch file is not the .npy files back to back (%zu of %zu bytes)", at, n);
    free(file);

    pl_named_array *got = NULL;
    int count = -1;
    pl_status st = pl_arrays_read(path, &got, &count);
    CHECK(st == PL_OK && count == N_SET, "batch read: %s, %d arrays: %s", pl_status_name(st), count, pl_last_error());
    for (int i = 0; st == PL_OK && i < count && i < N_SET; i++) {
        char want[8];
        snprintf(want, sizeof want, "%d", i);
        CHECK(strcmp(got[i].name, want) == 0, "batch record %d named '%s'", i, got[i].name);
        CHECK(same_array(&set[i].a, &got[i].a), "batch record %d changed", i);
    }
    pl_arrays_free(got, count);

    /* One record is a batch file too, and a batch file is a .npy for pl_npy_read (the first). */
    CHECK(pl_arrays_write(path, set + 3, 1) == PL_OK, "batch of one");
    pl_array a;
    CHECK(pl_npy_read(path, &a) == PL_OK && same_array(&a, &set[3].a), "a batch of one is a .npy");
    pl_array_free(&a);
}

static void test_npz_round_trip(void)
{
    const char *path = in_dir("set.npz");
    CHECK(pl_arrays_write(path, set, N_SET) == PL_OK, "npz write: %s", pl_last_error());
    size_t n;
    unsigned char *file = read_all(path, &n);
    CHECK(file && n > 22 && memcmp(file, "PK\3\4", 4) == 0 && memcmp(file + n - 22, "PK\5\6", 4) == 0,
          "not a zip: starts and ends wrong");
    /* The local header carries the same CRC-32 and sizes as the directory (unzip checks them;
     * parlab's reader reads only the directory's). */
    if (file && n > 22) {
        uint32_t cd = get32(file + n - 22 + 16);
        CHECK(cd + 46 <= n && memcmp(file + 14, file + cd + 16, 12) == 0,
              "the first local header's CRC and sizes differ from the directory's");
    }
    free(file);
    pl_named_array *got = NULL;
    int count = -1;
    pl_status st = pl_arrays_read(path, &got, &count);
    CHECK(st == PL_OK && count == N_SET, "npz read: %s, %d arrays: %s", pl_status_name(st), count, pl_last_error());
    for (int i = 0; st == PL_OK && i < count && i < N_SET; i++) {
        CHECK(strcmp(got[i].name, set[i].name) == 0, "npz member %d named '%s', want '%s'", i, got[i].name,
              set[i].name);
        CHECK(same_array(&set[i].a, &got[i].a), "npz member '%s' changed", set[i].name);
    }
    pl_arrays_free(got, count);

    /* An empty .npz (np.savez with no arrays reads as none). Upper-case .NPZ is a .npz too. */
    CHECK(pl_arrays_write(in_dir("none.NPZ"), NULL, 0) == PL_OK, "empty npz: %s", pl_last_error());
    got = (pl_named_array *)1;
    st = pl_arrays_read(in_dir("none.NPZ"), &got, &count);
    CHECK(st == PL_OK && count == 0 && got == NULL, "empty npz read: %s", pl_last_error());
}

/* The files numpy wrote: a (3,5) uint8 arange, b (2,3) float32 (i - 2.5) / 4, c int32 scalar
 * -7, d uint16 [0, 1, 65535, 4242], e (0,3) float64. */
static void check_numpy_set(const char *file, pl_named_array *got, int count)
{
    CHECK(count == 5, "%s: %d members, want 5", file, count);
    if (count != 5) return;
    static const char *names[5] = {"a", "b", "c", "d", "e"};
    for (int i = 0; i < 5; i++) CHECK(strcmp(got[i].name, names[i]) == 0, "%s: member %d is '%s'", file, i, got[i].name);
    uint8_t a[15];
    for (int i = 0; i < 15; i++) a[i] = (uint8_t)i;
    float b[6];
    for (int i = 0; i < 6; i++) b[i] = ((float)i - 2.5f) / 4;
    int32_t c = -7;
    uint16_t d[4] = {0, 1, 65535, 4242};
    pl_array want[5] = {
        {.dtype = PL_U8, .rank = 2, .shape = {3, 5}, .data = a},
        {.dtype = PL_F32, .rank = 2, .shape = {2, 3}, .data = b},
        {.dtype = PL_I32, .rank = 0, .data = &c},
        {.dtype = PL_U16, .rank = 1, .shape = {4}, .data = d},
        {.dtype = PL_F64, .rank = 2, .shape = {0, 3}, .data = NULL},
    };
    for (int i = 0; i < 5; i++) CHECK(same_array(&want[i], &got[i].a), "%s: member '%s' differs", file, names[i]);
}

static void test_numpy_files(void)
{
    pl_named_array *got = NULL;
    int count = 0;
    pl_status st = pl_arrays_read(in_tests("data/numpy_savez.npz"), &got, &count);
    CHECK(st == PL_OK, "np.savez file: %s", pl_last_error());
    if (st == PL_OK) check_numpy_set("numpy_savez.npz", got, count);
    pl_arrays_free(got, count);

    st = pl_arrays_read(in_tests("data/numpy_savez_compressed.npz"), &got, &count);
    if (st == PL_ERR_UNSUPPORTED) {
        CHECK(strstr(pl_last_error(), "built without zlib") != NULL, "no zlib: %s", pl_last_error());
        printf("arrays: this build has no zlib: the deflated .npz is refused, as it should be\n");
    } else {
        CHECK(st == PL_OK, "np.savez_compressed file: %s", pl_last_error());
        if (st == PL_OK) check_numpy_set("numpy_savez_compressed.npz", got, count);
        pl_arrays_free(got, count);
    }

    pl_array a;
    uint16_t d[4] = {0, 1, 65535, 4242};
    pl_array want = {.dtype = PL_U16, .rank = 1, .shape = {4}, .data = d};
    CHECK(pl_npy_read(in_tests("data/numpy_u16.npy"), &a) == PL_OK && same_array(&a, &want), "np.save uint16: %s",
          pl_last_error());
    pl_array_free(&a);
}

/* ---------------------------------------------------------------- corrupted files */

/* Write bytes to a file, read it, expect status and words in the message. */
static void expect_bad(const char *what, const unsigned char *bytes, size_t n, pl_status want, const char *w1,
                       const char *w2)
{
    const char *path = in_dir("bad.npz");
    write_bytes(path, bytes, n);
    pl_named_array *got = (pl_named_array *)1;
    int count = -1;
    pl_status st = pl_arrays_read(path, &got, &count);
    const char *msg = pl_last_error();
    CHECK(st == want, "%s: status %s, want %s (%s)", what, pl_status_name(st), pl_status_name(want), msg);
    CHECK(strstr(msg, path) != NULL, "%s: message does not name the file: %s", what, msg);
    CHECK(!w1 || strstr(msg, w1), "%s: message lacks '%s': %s", what, w1, msg);
    CHECK(!w2 || strstr(msg, w2), "%s: message lacks '%s': %s", what, w2, msg);
    CHECK(got == NULL && count == 0, "%s: a failed read left arrays", what);
    if (st == PL_OK) pl_arrays_free(got, count);
}

static void test_npz_corrupt(void)
{
    /* Two members: "image" (2x3 float32) and "cube"; the archive as pl_arrays_write makes it. */
    pl_named_array two[2] = {set[0], set[3]};
    const char *path = in_dir("two.npz");
    CHECK(pl_arrays_write(path, two, 2) == PL_OK, "write: %s", pl_last_error());
    size_t n;
    unsigned char *good = read_all(path, &n);
    unsigned char *b = malloc(n);
    size_t eocd = n - 22;
    uint32_t cd = get32(good + eocd + 16);
    /* The first member's data: after its 30-byte header and "image.npy". */
    size_t member0 = get32(good + 18), data0 = 30 + 9;

    memcpy(b, good, n);
    expect_bad("cut in half", b, n / 2, PL_ERR_FORMAT, "no end of central directory", NULL);
    expect_bad("cut before the end record", b, n - 1, PL_ERR_FORMAT, "end of central directory", NULL);
    b[data0 + member0 - 1] ^= 0x01; /* the last data byte of "image" */
    expect_bad("a flipped data bit", b, n, PL_ERR_FORMAT, "member 'image.npy'", "CRC-32 mismatch");
    memcpy(b, good, n);
    b[cd + 16] ^= 0x80; /* the CRC in the first directory entry */
    expect_bad("a wrong directory CRC", b, n, PL_ERR_FORMAT, "CRC-32 mismatch", NULL);
    memcpy(b, good, n);
    put32(b + eocd + 16, (uint32_t)n + 100);
    expect_bad("directory offset past the end", b, n, PL_ERR_FORMAT, "central directory", "runs past");
    memcpy(b, good, n);
    put32(b + eocd + 12, (uint32_t)n);
    expect_bad("directory size past the end", b, n, PL_ERR_FORMAT, "runs past", NULL);
    memcpy(b, good, n);
    b[eocd + 10] = 200; /* 200 members */
    b[eocd + 8] = 200;
    expect_bad("too many members", b, n, PL_ERR_FORMAT, "200 members", NULL);
    memcpy(b, good, n);
    put32(b + cd + 42, cd + 5);
    expect_bad("local header past the directory", b, n, PL_ERR_FORMAT, "past the central directory", NULL);
    memcpy(b, good, n);
    put32(b + cd + 42, 1);
    expect_bad("local header offset wrong", b, n, PL_ERR_FORMAT, "no local header", NULL);
    memcpy(b, good, n);
    put32(b + cd + 20, 0x7fffffff);
    put32(b + cd + 24, 0x7fffffff);
    expect_bad("member size past the end", b, n, PL_ERR_FORMAT, "run past", NULL);
    memcpy(b, good, n);
    put32(b + cd + 20, (uint32_t)member0 - 1); /* compressed != uncompressed */
    expect_bad("stored sizes differ", b, n, PL_ERR_FORMAT, "stored, yet", NULL);
    memcpy(b, good, n);
    put32(b + cd + 20, (uint32_t)member0 - 8);
    put32(b + cd + 24, (uint32_t)member0 - 8); /* the .npy's data runs past the member */
    expect_bad("member shorter than its .npy", b, n, PL_ERR_FORMAT, "member 'image.npy'", "truncated data");
    memcpy(b, good, n);
    b[cd + 46 + 8] = 'x'; /* "image.npx" */
    expect_bad("member not .npy", b, n, PL_ERR_FORMAT, "image.npx", "NAME.npy");
    memcpy(b, good, n);
    b[cd + 46 + 0] = 'I'; /* the directory says "Image.npy", the local header "image.npy" */
    expect_bad("names disagree", b, n, PL_ERR_FORMAT, "names another member", NULL);
    memcpy(b, good, n);
    b[cd + 10] = 12; /* bzip2 */
    expect_bad("method 12", b, n, PL_ERR_FORMAT, "compression method 12", NULL);
    memcpy(b, good, n);
    b[cd + 8] = 1; /* encrypted */
    expect_bad("encrypted", b, n, PL_ERR_FORMAT, "encrypted", NULL);
    memcpy(b, good, n);
    b[cd] = 'Q';
    expect_bad("bad directory signature", b, n, PL_ERR_FORMAT, "entry 0", "bad signature");
    memcpy(b, good, n);
    put32(b + cd + 20, 0xffffffffu);
    expect_bad("zip64 size without its extra field", b, n, PL_ERR_FORMAT, "zip64", NULL);
    memcpy(b, good, n);
    b[eocd + 10] = 0xff;
    b[eocd + 11] = 0xff;
    b[eocd + 8] = 0xff;
    b[eocd + 9] = 0xff;
    expect_bad("zip64 end record", b, n, PL_ERR_FORMAT, "zip64", NULL);
    free(b);
    free(good);

    /* The deflated numpy file: corrupt deflate data, a wrong size, an impossible size. */
    good = read_all(in_tests("data/numpy_savez_compressed.npz"), &n);
    CHECK(good != NULL, "compressed fixture missing");
    if (!good) return;
    b = malloc(n);
    eocd = n - 22;
    cd = get32(good + eocd + 16);
    uint32_t csize0 = get32(good + cd + 20);
    size_t local_extra = good[28] | good[29] << 8;
    data0 = 30 + 5 + local_extra; /* "a.npy" */
    if (get32(good + cd + 20) != 0xffffffffu) { /* numpy's directory has real sizes */
        memcpy(b, good, n);
        for (size_t i = data0 + 10; i < data0 + csize0 - 4; i++) b[i] ^= 0x5a;
        write_bytes(in_dir("z.npz"), b, n);
        pl_named_array *got = NULL;
        int count = 0;
        pl_status st = pl_arrays_read(in_dir("z.npz"), &got, &count);
        CHECK(st == PL_ERR_FORMAT || st == PL_ERR_UNSUPPORTED, "corrupt deflate data: %s (%s)", pl_status_name(st),
              pl_last_error());
        CHECK(got == NULL && count == 0, "corrupt deflate data left arrays");
        if (st == PL_ERR_FORMAT) {
            memcpy(b, good, n);
            put32(b + cd + 24, get32(good + cd + 24) + 1);
            expect_bad("deflated size one more", b, n, PL_ERR_FORMAT, "member 'a.npy'", "truncated deflate");
            memcpy(b, good, n);
            put32(b + cd + 24, get32(good + cd + 24) - 1);
            expect_bad("deflated size one less", b, n, PL_ERR_FORMAT, "inflates to more", NULL);
            memcpy(b, good, n);
            put32(b + cd + 24, 0x7ffffff0);
            expect_bad("deflate bomb claim", b, n, PL_ERR_FORMAT, "more than deflate can expand", NULL);
            memcpy(b, good, n);
            put32(b + cd + 16, get32(good + cd + 16) ^ 1);
            expect_bad("deflated CRC", b, n, PL_ERR_FORMAT, "CRC-32 mismatch", NULL);
        }
    }
    free(b);
    free(good);
}

static void test_batch_corrupt(void)
{
    const char *path = in_dir("three.batch");
    CHECK(pl_arrays_write(path, set, 3) == PL_OK, "write: %s", pl_last_error());
    size_t n;
    unsigned char *good = read_all(path, &n);
    unsigned char *b = malloc(n + 16);
    memcpy(b, good, n);
    expect_bad("last record cut", b, n - 3, PL_ERR_FORMAT, "record 2", "truncated");
    memcpy(b + n, "junk", 4);
    expect_bad("junk after the records", b, n + 4, PL_ERR_FORMAT, "record 3", "bad magic");
    expect_bad("a half-written prefix after the records", b, n + 2, PL_ERR_FORMAT, "record 3", NULL);
    /* A record claiming 10^11 bytes: refused from the file's size before allocating (a
     * PL_ERR_NOMEM would mean it tried). The shape (1,) grows to (99999999999,) inside the
     * header's padding, so the header length stays right. */
    CHECK(pl_arrays_write(path, set + 5, 1) == PL_OK, "write one");
    free(good);
    good = read_all(path, &n);
    char *shape = good ? memmem(good, n, "(1,), }", 7) : NULL;
    CHECK(shape && memcmp(shape + 7, "          ", 10) == 0, "no room to grow the shape");
    if (shape) {
        memmove(shape + 12, shape + 2, (size_t)(good + n - (unsigned char *)shape - 12));
        memset(shape + 1, '9', 11);
        expect_bad("a record claiming 10^11 bytes", good, n, PL_ERR_FORMAT, "record 0", "truncated data");
    }
    expect_bad("not a batch or npz", (const unsigned char *)"hello world", 11, PL_ERR_FORMAT, "bad magic", NULL);
    expect_bad("empty", (const unsigned char *)"", 0, PL_ERR_FORMAT, "0 bytes", NULL);
    free(b);
    free(good);

    pl_named_array *got;
    int count;
    CHECK(pl_arrays_read(in_dir("missing"), &got, &count) == PL_ERR_IO, "missing file");
    CHECK(pl_arrays_read(dir, &got, &count) == PL_ERR_IO && strstr(pl_last_error(), "not a regular file"),
          "a directory: %s", pl_last_error());
    CHECK(pl_arrays_read(path, NULL, &count) == PL_ERR_ARG, "NULL arrays");
}

static void test_write_refused(void)
{
    const char *batch = in_dir("refused.batch"), *npz = in_dir("refused.npz");
    CHECK(pl_arrays_write(batch, set, 0) == PL_ERR_ARG && strstr(pl_last_error(), "at least one"),
          "empty batch: %s", pl_last_error());
    CHECK(pl_arrays_write(batch, NULL, 2) == PL_ERR_ARG, "NULL arrays");
    pl_named_array two[2] = {set[0], set[1]};
    snprintf(two[1].name, sizeof two[1].name, "%s", two[0].name);
    CHECK(pl_arrays_write(npz, two, 2) == PL_ERR_ARG && strstr(pl_last_error(), "two arrays named 'image'"),
          "duplicate names: %s", pl_last_error());
    CHECK(pl_arrays_write(batch, two, 2) == PL_OK, "a batch ignores the names");
    snprintf(two[1].name, sizeof two[1].name, "a/b");
    CHECK(pl_arrays_write(npz, two, 2) == PL_ERR_ARG && strstr(pl_last_error(), "'/'"), "slash: %s", pl_last_error());
    two[1].name[0] = '\0';
    CHECK(pl_arrays_write(npz, two, 2) == PL_ERR_ARG, "empty name");
    snprintf(two[1].name, sizeof two[1].name, "ok");
    two[1].a.dtype = (pl_dtype)99;
    CHECK(pl_arrays_write(npz, two, 2) == PL_ERR_ARG && strstr(pl_last_error(), "array 1"), "bad dtype: %s",
          pl_last_error());
    CHECK(access(npz, F_OK) != 0, "a refused write left a file");
    CHECK(pl_arrays_write(in_dir("no-such-dir/x.npz"), set, 1) == PL_ERR_IO, "missing directory");
    CHECK(count_tmp_files() == 0, "temporary files left behind");
}

/* ---------------------------------------------------------------- the fuzz corpus */

static void test_fuzz_corpus(void)
{
    char cdir[1024];
    snprintf(cdir, sizeof cdir, "%s", in_tests("fuzz/corpus/arrays"));
    DIR *d = opendir(cdir);
    CHECK(d != NULL, "cannot open the fuzz corpus %s", cdir);
    if (!d) return;
    int n_ok = 0, n_bad = 0, n_other = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", cdir, e->d_name);
        pl_named_array *got = (pl_named_array *)1;
        int count = -1;
        pl_status st = pl_arrays_read(path, &got, &count);
        if (strncmp(e->d_name, "ok_", 3) == 0) {
            n_ok++;
            CHECK(st == PL_OK, "corpus %s: %s", e->d_name, pl_last_error());
        } else if (strncmp(e->d_name, "bad_", 4) == 0) {
            n_bad++;
            CHECK(st == PL_ERR_FORMAT, "corpus %s: status %s, want a format error (%s)", e->d_name, pl_status_name(st),
                  pl_last_error());
            CHECK(st == PL_OK || strstr(pl_last_error(), path), "corpus %s: message does not name the file", e->d_name);
        } else {
            n_other++;
        }
        if (st != PL_OK) CHECK(got == NULL && count == 0, "corpus %s: failed read left arrays", e->d_name);
        else pl_arrays_free(got, count);
    }
    closedir(d);
    CHECK(n_ok >= 3 && n_bad >= 6, "fuzz corpus: %d ok_, %d bad_ files, want >= 3 and >= 6", n_ok, n_bad);
    printf("arrays: fuzz corpus: %d valid, %d malformed, %d fuzzer findings read\n", n_ok, n_bad, n_other);
}

/* The CRC-32 of zip and PNG: the standard check value, and continuing across pieces. */
static void test_crc32(void)
{
    CHECK(pl_crc32(0, "123456789", 9) == 0xCBF43926u, "CRC-32 of '123456789' is 0x%08x", pl_crc32(0, "123456789", 9));
    CHECK(pl_crc32(pl_crc32(0, "1234", 4), "56789", 5) == 0xCBF43926u, "CRC-32 in two pieces");
    CHECK(pl_crc32(0, "", 0) == 0, "CRC-32 of nothing");
}

int main(void)
{
    if (tmpdir_make("arrays") != 0) return 1;
    make_set();
    test_crc32();
    test_batch_round_trip();
    test_npz_round_trip();
    test_numpy_files();
    test_npz_corrupt();
    test_batch_corrupt();
    test_write_refused();
    test_fuzz_corpus();
    tmpdir_remove();
    return check_summary("arrays");
}
