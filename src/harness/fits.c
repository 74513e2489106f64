/* fits.c: whether what a run will take fits what this process may have, asked before anything
 * is allocated, so a problem too big is refused at once with the estimate and the limit. The
 * host: the memory core/host_memory.c says this process may take (available memory and the
 * cgroup limit). The device: its free memory; the one device check both the plan (operands
 * and pristine copies) and the bench (plus a variant's workspaces and the --cold buffer) use. */
#include "core/core.h"
#include "core/device.h"
#include "harness/harness.h"

#define GIB 1073741824.0

pl_status pl_device_fits(const pl_ctx *gpu, double need, const char *who, const char *what_for)
{
    size_t free_b = 0, total_b = 0;
    if (pl_ctx_activate(gpu) != PL_OK || pl_dev_mem_info(&free_b, &total_b) != PL_OK)
        return PL_OK; /* cannot tell: the allocation will say */
    if (need > 0.97 * (double)free_b)
        return pl_fail(PL_ERR_TOO_BIG, "%s needs about %.1f GiB of device memory%s; device %d has %.1f GiB free "
                       "(of %.1f GiB)", who, need / GIB, what_for, pl_ctx_device(gpu), (double)free_b / GIB,
                       (double)total_b / GIB);
    return PL_OK;
}

pl_status pl_plan_fits(const pl_plan *plan, const pl_ctx *gpu)
{
    double have = pl_host_memory_available();
    if (have > 0 && plan->host_bytes > 0.9 * have)
        return pl_fail(PL_ERR_TOO_BIG,
                       "%s needs about %.1f GiB of host memory (operands, working copies%s); this process may "
                       "take %.1f GiB (available memory and the cgroup limit)",
                       plan->desc, plan->host_bytes / GIB,
                       plan->check == PL_CHECK_FULL ? ", float64 reference" : "", have / GIB);
    if (gpu && pl_ctx_backend(gpu) == PL_BACKEND_CUDA)
        return pl_device_fits(gpu, plan->device_bytes, plan->desc, " for its operands");
    return PL_OK;
}
