/* sparse_rows.h: cpu-sparse's row step for Conway's rule four rows at a time (AVX2,
 * cpu_sparse_avx2.c), used by cpu_sparse.c where the CPU has AVX2. */
#ifndef PL_LIFE_SPARSE_ROWS_H
#define PL_LIFE_SPARSE_ROWS_H

#include <stdint.h>

/* What a tile's computed rows changed: bit r of rows where the new row differs from the current
 * one (and of west / east where its first / last cell does), of chg2 where it differs from the
 * row it overwrites (the state a generation before), of live where it has a live cell. */
typedef struct life_rows_summary {
    uint64_t rows, west, east, chg2, live;
} life_rows_summary;

/* Conway's next state of rows 4k .. 4k+3 for each bit k (1..14) set in blocks: every input row
 * (4k-1 .. 4k+4) lies inside the tile, so only the tile's own rows (mid) and its west and east
 * neighbours' (zero rows where absent) are read. The rows go to out and are summarised into
 * *sum (OR-ed in). */
void pl_life_sparse_conway_blocks_avx2(const uint64_t *west, const uint64_t *mid, const uint64_t *east,
                                       uint64_t *out, uint32_t blocks, life_rows_summary *sum);

#endif
