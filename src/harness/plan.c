/* plan.c: what a problem will take before anything is allocated: its counts, which check
 * runs (full or sampled), and the host and device memory the harness will take; whether
 * that fits what this process may have (available memory, the cgroup limit, the device's
 * free memory). A problem too big is refused at once with the estimate and the limit. */
#include "core/core.h"
#include "core/device.h"
#include "harness/harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The float64 reference runs at a few GFLOP/s per core (blocked, vectorized); a low guess
 * errs on the side of the sampled check. */
double pl_reference_rate(void) { return 2.0e9 * (double)(pl_cpu_cores() > 0 ? pl_cpu_cores() : 1); }

static int is_float(pl_dtype t) { return t == PL_F32 || t == PL_F64; }

pl_status pl_problem_plan(const pl_kernel *k, const char *size, const pl_pvalues *pv, pl_check check, pl_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    void *spec = NULL;
    pl_status s = pl_spec_make(k, size, pv, &spec);
    if (s == PL_OK) s = pl_plan_spec(k, spec, check, plan);
    pl_spec_free(k, spec);
    return s;
}

pl_status pl_plan_spec(const pl_kernel *k, const void *spec, pl_check check, pl_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    pl_tensor t[PL_MAX_OPERANDS];
    int n = 0;
    pl_status s = k->operands(spec, t, &n);
    if (s != PL_OK) return s;
    k->describe(spec, plan->desc, sizeof plan->desc);
    plan->work = k->work(spec);
    plan->ops = k->ops(spec);
    plan->bytes = k->bytes(spec);
    plan->ref_seconds = k->reference_ops ? k->reference_ops(spec) / pl_reference_rate() : 0;
    if (check == PL_CHECK_SAMPLE && !k->check_sampled)
        return pl_fail(PL_ERR_ARG, "%s has no sampled check: --verify full", k->name);
    if (check == PL_CHECK_AUTO)
        check = (k->check_sampled && plan->ref_seconds > PL_FULL_CHECK_MAX_S) ? PL_CHECK_SAMPLE : PL_CHECK_FULL;
    plan->check = check;
    /* Host: every operand once; per output a working copy and, for the full check, the
     * reference (float64 for floats) and the element scale (float64). Device: every operand,
     * a pristine copy of each in-out. */
    for (int i = 0; i < n && s == PL_OK; i++) {
        size_t b;
        if ((s = pl_tensor_bytes(&t[i], &b)) != PL_OK) break;
        double dense = (double)t[i].rows * (double)t[i].cols;
        plan->host_bytes += (double)b;
        plan->device_bytes += (double)b * (t[i].role == PL_INOUT ? 2 : 1);
        if (t[i].role == PL_IN) continue;
        plan->host_bytes += (double)b;
        if (check == PL_CHECK_FULL)
            plan->host_bytes += is_float(t[i].dtype) ? 16.0 * dense : dense * (double)pl_dtype_size(t[i].dtype);
    }
    return s;
}

/* A number from a file's first line; -1 if missing or "max". */
static double read_number(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char buf[64] = "";
    double v = -1;
    if (fgets(buf, sizeof buf, f) && strncmp(buf, "max", 3) != 0) v = strtod(buf, NULL);
    fclose(f);
    return v;
}

double pl_host_memory_available(void)
{
    double avail = -1;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %lf kB", &avail) == 1) {
                avail *= 1024.0;
                break;
            }
        fclose(f);
    }
    if (avail < 0) {
        long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        if (pages > 0 && page > 0) avail = (double)pages * (double)page;
    }
    /* cgroup v2, then v1: the limit less what the group already uses. */
    double limit = read_number("/sys/fs/cgroup/memory.max"), used = read_number("/sys/fs/cgroup/memory.current");
    if (limit < 0) {
        limit = read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes");
        used = read_number("/sys/fs/cgroup/memory/memory.usage_in_bytes");
    }
    if (limit > 0 && limit < 1e18) {
        double room = limit - (used > 0 ? used : 0);
        if (room < 0) room = 0;
        if (avail < 0 || room < avail) avail = room;
    }
    return avail > 0 ? avail : 0;
}

pl_status pl_plan_fits(const pl_plan *plan, const pl_ctx *gpu)
{
    double have = pl_host_memory_available();
    if (have > 0 && plan->host_bytes > 0.9 * have)
        return pl_fail(PL_ERR_TOO_BIG,
                       "%s needs about %.1f GiB of host memory (operands, working copies%s); this process may "
                       "take %.1f GiB (available memory and the cgroup limit)",
                       plan->desc, plan->host_bytes / 1073741824.0,
                       plan->check == PL_CHECK_FULL ? ", float64 reference" : "", have / 1073741824.0);
    if (gpu && pl_ctx_backend(gpu) == PL_BACKEND_CUDA) {
        size_t free_b = 0, total_b = 0;
        pl_status s = pl_ctx_activate(gpu);
        if (s == PL_OK && pl_dev_mem_info(&free_b, &total_b) == PL_OK && plan->device_bytes > 0.97 * (double)free_b)
            return pl_fail(PL_ERR_TOO_BIG, "%s needs about %.1f GiB of device memory for its operands; device %d has "
                           "%.1f GiB free (of %.1f GiB)", plan->desc, plan->device_bytes / 1073741824.0,
                           pl_ctx_device(gpu), (double)free_b / 1073741824.0, (double)total_b / 1073741824.0);
    }
    return PL_OK;
}
