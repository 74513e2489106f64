/* packed.c: the life grid as the harness holds it for every rung: bit-packed rows.
 * Row y of a W-wide grid is wpr = (W + 63) / 64 little-endian 64-bit words; cell x is bit
 * x % 64 of word x / 64; the bits past W in a row's last word are zero. The byte rungs
 * (cpu-naive, cpu-threads) unpack it into a byte a cell at the start of a run and pack it
 * back at the end; the bit-sliced rungs work on it as it is. Rectangles of cells at any bit
 * offset are copied between packed arrays and counted (a grid's census, the distributed
 * layer's blocks and halos) 64 cells at a time, each read and written across two words. */
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

/* Bits pos..pos+n-1 of a packed row (n 1..64), as the low bits of a word. */
static uint64_t read_bits(const uint64_t *row, int64_t pos, int n)
{
    const int64_t i = pos >> 6;
    const int off = (int)(pos & 63);
    uint64_t v = row[i] >> off;
    if (off + n > 64) v |= row[i + 1] << (64 - off);
    return n == 64 ? v : v & ((UINT64_C(1) << n) - 1);
}

/* The low n bits of v (1..64) into bits pos..pos+n-1 of a packed row, the others kept. */
static void write_bits(uint64_t *row, int64_t pos, int n, uint64_t v)
{
    const int64_t i = pos >> 6;
    const int off = (int)(pos & 63);
    const uint64_t mask = n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
    row[i] = (row[i] & ~(mask << off)) | (v << off);
    if (off + n > 64) row[i + 1] = (row[i + 1] & ~(mask >> (64 - off))) | (v >> (64 - off));
}

void pl_life_copy_cells(uint64_t *dst, int64_t dst_wpr, int64_t dx, int64_t dy, const uint64_t *src, int64_t src_wpr,
                        int64_t sx, int64_t sy, int64_t w, int64_t h)
{
    for (int64_t y = 0; y < h; y++) {
        const uint64_t *in = src + (sy + y) * src_wpr;
        uint64_t *out = dst + (dy + y) * dst_wpr;
        for (int64_t x = 0; x < w; x += 64) {
            const int n = w - x < 64 ? (int)(w - x) : 64;
            write_bits(out, dx + x, n, read_bits(in, sx + x, n));
        }
    }
}

int64_t pl_life_census(const uint64_t *bits, int64_t wpr, int64_t x0, int64_t y0, int64_t w, int64_t h,
                       int64_t box[4])
{
    int64_t pop = 0, xmin = INT64_MAX, xmax = -1, ymin = -1, ymax = -1;
    for (int64_t y = 0; y < h; y++) {
        const uint64_t *row = bits + (y0 + y) * wpr;
        for (int64_t x = 0; x < w; x += 64) {
            const uint64_t v = read_bits(row, x0 + x, w - x < 64 ? (int)(w - x) : 64);
            if (!v) continue;
            pop += __builtin_popcountll(v);
            const int64_t xa = x + __builtin_ctzll(v), xb = x + 63 - __builtin_clzll(v);
            if (xa < xmin) xmin = xa;
            if (xb > xmax) xmax = xb;
            if (ymin < 0) ymin = y;
            ymax = y;
        }
    }
    if (!pop) box[0] = box[1] = box[2] = box[3] = 0;
    else box[0] = xmin, box[1] = ymin, box[2] = xmax - xmin + 1, box[3] = ymax - ymin + 1;
    return pop;
}
