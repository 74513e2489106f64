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
    int wrap_cols, wrap_rows; /* the row's ends meet (torus, cylinder); the first and last rows meet (torus) */
    const uint64_t *zero_row; /* wpr zero words: the dead row beyond a plane's edge */
    uint64_t last_mask;       /* the bits of a row's last word that hold cells */
    life_rule_masks rule;
    int conway;               /* the rule is B3/S23: Conway's test instead of the rule masks' mux */
} life_packed_gen;

/* Rows a chunk of the word loops' wavefront (cpu_bitpacked_gen.h), and the rows of scratch each
 * level of temporal blocking keeps: a chunk and the two rows the next level needs beyond it. */
enum { LIFE_CHUNK_ROWS = 8, LIFE_RING_ROWS = LIFE_CHUNK_ROWS + 2 };
/* Words from one ring row to the next: a row and one cache line more, so that the rows a chunk
 * walks down (2 KB apart at 16384 cells, which all fall in two of the L1's 64 sets) spread over
 * the sets instead of evicting each other. */
#define LIFE_RING_STRIDE(wpr) ((wpr) + 8)

typedef struct life_packed_isa {
    /* One generation of rows y0..y1-1 from src into dst. */
    void (*step_rows)(const life_packed_gen *g, const uint64_t *src, uint64_t *dst, int64_t y0, int64_t y1);
    /* T generations of rows y0..y1-1 from src into dst, with ring: LIFE_RING_ROWS (T - 1) rows of
     * LIFE_RING_STRIDE(wpr) words of scratch. */
    void (*step_band)(const life_packed_gen *g, const uint64_t *src, uint64_t *dst, int64_t y0, int64_t y1, int T,
                      uint64_t *ring);
} life_packed_isa;

extern const life_packed_isa pl_life_packed_avx2, pl_life_packed_avx512;

#endif
