#!/usr/bin/env bash
# test_mpi_cluster_example.sh: examples/cluster/cpu.sbatch, the Slurm batch script of a cluster
# user's path, run as its README says to try it without Slurm: under a fake allocation
# (SLURM_NTASKS=2, SLURM_JOB_ID, SLURM_CPUS_PER_TASK) with small blocks. Its mpirun lines must
# run the ping-pong and both benches on 2 ranks, write the tables and a parlab-bench-dist JSON
# per kernel (2 ranks, weak scaling, every block checked) to parlab-cpu-JOBID/, and exit 0;
# without an allocation it must refuse, naming what it needs. gpu.sbatch needs GPUs: not run.
. "$(dirname "$0")/mpi_lib.sh"
mpi_setup test_mpi_cluster_example
script=$(cd "$(dirname "$0")/../../examples/cluster" && pwd)/cpu.sbatch

# A rank a core, as the script binds them, needs 2 cores; with fewer the ranks share one, unbound.
bind="--bind-to core --map-by core"
if [ "$(nproc)" -lt 2 ]; then
    bind="--bind-to none"
    echo "note: $(nproc) core: the ranks run unbound (MPIRUN_BIND), not a rank a core"
fi
SLURM_NTASKS=2 SLURM_JOB_ID=4242 SLURM_CPUS_PER_TASK=1 SLURM_SUBMIT_DIR=$PWD PARLAB=$PARLAB \
    LIFE_SIZE=256 LIFE_GENS=16 CONV_SIZE=256 REPEATS=2 MPIRUN_FLAGS="${MPI_FLAGS[*]} --oversubscribe" MPIRUN_BIND="$bind" \
    timeout -k 5 120 bash "$script" >out.txt 2>err.txt
st=$?
dir=parlab-cpu-4242
if [ $st -eq 0 ] && grep -q "^== 2 ranks x 1 thread(s)" out.txt && [ -s "$dir/pingpong.txt" ]; then ok; else
    bad "status $st: $(tail -5 out.txt err.txt)"; fi
for k in life conv2d; do
    j=$dir/$k.json
    if grep -q '"schema": "parlab-bench-dist/1"' "$j" && grep -q '"ranks": 2,' "$j" && grep -q '"scale": "weak"' "$j" &&
        grep -q "\"kernel\": \"$k\"" "$j" && grep -q "^bench $k on 2 ranks" "$dir/$k.txt"; then ok; else
        bad "$k: $(head -c 600 "$j" 2>&1) $(head -3 "$dir/$k.txt" 2>&1)"; fi
    # the rows: one rank (the baseline) and two, the check named above them
    if grep -Eq "^ +1  1x1 .*\(baseline\)" "$dir/$k.txt" && grep -Eq "^ +2  2x1 " "$dir/$k.txt" &&
        grep -q "^check: " "$dir/$k.txt"; then ok; else bad "$k table: $(cat "$dir/$k.txt")"; fi
done

# No allocation: a refusal that says what is missing, before any mpirun.
(unset SLURM_NTASKS; bash "$script" >out.txt 2>err.txt)
st=$?
if [ $st -ne 0 ] && grep -q "run this under sbatch" err.txt && ! grep -q "^==" out.txt; then ok; else
    bad "no allocation: status $st: $(cat out.txt err.txt | head -5)"; fi
summary test_mpi_cluster_example
