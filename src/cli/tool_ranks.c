/* tool_ranks.c: the tools' glue under mpirun (see tool_ranks.h). */
#include "cli/tool_ranks.h"

int tool_ranks_context(const pl_kernel *k, const tool_common *c, const pl_variant *v, pl_ctx **ctx)
{
    tool_common co = *c;
    pl_dist_share_node(&co.threads, &co.device);
    return cli_agree(tool_context(k, NULL, &co, v, ctx));
}

int tool_ranks_status(pl_status s) { return cli_agree(cli_status(s)); }

void tool_ranks_report(const pl_dist_times *mine)
{
    const pl_dist_times most = pl_dist_times_max(mine);
    printf("ranks (the slowest's): compute %.3f ms, exchange %.3f ms, wait %.3f ms\n", most.compute * 1e3,
           most.exchange * 1e3, most.wait * 1e3);
}

int tool_ranks_parsed(int rc)
{
    const int agreed = cli_agree(rc == CLI_GO_ON ? PL_EXIT_OK : rc);
    return rc != CLI_GO_ON ? rc : agreed ? agreed : CLI_GO_ON;
}
