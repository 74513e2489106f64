/* npy_ranks.h: a 2D .npy read and written by the ranks of a run with MPI-IO: each rank
 * reads and writes its own block of the file, so no rank ever holds the whole array. Rank 0
 * parses the header (src/io's .npy reader, pl_npy_read_header) and tells the others the dtype,
 * shape and where the data starts; every rank then sets a file view on its block (a subarray
 * type) and reads or writes it in one collective call. A write goes to a temporary file beside
 * the target (src/io's pl_tmp_open), renamed by rank 0 only once every rank's write succeeded,
 * else removed: nothing half-written is ever left at the target.
 * Every call is collective over all ranks, and returns the same status on every rank (the
 * fault rule's agree step is inside): on rank 0 its message is the failing rank's own. */
#ifndef PL_DIST_NPY_H
#define PL_DIST_NPY_H

#include "distributed/transport/distributed.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a .npy file's header says, as rank 0 read it. */
typedef struct pl_dist_npy {
    pl_dtype dtype;
    int rank;         /* dimensions, 0..8 */
    int64_t shape[8];
    int64_t offset;   /* the first data byte */
} pl_dist_npy;

/* Rank 0 reads path's header (a missing file, a malformed header, or data shorter than the
 * shape says all fail here, with the one-process reader's message), every rank receives it. */
pl_status pl_dist_npy_header(const char *path, pl_dist_npy *h);

/* This rank's block (pl_dist_block_of) of the 2D array h describes (rank 2, shape H x W) into
 * local: its first element, rows ld elements apart (ld >= the block's columns). */
pl_status pl_dist_npy_read_block(const pl_dist_grid *g, const char *path, const pl_dist_npy *h, void *local,
                                 int64_t ld);

/* The H x W array of dtype whose blocks the ranks hold (local, rows ld apart) to path as one
 * .npy (numpy's own header bytes): written whole or not at all. A path that names a device,
 * a FIFO or standard output is refused (PL_ERR_ARG): the ranks write a file at offsets. */
pl_status pl_dist_npy_write(const pl_dist_grid *g, const char *path, pl_dtype dtype, int64_t H, int64_t W,
                            const void *local, int64_t ld);

/* The same where the ranks' blocks are not pl_dist_block_of's (conv2d's valid output): b is
 * this rank's block of the H x W array, global coordinates, possibly empty (local unused); the
 * ranks' blocks must tile the array. */
pl_status pl_dist_npy_write_block(const pl_dist_grid *g, const char *path, pl_dtype dtype, int64_t H, int64_t W,
                                  const pl_dist_block *b, const void *local, int64_t ld);

#ifdef __cplusplus
}
#endif
#endif
