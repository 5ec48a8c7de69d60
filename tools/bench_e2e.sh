#!/usr/bin/env bash
# tools/bench_e2e.sh BUILD - end-to-end render rate of the demo scene at 1920x1080 MSAA 4:
# render only (-o null), to H.264 MP4 and to PNG, with the share of wall time spent rendering,
# blocked on the output queue, and encoding (on the encoder thread, overlapping the render), and the
# process CPU time per frame (all threads; startup included).
# Goal: end-to-end >= 0.9 x the render-only rate. BENCH_E2E_FRAMES (default 30) frames.
set -u
build=${1:-build}
frames=${BENCH_E2E_FRAMES:-30}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tools/mkdemo" "$tmp/demo" >/dev/null || { echo "bench_e2e: mkdemo failed"; exit 1; }
cp scenes/demo.ini "$tmp/scene.ini"
run() { # label, output; prints the --stats line, then the process CPU seconds (user + sys, all threads)
    local TIMEFORMAT='%U %S' t
    { t=$( { time "$build/mmdrender" "$tmp/scene.ini" -o "$2" --size 1920x1080 --aa 4 \
        --frames "60-$((60 + frames - 1))" --progress none --stats 2>/dev/null | tail -n 1 >"$tmp/stats"; } 2>&1 ); }
    cat "$tmp/stats"
    awk '{ printf " \"cpu_s\":%.3f\n", $1 + $2 }' <<<"$t"
}
field() { sed -E "s/.*\"$2\":([0-9.]+).*/\1/" <<<"$1"; }
base_fps=0
echo "frames: $frames at 1920x1080 MSAA4 (demo scene), $(nproc) cores"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (the CPU column is the steadier figure on a shared machine)"
printf '%-12s %8s %8s %10s %10s %10s %12s\n' output fps "x base" "render %" "wait %" "encode %" "CPU ms/frame"
for out in null "$tmp/out.mp4" "$tmp/png/"; do
    s=$(run x "$out"); [ "$out" = null ] && base_fps=$(field "$(head -n 1 <<<"$s")" fps)
    label=$([ "$out" = null ] && echo render-only || { [ "${out%/}" = "$out" ] && echo h264-mp4 || echo png; })
    st=$(head -n 1 <<<"$s"); cpu=$(field "$(tail -n 1 <<<"$s")" cpu_s)
    wall=$(field "$st" wall_s); fps=$(field "$st" fps)
    awk -v l="$label" -v f="$fps" -v b="$base_fps" -v w="$wall" -v r="$(field "$st" render_s)" \
        -v q="$(field "$st" write_s)" -v e="$(field "$st" encode_s)" -v c="$cpu" -v n="$frames" \
        'BEGIN { printf "%-12s %8.2f %8.2f %9.1f%% %9.1f%% %9.1f%% %12.1f\n", l, f, (b > 0 ? f / b : 0), 100*r/w, 100*q/w, 100*e/w, 1000*c/n }'
done
