/* test_pgm.c: the image files (src/io/pgm.c, png.c, image.c).
 * PGM: round trips at 8 and 16 bits (1x1, 3x5, 1023x7), the exact bytes written, P2 text in
 * with comments and odd whitespace then P5 out, values kept as they are for any maxval, every
 * kind of malformed header and truncated or out-of-range data with the status and a word of
 * the message, a header claiming 1000000 x 1000000 refused as too big, writes refused and
 * failing without leaving a file. PNG (where libpng was built in): round trips, the 4-bit,
 * 16-bit and interlaced fixtures of tests/data/, RGB, palette and gray+alpha refused by name, a truncated
 * file refused; without libpng, the "built without libpng" error. pl_image_read/write pick the
 * format by content / by name. Then the fuzz corpus tests/fuzz/corpus/pgm/ is replayed. */
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

/* The first n bytes of a file into out; the count read. */
static size_t read_head(const char *path, unsigned char *out, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t got = fread(out, 1, n, f);
    fclose(f);
    return got;
}

static int64_t file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (int64_t)sb.st_size : -1;
}

/* A rank-2 image h x w of dtype (PL_U8 or PL_U16) with seeded values covering the range. */
static pl_array make_image(pl_dtype dtype, int64_t h, int64_t w, unsigned seed)
{
    pl_array a = {.dtype = dtype, .rank = 2, .shape = {h, w}};
    size_t n = (size_t)(h * w);
    a.data = malloc(n * pl_dtype_size(dtype) + 1);
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        if (dtype == PL_U8) ((uint8_t *)a.data)[i] = (uint8_t)(x >> 24);
        else ((uint16_t *)a.data)[i] = (uint16_t)(x >> 16);
    }
    /* The extremes appear in every image larger than 1 x 1. */
    if (n > 1) {
        if (dtype == PL_U8) ((uint8_t *)a.data)[0] = 0, ((uint8_t *)a.data)[n - 1] = 255;
        else ((uint16_t *)a.data)[0] = 0, ((uint16_t *)a.data)[n - 1] = 65535;
    }
    return a;
}

static int same_array(const pl_array *a, const pl_array *b)
{
    if (a->dtype != b->dtype || a->rank != b->rank) return 0;
    for (int i = 0; i < a->rank; i++)
        if (a->shape[i] != b->shape[i]) return 0;
    size_t bytes = (size_t)pl_array_count(a) * pl_dtype_size(a->dtype);
    return bytes == 0 || (a->data && b->data && memcmp(a->data, b->data, bytes) == 0);
}

/* ---------------------------------------------------------------- PGM round trips */

static void test_pgm_round_trips(void)
{
    static const int64_t sizes[][2] = {{1, 1}, {3, 5}, {1023, 7}, {7, 1023}};
    for (int t = 0; t < 2; t++) {
        pl_dtype dtype = t ? PL_U16 : PL_U8;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            int64_t h = sizes[s][0], w = sizes[s][1];
            pl_array a = make_image(dtype, h, w, (unsigned)(s + 10 * t));
            const char *path = in_dir("round.pgm");
            CHECK(pl_pgm_write(path, &a) == PL_OK, "write %s %lldx%lld: %s", pl_dtype_name(dtype), (long long)h,
                  (long long)w, pl_last_error());
            char header[64];
            int hl = snprintf(header, sizeof header, "P5\n%lld %lld\n%d\n", (long long)w, (long long)h,
                              t ? 65535 : 255);
            CHECK(file_size(path) == hl + h * w * (t ? 2 : 1), "written size %lld", (long long)file_size(path));
            unsigned char head[80];
            size_t got = read_head(path, head, sizeof head);
            CHECK(got >= (size_t)hl && memcmp(head, header, (size_t)hl) == 0, "header bytes of %lldx%lld",
                  (long long)h, (long long)w);
            if (t && got >= (size_t)hl + 2) { /* big-endian: the first sample (0) then the second */
                uint16_t v1 = h * w > 1 ? ((uint16_t *)a.data)[1] : ((uint16_t *)a.data)[0];
                if (h * w > 1)
                    CHECK(read_head(path, head, (size_t)hl + 4) == (size_t)hl + 4 && head[hl + 2] == (v1 >> 8) &&
                              head[hl + 3] == (v1 & 0xff),
                          "16-bit samples are not big-endian");
            }
            pl_array b;
            memset(&b, 0xAB, sizeof b);
            CHECK(pl_pgm_read(path, &b) == PL_OK, "read back: %s", pl_last_error());
            CHECK(same_array(&a, &b), "round trip %s %lldx%lld changed the image", pl_dtype_name(dtype),
                  (long long)h, (long long)w);
            /* The same through pl_image_read (by content). */
            pl_array c;
            CHECK(pl_image_read(path, &c) == PL_OK && same_array(&a, &c), "pl_image_read of a PGM");
            pl_array_free(&c);
            pl_array_free(&b);
            free(a.data);
        }
    }
    CHECK(count_tmp_files() == 0, "temporary files left behind");
}

/* P2 text with comments and any whitespace; values kept; then out as P5 and back. */
static void test_pgm_plain_and_maxval(void)
{
    const char *p2 = "P2 # a comment right after the magic\n"
                     "#another\r\n  3\t# width\n2\f\v# height\n255\n"
                     "  0 17\t255\r\n\n 1  2 3   \n";
    const char *path = in_dir("plain.pgm");
    write_bytes(path, p2, strlen(p2));
    pl_array a;
    memset(&a, 0xAB, sizeof a);
    pl_status st = pl_pgm_read(path, &a);
    CHECK(st == PL_OK, "P2 with comments: %s", pl_last_error());
    static const uint8_t want[6] = {0, 17, 255, 1, 2, 3};
    CHECK(st == PL_OK && a.dtype == PL_U8 && a.rank == 2 && a.shape[0] == 2 && a.shape[1] == 3 &&
              memcmp(a.data, want, 6) == 0,
          "P2 values or shape wrong");
    const char *out = in_dir("plain_as_p5.pgm");
    CHECK(pl_pgm_write(out, &a) == PL_OK, "P2 -> P5: %s", pl_last_error());
    unsigned char bytes[32];
    static const char p5[] = "P5\n3 2\n255\n\x00\x11\xff\x01\x02\x03";
    CHECK(read_head(out, bytes, sizeof bytes) == sizeof p5 - 1 && memcmp(bytes, p5, sizeof p5 - 1) == 0,
          "P5 bytes of the P2 image");
    pl_array b;
    CHECK(pl_pgm_read(out, &b) == PL_OK && same_array(&a, &b), "P2 -> P5 -> read changed it");
    pl_array_free(&b);
    pl_array_free(&a);

    /* maxval 15: uint8, values not scaled; maxval 1000 (P2): uint16, not scaled. */
    const char *small = "P5\n2 1\n15\n\x0f\x07";
    write_bytes(path, small, 12);
    CHECK(pl_pgm_read(path, &a) == PL_OK && a.dtype == PL_U8 && ((uint8_t *)a.data)[0] == 15 &&
              ((uint8_t *)a.data)[1] == 7,
          "maxval 15 read scaled or wrong: %s", pl_last_error());
    pl_array_free(&a);
    const char *wide = "P2 2 2 1000 1000 0 999 256";
    write_bytes(path, wide, strlen(wide));
    st = pl_pgm_read(path, &a);
    CHECK(st == PL_OK && a.dtype == PL_U16 && ((uint16_t *)a.data)[0] == 1000 && ((uint16_t *)a.data)[1] == 0 &&
              ((uint16_t *)a.data)[2] == 999 && ((uint16_t *)a.data)[3] == 256,
          "P2 maxval 1000: %s", pl_last_error());
    /* 16-bit P2 in, P5 out (maxval 65535, big-endian), the same values back. */
    CHECK(st == PL_OK && pl_pgm_write(out, &a) == PL_OK, "16-bit P2 -> P5: %s", pl_last_error());
    static const char p5_16[] = "P5\n2 2\n65535\n\x03\xe8\x00\x00\x03\xe7\x01\x00";
    CHECK(read_head(out, bytes, sizeof bytes) == sizeof p5_16 - 1 && memcmp(bytes, p5_16, sizeof p5_16 - 1) == 0,
          "P5 bytes of the 16-bit P2 image");
    CHECK(st == PL_OK && pl_pgm_read(out, &b) == PL_OK && same_array(&a, &b), "16-bit P2 -> P5 -> read changed it");
    pl_array_free(&b);
    pl_array_free(&a);
    /* maxval 256 is the first 16-bit one; P5 samples big-endian. */
    const unsigned char be[] = "P5 1 2 256\n\x01\x00\x00\xff";
    write_bytes(path, be, sizeof be - 1);
    st = pl_pgm_read(path, &a);
    CHECK(st == PL_OK && a.dtype == PL_U16 && ((uint16_t *)a.data)[0] == 256 && ((uint16_t *)a.data)[1] == 255,
          "P5 16-bit big-endian: %s", pl_last_error());
    pl_array_free(&a);
    /* Comments between every header token; bytes after the image (a second one) ignored. */
    const unsigned char com[] = "P5#c1\n#c2\n 2#c3\n1 # c4\n255\n\x01\x02P5 1 1 255\n\x07";
    write_bytes(path, com, sizeof com - 1);
    st = pl_pgm_read(path, &a);
    CHECK(st == PL_OK && a.shape[0] == 1 && a.shape[1] == 2 && ((uint8_t *)a.data)[0] == 1 &&
              ((uint8_t *)a.data)[1] == 2,
          "comments everywhere: %s", pl_last_error());
    pl_array_free(&a);
}

/* ---------------------------------------------------------------- malformed PGMs */

typedef struct bad_case {
    const char *name;
    const char *bytes; /* the file; len bytes (0: strlen) */
    size_t len;
    pl_status status;
    const char *words[3]; /* each must be in the message */
} bad_case;

static void test_pgm_malformed(void)
{
    static const bad_case cases[] = {
        {"empty", "", 0, PL_ERR_FORMAT, {"bad magic", "empty"}},
        {"P6 magic", "P6\n1 1\n255\n\x01", 0, PL_ERR_FORMAT, {"bad magic", "'P6'"}},
        {"binary magic", "\x89PNG\r\n", 0, PL_ERR_FORMAT, {"bad magic", "0x89"}},
        {"magic with junk", "P5x 1 1 255\n\x01", 0, PL_ERR_FORMAT, {"bad magic"}},
        {"no width", "P5\n", 0, PL_ERR_FORMAT, {"missing width", "offset 3"}},
        {"no height", "P5\n3 # w\n", 0, PL_ERR_FORMAT, {"missing height"}},
        {"no maxval", "P5\n3 2", 0, PL_ERR_FORMAT, {"missing maxval", "offset 6"}},
        {"zero width", "P5\n0 2 255\n", 0, PL_ERR_FORMAT, {"width is 0", "offset 3"}},
        {"zero height", "P2 3 0 255\n", 0, PL_ERR_FORMAT, {"height is 0"}},
        {"negative height", "P5\n3 -2 255\n", 0, PL_ERR_FORMAT, {"height is negative", "'-2'", "offset 5"}},
        {"zero maxval", "P5\n3 2 0\n", 0, PL_ERR_FORMAT, {"maxval is 0"}},
        {"maxval 65536", "P5\n3 2 65536\n", 0, PL_ERR_FORMAT, {"maxval 65536", "overflows", "65535"}},
        {"width overflows", "P5\n99999999999999999999999 2 255\n", 0, PL_ERR_FORMAT, {"width", "overflows"}},
        {"width 2^31", "P5\n2147483648 2 255\n", 0, PL_ERR_FORMAT, {"width 2147483648", "overflows"}},
        {"junk in width", "P5\n3x 2 255\n", 0, PL_ERR_FORMAT, {"width '3x'", "junk", "offset 3"}},
        {"junk in maxval", "P2\n3 2 2a5\n", 0, PL_ERR_FORMAT, {"maxval '2a5'", "junk"}},
        {"plus sign", "P2\n+3 2 255\n", 0, PL_ERR_FORMAT, {"width '+3'", "junk"}},
        {"comment after maxval", "P5 1 1 255#x\n\x01", 0, PL_ERR_FORMAT, {"comment right after maxval"}},
        {"P5 truncated", "P5\n3 2 255\n\x01\x02", 0, PL_ERR_FORMAT, {"truncated", "expected 6 samples", "found 2"}},
        {"P5 no data", "P5\n3 2 255", 0, PL_ERR_FORMAT, {"truncated", "expected 6 samples", "found 0"}},
        {"P5 16-bit truncated", "P5\n2 2 65535\n\x01\x02\x03\x04\x05", 0, PL_ERR_FORMAT,
         {"truncated", "expected 4 samples", "found 2"}},
        {"P5 above maxval", "P5\n2 1 100\n\x05\xff", 0, PL_ERR_FORMAT,
         {"sample 1 (row 0, column 1)", "is 255", "above maxval 100"}},
        {"P5 16-bit above maxval", "P5\n1 2 1000\n\x03\xe8\x04\x00", 16, PL_ERR_FORMAT,
         {"sample 1 (row 1, column 0)", "is 1024", "above maxval 1000"}},
        {"P2 not a number", "P2\n2 2 255\n1 2 x 4\n", 0, PL_ERR_FORMAT,
         {"sample 2 (row 1, column 0)", "not a number", "'x'"}},
        {"P2 negative sample", "P2\n2 1 255\n1 -2\n", 0, PL_ERR_FORMAT, {"sample 1", "not a number", "'-2'"}},
        {"P2 comment in data", "P2\n2 1 255\n1 #2\n3\n", 0, PL_ERR_FORMAT, {"sample 1", "not a number"}},
        {"P2 truncated", "P2\n3 3 255\n100 200 100 200 100 200 100 200\n", 0, PL_ERR_FORMAT,
         {"truncated", "expected 9 samples", "found 8"}},
        {"P2 far too short", "P2\n100 100 255\n1 2 3\n", 0, PL_ERR_FORMAT,
         {"truncated", "expected 10000 samples", "hold at most 3"}},
        {"P2 above maxval", "P2\n2 1 10\n5 11\n", 0, PL_ERR_FORMAT, {"sample 1", "is 11", "above maxval 10"}},
        {"P2 huge sample", "P2\n1 1 65535\n99999999999999999999\n", 0, PL_ERR_FORMAT, {"sample 0", "above maxval"}},
        {"P5 a million squared", "P5\n1000000 1000000\n255\n\x01\x02", 0, PL_ERR_TOO_BIG, {"too big", "bytes"}},
        {"P2 a million squared", "P2 1000000 1000000 65535 1 2 3", 0, PL_ERR_TOO_BIG, {"too big"}},
    };
    const char *path = in_dir("bad.pgm");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bad_case *c = &cases[i];
        size_t len = c->len ? c->len : strlen(c->bytes); /* len: for files holding a NUL */
        write_bytes(path, c->bytes, len);
        pl_array a;
        memset(&a, 0xAB, sizeof a);
        pl_status st = pl_pgm_read(path, &a);
        const char *msg = pl_last_error();
        CHECK(st == c->status, "%s: status %s, want %s (%s)", c->name, pl_status_name(st), pl_status_name(c->status),
              msg);
        CHECK(strstr(msg, path) != NULL, "%s: the message does not name the file: %s", c->name, msg);
        for (int w = 0; w < 3 && c->words[w]; w++)
            CHECK(strstr(msg, c->words[w]) != NULL, "%s: message lacks '%s': %s", c->name, c->words[w], msg);
        CHECK(a.data == NULL && a.rank == 0, "%s: a failed read left data", c->name);
        pl_array_free(&a);
    }

    pl_array a;
    CHECK(pl_pgm_read(in_dir("no-such.pgm"), &a) == PL_ERR_IO && strstr(pl_last_error(), "no-such.pgm"),
          "a missing file is not PL_ERR_IO: %s", pl_last_error());
    CHECK(pl_pgm_read(dir, &a) == PL_ERR_IO && strstr(pl_last_error(), "cannot read"), "a directory: %s",
          pl_last_error());
    CHECK(pl_image_read(dir, &a) == PL_ERR_IO, "pl_image_read of a directory: %s", pl_last_error());
    CHECK(pl_pgm_read(NULL, &a) == PL_ERR_ARG, "NULL path");
    CHECK(pl_pgm_read(path, NULL) == PL_ERR_ARG, "NULL array");
}

/* ---------------------------------------------------------------- writes refused */

static void test_pgm_write_refused(void)
{
    float f[6] = {0};
    pl_array a = {.dtype = PL_F32, .rank = 2, .shape = {2, 3}, .data = f};
    const char *path = in_dir("refused.pgm");
    CHECK(pl_pgm_write(path, &a) == PL_ERR_ARG && strstr(pl_last_error(), "float32"),
          "float32 not refused by name: %s", pl_last_error());
    uint8_t u[6] = {0};
    pl_array r3 = {.dtype = PL_U8, .rank = 3, .shape = {1, 2, 3}, .data = u};
    CHECK(pl_pgm_write(path, &r3) == PL_ERR_ARG && strstr(pl_last_error(), "rank 3"), "rank 3: %s",
          pl_last_error());
    pl_array empty = {.dtype = PL_U8, .rank = 2, .shape = {0, 3}, .data = u};
    CHECK(pl_pgm_write(path, &empty) == PL_ERR_ARG && strstr(pl_last_error(), "0 x 3"), "0 rows: %s",
          pl_last_error());
    pl_array nodata = {.dtype = PL_U8, .rank = 2, .shape = {2, 3}, .data = NULL};
    CHECK(pl_pgm_write(path, &nodata) == PL_ERR_ARG, "no data");
    CHECK(access(path, F_OK) != 0, "a refused write left a file");
    pl_array ok = {.dtype = PL_U8, .rank = 2, .shape = {2, 3}, .data = u};
    CHECK(pl_pgm_write(in_dir("no-such-dir/x.pgm"), &ok) == PL_ERR_IO && strstr(pl_last_error(), "no-such-dir"),
          "write into a missing directory: %s", pl_last_error());
    CHECK(count_tmp_files() == 0, "a failed write left a temporary file");
}

/* ---------------------------------------------------------------- PNG */

static void test_png(void)
{
    pl_array a, b;
    if (!pl_png_available()) {
        printf("pgm: this build has no libpng: checking the refusals only\n");
        memset(&a, 0xAB, sizeof a);
        CHECK(pl_png_read(in_tests("data/gray16_2x3.png"), &a) == PL_ERR_UNSUPPORTED &&
                  strstr(pl_last_error(), "built without libpng") && a.data == NULL,
              "png read without libpng: %s", pl_last_error());
        uint8_t u = 1;
        pl_array one = {.dtype = PL_U8, .rank = 2, .shape = {1, 1}, .data = &u};
        CHECK(pl_png_write(in_dir("x.png"), &one) == PL_ERR_UNSUPPORTED &&
                  strstr(pl_last_error(), "built without libpng"),
              "png write without libpng: %s", pl_last_error());
        return;
    }
    static const int64_t sizes[][2] = {{1, 1}, {3, 5}, {1023, 7}};
    for (int t = 0; t < 2; t++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            pl_dtype dtype = t ? PL_U16 : PL_U8;
            a = make_image(dtype, sizes[s][0], sizes[s][1], (unsigned)(100 + s + 10 * t));
            const char *path = in_dir("round.png");
            CHECK(pl_png_write(path, &a) == PL_OK, "png write: %s", pl_last_error());
            unsigned char sig[8];
            CHECK(read_head(path, sig, 8) == 8 && memcmp(sig, "\x89PNG\r\n\x1a\n", 8) == 0, "png signature");
            memset(&b, 0xAB, sizeof b);
            CHECK(pl_png_read(path, &b) == PL_OK && same_array(&a, &b), "png round trip %s %lldx%lld: %s",
                  pl_dtype_name(dtype), (long long)sizes[s][0], (long long)sizes[s][1], pl_last_error());
            pl_array_free(&b);
            CHECK(pl_image_read(path, &b) == PL_OK && same_array(&a, &b), "pl_image_read of a PNG");
            pl_array_free(&b);
            free(a.data);
        }

    /* Fixtures written by hand (tests/data/make_io_fixtures.py). */
    pl_status st = pl_png_read(in_tests("data/gray16_2x3.png"), &a);
    static const uint16_t want16[6] = {0, 1, 256, 4660, 65535, 1000};
    CHECK(st == PL_OK && a.dtype == PL_U16 && a.shape[0] == 3 && a.shape[1] == 2 && memcmp(a.data, want16, 12) == 0,
          "gray16 fixture: %s", pl_last_error());
    pl_array_free(&a);
    st = pl_png_read(in_tests("data/gray4_3x2.png"), &a);
    static const uint8_t want4[6] = {0, 5, 15, 7, 1, 9};
    CHECK(st == PL_OK && a.dtype == PL_U8 && a.shape[0] == 2 && a.shape[1] == 3 && memcmp(a.data, want4, 6) == 0,
          "4-bit gray fixture (values kept, not scaled): %s", pl_last_error());
    pl_array_free(&a);

    st = pl_png_read(in_tests("data/gray8_interlaced_5x3.png"), &a);
    int interlaced_ok = st == PL_OK && a.dtype == PL_U8 && a.shape[0] == 3 && a.shape[1] == 5;
    for (int i = 0; interlaced_ok && i < 15; i++)
        if (((uint8_t *)a.data)[i] != 10 * (i / 5) + i % 5) interlaced_ok = 0;
    CHECK(interlaced_ok, "Adam7-interlaced fixture: %s", pl_last_error());
    pl_array_free(&a);

    static const struct { const char *file, *word; } refused[] = {
        {"data/rgb_2x2.png", "colour type RGB"},
        {"data/palette_2x2.png", "colour type palette"},
        {"data/gray_alpha_2x2.png", "colour type gray+alpha"},
    };
    for (size_t i = 0; i < 3; i++) {
        memset(&a, 0xAB, sizeof a);
        st = pl_png_read(in_tests(refused[i].file), &a);
        CHECK(st == PL_ERR_FORMAT && strstr(pl_last_error(), refused[i].word) && a.data == NULL,
              "%s: %s: %s", refused[i].file, pl_status_name(st), pl_last_error());
    }

    /* A PNG cut short, and one with a corrupted data chunk: refused, nothing leaked (ASan). */
    a = make_image(PL_U8, 64, 64, 7);
    const char *path = in_dir("cut.png");
    CHECK(pl_png_write(path, &a) == PL_OK, "png write");
    free(a.data);
    unsigned char buf[1 << 14];
    size_t n = read_head(path, buf, sizeof buf);
    write_bytes(path, buf, n / 2);
    memset(&a, 0xAB, sizeof a);
    st = pl_png_read(path, &a);
    CHECK(st == PL_ERR_FORMAT && strstr(pl_last_error(), "bad PNG") && a.data == NULL, "truncated png: %s: %s",
          pl_status_name(st), pl_last_error());
    buf[n - 20] ^= 0x55; /* inside the last IDAT or its CRC */
    write_bytes(path, buf, n);
    st = pl_png_read(path, &a);
    CHECK(st == PL_ERR_FORMAT && a.data == NULL, "corrupted png: %s: %s", pl_status_name(st), pl_last_error());
    CHECK(pl_png_read(dir, &a) == PL_ERR_IO, "png read of a directory: %s", pl_last_error());
    write_bytes(path, "\x89PNG\r\n", 6);
    CHECK(pl_png_read(path, &a) == PL_ERR_FORMAT && strstr(pl_last_error(), "not a PNG"), "short signature: %s",
          pl_last_error());

    float f = 0;
    pl_array fl = {.dtype = PL_F32, .rank = 2, .shape = {1, 1}, .data = &f};
    CHECK(pl_png_write(in_dir("f.png"), &fl) == PL_ERR_ARG && strstr(pl_last_error(), "float32"),
          "png write of float32: %s", pl_last_error());
    CHECK(count_tmp_files() == 0, "png: temporary files left behind");
}

/* ---------------------------------------------------------------- by content, by name */

static void test_image_dispatch(void)
{
    pl_array a = make_image(PL_U8, 3, 5, 42), b;
    static const struct { const char *name, *magic; size_t magic_len; } by_name[] = {
        {"x.pgm", "P5\n", 3},
        {"UPPER.PGM", "P5\n", 3},
        {"x.npy", "\x93NUMPY", 6},
        {"no_extension", "\x93NUMPY", 6},
        {"x.png", "\x89PNG", 4},
    };
    for (size_t i = 0; i < sizeof by_name / sizeof by_name[0]; i++) {
        if (by_name[i].magic[0] == '\x89' && !pl_png_available()) continue;
        const char *path = in_dir(by_name[i].name);
        CHECK(pl_image_write(path, &a) == PL_OK, "pl_image_write %s: %s", by_name[i].name, pl_last_error());
        unsigned char head[8];
        CHECK(read_head(path, head, by_name[i].magic_len) == by_name[i].magic_len &&
                  memcmp(head, by_name[i].magic, by_name[i].magic_len) == 0,
              "%s was not written in the format its name says", by_name[i].name);
        memset(&b, 0xAB, sizeof b);
        CHECK(pl_image_read(path, &b) == PL_OK && same_array(&a, &b), "pl_image_read %s: %s", by_name[i].name,
              pl_last_error());
        pl_array_free(&b);
    }
    /* A float32 array goes to .npy; to .pgm it is refused. */
    float f[2] = {1.5f, -2};
    pl_array fl = {.dtype = PL_F32, .rank = 1, .shape = {2}, .data = f};
    CHECK(pl_image_write(in_dir("f.npy"), &fl) == PL_OK, "float32 to .npy");
    CHECK(pl_image_read(in_dir("f.npy"), &b) == PL_OK && same_array(&fl, &b), "float32 .npy back");
    pl_array_free(&b);
    CHECK(pl_image_write(in_dir("f.pgm"), &fl) == PL_ERR_ARG, "float32 to .pgm not refused");

    write_bytes(in_dir("junk.bin"), "GIF89a", 6);
    memset(&b, 0xAB, sizeof b);
    CHECK(pl_image_read(in_dir("junk.bin"), &b) == PL_ERR_FORMAT && strstr(pl_last_error(), "not an image") &&
              b.data == NULL,
          "unknown content: %s", pl_last_error());
    /* Content, not name: a PGM named .npy reads as PGM; a bad one gives the PGM reader's error. */
    write_bytes(in_dir("lie.npy"), "P2 1 1 9 7", 10);
    CHECK(pl_image_read(in_dir("lie.npy"), &b) == PL_OK && b.dtype == PL_U8 && ((uint8_t *)b.data)[0] == 7,
          "PGM named .npy: %s", pl_last_error());
    pl_array_free(&b);
    write_bytes(in_dir("bad.img"), "P5 2 2 255\n\x01", 12);
    CHECK(pl_image_read(in_dir("bad.img"), &b) == PL_ERR_FORMAT && strstr(pl_last_error(), "truncated"),
          "bad PGM by content: %s", pl_last_error());
    CHECK(pl_image_read(in_dir("missing.img"), &b) == PL_ERR_IO, "missing file");
    free(a.data);
}

/* ---------------------------------------------------------------- the fuzz corpus */

/* tests/fuzz/corpus/<format>/ read with read(): ok_* must read, bad_* must fail with
 * PL_ERR_FORMAT (or TOO_BIG for bad_too_big*) naming the file, leaving the array empty; other
 * names (fuzzer findings) may do either but never crash or leak (the ASan build runs this
 * too). */
static void replay_corpus(const char *format, pl_status (*read)(const char *, pl_array *), int min_ok, int min_bad)
{
    char rel[64];
    snprintf(rel, sizeof rel, "fuzz/corpus/%s", format);
    const char *cdir = in_tests(rel);
    DIR *d = opendir(cdir);
    CHECK(d != NULL, "cannot open the fuzz corpus %s", cdir);
    if (!d) return;
    char cdir_copy[1024];
    snprintf(cdir_copy, sizeof cdir_copy, "%s", cdir);
    int n_ok = 0, n_bad = 0, n_other = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", cdir_copy, e->d_name);
        pl_array a;
        memset(&a, 0xAB, sizeof a);
        pl_status st = read(path, &a);
        if (strncmp(e->d_name, "ok_", 3) == 0) {
            n_ok++;
            CHECK(st == PL_OK, "corpus %s: %s", e->d_name, pl_last_error());
        } else if (strncmp(e->d_name, "bad_", 4) == 0) {
            n_bad++;
            pl_status want = strncmp(e->d_name, "bad_too_big", 11) == 0 ? PL_ERR_TOO_BIG : PL_ERR_FORMAT;
            CHECK(st == want, "corpus %s: status %s, want %s (%s)", e->d_name, pl_status_name(st),
                  pl_status_name(want), pl_last_error());
            CHECK(st == PL_OK || strstr(pl_last_error(), path), "corpus %s: message does not name the file",
                  e->d_name);
        } else {
            n_other++;
        }
        if (st != PL_OK) CHECK(a.data == NULL && a.rank == 0, "corpus %s: failed read left data", e->d_name);
        pl_array_free(&a);
    }
    closedir(d);
    CHECK(n_ok >= min_ok && n_bad >= min_bad, "fuzz corpus %s: %d ok_, %d bad_ files, want >= %d and >= %d", format,
          n_ok, n_bad, min_ok, min_bad);
    printf("pgm: fuzz corpus %s: %d valid, %d malformed, %d fuzzer findings read\n", format, n_ok, n_bad, n_other);
}

static void test_fuzz_corpus(void)
{
    replay_corpus("pgm", pl_pgm_read, 5, 10);
    if (pl_png_available()) replay_corpus("png", pl_png_read, 3, 4);
    else printf("pgm: fuzz corpus png not replayed: this build has no libpng\n");
}

int main(void)
{
    if (tmpdir_make("pgm") != 0) return 1;
    test_pgm_round_trips();
    test_pgm_plain_and_maxval();
    test_pgm_malformed();
    test_pgm_write_refused();
    test_png();
    test_image_dispatch();
    test_fuzz_corpus();
    tmpdir_remove();
    return check_summary("pgm");
}
