#!/usr/bin/env bash
# tools/bench_e2e.sh BUILD - end-to-end render rate of the demo scene at 1920x1080 MSAA 4:
# render only (-o null), to H.264 MP4 (default preset veryfast, then superfast and ultrafast) and
# to PNG, with the share of wall time spent rendering, blocked on the output queue, and encoding
# (on the encoder thread, overlapping the render), and the process CPU time per frame (all threads;
# startup included).
# Goal: end-to-end >= 0.9 x the render-only rate. When render-only already keeps every core busy,
# the most an output can reach is (render-only CPU per frame) / (its own CPU per frame): the
# "CPU bound" column.
# A shared or virtual machine's speed drifts between runs, so the outputs run in turns,
# BENCH_E2E_ROUNDS times (default 3), and every column is the median over the rounds.
# BENCH_E2E_FRAMES (default 90) frames per run.
set -u
build=${1:-build}
frames=${BENCH_E2E_FRAMES:-90}
rounds=${BENCH_E2E_ROUNDS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tools/mkdemo" "$tmp/demo" >/dev/null || { echo "bench_e2e: mkdemo failed"; exit 1; }
cp scenes/demo.ini "$tmp/scene.ini"

labels=(render-only h264-mp4 h264-superfast h264-ultrafast png)
outs=(null "$tmp/out.mp4" "$tmp/out.mp4" "$tmp/out.mp4" "$tmp/png/")
extra=("" "" "--preset superfast" "--preset ultrafast" "")

# run I: appends "fps render% wait% encode% cpu_ms_per_frame" to $tmp/r.I
run() {
    local i=$1 TIMEFORMAT='%U %S' t st
    # shellcheck disable=SC2086 # extra options are words
    { t=$( { time "$build/mmdrender" "$tmp/scene.ini" -o "${outs[$i]}" --size 1920x1080 --aa 4 \
        --frames "60-$((60 + frames - 1))" --progress none --stats ${extra[$i]} 2>/dev/null \
        | tail -n 1 >"$tmp/stats"; } 2>&1 ); }
    st=$(cat "$tmp/stats")
    f() { sed -E "s/.*\"$1\":([0-9.]+).*/\1/" <<<"$st"; }
    awk -v fps="$(f fps)" -v w="$(f wall_s)" -v r="$(f render_s)" -v q="$(f queue_wait_s)" \
        -v e="$(f encode_s)" -v c="$t" -v n="$frames" \
        'BEGIN { split(c, u, " "); printf "%s %s %s %s %s\n", fps, 100*r/w, 100*q/w, 100*e/w, 1000*(u[1]+u[2])/n }' \
        >>"$tmp/r.$i"
    rm -rf "$tmp/png" "$tmp/out.mp4"
}
median() { # column C of file F
    sort -g -k "$2,$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "frames: $frames at 1920x1080 MSAA4 (demo scene), $(nproc) cores, median of $rounds rounds (outputs in turns)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((k = 0; k < rounds; k++)); do
    for i in "${!labels[@]}"; do run "$i"; done
done
base_fps=$(median "$tmp/r.0" 1) base_cpu=$(median "$tmp/r.0" 5)
printf '%-18s %7s %7s %9s %8s %9s %13s %10s\n' output fps "x base" "render %" "wait %" "encode %" "CPU ms/frame" "CPU bound"
for i in "${!labels[@]}"; do
    awk -v l="${labels[$i]}" -v f="$(median "$tmp/r.$i" 1)" -v b="$base_fps" -v r="$(median "$tmp/r.$i" 2)" \
        -v q="$(median "$tmp/r.$i" 3)" -v e="$(median "$tmp/r.$i" 4)" -v c="$(median "$tmp/r.$i" 5)" \
        -v bc="$base_cpu" -v spread="$(sort -g "$tmp/r.$i" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f", lo, hi }')" \
        'BEGIN { printf "%-18s %7.2f %7.2f %8.1f%% %7.1f%% %8.1f%% %13.1f %10.2f   (fps %s)\n", l, f, (b > 0 ? f / b : 0),
                 r, q, e, c, (c > 0 ? bc / c : 0), spread }'
done
