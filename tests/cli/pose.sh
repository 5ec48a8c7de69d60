#!/usr/bin/env bash
# tests/cli/pose.sh - `mmdrender pose`: usage errors, bad input, JSON output
# on Gene_light (rest and a motion) compared with the babylon-mmd reference.
. tests/util/cli_lib.sh
GENE=$SHARED_ASSETS/gene
REF=${SHARED_REFERENCE:-$SHARED_ASSETS/../reference}

t_expect "no arguments is a usage error" 1 "$MMD" pose
t_expect "bad frame list is a usage error" 1 "$MMD" pose x.pmx --frames 5:1
t_grep "bad frame list is named" "bad --frames"
t_expect "unknown option is a usage error" 1 "$MMD" pose x.pmx --frames 0 --bogus
t_expect "missing model is an input error" 2 "$MMD" pose "$TMP/none.pmx" --frames 0
printf 'not a model' > "$TMP/bad.pmx"
t_expect "garbage model is an input error" 2 "$MMD" pose "$TMP/bad.pmx" --frames 0
t_expect "--help exits 0" 0 "$MMD" pose --help

# --- --physics on generated files (tools/mkfixture: a leg swinging through a skirt flap) ---
MKFIX=$BUILD/tools/mkfixture
"$MKFIX" skirt "$TMP/skirt.pmx" && "$MKFIX" leg "$TMP/leg.vmd"
t_expect "pose --physics" 0 "$MMD" pose "$TMP/skirt.pmx" --motion "$TMP/leg.vmd" --physics --frames 0:60:30
t_grep "physics flagged in the JSON" '^\{"bones":\["センター","leg","skirt","skirt_tip"\],"physics":true,"frames":\['
"$MMD" pose "$TMP/skirt.pmx" --motion "$TMP/leg.vmd" --physics --frames 0:60:30 >"$TMP/p1.json" 2>&1
"$MMD" pose "$TMP/skirt.pmx" --motion "$TMP/leg.vmd" --physics --frames 0:60:30 >"$TMP/p2.json" 2>&1
cmp -s "$TMP/p1.json" "$TMP/p2.json" && t_pass "pose --physics: two runs give the same bytes" ||
    t_fail "pose --physics: two runs give the same bytes"
"$MMD" pose "$TMP/skirt.pmx" --motion "$TMP/leg.vmd" --frames 0:60:30 >"$TMP/p0.json" 2>&1
cmp -s "$TMP/p1.json" "$TMP/p0.json" && t_fail "physics moves the skirt" || t_pass "physics moves the skirt"
# the skirt's world matrix at frame 60 (third matrix): pushed in front of the leg, not flipped behind it
skirt60() { grep '"frame":60' "$1" | sed 's/\],\[/\n/g' | sed -n 3p | cut -d, -f6,7; }
OUT=$("$MMD" pose "$TMP/skirt.pmx" --motion "$TMP/leg.vmd" --physics --frames 60 2>&1)
t_grep "a range starting at frame 60 warms up" '"physics":true'
echo "$OUT" >"$TMP/p60.json"
a=$(skirt60 "$TMP/p1.json"); b=$(skirt60 "$TMP/p60.json")
awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, ","); split(b, y, ",");
    ta = atan2(x[2], x[1]) * 57.2958; tb = atan2(y[2], y[1]) * 57.2958;
    exit !(ta > 60 && tb > 60 && ta - tb < 3 && tb - ta < 3) }' &&
    t_pass "skirt at frame 60: warm-up at 60 within 3 deg of the run from 0, in front of the leg ($a | $b)" ||
    t_fail "skirt at frame 60 agrees with the run from 0" "run from 0: $a, from 60: $b"
t_expect "--physics needs ascending frames" 1 "$MMD" pose "$TMP/skirt.pmx" --physics --frames 60,30
t_grep "ascending frames named" 'needs ascending frames'

if [ ! -f "$GENE/Gene_light.pmx" ]; then
    t_skip "pose on Gene_light" "skipped: no ../shared"
    t_done; exit $?
fi
t_expect "missing motion is an input error" 2 "$MMD" pose "$GENE/Gene_light.pmx" --motion "$TMP/none.vmd" --frames 0
"$MMD" pose "$GENE/Gene_light.pmx" --motion "$GENE/motion/22_apology.vmd" --frames 0:150:10 --json \
    > "$TMP/apology.json" 2> "$TMP/err.txt"
rc=$?
if [ $rc -eq 0 ]; then t_pass "pose with a motion exits 0"; else t_fail "pose with a motion exits 0" "exit $rc"; fi
if command -v python3 >/dev/null && [ -f "$REF/gene_light__22_apology.pose.json" ]; then
    OUT=$(python3 - "$REF/gene_light__22_apology.pose.json" "$TMP/apology.json" <<'PY'
import json, sys
ref = json.load(open(sys.argv[1])); got = json.load(open(sys.argv[2]))
assert ref["bones"] == got["bones"], "bone names differ"
assert [f["frame"] for f in ref["frames"]] == [f["frame"] for f in got["frames"]], "frames differ"
worst = 0.0
for fr, fg in zip(ref["frames"], got["frames"]):
    for b, (wr, wg) in enumerate(zip(fr["world"], fg["world"])):
        if ref["bones"][b] == "前クローク2_2錘":  # parent evaluated after it (see pose.c)
            continue
        worst = max(worst, max(abs(wr[i] - wg[i]) for i in (12, 13, 14)))
    for k, v in fr["morphs"].items():
        assert abs(v - fg["morphs"][k]) < 1e-6, k
print("max %.3g" % worst)
assert worst < 1e-3
PY
    )
    if [ $? -eq 0 ]; then t_pass "pose JSON matches the reference ($OUT)"; else t_fail "pose JSON matches the reference" "$OUT"; fi
else
    t_skip "pose JSON matches the reference" "skipped: no python3 or reference"
fi
t_expect "fractional frames and lists" 0 "$MMD" pose "$GENE/Gene_light.pmx" --frames 0.5,1:2:0.5
t_grep "four frames" '"frame":2\b'
t_done
