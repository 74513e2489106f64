#!/usr/bin/env bash
# test_install.sh: `make install` gives what a C program needs: parlab.h, the libraries and a
# pkg-config file; a program that includes <parlab.h> builds with `pkg-config --cflags --libs
# parlab` against the installed copy and computes a GEMM through pl_sgemm.
set -u
B=${PL_BUILDDIR:?PL_BUILDDIR must name the build directory}
T=${PL_TESTDIR:-$(mktemp -d)}
if [ "${PL_SANITIZE:-OFF}" = ON ]; then echo "skipped: sanitizer build (its library needs the ASan runtime)"; exit 77; fi
command -v pkg-config >/dev/null || { echo "skipped: no pkg-config"; exit 77; }
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
echo "install: 1 passed, 0 failed"
