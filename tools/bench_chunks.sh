#!/usr/bin/env bash
# tools/bench_chunks.sh BUILD - farm chunk overhead: the demo scene rendered to PNG in one
# run vs as 4 chunks of a quarter of the frames each (--chunk I/4, run one after another
# like 4 farm tasks on one node), with the same thread count. The difference is what a
# chunk pays again: process start, scene/model/texture load, GL context, and the physics
# pre-roll from the range's first frame. Also: whether the chunks' PNGs equal the run's.
# BENCH_CHUNK_FRAMES (default 48), BENCH_CHUNK_SIZE (default 640x360), BENCH_CHUNK_THREADS (1).
set -u
build=${1:-build}
frames=${BENCH_CHUNK_FRAMES:-48}
size=${BENCH_CHUNK_SIZE:-640x360}
threads=${BENCH_CHUNK_THREADS:-1}
mmd=$build/mmdrender
if [ ! -x "$build/tools/mkdemo" ] || [ ! -f scenes/demo.ini ] || ! "$mmd" --help 2>&1 | grep -q -- '--chunk'; then
    echo "bench_chunks: needs the render CLI, scenes/demo.ini and $build/tools/mkdemo"; exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tools/mkdemo" "$tmp/demo" >/dev/null || { echo "bench_chunks: mkdemo failed"; exit 1; }
cp scenes/demo.ini "$tmp/scene.ini"
now() { date +%s.%N; }
render() { "$mmd" "$tmp/scene.ini" --size "$size" --frames "0-$((frames - 1))" --threads "$threads" -q "$@"; }
t0=$(now); render -o "$tmp/whole/" || exit 1; t1=$(now)
declare -a ct
for i in 0 1 2 3; do
    a=$(now); render -o "$tmp/chunks/" --chunk "$i/4" || exit 1; b=$(now)
    ct[i]=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b - a }')
done
t2=$(now); render -o null --frames 0-0 || exit 1; t3=$(now)   # start-up + one frame
same=yes
for f in "$tmp"/whole/frame_*.png; do cmp -s "$f" "$tmp/chunks/$(basename "$f")" || same=no; done
[ "$(ls "$tmp/chunks" | wc -l)" = "$frames" ] || same=no
echo "frames: $frames at $size (demo scene, PNG), --threads $threads, $(nproc) cores"
awk -v one="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" -v c0="${ct[0]}" -v c1="${ct[1]}" \
    -v c2="${ct[2]}" -v c3="${ct[3]}" -v st="$(awk -v a="$t2" -v b="$t3" 'BEGIN { print b - a }')" -v n="$frames" -v same="$same" '
BEGIN {
    sum = c0 + c1 + c2 + c3
    printf "one run:            %7.3f s  (%.2f fps)\n", one, n / one
    printf "4 chunks of %d:     %7.3f s  (%.3f %.3f %.3f %.3f; %.2f fps)\n", n / 4, sum, c0, c1, c2, c3, n / sum
    printf "chunk overhead:     %+7.3f s  = %+.1f%% of the one run (%.3f s per extra chunk)\n", sum - one, 100 * (sum - one) / one, (sum - one) / 3
    printf "start-up (1 frame, no output): %.3f s\n", st
    printf "chunks byte-identical to the one run: %s\n", same
}'
