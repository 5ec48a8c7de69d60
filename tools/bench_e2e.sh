#!/usr/bin/env bash
# tools/bench_e2e.sh BUILD - end-to-end render rate of the demo scene at 1920x1080 MSAA 4:
# render only (-o null), to H.264 MP4 and to PNG, with the share of wall time spent rendering,
# blocked on the output queue, and encoding (on the encoder thread, overlapping the render).
# Goal: end-to-end >= 0.9 x the render-only rate. BENCH_E2E_FRAMES (default 30) frames.
set -u
build=${1:-build}
frames=${BENCH_E2E_FRAMES:-30}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tools/mkdemo" "$tmp/demo" >/dev/null || { echo "bench_e2e: mkdemo failed"; exit 1; }
cp scenes/demo.ini "$tmp/scene.ini"
run() { # label, output
    "$build/mmdrender" "$tmp/scene.ini" -o "$2" --size 1920x1080 --aa 4 --frames "60-$((60 + frames - 1))" \
        --progress none --stats 2>/dev/null | tail -n 1
}
field() { sed -E "s/.*\"$2\":([0-9.]+).*/\1/" <<<"$1"; }
base=$(run render null)
base_fps=$(field "$base" fps)
echo "frames: $frames at 1920x1080 MSAA4 (demo scene), $(nproc) cores"
printf '%-12s %8s %8s %10s %10s %10s\n' output fps "x base" "render %" "wait %" "encode %"
for out in null "$tmp/out.mp4" "$tmp/png/"; do
    if [ "$out" = null ]; then s=$base; label=render-only; else s=$(run x "$out"); label=$([ "${out%/}" = "$out" ] && echo h264-mp4 || echo png); fi
    wall=$(field "$s" wall_s); fps=$(field "$s" fps)
    awk -v l="$label" -v f="$fps" -v b="$base_fps" -v w="$wall" -v r="$(field "$s" render_s)" \
        -v q="$(field "$s" write_s)" -v e="$(field "$s" encode_s)" \
        'BEGIN { printf "%-12s %8.2f %8.2f %9.1f%% %9.1f%% %9.1f%%\n", l, f, (b > 0 ? f / b : 0), 100*r/w, 100*q/w, 100*e/w }'
done
