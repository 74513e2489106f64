# test_cli_compare.sh: `parlab compare OLD NEW` on bench files made here at tiny sizes (CPU rungs):
# a run against itself is "same" on every row and exits 0 under --fail-above; a NEW doctored to
# twice the times (python3's standard library) is "slower" on every row, fails --fail-above 10
# (exit 1, the row named) and passes --fail-above 150; rows without samples (older files) compare
# medians only; --rename, --ignore-param, --kernel, directories of files, rows of one side only;
# --md writes the same table as Markdown; a missing file, one that is not JSON and one of another
# schema exit 2 naming it. Then `parlab bench --md`: the Markdown table with its machine line
# above and its check line under it.
. "$(dirname "$0")/cli_lib.sh"
cli_setup cli_compare python3

run() { # run STATUS WHAT ARGS...: parlab ARGS, its exit status checked; stdout in out.txt, stderr in err.txt
    local want=$1 what=$2
    shift 2
    "$PARLAB" "$@" >out.txt 2>err.txt
    local got=$?
    [ "$got" = "$want" ] || bad "$what: exit $got, expected $want: $(head -c 600 err.txt)"
}

run 0 "bench old" bench transpose --size 64,96 --variant cpu-naive,cpu-blocked --repeats 12 --no-peaks --json old.json
run 0 "bench reduce" bench reduce --size 64 --variant cpu-naive --repeats 12 --no-peaks --json red.json

# the samples are in the file, one per timed run
python3 - <<'PY' || bad "samples in the bench JSON"
import json
rows = json.load(open("old.json"))["results"]
assert len(rows) == 4 and all(len(r["samples"]) == 12 and all(t > 0 for t in r["samples"]) for r in rows), rows
assert all("user" not in r for r in rows)
PY

# the same run twice: same on every row (p = 1), nothing fails
run 0 "same vs same" compare old.json old.json --fail-above 0
[ "$(grep -c ' p=1.000  same$' out.txt)" = 4 ] && grep -q "^geomean  *4 rows  *1.000x  *0 faster, 0 slower, 4 same" out.txt &&
    ok || bad "same vs same: $(cat out.txt)"

# Doctored runs, from old.json with steady samples (a run on a shared machine may hold outliers
# that make a doubling not significant): steady.json, then twice its times (slow.json), without
# samples (nosamples.json), the cpu-blocked rows renamed with a parameter more (renamed.json) or
# one less (retiled.json).
python3 - <<'PY'
import copy, json
d = json.load(open("old.json"))
for r in d["results"]:
    r["samples"] = [r["median_s"] * (1 + 0.01 * ((5 * k) % 12 - 5.5)) for k in range(12)]
json.dump(d, open("steady.json", "w"), indent=1)
slow = copy.deepcopy(d)
for r in slow["results"]:
    r["median_s"] *= 2
    r["samples"] = [2 * t for t in r["samples"]]
json.dump(slow, open("slow.json", "w"), indent=1)
old = copy.deepcopy(d)
for r in old["results"]:
    del r["samples"]
json.dump(old, open("nosamples.json", "w"), indent=1)
for name, change in (("renamed.json", lambda p: p.update(extra=3)), ("retiled.json", lambda p: p.pop("tile"))):
    e = copy.deepcopy(d)
    for r in e["results"]:
        if r["variant"] == "cpu-blocked":
            r["variant"] = "cpu-tiled"
            change(r["params"])
    json.dump(e, open(name, "w"), indent=1)
PY
run 0 "slower" compare steady.json slow.json
[ "$(grep -c ' 0.500x .* slower$' out.txt)" = 4 ] && grep -q "0 faster, 4 slower, 0 same" out.txt &&
    ok || bad "twice the times: slower: $(cat out.txt)"
run 1 "--fail-above 10" compare steady.json slow.json --fail-above 10
[ "$(grep -c "NEW's median is 100.0% above OLD's (speedup 0.500x, p<0.001), beyond --fail-above 10" err.txt)" = 4 ] &&
    grep -q "transpose cpu-blocked isa=auto,store=auto,tile=64 64:" err.txt && ok || bad "--fail-above 10: $(cat err.txt)"
run 0 "--fail-above 150" compare steady.json slow.json --fail-above 150
run 0 "faster" compare slow.json steady.json --fail-above 10
[ "$(grep -c ' 2.000x .* faster$' out.txt)" = 4 ] && ok || bad "half the times: faster: $(cat out.txt)"

# rows of older files have no samples: medians only, never a failure
run 0 "no samples" compare nosamples.json slow.json --fail-above 10
[ "$(grep -c ' 0.500x  *-  *-  *no samples$' out.txt)" = 4 ] && grep -q "4 no samples" out.txt &&
    ok || bad "no samples: $(cat out.txt)"

# a problem parameter added to a kernel after a file was written (gemm's dtype): the older
# file's rows ran at its default, and match the rows written since
run 0 "bench gemm" bench gemm --size 24 --variant cpu-naive --repeats 6 --no-peaks --json gemm_new.json
python3 - <<'PY'
import json
d = json.load(open("gemm_new.json"))
for r in d["results"]:
    assert r["problem"].pop("dtype") == "f32", r["problem"]
json.dump(d, open("gemm_old.json", "w"), indent=1)
PY
run 0 "before the dtype parameter" compare gemm_old.json gemm_new.json
grep -q "^geomean  *1 row " out.txt && ! grep -q "^only" out.txt && ok || bad "before the dtype parameter: $(cat out.txt)"

# a renamed variant with a new parameter: one side only, until --rename and --ignore-param
run 0 "renamed, unmatched" compare steady.json renamed.json
grep -q "^only in steady.json: transpose cpu-blocked isa=auto,store=auto,tile=64 64 pad=0$" out.txt &&
    grep -q "^only in renamed.json: transpose cpu-tiled extra=3,isa=auto,store=auto,tile=64 96 pad=0$" out.txt &&
    grep -q "2 rows" out.txt && ok || bad "rows of one side: $(cat out.txt)"
run 0 "renamed, matched" compare steady.json renamed.json --rename cpu-blocked=cpu-tiled --ignore-param extra
grep -q "4 rows" out.txt && ! grep -q "^only" out.txt && [ "$(grep -c "^transpose  *cpu-tiled .* same$" out.txt)" = 2 ] &&
    ok || bad "--rename, --ignore-param: $(cat out.txt)"
run 0 "rename by parameter" compare steady.json retiled.json --rename cpu-blocked:tile=64=cpu-tiled
[ "$(grep -c "^transpose  *cpu-tiled  *isa=auto,store=auto  " out.txt)" = 2 ] && grep -q "4 rows" out.txt &&
    ok || bad "--rename V:P=X=NEW drops P: $(cat out.txt)"
run 0 "rename by another value" compare steady.json retiled.json --rename cpu-blocked:tile=32=cpu-tiled
grep -q "2 rows" out.txt && grep -q "^only in retiled.json: transpose cpu-tiled isa=auto,store=auto 64" out.txt &&
    ok || bad "--rename V:P=X=NEW, another X: $(cat out.txt)"
run 2 "bad rename" compare steady.json renamed.json --rename nothing
grep -q "rename 'nothing': expected OLD=NEW" err.txt && ok || bad "bad rename: $(cat err.txt)"

# directories of files, and --kernel
mkdir -p d1 d2 && cp steady.json red.json d1/ && cp slow.json d2/steady.json && cp red.json d2/
run 0 "directories" compare d1 d2
grep -q "5 rows" out.txt && grep -q "^reduce  *cpu-naive .* same$" out.txt && ok || bad "directories: $(cat out.txt)"
run 0 "--kernel" compare d1 d2 --kernel reduce
grep -q "1 row " out.txt && ! grep -q "^transpose" out.txt && ok || bad "--kernel: $(cat out.txt)"

# --md: the same as Markdown
run 0 "--md" compare steady.json slow.json --md cmp.md
grep -q "^| kernel | variant | params | size | problem | old ms | new ms | speedup | 95% interval | p | verdict |$" cmp.md &&
    grep -q "^| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- | --- |$" cmp.md &&
    [ "$(grep -c '^| transpose | .* | slower |$' cmp.md)" = 4 ] && grep -q "^| geomean | 4 rows |" cmp.md &&
    ok || bad "--md: $(cat cmp.md)"

# bad input: exit 2, the file named
run 2 "missing file" compare old.json nothere.json
grep -q "nothere.json" err.txt && ok || bad "missing file not named: $(cat err.txt)"
echo "not json" >bad.json
run 2 "not JSON" compare bad.json old.json
grep -q "bad.json:1:" err.txt && ok || bad "not JSON: $(cat err.txt)"
echo '{"schema": "parlab-peaks/1", "results": []}' >peaks.json
run 2 "another schema" compare old.json peaks.json
grep -q "peaks.json: not a parlab bench/sweep JSON file" err.txt && ok || bad "another schema: $(cat err.txt)"
run 2 "one file" compare old.json
run 2 "three files" compare old.json old.json old.json

# bench --md: the machine line above the table, the check line under it
run 0 "bench --md" bench transpose --size 64 --variant cpu-naive,cpu-blocked --repeats 3 --no-peaks --md t.md --json t.json
head -1 out.txt >machine.txt
[ "$(head -1 t.md)" = "$(cat machine.txt)" ] && sed -n 3p t.md | grep -q "^| variant | params | size | thr | median ms |" &&
    sed -n 4p t.md | grep -q "^| --- | --- | --- | ---: |" && [ "$(grep -c '^| cpu-' t.md)" = 2 ] &&
    grep -q "^check transpose exact: " t.md && ok || bad "bench --md: $(cat t.md)"
run 2 "bench --md a directory" bench transpose --size 64 --variant cpu-naive --md d1
grep -q "\-\-md" err.txt && ok || bad "bench --md DIR: $(cat err.txt)"

# the report reads "user" and "samples" back, and marks a user's rung on the ladder
python3 - <<'PY'
import json
d = json.load(open("steady.json"))
d["results"][3]["user"] = True  # the ladder draws the largest size
json.dump(d, open("user.json", "w"), indent=1)
d["results"][1]["samples"] = "fast"
json.dump(d, open("badsamples.json", "w"), indent=1)
PY
run 0 "report of a user's rung" report user.json -o r.html --svg figs
grep -q "cpu-blocked \*" figs/*transpose-ladder.svg && grep -q "A name marked \* is a user's rung" r.html &&
    [ "$(grep -o 'cpu-naive \*' figs/*transpose-ladder.svg | wc -l)" = 0 ] && ok || bad "user's rung not marked on the ladder"
run 0 "report without one" report steady.json -o r2.html --svg figs2
! grep -q " \*" figs2/*transpose-ladder.svg && ok || bad "a built-in rung marked"
run 1 "report of bad samples" report badsamples.json -o r3.html
grep -q "badsamples.json:.*results\[1\].samples: expected an array" err.txt && ok || bad "bad samples: $(cat err.txt)"

echo "test_cli_compare: $passed passed, $failed failed"
[ "$failed" = 0 ]
