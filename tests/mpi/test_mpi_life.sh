#!/usr/bin/env bash
# test_mpi_life.sh: `mpirun -n P parlab life` (src/distributed/life/life_ranks.c) against the one-process run, bit
# for bit: the RLE it writes and the generation lines it prints, on 1, 2, 3 and 4 ranks (3: a
# grid of ranks that is not square), sizes that do not divide (67x61, 1000x1001), torus and
# plane, several rules, a pattern read from a file, hundreds of generations, halo depths 1 and
# more, with and without overlap. Then the faults: each run stops on every rank with one message
# and the one-process exit status, nothing written, and a hang past 60 s fails.
. "$(dirname "$0")/mpi_lib.sh"
mpi_setup test_mpi_life
data="$(cd "$(dirname "$0")/../data/life" && pwd)"

# same CASE GENS ARGS...: the one-process run, then each rank count with two halo settings;
# the outputs and the "generation" lines must be the same.
same() {
    local case=$1 gens=$2
    shift 2
    "$PARLAB" life "$@" --gens "$gens" --every 20 -o one.rle >one.txt 2>&1 || { bad "$case: one process: $(cat one.txt)"; return; }
    grep '^generation' one.txt >one.gen
    local p opts
    for p in 1 2 3 4; do
        for opts in "--halo 1 --overlap off" "--halo 9 --overlap on" ""; do
            rm -f r.rle
            # shellcheck disable=SC2086
            if ! run_n "$p" 60 "$PARLAB" life "$@" --gens "$gens" --every 20 -o r.rle $opts; then
                bad "$case on $p ranks ($opts): status $?: $(head -3 err.txt)"
                continue
            fi
            if cmp -s one.rle r.rle && grep '^generation' out.txt | cmp -s - one.gen; then ok
            else bad "$case on $p ranks ($opts): not the one-process run's output ($(grep '^generation' out.txt | tail -1))"; fi
        done
    done
}

same "67x61 torus B3/S23" 300 --soup 67x61 --density 0.4 --seed 3
same "67x61 plane B36/S23" 300 --soup 67x61 --plane 67x61 --rule B36/S23
# the sanitizer build (-O0, every access checked) runs the large grids for fewer generations
big_gens=200
[ "${PL_SANITIZE:-OFF}" = ON ] && big_gens=40
same "1000x1001 torus B36/S23" "$big_gens" --soup 1000x1001 --rule B36/S23 --seed 5
same "1000x1001 plane B3/S23" "$big_gens" --soup 1000x1001 --plane 1000x1001
same "Gosper gun on a 100x83 plane" 500 "$data/gosper_gun.rle" --plane 100x83
same "Gosper gun on a 67x61 torus B2/S" 100 "$data/gosper_gun.rle" --torus 67x61 --rule B2/S

# a run on ranks says where its time went
run_n 2 60 "$PARLAB" life --soup 67x61 --gens 10
grep -q "^ranks (the slowest's): compute .* ms, exchange .* ms, wait .* ms" out.txt && ok || bad "no time split: $(cat out.txt)"

# fails P EXPECTED_STATUS PATTERN CASE ARGS...: status as said, one message on stderr matching
# PATTERN, no output file (-o f.rle, or $out), no hang.
fails() {
    local p=$1 want=$2 pattern=$3 case=$4
    shift 4
    rm -f f.rle
    run_n "$p" 60 "$PARLAB" life "$@" -o "${out:-f.rle}"
    local st=$?
    local msgs
    msgs=$(grep -c '^parlab: error' err.txt)
    if [ "$st" -eq 124 ] || [ "$st" -eq 137 ]; then bad "$case on $p ranks: hung (killed after 60 s)"
    elif [ "$st" -ne "$want" ]; then bad "$case on $p ranks: status $st, not $want: $(head -3 err.txt)"
    elif [ "$msgs" -ne 1 ]; then bad "$case on $p ranks: $msgs error messages, not one: $(grep '^parlab' err.txt)"
    elif ! grep -q "$pattern" err.txt; then bad "$case on $p ranks: no '$pattern' in: $(grep '^parlab' err.txt)"
    elif [ -e f.rle ]; then bad "$case on $p ranks: an output was written"
    else ok; fi
}

# 1x1: one rank runs it as one process does; more ranks than rows are refused before running
"$PARLAB" life --soup 1x1 --gens 3 -o one.rle >/dev/null 2>&1
run_n 1 60 "$PARLAB" life --soup 1x1 --gens 3 -o r.rle && cmp -s one.rle r.rle && ok || bad "1x1 on one rank: $(cat err.txt)"
for p in 2 3 4; do fails "$p" 2 "larger than rows" "1x1" --soup 1x1 --gens 3; done
fails 4 2 "larger than rows" "a 3x1 plane" --soup 3x1 --plane 3x1 --gens 3

printf 'x = 3, y = 3, rule = B3/S23\nbo$2bo$3oqq!\n' >bad.rle
for p in 2 3; do
    fails "$p" 1 "no_such.rle" "a missing file" no_such.rle --torus 10x10 --gens 3
    fails "$p" 1 "bad.rle" "a malformed file" bad.rle --torus 10x10 --gens 3
    fails "$p" 2 "unbounded plane" "the unbounded plane" "$data/acorn.rle" --gens 3
    fails "$p" 2 "halo" "a halo deeper than a block" --soup 67x61 --halo 500 --gens 3
done
out=missing/dir/f.rle fails 3 2 "missing/dir/f.rle" "an output in a missing directory" --soup 67x61 --gens 3
summary test_mpi_life
