/* ceilings.c: a result placed against the machine's measured ceilings (pl_peaks). The kernel
 * names what bounds it (compute, memory, or the roofline: whichever would take longer at the
 * measured peaks); the run's % is that floor time over its measured time, and a figure above
 * 100% is flagged, never printed as if true. */
#include "core/core.h"
#include "harness/harness.h"
#include "harness/peaks.h"

#include <math.h>
#include <stdio.h>

/* The compute peak of a precision on a backend (GFLOP/s or Gop/s), with its name. BF16 on the
 * GPU: twice the measured TF32 tensor-core peak, the ratio of NVIDIA's dense figures on every
 * generation with both (A100: 156 and 312 TFLOP/s; H100 SXM: 495 and 989; the Ampere and
 * Hopper architecture whitepapers), since a tensor core takes twice the k per instruction at
 * half the input width. BF16 on the CPU, which has no BF16 arithmetic here: the rung widens
 * to FP32 and is placed against the FP32 FMA peak, as its name says. */
static double compute_peak(const pl_ctx *ctx, const pl_variant *v, const pl_peaks *pk, char *name, size_t n)
{
    if (v->backend == PL_BACKEND_CUDA) {
        switch (v->precision) {
        case PL_PREC_TF32: snprintf(name, n, "GPU TF32 tensor peak"); return pk->gpu_gflops_tf32;
        case PL_PREC_EXACT: snprintf(name, n, "GPU int32 op peak"); return pk->gpu_gops_int32;
        case PL_PREC_BF16: snprintf(name, n, "GPU BF16 tensor peak (2x TF32)"); return 2.0 * pk->gpu_gflops_tf32;
        default: snprintf(name, n, "GPU FP32 FMA peak"); return pk->gpu_gflops_fp32;
        }
    }
    int thr = pl_ctx_threads(ctx);
    unsigned f = pl_cpu_features();
    const double *isa = (f & PL_FEAT_AVX512) ? pk->cpu_gflops_avx512
                        : (f & PL_FEAT_AVX2) ? pk->cpu_gflops_avx2 : pk->cpu_gflops_scalar;
    const char *isa_name = (f & PL_FEAT_AVX512) ? "AVX-512" : (f & PL_FEAT_AVX2) ? "AVX2" : "scalar";
    if (v->precision == PL_PREC_EXACT) {
        isa = pk->cpu_gops_int32;
        snprintf(name, n, "CPU int32 op peak, %d thr", thr);
    } else if (v->precision == PL_PREC_BF16) {
        snprintf(name, n, "CPU %s FP32 FMA peak (no BF16 one), %d thr", isa_name, thr);
    } else {
        snprintf(name, n, "CPU %s FMA peak, %d thr", isa_name, thr);
    }
    if (thr <= 1) return isa[0];
    if (thr >= pk->cpu_threads) return isa[1];
    return fmin(isa[1], isa[0] * thr);
}

/* The memory floor is the time the run's bytes read and written need at the measured
 * read-only, write-only and mixed stream rates, or at the cache-resident rates for a warm run
 * whose bytes fit in the cache (pl_peaks_mem_time). */
void pl_place_on_ceiling(const pl_ctx *ctx, const pl_variant *v, const pl_peaks *pk, double written, pl_result *r)
{
    r->ceiling_pct = -1;
    snprintf(r->ceiling_name, sizeof r->ceiling_name, "-");
    if (!pk || !pk->valid || r->median_s <= 0) return;
    char cname[64], bname[64];
    double peak = compute_peak(ctx, v, pk, cname, sizeof cname);
    pl_ceiling kind = r->kernel->ceiling;
    double t_ops = kind != PL_CEIL_MEMORY && peak > 0 ? r->ops / (peak * 1e9) : 0;
    double t_byte = kind != PL_CEIL_COMPUTE ? pl_peaks_mem_time(pk, v->backend == PL_BACKEND_CUDA, r->bytes,
                                                                written, r->cold, bname, sizeof bname)
                                            : 0;
    if (t_ops <= 0 && t_byte <= 0) return;
    int compute_bound = t_ops >= t_byte;
    r->ceiling_pct = 100.0 * (compute_bound ? t_ops : t_byte) / r->median_s;
    snprintf(r->ceiling_name, sizeof r->ceiling_name, "%s", compute_bound ? cname : bname);
    r->over_ceiling = r->ceiling_pct > 100.0;
}
