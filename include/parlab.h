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
#include <stdio.h>

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
    PL_ERR_TOO_BIG,      /* a problem too big for this machine's memory (host or device) */
    PL_ERR_INTERNAL,
    PL_ERR_CANCELLED     /* stopped by the caller's cancel flag (pl_ctx_set_cancel) */
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

/* The most CPU threads a context takes (more than the cores is allowed: they share them). */
enum { PL_MAX_THREADS = 4096 };
/* threads <= 0: one per core (OMP_NUM_THREADS if set); above PL_MAX_THREADS: PL_ERR_ARG.
 * device: CUDA device ordinal. */
pl_status pl_ctx_create(pl_ctx **ctx, pl_backend backend, int device, int threads);
void pl_ctx_destroy(pl_ctx *ctx);
pl_backend pl_ctx_backend(const pl_ctx *ctx);
int pl_ctx_threads(const pl_ctx *ctx);
int pl_ctx_device(const pl_ctx *ctx);
/* threads: 1..PL_MAX_THREADS, else PL_ERR_ARG. */
pl_status pl_ctx_set_threads(pl_ctx *ctx, int threads);
/* A flag the caller owns (NULL: none): once *flag is nonzero, long harness calls on ctx
 * (pl_bench_variant) stop between runs with PL_ERR_CANCELLED, leaving nothing half-written.
 * Set it from another thread or a signal handler; the Python package turns Ctrl-C into it. */
void pl_ctx_set_cancel(pl_ctx *ctx, const volatile int *flag);

/* What this build has and what this machine can do. */
enum {
    PL_FEAT_AVX2 = 1u << 0,     /* CPU: AVX2 + FMA */
    PL_FEAT_AVX512 = 1u << 1,   /* CPU: AVX-512 F */
    PL_FEAT_CUDA_BUILD = 1u << 2,
    PL_FEAT_GPU = 1u << 3,      /* a CUDA device is usable */
    PL_FEAT_OPENBLAS = 1u << 4, /* built with OpenBLAS (CPU peer) */
    PL_FEAT_CUBLAS = 1u << 5,   /* built with cuBLAS (GPU peer) */
    PL_FEAT_CUDNN = 1u << 6,    /* built with cuDNN (the conv2d GPU peer) */
    PL_FEAT_SM90A = 1u << 7     /* built with Hopper's sm_90a code and device 0 is Hopper (sm_90) */
};
unsigned pl_features(void);
/* One line: "x86-64 AVX2 AVX-512, 2 cores; CUDA build; GPU: NVIDIA H100 80GB HBM3 (sm_90)". */
const char *pl_machine_summary(void);
const char *pl_cpu_name(void);
const char *pl_gpu_name(void); /* "" when none */

/* ---------------------------------------------------------------- 2. BLAS-like calls */

/* Element types of arrays and operands (pl_dtype_size, pl_dtype_name in part 3). PL_BF16:
 * bfloat16, float32's sign, exponent and top 7 mantissa bits, held as its 16 bits (uint16_t). */
typedef enum pl_dtype { PL_F32 = 0, PL_F64, PL_I32, PL_U8, PL_U16, PL_BF16 } pl_dtype;

/* float32 <-> bfloat16, the one conversion every part of parlab uses: to bfloat16 rounds to
 * nearest, ties to even (as NumPy's ml_dtypes and PyTorch do), a NaN stays a NaN (quiet, its
 * sign kept), infinities and overflow to infinity as IEEE rounding has them; to float32 is
 * exact. The array forms convert n elements (dst and src must not overlap). */
uint16_t pl_bf16_from_f32(float x);
float pl_bf16_to_f32(uint16_t b);
void pl_bf16_from_f32_array(uint16_t *dst, const float *src, int64_t n);
void pl_bf16_to_f32_array(float *dst, const uint16_t *src, int64_t n);

/* What every call of this part refuses, before any work: a NULL context (PL_ERR_ARG); an
 * unknown variant name in a _variant form (PL_ERR_ARG, naming it); a rung this build or
 * machine cannot run (PL_ERR_NO_CUDA, PL_ERR_NO_GPU, PL_ERR_UNSUPPORTED, naming why) or one
 * of the other backend than the context's (PL_ERR_ARG); no rung at all for the context (the
 * best-rung forms: PL_ERR_UNSUPPORTED); a _variant form's params[i] outside its legal values
 * (PL_ERR_ARG, naming it and them); sizes whose byte counts overflow 64 bits
 * (PL_ERR_OVERFLOW). With a CUDA context a failed device allocation is PL_ERR_DEVICE_NOMEM, a
 * failed CUDA call PL_ERR_CUDA. Each call below lists what else it refuses; every refusal
 * leaves a message in pl_last_error(). */

/* ---- gemm */

/* C = alpha*A*B + beta*C, row-major. A is M x K (lda >= K), B is K x N (ldb >= N),
 * C is M x N (ldc >= N). Host pointers; with a CUDA context the data travels to the device
 * and back. beta == 0 means C is not read (NaN in C does not propagate). Runs the best
 * GEMM rung the context can run (see pl_best_variant).
 * Refuses (PL_ERR_ARG): M, N or K <= 0; lda < K, ldb < N, ldc < N (naming the pitch); alpha or
 * beta not finite; A, B or C NULL (naming the operand; checked after the sizes). */
pl_status pl_sgemm(pl_ctx *ctx, int64_t M, int64_t N, int64_t K, float alpha, const float *A,
                   int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc);
/* Same with a named variant ("cpu-naive", "cuda-shared", ...); params may be NULL for
 * the variant's defaults. */
pl_status pl_sgemm_variant(pl_ctx *ctx, const char *variant, const int64_t *params, int64_t M,
                           int64_t N, int64_t K, float alpha, const float *A, int64_t lda,
                           const float *B, int64_t ldb, float beta, float *C, int64_t ldc);

/* ---- reduce and dot */

/* What pl_sreduce computes over each row or column (min/max propagate NaN as NumPy does).
 * PL_REDUCE_N_OPS counts them; it is not an op. */
typedef enum pl_reduce_op {
    PL_REDUCE_SUM = 0, PL_REDUCE_MEAN, PL_REDUCE_MIN, PL_REDUCE_MAX, PL_REDUCE_SUMSQ, PL_REDUCE_N_OPS
} pl_reduce_op;

/* r = op over each row (axis 1: r has M elements) or each column (axis 0: N elements) of the
 * row-major M x N matrix A (lda >= N); as NumPy, axis -1 is 1 and -2 is 0. Host pointers, the
 * best rung (a CPU context: cpu-simd, else cpu-naive; a CUDA context: cuda-tuned).
 * Refuses (PL_ERR_ARG): A or r NULL; axis outside -2..1 (naming it); M or N <= 0; lda < N
 * (naming it); op outside pl_reduce_op ("unknown op 99"). */
pl_status pl_sreduce(pl_ctx *ctx, pl_reduce_op op, int axis, int64_t M, int64_t N, const float *A, int64_t lda,
                     float *r);
/* *result = sum_i x_i y_i over two float32 vectors of length N, the best rung as pl_sreduce.
 * Refuses (PL_ERR_ARG): x, y or result NULL; N <= 0. */
pl_status pl_sdot(pl_ctx *ctx, int64_t N, const float *x, const float *y, float *result);

/* ---- gemv */

/* y = alpha*op(A)*x + beta*y, row-major A (M x N, lda >= N); trans 'n': op(A) = A (x has N
 * elements, y has M), 't': op(A) = A^T (x has M, y has N); 'N' and 'T' as well (a char, as
 * BLAS has it, not an enum). beta == 0: y is not read. Like pl_sgemm: the best rung
 * (pl_best_variant), or the one named by pl_sgemv_variant.
 * Refuses (PL_ERR_ARG): trans other than n, N, t, T (naming it); M or N <= 0; lda < N (naming
 * it); alpha or beta not finite; A, x or y NULL (naming the operand; checked after the sizes). */
pl_status pl_sgemv(pl_ctx *ctx, char trans, int64_t M, int64_t N, float alpha, const float *A, int64_t lda,
                   const float *x, float beta, float *y);
pl_status pl_sgemv_variant(pl_ctx *ctx, const char *variant, const int64_t *params, char trans, int64_t M,
                           int64_t N, float alpha, const float *A, int64_t lda, const float *x, float beta, float *y);

/* ---- transpose */

/* B = A^T, out of place, row-major. A is M x N (lda >= N), B is N x M (ldb >= M); B's
 * padding (columns M..ldb) is not written. Host pointers, as pl_sgemm; the _variant form
 * names the rung (params may be NULL: its defaults).
 * Refuses (PL_ERR_ARG): M or N <= 0; lda < N, ldb < M (naming the pitch); A or B NULL. A and B
 * that overlap are not detected. */
pl_status pl_stranspose(pl_ctx *ctx, int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb);
pl_status pl_stranspose_variant(pl_ctx *ctx, const char *variant, const int64_t *params, int64_t M, int64_t N,
                                const float *A, int64_t lda, float *B, int64_t ldb);

/* ---- conv2d */

/* The output's extent: valid, (H-K+1) x (W-K+1), only where the filter fits; same, H x W, the
 * image extended beyond its edge by a pl_conv2d_border. */
typedef enum pl_conv2d_mode { PL_CONV2D_VALID = 0, PL_CONV2D_SAME } pl_conv2d_mode;
/* How mode same reads outside the image: zero (0 there), clamp (the nearest edge pixel,
 * "replicate"), reflect (mirror without repeating the edge pixel: index -1 reads 1, as numpy's
 * 'reflect' and OpenCV's BORDER_REFLECT_101). Checked in mode valid too, where it is unused. */
typedef enum pl_conv2d_border { PL_CONV2D_ZERO = 0, PL_CONV2D_CLAMP, PL_CONV2D_REFLECT } pl_conv2d_border;
typedef struct pl_conv2d_opts {
    pl_conv2d_mode mode;
    pl_conv2d_border border;
    int flip; /* 1: convolution (filter rotated 180 degrees); 0: cross-correlation */
} pl_conv2d_opts;

/* 2-D convolution of one channel: out = image (*) filter, a K x K filter (K odd, 1..15) over
 * an H x W row-major image (ld_img >= W); dtype PL_F32 or PL_I32 for image, filter and out.
 * opts NULL: {PL_CONV2D_VALID, PL_CONV2D_ZERO, flip 0}, cross-correlation. ld_out >= out's
 * width. Host pointers, the best rung, as pl_sgemm.
 * Refuses (PL_ERR_ARG): H or W <= 0; K even or outside 1..15 (naming it); dtype other than
 * PL_F32 and PL_I32 (naming it); mode, border or flip outside their values (naming the value);
 * mode valid with K > H or K > W; ld_img < W, ld_out < out's width (naming the pitch); image,
 * filter or out NULL; int32 data whose sums could leave int32 (sum |w| x max |x| > INT32_MAX,
 * read from the arrays before any work). */
pl_status pl_conv2d(pl_ctx *ctx, pl_dtype dtype, int64_t H, int64_t W, const void *image, int64_t ld_img, int K,
                    const void *filter, const pl_conv2d_opts *opts, void *out, int64_t ld_out);
pl_status pl_conv2d_variant(pl_ctx *ctx, const char *variant, const int64_t *params, pl_dtype dtype, int64_t H,
                            int64_t W, const void *image, int64_t ld_img, int K, const void *filter,
                            const pl_conv2d_opts *opts, void *out, int64_t ld_out);

/* ---- life */

/* Conway's Game of Life and Life-like rules: gens generations, in place, of a W x H grid held
 * bit-packed: row y is (W + 63) / 64 uint64 words at bits + y * ((W + 63) / 64), cell x is bit
 * x % 64 of word x / 64, the bits past W zero (and left zero). torus = 1: the edges wrap; 0: a
 * bounded plane, dead beyond the edge. rule: "B3/S23" (NULL: Conway), "B36/S23", "23/3", ...;
 * a malformed rule is PL_ERR_ARG naming it. Host pointers, the best rung, as pl_sgemm.
 * The unbounded plane is the room's cpu-sparse engine (src/kernels/life/sparse.h). torus is a
 * flag (any nonzero value is a torus), not an enum.
 * Refuses (PL_ERR_ARG): W or H < 1 (naming them); gens < 0; bits NULL; a malformed rule
 * (naming it); W x H past 2^61 cells is PL_ERR_OVERFLOW. gens == 0 returns PL_OK after these
 * checks, without a run and before the rung is checked against the context. A rung that cannot take the problem (pl_life_variant with
 * "cpu-sparse" on a torus, or with a B0 rule) is PL_ERR_UNSUPPORTED. */
pl_status pl_life(pl_ctx *ctx, int64_t W, int64_t H, uint64_t *bits, int64_t gens, const char *rule, int torus);
pl_status pl_life_variant(pl_ctx *ctx, const char *variant, const int64_t *params, int64_t W, int64_t H,
                          uint64_t *bits, int64_t gens, const char *rule, int torus);
/* A Life pattern as a file holds it: RLE (as Golly writes it) or plaintext .cells, read by
 * content. bits: the w x h box in pl_life's layout (h rows of (w + 63) / 64 words); rule
 * canonical ("B3/S23"); grid 0 the unbounded plane, 1 a torus, 2 a bounded plane of grid_w x
 * grid_h (Golly's ":T"/":P" rule suffix); x0, y0 the box's top-left on the plane (#P/#R).
 * pl_life_file_read: malformed files are PL_ERR_FORMAT naming the file, line and column; free
 * with pl_life_file_free. pl_life_file_write: RLE, or .cells for a name ending in ".cells"; a
 * temporary file renamed (nothing half-written); a malformed rule is PL_ERR_ARG. */
typedef struct pl_life_file {
    int64_t w, h;
    uint64_t *bits;
    char rule[64];
    int grid;
    int64_t grid_w, grid_h;
    int64_t x0, y0;
} pl_life_file;
pl_status pl_life_file_read(const char *path, pl_life_file *f);
pl_status pl_life_file_write(const char *path, const pl_life_file *f);
void pl_life_file_free(pl_life_file *f);

/* ---- entropy */

/* Local entropy: for each pixel of an H x W uint8 image of values in [0, bins) (bins 2..256),
 * the Shannon entropy of the k x k window around it (k odd), the window clipped to the image
 * at the borders; natural log, or base 2 with base2 = 1. out is H x W float32 (ld_out >= W).
 * Host pointers, the best rung, as pl_sgemm.
 * Refuses (PL_ERR_ARG): H or W <= 0; k even or outside 1..63, bins outside 2..256, base2
 * other than 0 or 1, ld < W, ld_out < W (each naming the value); values or out NULL; a value
 * >= bins (naming the first such pixel, read before any work). */
pl_status pl_entropy(pl_ctx *ctx, int64_t H, int64_t W, const uint8_t *values, int64_t ld, int k, int bins,
                     int base2, float *out, int64_t ld_out);
pl_status pl_entropy_variant(pl_ctx *ctx, const char *variant, const int64_t *params, int64_t H, int64_t W,
                             const uint8_t *values, int64_t ld, int k, int bins, int base2, float *out,
                             int64_t ld_out);

/* ---------------------------------------------------------------- 3. registry */

size_t pl_dtype_size(pl_dtype t);
const char *pl_dtype_name(pl_dtype t);

/* A parameter: of a variant (tile, block) or of a kernel's problem (alpha, op, axis, gens).
 * Legal values are a list of integers, an integer range (with a step), or a list of names
 * (the value is then the index of the name). */
typedef enum pl_param_kind {
    PL_PARAM_LIST = 0, PL_PARAM_RANGE, PL_PARAM_CHOICE, PL_PARAM_REAL,
    PL_PARAM_STRING /* problem parameters only: a text (a rule "B36/S23", a file "k.npy") */
} pl_param_kind;
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
 * legal values. A PL_PARAM_STRING parameter accepts any non-empty text (*value = 0). */
pl_status pl_param_parse(const pl_param_def *p, const char *text, double *value);
/* "4, 8, 16, 32" / "8..1024 step 8" / "sum|mean|max" */
void pl_param_legal(const pl_param_def *p, char *buf, size_t n);

enum { PL_MAX_PARAMS = 8, PL_MAX_OPERANDS = 64, PL_MAX_PEERS = 4 };
/* The timed runs a result keeps one by one (pl_result.samples): more repeats than this keep the
 * first PL_MAX_SAMPLES, enough for the rank test and the bootstrap of parlab compare. */
enum { PL_MAX_SAMPLES = 256 };

/* Requirements a variant states; pl_variant_check() turns a missing one into a reason. */
enum {
    PL_REQ_AVX2 = PL_FEAT_AVX2,
    PL_REQ_AVX512 = PL_FEAT_AVX512,
    PL_REQ_CUDA = PL_FEAT_CUDA_BUILD | PL_FEAT_GPU,
    PL_REQ_OPENBLAS = PL_FEAT_OPENBLAS,
    PL_REQ_CUBLAS = PL_FEAT_CUBLAS | PL_FEAT_CUDA_BUILD | PL_FEAT_GPU,
    PL_REQ_CUDNN = PL_FEAT_CUDNN | PL_FEAT_CUDA_BUILD | PL_FEAT_GPU,
    PL_REQ_SM90A = PL_FEAT_SM90A | PL_FEAT_CUDA_BUILD | PL_FEAT_GPU /* wgmma, TMA */
};

/* Arithmetic a variant uses; the kernel's error bound and the compute ceiling depend on it:
 * FP32 -> the FP32 FMA peak, TF32 -> the TF32 tensor-core peak, EXACT (integer or bitwise
 * arithmetic, checked for equality) -> the 32-bit integer/bitwise op peak, BF16 (bfloat16
 * inputs, FP32 accumulation and output) -> the BF16 tensor-core peak on the GPU, the FP32 FMA
 * peak on the CPU (which has no BF16 one). */
typedef enum pl_precision { PL_PREC_FP32 = 0, PL_PREC_TF32, PL_PREC_EXACT, PL_PREC_BF16 } pl_precision;
const char *pl_precision_name(pl_precision p); /* "FP32", "TF32", "exact", "BF16" */

/* The unit a kernel counts its work in; results show the rate in it (GFLOP/s, Gcell/s, ...). */
typedef enum pl_unit {
    PL_UNIT_FLOP = 0, /* floating-point operations (GEMM: 2MNK) */
    PL_UNIT_ELEMENT,  /* elements of the output or of the input (GEMV, transpose, reduce) */
    PL_UNIT_BYTE,     /* bytes */
    PL_UNIT_CELL,     /* cell-updates (Life: cells x generations) */
    PL_UNIT_PIXEL     /* output pixels (entropy) */
} pl_unit;
const char *pl_unit_name(pl_unit u);      /* "flop", "element", "byte", "cell-update", "pixel" */
const char *pl_unit_rate_name(pl_unit u); /* "GFLOP/s", "Gelem/s", "GB/s", "Gcell/s", "Mpx/s" */
double pl_unit_rate_scale(pl_unit u);     /* what one unit of the rate is worth: 1e9, 1e6 for pixels */

/* The ceiling that bounds a kernel's runs (measured by `parlab peaks`). */
typedef enum pl_ceiling {
    PL_CEIL_ROOFLINE = 0, /* whichever of compute (by the variant's precision) and memory
                           * bandwidth would take longer */
    PL_CEIL_COMPUTE,      /* the compute peak of the variant's precision */
    PL_CEIL_MEMORY        /* memory bandwidth: the time the run's bytes read and written
                           * need at the measured stream rates (docs/output.md) */
} pl_ceiling;

/* How an output is checked against the float64 reference. */
typedef enum pl_check {
    PL_CHECK_AUTO = 0, /* full where the full reference takes a few seconds at most, else sampled */
    PL_CHECK_FULL,     /* every element against the full reference */
    PL_CHECK_SAMPLE    /* a randomized check with a stated failure probability */
} pl_check;
const char *pl_check_name(pl_check c); /* "auto", "full", "sample" */

/* What a run function receives. data[i] is operand i's storage: host memory for CPU
 * variants, device memory for CUDA variants. params[] are the variant's parameter values in
 * the order of its param list. stream is the cudaStream_t to launch on (NULL on the CPU). */
struct pl_variant;
typedef struct pl_run_args {
    pl_ctx *ctx;
    const void *problem; /* the kernel's own problem struct (e.g. pl_gemm_problem) */
    void *const *data;
    int n_data;
    const int64_t *params;
    void *stream;
    const struct pl_variant *variant; /* the rung being run (a user's rung reads its function here) */
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
    /* Device memory the rung takes beyond the operands (workspaces) for a problem (the
     * kernel's problem struct); NULL: none. Checked against free memory before it runs. */
    double (*workspace_bytes)(const void *problem);
    /* Its place in the best-first pick of its backend's rungs (pl_best_variant): 1 is tried
     * first, then 2, ...; 0 (the lessons on the way up, the peers): never picked. */
    int best_rank;
    /* A user's rung (parlab bench --rung, parlab.rung): marked in the table, placed among the
     * rungs, held to the harness's extra checks (fresh inputs on the last run, the time
     * against the physical floor, off-stream work). user: what its run calls (a
     * pl_user_rung); NULL for parlab's own rungs and peers. */
    int is_user;
    const void *user;
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

/* A kernel's problem parameters as given (--set): a number for each, and the text for
 * PL_PARAM_STRING ones (NULL: not given). The kernel's make_problem copies what it keeps. */
typedef struct pl_pvalues {
    double num[PL_MAX_PARAMS];
    const char *str[PL_MAX_PARAMS];
} pl_pvalues;

/* A size by name: "small" -> "256". */
typedef struct pl_named_size {
    const char *name;
    const char *size;
} pl_named_size;

/* The outcome of checking one run's outputs (full or sampled). */
typedef struct pl_check_result {
    double error;       /* relative Frobenius error over what was checked; exact kernels: the
                         * count of differing elements; +Inf with a NaN or Inf */
    double elem_ratio;  /* worst |out - ref| / (element bound) over the checked elements; a run
                         * passes with elem_ratio <= 1 (exact: 0 or +Inf) */
    int operand;        /* where the worst element is: operand index, row, column */
    int64_t row, col;
    int64_t checked;    /* elements compared with a reference value */
    char how[128];      /* what ran: "full: every element", "sampled: Freivalds x8 ..." */
    /* The worst element (the first of equally bad ones in row-major order; an unwritten or NaN
     * element is the worst there is): the value the run left, the reference, and the bound
     * |value - reference| had to stay within (0: exact equality). A sampled check whose worst
     * is a whole row's residual (col -1) gives the residual, 0 and its tolerance. */
    double value, reference, bound;
    int64_t wrong;      /* checked elements beyond their bound (exact: that differ); a sampled
                         * check counts its samples so (an element sampled twice counts twice,
                         * a Freivalds row once) */
} pl_check_result;

/* One case of a kernel's correctness suite (pl_check_variant): a size as --size takes it and
 * the problem's settings as --set takes them ("alpha=-0.5,beta=2,pad=1"; "" the defaults). */
typedef struct pl_check_case {
    const char *size;
    const char *settings;
} pl_check_case;

typedef struct pl_kernel {
    const char *name;      /* "gemm" */
    const char *summary;   /* "C = alpha*A*B + beta*C, row-major" */
    const char *size_help; /* "N (square) or MxNxK" */
    const pl_named_size *named_sizes; /* small | medium | large ...; the first is the probe size */
    int n_named_sizes;
    const pl_param_def *problem_params; /* alpha, beta, op, axis, gens, rule, filter, ... */
    int n_problem_params;
    const pl_variant *const *ladder; /* in order, the rungs then the peers */
    int n_variants;
    pl_unit unit;          /* what work() counts */
    pl_ceiling ceiling;    /* which ceiling bounds it */
    /* --- the spec; see src/harness/harness.h for the contract --- */
    size_t problem_size; /* sizeof the kernel's problem struct */
    /* Fill the problem struct from a size string ("1024", "33x65x17"; named sizes are
     * resolved before) and the problem parameters. */
    pl_status (*make_problem)(void *problem, const char *size, const pl_pvalues *pv);
    /* Free what make_problem allocated inside the struct (a pattern, a filter); may be NULL. */
    void (*destroy_problem)(void *problem);
    void (*describe)(const void *problem, char *buf, size_t n); /* "1024x1024x1024" */
    /* Describe the operands: fill t[0..*n) (shapes, dtype, role); *n <= PL_MAX_OPERANDS. */
    pl_status (*operands)(const void *problem, pl_tensor *t, int *n);
    /* Fill input operands from a seeded generator (never zeros). Deterministic: the harness
     * refills to restore inputs a variant overwrote. */
    void (*fill)(const void *problem, pl_tensor *t, int n, uint64_t seed);
    /* The full reference: for each output operand i, ref[i] (float64 for float outputs, the
     * output's own dtype for exact ones) and, for float outputs, scale[i] (float64): the
     * magnitude each element's bound multiplies (GEMM: |alpha|(|A||B|) + |beta||C|). */
    pl_status (*reference)(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale);
    /* float64 operations of the full reference, to choose between full and sampled checks. */
    double (*reference_ops)(const void *problem);
    /* Bounds for a precision, each with its one-line justification; 0 means exact equality.
     * error_bound: on the relative Frobenius error; elem_bound: |out - ref| <= elem_bound *
     * scale, element by element. */
    double (*error_bound)(const void *problem, pl_precision prec, const char **why);
    double (*elem_bound)(const void *problem, pl_precision prec, const char **why);
    /* The randomized check for sizes whose full reference is too slow: checks out[] (the
     * variant's outputs, shapes as operands()) against inputs t[] in float64 and fills res.
     * NULL: this kernel always runs the full check. */
    pl_status (*check_sampled)(const void *problem, const pl_tensor *t, int n, const pl_tensor *out,
                               pl_precision prec, uint64_t seed, pl_check_result *res);
    double (*work)(const void *problem);  /* in unit: GEMM 2MNK flop */
    double (*ops)(const void *problem);   /* against the compute ceiling: flops, or 32-bit
                                           * integer/bitwise lane ops for exact kernels */
    double (*bytes)(const void *problem); /* the fewest bytes: each input read, each output written once */
    /* Of bytes(), those written (each output once); the rest are read. NULL: the split is
     * unknown, and the memory bound takes the fastest stream rate measured for all bytes. */
    double (*bytes_written)(const void *problem);
    /* Where the best rung depends on the problem's shape (Life on the GPU): the rung to try
     * before the best_rank order for this problem and backend, or NULL for that order. NULL
     * hook: the order alone. */
    const char *(*best_first_for)(const void *problem, pl_backend backend);
    /* A user's rung (include/parlab_rung.h): call fn, a pl_rung_<kernel> (CPU) or
     * pl_rung_<kernel>_cuda (a.stream not NULL) with the problem's arguments and a's operands;
     * a nonzero return is PL_ERR_VERIFY naming the value. NULL: no user rungs for this kernel. */
    pl_status (*call_user)(void (*fn)(void), const pl_run_args *a);
    /* The correctness suite (`parlab check`): small odd shapes and every problem parameter's
     * values, each run at a few seeds and checked in full. NULL: the named sizes' first alone. */
    const pl_check_case *check_cases;
    int n_check_cases;
    /* Whether rung v takes this problem (problem NULL: the one of the default parameters): 1,
     * or 0 with the reason in why ("an FP32 rung, it takes dtype=f32 only"). GEMM: a BF16 rung
     * takes dtype=bf16 problems alone, every other rung dtype=f32 alone. NULL: every rung takes
     * every problem. Read through pl_variant_takes. */
    int (*takes)(const void *problem, const pl_variant *v, char *why, size_t n);
} pl_kernel;

int pl_kernel_count(void);
const pl_kernel *pl_kernel_at(int i);
const pl_kernel *pl_kernel_find(const char *name);
const pl_variant *pl_variant_find(const pl_kernel *k, const char *name);
/* "small" -> "256" for the kernel's named sizes; other text is returned as it is. */
const char *pl_kernel_size(const pl_kernel *k, const char *size);
/* The problem parameters' defaults; then set one from "NAME=VALUE" text (a clear error
 * names an unknown parameter, a bad value, or one given twice: given[] tracks them). */
void pl_pvalues_default(const pl_kernel *k, pl_pvalues *pv);
pl_status pl_pvalues_set(const pl_kernel *k, pl_pvalues *pv, int *given, const char *name_eq_value);
/* PL_OK if this build and machine can run v under ctx (ctx may be NULL: any backend);
 * else a status and, in why, the reason ("no GPU", "no CUDA build", "no AVX-512"). */
pl_status pl_variant_check(const pl_ctx *ctx, const pl_variant *v, char *why, size_t n);
/* The rung the BLAS-like calls (pl_sgemm, pl_life, ...) run in this context: of the rungs of
 * the context's backend with a best_rank, the first in that order that this build and machine
 * can run (NULL: none, or ctx NULL). problem: the kernel's problem struct, read only by a
 * kernel whose pick depends on the shape (pl_kernel.best_first_for: Life on the GPU takes
 * cuda-bitpacked below 1e8 cells, cuda-register from there on); NULL: the pick for a large
 * problem. pl_best_variant_size: the same for a problem given as `parlab bench --size` takes it
 * ("8192x8192", "small"); NULL also for a size the kernel refuses (pl_last_error says why). */
/* PL_OK if v takes the problem (pl_kernel.takes; problem NULL: the default one), else
 * PL_ERR_UNSUPPORTED, the message naming the rung and why ("gemm cuda-tuned: an FP32 rung, it
 * takes dtype=f32 only; this problem is dtype=bf16"). Every run (pl_bench_variant, pl_run_host,
 * pl_run_device) checks it first; pl_best_variant picks only a rung that takes the problem. */
pl_status pl_variant_takes(const pl_kernel *k, const pl_variant *v, const void *problem);
const char *pl_best_variant(const pl_ctx *ctx, const pl_kernel *k, const void *problem);
const char *pl_best_variant_size(const pl_ctx *ctx, const pl_kernel *k, const char *size);

/* ---- your own rungs (include/parlab_rung.h gives their signatures) */

typedef struct pl_user_rung pl_user_rung;
/* Load "PATH:FN" (PATH a shared library, as dlopen takes it: "./libmine.so") as a rung of
 * kernel k named name (NULL: FN). backend: -1 as the library's FN_parlab_rung declares it (a
 * CPU rung without one), else PL_BACKEND_CPU or PL_BACKEND_CUDA. Refuses (PL_ERR_ARG, naming
 * the rung): text without ':', a library dlopen cannot open (its message), a missing symbol, a
 * declaration of another ABI, kernel or backend, an unknown precision, a name that is a rung of
 * the ladder already or holds a comma, a space or '='; a kernel without user rungs. */
pl_status pl_user_rung_load(pl_user_rung **out, const pl_kernel *k, const char *path_fn, const char *name,
                            int backend);
/* A rung whose run is the caller's own (the Python package's callables): run receives the
 * pl_run_args of each call, and user in a->variant->user's pl_user_rung_data. */
pl_status pl_user_rung_callback(pl_user_rung **out, const pl_kernel *k, const char *name, pl_backend backend,
                                pl_precision precision, pl_status (*run)(const pl_run_args *a), void *user);
/* The data given to pl_user_rung_callback, from a run's a->variant. */
void *pl_user_rung_data(const pl_variant *v);
/* The rung as the harness takes it (pl_bench_variant, pl_session_add_job): is_user set. */
const pl_variant *pl_user_rung_variant(const pl_user_rung *r);
/* "./libmine.so:my_sgemm" (a library rung) or "python" (a callback). */
const char *pl_user_rung_origin(const pl_user_rung *r);
void pl_user_rung_free(pl_user_rung *r);

/* ---------------------------------------------------------------- 4. harness */

enum { PL_PHASE_ALLOC = 0, PL_PHASE_H2D, PL_PHASE_KERNEL, PL_PHASE_D2H, PL_N_PHASES };
const char *pl_phase_name(int phase);

/* Called by the harness as a long run goes on (stage: "reference", "warm-up", "timed runs",
 * "check"; fraction of that stage done, 0..1). The library never prints: the caller does. */
typedef void (*pl_progress_fn)(void *user, const char *stage, double fraction);

typedef struct pl_bench_config {
    int warmup;        /* untimed runs before timing (default 1; the first is checked) */
    int repeats;       /* timed runs (default: adaptive, see min_time) */
    double min_time_s; /* with repeats == 0, repeat until this much time is spent (default 0.2 s) */
    int max_repeats;   /* cap on adaptive repeats (default 50) */
    uint64_t seed;     /* input seed (default 42) */
    int cold;          /* flush the caches (write a buffer larger than the last-level cache)
                        * before each timed run, outside the timed region (default 0: warm) */
    const struct pl_peaks *peaks; /* ceilings for the % column; NULL: not placed */
    pl_progress_fn progress;      /* may be NULL */
    void *progress_user;
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
    int problem_id;                /* the pl_problem it ran on (pl_problem_id) */
    char size[64];                 /* describe() of the problem */
    int64_t params[PL_MAX_PARAMS]; /* the variant's parameter values */
    int threads;
    int repeats;
    int cold;                      /* caches flushed before each timed run */
    double median_s, min_s, max_s; /* kernel time per run */
    int n_samples;                 /* min(repeats, PL_MAX_SAMPLES) */
    double samples[PL_MAX_SAMPLES]; /* each timed run's kernel time (s), in the order they ran; the
                                    * first PL_MAX_SAMPLES where there were more */
    double phase_s[PL_N_PHASES];   /* alloc, h2d, kernel (median), d2h; negative = not applicable */
    pl_unit unit;
    double work, ops, bytes;       /* per run: work in unit, compute ops, fewest bytes */
    double rate;                   /* work / median_s / pl_unit_rate_scale(unit): "GFLOP/s" */
    double gbps;                   /* bytes / median_s / 1e9 */
    double ceiling_pct;            /* % of the ceiling that bounds this run; <0 unknown */
    char ceiling_name[64];         /* "CPU AVX-512 FMA peak, 2 thr", "GPU TF32 tensor peak", ... */
    int over_ceiling;              /* ceiling_pct > 100: flagged, never shown as if true */
    int noisy;                     /* max and min are far apart: max > 1.5 x min */
    pl_check check;                /* FULL or SAMPLE: which check ran */
    pl_check_result first, last;   /* the check of the first (warm-up) and of the last timed run */
    double error;                  /* the worse of first.error and last.error */
    double bound, elem_bound;      /* relative Frobenius bound, element bound (0: exact) */
    const char *bound_why, *elem_why;
    int verified;      /* 1: both checks passed, padding intact, inputs unchanged */
    int padding_ok;    /* the runs left the leading-dimension padding of their outputs alone */
    int inputs_ok;     /* the variant left its inputs as they were (a checksum) */
    char failed_why[192]; /* a user's rung: which extra check failed it (fresh inputs, off-stream
                           * work, the physical floor, a crash or a hang); "" otherwise */
    /* A rung's ratio to every peer measured on the same problem, backend and precision, in
     * the order they ran; none for peers themselves. Filled by pl_results_peer_ratios. */
    int n_peers;
    pl_peer_ratio peers[PL_MAX_PEERS];
} pl_result;

/* What a problem will take before anything is allocated: the checks a caller makes before
 * the first run (sizes, parameters, memory). */
typedef struct pl_plan {
    char desc[64];        /* describe() */
    double work, ops, bytes;
    pl_check check;       /* FULL or SAMPLE, AUTO resolved */
    double ref_seconds;   /* estimated time of the full float64 reference here */
    double host_bytes;    /* host memory the harness takes: operands, reference, working copies */
    double device_bytes;  /* device memory one CUDA variant takes: operands, pristine copies,
                           * the kernel's workspaces */
} pl_plan;
/* Make the problem struct (no allocation) and estimate. pv NULL: defaults. */
pl_status pl_problem_plan(const pl_kernel *k, const char *size, const pl_pvalues *pv, pl_check check,
                          pl_plan *plan);
/* PL_ERR_TOO_BIG, with the estimate and the limit in the message, when the plan does not
 * fit what this process may take: host memory available (MemAvailable and the cgroup
 * limit), and with gpu (a CUDA context; may be NULL) the device's free memory. */
pl_status pl_plan_fits(const pl_plan *plan, const pl_ctx *gpu);
/* The host memory this process may still take (bytes): the smaller of MemAvailable and the
 * cgroup limit less its usage. 0 if unknown. */
double pl_host_memory_available(void);

/* One problem, set up once (inputs, reference) and shared by all variants run on it. */
typedef struct pl_problem_opts {
    uint64_t seed;         /* default 42 */
    pl_check check;        /* default AUTO */
    pl_progress_fn progress;
    void *progress_user;
} pl_problem_opts;
pl_status pl_problem_create_opts(pl_problem **p, const pl_kernel *k, const char *size,
                                 const pl_pvalues *pv, const pl_problem_opts *opts);
/* The same with numeric parameters only (pvals NULL: defaults) and the AUTO check. */
pl_status pl_problem_create(pl_problem **p, const pl_kernel *k, const char *size,
                            const double *pvals, uint64_t seed);
void pl_problem_destroy(pl_problem *p);
const void *pl_problem_spec(const pl_problem *p); /* the kernel's problem struct */
int pl_problem_id(const pl_problem *p);           /* unique in this process */
pl_check pl_problem_check(const pl_problem *p);   /* FULL or SAMPLE */

/* Run one variant on a problem: poison, run, check, time, check the last timed run again,
 * check the inputs are unchanged. params may be NULL (defaults). Returns PL_OK when the runs
 * completed (even if a check failed: see r->verified). */
pl_status pl_bench_variant(pl_ctx *ctx, pl_problem *p, const pl_variant *v, const int64_t *params,
                           const pl_bench_config *cfg, pl_result *r);

/* ---- the correctness suite: a variant on every check case of its kernel, at a few seeds */
enum { PL_CHECK_SEEDS = 3 };
/* The seeds a check runs at when the user names none: fixed ones (42 first, bench's default
 * seed) and one drawn from the clock, so repeated checks see new inputs. */
void pl_check_default_seeds(uint64_t seeds[PL_CHECK_SEEDS]);
/* What one case at one seed gave. */
typedef struct pl_check_outcome {
    int index, n;              /* this is run index of n (cases x seeds, the seeds varying fastest) */
    const pl_check_case *check_case; /* the case: its size and settings as the kernel declares them */
    uint64_t seed;
    pl_status status;          /* PL_OK: it ran (see passed); PL_ERR_UNSUPPORTED: the variant does
                                * not take this problem (skipped, not a failure); else the run or
                                * the problem failed (a failure), message says why */
    int passed;                /* ran, both checks passed, padding untouched, inputs unchanged */
    pl_result result;          /* the warm-up's check (first), the timed run's (last),
                                * padding_ok, inputs_ok, size (the problem's describe()) */
    const pl_check_result *bad; /* the failed check (first, else last); NULL when both passed */
    const char *operand;       /* the name of bad's operand ("C"); NULL with bad */
    char message[256];
} pl_check_outcome;
typedef void (*pl_check_fn)(void *user, const pl_check_outcome *o);
/* Run v (any variant: a ladder's, or one the caller made) on each of k's check cases at each
 * of seeds[0..n_seeds): the problem made with that seed and the full float64 check, a warm-up
 * run checked, one timed run checked (pl_bench_variant with repeats 1), padding and inputs
 * checked; each outcome to each(user, o) as it comes (may be NULL). ctx must be of v's
 * backend. *n_failed counts failed runs and failed checks; skipped cases are not failures.
 * PL_OK when every case was tried; PL_ERR_CANCELLED, or the status of a setup failure (v
 * cannot run here, params illegal: nothing was run). */
pl_status pl_check_variant(pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const int64_t *params,
                           const uint64_t *seeds, int n_seeds, pl_check_fn each, void *user, int *n_runs,
                           int *n_failed);

/* Seconds a pl_bench_variant of v on plan would take (warm-up, repeats), from the variant's
 * rate in a probe at the kernel's named sizes (smallest first, larger while the probe is
 * quick). *seconds < 0 when it cannot tell. */
pl_status pl_bench_estimate(pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const int64_t *params,
                            const pl_pvalues *pv, const pl_plan *plan, const pl_bench_config *cfg,
                            double *seconds);

/* Run v once on the caller's host arrays: host[i] is operand i as the kernel's operands()
 * describes it for problem (the kernel's own problem struct). For a CUDA variant the inputs
 * go to the device, the outputs come back; nothing is verified or timed. The BLAS-like calls
 * (pl_sgemm, ...) are thin wrappers over this. */
pl_status pl_run_host(pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const int64_t *params,
                      const void *problem, void *const *host);
/* The same, and where phase_s is not NULL the seconds of each phase of this one call:
 * phase_s[PL_PHASE_ALLOC] device allocation (host wall clock), [PL_PHASE_H2D] the copies in,
 * [PL_PHASE_KERNEL] the run (CUDA events on the context's stream; on the CPU the wall clock
 * of the run), [PL_PHASE_D2H] the copies out. A phase that does not apply (all but the kernel
 * on the CPU) or was not reached is -1. */
/* Run v once on the caller's device arrays (a CUDA variant; CPU ones take host arrays here
 * too), on the caller's stream (a cudaStream_t; NULL: the legacy default stream, CuPy's and
 * PyTorch's default): dev[i] is operand i as operands() describes it. Stream-ordered and
 * asynchronous: the rung waits for the work queued on that stream before the call, and work
 * queued there after the call waits for the rung (events, no host synchronization); nothing
 * is copied. A failed launch is PL_ERR_CUDA. The Python package runs CuPy/PyTorch arrays through it. */
pl_status pl_run_device(pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const int64_t *params,
                        const void *problem, void *const *dev, void *stream);
pl_status pl_run_host_phases(pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const int64_t *params,
                             const void *problem, void *const *host, double phase_s[PL_N_PHASES]);

/* ---- sweeps: a variant over the cartesian product of parameter values */
enum { PL_SWEEP_MAX_VALUES = 64 };
typedef struct pl_sweep_axis {
    int param; /* index in the variant's parameter list */
    int n;
    int64_t values[PL_SWEEP_MAX_VALUES];
} pl_sweep_axis;
/* "tile=4,8,16" or "tile=all" (every legal value of a list or choice parameter). */
pl_status pl_sweep_axis_parse(const pl_variant *v, const char *spec, pl_sweep_axis *ax);
int64_t pl_sweep_count(const pl_sweep_axis *ax, int n_axes);
/* The parameter values of point i (0 <= i < count), the first axis varying fastest;
 * parameters on no axis keep their defaults. */
void pl_sweep_point(const pl_variant *v, const pl_sweep_axis *ax, int n_axes, int64_t i, int64_t *params);
/* The index in r of the fastest verified result on problem_id, -1 if none. */
int pl_results_best(const pl_result *r, int n, int problem_id);

/* ---- results beside their peers, as a table and as files */
/* Fill each rung's peers[] with its ratio to every peer in r[0..n) measured on the same
 * problem, backend and precision: at most PL_MAX_PEERS, each peer once, in the order of r. */
void pl_results_peer_ratios(pl_result *r, int n);
/* The aligned table; its rate column is the kernel's unit ("GFLOP/s", "Gcell/s"). */
void pl_report_table(FILE *f, const pl_result *r, int n);
/* The lines under the table: the checks and bounds per kernel and precision, flagged rows
 * (above the ceiling, failed checks), what "vs peer" holds, and where each user's rung stands
 * (pl_place_user_rung: the rungs just below and above it, each with its verdict). */
void pl_report_footer(FILE *f, const pl_result *r, int n);
/* The same as Markdown, as a lab report shows it: heading (the machine line) above the table,
 * then each line of pl_report_footer as a paragraph of its own. */
void pl_report_markdown(FILE *f, const char *heading, const pl_result *r, int n);
/* "tile=16,isa=auto" */
void pl_report_params(const pl_result *r, char *buf, size_t n);
typedef struct pl_report_info {
    const struct pl_peaks *peaks; /* may be NULL */
    const char *command;          /* the command line, for the record */
    const pl_pvalues *problem;    /* the run's problem parameters (--set), written as each JSON
                                   * row's "problem"; NULL: none written */
} pl_report_info;
/* Written to a temporary name and renamed: no partial file. Schema: docs/output.md. */
pl_status pl_report_json(const char *path, const pl_result *r, int n, const pl_report_info *info);
pl_status pl_report_csv(const char *path, const pl_result *r, int n, const pl_report_info *info);
/* PL_OK if a file can be created at path (tried and removed), so a run does not end with
 * an unwritable output. */
pl_status pl_report_path_writable(const char *path);

/* ---- two sets of timed runs compared: a user's rung against its neighbours on the ladder, and
 * two bench files (parlab compare, parlab.compare in Python) */
typedef enum pl_verdict {
    PL_VERDICT_SAME = 0,  /* no significant difference (or the interval holds 1) */
    PL_VERDICT_FASTER,    /* the after runs are faster */
    PL_VERDICT_SLOWER,
    PL_VERDICT_NO_SAMPLES /* a side has no timed runs one by one: medians only, no test */
} pl_verdict;
const char *pl_verdict_name(pl_verdict v); /* "same", "faster", "slower", "no samples" */
typedef struct pl_comparison {
    double speedup;  /* the before median / the after one: above 1, after is faster */
    double lo, hi;   /* the speedup's 95% bootstrap interval (NaN: no samples) */
    double p;        /* the two-sided Mann-Whitney U test's p (NaN: no samples) */
    pl_verdict verdict; /* faster or slower where p < 0.05 and the interval does not hold 1 */
} pl_comparison;
/* A result row of a bench or sweep JSON file, as compare matches it. */
typedef struct pl_bench_row {
    char kernel[32], variant[64], size[64];
    char params[256];  /* the variant's parameters, "NAME=VALUE" sorted by name, comma-joined */
    char problem[256]; /* the problem parameters as well ("" in files older than them) */
    int user;          /* a user's rung */
    double median_s;
    int n_samples;     /* 0 in files older than the samples */
    double samples[PL_MAX_SAMPLES];
} pl_bench_row;
/* Every result row of the bench/sweep JSON file at path, or of every *.json file of a directory
 * (by name); *rows malloc'd (free it). PL_ERR_IO or PL_ERR_FORMAT naming the file (and where). */
pl_status pl_bench_rows_read(const char *path, pl_bench_row **rows, int *n);
typedef struct pl_compare_opts {
    const char *kernel;             /* only this kernel's rows; NULL: all */
    const char *const *renames;     /* "OLD=NEW": a before variant named otherwise after;
                                     * "OLD:PARAM=VALUE=NEW": only its rows with that value,
                                     * the parameter dropped from them */
    int n_renames;
    const char *const *ignore;      /* parameters left out of the match on both sides */
    int n_ignore;
} pl_compare_opts;
typedef struct pl_compare_row {
    const pl_bench_row *before, *after; /* into the callers' arrays; one is NULL for a row found
                                         * on one side only */
    char variant[64];                   /* the name matched on (after the renames) */
    char params[256];                   /* the parameters matched on (less the ignored ones) */
    pl_comparison c;                    /* both sides present */
} pl_compare_row;
/* Rows matched by kernel, variant, size, variant parameters and problem parameters (the first
 * row of a key on each side counts): the matched ones in the before order, then the ones
 * found before only, then after only. *rows malloc'd (free it). A malformed rename is
 * PL_ERR_ARG naming it. */
pl_status pl_compare_runs(const pl_bench_row *before, int n_before, const pl_bench_row *after, int n_after,
                          const pl_compare_opts *opts, pl_compare_row **rows, int *n_rows);
/* The geometric mean of the matched rows' speedups (NaN: none). */
double pl_compare_geomean(const pl_compare_row *rows, int n);

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
    double gpu_gflops_tf32;      /* TF32 tensor-core peak, 2 flops per multiply-add; 0 = n/a */
    char gpu_tf32_method[12];    /* how it was measured: "wgmma", "mma.sync" or "none" */
    double cpu_gops_int32[2];    /* 32-bit integer/bitwise ops, best ISA, [0]: 1 thread, [1]: all;
                                    Gop/s, one op per 32-bit lane per instruction */
    double gpu_gops_int32;       /* Gop/s, one op per thread per LOP3/IADD3; 0 = no GPU */
    /* Streams on arrays as large as the triad's, all threads (GB/s of the bytes each moves):
     * read only (a SIMD sum), write only (the faster of non-temporal and plain stores,
     * cpu_write_nt says which), copy (b = a, read + written). cpu_read_1thr_gbps: the read
     * stream on one thread (a sanity check: all threads must not be slower). */
    double cpu_read_gbps, cpu_write_gbps, cpu_copy_gbps, cpu_read_1thr_gbps;
    int cpu_write_nt;
    /* Cache-resident streams (warm runs of problems that fit in the last-level cache):
     * read only and copy, all threads, on arrays of half of cpu_cache_bytes together. */
    double cpu_cache_read_gbps, cpu_cache_copy_gbps, cpu_cache_bytes;
    /* GPU streams: read only, write only (16-byte accesses), and read only and copy on half
     * of the L2 (gpu_cache_bytes) for warm runs that fit in it; 0 = no GPU. */
    double gpu_read_gbps, gpu_write_gbps, gpu_cache_read_gbps, gpu_cache_copy_gbps, gpu_cache_bytes;
    /* How they were taken: mode "quick"/"full" ("none": no GPU figures), when (UTC,
     * 2026-11-22T10:31:02Z), the 1-minute load average when the measuring began (-1:
     * unknown), the widest spread of repeated readings (best / median - 1) and what it was. */
    char cpu_mode[8], gpu_mode[8], measured[24];
    double load1, spread;
    char spread_what[40];
    /* The sanity verdict: sane = 1 with "ok" (or "not checked: ..."), else 0 and why. Only
     * sane figures are cached; others serve the run that measured them (cached = 0). */
    int sane;
    char sanity[200];
    int cached;   /* the figures are those of the cache file (read from it or written to it) */
    int implicit; /* pl_peaks_get measured them because none (or no usable ones) were cached
                   * (the CLI sets 2 where an earlier line of the same run measured them) */
    char implicit_why[200]; /* then: why the cache was not used ("no cached peaks ...", "... format 2 ...") */
};
typedef struct pl_peaks pl_peaks;
/* Load the cached peaks for this machine, or measure (quick) and cache them: then
 * pk->implicit is 1 (a caller that prints should say so), and figures that fail the sanity
 * checks (pk->sane 0, pk->sanity says why) are returned for this run but not cached. */
pl_status pl_peaks_get(pl_ctx *ctx, pl_peaks *pk, int measure_if_missing);
/* Measure now and cache. Figures that fail the sanity checks are not cached: pk holds them
 * (valid, sane 0, cached 0) and the status is PL_ERR_UNSUPPORTED with the reason. */
pl_status pl_peaks_measure(pl_ctx *ctx, pl_peaks *pk, int quick);
/* The cache file: $PARLAB_CACHE_DIR or $XDG_CACHE_HOME/parlab or ~/.cache/parlab. */
pl_status pl_cache_dir(char *buf, size_t n);

/* ---------------------------------------------------------------- outputs */

/* Every writer below (and pl_report_json/csv) writes its path this way: a symbolic link is
 * followed; a regular file (or none yet) is written to "<target>.tmp.<pid>" beside it and
 * renamed over it (no partial file, ever); a character device or FIFO is written through,
 * never replaced; "-" is standard output; a directory or any other file is refused.
 * pl_output_check: PL_OK if path can be written so (a temporary file tried and removed) -
 * the check a program makes before a long run. */
pl_status pl_output_check(const char *path);
/* Remove every temporary output file being written now. Async-signal-safe: call it from a
 * SIGINT/SIGTERM handler before ending the process (parlab's CLI does). */
void pl_remove_partial_outputs(void);

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

/* ---------------------------------------------------------------- images, many arrays in a file */

/* PGM (netpbm graymap): P2 (text) and P5 (binary), maxval 1..65535: maxval < 256 reads as a
 * rank-2 PL_U8 array H x W, else PL_U16 (P5 16-bit samples are big-endian). Malformed
 * headers, truncated data, samples above maxval and sizes beyond this process's memory are
 * PL_ERR_FORMAT / PL_ERR_TOO_BIG with the file name and what is wrong. */
pl_status pl_pgm_read(const char *path, pl_array *a);
/* a: rank 2, PL_U8 (maxval 255) or PL_U16 (maxval 65535); P5 (binary). Temporary + rename. */
pl_status pl_pgm_write(const char *path, const pl_array *a);
/* 8- or 16-bit grayscale PNG (other colour types are refused, naming them); PL_ERR_UNSUPPORTED
 * in a build without libpng (pl_png_available() == 0). */
int pl_png_available(void);
pl_status pl_png_read(const char *path, pl_array *a);
pl_status pl_png_write(const char *path, const pl_array *a);
/* An image or array by its content: .npy, PGM (P2/P5) or PNG. */
pl_status pl_image_read(const char *path, pl_array *a);
/* By the name's extension: .pgm, .png (PL_U8 or PL_U16, rank 2), anything else .npy. */
pl_status pl_image_write(const char *path, const pl_array *a);

/* Many named arrays in one file: a .npz (NumPy's zip of .npy members, stored, or deflated
 * where zlib was found) or parlab's batch file (.npy records back to back; names "0", "1", ...;
 * docs/output.md). pl_arrays_read tells them apart by content. */
typedef struct pl_named_array {
    char name[64];
    pl_array a;
} pl_named_array;
pl_status pl_arrays_read(const char *path, pl_named_array **arrays, int *count);
/* Writes parlab's batch file (or, for a name ending in .npz, a stored .npz). Temporary + rename. */
pl_status pl_arrays_write(const char *path, const pl_named_array *arrays, int count);
void pl_arrays_free(pl_named_array *arrays, int count);

#ifdef __cplusplus
}
#endif
#endif
