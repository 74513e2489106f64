// cuda_common.cuh: what the life CUDA rungs share: their device workspace slot, the launch
// check, the rule as a table for the byte rungs, and the bit-sliced step of 32 cells for the
// word rungs. Included by the cuda_*.cu files of the room only.
//
// The word rungs read the packed operand (life.h: rows of 64-bit words) as 32-bit words: on a
// little-endian machine cell x is bit x % 32 of 32-bit word x / 32 of its row (ld32 = 2 wpr
// words a row). A row's used words are n32 = (W + 31) / 32; a row may end in one 32-bit word of
// padding (W % 64 in 1..32), which the rungs write as zero.
#ifndef PL_LIFE_CUDA_COMMON_CUH
#define PL_LIFE_CUDA_COMMON_CUH

#include "core/core.h"
#include "kernels/life/life.h"

#include <cuda_runtime.h>
#include <stdint.h>

// Device workspace slot of the life room (core.h lists the others): the byte rungs' two byte
// grids, or the word rungs' second packed grid. Nothing is kept from one call to the next.
enum { PL_LIFE_DEV_WS = 8 };
static_assert((int)PL_LIFE_DEV_WS < (int)PL_CTX_DEV_WS_SLOTS, "the life slot fits the context's");

static inline pl_status life_launched(const char *rung)
{
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s launch: %s", rung, cudaGetErrorString(e));
    return PL_OK;
}

// Whether the rule is Conway's B3/S23 (the word rungs have a shorter rule for it).
static inline bool life_is_conway(const pl_life_rule &r)
{
    return r.birth == (1u << 3) && r.survive == ((1u << 2) | (1u << 3));
}

// The rule as all-ones / zero 32-bit masks (the leaves of the mux over the count's bits).
struct life_masks32 {
    uint32_t birth[9], survive[9];
};
static inline life_masks32 life_masks32_make(const pl_life_rule &r)
{
    life_masks32 m;
    for (int c = 0; c <= 8; c++) {
        m.birth[c] = (r.birth >> c) & 1u ? 0xFFFFFFFFu : 0u;
        m.survive[c] = (r.survive >> c) & 1u ? 0xFFFFFFFFu : 0u;
    }
    return m;
}

// The next state of 32 cells from the bits of their neighbour counts (b0..b3, weights 1..8). For
// Conway's rule the mux tree shrinks to "count 2 or 3, and count 3 or alive": b1 and not b2 (b3
// is set only at count 8, where b1 is clear), and b0 or alive.
template <bool CONWAY>
static __device__ __forceinline__ uint32_t life_rule32(const life_masks32 &m, uint32_t alive, uint32_t b0,
                                                       uint32_t b1, uint32_t b2, uint32_t b3)
{
    if constexpr (CONWAY) {
        return b1 & ~b2 & (b0 | alive);
    } else {
        uint32_t leaf[9];
#pragma unroll
        for (int c = 0; c < 9; c++) leaf[c] = m.birth[c] ^ ((m.birth[c] ^ m.survive[c]) & alive);
        const uint32_t m0 = leaf[0] ^ ((leaf[0] ^ leaf[1]) & b0), m1 = leaf[2] ^ ((leaf[2] ^ leaf[3]) & b0);
        const uint32_t m2 = leaf[4] ^ ((leaf[4] ^ leaf[5]) & b0), m3 = leaf[6] ^ ((leaf[6] ^ leaf[7]) & b0);
        const uint32_t q0 = m0 ^ ((m0 ^ m1) & b1), q1 = m2 ^ ((m2 ^ m3) & b1);
        const uint32_t f = q0 ^ ((q0 ^ q1) & b2);
        return f ^ ((f ^ leaf[8]) & b3);
    }
}
// The next state of 32 cells from their own word and their eight neighbour words, as
// bitslice.h does it for 64: an adder tree into the count's bits b0..b3, then the rule.
template <bool CONWAY>
static __device__ __forceinline__ uint32_t life_next32(const life_masks32 &m, uint32_t alive, uint32_t n0,
                                                       uint32_t n1, uint32_t n2, uint32_t n3, uint32_t n4,
                                                       uint32_t n5, uint32_t n6, uint32_t n7)
{
    uint32_t t, sa, ca, sb, cb, b0, cd, t1, k1;
    t = n0 ^ n1, sa = t ^ n2, ca = (n0 & n1) | (t & n2);   // full adders: 3 weight-1 bits
    t = n3 ^ n4, sb = t ^ n5, cb = (n3 & n4) | (t & n5);
    const uint32_t sc = n6 ^ n7, cc = n6 & n7;              // half adder
    t = sa ^ sb, b0 = t ^ sc, cd = (sa & sb) | (t & sc);    // weight 1: b0, and one more carry
    t = ca ^ cb, t1 = t ^ cc, k1 = (ca & cb) | (t & cc);    // the weight-2 carries
    const uint32_t b1 = t1 ^ cd, k2 = t1 & cd;
    const uint32_t b2 = k1 ^ k2, b3 = k1 & k2;
    return life_rule32<CONWAY>(m, alive, b0, b1, b2, b3);
}
// 32 cells from three rows' words (row[0] above, row[1] the cells' own, row[2] below) and the
// cells next to them: west_in[k] the cell west of bit 0 (0/1), east_in[k] the cell east of the
// word's last cell, which lands at bit east_pos (31; on the torus the last cell of a row that
// ends inside its word). The eight neighbour words are the rows above and below as they are and
// every row shifted a cell west (cell x-1 at bit x) and east.
template <bool CONWAY>
static __device__ __forceinline__ uint32_t life_step32(const life_masks32 &m, const uint32_t row[3],
                                                       const uint32_t west_in[3], const uint32_t east_in[3],
                                                       int east_pos)
{
    uint32_t w[3], e[3];
#pragma unroll
    for (int k = 0; k < 3; k++) {
        w[k] = (row[k] << 1) | west_in[k];
        e[k] = (row[k] >> 1) | (east_in[k] << east_pos);
    }
    return life_next32<CONWAY>(m, row[1], w[0], row[0], e[0], w[1], e[1], w[2], row[2], e[2]);
}

#endif
