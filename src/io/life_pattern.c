/* life_pattern.c: Life patterns read from and written to the files Life users have
 * (life_pattern.h): Golly's RLE and plaintext .cells, and seeded random soups. The rule is text
 * here, taken and written as it stands: the life room reads it (kernels/life/rule.c).
 *
 * The reader holds the whole file in memory and walks it with a cursor that knows its line and
 * column, so every complaint reads "file:line:col: what". The box's size (RLE's header, or the
 * rows of a .cells file) is checked against this process's memory before the bits are
 * allocated. The writer streams the text through a bounded buffer into a temporary file that
 * is renamed into place, so a large box (or a tall one with no columns) never needs its whole
 * text in memory. */
#include "core/core.h"
#include "io/io.h"
#include "io/life_pattern.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    RLE_LINE_MAX = 70,               /* written RLE lines, as Golly writes them */
};
#define COUNT_MAX (INT64_C(1) << 62) /* a run count or size beyond this overflows */

static const char default_rule[] = "B3/S23"; /* a file that names none: Conway's Life */

/* ---------------------------------------------------------------- allocation */

/* The bits of a w x h box; PL_ERR_TOO_BIG (before allocating) when they cannot fit. */
static pl_status alloc_box(const char *name, pl_life_pattern *p, int64_t w, int64_t h)
{
    int64_t wpr = (w + 63) / 64, words, bytes;
    if (pl_mul_overflow(wpr, h, &words) || pl_mul_overflow(words, 8, &bytes))
        return pl_fail(PL_ERR_TOO_BIG, "%s: a %" PRId64 " x %" PRId64 " pattern overflows 64-bit sizes", name, w, h);
    pl_status st = pl_io_fits_memory(name, bytes);
    if (st != PL_OK) return st;
    memset(p, 0, sizeof *p);
    p->w = w;
    p->h = h;
    p->words_per_row = wpr;
    snprintf(p->rule, sizeof p->rule, "%s", default_rule);
    p->grid = PL_LIFE_UNBOUNDED;
    if (bytes > 0) {
        p->bits = pl_alloc((size_t)bytes);
        if (!p->bits) return pl_fail(PL_ERR_NOMEM, "%s: out of memory for %" PRId64 " bytes", name, bytes);
        memset(p->bits, 0, (size_t)bytes);
    }
    return PL_OK;
}

pl_status pl_life_pattern_alloc(pl_life_pattern *p, int64_t w, int64_t h)
{
    if (!p) return pl_fail(PL_ERR_ARG, "pl_life_pattern_alloc: NULL pattern");
    memset(p, 0, sizeof *p);
    if (w < 0 || h < 0)
        return pl_fail(PL_ERR_ARG, "life pattern: size %" PRId64 " x %" PRId64 " is negative", w, h);
    return alloc_box("life pattern", p, w, h);
}

pl_status pl_life_soup(pl_life_pattern *p, int64_t w, int64_t h, double density, uint64_t seed)
{
    if (!p) return pl_fail(PL_ERR_ARG, "pl_life_soup: NULL pattern");
    memset(p, 0, sizeof *p);
    if (!(density >= 0.0 && density <= 1.0))
        return pl_fail(PL_ERR_ARG, "life soup: density %g is not in 0..1", density);
    pl_status st = pl_life_pattern_alloc(p, w, h);
    if (st != PL_OK) return st;
    /* Each row from its own seed, drawn in turn from the soup's seed: rows never share bits. */
    pl_rng rows;
    pl_rng_seed(&rows, seed);
    for (int64_t y = 0; w > 0 && y < h; y++) /* no columns: no rows to fill, however many */
        pl_fill_bits(p->bits + y * p->words_per_row, w, density, pl_rng_next(&rows));
    return PL_OK;
}

void pl_life_pattern_free(pl_life_pattern *p)
{
    if (!p) return;
    pl_free(p->bits);
    free(p->comments);
    memset(p, 0, sizeof *p);
}

/* Cells x .. x+n-1 of row y alive (n >= 1), a word at a time: a long run costs its words. */
static void set_cells(pl_life_pattern *p, int64_t x, int64_t y, int64_t n)
{
    uint64_t *row = p->bits + y * p->words_per_row;
    const int64_t last = x + n - 1, k0 = x / 64, k1 = last / 64;
    const uint64_t from = ~UINT64_C(0) << (x % 64), to = ~UINT64_C(0) >> (63 - last % 64);
    if (k0 == k1) {
        row[k0] |= from & to;
        return;
    }
    row[k0] |= from;
    for (int64_t k = k0 + 1; k < k1; k++) row[k] = ~UINT64_C(0);
    row[k1] |= to;
}

/* ---------------------------------------------------------------- the reader's cursor */

typedef struct reader {
    const char *path;
    const char *s; /* the whole file */
    size_t n, i;
    int64_t line, col; /* of s[i], from 1 */
    char *comments;    /* kept '#' lines */
    size_t comments_len;
} reader;

static int at_end(const reader *r) { return r->i >= r->n; }
static int peek(const reader *r) { return r->i < r->n ? (unsigned char)r->s[r->i] : -1; }

static void advance(reader *r)
{
    if (r->s[r->i] == '\n') {
        r->line++;
        r->col = 1;
    } else {
        r->col++;
    }
    r->i++;
}

static pl_status fail_at(const reader *r, int64_t line, int64_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static pl_status fail_at(const reader *r, int64_t line, int64_t col, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return pl_fail(PL_ERR_FORMAT, "%s:%" PRId64 ":%" PRId64 ": %s", r->path, line, col, what);
}

/* A character for a message: 'c' when printable, else its byte value. */
static const char *show(int c, char buf[24])
{
    if (c < 0) snprintf(buf, 24, "the end of the file");
    else if (c >= 0x20 && c < 0x7f) snprintf(buf, 24, "'%c'", c);
    else if (c == '\n') snprintf(buf, 24, "the end of the line");
    else snprintf(buf, 24, "byte 0x%02x", c);
    return buf;
}

static void skip_blanks(reader *r) /* within a line */
{
    while (!at_end(r) && (peek(r) == ' ' || peek(r) == '\t' || peek(r) == '\r')) advance(r);
}

/* A decimal number at the cursor (at least one digit); what names it in messages. */
static pl_status read_number(reader *r, const char *what, int64_t *v)
{
    int64_t line = r->line, col = r->col;
    char b[24];
    if (peek(r) < '0' || peek(r) > '9') return fail_at(r, line, col, "expected %s, found %s", what, show(peek(r), b));
    int64_t x = 0;
    while (peek(r) >= '0' && peek(r) <= '9') {
        int digit = peek(r) - '0';
        if (x > (COUNT_MAX - digit) / 10) return fail_at(r, line, col, "%s overflows (more than 2^62)", what);
        x = x * 10 + digit;
        advance(r);
    }
    *v = x;
    return PL_OK;
}

/* The text of the current line from the cursor, without '\r', and the cursor past its '\n'.
 * A NUL byte (which would cut a kept comment short) is refused. */
static pl_status rest_of_line(reader *r, size_t *start, size_t *len)
{
    *start = r->i;
    while (!at_end(r) && peek(r) != '\n') {
        if (peek(r) == 0) return fail_at(r, r->line, r->col, "unexpected byte 0x00 in a comment line");
        advance(r);
    }
    *len = r->i - *start;
    while (*len > 0 && r->s[*start + *len - 1] == '\r') (*len)--;
    if (!at_end(r)) advance(r);
    return PL_OK;
}

static pl_status keep_comment(reader *r, const char *prefix, const char *text, size_t len)
{
    size_t pn = strlen(prefix);
    char *c = realloc(r->comments, r->comments_len + pn + len + 2);
    if (!c) return pl_fail(PL_ERR_NOMEM, "%s: out of memory for the comments", r->path);
    r->comments = c;
    memcpy(c + r->comments_len, prefix, pn);
    memcpy(c + r->comments_len + pn, text, len);
    r->comments_len += pn + len;
    c[r->comments_len++] = '\n';
    c[r->comments_len] = '\0';
    return PL_OK;
}

/* ---------------------------------------------------------------- RLE */

/* "#R x y" / "#P x y": the box's top-left. The cursor is after the two characters. */
static pl_status read_position(reader *r, pl_life_pattern *p)
{
    int64_t v[2];
    for (int k = 0; k < 2; k++) {
        skip_blanks(r);
        int neg = 0;
        if (peek(r) == '-') {
            neg = 1;
            advance(r);
        }
        pl_status st = read_number(r, k ? "the y of #R/#P" : "the x of #R/#P", &v[k]);
        if (st != PL_OK) return st;
        v[k] = neg ? -v[k] : v[k];
    }
    p->x0 = v[0];
    p->y0 = v[1];
    return PL_OK;
}

/* Expect the character c (after blanks), naming what it is for. */
static pl_status expect(reader *r, int c, const char *what)
{
    skip_blanks(r);
    char b[24];
    if (peek(r) != c) return fail_at(r, r->line, r->col, "expected %s, found %s", what, show(peek(r), b));
    advance(r);
    return PL_OK;
}

/* The rule text of the header, "B3/S23[:T100,100]": the rule's text (where it stands) and the
 * grid into p. */
static pl_status read_header_rule(reader *r, pl_life_pattern *p, int64_t line, int64_t col, const char *text,
                                  size_t len)
{
    char buf[128];
    if (len >= sizeof buf) return fail_at(r, line, col, "rule of %zu characters is too long", len);
    memcpy(buf, text, len);
    buf[len] = '\0';
    char *suffix = strchr(buf, ':');
    if (suffix) *suffix++ = '\0';
    snprintf(p->rule, sizeof p->rule, "%s", buf);
    p->rule_line = line;
    p->rule_col = col;
    if (!suffix) return PL_OK;
    /* Golly's bounded grid: ":Tw,h" a torus, ":Pw,h" a plane; ":Tn" is n x n. As in Golly,
     * ":", ":T" and ":T0,0" are the unbounded plane. */
    char kind = suffix[0];
    if (kind == '\0' || ((kind == 'T' || kind == 't' || kind == 'P' || kind == 'p') && suffix[1] == '\0'))
        return PL_OK;
    if (kind != 'T' && kind != 't' && kind != 'P' && kind != 'p')
        return fail_at(r, line, col,
                       "grid ':%s' is not supported (parlab runs the torus :Tw,h and the plane :Pw,h)", suffix);
    const char *q = suffix + 1;
    int64_t dims[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        if (*q < '0' || *q > '9')
            return fail_at(r, line, col, "grid ':%s': expected a number (as in :T100,100)", suffix);
        while (*q >= '0' && *q <= '9') {
            int digit = *q++ - '0';
            if (dims[k] > (COUNT_MAX - digit) / 10)
                return fail_at(r, line, col, "grid ':%s': size overflows", suffix);
            dims[k] = dims[k] * 10 + digit;
        }
        if (k == 0 && *q != ',') {
            dims[1] = dims[0];
            break;
        }
        if (k == 0) q++;
    }
    if (*q != '\0')
        return fail_at(r, line, col, "grid ':%s': unexpected '%s' (shifted and twisted grids are not supported)",
                       suffix, q);
    if (dims[0] == 0 && dims[1] == 0) return PL_OK;
    if (dims[0] == 0 || dims[1] == 0)
        return fail_at(r, line, col, "grid ':%s': a size 0 (infinite in one direction) is not supported", suffix);
    p->grid = (kind == 'T' || kind == 't') ? PL_LIFE_TORUS : PL_LIFE_PLANE;
    p->grid_w = dims[0];
    p->grid_h = dims[1];
    return PL_OK;
}

/* "x = W, y = H[, rule = R]" at the cursor (the line's first non-blank is 'x'). */
static pl_status read_header(reader *r, int64_t *w, int64_t *h, pl_life_pattern *tmp_rule)
{
    pl_status st;
    if ((st = expect(r, 'x', "'x' of the header")) != PL_OK || (st = expect(r, '=', "'=' after x")) != PL_OK) return st;
    skip_blanks(r);
    if ((st = read_number(r, "the width x", w)) != PL_OK) return st;
    if ((st = expect(r, ',', "',' after the width")) != PL_OK || (st = expect(r, 'y', "'y' of the header")) != PL_OK ||
        (st = expect(r, '=', "'=' after y")) != PL_OK)
        return st;
    skip_blanks(r);
    if ((st = read_number(r, "the height y", h)) != PL_OK) return st;
    skip_blanks(r);
    snprintf(tmp_rule->rule, sizeof tmp_rule->rule, "%s", default_rule);
    tmp_rule->grid = PL_LIFE_UNBOUNDED;
    if (peek(r) == ',') {
        advance(r);
        skip_blanks(r);
        static const char key[] = "rule";
        for (int k = 0; key[k]; k++) {
            char b[24];
            if (peek(r) != key[k]) return fail_at(r, r->line, r->col, "expected 'rule', found %s", show(peek(r), b));
            advance(r);
        }
        if ((st = expect(r, '=', "'=' after rule")) != PL_OK) return st;
        skip_blanks(r);
        int64_t line = r->line, col = r->col;
        size_t start = r->i;
        while (!at_end(r) && peek(r) != '\n' && peek(r) != ' ' && peek(r) != '\t' && peek(r) != '\r') advance(r);
        size_t len = r->i - start;
        if (len == 0) return fail_at(r, line, col, "empty rule");
        if ((st = read_header_rule(r, tmp_rule, line, col, r->s + start, len)) != PL_OK) return st;
        skip_blanks(r);
    }
    char b[24];
    if (!at_end(r) && peek(r) != '\n')
        return fail_at(r, r->line, r->col, "unexpected %s at the end of the header", show(peek(r), b));
    if (!at_end(r)) advance(r);
    return PL_OK;
}

/* The runs after the header into p (allocated w x h). */
static pl_status read_runs(reader *r, pl_life_pattern *p)
{
    int64_t x = 0, y = 0;
    for (;;) {
        while (!at_end(r) && (peek(r) == ' ' || peek(r) == '\t' || peek(r) == '\r' || peek(r) == '\n')) advance(r);
        if (at_end(r))
            return fail_at(r, r->line, r->col, "no '!' at the end of the pattern: the file is truncated");
        int64_t line = r->line, col = r->col, count = 1;
        int counted = peek(r) >= '0' && peek(r) <= '9';
        pl_status st;
        if (counted) {
            if ((st = read_number(r, "a run count", &count)) != PL_OK) return st;
            if (count == 0) return fail_at(r, line, col, "a run count of 0");
            /* Golly lets whitespace stand between a count and its tag too. */
            while (!at_end(r) && (peek(r) == ' ' || peek(r) == '\t' || peek(r) == '\r' || peek(r) == '\n')) advance(r);
            if (at_end(r))
                return fail_at(r, r->line, r->col, "no '!' at the end of the pattern: the file is truncated");
        }
        int c = peek(r);
        char b[24];
        if (c == '!') {
            if (counted)
                return fail_at(r, line, col, "a count before '!'");
            return PL_OK;
        }
        if (c == 'b' || c == '.' || c == 'o' || c == 'A') {
            if (count > p->w - x)
                return fail_at(r, line, col, "row %" PRId64 " is longer than the header's x = %" PRId64, y + 1, p->w);
            if (c == 'o' || c == 'A') {
                if (y >= p->h)
                    return fail_at(r, line, col, "more rows than the header's y = %" PRId64, p->h);
                set_cells(p, x, y, count);
            }
            x += count;
        } else if (c == '$') {
            if (count > p->h - y)
                return fail_at(r, line, col, "more rows than the header's y = %" PRId64, p->h);
            y += count;
            x = 0;
        } else if ((c >= 'B' && c <= 'X') || (c >= 'p' && c <= 'y')) {
            return fail_at(r, r->line, r->col,
                           "state '%c' of a multi-state rule: parlab reads two-state (Life-like) patterns only", c);
        } else {
            return fail_at(r, r->line, r->col, "unexpected %s in the pattern's runs (b o $ !)", show(c, b));
        }
        advance(r);
    }
}

static pl_status read_rle(reader *r, pl_life_pattern *p, pl_life_pattern *pre)
{
    int64_t w, h, header_line = r->line;
    pl_life_pattern rule = {0};
    pl_status st = read_header(r, &w, &h, &rule);
    if (st != PL_OK) return st;
    if (rule.grid != PL_LIFE_UNBOUNDED && (w > rule.grid_w || h > rule.grid_h))
        return fail_at(r, header_line, 1,
                       "the pattern (%" PRId64 " x %" PRId64 ") is larger than its grid (%" PRId64 " x %" PRId64 ")", w,
                       h, rule.grid_w, rule.grid_h);
    if ((st = alloc_box(r->path, p, w, h)) != PL_OK) return st;
    memcpy(p->rule, rule.rule, sizeof p->rule);
    p->rule_line = rule.rule_line;
    p->rule_col = rule.rule_col;
    p->grid = rule.grid;
    p->grid_w = rule.grid_w;
    p->grid_h = rule.grid_h;
    p->x0 = pre->x0;
    p->y0 = pre->y0;
    return read_runs(r, p);
}

/* ---------------------------------------------------------------- plaintext .cells */

/* Rows of '.' and 'O' (a short row is dead to the right), '!' lines are comments. Two passes:
 * the size first (checked before allocating), then the cells. */
static pl_status read_cells(reader *r, pl_life_pattern *p)
{
    size_t start = r->i;
    int64_t start_line = r->line;
    int64_t w = 0, h = 0, rows = 0;
    for (int pass = 0; pass < 2; pass++) {
        r->i = start;
        r->line = start_line;
        r->col = 1;
        int64_t y = 0;
        while (!at_end(r)) {
            if (peek(r) == '!') {
                advance(r);
                size_t s, len;
                pl_status st = rest_of_line(r, &s, &len);
                if (st != PL_OK) return st;
                if (pass == 1) {
                    st = len >= 6 && memcmp(r->s + s, "Name: ", 6) == 0
                                       ? keep_comment(r, "#N ", r->s + s + 6, len - 6)
                                       : len >= 8 && memcmp(r->s + s, "Author: ", 8) == 0
                                             ? keep_comment(r, "#O ", r->s + s + 8, len - 8)
                                             : keep_comment(r, "#C ", r->s + s, len);
                    if (st != PL_OK) return st;
                }
                continue;
            }
            int64_t x = 0;
            while (!at_end(r) && peek(r) != '\n') {
                int c = peek(r);
                if (c == 'O') {
                    if (pass == 1) set_cells(p, x, y, 1);
                } else if (c == '\r' && (r->i + 1 == r->n || r->s[r->i + 1] == '\n')) {
                    advance(r);
                    break;
                } else if (c != '.') {
                    char b[24];
                    return fail_at(r, r->line, r->col, "unexpected %s in a .cells row ('.' dead, 'O' alive)",
                                   show(c, b));
                }
                x++;
                advance(r);
            }
            if (!at_end(r)) advance(r);
            y++;
            if (x > w) w = x;
            if (x > 0) rows = y; /* trailing empty lines are not rows */
        }
        if (pass == 0) {
            h = rows;
            pl_status st = alloc_box(r->path, p, w, h);
            if (st != PL_OK) return st;
        }
    }
    return PL_OK;
}

/* ---------------------------------------------------------------- reading */

/* The whole file into *buf (NUL-terminated, *n bytes before the NUL). */
static pl_status slurp(const char *path, char **buf, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return pl_fail(PL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 12, len = 0;
    char *b = malloc(cap);
    while (b) {
        size_t got = fread(b + len, 1, cap - len - 1, f);
        len += got;
        if (len + 1 < cap) break;
        char *nb = realloc(b, cap * 2);
        if (!nb) free(b);
        b = nb;
        cap *= 2;
    }
    int err = ferror(f);
    fclose(f);
    if (!b) return pl_fail(PL_ERR_NOMEM, "%s: out of memory reading it", path);
    if (err) {
        free(b);
        return pl_fail(PL_ERR_IO, "%s: cannot read", path);
    }
    b[len] = '\0';
    *buf = b;
    *n = len;
    return PL_OK;
}

/* A name ending in `ext` (any case). */
static int ends_with_nocase(const char *path, const char *ext)
{
    const size_t n = strlen(path), e = strlen(ext);
    if (n < e) return 0;
    for (size_t i = 0; i < e; i++)
        if (tolower((unsigned char)path[n - e + i]) != ext[i]) return 0;
    return 1;
}

/* The formats Golly writes that parlab does not read, by the name's extension or, where text
 * is given, by their first bytes: their name (NULL where none matches). */
static const char *golly_unsupported(const char *path, const char *text, size_t n)
{
    if (ends_with_nocase(path, ".gz") || (text && n >= 2 && (unsigned char)text[0] == 0x1f && (unsigned char)text[1] == 0x8b))
        return "a gzip-compressed file (.gz: gunzip it first)";
    if (ends_with_nocase(path, ".zip") || (text && n >= 4 && !memcmp(text, "PK\x03\x04", 4))) return "a zip archive (.zip)";
    if (ends_with_nocase(path, ".mc") || (text && n >= 4 && !memcmp(text, "[M2]", 4))) return "Golly macrocell (.mc)";
    if (ends_with_nocase(path, ".lif") || ends_with_nocase(path, ".life") || (text && n >= 9 && !memcmp(text, "#Life 1.0", 9)))
        return "Life 1.05/1.06 (.lif)";
    if (ends_with_nocase(path, ".mcl") || (text && n >= 6 && !memcmp(text, "#MCell", 6))) return "MCell (.mcl)";
    return NULL;
}

pl_status pl_life_read(const char *path, pl_life_pattern *p)
{
    if (!p) return pl_fail(PL_ERR_ARG, "pl_life_read: NULL pattern");
    memset(p, 0, sizeof *p);
    if (!path) return pl_fail(PL_ERR_ARG, "pl_life_read: NULL path");
    const char *other = golly_unsupported(path, NULL, 0); /* by the name: not even read */
    char *text = NULL;
    size_t n = 0;
    pl_status st = other ? PL_OK : slurp(path, &text, &n);
    if (st != PL_OK) return st;
    if (!other) other = golly_unsupported(path, text, n); /* by the first bytes */
    if (other) {
        free(text);
        return pl_fail(PL_ERR_UNSUPPORTED, "%s: %s is not supported; parlab reads RLE and plaintext .cells", path, other);
    }
    reader r = {.path = path, .s = text, .n = n, .i = 0, .line = 1, .col = 1};
    pl_life_pattern pre = {0};

    /* '#' lines (and blank lines) before the header or the rows. */
    for (;;) {
        size_t save_i = r.i;
        int64_t save_line = r.line;
        skip_blanks(&r);
        if (peek(&r) == '\n') {
            advance(&r);
            continue;
        }
        if (peek(&r) != '#') {
            r.i = save_i;
            r.line = save_line;
            r.col = 1;
            break;
        }
        advance(&r);
        int kind = peek(&r);
        if (kind == 'R' || kind == 'P') {
            advance(&r);
            if ((st = read_position(&r, &pre)) != PL_OK) goto done;
            size_t s, len;
            if ((st = rest_of_line(&r, &s, &len)) != PL_OK) goto done;
        } else {
            if (kind == 'C' || kind == 'c' || kind == 'N' || kind == 'O') advance(&r);
            size_t s, len;
            if ((st = rest_of_line(&r, &s, &len)) != PL_OK) goto done;
            if (kind == 'C' || kind == 'c' || kind == 'N' || kind == 'O') {
                char prefix[3] = {'#', (char)kind, '\0'};
                if ((st = keep_comment(&r, prefix, r.s + s, len)) != PL_OK) goto done;
            }
        }
    }

    size_t look = r.i;
    while (look < n && (text[look] == ' ' || text[look] == '\t')) look++;
    if (look < n && text[look] == 'x') {
        st = read_rle(&r, p, &pre);
    } else if (look < n && (text[look] == '!' || text[look] == '.' || text[look] == 'O')) {
        st = read_cells(&r, p);
    } else {
        char b[24];
        st = fail_at(&r, r.line, r.col + (int64_t)(look - r.i),
                     "expected an RLE header 'x = .., y = ..' or .cells rows, found %s",
                     show(look < n ? (unsigned char)text[look] : -1, b));
    }
done:
    if (st == PL_OK) {
        p->comments = r.comments;
    } else {
        free(r.comments);
        pl_life_pattern_free(p);
    }
    free(text);
    return st;
}

/* ---------------------------------------------------------------- writing */

/* The text on its way to the file: put() appends, and a full buffer goes to fd. */
enum { OUT_FLUSH = 1 << 20 };
typedef struct outbuf {
    int fd;
    char *s;
    size_t len, cap;
    size_t line_len; /* characters on the current RLE line */
    int nomem;       /* a realloc failed */
    int write_errno; /* a write failed (its errno), 0 while none has */
} outbuf;

static void flush_out(outbuf *o)
{
    if (o->len == 0 || o->write_errno) return;
    if (pl_write_full(o->fd, o->s, o->len) != 0) o->write_errno = errno ? errno : EIO;
    o->len = 0;
}

static void put(outbuf *o, const char *t, size_t n)
{
    if (o->nomem || o->write_errno) return;
    if (o->len + n > OUT_FLUSH) flush_out(o);
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (o->len + n > cap) cap *= 2;
        char *s = realloc(o->s, cap);
        if (!s) {
            o->nomem = 1;
            return;
        }
        o->s = s;
        o->cap = cap;
    }
    memcpy(o->s + o->len, t, n);
    o->len += n;
    const char *nl = n ? memchr(t, '\n', n) : NULL;
    if (nl) {
        const char *last = t + n;
        while (last[-1] != '\n') last--;
        o->line_len = (size_t)(t + n - last);
    } else {
        o->line_len += n;
    }
}

static void puts_(outbuf *o, const char *t) { put(o, t, strlen(t)); }

/* One run "<count><tag>" (count 1 written bare), on a new line when it would pass 70. */
static void put_run(outbuf *o, int64_t count, char tag)
{
    char t[32];
    int n = count == 1 ? snprintf(t, sizeof t, "%c", tag) : snprintf(t, sizeof t, "%" PRId64 "%c", count, tag);
    if (o->line_len + (size_t)n > RLE_LINE_MAX) put(o, "\n", 1);
    put(o, t, (size_t)n);
}

/* The first cell at or after x in row y whose state is not `alive` (p->w if none), found a
 * word at a time: a long run or an empty row costs its words, not its cells. */
static int64_t run_end(const pl_life_pattern *p, int64_t y, int64_t x, int alive)
{
    const uint64_t *row = p->bits + y * p->words_per_row;
    int64_t k = x / 64;
    uint64_t other = (alive ? ~row[k] : row[k]) & (~UINT64_C(0) << (x % 64));
    while (!other) {
        if (++k >= p->words_per_row) return p->w;
        other = alive ? ~row[k] : row[k];
    }
    return k * 64 + __builtin_ctzll(other); /* at most w: the bits past w are zero (dead) */
}

/* The rule's grid suffix in the header: ":T<w>,<h>" a torus, ":P<w>,<h>" a plane, "" none. */
static void grid_suffix(const pl_life_pattern *p, char *buf, size_t n)
{
    if (p->grid == PL_LIFE_TORUS || p->grid == PL_LIFE_PLANE)
        snprintf(buf, n, ":%c%" PRId64 ",%" PRId64, p->grid == PL_LIFE_TORUS ? 'T' : 'P', p->grid_w, p->grid_h);
    else
        buf[0] = '\0';
}

/* PL_ERR_ARG unless the reader would take the rule back as it stands: a text without blanks
 * or ':' that, with its grid suffix, the header's limit holds. */
static pl_status check_rule_text(const char *path, const pl_life_pattern *p)
{
    char grid[64];
    grid_suffix(p, grid, sizeof grid);
    const size_t len = strnlen(p->rule, sizeof p->rule);
    if (len == sizeof p->rule) return pl_fail(PL_ERR_ARG, "%s: the pattern's rule is not a terminated text", path);
    if (len == 0) return pl_fail(PL_ERR_ARG, "%s: the pattern's rule is empty", path);
    if (strpbrk(p->rule, " \t\r\n:"))
        return pl_fail(PL_ERR_ARG, "%s: rule '%s' holds a blank or a ':', which an RLE header cannot", path, p->rule);
    if (len + strlen(grid) >= PL_LIFE_RULE_MAX)
        return pl_fail(PL_ERR_ARG, "%s: rule '%s%s' is longer than an RLE header holds (%d characters)", path,
                       p->rule, grid, PL_LIFE_RULE_MAX - 1);
    return PL_OK;
}

static void write_rle(outbuf *o, const pl_life_pattern *p)
{
    if (p->comments) puts_(o, p->comments);
    char line[160];
    if (p->x0 != 0 || p->y0 != 0) {
        snprintf(line, sizeof line, "#R %" PRId64 " %" PRId64 "\n", p->x0, p->y0);
        puts_(o, line);
    }
    snprintf(line, sizeof line, "x = %" PRId64 ", y = %" PRId64 ", rule = ", p->w, p->h);
    puts_(o, line);
    puts_(o, p->rule);
    grid_suffix(p, line, sizeof line);
    puts_(o, line);
    put(o, "\n", 1);
    int64_t rows_pending = 0; /* '$' owed before the next live cell */
    /* A box of no columns has no cells, however many rows it claims: no rows to walk. */
    for (int64_t y = 0; p->w > 0 && y < p->h && !o->nomem && !o->write_errno; y++) {
        int64_t x = 0;
        while (x < p->w) {
            const int alive = pl_life_cell(p, x, y);
            const int64_t end = run_end(p, y, x, alive);
            if (!alive && end == p->w) break; /* trailing dead cells are dropped */
            if (rows_pending) {
                put_run(o, rows_pending, '$');
                rows_pending = 0;
            }
            put_run(o, end - x, alive ? 'o' : 'b');
            x = end;
        }
        rows_pending++;
    }
    put_run(o, 1, '!');
    put(o, "\n", 1);
}

static void write_cells(outbuf *o, const pl_life_pattern *p)
{
    /* The comments as '!' lines: "#N x" is "!Name: x", "#O x" "!Author: x", the rest "!text". */
    const char *c = p->comments;
    while (c && *c) {
        const char *end = strchr(c, '\n');
        size_t len = end ? (size_t)(end - c) : strlen(c);
        if (len >= 2 && c[0] == '#' && (c[1] == 'N' || c[1] == 'O')) {
            size_t skip = len >= 3 && c[2] == ' ' ? 3 : 2;
            puts_(o, c[1] == 'N' ? "!Name: " : "!Author: ");
            put(o, c + skip, len - skip);
        } else {
            size_t skip = len >= 2 && c[0] == '#' ? (len >= 3 && c[2] == ' ' ? 3 : 2) : 0;
            puts_(o, "!");
            put(o, c + skip, len - skip);
        }
        put(o, "\n", 1);
        c += len + (end ? 1 : 0);
    }
    /* A file with no rows and no comments would not read as .cells: an empty box gets "!". */
    if ((!p->comments || !p->comments[0]) && (p->w == 0 || p->h == 0)) put(o, "!\n", 2);
    /* A box with no columns has only empty rows, which a reader drops: none are written. */
    char chunk[4096]; /* a row's characters, handed to put() a chunk at a time */
    for (int64_t y = 0; p->w > 0 && y < p->h && !o->nomem && !o->write_errno; y++) {
        size_t n = 0;
        for (int64_t x = 0; x < p->w; x++) {
            chunk[n++] = pl_life_cell(p, x, y) ? 'O' : '.';
            if (n == sizeof chunk) put(o, chunk, n), n = 0;
        }
        chunk[n++] = '\n';
        put(o, chunk, n);
    }
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

pl_status pl_life_write(const char *path, const pl_life_pattern *p)
{
    if (!path || !p) return pl_fail(PL_ERR_ARG, "pl_life_write: NULL argument");
    if (p->w < 0 || p->h < 0 || p->words_per_row != (p->w + 63) / 64 || (p->w > 0 && p->h > 0 && !p->bits))
        return pl_fail(PL_ERR_ARG, "%s: the pattern is malformed (w %" PRId64 ", h %" PRId64 ", words per row %" PRId64 ")",
                       path, p->w, p->h, p->words_per_row);
    if ((p->grid == PL_LIFE_TORUS || p->grid == PL_LIFE_PLANE) && (p->grid_w <= 0 || p->grid_h <= 0))
        return pl_fail(PL_ERR_ARG, "%s: grid size %" PRId64 " x %" PRId64 " is not positive", path, p->grid_w,
                       p->grid_h);
    const int cells = ends_with(path, ".cells"); /* .cells holds no rule */
    pl_status st = cells ? PL_OK : check_rule_text(path, p);
    if (st != PL_OK) return st;
    pl_tmp t;
    st = pl_tmp_open(path, &t);
    if (st != PL_OK) return st;
    outbuf o = {.fd = t.fd};
    if (cells) write_cells(&o, p);
    else write_rle(&o, p);
    flush_out(&o);
    if (o.nomem) st = pl_fail(PL_ERR_NOMEM, "%s: out of memory for the text", path);
    else if (o.write_errno) st = pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(o.write_errno));
    st = pl_tmp_close(path, &t, st);
    free(o.s);
    return st;
}
