/* peaks_streams_body.h: the memory streams of `parlab peaks` (read-only, write-only, copy),
 * written once in the vector words of core/simd_avx2.h or core/simd_avx512.h and included by
 * peaks_avx2.c and peaks_avx512.c after one of them (by peaks_streams.c in SSE's words), with
 * STREAMS_SUFFIX naming the ISA and VSTREAM the non-temporal store of a vector. Each loop trip
 * moves 4 vectors (8 for the read, whose eight accumulators hide the add latency of both pipes
 * behind two loads a cycle), so the loops wait on memory, not on the instructions. */
#define STREAMS_CAT2(a, b) a##b
#define STREAMS_CAT(a, b) STREAMS_CAT2(a, b)
#define STREAMS_FN(name) STREAMS_CAT(name, STREAMS_SUFFIX)

/* The sum of a[0..n) through eight independent accumulators. */
float STREAMS_FN(pl_peaks_read_)(const float *a, int64_t n)
{
    vec s0 = VZERO(), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
    int64_t i = 0;
    for (; i + 8 * VW <= n; i += 8 * VW) {
        s0 = VADD(s0, VLOAD(a + i));
        s1 = VADD(s1, VLOAD(a + i + VW));
        s2 = VADD(s2, VLOAD(a + i + 2 * VW));
        s3 = VADD(s3, VLOAD(a + i + 3 * VW));
        s4 = VADD(s4, VLOAD(a + i + 4 * VW));
        s5 = VADD(s5, VLOAD(a + i + 5 * VW));
        s6 = VADD(s6, VLOAD(a + i + 6 * VW));
        s7 = VADD(s7, VLOAD(a + i + 7 * VW));
    }
    vec s = VADD(VADD(VADD(s0, s1), VADD(s2, s3)), VADD(VADD(s4, s5), VADD(s6, s7)));
    float lanes[VW], t = 0.0f;
    VSTORE(lanes, s);
    for (int k = 0; k < VW; k++) t += lanes[k];
    for (; i < n; i++) t += a[i];
    return t;
}

/* a[0..n) = v; nt: non-temporal (streaming) stores, which skip the read for ownership of each
 * line; they need a vector-aligned a (the caller's chunks are). */
void STREAMS_FN(pl_peaks_write_)(float *a, int64_t n, float v, int nt)
{
    const vec x = VSET1(v);
    int64_t i = 0;
    if (nt) {
        for (; i + 4 * VW <= n; i += 4 * VW) {
            VSTREAM(a + i, x);
            VSTREAM(a + i + VW, x);
            VSTREAM(a + i + 2 * VW, x);
            VSTREAM(a + i + 3 * VW, x);
        }
        _mm_sfence();
    } else {
        for (; i + 4 * VW <= n; i += 4 * VW) {
            __asm__ __volatile__("" ::: "memory"); /* plain stores: no memset call */
            VSTORE(a + i, x);
            VSTORE(a + i + VW, x);
            VSTORE(a + i + 2 * VW, x);
            VSTORE(a + i + 3 * VW, x);
        }
    }
    for (; i < n; i++) a[i] = v;
}

/* dst[0..n) = src[0..n); nt: non-temporal stores (dst vector-aligned). */
void STREAMS_FN(pl_peaks_copy_)(float *dst, const float *src, int64_t n, int nt)
{
    int64_t i = 0;
    for (; i + 4 * VW <= n; i += 4 * VW) {
        __asm__ __volatile__("" ::: "memory"); /* plain stores: no memcpy call */
        vec x0 = VLOAD(src + i), x1 = VLOAD(src + i + VW);
        vec x2 = VLOAD(src + i + 2 * VW), x3 = VLOAD(src + i + 3 * VW);
        if (nt) {
            VSTREAM(dst + i, x0);
            VSTREAM(dst + i + VW, x1);
            VSTREAM(dst + i + 2 * VW, x2);
            VSTREAM(dst + i + 3 * VW, x3);
        } else {
            VSTORE(dst + i, x0);
            VSTORE(dst + i + VW, x1);
            VSTORE(dst + i + 2 * VW, x2);
            VSTORE(dst + i + 3 * VW, x3);
        }
    }
    if (nt) _mm_sfence();
    for (; i < n; i++) dst[i] = src[i];
}

#undef STREAMS_FN
#undef STREAMS_CAT
#undef STREAMS_CAT2
