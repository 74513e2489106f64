/* json.h: parlab's one JSON module: the text read into a tree (json.c), values written
 * (json.c), the measured peaks written (peaks_json.c), and parlab's JSON files begun and ended
 * (results_json.c, which also writes the bench's rows, pl_report_json in parlab.h; bench_rows.c
 * reads them back for parlab compare, pl_bench_rows_read).
 *
 * The reader is strict (RFC 8259), for `parlab report` reading the files `parlab bench --json`
 * and `parlab sweep --json` write. Strict: one value and nothing after it
 * but whitespace, no comments, no trailing commas, no NaN/Infinity, no control characters in
 * strings, \u escapes (surrogate pairs joined) to UTF-8, \u0000 refused. Limits: nesting depth
 * PL_JSON_MAX_DEPTH; the file's size against the memory this process may take. Errors are
 * PL_ERR_FORMAT "NAME:LINE:COL: what" (LINE and COL from 1). */
#ifndef PL_IO_JSON_H
#define PL_IO_JSON_H

#include "core/core.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { PL_JSON_MAX_DEPTH = 64 };

typedef enum pl_json_type {
    PL_JSON_NULL = 0,
    PL_JSON_BOOL,
    PL_JSON_NUMBER,
    PL_JSON_STRING,
    PL_JSON_ARRAY,
    PL_JSON_OBJECT
} pl_json_type;

typedef struct pl_json pl_json;
struct pl_json {
    pl_json_type type;
    int line, col;  /* where the value starts in its file */
    int boolean;    /* BOOL */
    double num;     /* NUMBER */
    char *str;      /* STRING: UTF-8, NUL-terminated */
    int64_t n;      /* ARRAY: items; OBJECT: members */
    pl_json *items; /* ARRAY items, OBJECT values, n of them */
    char **keys;    /* OBJECT keys (a key given twice: the first counts) */
};

/* Parse len bytes of text; name starts every message. *out: the tree (pl_json_free), or NULL. */
pl_status pl_json_parse(const char *name, const char *text, size_t len, pl_json **out);
/* Read and parse the file at path. */
pl_status pl_json_read(const char *path, pl_json **out);
void pl_json_free(pl_json *v);

/* The member key of an object (NULL: not an object, or no such key). */
const pl_json *pl_json_get(const pl_json *obj, const char *key);
/* "null", "boolean", "number", "string", "array", "object". */
const char *pl_json_type_name(pl_json_type t);

/* ---- writing: a string in quotes, '"' and '\\' escaped and control characters as \u00XX
 * (bytes >= 0x80 as they are: UTF-8 passes through); a number as %.9g, or null where it is not
 * finite (JSON has no NaN). */
void pl_json_write_string(FILE *f, const char *s);
void pl_json_write_num(FILE *f, double x);

/* ---- the measured peaks as a JSON object, in one of the two forms parlab writes them
 * (peaks_json.c says how they differ): the "peaks" member of a results file's machine (on one
 * line, no newline after it), or the document of `parlab peaks --json` (one member a line,
 * ending with a newline). cache_file and int32_isa: the document's members of those names
 * (where the figures are cached, the ISA of the int32 figures); the results form has neither. */
typedef enum pl_peaks_json_form { PL_PEAKS_JSON_RESULTS, PL_PEAKS_JSON_DOCUMENT } pl_peaks_json_form;
void pl_peaks_json_write(FILE *f, const pl_peaks *pk, pl_peaks_json_form form, const char *cache_file,
                         const char *int32_isa);

/* ---- parlab's JSON files: an output (io.h: a temporary file renamed into place, a device or
 * FIFO written through, "-" standard output) begun with
 *   {"schema": schema, "machine": {...}, "build": {...}, "command": ..., "date": ...,
 * (machine: CPU, cores, ISA, GPU and info's peaks; date: now, UTC); the caller writes the rest,
 * its closing brace included, and pl_json_file_close puts the file in place (removed on a
 * failure). NULL with the failure recorded. docs/output.md has the schemas. */
FILE *pl_json_file_open(const char *path, const char *schema, const pl_report_info *info);
pl_status pl_json_file_close(FILE *f, const char *path);

#endif
