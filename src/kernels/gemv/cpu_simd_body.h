/* cpu_simd_body.h: the cpu-simd primitives, written once for any vector width. The file that
 * includes it defines VW (lanes), vec, VSET1, VZERO, VLOAD, VSTORE, VFMA, VADD, VHSUM (the
 * sum of a vector's lanes), VLOAD_TAIL(ptr, n), VSTORE_TAIL(ptr, v, n) and ISA_TABLE.
 * Tails (fewer than VW elements) use masked loads and stores: no scalar cleanup. */

/* R rows' dot products with x (R = 4 or 1, a constant where it is inlined), two accumulators
 * per row: every row is summed in the same order whatever R is, so the result of a row does
 * not depend on how rows are grouped (or split among threads). */
static inline __attribute__((always_inline)) void dot_block(const float *const *a, const float *x, int64_t n, int R,
                                                            float *out)
{
    vec acc[4][2];
    for (int r = 0; r < R; r++) acc[r][0] = acc[r][1] = VZERO();
    int64_t j = 0;
    for (; j + 2 * VW <= n; j += 2 * VW) {
        vec x0 = VLOAD(x + j), x1 = VLOAD(x + j + VW);
        for (int r = 0; r < R; r++) {
            acc[r][0] = VFMA(VLOAD(a[r] + j), x0, acc[r][0]);
            acc[r][1] = VFMA(VLOAD(a[r] + j + VW), x1, acc[r][1]);
        }
    }
    if (j + VW <= n) {
        vec x0 = VLOAD(x + j);
        for (int r = 0; r < R; r++) acc[r][0] = VFMA(VLOAD(a[r] + j), x0, acc[r][0]);
        j += VW;
    }
    if (j < n) {
        vec x1 = VLOAD_TAIL(x + j, n - j);
        for (int r = 0; r < R; r++) acc[r][1] = VFMA(VLOAD_TAIL(a[r] + j, n - j), x1, acc[r][1]);
    }
    for (int r = 0; r < R; r++) out[r] = VHSUM(VADD(acc[r][0], acc[r][1]));
}

static inline void finish(const pl_gemv_problem *p, float *y, int64_t i, float s)
{
    y[i] = p->beta == 0.0f ? p->alpha * s : p->alpha * s + p->beta * y[i]; /* beta 0: y may hold NaN */
}

static void dot_rows(const pl_gemv_problem *p, const float *A, const float *x, float *y, int64_t i0, int64_t i1)
{
    float s[4];
    int64_t i = i0;
    for (; i + 4 <= i1; i += 4) {
        const float *a[4] = {A + i * p->lda, A + (i + 1) * p->lda, A + (i + 2) * p->lda, A + (i + 3) * p->lda};
        dot_block(a, x, p->N, 4, s);
        for (int r = 0; r < 4; r++) finish(p, y, i + r, s[r]);
    }
    for (; i < i1; i++) {
        const float *a[4] = {A + i * p->lda, NULL, NULL, NULL};
        dot_block(a, x, p->N, 1, s);
        finish(p, y, i, s[0]);
    }
}

/* yp[j0:j1] += c0*A[i] + c1*A[i+1] + c2*A[i+2] + c3*A[i+3], c = alpha*x[i..]: one load and
 * one store of yp per 4 rows, added in row order. */
static void axpy_rows(const pl_gemv_problem *p, const float *A, const float *x, float *yp, int64_t i0, int64_t i1,
                      int64_t j0, int64_t j1)
{
    int64_t i = i0;
    for (; i + 4 <= i1; i += 4) {
        const float *a0 = A + i * p->lda, *a1 = a0 + p->lda, *a2 = a1 + p->lda, *a3 = a2 + p->lda;
        vec c0 = VSET1(p->alpha * x[i]), c1 = VSET1(p->alpha * x[i + 1]);
        vec c2 = VSET1(p->alpha * x[i + 2]), c3 = VSET1(p->alpha * x[i + 3]);
        int64_t j = j0;
        for (; j + VW <= j1; j += VW) {
            vec v = VFMA(c0, VLOAD(a0 + j), VLOAD(yp + j));
            v = VFMA(c1, VLOAD(a1 + j), v);
            v = VFMA(c2, VLOAD(a2 + j), v);
            VSTORE(yp + j, VFMA(c3, VLOAD(a3 + j), v));
        }
        if (j < j1) {
            int64_t n = j1 - j;
            vec v = VFMA(c0, VLOAD_TAIL(a0 + j, n), VLOAD_TAIL(yp + j, n));
            v = VFMA(c1, VLOAD_TAIL(a1 + j, n), v);
            v = VFMA(c2, VLOAD_TAIL(a2 + j, n), v);
            VSTORE_TAIL(yp + j, VFMA(c3, VLOAD_TAIL(a3 + j, n), v), n);
        }
    }
    for (; i < i1; i++) {
        const float *a0 = A + i * p->lda;
        vec c0 = VSET1(p->alpha * x[i]);
        int64_t j = j0;
        for (; j + VW <= j1; j += VW) VSTORE(yp + j, VFMA(c0, VLOAD(a0 + j), VLOAD(yp + j)));
        if (j < j1) VSTORE_TAIL(yp + j, VFMA(c0, VLOAD_TAIL(a0 + j, j1 - j), VLOAD_TAIL(yp + j, j1 - j)), j1 - j);
    }
}

const gemv_simd_isa ISA_TABLE = {dot_rows, axpy_rows};
