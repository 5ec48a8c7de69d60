#!/usr/bin/env bash
# tests/cli/render_states.sh BUILD - the last DX9 render states of an effect pass (issue 27):
# AlphaTestEnable / AlphaFunc / AlphaRef (GL 3.3 core has no alpha test: the translator's discard
# against COLOR0's alpha as D3D's 8-bit value, uniforms the runtime sets per pass) and FillMode
# (glPolygonMode), on the demo's character through tests/fx/alpha_test.fx (alpha 0.5 = 128):
# a test that passes draws the model as solid.fx does, byte for byte; one that fails draws no
# pixel of it; WIREFRAME and POINT draw fewer magenta pixels than SOLID, and the built-in passes
# after the effect draw filled (the frame outside the model as without the effect).
. tests/util/cli_lib.sh
CHECK="python3 tests/util/png_check.py"
FX=$PWD/tests/fx
demo_scene "render states" || { t_done; exit; }
SMALL=(--size 160x90 --aa 1 --progress none --frames 12 --no-audio)
F=frame_000012.png
# variant NAME SED [OPTIONS]: alpha_test.fx edited by SED, on the character
variant() {
    local name=$1 edit=$2
    shift 2
    sed "$edit" "$FX/alpha_test.fx" >"$TMP/$name.fx"
    sed "s|^\\[model:demo\\]|[model:demo]\\neffect = $TMP/$name.fx|" "$S" >"$TMP/$name.ini"
    t_expect "$name renders" 0 "$MMD" "$TMP/$name.ini" -o "$TMP/$name/" "${SMALL[@]}" --strict-effects "$@"
}
same() { cmp -s "$1" "$2" && t_pass "$3" || t_fail "$3"; }
magenta() { $CHECK count "$1" ff00ff; }

t_expect "plain frame" 0 "$MMD" "$S" -o "$TMP/plain/" "${SMALL[@]}"
sed "s|^\\[model:demo\\]|[model:demo]\\neffect = $FX/solid.fx|" "$S" >"$TMP/solid.ini"
t_expect "solid.fx" 0 "$MMD" "$TMP/solid.ini" -o "$TMP/solid/" "${SMALL[@]}" --strict-effects
variant greater100 ""
same "$TMP/solid/$F" "$TMP/greater100/$F" "AlphaFunc GREATER 100 on alpha 128 passes: solid.fx's frame, byte for byte"
variant equal128 "s/AlphaFunc = GREATER/AlphaFunc = EQUAL/; s/AlphaRef = 100/AlphaRef = 128/"
same "$TMP/solid/$F" "$TMP/equal128/$F" "EQUAL 128 passes (alpha 0.5 is D3D's 128)"
variant less200 "s/AlphaFunc = GREATER/AlphaFunc = 2/; s/AlphaRef = 100/AlphaRef = 200/"
same "$TMP/solid/$F" "$TMP/less200/$F" "AlphaFunc 2 (D3DCMP_LESS) 200 passes"
variant off "s/AlphaTestEnable = TRUE/AlphaTestEnable = FALSE/; s/AlphaRef = 100/AlphaRef = 255/"
same "$TMP/solid/$F" "$TMP/off/$F" "AlphaTestEnable FALSE: no test (ref 255 ignored)"
variant greater200 "s/AlphaRef = 100/AlphaRef = 200/"
variant never "s/AlphaFunc = GREATER/AlphaFunc = NEVER/"
[ "$(magenta "$TMP/solid/$F")" -gt 100 ] && [ "$(magenta "$TMP/greater200/$F")" -eq 0 ] \
    && t_pass "GREATER 200 discards every pixel of the model (solid.fx: $(magenta "$TMP/solid/$F") magenta, here 0)" \
    || t_fail "GREATER 200 discards every pixel of the model"
same "$TMP/greater200/$F" "$TMP/never/$F" "GREATER 200 = NEVER, byte for byte"
cmp -s "$TMP/plain/$F" "$TMP/never/$F" && t_fail "NEVER: the model gone (not the built-in look)" \
    || t_pass "NEVER: the model gone (not the built-in look)"
# fill modes at 640x360 (at 160x90 the wireframe's lines cover about every pixel of the model)
BIG=(--size 640x360)
variant fill "" "${BIG[@]}"
variant wire "s/FillMode = SOLID/FillMode = WIREFRAME/" "${BIG[@]}"
variant point "s/FillMode = SOLID/FillMode = 1/" "${BIG[@]}"
s=$(magenta "$TMP/fill/$F") w=$(magenta "$TMP/wire/$F") p=$(magenta "$TMP/point/$F")
[ "$w" -gt 0 ] && [ "$w" -lt "$s" ] && [ "$p" -gt 0 ] && [ "$p" -lt "$w" ] \
    && t_pass "WIREFRAME and POINT draw fewer magenta pixels than SOLID (solid $s, wireframe $w, point $p)" \
    || t_fail "WIREFRAME and POINT draw fewer magenta pixels than SOLID (solid $s, wireframe $w, point $p)"
# the built-in passes after the effect's draw filled: frame 12 after frame 11's WIREFRAME pass on
# one thread, its top row and its bottom row's first pixels (wall and floor far from the character
# and from the live screen, which shows frame 11) as SOLID's
t_expect "WIREFRAME, frames 11-12 on one thread" 0 "$MMD" "$TMP/wire.ini" -o "$TMP/wire2/" "${SMALL[@]}" \
    "${BIG[@]}" --frames 11-12 --threads 1
python3 - "$TMP/fill/$F" "$TMP/wire2/$F" <<'PY' && t_pass "the built-in passes after a WIREFRAME pass draw filled" \
    || t_fail "the built-in passes after a WIREFRAME pass draw filled"
import sys
sys.path.insert(0, "tests/util")
from png_check import read_png
_, _, a = read_png(sys.argv[1])
_, _, b = read_png(sys.argv[2])
sys.exit(0 if a[0] == b[0] and a[-1][:20] == b[-1][:20] else 1)
PY
t_done
