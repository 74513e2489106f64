/* fuzz_npy.c: libFuzzer target for the .npy reader (src/io/npy.c).
 *
 * Each input is a whole file. pl_npy_read takes a path, so the input is written to an
 * in-memory file (memfd) and read back through /proc/self/fd/N: the real entry point runs,
 * fstat size check included. What must hold for every input:
 *   - no crash, leak, out-of-bounds access or undefined behaviour (ASan + UBSan + LSan);
 *   - failure: a status other than PL_OK, a message, and *a left empty (data NULL, rank 0);
 *   - success: rank 0..8, a dtype parlab knows, count >= 0, data non-NULL, every data byte
 *     readable and equal to the file's bytes after the header (ASan checks the size), and
 *     pl_npy_write + pl_npy_read give back the same array.
 * Built and run by `make fuzz` (see tests/fuzz/README.md), never by the CMake build. */
#include "parlab.h"
#include "fuzz_input.h"

static char out_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_input_init("fuzz_npy");
    fuzz_out_path(out_path, sizeof out_path, "npy");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in_path = fuzz_input_file(data, size);
    pl_array a;
    memset(&a, 0xAB, sizeof a); /* the reader must set every field */
    pl_status st = pl_npy_read(in_path, &a);
    if (st != PL_OK) {
        if (a.data != NULL || a.rank != 0) fuzz_die("failed read left data or rank behind");
        if (pl_last_error()[0] == '\0') fuzz_die("failed read without a message");
        return 0;
    }

    if (a.rank < 0 || a.rank > 8) fuzz_die("rank out of 0..8");
    size_t es = pl_dtype_size(a.dtype);
    if (es == 0) fuzz_die("unknown dtype");
    int64_t count = pl_array_count(&a);
    if (count < 0) fuzz_die("pl_array_count < 0 after a successful read");
    if (!a.data) fuzz_die("no data after a successful read");
    size_t bytes = (size_t)count * es;
    if (bytes > size) fuzz_die("more data than the file holds");
    /* The data is the bytes that end the header: compare them (reads every byte: ASan checks
     * the allocation is large enough). The header is at least 10 bytes, so bytes < size. */
    size_t start = 0;
    if (size >= 10) start = data[6] == 1 ? 10 + (size_t)(data[8] | data[9] << 8)
                                         : 12 + (size_t)(data[8] | data[9] << 8 |
                                                         (size_t)data[10] << 16 |
                                                         (size_t)data[11] << 24);
    if (start + bytes > size || memcmp(a.data, data + start, bytes) != 0)
        fuzz_die("data differs from the file's bytes after the header");

    /* Write it back and read that: the same array. */
    if (pl_npy_write(out_path, &a) != PL_OK) fuzz_die("pl_npy_write of a read array failed");
    pl_array b;
    if (pl_npy_read(out_path, &b) != PL_OK) fuzz_die("re-reading a written array failed");
    if (b.dtype != a.dtype || b.rank != a.rank ||
        memcmp(b.shape, a.shape, (size_t)a.rank * sizeof a.shape[0]) != 0 ||
        memcmp(b.data, a.data, bytes) != 0)
        fuzz_die("write + read changed the array");
    unlink(out_path);
    pl_array_free(&b);
    pl_array_free(&a);
    return 0;
}
