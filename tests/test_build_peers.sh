#!/usr/bin/env bash
# test_build_peers.sh: an optional peer whose pieces are on this machine was found at configure
# time. cuDNN's header may be in the CUDA toolkit or where Debian/Ubuntu packages put it
# (/usr/include/x86_64-linux-gnu); OpenBLAS's cblas.h in /usr/include or the multiarch folder.
# A CUDA build on a machine with cudnn.h in any of those places must not list peer-cudnn as
# "built without cuDNN"; likewise peer-openblas with cblas.h and libopenblas, the distributed layer
# with Open MPI's mpicc and mpirun, libpng and zlib with their headers. A build configured before
# a package was installed fails here; `make` configures such a build again (scripts/packages.sh).
. "$(dirname "$0")/cli_lib.sh"
cli_setup build_peers

machine=$("$PARLAB" list 2>&1 | sed -n 's/^machine: //p')
[ -n "$machine" ] && ok || bad "parlab list printed no machine line"

# cuDNN
nvcc_dir=$(command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
places=(/usr/include/x86_64-linux-gnu/cudnn.h /usr/include/cudnn.h /usr/local/include/cudnn.h)
[ -n "$nvcc_dir" ] && places+=("$(dirname "$(readlink -f "$nvcc_dir")")/../include/cudnn.h")
have_header=""
for h in "${places[@]}"; do [ -e "$h" ] && have_header=$h && break; done
case "$machine" in
*"no CUDA build"*) echo "skipped: the cuDNN check: this is not a CUDA build" ;;
*)
    if [ -z "$have_header" ]; then
        echo "skipped: the cuDNN check: no cudnn.h in the toolkit or ${places[*]}"
    else
        case "$machine" in
        *"cuDNN header yes"*) ok ;;
        *) bad "cudnn.h is at $have_header, yet the build did not find it: $machine" ;;
        esac
        out=$("$PARLAB" list conv2d 2>&1 | grep -A1 "peer-cudnn")
        if echo "$out" | grep -q "built without cuDNN"; then bad "peer-cudnn: $out"; else ok; fi
    fi ;;
esac

# OpenBLAS
if { [ -e /usr/include/x86_64-linux-gnu/cblas.h ] || [ -e /usr/include/cblas.h ]; } &&
    ls /usr/lib/x86_64-linux-gnu/libopenblas.so* >/dev/null 2>&1; then
    case "$machine" in
    *"OpenBLAS yes"*) ok ;;
    *) bad "OpenBLAS is installed, yet the build did not find it: $machine" ;;
    esac
else
    missing "the OpenBLAS check: no cblas.h and libopenblas in the multiarch folders" "libopenblas-dev"
fi

# MPI, libpng, zlib: the build's PL_HAVE_* (tests/CMakeLists.txt passes them) against what is here.
found() { # found NAME HAVE PRESENT(0/1) PACKAGE OPTION: OPTION OFF (PARLAB_MPI=OFF ...) is the user's choice
    if [ "$5" = OFF ]; then
        echo "skipped: the $1 check: the build was configured without it (PARLAB_$1=OFF)"
    elif [ "$3" = 1 ]; then
        [ "$2" = ON ] && ok || bad "$1 is installed, yet the build did not find it (PL_HAVE=$2): configure again"
    else
        missing "the $1 check: $1 is not installed" "$4"
    fi
}
command -v mpicc >/dev/null && command -v mpirun >/dev/null && have=1 || have=0
found MPI "${PL_HAVE_MPI:-OFF}" $have "libopenmpi-dev openmpi-bin" "${PL_OPT_MPI:-AUTO}"
[ -e /usr/include/png.h ] || [ -e /usr/include/libpng/png.h ] && have=1 || have=0
found PNG "${PL_HAVE_PNG:-OFF}" $have libpng-dev "${PL_OPT_PNG:-ON}"
[ -e /usr/include/zlib.h ] && have=1 || have=0
found ZLIB "${PL_HAVE_ZLIB:-OFF}" $have zlib1g-dev "${PL_OPT_ZLIB:-ON}"

echo "test_build_peers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
