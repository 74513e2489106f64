/* ladder.h: what every room's ladder.c uses to list rungs that a build may lack. A CUDA rung
 * or an OpenBLAS or cuDNN peer is listed in every build (so `parlab list` can say why it cannot run
 * here); without CUDA, OpenBLAS or cuDNN its run function is NULL, and a CUDA rung's parameter table
 * (defined in a .cu file) is left out. */
#ifndef PL_KERNELS_LADDER_H
#define PL_KERNELS_LADDER_H

#include <stddef.h>

#ifdef PL_HAVE_CUDA
#define PL_CUDA_FN(f) f
#define PL_CUDA_PARAMS(p, n) p, n
#else
#define PL_CUDA_FN(f) NULL
#define PL_CUDA_PARAMS(p, n) NULL, 0
#endif
#ifdef PL_HAVE_OPENBLAS
#define PL_OPENBLAS_FN(f) f
#else
#define PL_OPENBLAS_FN(f) NULL
#endif
#ifdef PL_HAVE_CUDNN
#define PL_CUDNN_FN(f) f
#else
#define PL_CUDNN_FN(f) NULL
#endif

#endif
