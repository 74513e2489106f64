/* cpu_sliding_vector.h: cpu-sliding's vector paths (k <= 7, bins <= 64; the rung's parameter is
 * in entropy.h).
 * One frame (cpu_sliding_bands.c) and two sets of micro-kernels behind one signature, chosen
 * at run time: cpu_sliding_avx512.c (AVX-512 F + BW) and cpu_sliding_avx2.c (AVX2).
 *
 * The frame splits the rows into bands the threads take as they finish. Each thread keeps byte
 * counters of its current row's column counts (per column x and value b: how many of the k rows
 * around the row hold b at x; the layout is the ISA's) and moves them down one row at a time; at
 * each row the ISA's step adds the entering row, drops the leaving one, forms S = sum_b c_b
 * log c_b of every window and stores E = log n - S x inv (one call, so an ISA may interleave the
 * two walks). */
#ifndef PL_ENTROPY_CPU_SLIDING_VECTOR_H
#define PL_ENTROPY_CPU_SLIDING_VECTOR_H

#include "kernels/entropy/entropy.h"

enum { SLIDING_MAX_K = 7, SLIDING_MAX_BINS = 64 }; /* what the vector paths take */

/* What a call's micro-kernels read, made once a call by the frame and the ISA's plan(). */
typedef struct sliding_plan {
    const pl_entropy_problem *p;
    int r;                    /* k / 2 */
    double to_base;           /* 1 (nats) or 1/ln 2 (bits), folded into the tables */
    double sum_unit;          /* what one unit of the ISA's sum S is worth: 1 (float), 2^-q (fixed point) */
    int64_t per_value, constant; /* an integer sum short of terms known per pixel: S = sum + per_value n + constant */
    int64_t counter_bytes;    /* one thread's column counters, set to counter_fill before the first row */
    unsigned char counter_fill; /* the byte a count of 0 is (counts are bytes mod 256; 0 unless the ISA biases them) */
    _Alignas(64) unsigned char table[256]; /* c log c as the ISA looks it up */
} sliding_plan;

/* E = log n - (sum + add) x inv for one output row: per column where the window is clipped, and
 * the constants of interior columns (n = rows x k). log n carries the base, inv the sum's unit,
 * add = per_value n + constant (0 where the ISA's sum is S itself). */
typedef struct sliding_row {
    const float *logn, *inv;  /* W entries each */
    const int32_t *add;
    float logn_in, inv_in;
    int32_t add_in;
} sliding_row;

typedef struct sliding_isa {
    /* Whether this path takes p (k <= SLIDING_MAX_K and bins <= SLIDING_MAX_BINS at most): where
     * it beats the general path. */
    int (*takes)(const pl_entropy_problem *p);
    /* Fill table, sum_unit, per_value, constant and counter_bytes for pl->p (p, r and to_base
     * are set, the rest 0). */
    void (*plan)(sliding_plan *pl);
    /* Add input row `enter` and drop row `leave` (either may be NULL) from the column counters;
     * then, unless out is NULL, write one output row (W floats) from them. */
    void (*step)(const sliding_plan *pl, unsigned char *counters, const uint8_t *enter, const uint8_t *leave,
                 const sliding_row *rw, float *out);
} sliding_isa;

extern const sliding_isa pl_entropy_sliding_avx512, pl_entropy_sliding_avx2;

/* Run cpu-sliding's vector path with isa's micro-kernels (a problem isa takes, a CPU with the
 * ISA; cpu_sliding_bands.c). */
pl_status pl_entropy_sliding_bands(const pl_run_args *a, const sliding_isa *isa);

#endif
