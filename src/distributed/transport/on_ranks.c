/* on_ranks.c: which commands of `parlab` run on the ranks of mpirun -n P (see distributed.h):
 * the one table of them, so a command or kernel that does not run distributed is named nowhere
 * in this floor. The command refuses the others under mpirun on more than one rank. */
#include "distributed/transport/distributed.h"

#include <string.h>

static const char *const on_ranks[] = {"bench", "gemm", "reduce", "conv2d", "entropy", "life", "mem"};

int pl_dist_runs_command(const char *name)
{
    for (size_t i = 0; i < sizeof on_ranks / sizeof *on_ranks; i++)
        if (!strcmp(name, on_ranks[i])) return 1;
    return 0;
}
