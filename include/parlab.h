/* parlab.h: the public C API of parlab, a lab of parallel kernels.
 *
 * Four parts:
 *   1. status codes and the context (backend, device, threads);
 *   2. BLAS-like calls (pl_sgemm, ...) that run the best rung the context can run;
 *   3. the registry: kernels, their ladders of variants, parameters;
 *   4. the harness: seeded inputs, float64 reference, verification, timing, peaks;
 *      and the .npy file format.
 *
 * Library code never prints and never exits: every call returns a pl_status, and on failure
 * pl_last_error() holds a message for this thread that names the problem.
 */
#ifndef PARLAB_H
#define PARLAB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PARLAB_VERSION "0.1.0"

/* ---------------------------------------------------------------- 1. status, context */

typedef enum pl_status {
    PL_OK = 0,
    PL_ERR_ARG,          /* a bad argument: size <= 0, ld < row, unknown name, bad value */
    PL_ERR_OVERFLOW,     /* sizes whose product does not fit */
    PL_ERR_NOMEM,        /* host allocation failed */
    PL_ERR_DEVICE_NOMEM, /* device allocation failed */
    PL_ERR_NO_CUDA,      /* this build has no CUDA */
    PL_ERR_NO_GPU,       /* this machine has no usable GPU */
    PL_ERR_UNSUPPORTED,  /* this machine or build cannot run it (ISA, missing peer library) */
    PL_ERR_CUDA,         /* a CUDA call failed */
    PL_ERR_IO,           /* a file could not be opened, read or written */
    PL_ERR_FORMAT,       /* a file is malformed, truncated or of the wrong type */
    PL_ERR_VERIFY,       /* a result failed verification */
    PL_ERR_INTERNAL
} pl_status;

const char *pl_status_name(pl_status s);
/* The message of this thread's last failure ("" if none). */
const char *pl_last_error(void);

typedef enum pl_backend {
    PL_BACKEND_AUTO = 0, /* CUDA if a GPU is usable, else CPU */
    PL_BACKEND_CPU,
    PL_BACKEND_CUDA
} pl_backend;
const char *pl_backend_name(pl_backend b);

typedef struct pl_ctx pl_ctx;

/* threads <= 0: one per core (OMP_NUM_THREADS if set). device: CUDA device ordinal. */
pl_status pl_ctx_create(pl_ctx **ctx, pl_backend backend, int device, int threads);
void pl_ctx_destroy(pl_ctx *ctx);
pl_backend pl_ctx_backend(const pl_ctx *ctx);
int pl_ctx_threads(const pl_ctx *ctx);
int pl_ctx_device(const pl_ctx *ctx);
pl_status pl_ctx_set_threads(pl_ctx *ctx, int threads);

/* What this build has and what this machine can do. */
enum {
    PL_FEAT_AVX2 = 1u << 0,     /* CPU: AVX2 + FMA */
    PL_FEAT_AVX512 = 1u << 1,   /* CPU: AVX-512 F */
    PL_FEAT_CUDA_BUILD = 1u << 2,
    PL_FEAT_GPU = 1u << 3,      /* a CUDA device is usable */
    PL_FEAT_OPENBLAS = 1u << 4, /* built with OpenBLAS (CPU peer) */
    PL_FEAT_CUBLAS = 1u << 5    /* built with cuBLAS (GPU peer) */
};
unsigned pl_features(void);
/* One line: "x86-64 AVX2 AVX-512, 2 cores; CUDA build; GPU: NVIDIA H100 80GB HBM3 (sm_90)". */
const char *pl_machine_summary(void);
const char *pl_cpu_name(void);
const char *pl_gpu_name(void); /* "" when none */

/* ---------------------------------------------------------------- 2. BLAS-like calls */

/* C = alpha*A*B + beta*C, row-major. A is M x K (lda >= K), B is K x N (ldb >= N),
 * C is M x N (ldc >= N). Host pointers; with a CUDA context the data travels to the device
 * and back. beta == 0 means C is not read (NaN in C does not propagate). Runs the best
 * GEMM rung the context can run (see pl_gemm_best_variant). */
pl_status pl_sgemm(pl_ctx *ctx, int64_t M, int64_t N, int64_t K, float alpha, const float *A,
                   int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc);
/* Same with a named variant ("cpu-naive", "cuda-shared", ...); params may be NULL for
 * the variant's defaults. */
pl_status pl_sgemm_variant(pl_ctx *ctx, const char *variant, const int64_t *params, int64_t M,
                           int64_t N, int64_t K, float alpha, const float *A, int64_t lda,
                           const float *B, int64_t ldb, float beta, float *C, int64_t ldc);
const char *pl_gemm_best_variant(const pl_ctx *ctx);

/* ---------------------------------------------------------------- 3. registry */

typedef enum pl_dtype { PL_F32 = 0, PL_F64, PL_I32, PL_U8 } pl_dtype;
size_t pl_dtype_size(pl_dtype t);
const char *pl_dtype_name(pl_dtype t);

/* A parameter: of a variant (tile, block) or of a kernel's problem (alpha, op, axis, gens).
 * Legal values are a list of integers, an integer range (with a step), or a list of names
 * (the value is then the index of the name). */
typedef enum pl_param_kind { PL_PARAM_LIST = 0, PL_PARAM_RANGE, PL_PARAM_CHOICE, PL_PARAM_REAL } pl_param_kind;
typedef struct pl_param_def {
    const char *name;
    const char *help;
    pl_param_kind kind;
    const int64_t *values; int n_values; /* PL_PARAM_LIST */
    int64_t min, max, step;              /* PL_PARAM_RANGE: min..max, multiples of step */
    const char *const *choices;          /* PL_PARAM_CHOICE: NULL-terminated names */
    double def;                          /* default value (index for CHOICE) */
} pl_param_def;

/* Parse "16" (or a choice name, or a real) for this parameter; a clear error names the
 * legal values. */
pl_status pl_param_parse(const pl_param_def *p, const char *text, double *value);
/* "4, 8, 16, 32" / "8..1024 step 8" / "sum|mean|max" */
void pl_param_legal(const pl_param_def *p, char *buf, size_t n);

enum { PL_MAX_PARAMS = 8, PL_MAX_OPERANDS = 64, PL_MAX_PEERS = 4 };

/* Requirements a variant states; pl_variant_check() turns a missing one into a reason. */
enum {
    PL_REQ_AVX2 = PL_FEAT_AVX2,
    PL_REQ_AVX512 = PL_FEAT_AVX512,
    PL_REQ_CUDA = PL_FEAT_CUDA_BUILD | PL_FEAT_GPU,
    PL_REQ_OPENBLAS = PL_FEAT_OPENBLAS,
    PL_REQ_CUBLAS = PL_FEAT_CUBLAS | PL_FEAT_CUDA_BUILD | PL_FEAT_GPU
};

/* Arithmetic a variant uses; the kernel's error bound depends on it. */
typedef enum pl_precision { PL_PREC_FP32 = 0, PL_PREC_TF32, PL_PREC_EXACT } pl_precision;

/* What a run function receives. data[i] is operand i's storage: host memory for CPU
 * variants, device memory for CUDA variants. params[] are the variant's parameter values in
 * the order of its param list. stream is the cudaStream_t to launch on (NULL on the CPU). */
typedef struct pl_run_args {
    pl_ctx *ctx;
    const void *problem; /* the kernel's own problem struct (e.g. pl_gemm_problem) */
    void *const *data;
    int n_data;
    const int64_t *params;
    void *stream;
} pl_run_args;

typedef struct pl_variant {
    const char *name;  /* "cuda-shared" */
    const char *idea;  /* one line: "A and B tiles staged in shared memory" */
    pl_backend backend;
    int is_peer;       /* a library parlab compares against, not a parlab rung */
    unsigned requires; /* PL_REQ_* */
    pl_precision precision;
    const pl_param_def *params;
    int n_params;
    pl_status (*run)(const pl_run_args *a); /* NULL when this build lacks it */
} pl_variant;

/* An operand of a kernel, as the harness holds it: a 2-D view (rows x cols, leading
 * dimension ld in elements; a vector is 1 x n). The harness owns the storage. */
typedef enum pl_role { PL_IN = 0, PL_OUT, PL_INOUT } pl_role;
typedef struct pl_tensor {
    const char *name; /* "A", "C", "grid" */
    pl_dtype dtype;
    pl_role role;     /* PL_OUT operands are poisoned before each run */
    int64_t rows, cols, ld;
    void *host;
} pl_tensor;
/* Elements of storage a tensor spans: (rows-1)*ld + cols. */
int64_t pl_tensor_span(const pl_tensor *t);

typedef struct pl_problem pl_problem;

typedef struct pl_kernel {
    const char *name;    /* "gemm" */
    const char *summary; /* "C = alpha*A*B + beta*C, row-major" */
    const char *size_help; /* "N (square) or MxNxK" */
    const pl_param_def *problem_params; /* alpha, beta, op, axis, gens, ... */
    int n_problem_params;
    const pl_variant *const *ladder; /* in order, the rungs then the peers */
    int n_variants;
    /* --- the spec; see src/harness/harness.h for the contract --- */
    size_t problem_size; /* sizeof the kernel's problem struct */
    /* Fill the problem struct from a size string ("1024", "33x65x17") and problem params. */
    pl_status (*make_problem)(void *problem, const char *size, const double *pvals);
    void (*describe)(const void *problem, char *buf, size_t n); /* "1024x1024x1024" */
    /* Describe the operands: fill t[0..*n) (shapes, dtype, role); *n <= PL_MAX_OPERANDS. */
    pl_status (*operands)(const void *problem, pl_tensor *t, int *n);
    /* Fill input operands from a seeded generator (never zeros). */
    void (*fill)(const void *problem, pl_tensor *t, int n, uint64_t seed);
    /* Compute the reference: for each output operand i, ref[i] (float64 for float outputs,
     * the output's own dtype for exact kernels). */
    pl_status (*reference)(const void *problem, const pl_tensor *t, int n, pl_tensor *ref);
    /* Error bound for relative Frobenius verification, with its one-line justification;
     * 0 means exact equality. */
    double (*error_bound)(const void *problem, pl_precision prec, const char **why);
    double (*flops)(const void *problem);
    double (*bytes)(const void *problem); /* the fewest bytes: each input read, each output written once */
} pl_kernel;

int pl_kernel_count(void);
const pl_kernel *pl_kernel_at(int i);
const pl_kernel *pl_kernel_find(const char *name);
const pl_variant *pl_variant_find(const pl_kernel *k, const char *name);
/* PL_OK if this build and machine can run v under ctx (ctx may be NULL: any backend);
 * else a status and, in why, the reason ("no GPU", "no CUDA build", "no AVX-512"). */
pl_status pl_variant_check(const pl_ctx *ctx, const pl_variant *v, char *why, size_t n);

/* ---------------------------------------------------------------- 4. harness */

enum { PL_PHASE_ALLOC = 0, PL_PHASE_H2D, PL_PHASE_KERNEL, PL_PHASE_D2H, PL_N_PHASES };
const char *pl_phase_name(int phase);

typedef struct pl_bench_config {
    int warmup;        /* untimed runs before timing (default 1) */
    int repeats;       /* timed runs (default: adaptive, see min_time) */
    double min_time_s; /* with repeats == 0, repeat until this much time is spent (default 0.2 s) */
    int max_repeats;   /* cap on adaptive repeats (default 50) */
    uint64_t seed;     /* input seed (default 42) */
    const struct pl_peaks *peaks; /* ceilings for the % column; NULL: not placed */
} pl_bench_config;
void pl_bench_config_default(pl_bench_config *c);

/* A peer's median time / a rung's (>1: the rung is faster than the peer). */
typedef struct pl_peer_ratio {
    const char *name; /* the peer variant's name: "peer-openblas" */
    double ratio;
} pl_peer_ratio;

typedef struct pl_result {
    const pl_kernel *kernel;
    const pl_variant *variant;
    char size[64];                 /* describe() of the problem */
    int64_t params[PL_MAX_PARAMS]; /* the variant's parameter values */
    int threads;
    int repeats;
    double median_s, min_s, max_s; /* kernel time per run */
    double phase_s[PL_N_PHASES];   /* alloc, h2d, kernel (median), d2h; negative = not applicable */
    double flops, bytes;
    double gflops, gbps;
    double ceiling_pct;            /* % of the roofline ceiling that bounds this run; <0 unknown */
    char ceiling_name[64];         /* "CPU AVX-512 FMA, 2 thr", "GPU copy bandwidth", ... */
    int noisy;                     /* max and min are far apart: max > 1.5 x min */
    double error, bound;
    const char *bound_why;
    int verified; /* 1 pass, 0 fail */
    int padding_ok;    /* the run left the leading-dimension padding of its outputs alone */
    /* A rung's ratio to every peer measured on the same size, backend and precision, in the
     * order they ran; none for peers themselves. Filled by `parlab bench`'s report. */
    int n_peers;
    pl_peer_ratio peers[PL_MAX_PEERS];
} pl_result;

/* One problem, set up once (inputs, reference) and shared by all variants run on it. */
pl_status pl_problem_create(pl_problem **p, const pl_kernel *k, const char *size,
                            const double *pvals, uint64_t seed);
void pl_problem_destroy(pl_problem *p);
const void *pl_problem_spec(const pl_problem *p); /* the kernel's problem struct */

/* Run one variant on a problem: poison, run, verify, time. params may be NULL (defaults).
 * Returns PL_OK when the run completed (even if verification failed: see r->verified). */
pl_status pl_bench_variant(pl_ctx *ctx, pl_problem *p, const pl_variant *v, const int64_t *params,
                           const pl_bench_config *cfg, pl_result *r);

/* The machine's measured ceilings. */
struct pl_peaks {
    int valid;
    char machine[128];        /* cache key: CPU model, core count, GPU name */
    int cpu_threads;
    double cpu_gflops_avx2[2];   /* FP32 FMA peak, [0]: 1 thread, [1]: all threads; 0 = n/a */
    double cpu_gflops_avx512[2];
    double cpu_gflops_scalar[2];
    double cpu_triad_gbps;       /* STREAM triad, all threads, bytes read + written */
    double gpu_gflops_fp32;      /* FMA peak on the CUDA cores; 0 = no GPU */
    double gpu_copy_gbps;        /* device-to-device copy, bytes read + written */
};
typedef struct pl_peaks pl_peaks;
/* Load the cached peaks for this machine, or measure (quick) and cache them. */
pl_status pl_peaks_get(pl_ctx *ctx, pl_peaks *pk, int measure_if_missing);
/* Measure now (full) and cache. */
pl_status pl_peaks_measure(pl_ctx *ctx, pl_peaks *pk, int quick);
/* The cache file: $PARLAB_CACHE_DIR or $XDG_CACHE_HOME/parlab or ~/.cache/parlab. */
pl_status pl_cache_dir(char *buf, size_t n);

/* ---------------------------------------------------------------- .npy files */

/* A dense array as in a .npy file: C order, rank 0..8 (0: a scalar, one element). */
typedef struct pl_array {
    pl_dtype dtype;
    int rank;
    int64_t shape[8];
    void *data; /* owned: free with pl_array_free */
} pl_array;
pl_status pl_npy_read(const char *path, pl_array *a);
/* Writes to a temporary file then renames it: no partial file on failure. */
pl_status pl_npy_write(const char *path, const pl_array *a);
void pl_array_free(pl_array *a);
int64_t pl_array_count(const pl_array *a);

#ifdef __cplusplus
}
#endif
#endif
