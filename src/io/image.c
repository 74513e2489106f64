/* image.c: an image or array file by what it holds (pl_image_read: the first bytes tell .npy,
 * PGM and PNG apart) or by the name it gets (pl_image_write: .pgm, .png, else .npy). */
#include "io/io.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

pl_status pl_image_read(const char *path, pl_array *a)
{
    if (!a) return pl_fail(PL_ERR_ARG, "pl_image_read: the array is NULL");
    memset(a, 0, sizeof *a);
    if (!path) return pl_fail(PL_ERR_ARG, "pl_image_read: the path is NULL");
    FILE *f = fopen(path, "rbe");
    if (!f) return pl_fail(PL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    unsigned char head[8];
    size_t n = fread(head, 1, sizeof head, f);
    int read_error = ferror(f) ? errno : 0;
    fclose(f);
    if (read_error) return pl_fail(PL_ERR_IO, "%s: cannot read: %s", path, strerror(read_error));

    static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (n >= 6 && memcmp(head, "\x93NUMPY", 6) == 0) return pl_npy_read(path, a);
    if (n >= 2 && head[0] == 'P' && (head[1] == '2' || head[1] == '5')) return pl_pgm_read(path, a);
    if (n >= 8 && memcmp(head, png_signature, 8) == 0) return pl_png_read(path, a);
    return pl_fail(PL_ERR_FORMAT, "%s: not an image parlab reads (.npy, PGM P2/P5 or PNG: none of their "
                   "signatures)", path);
}

int pl_has_extension(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && strcasecmp(path + n - e, ext) == 0;
}

pl_status pl_image_write(const char *path, const pl_array *a)
{
    if (!path || !a) return pl_fail(PL_ERR_ARG, "pl_image_write: NULL %s", path ? "array" : "path");
    if (pl_has_extension(path, ".pgm")) return pl_pgm_write(path, a);
    if (pl_has_extension(path, ".png")) return pl_png_write(path, a);
    return pl_npy_write(path, a);
}
