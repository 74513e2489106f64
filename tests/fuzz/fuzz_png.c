/* fuzz_png.c: libFuzzer target for the PNG reader (src/io/png.c, through libpng): above all
 * its setjmp error paths, which must free what they allocated (LSan) and leave *a empty. The
 * properties every input must keep are fuzz_image.h's; the write-and-read-again check runs on
 * images of at most 64 KiB (writing a large one through zlib every time would slow the search).
 * Built and run by `make fuzz` (see tests/fuzz/README.md), never by the CMake build. */
#include "fuzz_image.h"

static char out_path[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_input_init("fuzz_png");
    fuzz_out_path(out_path, sizeof out_path, "png");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_image_one(data, size, pl_png_read, pl_png_write, out_path, (size_t)1 << 16);
}
