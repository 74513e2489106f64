/* verdict.c: one status for every rank of a collective library call (see dist/calls.h), on
 * the run's agree step (pl_dist_agree), so a rank that failed alone never leaves the others
 * in the next collective. */
#include "core/core.h"
#include "dist/calls.h"

pl_status pl_dist_verdict(pl_status mine)
{
    char first[1024];
    int from = -1;
    const int agreed = pl_dist_agree((int)mine, mine != PL_OK ? pl_last_error() : NULL, first, sizeof first, &from);
    if (agreed == PL_OK || mine != PL_OK) return (pl_status)agreed; /* a failing rank keeps its message */
    if (from >= 0) return pl_fail((pl_status)agreed, "rank %d: %s", from, first); /* rank 0 */
    return pl_fail((pl_status)agreed, "another rank failed (rank 0 has its message)");
}
