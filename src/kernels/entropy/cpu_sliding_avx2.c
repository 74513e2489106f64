/* cpu_sliding_avx2.c: cpu-sliding's vector micro-kernels with AVX2 (k <= 7, bins <= 64), run by
 * the frame of cpu_sliding_bands.c. AVX2 has no 32-entry float permute (the AVX-512 path's
 * vpermt2ps: its 8-entry vpermps would take four and three blends for a count up to 25), so
 * the layout is turned around and c log c is looked up a byte at a time:
 *
 * - Counters: column after column, BP byte counters a column (bins padded to 8, 16, 32 or 64;
 *   the padding counts stay 0). The window counts of a pixel, all its bins at once, are the
 *   byte sum of the k columns around it: k shifted 32-byte loads give 32/BP pixels (zero
 *   columns left and right of the image stand for the clipped ones). Moving down a row is two
 *   scalar byte updates a column (+1 at the entering value, -1 at the leaving one). For k >= 5
 *   the counters start biased (counter_fill), so that a window reads c + 0x70: register 0's
 *   index as it is (below).
 * - c log c in fixed point (2^-q units), split into bytes: 3 for k <= 5, 4 for k = 7
 *   (plan_avx2). Byte j of 16 counts' values is one `vpshufb` register; counts up to 9 (k <= 3)
 *   take one register, up to 25 (k = 5) two, up to 49 (k = 7) four. A count outside a
 *   register's 16 reads 0 there (its index gets bit 7 set), so the registers' results add up.
 * - The sum over bins without unpacking: `vpsadbw` adds 8 bytes into a 64-bit lane (the
 *   differences to a second operand: the other registers' look-up, which is 0 wherever the first
 *   is not), so byte j summed over 8 bins is one instruction, and s0 + (s1 << 8) + (s2 << 16)
 *   (+ (s3 << 24)) is exact. A pixel's 8-bin groups are added, 8 pixels put in order in one
 *   int32 vector, the terms the table leaves out added back (sliding_row.add), and
 *   E = log n - S x (2^-q / n) formed as the AVX-512 path forms it.
 * Per 32 window counts (two pixels at bins = 16, k = 5): 5 loads and 4 adds (window), 1 index
 * op, 6 vpshufb (table), 3 vpsadbw, 2 shifts and 2 adds (S). */
#include "core/simd_avx2.h"
#include "kernels/entropy/cpu_sliding_vector.h"

#include <math.h>
#include <string.h>

/* Zero columns left of column 0 (>= r; 4 x BP bytes keeps column 0 32-byte aligned) and right
 * of column W-1 (>= 7 + r: the last group of 8 pixels reads its windows whole). */
enum { LEFT = 4, RIGHT = 12, GROUP = 8 };

/* bp = 16 in the half-row layout (step_row_halves): 32 bytes at pair position p hold column p's
 * counters (lane 0) and column p + h's (lane 1), h = ceil(W / 2); positions -HALF_LEFT .. h + HALF_RIGHT
 * (>= r left; right: the last group of 4 positions reads r + 4 beyond its start). Rows at least
 * HALVES_MIN_W wide at k = 5 take it (the walk's middle then has whole groups with LEAD positions
 * ahead). At 2560², one thread, the stand-in: k = 3 ran slower with it (7.25 against 6.4-6.6 ms
 * least: its windows are 3 columns, little to save), and so did k = 7 (18.8 against 18.1-18.3). */
enum { HALF_LEFT = 4, HALF_RIGHT = 12, HALF_GROUP = 4, HALVES_MIN_W = 2 * (64 + 16) };

/* What a window of counters reads for a count of 0 where a byte takes more than one register
 * (digit_sums). */
enum { BIAS = 0x70 };

static int padded_bins(int bins) { return bins <= 8 ? 8 : bins <= 16 ? 16 : bins <= 32 ? 32 : 64; }

/* Registers of 16 counts each a window's counts can reach: k^2 <= 15, 31, 63. */
static inline int registers_for(int r) { return r <= 1 ? 1 : r == 2 ? 2 : 4; }

/* k <= 7 and bins <= 64, but not k = 7 with bins > 32: 64 counters a column and four registers a
 * byte make it slower there than the general path (2560², one thread: 80 against 77 ms). */
static int takes_avx2(const pl_entropy_problem *p)
{
    return p->k <= SLIDING_MAX_K && p->bins <= SLIDING_MAX_BINS && !(p->k == 7 && p->bins > 32);
}

/* Bytes of the fixed-point table values: 3 for k <= 5, 4 for k = 7 (plan_avx2 says why). */
static inline int digits_for(int r) { return r <= 2 ? 3 : 4; }

/* The byte tables: table[(j*4 + i)*16 + c%16] = byte j of g(c), c in 16i..16i+15, where g(c) is
 * F(c) = round(c log c x 2^q) less a line: g(c) = F(c) - A c + B. A window's S x 2^q is then
 * sum_b g(c_b) - B x BP (all BP counts, padding included) + A n: integers, exact. A = 0, B = 0
 * with 4 bytes. With 3 (k <= 5), A = log(k^2) x 2^q leaves g between 0 and k^2/e x 2^q (the
 * least a line can: the chord from c = 0 to k^2), so q can be 20 (k = 5) or 22 (k = 3) in
 * 24 bits instead of 17. The table's error in E is at most max over c >= 2 of
 * |F(c) - c log c x 2^q| / (c 2^q) (F(0) = F(1) = 0 are exact and the counts sum to n):
 * 2.3 x 2^-24 at k = 5 (q = 20), 0.5 at k = 7 (4 bytes, q = 22, 23); the spec's bound allows
 * (m + 8) x 2^-24 x max(1, log n) and the float steps after it take about 4 of those. */
static void plan_avx2(sliding_plan *pl)
{
    const int K = pl->p->k * pl->p->k, bp = padded_bins(pl->p->bins), digits = digits_for(pl->r);
    const double slope = digits == 3 && K > 1 ? log((double)K) * pl->to_base : 0;
    int64_t g[64] = {0}, A = 0, B = 0;
    int q = 24;
    for (; q > 0; q--) { /* the largest q whose table fits its bytes and whose S fits below 2^31 */
        const double unit = ldexp(1.0, q);
        int64_t lowest = 0, highest = 0;
        A = llround(slope * unit);
        for (int c = 0; c <= K; c++) {
            g[c] = (c >= 2 ? llround(c * log((double)c) * pl->to_base * unit) : 0) - A * c;
            lowest = g[c] < lowest ? g[c] : lowest;
        }
        B = -lowest;
        for (int c = 0; c <= K; c++) highest = g[c] + B > highest ? g[c] + B : highest;
        if (highest < ((int64_t)1 << (8 * digits)) && K * log((double)K) * pl->to_base * unit + bp < 2147483648.0)
            break;
    }
    memset(pl->table, 0, sizeof pl->table);
    for (int c = 0; c <= K; c++)
        for (int j = 0; j < digits; j++)
            pl->table[(j * 4 + c / 16) * 16 + c % 16] = (unsigned char)((g[c] + B) >> (8 * j));
    pl->sum_unit = ldexp(1.0, -q);
    pl->per_value = A;
    pl->constant = -B * bp;
    pl->counter_bytes = (LEFT + pl->p->W + RIGHT) * bp;
    if (bp == 16) /* the half-row layout (step_row_halves): pair positions -HALF_LEFT .. h + HALF_RIGHT */
        pl->counter_bytes = (HALF_LEFT + (pl->p->W + 1) / 2 + HALF_RIGHT) * 32 > pl->counter_bytes
                                ? (HALF_LEFT + (pl->p->W + 1) / 2 + HALF_RIGHT) * 32
                                : pl->counter_bytes;
    /* Counters biased so that a window (k columns) reads c + BIAS: k x fill = BIAS mod 256 (k is odd,
     * so invertible mod 256; 176 at k = 5). */
    for (int f = 0; registers_for(pl->r) > 1 && f < 256; f++)
        if (((pl->p->k * f) & 255) == BIAS) pl->counter_fill = (unsigned char)f;
}

/* Columns [x0, x1) of the counters (col: column 0's) moved down a row: +1 at the entering
 * value, -1 at the leaving one (either row may be NULL). */
static inline __attribute__((always_inline)) void move_down(unsigned char *col, const int bp, const uint8_t *enter,
                                                             const uint8_t *leave, int64_t x0, int64_t x1)
{
    if (enter)
        for (int64_t x = x0; x < x1; x++) col[x * bp + enter[x]]++;
    if (leave)
        for (int64_t x = x0; x < x1; x++) col[x * bp + leave[x]]--;
}

/* The same for the GROUP columns from x on (c: column x's counters), unrolled: a load and a
 * byte add in memory an update. */
static inline __attribute__((always_inline)) void move_down_group(unsigned char *c, const int bp,
                                                                   const uint8_t *enter, const uint8_t *leave,
                                                                   int64_t x)
{
    if (enter)
        for (int i = 0; i < GROUP; i++) c[i * bp + enter[x + i]]++;
    if (leave)
        for (int i = 0; i < GROUP; i++) c[i * bp + leave[x + i]]--;
}

typedef struct byte_tables {
    __m256i t[4][4]; /* [byte j][register i]: the 16 entries in both 128-bit lanes */
} byte_tables;

/* Byte j of g(c) for the 32 counts c summed over each 8-byte group (vpsadbw: 4 sums in the 64-bit
 * lanes), from the registers' look-ups at indices idx. A count reads nonzero in one register at
 * most, so the even registers' look-ups (or-ed) and the odd ones' are never both nonzero in a
 * byte, and vpsadbw of the two, sum |a - b|, is sum (a + b): the two halves are added by the
 * instruction that sums the bytes (k = 5: no or, where an or and a vpsadbw against zero were). */
static inline __attribute__((always_inline)) __m256i lookup_sums(const __m256i *tj, const __m256i *idx, const int regs)
{
    if (regs == 1) return _mm256_sad_epu8(_mm256_shuffle_epi8(tj[0], idx[0]), _mm256_setzero_si256());
    __m256i even = _mm256_shuffle_epi8(tj[0], idx[0]), odd = _mm256_shuffle_epi8(tj[1], idx[1]);
    for (int i = 2; i < regs; i += 2) {
        even = _mm256_or_si256(even, _mm256_shuffle_epi8(tj[i], idx[i]));
        odd = _mm256_or_si256(odd, _mm256_shuffle_epi8(tj[i + 1], idx[i + 1]));
    }
    return _mm256_sad_epu8(even, odd);
}

/* Byte j of g(c) summed over each 8-byte group of the 32 counts c, for each j: s[j], 4 sums in
 * the 64-bit lanes (each < 2^11). w: the window's bytes, c itself with one register, c + BIAS
 * with more (counter_fill): that is register 0's index as it stands (c >= 16 -> bit 7 set -> 0),
 * and w ^ 0x80 = c - 16 register 1's (below its range it wraps to >= 0xF0): one index op at
 * k = 5 instead of two. */
static inline __attribute__((always_inline)) void digit_sums(const byte_tables *bt, __m256i w, const int regs,
                                                              const int digits, __m256i *s)
{
    const __m256i hi = _mm256_set1_epi8(0x70);
    __m256i idx[4];
    idx[0] = w;
    if (regs > 1) {
        const __m256i c16 = _mm256_xor_si256(w, _mm256_set1_epi8((char)0x80)); /* c - 16 */
        for (int i = 1; i < regs; i++) { /* c - 16i: below the range it wraps to >= 0xD0 */
            idx[i] = i == 1 ? c16 : _mm256_sub_epi8(c16, _mm256_set1_epi8((char)(16 * (i - 1))));
            if (i < regs - 1) idx[i] = _mm256_adds_epu8(idx[i], hi); /* above it: >= 0x80 */
        }
    }
    for (int j = 0; j < digits; j++) s[j] = lookup_sums(bt->t[j], idx, regs);
}

/* The window counts of the 32/BP pixels whose counters start at col: k shifted loads. */
static inline __attribute__((always_inline)) __m256i window(const unsigned char *col, const int r, const int bp)
{
    __m256i w = _mm256_loadu_si256((const __m256i *)(col - r * bp));
    for (int d = -r + 1; d <= r; d++) w = _mm256_add_epi8(w, _mm256_loadu_si256((const __m256i *)(col + d * bp)));
    return w;
}

/* Two sets of digit sums (digit_sums: a[j] = [a0 a1 | a2 a3] in 64-bit lanes, b alike) as one
 * int32 vector [a0 a1 b0 b1 | a2 a3 b2 b3] of sum_j s_j 2^(8j) (each < 2^31): vpackusdw packs
 * both sets' byte-j sums (< 2^16) in one instruction, and the digits are weighed once for both. */
static inline __attribute__((always_inline)) __m256i packed_sums(const __m256i *a, const __m256i *b, const int digits)
{
    __m256i x = _mm256_packus_epi32(a[0], b[0]);
    for (int j = 1; j < digits; j++) x = _mm256_add_epi32(x, _mm256_slli_epi32(_mm256_packus_epi32(a[j], b[j]), 8 * j));
    return x;
}

/* S of 8 pixels (their counters from col on), in pixel order, as int32: the window vectors' digit
 * sums, packed two sets at a time (packed_sums), the groups of a pixel added (vphaddd, the
 * 128-bit halves) and the pixels put in order. */
static inline __attribute__((always_inline)) __m256i pixel_sums(const byte_tables *bt, const unsigned char *col,
                                                                 const int r, const int bp, const int regs,
                                                                 const int digits)
{
    /* Sets of digit sums: bp = 8: 4 pixels a set (a group each); 16: 2 pixels (two groups each);
     * 32: a pixel (4 groups); 64: a pixel, its two vectors' sums added. */
    const int sets = bp == 8 ? 2 : bp == 16 ? 4 : GROUP;
    __m256i d[GROUP / 2];
    for (int i = 0; i < sets / 2; i++) { /* a pair of sets at a time: fewer registers live */
        __m256i s[2][4];
        for (int h = 0; h < 2; h++) {
            const unsigned char *at = col + (2 * i + h) * (bp == 64 ? 64 : 32);
            digit_sums(bt, window(at, r, bp), regs, digits, s[h]);
            if (bp == 64) {
                __m256i t[4];
                digit_sums(bt, window(at + 32, r, bp), regs, digits, t);
                for (int j = 0; j < digits; j++) s[h][j] = _mm256_add_epi64(s[h][j], t[j]);
            }
        }
        d[i] = packed_sums(s[0], s[1], digits);
    }
    if (bp == 8) /* 0 1 4 5 | 2 3 6 7 */
        return _mm256_permutevar8x32_epi32(d[0], _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7));
    if (bp == 16) /* groups added: 0 2 4 6 | 1 3 5 7 */
        return _mm256_permutevar8x32_epi32(_mm256_hadd_epi32(d[0], d[1]), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    /* groups 0+1 of pixels 0-3 | groups 2+3 of them, and 4-7 alike; then the halves added */
    const __m256i x = _mm256_hadd_epi32(d[0], d[1]), y = _mm256_hadd_epi32(d[2], d[3]);
    return _mm256_add_epi32(_mm256_permute2x128_si256(x, y, 0x20), _mm256_permute2x128_si256(x, y, 0x31));
}

/* One step (cpu_sliding_vector.h); r and bp are constants in each inlined copy. The counters are
 * moved down LEAD columns ahead of the windows being read, in the same walk: the scalar byte
 * updates (integer pipes) and the vector look-ups (vector pipes) overlap, the counters are
 * read while in L1, and a byte store has reached the cache before a 32-byte load covers it (a
 * load that overlaps a store still in flight waits for it). */
enum { LEAD = 64 };
/* Output pixels x..x+7 (fewer at the row's end). interior: x >= r and x + GROUP + r <= W, so
 * n = rows x k. move: the counters of the group LEAD columns ahead moved down here (1: a whole
 * group, 2: what is left of the row there, if any; 0: none). */
typedef struct interior_scales { /* rw's interior constants, read once a row (the byte stores may alias rw) */
    __m256 logn, inv;
    __m256i add;
} interior_scales;

static inline __attribute__((always_inline)) void out_group(const byte_tables *bt, unsigned char *col,
                                                             const uint8_t *enter, const uint8_t *leave,
                                                             const sliding_row *rw, const interior_scales *in,
                                                             float *out, int64_t W,
                                                             int64_t x, const int r, const int bp,
                                                             const int interior, const int move)
{
    if (move == 1) move_down_group(col + (x + LEAD) * bp, bp, enter, leave, x + LEAD);
    if (move == 2) {
        if (x + LEAD + GROUP <= W) move_down_group(col + (x + LEAD) * bp, bp, enter, leave, x + LEAD);
        else if (x + LEAD < W) move_down(col, bp, enter, leave, x + LEAD, W);
    }
    const __m256i sum = pixel_sums(bt, col + x * bp, r, bp, registers_for(r), digits_for(r));
    const __m256 zero = _mm256_setzero_ps();
    if (interior) {
        __m256 s = _mm256_cvtepi32_ps(_mm256_add_epi32(sum, in->add));
        _mm256_storeu_ps(out + x, _mm256_max_ps(_mm256_fnmadd_ps(s, in->inv, in->logn), zero));
    } else {
        __m256i m = tail_mask(W - x < GROUP ? W - x : GROUP);
        __m256 s = _mm256_cvtepi32_ps(_mm256_add_epi32(sum, _mm256_maskload_epi32(rw->add + x, m)));
        __m256 e = _mm256_fnmadd_ps(s, _mm256_maskload_ps(rw->inv + x, m), _mm256_maskload_ps(rw->logn + x, m));
        _mm256_maskstore_ps(out + x, m, _mm256_max_ps(e, zero)); /* no -0.0000001 */
    }
}

static inline __attribute__((always_inline)) void step_row(const byte_tables *bt, unsigned char *counters,
                                                            const uint8_t *enter, const uint8_t *leave,
                                                            const sliding_row *rw, float *out, int64_t W,
                                                            const int r, const int bp)
{
    unsigned char *col = counters + LEFT * bp;
    const interior_scales in = {_mm256_set1_ps(rw ? rw->logn_in : 0), _mm256_set1_ps(rw ? rw->inv_in : 0),
                                _mm256_set1_epi32(rw ? rw->add_in : 0)};
    if (!out || !enter || !leave) { /* no output, or the image's first or last r rows: a pass of its own */
        move_down(col, bp, enter, leave, 0, W);
        for (int64_t x = 0; out && x < W; x += GROUP) out_group(bt, col, NULL, NULL, rw, &in, out, W, x, r, bp, 0, 0);
        return;
    }
    /* The first LEAD columns moved down first; then the walk, its middle (every group interior and
     * a whole group to move) without a test. */
    int64_t x = 0;
    for (; x + GROUP <= LEAD && x + GROUP <= W; x += GROUP) move_down_group(col + x * bp, bp, enter, leave, x);
    move_down(col, bp, enter, leave, x, LEAD < W ? LEAD : W);
    out_group(bt, col, enter, leave, rw, &in, out, W, 0, r, bp, 0, 2);
    for (x = GROUP; x + LEAD + GROUP <= W; x += GROUP) out_group(bt, col, enter, leave, rw, &in, out, W, x, r, bp, 1, 1);
    for (; x < W; x += GROUP) out_group(bt, col, enter, leave, rw, &in, out, W, x, r, bp, x + GROUP + r <= W, 2);
}

/* The half-row layout at bp = 16 (HALF_LEFT): a 32-byte vector at pair position p is the counters
 * of columns p and p + h, so the window of positions p - r .. p + r holds pixel p's window counts
 * in its low lane and pixel p + h's in its high lane, and the next position's window is this one
 * plus position p + r + 1 less position p - r: two ops a window vector (byte sums mod 256 are
 * exact), where adjacent columns in a vector take about four. Four windows (8 pixels) come out
 * of vphaddd in pixel order per lane (p .. p+3 | p+h .. p+h+3): no vpermd. Columns h - r .. h + r - 1
 * sit in both lanes (lane 0 at p = x, lane 1 at p = x - h) and are moved down in both. */
static inline __attribute__((always_inline)) void move_lanes(unsigned char *c0, const uint8_t *enter,
                                                              const uint8_t *leave, int64_t h, int64_t W, int r,
                                                              int64_t p0, int64_t p1)
{
    const int64_t lane0_end = h + r < W ? h + r : W; /* lane 0: columns 0 .. h + r - 1 */
    for (int64_t p = p0 < 0 ? 0 : p0; p < p1 && p < lane0_end; p++) {
        if (enter) c0[p * 32 + enter[p]]++;
        if (leave) c0[p * 32 + leave[p]]--;
    }
    for (int64_t p = p0 < -r ? -r : p0; p < p1 && p + h < W; p++) { /* lane 1: columns h - r .. W - 1 */
        if (enter) c0[p * 32 + 16 + enter[p + h]]++;
        if (leave) c0[p * 32 + 16 + leave[p + h]]--;
    }
}

/* The HALF_GROUP positions from p (c: position p's counters) moved down in both lanes, unrolled
 * (e1, l1: the rows from column h on, so that one index p addresses all four rows). */
static inline __attribute__((always_inline)) void move_lanes_group(unsigned char *c, const uint8_t *e0,
                                                                    const uint8_t *e1, const uint8_t *l0,
                                                                    const uint8_t *l1, int64_t p)
{
    for (int i = 0; i < HALF_GROUP; i++) c[i * 32 + e0[p + i]]++;
    for (int i = 0; i < HALF_GROUP; i++) c[i * 32 + 16 + e1[p + i]]++;
    for (int i = 0; i < HALF_GROUP; i++) c[i * 32 + l0[p + i]]--;
    for (int i = 0; i < HALF_GROUP; i++) c[i * 32 + 16 + l1[p + i]]--;
}

/* S of the 8 pixels p .. p+3 (low lane) and p+h .. p+h+3 (high lane), from the window vector of
 * position p (*w, advanced to p + 4's); c0: position 0's counters. */
static inline __attribute__((always_inline)) __m256i half_sums(const byte_tables *bt, const unsigned char *c0,
                                                                __m256i *w, int64_t p, const int r,
                                                                const int regs, const int digits)
{
    __m256i s[4][4], d[2];
    for (int i = 0; i < HALF_GROUP; i++) {
        digit_sums(bt, *w, regs, digits, s[i]);
        *w = _mm256_sub_epi8(_mm256_add_epi8(*w, _mm256_load_si256((const __m256i *)(c0 + (p + i + r + 1) * 32))),
                             _mm256_load_si256((const __m256i *)(c0 + (p + i - r) * 32)));
        if (i % 2) d[i / 2] = packed_sums(s[i - 1], s[i], digits);
    }
    return _mm256_hadd_epi32(d[0], d[1]); /* groups added: p .. p+3 | p+h .. p+h+3 */
}

/* E of the 8 pixels from position p in the two lanes where either may be clipped or past the row's
 * end (lane 0: pixels p .. min(p+3, h-1); lane 1: p+h .. min(p+h+3, W-1)): per-column scales, masked. */
static inline __attribute__((always_inline)) void half_edge(const __m256i sum, const sliding_row *rw, float *out,
                                                             int64_t h, int64_t W1, int64_t p)
{
    const int64_t n0 = h - p < HALF_GROUP ? h - p : HALF_GROUP, n1 = W1 - p < 0 ? 0 : W1 - p < HALF_GROUP ? W1 - p : HALF_GROUP;
    const __m128i m0 = _mm256_castsi256_si128(tail_mask(n0)), m1 = _mm256_castsi256_si128(tail_mask(n1));
    const __m256i a = _mm256_set_m128i(_mm_maskload_epi32(rw->add + p + h, m1), _mm_maskload_epi32(rw->add + p, m0));
    const __m256 iv = _mm256_set_m128(_mm_maskload_ps(rw->inv + p + h, m1), _mm_maskload_ps(rw->inv + p, m0));
    const __m256 ln = _mm256_set_m128(_mm_maskload_ps(rw->logn + p + h, m1), _mm_maskload_ps(rw->logn + p, m0));
    const __m256 e = _mm256_max_ps(_mm256_fnmadd_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(sum, a)), iv, ln),
                                   _mm256_setzero_ps());
    _mm_maskstore_ps(out + p, m0, _mm256_castps256_ps128(e));
    _mm_maskstore_ps(out + p + h, m1, _mm256_extractf128_ps(e, 1));
}

/* One step in the half-row layout (bp = 16, W >= HALVES_MIN_W). */
static inline __attribute__((always_inline)) void step_row_halves(const byte_tables *bt, unsigned char *counters,
                                                                   const uint8_t *enter, const uint8_t *leave,
                                                                   const sliding_row *rw, float *out, int64_t W,
                                                                   const int r)
{
    const int regs = registers_for(r), digits = digits_for(r);
    const int64_t h = (W + 1) / 2, W1 = W - h; /* lane 1 outputs W1 <= h pixels */
    unsigned char *c0 = counters + HALF_LEFT * 32;
    const int both = enter && leave && out; /* moved down in the walk, LEAD positions ahead */
    if (both) { /* the first LEAD positions, unrolled (lane 1 from -r: its columns h - r ..) */
        move_lanes(c0, enter, leave, h, W, r, -r, 0);
        for (int64_t q = 0; q < LEAD; q += HALF_GROUP)
            move_lanes_group(c0 + q * 32, enter, enter + h, leave, leave + h, q);
    } else {
        move_lanes(c0, enter, leave, h, W, r, -r, h + r);
        if (!out) return;
    }
    __m256i w = _mm256_load_si256((const __m256i *)(c0 - r * 32));
    for (int d = -r + 1; d <= r; d++) w = _mm256_add_epi8(w, _mm256_load_si256((const __m256i *)(c0 + d * 32)));
    int64_t p = 0;
    if (both) {
        const __m256 logn = _mm256_set1_ps(rw->logn_in), inv = _mm256_set1_ps(rw->inv_in);
        const __m256i add = _mm256_set1_epi32(rw->add_in);
        move_lanes(c0, enter, leave, h, W, r, LEAD, LEAD + HALF_GROUP);
        half_edge(half_sums(bt, c0, &w, 0, r, regs, digits), rw, out, h, W1, 0); /* clipped at the left */
        /* the middle: interior in both lanes, whole groups to move, no tests */
        const uint8_t *e0 = enter + LEAD, *e1 = enter + LEAD + h, *l0 = leave + LEAD, *l1 = leave + LEAD + h;
        const int64_t end = W1 - HALF_GROUP - (LEAD > r ? LEAD : r); /* p <= end: the middle */
        for (p = HALF_GROUP; p <= end; p += HALF_GROUP) {
            move_lanes_group(c0 + (p + LEAD) * 32, e0, e1, l0, l1, p);
            const __m256i sum = half_sums(bt, c0, &w, p, r, regs, digits);
            const __m256 e = _mm256_max_ps(_mm256_fnmadd_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(sum, add)), inv, logn),
                                           _mm256_setzero_ps());
            _mm_storeu_ps(out + p, _mm256_castps256_ps128(e));
            _mm_storeu_ps(out + p + h, _mm256_extractf128_ps(e, 1));
        }
    }
    for (; p < h; p += HALF_GROUP) { /* the rest, or every group of a row moved down before */
        if (both && p + LEAD + HALF_GROUP <= W1)
            move_lanes_group(c0 + (p + LEAD) * 32, enter, enter + h, leave, leave + h, p + LEAD);
        else if (both)
            move_lanes(c0, enter, leave, h, W, r, p + LEAD, p + LEAD + HALF_GROUP);
        half_edge(half_sums(bt, c0, &w, p, r, regs, digits), rw, out, h, W1, p);
    }
}

/* The half-row step at k = 5 as a function of its own, on a local copy of the tables: the middle's
 * registers are then allocated for it alone (inlined into step_avx2 with the other steps, an
 * unrelated change there moved a partial sum to the stack and back in this loop), and the byte
 * stores cannot alias the tables (through bt they may: all 6 were reloaded each group). */
static __attribute__((noinline)) void step_halves_r2(const byte_tables *bt, unsigned char *counters, const uint8_t *enter,
                                                     const uint8_t *leave, const sliding_row *rw, float *out, int64_t W)
{
    const byte_tables t = *bt; /* a local: the byte stores cannot alias it (they may alias *bt) */
    step_row_halves(&t, counters, enter, leave, rw, out, W, 2);
}

static inline __attribute__((always_inline)) void step_r(const byte_tables *bt, const sliding_plan *pl,
                                                          unsigned char *counters, const uint8_t *enter,
                                                          const uint8_t *leave, const sliding_row *rw, float *out,
                                                          const int r)
{
    const int64_t W = pl->p->W;
    switch (padded_bins(pl->p->bins)) {
    case 8: step_row(bt, counters, enter, leave, rw, out, W, r, 8); break;
    case 16:
        if (r == 2 && W >= HALVES_MIN_W) step_halves_r2(bt, counters, enter, leave, rw, out, W);
        else step_row(bt, counters, enter, leave, rw, out, W, r, 16);
        break;
    case 32: step_row(bt, counters, enter, leave, rw, out, W, r, 32); break;
    default: step_row(bt, counters, enter, leave, rw, out, W, r, 64); break;
    }
}

static void step_avx2(const sliding_plan *pl, unsigned char *counters, const uint8_t *enter, const uint8_t *leave,
                      const sliding_row *rw, float *out)
{
    byte_tables bt;
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            bt.t[j][i] = _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(pl->table + (j * 4 + i) * 16)));
    switch (pl->r) {
    case 0: step_r(&bt, pl, counters, enter, leave, rw, out, 0); break;
    case 1: step_r(&bt, pl, counters, enter, leave, rw, out, 1); break;
    case 2: step_r(&bt, pl, counters, enter, leave, rw, out, 2); break;
    default: step_r(&bt, pl, counters, enter, leave, rw, out, 3); break;
    }
}

const sliding_isa pl_entropy_sliding_avx2 = {takes_avx2, plan_avx2, step_avx2};
