/* cpu-naive: one loop, elements over threads; the compiler may vectorize it or not.
 * Next rung: say the vectors out loud. */
#include "core/core.h"
#include "kernels/scale/scale.h"

pl_status pl_scale_cpu_naive(const pl_run_args *a)
{
    const pl_scale_problem *p = a->problem;
    const float *x = a->data[0];
    float *y = a->data[1];
#pragma omp parallel for num_threads(a->ctx->threads) schedule(static)
    for (int64_t i = 0; i < p->N; i++) y[i] = p->a * x[i];
    return PL_OK;
}
