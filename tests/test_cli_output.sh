# test_cli_output.sh: what parlab does with an output path (docs/output.md, "Outputs"), for
# every command that writes (-o, --json, --csv):
#   - a symbolic link is followed: its target gets the output, the link stays a link;
#   - a character device or FIFO is written through, never replaced;
#   - a directory, a place no file can be created in (/proc, a missing directory) or one of the
#     inputs is refused before anything runs, with exit 2 from every command;
#   - "-" is standard output for a text format (the command's own lines then on stderr), and
#     is refused for a binary one;
#   - SIGINT or SIGTERM during a write leaves no *.tmp.* file and no output.
# Runs as root too: a device node is made here (mknod) rather than written at /dev/null.
. "$(dirname "$0")/cli_lib.sh"
cli_setup cli_output
export PARLAB_CACHE_DIR="$dir/cache" # peaks --quick, if it ever measured, writes here only

# A fast bench run (a 64x64 transpose, one repeat) and a small input matrix.
BENCH="bench transpose --size 64 --variant cpu-naive --repeats 1 --min-time 0 --no-peaks"
npy in.npy '<f4' '(2, 3)' "$f1$f2$f3$f4$f5$f6"
printf '#N blinker\nx = 3, y = 1, rule = B3/S23\n3o!\n' >blinker.rle

# ---------------------------------------------------------------- symbolic links are followed
npy old.npy '<f4' '(1, 1)' "$f8"
mkdir real
cp old.npy real/target.npy
ln -s real/target.npy link.npy
run 0 "transpose -o a link" transpose in.npy -o link.npy
[ -L link.npy ] && ok || bad "link.npy is no longer a symbolic link"
same_values real/target.npy "1 4 2 5 3 6" && ok || bad "the link's target did not get the output"
ln -s real/new.npy dangling.npy
run 0 "transpose -o a dangling link" transpose in.npy -o dangling.npy
{ [ -L dangling.npy ] && [ -f real/new.npy ]; } && ok || bad "a dangling link: its target was not created through it"
echo old >real/r.json
ln -s real/r.json link.json
run 0 "bench --json a link" $BENCH --json link.json
{ [ -L link.json ] && grep -q '"schema"' real/r.json; } && ok || bad "bench --json through a link: $(ls -l link.json)"
no_tmp_files

# ---------------------------------------------------------------- devices and FIFOs are written through
if mknod dev_null c 1 3 2>/dev/null; then
    devnull=dev_null # a /dev/null of our own: a wrong parlab replaces this one, not the machine's
elif [ "$(id -u)" != 0 ]; then
    devnull=/dev/null # not root: /dev/null cannot be replaced anyway
else
    devnull=
    echo "skipped: the device checks (root without mknod: a wrong parlab could replace /dev/null)"
fi
if [ -n "$devnull" ]; then
    run 0 "bench --json a device" $BENCH --json "$devnull"
    [ -c "$devnull" ] && ok || bad "bench --json $devnull: no longer a character device: $(ls -l "$devnull")"
    run 0 "bench --csv a device" $BENCH --csv "$devnull"
    [ -c "$devnull" ] && ok || bad "bench --csv $devnull: no longer a character device"
    run 0 "transpose -o a device" transpose in.npy -o "$devnull"
    [ -c "$devnull" ] && ok || bad "transpose -o $devnull: no longer a character device"
    run 0 "life -o a device" life blinker.rle --gens 1 -o "$devnull"
    [ -c "$devnull" ] && ok || bad "life -o $devnull: no longer a character device"
fi
[ -c /dev/null ] && ok || bad "/dev/null is no longer a character device"
mkfifo fifo
timeout 30 cat fifo >from_fifo.json &
reader=$!
run 0 "bench --json a FIFO" $BENCH --json fifo
wait $reader
[ -p fifo ] && ok || bad "bench --json fifo: no longer a FIFO: $(ls -l fifo)"
grep -q '"schema": "parlab-bench/' from_fifo.json && ok || bad "the FIFO's reader did not get the JSON: $(head -c 200 from_fifo.json)"
timeout 30 cat fifo >from_fifo.npy &
reader=$!
run 0 "transpose -o a FIFO" transpose in.npy -o fifo
wait $reader
{ [ -p fifo ] && same_values from_fifo.npy "1 4 2 5 3 6"; } && ok || bad "transpose -o fifo: the reader lacks B"
no_tmp_files

# ---------------------------------------------------------------- refused before anything runs
mkdir outdir
# a gemm that runs for many seconds: refused at once
start=$(date +%s%N)
timeout 60 "$PARLAB" bench gemm --size 1536 --variant cpu-naive --repeats 3 --no-peaks --json outdir >out.txt 2>err.txt
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
[ "$rc" = 2 ] && ok || bad "bench --json a directory: exit $rc, expected 2"
[ "$ms" -lt 3000 ] && ok || bad "bench --json a directory: refused after $ms ms, not before running"
expect_err "bench --json a directory" "outdir"
expect_err "bench --json a directory" "is a directory"
run 2 "transpose -o a directory" transpose in.npy -o outdir
expect_err "transpose -o a directory" "outdir: is a directory"
run 2 "mem --json a directory" mem stream --quick --json outdir
run 2 "report -o a directory" report from_fifo.json -o outdir
start=$(date +%s%N)
run 2 "peaks --json a directory" peaks --quick --json outdir
ms=$((($(date +%s%N) - start) / 1000000))
[ "$ms" -lt 3000 ] && ok || bad "peaks --json a directory: refused after $ms ms, not before measuring"
run 2 "life -o a directory" life blinker.rle --gens 1 -o outdir
[ -z "$(ls -A outdir)" ] && ok || bad "outdir got: $(ls -A outdir)"

# the output is one of the inputs (also through a link): refused, the input untouched
cp in.npy keep.npy
run 2 "transpose in.npy -o in.npy" transpose in.npy -o in.npy
expect_err "transpose in.npy -o in.npy" "is the input in.npy"
cmp -s in.npy keep.npy && ok || bad "in.npy was changed"
ln -s in.npy in_link.npy
run 2 "transpose in.npy -o a link to it" transpose in.npy -o in_link.npy
cmp -s in.npy keep.npy && ok || bad "in.npy was changed through its link"
run 2 "gemm: -o the second input" gemm in.npy keep.npy -o keep.npy
run 2 "life: -o the pattern" life blinker.rle --gens 1 -o blinker.rle
cp from_fifo.json run.json
run 2 "report: -o an input" report run.json -o run.json

# nowhere to create the file: exit 2 from every command, before running
for where in /proc/parlab_x missing_dir/x; do
    run 2 "bench --json $where" $BENCH --json $where
    run 2 "bench --csv $where" $BENCH --csv $where
    run 2 "sweep --json $where" sweep transpose --variant cpu-naive --size 64 --repeats 1 --min-time 0 --no-peaks --json $where
    run 2 "mem --json $where" mem stream --quick --json $where
    run 2 "report -o $where" report run.json -o $where
    run 2 "peaks --json $where" peaks --show --json $where
    run 2 "transpose -o $where" transpose in.npy -o $where
    run 2 "life -o $where" life blinker.rle --gens 1 -o $where
    expect_err "life -o $where" "$where"
done
mkdir ro && chmod 555 ro
if [ "$(id -u)" != 0 ]; then
    run 2 "bench --json a read-only directory" $BENCH --json ro/x.json
else
    echo "skipped: a read-only directory (root writes in it anyway)"
fi

# ---------------------------------------------------------------- "-": standard output
run 0 "life -o -" life blinker.rle --gens 1 -o -
grep -q '^x = 1, y = 3' out.txt && ok || bad "life -o -: stdout lacks the RLE: $(cat out.txt)"
grep -q 'generation' out.txt && bad "life -o -: its summary line is mixed into the RLE on stdout" || ok
grep -q 'generation 1' err.txt && ok || bad "life -o -: the summary line is not on stderr: $(cat err.txt)"
[ ! -e ./- ] && ok || bad "life -o -: a file named '-' was written"
run 0 "bench --json -" $BENCH --json -
[ "$(head -c 1 out.txt)" = "{" ] && grep -q '"schema": "parlab-bench/' out.txt && ! grep -q 'cpu-naive  ' out.txt &&
    ok || bad "bench --json -: stdout is not the JSON alone: $(head -3 out.txt)"
grep -q 'cpu-naive' err.txt && ok || bad "bench --json -: the table is not on stderr"
run 0 "bench --csv -" $BENCH --csv -
head -1 out.txt | grep -q '^machine,gpu,build,kernel' && ok || bad "bench --csv -: stdout is not the CSV: $(head -2 out.txt)"
run 2 "bench --json - --csv -" $BENCH --json - --csv -
run 0 "report -o -" report run.json -o -
grep -q '<svg' out.txt && ok || bad "report -o -: stdout lacks the page"
run 2 "transpose -o - (binary)" transpose in.npy -o -
expect_err "transpose -o -" "cannot go to standard output"
[ ! -e ./- ] && ok || bad "transpose -o -: a file named '-' was written"
run 2 "report --svg -" report run.json -o page.html --svg -
no_tmp_files

# ---------------------------------------------------------------- a signal during a write
# A 12000x12000 transpose writes 576 MB: killed once its temporary file exists, nothing is left.
big large.npy '(12000, 12000)' $((12000 * 12000 * 4))
for sig in INT TERM; do
    set -m # job control: a background job keeps SIGINT (else the shell ignores it for the job)
    "$PARLAB" transpose large.npy -o large_t.npy >/dev/null 2>&1 &
    pid=$!
    set +m
    seen=
    for _ in $(seq 6000); do # 60 s at most
        for f in large_t.npy.tmp.*; do [ -e "$f" ] && seen=$f; done
        [ -n "$seen" ] && break
        kill -0 $pid 2>/dev/null || break
        sleep 0.01
    done
    kill -$sig $pid 2>/dev/null
    wait $pid
    rc=$?
    if [ -z "$seen" ]; then
        bad "SIG$sig: the temporary file never appeared (exit $rc)"
        continue
    fi
    want=$((128 + $(kill -l $sig)))
    [ "$rc" = "$want" ] && ok || bad "SIG$sig: exit $rc, expected $want (killed by the signal)"
    no_file "SIG$sig during the write" large_t.npy
done
rm -f large.npy large_t.npy*

summary cli_output
