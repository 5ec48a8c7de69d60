#!/usr/bin/env bash
# tests/cli/effect_confine.sh BUILD - what an effect file may read (issue 27, docs/limits.md
# "Effect files"): #include and ResourceName stay inside the effect's root (its folder two
# up, not out of the scene's folder), hostile names (absolute, ../ escapes, symlinks out,
# /dev/zero, a FIFO, a folder, an oversized file) give a clear error or one warning, in
# time, never the file's content; a ray-mmd-shaped pack (../../ray.conf) still works.
. tests/util/cli_lib.sh
[ -x "$MMD" ] || { echo "not ok 1 - $MMD missing"; echo "# counts: 0 passed, 1 failed, 0 skipped"; exit 1; }
TO="timeout 60"
W=$TMP/w
R=$W/ray-mmd
mkdir -p "$R/Materials/Skin" "$R/Shader" "$W/pack/fx" "$W/pack/shader"
echo 'float4 TOPSECRET_CONTENT;' >"$W/secret.txt"
echo 'float4 OutsideValue;' >"$W/outside.fxsub"
printf '#define RAY_CONF 1\n' >"$R/ray.conf"
printf 'float3 Helper(float3 x) { return x; }\n' >"$R/Shader/Common.fxsub"
body='float4 VS(float4 p : POSITION) : POSITION { return p; }
float4 PS() : COLOR { return float4(1, 0, 0, 1); }
technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }'
# fx FILE INCLUDE...: an effect including each name, then a trivial technique
fx() { local f=$1 i; shift; { for i in "$@"; do printf '#include "%s"\n' "$i"; done; echo "$body"; } >"$f"; }
fx "$R/Materials/Skin/material_skin.fx" "../../ray.conf" "..\\..\\shader\\common.fxsub"
fx "$W/pack/shader/x.fxsub"
fx "$W/pack/fx/x.fx" "../shader/x.fxsub"

# --- layouts that must work --------------------------------------------------------------
t_expect "ray-mmd shape: ../../ray.conf and ../../Shader/ read" 0 "$MMD" effect "$R/Materials/Skin/material_skin.fx"
t_grep "three files read" "3 file\(s\) read"
M=$(cd "$(dirname "$MMD")" && pwd)/$(basename "$MMD")
OUT=$(cd "$R/Materials/Skin" && "$M" effect material_skin.fx 2>&1); RC=$?
[ $RC -eq 0 ] && t_pass "named from its own folder: the root is still two up" || t_fail "named from its own folder" "$OUT"
t_expect "a pack's ../shader/x.fxsub" 0 "$MMD" effect "$W/pack/fx/x.fx"

# --- refused includes: exit 2, FILE:LINE, the root named, the content never shown ---------
check_refused() { # name, file, pattern
    t_expect "$1: exit 2" 2 $TO "$MMD" effect "$2"
    t_grep "$1: file:line and why" "$3"
    if grep -q "TOPSECRET\|root:x:0" <<<"$OUT"; then t_fail "$1: content not shown" "$OUT"; else t_pass "$1: content not shown"; fi
}
fx "$R/Materials/Skin/passwd.fx" "/etc/passwd"
check_refused "absolute /etc/passwd" "$R/Materials/Skin/passwd.fx" \
    'passwd\.fx:1: #include "/etc/passwd" is an absolute path, outside .*/ray-mmd \(--allow-outside-assets\)'
fx "$R/Materials/Skin/escape.fx" "../../../secret.txt"
check_refused "../../../ escape" "$R/Materials/Skin/escape.fx" \
    'escape\.fx:1: #include "\.\./\.\./\.\./secret\.txt" is outside .*/ray-mmd \(--allow-outside-assets\)'
fx "$R/Materials/Skin/deep.fx" "../../../../../../../../../../etc/passwd"
check_refused "a deep ../ escape" "$R/Materials/Skin/deep.fx" 'deep\.fx:1: #include .* is outside .*/ray-mmd'
ln -s "$W/secret.txt" "$R/Shader/link.fxsub"
fx "$R/Materials/Skin/link.fx" "../../Shader/link.fxsub"
check_refused "a symlink out" "$R/Materials/Skin/link.fx" 'link\.fx:1: #include .* is outside .*/ray-mmd'
ln -s "$W" "$R/Shader/up"
fx "$R/Materials/Skin/uplink.fx" "../../Shader/up/secret.txt"
check_refused "a folder symlink out" "$R/Materials/Skin/uplink.fx" 'uplink\.fx:1: #include .* is outside .*/ray-mmd'
fx "$R/Materials/Skin/zero.fx" "/dev/zero"
check_refused "/dev/zero" "$R/Materials/Skin/zero.fx" 'zero\.fx:1: #include "/dev/zero" is an absolute path'
ln -s /dev/zero "$R/Shader/zero.fxsub"
fx "$R/Materials/Skin/zerolink.fx" "../../Shader/zero.fxsub"
check_refused "a symlink to /dev/zero" "$R/Materials/Skin/zerolink.fx" 'zerolink\.fx:1: #include .* is outside'
t_expect "a symlink to /dev/zero, --allow-outside-assets: exit 2" 2 $TO "$MMD" effect --allow-outside-assets \
    "$R/Materials/Skin/zerolink.fx"
t_grep "not a regular file" 'zerolink\.fx:1: #include .*not a regular file'
if mkfifo "$R/Shader/fifo.fxsub" 2>/dev/null; then
    fx "$R/Materials/Skin/fifo.fx" "../../Shader/fifo.fxsub"
    check_refused "a FIFO (no writer: no hang)" "$R/Materials/Skin/fifo.fx" 'fifo\.fx:1: #include .*not a regular file'
else
    t_skip "a FIFO" "mkfifo failed"
fi
fx "$R/Materials/Skin/folder.fx" "../../Shader"
check_refused "a folder" "$R/Materials/Skin/folder.fx" 'folder\.fx:1: #include "\.\./\.\./Shader".*not a regular file'
truncate -s 17M "$R/Shader/big.fxsub"
fx "$R/Materials/Skin/big.fx" "../../Shader/big.fxsub"
check_refused "a 17 MiB include (not read)" "$R/Materials/Skin/big.fx" 'big\.fx:1: #include .*limit 16777216'
# --allow-outside-assets lifts the root
fx "$R/Materials/Skin/outside.fx" "../../../outside.fxsub"
t_expect "an include outside the root: exit 2" 2 "$MMD" effect "$R/Materials/Skin/outside.fx"
t_expect "... read with --allow-outside-assets" 0 "$MMD" effect --allow-outside-assets "$R/Materials/Skin/outside.fx"
t_expect "effect --help names --allow-outside-assets" 0 "$MMD" effect --help
t_grep "effect --help names --allow-outside-assets" '--allow-outside-assets'

# --- ResourceName in a render: a warning, read as missing (the sampler reads 0) -----------
demo_scene "effect textures" || { t_done; exit; }
SMALL=(--size 64x36 --aa 1 --progress none --frames 0)
F=frame_000000.png
python3 - "$R/Shader/red.png" "$W/secret.png" <<'PY'
import struct, sys, zlib
def png(path, rgb):
    row = b"\0" + bytes(rgb) * 2
    chunk = lambda k, d: struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d))
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(row * 2)) + chunk(b"IEND", b""))
png(sys.argv[1], (255, 0, 0))
png(sys.argv[2], (0, 255, 0))
PY
# tex NAME RESOURCE: a post effect drawing the file over the whole frame
tex() {
    sed "s|RESOURCE|$2|" >"$R/Materials/Skin/$1.fx" <<'FX'
texture2D Tex < string ResourceName = "RESOURCE"; >;
sampler2D Samp = sampler_state { texture = <Tex>; MinFilter = POINT; MagFilter = POINT; };
float Script : STANDARDSGLOBAL < string ScriptOutput = "color"; string ScriptClass = "scene";
                                 string ScriptOrder = "postprocess"; > = 0.8;
void VS(in float4 p : POSITION, out float4 o : POSITION) { o = p; }
float4 PS() : COLOR { return float4(tex2D(Samp, float2(0.5, 0.5)).rgb, 1); }
technique T < string Script = "RenderColorTarget0=;Pass=P;"; > {
    pass P < string Script = "Draw=Buffer;"; > { ZEnable = false; VertexShader = compile vs_3_0 VS();
                                                 PixelShader = compile ps_3_0 PS(); }
}
FX
    { cat "$S"; printf '\n[effects]\npost = %s\n' "$R/Materials/Skin/$1.fx"; } >"$TMP/$1.ini"
}
centre() { python3 -c 'import sys; sys.path.insert(0, "tests/util"); from png_check import read_png
w, h, rows = read_png(sys.argv[1]); print("%02x%02x%02x" % rows[h // 2][w // 2])' "$1"; }
render_tex() { # name, resource, expected centre colour, test
    tex "$1" "$2"
    t_expect "$4: renders" 0 $TO "$MMD" "$TMP/$1.ini" -o "$TMP/$1/" "${SMALL[@]}"
    local c; c=$(centre "$TMP/$1/$F" 2>&1)
    [ "$c" = "$3" ] && t_pass "$4: centre $3" || t_fail "$4: centre $3" "got $c"
}
render_tex ok "../../Shader/red.png" ff0000 "ResourceName ../../Shader/red.png (ray-mmd shape)"
grep -q "warning" <<<"$OUT" && t_fail "no warning" "$OUT" || t_pass "no warning"
render_tex out "../../../secret.png" 000000 "ResourceName ../../../secret.png"
t_grep "one warning naming the root" 'texture "\.\./\.\./\.\./secret\.png" of post effect: .*is outside .*/ray-mmd \(--allow-outside-assets\)'
n=$(grep -c 'secret\.png' <<<"$OUT"); [ "$n" = 1 ] && t_pass "warned once" || t_fail "warned once" "$n times"
render_tex abs "$W/secret.png" 000000 "ResourceName absolute"
t_grep "absolute: the warning" 'is an absolute path, outside .*/ray-mmd'
render_tex zero "/dev/zero" 000000 "ResourceName /dev/zero"
if [ -p "$R/Shader/fifo.fxsub" ]; then
    render_tex fifo "../../Shader/fifo.fxsub" 000000 "ResourceName a FIFO (no hang)"
    t_grep "a FIFO: not a regular file" 'fifo\.fxsub.*not a regular file'
else
    t_skip "ResourceName a FIFO" "no FIFO"
fi
# the effect named from outside its pack (a scene in another folder: post = ../w/ray-mmd/...): the same root
mkdir -p "$TMP/scenes"
{ sed 's|= demo/|= ../demo/|' "$S"; printf '\n[effects]\npost = ../w/ray-mmd/Materials/Skin/ok.fx\n'; } >"$TMP/scenes/ok.ini"
t_expect "named as ../w/ray-mmd/Materials/Skin/ok.fx" 0 "$MMD" "$TMP/scenes/ok.ini" -o "$TMP/okrel/" "${SMALL[@]}" \
    --strict-effects
c=$(centre "$TMP/okrel/$F"); [ "$c" = ff0000 ] && t_pass "... reads ../../Shader/red.png" || t_fail "... reads red.png" "got $c"
{ sed 's|= demo/|= ../demo/|' "$S"; printf '\n[effects]\npost = ../w/ray-mmd/Materials/Skin/out.fx\n'; } >"$TMP/scenes/out.ini"
t_expect "named as ../w/ray-mmd/Materials/Skin/out.fx" 0 "$MMD" "$TMP/scenes/out.ini" -o "$TMP/outrel/" "${SMALL[@]}"
t_grep "... ../../../secret.png still outside ray-mmd" 'secret\.png" of post effect: .*is outside .*/w/ray-mmd \('
# an object effect's ResourceName: the same rule (the model drawn in the texture's colour, or warned)
objtex() {
    sed "s|RESOURCE|$2|" >"$R/Materials/Skin/$1.fx" <<'FX'
float4x4 WorldViewProj : WORLDVIEWPROJECTION;
texture2D Tex < string ResourceName = "RESOURCE"; >;
sampler2D Samp = sampler_state { texture = <Tex>; MinFilter = POINT; MagFilter = POINT; };
float4 VS(float4 pos : POSITION) : POSITION { return mul(pos, WorldViewProj); }
float4 PS() : COLOR0 { return float4(tex2D(Samp, float2(0.5, 0.5)).rgb, 1); }
technique Main { pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }
technique MainSS < string MMDPass = "object_ss"; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }
FX
    sed "s|^\\[model:demo\\]|[model:demo]\\neffect = $R/Materials/Skin/$1.fx|" "$S" >"$TMP/$1.ini"
}
t_expect "plain frame" 0 "$MMD" "$S" -o "$TMP/plain/" "${SMALL[@]}"
objtex objok "../../Shader/red.png"
t_expect "object effect, ResourceName ../../Shader/red.png" 0 "$MMD" "$TMP/objok.ini" -o "$TMP/objok/" "${SMALL[@]}" \
    --strict-effects
python3 tests/util/png_check.py only_colour "$TMP/plain/$F" "$TMP/objok/$F" ff0000 \
    && t_pass "object effect: the model red, every other pixel kept" || t_fail "object effect: the model red"
objtex objout "../../../secret.png"
t_expect "object effect, ResourceName ../../../secret.png" 0 "$MMD" "$TMP/objout.ini" -o "$TMP/objout/" "${SMALL[@]}"
t_grep "object effect: the warning" 'texture "\.\./\.\./\.\./secret\.png" of object effect: .*is outside .*/ray-mmd'
python3 tests/util/png_check.py only_colour "$TMP/plain/$F" "$TMP/objout/$F" 000000 \
    && t_pass "object effect: read as missing (the model black)" || t_fail "object effect: read as missing"
tex out "../../../secret.png"
t_expect "ResourceName outside, --allow-outside-assets: renders" 0 "$MMD" "$TMP/out.ini" -o "$TMP/outok/" \
    "${SMALL[@]}" --allow-outside-assets
c=$(centre "$TMP/outok/$F"); [ "$c" = 00ff00 ] && t_pass "--allow-outside-assets reads it" || t_fail "--allow-outside-assets reads it" "got $c"
t_done
