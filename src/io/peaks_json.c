/* peaks_json.c: the machine's measured peaks (pl_peaks) as JSON, the one writer of both places
 * they go: the document `parlab peaks --json` writes, and the "peaks" object in the machine of
 * every results file (results_json.c). One table says how each member is written; each form
 * lists the members it holds, in its order (docs/output.md has both). The two forms differ as
 * the files written so far do, and each is kept byte for byte:
 *   - members and order: the document has every figure (the scalar FMA peak, the read stream on
 *     one thread, cpu_write_nt), the ISA of the integer figures, how the TF32 peak was measured,
 *     the machine and the cache file; the results form has `implicit` (measured by the run
 *     because none were cached) and neither the machine (its own members say it) nor the file;
 *   - layout: the document one member a line, the results form on one line;
 *   - a figure of 0 (not available here): null in the document, 0 in the results form;
 *   - load1: 4 digits in the document, 9 in the results form (null in both where unknown). */
#include "io/json.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef enum member_kind {
    M_TEXT,       /* a char array of pl_peaks */
    M_FIGURE,     /* a double: a measured rate or size, %.6g */
    M_PAIR,       /* double[2]: [one thread, all threads] */
    M_COUNT,      /* an int */
    M_FLAG,       /* an int, true or false */
    M_LOAD,       /* load1: a double, < 0 unknown (null) */
    M_SPREAD,     /* a double, %.4g */
    M_CACHE_FILE, /* the caller's cache_file */
    M_INT32_ISA   /* the caller's int32_isa */
} member_kind;

static const struct member {
    const char *name;
    member_kind kind;
    size_t at; /* offset of the field in pl_peaks */
} members[] = {
    {"machine", M_TEXT, offsetof(pl_peaks, machine)},
    {"cache_file", M_CACHE_FILE, 0},
    {"cpu_mode", M_TEXT, offsetof(pl_peaks, cpu_mode)},
    {"gpu_mode", M_TEXT, offsetof(pl_peaks, gpu_mode)},
    {"cpu_threads", M_COUNT, offsetof(pl_peaks, cpu_threads)},
    {"cpu_gflops_scalar", M_PAIR, offsetof(pl_peaks, cpu_gflops_scalar)},
    {"cpu_gflops_avx2", M_PAIR, offsetof(pl_peaks, cpu_gflops_avx2)},
    {"cpu_gflops_avx512", M_PAIR, offsetof(pl_peaks, cpu_gflops_avx512)},
    {"cpu_int32_isa", M_INT32_ISA, 0},
    {"cpu_gops_int32", M_PAIR, offsetof(pl_peaks, cpu_gops_int32)},
    {"cpu_triad_gbps", M_FIGURE, offsetof(pl_peaks, cpu_triad_gbps)},
    {"gpu_gflops_fp32", M_FIGURE, offsetof(pl_peaks, gpu_gflops_fp32)},
    {"gpu_gflops_tf32", M_FIGURE, offsetof(pl_peaks, gpu_gflops_tf32)},
    {"gpu_tf32_method", M_TEXT, offsetof(pl_peaks, gpu_tf32_method)},
    {"gpu_gops_int32", M_FIGURE, offsetof(pl_peaks, gpu_gops_int32)},
    {"gpu_copy_gbps", M_FIGURE, offsetof(pl_peaks, gpu_copy_gbps)},
    {"cpu_read_gbps", M_FIGURE, offsetof(pl_peaks, cpu_read_gbps)},
    {"cpu_write_gbps", M_FIGURE, offsetof(pl_peaks, cpu_write_gbps)},
    {"cpu_copy_gbps", M_FIGURE, offsetof(pl_peaks, cpu_copy_gbps)},
    {"cpu_read_1thr_gbps", M_FIGURE, offsetof(pl_peaks, cpu_read_1thr_gbps)},
    {"cpu_cache_bytes", M_FIGURE, offsetof(pl_peaks, cpu_cache_bytes)},
    {"cpu_cache_read_gbps", M_FIGURE, offsetof(pl_peaks, cpu_cache_read_gbps)},
    {"cpu_cache_copy_gbps", M_FIGURE, offsetof(pl_peaks, cpu_cache_copy_gbps)},
    {"gpu_read_gbps", M_FIGURE, offsetof(pl_peaks, gpu_read_gbps)},
    {"gpu_write_gbps", M_FIGURE, offsetof(pl_peaks, gpu_write_gbps)},
    {"gpu_cache_bytes", M_FIGURE, offsetof(pl_peaks, gpu_cache_bytes)},
    {"gpu_cache_read_gbps", M_FIGURE, offsetof(pl_peaks, gpu_cache_read_gbps)},
    {"gpu_cache_copy_gbps", M_FIGURE, offsetof(pl_peaks, gpu_cache_copy_gbps)},
    {"cpu_write_nt", M_FLAG, offsetof(pl_peaks, cpu_write_nt)},
    {"measured", M_TEXT, offsetof(pl_peaks, measured)},
    {"load1", M_LOAD, offsetof(pl_peaks, load1)},
    {"spread", M_SPREAD, offsetof(pl_peaks, spread)},
    {"spread_what", M_TEXT, offsetof(pl_peaks, spread_what)},
    {"sane", M_FLAG, offsetof(pl_peaks, sane)},
    {"sanity", M_TEXT, offsetof(pl_peaks, sanity)},
    {"cached", M_FLAG, offsetof(pl_peaks, cached)},
    {"implicit", M_FLAG, offsetof(pl_peaks, implicit)},
};

/* Each form: its members in order, and its layout. */
static const char *const document_members[] = {
    "machine", "cache_file", "cpu_mode", "gpu_mode", "cpu_threads", "cpu_gflops_scalar", "cpu_gflops_avx2",
    "cpu_gflops_avx512", "cpu_int32_isa", "cpu_gops_int32", "cpu_triad_gbps", "gpu_gflops_fp32", "gpu_gflops_tf32",
    "gpu_tf32_method", "gpu_gops_int32", "gpu_copy_gbps", "cpu_read_gbps", "cpu_write_gbps", "cpu_copy_gbps",
    "cpu_read_1thr_gbps", "cpu_cache_bytes", "cpu_cache_read_gbps", "cpu_cache_copy_gbps", "gpu_read_gbps",
    "gpu_write_gbps", "gpu_cache_bytes", "gpu_cache_read_gbps", "gpu_cache_copy_gbps", "cpu_write_nt", "measured",
    "load1", "spread", "spread_what", "sane", "sanity", "cached", NULL};
static const char *const results_members[] = {
    "cpu_gflops_avx512", "cpu_gflops_avx2", "cpu_triad_gbps", "gpu_gflops_fp32", "gpu_copy_gbps", "gpu_gflops_tf32",
    "cpu_gops_int32", "gpu_gops_int32", "cpu_read_gbps", "cpu_write_gbps", "cpu_copy_gbps", "cpu_cache_bytes",
    "cpu_cache_read_gbps", "cpu_cache_copy_gbps", "gpu_read_gbps", "gpu_write_gbps", "gpu_cache_bytes",
    "gpu_cache_read_gbps", "gpu_cache_copy_gbps", "cpu_mode", "gpu_mode", "measured", "load1", "spread", "sane",
    "sanity", "cached", "implicit", NULL};

static const struct form {
    const char *const *members;
    const char *open, *between, *close;
    int zero_is_null; /* a figure of 0 written as null */
    int load_digits;  /* of load1 */
} forms[] = {
    [PL_PEAKS_JSON_RESULTS] = {results_members, "{", ", ", "}", 0, 9},
    [PL_PEAKS_JSON_DOCUMENT] = {document_members, "{\n  ", ",\n  ", "\n}\n", 1, 4},
};

static void figure(FILE *f, double v, const struct form *form)
{
    if (form->zero_is_null && !(v > 0.0)) fputs("null", f);
    else fprintf(f, "%.6g", v);
}

static void member(FILE *f, const pl_peaks *pk, const struct member *m, const struct form *form,
                   const char *cache_file, const char *int32_isa)
{
    const void *at = (const char *)pk + m->at;
    const double *v = at;
    const int *integer = at;
    fprintf(f, "\"%s\": ", m->name);
    switch (m->kind) {
    case M_TEXT: pl_json_write_string(f, at); break;
    case M_FIGURE: figure(f, v[0], form); break;
    case M_PAIR:
        fputc('[', f);
        figure(f, v[0], form);
        fputs(", ", f);
        figure(f, v[1], form);
        fputc(']', f);
        break;
    case M_COUNT: fprintf(f, "%d", *integer); break;
    case M_FLAG: fputs(*integer ? "true" : "false", f); break;
    case M_LOAD:
        if (v[0] >= 0 && isfinite(v[0])) fprintf(f, "%.*g", form->load_digits, v[0]);
        else fputs("null", f);
        break;
    case M_SPREAD: fprintf(f, "%.4g", v[0]); break;
    case M_CACHE_FILE: pl_json_write_string(f, cache_file); break;
    case M_INT32_ISA: pl_json_write_string(f, int32_isa); break;
    }
}

void pl_peaks_json_write(FILE *f, const pl_peaks *pk, pl_peaks_json_form which, const char *cache_file,
                         const char *int32_isa)
{
    const struct form *form = &forms[which];
    fputs(form->open, f);
    for (int i = 0; form->members[i]; i++) {
        const struct member *m = NULL;
        for (size_t j = 0; !m && j < sizeof members / sizeof members[0]; j++)
            if (!strcmp(members[j].name, form->members[i])) m = &members[j];
        if (i) fputs(form->between, f);
        if (m) member(f, pk, m, form, cache_file, int32_isa);
    }
    fputs(form->close, f);
}
