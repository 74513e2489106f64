#!/usr/bin/env bash
# test_mpi_npy.sh: the ranks read and write their blocks of .npy files with MPI-IO
# (tests/mpi/npy_check.c: round trips of sizes that do not divide, byte-equal to the
# one-process writer; faults fail on every rank, nothing half-written) on 1, 2, 3 and 4 ranks;
# a hang past 90 s fails.
. "$(dirname "$0")/mpi_lib.sh"
mpi_setup test_mpi_npy
for p in 1 2 3 4; do
    rm -rf "$PWD/npy$p" && mkdir -p "$PWD/npy$p"
    if run_n "$p" 90 "$PL_NPY_CHECK" "$PWD/npy$p"; then
        ok
    else
        bad "npy_check on $p ranks: status $? $(cat out.txt err.txt | grep -v '^---\|^ *$' | head -20)"
    fi
done
summary test_mpi_npy
