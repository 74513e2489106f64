/* harness.h: the harness's inside (not public). A pl_problem holds one kernel problem set
 * up once: its spec struct, operands filled from the seed, pristine copies of in-out
 * operands, checksums of the inputs, and (for the full check) the float64 reference and the
 * per-element scale of its bound. Variants only compute; everything else is here.
 *
 * The kernel contract (struct pl_kernel in parlab.h), in the order the harness calls it:
 *   make_problem  size text (named sizes resolved) + problem parameters -> problem struct
 *   operands      the tensors: shapes, dtype, role (in, out, in-out)
 *   fill          seeded inputs (never zeros); called again to restore an overwritten input
 *   reference     full check: float64 reference and element scale of every output
 *   check_sampled sampled check (sizes whose reference_ops would take more than a few s)
 *   error_bound, elem_bound   the bounds of a precision, with their justification
 *   work, ops, bytes          per run: work in the kernel's unit, compute ops, fewest bytes
 *   destroy_problem           frees what make_problem allocated
 * The harness includes nothing from src/kernels/: the list of kernels is a table there. */
#ifndef PL_HARNESS_H
#define PL_HARNESS_H

#include "parlab.h"

/* src/kernels/kernels.c: every kernel, NULL-terminated. */
extern const pl_kernel *const pl_kernel_table[];

struct pl_problem {
    const pl_kernel *kernel;
    void *spec;                       /* the kernel's problem struct */
    int id;                           /* unique in this process */
    char desc[64];
    uint64_t seed;
    pl_check check;                   /* FULL or SAMPLE */
    int n;                            /* operands */
    pl_tensor t[PL_MAX_OPERANDS];     /* host operands; in-out ones hold their initial value */
    pl_tensor ref[PL_MAX_OPERANDS];   /* full check: reference of outputs (host NULL otherwise) */
    pl_tensor scale[PL_MAX_OPERANDS]; /* full check: element scale of float outputs */
    uint64_t sum[PL_MAX_OPERANDS];    /* checksum of each input and in-out's initial value */
    double work, ops, bytes;
};

/* Compare an output with its reference over the rows x cols region: relative Frobenius
 * error (floats; any NaN or Inf gives +Inf) or the count of differing elements (exact). */
double pl_verify_tensor(const pl_tensor *out, const pl_tensor *ref, int exact);
/* The full check of one output: Frobenius error, and element by element |out - ref| against
 * elem_bound * scale (scale may be NULL: exact). Fills res (operand index given). */
void pl_check_tensor(const pl_tensor *out, const pl_tensor *ref, const pl_tensor *scale, double elem_bound,
                     int operand, pl_check_result *res);

/* The values of a variant's parameters: given ones checked against their legal values,
 * missing ones (params == NULL) set to the defaults. */
pl_status pl_params_resolve(const pl_variant *v, const int64_t *given, int64_t *out);

/* Bytes of storage a tensor spans, with overflow checks. */
pl_status pl_tensor_bytes(const pl_tensor *t, size_t *bytes);
/* A 64-bit checksum of the bytes a tensor spans (host memory). */
uint64_t pl_tensor_checksum(const pl_tensor *t);

/* Make the kernel's problem struct from size and parameters (named sizes resolved);
 * destroy with pl_spec_free. */
pl_status pl_spec_make(const pl_kernel *k, const char *size, const pl_pvalues *pv, void **spec);
void pl_spec_free(const pl_kernel *k, void *spec);
/* pl_problem_plan of a problem struct already made (the problem is made once). */
pl_status pl_plan_spec(const pl_kernel *k, const void *spec, pl_check check, pl_plan *plan);

/* Estimated rate of the full float64 reference here (ops per second), for the AUTO check. */
double pl_reference_rate(void);
/* Seconds of full reference above which AUTO picks the sampled check. */
#define PL_FULL_CHECK_MAX_S 5.0

/* Sort t[0..n-1] and give its median, min and max (bench.c). */
void pl_stats_summary(double *t, int n, double *median, double *min, double *max);

#endif
