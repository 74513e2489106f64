/* cpu_bitpacked_gen.h: cpu-bitpacked's word loops, included by cpu_bitpacked_avx2.c and
 * cpu_bitpacked_avx512.c (each compiled with its ISA's flags: the compiler turns the loops over
 * words into 4- or 8-word vector code). See cpu_bitpacked.c for the idea. */
#include "kernels/life/cpu_bitpacked.h"

#include "kernels/life/bitslice.h"

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

static void LIFE_ISA_FN(step_rows)(const life_packed_gen *g, const uint64_t *src, uint64_t *dst, int64_t y0,
                                   int64_t y1)
{
    const int64_t H = g->H, wpr = g->wpr;
    for (int64_t y = y0; y < y1; y++) {
        const uint64_t *up = y > 0 ? src + (y - 1) * wpr : g->torus ? src + (H - 1) * wpr : g->zero_row;
        const uint64_t *down = y < H - 1 ? src + (y + 1) * wpr : g->torus ? src : g->zero_row;
        const uint64_t *mid = src + y * wpr;
        uint64_t *out = dst + y * wpr;
        /* interior words: every neighbour bit inside the row, no test */
        for (int64_t i = 1; i < wpr - 1; i++) {
            const uint64_t uw = (up[i] << 1) | (up[i - 1] >> 63), ue = (up[i] >> 1) | (up[i + 1] << 63);
            const uint64_t mw = (mid[i] << 1) | (mid[i - 1] >> 63), me = (mid[i] >> 1) | (mid[i + 1] << 63);
            const uint64_t dw = (down[i] << 1) | (down[i - 1] >> 63), de = (down[i] >> 1) | (down[i + 1] << 63);
            out[i] = life_next_word(&g->rule, mid[i], uw, up[i], ue, mw, me, dw, down[i], de);
        }
        out[0] = life_edge_word(g, up, mid, down, 0);
        if (wpr > 1) out[wpr - 1] = life_edge_word(g, up, mid, down, wpr - 1);
    }
}
