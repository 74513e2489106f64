/* file.c: the plumbing the file formats share (io.h): whole reads and writes, CRC-32, byte
 * sources over a file or memory, and every output: a regular file (or none yet) through a
 * temporary file renamed into place, a device or FIFO written through, "-" standard output,
 * the registry of live temporary files a signal handler removes. */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC */
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* The reflected polynomial 0xEDB88320, a byte at a time through a 256-entry table made once
 * (pthread_once: readers on several threads may be the first). */
static uint32_t crc_table[256];
static pthread_once_t crc_table_once = PTHREAD_ONCE_INIT;

static void make_crc_table(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

uint32_t pl_crc32(uint32_t crc, const void *buf, size_t n)
{
    pthread_once(&crc_table_once, make_crc_table);
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

/* ---------------------------------------------------------------- outputs */

/* Where "-" writes: standard output, or the descriptor the CLI saved before it moved its
 * own printing to stderr (pl_io_set_stdout_fd). */
static int stdout_fd = STDOUT_FILENO;

void pl_io_set_stdout_fd(int fd) { stdout_fd = fd; }

/* The temporary files being written now, for pl_remove_partial_outputs: a slot is claimed
 * (FREE -> CLAIMED) by a compare-and-swap, its name copied, then published (LIVE); a signal
 * handler only reads LIVE slots and calls unlink(), both async-signal-safe. */
enum { SLOT_FREE = 0, SLOT_CLAIMED, SLOT_LIVE, N_SLOTS = 16, SLOT_NAME = 4096 };
static atomic_int slot_state[N_SLOTS];
static char slot_name[N_SLOTS][SLOT_NAME];

static int slot_register(const char *name)
{
    if (strlen(name) >= SLOT_NAME) return -1;
    for (int i = 0; i < N_SLOTS; i++) {
        int expected = SLOT_FREE;
        if (atomic_compare_exchange_strong(&slot_state[i], &expected, SLOT_CLAIMED)) {
            memcpy(slot_name[i], name, strlen(name) + 1);
            atomic_store(&slot_state[i], SLOT_LIVE);
            return i;
        }
    }
    return -1; /* all busy: this file is still removed on failure, but not by a signal handler */
}

static void slot_release(int i)
{
    if (i >= 0) atomic_store(&slot_state[i], SLOT_FREE);
}

void pl_remove_partial_outputs(void)
{
    for (int i = 0; i < N_SLOTS; i++)
        if (atomic_load(&slot_state[i]) == SLOT_LIVE) unlink(slot_name[i]);
}

/* path with every symbolic link of its last component followed (up to 40 links, as the
 * kernel allows), into buf: the file a write to path really reaches, which need not exist
 * (a dangling link names the file it would create). -1 (errno set) on a loop or a name too
 * long. The directories on the way are left as written: rename() goes through them. */
static int resolve_links(const char *path, char *buf, size_t n)
{
    if (strlen(path) >= n) return errno = ENAMETOOLONG, -1;
    snprintf(buf, n, "%s", path);
    for (int hops = 0; hops < 40; hops++) {
        struct stat sb;
        if (lstat(buf, &sb) != 0 || !S_ISLNK(sb.st_mode)) return 0;
        char link[4096];
        ssize_t len = readlink(buf, link, sizeof link - 1);
        if (len < 0) return -1;
        link[len] = '\0';
        if (link[0] == '/') {
            if ((size_t)len >= n) return errno = ENAMETOOLONG, -1;
            memcpy(buf, link, (size_t)len + 1);
        } else { /* relative to the link's own directory */
            char *slash = strrchr(buf, '/');
            size_t dir_len = slash ? (size_t)(slash - buf) + 1 : 0;
            if (dir_len + (size_t)len >= n) return errno = ENAMETOOLONG, -1;
            memcpy(buf + dir_len, link, (size_t)len + 1);
        }
    }
    return errno = ELOOP, -1;
}

/* What kind of output path is, with its links followed into target: 'f' a regular file or
 * none yet (written through a temporary file renamed over target), 's' a character device
 * or FIFO (written through), '-' standard output; anything else a PL_ERR_IO failure naming
 * path and what it is. */
static pl_status output_kind(const char *path, char *target, size_t n, char *kind, struct stat *sb)
{
    if (!path || !*path) return pl_fail(PL_ERR_ARG, "an empty output file name");
    if (strcmp(path, "-") == 0) {
        *kind = '-';
        return PL_OK;
    }
    if (resolve_links(path, target, n) != 0)
        return pl_fail(PL_ERR_IO, "%s: cannot follow its links: %s", path, strerror(errno));
    if (stat(target, sb) != 0) {
        if (errno != ENOENT) return pl_fail(PL_ERR_IO, "%s: %s", path, strerror(errno));
        *kind = 'f';
        sb->st_mode = 0;
        return PL_OK;
    }
    if (S_ISREG(sb->st_mode)) *kind = 'f';
    else if (S_ISCHR(sb->st_mode) || S_ISFIFO(sb->st_mode)) *kind = 's';
    else if (S_ISDIR(sb->st_mode)) return pl_fail(PL_ERR_IO, "%s: is a directory, not a file to write", path);
    else return pl_fail(PL_ERR_IO, "%s: not a regular file, character device or FIFO: refused as an output", path);
    return PL_OK;
}

pl_status pl_output_check(const char *path)
{
    char target[4096];
    char kind;
    struct stat sb;
    pl_status st = output_kind(path, target, sizeof target, &kind, &sb);
    if (st != PL_OK || kind == '-') return st;
    if (kind == 's') {
        if (access(target, W_OK) != 0) return pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
        return PL_OK;
    }
    /* a regular file or none: a temporary file can be made beside the target */
    char tmp[4096 + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", target, (long)getpid());
    int slot = slot_register(tmp);
    unlink(tmp); /* a leftover of an earlier process with this pid */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    int err = errno;
    if (fd >= 0) {
        close(fd);
        unlink(tmp);
    }
    slot_release(slot);
    if (fd < 0) return pl_fail(PL_ERR_IO, "%s: cannot create a file in its directory: %s", path, strerror(err));
    return PL_OK;
}

pl_status pl_tmp_open(const char *path, pl_tmp *t)
{
    t->fd = -1;
    t->name = t->target = NULL;
    t->slot = -1;
    char target[4096];
    char kind;
    struct stat sb;
    pl_status st = output_kind(path, target, sizeof target, &kind, &sb);
    if (st != PL_OK) return st;
    if (kind == '-') {
        t->fd = fcntl(stdout_fd, F_DUPFD_CLOEXEC, 3);
        if (t->fd < 0) return pl_fail(PL_ERR_IO, "%s: cannot write to standard output: %s", path, strerror(errno));
        return PL_OK;
    }
    if (kind == 's') { /* a device or FIFO: written through, never replaced (no O_CREAT, no O_TRUNC) */
        t->fd = open(target, O_WRONLY | O_CLOEXEC);
        if (t->fd < 0) return pl_fail(PL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        return PL_OK;
    }
    size_t n = strlen(target) + 32;
    t->name = malloc(n);
    t->target = strdup(target);
    if (!t->name || !t->target) {
        free(t->name), free(t->target);
        t->name = t->target = NULL;
        return pl_fail(PL_ERR_NOMEM, "%s: out of memory", path);
    }
    snprintf(t->name, n, "%s.tmp.%ld", target, (long)getpid());
    t->slot = slot_register(t->name); /* before the file exists: a signal never misses it */
    unlink(t->name); /* a leftover of an earlier process with this pid */
    t->fd = open(t->name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (t->fd < 0) {
        st = pl_fail(PL_ERR_IO, "%s: cannot create '%s': %s", path, t->name, strerror(errno));
        slot_release(t->slot);
        free(t->name), free(t->target);
        t->name = t->target = NULL;
        t->slot = -1;
        return st;
    }
    if (sb.st_mode) (void)fchmod(t->fd, sb.st_mode & 07777); /* the file replaced keeps its permissions */
    return PL_OK;
}

pl_status pl_tmp_close(const char *path, pl_tmp *t, pl_status st)
{
    if (t->fd >= 0 && close(t->fd) != 0 && st == PL_OK)
        st = pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    t->fd = -1;
    if (t->name) {
        if (st == PL_OK && rename(t->name, t->target) != 0)
            st = pl_fail(PL_ERR_IO, "%s: cannot rename '%s' to it: %s", path, t->name, strerror(errno));
        if (st != PL_OK) unlink(t->name);
        slot_release(t->slot);
    }
    free(t->name), free(t->target);
    t->name = t->target = NULL;
    t->slot = -1;
    return st;
}

/* ---------------------------------------------------------------- outputs as streams */

/* The streams open now, each with its output (pl_tmp), so that pl_tmp_fclose finds the output
 * of a stream. Written from one thread; a handful at most are open at once. */
enum { N_STREAMS = 8 };
static struct {
    FILE *f;
    pl_tmp t;
} open_streams[N_STREAMS];

FILE *pl_tmp_fopen(const char *path)
{
    int slot = 0;
    while (slot < N_STREAMS && open_streams[slot].f) slot++;
    if (slot == N_STREAMS) {
        pl_fail(PL_ERR_INTERNAL, "%s: too many outputs open at once", path);
        return NULL;
    }
    pl_tmp *t = &open_streams[slot].t;
    if (pl_tmp_open(path, t) != PL_OK) return NULL;
    FILE *f = fdopen(t->fd, "w");
    if (!f) {
        pl_tmp_close(path, t, pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(errno)));
        return NULL;
    }
    t->fd = -1; /* the stream owns it */
    open_streams[slot].f = f;
    return f;
}

pl_status pl_tmp_fclose(FILE *f, const char *path)
{
    int slot = 0;
    while (slot < N_STREAMS && open_streams[slot].f != f) slot++;
    if (slot == N_STREAMS) return pl_fail(PL_ERR_INTERNAL, "%s: not an output open here", path);
    int bad = ferror(f);
    int e = bad ? EIO : 0;
    if (fclose(f) != 0 && !bad) bad = 1, e = errno;
    open_streams[slot].f = NULL;
    pl_status st = bad ? pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(e)) : PL_OK;
    return pl_tmp_close(path, &open_streams[slot].t, st);
}

/* (kept for the callers of parlab.h: pl_output_check under the results' name) */
pl_status pl_report_path_writable(const char *path) { return pl_output_check(path); }
