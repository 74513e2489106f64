/* tool_dist.h: what the file tools share under mpirun (`mpirun -n P parlab conv2d|entropy|gemm|
 * reduce IN.npy ... -o OUT.npy`, issue 22): every rank reads its own block of each .npy input
 * and writes its own block of the output with MPI-IO (dist/npy.h), so no rank holds a whole
 * array; rank 0 prints. Each function is collective and returns the exit status every rank
 * agreed on (cli_agree): a failure on any rank is one message from rank 0 on every rank. */
#ifndef PL_CLI_TOOL_DIST_H
#define PL_CLI_TOOL_DIST_H

#include "cli/tool.h"
#include "dist/npy.h"

/* Under mpirun the inputs and the output are .npy files (read and written at offsets by the
 * ranks): an image format (.pgm, .png) or standard output is refused on P > 1, exit 2. */
int tool_dist_npy_only(const char *cmd, const char *const *inputs, int n_inputs, const char *out);
/* The header of path (rank 0 reads, all receive), a rank-2 array of one of the dtypes in
 * types[0..n) (a 2D matrix of another type is "CMD: PATH holds T; under mpirun CMD takes ...",
 * exit 1, as the one-process tools say of a wrong type). */
int tool_dist_header(const char *cmd, const char *path, const pl_dtype *types, int n, pl_dist_npy *h);
/* This rank's block of the 2D array h describes (pl_dist_block_of over g), read into *block
 * (pl_alloc'd, rows of the block's columns). */
int tool_dist_read(const char *cmd, const pl_dist_grid *g, const char *path, const pl_dist_npy *h, void **block);
/* What a rank takes of its node unless the command line says: the node's cores shared by its
 * ranks (--threads), and on a node of several GPUs the GPU of its rank on the node, modulo the
 * GPUs (--device), so one rank a GPU as NCCL needs. */
void tool_dist_share_node(tool_common *c);
/* The context (tool_context) with tool_dist_share_node's threads and device. */
int tool_dist_context(const pl_kernel *k, const tool_common *c, const pl_variant *v, pl_ctx **ctx);
/* A status from a collective library call (the same on every rank) as the agreed exit status. */
int tool_dist_status(pl_status s);
/* "ranks (the slowest's): compute ... ms, exchange ... ms, wait ... ms" (printed by rank 0). */
void tool_dist_report(const pl_dist_times *mine);
/* The command line's verdict (rc: CLI_GO_ON or an exit status) agreed by every rank, for a
 * command whose output rank 0 alone checked: CLI_GO_ON when every rank goes on. */
int tool_dist_parsed(int rc);

#endif
