# check_ranks.sh: what the tests of the check programs beside dist_check share (not a test
# itself; sourced after mpi_lib.sh and mpi_setup).
# check_ranks PROGRAM: tests/mpi/PROGRAM.c's build (beside $PL_DIST_CHECK) on 1, 2, 3 and 4
# ranks, each run a pass or a failure with its output; a hang past 60 s fails.
check_ranks() {
    local check p
    check="$(dirname "$PL_DIST_CHECK")/$1"
    for p in 1 2 3 4; do
        if run_n "$p" 60 "$check"; then
            ok
        else
            bad "$1 on $p ranks: status $? $(cat out.txt err.txt | grep -v '^---\|^ *$' | head -20)"
        fi
    done
}
