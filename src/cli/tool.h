/* tool.h: what the file tools share (`parlab gemm`, and the next kernels' gemv, transpose,
 * reduce, dot): the argument loop, options parsed with clear messages, float32 .npy inputs
 * checked for dtype and rank, the variant by name, and memory checked before anything is
 * read or allocated. Every function that can fail prints the error (prefixed with the
 * command's name) and returns the exit status: 0 ok, 1 runtime failure, 2 usage error. */
#ifndef PL_CLI_TOOL_H
#define PL_CLI_TOOL_H

#include "cli/cli.h"

/* The help lines of the options every file tool takes but -o and --variant (whose text
 * names the tool's own file and kernel), for the tools' usage strings. */
#define TOOL_USAGE_OPTIONS                                                                         \
    "  --threads N         CPU threads (default: OMP_NUM_THREADS, else one per core)\n"             \
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

/* The argument loop: positionals, "--" (all after are positionals), -h/--help, options with
 * a value ("--opt V" or "--opt=V", never empty) and flags without one. */
typedef struct tool_args {
    const char *cmd;                /* "gemm", for the messages */
    int argc;
    char **argv;
    const char *const *with_value;  /* NULL-terminated: options that take a value */
    const char *const *flags;       /* NULL-terminated: options that take none; may be NULL */
    int i;                          /* the next argument (start at 1) */
    int only_positional;
} tool_args;
enum { TOOL_END = 0, TOOL_POSITIONAL, TOOL_OPTION, TOOL_HELP, TOOL_ERROR };
/* The next argument: TOOL_POSITIONAL (*val), TOOL_OPTION (name; *val, NULL for a flag),
 * TOOL_HELP, TOOL_END, or TOOL_ERROR (message printed; exit 2). */
int tool_next(tool_args *t, char *name, size_t name_size, const char **val);

/* The options every file tool takes, as tool_common_option fills them: -o/--output, --variant,
 * --threads, --device, --backend. Start from TOOL_COMMON_INIT. */
typedef struct tool_common {
    const char *out_path, *variant_name; /* NULL: not given */
    long threads, device;                /* 0: the defaults */
    pl_backend backend;
    int backend_given;
} tool_common;
#define TOOL_COMMON_INIT {NULL, NULL, 0, 0, PL_BACKEND_AUTO, 0}
/* An option from tool_next: one of the common ones is parsed into c (*handled = 1; returns 0,
 * or the exit status of a bad value with the message printed); another, *handled = 0. A tool
 * without -o leaves it out of its tool_args list (tool_next refuses it there). */
int tool_common_option(const char *cmd, tool_common *c, const char *name, const char *val, int *handled);
/* A positional argument into pos[*n_pos] (pos has room for max); one too many is a usage
 * error, "CMD: unexpected argument 'VAL' (takes TAKES; see --help)" (exit 2). */
int tool_positional(const char *cmd, const char *val, const char **pos, int *n_pos, int max, const char *takes);
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

/* The end of a tool for a TOOL_HELP (usage on stdout, exit 0) or TOOL_ERROR (exit 2; the
 * message is printed): `if (kind == TOOL_HELP || kind == TOOL_ERROR) return tool_stop(kind, usage);` */
int tool_stop(int kind, void (*usage)(FILE *));

int tool_parse_real(const char *cmd, const char *opt, const char *text, float *out);
int tool_parse_backend(const char *cmd, const char *text, pl_backend *b);

/* The variant named (name NULL: none, *v = NULL), one this build and machine can run; unless
 * backend_given, *backend becomes its backend. An unknown name lists the valid ones (exit 2). */
int tool_find_variant(const char *cmd, const pl_kernel *k, const char *name, const pl_variant **v,
                      pl_backend *backend, int backend_given);

/* bytes against the host memory this process may take (exit 2 naming both, in GiB). */
int tool_fits_host(const char *cmd, const char *what, double bytes);
/* Size of a file in bytes (0 if it cannot be read: pl_npy_read will say why). */
double tool_file_bytes(const char *path);
/* Read a float32 .npy of rank min_rank..max_rank (1..2: a vector or a matrix): a file of
 * another type is a runtime failure (exit 1) naming the file and what it holds. */
int tool_read_f32(const char *cmd, const char *path, int min_rank, int max_rank, pl_array *a);

/* The context; for CUDA, the device fit of the kernel's problem of this size and problem
 * parameters (pv NULL: defaults; exit 2 when it does not fit), and a named variant must match the context's backend. */
int tool_context(const char *cmd, const pl_kernel *k, const char *size, const pl_pvalues *pv, pl_backend backend,
                 long device, long threads, const pl_variant *v, pl_ctx **ctx);

double tool_now(void);

#endif
