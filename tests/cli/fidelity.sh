#!/usr/bin/env bash
# tests/cli/fidelity.sh - the fidelity suite (tools/fidelity.sh, `make fidelity`) as a regression
# floor: every pair of $SHARED_REFERENCE/mmd renders, and none gets worse than its row in
# tests/fidelity/floor.tsv (SSIM, share of pixels over 16 levels) beyond a noise margin. Raise a
# row when a change improves its pair. The bench_room pairs hold only while mkbench generates the
# bytes MikuMikuDance rendered: tests/fidelity/bench.sha256.
. tests/util/cli_lib.sh
margin=0.002
floor=tests/fidelity/floor.tsv
ref=${SHARED_REFERENCE:-../shared/reference}/mmd
if [ ! -d "$ref" ]; then
    t_skip "fidelity suite" "no ../shared"
    t_done; exit
fi
t_expect "every reference pair renders and compares" 0 \
    env FIDELITY_OUT="$TMP/fid" bash tools/fidelity.sh "$BUILD" "$TMP/now.tsv"
echo "$OUT" | sed 's/^/# /'
t_expect "the bench scene is the one MikuMikuDance rendered" 0 \
    bash -c "cd '$TMP/fid/bench_root/bench' && sha256sum --quiet -c '$PWD/tests/fidelity/bench.sha256'"
for png in "$ref"/*.mmd.png; do
    name=$(basename "$png" .mmd.png)
    row=$(awk -F'\t' -v n="$name" '$1 == n' "$floor")
    now=$(awk -F'\t' -v n="$name" '$1 == n' "$TMP/now.tsv")
    if [ -z "$row" ]; then t_fail "$name has a floor" "add it to $floor"; continue; fi
    if [ -z "$now" ]; then t_fail "$name measured"; continue; fi
    verdict=$(awk -v r="$row" -v n="$now" -v m=$margin 'BEGIN{split(r, a, "\t"); split(n, b, "\t");
        if (b[2] < a[2] - m) print "SSIM " b[2] " below its floor " a[2];
        else if (b[4] > a[3] + m) print "over16 " b[4] " above its floor " a[3];
        else print "ok"}')
    if [ "$verdict" = ok ]; then t_pass "$name holds its floor"; else t_fail "$name holds its floor" "$verdict"; fi
done
# The project's self-shadow switch: bench_room_f90 with MMD's self-shadow off (its u8 and its key's
# mode zeroed; the section sits 80 + 12 + 11 bytes before the end for two models) renders
# without the self-shadow: more than 1 % of the pixels differ from the render with it.
if command -v python3 >/dev/null; then
    python3 - "$ref/bench_room_f90_ss1.pmm" "$TMP/ss0.pmm" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
k = len(b) - 11 - 80 - 12 - 4 - 18  # the self-shadow initial key (frame, prev, next, mode, distance, selected)
assert b[k - 5] == 1 and b[k + 12] == 1, "self-shadow on, mode 1"
b[k - 5] = 0
b[k + 12] = 0
open(sys.argv[2], 'wb').write(b)
PY
    t_expect "self-shadow off: info says so" 0 "$MMD" info "$TMP/ss0.pmm" --asset-root "$TMP/fid/bench_root"
    t_grep "self-shadow off: read" 'self-shadow 1 \(off\)'
    t_expect "self-shadow off renders" 0 "$MMD" "$TMP/ss0.pmm" --asset-root "$TMP/fid/bench_root" --frames 90-90 -o "$TMP/ss0/" -q
    t_expect "self-shadow off differs from on" 1 "$MMD" diff "$TMP/ss0/frame_000090.png" "$TMP/fid/bench_room_f90_ss1/frame_000090.png" --threshold 16 --max-fraction 0.01
else
    t_skip "self-shadow switch" "no python3"
fi
t_done
