#!/usr/bin/env bash
# tests/cli/physics.sh BUILD - rigid-body physics through the real binary.
# (a) the generated demo (hair chains and skirt simulated) renders byte-identical
#     PNGs whole, in 3 chunks (each chunk pre-rolls and simulates from frame 0)
#     and with other --threads values, over frames where the hair swings;
# (b) physics really runs: every frame differs from --no-physics, the static
#     start pose (frames 0-15) included;
# (b2) pose --scene --physics gives pose MODEL --physics's world matrices;
# (c) Gene_light (87 bodies) with a shared motion: whole run vs 3 chunks, byte
#     identical (skipped without ../shared).
. tests/util/cli_lib.sh
[ -x "$MMD" ] || { echo "not ok 1 - $MMD missing"; echo "# counts: 0 passed, 1 failed, 0 skipped"; exit 1; }
MKDEMO=$BUILD/tools/mkdemo
if [ ! -f scenes/demo.ini ] || [ ! -x "$MKDEMO" ]; then
    t_skip "physics" "scenes/demo.ini or $MKDEMO not there"; t_done; exit
fi
S=$TMP/scene
mkdir -p "$S"
cp scenes/demo.ini "$S/"
if ! "$MKDEMO" "$S/demo" >"$TMP/mkdemo.log" 2>&1; then
    t_fail "demo assets" "$(tail -3 "$TMP/mkdemo.log")"; t_done; exit
fi
SCENE=$S/demo.ini
OUT=$("$MMD" info "$S/demo/character.pmx" 2>&1)
t_grep "demo character has rigid bodies" '^rigid bodies: +[1-9][0-9]*'
t_grep "demo character has joints" '^joints: +[1-9][0-9]*'

frames_of() { (cd "$1" && ls frame_*.png 2>/dev/null | sed 's/frame_0*\([0-9]\)/\1/; s/\.png$//' | sort -n | tr '\n' ' '); }
same_dir() { # REF DIR: DIR has PNGs, each byte-identical to REF's
    local f bad=0 n=0
    for f in "$2"/frame_*.png; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        cmp -s "$f" "$1/$(basename "$f")" || { bad=1; echo "differs: $(basename "$f")"; }
    done
    [ $n -gt 0 ] || { echo "no frames in $2"; return 1; }
    return $bad
}

# (a) frames 0..90 every 10: the dance starts at 30, the hair swings after it. --aa 1 (tests/cli/chunks.sh:
# MSAA 4 with the default anisotropic filter makes some frames of the demo ten times dearer here)
R=(--size 160x90 --aa 1 --frames 0-90:10 -q)
t_expect "demo with physics, whole" 0 "$MMD" "$SCENE" -o "$TMP/ref/" "${R[@]}" --threads 1
[ "$(frames_of "$TMP/ref")" = "0 10 20 30 40 50 60 70 80 90 " ] && t_pass "10 frames" ||
    t_fail "10 frames" "$(frames_of "$TMP/ref")"
all=""; bad=""
for i in 0 1 2; do
    "$MMD" "$SCENE" -o "$TMP/c$i/" "${R[@]}" --threads 1 --chunk "$i/3" || t_fail "chunk $i/3 exit"
    all+="$(frames_of "$TMP/c$i")"
    same_dir "$TMP/ref" "$TMP/c$i" >"$TMP/c$i.log" || bad+=" $i: $(tr '\n' ' ' <"$TMP/c$i.log")"
done
[ "$all" = "0 10 20 30 40 50 60 70 80 90 " ] && t_pass "3 chunks cover the frames once" || t_fail "3 chunks cover" "$all"
[ -z "$bad" ] && t_pass "3 chunks byte-identical to the whole run" || t_fail "chunks identical" "$bad"
t_expect "--threads 2" 0 "$MMD" "$SCENE" -o "$TMP/th2/" "${R[@]}" --threads 2
OUT=$(same_dir "$TMP/ref" "$TMP/th2") && t_pass "identical with --threads 2" || t_fail "identical with --threads 2" "$OUT"
t_expect "--chunk 2/3 --threads 0" 0 "$MMD" "$SCENE" -o "$TMP/c2t0/" "${R[@]}" --threads 0 --chunk 2/3
OUT=$(same_dir "$TMP/ref" "$TMP/c2t0") && t_pass "last chunk with --threads 0 identical" ||
    t_fail "last chunk with --threads 0 identical" "$OUT"

# (b) physics runs: every frame without it differs (hair and skirt keep their
# rest shape), frames 0 and 10 included, where the body still holds its start
# pose and only what the pre-roll moved (hair and skirt settling) can differ
t_expect "--no-physics" 0 "$MMD" "$SCENE" -o "$TMP/nophys/" "${R[@]}" --threads 1 --no-physics
ndiff=0
for f in "$TMP"/nophys/frame_*.png; do cmp -s "$f" "$TMP/ref/$(basename "$f")" || ndiff=$((ndiff + 1)); done
[ "$ndiff" -eq 10 ] && t_pass "all 10 frames differ from --no-physics" || t_fail "physics changes frames" "$ndiff of 10 differ"

# (b2) [gravity] keys drive the physics world's gravity (issue 16): MMD's
# default written out gives the same bytes; gravity pulling up from frame 0
# moves hair and skirt, and a key at frame 30 changes nothing before it
cp "$SCENE" "$S/grav_down.ini"; printf '\n[gravity]\nkey = 0 9.8 0 -1 0\n' >>"$S/grav_down.ini"
cp "$SCENE" "$S/grav_up.ini"; printf '\n[gravity]\nkey = 0 9.8 0 1 0\n' >>"$S/grav_up.ini"
cp "$SCENE" "$S/grav_late.ini"; printf '\n[gravity]\nkey = 30 9.8 0 1 0\n' >>"$S/grav_late.ini"
G=(--size 160x90 --aa 1 --frames 0-40:20 -q --threads 1)
for g in down up late; do "$MMD" "$S/grav_$g.ini" -o "$TMP/g_$g/" "${G[@]}" || t_fail "gravity $g exit"; done
cmp -s "$TMP/g_down/frame_000020.png" "$TMP/ref/frame_000020.png" && t_pass "gravity 9.8 down = no [gravity], byte for byte" ||
    t_fail "gravity 9.8 down = no [gravity]"
cmp -s "$TMP/g_up/frame_000020.png" "$TMP/ref/frame_000020.png" && t_fail "gravity up changes the frame" ||
    t_pass "gravity up changes the frame"
cmp -s "$TMP/g_late/frame_000020.png" "$TMP/ref/frame_000020.png" && t_pass "a gravity key at frame 30 leaves frame 20 alone" ||
    t_fail "a gravity key at frame 30 leaves frame 20 alone"
cmp -s "$TMP/g_late/frame_000040.png" "$TMP/ref/frame_000040.png" && t_fail "and changes frame 40" ||
    t_pass "and changes frame 40"

# (b2) pose --scene --physics poses the scene's model as pose MODEL --physics
# does (the same warm-up and frames a render has); without --physics it differs
worlds() { grep -o '"world":\[\(\[[^]]*\],\?\)*\]'; }
P=(--frames 0:90:10 --json)
"$MMD" pose "$S/demo/character.pmx" --motion "$S/demo/dance.vmd" --physics "${P[@]}" 2>/dev/null | worlds >"$TMP/pm.txt"
"$MMD" pose --scene "$SCENE" --physics "${P[@]}" 2>/dev/null | worlds >"$TMP/ps.txt"
"$MMD" pose --scene "$SCENE" "${P[@]}" 2>/dev/null | worlds >"$TMP/pn.txt"
[ "$(wc -l <"$TMP/ps.txt")" -eq 10 ] && cmp -s "$TMP/pm.txt" "$TMP/ps.txt" &&
    t_pass "pose --scene --physics = pose MODEL --physics (10 frames)" || t_fail "pose --scene --physics" "$(wc -l <"$TMP/ps.txt") frames"
cmp -s "$TMP/pn.txt" "$TMP/ps.txt" && t_fail "pose --scene without --physics differs" || t_pass "pose --scene without --physics differs"
err=$("$MMD" pose --scene "$SCENE" --physics --json --frames 10,0 2>&1 >/dev/null)
[ $? -eq 1 ] && grep -q "ascending" <<<"$err" && t_pass "pose --scene --physics refuses frames that do not ascend" ||
    t_fail "pose --scene --physics ascending" "$err"

# (c) Gene_light with a shared motion, physics on: whole vs 3 chunks
GENE=$SHARED_ASSETS/gene
if [ -f "$GENE/Gene_light.pmx" ] && [ -f "$GENE/motion/22_apology.vmd" ]; then
    cat >"$TMP/gene.ini" <<EOF
[output]
fps = 30
antialias = 1
[camera]
target = 0 10 0
distance = -40
[model:gene]
file = $(cd "$GENE" && pwd)/Gene_light.pmx
motion = $(cd "$GENE" && pwd)/motion/22_apology.vmd
physics = on
EOF
    G=(--size 160x160 --frames 0-60:12 -q --threads 1)
    t_expect "Gene_light with physics, whole" 0 "$MMD" "$TMP/gene.ini" -o "$TMP/g/" "${G[@]}"
    [ "$(frames_of "$TMP/g")" = "0 12 24 36 48 60 " ] && t_pass "Gene: 6 frames" || t_fail "Gene: 6 frames" "$(frames_of "$TMP/g")"
    all=""; bad=""
    for i in 0 1 2; do
        "$MMD" "$TMP/gene.ini" -o "$TMP/g$i/" "${G[@]}" --chunk "$i/3" || t_fail "Gene chunk $i/3 exit"
        all+="$(frames_of "$TMP/g$i")"
        same_dir "$TMP/g" "$TMP/g$i" >"$TMP/g$i.log" || bad+=" $i: $(tr '\n' ' ' <"$TMP/g$i.log")"
    done
    [ "$all" = "0 12 24 36 48 60 " ] && t_pass "Gene: 3 chunks cover the frames once" || t_fail "Gene chunks cover" "$all"
    [ -z "$bad" ] && t_pass "Gene: 3 chunks byte-identical to the whole run" || t_fail "Gene chunks identical" "$bad"
    "$MMD" "$TMP/gene.ini" -o "$TMP/gn/" "${G[@]}" --no-physics
    ndiff=0
    for f in "$TMP"/gn/frame_*.png; do cmp -s "$f" "$TMP/g/$(basename "$f")" || ndiff=$((ndiff + 1)); done
    [ "$ndiff" -gt 0 ] && t_pass "Gene: physics changes frames ($ndiff of 6)" || t_fail "Gene: physics changes frames"
else
    t_skip "Gene_light physics chunks" "skipped: no ../shared"
fi
t_done
