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
expect 2 "GiB" -- bench gemm 300000 --variant cpu-naive --no-peaks   # too big: a usage error (issue 9)
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

# gemm's dtype=bf16 (bfloat16 A and B, FP32 C): the BF16 rungs take it, the others dtype=f32
# alone. --variant all leaves each other rung out with one line; one named is a usage error.
bf16_out=$("$P" bench gemm 33x17x9 9 --set dtype=bf16 --variant all --no-peaks --repeats 2 2>&1); rc=$?
if [ "$rc" -eq 0 ] && grep -q "cpu-naive-bf16 " <<<"$bf16_out" &&
   [ "$(grep -c '^parlab: note: skipping cpu-naive: an FP32 rung takes dtype=f32 only; this problem is dtype=bf16$' <<<"$bf16_out")" -eq 1 ] &&
   ! grep -qE '^ *cpu-(naive|packed|simd) ' <<<"$bf16_out"; then ok
else bad "bench gemm --set dtype=bf16 --variant all: exit $rc: $bf16_out"; fi
expect 0 "cpu-naive-bf16" -- bench gemm 16 --set dtype=bf16 --no-peaks --repeats 2
# a float32 run never asked for bfloat16: the BF16 rungs are left out without a word
f32_out=$("$P" bench gemm 9 --variant all --peer --no-peaks --repeats 2 2>&1); rc=$?
if [ "$rc" -eq 0 ] && grep -q "^cpu-naive " <<<"$f32_out" && ! grep -qi "bf16" <<<"$f32_out"; then ok
else bad "bench gemm --variant all (float32) mentions the BF16 rungs: exit $rc: $f32_out"; fi
expect 2 "bench: gemm cpu-naive: an FP32 rung takes dtype=f32 only; this problem is dtype=bf16" -- bench gemm 8 --set dtype=bf16 --variant cpu-naive --no-peaks
expect 2 "bench: gemm cpu-naive-bf16: a BF16 rung takes dtype=bf16 only; this problem is dtype=f32" -- bench gemm 8 --variant cpu-naive-bf16 --no-peaks
expect 2 'dtype=f16: not a legal value \(legal: f32\|bf16\)' -- bench gemm 8 --set dtype=f16 --no-peaks
expect 0 "BF16 in, FP32 accumulate, FP32 out" -- list gemm

# A full run: the table, JSON and CSV files with every result.
expect 0 "cpu-simd-blocked" -- bench gemm 33x65x17 17 --variant all --peer --set alpha=2,beta=0.5,pad=3 --no-peaks --json "$T/r.json" --csv "$T/r.csv"
if [ -s "$T/r.json" ] && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=d['results']; assert d['schema']=='parlab-bench/2'; assert len(r)>=6; assert all(x['verification']['passed'] for x in r); assert {x['size'] for x in r}=={'33x65x17','17'}; assert all(x['unit']=='flop' and x['rate_unit']=='GFLOP/s' and x['rate']>0 and x['verification']['check'] in ('full','sample') and 'over' in x['ceiling'] for x in r)" "$T/r.json"; then ok; else bad "JSON output missing or wrong"; fi
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
expect 2 "cannot" -- bench gemm 8 --variant cpu-naive --no-peaks --json "$T/no/such/dir/r.json"
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

# ---- issue 9, the CLI's own faults (src/cli). Each check below failed against a mutation of
# the code it guards; the commit message of the CLI change lists them.
# run_timed ARGS...: run parlab, set $out (stdout), $err (stderr), $rc and $secs.
run_timed() {
  local t0 t1; t0=$(date +%s.%N)
  out=$("$P" "$@" 2>"$T/stderr"); rc=$?; err=$(cat "$T/stderr")
  t1=$(date +%s.%N); secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}')
}
fast() { awk -v s="$secs" -v m="$1" 'BEGIN{exit !(s < m)}'; }
# A bad size late in the list: usage error before anything runs (no table on stdout).
run_timed bench gemm --size 512,0 --variant cpu-naive --no-peaks
if [ "$rc" -eq 2 ] && [ -z "$out" ] && grep -q "positive" <<<"$err"; then ok; else bad "--size 512,0: exit $rc, stdout '$out', stderr '$err'"; fi
# A suite that includes itself, directly or through another: refused at once with a message.
printf -- '--suite %s\n' "$T/self.suite" >"$T/self.suite"
printf -- '--suite %s\n' "$T/b.suite" >"$T/a.suite"; printf -- '--suite %s\n' "$T/a.suite" >"$T/b.suite"
for f in self a; do
  out=$(timeout 20 "$P" bench --suite "$T/$f.suite" 2>&1); rc=$?
  if { [ "$rc" -eq 2 ] || [ "$rc" -eq 1 ]; } && grep -q "includes itself" <<<"$out"; then ok; else bad "self-including $f.suite: exit $rc: $(head -c 300 <<<"$out")"; fi
done
# A suite line of 1100+ characters is one line (its end is not a line of its own).
printf 'gemm 16 --no-peaks%1100s--variant cpu-naive\n' '' >"$T/long.suite"
out=$("$P" bench --suite "$T/long.suite" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && [ "$(grep -c '^== ' <<<"$out")" -eq 1 ] && grep -q cpu-naive <<<"$out" && ! grep -q cpu-simd <<<"$out"; then ok; else bad "long suite line: exit $rc: $(head -c 400 <<<"$out")"; fi
# Empty names are usage errors naming the bad value.
expect 2 "--variant: ''" -- bench gemm 8 --variant '' --no-peaks
expect 2 "--variant: ''" -- sweep gemm 8 --variant '' --param block=8 --no-peaks
expect 2 "empty item" -- bench gemm 8 --variant cpu-naive,,cpu-simd --no-peaks
expect 2 "-o: ''" -- gemm "$T/A.npy" "$T/B.npy" -o ''
expect 2 "--json: ''" -- bench gemm 8 --variant cpu-naive --no-peaks --json ''
# A repeated --param (in one flag or several) is a usage error, in bench and in sweep.
expect 2 "block given twice" -- bench gemm 8 --variant cpu-simd-blocked --param block=8 --param block=16 --no-peaks
expect 2 "block given twice" -- bench gemm 8 --variant cpu-simd-blocked --param block=8,block=16 --no-peaks
expect 2 "block given twice" -- sweep gemm 8 --variant cpu-simd-blocked --param block=8 --param block=16 --no-peaks
# sweep: 9 --param flags are all read as parameters (never the 9th as a size) ...
expect 2 "given twice" -- sweep gemm 8 --variant cpu-packed --param mc=0 --param kc=0 --param nc=0 --param isa=auto --param mc=8 --param kc=8 --param nc=8 --param isa=avx2 --param 64 --no-peaks
# ... and 10 values all run: 10 rows in the JSON.
"$P" sweep gemm 32 --variant cpu-simd-blocked --param block=8,16,24,32,40,48,56,64,72,80 --repeats 1 --no-peaks --json "$T/sw.json" >/dev/null 2>&1
if [ -s "$T/sw.json" ] && [ "$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['results']))" "$T/sw.json")" = 10 ]; then ok; else bad "sweep of 10 values: not 10 rows in $T/sw.json"; fi
# An unwritable --json path is refused before the run (exit 2, as from every command: docs/output.md), no table, fast.
run_timed bench gemm 256 --variant cpu-naive,cpu-simd --no-peaks --json "$T/no/such/dir/x.json"
if [ "$rc" -eq 2 ] && [ -z "$out" ] && fast 5; then ok; else bad "unwritable --json: exit $rc in ${secs}s, stdout '$(head -c 200 <<<"$out")'"; fi
# Too big for this machine: exit 2 at once, the estimate and the limit in GiB.
run_timed bench gemm --size 70000
if [ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(grep -o 'GiB' <<<"$err" | wc -l)" -ge 2 ] && fast 10; then ok; else bad "bench gemm --size 70000: exit $rc in ${secs}s: $err"; fi
# Issue 19: the sizes are checked before the variants: a bad or too big size says so first,
# with no note about variants this machine skips ("skipping cuda-naive: ...") before it.
run_timed bench gemm --size 1e9 --no-peaks
if [ "$rc" -eq 2 ] && grep -q "1e9" <<<"$err" && ! grep -q "skipping" <<<"$err"; then ok; else bad "bench gemm --size 1e9: exit $rc: $err"; fi
run_timed bench gemm --size 70000 --no-peaks
if [ "$rc" -eq 2 ] && grep -q "GiB" <<<"$err" && ! grep -q "skipping" <<<"$err"; then ok; else bad "bench gemm --size 70000, notes first: $err"; fi
# Issue 19: each check line says what was checked: int32 conv2d and Life exactly, against their
# own reference, not "FP32" or "the float64 reference".
run_timed bench conv2d --size 64 --set k=3,dtype=i32 --variant cpu-naive --repeats 3 --no-peaks
line=$(grep '^check conv2d' <<<"$out")
if [ "$rc" -eq 0 ] && grep -q "exact" <<<"$line" && grep -q "int32" <<<"$line" && ! grep -qE "FP32|float64" <<<"$line"; then ok; else bad "conv2d i32 check line: '$line'"; fi
run_timed bench life --size 64 --set gens=2 --variant cpu-naive --repeats 3 --no-peaks
line=$(grep '^check life' <<<"$out")
if [ "$rc" -eq 0 ] && grep -q "exact against the life reference" <<<"$line" && ! grep -q "float64" <<<"$line"; then ok; else bad "life check line: '$line'"; fi
# --variant all leaves out the rungs estimated over --max-time, and says so; a named rung runs.
run_timed bench gemm --variant all --size 2048 --max-time 20 --repeats 1 --no-peaks
if [ "$rc" -eq 0 ] && grep -qE "leaving out cpu-naive at 2048: about [0-9]+ s, over --max-time 20; name it with --variant" <<<"$err" \
   && ! grep -qE '^cpu-naive ' <<<"$out"; then ok; else bad "--max-time: exit $rc: $err $(head -c 600 <<<"$out")"; fi
run_timed bench gemm --variant cpu-naive --size 64 --max-time 0.001 --no-peaks
if [ "$rc" -eq 0 ] && ! grep -q "leaving out" <<<"$err" && grep -qE '^cpu-naive ' <<<"$out"; then ok; else bad "named rung with --max-time: exit $rc: $err"; fi
# The header line says the caches' state; --verify is parsed.
expect 0 "[|] caches: cold [|]" -- bench gemm 16 --variant cpu-naive --cold --no-peaks
expect 0 "[|] caches: warm [|]" -- bench gemm 16 --variant cpu-naive --verify full --no-peaks
expect 2 "full, sample, auto" -- bench gemm 16 --verify some --no-peaks

# One option table for every command (docs/architecture.md, "One option table"): bench,
# sweep, the file tools, mem, peaks and list parse their options by the same rules, with the same
# messages; one --threads (1..4096, a note beyond the cores) and one --device (0..1023).
for cmd in "bench gemm 8 --variant cpu-naive --no-peaks" "sweep gemm 8 --variant cpu-naive --no-peaks" \
           "life --soup 8x8 --gens 1" "mem stride --quick" "transpose in.npy -o out.npy"; do
  name=${cmd%% *}
  expect 2 "error: --threads: '0' is not an integer in 1\.\.4096" -- $cmd --threads 0
  expect 2 "error: --threads: '4097' is not an integer in 1\.\.4096" -- $cmd --threads 4097
  expect 2 "error: $name: --threads needs a value \(N\)" -- $cmd --threads
  expect 2 "error: $name: --threads: '' is not a value" -- $cmd --threads=
  expect 2 "error: $name: unknown option '--frob' \(see parlab $name --help\)" -- $cmd --frob
done
for cmd in "bench gemm 8 --variant cpu-naive --no-peaks" "life --soup 8x8 --gens 1" "gemv A.npy x.npy -o y.npy"; do
  expect 2 "error: --device: '1024' is not an integer in 0\.\.1023" -- $cmd --device 1024
done
expect 0 "cpu-naive" -- bench gemm 8 --variant cpu-naive --no-peaks --device 1000   # a CPU run: the device is unused
cores=$("$P" list | sed -n 's/.* \([0-9][0-9]*\) cores.*/\1/p' | head -1)
expect 0 "note: --threads $((cores + 1)) is more than the $cores cores here" -- bench gemm 8 --variant cpu-naive --no-peaks --threads $((cores + 1))
expect 0 "note: --threads $((cores + 1)) is more than the $cores cores here" -- life --soup 8x8 --gens 1 --threads $((cores + 1))
expect 2 "error: bench: --cold takes no value" -- bench gemm 8 --cold=1
expect 2 "error: mem: --quick takes no value" -- mem stride --quick=1
expect 2 "error: conv2d: --flip takes no value" -- conv2d in.npy --filter 1 -o out.npy --flip=yes
expect 2 "error: peaks: --json needs a value \(FILE\)" -- peaks --show --json
expect 2 "error: peaks: unknown option '--frob' \(see parlab peaks --help\)" -- peaks --frob
expect 2 "error: list: unknown option '-x' \(see parlab list --help\)" -- list -x
expect 2 "error: list: unexpected argument 'gemv'" -- list gemm gemv
# "-" and a minus before a digit are arguments, never options: a size (bench), a file (the tools)
expect 2 "gemm size '-'" -- bench gemm - --no-peaks
out=$("$P" life -4 --gens 1 2>&1); rc=$?
if [ "$rc" -eq 1 ] && grep -q -- "-4" <<<"$out" && ! grep -q "unknown option" <<<"$out"; then ok; else bad "life -4: exit $rc: $out"; fi

# A suite on a busy machine with no cached peaks: the quick peaks fail the sanity checks, so
# they are not cached; the first line measures them and says so, the second reuses them.
busy_dir="$T/busy-peaks"; mkdir -p "$busy_dir"
echo "99.5 50.0 20.0 90/300 4242" >"$T/loadavg-busy"
printf 'gemm --size 16 --variant cpu-naive\ngemv --size 16 --variant cpu-naive\n' >"$T/two.suite"
out=$(env -u PARLAB_PEAKS_SANITY PARLAB_CACHE_DIR="$busy_dir" PARLAB_PEAKS_LOADAVG="$T/loadavg-busy" \
  "$P" bench --suite "$T/two.suite" 2>&1)
rc=$?
n=$(grep -c "measured quick peaks now" <<<"$out")
if [ "$rc" -eq 0 ] && [ "$n" -eq 1 ] && grep -q "not cached" <<<"$out" && [ -z "$(ls "$busy_dir")" ]; then ok
else bad "busy suite: exit $rc, $n notes of measuring (want 1), cache dir: $(ls "$busy_dir"); output: $out"; fi

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
