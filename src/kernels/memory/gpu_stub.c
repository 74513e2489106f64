/* gpu_stub.c: the GPU studies of a build without CUDA (gpu.cu replaces this file when CUDA is on). */
#include "kernels/memory/mem.h"

static pl_status no_cuda(const char *study)
{
    return pl_fail(PL_ERR_NO_CUDA, "mem %s: this parlab was built without CUDA", study);
}

pl_status pl_mem_gpu_stream(const mem_opts *o, mem_table *t) { (void)o, (void)t; return no_cuda("gpu-stream"); }
pl_status pl_mem_gpu_alignment(const mem_opts *o, mem_table *t) { (void)o, (void)t; return no_cuda("gpu-alignment"); }
pl_status pl_mem_gpu_banks(const mem_opts *o, mem_table *t) { (void)o, (void)t; return no_cuda("gpu-banks"); }
pl_status pl_mem_gpu_grid_stride(const mem_opts *o, mem_table *t) { (void)o, (void)t; return no_cuda("gpu-grid-stride"); }
