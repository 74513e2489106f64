/* best_variant_compat.h: kept for the distributed floor until it moves to pl_best_variant.
 *
 * The rung a BLAS-like call runs is pl_best_variant(ctx, kernel, problem) (src/harness/
 * registry.c), read from the best_rank each ladder declares. The per-kernel functions it
 * replaced are still called by src/distributed/ (and tests/mpi/reduce_check.c); these
 * macros keep those calls compiling, each the generic call. Remove this file (and its include
 * in core/core.h) once no caller names them. pl_life_best_variant_for needs
 * kernels/life/life.h where it is used (its problem struct). */
#ifndef PL_KERNELS_BEST_VARIANT_COMPAT_H
#define PL_KERNELS_BEST_VARIANT_COMPAT_H

#define pl_gemm_best_variant(ctx) pl_best_variant((ctx), pl_kernel_find("gemm"), NULL)
#define pl_reduce_best_variant(ctx) pl_best_variant((ctx), pl_kernel_find("reduce"), NULL)
#define pl_dot_best_variant(ctx) pl_best_variant((ctx), pl_kernel_find("dot"), NULL)
#define pl_conv2d_best_variant(ctx) pl_best_variant((ctx), pl_kernel_find("conv2d"), NULL)
#define pl_entropy_best_variant(ctx) pl_best_variant((ctx), pl_kernel_find("entropy"), NULL)
#define pl_life_best_variant_for(ctx, width, height) \
    pl_best_variant((ctx), pl_kernel_find("life"), &(pl_life_problem){.W = (width), .H = (height)})

#endif
