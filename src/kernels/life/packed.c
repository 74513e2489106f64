/* packed.c: the life grid as the harness holds it for every rung: bit-packed rows.
 * Row y of a W-wide grid is wpr = (W + 63) / 64 little-endian 64-bit words; cell x is bit
 * x % 64 of word x / 64; the bits past W in a row's last word are zero. The byte rungs
 * (cpu-naive, cpu-threads) unpack it into a byte a cell at the start of a run and pack it
 * back at the end; the bit-sliced rungs work on it as it is. */
#include "kernels/life/life.h"

int64_t pl_life_words_per_row(int64_t W) { return (W + 63) / 64; }

void pl_life_unpack_rows(const uint64_t *bits, uint8_t *cells, int64_t W, int64_t y0, int64_t y1)
{
    const int64_t wpr = pl_life_words_per_row(W);
    for (int64_t y = y0; y < y1; y++) {
        const uint64_t *in = bits + y * wpr;
        uint8_t *row = cells + y * W;
        for (int64_t x = 0; x < W; x++) row[x] = (uint8_t)((in[x >> 6] >> (x & 63)) & 1u);
    }
}

void pl_life_pack_rows(const uint8_t *cells, uint64_t *bits, int64_t W, int64_t y0, int64_t y1)
{
    const int64_t wpr = pl_life_words_per_row(W);
    for (int64_t y = y0; y < y1; y++) {
        const uint8_t *row = cells + y * W;
        uint64_t *out = bits + y * wpr;
        for (int64_t i = 0; i < wpr; i++) {
            const int64_t n = W - i * 64 < 64 ? W - i * 64 : 64;
            uint64_t w = 0;
            for (int64_t k = 0; k < n; k++) w |= (uint64_t)(row[i * 64 + k] != 0) << k;
            out[i] = w;
        }
    }
}
