#!/usr/bin/env bash
# tests/cli/post_effects_project.sh BUILD - post effects through accessories (issue 27): MME
# loads a post effect as an accessory, so an accessory's effect whose ScriptOrder is
# "postprocess" (scene.ini `effect =`, a project's .emm AcsN, the same-named .fx beside its
# .x) runs as `[effects] post = FILE.fx` does, with that accessory as its controller, in
# order after the `post` entries (docs/effects.md "Where effects come from"). Our own
# effects (tests/fx/) on the generated demo and on generated projects (tools/mkproject);
# the four shared MikuMikuShaders effects through a generated .pmm when ../shared is there.
. tests/util/cli_lib.sh
MKP=$BUILD/tools/mkproject
CHECK="python3 tests/util/png_check.py"
FX=$PWD/tests/fx
demo_scene "post effects through accessories" "$MKP" || { t_done; exit; }
SMALL=(--size 160x90 --aa 1 --progress none --frames 12)
F=frame_000012.png
# a controller as MikuMikuShaders ships them: one degenerate triangle (no pixels)
ctl() { printf 'xof 0302txt 0064\nMesh {\n3;\n0;0;0;,\n0;0;0;,\n0;0;0;;\n1;\n3;0,1,2;;\n}\n' >"$1"; }
# scene NAME [LINES...]: the demo with lines appended
scene() { local n=$1; shift; { cat "$S"; printf '\n'; printf '%s\n' "$@"; } >"$TMP/$n.ini"; }
same() { cmp -s "$1" "$2" && t_pass "$3" || t_fail "$3"; }
differ() { cmp -s "$1" "$2" && t_fail "$3" || t_pass "$3"; }
render() { t_expect "$1" 0 "$MMD" "$2" -o "$3" "${@:4}"; }
no_warning() { grep -q "is not applied" <<<"$OUT" && t_fail "$1" "$OUT" || t_pass "$1"; }

mkdir -p "$TMP/c" "$TMP/b"
ctl "$TMP/c/ctl.x"; ctl "$TMP/c/fade.x"; ctl "$TMP/b/inv.x"; ctl "$TMP/b/fade.x"
cp "$FX/invert_top.fx" "$TMP/b/inv.fx"   # same-named: inv.fx beside inv.x
cp "$FX/fade.fx" "$TMP/b/fade.fx"

# --- scene.ini: our own effects through an accessory -----------------------------------------
render "plain" "$S" "$TMP/plain/" "${SMALL[@]}"
scene post '[effects]' "post = $FX/invert_top.fx"
render "[effects] post = invert_top.fx" "$TMP/post.ini" "$TMP/post/" "${SMALL[@]}"
$CHECK invert_top "$TMP/plain/$F" "$TMP/post/$F" && t_pass "post: the top half inverted" \
    || t_fail "post: the top half inverted"
scene key '[accessory]' "file = $TMP/c/ctl.x" "effect = $FX/invert_top.fx"
render "[accessory] effect = invert_top.fx" "$TMP/key.ini" "$TMP/key/" "${SMALL[@]}" --strict-effects
no_warning "an accessory's post effect is not warned about"
same "$TMP/post/$F" "$TMP/key/$F" "effect = on an accessory = [effects] post, byte for byte"
scene beside '[accessory]' "file = $TMP/b/inv.x"
render "inv.x with inv.fx beside it" "$TMP/beside.ini" "$TMP/beside/" "${SMALL[@]}" --strict-effects
no_warning "the same-named post effect is not warned about"
same "$TMP/post/$F" "$TMP/beside/$F" "the same-named .fx beside the .x = [effects] post, byte for byte"
scene hidden '[accessory]' "file = $TMP/b/inv.x" 'visible = off'
render "inv.x hidden" "$TMP/hidden.ini" "$TMP/hidden/" "${SMALL[@]}"
same "$TMP/plain/$F" "$TMP/hidden/$F" "a hidden accessory turns its post effect off"
# the accessory is the effect's "(self)": fade.fx multiplies the frame by its Tr
scene fade0 '[accessory]' "file = $TMP/c/ctl.x" "effect = $FX/fade.fx" 'opacity = 0'
render "fade.fx on an accessory at Tr 0" "$TMP/fade0.ini" "$TMP/fade0/" "${SMALL[@]}"
$CHECK black "$TMP/fade0/$F" && t_pass "its accessory is its controller: Tr 0, black" || t_fail "Tr 0, black"
scene fade1 '[accessory]' "file = $TMP/c/ctl.x" "effect = $FX/fade.fx" 'opacity = 1'
render "fade.fx on an accessory at Tr 1" "$TMP/fade1.ini" "$TMP/fade1/" "${SMALL[@]}"
same "$TMP/plain/$F" "$TMP/fade1/$F" "Tr 1: the plain bytes"
# ... and by its own file name (CONTROLOBJECT < string name = "ctl.x"; >)
sed 's/string name = "(self)"/string name = "CTL.x"/' "$FX/fade.fx" >"$TMP/fade_named.fx"
scene faden '[accessory]' "file = $TMP/c/ctl.x" "effect = $TMP/fade_named.fx" 'opacity = 1'
render "fade.fx naming its accessory CTL.x, at Tr 1" "$TMP/faden.ini" "$TMP/faden/" "${SMALL[@]}"
same "$TMP/plain/$F" "$TMP/faden/$F" "the accessory's file name (any case) names its controller: Tr 1, the plain bytes"
# a post entry whose controller carries the same file (MME's own layout) runs once
scene once '[accessory]' "file = $TMP/b/inv.x" '[effects]' "post = $TMP/b/inv.fx"
render "post = inv.fx with inv.x (inv.fx beside it)" "$TMP/once.ini" "$TMP/once/" "${SMALL[@]}"
same "$TMP/post/$F" "$TMP/once/$F" "the entry and its controller's own effect are one effect, applied once"

# --- order: the post entries, then the accessories in their (draw) order ------------------------
# fade at Tr 0 (black) then invert_top: the top half white; the other way round: black
scene ref_fi '[accessory]' "file = $TMP/c/fade.x" 'opacity = 0' '[effects]' "post = $FX/fade.fx" "post = $FX/invert_top.fx"
render "reference: post = fade, post = invert_top" "$TMP/ref_fi.ini" "$TMP/ref_fi/" "${SMALL[@]}"
differ "$TMP/ref_fi/$F" "$TMP/fade0/$F" "the reference is not black"
scene ord1 '[accessory]' "file = $TMP/c/fade.x" 'opacity = 0' "[accessory]" "file = $TMP/b/inv.x" \
    '[effects]' "post = $FX/fade.fx"
render "post = fade, then the accessory inv.x" "$TMP/ord1.ini" "$TMP/ord1/" "${SMALL[@]}"
same "$TMP/ref_fi/$F" "$TMP/ord1/$F" "a post entry runs before an accessory's post effect"
scene ord2 '[accessory]' "file = $TMP/b/fade.x" 'opacity = 0' '[accessory]' "file = $TMP/b/inv.x"
render "accessories fade.x, inv.x" "$TMP/ord2.ini" "$TMP/ord2/" "${SMALL[@]}"
same "$TMP/ref_fi/$F" "$TMP/ord2/$F" "accessories' post effects in accessory order (fade, then invert)"
scene ord3 '[accessory]' "file = $TMP/b/inv.x" '[accessory]' "file = $TMP/b/fade.x" 'opacity = 0'
render "accessories inv.x, fade.x" "$TMP/ord3.ini" "$TMP/ord3/" "${SMALL[@]}"
$CHECK black "$TMP/ord3/$F" && t_pass "the other order: invert, then fade to black" || t_fail "the other order: black"

# --- effects on accessories that are not post effects: an object effect drawn on its subsets (the
# controller's one degenerate triangle: no pixel), the others one warning each, the frame unchanged ----
printf 'float x = ;\n' >"$TMP/bad.fx"
scene obj '[accessory]' "file = $TMP/c/ctl.x" "effect = $FX/object_passes.fx"
render "an object effect on an accessory" "$TMP/obj.ini" "$TMP/obj/" "${SMALL[@]}" --strict-effects
grep -q "is not applied" <<<"$OUT" && t_fail "an object effect on an accessory is applied: no warning" \
    || t_pass "an object effect on an accessory is applied: no warning"
same "$TMP/plain/$F" "$TMP/obj/$F" "... and the frame"
scene pre '[accessory]' "file = $TMP/c/ctl.x" "effect = $FX/sky.fx"
render "a preprocess effect on an accessory (--strict-effects)" "$TMP/pre.ini" "$TMP/pre/" "${SMALL[@]}" --strict-effects
grep -q "warning" <<<"$OUT" && t_fail "a preprocess effect is applied: no warning" \
    || t_pass "a preprocess effect is applied: no warning"
$CHECK only_colour "$TMP/plain/$F" "$TMP/pre/$F" 00ffff \
    && t_pass "sky.fx runs before the objects: it changes only background pixels, to cyan" \
    || t_fail "sky.fx runs before the objects: it changes only background pixels, to cyan"
scene prehid '[accessory]' "file = $TMP/c/ctl.x" "effect = $FX/sky.fx" 'visible = off'
render "a preprocess effect whose accessory is hidden" "$TMP/prehid.ini" "$TMP/prehid/" "${SMALL[@]}"
same "$TMP/plain/$F" "$TMP/prehid/$F" "... is off: the plain frame"
scene bad '[accessory]' "file = $TMP/c/ctl.x" "effect = $TMP/bad.fx"
render "an accessory's effect that does not parse" "$TMP/bad.ini" "$TMP/bad/" "${SMALL[@]}"
t_grep "one warning with file and line" "effect .*bad\.fx \(scene\.ini\) is not applied: .*bad\.fx:1: "
same "$TMP/plain/$F" "$TMP/bad/$F" "... and the frame"
t_expect "--strict-effects: exit 2" 2 "$MMD" "$TMP/bad.ini" -o "$TMP/bad2/" "${SMALL[@]}" --strict-effects
t_grep "--strict-effects says why" "accessory '.*': effect .*bad\.fx: .*bad\.fx:1: "

# --- projects: .emm AcsN and the same-named .fx --------------------------------------------------
# proj/ holds the projects; root/ is the asset root (UserFile\X is root/X)
R=$TMP/root
mkdir -p "$R/fx" "$TMP/proj"
cp "$TMP/demo/character.pmx" "$TMP/demo"/*.png "$R/"
ctl "$R/fx/inv.x"; ctl "$R/fx/ctl.x"
cp "$FX/invert_top.fx" "$R/fx/inv.fx"
"$MKP" --one "$TMP/proj/plain.pmm" 'model=UserFile\character.pmx' || t_fail "mkproject: plain.pmm"
"$MKP" --one "$TMP/proj/beside.pmm" 'model=UserFile\character.pmx' 'accessory=UserFile\fx\inv.x' ||
    t_fail "mkproject: beside.pmm"
"$MKP" --one "$TMP/proj/emm.pmm" 'model=UserFile\character.pmx' 'accessory=UserFile\fx\ctl.x' ||
    t_fail "mkproject: emm.pmm"
printf '[Info]\r\nVersion = 3\r\n\r\n[Effect]\r\nOwner = 0\r\nAcs1 = UserFile\\fx\\inv.fx\r\n' >"$TMP/proj/emm.emm"
PA=(--asset-root "$R" --size 160x90 --aa 1 --progress none --frames 0)
P0=frame_000000.png
render "plain project" "$TMP/proj/plain.pmm" "$TMP/pp/" "${PA[@]}"
render "project: inv.x with inv.fx beside" "$TMP/proj/beside.pmm" "$TMP/pb/" "${PA[@]}" --strict-effects
no_warning "project: the same-named post effect is not warned about"
$CHECK invert_top "$TMP/pp/$P0" "$TMP/pb/$P0" && t_pass "project, same-named: the top half inverted" \
    || t_fail "project, same-named: the top half inverted"
render "project: .emm Acs1 = inv.fx on ctl.x" "$TMP/proj/emm.pmm" "$TMP/pe/" "${PA[@]}" --strict-effects
no_warning "project: the .emm's post effect is not warned about"
same "$TMP/pb/$P0" "$TMP/pe/$P0" "project, .emm = project, same-named, byte for byte"
t_expect "info: the project's .emm effect" 0 "$MMD" info "$TMP/proj/emm.pmm" --asset-root "$R"
t_grep "info says the .emm's effect is a post effect, applied" "effect: .*inv\.fx \(\.emm Acs1\): a post effect, applied"
t_expect "info: the same-named effect" 0 "$MMD" info "$TMP/proj/beside.pmm" --asset-root "$R"
t_grep "info says the same-named effect is a post effect, applied" "effect: .*inv\.fx \(same-named \.fx beside the file\): a post effect, applied"
for p in beside emm; do
    t_expect "export $p.pmm" 0 "$MMD" export "$TMP/proj/$p.pmm" "$TMP/exp_$p" --asset-root "$R"
    render "render the export of $p.pmm" "$TMP/exp_$p/scene.ini" "$TMP/pe_$p/" --size 160x90 --aa 1 \
        --progress none --frames 0 --strict-effects
    same "$TMP/pb/$P0" "$TMP/pe_$p/$P0" "export round trip ($p): the export renders the project's bytes"
done
OUT=$(cat "$TMP/exp_emm/scene.ini")
t_grep "export carries the .emm's effect on the accessory" "^effect = .*/fx/inv\.fx$"

# --- the shared MikuMikuShaders post effects through a generated project ------------------------
SH=../shared/assets/fx/mikumikushaders
if [ ! -d "$SH" ]; then
    t_skip "shared post effects through a project" "skipped: no ../shared"; t_done; exit
fi
SH=$(cd "$SH" && pwd)
MID=(--asset-root "$R" --asset-root "$SH" --size 320x180 --aa 1 --progress none)
render "plain project 320x180" "$TMP/proj/plain.pmm" "$TMP/sp/" "${MID[@]}" --frames 0
# FXAA.x in the project (FXAA.fx beside it) = the scene.ini [effects] post = FXAA.fx with an
# FXAA.x controller that has no effect beside it
"$MKP" --one "$TMP/proj/fxaa.pmm" 'model=UserFile\character.pmx' 'accessory=UserFile\FXAA\FXAA.x' ||
    t_fail "mkproject: fxaa.pmm"
render "project with FXAA.x" "$TMP/proj/fxaa.pmm" "$TMP/sf/" "${MID[@]}" --frames 0 --strict-effects
differ "$TMP/sp/$P0" "$TMP/sf/$P0" "FXAA through the project changes the frame"
t_expect "export fxaa.pmm" 0 "$MMD" export "$TMP/proj/fxaa.pmm" "$TMP/exp_fxaa" --asset-root "$R" --asset-root "$SH"
mkdir -p "$TMP/nofx"
cp "$SH/FXAA/FXAA.x" "$TMP/nofx/FXAA.x"
sed "s|^file = .*FXAA\\.x\$|file = $TMP/nofx/FXAA.x|" "$TMP/exp_fxaa/scene.ini" >"$TMP/exp_fxaa/post.ini"
printf '\n[effects]\npost = %s\n' "$SH/FXAA/FXAA.fx" >>"$TMP/exp_fxaa/post.ini"
OUT=$(cat "$TMP/exp_fxaa/post.ini")
t_grep "the scene.ini's controller has no FXAA.fx beside it" "^file = $TMP/nofx/FXAA\\.x$"
render "scene.ini: [effects] post = FXAA.fx, [accessory] FXAA.x" "$TMP/exp_fxaa/post.ini" "$TMP/sfp/" \
    --size 320x180 --aa 1 --progress none --frames 0 --strict-effects
same "$TMP/sf/$P0" "$TMP/sfp/$P0" "project FXAA.x = scene.ini [effects] post = FXAA.fx, byte for byte"
render "render the export of fxaa.pmm" "$TMP/exp_fxaa/scene.ini" "$TMP/sfe/" --size 320x180 --aa 1 \
    --progress none --frames 0 --strict-effects
same "$TMP/sf/$P0" "$TMP/sfe/$P0" "export round trip: the export renders the project's bytes"
# the .emm: Acs1 = FXAA.fx on ctl.x
"$MKP" --one "$TMP/proj/fxaa_emm.pmm" 'model=UserFile\character.pmx' 'accessory=UserFile\fx\ctl.x' ||
    t_fail "mkproject: fxaa_emm.pmm"
printf '[Effect]\r\nAcs1 = UserFile\\FXAA\\FXAA.fx\r\n' >"$TMP/proj/fxaa_emm.emm"
render "project: .emm Acs1 = FXAA.fx" "$TMP/proj/fxaa_emm.pmm" "$TMP/sfm/" "${MID[@]}" --frames 0 --strict-effects
same "$TMP/sf/$P0" "$TMP/sfm/$P0" "project .emm FXAA = project same-named FXAA, byte for byte"
# each of the four as a project's same-named accessory: the same bytes across threads and chunks
for e in FXAA/FXAA FilmGrain/FilmGrain Hatching/Hatching LightBloom/LightBloom; do
    n=$(basename "$e")
    "$MKP" --one "$TMP/proj/sh_$n.pmm" 'model=UserFile\character.pmx' "accessory=UserFile\\${e%/*}\\$n.x" ||
        t_fail "mkproject: sh_$n.pmm"
    A=("${MID[@]}" --frames 0-3)
    render "$n project: 1 thread" "$TMP/proj/sh_$n.pmm" "$TMP/$n.1/" "${A[@]}" --threads 1 --strict-effects
    render "$n project: 3 threads" "$TMP/proj/sh_$n.pmm" "$TMP/$n.3/" "${A[@]}" --threads 3 --strict-effects
    render "$n project: chunk 0/2" "$TMP/proj/sh_$n.pmm" "$TMP/$n.c/" "${A[@]}" --chunk 0/2
    render "$n project: chunk 1/2" "$TMP/proj/sh_$n.pmm" "$TMP/$n.c/" "${A[@]}" --chunk 1/2
    ok=1
    for f in 0 1 2 3; do
        m=$(printf 'frame_%06d.png' "$f")
        cmp -s "$TMP/$n.1/$m" "$TMP/$n.3/$m" && cmp -s "$TMP/$n.1/$m" "$TMP/$n.c/$m" || ok=0
    done
    [ $ok -eq 1 ] && t_pass "$n project: same bytes across threads and chunks" \
        || t_fail "$n project: same bytes across threads and chunks"
    if [ "$n" = FilmGrain ]; then # its grain and lines scale with FilmGrainController.pmx's morphs, 0 here
        same "$TMP/sp/$P0" "$TMP/$n.1/$P0" "FilmGrain project: no controller model, the frame kept"
    else
        differ "$TMP/sp/$P0" "$TMP/$n.1/$P0" "$n project: the effect changes the frame"
    fi
done
t_done
