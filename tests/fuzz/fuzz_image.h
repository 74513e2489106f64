/* fuzz_image.h: the properties an image reader (PGM, PNG) must keep for any input, shared by
 * fuzz_pgm.c and fuzz_png.c:
 *   - no crash, leak, out-of-bounds access or undefined behaviour (ASan + UBSan + LSan);
 *   - failure: a status other than PL_OK, a message, and *a left empty (data NULL, rank 0);
 *   - success: rank 2, PL_U8 or PL_U16, both dimensions >= 1, every sample readable (ASan
 *     checks the size), and write + read give back the same image (images of at most
 *     roundtrip_max bytes: a large write every time would slow the search).
 * The host memory a reader may take is set to 64 MiB (pl_host_memory_available, which the
 * library takes from src/harness), so a header claiming a huge image must be refused as too
 * big before anything is allocated. */
#ifndef PL_FUZZ_IMAGE_H
#define PL_FUZZ_IMAGE_H

#include "parlab.h"
#include "fuzz_input.h"

double pl_host_memory_available(void) { return 64.0 * 1024 * 1024; }

static int fuzz_image_one(const uint8_t *data, size_t size, pl_status (*read)(const char *, pl_array *),
                          pl_status (*write)(const char *, const pl_array *), const char *out_path,
                          size_t roundtrip_max)
{
    pl_array a;
    memset(&a, 0xAB, sizeof a); /* the reader must set every field */
    pl_status st = read(fuzz_input_file(data, size), &a);
    if (st != PL_OK) {
        if (a.data != NULL || a.rank != 0) fuzz_die("failed read left data or rank behind");
        if (pl_last_error()[0] == '\0') fuzz_die("failed read without a message");
        return 0;
    }
    if (a.rank != 2) fuzz_die("rank is not 2");
    if (a.dtype != PL_U8 && a.dtype != PL_U16) fuzz_die("dtype is not uint8 or uint16");
    if (a.shape[0] < 1 || a.shape[1] < 1) fuzz_die("an empty dimension");
    if (!a.data) fuzz_die("no data after a successful read");
    size_t bytes = (size_t)pl_array_count(&a) * pl_dtype_size(a.dtype);
    volatile uint8_t sum = 0;
    for (size_t i = 0; i < bytes; i++) sum ^= ((const uint8_t *)a.data)[i];

    if (bytes <= roundtrip_max) {
        if (write(out_path, &a) != PL_OK) fuzz_die("writing a read image failed");
        pl_array b;
        if (read(out_path, &b) != PL_OK) fuzz_die("re-reading a written image failed");
        if (b.dtype != a.dtype || b.rank != 2 || b.shape[0] != a.shape[0] || b.shape[1] != a.shape[1] ||
            memcmp(b.data, a.data, bytes) != 0)
            fuzz_die("write + read changed the image");
        unlink(out_path);
        pl_array_free(&b);
    }
    pl_array_free(&a);
    return 0;
}

#endif
