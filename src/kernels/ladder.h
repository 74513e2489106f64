/* ladder.h: what the rooms use to describe their rungs.
 *
 * Counting: a table's length comes from sizeof (PL_COUNT), never from a number written beside
 * it. A parameter table defined in a rung file is read by the room's ladder.c, which cannot see
 * its length: the room's header gives each such table an enum of named indices whose last
 * member is the count (PL_<TABLE>_N_PARAMS), and the file that defines the table checks that
 * count against sizeof with PL_CHECK_COUNT. A rung reads its values as
 * a->params[PL_<TABLE>_<NAME>], never by a bare position.
 *
 * The best-first order: a rung's .best_rank is its place in the pick of the BLAS-like call among
 * its backend's rungs (1 first; 0, the lessons and the peers: never picked); pl_best_variant
 * takes the first that runs here. A pick that depends on the shape adds the kernel's
 * .best_first_for hook (life/ladder.c).
 *
 * Rungs a build may lack: a CUDA rung or an OpenBLAS or cuDNN peer is listed in every build (so
 * `parlab list` can say why it cannot run here); without CUDA, OpenBLAS or cuDNN its run
 * function is NULL, and a CUDA rung's parameter table (defined in a .cu file) is left out. */
#ifndef PL_KERNELS_LADDER_H
#define PL_KERNELS_LADDER_H

#include <assert.h>
#include <stddef.h>

/* The number of elements of an array (not of a pointer), as an int. */
#define PL_COUNT(arr) ((int)(sizeof(arr) / sizeof((arr)[0])))

/* At a table's definition: its length agrees with the count its header's enum names. */
#define PL_CHECK_COUNT(table, count) static_assert(PL_COUNT(table) == (count), #table " has " #count " entries")

/* The isa parameter of the SIMD rungs: core's pl_isa_choices (auto|avx2|avx512), read with
 * pl_isa_pick. */
#define PL_ISA_PARAM \
    {.name = "isa", .help = "vector instructions: auto picks AVX-512 where the CPU has it", \
     .kind = PL_PARAM_CHOICE, .choices = pl_isa_choices}

/* What a build may lack: a CUDA rung's run function and parameter list (as designated fields), an
 * OpenBLAS or cuDNN peer's run function: themselves where built, NULL (no parameters) where not. */
#ifdef PL_HAVE_CUDA
#define PL_CUDA_FN(f) f
#define PL_CUDA_PARAMS(table, count) .params = (table), .n_params = (count)
#else
#define PL_CUDA_FN(f) NULL
#define PL_CUDA_PARAMS(table, count) .params = NULL, .n_params = 0
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
