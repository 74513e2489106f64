/* alignment: a sum of floats by 256-bit loads (AVX2) starting at a 64-byte aligned address,
 * 32 bytes past it (still aligned to the load: no load crosses a line) and 4 bytes past it
 * (every second load then splits across two cache lines), on an array that fits in L1 and one 4x the last-level cache, one thread. In L1
 * a load that crosses a line costs a second access; from memory the lines are what count and
 * the offset hardly shows. Rows: ns per float. Checksum: the array holds 1.0f: each sum is the
 * count of floats added. Built with AVX2 flags (the *_avx2.c rule); refused without AVX2. */
#include "kernels/memory/mem.h"

#include <immintrin.h>
#include <stdio.h>

typedef struct al_args {
    const float *x; /* the first float read */
    int64_t n;      /* floats, a multiple of 32 */
    int passes;     /* over the array in one timed call (an L1-sized array takes microseconds) */
    double sum;
} al_args;

static void al_kernel(void *arg)
{
    al_args *a = arg;
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    for (int pass = 0; pass < a->passes; pass++)
    for (int64_t i = 0; i < a->n; i += 32) {
        s0 = _mm256_add_ps(s0, _mm256_loadu_ps(a->x + i));
        s1 = _mm256_add_ps(s1, _mm256_loadu_ps(a->x + i + 8));
        s2 = _mm256_add_ps(s2, _mm256_loadu_ps(a->x + i + 16));
        s3 = _mm256_add_ps(s3, _mm256_loadu_ps(a->x + i + 24));
    }
    float lanes[8];
    _mm256_storeu_ps(lanes, _mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
    double sum = 0;
    for (int k = 0; k < 8; k++) sum += lanes[k];
    a->sum = sum;
}

pl_status pl_mem_alignment(const mem_opts *o, mem_table *t)
{
    if (!(pl_features() & PL_FEAT_AVX2))
        return pl_fail(PL_ERR_UNSUPPORTED, "mem alignment: needs AVX2 (this CPU has none)");
    const int64_t llc = pl_cpu_llc_bytes(8 << 20);
    const int64_t l1 = pl_cpu_cache_bytes(1) > 0 ? pl_cpu_cache_bytes(1) : 32 << 10;
    const int64_t big = o->quick ? (int64_t)1 << 20 : 4 * llc / 4;
    const int64_t small = l1 / 4 / 2 / 32 * 32; /* half of L1 */
    float *mem = pl_alloc((size_t)(big + 64) * sizeof(float));
    if (!mem) return pl_fail(PL_ERR_NOMEM, "mem alignment: no memory for %lld floats", (long long)big);
    for (int64_t i = 0; i < big + 64; i++) mem[i] = 1.0f;
    snprintf(t->setup, sizeof t->setup, "256-bit loads, one thread; %lld floats (half of L1) and %lld (%.1f MiB)",
             (long long)small, (long long)big, big * 4.0 / 1048576.0);
    static const struct { const char *name; int offset; } offs[] = {
        {"aligned (64 bytes)", 0}, {"32 bytes off: no load splits a line", 8},
        {"4 bytes off: every 2nd load splits a line", 1}};
    int ok = 1;
    double ns[2][3];
    for (int sz = 0; sz < 2; sz++)
        for (int k = 0; k < 3; k++) {
            const int64_t n = sz ? big / 32 * 32 - 32 : small;
            al_args a = {mem + offs[k].offset, n, sz ? 1 : 2000, 0};
            mem_row *r = pl_mem_row(t, "ns/float", "%s, %s", sz ? "memory" : "L1", offs[k].name);
            pl_mem_time(al_kernel, &a, o->reps, (double)n * a.passes, 1e9, 1, r);
            ok &= a.sum == (double)n * a.passes;
            ns[sz][k] = r->best;
        }
    t->checksums_ok = ok;
    pl_free(mem);
    snprintf(t->reading, sizeof t->reading, "in L1: aligned %.3f, 32 bytes off %.3f, line-splitting %.3f ns a float "
             "(%.2fx); from memory: %.3f, %.3f, %.3f (the lines moved decide, not the offset)", ns[0][0], ns[0][1],
             ns[0][2], ns[0][0] > 0 ? ns[0][2] / ns[0][0] : 0, ns[1][0], ns[1][1], ns[1][2]);
    return PL_OK;
}
