/* tool.h: what the file tools share (`parlab gemm`, gemv, transpose, reduce, dot, conv2d,
 * entropy, life): the common options (their rows in options.h), float32 .npy inputs checked
 * for dtype and rank, the variant by name, and memory checked before anything is
 * read or allocated. Every function that can fail prints the error (prefixed with the
 * command's name) and returns the exit status: 0 ok, 1 runtime failure, 2 usage error. */
#ifndef PL_CLI_TOOL_H
#define PL_CLI_TOOL_H

#include "cli/options.h"
#include "harness/harness.h"

/* The help lines of the options every file tool takes but -o and --variant (whose text
 * names the tool's own file and kernel), for the tools' usage strings. */
#define TOOL_USAGE_OPTIONS                                                                         \
    "  --threads N         " CLI_THREADS_HELP "\n"                                              \
    "  --backend B         cpu, cuda or auto (default: auto; with --variant, the\n"                 \
    "                      variant's own backend)\n"                                                \
    "  --device D          CUDA device ordinal (default 0)\n"                                       \
    "  -h, --help          show this help\n"

/* What a file tool's -o does (docs/output.md, "Outputs"), for the usage strings; the binary
 * formats' tools add TOOL_USAGE_NO_STDOUT. */
#define TOOL_USAGE_OUTPUT                                                                          \
    "The output (-o) is checked before any input is read: a directory, one of the inputs,\n"      \
    "or a place no file can be created in (a missing or read-only directory) is a usage\n"       \
    "error (2). A symbolic link is followed (its target gets the output, the link stays);\n"     \
    "a device or FIFO (/dev/null, a named pipe) is written through; a file is written\n"         \
    "whole or not at all (a temporary file beside it, renamed; removed on a failure and on\n"   \
    "SIGINT or SIGTERM). A write that fails after the run (a full disk) is exit 1.\n"
#define TOOL_USAGE_NO_STDOUT "-o - (standard output) is refused: the output is binary; name a file.\n"

/* The options every file tool takes, as tool_common_option fills them: -o/--output, --variant,
 * --threads, --device, --backend (the rows CLI_ROWS_OUTPUT and CLI_ROWS_RUN; a tool without -o
 * leaves CLI_ROWS_OUTPUT out of its table). Start from TOOL_COMMON_INIT. */
typedef struct tool_common {
    const char *out_path, *variant_name; /* NULL: not given */
    long threads, device;                /* 0: the defaults */
    pl_backend backend;
    int backend_given;
} tool_common;
#define TOOL_COMMON_INIT {NULL, NULL, 0, 0, PL_BACKEND_AUTO, 0}
/* The value of one of the common options (o->id a CLI_OPT_* id) into c; returns 0, or the exit
 * status of a bad value with the message printed. */
int tool_common_option(const char *cmd, tool_common *c, const cli_opt *o, const char *val);
/* Exit 2 with "CMD: needs an output file: -o EXAMPLE" where c has none. */
int tool_need_output(const char *cmd, const tool_common *c, const char *example);

/* The pre-flight check of an output (OPT OUT, "-o B.npy"), before any input is read or any
 * work runs; every refusal is exit 2 with "CMD: OPT OUT: why":
 *   - a directory, a socket, a block device; a directory the file cannot be created in
 *     (missing, read-only, /proc); a link loop (pl_output_check);
 *   - the same file as one of the inputs (same device and inode, links followed);
 *   - "-" where stdout_mode is TOOL_OUT_FILE_ONLY (a binary format, a directory of files).
 * With TOOL_OUT_STDOUT, "-" is standard output and the command's own printing (tables,
 * summary lines) moves to stderr; with TOOL_OUT_STDOUT_ALONE the command prints nothing else
 * on stdout itself. A write that fails later (a full disk) is the command's exit 1. */
enum { TOOL_OUT_FILE_ONLY = 0, TOOL_OUT_STDOUT, TOOL_OUT_STDOUT_ALONE };
int tool_check_output(const char *cmd, const char *opt, const char *out, const char *const *inputs, int n_inputs,
                      int stdout_mode);

int tool_parse_real(const char *cmd, const char *opt, const char *text, float *out);
int tool_parse_backend(const char *cmd, const char *text, pl_backend *b);

/* The variant --variant named (none: *v = NULL), one this build and machine can run; unless
 * --backend was given, c's backend becomes its backend. An unknown name lists the valid ones
 * (exit 2). */
int tool_find_variant(const char *cmd, const pl_kernel *k, tool_common *c, const pl_variant **v);

/* bytes against the host memory this process may take (exit 2 naming both, in GiB). */
int tool_fits_host(const char *cmd, const char *what, double bytes);
/* A float32 array of rank 1 or 2 and this shape, its bytes checked against the host memory
 * first: "CMD: WHAT: about ... GiB" (exit 2), or "CMD: cannot allocate WHAT" (exit 1). */
int tool_alloc_f32(const char *cmd, const char *what, int rank, const int64_t *shape, pl_array *a);
/* pl_npy_write, its failure printed (exit 1). */
int tool_write_npy(const char *path, const pl_array *a);
/* Size of a file in bytes (0 if it cannot be read: pl_npy_read will say why). */
double tool_file_bytes(const char *path);
/* Read a float32 .npy of rank min_rank..max_rank (1..2: a vector or a matrix): a file of
 * another type is a runtime failure (exit 1) naming the file and what it holds. */
int tool_read_f32(const char *cmd, const char *path, int min_rank, int max_rank, pl_array *a);
/* The same for a float32 or a bfloat16 .npy (parlab gemm's A and B). */
int tool_read_f32_or_bf16(const char *cmd, const char *path, int min_rank, int max_rank, pl_array *a);

/* The library's pl_tool_context and pl_tool_run (harness.h) with the tool's backend, device
 * and threads; the exit status (a problem too big for the device: 2; no rung: 1). */
int tool_context(const pl_kernel *k, const void *problem, const tool_common *c, const pl_variant *v, pl_ctx **ctx);
typedef pl_rung_call tool_run_fn;
int tool_run(const pl_kernel *k, const void *problem, const tool_common *c, const pl_variant *v, tool_run_fn run,
             void *user, const char **ran, double *ms);

#endif
