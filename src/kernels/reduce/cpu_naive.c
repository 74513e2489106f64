/* cpu-naive: one float accumulator per output, the terms folded in order (a row along its
 * elements, a column down its rows, a new cache line every step). Outputs are shared among
 * threads. Not accurate: a long positive sum stagnates once the accumulator's ulp outgrows
 * the terms. Next rung: SIMD accumulators and pairwise blocks. */
#include "core/core.h"
#include "kernels/reduce/reduce.h"

static inline float fold(int op, float acc, float x)
{
    switch (op) {
    case PL_REDUCE_MIN: return pl_reduce_min2(acc, x);
    case PL_REDUCE_MAX: return pl_reduce_max2(acc, x);
    case PL_REDUCE_SUMSQ: return acc + x * x;
    default: return acc + x;
    }
}

pl_status pl_reduce_cpu_naive(const pl_run_args *a)
{
    const pl_reduce_problem *p = a->problem;
    const float *A = a->data[0];
    float *r = a->data[1];
    const int op = p->op;
    const int64_t R = pl_reduce_outputs(p), n = pl_reduce_terms(p);
    const int64_t step = p->axis ? 1 : p->lda, next = p->axis ? p->lda : 1;
#pragma omp parallel for num_threads(pl_ctx_threads(a->ctx)) schedule(static)
    for (int64_t o = 0; o < R; o++) {
        const float *x = A + o * next;
        float acc = x[0];
        if (op == PL_REDUCE_SUMSQ) acc *= acc;
        for (int64_t k = 1; k < n; k++) acc = fold(op, acc, x[k * step]);
        r[o] = op == PL_REDUCE_MEAN ? acc / (float)n : acc;
    }
    return PL_OK;
}

/* dot cpu-naive: one float accumulator, the products added in order. */
pl_status pl_dot_cpu_naive(const pl_run_args *a)
{
    const pl_dot_problem *p = a->problem;
    const float *x = a->data[0], *y = a->data[1];
    float acc = 0;
    for (int64_t i = 0; i < p->N; i++) acc += x[i] * y[i];
    *(float *)a->data[2] = acc;
    return PL_OK;
}
