/* bitslice.h: 64 cells' next state at once, shared by the bit-sliced rungs (cpu-bitpacked's
 * word loops, cpu-sparse's tiles): their eight neighbour words added by full and half adders
 * into four count bits per cell, and the rule applied as boolean logic on those bits. */
#ifndef PL_LIFE_BITSLICE_H
#define PL_LIFE_BITSLICE_H

#include "kernels/life/rule.h"

#include <stdint.h>

/* The rule as a mux tree over the count's bits (b0, b1, b2; b3 only at count 8): leaf c is
 * birth_c where the cell is dead, survive_c where alive; all-ones or zero words. */
typedef struct life_rule_masks {
    uint64_t birth[9], survive[9];
} life_rule_masks;

static inline void life_rule_masks_make(const pl_life_rule *rule, life_rule_masks *m)
{
    for (int c = 0; c <= 8; c++) {
        m->birth[c] = (rule->birth >> c) & 1u ? ~UINT64_C(0) : 0;
        m->survive[c] = (rule->survive >> c) & 1u ? ~UINT64_C(0) : 0;
    }
}

/* a + b + c as (sum, carry) and a + b as (sum, carry), bitwise over 64 cells. */
#define LIFE_FULL_ADD(s, c, a, b, d) do { uint64_t t_ = (a) ^ (b); s = t_ ^ (d); c = ((a) & (b)) | (t_ & (d)); } while (0)
#define LIFE_HALF_ADD(s, c, a, b) do { s = (a) ^ (b); c = (a) & (b); } while (0)

/* The next state of 64 cells from their eight neighbour words (n0..n7) and their own (alive). */
static inline uint64_t life_next_word(const life_rule_masks *g, uint64_t alive, uint64_t n0, uint64_t n1, uint64_t n2,
                                      uint64_t n3, uint64_t n4, uint64_t n5, uint64_t n6, uint64_t n7)
{
    /* The count's bits b0..b3 by an adder tree: three adders give three weight-1 bits and
     * three weight-2 carries; the weight-1 bits add to b0 and one more carry; the four
     * weight-2 carries add to b1 and two weight-4 bits, b2 their sum and b3 their carry. */
    uint64_t sa, ca, sb, cb, sc, cc, b0, cd, t1, k1, b1, k2;
    LIFE_FULL_ADD(sa, ca, n0, n1, n2);
    LIFE_FULL_ADD(sb, cb, n3, n4, n5);
    LIFE_HALF_ADD(sc, cc, n6, n7);
    LIFE_FULL_ADD(b0, cd, sa, sb, sc);
    LIFE_FULL_ADD(t1, k1, ca, cb, cc);
    LIFE_HALF_ADD(b1, k2, t1, cd);
    const uint64_t b2 = k1 ^ k2, b3 = k1 & k2;
    /* The rule: leaf c = birth_c or survive_c by alive, then a mux by b0, b1, b2; count 8 (b3
     * set, the other bits then zero) takes leaf 8. x ^ ((x ^ y) & m) is m ? y : x. */
    uint64_t leaf[9];
    for (int c = 0; c < 9; c++) leaf[c] = g->birth[c] ^ ((g->birth[c] ^ g->survive[c]) & alive);
    const uint64_t m0 = leaf[0] ^ ((leaf[0] ^ leaf[1]) & b0), m1 = leaf[2] ^ ((leaf[2] ^ leaf[3]) & b0);
    const uint64_t m2 = leaf[4] ^ ((leaf[4] ^ leaf[5]) & b0), m3 = leaf[6] ^ ((leaf[6] ^ leaf[7]) & b0);
    const uint64_t q0 = m0 ^ ((m0 ^ m1) & b1), q1 = m2 ^ ((m2 ^ m3) & b1);
    const uint64_t f = q0 ^ ((q0 ^ q1) & b2);
    return f ^ ((f ^ leaf[8]) & b3);
}

/* Conway's rule B3/S23 only: born at 3, survives at 2 or 3, so the next state is "count is 2
 * or 3, and the count is odd or the cell alive": b1 set, no weight-4 carry (counts 4..8), and
 * b0 or alive. Of the two weight-4 carries only k1 needs testing: k2 = t1 & cd is set only
 * where b1 = t1 ^ cd is clear. No rule masks, no mux tree: about half the operations of
 * life_next_word. */
static inline uint64_t life_next_word_conway(uint64_t alive, uint64_t n0, uint64_t n1, uint64_t n2, uint64_t n3,
                                             uint64_t n4, uint64_t n5, uint64_t n6, uint64_t n7)
{
    uint64_t sa, ca, sb, cb, sc, cc, b0, cd, t1, k1;
    LIFE_FULL_ADD(sa, ca, n0, n1, n2);
    LIFE_FULL_ADD(sb, cb, n3, n4, n5);
    LIFE_HALF_ADD(sc, cc, n6, n7);
    LIFE_FULL_ADD(b0, cd, sa, sb, sc);
    LIFE_FULL_ADD(t1, k1, ca, cb, cc);
    const uint64_t b1 = t1 ^ cd;
    return b1 & ~k1 & (b0 | alive);
}

static inline int life_rule_is_conway(const pl_life_rule *rule)
{
    return rule->birth == (1u << 3) && rule->survive == ((1u << 2) | (1u << 3));
}

#endif
