#!/usr/bin/env bash
# tests/cli/object_effects.sh BUILD - MikuMikuEffect object effects (issue 27): our own effects
# (tests/fx/solid.fx, ff_solid.fx, flat.fx, edge_green.fx, shadow_off.fx, shadow_green.fx,
# shadow_colour.fx, object_only.fx, subset.fx, the self-shadow map's zplot_none.fx, self_shadow.fx,
# self_shadow_zplot.fx) on the generated demo's character and its stage accessory through
# scene.ini `effect =`, a same-named .fx beside the file and a project's .emm, checked pixel by
# pixel (tests/util/png_check.py); MME's technique choice (object techniques with the self-shadow
# on, Subset); deterministic across --threads and chunks; a broken effect warns and keeps the
# built-in look, or with --strict-effects exits 2; a post effect beside an accessory is not drawn
# on it.
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

# --- MMD's self-shadow map: zplot and register(s0) (the demo's self-shadow is on) -----------
scene zplot_none "$FX/zplot_none.fx"
t_expect "zplot_none.fx renders" 0 "$MMD" "$TMP/zplot_none.ini" -o "$TMP/zplot_none/" "${SMALL[@]}" --strict-effects
$CHECK lighter "$TMP/plain/$F" "$TMP/zplot_none/$F" \
    && t_pass "zplot_none.fx: an empty zplot technique casts no self-shadow (those pixels lit, none darker)" \
    || t_fail "zplot_none.fx: an empty zplot technique casts no self-shadow (those pixels lit, none darker)"
scene ss "$FX/self_shadow.fx"
scene ssz "$FX/self_shadow_zplot.fx"
t_expect "self_shadow.fx renders" 0 "$MMD" "$TMP/ss.ini" -o "$TMP/ss/" "${SMALL[@]}" --strict-effects
t_expect "self_shadow_zplot.fx renders" 0 "$MMD" "$TMP/ssz.ini" -o "$TMP/ssz/" "${SMALL[@]}" --strict-effects
lit=$($CHECK count "$TMP/ss/$F" 00ff00)
dark=$($CHECK count "$TMP/ss/$F" 0000ff)
[ "$lit" -gt 100 ] && [ "$dark" -gt 100 ] \
    && t_pass "self_shadow.fx: its receiver reads the map at s0 ($lit lit green, $dark shadowed blue)" \
    || t_fail "self_shadow.fx: its receiver reads the map at s0 ($lit lit green, $dark shadowed blue)"
$CHECK only_colour "$TMP/plain/$F" "$TMP/ss/$F" 00ff00,0000ff \
    && t_pass "self_shadow.fx: only its receivers change (the built-in materials beside them keep their bytes)" \
    || t_fail "self_shadow.fx: only its receivers change (the built-in materials beside them keep their bytes)"
same "$TMP/ss/$F" "$TMP/ssz/$F" "self_shadow_zplot.fx: the effect's zplot draws the map the built-in pass draws"
# --- the ground shadow (MMDPass "shadow"): the demo's character casts it on the stage ----------
sed "s|^\\[output\\]|[output]\\nground_shadow = off|" "$S" >"$TMP/noground.ini"
t_expect "no ground shadow" 0 "$MMD" "$TMP/noground.ini" -o "$TMP/noground/" "${SMALL[@]}"
scene shoff "$FX/shadow_off.fx"
t_expect "shadow_off.fx renders" 0 "$MMD" "$TMP/shoff.ini" -o "$TMP/shoff/" "${SMALL[@]}" --strict-effects
cmp -s "$TMP/plain/$F" "$TMP/noground/$F" && t_fail "the plain frame shows the ground shadow" \
    || t_pass "the plain frame shows the ground shadow"
same "$TMP/noground/$F" "$TMP/shoff/$F" "shadow_off.fx: its empty shadow technique turns the ground shadow off, nothing else changes"
scene shgreen "$FX/shadow_green.fx"
t_expect "shadow_green.fx renders" 0 "$MMD" "$TMP/shgreen.ini" -o "$TMP/shgreen/" "${SMALL[@]}" --strict-effects
$CHECK same_mask "$TMP/noground/$F" "$TMP/plain/$F" "$TMP/shgreen/$F" 00ff00 \
    && t_pass "shadow_green.fx: green at exactly the built-in ground shadow's pixels (WORLD flattened)" \
    || t_fail "shadow_green.fx: green at exactly the built-in ground shadow's pixels (WORLD flattened)"
sed "s|^\\[output\\]|[output]\\nground_shadow_translucent = on|" "$TMP/shgreen.ini" >"$TMP/shtr.ini"
sed "s|^\\[output\\]|[output]\\nground_shadow_translucent = on|" "$S" >"$TMP/tr.ini"
t_expect "translucent ground shadow" 0 "$MMD" "$TMP/tr.ini" -o "$TMP/tr/" "${SMALL[@]}"
t_expect "shadow_green.fx, translucent ground shadow" 0 "$MMD" "$TMP/shtr.ini" -o "$TMP/shtr/" "${SMALL[@]}"
$CHECK same_mask "$TMP/noground/$F" "$TMP/tr/$F" "$TMP/shtr/$F" 00ff00 \
    && t_pass "shadow_green.fx over the translucent shadow's stencil: the same pixels, green" \
    || t_fail "shadow_green.fx over the translucent shadow's stencil: the same pixels, green"
# shadow_colour.fx draws as full.fx does (GROUNDSHADOWCOLOR): MMD's own bytes, MSAA 4, opaque and
# translucent (without the stencil as the effect's base state the translucent frame differs)
AA4=(--size 160x90 --progress none --frames 12 --no-audio)
scene shcol "$FX/shadow_colour.fx"
sed "s|^\\[output\\]|[output]\\nground_shadow_translucent = on|" "$TMP/shcol.ini" >"$TMP/shcoltr.ini"
for n in scene tr shcol shcoltr; do
    ini=$TMP/$n.ini
    [ $n = scene ] && ini=$S
    t_expect "$n.ini at MSAA 4" 0 "$MMD" "$ini" -o "$TMP/${n}4/" "${AA4[@]}" --strict-effects
done
same "$TMP/scene4/$F" "$TMP/shcol4/$F" "shadow_colour.fx: the built-in ground shadow's bytes"
same "$TMP/tr4/$F" "$TMP/shcoltr4/$F" "shadow_colour.fx, translucent: the built-in bytes (each pixel darkened once)"

# the stage's ground shadow too (shadow = on; nanoem's Accessory::drawGroundShadow: the shadow
# technique per subset), the same effect on the character and the stage
sed "s|^shadow = off .*|shadow = on|" "$S" >"$TMP/accsh.ini"
sed "s|^\\[output\\]|[output]\\nground_shadow = off|" "$TMP/accsh.ini" >"$TMP/accsh_ng.ini"
for n in accsh accsh_ng; do
    t_expect "$n.ini renders" 0 "$MMD" "$TMP/$n.ini" -o "$TMP/$n/" "${SMALL[@]}"
done
for n in off green colour; do
    sed -e "s|^\\[model:demo\\]|[model:demo]\\neffect = $FX/shadow_$n.fx|" \
        -e "s|^\\[accessory:stage\\]|[accessory:stage]\\neffect = $FX/shadow_$n.fx|" "$TMP/accsh.ini" >"$TMP/both_$n.ini"
    t_expect "shadow_$n.fx on the character and the stage" 0 "$MMD" "$TMP/both_$n.ini" -o "$TMP/both_$n/" \
        "${SMALL[@]}" --strict-effects
done
same "$TMP/accsh_ng/$F" "$TMP/both_off/$F" "shadow_off.fx on both: no ground shadow, nothing else changes"
$CHECK same_mask "$TMP/accsh_ng/$F" "$TMP/accsh/$F" "$TMP/both_green/$F" 00ff00 \
    && t_pass "shadow_green.fx on both: green at exactly the built-in ground shadows' pixels (the stage's at its placement)" \
    || t_fail "shadow_green.fx on both: green at exactly the built-in ground shadows' pixels (the stage's at its placement)"
same "$TMP/accsh/$F" "$TMP/both_colour/$F" "shadow_colour.fx on both: the built-in bytes"
# --- MME's technique choice (renderer/fx/select.h) ----------------------------------------
# the demo draws with the self-shadow on (object_ss): an effect with only an object technique
# draws it there (before: the built-in look)
scene objonly "$FX/object_only.fx"
t_expect "object_only.fx renders" 0 "$MMD" "$TMP/objonly.ini" -o "$TMP/objonly/" "${SMALL[@]}" --strict-effects
$CHECK only_colour "$TMP/plain/$F" "$TMP/objonly/$F" 00ffff \
    && t_pass "object_only.fx: its object technique draws the model cyan with the self-shadow on" \
    || t_fail "object_only.fx: its object technique draws the model cyan with the self-shadow on"
# Subset = "0": material 0 red, the rest blue; the same picture from Subset = "1-" blue first and
# red for the rest; alone, material 0 red and the rest built-in: the same red pixels but where a
# seam's depth ties fall the other way between an effect's and the built-in draw (1 of 95 here)
for n in subset subset0 subset_rest; do
    scene $n "$FX/$n.fx"
    t_expect "$n.fx renders" 0 "$MMD" "$TMP/$n.ini" -o "$TMP/$n/" "${SMALL[@]}" --strict-effects
done
$CHECK only_colour "$TMP/plain/$F" "$TMP/subset/$F" ff0000,0000ff \
    && cmp -s "$TMP/subset/$F" "$TMP/subset_rest/$F" \
    && $CHECK only_colour "$TMP/plain/$F" "$TMP/subset0/$F" ff0000 \
    && $CHECK colour_mask "$TMP/subset/$F" "$TMP/subset0/$F" ff0000 3 \
    && t_pass "Subset: material 0 red (the same pixels alone), every other material blue, nothing else" \
    || t_fail "Subset: material 0 red (the same pixels alone), every other material blue, nothing else"

# --- deterministic: runs, threads, chunks, MSAA ----------------------------------------
RANGE=(--size 160x90 --progress none --frames 10-13 --no-audio)
t_threads_chunks "flat.fx" "$TMP/flat.ini" "$TMP/flatd" "${RANGE[@]}"
t_threads_chunks "self_shadow_zplot.fx" "$TMP/ssz.ini" "$TMP/z" "${RANGE[@]}"
t_threads_chunks "shadow_green.fx" "$TMP/shgreen.ini" "$TMP/g" "${RANGE[@]}"
t_expect "plain, 4 frames" 0 "$MMD" "$S" -o "$TMP/p4/" "${RANGE[@]}"
cmp -s "$TMP/p4/frame_000013.png" "$TMP/flatd/1/frame_000013.png" && t_fail "flat.fx changes every frame (MSAA 4)" \
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
