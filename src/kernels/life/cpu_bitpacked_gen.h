/* cpu_bitpacked_gen.h: cpu-bitpacked's word loops, included by cpu_bitpacked_avx2.c and
 * cpu_bitpacked_avx512.c, each of which first defines LIFE_ISA_FN(name) and LIFE_VEC_BYTES (32
 * or 64) and is compiled with its ISA's flags: the vector type below becomes 4 or 8 words (256
 * or 512 cells) a register. See cpu_bitpacked.c for the idea.
 *
 * Row sums. A cell's eight neighbours are three in the row above, two in its own row and three
 * below. Each row's three-cell sums (west + self + east, as 2-bit numbers s3, c3) and two-cell
 * sums (west + east: t2, a2) come from one adder, the two-cell sum being its first half; a row
 * is an input of three output rows, so a chunk of rows walked down a column of words makes each
 * row's sums once and uses them three times: about 11 operations a row (4 shifts, 2 ors, 5 for
 * the adder) plus 14 an output row (two full adders and Conway's test), against about 44 when
 * every output word adds its eight neighbour words from scratch. */
#include "kernels/life/cpu_bitpacked.h"

#include "kernels/life/bitslice.h"

#include <string.h>

#define LIFE_VEC_WORDS (LIFE_VEC_BYTES / 8)
typedef uint64_t LIFE_ISA_FN(vec) __attribute__((vector_size(LIFE_VEC_BYTES)));
#define life_vec LIFE_ISA_FN(vec)

static inline life_vec LIFE_ISA_FN(load)(const uint64_t *p)
{
    life_vec v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Lane masks for __builtin_shuffle(x, y, mask): words i-1..i+V-2 with y's word as word i-1
 * (WEST), words i+1..i+V with y's word as word i+V (EAST). */
#if LIFE_VEC_WORDS == 4
#define LIFE_WEST_LANES {4, 0, 1, 2}
#define LIFE_EAST_LANES {1, 2, 3, 4}
#else
#define LIFE_WEST_LANES {8, 0, 1, 2, 3, 4, 5, 6}
#define LIFE_EAST_LANES {1, 2, 3, 4, 5, 6, 7, 8}
#endif

/* The sums of a row's words i..i+V-1: s3 + 2 c3 = west + self + east, t2 + 2 a2 = west + east,
 * bitwise over V x 64 cells. edge 0: 1 <= i, i+V <= wpr-1, every west and east bit inside the
 * row; with whole words (W % 64 == 0), edge 1: i = 0, the word west of word 0 is word wpr-1 on
 * the torus (its bit 63 is cell W-1), none on the plane; edge 2: i + V = wpr, the word east of
 * word wpr-1 is word 0 (bit 0 is cell 0), or none. The word across the edge goes into a lane by
 * a shuffle (2-3 vector ops a row instead of a scalar edge word's 60 instructions). */
static inline __attribute__((always_inline)) void LIFE_ISA_FN(row_sums)(const life_packed_gen *g, const uint64_t *row,
                                                                        int64_t i, const int edge, life_vec *s3,
                                                                        life_vec *c3, life_vec *t2, life_vec *a2)
{
    const life_vec x = LIFE_ISA_FN(load)(row + i);
    const life_vec xw = edge == 1 ? __builtin_shuffle(x, (life_vec){0} + (g->wrap_cols ? row[g->wpr - 1] : 0),
                                                      (life_vec)LIFE_WEST_LANES)
                                  : LIFE_ISA_FN(load)(row + i - 1);
    const life_vec xe = edge == 2 ? __builtin_shuffle(x, (life_vec){0} + (g->wrap_cols ? row[0] : 0),
                                                      (life_vec)LIFE_EAST_LANES)
                                  : LIFE_ISA_FN(load)(row + i + 1);
    const life_vec w = (x << 1) | (xw >> 63), e = (x >> 1) | (xe << 63);
    *t2 = w ^ e;
    *a2 = w & e;
    *s3 = *t2 ^ x;
    *c3 = *a2 | (*t2 & x);
}

/* The next state from the sums of the row above (su, cu), the row's own two-cell sum (tm, am)
 * and the row below (sd, cd): the count n = b0 + 2 m, b0 + 2 k0 = su + tm + sd, and
 * m = cu + am + cd + k0 (0..4) with p + 2 q = cu + am + cd. Conway: "n is 2 or 3, and odd or
 * alive", m == 1 and (b0 or alive), where m == 1 is p ^ k0 without q. Any other rule: the
 * count's bits b1 = p ^ k0, b2 = q ^ (p & k0), b3 = q & p & k0 through the rule's mux. */
static inline __attribute__((always_inline)) life_vec LIFE_ISA_FN(next)(const life_packed_gen *g, int conway,
                                                                         life_vec alive, life_vec su, life_vec cu,
                                                                         life_vec tm, life_vec am, life_vec sd, life_vec cd)
{
    const life_vec t0 = su ^ tm, b0 = t0 ^ sd, k0 = (su & tm) | (t0 & sd);
    const life_vec t1 = cu ^ am, p = t1 ^ cd, q = (cu & am) | (t1 & cd);
    if (conway) return (p ^ k0) & ~q & (b0 | alive);
    const life_vec pk = p & k0, b1 = p ^ k0, b2 = q ^ pk, b3 = q & pk;
    life_vec leaf[9];
    for (int c = 0; c < 9; c++) {
        const life_vec birth = (life_vec){0} + g->rule.birth[c], survive = (life_vec){0} + g->rule.survive[c];
        leaf[c] = birth ^ ((birth ^ survive) & alive);
    }
    const life_vec m0 = leaf[0] ^ ((leaf[0] ^ leaf[1]) & b0), m1 = leaf[2] ^ ((leaf[2] ^ leaf[3]) & b0);
    const life_vec m2 = leaf[4] ^ ((leaf[4] ^ leaf[5]) & b0), m3 = leaf[6] ^ ((leaf[6] ^ leaf[7]) & b0);
    const life_vec q0 = m0 ^ ((m0 ^ m1) & b1), q1 = m2 ^ ((m2 ^ m3) & b1);
    const life_vec f = q0 ^ ((q0 ^ q1) & b2);
    return f ^ ((f ^ leaf[8]) & b3);
}

/* Words i..i+V-1 of n output rows (out[r] from in[r], in[r+1], in[r+2]), walking down the
 * column: each input row's sums made once, kept in registers for the next two output rows.
 * Inlined with n = LIFE_CHUNK_ROWS (a whole chunk) the walk is unrolled: the sums move from
 * row to row by register renaming, not by copies, and there is no loop (AVX2, 16384 cells a
 * row: 43.7 -> 37.5 instructions an output vector, its first two rows and the column loop
 * included, callgrind). */
static inline __attribute__((always_inline)) void LIFE_ISA_FN(column)(const life_packed_gen *g, int conway,
                                                                      const uint64_t *const *in,
                                                                      uint64_t *const *out, int n, int64_t i,
                                                                      const int edge)
{
    life_vec su, cu, tu, au, sm, cm, tm, am;
    LIFE_ISA_FN(row_sums)(g, in[0], i, edge, &su, &cu, &tu, &au);
    LIFE_ISA_FN(row_sums)(g, in[1], i, edge, &sm, &cm, &tm, &am);
#pragma GCC unroll 8 /* LIFE_CHUNK_ROWS */
    for (int r = 0; r < n; r++) {
        life_vec sd, cd, td, ad;
        LIFE_ISA_FN(row_sums)(g, in[r + 2], i, edge, &sd, &cd, &td, &ad);
        const life_vec next = LIFE_ISA_FN(next)(g, conway, LIFE_ISA_FN(load)(in[r + 1] + i), su, cu, tm, am, sd, cd);
        memcpy(out[r] + i, &next, sizeof next);
        su = sm, cu = cm, tm = td, am = ad, sm = sd, cm = cd;
    }
}

/* An edge word (or any word of a row too short for a vector): its eight neighbour words with
 * the carries from the neighbour words, or across the torus's seam, or none on the plane. */
static uint64_t LIFE_ISA_FN(edge_word)(const life_packed_gen *g, const uint64_t *up, const uint64_t *mid,
                                       const uint64_t *down, int64_t i)
{
    const int64_t last = g->wpr - 1;
    const int last_bit = (int)((g->W - 1) & 63);
    const uint64_t *rows[3] = {up, mid, down};
    uint64_t west[3], east[3];
    for (int r = 0; r < 3; r++) {
        const uint64_t *row = rows[r];
        uint64_t west_in = i > 0 ? row[i - 1] >> 63 : g->wrap_cols ? (row[last] >> last_bit) & 1u : 0;
        uint64_t east_in = i < last ? row[i + 1] << 63 : g->wrap_cols ? (row[0] & 1u) << last_bit : 0;
        west[r] = (row[i] << 1) | west_in;
        east[r] = (row[i] >> 1) | east_in;
    }
    uint64_t w = g->conway ? life_next_word_conway(mid[i], west[0], up[i], east[0], west[1], east[1], west[2], down[i], east[2])
                           : life_next_word(&g->rule, mid[i], west[0], up[i], east[0], west[1], east[1], west[2], down[i], east[2]);
    return i == last ? w & g->last_mask : w;
}

/* n (1..LIFE_CHUNK_ROWS) output rows from n + 2 input rows: the interior words by columns of V
 * words (the last column moved back to end at word wpr-2: its overlap is recomputed, the same
 * words again, since out is another buffer), the first and last word of each row apart. */
static void LIFE_ISA_FN(step_chunk)(const life_packed_gen *g, const uint64_t *const *in, uint64_t *const *out, int n)
{
    const int64_t wpr = g->wpr, V = LIFE_VEC_WORDS;
    int64_t scalar_to = 0; /* words 1..scalar_to-1 by edge_word too: rows shorter than V + 2 words */
    if (g->W % 64 == 0 && wpr >= 2 * V) { /* whole words: the first and last columns by vectors too */
        for (int64_t i = 0;; i += V) {
            const int64_t at = i + V >= wpr ? wpr - V : i; /* the last column moved back to end at wpr-1 */
            if (at == 0 && g->conway) LIFE_ISA_FN(column)(g, 1, in, out, n, at, 1);
            else if (at == 0) LIFE_ISA_FN(column)(g, 0, in, out, n, at, 1);
            else if (at == wpr - V && g->conway) LIFE_ISA_FN(column)(g, 1, in, out, n, at, 2);
            else if (at == wpr - V) LIFE_ISA_FN(column)(g, 0, in, out, n, at, 2);
            else if (g->conway && n == LIFE_CHUNK_ROWS) LIFE_ISA_FN(column)(g, 1, in, out, LIFE_CHUNK_ROWS, at, 0);
            else if (g->conway) LIFE_ISA_FN(column)(g, 1, in, out, n, at, 0);
            else LIFE_ISA_FN(column)(g, 0, in, out, n, at, 0);
            if (at == wpr - V) return;
        }
    }
    if (wpr - 2 >= V) {
        for (int64_t i = 1;; i += V) {
            const int64_t at = i + V - 1 > wpr - 2 ? wpr - 1 - V : i;
            if (g->conway && n == LIFE_CHUNK_ROWS) LIFE_ISA_FN(column)(g, 1, in, out, LIFE_CHUNK_ROWS, at, 0);
            else if (g->conway) LIFE_ISA_FN(column)(g, 1, in, out, n, at, 0);
            else LIFE_ISA_FN(column)(g, 0, in, out, n, at, 0);
            if (at != i || at + V == wpr - 1) break;
        }
    } else {
        scalar_to = wpr - 1;
    }
    for (int r = 0; r < n; r++) {
        for (int64_t i = 1; i < scalar_to; i++) out[r][i] = LIFE_ISA_FN(edge_word)(g, in[r], in[r + 1], in[r + 2], i);
        out[r][0] = LIFE_ISA_FN(edge_word)(g, in[r], in[r + 1], in[r + 2], 0);
        if (wpr > 1) out[r][wpr - 1] = LIFE_ISA_FN(edge_word)(g, in[r], in[r + 1], in[r + 2], wpr - 1);
    }
}

/* Row r of the source grid: wrapped on the torus, the zero row beyond the plane's (or the
 * cylinder's) first and last rows. */
static inline const uint64_t *LIFE_ISA_FN(src_row)(const life_packed_gen *g, const uint64_t *src, int64_t r)
{
    if (!g->wrap_rows && (r < 0 || r >= g->H)) return g->zero_row;
    return src + (((r % g->H) + g->H) % g->H) * g->wpr;
}

/* T generations of rows y0..y1-1 at once (temporal blocking): src holds generation 0, dst
 * gets generation T for those rows only. Level k (generation k) row y needs level k-1 rows
 * y-1..y+1, so the band is computed as a wavefront of chunks of R = LIFE_CHUNK_ROWS rows. Level
 * k covers rows first_k = y0 - (T - k) .. y1 - 1 + (T - k) (the band and a halo of T-k rows a
 * side, recomputed by each band); its chunk c is rows B_k + c R .. B_k + c R + R - 1 (clipped to
 * that range) with B_k = y0 + (T - k): each level's chunks one row further down than the next
 * level's, so that at step c, levels 1..T in turn computing their chunk c, level k finds the
 * rows it needs (B_k + c R - 1 .. B_k + c R + R) among the last R + 2 rows level k-1 made. Each
 * level below T keeps those in ring (R + 2 rows, row y in slot y mod (R + 2)): what level k
 * reads was mostly written just before, still in L1; src is read once and dst written once per
 * T generations. Rows wrap on the torus (a halo row -1 is row H-1, even many times over on a
 * small grid); on the plane a row beyond the edge is zero at every level. T = 1 is a plain
 * generation of the band from src to dst (no ring). */
static void LIFE_ISA_FN(step_band)(const life_packed_gen *g, const uint64_t *src, uint64_t *dst, int64_t y0,
                                   int64_t y1, int T, uint64_t *ring)
{
    const int64_t H = g->H, wpr = g->wpr, R = LIFE_CHUNK_ROWS, slots = LIFE_RING_ROWS;
    const int64_t stride = LIFE_RING_STRIDE(wpr);
#define LIFE_RING_ROW(level, y) (ring + ((int64_t)((level) - 1) * slots + (((y) % slots) + slots) % slots) * stride)
    const int64_t c_first = -((2 * (int64_t)(T - 1) + R - 1) / R), c_last = (y1 - 1 - y0) / R;
    for (int64_t c = c_first; c <= c_last; c++)
        for (int k = 1; k <= T; k++) {
            const int64_t first = y0 - (T - k), last = y1 - 1 + (T - k), base = y0 + (T - k) + c * R;
            int64_t ya = base < first ? first : base, yb = base + R > last + 1 ? last + 1 : base + R;
            if (ya >= yb) continue; /* this chunk (rows ya..yb-1) is outside the level's range */
            if (!g->wrap_rows) {    /* beyond the plane's edge: dead at every level (never written to dst) */
                for (int64_t y = ya; y < yb; y++)
                    if (y < 0 || y >= H) memset(LIFE_RING_ROW(k, y), 0, (size_t)wpr * 8);
                if (ya < 0) ya = 0;
                if (yb > H) yb = H;
                if (ya >= yb) continue;
            }
            const uint64_t *in[LIFE_CHUNK_ROWS + 2];
            uint64_t *out[LIFE_CHUNK_ROWS];
            for (int64_t y = ya - 1; y <= yb; y++)
                in[y - (ya - 1)] = k == 1 ? LIFE_ISA_FN(src_row)(g, src, y) : LIFE_RING_ROW(k - 1, y);
            for (int64_t y = ya; y < yb; y++) out[y - ya] = k == T ? dst + y * wpr : LIFE_RING_ROW(k, y);
            LIFE_ISA_FN(step_chunk)(g, in, out, (int)(yb - ya));
        }
#undef LIFE_RING_ROW
}

/* One generation of rows y0..y1-1 from src into dst. */
static void LIFE_ISA_FN(step_rows)(const life_packed_gen *g, const uint64_t *src, uint64_t *dst, int64_t y0,
                                   int64_t y1)
{
    LIFE_ISA_FN(step_band)(g, src, dst, y0, y1, 1, NULL);
}

#undef life_vec
#undef LIFE_WEST_LANES
#undef LIFE_EAST_LANES
