/* fuzz_arrays.c: libFuzzer target for the batch-file and .npz reader (src/io/arrays.c, with
 * the .npy reader it calls and zlib's inflate for deflated members).
 *
 * Each input is a whole file, written to an in-memory file (memfd) and read through
 * /proc/self/fd/N. The host memory the reader may take is set here to 64 MiB
 * (pl_host_memory_available), so a deflated member claiming more is refused before it is
 * inflated. What must hold for every input:
 *   - no crash, leak, out-of-bounds access or undefined behaviour (ASan + UBSan + LSan);
 *   - failure: a status other than PL_OK, a message, and no arrays (NULL, count 0);
 *   - success: count >= 0, each array with a legal rank and dtype, a NUL-terminated name,
 *     every data byte readable; and pl_arrays_write + pl_arrays_read (as a .npz where the
 *     names allow, else a batch file) give back the same arrays.
 * Built and run by `make fuzz` (see tests/fuzz/README.md), never by the CMake build. */
#include "parlab.h"
#include "fuzz_input.h"

static char out_npz[4096], out_batch[4096];

double pl_host_memory_available(void) { return 64.0 * 1024 * 1024; }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_input_init("fuzz_arrays");
    fuzz_out_path(out_npz, sizeof out_npz, "npz");
    fuzz_out_path(out_batch, sizeof out_batch, "batch");
    return 0;
}

static int same(const pl_named_array *x, const pl_named_array *y, int count, int names)
{
    for (int i = 0; i < count; i++) {
        const pl_array *a = &x[i].a, *b = &y[i].a;
        if (names && strcmp(x[i].name, y[i].name) != 0) return 0;
        if (a->dtype != b->dtype || a->rank != b->rank ||
            memcmp(a->shape, b->shape, (size_t)a->rank * sizeof a->shape[0]) != 0)
            return 0;
        size_t bytes = (size_t)pl_array_count(a) * pl_dtype_size(a->dtype);
        if (bytes && memcmp(a->data, b->data, bytes) != 0) return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in_path = fuzz_input_file(data, size);

    pl_named_array *got = (pl_named_array *)&fuzz_fd; /* must be overwritten */
    int count = -1;
    pl_status st = pl_arrays_read(in_path, &got, &count);
    if (st != PL_OK) {
        if (got != NULL || count != 0) fuzz_die("failed read left arrays behind");
        if (pl_last_error()[0] == '\0') fuzz_die("failed read without a message");
        return 0;
    }
    if (count < 0 || (count > 0 && !got)) fuzz_die("bad count or list");
    for (int i = 0; i < count; i++) {
        const pl_array *a = &got[i].a;
        if (memchr(got[i].name, '\0', sizeof got[i].name) == NULL) fuzz_die("name not terminated");
        if (a->rank < 0 || a->rank > 8 || pl_dtype_size(a->dtype) == 0) fuzz_die("bad rank or dtype");
        int64_t n = pl_array_count(a);
        if (n < 0 || !a->data) fuzz_die("bad count or no data");
        size_t bytes = (size_t)n * pl_dtype_size(a->dtype);
        if (bytes > size) fuzz_die("more data than the file holds");
        volatile uint8_t sum = 0;
        for (size_t k = 0; k < bytes; k++) sum ^= ((const uint8_t *)a->data)[k];
    }

    /* Write back and read again: as a .npz (names kept) where that is allowed, and as a batch. */
    pl_named_array *again = NULL;
    int count2 = 0;
    if (pl_arrays_write(out_npz, got, count) == PL_OK) {
        if (pl_arrays_read(out_npz, &again, &count2) != PL_OK) fuzz_die("re-reading a written .npz failed");
        if (count2 != count || !same(got, again, count, 1)) fuzz_die(".npz write + read changed the arrays");
        pl_arrays_free(again, count2);
        unlink(out_npz);
    }
    if (count > 0) {
        if (pl_arrays_write(out_batch, got, count) != PL_OK) fuzz_die("writing a batch file failed");
        if (pl_arrays_read(out_batch, &again, &count2) != PL_OK) fuzz_die("re-reading a written batch file failed");
        if (count2 != count || !same(got, again, count, 0)) fuzz_die("batch write + read changed the arrays");
        pl_arrays_free(again, count2);
        unlink(out_batch);
    }
    pl_arrays_free(got, count);
    return 0;
}
