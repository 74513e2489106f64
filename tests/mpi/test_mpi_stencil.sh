#!/usr/bin/env bash
# test_mpi_stencil.sh: the distributed conv2d and entropy (tests/mpi/stencil_check.c: every
# border, mode and dtype, K 1..7, entropy k 3..7 and bins 16, 256, sizes that do not divide,
# against the one-process rung; a grid too fine for the halo; faults on one rank) on 1, 2, 3
# and 4 ranks; a hang past 120 s fails.
. "$(dirname "$0")/mpi_lib.sh"
mpi_setup test_mpi_stencil
check="$(dirname "$PL_DIST_CHECK")/stencil_check"
for p in 1 2 3 4; do
    if OMP_NUM_THREADS=1 run_n "$p" 120 "$check"; then
        ok
        grep "stencil_check rank 0" out.txt
    else
        bad "stencil_check on $p ranks: status $? $(cat out.txt err.txt | grep -v '^---\|^ *$' | head -20)"
    fi
done
summary test_mpi_stencil
