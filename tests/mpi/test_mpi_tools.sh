#!/usr/bin/env bash
# test_mpi_tools.sh: the file tools under mpirun (conv2d, entropy, gemm, reduce on .npy files
# read and written block by block with MPI-IO) on 1, 2, 3 and 4 ranks against the one-process
# tool: exact for int32 conv2d and entropy, within a bound for float32 (conv2d, GEMM, reduce);
# sizes that do not divide (67x61, 1000x1001). Faults: an image format, shapes that do not
# multiply, a missing file, more ranks than rows, --batch, values past the bins (the old output
# kept, no temporary file), dot (one process only): one message from rank 0, the one-process
# exit status, never a hang (60 s).
. "$(dirname "$0")/mpi_lib.sh"
mpi_setup test_mpi_tools
command -v python3 >/dev/null || { echo "skipped: no python3 to write the .npy inputs"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
mk() { python3 "$here/mknpy.py" "$@"; }
close() { python3 "$here/npy_close.py" "$@"; }

# expect_one_error STATUS WANT TEXT: the last run exited WANT with exactly one error line holding TEXT.
expect_one_error() {
    local st=$1 want=$2 text=$3 n
    n=$(grep -c '^parlab: error:' err.txt)
    if [ "$st" -eq "$want" ] && [ "$n" -eq 1 ] && grep -q -- "$text" err.txt; then ok; else
        bad "want status $want and one error with '$text', got $st and $n: $(head -5 err.txt)"; fi
}
# same_as_one P NAME CHECK CMD...: CMD on P ranks writes d.npy; the one-process CMD wrote one.npy
# (made by the caller); CHECK is "exact" or a tolerance.
same_as_one() {
    local p=$1 name=$2 check=$3 st
    shift 3
    run_n "$p" 60 "$PARLAB" "$@" -o d.npy
    st=$?
    if [ $st -ne 0 ]; then bad "$name on $p ranks: status $st $(head -5 err.txt)"; return; fi
    if [ "$check" = exact ]; then cmp -s d.npy one.npy && ok || bad "$name on $p ranks: differs from one process"
    else close d.npy one.npy "$check" && ok || bad "$name on $p ranks: not within $check of one process"; fi
}

mk img.npy f4 67 61 1
mk imgi.npy i4 1000 1001 2
mk vals.npy u1 67 61 3 0 15
mk A.npy f4 67 61 4
mk B.npy f4 61 53 5
mk C0.npy f4 67 53 6
filter5=1,2,1,2,4,2,1,2,1,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1

"$PARLAB" conv2d img.npy --filter 1,2,1,2,4,2,1,2,1 -o one.npy >/dev/null
for p in 1 2 3 4; do same_as_one $p "conv2d f32 valid" 1e-6 conv2d img.npy --filter 1,2,1,2,4,2,1,2,1; done
"$PARLAB" conv2d img.npy --filter 1,2,1,2,4,2,1,2,1 --mode same --border reflect -o one.npy >/dev/null
for p in 2 4; do same_as_one $p "conv2d f32 same reflect" 1e-6 conv2d img.npy --filter 1,2,1,2,4,2,1,2,1 --mode same --border reflect; done
"$PARLAB" conv2d imgi.npy --filter $filter5 --mode same --border clamp -o one.npy >/dev/null
same_as_one 3 "conv2d i32 1000x1001 same clamp" exact conv2d imgi.npy --filter $filter5 --mode same --border clamp
grep -q "on 3 ranks" out.txt && grep -q "^ranks (the slowest's): compute" out.txt && ok || bad "conv2d's lines: $(cat out.txt)"

"$PARLAB" entropy vals.npy -o one.npy >/dev/null
for p in 1 2 3 4; do same_as_one $p entropy exact entropy vals.npy; done

"$PARLAB" gemm A.npy B.npy --c0 C0.npy --alpha 2 --beta 0.5 -o one.npy >/dev/null
for p in 1 2 3 4; do same_as_one $p gemm 1e-5 gemm A.npy B.npy --c0 C0.npy --alpha 2 --beta 0.5; done

for axis in 0 1; do
    "$PARLAB" reduce A.npy --op mean --axis $axis -o one.npy >/dev/null
    for p in 2 3 4; do same_as_one $p "reduce mean axis $axis" 1e-5 reduce A.npy --op mean --axis $axis; done
done

# the faults
cp img.npy img.png
run_n 2 60 "$PARLAB" conv2d img.png --filter 1 -o x.npy; expect_one_error $? 2 "under mpirun the ranks read and write .npy"
run_n 3 60 "$PARLAB" gemm A.npy A.npy -o x.npy; expect_one_error $? 2 "shapes do not multiply"
run_n 4 60 "$PARLAB" reduce missing.npy -o x.npy; expect_one_error $? 1 "missing.npy: cannot open"
mk tiny.npy f4 1 1 7
run_n 4 60 "$PARLAB" reduce tiny.npy -o x.npy; expect_one_error $? 2 "larger than rows"
run_n 2 60 "$PARLAB" entropy --batch vals.npy -o outdir; expect_one_error $? 2 "--batch runs on one process"
mk big.npy u1 67 61 8 0 255
echo "old bytes" >keep.npy
run_n 3 60 "$PARLAB" entropy big.npy -o keep.npy; expect_one_error $? 1 "outside \[0, 16)"
[ "$(cat keep.npy)" = "old bytes" ] && ! ls ./*.tmp.* >/dev/null 2>&1 && ok || bad "a failed run changed keep.npy or left a temporary file"
run_n 2 60 "$PARLAB" dot A.npy A.npy; expect_one_error $? 2 "does not run distributed yet"
summary test_mpi_tools
