/* memory.c: aligned host memory, checked size arithmetic, the seeded generators, the clock,
 * the sizes and names of element types. */
#include "core/core.h"
#include "core/bf16.h"

#include <stdlib.h>
#include <time.h>

void *pl_alloc(size_t bytes)
{
    void *p = NULL;
    if (bytes == 0) bytes = 64;
    /* Round up so the whole last vector can be touched by aligned loads. */
    bytes = (bytes + 63) & ~(size_t)63;
    if (posix_memalign(&p, 64, bytes) != 0) return NULL;
    return p;
}

void pl_free(void *p) { free(p); }

int pl_mul_overflow(int64_t a, int64_t b, int64_t *out)
{
    if (a < 0 || b < 0) return 1;
    return __builtin_mul_overflow(a, b, out);
}

void pl_rng_seed(pl_rng *r, uint64_t seed) { r->s = seed * 0x9E3779B97F4A7C15ull + 1; }

uint64_t pl_rng_next(pl_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

float pl_rng_float(pl_rng *r)
{
    /* 24 random bits -> [-1, 1) in steps of 2^-23; an exact 0 becomes the smallest step. */
    int32_t v = (int32_t)(pl_rng_next(r) >> 40) - (1 << 23);
    if (v == 0) v = 1;
    return (float)v * (1.0f / (float)(1 << 23));
}

/* splitmix64's i-th draw depends only on the seed and i (its state advances by a constant),
 * so large fills split into chunks over threads and give the same values as one thread. */
/* The draws of a seed, in chunks over threads (each chunk skips to its first draw, so any thread
 * count gives the same values), stored as float32 or (bf16) rounded to bfloat16: never 0, as
 * bfloat16 keeps float32's exponents. */
static inline void fill_draws(void *x, int bf16, int64_t n, uint64_t seed)
{
    const int64_t chunk = (int64_t)1 << 20;
#pragma omp parallel for schedule(static) if (n > 4 * chunk)
    for (int64_t c0 = 0; c0 < n; c0 += chunk) {
        pl_rng r;
        pl_rng_seed(&r, seed);
        r.s += (uint64_t)c0 * 0x9E3779B97F4A7C15ull; /* skip c0 draws */
        int64_t c1 = c0 + chunk < n ? c0 + chunk : n;
        for (int64_t i = c0; i < c1; i++) {
            float v = pl_rng_float(&r);
            if (bf16) ((uint16_t *)x)[i] = pl_bf16_round(v);
            else ((float *)x)[i] = v;
        }
    }
}

void pl_fill_f32(float *x, int64_t n, uint64_t seed) { fill_draws(x, 0, n, seed); }
void pl_fill_bf16(uint16_t *x, int64_t n, uint64_t seed) { fill_draws(x, 1, n, seed); }

/* Uniform in [0, range), 1 <= range <= 2^32, without bias: Lemire's multiply-shift (the high
 * 64 bits of a 64x64-bit product), rejecting the few draws whose low half falls below
 * 2^64 mod range. Integer arithmetic only, so the same seed gives the same values anywhere. */
static uint64_t rng_below(pl_rng *r, uint64_t range)
{
    unsigned __int128 m = (unsigned __int128)pl_rng_next(r) * range;
    uint64_t low = (uint64_t)m;
    if (low < range) {
        uint64_t t = (0 - range) % range; /* 2^64 mod range */
        while (low < t) {
            m = (unsigned __int128)pl_rng_next(r) * range;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

void pl_fill_u8(uint8_t *x, int64_t n, int lo, int hi, uint64_t seed)
{
    if (lo < 0) lo = 0;
    if (hi > 255) hi = 255;
    if (lo > hi) { int t = lo; lo = hi; hi = t; }
    pl_rng r;
    pl_rng_seed(&r, seed);
    uint64_t range = (uint64_t)(hi - lo) + 1;
    for (int64_t i = 0; i < n; i++) x[i] = (uint8_t)(lo + (int)rng_below(&r, range));
}

void pl_fill_i32(int32_t *x, int64_t n, int32_t lo, int32_t hi, uint64_t seed)
{
    if (lo > hi) { int32_t t = lo; lo = hi; hi = t; }
    pl_rng r;
    pl_rng_seed(&r, seed);
    uint64_t range = (uint64_t)((int64_t)hi - lo) + 1; /* up to 2^32 */
    for (int64_t i = 0; i < n; i++) x[i] = (int32_t)((int64_t)lo + (int64_t)rng_below(&r, range));
}

void pl_fill_bits(uint64_t *words, int64_t nbits, double density, uint64_t seed)
{
    if (nbits <= 0) return;
    /* Bit set when a 32-bit draw is below density * 2^32: probability within 2^-32 of
     * density, exactly 0 and 1 at the ends. NaN counts as 0. Two draws per generator call. */
    uint64_t thr = density >= 1.0 ? UINT64_C(1) << 32
                 : density > 0.0 ? (uint64_t)(density * 4294967296.0) : 0;
    pl_rng r;
    pl_rng_seed(&r, seed);
    int64_t nw = (nbits + 63) / 64;
    for (int64_t w = 0; w < nw; w++) {
        uint64_t v = 0;
        for (int b = 0; b < 64; b += 2) {
            uint64_t z = pl_rng_next(&r);
            v |= (uint64_t)((z & 0xffffffffu) < thr) << b;
            v |= (uint64_t)((z >> 32) < thr) << (b + 1);
        }
        words[w] = v;
    }
    int tail = (int)(nbits % 64);
    if (tail) words[nw - 1] &= (UINT64_C(1) << tail) - 1;
}

double pl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------- element types */

size_t pl_dtype_size(pl_dtype t)
{
    switch (t) {
    case PL_F32: return 4;
    case PL_F64: return 8;
    case PL_I32: return 4;
    case PL_U8: return 1;
    case PL_U16: return 2;
    case PL_BF16: return 2;
    }
    return 0;
}

uint16_t pl_bf16_from_f32(float x) { return pl_bf16_round(x); }
float pl_bf16_to_f32(uint16_t b) { return pl_bf16_widen(b); }

void pl_bf16_from_f32_array(uint16_t *dst, const float *src, int64_t n)
{
#pragma omp parallel for schedule(static) if (n > ((int64_t)1 << 22))
    for (int64_t i = 0; i < n; i++) dst[i] = pl_bf16_round(src[i]);
}

void pl_bf16_to_f32_array(float *dst, const uint16_t *src, int64_t n)
{
#pragma omp parallel for schedule(static) if (n > ((int64_t)1 << 22))
    for (int64_t i = 0; i < n; i++) dst[i] = pl_bf16_widen(src[i]);
}

const char *pl_dtype_name(pl_dtype t)
{
    switch (t) {
    case PL_F32: return "float32";
    case PL_F64: return "float64";
    case PL_I32: return "int32";
    case PL_U8: return "uint8";
    case PL_U16: return "uint16";
    case PL_BF16: return "bfloat16";
    }
    return "?";
}
