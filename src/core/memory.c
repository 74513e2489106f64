/* memory.c: aligned host memory, checked size arithmetic, the seeded generator, the clock. */
#include "core/core.h"

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

void pl_fill_f32(float *x, int64_t n, uint64_t seed)
{
    pl_rng r;
    pl_rng_seed(&r, seed);
    for (int64_t i = 0; i < n; i++) x[i] = pl_rng_float(&r);
}

double pl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
