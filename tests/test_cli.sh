#!/usr/bin/env bash
# test_cli.sh: the parlab command as a user meets it: exit statuses (0 ok, 1 failure,
# 2 usage), clear messages for bad input, no partial output files, JSON/CSV output, sweep.
set -u
P=${PARLAB:?PARLAB must name the parlab executable}
T=${PL_TESTDIR:-$(mktemp -d)}
rm -rf "$T"; mkdir -p "$T"
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# expect STATUS PATTERN -- ARGS...: exit status and a message matching PATTERN (stdout+stderr)
expect() {
  local want=$1 pat=$2; shift 3
  local out; out=$("$P" "$@" 2>&1); local got=$?
  if [ "$got" -ne "$want" ]; then bad "parlab $*: exit $got, want $want; output: $out"; return; fi
  if [ -n "$pat" ] && ! grep -qiE -- "$pat" <<<"$out"; then bad "parlab $*: no '$pat' in: $out"; return; fi
  ok
}

expect 2 "usage" -- 
expect 0 "bench" -- --help
expect 2 "unknown command" -- frobnicate
expect 0 "cpu-naive" -- list
expect 0 "cpu-simd-blocked" -- list gemm
expect 2 "unknown kernel" -- list nope
expect 2 "unknown kernel" -- bench nope
expect 2 "no variant 'nope'" -- bench gemm 8 --variant nope --no-peaks
expect 2 "positive" -- bench gemm 0 --no-peaks
expect 2 "expected N" -- bench gemm -4 --no-peaks
expect 2 "expected N" -- bench gemm --no-peaks -- -4
expect 2 "positive" -- bench gemm 4x0x4 --no-peaks
expect 2 "expected N" -- bench gemm 4x4 --no-peaks
expect 2 "overflow|too large" -- bench gemm 4000000000x4000000000x4000000000 --no-peaks
expect 2 "overflow|too large" -- bench gemm 99999999999999999999 --no-peaks
expect 1 "host memory" -- bench gemm 300000 --variant cpu-naive --no-peaks
expect 2 "legal" -- bench gemm 8 --variant cpu-simd-blocked --param block=12 --no-peaks
expect 2 "legal" -- bench gemm 8 --variant cpu-simd-blocked --param isa=sse --no-peaks
expect 2 "no selected variant" -- bench gemm 8 --variant cpu-naive --param tile=4 --no-peaks
expect 2 "no problem parameter .gamma" -- bench gemm 8 --set gamma=1 --no-peaks
expect 2 "not a number" -- bench gemm 8 --set beta=x --no-peaks
expect 2 "unknown option" -- bench gemm 8 --frob
expect 2 "needs a value" -- bench gemm 8 --variant
expect 2 "integer" -- bench gemm 8 --threads 0
expect 2 "required" -- sweep gemm 8
expect 2 "tile" -- sweep gemm 8 --variant cpu-simd-blocked --param tile=4

# A CUDA variant on a machine without a GPU, or in a build without CUDA (the sanitizer
# build): refused with the reason, status 1.
# `parlab list gemm` marks cuda-naive "+" (runs here) or "-" with "cannot run here: WHY".
cuda_why=$("$P" list gemm | awk '/^  [-+] cuda-naive /{f=1; if ($1 == "+") {print "runs here"; exit} next}
  f && /cannot run here: /{sub(/.*cannot run here: /, ""); print; exit} f && /^  [-+] /{exit}')
case "$cuda_why" in
"no GPU")
  expect 1 "no GPU" -- bench gemm 8 --variant cuda-naive --no-peaks
  expect 1 "no GPU" -- sweep gemm 8 --variant cuda-shared --param tile=4,8 --no-peaks
  # ... but with --skip-unavailable it is skipped and the rest runs.
  expect 0 "cpu-naive" -- bench gemm 8 --variant cuda-naive,cpu-naive --skip-unavailable --no-peaks ;;
"no CUDA build")
  expect 1 "no CUDA build" -- bench gemm 8 --variant cuda-naive --no-peaks
  expect 0 "skipping cuda-naive: no CUDA build" -- bench gemm 8 --variant cuda-naive,cpu-naive --skip-unavailable --no-peaks
  # Without CUDA the rungs list no parameters, so a sweep of tile says "no parameter 'tile'".
  echo "skipped: sweep of cuda-shared refused (a build without CUDA knows none of its parameters)" ;;
"runs here")
  echo "skipped: 3 checks of CUDA rungs refused without a GPU (this machine has a GPU and a CUDA build)" ;;
*)
  bad "parlab list gemm: cuda-naive cannot run here for an unexpected reason: '$cuda_why'" ;;
esac

# A full run: the table, JSON and CSV files with every result.
expect 0 "cpu-simd-blocked" -- bench gemm 33x65x17 17 --variant all --peer --set alpha=2,beta=0.5,pad=3 --no-peaks --json "$T/r.json" --csv "$T/r.csv"
if [ -s "$T/r.json" ] && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=d['results']; assert d['schema']=='parlab-bench/1'; assert len(r)>=6; assert all(x['verification']['passed'] for x in r); assert {x['size'] for x in r}=={'33x65x17','17'}" "$T/r.json"; then ok; else bad "JSON output missing or wrong"; fi
if [ "$(head -1 "$T/r.csv" | cut -d, -f1-5)" = "machine,gpu,build,kernel,variant" ] && [ "$(wc -l <"$T/r.csv")" -ge 7 ]; then ok; else bad "CSV output missing or wrong"; fi
if head -1 "$T/r.csv" | grep -q ',passed,peer_name,peer_ratio,peer2_name,peer2_ratio$'; then ok; else bad "CSV peer columns: $(head -1 "$T/r.csv")"; fi
# Peers (docs/output.md): "peer" is the is-a-peer flag; each rung lists a ratio to every peer of its
# size, backend and precision (peer-openblas, and peer-openblas-skx on AVX-512); peers list none.
if python3 - "$T/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['results']
assert all(isinstance(x['peer'], bool) and isinstance(x['peers'], list) for x in r)
assert all(x['peers'] == [] for x in r if x['peer'])
for x in r:
    if x['peer']:
        continue
    tf32 = x['variant'].endswith('-tf32')  # precision is not in the JSON; TF32 names say it
    want = [q['variant'] for q in r if q['peer'] and q['size'] == x['size'] and q['backend'] == x['backend']
            and q['variant'].endswith('-tf32') == tf32]
    got = [p['name'] for p in x['peers']]
    assert got == want, (x['variant'], x['size'], got, want)
    assert all(p['ratio'] > 0 for p in x['peers'])
PY
then ok; else bad "JSON peers wrong"; fi
# No partial file when the output cannot be written: status 1, nothing left behind.
expect 1 "cannot" -- bench gemm 8 --variant cpu-naive --no-peaks --json "$T/no/such/dir/r.json"
if ls "$T"/no 2>/dev/null | grep -q .; then bad "partial JSON file left"; else ok; fi

# The sweep names the best setting: the "best at SIZE: PARAMS" line must be the fastest
# verified row of that size in the sweep's own --json (one row per candidate).
# sweep_best SIZE N_CANDIDATES ARGS...
sweep_best() {
  local size=$1 n=$2; shift 2
  local out; out=$("$P" sweep gemm "$size" "$@" --no-peaks --json "$T/best.json" 2>&1); local got=$?
  if [ "$got" -ne 0 ]; then bad "parlab sweep gemm $size $*: exit $got; output: $out"; return; fi
  if python3 - "$T/best.json" "$size" "$n" "$out" <<'PY'
import json, re, sys
path, size, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
rows = [r for r in json.load(open(path))['results'] if r['size'] == size]
assert len(rows) == n, f"{len(rows)} rows of size {size}, want {n}"
ok = [r for r in rows if r['verification']['passed']]
assert ok, "no verified row"
m = re.search(r'^best at ' + re.escape(size) + r': (\S+)', out, re.M)
assert m, "no 'best at " + size + ":' line"
named = dict(kv.split('=', 1) for kv in m.group(1).split(','))
fastest = min(r['median_s'] for r in ok)
best = [r for r in ok if {k: str(v) for k, v in r['params'].items()} == named]
assert best, f"best names {named}, which is no verified row"
assert best[0]['median_s'] == fastest, \
    f"best names {named} at {best[0]['median_s']} s, but the fastest verified row takes {fastest} s: " + \
    str([(r['params'], r['median_s']) for r in ok])
PY
  then ok; else bad "parlab sweep gemm $size $*: the named best is not the fastest verified row; output: $out"; fi
}
sweep_best 64 3 --variant cpu-simd-blocked --param block=8,16,64
sweep_best 32 2 --variant cpu-simd --param isa=avx2,auto

# A suite file, with a comment and a line that cannot run here.
printf '# comment\ngemm 16 --variant cpu-naive --no-peaks\n\ngemm 16 --variant cpu-simd --no-peaks --skip-unavailable\n' >"$T/s.suite"
expect 0 "cpu-simd" -- bench --suite "$T/s.suite"
expect 1 "cannot open" -- bench --suite "$T/missing.suite"

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
