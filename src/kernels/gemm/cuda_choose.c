/* cuda_choose.c: the cost model and the choice of the CUDA top rungs (tile config and K split per
 * shape), host C over a tuning table (cuda_tuning.c) and what the frame measured of the device
 * (SM count, occupancy). No GPU needed: tests/test_gemm_tuning.c runs it on the CPU. */
#include "core/core.h"
#include "kernels/gemm/cuda_tuning.h"

const pl_gemm_cfg *pl_gemm_rung_configs(pl_gemm_cuda_rung r, int *n)
{
    switch (r) {
    case PL_GEMM_RUNG_TUNED: *n = PL_COUNT(pl_gemm_tuned_cfgs); return pl_gemm_tuned_cfgs;
    case PL_GEMM_RUNG_MMA_TF32: *n = PL_COUNT(pl_gemm_mma_tf32_cfgs); return pl_gemm_mma_tf32_cfgs;
    case PL_GEMM_RUNG_WGMMA_TF32: *n = PL_COUNT(pl_gemm_wgmma_tf32_cfgs); return pl_gemm_wgmma_tf32_cfgs;
    case PL_GEMM_RUNG_WGMMA_TMA_TF32:
        *n = PL_COUNT(pl_gemm_wgmma_tma_tf32_cfgs);
        return pl_gemm_wgmma_tma_tf32_cfgs;
    case PL_GEMM_RUNG_WGMMA_PERSISTENT_TF32:
        *n = PL_COUNT(pl_gemm_wgmma_persistent_tf32_cfgs);
        return pl_gemm_wgmma_persistent_tf32_cfgs;
    case PL_GEMM_RUNG_MMA_BF16: *n = PL_COUNT(pl_gemm_mma_bf16_cfgs); return pl_gemm_mma_bf16_cfgs;
    case PL_GEMM_RUNG_WGMMA_BF16: *n = PL_COUNT(pl_gemm_wgmma_bf16_cfgs); return pl_gemm_wgmma_bf16_cfgs;
    default: break;
    }
    *n = 0;
    return NULL;
}

/* The blocks' MACs on the busiest SM over the SM's rate: in waves of occ x sms blocks, a partial
 * wave costing a whole one (whole_waves), or block by block, the SM slowed while fewer than
 * full_warps warps are resident. Then the call's launch, split-K's traffic and reduce, and a B
 * transpose for the configs that make one. */
double pl_gemm_cost(const pl_gemm_gpu_tuning *t, const pl_gemm_rung_device *d, int ci, int64_t M, int64_t N,
                    int64_t K, int s)
{
    int n_cfgs;
    const pl_gemm_cfg *c = &pl_gemm_rung_configs(d->rung, &n_cfgs)[ci];
    const pl_gemm_rung_tuning *rt = &t->rung[d->rung];
    const pl_gemm_cost_model *m = rt->model;
    const double *rates = (K % 4 || N % 4) && rt->rate_unaligned ? rt->rate_unaligned : rt->rate;
    const double rate = rates ? rates[ci] : 1.0;
    const int occ = d->occ[ci] > 0 ? d->occ[ci] : 1;
    const int64_t blocks = ((M + c->bm - 1) / c->bm) * ((N + c->bn - 1) / c->bn) * s;
    const double klen = (double)((K + s - 1) / s) + m->k_extra;
    const double work = (double)c->bm * c->bn * klen; /* one block's MACs */
    double time = 0;
    if (m->whole_waves) {
        const int64_t slots = (int64_t)occ * d->sms;
        const int64_t waves = (blocks + slots - 1) / slots;
        time = (double)waves * occ * work / (m->sm_rate * rate);
    } else {
        const int64_t per_sm = (blocks + d->sms - 1) / d->sms;
        for (int64_t left = per_sm; left > 0; left -= occ) {
            const int64_t k = left < occ ? left : occ; /* blocks running together */
            const double fill = (double)(k * c->warps) / m->full_warps;
            time += k * work / (m->sm_rate * rate * (fill < 1.0 ? fill : 1.0));
        }
    }
    time += m->launch;
    if (s > 1)
        time += (double)M * N * (m->split_per_slice * s + m->split_fixed) * m->split_elem_cost / m->split_bandwidth +
                m->split_launch;
    if (c->transposes_b) time += (double)K * N * m->transpose_elem_cost + m->transpose_launch;
    return time;
}

pl_gemm_choice pl_gemm_choose(const pl_gemm_gpu_tuning *t, const pl_gemm_rung_device *const *rungs, int n,
                              int64_t M, int64_t N, int64_t K)
{
    enum { MAX_SPLIT = 64 };
    const double margin = 0.97; /* a later candidate must be 3% faster: the model is within a few % at best */
    pl_gemm_choice best = {0, -1, 1};
    double best_time = 1e300;
    for (int r = 0; r < n; r++) {
        const pl_gemm_rung_device *d = rungs[r];
        if (!d->runs) continue;
        int n_cfgs;
        const pl_gemm_cfg *cfgs = pl_gemm_rung_configs(d->rung, &n_cfgs);
        const pl_gemm_rung_tuning *rt = &t->rung[d->rung];
        for (int oi = 0; oi < rt->n; oi++) {
            const int ci = rt->order[oi];
            if (ci < 0 || ci >= n_cfgs || cfgs[ci].truncates) continue;
            for (int s = 1; s <= MAX_SPLIT; s *= 2) {
                if (s > 1 && K / s < rt->model->min_split_k) break;
                const double time = pl_gemm_cost(t, d, ci, M, N, K, s);
                if (time < best_time * margin) {
                    best_time = time;
                    best = (pl_gemm_choice){r, ci, s};
                }
            }
        }
    }
    return best;
}

pl_status pl_gemm_cuda_check_dims(const char *rung_name, const pl_gemm_problem *p)
{
    if (p->M <= 0 || p->N <= 0 || p->K <= 0) return pl_fail(PL_ERR_ARG, "%s: empty problem", rung_name);
    if (p->M > INT32_MAX || p->N > INT32_MAX || p->K > INT32_MAX)
        return pl_fail(PL_ERR_ARG, "%s: dimension over 2^31", rung_name);
    return PL_OK;
}

pl_status pl_gemm_cuda_resolve(const char *rung_name, const pl_gemm_problem *p, const int64_t *params,
                               const pl_gemm_gpu_tuning *t, const pl_gemm_rung_device *d, int *config, int *split)
{
    pl_status s = pl_gemm_cuda_check_dims(rung_name, p);
    if (s != PL_OK) return s;
    int n_cfgs;
    pl_gemm_rung_configs(d->rung, &n_cfgs);
    *config = params ? (int)params[PL_GEMM_CUDA_CONFIG] : 0;
    *split = params ? (int)params[PL_GEMM_CUDA_SPLITK] : 0;
    if (*config < 0 || *config > n_cfgs)
        return pl_fail(PL_ERR_ARG, "%s: config %d out of 0..%d", rung_name, *config, n_cfgs);
    if (*config == 0 || *split == 0) {
        const pl_gemm_choice c = pl_gemm_choose(t, &d, 1, p->M, p->N, p->K);
        if (c.config < 0) return pl_fail(PL_ERR_UNSUPPORTED, "%s: no config runs on this device", rung_name);
        if (*config == 0) *config = c.config + 1;
        if (*split == 0) *split = *config == c.config + 1 ? c.split : 1;
    }
    return PL_OK;
}
