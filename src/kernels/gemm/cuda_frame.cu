/* cuda_frame.cu: the frame of the CUDA top rungs (see cuda_frame.cuh): their per-context state,
 * their shared entry point, and their device workspaces. */
#include "core/core.h"
#include "core/device.h"
#include "kernels/gemm/cuda_frame.cuh"
#include "kernels/gemm/cuda_splitk.cuh"
#include "kernels/gemm/cuda_tma.cuh"

namespace {

/* 1 where the probe's image is the sm_90a one (a Hopper GPU loaded it), else 0. */
bool sm90a_runs(pl_ctx *ctx, void (*probe)(int *))
{
    cudaStream_t st = (cudaStream_t)ctx->stream;
    int *flag = nullptr, h = 0;
    if (cudaMalloc(&flag, sizeof(int)) == cudaSuccess) {
        probe<<<1, 1, 0, st>>>(flag);
        if (cudaMemcpyAsync(&h, flag, sizeof(int), cudaMemcpyDeviceToHost, st) != cudaSuccess ||
            cudaStreamSynchronize(st) != cudaSuccess)
            h = 0;
        cudaFree(flag);
    }
    cudaGetLastError();
    return h == 1;
}

pl_status init_state(pl_ctx *ctx, const pl_gemm_cuda_rung_def &r, pl_gemm_rung_state *g)
{
    pl_gemm_rung_device *d = &g->dev;
    d->rung = r.rung;
    if (pl_status s = pl_gemm_ctx_device(ctx, r.name, &d->sms); s != PL_OK) return s;
    g->match = pl_gemm_tuning_for(pl_dev_name(ctx->device), pl_dev_cc(ctx->device), &g->tuning);
    d->runs = 1;
    if (r.sm90a_probe && !sm90a_runs(ctx, r.sm90a_probe)) {
        d->runs = 0;
        g->cannot = "needs Hopper (sm_90a)";
    } else if (r.needs_tensor_maps && !pl_gemm_tma::encoder()) {
        d->runs = 0;
        g->cannot = "the driver encodes no tensor maps (TMA)";
    }
    if (!d->runs) return PL_OK; /* each call says why */
    int n_cfgs;
    const pl_gemm_cfg *cfgs = pl_gemm_rung_configs(r.rung, &n_cfgs);
    for (int i = 0; i < n_cfgs; i++) {
        const size_t sm = r.smem_bytes(cfgs[i]);
        for (int k = 0; k < r.kernels_per_config; k++) {
            cudaError_t e = cudaFuncSetAttribute(r.kernel(i, k), cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm);
            if (e != cudaSuccess)
                return pl_fail(PL_ERR_CUDA, "%s: cudaFuncSetAttribute: %s", r.name, cudaGetErrorString(e));
        }
        int occ = 0;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, r.kernel(i, r.kernels_per_config - 1), cfgs[i].warps * 32,
                                                      sm);
        d->occ[i] = occ > 0 ? occ : 1;
    }
    cudaGetLastError();
    return PL_OK;
}

} // namespace

pl_status pl_gemm_rung_state_of(pl_ctx *ctx, const pl_gemm_cuda_rung_def &r, pl_gemm_rung_state **st)
{
    /* The rung's definition names its state; made here rather than in pl_ctx_state's init,
     * which is not told the rung. Until it succeeds it is remade on each call. */
    pl_status s = pl_ctx_state(ctx, &r, sizeof(pl_gemm_rung_state), nullptr, (void **)st);
    if (s != PL_OK) return s;
    if (!(*st)->ready) {
        *(*st) = pl_gemm_rung_state{};
        if ((s = init_state(ctx, r, *st)) != PL_OK) return s;
        (*st)->ready = true;
    }
    return PL_OK;
}

pl_status pl_gemm_cuda_run(const pl_run_args *a, const pl_gemm_cuda_rung_def &r)
{
    const pl_gemm_problem *p = (const pl_gemm_problem *)a->problem;
    pl_gemm_rung_state *g = nullptr;
    pl_status s = pl_gemm_rung_state_of(a->ctx, r, &g);
    if (s != PL_OK) return s;
    if (!g->dev.runs) return pl_fail(PL_ERR_UNSUPPORTED, "%s: cannot run here: %s", r.name, g->cannot);
    int ci = 0, split = 0;
    if ((s = pl_gemm_cuda_resolve(r.name, p, a->params, &g->tuning, &g->dev, &ci, &split)) != PL_OK) return s;
    int n_cfgs;
    const pl_gemm_cfg &c = pl_gemm_rung_configs(r.rung, &n_cfgs)[ci - 1];
    const int M = (int)p->M, N = (int)p->N, K = (int)p->K;
    int kps;
    pl_gemm_split_k(K, c.bk, &split, &kps);
    const int64_t tiles = (int64_t)((M + c.bm - 1) / c.bm) * ((N + c.bn - 1) / c.bn);
    if (tiles > INT32_MAX) return pl_fail(PL_ERR_ARG, "%s: too many tiles", r.name);

    float *ws = nullptr;
    if (split > 1 &&
        (s = pl_gemm_workspace(a->ctx, r.name, PL_GEMM_WS_SPLITK, (size_t)split * M * N * sizeof(float), &ws)) != PL_OK)
        return s;
    const pl_gemm_launch l = {a, p, ci - 1, dim3((unsigned)tiles, (unsigned)split), kps, ws};
    if ((s = r.launch(l)) != PL_OK) return s;
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s: launch: %s", r.name, cudaGetErrorString(e));
    if (split > 1)
        return pl_gemm_splitk_reduce(r.name, M, N, split, ws, (float *)a->data[2], p->ldc, p->alpha, p->beta,
                                     g->dev.sms, (cudaStream_t)a->stream);
    return PL_OK;
}

bool pl_gemm_rows_aligned16_elems(const void *m, int64_t ld, int elem_bytes)
{
    return ((reinterpret_cast<uintptr_t>(m) & 15) == 0) && ((ld * elem_bytes) % 16 == 0);
}

bool pl_gemm_rows_aligned16(const float *m, int64_t ld)
{
    return pl_gemm_rows_aligned16_elems(m, ld, (int)sizeof(float));
}

int pl_gemm_operand_case(const pl_gemm_launch &l)
{
    const bool va = pl_gemm_rows_aligned16((const float *)l.a->data[0], l.p->lda);
    const bool vb = pl_gemm_rows_aligned16((const float *)l.a->data[1], l.p->ldb);
    return (va ? 2 : 0) + (vb ? 1 : 0);
}

void pl_gemm_launch_tile_kernel(const pl_gemm_launch &l, pl_gemm_tile_kernel k, int threads, size_t smem,
                                const float *B, int64_t ldb)
{
    const pl_gemm_problem *p = l.p;
    k<<<l.grid, threads, smem, (cudaStream_t)l.a->stream>>>((int)p->M, (int)p->N, (int)p->K,
                                                             (const float *)l.a->data[0], p->lda, B, ldb,
                                                             (float *)l.a->data[2], p->ldc, p->alpha, p->beta, l.kps,
                                                             l.ws);
}

pl_status pl_gemm_ctx_device(const pl_ctx *ctx, const char *rung, int *sms)
{
    int dev = -1;
    if (cudaGetDevice(&dev) != cudaSuccess || dev != ctx->device)
        return pl_fail(PL_ERR_CUDA, "%s: the context's device %d is not current (pl_ctx_activate)", rung, ctx->device);
    *sms = ctx->sm_count > 0 ? ctx->sm_count : 1;
    return PL_OK;
}

pl_status pl_gemm_workspace(pl_ctx *ctx, const char *rung, int slot, size_t bytes, float **ws)
{
    *ws = nullptr;
    if (slot < 0 || slot >= PL_GEMM_WS_SLOTS) return pl_fail(PL_ERR_ARG, "%s: workspace slot %d", rung, slot);
    void *p = nullptr;
    pl_status s = pl_ctx_dev_workspace(ctx, slot, bytes, &p);
    if (s == PL_ERR_DEVICE_NOMEM) return pl_fail(s, "%s: workspace of %zu bytes: out of device memory", rung, bytes);
    if (s != PL_OK) return s;
    *ws = (float *)p;
    return PL_OK;
}

pl_status pl_gemm_repitch_elems(pl_ctx *ctx, const char *rung, int slot, const void **m, int64_t *ld, int64_t rows,
                                int64_t cols, int elem_bytes, cudaStream_t stream)
{
    const int64_t per16 = 16 / elem_bytes;
    const int64_t ldp = (cols + per16 - 1) / per16 * per16;
    float *copy = nullptr;
    pl_status s = pl_gemm_workspace(ctx, rung, slot, (size_t)rows * ldp * elem_bytes, &copy);
    if (s != PL_OK) return s;
    cudaError_t e = cudaMemcpy2DAsync(copy, (size_t)ldp * elem_bytes, *m, (size_t)*ld * elem_bytes,
                                      (size_t)cols * elem_bytes, (size_t)rows, cudaMemcpyDeviceToDevice, stream);
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s: re-pitching an operand: %s", rung, cudaGetErrorString(e));
    *m = copy;
    *ld = ldp;
    return PL_OK;
}

pl_status pl_gemm_repitch(pl_ctx *ctx, const char *rung, int slot, const float **m, int64_t *ld, int64_t rows, int64_t cols,
                          cudaStream_t stream)
{
    const void *v = *m;
    pl_status s = pl_gemm_repitch_elems(ctx, rung, slot, &v, ld, rows, cols, (int)sizeof(float), stream);
    *m = (const float *)v;
    return s;
}
