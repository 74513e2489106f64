#!/usr/bin/env bash
# test_mpi_gemm.sh: SUMMA GEMM across ranks (tests/mpi/gemm_check.c: seeded inputs scattered,
# the distributed product gathered and checked against the float64 reference within the GEMM
# bound, sizes that do not divide, refusals alike on every rank) on 1, 2, 3 and 4 ranks; a hang
# past 60 s fails.
. "$(dirname "$0")/mpi_lib.sh"
. "$(dirname "$0")/check_ranks.sh"
mpi_setup test_mpi_gemm
check_ranks gemm_check
summary test_mpi_gemm
