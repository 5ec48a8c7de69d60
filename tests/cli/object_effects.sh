#!/usr/bin/env bash
# tests/cli/object_effects.sh BUILD - MikuMikuEffect object effects (issue 27): our own effects
# (tests/fx/solid.fx, ff_solid.fx, flat.fx, edge_green.fx) on the generated demo's character and its stage
# accessory through scene.ini `effect =`, a same-named .fx beside the file and a project's .emm,
# checked pixel by pixel (tests/util/png_check.py); deterministic across --threads and chunks; a
# broken effect warns and keeps the built-in look, or with --strict-effects exits 2; a post
# effect beside an accessory is not drawn on it.
. tests/util/cli_lib.sh
MKP=$BUILD/tools/mkproject
CHECK="python3 tests/util/png_check.py"
FX=$PWD/tests/fx
demo_scene "object effects" "$MKP" || { t_done; exit; }
SMALL=(--size 160x90 --aa 1 --progress none --frames 12 --no-audio)
F=frame_000012.png
EDGE=1a2633 # the demo character's edge colour as drawn
# scene NAME EFFECT: the demo with the character's effect = EFFECT
scene() { sed "s|^\\[model:demo\\]|[model:demo]\\neffect = $2|" "$S" >"$TMP/$1.ini"; }
same() { cmp -s "$1" "$2" && t_pass "$3" || t_fail "$3"; }

t_expect "plain frame" 0 "$MMD" "$S" -o "$TMP/plain/" "${SMALL[@]}"
scene solid "$FX/solid.fx"
t_expect "solid.fx through scene.ini's effect = (--strict-effects)" 0 "$MMD" "$TMP/solid.ini" -o "$TMP/solid/" \
    "${SMALL[@]}" --strict-effects
t_expect "no warning: the effect is applied" 1 grep -q "warning" <<<"$OUT"
$CHECK only_colour "$TMP/plain/$F" "$TMP/solid/$F" ff00ff && t_pass "solid.fx: the model magenta, every other pixel kept" \
    || t_fail "solid.fx: the model magenta, every other pixel kept"
scene ffsolid "$FX/ff_solid.fx"
t_expect "ff_solid.fx (pixel shaders alone) renders" 0 "$MMD" "$TMP/ffsolid.ini" -o "$TMP/ffsolid/" "${SMALL[@]}" \
    --strict-effects
same "$TMP/solid/$F" "$TMP/ffsolid/$F" \
    "ff_solid.fx: the fixed-function vertex processing puts the model where solid.fx's shader does, byte for byte"
scene flat "$FX/flat.fx"
t_expect "flat.fx renders" 0 "$MMD" "$TMP/flat.ini" -o "$TMP/flat/" "${SMALL[@]}" --strict-effects
$CHECK edge_off "$TMP/plain/$F" "$TMP/solid/$F" "$TMP/flat/$F" $EDGE ff00ff \
    && t_pass "flat.fx: its empty edge technique turns the edge off, nothing outside the model changes" \
    || t_fail "flat.fx: its empty edge technique turns the edge off, nothing outside the model changes"
$CHECK only_colour "$TMP/solid/$F" "$TMP/flat/$F" ff00ff >/dev/null && t_fail "flat.fx draws the materials' colours" \
    || t_pass "flat.fx draws the materials' colours"
scene edge "$FX/edge_green.fx"
t_expect "edge_green.fx renders" 0 "$MMD" "$TMP/edge.ini" -o "$TMP/edge/" "${SMALL[@]}" --strict-effects
$CHECK only_colour "$TMP/plain/$F" "$TMP/edge/$F" 00ff00 \
    && $CHECK edge_off "$TMP/plain/$F" "$TMP/edge/$F" "$TMP/edge/$F" $EDGE 00ff00 \
    && t_pass "edge_green.fx: the edge pass's hull drawn green where the built-in edge was, nothing else" \
    || t_fail "edge_green.fx: the edge pass's hull drawn green where the built-in edge was, nothing else"

# --- deterministic: runs, threads, chunks, MSAA ----------------------------------------
RANGE=(--size 160x90 --progress none --frames 10-13 --no-audio)
t_expect "flat.fx, 1 thread" 0 "$MMD" "$TMP/flat.ini" -o "$TMP/t1/" "${RANGE[@]}" --threads 1
t_expect "flat.fx, 3 threads" 0 "$MMD" "$TMP/flat.ini" -o "$TMP/t3/" "${RANGE[@]}" --threads 3
t_expect "flat.fx, chunk 0/2" 0 "$MMD" "$TMP/flat.ini" -o "$TMP/ch/" "${RANGE[@]}" --chunk 0/2
t_expect "flat.fx, chunk 1/2" 0 "$MMD" "$TMP/flat.ini" -o "$TMP/ch/" "${RANGE[@]}" --chunk 1/2
ok=1
for f in 10 11 12 13; do
    cmp -s "$TMP/t1/frame_0000$f.png" "$TMP/t3/frame_0000$f.png" || ok=0
    cmp -s "$TMP/t1/frame_0000$f.png" "$TMP/ch/frame_0000$f.png" || ok=0
done
[ $ok -eq 1 ] && t_pass "flat.fx: the same bytes across --threads 1/3 and chunks 0/2 1/2" \
    || t_fail "flat.fx: the same bytes across --threads 1/3 and chunks 0/2 1/2"
t_expect "plain, 4 frames" 0 "$MMD" "$S" -o "$TMP/p4/" "${RANGE[@]}"
cmp -s "$TMP/p4/frame_000013.png" "$TMP/t1/frame_000013.png" && t_fail "flat.fx changes every frame (MSAA 4)" \
    || t_pass "flat.fx changes every frame (MSAA 4)"

# --- MME's same-named .fx beside the model ------------------------------------------------
mkdir -p "$TMP/beside"
cp "$TMP/demo/"* "$TMP/beside/"
cp "$FX/solid.fx" "$TMP/beside/Character.FX" # Windows' letter case: the same name
cp "$FX/copy.fx" "$TMP/beside/stage.fx"       # a post effect beside the stage: over the frame, not its passes
sed "s|demo/|$TMP/beside/|g" "$S" >"$TMP/beside.ini"
t_expect "the same-named .fx beside the model is applied" 0 "$MMD" "$TMP/beside.ini" -o "$TMP/bes/" "${SMALL[@]}" \
    --strict-effects
same "$TMP/solid/$F" "$TMP/bes/$F" "same-named .fx = scene.ini's effect =, byte for byte (the post effect beside the stage not drawn on it)"
grep -q "is a post effect\|is not applied" <<<"$OUT" && t_fail "a post effect beside an accessory is its post effect: no warning" \
    || t_pass "a post effect beside an accessory is its post effect: no warning"

# --- an accessory's effect ----------------------------------------------------------
sed "s|^\\[accessory:stage\\]|[accessory:stage]\\neffect = $FX/solid.fx|" "$S" >"$TMP/acc.ini"
t_expect "solid.fx on the stage accessory" 0 "$MMD" "$TMP/acc.ini" -o "$TMP/acc/" "${SMALL[@]}" --strict-effects
$CHECK only_colour "$TMP/plain/$F" "$TMP/acc/$F" ff00ff && t_pass "solid.fx: the stage magenta (at its placement), every other pixel kept" \
    || t_fail "solid.fx: the stage magenta (at its placement), every other pixel kept"

# --- a project's .emm -----------------------------------------------------------------
"$MKP" "$TMP/p" >/dev/null || t_fail "mkproject writes the fixtures"
P=$TMP/p/proj/song.pmm
A=$TMP/p/assets
SZ=(--asset-root "$A" --frames 0 --size 64x48 --aa 1 --progress none --no-audio)
rm -f "$TMP/p/proj/song.emm"
t_expect "the project without its .emm" 0 "$MMD" "$P" -o "$TMP/pj0/" "${SZ[@]}" -q
"$MKP" "$TMP/p" >/dev/null
cp "$FX/solid.fx" "$TMP/p/proj/AutoLuminous.fx" # the .emm's Pmd1 (the dancer), found by its bare name
t_expect "the project with the .emm's Pmd1 = solid.fx" 0 "$MMD" "$P" -o "$TMP/pj1/" "${SZ[@]}" --strict-effects
$CHECK only_colour "$TMP/pj0/frame_000000.png" "$TMP/pj1/frame_000000.png" ff00ff \
    && t_pass ".emm: the dancer magenta, every other pixel kept" || t_fail ".emm: the dancer magenta, every other pixel kept"
t_expect "export the project" 0 "$MMD" export "$P" "$TMP/pexp" --asset-root "$A"
t_expect "render the export" 0 "$MMD" "$TMP/pexp/scene.ini" -o "$TMP/pj2/" --frames 0 --size 64x48 --aa 1 \
    --progress none --no-audio -q
same "$TMP/pj1/frame_000000.png" "$TMP/pj2/frame_000000.png" "project render = export render, byte for byte"

# --- failure: one warning, the built-in look; --strict-effects exits 2 -----------------
scene broken "$FX/broken.fx"
t_expect "a broken object effect renders" 0 "$MMD" "$TMP/broken.ini" -o "$TMP/br/" "${SMALL[@]}"
t_grep "one warning naming the model, file and why" "warning: model 'demo': effect .*broken\\.fx \\(scene\\.ini\\) is not applied: .*broken\\.fx:[0-9]+"
same "$TMP/plain/$F" "$TMP/br/$F" "the model keeps the built-in look, byte for byte"
t_expect "--strict-effects: exit 2" 2 "$MMD" "$TMP/broken.ini" -o "$TMP/br2/" "${SMALL[@]}" --strict-effects
t_grep "the error names the model and the file" "model 'demo': effect .*broken\\.fx"
scene missing "$TMP/no_such.fx"
t_expect "a missing effect file in scene.ini is the scene's error (as for post effects)" 2 "$MMD" "$TMP/missing.ini" \
    -o "$TMP/mi/" "${SMALL[@]}"
t_grep "it names file:line" "missing\\.ini:[0-9]+: cannot read effect file"
t_done
