/* cpu_bitpacked_avx512.c: cpu-bitpacked's word loops (cpu_bitpacked_gen.h) built for AVX-512:
 * 8 words (512 cells) a vector, three-input logic in one instruction (vpternlog). Packing and
 * unpacking use AVX-512BW's byte masks: 64 bytes tested into a 64-bit mask (vptestmb) and a
 * mask spread back into 64 bytes of 0/1 (a masked move), a word per instruction. */
#include <immintrin.h>

#define LIFE_ISA_FN(name) life_avx512_##name
#define LIFE_OWN_PACK
#include "kernels/life/cpu_bitpacked_gen.h"

static void life_avx512_pack_rows(const uint8_t *grid, uint64_t *bits, int64_t W, int64_t wpr, int64_t y0, int64_t y1)
{
    for (int64_t y = y0; y < y1; y++) {
        const uint8_t *row = grid + y * W;
        uint64_t *out = bits + y * wpr;
        for (int64_t i = 0; i < W / 64; i++) {
            const __m512i v = _mm512_loadu_si512((const void *)(row + i * 64));
            out[i] = (uint64_t)_mm512_test_epi8_mask(v, v);
        }
        if (W % 64) {
            const __mmask64 tail = (UINT64_C(1) << (W % 64)) - 1;
            const __m512i v = _mm512_maskz_loadu_epi8(tail, row + W / 64 * 64);
            out[W / 64] = (uint64_t)_mm512_test_epi8_mask(v, v);
        }
    }
}

static void life_avx512_unpack_rows(const uint64_t *bits, uint8_t *grid, int64_t W, int64_t wpr, int64_t y0,
                                    int64_t y1)
{
    const __m512i ones = _mm512_set1_epi8(1);
    for (int64_t y = y0; y < y1; y++) {
        const uint64_t *in = bits + y * wpr;
        uint8_t *row = grid + y * W;
        for (int64_t i = 0; i < W / 64; i++)
            _mm512_storeu_si512((void *)(row + i * 64), _mm512_maskz_mov_epi8((__mmask64)in[i], ones));
        if (W % 64) {
            const __mmask64 tail = (UINT64_C(1) << (W % 64)) - 1;
            _mm512_mask_storeu_epi8(row + W / 64 * 64, tail, _mm512_maskz_mov_epi8((__mmask64)in[W / 64], ones));
        }
    }
}

const life_packed_isa pl_life_packed_avx512 = {life_avx512_pack_rows, life_avx512_unpack_rows,
                                               life_avx512_step_rows};
