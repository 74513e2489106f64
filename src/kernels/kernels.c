/* kernels.c: the list of kernels, in the order `parlab list` prints them. A new kernel's
 * room adds one line here; the harness reads this table and includes nothing from kernels/. */
#include "harness/harness.h"
#include "kernels/gemm/gemm.h"
#include "kernels/reduce/reduce.h"
#include "kernels/gemv/gemv.h"
#include "kernels/transpose/transpose.h"
#include "kernels/conv2d/conv2d.h"
#include "kernels/entropy/entropy.h"
#include "kernels/life/life.h"

const pl_kernel *const pl_kernel_table[] = {
    &pl_gemm_kernel,
    &pl_gemv_kernel,
    &pl_transpose_kernel,
    &pl_reduce_kernel,
    &pl_dot_kernel,
    &pl_conv2d_kernel,
    &pl_entropy_kernel,
    &pl_life_kernel,
    NULL,
};
