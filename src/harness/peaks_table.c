/* peaks_table.c: the rows of `parlab peaks`'s table: each ceiling, where it was measured, its
 * figure and how it was measured (the method constants of peaks.h, the tries and sizes of the
 * mode), so that the command only prints them. */
#include "harness/peaks.h"

#include <stdio.h>
#include <string.h>

/* "quick" -> 1, "full" -> 0, anything else (unknown) -> -1. */
static int mode_quick(const char *mode)
{
    return strcmp(mode, "quick") == 0 ? 1 : strcmp(mode, "full") == 0 ? 0 : -1;
}

/* How a chain loop was measured; "quick"/"full" change the tries and sizes. */
static void how_chains(char *buf, size_t n, int chains, int lanes, const char *insn, int quick)
{
    int len = snprintf(buf, n, "%d chains x %d lane%s, %s", chains, lanes, lanes > 1 ? "s" : "", insn);
    if (quick >= 0 && len > 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, ", best of %d x %.2g s", pl_peaks_tries(quick), pl_peaks_try_s(quick));
}

/* ", best of N" after what buf holds (len of it), when the mode is known. */
static void best_of(char *buf, size_t n, int len, int quick)
{
    if (quick >= 0 && len > 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, ", best of %d", pl_peaks_tries(quick));
}

typedef struct rows {
    pl_peaks_row *row;
    int n, max;
} rows;

static void add(rows *r, const char *ceiling, const char *where, double value, const char *unit, const char *how)
{
    if (r->n == r->max) return;
    pl_peaks_row *w = &r->row[r->n++];
    snprintf(w->ceiling, sizeof w->ceiling, "%s", ceiling);
    snprintf(w->where, sizeof w->where, "%s", where);
    snprintf(w->unit, sizeof w->unit, "%s", unit);
    snprintf(w->how, sizeof w->how, "%s", how);
    w->value = value;
}

static void cpu_rows(rows *r, const pl_peaks *pk, int quick)
{
    char all[16], how[160];
    snprintf(all, sizeof all, "%d thr", pk->cpu_threads);
    int fma = (pl_features() & PL_FEAT_AVX2) != 0; /* the scalar loop uses vfmadd..ss where FMA exists */
    how_chains(how, sizeof how, PL_PEAKS_CHAINS_SCALAR, 1, fma ? "FMA (vfmadd ss)" : "mulss + addss", quick);
    add(r, "CPU FP32 FMA, scalar", "1 thr", pk->cpu_gflops_scalar[0], "GFLOP/s", how);
    add(r, "CPU FP32 FMA, scalar", all, pk->cpu_gflops_scalar[1], "GFLOP/s", "");
    if (pk->cpu_gflops_avx2[0] > 0.0) {
        how_chains(how, sizeof how, PL_PEAKS_CHAINS_AVX2, 8, "vfmadd ps ymm", quick);
        add(r, "CPU FP32 FMA, AVX2", "1 thr", pk->cpu_gflops_avx2[0], "GFLOP/s", how);
        add(r, "CPU FP32 FMA, AVX2", all, pk->cpu_gflops_avx2[1], "GFLOP/s", "");
    } else {
        add(r, "CPU FP32 FMA, AVX2", "-", 0.0, "", "n/a: this CPU has no AVX2 + FMA");
    }
    if (pk->cpu_gflops_avx512[0] > 0.0) {
        how_chains(how, sizeof how, PL_PEAKS_CHAINS_AVX512, 16, "vfmadd ps zmm", quick);
        add(r, "CPU FP32 FMA, AVX-512", "1 thr", pk->cpu_gflops_avx512[0], "GFLOP/s", how);
        add(r, "CPU FP32 FMA, AVX-512", all, pk->cpu_gflops_avx512[1], "GFLOP/s", "");
    } else {
        add(r, "CPU FP32 FMA, AVX-512", "-", 0.0, "", "n/a: this CPU has no AVX-512");
    }

    /* integer/bitwise ops: the best ISA (the cache is rejected when it names another) */
    const char *isa = pl_peaks_int_isa();
    if (strcmp(isa, "avx512") == 0)
        how_chains(how, sizeof how, PL_PEAKS_INT_CHAINS_AVX512, 16, "vpternlogd + vpaddd zmm", quick);
    else if (strcmp(isa, "avx2") == 0)
        how_chains(how, sizeof how, PL_PEAKS_INT_CHAINS_AVX2, 8, "vpxor + vpaddd ymm", quick);
    else
        how_chains(how, sizeof how, PL_PEAKS_INT_CHAINS_SCALAR, 1, "xor + add r32", quick);
    const char *int_name = strcmp(isa, "avx512") == 0 ? "CPU int32 ops, AVX-512"
                           : strcmp(isa, "avx2") == 0 ? "CPU int32 ops, AVX2"
                                                      : "CPU int32 ops, scalar";
    add(r, int_name, "1 thr", pk->cpu_gops_int32[0], "Gop/s", how);
    add(r, int_name, all, pk->cpu_gops_int32[1], "Gop/s", "");

    if (quick >= 0)
        snprintf(how, sizeof how, "a = b + s*c, 3 x %d MiB floats, 12 B/elem, best of %d", pl_peaks_triad_mib(quick),
                 pl_peaks_triad_reps(quick));
    else
        snprintf(how, sizeof how, "a = b + s*c, 12 B/elem (read b, c; write a)");
    add(r, "CPU memory (STREAM triad)", all, pk->cpu_triad_gbps, "GB/s", how);
    add(r, "CPU memory, read only", all, pk->cpu_read_gbps, "GB/s", "sum, 8 SIMD accumulators, same arrays");
    add(r, "CPU memory, read only", "1 thr", pk->cpu_read_1thr_gbps, "GB/s",
        "a sanity check: all threads must not be slower");
    add(r, "CPU memory, write only", all, pk->cpu_write_gbps, "GB/s",
        pk->cpu_write_nt ? "a[i] = v, non-temporal stores (faster than plain)"
                         : "a[i] = v, plain stores (faster than non-temporal)");
    add(r, "CPU memory, copy", all, pk->cpu_copy_gbps, "GB/s", "a = b, read + written, best of plain/non-temporal");
    snprintf(how, sizeof how, "in %.3g MiB (half the last-level cache), warm", pk->cpu_cache_bytes / 2.0 / 1048576.0);
    const char *cache_how = pk->cpu_cache_bytes > 0 ? how : "no cache size known";
    add(r, "CPU cache-resident read", all, pk->cpu_cache_read_gbps, "GB/s", cache_how);
    add(r, "CPU cache-resident copy", all, pk->cpu_cache_copy_gbps, "GB/s", cache_how);
}

static void gpu_rows(rows *r, const pl_peaks *pk, int quick)
{
    char how[160];
    if (!(pk->gpu_gflops_fp32 > 0.0)) {
        unsigned f = pl_features();
        const char *why = !(f & PL_FEAT_CUDA_BUILD) ? "no GPU (this parlab was built without CUDA)"
                          : !(f & PL_FEAT_GPU)      ? "no GPU (no usable CUDA device)"
                                                    : "not measured: run `parlab peaks`";
        add(r, "GPU FP32 FMA (CUDA cores)", "-", 0.0, "", why);
        add(r, "GPU TF32 (tensor cores)", "-", 0.0, "", why);
        add(r, "GPU int32 ops", "-", 0.0, "", why);
        add(r, "GPU memory (D2D copy)", "-", 0.0, "", why);
        add(r, "GPU memory, read/write only", "-", 0.0, "", why);
        return;
    }
    int len = snprintf(how, sizeof how, "%d chains/thread, %d x %d threads/SM", PL_PEAKS_GPU_CHAINS,
                       PL_PEAKS_GPU_BLOCKS_PER_SM, PL_PEAKS_GPU_THREADS);
    best_of(how, sizeof how, len, quick);
    add(r, "GPU FP32 FMA (CUDA cores)", "GPU", pk->gpu_gflops_fp32, "GFLOP/s", how);
    int tc = pl_peaks_tc_parse(pk->gpu_tf32_method);
    if (tc == PL_PEAKS_TC_WGMMA)
        len = snprintf(how, sizeof how, "wgmma m64n256k8 smem x smem, %d per group, 1-%d warpgroups/SM",
                       PL_PEAKS_TC_UNROLL, PL_PEAKS_TC_MAX_WG);
    else if (tc == PL_PEAKS_TC_MMA)
        len = snprintf(how, sizeof how, "mma.sync m16n8k8, %d chains/warp, %d warps/SM", PL_PEAKS_MMA_CHAINS,
                       PL_PEAKS_MMA_WARPS);
    else
        len = snprintf(how, sizeof how, "%s",
                       pk->gpu_gflops_tf32 > 0.0 ? "method unknown" : "n/a: no TF32 tensor cores (before sm_80)");
    if (pk->gpu_gflops_tf32 > 0.0) best_of(how, sizeof how, len, quick);
    add(r, "GPU TF32 (tensor cores)", "GPU", pk->gpu_gflops_tf32, "GFLOP/s", how);
    len = snprintf(how, sizeof how, "%d chains/thread, LOP3 + IADD3, %d x %d threads/SM", PL_PEAKS_GPU_INT_CHAINS,
                   PL_PEAKS_GPU_BLOCKS_PER_SM, PL_PEAKS_GPU_THREADS);
    best_of(how, sizeof how, len, quick);
    add(r, "GPU int32 ops", "GPU", pk->gpu_gops_int32, "Gop/s", how);
    if (quick >= 0)
        snprintf(how, sizeof how, "cudaMemcpy D2D %d MiB, read + write, best of %d", pl_peaks_copy_mib(quick),
                 pl_peaks_copy_reps(quick));
    else
        snprintf(how, sizeof how, "cudaMemcpy D2D, read + write");
    add(r, "GPU memory (D2D copy)", "GPU", pk->gpu_copy_gbps, "GB/s", how);
    add(r, "GPU memory, read only", "GPU", pk->gpu_read_gbps, "GB/s", "float4 loads, sum per thread, full GPU");
    add(r, "GPU memory, write only", "GPU", pk->gpu_write_gbps, "GB/s", "float4 stores, full GPU");
    snprintf(how, sizeof how, "in %.3g MiB (half the L2), warm", pk->gpu_cache_bytes / 2.0 / 1048576.0);
    add(r, "GPU L2-resident read", "GPU", pk->gpu_cache_read_gbps, "GB/s", how);
    add(r, "GPU L2-resident copy", "GPU", pk->gpu_cache_copy_gbps, "GB/s", how);
}

int pl_peaks_rows(const pl_peaks *pk, pl_peaks_row *row, int max)
{
    rows r = {row, 0, max};
    cpu_rows(&r, pk, mode_quick(pk->cpu_mode));
    gpu_rows(&r, pk, mode_quick(pk->gpu_mode));
    return r.n;
}
