#!/usr/bin/env bash
# test_install.sh: `make install` gives what a C program needs: parlab.h, the libraries and a
# pkg-config file; a program that includes <parlab.h> builds with `pkg-config --cflags --libs
# parlab` against the installed copy and computes a GEMM through pl_sgemm.
set -u
B=${PL_BUILDDIR:?PL_BUILDDIR must name the build directory}
T=${PL_TESTDIR:-$(mktemp -d)}
if [ "${PL_SANITIZE:-OFF}" = ON ]; then echo "skipped: sanitizer build (its library needs the ASan runtime)"; exit 77; fi
. "$(dirname "$0")/cli_lib.sh"
command -v pkg-config >/dev/null || skip_test "the install test: no pkg-config" pkg-config
rm -rf "$T"; mkdir -p "$T"
cmake --install "$B" --prefix "$T/pfx" >"$T/install.log" 2>&1 || { cat "$T/install.log"; echo "FAIL: cmake --install"; exit 1; }
for f in include/parlab.h lib/libparlab.a bin/parlab; do
  [ -e "$T/pfx/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
ls "$T"/pfx/lib/libparlab.so* >/dev/null 2>&1 || { echo "FAIL: libparlab.so not installed"; exit 1; }
cat >"$T/use.c" <<'C'
#include <parlab.h>
#include <stdio.h>
int main(void)
{
    float A[6] = {1, 2, 3, 4, 5, 6}, B[6] = {1, 0, 0, 1, 1, 1}, C[4];
    pl_ctx *ctx = NULL;
    if (pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 1) != PL_OK) return 1;
    if (pl_sgemm(ctx, 2, 2, 3, 1.0f, A, 3, B, 2, 0.0f, C, 2) != PL_OK) {
        puts(pl_last_error());
        return 1;
    }
    printf("%g %g %g %g\n", C[0], C[1], C[2], C[3]);
    pl_ctx_destroy(ctx);
    return 0;
}
C
export PKG_CONFIG_PATH="$T/pfx/lib/pkgconfig"
flags=$(pkg-config --cflags --libs parlab) || { echo "FAIL: pkg-config does not know parlab"; exit 1; }
cc "$T/use.c" -o "$T/use" $flags -Wl,-rpath,"$T/pfx/lib" || { echo "FAIL: compile/link with: $flags"; exit 1; }
out=$("$T/use") || { echo "FAIL: the program failed: $out"; exit 1; }
# A = [1 2 3; 4 5 6], B = [1 0; 0 1; 1 1]: C = [4 5; 10 11]
[ "$out" = "4 5 10 11" ] || { echo "FAIL: got '$out', want '4 5 10 11'"; exit 1; }
# The installed command runs with no LD_LIBRARY_PATH: its RPATH finds every library it was
# linked with (CUDA's runtime in a CUDA build), wherever the prefix is.
[ -z "$(env -u LD_LIBRARY_PATH ldd "$T/pfx/bin/parlab" | grep 'not found')" ] ||
  { echo "FAIL: the installed parlab lacks libraries without LD_LIBRARY_PATH: $(env -u LD_LIBRARY_PATH ldd "$T/pfx/bin/parlab" | grep 'not found')"; exit 1; }
# Where ld.so.conf lists CUDA's directory (as here) ldd finds it anyway: every library outside
# the system's directories must be found through the RUNPATH itself. The distribution's own
# tree counts as the system's (Debian's OpenBLAS lives in /usr/lib/<multiarch>/openblas-pthread,
# listed in ld.so.conf by its alternatives); /usr/local and /opt do not.
runpath=$(readelf -d "$T/pfx/bin/parlab" | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]/\1/p' | sed "s#\$ORIGIN#$T/pfx/bin#g")
search=" "; for d in ${runpath//:/ }; do search+="$(realpath -m "$d") "; done
system=" "; for d in /lib /usr/lib /lib64 /usr/lib64 /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /usr/lib/gcc/x86_64-linux-gnu/*; do
  [ -d "$d" ] && system+="$(realpath "$d") "; done
for lib in $(env -u LD_LIBRARY_PATH ldd "$T/pfx/bin/parlab" | awk '/=> \//{print $3}'); do
  d=$(dirname "$(realpath "$lib")")
  case "$system" in *" $d "*) continue ;; esac
  case "$d" in /lib/*|/usr/lib/*|/lib64/*|/usr/lib64/*) continue ;; esac
  case "$search" in *" $d "*) ;; *) echo "FAIL: $lib ($d) is found only through the loader's own paths; the RUNPATH is '$runpath'"; exit 1 ;; esac
done
env -u LD_LIBRARY_PATH "$T/pfx/bin/parlab" list >"$T/list.txt" 2>&1 && grep -q gemm "$T/list.txt" ||
  { echo "FAIL: the installed parlab does not run without LD_LIBRARY_PATH: $(head -c 300 "$T/list.txt")"; exit 1; }
# A static link through pkg-config --static: libparlab.a and its Libs.private. In a CUDA build
# the archive holds nvcc's C++ objects, so Libs.private names -lstdc++.
private=$(sed -n 's/^Libs.private: //p' "$T/pfx/lib/pkgconfig/parlab.pc")
if grep -q -- "-lcudart" <<<"$private"; then
  grep -q -- "-lstdc++" <<<"$private" || { echo "FAIL: a CUDA build's Libs.private lacks -lstdc++: $private"; exit 1; }
fi
static_flags=$(pkg-config --static --libs parlab | sed "s#-lparlab\b#$T/pfx/lib/libparlab.a#")
rpaths=$(for d in $(pkg-config --static --libs-only-L parlab); do printf -- ' -Wl,-rpath,%s' "${d#-L}"; done)
cc "$T/use.c" -o "$T/use_static" $(pkg-config --cflags parlab) $static_flags $rpaths ||
  { echo "FAIL: static link with: $static_flags"; exit 1; }
out=$(env -u LD_LIBRARY_PATH "$T/use_static") || { echo "FAIL: the static program failed: $out"; exit 1; }
[ "$out" = "4 5 10 11" ] || { echo "FAIL: static: got '$out', want '4 5 10 11'"; exit 1; }
echo "install: 3 passed, 0 failed"
