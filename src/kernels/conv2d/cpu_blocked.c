/* cpu-blocked: the output in bands of rows over threads; each band in groups of
 * CONV2D_BLOCK_ROWS rows computed by a register-blocked SIMD kernel (cpu_blocked_body.h:
 * the filter loops outside and unrolled, vectors across columns, each input vector loaded once
 * for every output row of the group that uses it).
 *
 * Borders cost nothing per pixel in the interior: for a group, each of its K - 1 + rows input
 * rows is a pointer chosen once by the border rule (the clamped or reflected row, or a row of
 * zeros), and only the r = K/2 edge columns on each side need more: their inputs are copied,
 * extended by the border rule, into a small padded buffer that the same kernel reads. Valid mode
 * reads the image rows directly. float32 and int32 share the driver (4-byte elements: the
 * copies move bits); the kernel has a copy for each. */
#include "core/core.h"
#include "kernels/conv2d/cpu_blocked.h"
#include "kernels/ladder.h"

#include <immintrin.h>
#include <string.h>

enum { STREAM_AUTO, STREAM_OFF, STREAM_ON };
static const char *const stream_choices[] = {[STREAM_AUTO] = "auto", [STREAM_OFF] = "off", [STREAM_ON] = "on", NULL};
enum { PREFETCH_ON, PREFETCH_OFF };
static const char *const prefetch_choices[] = {[PREFETCH_ON] = "on", [PREFETCH_OFF] = "off", NULL};

const pl_param_def pl_conv2d_cpu_blocked_params[] = {
    [PL_CONV2D_CPU_BLOCKED_ROWS] =
        {.name = "rows", .help = "output rows per band (a thread takes bands in turn)",
         .kind = PL_PARAM_RANGE, .min = 8, .max = 512, .step = 8, .def = 64},
    [PL_CONV2D_CPU_BLOCKED_ISA] = PL_ISA_PARAM,
    [PL_CONV2D_CPU_BLOCKED_STREAM] =
        {.name = "stream", .help = "streaming stores for the output (no read for ownership, past the caches): auto "
                                   "uses them when the output is 32 MiB or more and rows are 64-byte multiples",
         .kind = PL_PARAM_CHOICE, .choices = stream_choices, .def = STREAM_AUTO},
    [PL_CONV2D_CPU_BLOCKED_PREFETCH] =
        {.name = "prefetch", .help = "software prefetch of the input rows new to each group of rows (16 KiB ahead)",
         .kind = PL_PARAM_CHOICE, .choices = prefetch_choices, .def = PREFETCH_ON},
};
PL_CHECK_COUNT(pl_conv2d_cpu_blocked_params, PL_CONV2D_CPU_BLOCKED_N_PARAMS);

enum {
    MAX_IN_ROWS = CONV2D_BLOCK_ROWS + PL_CONV2D_MAX_K - 1,
    EDGE_WIDTH = 32 /* >= r + 2r: the edge outputs (at most r) and their 2r halo */
};
/* An output this large does not stay in the caches for whoever reads it next: stream it. 32 MiB,
 * not 64: a 4096^2 float block (64.0 MiB) streamed while the distributed window's interior of
 * the same block, one call of 4092 x 4096 outputs (63.9 MiB), did not, and ran 16-25% slower
 * (`mpirun -n 1 parlab bench conv2d 4096 --variant cpu-blocked --threads 1`, Zen 4: 16.2-21.0
 * ms against the rung's 13.2-13.8; 14.0-14.4 at 32 MiB). One thread here, 5x5 'same': streamed
 * / not, 2048^2 (16 MiB) 3.48 / 3.66 ms, 2896^2 (32 MiB) 6.53 / 7.15, 4096^2 12.9 / 15.0. */
#define STREAM_MIN_BYTES (32.0 * 1024 * 1024)
/* Below this many flops (about 0.3 ms of one core) one thread does it all. */
#define SMALL_FLOPS 3.2e7

/* What every band needs, set up once per call. */
typedef struct blocked_plan {
    const pl_conv2d_problem *p;
    const conv2d_simd_isa *isa;
    const uint32_t *img, *zero_row; /* 4-byte elements; zero_row: W zeros (same mode, zero border) */
    uint32_t *out;
    const void *wf;                 /* the filter as read: flip applied */
    int r;                          /* halo: K/2 in same mode, 0 in valid mode */
    int stream;                     /* the interior's outputs by streaming stores */
    int prefetch;                   /* software prefetch of the rows new to a group */
    int64_t xl, xr;                 /* outputs [0, xl) left edge, [xl, xr) interior, [xr, OW) right edge */
    int64_t left_cols[EDGE_WIDTH], right_cols[EDGE_WIDTH]; /* edge buffer column -> image column (-1: 0) */
} blocked_plan;

static void run_kernel(const blocked_plan *b, const uint32_t *const *in, uint32_t *const *out, int rows, int64_t n,
                       int stream)
{
    if (b->p->dtype == PL_I32)
        b->isa->i32(b->p->K, b->wf, (const int32_t *const *)in, (int32_t *const *)out, rows, n, stream, b->prefetch);
    else
        b->isa->f32(b->p->K, b->wf, (const float *const *)in, (float *const *)out, rows, n, stream, b->prefetch);
}

/* Copy the edge columns of the group's input rows, extended by the border rule, into buf and
 * run the kernel on them: outputs [x0, x0 + n) of rows y .. y + rows - 1. */
static void run_edge(const blocked_plan *b, const uint32_t *const *src, int in_rows, const int64_t *cols,
                     int64_t x0, int64_t n, uint32_t *const *out, int rows)
{
    uint32_t buf[MAX_IN_ROWS][EDGE_WIDTH];
    const uint32_t *in[MAX_IN_ROWS];
    uint32_t *edge_out[CONV2D_BLOCK_ROWS];
    const int64_t width = n + 2 * b->r;
    for (int yy = 0; yy < in_rows; yy++) {
        for (int64_t c = 0; c < width; c++) buf[yy][c] = cols[c] < 0 ? 0 : src[yy][cols[c]];
        in[yy] = buf[yy];
    }
    for (int o = 0; o < rows; o++) edge_out[o] = out[o] + x0;
    run_kernel(b, in, edge_out, rows, n, 0);
}

/* Output rows y .. y + rows - 1 (rows <= CONV2D_BLOCK_ROWS). */
static void run_group(const blocked_plan *b, int64_t y, int rows)
{
    const pl_conv2d_problem *p = b->p;
    const int in_rows = rows + p->K - 1;
    const uint32_t *src[MAX_IN_ROWS], *in[MAX_IN_ROWS];
    uint32_t *out[CONV2D_BLOCK_ROWS];
    for (int yy = 0; yy < in_rows; yy++) {
        int64_t row = p->mode == PL_CONV2D_SAME ? pl_conv2d_border_index(p->border, y + yy - b->r, p->H) : y + yy;
        src[yy] = row < 0 ? b->zero_row : b->img + row * p->ld_img;
    }
    for (int o = 0; o < rows; o++) out[o] = b->out + (y + o) * p->ld_out;
    if (b->xr > b->xl) {
        uint32_t *mid[CONV2D_BLOCK_ROWS];
        for (int yy = 0; yy < in_rows; yy++) in[yy] = src[yy] + (b->xl - b->r); /* column xl - r >= 0 */
        for (int o = 0; o < rows; o++) mid[o] = out[o] + b->xl;
        run_kernel(b, in, mid, rows, b->xr - b->xl, b->stream);
    }
    if (b->xl > 0) run_edge(b, src, in_rows, b->left_cols, 0, b->xl, out, rows);
    if (b->xr < p->OW) run_edge(b, src, in_rows, b->right_cols, b->xr, p->OW - b->xr, out, rows);
}

pl_status pl_conv2d_cpu_blocked(const pl_run_args *a)
{
    const pl_conv2d_problem *p = a->problem;
    int wide;
    pl_status s = pl_isa_pick(a->params[PL_CONV2D_CPU_BLOCKED_ISA], &wide);
    if (s != PL_OK) return s;
    const int64_t band = a->params[PL_CONV2D_CPU_BLOCKED_ROWS];
    blocked_plan b = {.p = p, .isa = wide ? &pl_conv2d_simd_avx512 : &pl_conv2d_simd_avx2};
    b.img = a->data[0];
    b.out = a->data[2];
    /* The filter as the kernel reads it: tap (i, j) at i*K + j, the flip applied here once. */
    uint32_t wf[PL_CONV2D_MAX_K * PL_CONV2D_MAX_K];
    const uint32_t *w = a->data[1];
    for (int i = 0; i < p->K; i++)
        for (int j = 0; j < p->K; j++) wf[i * p->K + j] = w[pl_conv2d_tap(p->K, p->flip, i, j)];
    b.wf = wf;
    uint32_t *zero_row = NULL;
    if (p->mode == PL_CONV2D_SAME) {
        b.r = p->K / 2;
        b.xl = b.r < p->W ? b.r : p->W;
        b.xr = p->W - b.r > b.xl ? p->W - b.r : b.xl;
        for (int64_t c = 0; c < b.xl + 2 * b.r; c++) b.left_cols[c] = pl_conv2d_border_index(p->border, c - b.r, p->W);
        for (int64_t c = 0; c < p->W - b.xr + 2 * b.r; c++)
            b.right_cols[c] = pl_conv2d_border_index(p->border, b.xr - b.r + c, p->W);
        if (p->border == PL_CONV2D_ZERO) {
            zero_row = pl_alloc((size_t)p->W * sizeof *zero_row);
            if (!zero_row) return pl_fail(PL_ERR_NOMEM, "conv2d cpu-blocked: out of host memory for a zero row");
            memset(zero_row, 0, (size_t)p->W * sizeof *zero_row);
        }
    } else {
        b.r = 0, b.xl = 0, b.xr = p->OW;
    }
    b.zero_row = zero_row;
    b.prefetch = a->params[PL_CONV2D_CPU_BLOCKED_PREFETCH] == PREFETCH_ON;
    /* Streaming stores need every row of a group equally aligned: a row pitch of 64 bytes. */
    const int64_t stream = a->params[PL_CONV2D_CPU_BLOCKED_STREAM];
    b.stream = stream != STREAM_OFF && (p->ld_out * 4) % 64 == 0 &&
               (stream == STREAM_ON || 4.0 * (double)p->OH * (double)p->ld_out >= STREAM_MIN_BYTES);
    const int64_t n_bands = (p->OH + band - 1) / band;
    /* A small problem runs on one thread: a fraction of a millisecond of work, against an
     * OpenMP team that on a busy machine can wait milliseconds for its second core. */
    const int threads = 2.0 * p->K * p->K * (double)p->OH * (double)p->OW < SMALL_FLOPS ? 1 : pl_ctx_threads(a->ctx);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int64_t t = 0; t < n_bands; t++) {
        const int64_t y0 = t * band, y1 = y0 + band < p->OH ? y0 + band : p->OH;
        for (int64_t y = y0; y < y1; y += CONV2D_BLOCK_ROWS)
            run_group(&b, y, (int)(y1 - y < CONV2D_BLOCK_ROWS ? y1 - y : CONV2D_BLOCK_ROWS));
        if (b.stream) _mm_sfence(); /* streamed outputs visible before the band counts as done */
    }
    pl_free(zero_row);
    return PL_OK;
}
