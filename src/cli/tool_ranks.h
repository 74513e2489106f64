/* tool_ranks.h: the command's glue for the tools under mpirun: exit statuses agreed by every
 * rank (cli_agree), the context with the node shared among its ranks, the slowest rank's times
 * printed. The steps themselves (the .npy files block by block, the node's share) are the
 * distributed floor's (src/distributed/npy/npy_tools.h). */
#ifndef PL_CLI_TOOL_RANKS_H
#define PL_CLI_TOOL_RANKS_H

#include "cli/tool.h"
#include "distributed/npy/npy_tools.h"

/* The context (tool_context) with the node's share a rank takes (pl_dist_share_node), agreed. */
int tool_ranks_context(const pl_kernel *k, const tool_common *c, const pl_variant *v, pl_ctx **ctx);
/* A status from a collective library call (the same on every rank) as the agreed exit status. */
int tool_ranks_status(pl_status s);
/* "ranks (the slowest's): compute ... ms, exchange ... ms, wait ... ms" (printed by rank 0). */
void tool_ranks_report(const pl_dist_times *mine);
/* The command line's verdict (rc: CLI_GO_ON or an exit status) agreed by every rank, for a
 * command whose output rank 0 alone checked: CLI_GO_ON when every rank goes on. */
int tool_ranks_parsed(int rc);

#endif
