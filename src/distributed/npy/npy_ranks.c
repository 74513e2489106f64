/* npy_ranks.c: a 2D .npy read and written block by block with MPI-IO (see npy_ranks.h).
 * Reading: rank 0 parses the header with src/io's reader and broadcasts it; every rank opens
 * the file (MPI_File_open, collective), views it from the data's offset through a subarray
 * type that selects its block, and reads the block in one collective MPI_File_read_all
 * straight into its rows ld apart (a vector type in memory): the MPI library merges the ranks'
 * pieces into large contiguous file accesses (two-phase I/O).
 * Writing mirrors it on a temporary file that rank 0 created with the header (pl_tmp_open,
 * numpy's header bytes from pl_npy_header); after the collective write every rank agrees, and
 * rank 0 renames the file over the target (pl_tmp_close) or, where any rank failed, removes it.
 * Each step where a rank may fail ends in agree(): all ranks return the same status. */
#include "distributed/npy/npy_ranks.h"

#include "core/core.h"
#include "distributed/transport/mpi_comm.h"
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The fault rule inside the layer: every rank passes its status; all return the status of the
 * lowest failing rank (PL_OK when none failed). Rank 0's message becomes that rank's; a rank
 * that did not fail itself says another did (only rank 0's message is ever printed). */
static pl_status agree(pl_status st)
{
    char first[1024];
    int from = -1;
    const int rc = pl_dist_agree((int)st, st != PL_OK ? pl_last_error() : NULL, first, sizeof first, &from);
    if (rc == PL_OK) return PL_OK;
    if (pl_dist_rank() == 0 && from > 0) return pl_fail((pl_status)rc, "%s", first);
    if (st != PL_OK) return st; /* this rank's own message stays */
    return pl_fail((pl_status)rc, "another rank failed (rank 0 says why)");
}

/* An MPI call's failure as a status naming path and what was done. */
static pl_status mpi_failed(int err, const char *path, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int n = 0;
    MPI_Error_string(err, text, &n);
    return pl_fail(PL_ERR_IO, "%s: cannot %s (MPI-IO): %s", path, what, text);
}

pl_status pl_dist_npy_header(const char *path, pl_dist_npy *h)
{
    memset(h, 0, sizeof *h);
    pl_status st = PL_OK;
    if (pl_dist_rank() == 0) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            st = pl_fail(PL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        } else {
            struct stat sb;
            pl_src s = pl_src_fd(fd, fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? (int64_t)sb.st_size : -1);
            pl_array a;
            if ((st = pl_npy_read_header(path, &s, &a)) == PL_OK) {
                h->dtype = a.dtype, h->rank = a.rank, h->offset = s.offset;
                memcpy(h->shape, a.shape, sizeof h->shape);
                if (s.left < 0) /* a pipe: the ranks read the file at offsets */
                    st = pl_fail(PL_ERR_IO, "%s: not a regular file; the ranks read a file at offsets", path);
            }
            close(fd);
        }
    }
    if ((st = agree(st)) != PL_OK) return st;
    pl_dist_bcast(h, sizeof *h);
    return PL_OK;
}

/* The types of one rank's block b (not empty): in the file (a subarray of the H x W array)
 * and in memory (its rows, ld elements apart). */
static pl_status block_types(const pl_dist_block *b, int64_t H, int64_t W, int64_t ld, MPI_Datatype et,
                             MPI_Datatype *file_t, MPI_Datatype *mem_t)
{
    const int64_t h = b->y1 - b->y0, w = b->x1 - b->x0;
    if (b->y0 < 0 || b->x0 < 0 || b->y1 > H || b->x1 > W)
        return pl_fail(PL_ERR_ARG, "a block [%lld, %lld) x [%lld, %lld) outside the %lldx%lld array",
                       (long long)b->y0, (long long)b->y1, (long long)b->x0, (long long)b->x1, (long long)H,
                       (long long)W);
    if (ld < w) return pl_fail(PL_ERR_ARG, "a block's rows are %lld elements apart, fewer than its %lld columns",
                               (long long)ld, (long long)w);
    if (ld > INT32_MAX) return pl_fail(PL_ERR_OVERFLOW, "rows %lld elements apart pass MPI's int counts", (long long)ld);
    pl_status st = pl_dist_rect_type(H, W, b->y0, b->x0, h, w, et, file_t);
    if (st != PL_OK) return st;
    MPI_Type_vector((int)h, (int)w, (int)ld, et, mem_t);
    MPI_Type_commit(mem_t);
    return PL_OK;
}

/* Writing: this rank's block row by row, each row's piece one contiguous MPI_File_write_at (no
 * file view). A collective MPI_File_write_all through a subarray view left some files wrong
 * under Open MPI 4.1's OMPIO component (uint8 blocks of 67x61 on 3 and 4 ranks: 5 runs of 6
 * wrong; ROMIO: 0 of 6), so the writes take the plainest path; MPI_File_close is collective. */
static pl_status write_rows(MPI_File fh, const char *path, int64_t offset, size_t elem, int64_t W,
                            const pl_dist_block *b, const void *local, int64_t ld)
{
    pl_status st = PL_OK;
    const int64_t cols = b->x1 - b->x0;
    if (cols > 0 && (uint64_t)cols * elem > (uint64_t)INT32_MAX)
        st = pl_fail(PL_ERR_ARG, "%s: a block row of %lld elements is too long for one MPI write", path, (long long)cols);
    for (int64_t y = b->y0; st == PL_OK && cols > 0 && y < b->y1; y++) {
        const MPI_Offset at = (MPI_Offset)(offset + (y * W + b->x0) * (int64_t)elem);
        const char *row = (const char *)local + (size_t)((y - b->y0) * ld) * elem;
        MPI_Status status;
        const int err = MPI_File_write_at(fh, at, row, (int)(cols * (int64_t)elem), MPI_BYTE, &status);
        if (err != MPI_SUCCESS) st = mpi_failed(err, path, "write a block");
    }
    const int err = MPI_File_close(&fh);
    if (err != MPI_SUCCESS && st == PL_OK) st = mpi_failed(err, path, "close");
    return st;
}

/* One collective read or write of this rank's block b of the file at path (opened with mode),
 * the data from offset on; an empty block takes part with nothing. */
static pl_status move_block(const pl_dist_grid *g, const char *path, int mode, int64_t offset, size_t elem,
                            int64_t H, int64_t W, const pl_dist_block *b, void *local, int64_t ld, int writing)
{
    MPI_Comm comm = pl_dist_comm_of(g);
    MPI_File fh;
    int err = MPI_File_open(comm, path, mode, MPI_INFO_NULL, &fh);
    if (err != MPI_SUCCESS) return mpi_failed(err, path, "open");
    if (writing) return write_rows(fh, path, offset, elem, W, b, local, ld);
    MPI_Datatype et = pl_dist_elem_type(elem), file_t = MPI_DATATYPE_NULL, mem_t = MPI_DATATYPE_NULL;
    const int empty = b->y1 <= b->y0 || b->x1 <= b->x0;
    pl_status st = empty ? PL_OK : block_types(b, H, W, ld, et, &file_t, &mem_t);
    /* every rank takes part in every collective call below, whatever its own state */
    const int whole = st == PL_OK && !empty;
    err = MPI_File_set_view(fh, (MPI_Offset)offset, et, whole ? file_t : et, "native", MPI_INFO_NULL);
    if (err != MPI_SUCCESS && st == PL_OK) st = mpi_failed(err, path, "set the view of a block");
    const int count = whole ? 1 : 0;
    MPI_Datatype mt = whole ? mem_t : et;
    MPI_Status status;
    err = writing ? MPI_File_write_all(fh, local, count, mt, &status) : MPI_File_read_all(fh, local, count, mt, &status);
    if (err != MPI_SUCCESS && st == PL_OK) st = mpi_failed(err, path, writing ? "write a block" : "read a block");
    if (st == PL_OK && whole) {
        int got = 0;
        MPI_Get_count(&status, mem_t, &got);
        if (got != 1) st = pl_fail(PL_ERR_FORMAT, "%s: truncated data: a block's read came up short", path);
    }
    err = MPI_File_close(&fh);
    if (err != MPI_SUCCESS && st == PL_OK) st = mpi_failed(err, path, "close");
    if (file_t != MPI_DATATYPE_NULL) MPI_Type_free(&file_t);
    if (mem_t != MPI_DATATYPE_NULL) MPI_Type_free(&mem_t);
    MPI_Type_free(&et);
    return st;
}

pl_status pl_dist_npy_read_block(const pl_dist_grid *g, const char *path, const pl_dist_npy *h, void *local,
                                 int64_t ld)
{
    pl_status st = PL_OK;
    if (h->rank != 2) st = pl_fail(PL_ERR_ARG, "%s: a %d-dimensional array; the ranks read a 2D one", path, h->rank);
    else if (!local) st = pl_fail(PL_ERR_ARG, "%s: no memory for this rank's block", path);
    if ((st = agree(st)) != PL_OK) return st;
    const pl_dist_block b = pl_dist_block_of(g, h->shape[0], h->shape[1]);
    st = move_block(g, path, MPI_MODE_RDONLY, h->offset, pl_dtype_size(h->dtype), h->shape[0], h->shape[1], &b,
                    local, ld, 0);
    return agree(st);
}

/* Rank 0: the temporary file beside path with the .npy header of an H x W dtype array. A
 * device, FIFO or standard output is refused (the ranks write a file at offsets). */
static pl_status start_file(const char *path, pl_dtype dtype, int64_t H, int64_t W, pl_tmp *t, int64_t *offset)
{
    static const char one = 0;
    pl_array a = {.dtype = dtype, .rank = 2, .shape = {H, W}, .data = (void *)&one};
    int64_t bytes;
    char header[1024];
    pl_status st = pl_npy_check(path, &a, &bytes);
    if (st != PL_OK) return st;
    const size_t len = pl_npy_header(&a, header, sizeof header);
    if (len == 0) return pl_fail(PL_ERR_INTERNAL, "%s: header does not fit", path);
    if ((st = pl_tmp_open(path, t)) != PL_OK) return st;
    if (!t->name)
        return pl_tmp_close(path, t, pl_fail(PL_ERR_ARG, "%s: not a file (a device, a FIFO or standard output): "
                                                         "the ranks write their blocks to a file; name one", path));
    if (pl_write_full(t->fd, header, len) != 0)
        return pl_tmp_close(path, t, pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(errno)));
    *offset = (int64_t)len;
    return PL_OK;
}

pl_status pl_dist_npy_write(const pl_dist_grid *g, const char *path, pl_dtype dtype, int64_t H, int64_t W,
                            const void *local, int64_t ld)
{
    const pl_dist_block b = pl_dist_block_of(g, H, W);
    return pl_dist_npy_write_block(g, path, dtype, H, W, &b, local, ld);
}

pl_status pl_dist_npy_write_block(const pl_dist_grid *g, const char *path, pl_dtype dtype, int64_t H, int64_t W,
                                  const pl_dist_block *b, const void *local, int64_t ld)
{
    pl_tmp t = {.fd = -1, .name = NULL, .target = NULL, .slot = -1};
    struct {
        int64_t offset;
        char name[4096];
    } file;
    memset(&file, 0, sizeof file);
    const int empty = b->y1 <= b->y0 || b->x1 <= b->x0;
    pl_status st = local || empty ? PL_OK : pl_fail(PL_ERR_ARG, "%s: no block to write on this rank", path);
    if (st == PL_OK && pl_dist_rank() == 0 && (st = start_file(path, dtype, H, W, &t, &file.offset)) == PL_OK &&
        snprintf(file.name, sizeof file.name, "%s", t.name) >= (int)sizeof file.name)
        st = pl_fail(PL_ERR_ARG, "%s: the path is too long", path);
    if ((st = agree(st)) != PL_OK) {
        if (t.name) pl_tmp_close(path, &t, st); /* removes it */
        return st;
    }
    pl_dist_bcast(&file, sizeof file);
    st = move_block(g, file.name, MPI_MODE_WRONLY, file.offset, pl_dtype_size(dtype), H, W, b, (void *)local, ld, 1);
    st = agree(st);
    if (pl_dist_rank() == 0) st = pl_tmp_close(path, &t, st); /* in place only when every rank wrote */
    return agree(st);
}
