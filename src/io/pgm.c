/* pgm.c: reading and writing PGM (netpbm graymap) images.
 *
 * A PGM file is: the magic "P2" (plain: the samples as decimal text) or "P5" (raw: the samples
 * as bytes), then three decimal numbers, the width, the height and maxval, separated by
 * whitespace, with '#' comments (to the end of the line) allowed anywhere between them, then
 * (P5) exactly one whitespace character and H x W samples of 1 byte (maxval < 256) or 2 bytes
 * big-endian (maxval >= 256), row by row; or (P2) the H x W samples as whitespace-separated
 * decimal numbers.
 *
 * What parlab makes of one: a rank-2 array H x W, PL_U8 when maxval < 256, else PL_U16, with
 * the sample values as they are (a maxval of 1000 is not scaled to 65535). A sample above
 * maxval is an error. Bytes after the last sample (a second image) are ignored.
 *
 * Every problem is PL_ERR_FORMAT naming the file, what is wrong and where (a byte offset, or
 * a sample's index, row and column). Before allocating, the image's size is checked against
 * what the file can hold (P5: exactly W*H*bytes; P2: at least two characters a sample) and
 * against the memory this process may take (PL_ERR_TOO_BIG), so a header claiming a million
 * by a million pixels costs nothing.
 *
 * pl_pgm_write writes P5 (PL_U8 with maxval 255, PL_U16 with maxval 65535) to a temporary
 * file and renames it over the name. */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat */
#include "io/io.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
    PGM_MAX_DIM = 2147483647, /* width and height fit an int32 */
    PGM_MAX_MAXVAL = 65535,
    PGM_TOKEN = 32            /* characters of a header number kept for messages */
};

/* The file being read, and how many bytes of it are behind us (for messages). */
typedef struct pgm_in {
    const char *path;
    FILE *f;
    int64_t offset;
} pgm_in;

static int next_char(pgm_in *in)
{
    int c = getc(in->f);
    if (c != EOF) in->offset++;
    return c;
}

static void unget_char(pgm_in *in, int c)
{
    if (c == EOF) return;
    ungetc(c, in->f);
    in->offset--;
}

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Skip whitespace and '#' comments; returns the first other character (or EOF), consumed. */
static int skip_space_and_comments(pgm_in *in)
{
    for (;;) {
        int c = next_char(in);
        if (c == '#') {
            while (c != EOF && c != '\n' && c != '\r') c = next_char(in);
            continue;
        }
        if (!is_space(c)) return c;
    }
}

/* The printable form of a token for a message. */
static void printable(char *s)
{
    for (; *s; s++)
        if (*s < 0x20 || *s >= 0x7f) *s = '?';
}

/* One header number (what: "width", "height", "maxval") in 1..max. A token ends at
 * whitespace, '#' or the end of the file (*ended_by: that character or EOF); the whitespace
 * character after it is consumed, a '#' is not. */
static pl_status header_number(pgm_in *in, const char *what, int64_t max, int64_t *value, int *ended_by)
{
    int c = skip_space_and_comments(in);
    int64_t start = in->offset - (c == EOF ? 0 : 1);
    if (c == EOF)
        return pl_fail(PL_ERR_FORMAT, "%s: malformed header: missing %s (the file ends at byte offset %" PRId64 ")",
                       in->path, what, in->offset);
    char token[PGM_TOKEN];
    size_t len = 0;
    int junk = 0, overflow = 0, digits = 0, minus = 0;
    int64_t v = 0;
    for (int64_t i = 0; c != EOF && !is_space(c) && c != '#'; c = next_char(in), i++) {
        if (len + 1 < sizeof token) token[len++] = (char)c;
        if (c == '-' && i == 0) {
            minus = 1;
        } else if (c >= '0' && c <= '9') {
            digits++;
            if (v > (max - (c - '0')) / 10) overflow = 1;
            else v = v * 10 + (c - '0');
        } else {
            junk = 1;
        }
    }
    *ended_by = c;
    if (c == '#') unget_char(in, c); /* the comment is skipped before the next number */
    token[len] = '\0';
    printable(token);
    if (minus && digits > 0 && !junk)
        return pl_fail(PL_ERR_FORMAT, "%s: malformed header: %s is negative ('%s' at byte offset %" PRId64 ")",
                       in->path, what, token, start);
    if (junk || digits == 0)
        return pl_fail(PL_ERR_FORMAT,
                       "%s: malformed header: %s '%s' at byte offset %" PRId64 " is not a number (junk in it)",
                       in->path, what, token, start);
    if (overflow)
        return pl_fail(PL_ERR_FORMAT, "%s: malformed header: %s %s at byte offset %" PRId64 " overflows (at most %" PRId64 ")",
                       in->path, what, token, start, max);
    if (v == 0)
        return pl_fail(PL_ERR_FORMAT, "%s: malformed header: %s is 0 at byte offset %" PRId64 " (1..%" PRId64 ")",
                       in->path, what, start, max);
    *value = v;
    return PL_OK;
}

/* "row r, column c" of sample i of a W-wide image, for messages. */
#define PGM_WHERE(i, w) "sample %" PRId64 " (row %" PRId64 ", column %" PRId64 ")"
#define PGM_WHERE_ARGS(i, w) (i), (i) / (w), (i) % (w)

/* P5 samples: count of elem bytes each, straight into data; then each checked <= maxval. */
static pl_status read_raw(pgm_in *in, pl_array *a, int64_t count, size_t elem, int64_t maxval)
{
    int64_t data_offset = in->offset;
    size_t got = fread(a->data, elem, (size_t)count, in->f);
    if (got < (size_t)count) {
        if (ferror(in->f)) return pl_fail(PL_ERR_IO, "%s: cannot read: %s", in->path, strerror(errno));
        return pl_fail(PL_ERR_FORMAT, "%s: truncated pixel data: expected %" PRId64 " samples, found %zu",
                       in->path, count, got);
    }
    int64_t w = a->shape[1];
    if (elem == 1) {
        const uint8_t *p = a->data;
        for (int64_t i = 0; i < count; i++)
            if (p[i] > maxval)
                return pl_fail(PL_ERR_FORMAT, "%s: " PGM_WHERE(i, w) " at byte offset %" PRId64 " is %d, above maxval %" PRId64,
                               in->path, PGM_WHERE_ARGS(i, w), data_offset + i, p[i], maxval);
    } else {
        uint16_t *p = a->data;
        for (int64_t i = 0; i < count; i++) {
            const uint8_t *b = (const uint8_t *)&p[i];
            p[i] = (uint16_t)(b[0] << 8 | b[1]); /* big-endian in the file */
            if (p[i] > maxval)
                return pl_fail(PL_ERR_FORMAT, "%s: " PGM_WHERE(i, w) " at byte offset %" PRId64 " is %d, above maxval %" PRId64,
                               in->path, PGM_WHERE_ARGS(i, w), data_offset + 2 * i, p[i], maxval);
        }
    }
    return PL_OK;
}

/* P2 samples: decimal numbers separated by whitespace. */
static pl_status read_plain(pgm_in *in, pl_array *a, int64_t count, size_t elem, int64_t maxval)
{
    int64_t w = a->shape[1];
    for (int64_t i = 0; i < count; i++) {
        int c = next_char(in);
        while (is_space(c)) c = next_char(in);
        if (c == EOF)
            return pl_fail(PL_ERR_FORMAT, "%s: truncated pixel data: expected %" PRId64 " samples, found %" PRId64,
                           in->path, count, i);
        int64_t start = in->offset - 1, v = 0;
        char token[PGM_TOKEN];
        size_t len = 0;
        int junk = 0;
        for (; c != EOF && !is_space(c); c = next_char(in)) {
            if (len + 1 < sizeof token) token[len++] = (char)c;
            if (c >= '0' && c <= '9') {
                if (v <= maxval) v = v * 10 + (c - '0'); /* stops growing once above maxval */
            } else {
                junk = 1;
            }
        }
        token[len] = '\0';
        printable(token);
        if (junk)
            return pl_fail(PL_ERR_FORMAT, "%s: P2 " PGM_WHERE(i, w) " at byte offset %" PRId64 " is not a number: '%s'",
                           in->path, PGM_WHERE_ARGS(i, w), start, token);
        if (v > maxval)
            return pl_fail(PL_ERR_FORMAT, "%s: " PGM_WHERE(i, w) " at byte offset %" PRId64 " is %s, above maxval %" PRId64,
                           in->path, PGM_WHERE_ARGS(i, w), start, token, maxval);
        if (elem == 1) ((uint8_t *)a->data)[i] = (uint8_t)v;
        else ((uint16_t *)a->data)[i] = (uint16_t)v;
    }
    return PL_OK;
}

static pl_status read_file(pgm_in *in, pl_array *a)
{
    const char *path = in->path;
    unsigned char magic[2];
    int c0 = next_char(in), c1 = c0 == EOF ? EOF : next_char(in);
    magic[0] = (unsigned char)c0;
    magic[1] = (unsigned char)c1;
    int after = next_char(in);
    if (c0 != 'P' || (c1 != '2' && c1 != '5') || (after != EOF && !is_space(after) && after != '#')) {
        char shown[16];
        if (c0 == EOF) snprintf(shown, sizeof shown, "an empty file");
        else if (c1 == EOF) snprintf(shown, sizeof shown, "0x%02x", magic[0]);
        else if (magic[0] >= 0x21 && magic[0] < 0x7f && magic[1] >= 0x21 && magic[1] < 0x7f)
            snprintf(shown, sizeof shown, "'%c%c'", magic[0], magic[1]);
        else snprintf(shown, sizeof shown, "0x%02x 0x%02x", magic[0], magic[1]);
        return pl_fail(PL_ERR_FORMAT, "%s: not a PGM file (bad magic: expected P2 or P5 followed by whitespace, found %s)",
                       path, shown);
    }
    unget_char(in, after);
    int raw = c1 == '5';

    int64_t width, height, maxval;
    int ended_by;
    pl_status st;
    if ((st = header_number(in, "width", PGM_MAX_DIM, &width, &ended_by)) != PL_OK ||
        (st = header_number(in, "height", PGM_MAX_DIM, &height, &ended_by)) != PL_OK ||
        (st = header_number(in, "maxval", PGM_MAX_MAXVAL, &maxval, &ended_by)) != PL_OK)
        return st;
    /* The samples start after exactly one whitespace character (or the file ends there, which
     * the size check below reports as truncated data). */
    if (ended_by == '#')
        return pl_fail(PL_ERR_FORMAT, "%s: malformed header: a comment right after maxval at byte offset %" PRId64
                       " (one whitespace character must end the header)", path, in->offset);

    size_t elem = maxval < 256 ? 1 : 2;
    int64_t count = width * height, bytes; /* both < 2^31: no overflow */
    if (pl_mul_overflow(count, (int64_t)elem, &bytes) || (uint64_t)bytes > SIZE_MAX)
        return pl_fail(PL_ERR_TOO_BIG, "%s: too big: %" PRId64 " x %" PRId64 " samples do not fit in memory", path,
                       width, height);
    if ((st = pl_io_fits_memory(path, bytes)) != PL_OK) return st;

    /* What the rest of the file can hold, before allocating. */
    struct stat sb;
    if (fstat(fileno(in->f), &sb) == 0 && S_ISREG(sb.st_mode)) {
        int64_t left = (int64_t)sb.st_size - in->offset;
        if (left < 0) left = 0;
        if (raw && left < bytes)
            return pl_fail(PL_ERR_FORMAT, "%s: truncated pixel data: expected %" PRId64 " samples (%" PRId64 " x %" PRId64
                           "), found %" PRId64, path, count, height, width, left / (int64_t)elem);
        if (!raw && left < 2 * count - 1)
            return pl_fail(PL_ERR_FORMAT, "%s: truncated pixel data: expected %" PRId64 " samples (%" PRId64 " x %" PRId64
                           "), the %" PRId64 " bytes left hold at most %" PRId64, path, count, height, width, left,
                           (left + 1) / 2);
    }

    a->dtype = elem == 1 ? PL_U8 : PL_U16;
    a->rank = 2;
    a->shape[0] = height;
    a->shape[1] = width;
    a->data = pl_alloc((size_t)bytes);
    if (!a->data) return pl_fail(PL_ERR_NOMEM, "%s: cannot allocate %" PRId64 " bytes", path, bytes);
    return raw ? read_raw(in, a, count, elem, maxval) : read_plain(in, a, count, elem, maxval);
}

pl_status pl_pgm_read(const char *path, pl_array *a)
{
    if (!a) return pl_fail(PL_ERR_ARG, "pl_pgm_read: the array is NULL");
    memset(a, 0, sizeof *a);
    if (!path) return pl_fail(PL_ERR_ARG, "pl_pgm_read: the path is NULL");
    FILE *f = fopen(path, "rbe");
    if (!f) return pl_fail(PL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    pgm_in in = {path, f, 0};
    pl_status st = read_file(&in, a);
    fclose(f);
    if (st != PL_OK) pl_array_free(a); /* leave *a empty on failure */
    return st;
}

/* ---------------------------------------------------------------- writing */

pl_status pl_pgm_write(const char *path, const pl_array *a)
{
    if (!path || !a) return pl_fail(PL_ERR_ARG, "pl_pgm_write: NULL %s", path ? "array" : "path");
    if (a->dtype != PL_U8 && a->dtype != PL_U16)
        return pl_fail(PL_ERR_ARG, "%s: a PGM holds uint8 or uint16 samples, not %s", path,
                       pl_dtype_name(a->dtype));
    if (a->rank != 2)
        return pl_fail(PL_ERR_ARG, "%s: a PGM is a rank-2 array (height x width), not rank %d", path, a->rank);
    if (a->shape[0] < 1 || a->shape[1] < 1 || a->shape[0] > PGM_MAX_DIM || a->shape[1] > PGM_MAX_DIM)
        return pl_fail(PL_ERR_ARG, "%s: a PGM's height and width are 1..%d, not %" PRId64 " x %" PRId64, path,
                       PGM_MAX_DIM, a->shape[0], a->shape[1]);
    if (!a->data) return pl_fail(PL_ERR_ARG, "%s: the array has no data", path);

    int wide = a->dtype == PL_U16;
    char header[64];
    int hl = snprintf(header, sizeof header, "P5\n%" PRId64 " %" PRId64 "\n%d\n", a->shape[1], a->shape[0],
                      wide ? 65535 : 255);
    int64_t count = a->shape[0] * a->shape[1];

    pl_tmp t;
    pl_status st = pl_tmp_open(path, &t);
    if (st != PL_OK) return st;
    int bad = pl_write_full(t.fd, header, (size_t)hl) != 0;
    if (!bad && !wide) {
        bad = pl_write_full(t.fd, a->data, (size_t)count) != 0;
    } else if (!bad) {
        /* Big-endian 16-bit samples, through a small buffer. */
        uint8_t buf[1 << 14];
        const uint16_t *p = a->data;
        for (int64_t i = 0; i < count && !bad;) {
            size_t n = 0;
            for (; i < count && n < sizeof buf; i++) {
                buf[n++] = (uint8_t)(p[i] >> 8);
                buf[n++] = (uint8_t)(p[i] & 0xff);
            }
            bad = pl_write_full(t.fd, buf, n) != 0;
        }
    }
    if (bad) st = pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    return pl_tmp_close(path, &t, st);
}
