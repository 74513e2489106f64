/* cpu_bitpacked_avx2.c: cpu-bitpacked's word loops (cpu_bitpacked_gen.h) built for AVX2:
 * 4 words (256 cells) a vector. */
#define LIFE_ISA_FN(name) life_avx2_##name
#define LIFE_VEC_BYTES 32
#include "kernels/life/cpu_bitpacked_gen.h"

const life_packed_isa pl_life_packed_avx2 = {life_avx2_step_rows, life_avx2_step_band};
