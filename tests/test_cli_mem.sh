# test_cli_mem.sh: `parlab mem` in quick mode: every study runs, its numbers are finite and
# positive, its checksums right, its reading written; the JSON (schema parlab-mem/1) holds the
# same; a study named alone runs alone; usage errors exit 2 naming the value. No timing is
# asserted (the figures are the machine's).
. "$(dirname "$0")/cli_lib.sh"
cli_setup cli_mem python3

run 0 "mem all --quick" mem all --quick --threads 2 --json m.json
for s in stream write-read stride prefetch false-sharing loop-order layout alignment; do
    grep -q "^== $s:" out.txt && ok || bad "study $s did not print its table"
done
# the GPU studies run where there is a GPU, and say why not elsewhere
gpu_ran=$(grep -c '^== gpu-' out.txt)
gpu_skipped=$(grep -c '^skipped: gpu-' out.txt)
[ $((gpu_ran + gpu_skipped)) = 4 ] && ok || bad "GPU studies: $gpu_ran ran, $gpu_skipped skipped"
[ "$(grep -c '^checksums: ok' out.txt)" = $((8 + gpu_ran)) ] && ok || bad "checksums: $(grep '^checksums' out.txt | sort | uniq -c)"
cat >check.py <<'PY'
import json, math, sys
d = json.load(open("m.json"))
fails = []
if d.get("schema") != "parlab-mem/1": fails.append("schema %r" % d.get("schema"))
names = [s["study"] for s in d["studies"]]
want = ["stream", "write-read", "stride", "prefetch", "false-sharing", "loop-order", "layout", "alignment"]
want += [n for n in ("gpu-stream", "gpu-alignment", "gpu-banks", "gpu-grid-stride") if n in names]
if names != want: fails.append("studies %s" % names)
for s in d["studies"]:
    if not s["checksums_ok"]: fails.append("%s: checksums" % s["study"])
    if len(s["reading"]) < 20: fails.append("%s: no reading" % s["study"])
    if not s["rows"]: fails.append("%s: no rows" % s["study"])
    for r in s["rows"]:
        for k in ("best", "median"):
            if not (isinstance(r[k], (int, float)) and math.isfinite(r[k]) and r[k] > 0):
                fails.append("%s %s: %s = %r" % (s["study"], r["case"], k, r[k]))
        if not r["unit"]: fails.append("%s %s: no unit" % (s["study"], r["case"]))
stream = [r["case"] for r in d["studies"][0]["rows"]]
for k in ("copy", "scale", "add", "triad"):
    for t in ("1 thread", "2 threads"):
        for st in ("normal", "streaming"):
            if "%s, %s, %s stores" % (k, t, st) not in stream: fails.append("stream lacks %s %s %s" % (k, t, st))
print("\n".join(fails) if fails else "ok")
sys.exit(1 if fails else 0)
PY
if python3 check.py >check.txt 2>&1; then ok; else bad "the JSON: $(cat check.txt)"; fi
run 0 "one study" mem stride --quick && [ "$(grep -c '^== ' out.txt)" = 1 ] && grep -q "^stride 16 (64 bytes)" out.txt && ok ||
    bad "mem stride alone: $(head -5 out.txt)"
if [ "$gpu_skipped" = 4 ]; then
    run 1 "a GPU study named without a GPU" mem gpu-banks --quick && expect_err "GPU study" "gpu-banks"
fi
run 2 "unknown study" mem nope && expect_err "unknown study" "'nope'"
run 2 "no study" mem && expect_err "no study" "needs a study"
run 2 "bad reps" mem stride --reps 0 && expect_err "bad reps" "'0'"
run 2 "bad threads" mem stride --threads x && expect_err "bad threads" "'x'"
run 2 "unwritable json" mem stride --quick --json nodir/m.json && expect_err "unwritable json" "nodir"
no_tmp_files
summary test_cli_mem
