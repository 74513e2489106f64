/* arrays.c: many named arrays in one file, in two formats (docs/output.md, "Batch files").
 *
 * parlab's batch file: complete .npy files back to back, nothing between, before or after
 * them; the arrays are named "0", "1", ... in file order. Any dtype and rank pl_npy_read takes.
 * It is read record by record with the .npy reader (npy.c) on the rest of the file, so each
 * record's sizes are checked against what the file still holds before anything is allocated.
 *
 * .npz (what np.savez and np.savez_compressed write): a zip archive whose members are
 * "NAME.npy". The reader trusts only the central directory at the end (numpy's local headers
 * carry zip64 placeholders for the sizes): it finds the end-of-central-directory record, checks
 * every offset and length against the file size, reads each member's local header to find its
 * data, then reads the .npy in it: stored (method 0) straight from the file, deflated (method
 * 8) through zlib into memory first where the build has zlib (else "built without zlib",
 * PL_ERR_UNSUPPORTED). The CRC-32 of every member is checked. zip64 entries (members or
 * offsets past 4 GiB) are read from their zip64 extra field; a zip64 end record (over 65535
 * members, or a directory past 4 GiB), split archives, encryption and other compression
 * methods are refused with a message.
 *
 * pl_arrays_write writes a batch file, or for a name ending in .npz a stored .npz that numpy
 * reads (np.load), to a temporary file renamed over the name. */
#define _POSIX_C_SOURCE 200809L /* pread, fstat */
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef PL_HAVE_ZLIB
#include <zlib.h>
#endif

enum {
    ZIP_LOCAL_LEN = 30,    /* a local file header without its name and extra field */
    ZIP_CENTRAL_LEN = 46,  /* a central directory entry without name, extra and comment */
    ZIP_EOCD_LEN = 22,     /* the end of central directory record without its comment */
    ZIP_MAX_COMMENT = 0xffff,
    ZIP64_LOCATOR_LEN = 20,
    ZIP_METHOD_STORED = 0,
    ZIP_METHOD_DEFLATED = 8,
    ZIP_FLAG_ENCRYPTED = 1,
    ZIP_NAME_MAX = 63,     /* a pl_named_array's name, without ".npy" */
    DEFLATE_MAX_RATIO = 1032 /* deflate expands at most ~1032:1; a claim above it is corrupt */
};

static uint16_t get16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get64(const unsigned char *p) { return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32; }
static void put16(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}
static void put32(unsigned char *p, uint32_t v)
{
    put16(p, v & 0xffff);
    put16(p + 2, v >> 16);
}

/* pread all n bytes at offset; 0, or -1 (errno set; EIO for a short read). */
static int pread_full(int fd, void *buf, size_t n, int64_t offset)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(offset + (int64_t)got));
        if (r < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (r == 0) {
            errno = EIO;
            return -1;
        }
        got += (size_t)r;
    }
    return 0;
}

/* The list being built: grown by doubling; freed whole on failure. */
typedef struct array_list {
    pl_named_array *items;
    int count, cap;
} array_list;

static pl_named_array *list_add(array_list *l)
{
    if (l->count == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        pl_named_array *p = realloc(l->items, (size_t)cap * sizeof *p);
        if (!p) return NULL;
        l->items = p;
        l->cap = cap;
    }
    pl_named_array *item = &l->items[l->count++];
    memset(item, 0, sizeof *item);
    return item;
}

void pl_arrays_free(pl_named_array *arrays, int count)
{
    if (!arrays) return;
    for (int i = 0; i < count; i++) pl_array_free(&arrays[i].a);
    free(arrays);
}

/* ---------------------------------------------------------------- the batch file */

static pl_status read_batch(const char *path, int fd, int64_t size, array_list *l)
{
    pl_src s = pl_src_fd(fd, size);
    while (s.left > 0) {
        pl_named_array *item = list_add(l);
        if (!item) return pl_fail(PL_ERR_NOMEM, "%s: out of memory for the list of arrays", path);
        int index = l->count - 1;
        snprintf(item->name, sizeof item->name, "%d", index);
        char where[1200];
        snprintf(where, sizeof where, "%s: record %d at byte offset %" PRId64, path, index, s.offset);
        pl_status st = pl_npy_read_src(where, &s, &item->a);
        if (st != PL_OK) return st;
    }
    return PL_OK;
}

/* ---------------------------------------------------------------- .npz */

/* One member as the central directory gives it. */
typedef struct zip_entry {
    char name[ZIP_NAME_MAX + 8]; /* "NAME.npy" */
    int method;
    uint32_t crc;
    uint64_t csize, usize, local_offset;
} zip_entry;

/* Find the end-of-central-directory record: the last "PK\5\6" whose comment ends at the end of
 * the file (or, leniently, inside it). *eocd gets its 22 bytes, *at its offset. */
static pl_status find_eocd(const char *path, int fd, int64_t size, unsigned char *eocd, int64_t *at)
{
    if (size < ZIP_EOCD_LEN)
        return pl_fail(PL_ERR_FORMAT, "%s: not a zip (.npz): %" PRId64 " bytes is shorter than its end record", path,
                       size);
    int64_t tail_len = size < ZIP_EOCD_LEN + ZIP_MAX_COMMENT ? size : ZIP_EOCD_LEN + ZIP_MAX_COMMENT;
    unsigned char *tail = malloc((size_t)tail_len);
    if (!tail) return pl_fail(PL_ERR_NOMEM, "%s: out of memory", path);
    if (pread_full(fd, tail, (size_t)tail_len, size - tail_len) != 0) {
        pl_status st = pl_fail(PL_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
        free(tail);
        return st;
    }
    int64_t found = -1;
    for (int64_t i = tail_len - ZIP_EOCD_LEN; i >= 0; i--)
        if (memcmp(tail + i, "PK\5\6", 4) == 0 && i + ZIP_EOCD_LEN + get16(tail + i + 20) <= tail_len) {
            found = i;
            break;
        }
    if (found >= 0) memcpy(eocd, tail + found, ZIP_EOCD_LEN);
    /* A zip64 end locator just before it: a zip64 archive. */
    int zip64 = found >= ZIP64_LOCATOR_LEN && memcmp(tail + found - ZIP64_LOCATOR_LEN, "PK\6\7", 4) == 0;
    free(tail);
    if (found < 0)
        return pl_fail(PL_ERR_FORMAT, "%s: not a zip (.npz): no end of central directory record in its last %" PRId64
                       " bytes", path, tail_len);
    *at = size - tail_len + found;
    if (zip64)
        return pl_fail(PL_ERR_FORMAT, "%s: a zip64 archive (over 65535 members or a directory past 4 GiB) is not "
                       "supported", path);
    return PL_OK;
}

/* Entry i of the central directory at cd[*pos..cd_len); *pos moves past it. */
static pl_status parse_entry(const char *path, const unsigned char *cd, uint64_t cd_len, uint64_t *pos, int i,
                             zip_entry *e)
{
    const unsigned char *p = cd + *pos;
    if (cd_len - *pos < ZIP_CENTRAL_LEN || memcmp(p, "PK\1\2", 4) != 0)
        return pl_fail(PL_ERR_FORMAT, "%s: central directory entry %d at directory offset %" PRIu64 " is %s", path, i,
                       *pos, cd_len - *pos < ZIP_CENTRAL_LEN ? "cut short" : "not an entry (bad signature)");
    unsigned flags = get16(p + 8);
    e->method = get16(p + 10);
    e->crc = get32(p + 16);
    e->csize = get32(p + 20);
    e->usize = get32(p + 24);
    unsigned name_len = get16(p + 28), extra_len = get16(p + 30), comment_len = get16(p + 32);
    unsigned disk = get16(p + 34);
    e->local_offset = get32(p + 42);
    uint64_t entry_len = (uint64_t)ZIP_CENTRAL_LEN + name_len + extra_len + comment_len;
    if (cd_len - *pos < entry_len)
        return pl_fail(PL_ERR_FORMAT, "%s: central directory entry %d runs past the directory's end", path, i);

    const unsigned char *name = p + ZIP_CENTRAL_LEN, *extra = name + name_len;
    char shown[ZIP_NAME_MAX + 8];
    size_t shown_len = name_len < sizeof shown - 1 ? name_len : sizeof shown - 1;
    for (size_t k = 0; k < shown_len; k++) shown[k] = name[k] >= 0x20 && name[k] < 0x7f ? (char)name[k] : '?';
    shown[shown_len] = '\0';
    if (name_len < 5 || name_len > ZIP_NAME_MAX + 4 || memcmp(name + name_len - 4, ".npy", 4) != 0 ||
        memchr(name, '\0', name_len))
        return pl_fail(PL_ERR_FORMAT, "%s: member %d '%s' is not NAME.npy with a NAME of 1..%d characters", path, i,
                       shown, ZIP_NAME_MAX);
    memcpy(e->name, name, name_len);
    e->name[name_len] = '\0';
    if (flags & ZIP_FLAG_ENCRYPTED)
        return pl_fail(PL_ERR_FORMAT, "%s: member '%s' is encrypted", path, e->name);
    if (disk != 0)
        return pl_fail(PL_ERR_FORMAT, "%s: member '%s' is on disk %u: split archives are not supported", path, e->name,
                       disk);

    /* zip64: the fields that read 0xffffffff are in the extra field 0x0001, in this order. */
    if (e->usize == 0xffffffffu || e->csize == 0xffffffffu || e->local_offset == 0xffffffffu) {
        uint64_t *fields[3] = {&e->usize, &e->csize, &e->local_offset};
        const unsigned char *x = extra, *x_end = extra + extra_len;
        int found = 0;
        while (x_end - x >= 4) {
            unsigned id = get16(x), len = get16(x + 2);
            if ((size_t)(x_end - x - 4) < len) break;
            if (id == 1) {
                const unsigned char *v = x + 4;
                for (int f = 0; f < 3; f++) {
                    if (*fields[f] != 0xffffffffu) continue;
                    if (v + 8 > x + 4 + len)
                        return pl_fail(PL_ERR_FORMAT, "%s: member '%s': zip64 extra field too short", path, e->name);
                    *fields[f] = get64(v);
                    v += 8;
                }
                found = 1;
                break;
            }
            x += 4 + len;
        }
        if (!found)
            return pl_fail(PL_ERR_FORMAT, "%s: member '%s': sizes of 0xffffffff without a zip64 extra field", path,
                           e->name);
    }
    *pos += entry_len;
    return PL_OK;
}

/* The member's compressed bytes start after its local header; check it and find them. */
static pl_status member_data_offset(const char *path, int fd, int64_t size, int64_t cd_offset, const zip_entry *e,
                                    int64_t *data_offset)
{
    unsigned char h[ZIP_LOCAL_LEN];
    if (e->local_offset > (uint64_t)cd_offset || (uint64_t)cd_offset - e->local_offset < ZIP_LOCAL_LEN)
        return pl_fail(PL_ERR_FORMAT, "%s: member '%s': local header offset %" PRIu64
                       " is past the central directory (offset %" PRId64 ")", path, e->name, e->local_offset,
                       cd_offset);
    if (pread_full(fd, h, sizeof h, (int64_t)e->local_offset) != 0)
        return pl_fail(PL_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
    if (memcmp(h, "PK\3\4", 4) != 0)
        return pl_fail(PL_ERR_FORMAT, "%s: member '%s': no local header at offset %" PRIu64 " (bad signature)", path,
                       e->name, e->local_offset);
    unsigned name_len = get16(h + 26), extra_len = get16(h + 28);
    int64_t start = (int64_t)e->local_offset + ZIP_LOCAL_LEN + name_len + extra_len;
    char name[ZIP_NAME_MAX + 8];
    if (name_len != strlen(e->name) || start > cd_offset ||
        pread_full(fd, name, name_len, (int64_t)e->local_offset + ZIP_LOCAL_LEN) != 0 ||
        memcmp(name, e->name, name_len) != 0)
        return pl_fail(PL_ERR_FORMAT, "%s: member '%s': the local header at offset %" PRIu64
                       " names another member or runs past the end", path, e->name, e->local_offset);
    if (e->csize > (uint64_t)(cd_offset - start))
        return pl_fail(PL_ERR_FORMAT, "%s: member '%s': %" PRIu64 " bytes of data at offset %" PRId64
                       " run past the central directory (offset %" PRId64 ", file size %" PRId64 ")", path, e->name,
                       e->csize, start, cd_offset, size);
    *data_offset = start;
    return PL_OK;
}

static pl_status crc_mismatch(const char *where, uint32_t got, uint32_t want)
{
    return pl_fail(PL_ERR_FORMAT, "%s: CRC-32 mismatch: the data gives 0x%08" PRIx32 ", the directory says 0x%08" PRIx32,
                   where, got, want);
}

/* A stored member: the .npy straight from the file, CRC-32 over every byte of the member. */
static pl_status read_stored(const char *where, int fd, int64_t data_offset, const zip_entry *e, pl_array *a)
{
    if (e->csize != e->usize)
        return pl_fail(PL_ERR_FORMAT, "%s: stored, yet %" PRIu64 " bytes compressed and %" PRIu64 " uncompressed",
                       where, e->csize, e->usize);
    if (lseek(fd, (off_t)data_offset, SEEK_SET) < 0)
        return pl_fail(PL_ERR_IO, "%s: cannot seek: %s", where, strerror(errno));
    pl_src s = pl_src_fd(fd, (int64_t)e->csize);
    s.track_crc = 1;
    pl_status st = pl_npy_read_src(where, &s, a);
    if (st != PL_OK) return st;
    /* Bytes after the .npy's data (numpy ignores them) still count in the CRC. */
    unsigned char rest[4096];
    while (s.left > 0) {
        int64_t got = pl_src_read(&s, rest, sizeof rest);
        if (got <= 0) {
            st = pl_fail(PL_ERR_IO, "%s: cannot read: %s", where, got < 0 ? strerror(errno) : "end of file");
            pl_array_free(a);
            return st;
        }
    }
    if (s.crc != e->crc) {
        pl_array_free(a);
        return crc_mismatch(where, s.crc, e->crc);
    }
    return PL_OK;
}

/* A deflated member: inflated into memory (checked against the host memory first), then read. */
static pl_status read_deflated(const char *where, int fd, int64_t data_offset, const zip_entry *e, pl_array *a)
{
#ifdef PL_HAVE_ZLIB
    if (e->usize > e->csize * DEFLATE_MAX_RATIO + 1024)
        return pl_fail(PL_ERR_FORMAT, "%s: claims %" PRIu64 " bytes from %" PRIu64
                       " deflated ones, more than deflate can expand to", where, e->usize, e->csize);
    if (e->usize > (uint64_t)INT64_MAX / 2 || (uint64_t)e->usize > SIZE_MAX)
        return pl_fail(PL_ERR_TOO_BIG, "%s: too big: %" PRIu64 " bytes", where, e->usize);
    pl_status st = pl_io_fits_memory(where, (int64_t)e->usize);
    if (st != PL_OK) return st;
    unsigned char *out = malloc(e->usize ? (size_t)e->usize : 1);
    unsigned char in[1 << 16];
    if (!out) return pl_fail(PL_ERR_NOMEM, "%s: cannot allocate %" PRIu64 " bytes to inflate into", where, e->usize);

    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) { /* raw deflate, as in a zip */
        free(out);
        return pl_fail(PL_ERR_NOMEM, "%s: cannot start zlib's inflate", where);
    }
    uint64_t fed = 0, made = 0;
    int zr = Z_OK;
    while (zr != Z_STREAM_END) {
        if (z.avail_in == 0) {
            if (fed == e->csize) break; /* the input ran out before the stream ended */
            size_t n = e->csize - fed < sizeof in ? (size_t)(e->csize - fed) : sizeof in;
            if (pread_full(fd, in, n, data_offset + (int64_t)fed) != 0) {
                st = pl_fail(PL_ERR_IO, "%s: cannot read: %s", where, strerror(errno));
                break;
            }
            fed += n;
            z.next_in = in;
            z.avail_in = (uInt)n;
        }
        /* One spare byte past usize: a stream that inflates to more is caught, not cut. */
        unsigned char spare;
        uint64_t room = e->usize - made;
        z.next_out = room ? out + made : &spare;
        z.avail_out = room ? (room > (1u << 30) ? (1u << 30) : (uInt)room) : 1;
        uInt before = z.avail_out;
        zr = inflate(&z, Z_NO_FLUSH);
        made += before - z.avail_out;
        if (made > e->usize) {
            st = pl_fail(PL_ERR_FORMAT, "%s: inflates to more than the %" PRIu64 " bytes the directory says", where,
                         e->usize);
            break;
        }
        if (zr == Z_BUF_ERROR) continue; /* no input left (output room is never 0): refill or stop */
        if (zr != Z_OK && zr != Z_STREAM_END) {
            st = pl_fail(PL_ERR_FORMAT, "%s: corrupt deflate data: %s", where, z.msg ? z.msg : "zlib error");
            break;
        }
    }
    inflateEnd(&z);
    if (st == PL_OK && (zr != Z_STREAM_END || made != e->usize))
        st = pl_fail(PL_ERR_FORMAT, "%s: truncated deflate data: %" PRIu64 " of %" PRIu64 " bytes inflated", where,
                     made, e->usize);
    if (st == PL_OK) {
        uint32_t crc = pl_crc32(0, out, (size_t)e->usize);
        if (crc != e->crc) st = crc_mismatch(where, crc, e->crc);
    }
    if (st == PL_OK) {
        pl_src s = pl_src_mem(out, (size_t)e->usize);
        st = pl_npy_read_src(where, &s, a);
    }
    free(out);
    return st;
#else
    (void)fd;
    (void)data_offset;
    (void)e;
    (void)a;
    return pl_fail(PL_ERR_UNSUPPORTED, "%s: a deflated member (np.savez_compressed), and parlab was built without "
                   "zlib: install zlib1g-dev and rebuild, or save with np.savez", where);
#endif
}

static pl_status read_npz(const char *path, int fd, int64_t size, array_list *l)
{
    unsigned char eocd[ZIP_EOCD_LEN] = {0};
    int64_t eocd_at = 0;
    pl_status st = find_eocd(path, fd, size, eocd, &eocd_at);
    if (st != PL_OK) return st;
    unsigned disk = get16(eocd + 4), cd_disk = get16(eocd + 6);
    unsigned entries_here = get16(eocd + 8), entries = get16(eocd + 10);
    uint64_t cd_len = get32(eocd + 12), cd_offset = get32(eocd + 16);
    if (disk != 0 || cd_disk != 0 || entries_here != entries)
        return pl_fail(PL_ERR_FORMAT, "%s: a split (multi-disk) zip archive is not supported", path);
    if (entries == 0xffff || cd_len == 0xffffffffu || cd_offset == 0xffffffffu)
        return pl_fail(PL_ERR_FORMAT, "%s: a zip64 archive (over 65535 members or a directory past 4 GiB) is not "
                       "supported", path);
    if (cd_offset > (uint64_t)eocd_at || cd_len > (uint64_t)eocd_at - cd_offset)
        return pl_fail(PL_ERR_FORMAT, "%s: the central directory (offset %" PRIu64 ", %" PRIu64
                       " bytes) runs past its end record at offset %" PRId64 " (file size %" PRId64 ")", path,
                       cd_offset, cd_len, eocd_at, size);
    if ((uint64_t)entries * ZIP_CENTRAL_LEN > cd_len)
        return pl_fail(PL_ERR_FORMAT, "%s: %u members cannot fit in a central directory of %" PRIu64 " bytes", path,
                       entries, cd_len);

    unsigned char *cd = malloc(cd_len ? (size_t)cd_len : 1);
    if (!cd) return pl_fail(PL_ERR_NOMEM, "%s: out of memory for the central directory", path);
    if (pread_full(fd, cd, (size_t)cd_len, (int64_t)cd_offset) != 0) {
        st = pl_fail(PL_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
        free(cd);
        return st;
    }
    uint64_t pos = 0;
    for (int i = 0; i < (int)entries && st == PL_OK; i++) {
        zip_entry e;
        int64_t data_offset = 0;
        if ((st = parse_entry(path, cd, cd_len, &pos, i, &e)) != PL_OK ||
            (st = member_data_offset(path, fd, size, (int64_t)cd_offset, &e, &data_offset)) != PL_OK)
            break;
        char where[1200];
        snprintf(where, sizeof where, "%s: member '%s'", path, e.name);
        pl_named_array *item = list_add(l);
        if (!item) {
            st = pl_fail(PL_ERR_NOMEM, "%s: out of memory for the list of arrays", path);
            break;
        }
        snprintf(item->name, sizeof item->name, "%.*s", (int)(strlen(e.name) - 4), e.name);
        if (e.method == ZIP_METHOD_STORED) st = read_stored(where, fd, data_offset, &e, &item->a);
        else if (e.method == ZIP_METHOD_DEFLATED) st = read_deflated(where, fd, data_offset, &e, &item->a);
        else
            st = pl_fail(PL_ERR_FORMAT, "%s: compression method %d is not supported (0 stored, 8 deflated)", where,
                         e.method);
    }
    free(cd);
    return st;
}

pl_status pl_arrays_read(const char *path, pl_named_array **arrays, int *count)
{
    if (arrays) *arrays = NULL;
    if (count) *count = 0;
    if (!path || !arrays || !count)
        return pl_fail(PL_ERR_ARG, "pl_arrays_read: NULL %s", !path ? "path" : !arrays ? "arrays" : "count");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return pl_fail(PL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    pl_status st = PL_OK;
    unsigned char magic[6];
    int64_t size = 0;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        st = pl_fail(PL_ERR_IO, "%s: not a regular file", path);
    } else if ((size = (int64_t)sb.st_size) < 4) {
        st = pl_fail(PL_ERR_FORMAT, "%s: not a .npz or batch file: %" PRId64 " bytes", path, size);
    } else if (pread_full(fd, magic, 4, 0) != 0) {
        st = pl_fail(PL_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
    }
    array_list l = {NULL, 0, 0};
    if (st == PL_OK) {
        if (memcmp(magic, "PK\3\4", 4) == 0 || memcmp(magic, "PK\5\6", 4) == 0)
            st = read_npz(path, fd, size, &l);
        else if (memcmp(magic, "\x93NUM", 4) == 0)
            st = read_batch(path, fd, size, &l);
        else
            st = pl_fail(PL_ERR_FORMAT, "%s: not a .npz (zip) or parlab batch file (.npy records): bad magic", path);
    }
    close(fd);
    if (st != PL_OK) {
        pl_arrays_free(l.items, l.count);
        return st;
    }
    *arrays = l.items;
    *count = l.count;
    return PL_OK;
}

/* ---------------------------------------------------------------- writing */

static int is_npz_name(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcasecmp(path + n - 4, ".npz") == 0;
}

/* Write one .npy record (header then data) to fd; nonzero on failure (errno set). */
static int write_record(int fd, const char *header, size_t header_len, const pl_array *a, int64_t bytes)
{
    return pl_write_full(fd, header, header_len) != 0 ||
           (bytes > 0 && pl_write_full(fd, a->data, (size_t)bytes) != 0);
}

pl_status pl_arrays_write(const char *path, const pl_named_array *arrays, int count)
{
    if (!path) return pl_fail(PL_ERR_ARG, "pl_arrays_write: the path is NULL");
    int npz = is_npz_name(path);
    if (count < 0 || (count > 0 && !arrays))
        return pl_fail(PL_ERR_ARG, "%s: %d arrays%s", path, count, count > 0 ? " at NULL" : "");
    if (count == 0 && !npz)
        return pl_fail(PL_ERR_ARG, "%s: a batch file holds at least one array (a .npz may hold none)", path);
    if (npz && count > 0xfffe)
        return pl_fail(PL_ERR_ARG, "%s: %d arrays: a .npz without zip64 holds at most 65534", path, count);
    for (int i = 0; i < count; i++) {
        int64_t bytes;
        char where[1200];
        snprintf(where, sizeof where, "%s: array %d", path, i);
        pl_status st = pl_npy_check(where, &arrays[i].a, &bytes);
        if (st != PL_OK) return st;
        if (!npz) continue;
        size_t n = strnlen(arrays[i].name, sizeof arrays[i].name);
        if (n == 0 || n > ZIP_NAME_MAX || strchr(arrays[i].name, '/') || strchr(arrays[i].name, '\\'))
            return pl_fail(PL_ERR_ARG, "%s: array %d's name must be 1..%d characters without '/'", path, i,
                           ZIP_NAME_MAX);
        for (int j = 0; j < i; j++)
            if (strcmp(arrays[j].name, arrays[i].name) == 0)
                return pl_fail(PL_ERR_ARG, "%s: two arrays named '%s'", path, arrays[i].name);
        if (bytes > 0xffffffffLL - 4096)
            return pl_fail(PL_ERR_ARG, "%s: array '%s' is over 4 GiB, which needs zip64: write a batch file", path,
                           arrays[i].name);
    }

    pl_tmp t;
    pl_status st = pl_tmp_open(path, &t);
    if (st != PL_OK) return st;
    unsigned char *cd = NULL;
    size_t cd_len = 0;
    if (npz) {
        cd = malloc((size_t)count * (ZIP_CENTRAL_LEN + ZIP_NAME_MAX + 4) + 1);
        if (!cd) st = pl_fail(PL_ERR_NOMEM, "%s: out of memory", path);
    }
    uint64_t offset = 0;
    for (int i = 0; i < count && st == PL_OK; i++) {
        const pl_array *a = &arrays[i].a;
        char header[1024];
        size_t header_len = pl_npy_header(a, header, sizeof header);
        int64_t bytes = 0;
        pl_npy_check(path, a, &bytes);
        if (header_len == 0) {
            st = pl_fail(PL_ERR_INTERNAL, "%s: array %d: header does not fit", path, i);
            break;
        }
        if (npz) {
            char name[ZIP_NAME_MAX + 8];
            size_t name_len = (size_t)snprintf(name, sizeof name, "%s.npy", arrays[i].name);
            uint64_t member = header_len + (uint64_t)bytes;
            if (offset > 0xffffffffu - member - ZIP_LOCAL_LEN - name_len) {
                st = pl_fail(PL_ERR_ARG, "%s: the archive passes 4 GiB, which needs zip64: write a batch file", path);
                break;
            }
            uint32_t crc = pl_crc32(0, header, header_len);
            if (bytes > 0) crc = pl_crc32(crc, a->data, (size_t)bytes);
            /* Local header then the central entry: version 2.0, no flags, stored, 1980-01-01. */
            unsigned char h[ZIP_CENTRAL_LEN];
            memset(h, 0, sizeof h);
            memcpy(h, "PK\3\4", 4);
            put16(h + 4, 20);
            put16(h + 12, 0x21); /* date: 1980-01-01 */
            put32(h + 14, crc);
            put32(h + 18, (uint32_t)member);
            put32(h + 22, (uint32_t)member);
            put16(h + 26, (uint32_t)name_len);
            if (pl_write_full(t.fd, h, ZIP_LOCAL_LEN) != 0 || pl_write_full(t.fd, name, name_len) != 0 ||
                write_record(t.fd, header, header_len, a, bytes)) {
                st = pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
                break;
            }
            unsigned char *c = cd + cd_len;
            memset(c, 0, ZIP_CENTRAL_LEN);
            memcpy(c, "PK\1\2", 4);
            put16(c + 4, 20);
            put16(c + 6, 20);
            put16(c + 14, 0x21);
            put32(c + 16, crc);
            put32(c + 20, (uint32_t)member);
            put32(c + 24, (uint32_t)member);
            put16(c + 28, (uint32_t)name_len);
            put32(c + 38, 0644u << 16); /* external attributes: a regular file, rw-r--r-- */
            put32(c + 42, (uint32_t)offset);
            memcpy(c + ZIP_CENTRAL_LEN, name, name_len);
            cd_len += ZIP_CENTRAL_LEN + name_len;
            offset += ZIP_LOCAL_LEN + name_len + member;
        } else if (write_record(t.fd, header, header_len, a, bytes)) {
            st = pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
        }
    }
    if (npz && st == PL_OK) {
        unsigned char e[ZIP_EOCD_LEN];
        memset(e, 0, sizeof e);
        memcpy(e, "PK\5\6", 4);
        put16(e + 8, (uint32_t)count);
        put16(e + 10, (uint32_t)count);
        put32(e + 12, (uint32_t)cd_len);
        put32(e + 16, (uint32_t)offset);
        if (offset + cd_len > 0xffffffffu)
            st = pl_fail(PL_ERR_ARG, "%s: the archive passes 4 GiB, which needs zip64: write a batch file", path);
        else if (pl_write_full(t.fd, cd, cd_len) != 0 || pl_write_full(t.fd, e, sizeof e) != 0)
            st = pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    }
    free(cd);
    return pl_tmp_close(path, &t, st);
}
