/* test_fill.c: the seeded input generators of src/core/memory.c (pl_fill_u8, pl_fill_i32,
 * pl_fill_bits). For each: the same seed gives the same output (and a known first values
 * table, so a change of the stream on another machine or compiler shows), other seeds give
 * other output, every value of a small range is reached and none outside it, the end points
 * of the full int32 range are reachable, and the mean (density) is within 6 sigma of its
 * expected value: a correct generator fails that with probability ~2e-9 per check, and the
 * seeds are fixed, so the test is deterministic. Bits past nbits are zero. */
#include "core/core.h"
#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { N = 200000 };

/* |mean - mu| <= 6 sigma / sqrt(n) */
static int mean_ok(double sum, int64_t n, double mu, double sigma)
{
    return fabs(sum / (double)n - mu) <= 6.0 * sigma / sqrt((double)n);
}

static void test_u8(void)
{
    uint8_t *a = malloc(N), *b = malloc(N);
    CHECK(a && b, "allocation");
    if (!a || !b) goto out;

    /* Determinism and seeds. */
    pl_fill_u8(a, N, 0, 255, 42);
    pl_fill_u8(b, N, 0, 255, 42);
    CHECK(memcmp(a, b, N) == 0, "u8: the same seed gave different output");
    pl_fill_u8(b, N, 0, 255, 43);
    int same = 0;
    for (int i = 0; i < N; i++) same += a[i] == b[i];
    CHECK(same < N / 128, "u8: seeds 42 and 43 agree on %d of %d values", same, N);

    /* Ranges: every value reached, none outside; the mean within 6 sigma. */
    static const int ranges[][2] = {{0, 255}, {3, 10}, {0, 1}, {7, 7}, {200, 255}, {0, 2}};
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        int lo = ranges[r][0], hi = ranges[r][1];
        memset(a, 0xEE, N);
        pl_fill_u8(a, N, lo, hi, 1000 + r);
        int64_t hits[256] = {0};
        int outside = 0;
        double sum = 0;
        for (int i = 0; i < N; i++) {
            if (a[i] < lo || a[i] > hi) outside++;
            hits[a[i]]++;
            sum += a[i];
        }
        CHECK(outside == 0, "u8 [%d, %d]: %d values outside", lo, hi, outside);
        int missing = 0;
        for (int v = lo; v <= hi; v++) missing += hits[v] == 0;
        CHECK(missing == 0, "u8 [%d, %d]: %d values never drawn (lo %lld times, hi %lld times)", lo, hi,
              missing, (long long)hits[lo], (long long)hits[hi]);
        double w = hi - lo + 1, mu = (lo + hi) / 2.0, sigma = sqrt((w * w - 1) / 12.0);
        if (hi > lo)
            CHECK(mean_ok(sum, N, mu, sigma), "u8 [%d, %d]: mean %.4f, expected %.4f +- %.4f", lo, hi,
                  sum / N, mu, 6 * sigma / sqrt((double)N));
        /* Each value's count within 6 sigma of the binomial N/w (catches a lumpy mapping). */
        double p = 1.0 / w, sd = sqrt(N * p * (1 - p));
        int lumpy = 0;
        for (int v = lo; v <= hi && w > 1; v++) lumpy += fabs((double)hits[v] - N * p) > 6 * sd;
        CHECK(lumpy == 0, "u8 [%d, %d]: %d values drawn too often or too rarely", lo, hi, lumpy);
    }
    /* Clamping and swapped bounds, as core.h states. */
    pl_fill_u8(a, 1000, -5, 300, 9);
    pl_fill_u8(b, 1000, 0, 255, 9);
    CHECK(memcmp(a, b, 1000) == 0, "u8: [-5, 300] is not clamped to [0, 255]");
    pl_fill_u8(a, 1000, 10, 3, 9);
    pl_fill_u8(b, 1000, 3, 10, 9);
    CHECK(memcmp(a, b, 1000) == 0, "u8: [10, 3] is not the same as [3, 10]");
out:
    free(a);
    free(b);
}

static void test_i32(void)
{
    int32_t *a = malloc(sizeof(int32_t) * N), *b = malloc(sizeof(int32_t) * N);
    CHECK(a && b, "allocation");
    if (!a || !b) goto out;

    pl_fill_i32(a, N, INT32_MIN, INT32_MAX, 7);
    pl_fill_i32(b, N, INT32_MIN, INT32_MAX, 7);
    CHECK(memcmp(a, b, sizeof(int32_t) * N) == 0, "i32: the same seed gave different output");
    pl_fill_i32(b, N, INT32_MIN, INT32_MAX, 8);
    int same = 0;
    for (int i = 0; i < N; i++) same += a[i] == b[i];
    CHECK(same < 10, "i32: seeds 7 and 8 agree on %d of %d values", same, N);

    /* Full range: the mean within 6 sigma of -0.5 (sigma = 2^32 / sqrt 12). */
    double sum = 0;
    for (int i = 0; i < N; i++) sum += a[i];
    CHECK(mean_ok(sum, N, -0.5, 4294967296.0 / sqrt(12.0)), "i32 full range: mean %.1f", sum / N);
    /* Every bit position is 1 about half the time (a value made of 31 or fewer random bits,
     * or a mapping that never reaches the top or bottom, shows here). */
    int bad_bits = 0;
    for (int bit = 0; bit < 32; bit++) {
        int64_t ones = 0;
        for (int i = 0; i < N; i++) ones += ((uint32_t)a[i] >> bit) & 1;
        bad_bits += fabs((double)ones - N / 2.0) > 6 * sqrt(N / 4.0);
    }
    CHECK(bad_bits == 0, "i32 full range: %d bit positions are not 1 half the time", bad_bits);

    /* Small ranges, including negative ones and ones at the int32 limits: every value
     * reached, none outside, the mean within 6 sigma. */
    static const int32_t ranges[][2] = {
        {-3, 3}, {0, 0}, {-1000, -990}, {INT32_MIN, INT32_MIN + 4}, {INT32_MAX - 4, INT32_MAX}, {5, 6},
    };
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        int32_t lo = ranges[r][0], hi = ranges[r][1];
        pl_fill_i32(a, N, lo, hi, 500 + r);
        int64_t w = (int64_t)hi - lo + 1, hits[16] = {0};
        int outside = 0;
        double s = 0;
        for (int i = 0; i < N; i++) {
            if (a[i] < lo || a[i] > hi) {
                outside++;
                continue;
            }
            hits[(int64_t)a[i] - lo]++;
            s += (double)((int64_t)a[i] - lo);
        }
        CHECK(outside == 0, "i32 [%d, %d]: %d values outside", lo, hi, outside);
        int missing = 0;
        for (int64_t v = 0; v < w; v++) missing += hits[v] == 0;
        CHECK(missing == 0, "i32 [%d, %d]: %d values never drawn", lo, hi, missing);
        if (w > 1)
            CHECK(mean_ok(s, N, (w - 1) / 2.0, sqrt((double)(w * w - 1) / 12.0)),
                  "i32 [%d, %d]: mean offset %.4f, expected %.4f", lo, hi, s / N, (w - 1) / 2.0);
    }
    /* A range of 3 * 2^30 values (not a power of two, where a plain modulo is visibly
     * biased: values below 2^30 would come 1/2 more often). The share of values in the
     * lowest third is 1/3 within 6 sigma. */
    pl_fill_i32(a, N, INT32_MIN, (int32_t)(INT32_MIN + 3 * (INT64_C(1) << 30) - 1), 77);
    int64_t low = 0, outside = 0;
    for (int i = 0; i < N; i++) {
        int64_t off = (int64_t)a[i] - INT32_MIN;
        if (off >= 3 * (INT64_C(1) << 30)) outside++;
        low += off < (INT64_C(1) << 30);
    }
    CHECK(outside == 0, "i32 3*2^30 range: %lld values outside", (long long)outside);
    CHECK(fabs((double)low - N / 3.0) <= 6 * sqrt(N * (1 / 3.0) * (2 / 3.0)),
          "i32 3*2^30 range: %lld of %d in the lowest third, expected %.0f", (long long)low, N, N / 3.0);
    pl_fill_i32(a, 1000, 9, -9, 3);
    pl_fill_i32(b, 1000, -9, 9, 3);
    CHECK(memcmp(a, b, 1000 * sizeof(int32_t)) == 0, "i32: [9, -9] is not the same as [-9, 9]");
out:
    free(a);
    free(b);
}

static int64_t popcount_words(const uint64_t *w, int64_t nw)
{
    int64_t n = 0;
    for (int64_t i = 0; i < nw; i++) n += __builtin_popcountll(w[i]);
    return n;
}

static void test_bits(void)
{
    enum { NB = 1 << 20, NW = NB / 64 + 1 };
    uint64_t *a = malloc(sizeof(uint64_t) * NW), *b = malloc(sizeof(uint64_t) * NW);
    CHECK(a && b, "allocation");
    if (!a || !b) goto out;

    pl_fill_bits(a, NB, 0.3, 11);
    pl_fill_bits(b, NB, 0.3, 11);
    CHECK(memcmp(a, b, NB / 8) == 0, "bits: the same seed gave different output");
    pl_fill_bits(b, NB, 0.3, 12);
    CHECK(memcmp(a, b, NB / 8) != 0, "bits: seeds 11 and 12 gave the same soup");

    /* Density: the count of set bits within 6 sigma of nbits * p, for several p; 0 and 1
     * exactly. Also per bit position in the word (a soup whose bit 63 is never set would
     * pass the overall count). */
    static const double dens[] = {0.5, 0.3, 0.05, 0.9, 1.0 / 3.0};
    for (size_t d = 0; d < sizeof dens / sizeof dens[0]; d++) {
        double p = dens[d];
        pl_fill_bits(a, NB, p, 100 + d);
        int64_t ones = popcount_words(a, NB / 64);
        double sd = sqrt(NB * p * (1 - p));
        CHECK(fabs((double)ones - NB * p) <= 6 * sd, "bits density %.3f: %lld of %d set, expected %.0f +- %.0f",
              p, (long long)ones, NB, NB * p, 6 * sd);
        int bad_pos = 0;
        for (int bit = 0; bit < 64; bit++) {
            int64_t c = 0;
            for (int64_t w = 0; w < NB / 64; w++) c += (a[w] >> bit) & 1;
            double n = NB / 64, sdb = sqrt(n * p * (1 - p));
            bad_pos += fabs((double)c - n * p) > 6 * sdb;
        }
        CHECK(bad_pos == 0, "bits density %.3f: %d bit positions off their density", p, bad_pos);
    }
    pl_fill_bits(a, NB, 0.0, 5);
    CHECK(popcount_words(a, NB / 64) == 0, "bits density 0: some bit set");
    pl_fill_bits(a, NB, 1.0, 5);
    CHECK(popcount_words(a, NB / 64) == NB, "bits density 1: some bit clear");
    pl_fill_bits(a, NB, NAN, 5);
    CHECK(popcount_words(a, NB / 64) == 0, "bits density NaN: some bit set (should count as 0)");

    /* Tail: for nbits not a multiple of 64, the bits past nbits in the last word are zero
     * (the words are pre-filled with ones), and the word after is untouched. */
    static const int64_t tails[] = {1, 63, 65, 100, 127, 129, 64 * 7 + 5};
    for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
        int64_t nbits = tails[t], nw = (nbits + 63) / 64;
        memset(a, 0xFF, sizeof(uint64_t) * (size_t)(nw + 1));
        pl_fill_bits(a, nbits, 1.0, 3);
        uint64_t want = (UINT64_C(1) << (nbits % 64)) - 1;
        CHECK(a[nw - 1] == want, "bits nbits=%lld density 1: last word %016llx, want %016llx",
              (long long)nbits, (unsigned long long)a[nw - 1], (unsigned long long)want);
        CHECK(a[nw] == ~UINT64_C(0), "bits nbits=%lld: wrote past the last word", (long long)nbits);
        memset(a, 0xFF, sizeof(uint64_t) * (size_t)(nw + 1));
        pl_fill_bits(a, nbits, 0.5, 3);
        CHECK((a[nw - 1] & ~want) == 0, "bits nbits=%lld density 0.5: tail bits set", (long long)nbits);
    }
    /* A prefix of a soup is the soup of the prefix (bit i depends on the seed and i only). */
    pl_fill_bits(a, NB, 0.4, 21);
    pl_fill_bits(b, 1000, 0.4, 21);
    CHECK(memcmp(a, b, 15 * 8) == 0 && b[15] == (a[15] & ((UINT64_C(1) << (1000 % 64)) - 1)),
          "bits: the first 1000 bits differ from the 1000-bit soup");
out:
    free(a);
    free(b);
}

/* The streams themselves: the first values for seed 1, as computed by this implementation
 * (splitmix64 + multiply-shift). A compiler, platform or refactoring that changes the
 * inputs every benchmark uses fails here. */
static void test_known_values(void)
{
    uint8_t u[8];
    int32_t v[4];
    uint64_t w[2];
    pl_fill_u8(u, 8, 0, 255, 1);
    pl_fill_i32(v, 4, -1000000, 1000000, 1);
    pl_fill_bits(w, 100, 0.5, 1);
    static const uint8_t u_want[8] = {190, 248, 113, 113, 195, 224, 133, 73};
    static const int32_t v_want[4] = {491564, 942006, -111282, -111471};
    static const uint64_t w_want[2] = {UINT64_C(0xc5d2bbd52cddd0a1), UINT64_C(0x0000000d7d0c415f)};
    CHECK(memcmp(u, u_want, sizeof u) == 0, "u8 seed 1: %u %u %u %u ...", u[0], u[1], u[2], u[3]);
    CHECK(memcmp(v, v_want, sizeof v) == 0, "i32 seed 1: %d %d %d %d", v[0], v[1], v[2], v[3]);
    CHECK(memcmp(w, w_want, sizeof w) == 0, "bits seed 1: %016llx %016llx", (unsigned long long)w[0],
          (unsigned long long)w[1]);
}

/* pl_fill_f32 fills large arrays in chunks over threads: the values are those of one
 * sequential stream, whatever the thread count. */
static void test_f32_chunks(void)
{
    int64_t n = ((int64_t)5 << 20) + 123;
    float *x = malloc(sizeof(float) * (size_t)n);
    if (!x) {
        CHECK(0, "out of memory");
        return;
    }
    pl_fill_f32(x, n, 77);
    pl_rng r;
    pl_rng_seed(&r, 77);
    int64_t bad = -1;
    for (int64_t i = 0; i < n && bad < 0; i++)
        if (x[i] != pl_rng_float(&r)) bad = i;
    CHECK(bad < 0, "pl_fill_f32 differs from the sequential stream at element %lld", (long long)bad);
    free(x);
}

int main(void)
{
    test_f32_chunks();
    test_u8();
    test_i32();
    test_bits();
    test_known_values();
    return check_summary("fill");
}
