/* file.c: the plumbing the file formats share (io.h): whole reads and writes, CRC-32, byte
 * sources over a file or memory, and the temporary file a writer renames into place. */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC */
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { IO_CHUNK = 1 << 30 }; /* one read() or write() at most: Linux caps them near 2 GiB */

int64_t pl_read_full(int fd, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        size_t chunk = n - got > IO_CHUNK ? IO_CHUNK : n - got;
        ssize_t r = read(fd, (char *)buf + got, chunk);
        if (r < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (r == 0) break;
        got += (size_t)r;
    }
    return (int64_t)got;
}

int pl_write_full(int fd, const void *buf, size_t n)
{
    size_t done = 0;
    while (done < n) {
        size_t chunk = n - done > IO_CHUNK ? IO_CHUNK : n - done;
        ssize_t w = write(fd, (const char *)buf + done, chunk);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        done += (size_t)w;
    }
    return 0;
}

/* ---------------------------------------------------------------- CRC-32 */

/* The reflected polynomial 0xEDB88320, a byte at a time through a 256-entry table made on
 * first use (the table is the same whichever thread makes it, so a race only repeats work). */
static uint32_t crc_table[256];
static volatile int crc_table_ready;

uint32_t pl_crc32(uint32_t crc, const void *buf, size_t n)
{
    if (!crc_table_ready) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            crc_table[i] = c;
        }
        crc_table_ready = 1;
    }
    const unsigned char *p = buf;
    crc = ~crc;
    for (size_t i = 0; i < n; i++) crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

/* ---------------------------------------------------------------- byte sources */

pl_src pl_src_fd(int fd, int64_t left)
{
    pl_src s = {.fd = fd, .mem = NULL, .left = left, .offset = 0, .track_crc = 0, .crc = 0};
    return s;
}

pl_src pl_src_mem(const void *mem, size_t n)
{
    pl_src s = {.fd = -1, .mem = mem, .left = (int64_t)n, .offset = 0, .track_crc = 0, .crc = 0};
    return s;
}

int64_t pl_src_read(pl_src *s, void *buf, size_t n)
{
    if (s->left >= 0 && (uint64_t)s->left < n) n = (size_t)s->left;
    int64_t got;
    if (s->fd >= 0) {
        got = pl_read_full(s->fd, buf, n);
        if (got < 0) return -1;
    } else {
        if (n > 0) memcpy(buf, s->mem + s->offset, n);
        got = (int64_t)n;
    }
    if (s->track_crc) s->crc = pl_crc32(s->crc, buf, (size_t)got);
    s->offset += got;
    if (s->left >= 0) s->left -= got;
    return got;
}

/* ---------------------------------------------------------------- temporary files */

pl_status pl_tmp_open(const char *path, pl_tmp *t)
{
    t->fd = -1;
    size_t n = strlen(path) + 32;
    t->name = malloc(n);
    if (!t->name) return pl_fail(PL_ERR_NOMEM, "%s: out of memory", path);
    snprintf(t->name, n, "%s.tmp.%ld", path, (long)getpid());
    t->fd = open(t->name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (t->fd < 0) {
        pl_status st = pl_fail(PL_ERR_IO, "%s: cannot create '%s': %s", path, t->name, strerror(errno));
        free(t->name);
        t->name = NULL;
        return st;
    }
    return PL_OK;
}

pl_status pl_tmp_close(const char *path, pl_tmp *t, pl_status st)
{
    if (t->fd >= 0 && close(t->fd) != 0 && st == PL_OK)
        st = pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    t->fd = -1;
    if (st == PL_OK && rename(t->name, path) != 0)
        st = pl_fail(PL_ERR_IO, "%s: cannot rename '%s' to it: %s", path, t->name, strerror(errno));
    if (st != PL_OK) unlink(t->name);
    free(t->name);
    t->name = NULL;
    return st;
}
