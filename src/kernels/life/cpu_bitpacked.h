/* cpu_bitpacked.h: the pieces of cpu-bitpacked, built once per ISA (cpu_bitpacked_avx2.c,
 * cpu_bitpacked_avx512.c include cpu_bitpacked_gen.h with their own compiler flags, so the
 * same word loops become 256- or 512-bit vector code).
 * Layout: the operand's (life.h): a row of W cells is wpr = (W + 63) / 64 words; cell x is
 * bit x % 64 of word x / 64; the bits past W in a row's last word are zero. */
#ifndef PL_LIFE_CPU_BITPACKED_H
#define PL_LIFE_CPU_BITPACKED_H

#include "kernels/life/bitslice.h"

#include <stdint.h>

/* One generation's constants. */
typedef struct life_packed_gen {
    int64_t W, H, wpr;
    int torus;
    const uint64_t *zero_row; /* wpr zero words: the dead row beyond a plane's edge */
    uint64_t last_mask;       /* the bits of a row's last word that hold cells */
    life_rule_masks rule;
    int conway;               /* the rule is B3/S23: interior words by life_next_word_conway */
} life_packed_gen;

typedef struct life_packed_isa {
    /* One generation of rows y0..y1-1 from src into dst. */
    void (*step_rows)(const life_packed_gen *g, const uint64_t *src, uint64_t *dst, int64_t y0, int64_t y1);
    /* T generations of rows y0..y1-1 from src into dst, with ring: 3 T rows of scratch. */
    void (*step_band)(const life_packed_gen *g, const uint64_t *src, uint64_t *dst, int64_t y0, int64_t y1, int T,
                      uint64_t *ring);
} life_packed_isa;

extern const life_packed_isa pl_life_packed_avx2, pl_life_packed_avx512;

#endif
