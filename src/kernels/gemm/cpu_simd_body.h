/* cpu_simd_body.h: the SIMD row update, written once for any vector width. The file that
 * includes it defines VW (lanes), vec, VSET1, VLOAD, VSTORE, VFMA, VMUL, VZERO,
 * VLOAD_TAIL(ptr, n), VSTORE_TAIL(ptr, v, n) and ISA_TABLE (the exported table's name).
 * Tails (fewer than VW columns) use masked loads and stores: no scalar cliff. */

static void scale_rows(const pl_gemm_problem *p, float *C, int64_t i0, int64_t i1)
{
    if (p->beta == 1.0f) return;
    vec vb = VSET1(p->beta);
    for (int64_t i = i0; i < i1; i++) {
        float *c = C + i * p->ldc;
        int64_t j = 0;
        if (p->beta == 0.0f) { /* write-only: C may hold NaN */
            for (; j + VW <= p->N; j += VW) VSTORE(c + j, VZERO());
            if (j < p->N) VSTORE_TAIL(c + j, VZERO(), p->N - j);
        } else {
            for (; j + VW <= p->N; j += VW) VSTORE(c + j, VMUL(VLOAD(c + j), vb));
            if (j < p->N) VSTORE_TAIL(c + j, VMUL(VLOAD_TAIL(c + j, p->N - j), vb), p->N - j);
        }
    }
}

static void update_rows(const pl_gemm_problem *p, const float *A, const float *B, float *C,
                        int64_t i0, int64_t i1, int64_t k0, int64_t k1, int64_t j0, int64_t j1)
{
    for (int64_t i = i0; i < i1; i++) {
        float *c = C + i * p->ldc;
        for (int64_t k = k0; k < k1; k++) {
            vec a = VSET1(p->alpha * A[i * p->lda + k]); /* broadcast one element of A */
            const float *b = B + k * p->ldb;
            int64_t j = j0;
            for (; j + VW <= j1; j += VW) VSTORE(c + j, VFMA(a, VLOAD(b + j), VLOAD(c + j)));
            if (j < j1) {
                int64_t n = j1 - j;
                VSTORE_TAIL(c + j, VFMA(a, VLOAD_TAIL(b + j, n), VLOAD_TAIL(c + j, n)), n);
            }
        }
    }
}

const gemm_simd_isa ISA_TABLE = {scale_rows, update_rows};
