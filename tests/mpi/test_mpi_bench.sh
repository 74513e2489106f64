#!/usr/bin/env bash
# test_mpi_bench.sh: `parlab bench life` (and conv2d, entropy, gemm, reduce) under mpirun on 1, 2, 3 and 4 ranks: strong scaling of a
# size that does not divide (67x61: every rank's block checked exact against the reference), weak
# scaling (the problem grows with the grid), the JSON's fields, conv2d's and entropy's
# shared-bandwidth bound (bytes a run, the bound, its limit), SIZE given as --size S as the
# one-process bench takes it; and the faults: a kernel that
# does not run distributed, a bad --scale, more ranks than rows, a halo deeper than a block: each
# one message from rank 0, exit 2, never a hang (60 s). Then `parlab mem pingpong|halo` (the
# network model's measurements), and their refusals.
. "$(dirname "$0")/mpi_lib.sh"
mpi_setup test_mpi_bench

# expect_one_error STATUS WANT TEXT: the last run exited WANT with exactly one error line holding TEXT.
expect_one_error() {
    local st=$1 want=$2 text=$3 n
    n=$(grep -c '^parlab: error:' err.txt)
    if [ "$st" -eq "$want" ] && [ "$n" -eq 1 ] && grep -q -- "$text" err.txt; then ok; else
        bad "want status $want and one error with '$text', got $st and $n: $(head -5 err.txt)"; fi
}

for p in 1 2 3 4; do
    run_n "$p" 60 "$PARLAB" bench life 67x61 --scale strong --gens 30 --repeats 2 --json "b$p.json"
    st=$?
    if [ $st -eq 0 ] && grep -q '^check: exact, every cell' out.txt &&
        grep -Eq "^ +$p  [0-9]+x[0-9]+ +67x61 " out.txt && grep -q "(baseline)" out.txt; then ok; else
        bad "strong on $p ranks: status $st $(cat out.txt err.txt | head -20)"; fi
    if grep -q "\"ranks\": $p," "b$p.json" && grep -q '"efficiency": ' "b$p.json" && grep -q '"wait_s": ' "b$p.json" &&
        grep -q '"model_exchange_s": ' "b$p.json" && grep -q '"scale": "strong"' "b$p.json"; then ok; else
        bad "JSON on $p ranks: $(cat "b$p.json")"; fi
done
if command -v python3 >/dev/null; then
    python3 -c 'import json,sys; d=json.load(open("b4.json")); sys.exit(0 if d["grid"][0]*d["grid"][1]==4 and d["time_s"]>0 else 1)' &&
        ok || bad "b4.json does not parse or lacks its fields"
else
    echo "skipped: b4.json's parse check: no python3 (the grep checks above ran)"
fi

# weak: each rank's block keeps 64x48, the problem is the grid times that
run_n 4 60 "$PARLAB" bench life 64x48 --gens 10 --repeats 2
st=$?
if [ $st -eq 0 ] && grep -q "weak scaling" out.txt && grep -Eq '^ +4  2x2 +128x96 ' out.txt &&
    grep -Eq '^ +1  1x1 +64x48 ' out.txt; then ok; else bad "weak on 4 ranks: status $st $(cat out.txt err.txt | head)"; fi

# conv2d: a bounded image, each rank's output block checked against float64
for p in 3 4; do
    run_n "$p" 60 "$PARLAB" bench conv2d 67x61 --scale strong --repeats 2
    st=$?
    if [ $st -eq 0 ] && grep -q '^check: every pixel within' out.txt && grep -Eq "^ +$p  [0-9]x[0-9] +67x61 " out.txt; then
        ok; else bad "conv2d strong on $p ranks: status $st $(cat out.txt err.txt | head)"; fi
done

# entropy: each rank's block against the kernel's float64 reference
run_n 3 60 "$PARLAB" bench entropy 67x61 --scale strong --repeats 2
st=$?
if [ $st -eq 0 ] && grep -q '^check: every pixel within the spec' out.txt && grep -Eq "^ +3  [0-9]x[0-9] +67x61 " out.txt; then
    ok; else bad "entropy strong on 3 ranks: status $st $(cat out.txt err.txt | head)"; fi

# The shared-bandwidth bound (conv2d and entropy on the host path). The JSON's bytes a run are
# the least the busiest rank moves, worked out here from the size: a block reads itself and
# the r = 2 rows (or columns) its neighbour rank holds beside it (nothing past the image's edge)
# and writes itself. The bound is the larger of the rung's own time (the baseline's; over the
# ranks when strong) and memory's, limit names it, the table's row says the same. No timing
# thresholds: the speed targets are the bench's.
json_num() { grep -o "\"$2\": [^,}]*" "$1" | head -1 | sed 's/.*: //'; } # json_num FILE KEY
check_bound() { # check_bound JSON READ WRITTEN SHARE WHAT: SHARE 1 (weak) or the ranks (strong)
    local f=$1 want_r=$2 want_w=$3 share=$4 what=$5 r w base mem bound lim
    r=$(json_num "$f" run_bytes_read) w=$(json_num "$f" run_bytes_written) base=$(json_num "$f" baseline_s)
    mem=$(json_num "$f" memory_s) bound=$(json_num "$f" bound_s)
    lim=$(grep -o '"limit": "[a-z]*"' "$f" | sed 's/.*: "//; s/"$//')
    if [ "$r" = "$want_r" ] && [ "$w" = "$want_w" ]; then ok; else
        bad "$what: bytes a run $r read, $w written; want $want_r and $want_w"; fi
    if awk -v b="$base" -v m="$mem" -v x="$bound" -v l="$lim" -v p="$share" 'BEGIN {
        rung = b / p; want = m > rung ? m : rung; name = m > rung ? "memory" : "rung"
        same = p == 1 ? x == want : x - want <= 1e-8 * want && want - x <= 1e-8 * want
        exit !(m > 0 && b > 0 && same && l == name) }' &&
        grep -Eq "^ +[0-9]+  [0-9]x[0-9] .* $lim +[0-9.]+%$" out.txt && grep -q ' limit   vs bound$' out.txt; then ok; else
        bad "$what: bound $bound, limit $lim; baseline $base (over $share), memory $mem: $(tail -4 out.txt)"; fi
}
run_n 1 60 "$PARLAB" bench conv2d 256 --repeats 2 --json cb1.json
check_bound cb1.json $((256 * 256 * 4)) $((256 * 256 * 4)) 1 "conv2d's bound on 1 rank"
run_n 2 60 "$PARLAB" bench conv2d 256 --repeats 2 --json cb2.json
check_bound cb2.json $(((256 + 2) * 256 * 4)) $((256 * 256 * 4)) 1 "conv2d's bound on 2 ranks"
run_n 2 60 "$PARLAB" bench conv2d 256 --scale strong --repeats 2 --json cs2.json
check_bound cs2.json $(((128 + 2) * 256 * 4)) $((128 * 256 * 4)) 2 "conv2d's bound, strong on 2 ranks"
run_n 2 60 "$PARLAB" bench entropy 256 --repeats 2 --json eb2.json
check_bound eb2.json $(((256 + 2) * 256)) $((256 * 256 * 4)) 1 "entropy's bound on 2 ranks"
# a kernel without bytes a run (Life) keeps its table and JSON as they were
if ! grep -q 'bound' b2.json && run_n 2 60 "$PARLAB" bench life 64 --gens 4 --repeats 1 && ! grep -q 'bound' out.txt; then
    ok; else bad "life's table or JSON has a bound: $(grep bound b2.json out.txt | head -3)"; fi

# gemm (SUMMA on the host path here): shapes that do not divide, every element of each rank's
# block against float64; weak scaling keeps each rank's block of C and K
for p in 1 2 3 4; do
    run_n "$p" 60 "$PARLAB" bench gemm 67x61x45 --scale strong --repeats 2 --json "g$p.json"
    st=$?
    if [ $st -eq 0 ] && grep -q '^check: every element of each rank' out.txt &&
        grep -Eq "^ +$p  [0-9]x[0-9] +67x61 " out.txt && grep -q 'K 45, host path (MPI)' out.txt &&
        grep -q '"unit": "GFLOP/s"' "g$p.json" && grep -q '"note": "K 45' "g$p.json"; then ok; else
        bad "gemm strong on $p ranks: status $st $(cat out.txt err.txt | head)"; fi
done
# the model's traffic on 4 ranks (2x2): panels of 256 never cross a block edge (K 45: 23 + 22),
# a broadcast of A's panel (34 rows) and of B's (31 columns) each: 4 messages, 4(34 + 31) 45 bytes
if grep -q '"messages": 4,' g4.json && grep -q '"message_bytes": 11700,' g4.json; then ok; else
    bad "gemm's traffic on 4 ranks: $(grep -o '"messages.*bytes": [0-9]*' g4.json)"; fi
run_n 4 60 "$PARLAB" bench gemm 40x30x50 --repeats 2
st=$?
if [ $st -eq 0 ] && grep -Eq '^ +4  2x2 +80x60 ' out.txt && grep -Eq '^ +1  1x1 +40x30 ' out.txt && grep -q 'K 50' out.txt
then ok; else bad "gemm weak on 4 ranks: status $st $(cat out.txt err.txt | head)"; fi
# reduce: the sums of the rows, on every rank, each rank's rows checked
for p in 2 3 4; do
    run_n "$p" 60 "$PARLAB" bench reduce 67x61 --scale strong --repeats 2
    st=$?
    if [ $st -eq 0 ] && grep -q "^check: each rank's rows' sums within" out.txt &&
        grep -Eq "^ +$p  [0-9]x[0-9] +67x61 " out.txt && grep -q 'host path (MPI)' out.txt; then ok; else
        bad "reduce strong on $p ranks: status $st $(cat out.txt err.txt | head)"; fi
done

# the one-process bench's size syntax: --size S is SIZE, and the run says the same as the
# positional form's (the table's text, the problem of each row, the JSON's shape), figures aside
table_text() { # the title, path and check lines, each row's ranks, grid and problem
    sed -n '1,2p;4p' out.txt
    grep -E '^ +[0-9]+  [0-9]+x[0-9]+ ' out.txt | awk '{print $1, $2, $3}'
}
run_n 2 60 "$PARLAB" bench life 256 --gens 10 --repeats 2 --json pos.json
st=$?
table_text >pos.txt
run_n 2 60 "$PARLAB" bench life --size 256 --gens 10 --repeats 2 --json opt.json
st2=$?
table_text >opt.txt
if [ $st -eq 0 ] && [ $st2 -eq 0 ] && [ "$(wc -l <opt.txt)" -eq 5 ] && cmp -s pos.txt opt.txt &&
    grep -Eq '^2 2x1 256x512$' opt.txt &&
    [ "$(grep -o '"problem_rows_cols": [^]]*]' opt.json)" = "$(grep -o '"problem_rows_cols": [^]]*]' pos.json)" ]; then
    ok; else bad "bench life --size 256 on 2 ranks: status $st2 (positional $st): $(diff pos.txt opt.txt | head) $(head -3 err.txt)"; fi
# weak scaling on 2 ranks: every rank alone at once beside the one-rank baseline, and the
# efficiency against it is that time over the run's; strong scaling and one rank have none
crowd=$(json_num pos.json crowd_s) ceff=$(json_num pos.json crowd_efficiency) run=$(json_num pos.json time_s)
if grep -q '"scale": "weak"' pos.json && [ -n "$crowd" ] && [ -n "$ceff" ] &&
    awk -v c="$crowd" -v e="$ceff" -v t="$run" 'BEGIN { d = e - c / t; exit !(c > 0 && (d < 0 ? -d : d) <= 1e-6 * e) }' &&
    ! grep -q '"crowd' b1.json; then ok
else bad "crowd baseline: crowd_s '$crowd', crowd_efficiency '$ceff', time_s '$run'; one rank: $(grep -o '"crowd[^,]*' b1.json)"; fi
run_n 2 60 "$PARLAB" bench life --size=64x32 --scale strong --gens 4 --repeats 1
st=$?
if [ $st -eq 0 ] && grep -Eq '^ +2  [12]x[12] +64x32 ' out.txt; then ok; else
    bad "bench life --size=64x32 on 2 ranks: status $st $(cat out.txt err.txt | head)"; fi
run_n 2 60 "$PARLAB" bench life 256 --size 128; expect_one_error $? 2 "one SIZE a run"
run_n 2 60 "$PARLAB" bench life --size 128,256; expect_one_error $? 2 "one SIZE a run"
# the one-process bench's options that mean nothing under mpirun yet: named as such, exit 2
run_n 2 60 "$PARLAB" bench life 64 --min-time 0.1; expect_one_error $? 2 "--min-time is the one-process bench's"
run_n 2 60 "$PARLAB" bench gemm 64 --peer; expect_one_error $? 2 "--peer is the one-process bench's"

# the faults
run_n 2 60 "$PARLAB" bench transpose 64; expect_one_error $? 2 "does not run distributed yet"
run_n 4 60 "$PARLAB" bench gemm 4x4x1 --scale strong; expect_one_error $? 2 "larger than rows"
run_n 2 60 "$PARLAB" bench gemm 8x8x0; expect_one_error $? 2 "8x8x0"
run_n 3 60 "$PARLAB" bench life 64 --scale sideways; expect_one_error $? 2 "give weak or strong"
run_n 4 60 "$PARLAB" bench life 1x1 --scale strong; expect_one_error $? 2 "larger than rows"
run_n 2 60 "$PARLAB" bench life 64x64 --scale strong --halo 40; expect_one_error $? 2 "allows at most 32"
# the network model's measurements: ping-pong and halo, each size's time beside the model's
run_n 2 60 "$PARLAB" mem pingpong --reps 5
st=$?
if [ $st -eq 0 ] && grep -Eq '^model: alpha [0-9.]+ us, beta [0-9.e+-]+ GB/s' out.txt &&
    [ "$(grep -Ec '^ +[0-9]+ +[0-9.]+ +[0-9.e+-]+ +[0-9.]+ +[0-9.]+$' out.txt)" -eq 8 ]; then ok; else
    bad "mem pingpong: status $st $(cat out.txt err.txt | head -20)"; fi
run_n 3 60 "$PARLAB" mem halo --reps 3 --halo 2
st=$?
if [ $st -eq 0 ] && grep -q 'depth 2' out.txt && grep -Eq '^ +4096 +131136 ' out.txt; then ok; else
    bad "mem halo: status $st $(cat out.txt err.txt | head -20)"; fi
run_n 2 60 "$PARLAB" mem stream; expect_one_error $? 2 "only pingpong and halo"
"$PARLAB" mem pingpong >out.txt 2>err.txt; expect_one_error $? 2 "run it under mpirun on 2 or more ranks"
summary test_mpi_bench
