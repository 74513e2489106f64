/* fuzz_pgm.c: libFuzzer target for the PGM reader (src/io/pgm.c).
 *
 * Each input is a whole file, written to an in-memory file (memfd) and read through
 * /proc/self/fd/N, so the real entry point runs, fstat size checks included. The host memory
 * the reader may take is set here to 64 MiB (pl_host_memory_available, which the library
 * takes from src/harness), so a header claiming a huge image must be refused as too big
 * before anything is allocated. What must hold for every input:
 *   - no crash, leak, out-of-bounds access or undefined behaviour (ASan + UBSan + LSan);
 *   - failure: a status other than PL_OK, a message, and *a left empty (data NULL, rank 0);
 *   - success: rank 2, PL_U8 or PL_U16, both dimensions >= 1, every sample readable (ASan
 *     checks the size), and pl_pgm_write + pl_pgm_read give back the same image.
 * Built and run by `make fuzz` (see tests/fuzz/README.md), never by the CMake build. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include "parlab.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int mem_fd = -1;
static char in_path[64];
static char out_path[4096];

double pl_host_memory_available(void) { return 64.0 * 1024 * 1024; }

static void die(const char *what)
{
    fprintf(stderr, "fuzz_pgm: %s\n", what);
    abort(); /* libFuzzer saves the input that got here */
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    mem_fd = memfd_create("fuzz_pgm_in", 0);
    if (mem_fd < 0) die("memfd_create failed");
    snprintf(in_path, sizeof in_path, "/proc/self/fd/%d", mem_fd);
    const char *tmp = getenv("TMPDIR");
    snprintf(out_path, sizeof out_path, "%s/fuzz_pgm_out.%ld.pgm", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (ftruncate(mem_fd, 0) != 0) die("ftruncate failed");
    if (size > 0 && pwrite(mem_fd, data, size, 0) != (ssize_t)size) die("pwrite failed");

    pl_array a;
    memset(&a, 0xAB, sizeof a); /* the reader must set every field */
    pl_status st = pl_pgm_read(in_path, &a);
    if (st != PL_OK) {
        if (a.data != NULL || a.rank != 0) die("failed read left data or rank behind");
        if (pl_last_error()[0] == '\0') die("failed read without a message");
        return 0;
    }
    if (a.rank != 2) die("rank is not 2");
    if (a.dtype != PL_U8 && a.dtype != PL_U16) die("dtype is not uint8 or uint16");
    if (a.shape[0] < 1 || a.shape[1] < 1) die("an empty dimension");
    if (!a.data) die("no data after a successful read");
    size_t bytes = (size_t)pl_array_count(&a) * pl_dtype_size(a.dtype);
    volatile uint8_t sum = 0;
    for (size_t i = 0; i < bytes; i++) sum ^= ((const uint8_t *)a.data)[i];

    if (pl_pgm_write(out_path, &a) != PL_OK) die("pl_pgm_write of a read image failed");
    pl_array b;
    if (pl_pgm_read(out_path, &b) != PL_OK) die("re-reading a written image failed");
    if (b.dtype != a.dtype || b.rank != 2 || b.shape[0] != a.shape[0] || b.shape[1] != a.shape[1] ||
        memcmp(b.data, a.data, bytes) != 0)
        die("write + read changed the image");
    unlink(out_path);
    pl_array_free(&b);
    pl_array_free(&a);
    return 0;
}
