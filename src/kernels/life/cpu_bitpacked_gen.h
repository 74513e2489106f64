/* cpu_bitpacked_gen.h: cpu-bitpacked's word loops, included by cpu_bitpacked_avx2.c and
 * cpu_bitpacked_avx512.c (each compiled with its ISA's flags: the compiler turns the loops over
 * words into 4- or 8-word vector code). See cpu_bitpacked.c for the idea. */
#include "kernels/life/cpu_bitpacked.h"

#include "kernels/life/bitslice.h"

#include <string.h>

/* Word i of a row with its west (cell x-1 at bit x) and east (x+1) neighbours, given what
 * comes in at bit 0 from the west and at the row's last cell from the east. */
static inline uint64_t life_west(uint64_t w, uint64_t west_in) { return (w << 1) | west_in; }
static inline uint64_t life_east(uint64_t w, uint64_t east_in) { return (w >> 1) | east_in; }

/* An edge word (the first or last of a row): the carries from the neighbour word, or across
 * the torus's seam, or none on the plane. */
static uint64_t life_edge_word(const life_packed_gen *g, const uint64_t *up, const uint64_t *mid,
                               const uint64_t *down, int64_t i)
{
    const int64_t last = g->wpr - 1;
    const int last_bit = (int)((g->W - 1) & 63);
    const uint64_t *rows[3] = {up, mid, down};
    uint64_t west[3], east[3];
    for (int r = 0; r < 3; r++) {
        const uint64_t *row = rows[r];
        uint64_t west_in = i > 0 ? row[i - 1] >> 63 : g->torus ? (row[last] >> last_bit) & 1u : 0;
        uint64_t east_in = i < last ? row[i + 1] << 63 : g->torus ? (row[0] & 1u) << last_bit : 0;
        west[r] = life_west(row[i], west_in);
        east[r] = life_east(row[i], east_in);
    }
    uint64_t w = life_next_word(&g->rule, mid[i], west[0], up[i], east[0], west[1], east[1], west[2], down[i], east[2]);
    return i == last ? w & g->last_mask : w;
}

/* One row's next generation from the rows above (up), at (mid) and below (down). */
static inline void LIFE_ISA_FN(step_row)(const life_packed_gen *g, const uint64_t *up, const uint64_t *mid,
                                         const uint64_t *down, uint64_t *out)
{
    const int64_t wpr = g->wpr;
    /* interior words: every neighbour bit inside the row, no test; Conway's rule by its own
     * word step (half the operations), any other through the rule masks */
#define LIFE_INTERIOR_LOOP(NEXT)                                                                                      \
    for (int64_t i = 1; i < wpr - 1; i++) {                                                                           \
        const uint64_t uw = (up[i] << 1) | (up[i - 1] >> 63), ue = (up[i] >> 1) | (up[i + 1] << 63);                 \
        const uint64_t mw = (mid[i] << 1) | (mid[i - 1] >> 63), me = (mid[i] >> 1) | (mid[i + 1] << 63);             \
        const uint64_t dw = (down[i] << 1) | (down[i - 1] >> 63), de = (down[i] >> 1) | (down[i + 1] << 63);         \
        out[i] = NEXT;                                                                                                \
    }
    if (g->conway) LIFE_INTERIOR_LOOP(life_next_word_conway(mid[i], uw, up[i], ue, mw, me, dw, down[i], de))
    else LIFE_INTERIOR_LOOP(life_next_word(&g->rule, mid[i], uw, up[i], ue, mw, me, dw, down[i], de))
#undef LIFE_INTERIOR_LOOP
    out[0] = life_edge_word(g, up, mid, down, 0);
    if (wpr > 1) out[wpr - 1] = life_edge_word(g, up, mid, down, wpr - 1);
}

static void LIFE_ISA_FN(step_rows)(const life_packed_gen *g, const uint64_t *src, uint64_t *dst, int64_t y0,
                                   int64_t y1)
{
    const int64_t H = g->H, wpr = g->wpr;
    for (int64_t y = y0; y < y1; y++) {
        const uint64_t *up = y > 0 ? src + (y - 1) * wpr : g->torus ? src + (H - 1) * wpr : g->zero_row;
        const uint64_t *down = y < H - 1 ? src + (y + 1) * wpr : g->torus ? src : g->zero_row;
        LIFE_ISA_FN(step_row)(g, up, src + y * wpr, down, dst + y * wpr);
    }
}

/* T generations of rows y0..y1-1 at once (temporal blocking): src holds generation 0, dst
 * gets generation T for those rows only. Level k (generation k) row y needs level k-1 rows
 * y-1..y+1, so the band is computed as a wavefront: at step s, level k computes its row
 * a_k + s - 2k, where a_k = y0 - (T - k) is the first row it needs (the band and a halo of T-k
 * rows a side, recomputed by each band). Each level keeps its last three rows in ring (3
 * rows a level, wpr words a row: T * 3 * wpr words, a few KB per level: L1/L2), so src is read
 * once and dst written once per T generations. Rows wrap on the torus (a halo row -1 is row
 * H-1, even many times over on a small grid); on the plane a row beyond the edge is zero at
 * every level. */
static void LIFE_ISA_FN(step_band)(const life_packed_gen *g, const uint64_t *src, uint64_t *dst, int64_t y0,
                                   int64_t y1, int T, uint64_t *ring)
{
    const int64_t H = g->H, wpr = g->wpr;
    for (int64_t s = 0; s < (y1 - y0) + 2 * (int64_t)T; s++)
        for (int k = 1; k <= T; k++) {
            const int64_t first = y0 - (T - k), last = y1 - 1 + (T - k), y = first + s - 2 * (int64_t)k;
            if (y < first || y > last) continue;
            const int inside = g->torus || (y >= 0 && y < H);
            uint64_t *out = k == T ? dst + y * wpr : ring + ((int64_t)(k - 1) * 3 + ((y % 3) + 3) % 3) * wpr;
            if (!inside) { /* beyond the plane's edge: dead at every level (never written to dst) */
                memset(out, 0, (size_t)wpr * 8);
                continue;
            }
            const uint64_t *rows[3];
            for (int d = -1; d <= 1; d++) {
                const int64_t r = y + d;
                if (k == 1) { /* level 0: the source grid */
                    const int64_t rw = ((r % H) + H) % H;
                    rows[d + 1] = !g->torus && (r < 0 || r >= H) ? g->zero_row : src + rw * wpr;
                } else {
                    rows[d + 1] = ring + ((int64_t)(k - 2) * 3 + ((r % 3) + 3) % 3) * wpr;
                }
            }
            LIFE_ISA_FN(step_row)(g, rows[0], rows[1], rows[2], out);
        }
}
