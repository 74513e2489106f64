/* json.c: JSON text both ways (json.h): the strict reader, a recursive descent over the text
 * with a cursor that counts lines and columns for the messages; and the writer of a string
 * and a number. */
#include "io/json.h"
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct cursor {
    const char *name;
    const char *p, *end;
    int line, col;
    int depth;
} cursor;

static pl_status fail_at(const cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static pl_status fail_at(const cursor *c, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return pl_fail(PL_ERR_FORMAT, "%s:%d:%d: %s", c->name, c->line, c->col, what);
}

static void advance(cursor *c)
{
    if (*c->p == '\n') c->line++, c->col = 1;
    else c->col++;
    c->p++;
}

static void skip_space(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) advance(c);
}

/* "the end of the file" or "'x'" or "byte 0x01" for messages. */
static const char *here(const cursor *c, char *buf, size_t n)
{
    if (c->p >= c->end) snprintf(buf, n, "the end of the file");
    else if ((unsigned char)*c->p >= 0x20 && (unsigned char)*c->p < 0x7F) snprintf(buf, n, "'%c'", *c->p);
    else snprintf(buf, n, "byte 0x%02x", (unsigned char)*c->p);
    return buf;
}

static pl_status parse_value(cursor *c, pl_json *v);

static int literal(cursor *c, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0) return 0;
    for (size_t i = 0; i < n; i++) advance(c);
    return 1;
}

static pl_status parse_number(cursor *c, pl_json *v)
{
    const char *s = c->p;
    char buf[48];
    if (c->p < c->end && *c->p == '-') advance(c);
    if (c->p >= c->end || *c->p < '0' || *c->p > '9') return fail_at(c, "a number needs digits, not %s", here(c, buf, sizeof buf));
    if (*c->p == '0') {
        advance(c);
        if (c->p < c->end && *c->p >= '0' && *c->p <= '9') return fail_at(c, "a number does not start with 0 and a digit");
    } else {
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') advance(c);
    }
    if (c->p < c->end && *c->p == '.') {
        advance(c);
        if (c->p >= c->end || *c->p < '0' || *c->p > '9') return fail_at(c, "digits must follow the decimal point");
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') advance(c);
    }
    if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
        advance(c);
        if (c->p < c->end && (*c->p == '+' || *c->p == '-')) advance(c);
        if (c->p >= c->end || *c->p < '0' || *c->p > '9') return fail_at(c, "digits must follow the exponent");
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') advance(c);
    }
    size_t n = (size_t)(c->p - s);
    if (n >= sizeof buf) return fail_at(c, "a number of %zu characters is too long", n);
    memcpy(buf, s, n);
    buf[n] = 0;
    v->type = PL_JSON_NUMBER;
    v->num = strtod(buf, NULL); /* the grammar above is a subset of strtod's: the whole token */
    return PL_OK;
}

static int hex4(const char *p, unsigned *out)
{
    unsigned u = 0;
    for (int i = 0; i < 4; i++) {
        char h = p[i];
        unsigned d = h >= '0' && h <= '9' ? (unsigned)(h - '0') : h >= 'a' && h <= 'f' ? (unsigned)(h - 'a' + 10)
                   : h >= 'A' && h <= 'F' ? (unsigned)(h - 'A' + 10) : 16u;
        if (d > 15) return 0;
        u = u * 16 + d;
    }
    *out = u;
    return 1;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) return o[0] = (char)cp, 1;
    if (cp < 0x800) return o[0] = (char)(0xC0 | cp >> 6), o[1] = (char)(0x80 | (cp & 0x3F)), 2;
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12), o[1] = (char)(0x80 | ((cp >> 6) & 0x3F)), o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18), o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A string at c (at its opening quote) into a fresh buffer *out. */
static pl_status parse_string(cursor *c, char **out)
{
    char buf[32];
    advance(c); /* the opening quote */
    const char *s = c->p;
    size_t cap = 1;
    while (s < c->end && *s != '"') cap++, s += (*s == '\\' && s + 1 < c->end) ? 2 : 1; /* an upper bound */
    char *o = malloc(cap + 4);
    if (!o) return pl_fail(PL_ERR_NOMEM, "%s: no memory for a string", c->name);
    size_t n = 0;
    for (;;) {
        if (c->p >= c->end) {
            free(o);
            return fail_at(c, "a string is not closed before the end of the file");
        }
        unsigned char ch = (unsigned char)*c->p;
        if (ch == '"') {
            advance(c);
            break;
        }
        if (ch < 0x20) {
            free(o);
            return fail_at(c, "%s inside a string (control characters must be escaped)", here(c, buf, sizeof buf));
        }
        if (ch != '\\') {
            o[n++] = (char)ch;
            advance(c);
            continue;
        }
        advance(c);
        if (c->p >= c->end) {
            free(o);
            return fail_at(c, "a string is not closed before the end of the file");
        }
        char e = *c->p;
        const char *simple = strchr("\"\\/bfnrt", e);
        if (simple && e) {
            static const char to[] = "\"\\/\b\f\n\r\t";
            o[n++] = to[simple - "\"\\/bfnrt"];
            advance(c);
            continue;
        }
        if (e != 'u') {
            free(o);
            return fail_at(c, "unknown escape \\%s", here(c, buf, sizeof buf));
        }
        unsigned cp;
        if (c->end - c->p < 5 || !hex4(c->p + 1, &cp)) {
            free(o);
            return fail_at(c, "\\u needs four hex digits");
        }
        for (int i = 0; i < 5; i++) advance(c);
        if (cp >= 0xD800 && cp <= 0xDBFF) { /* a high surrogate: its low one must follow */
            unsigned lo;
            if (c->end - c->p < 6 || c->p[0] != '\\' || c->p[1] != 'u' || !hex4(c->p + 2, &lo) || lo < 0xDC00 ||
                lo > 0xDFFF) {
                free(o);
                return fail_at(c, "a \\u high surrogate without its low surrogate");
            }
            for (int i = 0; i < 6; i++) advance(c);
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            free(o);
            return fail_at(c, "a \\u low surrogate alone");
        }
        if (cp == 0) {
            free(o);
            return fail_at(c, "\\u0000 (a NUL inside a string) is not taken");
        }
        n += put_utf8(o + n, cp);
    }
    o[n] = 0;
    *out = o;
    return PL_OK;
}

static pl_status grow(cursor *c, pl_json **items, char ***keys, int64_t n, int64_t *cap)
{
    if (n < *cap) return PL_OK;
    int64_t nc = *cap ? *cap * 2 : 8;
    pl_json *ni = realloc(*items, (size_t)nc * sizeof *ni);
    if (ni) *items = ni;
    if (keys) {
        char **nk = realloc(*keys, (size_t)nc * sizeof *nk);
        if (nk) *keys = nk;
        if (!nk) return pl_fail(PL_ERR_NOMEM, "%s: no memory", c->name);
    }
    if (!ni) return pl_fail(PL_ERR_NOMEM, "%s: no memory", c->name);
    *cap = nc;
    return PL_OK;
}

static pl_status parse_container(cursor *c, pl_json *v, int object)
{
    char buf[32];
    const char close = object ? '}' : ']';
    if (++c->depth > PL_JSON_MAX_DEPTH) return fail_at(c, "nested deeper than %d", PL_JSON_MAX_DEPTH);
    v->type = object ? PL_JSON_OBJECT : PL_JSON_ARRAY;
    advance(c);
    skip_space(c);
    int64_t cap = 0;
    if (c->p < c->end && *c->p == close) {
        advance(c);
        c->depth--;
        return PL_OK;
    }
    for (;;) {
        pl_status st = grow(c, &v->items, object ? &v->keys : NULL, v->n, &cap);
        if (st != PL_OK) return st;
        if (object) {
            skip_space(c);
            if (c->p >= c->end || *c->p != '"')
                return fail_at(c, "expected a member name in quotes, found %s", here(c, buf, sizeof buf));
            if ((st = parse_string(c, &v->keys[v->n])) != PL_OK) return st;
            skip_space(c);
            if (c->p >= c->end || *c->p != ':') {
                free(v->keys[v->n]);
                return fail_at(c, "expected ':' after a member name, found %s", here(c, buf, sizeof buf));
            }
            advance(c);
        }
        memset(&v->items[v->n], 0, sizeof v->items[v->n]);
        st = parse_value(c, &v->items[v->n]);
        v->n++; /* counted even when it failed: pl_json_free frees what it holds */
        if (st != PL_OK) return st;
        skip_space(c);
        if (c->p < c->end && *c->p == ',') {
            advance(c);
            skip_space(c);
            if (c->p < c->end && *c->p == close) return fail_at(c, "a comma before '%c'", close);
            continue;
        }
        if (c->p < c->end && *c->p == close) {
            advance(c);
            c->depth--;
            return PL_OK;
        }
        return fail_at(c, "expected ',' or '%c', found %s", close, here(c, buf, sizeof buf));
    }
}

static pl_status parse_value(cursor *c, pl_json *v)
{
    char buf[32];
    skip_space(c);
    v->line = c->line, v->col = c->col;
    if (c->p >= c->end) return fail_at(c, "expected a value, found the end of the file");
    switch (*c->p) {
    case '{': return parse_container(c, v, 1);
    case '[': return parse_container(c, v, 0);
    case '"': v->type = PL_JSON_STRING; return parse_string(c, &v->str);
    case 't':
    case 'f':
    case 'n':
        if (literal(c, "true")) return v->type = PL_JSON_BOOL, v->boolean = 1, PL_OK;
        if (literal(c, "false")) return v->type = PL_JSON_BOOL, v->boolean = 0, PL_OK;
        if (literal(c, "null")) return v->type = PL_JSON_NULL, PL_OK;
        break;
    default:
        if (*c->p == '-' || (*c->p >= '0' && *c->p <= '9')) return parse_number(c, v);
    }
    return fail_at(c, "expected a value, found %s", here(c, buf, sizeof buf));
}

static void free_inside(pl_json *v)
{
    for (int64_t i = 0; i < v->n; i++) {
        free_inside(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
}

void pl_json_free(pl_json *v)
{
    if (!v) return;
    free_inside(v);
    free(v);
}

pl_status pl_json_parse(const char *name, const char *text, size_t len, pl_json **out)
{
    *out = NULL;
    pl_json *v = calloc(1, sizeof *v);
    if (!v) return pl_fail(PL_ERR_NOMEM, "%s: no memory", name);
    cursor c = {name, text, text + len, 1, 1, 0};
    pl_status st = parse_value(&c, v);
    if (st == PL_OK) {
        skip_space(&c);
        if (c.p < c.end) st = fail_at(&c, "something after the JSON value");
    }
    if (st != PL_OK) {
        pl_json_free(v);
        return st;
    }
    *out = v;
    return PL_OK;
}

pl_status pl_json_read(const char *path, pl_json **out)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return pl_fail(PL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return pl_fail(PL_ERR_IO, "%s: not a regular file", path);
    }
    /* the text, and the tree (a few times the text) */
    pl_status st = pl_io_fits_memory(path, (int64_t)sb.st_size * 4);
    char *text = st == PL_OK ? malloc((size_t)sb.st_size + 1) : NULL;
    if (st == PL_OK && !text) st = pl_fail(PL_ERR_NOMEM, "%s: no memory for %lld bytes", path, (long long)sb.st_size);
    if (st == PL_OK) {
        int64_t got = pl_read_full(fd, text, (size_t)sb.st_size);
        if (got != (int64_t)sb.st_size) st = pl_fail(PL_ERR_IO, "%s: cannot read: %s", path, got < 0 ? strerror(errno) : "short read");
    }
    close(fd);
    if (st == PL_OK) st = pl_json_parse(path, text, (size_t)sb.st_size, out);
    free(text);
    return st;
}

const pl_json *pl_json_get(const pl_json *obj, const char *key)
{
    if (!obj || obj->type != PL_JSON_OBJECT) return NULL;
    for (int64_t i = 0; i < obj->n; i++)
        if (!strcmp(obj->keys[i], key)) return &obj->items[i];
    return NULL;
}

const char *pl_json_type_name(pl_json_type t)
{
    static const char *const names[] = {"null", "boolean", "number", "string", "array", "object"};
    return (unsigned)t < 6 ? names[t] : "?";
}

/* ---------------------------------------------------------------- writing */

void pl_json_write_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

void pl_json_write_num(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, "%.9g", x);
    else fputs("null", f);
}
