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
    bash -c "cd '$TMP/fid/bench' && sha256sum --quiet -c '$PWD/tests/fidelity/bench.sha256'"
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
t_done
