/* cpu_packed.c: the cpu-packed GEMM rung, BLIS-style: five loops around a register-tile
 * micro-kernel, with A and B packed into the order the micro-kernel reads them.
 *
 * The idea. A micro-kernel keeps an MR x NR tile of C in registers and, per k step, loads
 * one row of NR floats of B (vectors) and broadcasts MR values of A: 2*MR*NR flops for
 * MR + NR loads. The loops around it make those loads hit the nearest cache:
 *
 *   for jc in N step NC:                      B panel  KC x NC  -> L3 (shared by the cores)
 *     for pc in K step KC:
 *       pack B[pc:+KC, jc:+NC] into NR-column slivers (alpha folded in, zero padded)
 *       for ic in M step MC:                  A block  MC x KC  -> L2 (one per core)
 *         pack A[ic:+MC, pc:+KC] into MR-row slivers (zero padded)
 *         for jr in NC step NR:               B sliver KC x NR  -> L1, reused MC/MR times
 *           for ir in MC step MR:             A sliver MR x KC streams from L2
 *             micro-kernel: C[ir:+MR, jr:+NR] (+)= Asliver * Bsliver
 *
 * Micro-kernels (cpu_packed_avx512.c, cpu_packed_avx2.c): AVX-512 12 x 32 (24 zmm
 * accumulators), AVX2 6 x 16 (12 ymm accumulators); chosen at run time (param isa).
 *
 * Blocking, chosen at run time from this machine's caches (param value 0 = auto), read from
 * /sys/devices/system/cpu/cpu0/cache (sysconf as a fallback, then 32K/512K/8M):
 *   KC: a sliver 16 floats wide fills L1d:                   KC = L1d / 64, rounded down to
 *       16, clamped to 64..1024. On 32 KiB: 512 (48 KiB: 768) for both kernels, so the AVX2
 *       6 x 16 kernel's B sliver fills L1d and the AVX-512 12 x 32 kernel's is twice L1d.
 *       Why not smaller: each K block is one more pass over C (a load and a store of every
 *       element), one more packing of A, two more barriers and one more call per tile; half
 *       of L1d (the textbook rule) measured 3-5% slower for AVX2 on the Zen 4 and the
 *       AVX-512 sliver that exactly fills L1d (KC 256) 4% slower than KC 512 at 2048 and 4096
 *       on one thread, 5-13% with the FMA rate of a two-port core (docs/notes/gemm-cpu.md).
 *       What the kernel gives up is that the half of B that L1d cannot keep streams from L2
 *       with the A sliver: 176 bytes per 12 cycles even at two 512-bit FMAs a cycle, a
 *       fraction of what L2 feeds (the kernel alone, B from L2: 98% of peak).
 *   MC: the A block MC x KC x 4 bytes takes half of L2:     MC = L2 / 2 / (4*KC), rounded
 *       down to MR. On 1 MiB with KC=512: 252 (AVX2 and AVX-512).
 *   NC: the B panel KC x NC x 4 bytes takes half of L3:     NC = L3 / 2 / (4*KC), rounded
 *       down to NR, at most 8192. 32 MiB L3: 8192 (so N <= 8192 packs B once per pc).
 * Then every block is balanced: K = 257 is two passes of 129, not 256 + 1; M, N likewise.
 *
 * Threads (pl_ctx_threads(ctx), one per core). Two ways to split, chosen per problem by the work
 * each thread gets including padding:
 *   ic: the B panel is shared (packed by all, then a barrier); the tiles of a step (an A
 *       block by a chunk of B slivers) are cut into one contiguous range of M per thread,
 *       as a static split would, but handed out as the step runs: a thread that has done
 *       its own range takes the rest of the others' (step_shared). Each A block is packed
 *       into the L2 of the thread that uses it. The default for M large.
 *   jr: M small (e.g. 64 x 4096 x 4096): all threads share each A block (packed by all,
 *       barrier) and split the B slivers of the panel statically.
 * The barrier is the rung's own: it spins 100 us, then sleeps (futex), so a waiting thread
 * gives its core back when the machine is oversubscribed.
 * Small problems (2*M*N*K below PL_PACKED_SMALL_FLOPS) run on one thread and do not pack A:
 * the kernel reads A in place (row pointers with lda); only B is packed (it sets the
 * alignment and the zero padding that the edge handling relies on).
 *
 * Edges: packed slivers are zero padded, so the kernel always computes a full MR x NR tile;
 * the store is masked to nr columns and to mr rows (no scalar cleanup). beta == 0 never reads
 * C; K > KC runs the first K block with the caller's beta and the rest with beta = 1.
 * alpha == 0 reads neither A nor B (C = beta*C, as BLAS does).
 *
 * Buffers: one workspace, taken by the calling thread before the parallel region and shared
 * by the workers in slices (the B panel, one A block per ic group): the context's host
 * workspace PL_PACKED_HOST_WS, grown when a larger problem needs it and kept for the next
 * call (so repeated calls do not fault in fresh pages each time), freed by pl_ctx_destroy; it
 * is about (KC*NC + threads*MC*KC)*4 bytes: 17 MiB for either kernel here, plus two cache lines per
 * thread for the tile counters. Without a context, or when
 * called from inside an OpenMP parallel region (threads that may share one context), the
 * call allocates its own and frees it before returning. */
#include "core/core.h"
#include "kernels/gemm/cpu_packed.h"
#include "kernels/gemm/gemm.h"
#include "kernels/ladder.h"

#include <immintrin.h>
#include <limits.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

/* Below this many flops (2*M*N*K) one thread and no packing of A. ~2*160^3. */
#ifndef PL_PACKED_SMALL_FLOPS
#define PL_PACKED_SMALL_FLOPS (2.0 * 160 * 160 * 160)
#endif

/* ---------------------------------------------------------------- parameters */

enum { ISA_AUTO = 0, ISA_AVX512 = 1, ISA_AVX2 = 2 }; /* the isa parameter's choices, in order */
static const char *const isa_choices[] = {"auto", "avx512", "avx2", NULL};

const pl_param_def pl_gemm_cpu_packed_params[] = {
    [PL_GEMM_CPU_PACKED_MC] =
        {.name = "mc", .help = "rows of A per L2 block (0 = auto from L2; rounded up to MR)",
         .kind = PL_PARAM_RANGE, .min = 0, .max = 65536, .step = 1, .def = 0},
    [PL_GEMM_CPU_PACKED_KC] =
        {.name = "kc", .help = "depth of a K block (0 = auto from L1d)",
         .kind = PL_PARAM_RANGE, .min = 0, .max = 65536, .step = 1, .def = 0},
    [PL_GEMM_CPU_PACKED_NC] =
        {.name = "nc", .help = "columns of B per L3 panel (0 = auto from L3; rounded up to NR)",
         .kind = PL_PARAM_RANGE, .min = 0, .max = 1 << 20, .step = 1, .def = 0},
    [PL_GEMM_CPU_PACKED_ISA] =
        {.name = "isa", .help = "micro-kernel: auto (AVX-512 if the CPU has it, else AVX2), avx512 (12x32), "
                                "avx2 (6x16)",
         .kind = PL_PARAM_CHOICE, .choices = isa_choices, .def = ISA_AUTO},
};
PL_CHECK_COUNT(pl_gemm_cpu_packed_params, PL_GEMM_CPU_PACKED_N_PARAMS);

/* ---------------------------------------------------------------- caches */

static long cache_l1 = 32 << 10, cache_l2 = 512 << 10, cache_l3 = 8 << 20;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void detect_caches(void)
{
    long *dst[3] = {&cache_l1, &cache_l2, &cache_l3};
    for (int l = 0; l < 3; l++) {
        const int64_t s = pl_cpu_cache_bytes(l + 1);
        if (s > 0) *dst[l] = (long)s;
    }
}

/* ---------------------------------------------------------------- the plan */

typedef struct isa_info {
    int mr, nr;
    pl_packed_ukr_fn ukr;
} isa_info;

typedef struct tile_counter {
    _Atomic int64_t next;
    char pad[64 - sizeof(int64_t)]; /* one cache line each */
} tile_counter;

typedef struct team_barrier {
    _Alignas(64) _Atomic int count; /* threads arrived */
    _Atomic int gen;                /* bumped when the last one arrives */
    _Atomic int sleepers;           /* threads in futex_wait */
} team_barrier;

typedef struct plan {
    const float *A, *B;
    float *C;
    int64_t M, N, K, lda, ldb, ldc;
    float alpha, beta;
    isa_info isa;
    int64_t mc, kc, nc; /* maxima, multiples of mr / any / nr */
    int threads, ways_ic, ways_jr;
    int pack_a;
    int shared;              /* ic split, its tiles shared out as it runs (step_shared) */
    int64_t chunk_sl;        /* B slivers in one tile */
    tile_counter *counters;  /* 2 sets (step parity) of one counter per thread's range */
    team_barrier *bar;
    double spin_s;           /* how long a thread spins at the barrier before it sleeps */
    float *bbuf; /* kc * nc */
    float *abuf; /* ways_ic blocks of mc * kc, a_stride floats apart */
    size_t a_stride;
} plan;

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t rup(int64_t a, int64_t b) { return cdiv(a, b) * b; }

/* Pack B[0:kc, 0:nc] (row-major, ldb) slivers [s0, s1) into NR-wide k-major slivers, times
 * alpha, zero padded past nc. Row by row: each row of B is read sequentially (what the
 * hardware prefetcher follows), and each sliver receives one full 64-byte line per row
 * (sliver by sliver instead reads a column strip with a stride of ldb: 2x slower). */
static void pack_b(int64_t kc, int64_t nc, const float *B, int64_t ldb, float alpha, int nr_,
                   float *out, int64_t s0, int64_t s1)
{
    if (s1 <= s0) return;
    const int64_t full_end = nc / nr_ < s1 ? nc / nr_ : s1; /* slivers [s0, full_end) are full */
    for (int64_t p = 0; p < kc; p++) {
        const float *src = B + p * ldb;
        int64_t s = s0;
        if (nr_ == 16) {
            for (; s < full_end; s++) {
                float *dst = out + s * 16 * kc + p * 16;
                for (int j = 0; j < 16; j++) dst[j] = alpha * src[s * 16 + j];
            }
        } else if (nr_ == 32) {
            for (; s < full_end; s++) {
                float *dst = out + s * 32 * kc + p * 32;
                for (int j = 0; j < 32; j++) dst[j] = alpha * src[s * 32 + j];
            }
        }
        for (; s < s1; s++) {
            float *dst = out + s * nr_ * kc + p * nr_;
            int64_t w = nc - s * nr_ < nr_ ? nc - s * nr_ : nr_, j = 0;
            for (; j < w; j++) dst[j] = alpha * src[s * nr_ + j];
            for (; j < nr_; j++) dst[j] = 0.0f;
        }
    }
}

/* Pack A[0:mc, 0:kc] (row-major, lda) slivers [s0, s1) into MR-tall k-major slivers, zero
 * padded past mc: MR rows are read side by side and the sliver is written sequentially.
 * Full slivers go 4 columns at a time: 4 floats from each of 4 rows, a 4 x 4 transpose in
 * SSE registers (baseline x86-64), then 4 stores of 16 bytes, one into each of the 4 k steps'
 * groups of MR; element by element the same pack took 3% of the time at 2048, one load and one
 * store per float (a scalar store a float is the bound, whatever ISA the kernel uses). */
static inline __attribute__((always_inline)) void pack_4x4(const float *r0, const float *r1, const float *r2,
                                                           const float *r3, float *dst, int ld)
{
    __m128 x0 = _mm_loadu_ps(r0), x1 = _mm_loadu_ps(r1), x2 = _mm_loadu_ps(r2), x3 = _mm_loadu_ps(r3);
    _MM_TRANSPOSE4_PS(x0, x1, x2, x3);
    _mm_storeu_ps(dst, x0);
    _mm_storeu_ps(dst + ld, x1);
    _mm_storeu_ps(dst + 2 * ld, x2);
    _mm_storeu_ps(dst + 3 * ld, x3);
}

static void pack_a(int64_t mc, int64_t kc, const float *A, int64_t lda, int mr_, float *out,
                   int64_t s0, int64_t s1)
{
    for (int64_t s = s0; s < s1; s++) {
        float *restrict dst = out + s * mr_ * kc;
        const float *src = A + s * mr_ * lda;
        int64_t h = mc - s * mr_ < mr_ ? mc - s * mr_ : mr_;
        if (h == 6 && mr_ == 6) {
            const float *r0 = src, *r1 = r0 + lda, *r2 = r1 + lda, *r3 = r2 + lda,
                        *r4 = r3 + lda, *r5 = r4 + lda;
            int64_t p = 0;
            for (; p + 4 <= kc; p += 4, dst += 24) {
                pack_4x4(r0 + p, r1 + p, r2 + p, r3 + p, dst, 6);
                /* rows 4 and 5: interleaved pairs (r4[p], r5[p]) into each k step's last two */
                const __m128 y4 = _mm_loadu_ps(r4 + p), y5 = _mm_loadu_ps(r5 + p);
                const __m128 lo = _mm_unpacklo_ps(y4, y5), hi = _mm_unpackhi_ps(y4, y5);
                _mm_storel_pi((__m64 *)(dst + 4), lo);
                _mm_storeh_pi((__m64 *)(dst + 10), lo);
                _mm_storel_pi((__m64 *)(dst + 16), hi);
                _mm_storeh_pi((__m64 *)(dst + 22), hi);
            }
            for (; p < kc; p++, dst += 6) {
                dst[0] = r0[p]; dst[1] = r1[p]; dst[2] = r2[p];
                dst[3] = r3[p]; dst[4] = r4[p]; dst[5] = r5[p];
            }
        } else if (h == 12 && mr_ == 12) {
            const float *r[12];
            for (int i = 0; i < 12; i++) r[i] = src + i * lda;
            int64_t p = 0;
            for (; p + 4 <= kc; p += 4, dst += 48)
                for (int g = 0; g < 12; g += 4) pack_4x4(r[g] + p, r[g + 1] + p, r[g + 2] + p, r[g + 3] + p, dst + g, 12);
            for (; p < kc; p++, dst += 12)
                for (int i = 0; i < 12; i++) dst[i] = r[i][p];
        } else {
            for (int64_t p = 0; p < kc; p++, dst += mr_) {
                int64_t i = 0;
                for (; i < h; i++) dst[i] = src[i * lda + p];
                for (; i < mr_; i++) dst[i] = 0.0f;
            }
        }
    }
}

/* The team's barrier: spin a short while, then sleep in the kernel. OpenMP's barrier (libgomp,
 * OMP_WAIT_POLICY unset) spins some 300k pauses, milliseconds, before it sleeps: while another
 * process wants a core, the waiting thread holds its core and the thread it waits for queues
 * behind that process on the other one (2048 on 2 threads at load 3.5: 0.86x OpenBLAS, 1024:
 * 0.42x). Sleeping lets the scheduler run the late thread on the freed core. The spin covers
 * the waits of a quiet machine (tens of microseconds) without a system call. */
#ifndef PL_PACKED_SPIN_NS
#define PL_PACKED_SPIN_NS 100000
#endif

static void futex_wait(_Atomic int *addr, int val)
{
#ifdef __linux__
    syscall(SYS_futex, (int *)addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
#else
    (void)addr, (void)val;
    sched_yield();
#endif
}

static void futex_wake_all(_Atomic int *addr)
{
#ifdef __linux__
    syscall(SYS_futex, (int *)addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
    (void)addr;
#endif
}

static void barrier(const plan *pl)
{
    team_barrier *b = pl->bar;
    const int T = pl->threads;
    if (T < 2) return;
    const int gen = atomic_load(&b->gen);
    if (atomic_fetch_add(&b->count, 1) == T - 1) { /* the last one in opens it */
        atomic_store(&b->count, 0);
        atomic_store(&b->gen, gen + 1);
        if (atomic_load(&b->sleepers) > 0) futex_wake_all(&b->gen);
        return;
    }
    const double t0 = pl_now();
    for (int i = 1;; i++) {
        if (atomic_load_explicit(&b->gen, memory_order_acquire) != gen) return;
        _mm_pause();
        if ((i & 63) == 0 && pl_now() - t0 > pl->spin_s) break;
    }
    atomic_fetch_add(&b->sleepers, 1);
    while (atomic_load(&b->gen) == gen) futex_wait(&b->gen, gen);
    atomic_fetch_sub(&b->sleepers, 1);
}

/* Blocks of at most `max` (a multiple of `unit`) covering n, balanced: count and size. */
static void balance(int64_t n, int64_t max, int64_t unit, int64_t *count, int64_t *size)
{
    int64_t c = cdiv(n, max);
    *count = c;
    *size = rup(cdiv(n, c), unit);
}

/* C[ic:+mc, jc + js*NR ...] (+)= A block * B slivers [js_lo, js_hi) of the packed panel:
 * the jr and ir loops around the micro-kernel. */
static void macro_kernel(const plan *pl, const float *ablk, int64_t a_ld, int64_t a_step, int64_t ic,
                         int64_t mc, int64_t jc, int64_t nc, int64_t kc, float beta, int64_t js_lo,
                         int64_t js_hi)
{
    const int MR = pl->isa.mr, NR = pl->isa.nr;
    const int64_t m_sl = cdiv(mc, MR);
    for (int64_t js = js_lo; js < js_hi; js++) {
        const int64_t j = js * NR;
        const int nr = (int)(nc - j < NR ? nc - j : NR);
        const float *bs = pl->bbuf + js * NR * kc;
        float *cc = pl->C + ic * pl->ldc + jc + j;
        for (int64_t is = 0; is < m_sl; is++) {
            const int mr = (int)(mc - is * MR < MR ? mc - is * MR : MR);
            pl->isa.ukr(kc, ablk + is * a_step, a_ld, bs, cc + is * MR * pl->ldc, pl->ldc, beta, mr, nr);
        }
    }
}

/* The ic split, shared out as it runs. The tiles (A block ib, chunk of B slivers) of one
 * (jc, pc) step are numbered A-block-major and cut into one contiguous range per thread, as
 * the static split cut M; each range has a counter. A thread takes tiles from its own range's
 * counter, then from the next range's, and so on around, until every range is empty: a thread
 * slowed by anything (another process on its core, a noisy neighbour) takes fewer tiles
 * instead of leaving the other waiting at the next barrier. A thread packs an A block into its
 * own buffer when its tile's block is not the one it holds, so an A block is packed once, plus
 * once per thread that takes a tile of it from another's range. Every tile is computed whole
 * by one thread over the same K blocks, so C is bit-identical whichever thread takes it.
 * Counters: set `par` (the step's parity) is used now; the other set, last used in the step
 * before, is zeroed by thread 0 between the two barriers of this step. */
static void step_shared(const plan *pl, int tid, int par, int64_t jc, int64_t nc, int64_t pc, int64_t kc,
                        float beta, int64_t n_mblk, int64_t mcb)
{
    const int MR = pl->isa.mr, T = pl->threads;
    const int64_t n_sl = cdiv(nc, pl->isa.nr);
    const int64_t chunk = pl->chunk_sl < n_sl ? pl->chunk_sl : n_sl;
    const int64_t n_ch = cdiv(n_sl, chunk), tiles = n_mblk * n_ch;
    float *abuf = pl->abuf + (size_t)tid * pl->a_stride;
    int64_t held = -1;
    for (int q = 0; q < T; q++) {
        const int r = (tid + q) % T;
        const int64_t lo = tiles * r / T, len = tiles * (r + 1) / T - lo;
        tile_counter *ctr = &pl->counters[par * T + r];
        for (;;) {
            const int64_t i = atomic_fetch_add_explicit(&ctr->next, 1, memory_order_relaxed);
            if (i >= len) break;
            const int64_t t = lo + i, ib = t / n_ch, ch = t % n_ch;
            const int64_t ic = ib * mcb, mc = pl->M - ic < mcb ? pl->M - ic : mcb;
            if (ib != held) {
                pack_a(mc, kc, pl->A + ic * pl->lda + pc, pl->lda, MR, abuf, 0, cdiv(mc, MR));
                held = ib;
            }
            const int64_t js_hi = (ch + 1) * chunk < n_sl ? (ch + 1) * chunk : n_sl;
            macro_kernel(pl, abuf, 0, MR * kc, ic, mc, jc, nc, kc, beta, ch * chunk, js_hi);
        }
    }
}

static void worker(const plan *pl, int tid)
{
    const int MR = pl->isa.mr, NR = pl->isa.nr;
    const int64_t M = pl->M, N = pl->N, K = pl->K;
    const int T = pl->threads;
    const int gi = tid / pl->ways_jr; /* my ic group */
    const int gj = tid % pl->ways_jr; /* my place in it */

    /* My rows: a contiguous range of whole MR slivers (all of M when the tiles are shared). */
    const int ways_ic = pl->shared ? 1 : pl->ways_ic, g = pl->shared ? 0 : gi;
    const int64_t sm = cdiv(M, MR);
    const int64_t m_lo = (sm * g / ways_ic) * MR;
    const int64_t m_hi_s = (sm * (g + 1) / ways_ic) * MR;
    const int64_t m_hi = m_hi_s < M ? m_hi_s : M;
    const int64_t m_len = m_hi > m_lo ? m_hi - m_lo : 0;
    int64_t n_mblk = 0, mcb = pl->mc;
    if (m_len > 0) balance(m_len, pl->mc, MR, &n_mblk, &mcb);
    /* With a shared A block every thread runs the same number of ic steps (barriers). */
    float *abuf = pl->abuf + (size_t)gi * pl->a_stride;

    int64_t n_nblk, ncb, n_kblk, kcb;
    int par = 0; /* the parity of the (jc, pc) step: which set of tile counters it uses */
    balance(N, pl->nc, NR, &n_nblk, &ncb);
    balance(K, pl->kc, 1, &n_kblk, &kcb);

    for (int64_t jc = 0; jc < N; jc += ncb) {
        const int64_t nc = N - jc < ncb ? N - jc : ncb;
        const int64_t n_sl = cdiv(nc, NR);
        for (int64_t pc = 0; pc < K; pc += kcb) {
            const int64_t kc = K - pc < kcb ? K - pc : kcb;
            const float beta = pc == 0 ? pl->beta : 1.0f;
            barrier(pl); /* everyone is done with the previous B panel */
            if (pl->shared && tid == 0)
                for (int r = 0; r < T; r++) atomic_store_explicit(&pl->counters[(1 - par) * T + r].next, 0, memory_order_relaxed);
            pack_b(kc, nc, pl->B + pc * pl->ldb + jc, pl->ldb, pl->alpha, NR, pl->bbuf,
                   n_sl * tid / T, n_sl * (tid + 1) / T);
            barrier(pl);
            if (pl->shared) {
                step_shared(pl, tid, par, jc, nc, pc, kc, beta, n_mblk, mcb);
                par = 1 - par;
                continue;
            }
            /* My B slivers: all of them (ic split) or my share (jr split). */
            const int64_t j_lo = n_sl * gj / pl->ways_jr, j_hi = n_sl * (gj + 1) / pl->ways_jr;
            for (int64_t ib = 0; ib < n_mblk; ib++) {
                const int64_t ic = m_lo + ib * mcb;
                const int64_t mc = m_hi - ic < mcb ? m_hi - ic : mcb;
                const int64_t m_sl = cdiv(mc, MR);
                if (pl->pack_a) {
                    if (pl->ways_jr > 1) barrier(pl); /* the shared A block is free */
                    pack_a(mc, kc, pl->A + ic * pl->lda + pc, pl->lda, MR, abuf,
                           m_sl * gj / pl->ways_jr, m_sl * (gj + 1) / pl->ways_jr);
                    if (pl->ways_jr > 1) barrier(pl);
                    macro_kernel(pl, abuf, 0, MR * kc, ic, mc, jc, nc, kc, beta, j_lo, j_hi);
                } else {
                    macro_kernel(pl, pl->A + ic * pl->lda + pc, pl->lda, MR * pl->lda, ic, mc, jc, nc,
                                 kc, beta, j_lo, j_hi);
                }
            }
        }
    }
}

/* ---------------------------------------------------------------- workspace */

/* The packing buffers of one call: ctx's host workspace when ctx is given and this thread is
 * not one of an OpenMP team (two of them may share ctx), else a buffer of the call's own
 * (*owned set; the caller frees it). NULL when out of memory. */
static float *workspace(pl_ctx *ctx, size_t floats, float **owned)
{
    *owned = NULL;
    if (ctx && !omp_in_parallel()) {
        void *p = NULL;
        return pl_ctx_host_workspace(ctx, PL_PACKED_HOST_WS, floats * sizeof(float), &p) == PL_OK ? (float *)p : NULL;
    }
    *owned = (float *)pl_alloc(floats * sizeof(float));
    return *owned;
}

/* ---------------------------------------------------------------- entry points */

static void scale_c(const pl_gemm_problem *p, float *C)
{
    for (int64_t i = 0; i < p->M; i++) {
        float *c = C + i * p->ldc;
        if (p->beta == 0.0f)
            for (int64_t j = 0; j < p->N; j++) c[j] = 0.0f;
        else
            for (int64_t j = 0; j < p->N; j++) c[j] *= p->beta;
    }
}

static pl_status run(pl_ctx *ctx, int threads, const pl_gemm_problem *p, const float *A, const float *B,
                     float *C, int64_t mc_req, int64_t kc_req, int64_t nc_req, int isa_req)
{
    if (!p) return pl_fail(PL_ERR_ARG, "cpu-packed: no problem");
    if (p->M < 1 || p->N < 1 || p->K < 1)
        return pl_fail(PL_ERR_ARG, "cpu-packed: sizes M=%lld N=%lld K=%lld must be >= 1",
                       (long long)p->M, (long long)p->N, (long long)p->K);
    if (p->lda < p->K || p->ldb < p->N || p->ldc < p->N)
        return pl_fail(PL_ERR_ARG, "cpu-packed: lda=%lld ldb=%lld ldc=%lld below K=%lld N=%lld",
                       (long long)p->lda, (long long)p->ldb, (long long)p->ldc,
                       (long long)p->K, (long long)p->N);
    if (!A || !B || !C) return pl_fail(PL_ERR_ARG, "cpu-packed: a NULL operand");
    if (threads < 1) threads = 1;

    unsigned feats = pl_cpu_features();
    isa_info isa;
    if (isa_req == ISA_AVX512 || (isa_req == ISA_AUTO && (feats & PL_FEAT_AVX512))) {
        if (!(feats & PL_FEAT_AVX512))
            return pl_fail(PL_ERR_UNSUPPORTED, "cpu-packed: isa=avx512 but this CPU has no AVX-512");
        isa = (isa_info){PL_PACKED_AVX512_MR, PL_PACKED_AVX512_NR, pl_packed_ukr_avx512};
    } else if (isa_req == ISA_AVX2 || isa_req == ISA_AUTO) {
        if (!(feats & PL_FEAT_AVX2))
            return pl_fail(PL_ERR_UNSUPPORTED, "cpu-packed: this CPU has no AVX2+FMA");
        isa = (isa_info){PL_PACKED_AVX2_MR, PL_PACKED_AVX2_NR, pl_packed_ukr_avx2};
    } else {
        return pl_fail(PL_ERR_ARG, "cpu-packed: isa=%d is not auto|avx512|avx2", isa_req);
    }

    if (p->alpha == 0.0f) {
        scale_c(p, C);
        return PL_OK;
    }

    pthread_once(&cache_once, detect_caches);
    const int MR = isa.mr, NR = isa.nr;
    int64_t kc = kc_req > 0 ? kc_req : cache_l1 / 64 / 16 * 16;
    if (kc_req <= 0) kc = kc < 64 ? 64 : kc > 1024 ? 1024 : kc;
    int64_t mc = mc_req > 0 ? rup(mc_req, MR) : cache_l2 / 2 / (4 * kc) / MR * MR;
    if (mc < MR) mc = MR;
    int64_t nc = nc_req > 0 ? rup(nc_req, NR) : cache_l3 / 2 / (4 * kc) / NR * NR;
    if (nc_req <= 0) nc = nc < 4 * NR ? 4 * NR : nc > 8192 ? 8192 : nc;

    team_barrier bar = {0};
    plan pl = {.A = A, .B = B, .C = C, .M = p->M, .N = p->N, .K = p->K, .lda = p->lda, .ldb = p->ldb,
               .ldc = p->ldc, .alpha = p->alpha, .beta = p->beta, .isa = isa, .threads = threads,
               .ways_ic = threads, .ways_jr = 1, .pack_a = 1, .bar = &bar, .spin_s = PL_PACKED_SPIN_NS * 1e-9};

    const double flops = 2.0 * (double)p->M * (double)p->N * (double)p->K;
    if (flops < PL_PACKED_SMALL_FLOPS) {
        pl.threads = pl.ways_ic = 1;
        pl.pack_a = 0;
        if (kc_req <= 0 && p->K <= 512) kc = p->K; /* one pass: the kernel reads A in place */
    }
    const int T = pl.threads;
    if (T > 1) {
        /* Work per thread, padding included, for the two splits (ic favoured on a tie). */
        const int64_t sm = cdiv(p->M, MR), sn = cdiv(p->N, NR);
        const double w_ic = (double)cdiv(sm, T) * (double)sn;
        const double w_jr = (double)sm * (double)cdiv(sn, T);
        if (w_jr < 0.97 * w_ic) {
            pl.ways_ic = 1;
            pl.ways_jr = T;
        }
    }
    /* Sizes of the buffers: the largest blocks this problem uses. */
    int64_t nb, sz;
    balance(p->K, kc, 1, &nb, &sz);
    pl.kc = kc;
    const int64_t kc_max = sz;
    balance(p->N, nc, NR, &nb, &sz);
    pl.nc = nc;
    const int64_t nc_max = sz;
    /* The ic split shares its tiles out as it runs (step_shared): A blocks over all of M, and
     * B slivers in chunks of about 1/(32 T) of a step's work (threads that find the step
     * nearly done wait at most one small tile), at least one sliver. */
    pl.shared = T > 1 && pl.ways_jr == 1;
    int64_t mc_max;
    if (pl.shared) {
        balance(p->M, mc, MR, &nb, &sz);
        mc_max = sz;
        const int64_t chunk = nb * cdiv(nc_max, NR) / (32 * T);
        pl.chunk_sl = chunk < 1 ? 1 : chunk;
    } else {
        const int64_t m_per = rup(cdiv(cdiv(p->M, MR), pl.ways_ic) * MR, MR);
        mc_max = pl.pack_a ? (m_per < mc ? m_per : mc) : 0;
    }
    pl.mc = pl.pack_a && !pl.shared ? mc_max : mc; /* the worker balances M (or its range) by it */
    pl.kc = kc_max;
    pl.nc = nc_max;
    /* 64-byte aligned parts: B panel, then one A block per ic group. */
    const size_t b_floats = (size_t)rup(kc_max * nc_max, 16);
    const size_t a_floats = (size_t)rup(mc_max * kc_max, 16);
    float *owned = NULL;
    const size_t c_floats = pl.shared ? 2 * (size_t)T * sizeof(tile_counter) / sizeof(float) : 0;
    const size_t ws_floats = b_floats + a_floats * (size_t)pl.ways_ic + c_floats;
    float *ws = workspace(ctx, ws_floats, &owned);
    if (!ws)
        return pl_fail(PL_ERR_NOMEM, "cpu-packed: cannot allocate %zu bytes of packing buffers",
                       ws_floats * sizeof(float));
    pl.bbuf = ws;
    pl.abuf = ws + b_floats;
    pl.a_stride = a_floats;
    if (pl.shared) {
        pl.counters = (tile_counter *)(void *)(pl.abuf + a_floats * (size_t)pl.ways_ic);
        for (int i = 0; i < 2 * T; i++) atomic_init(&pl.counters[i].next, 0);
    }

    if (T == 1) {
        worker(&pl, 0);
    } else {
#pragma omp parallel num_threads(T)
        {
            /* OpenMP may give fewer threads than asked (a call from inside the caller's own
             * parallel region with nesting off gets a team of one): the plan is cut for the
             * team there is, before anyone works (the single's barrier), so no range is left
             * undone and the barrier counts only threads that exist. */
#pragma omp single
            if (omp_get_num_threads() < pl.threads) {
                pl.threads = omp_get_num_threads();
                if (pl.ways_jr > 1) pl.ways_jr = pl.threads;
            }
            worker(&pl, omp_get_thread_num());
        }
    }
    pl_free(owned);
    return PL_OK;
}

pl_status pl_gemm_cpu_packed(const pl_run_args *a)
{
    if (!a || !a->problem || !a->data || a->n_data < 3)
        return pl_fail(PL_ERR_ARG, "cpu-packed: needs a problem and operands A, B, C");
    const int64_t *pv = a->params; /* NULL: every parameter auto */
    int64_t mc = pv ? pv[PL_GEMM_CPU_PACKED_MC] : 0, kc = pv ? pv[PL_GEMM_CPU_PACKED_KC] : 0;
    int64_t nc = pv ? pv[PL_GEMM_CPU_PACKED_NC] : 0;
    int isa = pv ? (int)pv[PL_GEMM_CPU_PACKED_ISA] : ISA_AUTO;
    int threads = a->ctx ? pl_ctx_threads(a->ctx) : 1;
    return run(a->ctx, threads, (const pl_gemm_problem *)a->problem, (const float *)a->data[0],
               (const float *)a->data[1], (float *)a->data[2], mc, kc, nc, isa);
}

pl_status pl_gemm_cpu_packed_sgemm(int threads, const pl_gemm_problem *p, const float *A,
                                   const float *B, float *C)
{
    return run(NULL, threads, p, A, B, C, 0, 0, 0, ISA_AUTO);
}
