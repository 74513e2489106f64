/* io.h: what the file readers and writers of src/io share (not public).
 *
 * A byte source (pl_src) lets one parser read from a whole file, from a slice of a file (a
 * record of a batch file, a stored member of a .npz) or from memory (an inflated .npz member),
 * with the number of bytes it still holds known up front so sizes are checked before
 * allocating. A writer opens its output with pl_tmp_open and ends it with pl_tmp_close, so a
 * failed write never leaves a partial file and a link, device or FIFO is never replaced. */
#ifndef PL_IO_H
#define PL_IO_H

#include "core/core.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Read up to n bytes from fd; the count read (< n only at end of file), or -1 (errno set). */
int64_t pl_read_full(int fd, void *buf, size_t n);
/* Write all n bytes to fd; 0, or -1 (errno set). */
int pl_write_full(int fd, const void *buf, size_t n);

/* CRC-32 (ISO-HDLC, the zip and PNG one) of buf, continuing from crc (start with 0). */
uint32_t pl_crc32(uint32_t crc, const void *buf, size_t n);

/* A byte source: from fd (read sequentially from its current position) or from memory.
 * `left` is how many bytes it still holds (-1 when unknown: a pipe); reads never go past it.
 * With track_crc set, every byte read is added to crc. */
typedef struct pl_src {
    int fd;                   /* >= 0: read from this file descriptor */
    const unsigned char *mem; /* else from here */
    int64_t left;             /* bytes still to come, or -1 */
    int64_t offset;           /* bytes read so far (for messages) */
    int track_crc;
    uint32_t crc;
} pl_src;

pl_src pl_src_fd(int fd, int64_t left);
pl_src pl_src_mem(const void *mem, size_t n);
/* Up to n bytes (< n only where the source ends), or -1 (errno set). */
int64_t pl_src_read(pl_src *s, void *buf, size_t n);

/* Read one .npy (header and data) from s; name starts every message ("file.npz: member
 * 'x.npy'"). Reads exactly the header and data bytes, nothing after them. On failure *a is
 * left empty. pl_npy_read is this on the whole file. */
pl_status pl_npy_read_src(const char *name, pl_src *s, pl_array *a);

/* The header alone (a's dtype, rank and shape; data NULL), for a reader that takes the data
 * itself (the distributed layer's MPI-IO, src/distributed/npy/npy_ranks.c): s is left at the first data byte
 * (s->offset bytes in) and, where its size is known, checked to hold all the data. */
pl_status pl_npy_read_header(const char *name, pl_src *s, pl_array *a);

/* The checks pl_npy_write makes on a (dtype, rank, shape, data), with *bytes = its data size. */
pl_status pl_npy_check(const char *path, const pl_array *a, int64_t *bytes);
/* The version 1.0 prefix and header numpy writes for a, in buf; its length (a multiple of
 * 64), or 0 if it does not fit in n. */
size_t pl_npy_header(const pl_array *a, char *buf, size_t n);

/* Every output a writer makes goes through pl_tmp_open / pl_tmp_close, which decide by what
 * the path names (symbolic links followed to the file they reach):
 *   - a regular file, or nothing yet: "<target>.tmp.<pid>" is created beside the target
 *     (t->fd, t->name) and, by pl_tmp_close when st is PL_OK, renamed over it (the target, not
 *     the link: a link stays a link); otherwise (or when the close or rename fails) removed.
 *     While it exists its name is in a registry that pl_remove_partial_outputs empties;
 *   - a character device or a FIFO (/dev/null, a named pipe): opened and written through,
 *     never replaced (t->name NULL);
 *   - "-": standard output (a duplicate of it: closing t->fd leaves it open);
 *   - a directory, a socket, a block device: refused (PL_ERR_IO naming path).
 * pl_tmp_close returns st or the failure. Writers only use t->fd. */
typedef struct pl_tmp {
    int fd;
    char *name;   /* the temporary file, or NULL when written through */
    char *target; /* what it is renamed to: path with its links followed */
    int slot;     /* its place in the registry of live temporary files, or -1 */
} pl_tmp;
pl_status pl_tmp_open(const char *path, pl_tmp *t);
pl_status pl_tmp_close(const char *path, pl_tmp *t, pl_status st);
/* The same output as a stream, for writers that print (the result files, JSON): NULL with the
 * failure recorded (pl_last_error). pl_tmp_fclose closes it and, where nothing failed (no
 * write error on the stream either), puts the file in place; else it is removed. */
FILE *pl_tmp_fopen(const char *path);
pl_status pl_tmp_fclose(FILE *f, const char *path);

/* Where "-" writes from now on: fd instead of standard output (the CLI keeps its standard
 * output for the data and moves its own printing to stderr). */
void pl_io_set_stdout_fd(int fd);

/* (pl_output_check and pl_remove_partial_outputs are public: parlab.h.) */

/* (memcheck.c, apart so that fuzz targets can give their own pl_host_memory_available.)
 * The size of an n-byte image the reader is about to allocate, checked against the host
 * memory this process may take: PL_ERR_TOO_BIG naming path and both sizes when it does not
 * fit. */
pl_status pl_io_fits_memory(const char *path, int64_t bytes);

/* 1 if path ends in ext (".pgm"), in any case: how pl_image_write picks the format. */
int pl_has_extension(const char *path, const char *ext);

/* A suite file (suite.c): each line with words left after '#' comments goes to run_line as
 * words[0..n-1], with room for `spare` more after them; *worst: the largest value run_line
 * returned (0 if none). A file that cannot be opened: PL_ERR_IO; one that includes itself, or
 * suites nested too deep: PL_ERR_ARG (run_line may read another suite through this function). */
typedef int (*pl_suite_line_fn)(void *user, const char *path, int lineno, int n, char **words);
pl_status pl_suite_read(const char *path, int spare, pl_suite_line_fn run_line, void *user, int *worst);

#endif
