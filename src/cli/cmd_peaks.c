/* cmd_peaks.c: `parlab peaks`: measure the machine's ceilings (FMA peak and memory bandwidth
 * of the CPU and the GPU), cache them, and print them as a table with how each was measured.
 * `--show` prints the cached figures without measuring. The measurement itself lives in
 * src/harness/peaks*.c, the JSON writer in src/io/peaks_json.c. */
#include "cli/tool.h"
#include "core/core.h"
#include "harness/peaks.h"
#include "io/io.h"
#include "io/json.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: parlab peaks [--quick] [--show] [--json FILE] [-h|--help]\n"
            "\n"
            "Measure this machine's ceilings, cache them and print them. `parlab bench` and\n"
            "`parlab sweep` place each result against them (%% of the ceiling that bounds it;\n"
            "they measure --quick figures themselves when none are cached):\n"
            "  CPU FP32 FMA peak per ISA (scalar, AVX2, AVX-512 where the CPU has them),\n"
            "      on 1 thread and on every core;\n"
            "  CPU 32-bit integer/bitwise throughput with the best ISA (AVX-512 vpternlogd +\n"
            "      vpaddd, AVX2 vpxor + vpaddd, or scalar xor + add), on 1 thread and on every\n"
            "      core, in Gop/s: one op per 32-bit lane per instruction;\n"
            "  CPU memory streams on every core, arrays 4x the last-level cache: STREAM triad,\n"
            "      read only, write only and copy (the ceilings of memory-bound rows: each row's\n"
            "      bytes read and written at their own rates); read only on one thread; read\n"
            "      and copy in half the last-level cache (warm rows whose bytes fit in it);\n"
            "  GPU FP32 FMA peak, TF32 tensor-core peak (wgmma on Hopper, mma.sync on sm_80+),\n"
            "      32-bit integer throughput (LOP3 + IADD3, one op per thread per instruction)\n"
            "      device-to-device copy, read-only and write-only streams, and read and copy in\n"
            "      half the L2, when this build has CUDA and a GPU is usable.\n"
            "\n"
            "Before caching, the figures are checked: all threads not slower than one (FMA,\n"
            "int32, the read stream), repeated readings within 25%% of each other (best vs\n"
            "median), and a 1-minute load average at the start of at most 1 + cores/4. Figures\n"
            "that fail are printed but not cached (exit 1), with the reason.\n"
            "PARLAB_PEAKS_SANITY=off skips the checks (recorded as such).\n"
            "\n"
            "options:\n"
            "  --quick      shorter runs and smaller arrays: faster, a little less exact\n"
            "  --show       print the cached figures, and how, when and under what load they\n"
            "               were measured; measures nothing; fails (exit 1) when none are cached\n"
            "  --json FILE  also write the figures as JSON to FILE, whole or not at all; with\n"
            "               '-', the JSON goes to standard output instead of the table. Checked\n"
            "               before measuring: a directory or a place no file can be created\n"
            "               in is exit 2\n"
            "  -h, --help   print this help\n"
            "\n"
            "The cache is a text file, <dir>/peaks-<machine>.txt, where <dir> is\n"
            "$PARLAB_CACHE_DIR, else $XDG_CACHE_HOME/parlab, else ~/.cache/parlab; <machine>\n"
            "names the CPU model, the core count and the GPU.\n"
            "\n"
            "exit status: 0 ok, 1 failure (nothing cached for --show, measuring, a write\n"
            "failing after the run), 2 usage error (an unwritable --json included).\n");
}

/* How a figure was measured, for the table: "quick"/"full" change the tries and sizes. */
static void how_fma(char *buf, size_t n, int chains, int lanes, const char *insn, int quick)
{
    int len = snprintf(buf, n, "%d chains x %d lane%s, %s", chains, lanes, lanes > 1 ? "s" : "",
                       insn);
    if (quick >= 0 && len > 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, ", best of %d x %.2g s", pl_peaks_tries(quick),
                 pl_peaks_try_s(quick));
}

/* "quick" -> 1, "full" -> 0, anything else (unknown) -> -1. */
static int mode_quick(const char *mode)
{
    return strcmp(mode, "quick") == 0 ? 1 : strcmp(mode, "full") == 0 ? 0 : -1;
}

static void print_row(const char *ceiling, const char *where, double value, const char *unit,
                      const char *how)
{
    if (value > 0.0)
        printf("%-27s %-6s %10.1f  %-8s %s\n", ceiling, where, value, unit, how);
    else
        printf("%-27s %-6s %10s  %-8s %s\n", ceiling, where, "-", "", how);
}

static void print_table(const pl_peaks *pk, int cpu_quick, int gpu_quick, const char *gpu_why,
                        int tc)
{
    unsigned f = pl_features();
    char all[16], how[160];
    snprintf(all, sizeof all, "%d thr", pk->cpu_threads);

    printf("machine: %s\n\n", pk->machine);
    printf("%-27s %-6s %10s  %-8s %s\n", "ceiling", "on", "value", "unit", "how measured");

    int fma = (f & PL_FEAT_AVX2) != 0; /* the scalar loop uses vfmadd..ss where FMA exists */
    how_fma(how, sizeof how, PL_PEAKS_CHAINS_SCALAR, 1, fma ? "FMA (vfmadd ss)" : "mulss + addss",
            cpu_quick);
    print_row("CPU FP32 FMA, scalar", "1 thr", pk->cpu_gflops_scalar[0], "GFLOP/s", how);
    print_row("CPU FP32 FMA, scalar", all, pk->cpu_gflops_scalar[1], "GFLOP/s", "");

    if (pk->cpu_gflops_avx2[0] > 0.0) {
        how_fma(how, sizeof how, PL_PEAKS_CHAINS_AVX2, 8, "vfmadd ps ymm", cpu_quick);
        print_row("CPU FP32 FMA, AVX2", "1 thr", pk->cpu_gflops_avx2[0], "GFLOP/s", how);
        print_row("CPU FP32 FMA, AVX2", all, pk->cpu_gflops_avx2[1], "GFLOP/s", "");
    } else {
        print_row("CPU FP32 FMA, AVX2", "-", 0.0, "", "n/a: this CPU has no AVX2 + FMA");
    }
    if (pk->cpu_gflops_avx512[0] > 0.0) {
        how_fma(how, sizeof how, PL_PEAKS_CHAINS_AVX512, 16, "vfmadd ps zmm", cpu_quick);
        print_row("CPU FP32 FMA, AVX-512", "1 thr", pk->cpu_gflops_avx512[0], "GFLOP/s", how);
        print_row("CPU FP32 FMA, AVX-512", all, pk->cpu_gflops_avx512[1], "GFLOP/s", "");
    } else {
        print_row("CPU FP32 FMA, AVX-512", "-", 0.0, "", "n/a: this CPU has no AVX-512");
    }

    /* integer/bitwise ops: the best ISA (the cache is rejected when it names another) */
    const char *isa = pl_peaks_int_isa();
    if (strcmp(isa, "avx512") == 0)
        how_fma(how, sizeof how, PL_PEAKS_INT_CHAINS_AVX512, 16, "vpternlogd + vpaddd zmm", cpu_quick);
    else if (strcmp(isa, "avx2") == 0)
        how_fma(how, sizeof how, PL_PEAKS_INT_CHAINS_AVX2, 8, "vpxor + vpaddd ymm", cpu_quick);
    else
        how_fma(how, sizeof how, PL_PEAKS_INT_CHAINS_SCALAR, 1, "xor + add r32", cpu_quick);
    const char *int_name = strcmp(isa, "avx512") == 0 ? "CPU int32 ops, AVX-512"
                           : strcmp(isa, "avx2") == 0 ? "CPU int32 ops, AVX2"
                                                      : "CPU int32 ops, scalar";
    print_row(int_name, "1 thr", pk->cpu_gops_int32[0], "Gop/s", how);
    print_row(int_name, all, pk->cpu_gops_int32[1], "Gop/s", "");

    if (cpu_quick >= 0)
        snprintf(how, sizeof how, "a = b + s*c, 3 x %d MiB floats, 12 B/elem, best of %d",
                 pl_peaks_triad_mib(cpu_quick), pl_peaks_triad_reps(cpu_quick));
    else
        snprintf(how, sizeof how, "a = b + s*c, 12 B/elem (read b, c; write a)");
    print_row("CPU memory (STREAM triad)", all, pk->cpu_triad_gbps, "GB/s", how);
    print_row("CPU memory, read only", all, pk->cpu_read_gbps, "GB/s", "sum, 8 SIMD accumulators, same arrays");
    print_row("CPU memory, read only", "1 thr", pk->cpu_read_1thr_gbps, "GB/s", "a sanity check: all threads must not be slower");
    print_row("CPU memory, write only", all, pk->cpu_write_gbps, "GB/s",
              pk->cpu_write_nt ? "a[i] = v, non-temporal stores (faster than plain)"
                               : "a[i] = v, plain stores (faster than non-temporal)");
    print_row("CPU memory, copy", all, pk->cpu_copy_gbps, "GB/s", "a = b, read + written, best of plain/non-temporal");
    snprintf(how, sizeof how, "in %.3g MiB (half the last-level cache), warm", pk->cpu_cache_bytes / 2.0 / 1048576.0);
    print_row("CPU cache-resident read", all, pk->cpu_cache_read_gbps, "GB/s", pk->cpu_cache_bytes > 0 ? how : "no cache size known");
    print_row("CPU cache-resident copy", all, pk->cpu_cache_copy_gbps, "GB/s", pk->cpu_cache_bytes > 0 ? how : "no cache size known");

    if (pk->gpu_gflops_fp32 > 0.0) {
        int len = snprintf(how, sizeof how, "%d chains/thread, %d x %d threads/SM",
                           PL_PEAKS_GPU_CHAINS, PL_PEAKS_GPU_BLOCKS_PER_SM, PL_PEAKS_GPU_THREADS);
        if (gpu_quick >= 0 && len > 0 && (size_t)len < sizeof how)
            snprintf(how + len, sizeof how - (size_t)len, ", best of %d", pl_peaks_tries(gpu_quick));
        print_row("GPU FP32 FMA (CUDA cores)", "GPU", pk->gpu_gflops_fp32, "GFLOP/s", how);
        int len2;
        if (tc == PL_PEAKS_TC_WGMMA)
            len2 = snprintf(how, sizeof how, "wgmma m64n256k8 smem x smem, %d per group, 1-%d warpgroups/SM",
                            PL_PEAKS_TC_UNROLL, PL_PEAKS_TC_MAX_WG);
        else if (tc == PL_PEAKS_TC_MMA)
            len2 = snprintf(how, sizeof how, "mma.sync m16n8k8, %d chains/warp, %d warps/SM",
                            PL_PEAKS_MMA_CHAINS, PL_PEAKS_MMA_WARPS);
        else
            len2 = snprintf(how, sizeof how, "%s", pk->gpu_gflops_tf32 > 0.0 ? "method unknown"
                                                   : "n/a: no TF32 tensor cores (before sm_80)");
        if (pk->gpu_gflops_tf32 > 0.0 && gpu_quick >= 0 && len2 > 0 && (size_t)len2 < sizeof how)
            snprintf(how + len2, sizeof how - (size_t)len2, ", best of %d", pl_peaks_tries(gpu_quick));
        print_row("GPU TF32 (tensor cores)", "GPU", pk->gpu_gflops_tf32, "GFLOP/s", how);
        len2 = snprintf(how, sizeof how, "%d chains/thread, LOP3 + IADD3, %d x %d threads/SM",
                        PL_PEAKS_GPU_INT_CHAINS, PL_PEAKS_GPU_BLOCKS_PER_SM, PL_PEAKS_GPU_THREADS);
        if (gpu_quick >= 0 && len2 > 0 && (size_t)len2 < sizeof how)
            snprintf(how + len2, sizeof how - (size_t)len2, ", best of %d", pl_peaks_tries(gpu_quick));
        print_row("GPU int32 ops", "GPU", pk->gpu_gops_int32, "Gop/s", how);
        if (gpu_quick >= 0)
            snprintf(how, sizeof how, "cudaMemcpy D2D %d MiB, read + write, best of %d",
                     pl_peaks_copy_mib(gpu_quick), pl_peaks_copy_reps(gpu_quick));
        else
            snprintf(how, sizeof how, "cudaMemcpy D2D, read + write");
        print_row("GPU memory (D2D copy)", "GPU", pk->gpu_copy_gbps, "GB/s", how);
        print_row("GPU memory, read only", "GPU", pk->gpu_read_gbps, "GB/s", "float4 loads, sum per thread, full GPU");
        print_row("GPU memory, write only", "GPU", pk->gpu_write_gbps, "GB/s", "float4 stores, full GPU");
        snprintf(how, sizeof how, "in %.3g MiB (half the L2), warm", pk->gpu_cache_bytes / 2.0 / 1048576.0);
        print_row("GPU L2-resident read", "GPU", pk->gpu_cache_read_gbps, "GB/s", how);
        print_row("GPU L2-resident copy", "GPU", pk->gpu_cache_copy_gbps, "GB/s", how);
    } else {
        print_row("GPU FP32 FMA (CUDA cores)", "-", 0.0, "", gpu_why);
        print_row("GPU TF32 (tensor cores)", "-", 0.0, "", gpu_why);
        print_row("GPU int32 ops", "-", 0.0, "", gpu_why);
        print_row("GPU memory (D2D copy)", "-", 0.0, "", gpu_why);
        print_row("GPU memory, read/write only", "-", 0.0, "", gpu_why);
    }
}

/* The figures as JSON (io's peaks writer, the document form) to file, whole or not at all. */
static int write_json(const char *file, const pl_peaks *pk, const char *cache_file)
{
    FILE *f = pl_tmp_fopen(file); /* io.h's output: a temporary file renamed, a device or FIFO, "-" stdout */
    if (f) pl_peaks_json_write(f, pk, PL_PEAKS_JSON_DOCUMENT, cache_file, pl_peaks_int_isa());
    if (!f || pl_tmp_fclose(f, file) != PL_OK) {
        cli_error("peaks: %s", pl_last_error());
        return PL_EXIT_FAIL;
    }
    return PL_EXIT_OK;
}

enum { O_QUICK = CLI_OPT_OWN, O_SHOW, O_JSON };
static const cli_opt options[] = {
    {"--quick", NULL, O_QUICK, 0, NULL}, {"--show", NULL, O_SHOW, 0, NULL}, {"--json", "FILE", O_JSON, 0, NULL},
};

/* What the command line asks for. */
typedef struct peaks_args {
    int quick, show;
    const char *json;
} peaks_args;

static int take_option(void *user, const cli_opt *o, const char *val)
{
    peaks_args *p = user;
    if (o->id == O_QUICK) p->quick = 1;
    else if (o->id == O_SHOW) p->show = 1;
    else p->json = val;
    return PL_EXIT_OK;
}

/* The options: no arguments, --quick or --show, a --json that can be written (checked before
 * measuring: a directory or an unwritable place is exit 2; '-': the JSON alone on stdout).
 * CLI_GO_ON or the exit status. */
static int parse_args(int argc, char **argv, peaks_args *pa)
{
    const char *none[1];
    cli_args a = {.cmd = "peaks", .opts = options, .n_opts = sizeof options / sizeof *options, .pos = none,
                  .max_pos = 0, .takes = "no arguments"};
    int rc = cli_parse(&a, argc, argv, take_option, pa, usage);
    if (rc != CLI_GO_ON) return rc;
    if (pa->quick && pa->show) {
        cli_error("peaks: --quick measures and --show does not: give one of them");
        return PL_EXIT_USAGE;
    }
    if (pa->json && (rc = tool_check_output("peaks", "--json", pa->json, NULL, 0, TOOL_OUT_STDOUT_ALONE)) != 0)
        return rc;
    return CLI_GO_ON;
}

/* The figures: from the cache (--show; none is exit 1), or measured now and cached. *rc: 1
 * where they were measured but could not be cached. Exit status (0: pk holds figures). */
static int get_peaks(const peaks_args *pa, const char *path, pl_peaks *pk, int *rc)
{
    pl_status s;
    *rc = PL_EXIT_OK;
    if (pa->show) {
        if ((s = pl_peaks_get(NULL, pk, 0)) == PL_OK) return PL_EXIT_OK;
        if (strstr(pl_last_error(), path)) /* the message names the file already */
            cli_error("%s", pl_last_error());
        else
            cli_error("%s (cache file: %s)", pl_last_error(), path);
        return PL_EXIT_FAIL;
    }
    fprintf(stderr, "parlab peaks: measuring (%s)...\n", pa->quick ? "quick" : "full");
    s = pl_peaks_measure(NULL, pk, pa->quick);
    if (s != PL_OK && !pk->valid) return cli_fail(s);
    if (s != PL_OK) *rc = cli_fail(s); /* measured, but the cache could not be written */
    return PL_EXIT_OK;
}

/* The table, then how and when the figures were taken, and where they are cached. */
static void print_figures(const pl_peaks *pk, const char *path)
{
    const char *cpu_mode = pk->cpu_mode, *gpu_mode = pk->gpu_mode;
    unsigned f = pl_features();
    const char *gpu_why = !(f & PL_FEAT_CUDA_BUILD) ? "no GPU (this parlab was built without CUDA)"
                          : !(f & PL_FEAT_GPU)      ? "no GPU (no usable CUDA device)"
                                                    : "not measured: run `parlab peaks`";
    print_table(pk, mode_quick(cpu_mode), mode_quick(gpu_mode), gpu_why, pl_peaks_tc_parse(pk->gpu_tf32_method));
    char load[32] = "unknown";
    if (pk->load1 >= 0) snprintf(load, sizeof load, "%.2f", pk->load1);
    printf("\ntaken: %s (GPU: %s), %s, 1-minute load average %s at the start (limit %.2f), "
           "repeated readings within %.0f%% (widest: %s)\nsanity: %s\n",
           cpu_mode, gpu_mode, pk->measured[0] ? pk->measured : "unknown", load,
           pl_peaks_max_load(pl_cpu_cores()), 100.0 * pk->spread, pk->spread_what[0] ? pk->spread_what : "-",
           pk->sanity[0] ? pk->sanity : "-");
    if (pk->cached)
        printf("cache: %s\n", path);
    else
        printf("cache: not written (%s)\n", pk->sane ? "the file could not be written" : "failed the sanity checks");
}

int pl_cmd_peaks(int argc, char **argv)
{
    peaks_args pa = {0, 0, NULL};
    int rc = parse_args(argc, argv, &pa);
    if (rc != CLI_GO_ON) return rc;
    char path[4096];
    pl_status s = pl_peaks_cache_path(NULL, path, sizeof path);
    if (s != PL_OK) return cli_fail(s);
    pl_peaks pk;
    int got = get_peaks(&pa, path, &pk, &rc);
    if (got != PL_EXIT_OK) return got;

    /* How the figures were measured: pk says (from the cache file with --show); where it does
     * not, the CPU's mode is this command's, the GPU's mode and the TF32 method "none". */
    if (!pk.cpu_mode[0]) snprintf(pk.cpu_mode, sizeof pk.cpu_mode, "%s", pa.quick ? "quick" : "full");
    if (!pk.gpu_mode[0]) snprintf(pk.gpu_mode, sizeof pk.gpu_mode, "none");
    if (!pk.gpu_tf32_method[0]) snprintf(pk.gpu_tf32_method, sizeof pk.gpu_tf32_method, "none");

    if (!pa.json || strcmp(pa.json, "-")) print_figures(&pk, path);
    if (pa.json) {
        int jrc = write_json(pa.json, &pk, path);
        if (rc == PL_EXIT_OK) rc = jrc;
    }
    return rc;
}
