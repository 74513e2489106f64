/* fault_rule.c: the fault rule (see distributed.h): a rank that failed alone never leaves the
 * others waiting in the next collective, and the run prints one message. Three faces of the
 * agree step (pl_dist_agree, ranks.c): on a library call's status with a "rank R:" message for
 * rank 0 (pl_dist_verdict, collective.h); on a status with the failing rank's message as it was
 * (pl_dist_agree_status: the distributed bench); and on the command's exit statuses with the
 * message a rank other than 0 kept instead of printing it (pl_dist_agree_kept). */
#include "core/core.h"
#include "distributed/transport/collective.h"

#include <stdio.h>

/* On a rank other than 0 of a run, the first error message of the command is kept here for
 * pl_dist_agree_kept instead of printed (rank 0 prints the one message of a run). */
static int errors_kept;
static char kept[1024];

void pl_dist_keep_errors(void) { errors_kept = 1; }

int pl_dist_keep_error(const char *msg)
{
    if (!errors_kept) return 0;
    if (!kept[0]) snprintf(kept, sizeof kept, "%s", msg ? msg : "");
    return 1;
}

int pl_dist_agree_kept(int rc, char *first, size_t n)
{
    int from = -1;
    rc = pl_dist_agree(rc, kept, first, n, &from);
    if (from <= 0 && first && n) first[0] = '\0'; /* rank 0 printed its own already */
    kept[0] = '\0';
    return rc;
}

pl_status pl_dist_agree_status(pl_status mine)
{
    char first[1024];
    int from = -1;
    const int agreed = pl_dist_agree((int)mine, mine != PL_OK ? pl_last_error() : NULL, first, sizeof first, &from);
    if (from > 0) return pl_fail((pl_status)agreed, "%s", first); /* rank 0: the failing rank's message */
    return (pl_status)agreed;
}

pl_status pl_dist_verdict(pl_status mine)
{
    char first[1024];
    int from = -1;
    const int agreed = pl_dist_agree((int)mine, mine != PL_OK ? pl_last_error() : NULL, first, sizeof first, &from);
    if (agreed == PL_OK || mine != PL_OK) return (pl_status)agreed; /* a failing rank keeps its message */
    if (from >= 0) return pl_fail((pl_status)agreed, "rank %d: %s", from, first); /* rank 0 */
    return pl_fail((pl_status)agreed, "another rank failed (rank 0 has its message)");
}
