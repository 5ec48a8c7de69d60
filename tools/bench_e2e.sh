#!/usr/bin/env bash
# tools/bench_e2e.sh BUILD - end-to-end render rate of the demo scene at 1920x1080 MSAA 4:
# render only (-o null), to H.264 MP4 (default preset veryfast, then superfast and ultrafast) and
# to PNG, with the share of wall time spent rendering, blocked on the output queue, and encoding
# (on the encoder thread, overlapping the render), and the process CPU time per frame (all threads;
# startup included).
# Goal: end-to-end >= 0.9 x the render-only rate. When render-only already keeps every core busy,
# the most an output can reach is (render-only CPU per frame) / (its own CPU per frame): the
# "CPU bound" column. BENCH_E2E_FRAMES (default 90) frames.
set -u
build=${1:-build}
frames=${BENCH_E2E_FRAMES:-90}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tools/mkdemo" "$tmp/demo" >/dev/null || { echo "bench_e2e: mkdemo failed"; exit 1; }
cp scenes/demo.ini "$tmp/scene.ini"
run() { # output, extra options...; prints the --stats line, then the process CPU seconds (user + sys, all threads)
    local TIMEFORMAT='%U %S' t out=$1
    shift
    { t=$( { time "$build/mmdrender" "$tmp/scene.ini" -o "$out" --size 1920x1080 --aa 4 \
        --frames "60-$((60 + frames - 1))" --progress none --stats "$@" 2>/dev/null | tail -n 1 >"$tmp/stats"; } 2>&1 ); }
    cat "$tmp/stats"
    awk '{ printf " \"cpu_s\":%.3f\n", $1 + $2 }' <<<"$t"
}
field() { sed -E "s/.*\"$2\":([0-9.]+).*/\1/" <<<"$1"; }
base_fps=0 base_cpu=0
echo "frames: $frames at 1920x1080 MSAA4 (demo scene), $(nproc) cores"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (the CPU column is the steadier figure on a shared machine)"
printf '%-18s %7s %7s %9s %8s %9s %13s %10s\n' output fps "x base" "render %" "wait %" "encode %" "CPU ms/frame" "CPU bound"
row() { # label, output, extra options...
    local label=$1 out=$2 s st cpu
    shift 2
    s=$(run "$out" "$@")
    st=$(head -n 1 <<<"$s"); cpu=$(field "$(tail -n 1 <<<"$s")" cpu_s)
    if [ "$out" = null ]; then base_fps=$(field "$st" fps); base_cpu=$cpu; fi
    awk -v l="$label" -v f="$(field "$st" fps)" -v b="$base_fps" -v w="$(field "$st" wall_s)" \
        -v r="$(field "$st" render_s)" -v q="$(field "$st" queue_wait_s)" -v e="$(field "$st" encode_s)" \
        -v c="$cpu" -v bc="$base_cpu" -v n="$frames" \
        'BEGIN { printf "%-18s %7.2f %7.2f %8.1f%% %7.1f%% %8.1f%% %13.1f %10.2f\n", l, f, (b > 0 ? f / b : 0),
                 100*r/w, 100*q/w, 100*e/w, 1000*c/n, (c > 0 ? bc / c : 0) }'
}
row render-only null
row h264-mp4 "$tmp/out.mp4"
row h264-superfast "$tmp/out.mp4" --preset superfast
row h264-ultrafast "$tmp/out.mp4" --preset ultrafast
row png "$tmp/png/"
