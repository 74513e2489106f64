/* peers.c: the CPU library transpose is measured against: OpenBLAS's cblas_somatcopy
 * (out-of-place scaled copy, here transposed with alpha = 1), behind the same contract as a
 * rung. */
#include "core/core.h"
#include "kernels/transpose/transpose.h"

#ifdef PL_HAVE_OPENBLAS
#include <cblas.h>

pl_status pl_transpose_peer_openblas(const pl_run_args *a)
{
    const pl_transpose_problem *p = a->problem;
    if (p->M > INT32_MAX || p->N > INT32_MAX || p->lda > INT32_MAX || p->ldb > INT32_MAX)
        return pl_fail(PL_ERR_ARG, "peer-openblas: sizes above 2^31 do not fit CBLAS's int");
    openblas_set_num_threads(pl_ctx_threads(a->ctx));
    cblas_somatcopy(CblasRowMajor, CblasTrans, (int)p->M, (int)p->N, 1.0f, a->data[0], (int)p->lda, a->data[1],
                    (int)p->ldb);
    return PL_OK;
}
#endif
