#!/usr/bin/env bash
# tools/bench_fx.sh BUILD - a post effect against its native equivalent (issue 27): the
# shared FXAA.fx ([effects] post) against --fxaa on the generated demo at 1920x1080,
# MSAA 4, 2 threads. CPU time per frame of the whole process (getrusage through --stats'
# cpu_s, as docs/effects.md measures: wall time on a shared machine measures the
# neighbours), from a 1-frame and a 1+N-frame run so loading cancels out; the median of 3.
set -u
build=${1:-build}
MMD=$build/mmdrender
FX=${BENCH_FX_FILE:-${SHARED_ASSETS:-../shared/assets}/fx/mikumikushaders/FXAA/FXAA.fx}
N=${BENCH_FX_FRAMES:-8}
if [ ! -f "$FX" ] || [ ! -x "$build/tools/mkdemo" ]; then
    echo "bench_fx: skipped (no $FX or mkdemo)"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$build/tools/mkdemo" "$tmp/demo" >/dev/null || exit 1
cp scenes/demo.ini "$tmp/plain.ini"
{ cat scenes/demo.ini; printf "\n[effects]\npost = %s\n" "$(cd "$(dirname "$FX")" && pwd)/$(basename "$FX")"; } >"$tmp/fx.ini"
cpu() { # scene frames extra... -> cpu_s
    local s=$1 f=$2; shift 2
    "$MMD" "$s" -o "$tmp/out/" --size 1920x1080 --aa 4 --threads 2 --progress none -q --stats --frames "$f" "$@" |
        sed -n 's/.*"cpu_s":\([0-9.]*\).*/\1/p'
}
per_frame() { # scene extra... -> ms per frame, the median of 3
    local s=$1; shift
    for r in 1 2 3; do
        a=$(cpu "$s" 0-0 "$@"); b=$(cpu "$s" "0-$N" "$@")
        echo "($b - $a) * 1000 / $N" | bc -l
    done | sort -n | sed -n 2p
}
plain=$(per_frame "$tmp/plain.ini")
native=$(per_frame "$tmp/plain.ini" --fxaa)
fx=$(per_frame "$tmp/fx.ini")
printf 'no effect     %7.1f ms CPU/frame\n' "$plain"
printf -- '--fxaa        %7.1f ms (+%.1f)\n' "$native" "$(echo "$native - $plain" | bc -l)"
printf '%-13s %7.1f ms (+%.1f)\n' "$(basename "$FX")" "$fx" "$(echo "$fx - $plain" | bc -l)"
printf '%s / --fxaa: %.2fx the whole frame (goal <= 1.3x), %.2fx what each adds\n' "$(basename "$FX")" \
    "$(echo "$fx / $native" | bc -l)" "$(echo "($fx - $plain) / ($native - $plain)" | bc -l)"
