/* peers.c: the CPU library parlab's GEMV is measured against, behind the same contract as a
 * rung: OpenBLAS's cblas_sgemv (row-major, either form), with the context's thread count. */
#include "core/core.h"
#include "kernels/gemv/gemv.h"

#ifdef PL_HAVE_OPENBLAS
#include <cblas.h>

pl_status pl_gemv_peer_openblas(const pl_run_args *a)
{
    const pl_gemv_problem *p = a->problem;
    if (p->M > INT32_MAX || p->N > INT32_MAX || p->lda > INT32_MAX)
        return pl_fail(PL_ERR_ARG, "peer-openblas: sizes above 2^31 do not fit CBLAS's int");
    openblas_set_num_threads(pl_ctx_threads(a->ctx));
    cblas_sgemv(CblasRowMajor, p->trans ? CblasTrans : CblasNoTrans, (int)p->M, (int)p->N, p->alpha, a->data[0],
                (int)p->lda, a->data[1], 1, p->beta, a->data[2], 1);
    return PL_OK;
}
#endif
