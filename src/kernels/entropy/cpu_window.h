/* cpu_window.h: what the CPU rungs share: the clipped window around a pixel and the loop
 * over the rows of the output, split over OpenMP threads (cpu-naive runs on one thread). */
#ifndef PL_ENTROPY_CPU_WINDOW_H
#define PL_ENTROPY_CPU_WINDOW_H

#include "core/core.h"
#include "kernels/entropy/entropy.h"

/* The window side around i clipped to [0, len): [*lo, *hi). */
static inline void pl_entropy_clip(int64_t i, int r, int64_t len, int64_t *lo, int64_t *hi)
{
    *lo = i - r < 0 ? 0 : i - r;
    *hi = i + r + 1 > len ? len : i + r + 1;
}

#endif
