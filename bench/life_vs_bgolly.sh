#!/usr/bin/env bash
# life_vs_bgolly.sh: parlab life against Golly's bgolly (QuickLife) on the same pattern for the
# same generations: the final populations must agree, then the times and their ratio.
#
#   bench/life_vs_bgolly.sh soup SIZE GENS [DENSITY] [SEED]   a SIZE x SIZE torus soup
#   bench/life_vs_bgolly.sh pattern FILE.rle GENS              FILE as it is (the unbounded plane
#                                                              unless its rule has a :T/:P suffix)
#
# bgolly is Debian's package golly (apt-get install golly). PARLAB names the parlab executable
# (default build/parlab); PARLAB_ARGS are added to its command (e.g. "--variant cpu-bitpacked").
# Times: parlab's are its own generation loop (printed by parlab life); bgolly's are its wall time
# for GENS generations minus its wall time for 0 (reading the file), the best of 3 runs each.
set -euo pipefail
mode=${1:-}
PARLAB=${PARLAB:-build/parlab}
command -v bgolly >/dev/null || { echo "life_vs_bgolly: bgolly not found (Debian: apt-get install golly)" >&2; exit 2; }
[ -x "$PARLAB" ] || { echo "life_vs_bgolly: $PARLAB is not executable (make build, or set PARLAB)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/life-vs-bgolly.XXXXXX")
trap 'rm -rf "$work"' EXIT

case "$mode" in
soup)
    size=${2:?size}; gens=${3:?gens}; density=${4:-0.5}; seed=${5:-1}
    pattern=$work/soup.rle
    "$PARLAB" life --soup "${size}x${size}" --density "$density" --seed "$seed" --gens 0 -o "$pattern" >/dev/null
    what="${size}x${size} torus soup, density $density, seed $seed" ;;
pattern)
    pattern=${2:?pattern file}; gens=${3:?gens}
    what="$(basename "$pattern")" ;;
*)
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac

# best of 3 wall times (s) of a command; its last stdout line in $work/last
best_wall() {
    local best="" t0 t1 t
    for _ in 1 2 3; do
        t0=$(date +%s.%N)
        "$@" 2>/dev/null | tail -n 1 >"$work/last"
        t1=$(date +%s.%N)
        t=$(echo "$t1 - $t0" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
    done
    echo "$best"
}

load_s=$(best_wall bgolly -a QuickLife -m 0 "$pattern")
run_s=$(best_wall bgolly -a QuickLife -m "$gens" "$pattern")
bgolly_pop=$(sed 's/^[0-9,]*: //; s/,//g' "$work/last")
bgolly_s=$(echo "$run_s - $load_s" | bc -l)

parlab_s=""
for _ in 1 2 3; do
    out=$("$PARLAB" life "$pattern" --gens "$gens" ${PARLAB_ARGS:-})
    ms=$(echo "$out" | sed -n 's/.* in \([0-9.]*\) ms.*/\1/p' | tail -n 1)
    s=$(echo "$ms / 1000" | bc -l)
    if [ -z "$parlab_s" ] || [ "$(echo "$s < $parlab_s" | bc -l)" = 1 ]; then parlab_s=$s; best_out=$out; fi
done
out=$best_out
parlab_pop=$(echo "$out" | sed -n "s/^generation $gens: population \([0-9]*\),.*/\1/p")
how=$(echo "$out" | tail -n 1)

echo "pattern:  $what, $gens generations"
echo "parlab:   $how (best of 3)"
printf 'bgolly:   QuickLife, %.3f ms (%.3f ms with reading the file, best of 3)\n' \
    "$(echo "$bgolly_s * 1000" | bc -l)" "$(echo "$run_s * 1000" | bc -l)"
if [ "$parlab_pop" != "$bgolly_pop" ]; then
    echo "populations DIFFER: parlab $parlab_pop, bgolly $bgolly_pop"
    exit 1
fi
echo "population at generation $gens: $parlab_pop (both)"
printf 'parlab %.3f ms, bgolly %.3f ms: parlab runs %.2fx as fast as bgolly\n' "$(echo "$parlab_s * 1000" | bc -l)" \
    "$(echo "$bgolly_s * 1000" | bc -l)" "$(echo "$bgolly_s / $parlab_s" | bc -l)"
