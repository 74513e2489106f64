#!/usr/bin/env bash
# test_mpi_dist.sh: the distributed layer's own checks (tests/mpi/dist_check.c: grid, blocks,
# scatter and gather, halo exchange, agree step, more ranks than rows refused) on 1, 2, 3 and 4
# ranks; a hang past 60 s fails.
. "$(dirname "$0")/mpi_lib.sh"
mpi_setup test_mpi_dist
for p in 1 2 3 4; do
    if run_n "$p" 60 "$PL_DIST_CHECK"; then
        ok
    else
        bad "dist_check on $p ranks: status $? $(cat out.txt err.txt | grep -v '^---\|^ *$' | head -20)"
    fi
done
summary test_mpi_dist
