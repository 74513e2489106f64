/* core.h: what every part of parlab shares inside the library (not public).
 * Status messages, the context, aligned host memory, checked size arithmetic, the seeded
 * generator, the clock and CPU features. Device memory and events are in device.h. */
#ifndef PL_CORE_H
#define PL_CORE_H

#include "parlab.h"
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Set this thread's error message and return s: `return pl_fail(PL_ERR_ARG, "M=%lld", m);` */
pl_status pl_fail(pl_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pl_clear_error(void);

struct pl_ctx {
    pl_backend backend; /* CPU or CUDA, never AUTO once created */
    int device;
    int threads;
    void *stream;       /* cudaStream_t, owned */
    void *cublas;       /* cublasHandle_t, created on first use by the cuBLAS peers */
};

/* Set by the cuBLAS peers when they create ctx->cublas, so pl_ctx_destroy can free it. */
extern void (*pl_ctx_cublas_destroy)(void *handle);

/* Host memory aligned to 64 bytes (a cache line, an AVX-512 vector). NULL on failure. */
void *pl_alloc(size_t bytes);
void pl_free(void *p);

/* a*b into *out; 0 on success, 1 on overflow or a negative operand. */
int pl_mul_overflow(int64_t a, int64_t b, int64_t *out);

/* splitmix64: a tiny, well-mixed generator; the same seed gives the same inputs on any machine. */
typedef struct pl_rng { uint64_t s; } pl_rng;
void pl_rng_seed(pl_rng *r, uint64_t seed);
uint64_t pl_rng_next(pl_rng *r);
/* Uniform in [-1, 1), never exactly 0 (zeros hide unwritten outputs and indexing bugs). */
float pl_rng_float(pl_rng *r);
void pl_fill_f32(float *x, int64_t n, uint64_t seed);
/* Seeded integer inputs, unbiased (multiply-shift with rejection), the same on any machine.
 * pl_fill_u8: uniform in [lo, hi] inclusive, lo and hi clamped to 0..255 (swapped if lo > hi).
 * pl_fill_i32: uniform in [lo, hi] inclusive, any range up to 2^32 values (swapped if lo > hi).
 * pl_fill_bits: a Life soup of nbits bits in (nbits + 63) / 64 words, bit i of the array is bit
 * i % 64 of words[i / 64]; each set with probability density (clamped to [0, 1]); the bits
 * past nbits in the last word are zero. */
void pl_fill_u8(uint8_t *x, int64_t n, int lo, int hi, uint64_t seed);
void pl_fill_i32(int32_t *x, int64_t n, int32_t lo, int32_t hi, uint64_t seed);
void pl_fill_bits(uint64_t *words, int64_t nbits, double density, uint64_t seed);

/* Monotonic wall clock, seconds. */
double pl_now(void);

/* CPU: PL_FEAT_AVX2 | PL_FEAT_AVX512 as this CPU and OS support them. */
unsigned pl_cpu_features(void);
int pl_cpu_cores(void);

#ifdef __cplusplus
}
#endif
#endif
