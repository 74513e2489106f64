/* cpu_bitpacked_avx512.c: cpu-bitpacked's word loops (cpu_bitpacked_gen.h) built for AVX-512:
 * 8 words (512 cells) a vector, three-input logic in one instruction (vpternlog). */
#define LIFE_ISA_FN(name) life_avx512_##name
#define LIFE_VEC_BYTES 64
#include "kernels/life/cpu_bitpacked_gen.h"

const life_packed_isa pl_life_packed_avx512 = {life_avx512_step_rows, life_avx512_step_band};
