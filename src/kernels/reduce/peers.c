/* peers.c: the CPU library parlab's dot is measured against, behind the same contract as a
 * rung: OpenBLAS's cblas_sdot with the context's thread count. */
#include "core/core.h"
#include "kernels/reduce/reduce.h"

#ifdef PL_HAVE_OPENBLAS
#include <cblas.h>
#include <limits.h>

pl_status pl_dot_peer_openblas(const pl_run_args *a)
{
    const pl_dot_problem *p = a->problem;
    if (p->N > INT_MAX) return pl_fail(PL_ERR_ARG, "peer-openblas: N = %lld does not fit CBLAS's int", (long long)p->N);
    openblas_set_num_threads(pl_ctx_threads(a->ctx));
    *(float *)a->data[2] = cblas_sdot((int)p->N, a->data[0], 1, a->data[1], 1);
    return PL_OK;
}
#endif
