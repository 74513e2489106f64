/* peers.c: the CPU library parlab's GEMM is measured against, behind the same contract as
 * a rung: OpenBLAS's cblas_sgemm, with the context's thread count. */
#include "core/core.h"
#include "kernels/gemm/gemm.h"

#ifdef PL_HAVE_OPENBLAS
#include <cblas.h>

pl_status pl_gemm_peer_openblas(const pl_run_args *a)
{
    const pl_gemm_problem *p = a->problem;
    if (p->M > INT32_MAX || p->N > INT32_MAX || p->K > INT32_MAX || p->lda > INT32_MAX ||
        p->ldb > INT32_MAX || p->ldc > INT32_MAX)
        return pl_fail(PL_ERR_ARG, "peer-openblas: sizes above 2^31 do not fit CBLAS's int");
    openblas_set_num_threads(a->ctx->threads);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)p->M, (int)p->N, (int)p->K,
                p->alpha, a->data[0], (int)p->lda, a->data[1], (int)p->ldb, p->beta, a->data[2],
                (int)p->ldc);
    return PL_OK;
}
#endif
