/* cmd_bench_ranks.h: `parlab bench` under mpirun (cmd_bench_ranks.c), which pl_cmd_bench runs
 * instead of the one-process bench when the process is a rank of a run. */
#ifndef PL_CLI_CMD_BENCH_RANKS_H
#define PL_CLI_CMD_BENCH_RANKS_H

/* The distributed bench. Exit status, the same on every rank. */
int bench_ranks(int argc, char **argv);

#endif
