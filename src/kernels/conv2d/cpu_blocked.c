/* cpu-blocked: (being written) output blocks, the filter loops outside, SIMD across columns,
 * threads over row bands. */
#include "core/core.h"
#include "kernels/conv2d/conv2d.h"

const pl_param_def pl_conv2d_cpu_blocked_params[2] = {
    {"rows", "output rows per band (a thread's unit of work)", PL_PARAM_RANGE, NULL, 0, 8, 512, 8, NULL, 64},
    {"isa", "vector instructions: auto picks AVX-512 where the CPU has it", PL_PARAM_CHOICE, NULL, 0, 0, 0, 0,
     pl_isa_choices, 0},
};

pl_status pl_conv2d_cpu_blocked(const pl_run_args *a)
{
    (void)a;
    return pl_fail(PL_ERR_UNSUPPORTED, "conv2d cpu-blocked: not written yet");
}
