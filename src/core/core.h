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
/* A user's rung returned rc (include/parlab_rung.h): PL_OK for 0, else PL_ERR_VERIFY naming the
 * rung and the value. The rooms' call_user adapters end with it. */
pl_status pl_rung_returned(const pl_run_args *a, int rc);
/* A user's rung takes the CUDA signature (device pointers, then the stream) when its variant is a
 * CUDA one, whatever the stream (NULL: the legacy default stream); the CPU signature else. */
static inline int pl_rung_on_device(const pl_run_args *a)
{
    return a->variant ? a->variant->backend == PL_BACKEND_CUDA : a->stream != NULL;
}
void pl_clear_error(void);

/* Slots of the services a context holds. Rooms name their own slots in their private headers
 * (e.g. PL_GEMM_WS_* in kernels/gemm/cuda_splitk.cuh) within these counts. */
enum {
    PL_CTX_HANDLE_CUBLAS = 0, /* cublasHandle_t of the cuBLAS peers */
    PL_CTX_HANDLE_CUDNN = 1,  /* cudnnHandle_t (next) */
    PL_CTX_HANDLE_ORDER = 2,  /* pl_run_device's two events that order a rung in the caller's stream */
    PL_CTX_HANDLE_SLOTS = 4,
    PL_CTX_DEV_WS_SLOTS = 12, /* device workspaces (gemm 0-3, gemv 4, conv2d 5, reduce 6-7, life 8) */
    PL_CTX_HOST_WS_SLOTS = 4, /* host workspaces */
    PL_CTX_STATE_SLOTS = 16   /* keyed per-context states (pl_ctx_state) */
};

/* A context: one backend, one device, one stream, and everything a rung keeps between calls
 * (library handles, workspaces, per-device tables), so two contexts on two threads (or two
 * devices) share nothing. One thread at a time uses a given context; all of it is freed by
 * pl_ctx_destroy. */
struct pl_ctx {
    pl_backend backend; /* CPU or CUDA, never AUTO once created */
    int device;
    int threads;
    int sm_count;       /* the device's multiprocessors (CUDA contexts; 0 on the CPU) */
    void *stream;       /* cudaStream_t, owned */
    struct {
        void *h;                    /* library handle, created on first use */
        void (*destroy)(void *h);   /* how pl_ctx_destroy frees it, given by its creator */
    } handle[PL_CTX_HANDLE_SLOTS];
    void *dev_ws[PL_CTX_DEV_WS_SLOTS];   /* device workspaces, grow-only */
    size_t dev_ws_bytes[PL_CTX_DEV_WS_SLOTS];
    void *host_ws[PL_CTX_HOST_WS_SLOTS]; /* host workspaces (64-byte aligned), grow-only */
    size_t host_ws_bytes[PL_CTX_HOST_WS_SLOTS];
    struct {
        const void *key; /* the address of something static in the rung that owns it */
        void *state;
    } state[PL_CTX_STATE_SLOTS];
    const volatile int *cancel; /* the caller's cancel flag (pl_ctx_set_cancel); NULL: none */
};

/* 1 when ctx's cancel flag is set (a long call should stop with PL_ERR_CANCELLED). */
int pl_ctx_cancelled(const pl_ctx *ctx);

/* Make ctx's device current on the calling thread (cudaSetDevice); PL_OK and nothing else for
 * a CPU context. Call it once on a thread before running CUDA rungs with ctx there. */
pl_status pl_ctx_activate(const pl_ctx *ctx);

/* Library handle `slot` (PL_CTX_HANDLE_*) of ctx: made by create(ctx, &h) on first use and
 * kept, with `destroy`, until pl_ctx_destroy. */
pl_status pl_ctx_handle(pl_ctx *ctx, int slot, pl_status (*create)(pl_ctx *ctx, void **h),
                        void (*destroy)(void *h), void **h);
/* The context's cuBLAS handle (the PL_CTX_HANDLE_CUBLAS slot, made on first use), bound to
 * stream: every room's cuBLAS peer takes it here (src/core/cublas.cu, CUDA builds only). */
pl_status pl_ctx_cublas(pl_ctx *ctx, void *stream, void **handle);

/* Device workspace `slot` (< PL_CTX_DEV_WS_SLOTS) of at least `bytes` on ctx's device, grown
 * (old contents lost) when too small and kept for the next call; for use on ctx->stream. */
pl_status pl_ctx_dev_workspace(pl_ctx *ctx, int slot, size_t bytes, void **p);

/* Host workspace `slot` (< PL_CTX_HOST_WS_SLOTS), 64-byte aligned, grown like the device ones.
 * For the thread using ctx; a rung's OpenMP workers share it in slices. */
pl_status pl_ctx_host_workspace(pl_ctx *ctx, int slot, size_t bytes, void **p);

/* The state a rung keeps per context (per device): the first call for `key` allocates `bytes`
 * (zeroed) and runs init(ctx, state) (on failure nothing is kept, the next call tries again);
 * later calls return the same state. Freed (plain memory) by pl_ctx_destroy. */
pl_status pl_ctx_state(pl_ctx *ctx, const void *key, size_t bytes, pl_status (*init)(pl_ctx *ctx, void *state),
                       void **state);

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
/* pl_fill_f32's draws, each rounded to bfloat16 (stored as its bits). */
void pl_fill_bf16(uint16_t *x, int64_t n, uint64_t seed);
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
/* What the CPU has but PARLAB_ISA_MAX=avx2|none hides (0 when nothing is hidden), and whether
 * PARLAB_ISA_MAX holds a value other than avx512, avx2, none or empty (then nothing is hidden). */
unsigned pl_cpu_features_hidden(void);
int pl_cpu_isa_max_bad(void);
int pl_cpu_cores(void);
/* The size in bytes of this CPU's level-`level` data (or unified) cache, from
 * /sys/devices/system/cpu/cpu0/cache, else sysconf; 0 where neither says. */
int64_t pl_cpu_cache_bytes(int level);
/* The last-level cache: L3, else L2, else fallback. */
int64_t pl_cpu_llc_bytes(int64_t fallback);
/* The SIMD rungs' `isa` parameter: its names, and the pick of a value (0 auto: AVX-512 where
 * the CPU has it, 1 avx2, 2 avx512): *avx512 = 1 or 0; an ISA this CPU lacks is
 * PL_ERR_UNSUPPORTED with the reason. */
extern const char *const pl_isa_choices[4]; /* "auto", "avx2", "avx512", NULL */
pl_status pl_isa_pick(int64_t choice, int *avx512);
/* How many bands to cut `rows` into for threads that take them as they finish (OpenMP
 * schedule(dynamic, 1)), so that a core running slower (shared, or clocked down) takes fewer:
 * about `per_thread` a thread, each at least `min_rows` high, but at least one a thread and at
 * most one a row (at least 1). */
int64_t pl_dynamic_bands(int64_t rows, int threads, int per_thread, int64_t min_rows);

#ifdef __cplusplus
}
#endif
#endif
