/* png.c: 8- and 16-bit grayscale PNG images through libpng (when the build found it).
 *
 * Reading takes colour type gray at any bit depth: 8 -> PL_U8, 16 -> PL_U16 (libpng gives
 * big-endian samples; png_set_swap makes them the host's little-endian), 1, 2 and 4 bits are
 * unpacked to one byte a sample with their values kept (0..1, 0..3, 0..15, as PGM keeps its
 * values). Interlaced images are de-interlaced by libpng. Palette, RGB, RGBA and gray+alpha
 * images are refused, naming the colour type. Writing makes 8-bit (PL_U8) or 16-bit (PL_U16)
 * gray, to a temporary file renamed over the name.
 *
 * libpng reports errors by longjmp to the setjmp in the function that called it: the error
 * callback keeps libpng's message for pl_fail, never prints; anything allocated between the
 * setjmp and the longjmp is held in volatile variables (or in *a) so the error path frees it.
 * A build without libpng has pl_png_available() == 0 and every call says "built without
 * libpng" (PL_ERR_UNSUPPORTED). */
#define _POSIX_C_SOURCE 200809L /* fdopen */
#include "io/io.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef PL_HAVE_PNG
#include <png.h>

int pl_png_available(void) { return 1; }

/* libpng's error message, kept by the error callback before it jumps back. */
typedef struct png_error_box {
    char msg[256];
} png_error_box;

static void on_png_error(png_structp png, png_const_charp msg)
{
    png_error_box *box = png_get_error_ptr(png);
    snprintf(box->msg, sizeof box->msg, "%s", msg ? msg : "libpng error");
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp msg)
{
    (void)png; /* library code never prints; warnings (a bad ancillary chunk) are not failures */
    (void)msg;
}

/* The ancillary chunks libpng 1.6 knows, as 4 letters and a NUL each (png_set_keep_unknown_chunks). */
static const png_byte ancillary_chunks[] = "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0pHYs\0"
                                           "sBIT\0sCAL\0sPLT\0sRGB\0tEXt\0tIME\0tRNS\0zTXt";

static const char *colour_type_name(int t)
{
    switch (t) {
    case PNG_COLOR_TYPE_GRAY: return "gray";
    case PNG_COLOR_TYPE_GRAY_ALPHA: return "gray+alpha";
    case PNG_COLOR_TYPE_PALETTE: return "palette";
    case PNG_COLOR_TYPE_RGB: return "RGB";
    case PNG_COLOR_TYPE_RGB_ALPHA: return "RGBA";
    }
    return "unknown";
}

/* After the 8 signature bytes have been read and checked from f. */
static pl_status read_png(const char *path, FILE *f, pl_array *a)
{
    png_error_box box = {""};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &box, on_png_error, on_png_warning);
    if (!png) return pl_fail(PL_ERR_NOMEM, "%s: cannot allocate libpng's reader", path);
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return pl_fail(PL_ERR_NOMEM, "%s: cannot allocate libpng's reader", path);
    }
    png_bytep *volatile rows = NULL; /* set after the setjmp: volatile, freed on both paths */
    if (setjmp(png_jmpbuf(png))) {
        free((void *)rows);
        png_destroy_read_struct(&png, &info, NULL);
        return pl_fail(PL_ERR_FORMAT, "%s: bad PNG: %s", path, box.msg); /* *a is freed by the caller */
    }
    /* libpng reads a known ancillary chunk (sPLT, iCCP, text, ...) into a buffer of the length its
     * header claims, with no cap in the system's 1.6.39 (png_set_chunk_malloc_max does not reach
     * sPLT): a 45-byte file claiming a 1.5 GiB sPLT made it allocate 1.5 GiB before finding the
     * file short. Gray samples need none of that metadata, so every ancillary chunk is skipped
     * unread (PNG_HANDLE_CHUNK_NEVER: read past in small pieces, CRC still checked). */
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, 0); /* chunks libpng does not know */
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, ancillary_chunks,
                                (int)(sizeof ancillary_chunks / 5));  /* and those it does */
    png_init_io(png, f);
    png_set_sig_bytes(png, 8);
    png_read_info(png, info);
    png_uint_32 width, height;
    int depth, colour, interlace;
    png_get_IHDR(png, info, &width, &height, &depth, &colour, &interlace, NULL, NULL);

    pl_status st = PL_OK;
    int64_t bytes = 0;
    size_t elem = depth == 16 ? 2 : 1;
    if (colour != PNG_COLOR_TYPE_GRAY) {
        st = pl_fail(PL_ERR_FORMAT, "%s: PNG colour type %s (%d-bit) is not supported: parlab reads 8- or 16-bit "
                     "grayscale; convert the image to gray", path, colour_type_name(colour), depth);
    } else if (pl_mul_overflow((int64_t)width * (int64_t)height, (int64_t)elem, &bytes) ||
               (uint64_t)bytes > SIZE_MAX) {
        st = pl_fail(PL_ERR_TOO_BIG, "%s: too big: %" PRIu32 " x %" PRIu32 " samples do not fit in memory", path,
                     (uint32_t)width, (uint32_t)height);
    } else {
        st = pl_io_fits_memory(path, bytes);
    }
    if (st != PL_OK) {
        png_destroy_read_struct(&png, &info, NULL);
        return st;
    }

    if (depth < 8) png_set_packing(png); /* one byte a sample, values kept */
    if (depth == 16) png_set_swap(png);  /* little-endian samples */
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * elem) {
        png_destroy_read_struct(&png, &info, NULL);
        return pl_fail(PL_ERR_INTERNAL, "%s: libpng's row of %zu bytes is not %" PRIu32 " samples", path,
                       (size_t)png_get_rowbytes(png, info), (uint32_t)width);
    }

    a->dtype = elem == 1 ? PL_U8 : PL_U16;
    a->rank = 2;
    a->shape[0] = height;
    a->shape[1] = width;
    a->data = pl_alloc((size_t)bytes);
    rows = malloc((size_t)height * sizeof *rows);
    if (!a->data || !rows) {
        free((void *)rows);
        png_destroy_read_struct(&png, &info, NULL);
        return pl_fail(PL_ERR_NOMEM, "%s: cannot allocate %" PRId64 " bytes", path, bytes);
    }
    for (png_uint_32 r = 0; r < height; r++) rows[r] = (png_bytep)a->data + (size_t)r * width * elem;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free((void *)rows);
    png_destroy_read_struct(&png, &info, NULL);
    return PL_OK;
}

pl_status pl_png_read(const char *path, pl_array *a)
{
    if (!a) return pl_fail(PL_ERR_ARG, "pl_png_read: the array is NULL");
    memset(a, 0, sizeof *a);
    if (!path) return pl_fail(PL_ERR_ARG, "pl_png_read: the path is NULL");
    FILE *f = fopen(path, "rbe");
    if (!f) return pl_fail(PL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    unsigned char sig[8];
    size_t n = fread(sig, 1, sizeof sig, f);
    pl_status st;
    if (ferror(f))
        st = pl_fail(PL_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
    else if (n < sizeof sig || png_sig_cmp(sig, 0, sizeof sig) != 0)
        st = pl_fail(PL_ERR_FORMAT, "%s: not a PNG file (bad signature)", path);
    else
        st = read_png(path, f, a);
    fclose(f);
    if (st != PL_OK) pl_array_free(a); /* leave *a empty on failure */
    return st;
}

/* Into f (the temporary file); the caller closes f. */
static pl_status write_png(const char *path, FILE *f, const pl_array *a)
{
    png_error_box box = {""};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &box, on_png_error, on_png_warning);
    if (!png) return pl_fail(PL_ERR_NOMEM, "%s: cannot allocate libpng's writer", path);
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return pl_fail(PL_ERR_NOMEM, "%s: cannot allocate libpng's writer", path);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return pl_fail(PL_ERR_IO, "%s: cannot write the PNG: %s", path, box.msg);
    }
    size_t elem = a->dtype == PL_U16 ? 2 : 1;
    png_uint_32 width = (png_uint_32)a->shape[1], height = (png_uint_32)a->shape[0];
    png_init_io(png, f);
    png_set_IHDR(png, info, width, height, (int)(8 * elem), PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (elem == 2) png_set_swap(png); /* our little-endian samples to PNG's big-endian */
    for (png_uint_32 r = 0; r < height; r++)
        png_write_row(png, (png_const_bytep)a->data + (size_t)r * width * elem);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return PL_OK;
}

pl_status pl_png_write(const char *path, const pl_array *a)
{
    if (!path || !a) return pl_fail(PL_ERR_ARG, "pl_png_write: NULL %s", path ? "array" : "path");
    if (a->dtype != PL_U8 && a->dtype != PL_U16)
        return pl_fail(PL_ERR_ARG, "%s: parlab writes 8- or 16-bit gray PNGs (uint8 or uint16), not %s", path,
                       pl_dtype_name(a->dtype));
    if (a->rank != 2)
        return pl_fail(PL_ERR_ARG, "%s: a PNG is a rank-2 array (height x width), not rank %d", path, a->rank);
    if (a->shape[0] < 1 || a->shape[1] < 1 || a->shape[0] > 0x7fffffff || a->shape[1] > 0x7fffffff)
        return pl_fail(PL_ERR_ARG, "%s: a PNG's height and width are 1..2147483647, not %" PRId64 " x %" PRId64,
                       path, a->shape[0], a->shape[1]);
    if (!a->data) return pl_fail(PL_ERR_ARG, "%s: the array has no data", path);

    pl_tmp t;
    pl_status st = pl_tmp_open(path, &t);
    if (st != PL_OK) return st;
    FILE *f = fdopen(t.fd, "wb");
    if (!f) return pl_tmp_close(path, &t, pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(errno)));
    t.fd = -1; /* f owns it now */
    st = write_png(path, f, a);
    if (fclose(f) != 0 && st == PL_OK) st = pl_fail(PL_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    return pl_tmp_close(path, &t, st);
}

#else /* no libpng */

int pl_png_available(void) { return 0; }

pl_status pl_png_read(const char *path, pl_array *a)
{
    if (a) memset(a, 0, sizeof *a);
    return pl_fail(PL_ERR_UNSUPPORTED, "%s: cannot read a PNG: parlab was built without libpng "
                   "(install libpng-dev and rebuild, or convert the image to PGM)", path ? path : "(null)");
}

pl_status pl_png_write(const char *path, const pl_array *a)
{
    (void)a;
    return pl_fail(PL_ERR_UNSUPPORTED, "%s: cannot write a PNG: parlab was built without libpng "
                   "(install libpng-dev and rebuild, or write .pgm)", path ? path : "(null)");
}

#endif
