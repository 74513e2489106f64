/* fuzz_input.h: what every file-reader fuzz target shares. Each input is a whole file written
 * to an in-memory file (memfd) and read back through /proc/self/fd/N, so the reader's real entry
 * point runs, fstat size checks included; fuzz_out_path gives a per-process temporary name for
 * the write-then-read-again checks. A failed property aborts (libFuzzer keeps the input). */
#ifndef PL_FUZZ_INPUT_H
#define PL_FUZZ_INPUT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int fuzz_fd = -1;
static char fuzz_in_path[64];
static const char *fuzz_name = "fuzz";

static void fuzz_die(const char *what)
{
    fprintf(stderr, "%s: %s\n", fuzz_name, what);
    abort(); /* libFuzzer saves the input that got here */
}

/* Once, from LLVMFuzzerInitialize: the memfd the inputs go through. */
static void fuzz_input_init(const char *name)
{
    fuzz_name = name;
    fuzz_fd = memfd_create(name, 0);
    if (fuzz_fd < 0) fuzz_die("memfd_create failed");
    snprintf(fuzz_in_path, sizeof fuzz_in_path, "/proc/self/fd/%d", fuzz_fd);
}

/* "$TMPDIR/<name>_out.<pid>.<ext>" into buf. */
static void fuzz_out_path(char *buf, size_t n, const char *ext)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(buf, n, "%s/%s_out.%ld.%s", tmp && *tmp ? tmp : "/tmp", fuzz_name, (long)getpid(), ext);
}

/* Each input: the memfd holds exactly these bytes; returns the path to read. */
static const char *fuzz_input_file(const uint8_t *data, size_t size)
{
    if (ftruncate(fuzz_fd, 0) != 0) fuzz_die("ftruncate failed");
    if (size > 0 && pwrite(fuzz_fd, data, size, 0) != (ssize_t)size) fuzz_die("pwrite failed");
    return fuzz_in_path;
}

#endif
