/* fuzz_pgm.c: libFuzzer target for the PGM reader (src/io/pgm.c): P2 and P5, 8 and 16 bit,
 * headers with comments, truncated and out-of-range data. The properties every input must keep
 * are fuzz_image.h's (no crash or leak; a failure leaves *a empty with a message; a success is
 * a well-formed image that pl_pgm_write + pl_pgm_read give back unchanged).
 * Built and run by `make fuzz` (see tests/fuzz/README.md), never by the CMake build. */
#include "fuzz_image.h"

static char out_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_input_init("fuzz_pgm");
    fuzz_out_path(out_path, sizeof out_path, "pgm");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_image_one(data, size, pl_pgm_read, pl_pgm_write, out_path, SIZE_MAX);
}
