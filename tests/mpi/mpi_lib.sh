# mpi_lib.sh: what the MPI tests (test_mpi_*.sh) share. Not a test itself; each sources it,
# then calls mpi_setup. PARLAB names the parlab executable, PL_HAVE_MPI whether the build has
# MPI, PL_TESTDIR a scratch directory.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"

# mpi_setup NAME: skipped (exit 77, "skipped: no MPI ...") in a build without MPI or where mpirun is
# missing; else cli_setup's scratch directory and counters.
mpi_setup() {
    [ "${PL_HAVE_MPI:-OFF}" = ON ] || skip_test "no MPI: this build has none (PARLAB_MPI)" "libopenmpi-dev openmpi-bin"
    command -v mpirun >/dev/null || skip_test "no MPI: no mpirun on PATH" "openmpi-bin"
    cli_setup "$1"
    # Open MPI refuses root unless told (CI runs as root); more ranks than cores (CI has 2);
    # shared memory between the ranks of this one machine.
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    # Under AddressSanitizer (PARLAB_SANITIZE), LeakSanitizer reports Open MPI's own allocations
    # at exit (ompi_op_base_op_select, its unloaded components): leak checks are off for these
    # runs; ASan's checks of every access stay on.
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    MPI_FLAGS=()
    if mpirun --version 2>&1 | grep -q "Open MPI"; then
        MPI_FLAGS=(--oversubscribe --mca btl self,vader --mca pml ob1)
    fi
}

# run_n P SECONDS CMD...: CMD on P ranks; a run past SECONDS is killed and counts as a hang
# (status 124). Output to out.txt / err.txt in the scratch directory; returns the status.
run_n() {
    local p=$1 secs=$2
    shift 2
    timeout -k 5 "$secs" mpirun -n "$p" "${MPI_FLAGS[@]}" "$@" >out.txt 2>err.txt
}

# summary NAME: "NAME: N passed, N failed", and the exit status.
summary() {
    echo "$1: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
