/* conv2d.h: the conv2d room's face. out = image (*) filter, a K x K filter (K odd, 1..15) over
 * an H x W single-channel image, int32 or float32 (image, filter and output of one dtype).
 *   valid: out is (H-K+1) x (W-K+1), out[y][x] = sum_{i,j} w[i][j] * img[y+i][x+j]
 *   same:  out is H x W, out[y][x] = sum_{i,j} w[i][j] * img'[y+i-r][x+j-r], r = K/2, where
 *          img' extends the image by the border rule: zero (0 outside), clamp (the nearest
 *          edge pixel, "replicate"), reflect (mirror without repeating the edge pixel:
 *          index -1 reads 1, as numpy's 'reflect' and OpenCV's BORDER_REFLECT_101).
 * Cross-correlation by default (as cuDNN's CROSS_CORRELATION, OpenCV's filter2D); flip = 1 is
 * true convolution: w[i][j] is read as w[K-1-i][K-1-j] (pl_conv2d_tap). int32 results are
 * exact (the spec keeps every sum inside int32); float32 ones are checked against float64.
 *
 * Every rung is a pl_status run(const pl_run_args *) over operands
 *   data[0] = image  (H x W, row pitch ld_img >= W, IN)
 *   data[1] = filter (K x K, pitch K, IN)
 *   data[2] = out    (OH x OW, row pitch ld_out >= OW, OUT: the harness poisons it)
 * of dtype p->dtype (PL_F32 or PL_I32). */
#ifndef PL_CONV2D_H
#define PL_CONV2D_H

#include "parlab.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define PL_CONV2D_HD __host__ __device__
#else
#define PL_CONV2D_HD
#endif

enum { PL_CONV2D_MAX_K = 15 };
/* pl_conv2d_mode (PL_CONV2D_VALID, _SAME) and pl_conv2d_border (PL_CONV2D_ZERO, _CLAMP,
 * _REFLECT) are public: include/parlab.h. */

typedef struct pl_conv2d_problem {
    int64_t H, W;          /* the image */
    int K;                 /* the filter is K x K, K odd in 1..15 */
    pl_dtype dtype;        /* PL_F32 or PL_I32 */
    int mode;              /* pl_conv2d_mode */
    int border;            /* pl_conv2d_border (same mode only) */
    int flip;              /* 1: true convolution */
    int64_t OH, OW;        /* the output: valid (H-K+1) x (W-K+1), same H x W */
    int64_t ld_img, ld_out;/* row pitches in elements */
    /* A filter given as a problem parameter (--set filter=1,2,1,... or a .npy file): K*K values
     * in the problem's dtype, owned (destroy_problem frees); NULL: fill() makes a seeded one. */
    void *filter;
} pl_conv2d_problem;

extern const pl_kernel pl_conv2d_kernel; /* ladder.c */

/* Validate sizes, K, mode, border and pitches, with a message naming the problem. */
pl_status pl_conv2d_check(const pl_conv2d_problem *p);

/* The filter index a rung reads for tap (i, j): flipped for true convolution. */
static inline PL_CONV2D_HD int pl_conv2d_tap(int K, int flip, int i, int j)
{
    return flip ? (K - 1 - i) * K + (K - 1 - j) : i * K + j;
}
/* Where the border rule sends index v of an axis of n pixels (same mode): -1 for zero outside
 * the image; the clamped or reflected index otherwise (reflect with period 2(n-1); n = 1 -> 0). */
static inline PL_CONV2D_HD int64_t pl_conv2d_border_index(int border, int64_t v, int64_t n)
{
    if (v >= 0 && v < n) return v;
    if (border == PL_CONV2D_ZERO) return -1;
    if (border == PL_CONV2D_CLAMP) return v < 0 ? 0 : n - 1;
    if (n == 1) return 0;
    int64_t period = 2 * (n - 1), m = v % period;
    if (m < 0) m += period;
    return m < n ? m : period - m;
}

/* ---- added by the room (spec.c, api.c): what the ladder, the API and the tool share. */

/* The output's shape from mode, H, W and K (valid: (H-K+1) x (W-K+1), same: H x W). */
static inline void pl_conv2d_set_shape(pl_conv2d_problem *p)
{
    p->OH = p->mode == PL_CONV2D_SAME ? p->H : p->H - p->K + 1;
    p->OW = p->mode == PL_CONV2D_SAME ? p->W : p->W - p->K + 1;
}

/* int32: PL_ERR_ARG, naming the bound, when sum |w| * max |x| (the largest magnitude any
 * output can reach) could leave int32; PL_OK for float32 problems. */
pl_status pl_conv2d_check_i32_range(const pl_conv2d_problem *p, const void *image, const void *filter);

/* (cuda_pad.cu; CUDA builds only) The distributed layer's window on the device: the
 * cells of the bands (n <= 4 rectangles r0, r1, c0, c1 of window coordinates) that lie outside
 * the H x W image are filled by the border rule from the cells inside it. Window cell (y, x)
 * is image pixel (y + oy, x + ox); rows ld elements apart; stream-ordered on stream. */
pl_status pl_conv2d_pad_device(void *win, pl_dtype dtype, int64_t ld, int64_t oy, int64_t ox, int64_t H, int64_t W,
                               int border, const int64_t bands[][4], int n, void *stream);

/* pl_conv2d_variant on a problem struct (api.c; its shape set by pl_conv2d_set_shape), for a
 * caller who built the problem once: the same checks, the int32 range among them. */
pl_status pl_conv2d_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params,
                                    const pl_conv2d_problem *p, const void *image, const void *filter, void *out);

/* A filter from text: a comma list of K*K numbers ("1,2,1,2,4,2,1,2,1"), or the path of a
 * .npy holding a K x K (or K*K) array. *values (malloc'd, K*K in dtype: float32, or int32
 * where every value must be an integer) and *K on success; a count that is not an odd square
 * up to 15*15, a bad number or a bad file is PL_ERR_ARG / PL_ERR_IO / PL_ERR_FORMAT naming it. */
pl_status pl_conv2d_filter_parse(const char *text, pl_dtype dtype, void **values, int *K);

/* The problem parameters (spec.c), by index into pl_pvalues.num and .str (kernels/ladder.h:
 * counting). */
enum { PL_CONV2D_PROBLEM_K, PL_CONV2D_PROBLEM_DTYPE, PL_CONV2D_PROBLEM_MODE, PL_CONV2D_PROBLEM_BORDER,
       PL_CONV2D_PROBLEM_FLIP, PL_CONV2D_PROBLEM_FILTER, PL_CONV2D_PROBLEM_PAD, PL_CONV2D_PROBLEM_N_PARAMS };
extern const pl_param_def pl_conv2d_problem_params[];

/* The spec (spec.c), for the kernel table in ladder.c. */
pl_status pl_conv2d_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv);
void pl_conv2d_spec_destroy_problem(void *problem);
void pl_conv2d_spec_describe(const void *problem, char *buf, size_t n);
pl_status pl_conv2d_spec_operands(const void *problem, pl_tensor *t, int *n);
void pl_conv2d_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed);
pl_status pl_conv2d_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale);
double pl_conv2d_spec_reference_ops(const void *problem);
double pl_conv2d_spec_error_bound(const void *problem, pl_precision prec, const char **why);
double pl_conv2d_spec_elem_bound(const void *problem, pl_precision prec, const char **why);
pl_status pl_conv2d_spec_check_sampled(const void *problem, const pl_tensor *t, int n, const pl_tensor *out,
                                       pl_precision prec, uint64_t seed, pl_check_result *res);
double pl_conv2d_spec_ops(const void *problem);
double pl_conv2d_spec_bytes(const void *problem);
double pl_conv2d_spec_bytes_written(const void *problem);

/* The rungs' parameters, by index into pl_run_args.params; each table is defined beside its rung. */
enum { PL_CONV2D_CPU_BLOCKED_ROWS, PL_CONV2D_CPU_BLOCKED_ISA, PL_CONV2D_CPU_BLOCKED_STREAM,
       PL_CONV2D_CPU_BLOCKED_PREFETCH, PL_CONV2D_CPU_BLOCKED_N_PARAMS };
enum { PL_CONV2D_CUDA_BLOCK, PL_CONV2D_CUDA_BLOCK_N_PARAMS }; /* cuda-naive, cuda-shared/constant-filter */
enum { PL_CONV2D_CUDA_TILED_TILE, PL_CONV2D_CUDA_TILED_N_PARAMS };
enum { PL_CONV2D_CUDA_TUNED_ROWS, PL_CONV2D_CUDA_TUNED_SEP, PL_CONV2D_CUDA_TUNED_PATH, PL_CONV2D_CUDA_TUNED_N_PARAMS };
extern const pl_param_def pl_conv2d_cpu_blocked_params[]; /* cpu_blocked.c */
extern const pl_param_def pl_conv2d_cuda_block_params[];  /* cuda_naive.cu */
extern const pl_param_def pl_conv2d_cuda_tiled_params[];  /* cuda_tiled.cu */
extern const pl_param_def pl_conv2d_cuda_tuned_params[];  /* cuda_tuned.cu */

/* The rungs, in ladder order (ladder.c). CUDA ones exist only in CUDA builds; the cuDNN peer
 * only where cuDNN was found at configure time (PL_HAVE_CUDNN). */
pl_status pl_conv2d_cpu_naive(const pl_run_args *a);
pl_status pl_conv2d_cpu_blocked(const pl_run_args *a);
pl_status pl_conv2d_cuda_naive(const pl_run_args *a);
pl_status pl_conv2d_cuda_shared_filter(const pl_run_args *a);
pl_status pl_conv2d_cuda_constant_filter(const pl_run_args *a);
pl_status pl_conv2d_cuda_tiled(const pl_run_args *a);
pl_status pl_conv2d_cuda_tuned(const pl_run_args *a);
pl_status pl_conv2d_peer_cudnn(const pl_run_args *a);

/* Images for the rungs (image.c). A .npy image of float32 or int32 keeps its type: dtype_given
 * with asked another is PL_ERR_ARG naming both. */
pl_status pl_conv2d_image_dtype(const char *path, pl_dtype has, int dtype_given, pl_dtype asked);
/* img (rank 2) as the problem's dtype: float32 or int32 taken as it is (*dtype set to it),
 * uint8/uint16 converted to *dtype in place; another rank or type is PL_ERR_FORMAT. */
pl_status pl_conv2d_image_as(const char *path, pl_array *img, int dtype_given, pl_dtype *dtype);
/* out (float32 or int32) to path: depth 0 as it is, 8 or 16 an image of that depth, rounded
 * (halves away from zero) and clamped, *clamped the pixels outside its range (NaN among them,
 * written as 0); -1 for depth 0. */
pl_status pl_conv2d_image_write(const char *path, const pl_array *out, int depth, int64_t *clamped);
/* The tool's one problem: an H x W image of dtype (dense rows) and the K x K filter parsed from
 * filter_text in dtype (*filter malloc'd, the one it held freed; given to the rung apart), with
 * the mode, border and flip of opts; the output's shape set (dense rows) and the whole checked. */
pl_status pl_conv2d_problem_for(const pl_conv2d_problem *opts, const char *filter_text, int64_t H, int64_t W,
                                pl_dtype dtype, void **filter, pl_conv2d_problem *p);

/* A user's rung called with the problem's arguments (api.c; pl_kernel.call_user). */
pl_status pl_conv2d_call_user(void (*fn)(void), const pl_run_args *a);

#ifdef __cplusplus
}
#endif
#endif
