/* sizes.h: the size text every kernel's spec takes: "N" (one number for every dimension: a
 * square, a cube) or all of the kernel's dimensions joined by 'x' ("MxN", "MxNxK"). Named
 * sizes (small|medium|large) are resolved by the harness before a spec sees the text. */
#ifndef PL_CORE_SIZES_H
#define PL_CORE_SIZES_H

#include "parlab.h"

/* Parse text into dims[0..n_dims): one positive integer (copied into every dimension) or
 * exactly n_dims of them joined by 'x' (or 'X'). Signs, blanks and other text are refused.
 * Errors name the kernel (who), the text and the forms taken: "gemm size '4x4': expected N,
 * MxNxK, or small|medium|large" (shape "MxNxK"; NULL when n_dims is 1). PL_ERR_OVERFLOW for a
 * number past 64 bits, PL_ERR_ARG otherwise. */
pl_status pl_parse_dims(const char *who, const char *text, int n_dims, const char *shape, int64_t *dims);

#endif
