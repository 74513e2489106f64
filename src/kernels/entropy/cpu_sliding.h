/* cpu_sliding.h: cpu-sliding's parts: its parameter and the AVX-512 vector path. */
#ifndef PL_ENTROPY_CPU_SLIDING_H
#define PL_ENTROPY_CPU_SLIDING_H

#include "kernels/entropy/entropy.h"

extern const char *const pl_entropy_sliding_isa_choices[3]; /* "auto", "scalar" */
extern const pl_param_def pl_entropy_cpu_sliding_params[1];

/* k <= 7, bins <= 64, a CPU with AVX-512 F and BW (cpu_sliding_avx512.c). */
pl_status pl_entropy_sliding_avx512(const pl_run_args *a);

#endif
