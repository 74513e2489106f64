/* cli.h: what the `parlab` subcommands share. Each subcommand lives in its own file,
 * cmd_<name>.c, and is an int pl_cmd_<name>(int argc, char **argv) returning the exit
 * status: 0 success, 1 a run failed (verification, I/O, device), 2 usage error.
 * argv[0] is the subcommand's name. */
#ifndef PL_CLI_H
#define PL_CLI_H

#include "parlab.h"
#include <stdio.h>

enum { PL_EXIT_OK = 0, PL_EXIT_FAIL = 1, PL_EXIT_USAGE = 2 };

/* "parlab: error: <message>\n" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_error with the library's last message; returns the exit status a status maps to
 * (PL_ERR_ARG, PL_ERR_OVERFLOW and PL_ERR_TOO_BIG: bad input, or a problem too big for this
 * machine's memory, 2; anything else 1). */
int cli_fail(pl_status s);
/* A distributed run (mpirun, src/distributed/): on every rank but 0 cli_error's message is kept
 * (the floor's pl_dist_keep_errors) instead of printed; cli_agree is the fault rule's step that
 * EVERY rank calls at a point where one may have failed, with its exit status so far: it
 * returns the status of the lowest failing rank on every rank (0: none failed), whose message
 * rank 0 prints (its own was printed already). Outside a distributed run it returns rc. */
int cli_agree(int rc);
/* The exit status of a status every rank agreed on already (the distributed floor's calls):
 * 0, or cli_fail(s). */
int cli_status(pl_status s);
/* Split "a,b,c" into at most max items (pointers into a copy owned by the caller's buf). */
int cli_split(const char *list, char *buf, size_t bufsize, char **items, int max);
/* Parse an integer option value in lo..hi into *out; on error print it and return 2. */
int cli_parse_int(const char *opt, const char *text, long lo, long hi, long *out);

/* Each command's entry point, int pl_cmd_<name>(int argc, char **argv), is declared by the
 * command table in main.c, its one list. */

#endif
