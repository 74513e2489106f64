/* harness.h: the harness's inside (not public). A pl_problem holds one kernel problem set
 * up once: its spec struct, operands filled from the seed, pristine copies of in-out
 * operands, and the float64 reference. Variants only compute; everything else is here. */
#ifndef PL_HARNESS_H
#define PL_HARNESS_H

#include "parlab.h"

struct pl_problem {
    const pl_kernel *kernel;
    void *spec;                       /* the kernel's problem struct */
    char desc[64];
    uint64_t seed;
    int n;                            /* operands */
    pl_tensor t[PL_MAX_OPERANDS];     /* host operands; in-out ones hold their initial value */
    pl_tensor ref[PL_MAX_OPERANDS];   /* reference, for outputs (host == NULL for inputs) */
    double flops, bytes;
};

/* Compare an output with its reference over the rows x cols region: relative Frobenius
 * error (floats; any NaN or Inf gives +Inf) or the count of differing elements (exact). */
double pl_verify_tensor(const pl_tensor *out, const pl_tensor *ref, int exact);

/* The values of a variant's parameters: given ones checked against their legal values,
 * missing ones (params == NULL) set to the defaults. */
pl_status pl_params_resolve(const pl_variant *v, const int64_t *given, int64_t *out);

/* Bytes of storage a tensor spans, with overflow checks. */
pl_status pl_tensor_bytes(const pl_tensor *t, size_t *bytes);

#endif
