/* cpu_sliding.h: cpu-sliding's AVX-512 vector path (its parameter is in entropy.h). */
#ifndef PL_ENTROPY_CPU_SLIDING_H
#define PL_ENTROPY_CPU_SLIDING_H

#include "kernels/entropy/entropy.h"

/* k <= 7, bins <= 64, a CPU with AVX-512 F and BW (cpu_sliding_avx512.c). */
pl_status pl_entropy_sliding_avx512(const pl_run_args *a);

#endif
