# test_cli_life.sh: `parlab life` end to end. A blinker, a glider and the Gosper gun as RLE and
# .cells files, run on the unbounded plane, on the grid the file's suffix names and on
# --torus/--plane overrides; the populations and the written patterns checked (the file written
# read back by parlab itself, and a glider on a torus back where it started). Bad input: exit 2
# naming the value, or 1 for a malformed file (with its line); nothing written on failure.
. "$(dirname "$0")/cli_lib.sh"
cli_setup cli_life

printf '#N Blinker\nx = 3, y = 1, rule = B3/S23\n3o!\n' >blinker.rle
printf '!Name: Glider\n.O.\n..O\nOOO\n' >glider.cells
printf 'x = 3, y = 3, rule = B3/S23:T8,8\nbo$2bo$3o!\n' >glider_t8.rle
cp "$(dirname "$0")/data/life/gosper_gun.rle" gun.rle

# pop FILE GEN: the population printed for generation GEN in out.txt
pop() { sed -n "s/^generation $1: population \([0-9]*\),.*/\1/p" out.txt; }

run 0 "blinker" life blinker.rle --gens 1 -o b1.rle &&
    { grep -q "^generation 1: population 3, box 1x3 at (1, -1)" out.txt && ok || bad "blinker: $(cat out.txt)"; }
grep -q "^x = 1, y = 3, rule = B3/S23" b1.rle && grep -q "^#R 1 -1" b1.rle && ok || bad "blinker output: $(cat b1.rle)"
run 0 "blinker back" life b1.rle --gens 1 -o b2.rle &&
    { grep -q "^generation 1: population 3, box 3x1 at (0, 0)" out.txt && ok || bad "blinker back: $(cat out.txt)"; }

run 0 "gun, every 30" life gun.rle --gens 300 --every 30
[ "$(pop 30)" = 41 ] && [ "$(pop 150)" = 61 ] && [ "$(pop 300)" = 86 ] && ok || bad "gun populations: $(cat out.txt)"
run 0 "gun, bounded plane" life gun.rle --gens 300 --plane 200x200 --variant cpu-bitpacked
[ "$(pop 300)" = 86 ] && ok || bad "gun on a plane: $(cat out.txt)"
run 0 "gun, naive on the plane" life gun.rle --gens 300 --plane 200x200 --variant cpu-naive
[ "$(pop 300)" = 86 ] && ok || bad "gun by cpu-naive: $(cat out.txt)"

# the file's torus: a glider is back after 4*8 generations; written whole with its suffix
run 0 "glider on its torus" life glider_t8.rle --gens 32 -o g32.rle &&
    grep -q "on a 8x8 torus" out.txt && ok || bad "glider torus: $(cat out.txt)"
grep -q "^x = 8, y = 8, rule = B3/S23:T8,8" g32.rle && ok || bad "torus output header: $(head -3 g32.rle)"
run 0 "glider torus again" life g32.rle --gens 32 -o g64.rle
run 0 "start, as written" life glider_t8.rle --gens 0 -o g0.rle
# centred as Golly centres it: the 3x3 box's top-left at (8/2 - 3/2, 8/2 - 3/2) = (3, 3)
grep -q "generation 0: population 5, box 3x3 at (3, 3)" out.txt && grep -qx '3\$4bo\$5bo\$3b3o!' g0.rle && ok ||
    bad "the glider is not centred on its torus: $(cat out.txt g0.rle)"
cmp -s g0.rle g64.rle && ok || bad "glider not back after 64 generations: $(cat g0.rle) vs $(cat g64.rle)"
# .cells in, .cells out; --torus overrides the unbounded plane
run 0 "glider .cells on a torus" life glider.cells --gens 40 --torus 10x10 -o g.cells &&
    { grep -q "^generation 40: population 5" out.txt && ok || bad "glider cells: $(cat out.txt)"; }
grep -q '^!' g.cells && ok || bad "the .cells output has no comment line: $(cat g.cells)"
# one soup by three rungs: the populations on the way and the pattern written must agree with
# cpu-naive's (not only the exit status)
run 0 "soup" life --soup 300x200 --density 0.3 --seed 7 --gens 20 --every 10 --variant cpu-threads -o soup_t.rle
t10=$(pop 10) t20=$(pop 20)
run 0 "soup, same seed" life --soup 300x200 --density 0.3 --seed 7 --gens 20 --every 10 --variant cpu-bitpacked -o soup_b.rle
b10=$(pop 10) p1=$(pop 20)
run 0 "soup again" life --soup 300x200 --density 0.3 --seed 7 --gens 20 --every 10 --variant cpu-naive -o soup_n.rle
[ -n "$p1" ] && [ "$(pop 20)" = "$p1" ] && [ "$(pop 10)" = "$b10" ] && ok || bad "soups differ: $p1 vs $(pop 20)"
[ -n "$t20" ] && [ "$t20" = "$(pop 20)" ] && [ "$t10" = "$(pop 10)" ] && ok ||
    bad "cpu-threads' soup populations $t10, $t20; cpu-naive's $(pop 10), $(pop 20)"
cmp -s soup_t.rle soup_n.rle && cmp -s soup_b.rle soup_n.rle && ok || bad "the soups written by cpu-threads, cpu-bitpacked and cpu-naive differ"
run 0 "rule override" life blinker.rle --gens 1 --rule B3/S
[ "$(pop 1)" = 2 ] && ok || bad "B3/S: the cells above and below the middle are born, the row dies: $(cat out.txt)"

# usage errors: exit 2, the value named, nothing written
run 2 "no gens" life blinker.rle -o x.rle && expect_err "no gens" "--gens"
run 2 "bad gens" life blinker.rle --gens -3 -o x.rle && expect_err "bad gens" "-3"
run 2 "bad rule" life blinker.rle --gens 1 --rule B9/S23 -o x.rle && expect_err "bad rule" "B9/S23"
run 2 "bad torus" life blinker.rle --gens 1 --torus 10xq -o x.rle && expect_err "bad torus" "10xq"
run 2 "torus and plane" life blinker.rle --gens 1 --torus 10x10 --plane 10x10
run 2 "too small a grid" life gun.rle --gens 1 --torus 20x20 -o x.rle && expect_err "too small" "36x9"
run 2 "grid rung, unbounded" life gun.rle --gens 1 --variant cpu-naive -o x.rle &&
    expect_err "grid rung on the plane" "unbounded plane"
run 2 "sparse on a torus" life glider_t8.rle --gens 1 --variant cpu-sparse -o x.rle && expect_err "sparse torus" "torus"
# in the tool's words (what to drop), not the bench's parameter (topology=plane)
run 2 "sparse, --torus" life blinker.rle --gens 1 --torus 20x20 --variant cpu-sparse -o x.rle &&
    expect_err "sparse --torus" "cpu-sparse runs only on the unbounded plane; drop --torus or pick another --variant"
if grep -q "topology" err.txt; then bad "sparse --torus names the bench's topology: $(cat err.txt)"; else ok; fi
no_file "sparse, --torus" x.rle
# Golly's other formats: said so, not a parser's complaint
printf '[M2] (golly 4.2)\n#R B3/S23\n$$*$.*$\n' >glider.mc
run 1 "macrocell" life glider.mc --gens 1 -o x.rle &&
    expect_err "macrocell" "glider.mc: Golly macrocell (.mc) is not supported; parlab reads RLE and plaintext .cells"
printf '#Life 1.06\n0 0\n1 0\n' >two.lif
run 1 "Life 1.06" life two.lif --gens 1 -o x.rle && expect_err "Life 1.06" "two.lif: Life 1.05/1.06 (.lif) is not supported"
printf '\037\213\010\000' >gl.rle.gz
run 1 "gzip by name" life gl.rle.gz --gens 1 -o x.rle && expect_err "gzip by name" "gzip-compressed"
cp gl.rle.gz packed.rle
run 1 "gzip by magic" life packed.rle --gens 1 -o x.rle && expect_err "gzip by magic" "packed.rle: a gzip-compressed"
cp glider.mc macro.rle
run 1 "macrocell by magic" life macro.rle --gens 1 -o x.rle && expect_err "macrocell by magic" "macro.rle: Golly macrocell"
no_file "unsupported formats" x.rle
run 2 "unknown variant" life blinker.rle --gens 1 --variant cpu-magic && expect_err "unknown variant" "cpu-magic"
run 2 "bad density" life --soup 10x10 --density 2 --gens 1 && expect_err "bad density" "2"
run 2 "no input" life --gens 3 && expect_err "no input" "PATTERN"
run 2 "huge torus" life blinker.rle --gens 1 --torus 10000000x10000000 && expect_err "huge torus" "memory"
# too long for --max-time: a grid run refused before it starts (had it run: ~11 s); a small one runs
# (2 CPU threads: a ceiling of 5e11 cell-updates a second, whatever the machine)
run 2 "1e5 generations of 4096^2 in 1 s" life --soup 4096x4096 --gens 100000 --max-time 1 --threads 2 \
    --backend cpu -o x.rle && expect_err "too long for 1 s" "--max-time is 1 s"
run 2 "bad max-time" life blinker.rle --gens 1 --max-time -1 && expect_err "bad max-time" "-1"
run 0 "a short grid run under --max-time 1" life --soup 64x64 --gens 1000 --max-time 1
no_file "usage errors" x.rle
# runtime failures: exit 1, the file (and line) named
printf 'x = 3, y = 1\n3q!\n' >bad.rle
run 1 "malformed RLE" life bad.rle --gens 1 -o x.rle && expect_err "malformed" "bad.rle:2"
run 1 "missing file" life nope.rle --gens 1 -o x.rle && expect_err "missing" "nope.rle"
no_file "runtime failures" x.rle
run 2 "unwritable output" life blinker.rle --gens 1 -o nodir/x.rle && expect_err "unwritable" "nodir"
# the unbounded plane: a run past --max-time stops, says where, writes nothing (the gun's
# gliders make each generation dearer: 150000 generations take ~17 s on 2 cores)
run 1 "gun past --max-time 1" life gun.rle --gens 150000 --max-time 1 -o x.rle &&
    expect_err "stopped" "stopped at generation"
no_file "a stopped run" x.rle
# the bench: --variant all on a torus notes that cpu-sparse does not take it and runs the rest;
# cpu-sparse named on a torus is a failure naming the torus
run 0 "bench all on a torus" bench life --size 40x30 --set gens=10 --variant all &&
    expect_err "bench all on a torus" "note: cpu-sparse"
grep -q "^cpu-bitpacked" out.txt && ok || bad "bench all: cpu-bitpacked did not run: $(cat out.txt)"
run 1 "bench cpu-sparse on a torus" bench life --size 40x30 --set gens=10 --variant cpu-sparse &&
    expect_err "bench cpu-sparse on a torus" "torus"
run 0 "bench cpu-sparse on the plane" bench life --size 40x30 --set gens=10,topology=plane --variant cpu-sparse
no_tmp_files

summary test_cli_life
