#!/usr/bin/env bash
# test_mpi_reduce.sh: reductions and dot across ranks (tests/mpi/reduce_check.c: every op and
# axis, the result on rank 0 or on every rank, checked against the float64 reference within the
# reduce and dot bounds, min/max and one rank bit for bit, NaN kept) on 1, 2, 3 and 4 ranks; a
# hang past 60 s fails.
. "$(dirname "$0")/mpi_lib.sh"
. "$(dirname "$0")/check_ranks.sh"
mpi_setup test_mpi_reduce
check_ranks reduce_check
summary test_mpi_reduce
