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

# A CUDA variant on a machine without a GPU: refused with the reason, status 1.
if "$P" list gemm | grep -q "cannot run here: no GPU"; then
  expect 1 "no GPU" -- bench gemm 8 --variant cuda-naive --no-peaks
  expect 1 "no GPU" -- sweep gemm 8 --variant cuda-shared --param tile=4,8 --no-peaks
  # ... but with --skip-unavailable it is skipped and the rest runs.
  expect 0 "cpu-naive" -- bench gemm 8 --variant cuda-naive,cpu-naive --skip-unavailable --no-peaks
fi

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

# The sweep names the best setting.
expect 0 "best at 64: block=" -- sweep gemm 64 --variant cpu-simd-blocked --param block=8,16,64 --no-peaks
expect 0 "best at 32: isa=avx2" -- sweep gemm 32 --variant cpu-simd --param isa=avx2 --no-peaks

# A suite file, with a comment and a line that cannot run here.
printf '# comment\ngemm 16 --variant cpu-naive --no-peaks\n\ngemm 16 --variant cpu-simd --no-peaks --skip-unavailable\n' >"$T/s.suite"
expect 0 "cpu-simd" -- bench --suite "$T/s.suite"
expect 1 "cannot open" -- bench --suite "$T/missing.suite"

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
