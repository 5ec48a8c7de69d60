#!/usr/bin/env bash
# tests/cli/material_effects.sh BUILD - MME's per-material (subset) effects (issue 27): scene.ini
# `material_effect = K FILE.fx|none`, a model's .emd `Obj[k]`, a project's .emm `PmdN[k]`. On the
# demo's character (8 materials) tests/fx/solid.fx on material 5 alone, and on every material but
# 5 (`effect =` + `material_effect = 5 none`), split the whole model's magenta pixels exactly
# (tests/util/png_check.py material_split); the .emd gives the same bytes as the keys; the same
# bytes across --threads and chunks; an index past the model's materials warns; the project's
# export carries the entries (render = export render) and info --json lists them.
. tests/util/cli_lib.sh
MKP=$BUILD/tools/mkproject
CHECK="python3 tests/util/png_check.py"
FX=$PWD/tests/fx
demo_scene "material effects" "$MKP" || { t_done; exit; }
SMALL=(--size 160x90 --aa 1 --progress none --frames 12 --no-audio)
F=frame_000012.png
K=5 # the character's cloth
# scene NAME LINES...: the demo with LINES added to [model:demo]
scene() {
    local name=$1 add="" l
    shift
    for l in "$@"; do add="$add\\n$l"; done
    sed "s|^\\[model:demo\\]|[model:demo]$add|" "$S" >"$TMP/$name.ini"
}
same() { cmp -s "$1" "$2" && t_pass "$3" || t_fail "$3"; }

t_expect "plain frame" 0 "$MMD" "$S" -o "$TMP/plain/" "${SMALL[@]}"
scene whole "effect = $FX/solid.fx"
t_expect "solid.fx on the whole model" 0 "$MMD" "$TMP/whole.ini" -o "$TMP/whole/" "${SMALL[@]}" --strict-effects
scene part "material_effect = $K $FX/solid.fx"
t_expect "material_effect = $K solid.fx (--strict-effects)" 0 "$MMD" "$TMP/part.ini" -o "$TMP/part/" "${SMALL[@]}" \
    --strict-effects
t_expect "no warning: the entry is applied" 1 grep -q "warning" <<<"$OUT"
scene rest "effect = $FX/solid.fx" "material_effect = $K none"
t_expect "effect = solid.fx, material_effect = $K none" 0 "$MMD" "$TMP/rest.ini" -o "$TMP/rest/" "${SMALL[@]}" \
    --strict-effects
$CHECK material_split "$TMP/plain/$F" "$TMP/whole/$F" "$TMP/part/$F" "$TMP/rest/$F" ff00ff \
    && t_pass "material $K alone and every other material split the whole model's magenta pixels exactly" \
    || t_fail "material $K alone and every other material split the whole model's magenta pixels exactly"
scene later "material_effect = $K none" "material_effect = $K $FX/solid.fx"
t_expect "a later line for the same material wins" 0 "$MMD" "$TMP/later.ini" -o "$TMP/later/" "${SMALL[@]}" -q
same "$TMP/part/$F" "$TMP/later/$F" "the later line's effect, byte for byte"

# --- deterministic ------------------------------------------------------------------------
RANGE=(--size 160x90 --progress none --frames 10-13 --no-audio)
t_threads_chunks "material 5 none" "$TMP/rest.ini" "$TMP/det" "${RANGE[@]}"

# --- the model's .emd ----------------------------------------------------------------------
mkdir -p "$TMP/emd/fx"
cp "$TMP/demo/"* "$TMP/emd/"
cp "$FX/solid.fx" "$TMP/emd/fx/Solid.fx"
sed "s|demo/|$TMP/emd/|g" "$S" >"$TMP/emd.ini"
printf '[Info]\r\nVersion = 3\r\n[Effect]\r\nObj = none\r\nObj[%d] = FX\\solid.fx\r\n' $K >"$TMP/emd/Character.EMD"
t_expect ".emd Obj[$K] = solid.fx" 0 "$MMD" "$TMP/emd.ini" -o "$TMP/emd1/" "${SMALL[@]}" --strict-effects
same "$TMP/part/$F" "$TMP/emd1/$F" ".emd Obj[$K] = material_effect = $K, byte for byte"
printf '[Effect]\r\nObj = fx\\solid.fx\r\nObj[%d] = none\r\nObj[0-3] = fx\\solid.fx\r\nObj[99] = fx\\solid.fx\r\n' \
    $K >"$TMP/emd/Character.EMD"
t_expect ".emd Obj = solid.fx, Obj[$K] = none" 0 "$MMD" "$TMP/emd.ini" -o "$TMP/emd2/" "${SMALL[@]}"
same "$TMP/rest/$F" "$TMP/emd2/$F" ".emd Obj[$K] = none = material_effect = $K none, byte for byte (a range not read)"
t_grep "an index past the materials: one warning" "warning: model 'demo' material 99: effect .*[Ss]olid\\.fx \\(the file's \\.emd\\) is not applied: the model has 8 materials"
scene own "effect = $FX/flat.fx"
sed -i "s|demo/|$TMP/emd/|g" "$TMP/own.ini"
t_expect "scene.ini's effect = skips the .emd" 0 "$MMD" "$TMP/own.ini" -o "$TMP/own/" "${SMALL[@]}" --strict-effects
scene ownflat "effect = $FX/flat.fx"
t_expect "flat.fx without the .emd" 0 "$MMD" "$TMP/ownflat.ini" -o "$TMP/ownflat/" "${SMALL[@]}" --strict-effects
same "$TMP/ownflat/$F" "$TMP/own/$F" "the .emd's lines are not applied under scene.ini's effect =, byte for byte"

# --- a project's .emm PmdN[k] ----------------------------------------------------------
"$MKP" "$TMP/p" >/dev/null || t_fail "mkproject writes the fixtures"
P=$TMP/p/proj/song.pmm
A=$TMP/p/assets
SZ=(--asset-root "$A" --frames 0 --size 64x48 --aa 1 --progress none --no-audio)
cp "$FX/solid.fx" "$TMP/p/proj/solid.fx"
printf '[Effect]\r\nPmd1 = solid.fx\r\n' >"$TMP/p/proj/song.emm"
t_expect "the project, Pmd1 = solid.fx" 0 "$MMD" "$P" -o "$TMP/pw/" "${SZ[@]}" --strict-effects
printf '[Effect]\r\nPmd1 = none\r\n' >"$TMP/p/proj/song.emm"
t_expect "the project, Pmd1 = none" 0 "$MMD" "$P" -o "$TMP/p0/" "${SZ[@]}" --strict-effects
printf '[Info]\r\nVersion = 3\r\n[Effect]\r\nPmd1 = none\r\nPmd1[0] = solid.fx\r\nPmd1[1] = solid.fx\r\n' \
    >"$TMP/p/proj/song.emm"
t_expect "the project, Pmd1[0] = solid.fx" 0 "$MMD" "$P" -o "$TMP/pm/" "${SZ[@]}"
same "$TMP/pw/frame_000000.png" "$TMP/pm/frame_000000.png" \
    ".emm Pmd1[0] on the dancer's one material = Pmd1, byte for byte"
t_grep "Pmd1[1]: one warning (the dancer has one material)" "warning: model '.*' material 1: effect .*solid\\.fx \\(project \\.emm\\) is not applied: the model has 1 materials"
t_expect "export the project" 0 "$MMD" export "$P" "$TMP/pexp" --asset-root "$A"
grep -q "not mapped\|Pmd1\[0\]" <<<"$OUT" && t_fail "export: no warning about Pmd1[0] (it is carried)" "$OUT" \
    || t_pass "export: no warning about Pmd1[0] (it is carried)"
grep -q "^material_effect = 0 .*solid\\.fx$" "$TMP/pexp/scene.ini" && t_pass "the export writes material_effect = 0 solid.fx" \
    || t_fail "the export writes material_effect = 0 solid.fx"
t_expect "render the export" 0 "$MMD" "$TMP/pexp/scene.ini" -o "$TMP/pe/" --frames 0 --size 64x48 --aa 1 \
    --progress none --no-audio -q
same "$TMP/pm/frame_000000.png" "$TMP/pe/frame_000000.png" "project render = export render, byte for byte"
printf '[Effect]\r\nPmd1 = solid.fx\r\nPmd1[0] = none\r\n' >"$TMP/p/proj/song.emm"
t_expect "the project, Pmd1 = solid.fx, Pmd1[0] = none" 0 "$MMD" "$P" -o "$TMP/pn/" "${SZ[@]}" --strict-effects
same "$TMP/p0/frame_000000.png" "$TMP/pn/frame_000000.png" ".emm Pmd1[0] = none: the built-in look, byte for byte"
t_expect "info --json" 0 "$MMD" info "$P" --json --asset-root "$A"
python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
a = d["effects"]["assignments"]
assert [(x["object"], x["file"], x["material"]) for x in a] == [("Pmd1", "solid.fx", None), ("Pmd1[0]", "none", 0)], a
' <<<"$OUT" && t_pass "info --json lists the assignments with their material (null: the whole object)" \
    || t_fail "info --json lists the assignments with their material (null: the whole object)" "$OUT"
t_done
