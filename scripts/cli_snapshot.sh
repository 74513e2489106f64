#!/usr/bin/env bash
# cli_snapshot.sh PARLAB OUTDIR: what the command line prints, with the measured figures masked,
# for comparing two builds before and after a change that should not alter the output
# (`diff -r OLD NEW`). Every help text and `parlab list` are kept byte for byte; in the bench
# tables and JSON a number with a decimal point or an exponent (times, rates, errors, %peak,
# ratios), a timestamp, a load average and the sweep's pick are replaced by '#' (runs of blanks
# before one too, and before the last column, as the width of a column follows its numbers), so the columns,
# rows, notes, keys and verdicts are what is compared. Usage errors are kept whole, exit status too.
set -u
parlab=$1 out=$2
mkdir -p "$out"
cache=$(mktemp -d) work=$(mktemp -d)
# SNAP_PEAKS=DIR: a peaks cache to start from (the same for both snapshots: PARLAB_PEAKS_SANITY=off
# PARLAB_CACHE_DIR=DIR parlab peaks --quick), else measured here
[ -n "${SNAP_PEAKS:-}" ] && cp -r "$SNAP_PEAKS"/. "$cache"/
trap 'rm -rf "$cache" "$work"' EXIT
export PARLAB_CACHE_DIR=$cache PARLAB_QUIET=1
mask() {
    sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]+Z/#T/g' -e 's/load [0-9.]+/load #/g' \
        -e 's/"(repeats|warmup_runs|timed_runs|samples)": *[0-9]+/"\1": #/g' \
        -e 's/ *-?[0-9]+\.[0-9]+(e[-+]?[0-9]+)?/ #/g' -e 's/ *-?[0-9]+e[-+][0-9]+/ #/g' \
        -e 's/  \(noisy: max\/min #\)//' -e 's/"noisy": (true|false)/"noisy": #/g' \
        -e 's#^(\#\# )[^ ]*/parlab #\1parlab #' -e 's#(mpirun .*-n [0-9]+ )[^ ]*parlab #\1parlab #' \
        -e '/^ +[0-9]+  [0-9]+x[0-9]+ /{s/ +[0-9]+(\.[0-9]+)?%?/ #/g;s/  +/ /g}' -e 's/beta [0-9]+ GB/beta # GB/' -e 's/Process name: .*/Process name: #/' \
        -e 's/^(best at [^:]*:) [^ ]*/\1 #/' -e 's/ +#/ #/g' -e 's/ +(vs peer|-)$/ \1/'
}
run() {  # run NAME ARGS...: stdout, stderr and the exit status of one command, masked
    local name=$1; shift
    { "$@" >"$work/o" 2>"$work/e"; echo "exit $?" >"$work/s"; } </dev/null
    { echo "## $*"; cat "$work/o"; echo "## stderr"; cat "$work/e"; cat "$work/s"; } | mask >"$out/$name.txt"
}
run help "$parlab" --help
for c in list peaks bench sweep gemm gemv transpose reduce dot conv2d entropy life report mem; do
    run "help-$c" "$parlab" "$c" --help
done
run list "$parlab" list
kernels="gemm gemv transpose reduce dot conv2d entropy life"
for k in $kernels; do run "list-$k" "$parlab" list "$k"; done
[ -n "${SNAP_PEAKS:-}" ] || "$parlab" peaks >/dev/null 2>&1
for k in $kernels; do
    run "bench-$k" "$parlab" bench "$k" --size small --peer --repeats 3
    run "json-$k" "$parlab" bench "$k" --size small --variant all --repeats 3 --json -
done
run bench-odd "$parlab" bench gemm 7x13x5 33 --variant cpu-naive,cpu-packed --set alpha=2 --set beta=1 --repeats 3
run csv-gemv "$parlab" bench gemv --size 100 --variant cpu-simd --repeats 3 --csv -
run sweep "$parlab" sweep gemm --size 128 --variant cpu-simd-blocked --param block=32,64 --repeats 3
run bad-kernel "$parlab" bench nosuch
run bad-size "$parlab" bench gemm --size 0
run bad-variant "$parlab" bench gemm --variant nosuch
run bad-threads "$parlab" bench gemm --threads 0
run bad-threads-big "$parlab" bench gemm --threads 5000
run bad-set "$parlab" bench conv2d --set k=2
run too-big "$parlab" bench gemm --size 1000000
run bad-option "$parlab" bench life --frobnicate
if command -v mpirun >/dev/null && "$parlab" list | grep -q '^MPI:'; then
    mpi="mpirun --allow-run-as-root --oversubscribe -n 2"
    run mpi-life $mpi "$parlab" bench life 256 --variant cpu-bitpacked
    run mpi-life-size $mpi "$parlab" bench life --size 256 --variant cpu-bitpacked
    run mpi-conv2d $mpi "$parlab" bench conv2d 128 --variant cpu-blocked
    run mpi-gemm $mpi "$parlab" bench gemm 128 --variant cpu-packed
    run mpi-reduce $mpi "$parlab" bench reduce 256 --variant cpu-simd
    run mpi-entropy $mpi "$parlab" bench entropy 128 --variant cpu-sliding
fi
echo "snapshot: $(ls "$out" | wc -l) files in $out"
