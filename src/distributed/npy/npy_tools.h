/* npy_tools.h: what the file tools share under mpirun (`mpirun -n P parlab conv2d|entropy|gemm|
 * reduce IN.npy ... -o OUT.npy`): every rank reads its own block of each .npy input and writes
 * its own block of the output with MPI-IO (npy_ranks.h), so no rank holds a whole array; rank 0
 * prints. Each function is collective and returns the status every rank agreed on
 * (pl_dist_agree_status): a failure on any rank is one message, on rank 0, on every rank. */
#ifndef PL_DIST_NPY_TOOLS_H
#define PL_DIST_NPY_TOOLS_H

#include "distributed/npy/npy_ranks.h"

/* Under mpirun the inputs and the output are .npy files (read and written at offsets by the
 * ranks): an image format (.pgm, .png) or standard output is refused on P > 1 (PL_ERR_ARG). */
pl_status pl_dist_npy_only(const char *cmd, const char *const *inputs, int n_inputs, const char *out);
/* The header of path (rank 0 reads, all receive), a rank-2 array of one of the dtypes in
 * types[0..n) (a 2D matrix of another type is "CMD: PATH holds T; under mpirun CMD takes ...",
 * PL_ERR_FORMAT, as the one-process tools say of a wrong type). */
pl_status pl_dist_npy_header_of(const char *cmd, const char *path, const pl_dtype *types, int n, pl_dist_npy *h);
/* This rank's block of the 2D array h describes (pl_dist_block_of over g), read into *block
 * (pl_alloc'd, rows of the block's columns); a block past the host memory this process may take
 * is PL_ERR_TOO_BIG. */
pl_status pl_dist_npy_read_mine(const char *cmd, const pl_dist_grid *g, const char *path, const pl_dist_npy *h,
                                void **block);
/* What a rank takes of its node unless the command line says (0: not said): the node's cores
 * shared by its ranks (*threads), and on a node of several GPUs the GPU of its rank on the node,
 * modulo the GPUs (*device), so one rank a GPU as NCCL needs. */
void pl_dist_share_node(long *threads, long *device);

#endif
