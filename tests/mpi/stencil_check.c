/* stencil_check.c: the distributed conv2d and entropy (src/distributed/stencil/stencil_ranks.h), run by
 * test_mpi_stencil.sh under mpirun on 1, 2, 3 and 4 ranks. Rank 0 makes seeded random inputs,
 * scatters them, every rank runs its block, rank 0 gathers the output and compares it with
 * the one-process run of the same rung on the whole image: int32 conv2d and entropy exactly
 * (bit for bit), float32 conv2d within twice the kernel's element bound (both sides are within
 * it of the exact sum). Every border and mode, int32 and float32, K = 1, 3, 5, 7; entropy k =
 * 3, 5, 7 with 16 and 256 bins; overlap on, off and auto; sizes that do not divide (1x7, 7x5,
 * 67x61, 1000x1001). Then the refusals and faults: a grid too fine for the halo (refused on
 * every rank alike, or run on one rank), a value >= bins and an int32 range overflow on the
 * last rank only (that rank fails, no rank hangs, the agreed message names the pixel). The
 * exit status is 1 on any rank's failure.
 * `stencil_check cuda nccl|host` (test_mpi_nccl_stencil.sh) runs the same on a CUDA
 * context (each rank the GPU of its local rank), the rung the best CUDA one, against the
 * one-process GPU run, and checks that every plan took the path named: nccl (the window on
 * the GPU, halos on NCCL) or host (more ranks than GPUs: the host path). On the NCCL path the
 * runs with overlap auto go through the resident calls (upload, two run_resident, download). */
#include "distributed/stencil/stencil_ranks.h"

#include "check.h"
#include "core/device.h"

#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int rank_, size_;
static pl_ctx *ctx_;
static int cases_, overlapped_;
static int want_nccl_ = -1; /* cuda mode: 1 every plan on the NCCL path, 0 none; -1 the CPU mode */

#define RCHECK(cond, ...) CHECK(cond, "rank %d: " __VA_ARGS__)

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* a value in [lo, hi] */
static int64_t rand_int(uint64_t *s, int64_t lo, int64_t hi) { return lo + (int64_t)(rng(s) % (uint64_t)(hi - lo + 1)); }
static float rand_float(uint64_t *s) { return (float)((double)(rng(s) >> 11) / 9007199254740992.0 * 2.0 - 1.0); }

static const int overlaps_[] = {PL_DIST_OVERLAP_ON, PL_DIST_OVERLAP_OFF, PL_DIST_OVERLAP_AUTO};
static const char *const overlap_names[] = {"auto", "on", "off"}; /* by PL_DIST_OVERLAP_* */

/* Whether every rank got status s (the same on all). */
static int all_same(int s)
{
    int lo, hi;
    MPI_Allreduce(&s, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&s, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi;
}

/* create's status s for a window of halo r on g: the same on every rank; refused as too fine
 * for the halo exactly where P > 1 and the smallest block is thinner than r, else PL_OK.
 * Returns 1 where the blocks are roomy enough that overlap ON must overlap. */
static int check_created(const pl_dist_grid *g, int64_t H, int64_t W, int r, pl_status s, const char *label)
{
    int64_t min_rows, min_cols;
    pl_dist_block_min(g, H, W, &min_rows, &min_cols);
    RCHECK(all_same(s), "%s: create's status differs between ranks", rank_, label);
    if (size_ > 1 && (r > min_rows || r > min_cols))
        RCHECK(s == PL_ERR_ARG && strstr(pl_last_error(), "needs a halo of"), "%s: a grid too fine for the halo: %s",
               rank_, label, pl_last_error());
    else
        RCHECK(s == PL_OK, "%s: create: %s", rank_, label, pl_last_error());
    return size_ > 1 && r > 0 && min_rows > 6 * r + 3 && min_cols > 6 * r + 3;
}

/* run's status s where a bad pixel sits on the last rank: that rank fails with a message
 * holding want, the others run; the agreed failure reaches every rank, rank 0 gets want. */
static void check_fault(pl_status s, const char *want, const char *label)
{
    const int last = rank_ == size_ - 1;
    RCHECK(last ? s == PL_ERR_ARG && strstr(pl_last_error(), want) : s == PL_OK, "%s: a fault on the last rank: %s",
           rank_, label, s == PL_OK ? "ok" : pl_last_error());
    char first[256];
    int from;
    RCHECK(pl_dist_agree(s == PL_OK ? 0 : 2, pl_last_error(), first, sizeof first, &from) == 2, "%s: agree", rank_,
           label);
    if (rank_ == 0) RCHECK(from == size_ - 1 && strstr(first, want), "%s: agreed '%s'", rank_, label, first);
}

/* ---------------------------------------------------------------- conv2d */

/* sum |w| |x'| of output (y, x) in float64: the float32 bound's scale. */
static double conv_scale(const pl_conv2d_problem *p, const float *img, const float *w, int64_t y, int64_t x)
{
    const int r = p->K / 2, shift = p->mode == PL_CONV2D_VALID ? r : 0;
    double s = 0;
    for (int i = 0; i < p->K; i++)
        for (int j = 0; j < p->K; j++) {
            int64_t yy = pl_conv2d_border_index(p->border, y + shift + i - r, p->H);
            int64_t xx = pl_conv2d_border_index(p->border, x + shift + j - r, p->W);
            if (yy >= 0 && xx >= 0) s += fabs((double)w[pl_conv2d_tap(p->K, p->flip, i, j)]) * fabs(img[yy * p->W + xx]);
        }
    return s;
}

/* One distributed conv2d against the one-process rung. bad_at >= 0 puts a too large int32
 * value at that global pixel (the last rank's), so that rank fails. */
static void check_conv(int64_t H, int64_t W, int K, pl_dtype dtype, int mode, int border, int overlap, int64_t bad_at)
{
    char label[160];
    snprintf(label, sizeof label, "conv2d %lldx%lld K=%d %s %s %s overlap %s on %d ranks", (long long)H, (long long)W,
             K, pl_dtype_name(dtype), mode == PL_CONV2D_SAME ? "same" : "valid",
             (const char *[]){"zero", "clamp", "reflect"}[border], overlap_names[overlaps_[overlap]], size_);
    pl_dist_grid g;
    if (pl_dist_grid_create(&g, H, W, 0) != PL_OK) return; /* more ranks than rows: dist_check's */
    pl_conv2d_problem p = {.H = H, .W = W, .K = K, .dtype = dtype, .mode = mode, .border = border, .flip = K == 3};
    pl_conv2d_set_shape(&p);
    const size_t e = pl_dtype_size(dtype);
    uint64_t seed = (uint64_t)(H * 1000003 + W * 101 + K * 7 + mode * 3 + border);
    void *image = NULL, *whole_out = NULL, *ref = NULL;
    char filter[PL_CONV2D_MAX_K * PL_CONV2D_MAX_K * 4];
    for (int i = 0; i < K * K; i++)
        if (dtype == PL_I32) ((int32_t *)filter)[i] = (int32_t)rand_int(&seed, -3, 3);
        else ((float *)filter)[i] = rand_float(&seed);
    if (rank_ == 0) {
        image = malloc((size_t)(H * W) * e), whole_out = malloc((size_t)(p.OH * p.OW) * e + 1);
        ref = malloc((size_t)(p.OH * p.OW) * e + 1);
        for (int64_t i = 0; i < H * W; i++)
            if (dtype == PL_I32) ((int32_t *)image)[i] = (int32_t)rand_int(&seed, -100, 100);
            else ((float *)image)[i] = rand_float(&seed);
        if (bad_at >= 0) ((int32_t *)image)[bad_at] = INT32_MAX / 2;
        memset(whole_out, 0xff, (size_t)(p.OH * p.OW) * e + 1);
    }
    const pl_dist_block b = pl_dist_block_of(&g, H, W), ob = pl_dist_conv2d_out_block(&g, &p);
    const int64_t ld_in = b.x1 - b.x0 + 1, ld_out = ob.x1 - ob.x0 + 2;
    void *in = malloc((size_t)((b.y1 - b.y0) * ld_in) * e), *out = malloc((size_t)((ob.y1 - ob.y0) * ld_out) * e + 1);
    memset(out, 0xff, (size_t)((ob.y1 - ob.y0) * ld_out) * e + 1);
    pl_dist_scatter(&g, image, H, W, e, in, ld_in);

    pl_dist_conv2d_plan *c;
    pl_status s = pl_dist_conv2d_create(&c, &g, ctx_, NULL, NULL, &p, filter, overlaps_[overlap]);
    const int roomy = check_created(&g, H, W, K / 2, s, label);
    if (s == PL_OK) {
        if (want_nccl_ >= 0) RCHECK(pl_dist_conv2d_on_nccl(c) == want_nccl_, "%s: on NCCL: %d", rank_, label,
                                    pl_dist_conv2d_on_nccl(c));
        if (pl_dist_conv2d_on_nccl(c) && overlaps_[overlap] == PL_DIST_OVERLAP_AUTO && bad_at < 0) {
            s = pl_dist_conv2d_upload(c, in, ld_in);
            for (int i = 0; i < 2 && s == PL_OK; i++) s = pl_dist_conv2d_run_resident(c);
            if (s == PL_OK) s = pl_dist_conv2d_download(c, out, ld_out);
        } else {
            s = pl_dist_conv2d_run(c, in, ld_in, out, ld_out);
        }
        if (bad_at >= 0) check_fault(s, "could leave int32", label);
        else RCHECK(s == PL_OK, "%s: run: %s", rank_, label, pl_last_error());
        cases_++, overlapped_ += pl_dist_conv2d_overlaps(c);
        /* the overlap path is the one asked for wherever there is a halo and an interior */
        if (overlaps_[overlap] == PL_DIST_OVERLAP_ON && roomy)
            RCHECK(pl_dist_conv2d_overlaps(c), "%s: did not overlap", rank_, label);
        if (overlaps_[overlap] == PL_DIST_OVERLAP_OFF || (overlaps_[overlap] == PL_DIST_OVERLAP_AUTO && pl_dist_conv2d_on_nccl(c)))
            RCHECK(!pl_dist_conv2d_overlaps(c), "%s: overlapped (auto does not on GPUs)", rank_, label);
        const pl_dist_times t = pl_dist_conv2d_times(c);
        RCHECK(t.compute >= 0 && t.exchange >= 0 && t.wait >= 0, "%s: times", rank_, label);
        if (bad_at < 0) {
            pl_dist_conv2d_gather(&g, &p, out, ld_out, whole_out);
            if (rank_ == 0) {
                pl_conv2d_problem one = p;
                one.ld_img = W, one.ld_out = p.OW;
                RCHECK(pl_conv2d_variant_problem(ctx_, pl_dist_conv2d_rung(c), NULL, &one, image, filter, ref) == PL_OK,
                       "%s: one process: %s", rank_, label, pl_last_error());
                const double bound = 2 * pl_conv2d_spec_elem_bound(&p, PL_PREC_FP32, NULL);
                int64_t wrong = 0, first = -1;
                for (int64_t i = 0; i < p.OH * p.OW; i++) {
                    int ok;
                    if (dtype == PL_I32) ok = ((int32_t *)whole_out)[i] == ((int32_t *)ref)[i];
                    else {
                        const double a = ((float *)whole_out)[i], r = ((float *)ref)[i];
                        ok = fabs(a - r) <= bound * conv_scale(&p, image, (const float *)filter, i / p.OW, i % p.OW);
                    }
                    if (!ok && first < 0) first = i;
                    wrong += !ok;
                }
                RCHECK(!wrong, "%s: %lld of %lld outputs differ from one process, the first at (%lld, %lld)", rank_,
                       label, (long long)wrong, (long long)(p.OH * p.OW), (long long)(first / p.OW),
                       (long long)(first % p.OW));
                RCHECK(((unsigned char *)whole_out)[p.OH * p.OW * e] == 0xff, "%s: wrote past the output", rank_, label);
            }
        }
        RCHECK(((unsigned char *)out)[(ob.y1 - ob.y0) * ld_out * e] == 0xff, "%s: wrote past the block", rank_, label);
        pl_dist_conv2d_destroy(c);
    }
    free(in), free(out), free(image), free(whole_out), free(ref);
    pl_dist_grid_destroy(&g);
}

/* ---------------------------------------------------------------- entropy */

/* One distributed entropy against the one-process rung, bit for bit. bad_at >= 0 puts a value
 * >= bins at that global pixel (the last rank's). */
static void check_entropy(int64_t H, int64_t W, int k, int bins, int overlap, int64_t bad_at)
{
    char label[160];
    snprintf(label, sizeof label, "entropy %lldx%lld k=%d bins=%d overlap %s on %d ranks", (long long)H, (long long)W,
             k, bins, overlap_names[overlaps_[overlap]], size_);
    pl_dist_grid g;
    if (pl_dist_grid_create(&g, H, W, 0) != PL_OK) return;
    pl_entropy_problem p = {.H = H, .W = W, .k = k, .bins = bins, .base2 = k == 5};
    uint64_t seed = (uint64_t)(H * 7919 + W * 13 + k * 5 + bins);
    uint8_t *image = NULL;
    float *whole_out = NULL, *ref = NULL;
    if (rank_ == 0) {
        image = malloc((size_t)(H * W)), whole_out = malloc(sizeof(float) * (size_t)(H * W));
        ref = malloc(sizeof(float) * (size_t)(H * W));
        /* few distinct values in places, so windows repeat values */
        for (int64_t i = 0; i < H * W; i++) image[i] = (uint8_t)rand_int(&seed, 0, (i / W) % 3 ? bins - 1 : 2);
        if (bad_at >= 0) image[bad_at] = (uint8_t)bins;
        memset(whole_out, 0xff, sizeof(float) * (size_t)(H * W));
    }
    const pl_dist_block b = pl_dist_block_of(&g, H, W);
    const int64_t h = b.y1 - b.y0, w = b.x1 - b.x0, ld_in = w + 3, ld_out = w + 1;
    uint8_t *in = malloc((size_t)(h * ld_in));
    float *out = malloc(sizeof(float) * (size_t)(h * ld_out));
    memset(out, 0xff, sizeof(float) * (size_t)(h * ld_out));
    pl_dist_scatter(&g, image, H, W, 1, in, ld_in);

    pl_dist_entropy_plan *e;
    pl_status s = pl_dist_entropy_create(&e, &g, ctx_, NULL, NULL, &p, overlaps_[overlap]);
    const int roomy = check_created(&g, H, W, k / 2, s, label);
    if (s == PL_OK) {
        if (want_nccl_ >= 0) RCHECK(pl_dist_entropy_on_nccl(e) == want_nccl_, "%s: on NCCL: %d", rank_, label,
                                    pl_dist_entropy_on_nccl(e));
        if (pl_dist_entropy_on_nccl(e) && overlaps_[overlap] == PL_DIST_OVERLAP_AUTO && bad_at < 0) {
            s = pl_dist_entropy_upload(e, in, ld_in);
            for (int i = 0; i < 2 && s == PL_OK; i++) s = pl_dist_entropy_run_resident(e);
            if (s == PL_OK) s = pl_dist_entropy_download(e, out, ld_out);
        } else {
            s = pl_dist_entropy_run(e, in, ld_in, out, ld_out);
        }
        char want[96]; /* the bad pixel, in the image's coordinates */
        snprintf(want, sizeof want, "value %d at pixel (row %lld, col %lld)", bins, (long long)(bad_at / W),
                 (long long)(bad_at % W));
        if (bad_at >= 0) check_fault(s, want, label);
        else RCHECK(s == PL_OK, "%s: run: %s", rank_, label, pl_last_error());
        cases_++, overlapped_ += pl_dist_entropy_overlaps(e);
        if (overlaps_[overlap] == PL_DIST_OVERLAP_ON && roomy)
            RCHECK(pl_dist_entropy_overlaps(e), "%s: did not overlap", rank_, label);
        if (overlaps_[overlap] == PL_DIST_OVERLAP_OFF || (overlaps_[overlap] == PL_DIST_OVERLAP_AUTO && pl_dist_entropy_on_nccl(e)))
            RCHECK(!pl_dist_entropy_overlaps(e), "%s: overlapped (auto does not on GPUs)", rank_, label);
        if (bad_at < 0) {
            pl_dist_gather(&g, out, ld_out, whole_out, H, W, sizeof(float));
            if (rank_ == 0) {
                pl_entropy_problem one = p;
                one.ld_in = one.ld_out = W;
                RCHECK(pl_entropy_variant_phases(ctx_, pl_dist_entropy_rung(e), NULL, &one, image, ref, NULL) == PL_OK,
                       "%s: one process: %s", rank_, label, pl_last_error());
                int64_t wrong = 0, first = -1;
                for (int64_t i = 0; i < H * W; i++)
                    if (memcmp(&whole_out[i], &ref[i], sizeof(float))) wrong++, first = first < 0 ? i : first;
                RCHECK(!wrong, "%s: %lld of %lld outputs differ from one process, the first at (%lld, %lld)", rank_,
                       label, (long long)wrong, (long long)(H * W), (long long)(first / W), (long long)(first % W));
            }
        }
        pl_dist_entropy_destroy(e);
    }
    free(in), free(out), free(image), free(whole_out), free(ref);
    pl_dist_grid_destroy(&g);
}

int main(int argc, char **argv)
{
    if (pl_dist_start(&argc, &argv) != PL_OK || !pl_dist_active()) {
        fprintf(stderr, "stencil_check: run me under mpirun\n");
        return 2;
    }
    rank_ = pl_dist_rank(), size_ = pl_dist_size();
    const int cuda = argc > 1 && !strcmp(argv[1], "cuda");
    if (cuda) want_nccl_ = argc > 2 && !strcmp(argv[2], "nccl");
    if (cuda && pl_dev_count() < 1) {
        fprintf(stderr, "stencil_check: cuda: no GPU\n");
        return 2;
    }
    if ((cuda ? pl_ctx_create(&ctx_, PL_BACKEND_CUDA, pl_dist_local_rank() % pl_dev_count(), 1)
              : pl_ctx_create(&ctx_, PL_BACKEND_CPU, 0, 1)) != PL_OK) {
        fprintf(stderr, "stencil_check: %s\n", pl_last_error());
        return 1;
    }
    static const int64_t sizes[][2] = {{1, 7}, {7, 5}, {67, 61}, {1000, 1001}};
    int turn = 0; /* the overlap mode, in turn */
    for (int i = 0; i < 4; i++) {
        const int64_t H = sizes[i][0], W = sizes[i][1];
        const int big = H * W > 100000;
        for (int K = 1; K <= 7; K += 2) {
            if (big && (K == 1 || K == 5) && !cuda) continue; /* the big image: K = 3 and 7 (on GPUs 5 too) */
            if (cuda && K == 1) continue; /* on GPUs every plan makes an NCCL communicator: no halo, no case */
            for (int dt = 0; dt < 2; dt++) {
                const pl_dtype dtype = dt ? PL_F32 : PL_I32;
                if (K <= H && K <= W) check_conv(H, W, K, dtype, PL_CONV2D_VALID, PL_CONV2D_ZERO, turn++ % 3, -1);
                for (int border = PL_CONV2D_ZERO; border <= PL_CONV2D_REFLECT; border++)
                    check_conv(H, W, K, dtype, PL_CONV2D_SAME, border, turn++ % 3, -1);
            }
        }
        for (int k = 3; k <= 7; k += 2)
            for (int bins = 16; bins <= 256; bins *= 16)
                if (!big || k != 5 || cuda) check_entropy(H, W, k, bins, turn++ % 3, -1);
    }
    /* a grid too fine for the halo: refused on every rank alike when P > 1, run on one rank */
    check_conv(5, 5, 7, PL_I32, PL_CONV2D_SAME, PL_CONV2D_REFLECT, 0, -1);
    check_entropy(5, 5, 7, 16, 0, -1);
    /* faults on the last rank only: it fails, the others finish, the agreed message names it */
    check_entropy(67, 61, 5, 16, 0, 67 * 61 - 1);
    check_conv(67, 61, 3, PL_I32, PL_CONV2D_SAME, PL_CONV2D_CLAMP, 0, 67 * 61 - 1);
    RCHECK(cases_ > 0 && (size_ == 1 || overlapped_ > 0), "%d runs, %d overlapped", rank_, cases_, overlapped_);

    int failed = check_failed, any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    char name[128];
    snprintf(name, sizeof name, "stencil_check%s rank %d of %d (%d runs, %d overlapped)",
             cuda ? (want_nccl_ ? " cuda nccl" : " cuda host") : "", rank_, size_, cases_, overlapped_);
    if (rank_ == 0 || check_failed) check_summary(name);
    pl_ctx_destroy(ctx_);
    pl_dist_stop();
    return any ? 1 : 0;
}
