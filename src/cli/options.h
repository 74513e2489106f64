/* options.h: the one option mechanism every `parlab` command reads. A command declares its
 * options as a table of rows (name, the value's name or NULL for a flag, an id), and one
 * argument loop, cli_parse, walks argv over it: positional arguments, "--" (all after it are
 * positional), -h/--help, "--opt V" and "--opt=V", flags. The value of each option goes to the
 * command's take function by id; the options several commands share (-o, --variant, --threads,
 * --device, --backend) have common ids and one parser each (options.c, tool.c).
 *
 * The rules, one for every command (docs/architecture.md, "One option table"):
 *   - an unknown option:         "CMD: unknown option 'ARG' (see parlab CMD --help)"       exit 2
 *   - a value missing at the end: "CMD: OPT needs a value (METAVAR)"                         exit 2
 *   - a value given to a flag:    "CMD: OPT takes no value"                                   exit 2
 *   - an empty value:             "CMD: OPT: '' is not a value"                               exit 2
 *   - "-" and a word like "-4" (a minus and a digit) are positional arguments, not options. */
#ifndef PL_CLI_OPTIONS_H
#define PL_CLI_OPTIONS_H

#include "cli/cli.h"

/* One row of a command's option table. A short form is a row of its own with the same id
 * ("-o" beside "--output"). */
typedef struct cli_opt {
    const char *name; /* "--threads" */
    const char *arg;  /* the value's name in messages and help ("N", "FILE"); NULL: a flag */
    int id;           /* a CLI_OPT_* common id, or the command's own (from CLI_OPT_OWN on) */
    unsigned cmds;    /* a table shared by commands (bench, sweep): the ones that take it; 0: all */
    const char *help; /* for a table printed as help (bench, sweep); may hold '\n' for more lines */
} cli_opt;

/* The options several commands share; a command numbers its own from CLI_OPT_OWN. */
enum cli_opt_id { CLI_OPT_OUTPUT = 1, CLI_OPT_VARIANT, CLI_OPT_THREADS, CLI_OPT_DEVICE, CLI_OPT_BACKEND, CLI_OPT_OWN };

/* The rows of the file tools' shared options: -o/--output, and what picks and runs a rung. */
#define CLI_ROWS_OUTPUT {"-o", "OUT", CLI_OPT_OUTPUT, 0, NULL}, {"--output", "OUT", CLI_OPT_OUTPUT, 0, NULL}
#define CLI_ROWS_RUN                                                                                                   \
    {"--variant", "V", CLI_OPT_VARIANT, 0, NULL}, {"--threads", "N", CLI_OPT_THREADS, 0, NULL},                        \
        {"--device", "D", CLI_OPT_DEVICE, 0, NULL}, {"--backend", "B", CLI_OPT_BACKEND, 0, NULL}

/* What an argument loop reads. Positional arguments go to pos (room for max_pos; one more is
 * "CMD: unexpected argument 'ARG' (takes TAKES; see --help)"), or, with pos NULL, to take with
 * opt NULL. */
typedef struct cli_args {
    const char *cmd; /* "gemm", for the messages */
    const cli_opt *opts;
    int n_opts;
    unsigned cmd_bit; /* the rows whose cmds has it (or 0) are this command's */
    const char **pos;
    int max_pos, n_pos;
    const char *takes;
} cli_args;

/* The value of one option (opt NULL: a positional argument, val). Returns 0, or the exit status
 * of a bad value with its message printed. */
typedef int (*cli_take_fn)(void *user, const cli_opt *opt, const char *val);

enum { CLI_GO_ON = -1 };
/* The whole argument loop over argv[1..argc-1]. Returns CLI_GO_ON when every argument was
 * taken; else the exit status to return now: 0 after -h/--help (usage printed on stdout), 2 a
 * usage error (its message printed), or what take returned. */
int cli_parse(cli_args *a, int argc, char **argv, cli_take_fn take, void *user, void (*usage)(FILE *));

/* The rows of this command that have help, one per option: "  NAME ARG" padded to 26
 * columns, then the help (its further lines indented as far). */
void cli_options_help(FILE *f, const cli_opt *opts, int n_opts, unsigned cmd_bit);

/* The one --threads: 1..4096; more than the cores here is allowed, with a note on stderr (the
 * threads share cores). The one --device: a CUDA device ordinal, 0..1023 (the context says
 * whether this machine has it). Exit status (2 with the message naming the value). */
int cli_parse_threads(const char *val, long *threads);
int cli_parse_device(const char *val, long *device);

#endif
